/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * For host tests that call into an ioctl shim in their own process: run
 * the harness again with the shim preloaded behind the program's own ASan
 * runtime (the runtime must come first), once; @reexec_env marks the
 * second run.
 */
#ifndef GPUPROF_SELFTESTS_SHIM_PRELOAD_H
#define GPUPROF_SELFTESTS_SHIM_PRELOAD_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "asan.h"

static inline int run_with_shim_preloaded(int argc, char **argv,
					  const char *shim,
					  const char *reexec_env)
{
	char preload[2 * PATH_MAX + 2];

	if (!getenv(reexec_env)) {
		if (access(shim, R_OK)) {
			fprintf(stderr, "no shim at %s\n", shim);
			return 1;
		}
		snprintf(preload, sizeof(preload), "%s %s", asan_runtime(),
			 shim);
		setenv("LD_PRELOAD", preload, 1);
		setenv(reexec_env, "1", 1);
		execv("/proc/self/exe", argv);
		perror("execv");
		return 1;
	}
	return test_harness_run(argc, argv);
}

#endif
