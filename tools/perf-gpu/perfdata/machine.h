/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What perf.data's header says of the recording machine beyond uname()
 * and the CPU count: the CPU's description (HEADER_CPUDESC), its id
 * (HEADER_CPUID) and the memory (HEADER_TOTAL_MEM), read from procfs as
 * perf does, so that perf report --header-only shows them.
 */
#ifndef PERF_GPU_PERFDATA_MACHINE_H
#define PERF_GPU_PERFDATA_MACHINE_H

#include <stdint.h>

struct perf_machine {
	char cpudesc[128];	/* "model name", blanks squeezed; "" unknown */
	char cpuid[64];		/* x86: "GenuineIntel,6,85,7"; "" unknown */
	uint64_t total_mem_kb;	/* MemTotal; 0 unknown */
};

/*
 * Fill @m from a cpuinfo and a meminfo file (/proc/cpuinfo and
 * /proc/meminfo; others for tests).  What a file lacks, or a file that
 * cannot be read, leaves its fields unknown: never an error.
 */
void perf_machine_read(struct perf_machine *m, const char *cpuinfo,
		       const char *meminfo);

#endif
