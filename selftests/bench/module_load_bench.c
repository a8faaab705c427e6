// SPDX-License-Identifier: GPL-2.0-only
/*
 * Time to load gpuprof.ko (finit_module until /dev/gpuprof/ctl exists)
 * and to unload it: the median of 21 cycles.  Runs in the test VM.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "../lib/kmod.h"

#define CYCLES 21

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(void)
{
	double load[CYCLES], unload[CYCLES], t;
	int i, err;

	for (i = 0; i < CYCLES; i++) {
		t = now_us();
		err = gpuprof_load(NULL);
		if (err || access("/dev/gpuprof/ctl", F_OK)) {
			fprintf(stderr, "load failed: %d\n", err);
			return 1;
		}
		load[i] = now_us() - t;
		t = now_us();
		err = gpuprof_unload();
		if (err) {
			fprintf(stderr, "unload failed: %d\n", err);
			return 1;
		}
		unload[i] = now_us() - t;
	}
	qsort(load, CYCLES, sizeof(double), cmp_double);
	qsort(unload, CYCLES, sizeof(double), cmp_double);
	printf("BENCH module_load_us %.0f us\n", load[CYCLES / 2]);
	printf("BENCH module_unload_us %.0f us\n", unload[CYCLES / 2]);
	return 0;
}
