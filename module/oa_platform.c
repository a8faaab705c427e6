// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: Intel GPUs by PCI device id, and OA report formats, and what
 * i915-perf and xe do with each (oa_platform.h).  Plain data, with the
 * look-ups over it: it includes nothing of the decoder and calls nothing,
 * and the decoder (oa_decode.c) reads it.  Compiled into the module and
 * into the tools alike.
 */

/**
 * DOC: OA platforms
 *
 * i915 and xe treat OA reports differently per GPU: which report formats
 * a kernel offers, whether the context id of a report is trusted only
 * with its valid bit, which bits of it are the id, and how wide the
 * reason field is.  One row per GPU variant says what those rules hang
 * on (the graphics IP version, i915's default submission back end, the
 * first of our kernels whose i915-perf and whose xe serve it) and which
 * of IGT's metric definitions userspace uses for it.  The device ids and
 * their grouping into variants are those of IGT 1.27.1's device list
 * (which its i915-perf-reader uses to pick metrics), plus the ids only
 * Linux 6.12's i915 knows, which get the rules of their platform and no
 * metrics, plus Lunar Lake and Battlemage as 6.12's xe_pciids.h lists
 * them and the Battlemage ids 7.3's adds, and Panther Lake as 7.3's xe
 * lists it (its PTL ids and the two Wildcat Lake ids it binds to the
 * same description, which IGT lists as Panther Lake), with the metrics
 * of IGT's lib/xe (oa.rst says which commit).
 * The rules themselves are in oa_decode.c (design.rst 4, oa.rst).
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#else
#include <stddef.h>
#endif

#include "oa_platform.h"

enum {
	P_HSW_GT1,
	P_HSW_GT2,
	P_HSW_GT3,
	P_BDW,
	P_CHV,
	P_SKL_GT1,
	P_SKL_GT2,
	P_SKL_GT3,
	P_SKL_GT4,
	P_BXT,
	P_GLK,
	P_KBL_GT1,
	P_KBL_GT2,
	P_KBL_GT3,
	P_KBL_GT4,
	P_CFL_GT1,
	P_CFL_GT2,
	P_CFL_GT3,
	P_CML_GT1,
	P_CML_GT2,
	P_CNL,
	P_ICL,
	P_EHL,
	P_EHL_K,
	P_JSL,
	P_TGL_GT1,
	P_TGL_GT2,
	P_RKL,
	P_DG1,
	P_ADLS,
	P_ADLS_K,
	P_RPLS,
	P_ADLP,
	P_ADLP_K,
	P_ADLN,
	P_ADLN_K,
	P_DG2_G10,
	P_DG2_G11,
	P_DG2_G12,
	P_DG2_K,
	P_MTL_GT2,
	P_MTL_GT3,
	P_ARL,
	P_LNL,
	P_BMG,
	P_BMG_7_3,
	P_PTL,
	P_WCL,
};

#define OA_SINCE_6_1	GPUPROF_OA_KERNEL(6, 1)
#define OA_SINCE_6_12	GPUPROF_OA_KERNEL(6, 12)
#define OA_SINCE_7_3	GPUPROF_OA_KERNEL(7, 3)
#define OA_SINCE_NONE	0

static const struct gpuprof_oa_platform gpuprof_oa_platforms[] = {
	[P_HSW_GT1] = { "Haswell GT1", "hsw", 700, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_HSW_GT2] = { "Haswell GT2", "hsw", 700, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_HSW_GT3] = { "Haswell GT3", "hsw", 700, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_BDW] = { "Broadwell", "bdw", 800, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_CHV] = { "Cherryview", "chv", 800, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_SKL_GT1] = { "Skylake GT1", NULL, 900, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_SKL_GT2] = { "Skylake GT2", "sklgt2", 900, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_SKL_GT3] = { "Skylake GT3", "sklgt3", 900, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_SKL_GT4] = { "Skylake GT4", "sklgt4", 900, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_BXT] = { "Broxton", "bxt", 900, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_GLK] = { "Gemini Lake", "glk", 900, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_KBL_GT1] = { "Kaby Lake GT1", NULL, 900, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_KBL_GT2] = { "Kaby Lake GT2", "kblgt2", 900, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_KBL_GT3] = { "Kaby Lake GT3", "kblgt3", 900, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_KBL_GT4] = { "Kaby Lake GT4", NULL, 900, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_CFL_GT1] = { "Coffee Lake GT1", NULL, 900, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_CFL_GT2] = { "Coffee Lake GT2", "cflgt2", 900, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_CFL_GT3] = { "Coffee Lake GT3", "cflgt3", 900, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_CML_GT1] = { "Comet Lake GT1", NULL, 900, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_CML_GT2] = { "Comet Lake GT2", "cflgt2", 900, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_CNL] = { "Cannon Lake", "cnl", 1000, false, OA_SINCE_NONE,
		  OA_SINCE_NONE },
	[P_ICL] = { "Ice Lake", "icl", 1100, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_EHL] = { "Elkhart Lake", "ehl", 1100, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_EHL_K] = { "Elkhart Lake", NULL, 1100, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_JSL] = { "Jasper Lake", "ehl", 1100, false, OA_SINCE_6_1,
		  OA_SINCE_NONE },
	[P_TGL_GT1] = { "Tiger Lake GT1", "tglgt1", 1200, false, OA_SINCE_6_1,
		  OA_SINCE_6_12 },
	[P_TGL_GT2] = { "Tiger Lake GT2", "tglgt2", 1200, false, OA_SINCE_6_1,
		  OA_SINCE_6_12 },
	[P_RKL] = { "Rocket Lake", "rkl", 1200, false, OA_SINCE_6_1,
		  OA_SINCE_6_12 },
	[P_DG1] = { "DG1", "dg1", 1210, true, OA_SINCE_6_1,
		  OA_SINCE_6_12 },
	[P_ADLS] = { "Alder Lake-S", "adl", 1200, false, OA_SINCE_6_1,
		  OA_SINCE_6_12 },
	[P_ADLS_K] = { "Alder Lake-S", NULL, 1200, false, OA_SINCE_6_1,
		  OA_SINCE_6_12 },
	[P_RPLS] = { "Raptor Lake-S", "adl", 1200, true, OA_SINCE_6_1,
		  OA_SINCE_6_12 },
	[P_ADLP] = { "Alder Lake-P", "adl", 1200, true, OA_SINCE_6_1,
		  OA_SINCE_6_12 },
	[P_ADLP_K] = { "Alder Lake-P", NULL, 1200, true, OA_SINCE_6_1,
		  OA_SINCE_6_12 },
	[P_ADLN] = { "Alder Lake-N", "adl", 1200, true, OA_SINCE_6_1,
		  OA_SINCE_6_12 },
	[P_ADLN_K] = { "Alder Lake-N", NULL, 1200, true, OA_SINCE_6_1,
		  OA_SINCE_6_12 },
	[P_DG2_G10] = { "DG2 G10", "acmgt3", 1255, true, OA_SINCE_6_12,
		  OA_SINCE_6_12 },
	[P_DG2_G11] = { "DG2 G11", "acmgt1", 1255, true, OA_SINCE_6_12,
		  OA_SINCE_6_12 },
	[P_DG2_G12] = { "DG2 G12", "acmgt2", 1255, true, OA_SINCE_6_12,
		  OA_SINCE_6_12 },
	[P_DG2_K] = { "DG2", NULL, 1255, true, OA_SINCE_6_12,
		  OA_SINCE_6_12 },
	[P_MTL_GT2] = { "Meteor Lake GT2", "mtlgt2", 1270, true, OA_SINCE_6_12,
		  OA_SINCE_6_12 },
	[P_MTL_GT3] = { "Meteor Lake GT3", "mtlgt3", 1270, true, OA_SINCE_6_12,
		  OA_SINCE_6_12 },
	[P_ARL] = { "Arrow Lake", NULL, 1274, true, OA_SINCE_6_12,
		  OA_SINCE_6_12 },
	/* Xe2: only xe serves them. */
	[P_LNL] = { "Lunar Lake", "lnl", 2004, true, OA_SINCE_NONE,
		    OA_SINCE_6_12 },
	[P_BMG] = { "Battlemage", "bmg", 2001, true, OA_SINCE_NONE,
		    OA_SINCE_6_12 },
	/* The Battlemage ids 7.3's xe_pciids.h added. */
	[P_BMG_7_3] = { "Battlemage", "bmg", 2001, true, OA_SINCE_NONE,
			OA_SINCE_7_3 },
	/*
	 * Xe3: xe reads the IP version from the GPU (30.00 to 30.05 in
	 * 7.3's xe_pci.c); 30.00 stands for them, as only the generation
	 * and "Xe2 or later" matter to the rules.
	 */
	[P_PTL] = { "Panther Lake", "ptl", 3000, true, OA_SINCE_NONE,
		    OA_SINCE_7_3 },
	[P_WCL] = { "Wildcat Lake", "ptl", 3000, true, OA_SINCE_NONE,
		    OA_SINCE_7_3 },
};

