// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's GPUs (oa/sim-platform.h).
 *
 * OA timestamp frequencies, as Linux 6.1 and 6.12 derive them
 * (gt/intel_gt_clock_utils.c, i915_perf.c):
 *   gen7.5 and gen8: the fixed 12.5 MHz of gen5_read_clock_frequency();
 *   gen9: the crystal (24 MHz, 19.2 MHz on gen9 LP: Broxton, Gemini Lake)
 *	divided by the CTC shift; big-core parts report 12 MHz, LP ones
 *	19.2 MHz;
 *   gen11: the RPM_CONFIG0 crystal divided by its CTC shift; Ice Lake
 *	and Elkhart Lake report 12 MHz;
 *   gen12: the same rule, 19.2 MHz on the parts here;
 *   DG2 and Meteor Lake (6.12 only, Wa_18013179988 in
 *	i915_perf_oa_timestamp_frequency()): the GT clock shifted back
 *	by the CTC shift, the 38.4 MHz crystal;
 *   Lunar Lake, Battlemage and Panther Lake (xe only):
 *	xe_oa_timestamp_frequency() (xe_oa.c) applies its CTC-shift
 *	workaround to DG2, PVC and Meteor Lake in 6.12, to graphics 12.55
 *	to 12.60 (DG2, PVC) in 7.3, and otherwise gives the GT's
 *	reference_clock,
 *	which xe_gt_clock_init() reads from the hardware (the crystal of
 *	RPM_CONFIG0 shifted by the CTC shift, or TIMESTAMP_OVERRIDE): no
 *	constant in the source.  19.2 MHz is taken: the 38.4 MHz crystal
 *	of these parts behind the same shift as Meteor Lake's reference
 *	clock, the value xe's GT_LIST reports there.  The same frequency
 *	is RING_TIMESTAMP's, so OA and engine timestamps tick alike.
 * GT ranges and clocks are those of a common SKU.  Topologies are one
 * SKU's, every slice, subslice and EU of it present, in a layout with
 * i915's widths per generation (10 EU bits per subslice on Haswell, 8
 * on gen8 to gen11, 16 on gen12 whose subslices are dual ones, 32
 * subslice bits per slice from 12.55); max_slices is the slices present.
 */
#include <string.h>

#include "../../../module/oa_decode.h"
#include "oa/sim-platform.h"
#include "oa/writer.h"

#define MHZ 1000000u
#define F10 GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8
#define F12 GPUPROF_OA_FORMAT_A24u40_A14u32_B8_C8
#define HSW GPUPROF_OA_FORMAT_A45_B8_C8
#define PEC GPUPROF_OA_FORMAT_PEC64u64

#define P(stem, ip_, ts, gt, lo, hi, sl, ss, eu, mss, meu, thr, fmt)	\
	{ .metrics = stem, .ip = ip_, .timestamp_hz = ts,		\
	  .gt_hz = (uint64_t)(gt) * MHZ, .gt_min_hz = (lo) * MHZ,	\
	  .gt_max_hz = (hi) * MHZ, .slices = sl, .subslices = ss,	\
	  .eus = eu, .max_subslices = mss, .max_eus = meu,		\
	  .threads = thr, .format = fmt }

