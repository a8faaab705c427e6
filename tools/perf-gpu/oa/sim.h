/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A deterministic OA simulator: the i915-perf stream a Tiger Lake GT2
 * (0x9A49) would give with metric set RenderBasic and report format 10
 * (A32u40_A4u32_B8_C8), as a recording in the format of oa/writer.h.
 *
 * Time is the 64-bit OA timestamp at 19.2 MHz; a report carries its low
 * 32 bits, so it wraps every 223.7 s.  Timer reports come where the
 * timestamp is a multiple of the period (the hardware reports when a bit
 * of the timestamp toggles).  The GPU clock (dword 3) runs at a fixed
 * 1100 MHz whether or not work runs: the simulator has no RC6 and no
 * frequency changes.  Counters rise only while a context is busy: A0, B
 * and C by the busy GPU clocks, A1..A35 by the busy clocks times a rate
 * of their own that depends on the seed and the context.
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

#include "oa/writer.h"

#define OA_SIM_DEVICE_ID	0x9a49		/* Tiger Lake GT2 */
#define OA_SIM_DEVICE_REV	1
#define OA_SIM_TIMESTAMP_HZ	19200000ull
#define OA_SIM_GT_HZ		1100000000ull	/* the fixed GPU clock */
#define OA_SIM_GT_MIN_HZ	100000000u	/* what DEVICE_INFO declares */
#define OA_SIM_GT_MAX_HZ	1300000000u
#define OA_SIM_FORMAT		GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8
#define OA_SIM_REPORT_SIZE	256
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
#define OA_SIM_MAX_EXPONENT	31

/* The counters of format 10, in the order A0..A35, B0..B7, C0..C7. */
#define OA_SIM_N_A40	32
#define OA_SIM_N_A32	4
#define OA_SIM_N_COUNTERS (OA_SIM_N_A40 + OA_SIM_N_A32 + 8 + 8)

struct oa_sim_config {
	uint64_t seed;
	uint64_t period_ns;		/* rounded, oa_sim_exponent_for_period() */
	unsigned int report_lost_every;	/* REPORT_LOST after every Nth report */
	unsigned int buffer_lost_every;	/* BUFFER_LOST after every Nth report */
	uint64_t start_cpu_ns;		/* CLOCK_MONOTONIC at the start; 0: seed's */
	uint64_t start_gpu_ts;		/* 64-bit OA timestamp there; 0: seed's */
	uint32_t device_id;		/* DEVICE_INFO's; 0: OA_SIM_DEVICE_ID */
	const char *metric_set;		/* DEVICE_INFO's; NULL: OA_SIM_METRIC_SET */
	const char *metric_set_uuid;	/* DEVICE_INFO's; NULL: OA_SIM_METRIC_UUID */
	bool valid_bit_clear;		/* bit 16 clear in every report */
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
	uint64_t rng;
	uint64_t next_corr;		/* ticks since start of the next point */
	uint64_t last_corr;
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

unsigned int oa_sim_exponent_for_period(uint64_t period_ns, uint64_t freq);
uint64_t oa_sim_exponent_to_ns(unsigned int exponent, uint64_t freq);
size_t oa_sim_topology(void *buf, size_t size);
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
