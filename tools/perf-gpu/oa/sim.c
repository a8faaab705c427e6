// SPDX-License-Identifier: GPL-2.0-only
/*
 * The OA simulator (see oa/sim.h).  Everything follows from the seed
 * through a splitmix64 generator, and all time arithmetic is on integers
 * from the stream start (never accumulated step by step), so the same
 * seed and steps give the same bytes on every machine.
 *
 * Reports are written through the shared decoder's layout of the
 * platform's format (module/oa_decode.c), the inverse of
 * gpuprof_oa_accumulate(); what checks that reading of the formats
 * independently is IGT's i915-perf-reader on our recordings
 * (selftests/host/oa_metrics_igt_test.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oa/device.h"
#include "oa/metrics.h"
#include "oa/sim.h"
#include "util/array.h"
#include "util/map.h"

#define NSEC 1000000000ull
#define ONE OA_SIM_RATE_ONE

/* splitmix64: a Weyl sequence through util/map's mixer. */
static uint64_t splitmix64(uint64_t *x)
{
	return map_hash_u64(*x += 0x9e3779b97f4a7c15ull);
}

/* A value fixed by (@a, @b, @c): per-context counter rates. */
static uint64_t oa_hash3(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t x = a ^ (b << 32) ^ (c * 0xff51afd7ed558ccdull);

	return splitmix64(&x);
}

/* (a * b) / c without overflow: the operands are stream-long times. */
static uint64_t muldiv(uint64_t a, uint64_t b, uint64_t c)
{
	return (uint64_t)((__uint128_t)a * b / c);
}

/* Tiger Lake GT2's topology (the default platform's). */
size_t oa_sim_topology(void *buf, size_t size)
{
	return oa_sim_platform_topology(&oa_sim_platforms[0], buf, size);
}

void oa_sim_device_info(struct gpuprof_oa_device_info *info,
			uint32_t device_id)
{
	const struct oa_sim_platform *p = oa_sim_platform_of_device(device_id);

	memset(info, 0, sizeof(*info));
	info->timestamp_frequency = p->timestamp_hz;
	info->device_id = device_id ? device_id : OA_SIM_DEVICE_ID;
	info->device_revision = OA_SIM_DEVICE_REV;
	info->gt_min_frequency = p->gt_min_hz;
	info->gt_max_frequency = p->gt_max_hz;
	info->engine_class = I915_ENGINE_CLASS_RENDER;
	info->engine_instance = 0;
	info->oa_format = p->format;
	strcpy(info->metric_set_name, OA_SIM_METRIC_SET);
	strcpy(info->metric_set_uuid, OA_SIM_METRIC_UUID);
}

/**
 * oa_sim_ctx_index - which generated context @ctx_id is
 * @ctx_id: a context id
 * @n: how many contexts there are
 *
 * Return: k for OA_SIM_CTX(k), k < @n; -1 for any other id.
 */
int oa_sim_ctx_index(uint32_t ctx_id, unsigned int n)
{
	uint32_t k;

	if (ctx_id < OA_SIM_CTX_BASE ||
	    (ctx_id - OA_SIM_CTX_BASE) % OA_SIM_CTX_STRIDE)
		return -1;
	k = (ctx_id - OA_SIM_CTX_BASE) / OA_SIM_CTX_STRIDE;
	return k < n ? (int)k : -1;
}

static uint64_t ticks_of_ns(const struct oa_sim *s, uint64_t ns)
{
	return muldiv(ns, s->ts_hz, NSEC);
}

/* GPU clocks in the first @ticks OA ticks of the stream. */
static uint64_t clocks_of_ticks(const struct oa_sim *s, uint64_t ticks)
{
	return muldiv(ticks, s->gt_hz, s->ts_hz);
}

uint64_t oa_sim_ts_at(const struct oa_sim *s, uint64_t ns)
{
	return s->start_gpu + ticks_of_ns(s, ns);
}

/*
 * A rate of @lo/ONE to @hi/ONE (inclusive, from @h) times @of per busy
 * clock, in 1/ONE per busy clock.
 */
static uint32_t share(uint64_t h, uint32_t lo, uint32_t hi, uint64_t of)
{
	return (lo + h % (hi - lo + 1)) * of;
}

