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

/* One stream: its layout, the report before the one being printed. */
struct script_oa {
	struct gpuprof_oa_layout layout;
	bool known;		/* @layout set, or known not to be */
	bool have_layout;
	uint8_t last[GPUPROF_OA_REPORT_MAX];
	bool have_last;
};

/* The reports from here come from this device (gpu_oa:oa_device). */
void script_oa_set_device(struct script_oa *st, uint32_t device_id,
			  uint32_t format, uint32_t kernel, uint32_t submission);

/*
 * Print to @out the deltas from the stream's previous report to
 * @report (@size bytes), then keep @report as the previous one.
 * Prints nothing for the first report of a stream or a size whose
 * layout is not known.
 */
void script_oa_print(struct script_oa *st, const uint8_t *report,
		     uint32_t size, FILE *out);

#endif
