// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuwork: GPU work on vgem for the device tests, run as a process of
 * its own so it can be matched by name and path and can exit.
 *
 *   gpuwork [-n COMM] [-m NAME] [-t] [-w DIR] fences K [HOLD_MS]
 *					K jobs, each held HOLD_MS; with -w,
 *					the first not before DIR/go exists
 *					(DIR/COMM.ready made once vgem is
 *					open and the buffer made, so another
 *					process can start them together);
 *					with -t,
 *					"held MIN MAX" printed for each:
 *					the least and the most it can have
 *					run, in ms of CLOCK_MONOTONIC (from
 *					after the ioctl that made its fence
 *					to before the one that signals it,
 *					and from before the one to after the
 *					other)
 *   gpuwork [-n COMM] buffer BYTES	hold a BYTES dumb buffer ("ready"
 *					printed) until stdin closes, or,
 *					when stdin is no pipe and stdout
 *					is one, until that pipe's reader
 *					goes
 *
 * -n sets the process name first (the name a target matches); -m marks
 * the jobs as a range NAME, "begin NAME" and "end NAME" written to
 * /dev/gpuprof/marker around them.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../lib/vgem.h"

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

static double mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* DIR/COMM.ready, then until DIR/go exists (at most 10 minutes). */
static int wait_go(const char *dir)
{
	char path[PATH_MAX], comm[16] = "";
	int i, fd;

	prctl(PR_GET_NAME, comm);
	snprintf(path, sizeof(path), "%s/%s.ready", dir, comm);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return fprintf(stderr, "gpuwork: %s: %s\n", path, strerror(errno)), 1;
	close(fd);
	snprintf(path, sizeof(path), "%s/go", dir);
	for (i = 0; i < 60000 && access(path, F_OK); i++)
		sleep_ms(10);
	if (access(path, F_OK))
		return fprintf(stderr, "gpuwork: no %s after 10 minutes\n", path), 1;
	return 0;
}

static int fences(int fd, long k, unsigned int hold_ms, bool timed,
		  const char *go)
{
	uint32_t handle;
	uint64_t size;
	double t0, t1, t2;
	long i;
	int f, err;

	err = vgem_bo_create(fd, 64, 64, &handle, &size);
	if (err)
		return fprintf(stderr, "gpuwork: create: %s\n", strerror(-err)), 1;
	if (go && wait_go(go))
		return 1;
	for (i = 0; i < k; i++) {
		t0 = mono_ms();
		f = vgem_fence_attach(fd, handle);
		if (f < 0)
			return fprintf(stderr, "gpuwork: attach: %s\n", strerror(-f)), 1;
		t1 = mono_ms();
		if (hold_ms)
			sleep_ms(hold_ms);
		t2 = mono_ms();
		err = vgem_fence_signal(fd, f);
		if (err)
			return fprintf(stderr, "gpuwork: signal: %s\n", strerror(-err)), 1;
		if (timed)
			printf("held %.3f %.3f\n", t2 - t1, mono_ms() - t0);
	}
	return 0;
}

static bool is_pipe(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISFIFO(st.st_mode);
}

/*
 * A shell example's "gpuwork buffer N | { read ...; cat ...; }" holds
 * the buffer while the reader runs: a pipe's write end polls POLLERR
 * once its reader has closed it.
 */
static int wait_reader_gone(int fd)
{
	struct pollfd p = { .fd = fd };

	while (poll(&p, 1, -1) >= 0 || errno == EINTR)
		if (p.revents & (POLLERR | POLLHUP))
			return 0;
	return 1;
}

static int buffer(int fd, unsigned long bytes)
{
	uint32_t handle;
	uint64_t size;
	char c;
	int err;

	/* 1024 pixels of 32 bits make a 4 KiB row. */
	if (bytes % 4096)
		return fprintf(stderr, "gpuwork: BYTES must be a multiple of 4096\n"), 2;
	err = vgem_bo_create(fd, 1024, bytes / 4096, &handle, &size);
	if (err)
		return fprintf(stderr, "gpuwork: create: %s\n", strerror(-err)), 1;
	printf("ready %llu\n", (unsigned long long)size);
	fflush(stdout);
	if (is_pipe(1) && !is_pipe(0))
		return wait_reader_gone(1);
	while (read(0, &c, 1) > 0)
		;
	return 0;
}

static int mark(const char *what, const char *name)
{
	char line[256];
	int fd = open("/dev/gpuprof/marker", O_WRONLY | O_CLOEXEC);
	int n = snprintf(line, sizeof(line), "%s %s\n", what, name);
	int ok = fd >= 0 && n > 0 && n < (int)sizeof(line) &&
		 write(fd, line, n) == n;

	if (fd >= 0)
		close(fd);
	if (!ok)
		fprintf(stderr, "gpuwork: cannot write '%s %s' to the marker\n",
			what, name);
	return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	const char *range = NULL, *go = NULL;
	bool timed = false;
	int fd, ret;

	if (argc > 2 && !strcmp(argv[1], "-n")) {
		prctl(PR_SET_NAME, argv[2]);
		argv += 2;
		argc -= 2;
	}
	if (argc > 2 && !strcmp(argv[1], "-m")) {
		range = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc > 1 && !strcmp(argv[1], "-t")) {
		timed = true;
		argv++;
		argc--;
	}
	if (argc > 2 && !strcmp(argv[1], "-w")) {
		go = argv[2];
		argv += 2;
		argc -= 2;
	}
	fd = vgem_open();
	if (fd < 0)
		return fprintf(stderr, "gpuwork: no vgem device\n"), 1;
	if (argc >= 3 && !strcmp(argv[1], "fences")) {
		if (range && mark("begin", range))
			return 1;
		ret = fences(fd, atol(argv[2]), argc > 3 ? atoi(argv[3]) : 0,
			     timed, go);
		if (range && mark("end", range))
			return 1;
		return ret;
	}
	if (argc == 3 && !strcmp(argv[1], "buffer"))
		return buffer(fd, strtoul(argv[2], NULL, 0));
	fprintf(stderr, "usage: gpuwork [-n COMM] [-m NAME] [-t] [-w DIR] fences K [HOLD_MS] | buffer BYTES\n");
	return 2;
}
