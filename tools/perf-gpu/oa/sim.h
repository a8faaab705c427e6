/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A deterministic OA simulator: the i915-perf stream an Intel GPU would
 * give with a metric set, as a recording in the format of oa/writer.h.
 * By default a Tiger Lake GT2 (0x9A49) with RenderBasic; cfg.device_id
 * picks another GPU, whose row of oa/sim-platform.c gives the OA
 * timestamp frequency, the GT clock and range, the topology and the
 * report format: Haswell's A45_B8_C8 (no context id, no clock field),
 * format 10 (A32u40_A4u32_B8_C8) on gen8 to gen12.10, format 12
 * (A24u40_A14u32_B8_C8) on DG2 and Meteor Lake, xe's PEC64u64 (64-bit
 * header, 64 PEC counters of 64 bits) on Lunar Lake, Battlemage and
 * Panther Lake, whose recordings start with a DRIVER record naming xe
 * under GuC and the first kernel whose xe serves them (6.12, 7.3), as
 * only xe serves them; cfg.format picks another format of the
 * generation's (Haswell's A13, gen8's C4_B8, DG2's OAR format, ...), as
 * a stream may ask i915 for any it offers.  Reports are written through
 * the shared decoder's layout (module/oa_decode.c), counter by counter,
 * the counters a format lacks left out.
 *
 * Time is the 64-bit OA timestamp; a report carries its low 32 bits, so
 * it wraps (every 223.7 s at 19.2 MHz), or in a 64-bit header its low
 * 56 bits (cfg.wrap56_in_ns brings that wrap near).  Timer reports come where the
 * timestamp is a multiple of the period (the hardware reports when a bit
 * of the timestamp toggles).  The GPU clock (dword 3) runs at the row's
 * fixed frequency whether or not work runs: no RC6, no frequency changes.
 *
 * Counters follow what IGT's equations make of them on the generation:
 * A0 (A41 on Haswell) counts busy clocks, so GpuBusy is the busy share
 * of the schedule; the EU counters (A7 on, A0 on Haswell: active, stall,
 * the others, and on gen12 four quarters of each plus thread occupancy)
 * rise by at most the EU count per busy clock together, so EuActive +
 * EuStall <= 100 % and EuThreadOccupancy <= 100 %; the other A counters
 * by at most a quarter of the subslice count per busy clock; each B and
 * C counter by at most a quarter per busy clock, except a B or C counter
 * that the metric set takes for GpuCoreClocks (Haswell's), which counts
 * every GPU clock.  Within those bounds a counter's rate depends on the
 * seed and the running context, except that where the set's equations
 * subtract one raw counter from another ("C3 C2 USUB"), the two rates
 * are swapped if need be so that the first rises at least as fast.
 * Xe2 follows its RenderBasic (IGT's oa-lnl.xml and oa-bmg.xml, alike
 * there), Xe3 Panther Lake's (oa-ptl.xml, the same roles): PEC 32 counts
 * busy clocks (GPU_BUSY); PEC 24, 20 and 14 are XVE_ACTIVE, XVE_STALL
 * and XVE_THREADS_OCCUPANCY_ALL, bounded as the EU counters above (Xe2's
 * occupancy equation multiplies PEC 14 by 8, Xe3's does not, so Xe3's
 * PEC 14 rises 8 times as fast for the same occupancy); PEC 25 and 26 (ALU utilisation) stay below
 * XVE_ACTIVE; PEC 27 below one per vector engine, PEC 39, 40, 41 and 54
 * (engine busy, queue full shares) below one per clock; the other PEC
 * counters count events, at most a quarter per Xe core per clock.
 *
 * Use: oa_sim_init(), then either oa_sim_run() over a schedule (made by
 * oa_sim_schedule() or by hand) or oa_sim_step() live, then
 * oa_sim_finish().  Functions return 0, or -1 with errno set (the
 * writer's error once it has failed).
 */
#ifndef PERF_GPU_OA_SIM_H
#define PERF_GPU_OA_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../../module/oa_decode.h"
#include "oa/sim-platform.h"
#include "oa/writer.h"

/* The default GPU; oa/sim-platform.c has its figures and the others'. */
#define OA_SIM_DEVICE_ID	0x9a49		/* Tiger Lake GT2 */
#define OA_SIM_DEVICE_REV	1
#define OA_SIM_TIMESTAMP_HZ	19200000ull	/* its timestamp frequency */
#define OA_SIM_METRIC_SET	"RenderBasic"
/* TGL GT2 RenderBasic as IGT 1.27.1's libi915_perf knows it. */
#define OA_SIM_METRIC_UUID	"0fc397c0-4833-492c-9ccd-4929d574d5b8"
#define OA_SIM_IDLE		GPUPROF_OA_NO_CONTEXT
/*
 * Generated contexts k = 0, 1, ... have ids OA_SIM_CTX(k): software ids
 * 8 + k from bit 5, as i915 gives them on gen11 and gen12 under
 * execlists, so the platform's context mask keeps them whole.
 */
#define OA_SIM_CTX_BASE		0x100u
#define OA_SIM_CTX_STRIDE	0x20u
#define OA_SIM_CTX(k)		(OA_SIM_CTX_BASE + (k) * OA_SIM_CTX_STRIDE)
#define OA_SIM_MAX_CONTEXTS	64

/* The counters, in the order A0..A44, B0..B7, C0..C7. */
#define OA_SIM_B0	GPUPROF_OA_A_COUNTERS
#define OA_SIM_C0	(OA_SIM_B0 + GPUPROF_OA_B_COUNTERS)
#define OA_SIM_N_COUNTERS (OA_SIM_C0 + GPUPROF_OA_C_COUNTERS)
/* Counter rates are in 1/OA_SIM_RATE_ONE per busy GPU clock. */
#define OA_SIM_RATE_ONE	1024u
#define OA_SIM_MAX_ORDER	64

struct oa_sim_config {
	uint64_t seed;
	uint64_t period_ns;		/* rounded, oa_exponent_for_period() */
	unsigned int report_lost_every;	/* REPORT_LOST after every Nth report */
	unsigned int buffer_lost_every;	/* BUFFER_LOST after every Nth report */
	uint64_t start_cpu_ns;		/* CLOCK_MONOTONIC at the start; 0: seed's */
	uint64_t start_gpu_ts;		/* 64-bit OA timestamp there; 0: seed's */
	uint32_t device_id;		/* DEVICE_INFO's; 0: OA_SIM_DEVICE_ID */
	const char *metric_set;		/* DEVICE_INFO's; NULL: OA_SIM_METRIC_SET */
	const char *metric_set_uuid;	/* DEVICE_INFO's; NULL: OA_SIM_METRIC_UUID */
	bool valid_bit_clear;		/* bit 16 clear in every report */
	/* Another report format the GPU's i915 offers (the i915 shim opens
	 * what a stream asks for); 0: the platform's own. */
	uint32_t format;
	/* Nonzero: the 64-bit timestamp starts this many ns of ticks below
	 * 2^56, where 56-bit report timestamps wrap (start_gpu_ts unused). */
	uint64_t wrap56_in_ns;
};

/* A busy interval of stream time, [start_ns, end_ns), running @ctx_id. */
struct oa_sim_interval {
	uint64_t start_ns;
	uint64_t end_ns;
	uint32_t ctx_id;
};

struct oa_sim {
	struct oa_writer *w;
	struct oa_sim_config cfg;
	const struct oa_sim_platform *plat;
	struct gpuprof_oa_layout layout;	/* of plat->format */
	uint64_t ts_hz;			/* the OA timestamp frequency */
	uint64_t gt_hz;			/* the GPU clock */
	int clock_counter;		/* B/C counting every clock, or -1 */
	/* Raw counters the set subtracts ("x y USUB"): x rises at least
	 * as fast as y. */
	uint8_t n_order;
	uint8_t order[OA_SIM_MAX_ORDER][2];
	unsigned int exponent;
	uint64_t period_ticks;
	uint64_t start_gpu;		/* 64-bit OA timestamp at stream time 0 */
	uint64_t start_cpu;
	uint64_t clk_offset;		/* the GPU clock at stream time 0 */
	uint64_t elapsed_ns;		/* stream time */
	uint64_t now;			/* its OA ticks since the start */
	bool busy;
	uint32_t ctx;			/* running context, OA_SIM_IDLE when idle */
	uint64_t counter[OA_SIM_N_COUNTERS];
	uint32_t rate[OA_SIM_N_COUNTERS];	/* of the running context */
	uint32_t rest[OA_SIM_N_COUNTERS];	/* fractions carried */
	uint64_t rng;
	uint64_t next_corr;		/* ticks since start of the next point */
	uint64_t last_corr;
	uint64_t first_report;		/* the first report's tick from start */
	uint64_t last_report;
	bool have_report;
	bool finished;
	/* What was written. */
	uint64_t reports;
	uint64_t timer_reports;
	uint64_t switch_reports;
	uint64_t report_lost;
	uint64_t buffer_lost;
	uint64_t correlations;
};

size_t oa_sim_topology(void *buf, size_t size);	/* Tiger Lake GT2's */
void oa_sim_device_info(struct gpuprof_oa_device_info *info,
			uint32_t device_id);
int oa_sim_ctx_index(uint32_t ctx_id, unsigned int n);

int oa_sim_init(struct oa_sim *s, const struct oa_sim_config *cfg,
		struct oa_writer *w);
int oa_sim_step(struct oa_sim *s, uint64_t ns, bool busy, uint32_t ctx_id);
int oa_sim_run(struct oa_sim *s, uint64_t end_ns,
	       const struct oa_sim_interval *iv, size_t n);
int oa_sim_finish(struct oa_sim *s);

int oa_sim_schedule(uint64_t seed, unsigned int contexts, uint64_t duration_ns,
		    uint64_t period_ns, struct oa_sim_interval **out,
		    size_t *n);

/* The 64-bit OA timestamp of stream time @ns. */
uint64_t oa_sim_ts_at(const struct oa_sim *s, uint64_t ns);

#endif