/*
 * The rates of the running context, in 1/ONE per busy clock, by the
 * counters' roles on the generation (see oa/sim.h).  An EU activity a,
 * stall st (a + st < 1) and thread occupancy occ (>= a + st) are drawn
 * per context; the EU counters share them: EuActive reads A7 (summed
 * with A8..A10 on gen12, which splits each EU quantity in four) over
 * EuCoresTotalCount and the clocks, EuStall the next group, gen12's
 * EuThreadOccupancy 8 * (A15..A18) / EuThreadsCount.  The others of
 * A7..A20 (gen8 to 11 keep occupancy and FPU activity there, in
 * set-dependent places) stay below a, below any occupancy's bound of
 * 6/8 too.  Haswell has active A0, stall A1, per-stage active and
 * stall among A2..A29 (six stages, thread counts at A5, A10, .., A30),
 * busy clocks in A41.
 */
static void oa_sim_set_rates_xe2(struct oa_sim *s, uint32_t a, uint32_t st,
				 uint32_t occ);

static void oa_sim_set_rates(struct oa_sim *s)
{
	const struct oa_sim_platform *p = s->plat;
	uint64_t n_eus = oa_sim_platform_n_eus(p);
	uint64_t n_ss = oa_sim_platform_n_subslices(p);
	bool hsw = p->ip < 800;
	unsigned int split = p->ip >= 1200 && p->ip < 1250 ? 4 : 1;
	unsigned int eu0 = hsw ? 0 : 7, eu_end = hsw ? 30 : 21;
	unsigned int busy = hsw ? 41 : 0, i, pass;
	uint64_t h = oa_hash3(s->cfg.seed, s->ctx, ~0ull);
	uint32_t a = 64 + h % 640;			/* 6 % to 69 % */
	uint32_t st = (h >> 16) % (ONE - a);
	uint32_t occ = a + st + (h >> 32) % (ONE - a - st);

	if (p->ip >= 2000) {
		oa_sim_set_rates_xe2(s, a, st, occ);
		return;
	}
	for (i = 0; i < OA_SIM_N_COUNTERS; i++) {
		h = oa_hash3(s->cfg.seed, s->ctx, i);
		if (i >= OA_SIM_B0)
			s->rate[i] = (int)i == s->clock_counter ? ONE :
				     share(h, 1, ONE / 4, 1);
		else if (i == busy)
			s->rate[i] = ONE;
		else if (hsw && i % 5 == 0 && i && i <= 30)
			s->rate[i] = share(h, 1, 8, n_eus) / 8;	/* threads */
		else if (!hsw && i >= 1 && i <= 6)
			s->rate[i] = share(h, 1, 8, n_eus) / 8;
		else if (i >= eu0 && i < eu0 + split)
			s->rate[i] = a * n_eus / split;
		else if (i >= eu0 + split && i < eu0 + 2 * split)
			s->rate[i] = st * n_eus / split;
		else if (split == 4 && i >= eu0 + 8 && i < eu0 + 12)
			s->rate[i] = (uint64_t)occ * p->threads * n_eus /
				     (8 * split);
		else if (hsw && i < eu_end)	/* six stages' pairs */
			s->rate[i] = share(h, 1, a, n_eus) / 6;
		else if (i < eu_end)
			s->rate[i] = share(h, 1, a, n_eus) / split;
		else
			s->rate[i] = share(h, 1, ONE, n_ss) / 4;
	}
	/*
	 * Swapping the two rates keeps each within its bounds; a swap can
	 * break an earlier pair's order, so go round again, a bounded
	 * number of times (contradictory pairs, x > y and y > x, would
	 * never settle).
	 */
	for (pass = 0; pass <= s->n_order; pass++) {
		bool changed = false;

		for (i = 0; i < s->n_order; i++) {
			uint8_t x = s->order[i][0], y = s->order[i][1];
			uint32_t r = s->rate[x];

			if (r < s->rate[y] && x != s->clock_counter &&
			    y != s->clock_counter) {
				s->rate[x] = s->rate[y];
				s->rate[y] = r;
				changed = true;
			}
		}
		if (!changed)
			break;
	}
}

/*
 * Xe2's and Xe3's rates, by the PEC counters' roles in their RenderBasic
 * (oa/sim.h):
 * activity @a, stall @st and occupancy @occ as drawn for the context.
 * Its reports have no B or C counters, so those stay still.
 */
