/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf gpu script's decoding of gpu_oa:oa_report samples: the counter
 * deltas from the previous report of the same stream, with the decoder
 * the module shares (module/oa_decode.c).
 */
#ifndef PERF_GPU_OA_PRINT_H
#define PERF_GPU_OA_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../../../module/oa_decode.h"
#include "oa/metrics.h"

/* One stream: its layout, the report before the one being printed. */
struct script_oa {
	struct gpuprof_oa_layout layout;
	bool known;		/* @layout set, or known not to be */
	bool have_layout;
	uint8_t last[GPUPROF_OA_REPORT_MAX];
	bool have_last;
	/* perf gpu script -F ...,oa-metrics: the recording's metric set. */
	struct oa_metrics *metrics;	/* allocated once, kept */
	bool have_metrics;
};

/* The reports from here come from this device (gpu_oa:oa_device). */
void script_oa_set_device(struct script_oa *st, uint32_t device_id,
			  uint32_t format, const struct gpuprof_oa_driver *drv);

/*
 * The reports from here are of metric set @set (by uuid @uuid, else by
 * name) on device @dev: script_oa_print() follows the deltas with the
 * set's counters, " SYMBOL=VALUE" each.  None when the table lacks the
 * device or the set.  Return: 0, or -1 when out of memory.
 */
int script_oa_set_metrics(struct script_oa *st,
			  const struct oa_metrics_device *dev,
			  const char *set, const char *uuid);

/* Free what the stream holds. */
void script_oa_exit(struct script_oa *st);

/*
 * Print to @out the deltas from the stream's previous report to
 * @report (@size bytes), then keep @report as the previous one.
 * Prints nothing for the first report of a stream or a size whose
 * layout is not known.
 */
void script_oa_print(struct script_oa *st, const uint8_t *report,
		     uint32_t size, FILE *out);

#endif
