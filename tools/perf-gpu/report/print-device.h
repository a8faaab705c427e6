/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf gpu report --device: the prof(1) of the gpuprof device.  Prints
 * a snapshot of the module's tree (gpuprofdev/read.h) as each target's
 * share per histogram key, as a percentage of all the samples, jobs or
 * bytes of all targets together, with its OA counters beside.  Apart
 * from the reader because perf gpu top shows this report too: top/ may
 * not include report/, so builtin-top.c hands it report_device_print().
 *
 * Keys are named as the profile says: driver/timeline for time and
 * coverage profiling (the timelines file's names), size classes
 * ("<= 4 KiB") for memory profiling, bare numbers when the module does
 * not say.
 */
#ifndef PERF_GPU_REPORT_PRINT_DEVICE_H
#define PERF_GPU_REPORT_PRINT_DEVICE_H

#include <stdio.h>

#include "gpuprofdev/read.h"
#include "util/output.h"

/*
 * Print the report of the snapshot @d to @out in @fmt: 0, or -1 after a
 * line on stderr (out of memory).
 */
int report_device_print(const struct gpuprofdev *d, enum report_format fmt,
			FILE *out);

/*
 * Read the tree under @root (GPUPROFDEV_ROOT, or a copy of its tree) and
 * print its report to @out in @fmt.  0; or -1 after one line on stderr,
 * as gpuprofdev_load() says, when a file cannot be read or is not what
 * the module writes.
 */
int report_device(const char *root, enum report_format fmt, FILE *out);

#endif