/* Sorted by id, for a binary search. */
static const struct {
	__u16 id;
	__u8 platform;
} gpuprof_oa_device_ids[] = {
	{ 0x0402, P_HSW_GT1 }, { 0x0406, P_HSW_GT1 }, { 0x040a, P_HSW_GT1 },
	{ 0x040b, P_HSW_GT1 }, { 0x040e, P_HSW_GT1 }, { 0x0412, P_HSW_GT2 },
	{ 0x0416, P_HSW_GT2 }, { 0x041a, P_HSW_GT2 }, { 0x041b, P_HSW_GT2 },
	{ 0x041e, P_HSW_GT2 }, { 0x0422, P_HSW_GT3 }, { 0x0426, P_HSW_GT3 },
	{ 0x042a, P_HSW_GT3 }, { 0x042b, P_HSW_GT3 }, { 0x042e, P_HSW_GT3 },
	{ 0x0a02, P_HSW_GT1 }, { 0x0a06, P_HSW_GT1 }, { 0x0a0a, P_HSW_GT1 },
	{ 0x0a0b, P_HSW_GT1 }, { 0x0a0e, P_HSW_GT1 }, { 0x0a12, P_HSW_GT2 },
	{ 0x0a16, P_HSW_GT2 }, { 0x0a1a, P_HSW_GT2 }, { 0x0a1b, P_HSW_GT2 },
	{ 0x0a1e, P_HSW_GT2 }, { 0x0a22, P_HSW_GT3 }, { 0x0a26, P_HSW_GT3 },
	{ 0x0a2a, P_HSW_GT3 }, { 0x0a2b, P_HSW_GT3 }, { 0x0a2e, P_HSW_GT3 },
	{ 0x0a84, P_BXT }, { 0x0c02, P_HSW_GT1 }, { 0x0c06, P_HSW_GT1 },
	{ 0x0c0a, P_HSW_GT1 }, { 0x0c0b, P_HSW_GT1 }, { 0x0c0e, P_HSW_GT1 },
	{ 0x0c12, P_HSW_GT2 }, { 0x0c16, P_HSW_GT2 }, { 0x0c1a, P_HSW_GT2 },
	{ 0x0c1b, P_HSW_GT2 }, { 0x0c1e, P_HSW_GT2 }, { 0x0c22, P_HSW_GT3 },
	{ 0x0c26, P_HSW_GT3 }, { 0x0c2a, P_HSW_GT3 }, { 0x0c2b, P_HSW_GT3 },
	{ 0x0c2e, P_HSW_GT3 }, { 0x0d02, P_HSW_GT1 }, { 0x0d06, P_HSW_GT1 },
	{ 0x0d0a, P_HSW_GT1 }, { 0x0d0b, P_HSW_GT1 }, { 0x0d0e, P_HSW_GT1 },
	{ 0x0d12, P_HSW_GT2 }, { 0x0d16, P_HSW_GT2 }, { 0x0d1a, P_HSW_GT2 },
	{ 0x0d1b, P_HSW_GT2 }, { 0x0d1e, P_HSW_GT2 }, { 0x0d22, P_HSW_GT3 },
	{ 0x0d26, P_HSW_GT3 }, { 0x0d2a, P_HSW_GT3 }, { 0x0d2b, P_HSW_GT3 },
	{ 0x0d2e, P_HSW_GT3 }, { 0x1602, P_BDW }, { 0x1606, P_BDW },
	{ 0x160a, P_BDW }, { 0x160b, P_BDW }, { 0x160d, P_BDW }, { 0x160e, P_BDW },
	{ 0x1612, P_BDW }, { 0x1616, P_BDW }, { 0x161a, P_BDW }, { 0x161b, P_BDW },
	{ 0x161d, P_BDW }, { 0x161e, P_BDW }, { 0x1622, P_BDW }, { 0x1626, P_BDW },
	{ 0x162a, P_BDW }, { 0x162b, P_BDW }, { 0x162d, P_BDW }, { 0x162e, P_BDW },
	{ 0x1632, P_BDW }, { 0x1636, P_BDW }, { 0x163a, P_BDW }, { 0x163b, P_BDW },
	{ 0x163d, P_BDW }, { 0x163e, P_BDW }, { 0x1902, P_SKL_GT1 },
	{ 0x1906, P_SKL_GT1 }, { 0x190a, P_SKL_GT1 }, { 0x190b, P_SKL_GT1 },
	{ 0x190e, P_SKL_GT1 }, { 0x1912, P_SKL_GT2 }, { 0x1913, P_SKL_GT1 },
	{ 0x1915, P_SKL_GT1 }, { 0x1916, P_SKL_GT2 }, { 0x1917, P_SKL_GT1 },
	{ 0x191a, P_SKL_GT2 }, { 0x191b, P_SKL_GT2 }, { 0x191d, P_SKL_GT2 },
	{ 0x191e, P_SKL_GT2 }, { 0x1921, P_SKL_GT2 }, { 0x1923, P_SKL_GT3 },
	{ 0x1926, P_SKL_GT3 }, { 0x1927, P_SKL_GT3 }, { 0x192a, P_SKL_GT3 },
	{ 0x192b, P_SKL_GT3 }, { 0x192d, P_SKL_GT3 }, { 0x1932, P_SKL_GT4 },
	{ 0x193a, P_SKL_GT4 }, { 0x193b, P_SKL_GT4 }, { 0x193d, P_SKL_GT4 },
	{ 0x1a84, P_BXT }, { 0x1a85, P_BXT }, { 0x22b0, P_CHV }, { 0x22b1, P_CHV },
	{ 0x22b2, P_CHV }, { 0x22b3, P_CHV }, { 0x3184, P_GLK }, { 0x3185, P_GLK },
	{ 0x3e90, P_CFL_GT1 }, { 0x3e91, P_CFL_GT2 }, { 0x3e92, P_CFL_GT2 },
	{ 0x3e93, P_CFL_GT1 }, { 0x3e94, P_CFL_GT2 }, { 0x3e96, P_CFL_GT2 },
	{ 0x3e98, P_CFL_GT2 }, { 0x3e99, P_CFL_GT1 }, { 0x3e9a, P_CFL_GT2 },
	{ 0x3e9b, P_CFL_GT2 }, { 0x3e9c, P_CFL_GT1 }, { 0x3ea0, P_CFL_GT2 },
	{ 0x3ea1, P_CFL_GT1 }, { 0x3ea2, P_CFL_GT3 }, { 0x3ea3, P_CFL_GT2 },
	{ 0x3ea4, P_CFL_GT1 }, { 0x3ea5, P_CFL_GT3 }, { 0x3ea6, P_CFL_GT3 },
	{ 0x3ea7, P_CFL_GT3 }, { 0x3ea8, P_CFL_GT3 }, { 0x3ea9, P_CFL_GT2 },
	{ 0x4541, P_EHL }, { 0x4551, P_EHL }, { 0x4555, P_EHL }, { 0x4557, P_EHL },
	{ 0x4570, P_EHL_K }, { 0x4571, P_EHL }, { 0x4626, P_ADLP },
	{ 0x4628, P_ADLP }, { 0x462a, P_ADLP }, { 0x4680, P_ADLS },
	{ 0x4682, P_ADLS }, { 0x4688, P_ADLS }, { 0x468a, P_ADLS },
	{ 0x468b, P_ADLS_K }, { 0x4690, P_ADLS }, { 0x4692, P_ADLS },
	{ 0x4693, P_ADLS }, { 0x46a0, P_ADLP }, { 0x46a1, P_ADLP },
	{ 0x46a2, P_ADLP }, { 0x46a3, P_ADLP }, { 0x46a6, P_ADLP },
	{ 0x46a8, P_ADLP }, { 0x46aa, P_ADLP }, { 0x46b0, P_ADLP },
	{ 0x46b1, P_ADLP }, { 0x46b2, P_ADLP }, { 0x46b3, P_ADLP },
	{ 0x46c0, P_ADLP }, { 0x46c1, P_ADLP }, { 0x46c2, P_ADLP },
	{ 0x46c3, P_ADLP }, { 0x46d0, P_ADLN }, { 0x46d1, P_ADLN },
	{ 0x46d2, P_ADLN }, { 0x46d3, P_ADLN_K }, { 0x46d4, P_ADLN_K },
	{ 0x4905, P_DG1 }, { 0x4906, P_DG1 }, { 0x4907, P_DG1 }, { 0x4908, P_DG1 },
	{ 0x4909, P_DG1 }, { 0x4c80, P_RKL }, { 0x4c8a, P_RKL }, { 0x4c8b, P_RKL },
	{ 0x4c8c, P_RKL }, { 0x4c90, P_RKL }, { 0x4c9a, P_RKL }, { 0x4e51, P_JSL },
	{ 0x4e55, P_JSL }, { 0x4e57, P_JSL }, { 0x4e61, P_JSL }, { 0x4e71, P_JSL },
	{ 0x5690, P_DG2_G10 }, { 0x5691, P_DG2_G10 }, { 0x5692, P_DG2_G10 },
	{ 0x5693, P_DG2_G11 }, { 0x5694, P_DG2_G11 }, { 0x5695, P_DG2_G11 },
	{ 0x5696, P_DG2_G12 }, { 0x5697, P_DG2_G12 }, { 0x5698, P_DG2_G11 },
	{ 0x56a0, P_DG2_G10 }, { 0x56a1, P_DG2_G10 }, { 0x56a2, P_DG2_G10 },
	{ 0x56a3, P_DG2_G12 }, { 0x56a4, P_DG2_G12 }, { 0x56a5, P_DG2_G11 },
	{ 0x56a6, P_DG2_G11 }, { 0x56b0, P_DG2_G11 }, { 0x56b1, P_DG2_G11 },
	{ 0x56b2, P_DG2_G12 }, { 0x56b3, P_DG2_G12 }, { 0x56ba, P_DG2_K },
	{ 0x56bb, P_DG2_K }, { 0x56bc, P_DG2_K }, { 0x56bd, P_DG2_K },
	{ 0x56be, P_DG2_K }, { 0x56bf, P_DG2_K }, { 0x56c0, P_DG2_G10 },
	{ 0x56c1, P_DG2_G11 }, { 0x56c2, P_DG2_K }, { 0x5902, P_KBL_GT1 },
	{ 0x5906, P_KBL_GT1 }, { 0x5908, P_KBL_GT1 }, { 0x590a, P_KBL_GT1 },
	{ 0x590b, P_KBL_GT1 }, { 0x590e, P_KBL_GT1 }, { 0x5912, P_KBL_GT2 },
	{ 0x5913, P_KBL_GT1 }, { 0x5915, P_KBL_GT1 }, { 0x5916, P_KBL_GT2 },
	{ 0x5917, P_KBL_GT2 }, { 0x591a, P_KBL_GT2 }, { 0x591b, P_KBL_GT2 },
	{ 0x591c, P_KBL_GT2 }, { 0x591d, P_KBL_GT2 }, { 0x591e, P_KBL_GT2 },
	{ 0x5921, P_KBL_GT2 }, { 0x5923, P_KBL_GT3 }, { 0x5926, P_KBL_GT3 },
	{ 0x5927, P_KBL_GT3 }, { 0x593b, P_KBL_GT4 }, { 0x5a40, P_CNL },
	{ 0x5a41, P_CNL }, { 0x5a42, P_CNL }, { 0x5a44, P_CNL }, { 0x5a49, P_CNL },
	{ 0x5a4a, P_CNL }, { 0x5a4c, P_CNL }, { 0x5a50, P_CNL }, { 0x5a51, P_CNL },
	{ 0x5a52, P_CNL }, { 0x5a54, P_CNL }, { 0x5a59, P_CNL }, { 0x5a5a, P_CNL },
	{ 0x5a5c, P_CNL }, { 0x5a84, P_BXT }, { 0x5a85, P_BXT },
	{ 0x6420, P_LNL }, { 0x64a0, P_LNL }, { 0x64b0, P_LNL },
	{ 0x7d40, P_MTL_GT2 }, { 0x7d41, P_ARL }, { 0x7d45, P_MTL_GT2 },
	{ 0x7d51, P_ARL }, { 0x7d55, P_MTL_GT3 }, { 0x7d60, P_MTL_GT2 },
	{ 0x7d67, P_ARL }, { 0x7dd1, P_ARL }, { 0x7dd5, P_MTL_GT3 },
	{ 0x87c0, P_KBL_GT2 }, { 0x87ca, P_CFL_GT2 }, { 0x8a50, P_ICL },
	{ 0x8a51, P_ICL }, { 0x8a52, P_ICL }, { 0x8a53, P_ICL }, { 0x8a54, P_ICL },
	{ 0x8a56, P_ICL }, { 0x8a57, P_ICL }, { 0x8a58, P_ICL }, { 0x8a59, P_ICL },
	{ 0x8a5a, P_ICL }, { 0x8a5b, P_ICL }, { 0x8a5c, P_ICL }, { 0x8a5d, P_ICL },
	{ 0x8a70, P_ICL }, { 0x8a71, P_ICL }, { 0x9a40, P_TGL_GT2 },
	{ 0x9a49, P_TGL_GT2 }, { 0x9a59, P_TGL_GT2 }, { 0x9a60, P_TGL_GT1 },
	{ 0x9a68, P_TGL_GT1 }, { 0x9a70, P_TGL_GT1 }, { 0x9a78, P_TGL_GT2 },
	{ 0x9ac0, P_TGL_GT2 }, { 0x9ac9, P_TGL_GT2 }, { 0x9ad9, P_TGL_GT2 },
	{ 0x9af8, P_TGL_GT2 }, { 0x9b21, P_CML_GT1 }, { 0x9b41, P_CML_GT2 },
	{ 0x9ba2, P_CML_GT1 }, { 0x9ba4, P_CML_GT1 }, { 0x9ba5, P_CML_GT1 },
	{ 0x9ba8, P_CML_GT1 }, { 0x9baa, P_CML_GT1 }, { 0x9bac, P_CML_GT1 },
	{ 0x9bc2, P_CML_GT2 }, { 0x9bc4, P_CML_GT2 }, { 0x9bc5, P_CML_GT2 },
	{ 0x9bc6, P_CML_GT2 }, { 0x9bc8, P_CML_GT2 }, { 0x9bca, P_CML_GT2 },
	{ 0x9bcc, P_CML_GT2 }, { 0x9be6, P_CML_GT2 }, { 0x9bf6, P_CML_GT2 },
	{ 0xa720, P_ADLP }, { 0xa721, P_ADLP }, { 0xa780, P_RPLS },
	{ 0xa781, P_RPLS }, { 0xa782, P_RPLS }, { 0xa783, P_RPLS },
	{ 0xa788, P_RPLS }, { 0xa789, P_RPLS }, { 0xa78a, P_RPLS },
	{ 0xa78b, P_RPLS }, { 0xa7a0, P_ADLP }, { 0xa7a1, P_ADLP },
	{ 0xa7a8, P_ADLP }, { 0xa7a9, P_ADLP }, { 0xa7aa, P_ADLP_K },
	{ 0xa7ab, P_ADLP_K }, { 0xa7ac, P_ADLP_K }, { 0xa7ad, P_ADLP_K },
	{ 0xb080, P_PTL }, { 0xb081, P_PTL }, { 0xb082, P_PTL },
	{ 0xb083, P_PTL }, { 0xb084, P_PTL }, { 0xb085, P_PTL },
	{ 0xb086, P_PTL }, { 0xb087, P_PTL }, { 0xb08f, P_PTL },
	{ 0xb090, P_PTL }, { 0xb0a0, P_PTL }, { 0xb0b0, P_PTL },
	{ 0xb640, P_ARL }, { 0xe202, P_BMG },
	{ 0xe209, P_BMG_7_3 }, { 0xe20b, P_BMG }, { 0xe20c, P_BMG },
	{ 0xe20d, P_BMG }, { 0xe210, P_BMG_7_3 }, { 0xe211, P_BMG_7_3 },
	{ 0xe212, P_BMG }, { 0xe216, P_BMG_7_3 }, { 0xe220, P_BMG_7_3 },
	{ 0xe221, P_BMG_7_3 }, { 0xe222, P_BMG_7_3 }, { 0xe223, P_BMG_7_3 },
	{ 0xfd80, P_WCL }, { 0xfd81, P_WCL },
};

