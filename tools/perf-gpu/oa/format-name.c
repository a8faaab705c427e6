// SPDX-License-Identifier: GPL-2.0-only
/*
 * One name a format number.  The OAR_, OAM_ and OAC_ prefixes of the
 * uAPI's names stay: they say which unit writes the report (the render
 * context's, the media GT's, the compute context's), and two formats
 * differ by that alone (10 and 11).
 */
#include <stddef.h>

#include "../../../uapi/gpuprof_oa.h"
#include "oa/format-name.h"

static const char *const names[GPUPROF_OA_FORMAT_MAX] = {
	[GPUPROF_OA_FORMAT_A13] = "A13",
	[GPUPROF_OA_FORMAT_A29] = "A29",
	[GPUPROF_OA_FORMAT_A13_B8_C8] = "A13_B8_C8",
	[GPUPROF_OA_FORMAT_B4_C8] = "B4_C8",
	[GPUPROF_OA_FORMAT_A45_B8_C8] = "A45_B8_C8",
	[GPUPROF_OA_FORMAT_B4_C8_A16] = "B4_C8_A16",
	[GPUPROF_OA_FORMAT_C4_B8] = "C4_B8",
	[GPUPROF_OA_FORMAT_A12] = "A12",
	[GPUPROF_OA_FORMAT_A12_B8_C8] = "A12_B8_C8",
	[GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8] = "A32u40_A4u32_B8_C8",
	[GPUPROF_OAR_FORMAT_A32u40_A4u32_B8_C8] = "OAR_A32u40_A4u32_B8_C8",
	[GPUPROF_OA_FORMAT_A24u40_A14u32_B8_C8] = "A24u40_A14u32_B8_C8",
	[GPUPROF_OAM_FORMAT_MPEC8u64_B8_C8] = "OAM_MPEC8u64_B8_C8",
	[GPUPROF_OAM_FORMAT_MPEC8u32_B8_C8] = "OAM_MPEC8u32_B8_C8",
	[GPUPROF_OAC_FORMAT_A24u64_B8_C8] = "OAC_A24u64_B8_C8",
	[GPUPROF_OAC_FORMAT_A22u32_R2u32_B8_C8] = "OAC_A22u32_R2u32_B8_C8",
	[GPUPROF_OA_FORMAT_PEC64u64] = "PEC64u64",
	[GPUPROF_OA_FORMAT_PEC64u64_B8_C8] = "PEC64u64_B8_C8",
	[GPUPROF_OA_FORMAT_PEC64u32] = "PEC64u32",
	[GPUPROF_OA_FORMAT_PEC32u64_G1] = "PEC32u64_G1",
	[GPUPROF_OA_FORMAT_PEC32u32_G1] = "PEC32u32_G1",
	[GPUPROF_OA_FORMAT_PEC32u64_G2] = "PEC32u64_G2",
	[GPUPROF_OA_FORMAT_PEC32u32_G2] = "PEC32u32_G2",
	[GPUPROF_OA_FORMAT_PEC36u64_G1_32_G2_4] = "PEC36u64_G1_32_G2_4",
	[GPUPROF_OA_FORMAT_PEC36u64_G1_4_G2_32] = "PEC36u64_G1_4_G2_32",
};

const char *oa_format_name(uint32_t format)
{
	return format < GPUPROF_OA_FORMAT_MAX ? names[format] : NULL;
}
