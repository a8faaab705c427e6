// SPDX-License-Identifier: GPL-2.0-only
/*
 * Starting the traced command, as perf's workload start does: the child
 * waits on a pipe until the parent has its events open, so nothing the
 * command does is missed, and reports a failed exec back through a
 * close-on-exec pipe, which simply closes when the exec succeeds.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record/workload.h"

int workload_prepare(struct workload *w, const char *const *argv)
{
	int go[2], err[2];
	char c;

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		return -e;
	}
	w->pid = fork();
	if (w->pid < 0) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		return -e;
	}
	if (!w->pid) {
		int e;

		close(go[1]);
		close(err[0]);
		/* The parent's signal handling is not the command's. */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		/* EOF without a byte: the parent gave up, do not run. */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], (char *const *)argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	w->go_fd = go[1];
	w->err_fd = err[0];
	return 0;
}

int workload_start(struct workload *w)
{
	ssize_t n;
	int e = 0;

	n = write(w->go_fd, "g", 1);
	close(w->go_fd);
	w->go_fd = -1;
	if (n != 1) {
		e = errno ? errno : EIO;
	} else {
		do
			n = read(w->err_fd, &e, sizeof(e));
		while (n < 0 && errno == EINTR);
		if (n != sizeof(e))
			e = 0;
	}
	close(w->err_fd);
	w->err_fd = -1;
	if (e) {
		while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
			;
		w->pid = -1;
		return -e;
	}
	return 0;
}

void workload_abort(struct workload *w)
{
	if (w->go_fd >= 0)
		close(w->go_fd);	/* the child sees EOF and exits */
	if (w->err_fd >= 0)
		close(w->err_fd);
	w->go_fd = w->err_fd = -1;
	if (w->pid > 0)
		while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
			;
	w->pid = -1;
}

int workload_exit_code(int status)
{
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