/**
 * gpuprof_oa_platform_of_device - what i915-perf does on an Intel GPU
 * @device_id: its PCI device id
 *
 * Return: the GPU's row, or NULL for a device id not known here.
 */
const struct gpuprof_oa_platform *gpuprof_oa_platform_of_device(__u32 device_id)
{
	size_t lo = 0, hi = ARRAY_SIZE(gpuprof_oa_device_ids);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (gpuprof_oa_device_ids[mid].id == device_id)
			return &gpuprof_oa_platforms[gpuprof_oa_device_ids[mid].platform];
		if (gpuprof_oa_device_ids[mid].id < device_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/**
 * gpuprof_oa_gen_of_device - the graphics version of an Intel GPU
 * @device_id: its PCI device id
 *
 * Return: 7 (Haswell) to 12, 20 (Xe2), 30 (Xe3); 0 for a device not
 * known here.
 */
unsigned int gpuprof_oa_gen_of_device(__u32 device_id)
{
	const struct gpuprof_oa_platform *p;

	p = gpuprof_oa_platform_of_device(device_id);
	return p ? p->ip / 100 : 0;
}

/**
 * gpuprof_oa_gen_known - whether a GPU of generation @gen is known here
 * @gen: a graphics version, as gpuprof_oa_gen_of_device() gives
 *
 * Return: true if a platform of the table is of generation @gen.
 */
bool gpuprof_oa_gen_known(unsigned int gen)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(gpuprof_oa_platforms); i++)
		if (gpuprof_oa_platforms[i].ip / 100 == gen)
			return true;
	return false;
}

