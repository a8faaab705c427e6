// SPDX-License-Identifier: GPL-2.0-only
/*
 * What profiling costs a GPU client: the rate of a vgem fence attach +
 * signal loop with gpuprof loaded but idle, and with coverage profiling
 * running (this process then being a target, so every job is accounted).
 * Rounds alternate idle and profiled so drift on a noisy machine hits
 * both alike; medians of the rounds are compared.  Runs in the test VM.
 */
#include <stdio.h>

#include "../lib/bench.h"
#include "../lib/gpuprof.h"
#include "../lib/kmod.h"
#include "../lib/vgem.h"

#define ROUNDS 11
#define JOBS 20000

/* Jobs per second of one round of JOBS attach + signal pairs. */
static double fence_rate(int fd, uint32_t handle)
{
	double t = now_us();
	int i, f;

	for (i = 0; i < JOBS; i++) {
		f = vgem_fence_attach(fd, handle);
		if (f < 0 || vgem_fence_signal(fd, f))
			return -1;
	}
	return JOBS / ((now_us() - t) / 1e6);
}

int main(void)
{
	double idle[ROUNDS], prof[ROUNDS], mi, mp;
	uint32_t handle = 0;
	uint64_t size;
	int fd, r;

	fd = vgem_open();
	if (fd < 0 || vgem_bo_create(fd, 64, 64, &handle, &size))
		return fprintf(stderr, "no vgem\n"), 1;
	if (gpuprof_load(NULL))
		return fprintf(stderr, "cannot load gpuprof\n"), 1;
	fence_rate(fd, handle);		/* warm up */
	for (r = 0; r < ROUNDS; r++) {
		idle[r] = fence_rate(fd, handle);
		if (ctl("startcp\n"))
			return fprintf(stderr, "startcp failed\n"), 1;
		prof[r] = fence_rate(fd, handle);
		ctl("stop\n");
	}
	gpuprof_unload();
	mi = median(idle, ROUNDS);
	mp = median(prof, ROUNDS);
	printf("BENCH vgem_jobs_per_s_idle %.0f jobs/s\n", mi);
	printf("BENCH vgem_jobs_per_s_startcp %.0f jobs/s\n", mp);
	printf("BENCH probe_overhead_ratio %.3f ratio (startcp / idle, aim >= 0.95)\n",
	       mp / mi);
	return 0;
}
