// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu top's signals through a pipe: see top/signals.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "top/signals.h"
#include "util/debug.h"

static int sig_pipe[2] = { -1, -1 };

static void on_signal(int sig)
{
	int saved = errno;
	unsigned char b = sig;

	/* A full pipe already holds enough wake-ups: losing this one is fine. */
	if (write(sig_pipe[1], &b, 1) < 0)
		(void)0;
	errno = saved;
}

int top_signal_init(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGUSR1 };
	struct sigaction sa;
	unsigned int i;

	if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK)) {
		pr_err("pipe: %s\n", strerror(errno));
		return -1;
	}
	memset(&sa, 0, sizeof(sa));
	/* No SA_RESTART: a signal interrupts poll() at once. */
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return sig_pipe[0];
}

int top_signal_next(void)
{
	unsigned char b;

	if (sig_pipe[0] < 0 || read(sig_pipe[0], &b, 1) != 1)
		return 0;
	return b;
}