/* Tiger Lake GT2 first: the default, OA_SIM_DEVICE_ID's. */
const struct oa_sim_platform oa_sim_platforms[] = {
	P("tglgt2", 1200, 19200000, 1100, 100, 1300, 1, 6, 16, 6, 16, 7, F10),
	P("hsw", 700, 12500000, 1000, 200, 1200, 1, 2, 10, 2, 10, 7, HSW),
	P("bdw", 800, 12500000, 900, 300, 1000, 1, 3, 8, 3, 8, 7, F10),
	P("chv", 800, 12500000, 500, 200, 600, 1, 2, 8, 2, 8, 7, F10),
	P("sklgt2", 900, 12000000, 1000, 300, 1150, 1, 3, 8, 3, 8, 7, F10),
	P("sklgt3", 900, 12000000, 950, 300, 1100, 2, 3, 8, 3, 8, 7, F10),
	P("sklgt4", 900, 12000000, 1000, 300, 1150, 3, 3, 8, 3, 8, 7, F10),
	P("bxt", 900, 19200000, 550, 200, 650, 1, 3, 6, 3, 8, 6, F10),
	P("glk", 900, 19200000, 650, 200, 750, 1, 3, 6, 3, 8, 6, F10),
	P("kblgt2", 900, 12000000, 1000, 300, 1150, 1, 3, 8, 3, 8, 7, F10),
	P("kblgt3", 900, 12000000, 950, 300, 1100, 2, 3, 8, 3, 8, 7, F10),
	P("cflgt2", 900, 12000000, 1050, 350, 1200, 1, 3, 8, 3, 8, 7, F10),
	P("cflgt3", 900, 12000000, 1050, 300, 1200, 2, 3, 8, 3, 8, 7, F10),
	P("cnl", 1000, 12000000, 1000, 300, 1100, 1, 5, 8, 5, 8, 7, F10),
	P("icl", 1100, 12000000, 1000, 300, 1100, 1, 8, 8, 8, 8, 7, F10),
	P("ehl", 1100, 12000000, 650, 250, 750, 1, 4, 8, 4, 8, 7, F10),
	P("tglgt1", 1200, 19200000, 1100, 100, 1250, 1, 2, 16, 6, 16, 7, F10),
	P("rkl", 1200, 19200000, 1150, 350, 1300, 1, 2, 16, 6, 16, 7, F10),
	P("dg1", 1210, 19200000, 1350, 300, 1550, 1, 6, 16, 6, 16, 7, F10),
	P("adl", 1200, 19200000, 1250, 300, 1450, 1, 6, 16, 6, 16, 7, F10),
	P("acmgt1", 1255, 38400000, 2000, 300, 2450, 1, 8, 16, 32, 16, 8, F12),
	P("acmgt2", 1255, 38400000, 1800, 300, 2200, 1, 16, 16, 32, 16, 8, F12),
	P("acmgt3", 1255, 38400000, 2000, 300, 2400, 1, 32, 16, 32, 16, 8, F12),
	P("mtlgt2", 1270, 38400000, 1700, 100, 1950, 1, 4, 16, 32, 16, 8, F12),
	P("mtlgt3", 1270, 38400000, 2000, 100, 2250, 1, 8, 16, 32, 16, 8, F12),
	/*
	 * Xe2 (xe only): its OAG's 64-bit-header PEC64u64 reports.  Lunar
	 * Lake (0x6420, 0x64A0, 0x64B0): 8 Xe cores of 8 vector engines
	 * (Arc 140V); Battlemage (0xE20B and the others): 20 (Arc B580).
	 * Subslices are Xe cores, 32 bits of them per slice as from 12.55;
	 * threads 7, the VectorEngineThreadsCount IGT's metrics take there
	 * (its default), so XVE_THREADS_OCCUPANCY_ALL stays within 100 %.
	 */
	P("lnl", 2004, 19200000, 1950, 400, 2050, 1, 8, 8, 32, 16, 7, PEC),
	P("bmg", 2001, 19200000, 2670, 400, 2850, 1, 20, 8, 32, 16, 7, PEC),
	/*
	 * Xe3 (xe of 7.3 only), the same reports.  Panther Lake (0xB080 and
	 * the others, and Wildcat Lake's 0xFD80 and 0xFD81, which xe and
	 * IGT take for Panther Lake): 12 Xe cores of 8 vector engines
	 * (Arc B390); threads 7, as IGT's xe library takes there too.
	 */
	P("ptl", 3000, 19200000, 2400, 400, 2500, 1, 12, 8, 32, 16, 7, PEC),
};

const unsigned int oa_sim_n_platforms = sizeof(oa_sim_platforms) /
					sizeof(oa_sim_platforms[0]);

const struct oa_sim_platform *oa_sim_platform_find(const char *metrics)
{
	unsigned int i;

	for (i = 0; metrics && i < oa_sim_n_platforms; i++)
		if (!strcmp(oa_sim_platforms[i].metrics, metrics))
			return &oa_sim_platforms[i];
	return NULL;
}

const struct oa_sim_platform *oa_sim_platform_of_device(uint32_t device_id)
{
	const struct gpuprof_oa_platform *g;
	const struct oa_sim_platform *p;
	unsigned int i;

	g = gpuprof_oa_platform_of_device(device_id);
	if (!g)
		return &oa_sim_platforms[0];
	p = oa_sim_platform_find(g->metrics);
	if (p)
		return p;
	/* Else the nearest IP at or below its own in its generation (Arrow
	 * Lake's 12.74 plays a Meteor Lake), the first such row. */
	p = NULL;
	for (i = 0; i < oa_sim_n_platforms; i++)
		if (oa_sim_platforms[i].ip / 100 == g->ip / 100 &&
		    oa_sim_platforms[i].ip <= g->ip &&
		    (!p || oa_sim_platforms[i].ip > p->ip))
			p = &oa_sim_platforms[i];
	return p ? p : &oa_sim_platforms[0];
}

static void set_bits(uint8_t *mask, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		mask[i / 8] |= 1u << (i % 8);
}

size_t oa_sim_platform_topology(const struct oa_sim_platform *p, void *buf,
				size_t size)
{
	unsigned int ss_stride = (p->max_subslices + 7) / 8;
	unsigned int eu_stride = (p->max_eus + 7) / 8;
	struct drm_i915_query_topology_info t = {
		.max_slices = p->slices, .max_subslices = p->max_subslices,
		.max_eus_per_subslice = p->max_eus,
		.subslice_offset = 1, .subslice_stride = ss_stride,
		.eu_offset = 1 + p->slices * ss_stride, .eu_stride = eu_stride,
	};
	size_t len = oa_topology_size(&t);
	uint8_t *data = (uint8_t *)buf + sizeof(t);
	unsigned int s, ss;

	if (size < len)
		return 0;
	memset(buf, 0, len);
	memcpy(buf, &t, sizeof(t));
	set_bits(data, p->slices);
	for (s = 0; s < p->slices; s++) {
		set_bits(data + t.subslice_offset + s * ss_stride, p->subslices);
		for (ss = 0; ss < p->subslices; ss++)
			set_bits(data + t.eu_offset +
				 (s * p->max_subslices + ss) * eu_stride, p->eus);
	}
	return len;
}
