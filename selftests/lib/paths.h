/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where the host tests find the programs and files they run: beside
 * their own binary (selftests/out/host/), unless the environment says.
 */
#ifndef GPUPROF_TEST_PATHS_H
#define GPUPROF_TEST_PATHS_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * $@env when it is set (@env may be NULL), else @rel taken from the
 * folder of this program, in @path.  Return: the path.
 */
static inline const char *beside_exe(char *path, size_t size,
				     const char *env, const char *rel)
{
	const char *p = env ? getenv(env) : NULL;
	ssize_t n;
	char *slash;

	if (p && *p)
		return p;
	n = readlink("/proc/self/exe", path, size - 1);
	path[n > 0 ? n : 0] = '\0';
	slash = strrchr(path, '/');
	snprintf(slash ? slash + 1 : path,
		 size - (slash ? (size_t)(slash + 1 - path) : 0), "%s", rel);
	return path;
}

/* The i915 ioctl shim, selftests/out/libi915_shim.so. */
static inline const char *i915_shim_path(void)
{
	static char path[PATH_MAX];

	return beside_exe(path, sizeof(path), "GPUPROF_I915_SHIM",
			  "../libi915_shim.so");
}

/* The sanitized gpuprof-oa under test. */
static inline const char *host_gpuprof_oa_path(void)
{
	static char path[PATH_MAX];

	return beside_exe(path, sizeof(path), "GPUPROF_OA",
			  "../../../tools/perf-gpu/out/asan/gpuprof-oa");
}

#endif