static void oa_sim_set_rates_xe2(struct oa_sim *s, uint32_t a, uint32_t st,
				 uint32_t occ)
{
	const struct oa_sim_platform *p = s->plat;
	uint64_t n_eus = oa_sim_platform_n_eus(p);
	uint64_t n_ss = oa_sim_platform_n_subslices(p);
	unsigned int i;
	uint64_t h;

	for (i = 0; i < OA_SIM_N_COUNTERS; i++) {
		h = oa_hash3(s->cfg.seed, s->ctx, i);
		switch (i) {
		case 32:			/* GPU_BUSY */
			s->rate[i] = ONE;
			break;
		case 24:			/* XVE_ACTIVE */
			s->rate[i] = a * n_eus;
			break;
		case 20:			/* XVE_STALL */
			s->rate[i] = st * n_eus;
			break;
		case 14:			/* XVE_THREADS_OCCUPANCY_ALL */
			/* Xe2's equation multiplies it by 8, Xe3's not. */
			s->rate[i] = (uint64_t)occ * p->threads * n_eus /
				     (p->ip >= 3000 ? 1 : 8);
			break;
		case 25: case 26:		/* ALU0, ALU1 utilisation */
			s->rate[i] = share(h, 1, a, n_eus);
			break;
		case 27:			/* shared function access hold */
			s->rate[i] = share(h, 1, ONE, n_eus);
			break;
		case 39: case 40: case 41:	/* engine busy */
		case 54:			/* memory queue full */
			s->rate[i] = share(h, 1, ONE, 1);
			break;
		default:
			s->rate[i] = i < GPUPROF_OA_A_COUNTERS ?
				     share(h, 1, ONE, n_ss) / 4 : 0;
		}
	}
}

/* Bring the counters from tick s->now to tick @t. */
static void oa_sim_advance(struct oa_sim *s, uint64_t t)
{
	uint64_t d, v;
	unsigned int i;

	if (t <= s->now)
		return;
	d = clocks_of_ticks(s, t) - clocks_of_ticks(s, s->now);
	for (i = 0; i < OA_SIM_N_COUNTERS; i++) {
		if (!s->busy && (int)i != s->clock_counter)
			continue;
		v = (uint64_t)((__uint128_t)d * s->rate[i] + s->rest[i]);
		s->counter[i] += v / ONE;
		s->rest[i] = v % ONE;
	}
	s->now = t;
}

static int oa_sim_correlation(struct oa_sim *s, uint64_t t)
{
	/* A window like a clock_gettime() pair around a register read. */
	uint64_t window = 200 + splitmix64(&s->rng) % 800;

	if (oa_write_correlation(s->w, s->start_cpu + muldiv(t, NSEC,
							     s->ts_hz),
				 s->start_gpu + t, window))
		return -1;
	s->last_corr = t;
	s->correlations++;
	return 0;
}

static void put32(uint8_t *r, unsigned int off, uint32_t v)
{
	r[off] = v;
	r[off + 1] = v >> 8;
	r[off + 2] = v >> 16;
	r[off + 3] = v >> 24;
}

static void put64(uint8_t *r, unsigned int off, uint64_t v)
{
	put32(r, off, (uint32_t)v);
	put32(r, off + 4, (uint32_t)(v >> 32));
}

/*
 * The counters into report @r at the places the layout reads them from:
 * A counters 32, 40 or 64 bits wide (the high byte of a 40-bit one at
 * a40_high_off + its number), then B and C.
 */
static void oa_sim_put_counters(const struct oa_sim *s, uint8_t *r)
{
	const struct gpuprof_oa_layout *l = &s->layout;
	unsigned int k, i, a;

	for (k = 0; k < l->n_runs; k++) {
		const struct gpuprof_oa_a_run *run = &l->a_runs[k];

		for (i = 0; i < run->n; i++) {
			a = run->first + i;
			if (run->width == GPUPROF_OA_U64) {
				put64(r, run->off + 8 * i, s->counter[a]);
				continue;
			}
			put32(r, run->off + 4 * i, (uint32_t)s->counter[a]);
			if (run->width == GPUPROF_OA_U40)
				r[l->a40_high_off + a] = s->counter[a] >> 32;
		}
	}
	for (i = 0; i < l->n_b; i++)
		put32(r, l->b_off + 4 * i, (uint32_t)s->counter[OA_SIM_B0 + i]);
	for (i = 0; i < l->n_c; i++)
		put32(r, l->c_off + 4 * i, (uint32_t)s->counter[OA_SIM_C0 + i]);
}

