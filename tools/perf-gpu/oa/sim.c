// SPDX-License-Identifier: GPL-2.0-only
/*
 * The OA simulator (see oa/sim.h).  Everything follows from the seed
 * through a splitmix64 generator, and all time arithmetic is on integers
 * from the stream start (never accumulated step by step), so the same
 * seed and steps give the same bytes on every machine.
 *
 * The report layout is written here from design.rst 4, not taken
 * from module/oa_decode.c, so that the tests that decode our streams with
 * the shared decoder check two independent readings of the format.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oa/sim.h"
#include "util/array.h"

#define NSEC 1000000000ull
#define CORR_EVERY OA_SIM_TIMESTAMP_HZ	/* ticks: a point every second */
#define A40_MASK ((1ull << 40) - 1)

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
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

/**
 * oa_sim_exponent_for_period - the OA exponent nearest a period
 * @period_ns: the period wanted
 * @freq: the OA timestamp frequency, Hz
 *
 * Exponent e samples every 2^(e+1) timestamp ticks.  The result is the
 * e whose period is nearest @period_ns (the smaller on a tie), clamped
 * to 0..31 as i915 accepts.  Between e and e+1 the midpoint is
 * 3 * 2^e ticks, so compare @period_ns * @freq with 3 * 2^e * 1e9.
 */
unsigned int oa_sim_exponent_for_period(uint64_t period_ns, uint64_t freq)
{
	unsigned int e;

	for (e = 0; e < OA_SIM_MAX_EXPONENT; e++)
		if ((__uint128_t)period_ns * freq <=
		    ((__uint128_t)3 << e) * NSEC)
			return e;
	return OA_SIM_MAX_EXPONENT;
}

/* The period of @exponent in ns, truncated as i915's oa_exponent_to_ns(). */
uint64_t oa_sim_exponent_to_ns(unsigned int exponent, uint64_t freq)
{
	if (!freq || exponent > OA_SIM_MAX_EXPONENT)
		return 0;
	return muldiv(2ull << exponent, NSEC, freq);
}

/*
 * Tiger Lake GT2 as i915 reports it: one slice, six (dual) subslices of
 * 16 EUs, all enabled.  Masks follow the struct: the slice mask (1 byte),
 * one subslice-mask byte per slice, then 2 bytes of EU mask per subslice.
 * Return: the bytes written to @buf, 0 when @size is too small.
 */
size_t oa_sim_topology(void *buf, size_t size)
{
	struct drm_i915_query_topology_info t = {
		.max_slices = 1, .max_subslices = 6,
		.max_eus_per_subslice = 16,
		.subslice_offset = 1, .subslice_stride = 1,
		.eu_offset = 2, .eu_stride = 2,
	};
	size_t len = oa_topology_size(&t);
	uint8_t *data = (uint8_t *)buf + sizeof(t);

	if (size < len)
		return 0;
	memcpy(buf, &t, sizeof(t));
	data[0] = 0x01;
	data[1] = 0x3f;
	memset(data + 2, 0xff, 6 * 2);
	return len;
}