/**
 * DOC: OA report formats
 *
 * One row per report format (uapi/gpuprof_oa.h's numbers), and all that
 * is known of it here: its name, its size, where it keeps its header and
 * counters and on which generations the decoder reads it, the graphics
 * IPs whose i915 and whose xe offer it, which of them each records when
 * asked for none, and xe's encoding of it.  The decoder, the tools'
 * names and their driver mappings read this one table (design.rst 6.5).
 *
 * Layouts follow i915_perf.c and IGT's lib/i915/perf.c (design.rst 4),
 * and for Xe2 IGT's lib/xe/xe_oa.c: counters are 32 bits, except the
 * 40-bit A counters of formats 10 to 12 (the low 32 bits in place, the
 * high 8 one byte each from byte 160) and Xe2's 64-bit PEC counters.
 * Which IPs offer a format: i915_perf.c's oa_init_supported_formats() of
 * Linux 6.1 and 6.12 (Haswell its seven; gen8 to gen12.10 formats 7 to
 * 10; DG2 and Meteor Lake 11 and 12, and Meteor Lake's media formats 13
 * and 14, which gpuprof does not take from i915: such a stream is
 * refused, oa.rst); xe_oa.c's
 * oa_formats[] and xe_oa_init_supported_formats() of 6.12 and 7.3, the
 * same in both (gen12 to 12.10 the A formats of i915, less C4_B8, which
 * xe lists but can never open: its index, 0, reads as "no format
 * given"; DG2 and Meteor Lake the OAR, OAG and OAC ones, Meteor Lake
 * also its media unit's; Xe2 and Xe3 the media unit's and the PEC
 * formats).  Of Xe2's formats the decoder reads PEC64u64 and the media
 * unit's MPEC8u32_B8_C8, the two whose layout a reader shows (IGT's
 * xe_oa.c); the others are known by number and refused.
 */