/* A report at tick @t (== s->now) with @reason, then any loss due. */
static int oa_sim_report(struct oa_sim *s, uint64_t t, uint32_t reason)
{
	uint8_t r[GPUPROF_OA_REPORT_MAX] = { 0 };
	bool ctx_valid = s->ctx != OA_SIM_IDLE;

	if (s->cfg.valid_bit_clear)
		ctx_valid = false;
	if (s->layout.hdr64) {
		/* Report id and reason in qword 0, the timestamp's low 56
		 * bits in qword 1, the context in dword 4, 64-bit clocks in
		 * qword 3. */
		put32(r, 0, reason << 19 | (ctx_valid ? 1u << 16 : 0));
		put64(r, 8, (s->start_gpu + t) &
			    ((1ull << s->layout.ts_bits) - 1));
		put32(r, 16, s->ctx);
		put64(r, 24, s->clk_offset + clocks_of_ticks(s, t));
	} else {
		put32(r, 4, (uint32_t)(s->start_gpu + t));
	}
	/* Haswell's header has neither reason, context nor clock. */
	if (s->layout.gen != GPUPROF_OA_GEN_HSW && !s->layout.hdr64) {
		/* The valid bit: 25 on gen8, 16 from gen9 (set on gen12
		 * too, where readers take dword 2 whatever it says). */
		put32(r, 0, reason << 19 |
		      (ctx_valid ? s->plat->ip < 900 ? 1u << 25 : 1u << 16 : 0));
		/* Idle reports say 0xffffffff too: IGT takes dword 2 as
		 * valid on gen12 whatever bit 16 says. */
		put32(r, 8, s->ctx);
		put32(r, 12, (uint32_t)(s->clk_offset + clocks_of_ticks(s, t)));
	}
	oa_sim_put_counters(s, r);

	if (oa_write_sample(s->w, r, s->layout.size))
		return -1;
	s->reports++;
	if (reason & GPUPROF_OA_REASON_TIMER)
		s->timer_reports++;
	if (reason & GPUPROF_OA_REASON_CTX_SWITCH)
		s->switch_reports++;
	if (!s->have_report)
		s->first_report = t;
	s->last_report = t;
	s->have_report = true;

	if (s->cfg.report_lost_every &&
	    s->reports % s->cfg.report_lost_every == 0) {
		if (oa_write_report_lost(s->w))
			return -1;
		s->report_lost++;
	}
	if (s->cfg.buffer_lost_every &&
	    s->reports % s->cfg.buffer_lost_every == 0) {
		if (oa_write_buffer_lost(s->w))
			return -1;
		s->buffer_lost++;
	}
	return 0;
}

static int oa_sim_fail(struct oa_sim *s)
{
	errno = oa_writer_error(s->w) ? oa_writer_error(s->w) : EIO;
	return -1;
}

/*
 * The B or C counter that @set takes for GpuCoreClocks where reports
 * have no clock field (Haswell: C2, C7 or B7 by set), or -1.
 */
static int oa_sim_clock_counter(const struct oa_metric_set *set)
{
	const struct oa_metric_counter *c;
	const char *eq;
	unsigned int i, n;

	for (i = 0; set && i < set->n_counters; i++) {
		c = &oa_metric_counters[oa_metric_set_counters[set->first + i]];
		if (strcmp(oa_metric_str(c->symbol), "GpuCoreClocks"))
			continue;
		eq = oa_metric_str(c->equation);
		if ((eq[0] != 'B' && eq[0] != 'C') || strchr(eq, ' ') ||
		    sscanf(eq + 1, "%u", &n) != 1 || n >= 8)
			return -1;
		return (eq[0] == 'B' ? OA_SIM_B0 : OA_SIM_C0) + n;
	}
	return -1;
}

/* The counter index of raw counter token @tok ("A12", "B3"), or -1. */
static int oa_sim_raw_counter(const char *tok, size_t len)
{
	unsigned int n = 0, max, base;
	size_t i;

	if (len < 2 || len > 3)
		return -1;
	switch (tok[0]) {
	case 'A':
		base = 0, max = GPUPROF_OA_A_COUNTERS;
		break;
	case 'B':
		base = OA_SIM_B0, max = GPUPROF_OA_B_COUNTERS;
		break;
	case 'C':
		base = OA_SIM_C0, max = GPUPROF_OA_C_COUNTERS;
		break;
	default:
		return -1;
	}
	for (i = 1; i < len; i++) {
		if (tok[i] < '0' || tok[i] > '9')
			return -1;
		n = n * 10 + tok[i] - '0';
	}
	return n < max ? (int)(base + n) : -1;
}

