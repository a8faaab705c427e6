// SPDX-License-Identifier: GPL-2.0-only
/*
 * Time to load gpuprof.ko (finit_module until /dev/gpuprof/ctl exists)
 * and to unload it: the median of 21 cycles.  Runs in the test VM.
 */
#include <stdio.h>
#include <unistd.h>

#include "../lib/bench.h"
#include "../lib/kmod.h"

#define CYCLES 21

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
	printf("BENCH module_load_us %.0f us\n", median(load, CYCLES));
	printf("BENCH module_unload_us %.0f us\n", median(unload, CYCLES));
	return 0;
}
