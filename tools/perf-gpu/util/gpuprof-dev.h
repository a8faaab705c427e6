/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf gpu report --device: the prof(1) of the gpuprof device.  Reads
 * the module's hierarchy (design.rst 3: status, timelines, and N/name,
 * N/path, N/histogram, N/counters for each target N) and prints each
 * target's share per histogram key as a percentage of all the samples,
 * jobs or bytes of all targets together, with its OA counters beside.
 *
 * The key space follows the profiling mode: timeline ids (named from
 * the timelines file as driver/timeline) for time and coverage
 * profiling, size classes ("<= 4 KiB") for memory profiling.  The mode
 * is taken from status's "histograms" key when the module has one (what
 * the histograms hold, also after stop), else from "mode"; when neither
 * says (the module is idle), keys are printed as bare numbers.
 */
#ifndef PERF_GPU_UTIL_GPUPROF_DEV_H
#define PERF_GPU_UTIL_GPUPROF_DEV_H

#include <stdio.h>

#include "util/output.h"

/* Where the module's files are. */
#define REPORT_DEVICE_ROOT "/dev/gpuprof"

/*
 * Print the report of the device under @root (REPORT_DEVICE_ROOT, or a
 * copy of its tree) to @out in @fmt.  0; or -1 after one line on stderr,
 * "perf gpu report: ROOT/FILE: PROBLEM" ("...: line N: PROBLEM" for a
 * malformed line), when a file cannot be read or is not what the module
 * writes.  A target that ends while being read (its files give ENODEV,
 * or its directory is gone) is left out.
 */
int report_device(const char *root, enum report_format fmt, FILE *out);

#endif