/* The "x y USUB" and "x y FSUB" of raw counters in @set's equations. */
static void oa_sim_find_order(struct oa_sim *s, const struct oa_metric_set *set)
{
	const struct oa_metric_counter *c;
	const char *p, *end;
	int prev[2];
	unsigned int i;
	size_t len;

	for (i = 0; set && i < set->n_counters; i++) {
		c = &oa_metric_counters[oa_metric_set_counters[set->first + i]];
		prev[0] = prev[1] = -1;
		for (p = oa_metric_str(c->equation); *p; p = *end ? end + 1 : end) {
			end = strchr(p, ' ');
			if (!end)
				end = p + strlen(p);
			len = end - p;
			if (len == 4 && (!strncmp(p, "USUB", 4) ||
					 !strncmp(p, "FSUB", 4)) &&
			    prev[0] >= 0 && prev[1] >= 0 &&
			    s->n_order < OA_SIM_MAX_ORDER) {
				s->order[s->n_order][0] = prev[0];
				s->order[s->n_order][1] = prev[1];
				s->n_order++;
			}
			prev[0] = prev[1];
			prev[1] = oa_sim_raw_counter(p, len);
		}
	}
}

/**
 * oa_sim_init - start a simulated stream
 * @s: the simulator
 * @cfg: its configuration, copied
 * @w: where the stream goes; the header records are written now:
 *	VERSION, DRIVER (on GPUs only xe serves), DEVICE_INFO,
 *	DEVICE_TOPOLOGY and the first correlation
 */
int oa_sim_init(struct oa_sim *s, const struct oa_sim_config *cfg,
		struct oa_writer *w)
{
	struct gpuprof_oa_device_info info;
	union {	/* aligned for the struct's u16 fields */
		struct drm_i915_query_topology_info info;
		uint8_t bytes[256];
	} topo;
	const struct gpuprof_oa_platform *gpu;
	const struct oa_metric_set *set;
	char uuid[OA_METRIC_UUID_LEN + 1];
	size_t topo_len;
	unsigned int i;
	uint32_t format;

	if (!s || !cfg || !w) {
		errno = EINVAL;
		return -1;
	}
	memset(s, 0, sizeof(*s));
	s->w = w;
	s->cfg = *cfg;
	s->plat = oa_sim_platform_of_device(cfg->device_id);
	format = cfg->format ? cfg->format : s->plat->format;
	if (gpuprof_oa_layout(s->plat->ip / 100, format, &s->layout)) {
		errno = EINVAL;
		return -1;
	}
	s->ts_hz = s->plat->timestamp_hz;
	s->gt_hz = s->plat->gt_hz;
	s->exponent = oa_exponent_for_period(cfg->period_ns, s->ts_hz);
	s->period_ticks = 2ull << s->exponent;
	s->rng = cfg->seed;
	/* A 36-bit timestamp somewhere past its first wrap, as on a GPU
	 * that has been up a while; CLOCK_MONOTONIC 10 s to a day in. */
	s->start_gpu = cfg->start_gpu_ts ? cfg->start_gpu_ts :
		       (1ull << 32) + splitmix64(&s->rng) % (15ull << 32);
	if (cfg->wrap56_in_ns)
		s->start_gpu = (1ull << 56) - ticks_of_ns(s, cfg->wrap56_in_ns);
	s->start_cpu = cfg->start_cpu_ns ? cfg->start_cpu_ns :
		       10 * NSEC + splitmix64(&s->rng) % (86400 * NSEC);
	s->clk_offset = splitmix64(&s->rng);
	/* Any start: the report keeps the bits its layout has room for. */
	for (i = 0; i < OA_SIM_N_COUNTERS; i++)
		s->counter[i] = splitmix64(&s->rng);
	s->ctx = OA_SIM_IDLE;
	s->next_corr = s->ts_hz;	/* a point every second */

