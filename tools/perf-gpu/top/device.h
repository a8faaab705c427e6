/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The gpuprof module's part of perf gpu top: when its tree is there
 * (/dev/gpuprof, or --device-root DIR), perf gpu report --device's
 * report of it (report/print-device.h: each target's share per histogram
 * key, its OA counters, the status), kept short for the view.  The tree
 * is read here (gpuprofdev/read.h); the report is printed by the printer
 * the caller passes, report_device_print(), which top/ may not include
 * (report/ is of its own layer): builtin-top.c, above all layers, does.
 */
#ifndef PERF_GPU_TOP_DEVICE_H
#define PERF_GPU_TOP_DEVICE_H

#include <stdbool.h>
#include <stdio.h>

#include "gpuprofdev/read.h"
#include "util/output.h"

/*
 * The report of the tree at @root, as @print writes it, as text of at
 * most @max_lines lines (then one saying how many were left out), or as
 * one JSON document when @json.  NULL when @root does not exist: no
 * module, no section.  A tree that cannot be read gives a line (or a
 * JSON object with "error") saying so; gpuprofdev_load() has put the
 * reason on stderr.  The caller frees the string.
 */
char *top_device_summary(const char *root, bool json, unsigned int max_lines,
			 int (*print)(const struct gpuprofdev *d,
				      enum report_format fmt, FILE *out));

#endif
