/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers for the benchmarks: a monotonic clock, medians, and knowing when
 * a perf record started beside a benchmark has opened its events.
 */
#ifndef GPUPROF_TEST_BENCH_H
#define GPUPROF_TEST_BENCH_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static inline double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of @n values; sorts them. */
static inline double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Start @argv with its stdout and stderr on /dev/null: its pid, or -1.
 * What this process has buffered is flushed first, or the child's
 * freopen() would write a copy of it.
 */
static inline pid_t bench_spawn_quiet(char *const argv[])
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout) ||
		    !freopen("/dev/null", "w", stderr))
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	return pid;
}


/* perf_event fds @pid holds: a recorder is ready when they stop growing. */
static inline int bench_perf_fds(pid_t pid)
{
	char path[64], link[64];
	struct dirent *d;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		char fd[400];
		ssize_t len;

		snprintf(fd, sizeof(fd), "%s/%s", path, d->d_name);
		len = readlink(fd, link, sizeof(link) - 1);
		if (len > 0) {
			link[len] = '\0';
			n += !strcmp(link, "anon_inode:[perf_event]");
		}
	}
	closedir(dir);
	return n;
}

/*
 * Wait until recorder @pid has opened its events (perf record -a takes
 * seconds to start under TCG: nothing is written to its file before the
 * end), then a second more, for its first poll.
 */
static inline void bench_wait_perf_ready(pid_t pid)
{
	int i, n, last = -1, stable = 0;

	for (i = 0; i < 1200 && stable < 10; i++) {
		n = bench_perf_fds(pid);
		stable = n > 0 && n == last ? stable + 1 : 0;
		last = n;
		usleep(100000);
	}
	sleep(1);
}

#endif
