/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Preloading a library (the i915 shim) into a sanitizer-built program:
 * ASan's runtime must come first in LD_PRELOAD, and this test process,
 * built the same way, has it mapped.
 */
#ifndef GPUPROF_TEST_ASAN_H
#define GPUPROF_TEST_ASAN_H

#include <limits.h>
#include <stdio.h>
#include <string.h>

/* This process's ASan runtime, to preload ahead of the shim; "" if none. */
static inline const char *asan_runtime(void)
{
	static char path[PATH_MAX];
	char line[PATH_MAX + 128], *p;
	FILE *f = fopen("/proc/self/maps", "r");

	path[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		p = strchr(line, '/');
		if (p && strstr(p, "/libasan.so")) {
			p[strcspn(p, "\n")] = '\0';
			snprintf(path, sizeof(path), "%s", p);
			break;
		}
	}
	if (f)
		fclose(f);
	return path;
}

#endif