	oa_sim_device_info(&info, cfg->device_id);
	info.oa_format = format;
	if (cfg->metric_set)
		snprintf(info.metric_set_name, sizeof(info.metric_set_name),
			 "%s", cfg->metric_set);
	/* The platform's own uuid for a set named without one; none for a
	 * set IGT does not have on the platform. */
	set = oa_metrics_set_of(info.device_id, info.metric_set_name,
				cfg->metric_set_uuid);
	snprintf(info.metric_set_uuid, sizeof(info.metric_set_uuid), "%s",
		 cfg->metric_set_uuid ? cfg->metric_set_uuid :
		 set ? oa_metric_uuid_format(set->uuid, uuid) : "");
	s->clock_counter = oa_sim_clock_counter(set);
	oa_sim_find_order(s, set);
	oa_sim_set_rates(s);	/* idle: only a clock counter moves */
	topo_len = oa_sim_platform_topology(s->plat, &topo, sizeof(topo));
	if (oa_write_version(w))
		return oa_sim_fail(s);
	/* A GPU only xe serves says so, or readers take it for i915's. */
	gpu = gpuprof_oa_platform_of_device(info.device_id);
	if (gpu && !gpu->oa_since && gpu->xe_since) {
		struct gpuprof_oa_driver drv = {
			.kernel = gpu->xe_since,
			.submission = GPUPROF_OA_SUBMISSION_GUC,
			.driver = GPUPROF_OA_DRIVER_XE,
		};

		if (oa_write_record(w, GPUPROF_OA_RECORD_DRIVER, &drv,
				    sizeof(drv)))
			return oa_sim_fail(s);
	}
	if (oa_write_device_info(w, &info) ||
	    oa_write_topology(w, &topo.info, topo_len) ||
	    oa_sim_correlation(s, 0))
		return oa_sim_fail(s);
	return 0;
}

/*
 * The next tick after @t whose timestamp has low 32 bits 0xffffffff:
 * a correlation point there lets IGT's reader, which matches only the
 * low 32 bits of report timestamps against correlation points, place
 * every report before a wrap between two points.
 */
static uint64_t oa_sim_next_prewrap(const struct oa_sim *s, uint64_t t)
{
	uint64_t abs = s->start_gpu + t;
	uint64_t w = abs | 0xffffffffull;

	if (w == abs)
		w += 1ull << 32;
	return w - s->start_gpu;
}

/**
 * oa_sim_step - run the GPU for @ns of stream time
 * @s: the simulator
 * @ns: how long
 * @busy: whether a context runs meanwhile
 * @ctx_id: which one, when @busy (not OA_SIM_IDLE)
 *
 * A change of the running context (idle included) gives a CTX_SWITCH
 * report now, carrying the context that runs from now on; then come the
 * timer reports and correlation points that fall within the step.
 */
int oa_sim_step(struct oa_sim *s, uint64_t ns, bool busy, uint32_t ctx_id)
{
	uint32_t ctx = busy ? ctx_id : OA_SIM_IDLE;
	uint64_t end_ns, end, timer, prewrap, t;

	if (s->finished || (busy && ctx_id == OA_SIM_IDLE)) {
		errno = EINVAL;
		return -1;
	}
	if (__builtin_add_overflow(s->elapsed_ns, ns, &end_ns)) {
		errno = EOVERFLOW;
		return -1;
	}
	if (ctx != s->ctx) {
		s->ctx = ctx;
		s->busy = busy;
		oa_sim_set_rates(s);
		if (oa_sim_report(s, s->now, GPUPROF_OA_REASON_CTX_SWITCH))
			return oa_sim_fail(s);
	}

	end = ticks_of_ns(s, end_ns);
	for (;;) {
		/* Timer reports at multiples of the period, absolute. */
		timer = ((s->start_gpu + s->now) / s->period_ticks + 1) *
			s->period_ticks - s->start_gpu;
		prewrap = oa_sim_next_prewrap(s, s->now);
		t = timer < s->next_corr ? timer : s->next_corr;
		t = prewrap < t ? prewrap : t;
		if (t > end)
			break;
		oa_sim_advance(s, t);
		if (t == timer && oa_sim_report(s, t, GPUPROF_OA_REASON_TIMER))
			return oa_sim_fail(s);
		if ((t == s->next_corr || t == prewrap) && t > s->last_corr &&
		    oa_sim_correlation(s, t))
			return oa_sim_fail(s);
		if (t == s->next_corr)
			s->next_corr += s->ts_hz;
	}
	oa_sim_advance(s, end);
	s->elapsed_ns = end_ns;
	return 0;
}

/**
 * oa_sim_run - run a schedule up to stream time @end_ns
 * @s: the simulator
 * @end_ns: where to stop
 * @iv: busy intervals in stream time, in order and not overlapping;
 *	the time between them is idle, parts before now are skipped
 * @n: their number
 */
