/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The names of the OA report formats (uapi/gpuprof_oa.h's
 * GPUPROF_OA_FORMAT_*), as i915's and xe's uAPI headers spell them, for
 * reports and headers that say which layout a stream had.
 */
#ifndef PERF_GPU_OA_FORMAT_NAME_H
#define PERF_GPU_OA_FORMAT_NAME_H

#include <stdint.h>

/* "A32u40_A4u32_B8_C8" for format 10; NULL for a number with no name. */
const char *oa_format_name(uint32_t format);

#endif