void oa_sim_device_info(struct gpuprof_oa_device_info *info,
			uint32_t device_id)
{
	memset(info, 0, sizeof(*info));
	info->timestamp_frequency = OA_SIM_TIMESTAMP_HZ;
	info->device_id = device_id ? device_id : OA_SIM_DEVICE_ID;
	info->device_revision = OA_SIM_DEVICE_REV;
	info->gt_min_frequency = OA_SIM_GT_MIN_HZ;
	info->gt_max_frequency = OA_SIM_GT_MAX_HZ;
	info->engine_class = I915_ENGINE_CLASS_RENDER;
	info->engine_instance = 0;
	info->oa_format = OA_SIM_FORMAT;
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

static uint64_t ticks_of_ns(uint64_t ns)
{
	return muldiv(ns, OA_SIM_TIMESTAMP_HZ, NSEC);
}

/* GPU clocks in the first @ticks OA ticks of the stream. */
static uint64_t clocks_of_ticks(uint64_t ticks)
{
	return muldiv(ticks, OA_SIM_GT_HZ, OA_SIM_TIMESTAMP_HZ);
}

uint64_t oa_sim_ts_at(const struct oa_sim *s, uint64_t ns)
{
	return s->start_gpu + ticks_of_ns(ns);
}

static void put32(uint8_t *r, unsigned int off, uint32_t v)
{
	r[off] = v;
	r[off + 1] = v >> 8;
	r[off + 2] = v >> 16;
	r[off + 3] = v >> 24;
}

/*
 * The rates of the running context: A0 counts busy clocks (IGT's GpuBusy
 * is A0 / GpuCoreClocks), A1..A31 up to 12 per clock, A32..A35 up to 8.
 * 12 is 96 EUs / 8: IGT's EU metrics on TGL read 8 * A / (EUs * clocks),
 * so they stay at or below 100%.  B and C count clocks in which a
 * condition holds, at most one per clock: here every busy clock.
 */
static void oa_sim_set_rates(struct oa_sim *s)
{
	unsigned int i;

	for (i = 0; i < OA_SIM_N_COUNTERS; i++) {
		uint64_t h = oa_hash3(s->cfg.seed, s->ctx, i);

		if (i == 0)
			s->rate[i] = 1;
		else if (i < OA_SIM_N_A40)
			s->rate[i] = 1 + h % 12;
		else if (i < OA_SIM_N_A40 + OA_SIM_N_A32)
			s->rate[i] = 1 + h % 8;
		else
			s->rate[i] = 1;
	}
}

/* Bring the counters from tick s->now to tick @t. */
static void oa_sim_advance(struct oa_sim *s, uint64_t t)
{
	uint64_t d;
	unsigned int i;

	if (t <= s->now)
		return;
	if (s->busy) {
		d = clocks_of_ticks(t) - clocks_of_ticks(s->now);
		for (i = 0; i < OA_SIM_N_COUNTERS; i++)
			s->counter[i] += d * s->rate[i];
	}
	s->now = t;
}

static int oa_sim_correlation(struct oa_sim *s, uint64_t t)
{
	/* A window like a clock_gettime() pair around a register read. */
	uint64_t window = 200 + splitmix64(&s->rng) % 800;

	if (oa_write_correlation(s->w, s->start_cpu + muldiv(t, NSEC,
					OA_SIM_TIMESTAMP_HZ),
				 s->start_gpu + t, window))
		return -1;
	s->last_corr = t;
	s->correlations++;
	return 0;
}

/* A report at tick @t (== s->now) with @reason, then any loss due. */
static int oa_sim_report(struct oa_sim *s, uint64_t t, uint32_t reason)
{
	uint8_t r[OA_SIM_REPORT_SIZE] = { 0 };
	bool ctx_valid = s->ctx != OA_SIM_IDLE;
	unsigned int i;

	if (s->cfg.valid_bit_clear)
		ctx_valid = false;
	put32(r, 0, reason << 19 | (ctx_valid ? 1u << 16 : 0));
	put32(r, 4, (uint32_t)(s->start_gpu + t));
	/* Idle reports say 0xffffffff too: IGT takes dword 2 as valid on
	 * gen12 whatever bit 16 says. */
	put32(r, 8, s->ctx);
	put32(r, 12, (uint32_t)(s->clk_offset + clocks_of_ticks(t)));
	for (i = 0; i < OA_SIM_N_A40; i++) {
		uint64_t v = s->counter[i] & A40_MASK;

		put32(r, 16 + 4 * i, (uint32_t)v);
		r[160 + i] = v >> 32;
	}
	for (i = 0; i < OA_SIM_N_A32; i++)
		put32(r, 144 + 4 * i, (uint32_t)s->counter[OA_SIM_N_A40 + i]);
	for (i = 0; i < 16; i++)	/* B0..B7, then C0..C7 */
		put32(r, 192 + 4 * i,
		      (uint32_t)s->counter[OA_SIM_N_A40 + OA_SIM_N_A32 + i]);

	if (oa_write_sample(s->w, r, sizeof(r)))
		return -1;
	s->reports++;
	if (reason & GPUPROF_OA_REASON_TIMER)
		s->timer_reports++;
	if (reason & GPUPROF_OA_REASON_CTX_SWITCH)
		s->switch_reports++;
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

/**
 * oa_sim_init - start a simulated stream
 * @s: the simulator
 * @cfg: its configuration, copied
 * @w: where the stream goes; the header records are written now:
 *	VERSION, DEVICE_INFO, DEVICE_TOPOLOGY and the first correlation
 */
int oa_sim_init(struct oa_sim *s, const struct oa_sim_config *cfg,
		struct oa_writer *w)
{
	struct gpuprof_oa_device_info info;
	union {	/* aligned for the struct's u16 fields */
		struct drm_i915_query_topology_info info;
		uint8_t bytes[64];
	} topo;
	size_t topo_len;
	unsigned int i;

	if (!s || !cfg || !w) {
		errno = EINVAL;
		return -1;
	}
	memset(s, 0, sizeof(*s));
	s->w = w;
	s->cfg = *cfg;
	s->exponent = oa_sim_exponent_for_period(cfg->period_ns,
						 OA_SIM_TIMESTAMP_HZ);
	s->period_ticks = 2ull << s->exponent;
	s->rng = cfg->seed;
	/* A 36-bit timestamp somewhere past its first wrap, as on a GPU
	 * that has been up a while; CLOCK_MONOTONIC 10 s to a day in. */
	s->start_gpu = cfg->start_gpu_ts ? cfg->start_gpu_ts :
		       (1ull << 32) + splitmix64(&s->rng) % (15ull << 32);
	s->start_cpu = cfg->start_cpu_ns ? cfg->start_cpu_ns :
		       10 * NSEC + splitmix64(&s->rng) % (86400 * NSEC);
	s->clk_offset = splitmix64(&s->rng);
	for (i = 0; i < OA_SIM_N_COUNTERS; i++) {
		uint64_t v = splitmix64(&s->rng);

		s->counter[i] = i < OA_SIM_N_A40 ? v & A40_MASK : v & 0xffffffff;
	}
	s->ctx = OA_SIM_IDLE;
	s->next_corr = CORR_EVERY;

	oa_sim_device_info(&info, cfg->device_id);
	if (cfg->metric_set)
		snprintf(info.metric_set_name, sizeof(info.metric_set_name),
			 "%s", cfg->metric_set);
	if (cfg->metric_set_uuid)
		snprintf(info.metric_set_uuid, sizeof(info.metric_set_uuid),
			 "%s", cfg->metric_set_uuid);
	topo_len = oa_sim_topology(&topo, sizeof(topo));
	if (oa_write_version(w) || oa_write_device_info(w, &info) ||
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

	end = ticks_of_ns(end_ns);
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
			s->next_corr += CORR_EVERY;
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