int oa_sim_run(struct oa_sim *s, uint64_t end_ns,
	       const struct oa_sim_interval *iv, size_t n)
{
	uint64_t from, to;
	size_t i;

	for (i = 0; i < n; i++)
		if (iv[i].end_ns <= iv[i].start_ns ||
		    iv[i].ctx_id == OA_SIM_IDLE ||
		    (i && iv[i].start_ns < iv[i - 1].end_ns)) {
			errno = EINVAL;
			return -1;
		}
	for (i = 0; i < n && s->elapsed_ns < end_ns; i++) {
		if (iv[i].end_ns <= s->elapsed_ns)
			continue;
		from = iv[i].start_ns < end_ns ? iv[i].start_ns : end_ns;
		if (from > s->elapsed_ns &&
		    oa_sim_step(s, from - s->elapsed_ns, false, 0))
			return -1;
		to = iv[i].end_ns < end_ns ? iv[i].end_ns : end_ns;
		if (to > s->elapsed_ns &&
		    oa_sim_step(s, to - s->elapsed_ns, true, iv[i].ctx_id))
			return -1;
	}
	if (end_ns > s->elapsed_ns)
		return oa_sim_step(s, end_ns - s->elapsed_ns, false, 0);
	return 0;
}

/*
 * End the stream with a correlation point after everything in it: IGT's
 * reader wants each report strictly before some point.
 */
int oa_sim_finish(struct oa_sim *s)
{
	uint64_t t = s->now;

	if (s->finished) {
		errno = EINVAL;
		return -1;
	}
	if (s->have_report && s->last_report + 1 > t)
		t = s->last_report + 1;
	if (s->last_corr + 1 > t)
		t = s->last_corr + 1;
	s->finished = true;
	if (oa_sim_correlation(s, t) || oa_writer_flush(s->w))
		return oa_sim_fail(s);
	return 0;
}

/**
 * oa_sim_schedule - a busy schedule made from @seed
 * @seed: the seed
 * @contexts: how many contexts take turns (ids OA_SIM_CTX(k));
 *	0 for an idle GPU
 * @duration_ns: the stream time to cover
 * @period_ns: the report period: intervals last from half of it (or of
 *	100 us, if longer) to eight times that, so most span reports
 * @out: the intervals, malloc'ed (NULL when none); free() them
 * @n: their number
 *
 * A third of the busy intervals follow the previous one directly, in
 * another context: a switch from one context straight to another.
 */
int oa_sim_schedule(uint64_t seed, unsigned int contexts, uint64_t duration_ns,
		    uint64_t period_ns, struct oa_sim_interval **out,
		    size_t *n)
{
	uint64_t rng = seed ^ 0x5c4ed01e;	/* apart from the sim's own */
	uint64_t base = period_ns > 100000 ? period_ns : 100000;
	struct oa_sim_interval iv, *v = NULL;
	size_t cap = 0, k = 0;
	uint64_t t = 0, gap;
	uint32_t prev = OA_SIM_IDLE;

	*out = NULL;
	*n = 0;
	if (contexts > OA_SIM_MAX_CONTEXTS) {
		errno = EINVAL;
		return -1;
	}
	while (contexts && t < duration_ns) {
		gap = splitmix64(&rng) % 3 == 0 && prev != OA_SIM_IDLE ? 0 :
		      base / 2 + splitmix64(&rng) % (base * 4);
		iv.start_ns = t + gap;
		if (iv.start_ns >= duration_ns)
			break;
		iv.end_ns = iv.start_ns + base / 2 +
			    splitmix64(&rng) % (base * 8);
		if (iv.end_ns > duration_ns)
			iv.end_ns = duration_ns;
		iv.ctx_id = OA_SIM_CTX(splitmix64(&rng) % contexts);
		if (!gap && iv.ctx_id == prev) {
			if (contexts == 1) {
				/* No other context: just run on. */
				v[k - 1].end_ns = iv.end_ns;
				t = iv.end_ns;
				continue;
			}
			iv.ctx_id = OA_SIM_CTX((oa_sim_ctx_index(iv.ctx_id,
								 contexts) + 1) %
					       contexts);
		}
		if (ARRAY_PUSH(v, k, cap, iv)) {
			free(v);
			errno = ENOMEM;
			return -1;
		}
		prev = iv.ctx_id;
		t = iv.end_ns;
	}
	*out = v;
	*n = k;
	return 0;
}