#define L(...)		{ .ts_bits = 32, __VA_ARGS__ }
/* A 64-bit header, its timestamp 56 bits wide. */
#define L64(...)	{ .hdr64 = 1, .ts_bits = 56, __VA_ARGS__ }
#define RUN(f, count, w, o) GPUPROF_OA_RUN(f, count, w, o)
#define U32 GPUPROF_OA_U32
#define U40 GPUPROF_OA_U40
#define U64 GPUPROF_OA_U64

/* Graphics IPs (x100) where the drivers' format sets change. */
#define IP_HSW		700
#define IP_GEN8		800
#define IP_GEN12	1200
#define IP_XEHP		1250	/* i915's cut: DG2 and after */
#define IP_XE_HPG	1255	/* xe's: DG2 (and PVC, which 6.12 does not bind) */
#define IP_XE_LPG	1270	/* MTL, ARL: the media GT's OAM */
/* LNL, BMG; and Xe3 (PTL), whose formats are Xe2's in 7.3's xe_oa.c. */
#define IP_XE2		2000
#define IP_ANY		GPUPROF_OA_IP_ANY

/* Haswell's C4_B8: its B counters come 4 bytes before gen8's. */
static const struct gpuprof_oa_layout gpuprof_oa_hsw_c4_b8 =
	L(.n_c = 4, .c_off = 16, .n_b = 8, .b_off = 28);

