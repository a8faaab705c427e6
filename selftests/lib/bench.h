/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Timing helpers for the benchmarks: a monotonic clock and medians.
 */
#ifndef GPUPROF_TEST_BENCH_H
#define GPUPROF_TEST_BENCH_H

#include <stdio.h>
#include <stdlib.h>
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

#endif
