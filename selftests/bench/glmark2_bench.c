// SPDX-License-Identifier: GPL-2.0-only
/*
 * What profiling costs a real program: the score of Mesa's glmark2-es2-drm
 * (its build scene, off-screen, on virtio_gpu with virgl) with gpuprof
 * loaded and time profiling started, over its score without the module.
 * The two runs of a pair alternate which goes first, so drift on a noisy
 * machine hits both alike; the median of the pairs' ratios is the
 * figure.  Runs in the virgl VM (GPUPROF_VM_GPU=virgl).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/bench.h"
#include "../lib/gpuprof.h"
#include "../lib/kmod.h"
#include "../lib/run.h"

#define PAIRS 5

/* glmark2's score, or -1. */
static double score(void)
{
	static char out[1 << 16];
	const char *p;
	long s;

	if (run_cmd(out, sizeof(out),
		    "glmark2-es2-drm --off-screen --size 320x240 -b build:duration=3"))
		return -1;
	p = strstr(out, "glmark2 Score:");
	if (!p || sscanf(p, "glmark2 Score: %ld", &s) != 1)
		return -1;
	return s;
}

static double profiled_score(void)
{
	double s;

	if (gpuprof_load(NULL) || ctl("start"))
		return -1;
	s = score();
	if (ctl("stop") || gpuprof_unload())
		return -1;
	return s;
}

int main(void)
{
	double bare[PAIRS], prof[PAIRS], ratio[PAIRS];
	int i;

	for (i = 0; i < PAIRS; i++) {
		if (i % 2) {
			prof[i] = profiled_score();
			bare[i] = score();
		} else {
			bare[i] = score();
			prof[i] = profiled_score();
		}
		if (bare[i] <= 0 || prof[i] <= 0)
			return fprintf(stderr, "glmark2-es2-drm failed, or gpuprof\n"), 1;
		ratio[i] = prof[i] / bare[i];
		printf("# pair %d: score %.0f without gpuprof, %.0f in time mode\n",
		       i, bare[i], prof[i]);
	}
	printf("BENCH glmark2_score_bare %.0f score (median of %d)\n",
	       median(bare, PAIRS), PAIRS);
	printf("BENCH glmark2_score_time_mode %.0f score (median of %d)\n",
	       median(prof, PAIRS), PAIRS);
	printf("BENCH glmark2_score_ratio %.3f ratio (time mode / without, median of %d pairs, aim >= 0.97)\n",
	       median(ratio, PAIRS), PAIRS);
	return 0;
}