static const struct gpuprof_oa_format gpuprof_oa_formats[GPUPROF_OA_FORMAT_MAX] = {
	/* Haswell's. */
	[GPUPROF_OA_FORMAT_A13] = {
		.name = "A13", .size = 64,
		.layout = L(.n_runs = 1, .a_runs = { RUN(0, 13, U32, 12) }),
		.gens = { 7, 8 },
		.i915 = { IP_HSW, IP_GEN8 },
	},
	[GPUPROF_OA_FORMAT_A29] = {
		.name = "A29", .size = 128,
		.layout = L(.n_runs = 1, .a_runs = { RUN(0, 29, U32, 12) }),
		.gens = { 7, 8 },
		.i915 = { IP_HSW, IP_GEN8 },
	},
	[GPUPROF_OA_FORMAT_A13_B8_C8] = {
		.name = "A13_B8_C8", .size = 128,
		.layout = L(.n_runs = 1, .a_runs = { RUN(0, 13, U32, 12) },
			    .n_b = 8, .b_off = 64, .n_c = 8, .c_off = 96),
		.gens = { 7, 8 },
		.i915 = { IP_HSW, IP_GEN8 },
	},
	[GPUPROF_OA_FORMAT_B4_C8] = {
		.name = "B4_C8", .size = 64,
		.layout = L(.n_b = 4, .b_off = 16, .n_c = 8, .c_off = 32),
		.gens = { 7, 8 },
		.i915 = { IP_HSW, IP_GEN8 },
	},
	[GPUPROF_OA_FORMAT_A45_B8_C8] = {
		.name = "A45_B8_C8", .size = 256,
		.layout = L(.n_runs = 1, .a_runs = { RUN(0, 45, U32, 12) },
			    .n_b = 8, .b_off = 192, .n_c = 8, .c_off = 224),
		.gens = { 7, 8 },
		.i915 = { IP_HSW, IP_GEN8 }, .i915_default = true,
	},
	[GPUPROF_OA_FORMAT_B4_C8_A16] = {
		.name = "B4_C8_A16", .size = 128,
		.layout = L(.n_b = 4, .b_off = 16, .n_c = 8, .c_off = 32,
			    .n_runs = 1, .a_runs = { RUN(29, 16, U32, 60) }),
		.gens = { 7, 8 },
		.i915 = { IP_HSW, IP_GEN8 },
	},
	/* Haswell's and gen8's, laid out differently. */
	[GPUPROF_OA_FORMAT_C4_B8] = {
		.name = "C4_B8", .size = 64,
		.layout = L(.n_c = 4, .c_off = 16, .n_b = 8, .b_off = 32),
		.gens = { 8, 13 },
		.hsw = &gpuprof_oa_hsw_c4_b8,
		.i915 = { IP_HSW, IP_XEHP },
	},
	/* gen8 and later: A12's counters are A7 to A18. */
	[GPUPROF_OA_FORMAT_A12] = {
		.name = "A12", .size = 64,
		.layout = L(.n_runs = 1, .a_runs = { RUN(7, 12, U32, 12) }),
		.gens = { 8, 13 },
		.i915 = { IP_GEN8, IP_XEHP },
		.xe = { IP_GEN12, IP_XE_HPG },
		.xe_fmt = { GPUPROF_OA_XE_OAG, 0, 0, 0 },
	},
	[GPUPROF_OA_FORMAT_A12_B8_C8] = {
		.name = "A12_B8_C8", .size = 128,
		.layout = L(.n_runs = 1, .a_runs = { RUN(7, 12, U32, 12) },
			    .n_b = 8, .b_off = 64, .n_c = 8, .c_off = 96),
		.gens = { 8, 13 },
		.i915 = { IP_GEN8, IP_XEHP },
		.xe = { IP_GEN12, IP_XE_HPG },
		.xe_fmt = { GPUPROF_OA_XE_OAG, 2, 0, 0 },
	},
	[GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8] = {
		.name = "A32u40_A4u32_B8_C8", .size = 256,
		.layout = GPUPROF_OA_LAYOUT_A32U40_A4U32_B8_C8,
		.gens = { 8, 13 },
		.i915 = { IP_GEN8, IP_XEHP }, .i915_default = true,
		.xe = { IP_GEN12, IP_XE_HPG },
		.xe_fmt = { GPUPROF_OA_XE_OAG, 5, 0, 0 }, .xe_default = true,
	},
	/* The OAR unit's reports are laid out as the OAG unit's. */
	[GPUPROF_OAR_FORMAT_A32u40_A4u32_B8_C8] = {
		.name = "OAR_A32u40_A4u32_B8_C8", .size = 256,
		.layout = GPUPROF_OA_LAYOUT_A32U40_A4U32_B8_C8,
		.gens = { 8, 13 },
		.i915 = { IP_XEHP, IP_XE2 },
		.xe = { IP_XE_HPG, IP_XE2 },
		.xe_fmt = { GPUPROF_OA_XE_OAR, 5, 0, 0 },
	},
	/* DG2 and MTL's (see oa_platform.h). */
	[GPUPROF_OA_FORMAT_A24u40_A14u32_B8_C8] = {
		.name = "A24u40_A14u32_B8_C8", .size = 256,
		.layout = GPUPROF_OA_LAYOUT_A24U40_A14U32_B8_C8,
		.gens = { 8, 13 },
		.i915 = { IP_XEHP, IP_XE2 }, .i915_default = true,
		.xe = { IP_XE_HPG, IP_XE2 },
		.xe_fmt = { GPUPROF_OA_XE_OAG, 5, 0, 0 }, .xe_default = true,
	},
	/* The media unit's (MTL's OAM, Xe2's): 8 MPEC counters, B and C. */
	[GPUPROF_OAM_FORMAT_MPEC8u64_B8_C8] = {
		.name = "OAM_MPEC8u64_B8_C8", .size = 192,
		.xe = { IP_XE_LPG, IP_ANY },
		.xe_fmt = { GPUPROF_OA_XE_OAM_MPEC, 1, 0, 0 },
	},
	[GPUPROF_OAM_FORMAT_MPEC8u32_B8_C8] = {
		.name = "OAM_MPEC8u32_B8_C8", .size = 128,
		.layout = L64(.n_runs = 1, .a_runs = { RUN(0, 8, U32, 32) },
			      .n_b = 8, .b_off = 64, .n_c = 8, .c_off = 96),
		.gens = { 8, 31 },
		.xe = { IP_XE_LPG, IP_ANY },
		.xe_fmt = { GPUPROF_OA_XE_OAM_MPEC, 2, 0, 0 },
		.xe_default = true,
	},
	[GPUPROF_OAC_FORMAT_A24u64_B8_C8] = {
		.name = "OAC_A24u64_B8_C8", .size = 320,
		.xe = { IP_XE_HPG, IP_XE2 },
		.xe_fmt = { GPUPROF_OA_XE_OAC, 1, 0, 0 },
	},
	[GPUPROF_OAC_FORMAT_A22u32_R2u32_B8_C8] = {
		.name = "OAC_A22u32_R2u32_B8_C8", .size = 192,
		.xe = { IP_XE_HPG, IP_XE2 },
		.xe_fmt = { GPUPROF_OA_XE_OAC, 2, 0, 0 },
	},
	/* Xe2 and Xe3, which only xe serves: 64 PEC counters of 64 bits. */
	[GPUPROF_OA_FORMAT_PEC64u64] = {
		.name = "PEC64u64", .size = 576,
		.layout = L64(.n_runs = 1, .a_runs = { RUN(0, 64, U64, 32) }),
		.gens = { 20, 31 },
		.xe = { IP_XE2, IP_ANY },
		.xe_fmt = { GPUPROF_OA_XE_PEC, 1, 1, 0 }, .xe_default = true,
	},
	[GPUPROF_OA_FORMAT_PEC64u64_B8_C8] = {
		.name = "PEC64u64_B8_C8", .size = 640,
		.xe = { IP_XE2, IP_ANY },
		.xe_fmt = { GPUPROF_OA_XE_PEC, 1, 1, 1 },
	},
	[GPUPROF_OA_FORMAT_PEC64u32] = {
		.name = "PEC64u32", .size = 320,
		.xe = { IP_XE2, IP_ANY },
		.xe_fmt = { GPUPROF_OA_XE_PEC, 1, 0, 0 },
	},
	[GPUPROF_OA_FORMAT_PEC32u64_G1] = {
		.name = "PEC32u64_G1", .size = 320,
		.xe = { IP_XE2, IP_ANY },
		.xe_fmt = { GPUPROF_OA_XE_PEC, 5, 1, 0 },
	},
	[GPUPROF_OA_FORMAT_PEC32u32_G1] = {
		.name = "PEC32u32_G1", .size = 192,
		.xe = { IP_XE2, IP_ANY },
		.xe_fmt = { GPUPROF_OA_XE_PEC, 5, 0, 0 },
	},
	[GPUPROF_OA_FORMAT_PEC32u64_G2] = {
		.name = "PEC32u64_G2", .size = 320,
		.xe = { IP_XE2, IP_ANY },
		.xe_fmt = { GPUPROF_OA_XE_PEC, 6, 1, 0 },
	},
	[GPUPROF_OA_FORMAT_PEC32u32_G2] = {
		.name = "PEC32u32_G2", .size = 192,
		.xe = { IP_XE2, IP_ANY },
		.xe_fmt = { GPUPROF_OA_XE_PEC, 6, 0, 0 },
	},
	[GPUPROF_OA_FORMAT_PEC36u64_G1_32_G2_4] = {
		.name = "PEC36u64_G1_32_G2_4", .size = 320,
		.xe = { IP_XE2, IP_ANY },
		.xe_fmt = { GPUPROF_OA_XE_PEC, 3, 1, 0 },
	},
	[GPUPROF_OA_FORMAT_PEC36u64_G1_4_G2_32] = {
		.name = "PEC36u64_G1_4_G2_32", .size = 320,
		.xe = { IP_XE2, IP_ANY },
		.xe_fmt = { GPUPROF_OA_XE_PEC, 4, 1, 0 },
	},
};

#undef U64
#undef U40
#undef U32
#undef RUN
#undef L64
#undef L

/**
 * gpuprof_oa_format - what is known of a report format
 * @format: GPUPROF_OA_FORMAT_*
 *
 * Return: its row, or NULL for a number that is no format.
 */
const struct gpuprof_oa_format *gpuprof_oa_format(__u32 format)
{
	if (format >= ARRAY_SIZE(gpuprof_oa_formats) ||
	    !gpuprof_oa_formats[format].name)
		return NULL;
	return &gpuprof_oa_formats[format];
}

/* "A32u40_A4u32_B8_C8" for format 10; NULL for a number with no name. */
const char *gpuprof_oa_format_name(__u32 format)
{
	const struct gpuprof_oa_format *f = gpuprof_oa_format(format);

	return f ? f->name : NULL;
}
