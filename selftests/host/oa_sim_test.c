// SPDX-License-Identifier: GPL-2.0-only
/*
 * The OA simulator and writer (tools/perf-gpu/oa/sim.c, oa/writer.c),
 * checked through the shared decoder (module/oa_decode.c),
 * with expectations computed by hand.  At 19.2 MHz one ms is 19200
 * ticks and exponent e samples every 2^(e+1) ticks.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/harness.h"
#include "../../module/oa_decode.h"
#include "../../tools/perf-gpu/oa/device.h"
#include "../../tools/perf-gpu/oa/metrics.h"
#include "../../tools/perf-gpu/oa/sim.h"

#define MS 1000000ull
#define TICKS_PER_MS 19200ull

/* One record of a parsed stream. */
struct rec {
	__u32 type;
	struct gpuprof_oa_report h;	/* SAMPLE */
	__u8 report[GPUPROF_OA_REPORT_MAX];	/* SAMPLE */
	__u64 cpu, gpu, window;		/* correlations */
};

struct parsed {
	struct gpuprof_oa_stream s;
	struct rec *r;
	size_t n, cap;
	int err;
};

static void collect(void *arg, const struct gpuprof_oa_stream *s,
		    const struct gpuprof_oa_record_header *h,
		    const void *payload)
{
	struct parsed *p = arg;
	struct rec *r;

	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 1024;
		p->r = realloc(p->r, p->cap * sizeof(*p->r));
	}
	r = &p->r[p->n++];
	memset(r, 0, sizeof(*r));
	r->type = h->type;
	if (h->type == GPUPROF_OA_RECORD_SAMPLE) {
		memcpy(r->report, payload, s->layout.size);
		gpuprof_oa_report_header(&s->layout, payload, &r->h);
	} else if (h->type == GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION ||
		   h->type == GPUPROF_OA_RECORD_CORRELATION_BOUND) {
		memcpy(&r->cpu, payload, 8);
		memcpy(&r->gpu, (const __u8 *)payload + 8, 8);
		if (h->type == GPUPROF_OA_RECORD_CORRELATION_BOUND)
			memcpy(&r->window, (const __u8 *)payload + 16, 8);
	}
}

/* Parse @len bytes in odd-sized pieces, as a device write would see them. */
static void parse(const void *buf, size_t len, struct parsed *p)
{
	static __u8 rbuf[GPUPROF_OA_RECORD_MAX];
	size_t off = 0, k;

	memset(p, 0, sizeof(*p));
	gpuprof_oa_stream_init(&p->s, rbuf);
	while (off < len && !p->err) {
		k = len - off < 1000 ? len - off : 1000;
		p->err = gpuprof_oa_stream_feed(&p->s, (const __u8 *)buf + off,
						k, collect, p);
		off += k;
	}
	if (!p->err)
		p->err = gpuprof_oa_stream_end(&p->s);
}

struct recording {
	char *buf;
	size_t len;
	struct oa_sim sim;
	struct oa_sim_interval *iv;
	size_t n_iv;
};

/* A whole recording in memory; @iv NULL: a schedule from the seed. */
static int record(struct recording *rec, const struct oa_sim_config *cfg,
		  unsigned int contexts, uint64_t duration_ns,
		  const struct oa_sim_interval *iv, size_t n)
{
	struct oa_writer w;
	FILE *f;
	int ret;

	memset(rec, 0, sizeof(*rec));
	f = open_memstream(&rec->buf, &rec->len);
	if (!f)
		return -1;
	oa_writer_init(&w, f);
	if (!iv) {
		if (oa_sim_schedule(cfg->seed, contexts, duration_ns,
				    cfg->period_ns, &rec->iv, &rec->n_iv)) {
			fclose(f);
			return -1;
		}
		iv = rec->iv;
		n = rec->n_iv;
	}
	ret = oa_sim_init(&rec->sim, cfg, &w) ||
	      oa_sim_run(&rec->sim, duration_ns, iv, n) ||
	      oa_sim_finish(&rec->sim);
	fclose(f);
	return ret ? -1 : 0;
}

static void recording_free(struct recording *rec)
{
	free(rec->buf);
	free(rec->iv);
}

static uint32_t le32(const __u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const __u8 *p)
{
	return le32(p) | (uint64_t)le32(p + 4) << 32;
}

TEST(exponent_to_period_at_19_2_mhz)
{
	/* 2^(e+1) / 19.2e6 s, truncated to ns as i915 does. */
	EXPECT_EQ(104, oa_exponent_to_ns(0, OA_SIM_TIMESTAMP_HZ));
	EXPECT_EQ(208, oa_exponent_to_ns(1, OA_SIM_TIMESTAMP_HZ));
	EXPECT_EQ(3333, oa_exponent_to_ns(5, OA_SIM_TIMESTAMP_HZ));
	EXPECT_EQ(106666, oa_exponent_to_ns(10, OA_SIM_TIMESTAMP_HZ));
	EXPECT_EQ(853333, oa_exponent_to_ns(13, OA_SIM_TIMESTAMP_HZ));
	EXPECT_EQ(109226666, oa_exponent_to_ns(20, OA_SIM_TIMESTAMP_HZ));
	EXPECT_EQ(223696213333ull, oa_exponent_to_ns(31, OA_SIM_TIMESTAMP_HZ));
	EXPECT_EQ(0, oa_exponent_to_ns(32, OA_SIM_TIMESTAMP_HZ));
	/* Gen9's 12 MHz: exponent 0 is 166 ns. */
	EXPECT_EQ(166, oa_exponent_to_ns(0, 12000000));
}

TEST(period_rounds_to_the_nearest_exponent)
{
	const uint64_t hz = OA_SIM_TIMESTAMP_HZ;

	EXPECT_EQ(0, oa_exponent_for_period(0, hz));
	EXPECT_EQ(0, oa_exponent_for_period(1, hz));
	EXPECT_EQ(0, oa_exponent_for_period(104, hz));
	/* 0 and 1 are 104.17 and 208.33 ns: the midpoint is 156.25. */
	EXPECT_EQ(0, oa_exponent_for_period(156, hz));
	EXPECT_EQ(1, oa_exponent_for_period(157, hz));
	/* 1 ms: 13 is 853333 ns, 14 is 1706666; midpoint 1280000 exactly,
	 * a tie, which goes to the shorter period. */
	EXPECT_EQ(13, oa_exponent_for_period(1000000, hz));
	EXPECT_EQ(13, oa_exponent_for_period(1280000, hz));
	EXPECT_EQ(14, oa_exponent_for_period(1280001, hz));
	/* 100 us: 9 is 53333, 10 is 106666 (midpoint 80000). */
	EXPECT_EQ(10, oa_exponent_for_period(100000, hz));
	EXPECT_EQ(9, oa_exponent_for_period(80000, hz));
	/* 100 ms: 19 is 54.6 ms, 20 is 109.2 ms, 21 is 218.5 ms. */
	EXPECT_EQ(20, oa_exponent_for_period(100000000, hz));
	/* Beyond exponent 31 (223.7 s) it stays 31. */
	EXPECT_EQ(31, oa_exponent_for_period(223696213333ull, hz));
	EXPECT_EQ(31, oa_exponent_for_period(UINT64_MAX, hz));
	/* At 12 MHz, 1 ms lies between 12 (683 us) and 13 (1365 us),
	 * below their midpoint of 1024 us. */
	EXPECT_EQ(12, oa_exponent_for_period(1000000, 12000000));
}

TEST(same_seed_same_bytes_other_seed_other_bytes)
{
	struct oa_sim_config cfg = { .seed = 42, .period_ns = 100000 };
	struct recording a, b, c;

	ASSERT_EQ(0, record(&a, &cfg, 3, 50 * MS, NULL, 0));
	ASSERT_EQ(0, record(&b, &cfg, 3, 50 * MS, NULL, 0));
	cfg.seed = 43;
	ASSERT_EQ(0, record(&c, &cfg, 3, 50 * MS, NULL, 0));
	ASSERT_EQ(a.len, b.len);
	EXPECT_EQ(0, memcmp(a.buf, b.buf, a.len));
	EXPECT_TRUE(a.len != c.len || memcmp(a.buf, c.buf, a.len));
	recording_free(&a);
	recording_free(&b);
	recording_free(&c);
}

/*
 * An idle GPU, 2.5 s from a timestamp of 2^32, period 1 ms (exponent 13,
 * 16384 ticks): 48,000,000 ticks hold 2929 timer reports (2929 * 16384 =
 * 47,988,736); correlation points at 0, 1 s, 2 s and the end, each a
 * TIMESTAMP_CORRELATION and a CORRELATION_BOUND; a REPORT_LOST after
 * every 100th report (29) and a BUFFER_LOST after every 1000th (2).
 */
TEST(stream_parses_with_the_expected_record_counts)
{
	struct oa_sim_config cfg = {
		.seed = 7, .period_ns = MS, .start_gpu_ts = 1ull << 32,
		.report_lost_every = 100, .buffer_lost_every = 1000,
	};
	struct recording rec;
	struct parsed p;
	size_t i, samples = 0;

	ASSERT_EQ(0, record(&rec, &cfg, 0, 2500 * MS, NULL, 0));
	parse(rec.buf, rec.len, &p);
	ASSERT_EQ(0, p.err) TH_LOG("%s", gpuprof_oa_error_name(p.s.error));
	EXPECT_EQ(2929, p.s.samples);
	EXPECT_EQ(8, p.s.correlations);
	EXPECT_EQ(29, p.s.report_lost);
	EXPECT_EQ(2, p.s.buffer_lost);
	EXPECT_EQ(0, p.s.unknown);
	EXPECT_EQ(3 + 2929 + 8 + 29 + 2, p.s.records);
	EXPECT_EQ(0x9a49, p.s.info.device_id);
	EXPECT_EQ(19200000, p.s.info.timestamp_frequency);
	EXPECT_EQ(10, p.s.info.oa_format);
	EXPECT_EQ(256, p.s.layout.size);
	EXPECT_EQ(12, p.s.layout.gen);
	EXPECT_STREQ("RenderBasic", p.s.info.metric_set_name);
	EXPECT_STREQ("0fc397c0-4833-492c-9ccd-4929d574d5b8",
		     p.s.info.metric_set_uuid);
	/* The order: VERSION, DEVICE_INFO, TOPOLOGY, the first point. */
	ASSERT_GT(p.n, 5);
	EXPECT_EQ(GPUPROF_OA_RECORD_VERSION, p.r[0].type);
	EXPECT_EQ(GPUPROF_OA_RECORD_DEVICE_INFO, p.r[1].type);
	EXPECT_EQ(GPUPROF_OA_RECORD_DEVICE_TOPOLOGY, p.r[2].type);
	EXPECT_EQ(GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION, p.r[3].type);
	EXPECT_EQ(GPUPROF_OA_RECORD_CORRELATION_BOUND, p.r[4].type);
	/* Every timer report: idle, no context, at a multiple of 16384. */
	for (i = 0; i < p.n; i++) {
		if (p.r[i].type != GPUPROF_OA_RECORD_SAMPLE)
			continue;
		samples++;
		EXPECT_EQ(GPUPROF_OA_REASON_TIMER, p.r[i].h.reason);
		EXPECT_EQ(GPUPROF_OA_NO_CONTEXT, p.r[i].h.ctx_id);
		EXPECT_EQ(16384 * samples, p.r[i].h.timestamp);
		/* Loss records follow the 100th and 1000th reports. */
		if (samples % 100 == 0) {
			ASSERT_LT(i + 1, p.n);
			EXPECT_EQ(GPUPROF_OA_RECORD_REPORT_LOST, p.r[i + 1].type);
		}
		if (samples % 1000 == 0)
			EXPECT_EQ(GPUPROF_OA_RECORD_BUFFER_LOST, p.r[i + 2].type);
	}
	/* The last point: 2.5 s in, 48e6 ticks after 2^32. */
	EXPECT_EQ(GPUPROF_OA_RECORD_CORRELATION_BOUND, p.r[p.n - 1].type);
	EXPECT_EQ((1ull << 32) + 48000000, p.r[p.n - 1].gpu);
	EXPECT_EQ(rec.sim.start_cpu + 2500 * MS, p.r[p.n - 1].cpu);
	free(p.r);
	recording_free(&rec);
}

TEST(topology_is_tgl_gt2_padded_to_8_bytes)
{
	struct oa_sim_config cfg = { .seed = 1, .period_ns = MS };
	const struct drm_i915_query_topology_info *t;
	struct recording rec;
	size_t off = 8 + 8 + 8 + sizeof(struct gpuprof_oa_device_info);
	const __u8 *data;

	ASSERT_EQ(0, record(&rec, &cfg, 0, 10 * MS, NULL, 0));
	/* 16 bytes of struct, 1 slice mask, 1 subslice mask, 6 x 2 EU masks:
	 * 30, padded to 32, and the header. */
	EXPECT_EQ(GPUPROF_OA_RECORD_DEVICE_TOPOLOGY, le32((__u8 *)rec.buf + off));
	EXPECT_EQ(40, rec.buf[off + 6] | rec.buf[off + 7] << 8);
	t = (const void *)(rec.buf + off + 8);
	EXPECT_EQ(1, t->max_slices);
	EXPECT_EQ(6, t->max_subslices);
	EXPECT_EQ(16, t->max_eus_per_subslice);
	data = (const __u8 *)t + sizeof(*t);
	EXPECT_EQ(0x01, data[0]);
	EXPECT_EQ(0x3f, data[1]);
	EXPECT_EQ(0xff, data[2]);
	EXPECT_EQ(0xff, data[13]);
	EXPECT_EQ(0, data[14]);	/* padding */
	EXPECT_EQ(0, data[15]);
	recording_free(&rec);
}

/* Timer reports in a stream of @ns: one per period, give or take one. */
TEST(report_count_is_duration_over_period)
{
	static const struct { uint64_t seed, period, ns; } c[] = {
		{ 1, 100000, 100 * MS },	/* 106666 ns: 937.5 */
		{ 2, MS, 1000 * MS },		/* 853333 ns: 1171.9 */
		{ 3, 5 * MS, 3300 * MS },	/* 3413333 ns: 966.8 */
		{ 4, 10000, 10 * MS },		/* a tie, 6666 ns: 1500 */
	};
	struct recording rec;
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct oa_sim_config cfg = { .seed = c[i].seed,
					     .period_ns = c[i].period };
		uint64_t period = oa_exponent_to_ns(
			oa_exponent_for_period(c[i].period, OA_SIM_TIMESTAMP_HZ),
			OA_SIM_TIMESTAMP_HZ);
		uint64_t want = c[i].ns / period;

		ASSERT_EQ(0, record(&rec, &cfg, 2, c[i].ns, NULL, 0));
		EXPECT_GE(rec.sim.timer_reports + 1, want) TH_LOG("case %zu", i);
		EXPECT_LE(rec.sim.timer_reports, want + 1) TH_LOG("case %zu", i);
		recording_free(&rec);
	}
}

/* Ticks of stream time @ns, as the simulator counts them. */
static uint64_t ticks(uint64_t ns)
{
	return (uint64_t)((__uint128_t)ns * OA_SIM_TIMESTAMP_HZ / 1000000000ull);
}

/*
 * Between two reports the counters move only if the schedule had work
 * there: a pair inside an idle gap has no A, B or C delta.  A pair inside
 * a busy interval of the Tiger Lake GT2 (96 EUs, 7 threads each) has
 * A0 = the GPU clocks elapsed (GpuBusy 100 %); the EU counters within
 * what the equations allow, EuActive (A7..A10) + EuStall (A11..A14) at
 * most 96 per clock, EuThreadOccupancy's A15..A18 at most 96 * 7 / 8;
 * each B and C at most a quarter per clock (GTI throughput sums four);
 * and every counter moving in pairs of 1024 clocks or more (rates are
 * at least 1/1024 per clock), across 32- and 40-bit wraps.
 */
TEST(counters_rise_only_in_busy_intervals)
{
	struct oa_sim_config cfg = { .seed = 3, .period_ns = 100000 };
	struct recording rec;
	struct parsed p;
	const struct rec *r0 = NULL;
	size_t i, k, idle_pairs = 0, busy_pairs = 0;
	__u64 start, eu, stall, occ;

	ASSERT_EQ(0, record(&rec, &cfg, 2, 200 * MS, NULL, 0));
	ASSERT_GT(rec.n_iv, 5);
	parse(rec.buf, rec.len, &p);
	ASSERT_EQ(0, p.err);
	start = rec.sim.start_gpu;
	for (i = 0; i < p.n; i++) {
		const struct rec *r1 = &p.r[i];
		struct gpuprof_oa_deltas d = { 0 };
		__u64 t0, t1;
		bool idle = true, busy = false;

		if (r1->type != GPUPROF_OA_RECORD_SAMPLE)
			continue;
		if (!r0) {
			r0 = r1;
			continue;
		}
		t0 = (__u32)(r0->h.timestamp - (__u32)start);
		t1 = (__u32)(r1->h.timestamp - (__u32)start);
		for (k = 0; k < rec.n_iv; k++) {
			__u64 s = ticks(rec.iv[k].start_ns);
			__u64 e = ticks(rec.iv[k].end_ns);

			if (s < t1 && e > t0)
				idle = false;
			if (s <= t0 && t1 <= e)
				busy = true;
		}
		gpuprof_oa_accumulate(&p.s.layout, r0->report, r1->report, &d);
		if (idle && t1 > t0) {
			idle_pairs++;
			for (k = 0; k < 36; k++)
				ASSERT_EQ(0, d.a[k]) TH_LOG("A%zu at %llu", k,
							    (unsigned long long)t0);
			for (k = 0; k < 8; k++) {
				ASSERT_EQ(0, d.b[k]);
				ASSERT_EQ(0, d.c[k]);
			}
		}
		if (busy && t1 > t0) {
			busy_pairs++;
			ASSERT_EQ(d.gpu_ticks, d.a[0]);
			eu = d.a[7] + d.a[8] + d.a[9] + d.a[10];
			stall = d.a[11] + d.a[12] + d.a[13] + d.a[14];
			occ = d.a[15] + d.a[16] + d.a[17] + d.a[18];
			ASSERT_LE(eu + stall, 96 * d.gpu_ticks);
			ASSERT_LE(occ * 8, 96 * 7 * d.gpu_ticks);
			for (k = 1; k < 36 && d.gpu_ticks >= 1024; k++)
				ASSERT_GT(d.a[k], 0) TH_LOG("A%zu", k);
			for (k = 0; k < 8; k++) {
				ASSERT_TRUE(d.gpu_ticks < 1024 || d.b[k] > 0);
				ASSERT_TRUE(d.gpu_ticks < 1024 || d.c[k] > 0);
				ASSERT_LE(d.b[k], d.gpu_ticks / 4 + 1);
				ASSERT_LE(d.c[k], d.gpu_ticks / 4 + 1);
			}
		}
		r0 = r1;
	}
	EXPECT_GT(idle_pairs, 50);
	EXPECT_GT(busy_pairs, 50);
	free(p.r);
	recording_free(&rec);
}

/*
 * A device id whose IGT metric file is @stem's and whose OA a kernel of
 * ours serves (not Cannon Lake's), through i915, or xe on the GPUs only
 * xe serves; 0 if none.
 */
static uint32_t device_of(const char *stem)
{
	const struct gpuprof_oa_driver xe = { .driver = GPUPROF_OA_DRIVER_XE };
	const struct gpuprof_oa_platform *g;
	struct gpuprof_oa_layout l;
	uint32_t id;

	for (id = 1; id < 0x10000; id++) {
		g = gpuprof_oa_platform_of_device(id);
		if (g && g->metrics && !strcmp(g->metrics, stem))
			return gpuprof_oa_layout_of(id, oa_sim_platform_of_device(id)->format,
						    g->oa_since ? NULL : &xe,
						    &l) ? id : 0;
	}
	return 0;
}

/* The offset of the first record of @type in recording @rec, or 0. */
static size_t record_offset(const struct recording *rec, __u32 type)
{
	size_t off = 0, size;

	while (off + 8 <= rec->len) {
		if (le32((const __u8 *)rec->buf + off) == type)
			return off;
		size = (__u8)rec->buf[off + 6] | (__u8)rec->buf[off + 7] << 8;
		if (size < 8)
			return 0;
		off += size;
	}
	return 0;
}

/* The device of recording @rec, parsed in @p. */
static int device_of_recording(const struct recording *rec,
			       const struct parsed *p,
			       struct oa_metrics_device *dev)
{
	const struct gpuprof_oa_device_info *info = &p->s.info;
	size_t off = record_offset(rec, GPUPROF_OA_RECORD_DEVICE_TOPOLOGY);

	*dev = (struct oa_metrics_device){
		.device_id = info->device_id,
		.revision = info->device_revision,
		.timestamp_frequency = info->timestamp_frequency,
		.gt_min_hz = info->gt_min_frequency,
		.gt_max_hz = info->gt_max_frequency,
		.topology = rec->buf + off + 8,
		.topology_len = ((__u8)rec->buf[off + 6] |
				 (__u8)rec->buf[off + 7] << 8) - 8,
	};
	return off ? 0 : -1;
}

/* The metrics of @set on the device of recording @rec. */
static int metrics_of(struct oa_metrics *m, const struct oa_metric_set *set,
		      const struct recording *rec, const struct parsed *p)
{
	struct oa_metrics_device dev;

	if (device_of_recording(rec, p, &dev))
		return -1;
	return oa_metrics_init(m, set, &dev);
}

/* The value of available counter @sym of @m, or -1 if there is none. */
static double metric(const struct oa_metrics *m, const char *sym)
{
	const struct oa_metric_value *v;
	unsigned int i;

	for (i = 0; i < m->n; i++) {
		if (strcmp(oa_metric_str(oa_metrics_counter(m, i)->symbol), sym))
			continue;
		v = oa_metrics_value(m, i);
		return v->is_double ? v->d : (double)v->u;
	}
	return -1;
}

/*
 * The platforms: the timestamp frequency i915 reports, the report format
 * and the EUs of the topology, for one device id of a few generations;
 * Skylake GT1 and Arrow Lake, without metric files, play the nearest
 * platform of their generation (Skylake GT2, Meteor Lake GT2).
 */
TEST(device_info_and_topology_follow_the_platform)
{
	static const struct {
		uint32_t id;
		uint64_t hz;
		uint32_t format;
		uint16_t size;
		unsigned int eus;
	} c[] = {
		{ 0x0412, 12500000, GPUPROF_OA_FORMAT_A45_B8_C8, 256, 20 },
		{ 0x1602, 12500000, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8, 256, 24 },
		{ 0x1912, 12000000, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8, 256, 24 },
		{ 0x5a84, 19200000, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8, 256, 18 },
		{ 0x8a52, 12000000, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8, 256, 64 },
		{ 0, 19200000, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8, 256, 96 },
		{ 0x7d55, 38400000, GPUPROF_OA_FORMAT_A24u40_A14u32_B8_C8, 256, 128 },
		{ 0x1902, 12000000, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8, 256, 24 },
		{ 0x7d41, 38400000, GPUPROF_OA_FORMAT_A24u40_A14u32_B8_C8, 256, 64 },
	};
	struct oa_metrics_device dev;
	struct oa_metrics_vars v;
	struct recording rec;
	struct parsed p;
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct oa_sim_config cfg = { .seed = 1, .period_ns = MS,
					     .device_id = c[i].id };

		ASSERT_EQ(0, record(&rec, &cfg, 1, 10 * MS, NULL, 0));
		parse(rec.buf, rec.len, &p);
		ASSERT_EQ(0, p.err) TH_LOG("0x%04x", c[i].id);
		EXPECT_EQ(c[i].hz, p.s.info.timestamp_frequency) TH_LOG("0x%04x", c[i].id);
		EXPECT_EQ(c[i].format, p.s.info.oa_format) TH_LOG("0x%04x", c[i].id);
		EXPECT_EQ(c[i].size, p.s.layout.size);
		ASSERT_EQ(0, device_of_recording(&rec, &p, &dev));
		oa_metrics_device_vars(&dev, &v);
		EXPECT_EQ(c[i].eus, v.n_eus) TH_LOG("0x%04x", c[i].id);
		/* The uuid is the platform's RenderBasic, none without
		 * metrics. */
		EXPECT_EQ(p.s.info.device_id == OA_SIM_DEVICE_ID,
			  !strcmp(p.s.info.metric_set_uuid, OA_SIM_METRIC_UUID));
		EXPECT_EQ(c[i].id == 0x1902 || c[i].id == 0x7d41,
			  !p.s.info.metric_set_uuid[0]) TH_LOG("0x%04x", c[i].id);
		free(p.r);
		recording_free(&rec);
	}
}

/*
 * GpuBusy over a whole recording is the busy share of its schedule, on
 * every platform: busy over 2-5 ms and 7-8 ms, reports from before 2 ms
 * (the switch there at the latest) to after 8 ms, so 4 ms of the window
 * from the first report to the last.  Whole ms are whole ticks at every
 * frequency here; what is left is the truncation of ticks to GPU clocks
 * at the four interval ends and the two window ends, one clock each:
 * |GpuBusy - 100 * 4 ms / window| <= 100 * 6 / GpuCoreClocks (Xe2's
 * GPU_BUSY): 21 platforms of i915's, Xe2's two and Xe3's Panther Lake.
 */
TEST(gpu_busy_is_the_busy_share_of_the_schedule)
{
	static const struct oa_sim_interval iv[] = {
		{ 2 * MS, 5 * MS, OA_SIM_CTX(0) },
		{ 7 * MS, 8 * MS, OA_SIM_CTX(1) },
	};
	unsigned int i, checked = 0;

	for (i = 0; i < oa_sim_n_platforms; i++) {
		const struct oa_sim_platform *sp = &oa_sim_platforms[i];
		const char *busy_sym = sp->ip >= 2000 ? "GPU_BUSY" : "GpuBusy";
		uint32_t id = device_of(sp->metrics);
		struct oa_sim_config cfg = { .seed = 5, .period_ns = MS,
					     .start_gpu_ts = 1ull << 32,
					     .device_id = id };
		const struct oa_metric_set *set;
		struct gpuprof_oa_deltas d = { 0 };
		const struct rec *first = NULL, *last = NULL;
		struct oa_metrics m;
		struct recording rec;
		struct parsed p;
		double busy, want, clocks;
		size_t k;

		set = id ? oa_metrics_set_of(id, "RenderBasic", NULL) : NULL;
		if (!set)	/* DG2: sets without counters */
			continue;
		ASSERT_EQ(0, record(&rec, &cfg, 0, 10 * MS, iv, 2));
		parse(rec.buf, rec.len, &p);
		ASSERT_EQ(0, p.err) TH_LOG("%s", sp->metrics);
		for (k = 0; k < p.n; k++) {
			if (p.r[k].type != GPUPROF_OA_RECORD_SAMPLE)
				continue;
			if (last)
				gpuprof_oa_accumulate(&p.s.layout, last->report,
						      p.r[k].report, &d);
			if (!first)
				first = &p.r[k];
			last = &p.r[k];
		}
		ASSERT_NE(NULL, last);
		ASSERT_EQ(0, metrics_of(&m, set, &rec, &p));
		oa_metrics_compute(&m, &d);
		busy = metric(&m, busy_sym);
		clocks = metric(&m, "GpuCoreClocks");
		want = 100.0 * 4 * sp->timestamp_hz / 1000 /
		       (double)(__u32)(last->h.timestamp - first->h.timestamp);
		EXPECT_GT(clocks, 0) TH_LOG("%s", sp->metrics);
		EXPECT_LE(fabs(busy - want), 100.0 * 6 / clocks)
			TH_LOG("%s: GpuBusy %f, the schedule's %f", sp->metrics,
			       busy, want);
		checked++;
		free(p.r);
		recording_free(&rec);
	}
	EXPECT_EQ(21 + 2 + 1, checked);
}

/*
 * For every set of every platform, over every pair of reports of a
 * recording with three contexts taking turns: EuActive, EuStall, their
 * sum, EuThreadOccupancy and GpuBusy at most 100 % (on Xe2 XVE_ACTIVE,
 * XVE_STALL, XVE_THREADS_OCCUPANCY_ALL and GPU_BUSY).
 */
TEST(eu_metrics_stay_within_100_percent_on_every_set)
{
	unsigned int i, j, sets = 0;
	unsigned long long pairs = 0, eu_checked = 0;

	for (i = 0; i < oa_metric_n_platforms; i++) {
		const struct oa_metric_platform *mp = &oa_metric_platforms[i];
		uint32_t id = device_of(mp->name);

		if (!mp->has_counters || !id)
			continue;
		for (j = 0; j < mp->n_sets; j++) {
			const struct oa_metric_set *set = oa_metric_platform_set(mp, j);
			struct oa_sim_config cfg = {
				.seed = i * 1000 + j, .period_ns = 500000,
				.device_id = id,
				.metric_set = oa_metric_str(set->symbol),
			};
			static struct oa_metrics m;
			const struct rec *r0 = NULL;
			struct recording rec;
			struct parsed p;
			double active, stall, occ, busy;
			size_t k;

			ASSERT_EQ(0, record(&rec, &cfg, 3, 20 * MS, NULL, 0));
			parse(rec.buf, rec.len, &p);
			ASSERT_EQ(0, p.err);
			ASSERT_EQ(0, metrics_of(&m, set, &rec, &p));
			sets++;
			for (k = 0; k < p.n; k++) {
				struct gpuprof_oa_deltas d = { 0 };

				if (p.r[k].type != GPUPROF_OA_RECORD_SAMPLE)
					continue;
				if (!r0) {
					r0 = &p.r[k];
					continue;
				}
				gpuprof_oa_accumulate(&p.s.layout, r0->report,
						      p.r[k].report, &d);
				r0 = &p.r[k];
				oa_metrics_compute(&m, &d);
				pairs++;
				active = metric(&m, "EuActive");
				stall = metric(&m, "EuStall");
				occ = metric(&m, "EuThreadOccupancy");
				busy = metric(&m, "GpuBusy");
				if (active < 0 && stall < 0 && busy < 0) {
					active = metric(&m, "XVE_ACTIVE");
					stall = metric(&m, "XVE_STALL");
					occ = metric(&m, "XVE_THREADS_OCCUPANCY_ALL");
					busy = metric(&m, "GPU_BUSY");
				}
				ASSERT_LE(active, 100) TH_LOG("%s %s", mp->name, oa_metric_str(set->symbol));
				ASSERT_LE(stall, 100) TH_LOG("%s %s", mp->name, oa_metric_str(set->symbol));
				ASSERT_LE(occ, 100) TH_LOG("%s %s", mp->name, oa_metric_str(set->symbol));
				ASSERT_LE(busy, 100) TH_LOG("%s %s", mp->name, oa_metric_str(set->symbol));
				if (active >= 0 && stall >= 0) {
					ASSERT_LE(active + stall, 100)
						TH_LOG("%s %s", mp->name, oa_metric_str(set->symbol));
					eu_checked++;
				}
			}
			free(p.r);
			recording_free(&rec);
		}
	}
	TH_LOG("%u sets, %llu report pairs, %llu with EuActive and EuStall",
	       sets, pairs, eu_checked);
	/* 789 of i915's platforms, 28 of Xe2's, 14 of Panther Lake's */
	EXPECT_EQ(831, sets);
	EXPECT_LT(0, eu_checked);
}

/*
 * 300 s is more than 2^32 ticks (223.7 s): the 32-bit timestamps wrap,
 * unwrapping them from the first correlation point gives a sequence
 * that never goes back and ends 300 s (5.76e9 ticks) after the start;
 * 40-bit counters carry into their high byte on the way; and a point
 * sits at each tick whose low 32 bits are all ones.
 */
TEST(timestamps_wrap_and_unwrap_monotonic)
{
	struct oa_sim_config cfg = { .seed = 11, .period_ns = 100 * MS };
	struct recording rec;
	struct parsed p;
	__u64 last = 0, ts, end = 300ull * OA_SIM_TIMESTAMP_HZ;
	__u32 prev32 = 0;
	size_t i, k, wraps = 0, carries = 0, prewrap = 0;
	const __u8 *prev = NULL;

	ASSERT_EQ(0, record(&rec, &cfg, 2, 300000 * MS, NULL, 0));
	parse(rec.buf, rec.len, &p);
	ASSERT_EQ(0, p.err);
	for (i = 0; i < p.n; i++) {
		if (p.r[i].type == GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION) {
			if (!last)
				last = p.r[i].gpu;
			if ((p.r[i].gpu & 0xffffffff) == 0xffffffff)
				prewrap++;
			continue;
		}
		if (p.r[i].type != GPUPROF_OA_RECORD_SAMPLE)
			continue;
		ts = gpuprof_oa_unwrap(last, p.r[i].h.timestamp, 32);
		ASSERT_GE(ts, last);
		if (prev && p.r[i].h.timestamp < prev32)
			wraps++;
		for (k = 0; prev && k < 32; k++)
			if (p.r[i].report[160 + k] != prev[160 + k])
				carries++;
		last = ts;
		prev32 = p.r[i].h.timestamp;
		prev = p.r[i].report;
	}
	EXPECT_GE(wraps, 1);
	EXPECT_GE(prewrap, 1);
	EXPECT_GT(carries, 0);
	/* The last timer report is within a period (2^21 ticks) of the end. */
	EXPECT_LE(last - rec.sim.start_gpu, end);
	EXPECT_GT(last - rec.sim.start_gpu, end - (1ull << 21));
	free(p.r);
	recording_free(&rec);
}

/*
 * A schedule by hand, from a timestamp of 2^32, period 1 ms (16384
 * ticks), 8 ms long: ctx 0x100 over 1-3 ms, 0x120 over 3-4 ms, 0x100
 * over 6-6.5 ms.  Switches at 19200, 57600, 76800, 115200 and 124800
 * ticks; timer reports at 16384 * 1..9.
 */
static const struct oa_sim_interval hand_iv[] = {
	{ 1 * MS, 3 * MS, 0x100 },
	{ 3 * MS, 4 * MS, 0x120 },
	{ 6 * MS, 6 * MS + MS / 2, 0x100 },
};

static const struct { __u32 ts, reason, ctx; } hand_reports[] = {
	{ 16384, GPUPROF_OA_REASON_TIMER, GPUPROF_OA_NO_CONTEXT },
	{ 19200, GPUPROF_OA_REASON_CTX_SWITCH, 0x100 },
	{ 32768, GPUPROF_OA_REASON_TIMER, 0x100 },
	{ 49152, GPUPROF_OA_REASON_TIMER, 0x100 },
	{ 57600, GPUPROF_OA_REASON_CTX_SWITCH, 0x120 },
	{ 65536, GPUPROF_OA_REASON_TIMER, 0x120 },
	{ 76800, GPUPROF_OA_REASON_CTX_SWITCH, GPUPROF_OA_NO_CONTEXT },
	{ 81920, GPUPROF_OA_REASON_TIMER, GPUPROF_OA_NO_CONTEXT },
	{ 98304, GPUPROF_OA_REASON_TIMER, GPUPROF_OA_NO_CONTEXT },
	{ 114688, GPUPROF_OA_REASON_TIMER, GPUPROF_OA_NO_CONTEXT },
	{ 115200, GPUPROF_OA_REASON_CTX_SWITCH, 0x100 },
	{ 124800, GPUPROF_OA_REASON_CTX_SWITCH, GPUPROF_OA_NO_CONTEXT },
	{ 131072, GPUPROF_OA_REASON_TIMER, GPUPROF_OA_NO_CONTEXT },
	{ 147456, GPUPROF_OA_REASON_TIMER, GPUPROF_OA_NO_CONTEXT },
};

static const struct oa_sim_config hand_cfg = {
	.seed = 5, .period_ns = MS, .start_gpu_ts = 1ull << 32,
};

TEST(context_switch_reports_appear_exactly_at_switches)
{
	struct recording rec;
	struct parsed p;
	size_t i, k = 0;

	ASSERT_EQ(0, record(&rec, &hand_cfg, 0, 8 * MS, hand_iv, 3));
	parse(rec.buf, rec.len, &p);
	ASSERT_EQ(0, p.err);
	EXPECT_EQ(14, p.s.samples);
	EXPECT_EQ(5, rec.sim.switch_reports);
	for (i = 0; i < p.n; i++) {
		if (p.r[i].type != GPUPROF_OA_RECORD_SAMPLE)
			continue;
		ASSERT_LT(k, 14);
		EXPECT_EQ(hand_reports[k].ts, p.r[i].h.timestamp) TH_LOG("report %zu", k);
		EXPECT_EQ(hand_reports[k].reason, p.r[i].h.reason) TH_LOG("report %zu", k);
		EXPECT_EQ(hand_reports[k].ctx, p.r[i].h.ctx_id) TH_LOG("report %zu", k);
		/* Dword 2 says 0xffffffff when idle, for IGT's sake. */
		EXPECT_EQ(hand_reports[k].ctx, le32(p.r[i].report + 8));
		k++;
	}
	free(p.r);
	recording_free(&rec);
}

/*
 * Stopping at 7.68 ms = 147456 ticks, on the ninth timer report: the last
 * point must still come after it (IGT's reader wants every report before
 * some point), so it is at 147457.
 */
TEST(the_last_point_comes_after_the_last_report)
{
	struct recording rec;
	struct parsed p;
	size_t i;
	__u32 last_ts = 0;

	ASSERT_EQ(0, record(&rec, &hand_cfg, 0, 7680000, hand_iv, 3));
	parse(rec.buf, rec.len, &p);
	ASSERT_EQ(0, p.err);
	for (i = 0; i < p.n; i++)
		if (p.r[i].type == GPUPROF_OA_RECORD_SAMPLE)
			last_ts = p.r[i].h.timestamp;
	EXPECT_EQ(147456, last_ts);
	EXPECT_EQ(GPUPROF_OA_RECORD_CORRELATION_BOUND, p.r[p.n - 1].type);
	EXPECT_EQ((1ull << 32) + 147457, p.r[p.n - 1].gpu);
	free(p.r);
	recording_free(&rec);
}

/* Driven step by step, the same GPU gives the same bytes. */
TEST(live_steps_match_the_schedule)
{
	struct recording rec;
	struct oa_sim s;
	struct oa_writer w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	ASSERT_EQ(0, record(&rec, &hand_cfg, 0, 8 * MS, hand_iv, 3));
	f = open_memstream(&buf, &len);
	ASSERT_NE(NULL, f);
	oa_writer_init(&w, f);
	ASSERT_EQ(0, oa_sim_init(&s, &hand_cfg, &w));
	EXPECT_EQ(0, oa_sim_step(&s, 1 * MS, false, 0));
	EXPECT_EQ(0, oa_sim_step(&s, MS / 2, true, 0x100));
	EXPECT_EQ(0, oa_sim_step(&s, 3 * MS / 2, true, 0x100));
	EXPECT_EQ(0, oa_sim_step(&s, 1 * MS, true, 0x120));
	EXPECT_EQ(0, oa_sim_step(&s, 2 * MS, false, 0x123));	/* ignored */
	EXPECT_EQ(0, oa_sim_step(&s, MS / 2, true, 0x100));
	EXPECT_EQ(0, oa_sim_step(&s, 3 * MS / 2, false, 0));
	EXPECT_EQ(0, oa_sim_finish(&s));
	fclose(f);
	ASSERT_EQ(rec.len, len);
	EXPECT_EQ(0, memcmp(rec.buf, buf, len));
	free(buf);
	recording_free(&rec);
}

TEST(bad_steps_and_schedules_are_refused)
{
	struct oa_sim_interval bad[2] = {
		{ 2 * MS, 3 * MS, 0x100 }, { 1 * MS, 4 * MS, 0x120 },
	};
	struct oa_sim_interval *iv;
	struct oa_writer w;
	struct oa_sim s;
	size_t n;
	FILE *f = fopen("/dev/null", "w");

	ASSERT_NE(NULL, f);
	oa_writer_init(&w, f);
	ASSERT_EQ(0, oa_sim_init(&s, &hand_cfg, &w));
	errno = 0;
	EXPECT_EQ(-1, oa_sim_step(&s, MS, true, OA_SIM_IDLE));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, oa_sim_run(&s, 5 * MS, bad, 2));	/* overlapping */
	EXPECT_EQ(EINVAL, errno);
	bad[0].end_ns = bad[0].start_ns;		/* empty */
	EXPECT_EQ(-1, oa_sim_run(&s, 5 * MS, bad, 1));
	EXPECT_EQ(0, oa_sim_step(&s, MS, true, 0x100));
	EXPECT_EQ(-1, oa_sim_step(&s, UINT64_MAX, false, 0));
	EXPECT_EQ(EOVERFLOW, errno);
	EXPECT_EQ(0, oa_sim_finish(&s));
	EXPECT_EQ(-1, oa_sim_finish(&s));
	EXPECT_EQ(-1, oa_sim_step(&s, MS, false, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, oa_sim_schedule(1, OA_SIM_MAX_CONTEXTS + 1, MS, MS, &iv, &n));
	EXPECT_EQ(0, oa_sim_schedule(1, 0, MS, MS, &iv, &n));
	EXPECT_EQ(0, n);
	EXPECT_EQ(NULL, iv);
	fclose(f);
}

TEST(correlation_points_pair_with_their_bounds)
{
	struct oa_sim_config cfg = {
		.seed = 9, .period_ns = 10 * MS, .start_gpu_ts = 1ull << 32,
	};
	struct recording rec;
	struct parsed p;
	size_t i, points = 0;

	ASSERT_EQ(0, record(&rec, &cfg, 1, 3500 * MS, NULL, 0));
	parse(rec.buf, rec.len, &p);
	ASSERT_EQ(0, p.err);
	for (i = 0; i + 1 < p.n; i++) {
		__u64 t;

		if (p.r[i].type != GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION)
			continue;
		points++;
		ASSERT_EQ(GPUPROF_OA_RECORD_CORRELATION_BOUND, p.r[i + 1].type);
		EXPECT_EQ(p.r[i].cpu, p.r[i + 1].cpu);
		EXPECT_EQ(p.r[i].gpu, p.r[i + 1].gpu);
		EXPECT_GE(p.r[i + 1].window, 200);
		EXPECT_LT(p.r[i + 1].window, 1000);
		/* cpu - start = ticks * 1e9 / 19.2e6, truncated. */
		t = p.r[i].gpu - rec.sim.start_gpu;
		EXPECT_EQ(rec.sim.start_cpu + t * 625 / 12, p.r[i].cpu);
	}
	/* 0, 1, 2, 3 s and the end at 3.5 s. */
	EXPECT_EQ(5, points);
	EXPECT_EQ(5, rec.sim.correlations);
	free(p.r);
	recording_free(&rec);
}

TEST(writer_errors_are_reported_not_fatal)
{
	static __u8 big[70000];
	struct drm_i915_query_topology_info topo = {
		.max_slices = 1, .max_subslices = 6, .eu_offset = 2, .eu_stride = 2,
	};
	struct oa_writer w;
	struct oa_sim s;
	FILE *f;

	/* No FILE at all. */
	oa_writer_init(&w, NULL);
	EXPECT_EQ(-1, oa_write_version(&w));
	EXPECT_EQ(EBADF, oa_writer_error(&w));

	/* Bad records: too big for the u16 size, wrong report size, a
	 * topology shorter than its masks. */
	f = fopen("/dev/null", "w");
	ASSERT_NE(NULL, f);
	oa_writer_init(&w, f);
	EXPECT_EQ(-1, oa_write_record(&w, 0x10200, big, sizeof(big)));
	EXPECT_EQ(EINVAL, oa_writer_error(&w));
	oa_writer_init(&w, f);
	EXPECT_EQ(-1, oa_write_sample(&w, big, 255));
	oa_writer_init(&w, f);
	EXPECT_EQ(-1, oa_write_topology(&w, &topo, sizeof(topo) + 2));
	oa_writer_init(&w, f);
	EXPECT_EQ(0, oa_write_record(&w, 0x10200, big, 65535 - 8));
	EXPECT_EQ(1, w.records);
	fclose(f);

	/* A stream opened for reading: the first write fails and sticks. */
	f = fopen("/dev/null", "r");
	ASSERT_NE(NULL, f);
	oa_writer_init(&w, f);
	EXPECT_EQ(-1, oa_sim_init(&s, &hand_cfg, &w));
	EXPECT_NE(0, oa_writer_error(&w));
	EXPECT_EQ(-1, oa_write_buffer_lost(&w));
	EXPECT_EQ(0, w.records);
	fclose(f);

	/* A full disk shows by the end at the latest. */
	f = fopen("/dev/full", "w");
	ASSERT_NE(NULL, f);
	oa_writer_init(&w, f);
	errno = 0;
	EXPECT_EQ(-1, oa_sim_init(&s, &hand_cfg, &w) ||
		      oa_sim_run(&s, 8 * MS, hand_iv, 3) ||
		      oa_sim_finish(&s) ? -1 : 0);
	EXPECT_EQ(ENOSPC, oa_writer_error(&w));
	EXPECT_EQ(ENOSPC, errno);
	fclose(f);
}

/*
 * Lunar Lake (0x6420), only xe serves it: the recording says so in a
 * DRIVER record before DEVICE_INFO, and its reports are PEC64u64 (576
 * bytes, 64-bit header).  At 19.2 MHz the hand schedule's reports come
 * at the same ticks as Tiger Lake's; the GT runs at 1950 MHz, 1625/16
 * clocks per tick, and every report tick is a multiple of 16, so each
 * pair's clock delta is exact.  Between two reports the context of the
 * first runs: a busy pair's GPU_BUSY (PEC 32) is its clock delta, an
 * idle pair moves no PEC at all, and the XVE counters of a busy pair
 * stay within the 64 vector engines' 100 % (of 7 threads each).
 */
TEST(lunar_lake_reports_decode_with_exact_deltas)
{
	struct oa_sim_config cfg = hand_cfg;
	const struct rec *r0 = NULL;
	struct recording rec;
	struct parsed p;
	size_t i, k = 0, busy_pairs = 0, idle_pairs = 0;

	cfg.device_id = 0x6420;
	ASSERT_EQ(0, record(&rec, &cfg, 0, 8 * MS, hand_iv, 3));
	parse(rec.buf, rec.len, &p);
	ASSERT_EQ(0, p.err) TH_LOG("%s", gpuprof_oa_error_name(p.s.error));
	ASSERT_GT(p.n, 5);
	EXPECT_EQ(GPUPROF_OA_RECORD_VERSION, p.r[0].type);
	EXPECT_EQ(GPUPROF_OA_RECORD_DRIVER, p.r[1].type);
	EXPECT_EQ(GPUPROF_OA_RECORD_DEVICE_INFO, p.r[2].type);
	EXPECT_EQ(GPUPROF_OA_RECORD_DEVICE_TOPOLOGY, p.r[3].type);
	EXPECT_EQ(GPUPROF_OA_DRIVER_XE, p.s.drv.driver);
	EXPECT_EQ(GPUPROF_OA_SUBMISSION_GUC, p.s.drv.submission);
	EXPECT_EQ(GPUPROF_OA_KERNEL(6, 12), p.s.drv.kernel);
	EXPECT_EQ(0x6420, p.s.info.device_id);
	EXPECT_EQ(19200000, p.s.info.timestamp_frequency);
	EXPECT_EQ(GPUPROF_OA_FORMAT_PEC64u64, p.s.info.oa_format);
	EXPECT_EQ(576, p.s.layout.size);
	EXPECT_EQ(1, p.s.layout.hdr64);
	EXPECT_EQ(56, p.s.layout.ts_bits);
	EXPECT_EQ(14, p.s.samples);
	for (i = 0; i < p.n; i++) {
		const struct rec *r1 = &p.r[i];
		struct gpuprof_oa_deltas d = { 0 };
		__u64 ticks, clocks;
		unsigned int a;

		if (r1->type != GPUPROF_OA_RECORD_SAMPLE)
			continue;
		ASSERT_LT(k, 14);
		EXPECT_EQ((1ull << 32) + hand_reports[k].ts, r1->h.timestamp)
			TH_LOG("report %zu", k);
		EXPECT_EQ(hand_reports[k].reason, r1->h.reason);
		EXPECT_EQ(hand_reports[k].ctx, r1->h.ctx_id);
		/* Dword 4 holds the id, valid by dword 0's bit 16. */
		EXPECT_EQ(hand_reports[k].ctx, le32(r1->report + 16));
		EXPECT_EQ(hand_reports[k].ctx != GPUPROF_OA_NO_CONTEXT,
			  !!(le32(r1->report) & 1u << 16));
		k++;
		if (!r0) {
			r0 = r1;
			continue;
		}
		gpuprof_oa_accumulate(&p.s.layout, r0->report, r1->report, &d);
		ticks = r1->h.timestamp - r0->h.timestamp;
		clocks = ticks * 1625 / 16;
		EXPECT_EQ(ticks, d.timestamp);
		EXPECT_EQ(clocks, d.gpu_ticks);
		if (r0->h.ctx_id == GPUPROF_OA_NO_CONTEXT) {
			idle_pairs++;
			for (a = 0; a < 64; a++)
				EXPECT_EQ(0, d.a[a]) TH_LOG("PEC %u", a);
		} else {
			busy_pairs++;
			EXPECT_EQ(clocks, d.a[32]);
			EXPECT_GT(d.a[24], 0);
			EXPECT_LE(d.a[24] + d.a[20], 64 * clocks);
			/* Occupancy: 7 threads each, counted in eighths. */
			EXPECT_LE(d.a[14] * 8, 64 * 7 * clocks);
			EXPECT_LE(d.a[25], d.a[24] + 1);
			EXPECT_LE(d.a[26], d.a[24] + 1);
			for (a = 39; a <= 41; a++)
				EXPECT_LE(d.a[a], clocks);
		}
		r0 = r1;
	}
	EXPECT_EQ(14, k);
	/* Of the 13 pairs, those starting at 19200 to 65536 (five) and
	 * at 115200 ran a context. */
	EXPECT_EQ(6, busy_pairs);
	EXPECT_EQ(7, idle_pairs);
	free(p.r);
	recording_free(&rec);
}

/*
 * Panther Lake (0xB080), only 7.3's xe serves it: its DRIVER record
 * names xe and 7.3, its reports are Xe2's PEC64u64.  The GT runs at 2400
 * MHz, 125 clocks per 19.2 MHz tick exactly.  Read at their bytes (PEC n
 * at 32 + 8n, the clock count at 24, as IGT's xe_oa.c lays out 576B
 * reports), without the decoder, a busy pair's GPU_BUSY (PEC 32) is its
 * clock delta, and oa-ptl.xml's occupancy, unlike Xe2's, has no factor
 * 8: PEC 14 stays within 96 vector engines of 7 threads each per clock.
 * The decoder's deltas are those bytes' differences.
 */
TEST(panther_lake_reports_decode_with_exact_deltas)
{
	struct oa_sim_config cfg = hand_cfg;
	const struct rec *r0 = NULL;
	struct recording rec;
	struct parsed p;
	size_t i, k = 0, busy_pairs = 0, idle_pairs = 0;

	cfg.device_id = 0xb080;
	ASSERT_EQ(0, record(&rec, &cfg, 0, 8 * MS, hand_iv, 3));
	parse(rec.buf, rec.len, &p);
	ASSERT_EQ(0, p.err) TH_LOG("%s", gpuprof_oa_error_name(p.s.error));
	EXPECT_EQ(GPUPROF_OA_RECORD_DRIVER, p.r[1].type);
	EXPECT_EQ(GPUPROF_OA_DRIVER_XE, p.s.drv.driver);
	EXPECT_EQ(GPUPROF_OA_KERNEL(7, 3), p.s.drv.kernel);
	EXPECT_EQ(0xb080, p.s.info.device_id);
	EXPECT_EQ(GPUPROF_OA_FORMAT_PEC64u64, p.s.info.oa_format);
	EXPECT_EQ(576, p.s.layout.size);
	EXPECT_EQ(14, p.s.samples);
	for (i = 0; i < p.n; i++) {
		const struct rec *r1 = &p.r[i];
		struct gpuprof_oa_deltas d = { 0 };
		__u64 ticks, clocks, pec[64];
		unsigned int a;

		if (r1->type != GPUPROF_OA_RECORD_SAMPLE)
			continue;
		ASSERT_LT(k, 14);
		EXPECT_EQ((1ull << 32) + hand_reports[k].ts, r1->h.timestamp);
		EXPECT_EQ(hand_reports[k].ctx, le32(r1->report + 16));
		k++;
		if (!r0) {
			r0 = r1;
			continue;
		}
		gpuprof_oa_accumulate(&p.s.layout, r0->report, r1->report, &d);
		ticks = r1->h.timestamp - r0->h.timestamp;
		clocks = ticks * 125;
		EXPECT_EQ(clocks, le64(r1->report + 24) - le64(r0->report + 24));
		EXPECT_EQ(clocks, d.gpu_ticks);
		for (a = 0; a < 64; a++) {
			pec[a] = le64(r1->report + 32 + 8 * a) -
				 le64(r0->report + 32 + 8 * a);
			EXPECT_EQ(pec[a], d.a[a]) TH_LOG("PEC %u", a);
		}
		if (r0->h.ctx_id == GPUPROF_OA_NO_CONTEXT) {
			idle_pairs++;
			for (a = 0; a < 64; a++)
				EXPECT_EQ(0, pec[a]) TH_LOG("PEC %u", a);
		} else {
			busy_pairs++;
			EXPECT_EQ(clocks, pec[32]);
			EXPECT_GT(pec[24], 0);
			EXPECT_LE(pec[24] + pec[20], 96 * clocks);
			EXPECT_LE(pec[14], 96 * 7 * clocks);
			/*
			 * The simulator draws occupancy at least active +
			 * stall: 7 threads' worth of each, give or take a
			 * count of carry per counter.  Xe2's eighths here
			 * would leave it 8 times lower.
			 */
			EXPECT_GE(pec[14] + 15, 7 * (pec[24] + pec[20]));
		}
		r0 = r1;
	}
	EXPECT_EQ(14, k);
	EXPECT_EQ(6, busy_pairs);
	EXPECT_EQ(7, idle_pairs);
	free(p.r);
	recording_free(&rec);
}

/*
 * With the timestamp started 5 ms (96000 ticks) below 2^56, the 56-bit
 * report timestamps wrap once in 10 ms of 1 ms periods (16384 ticks,
 * which divide 2^56): timer reports at 2^56 - 16384 * 5 .. 2^56 +
 * 16384 * 5, the one at 2^56 reading 0.  Unwrapped at 56 bits from the
 * first correlation point they rise by exactly one period each.
 */
TEST(timestamps_wrap_at_56_bits_on_xe2)
{
	struct oa_sim_config cfg = {
		.seed = 13, .period_ns = MS, .device_id = 0x6420,
		.wrap56_in_ns = 5 * MS,
	};
	const __u64 wrap = 1ull << 56;
	struct recording rec;
	struct parsed p;
	__u64 last = 0, ts, prev = 0;
	size_t i, k = 0, wraps = 0, prewrap = 0;

	ASSERT_EQ(0, record(&rec, &cfg, 0, 10 * MS, NULL, 0));
	EXPECT_EQ(wrap - 96000, rec.sim.start_gpu);
	parse(rec.buf, rec.len, &p);
	ASSERT_EQ(0, p.err);
	EXPECT_EQ(11, p.s.samples);
	for (i = 0; i < p.n; i++) {
		if (p.r[i].type == GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION) {
			if (!last)
				last = p.r[i].gpu;
			prewrap += p.r[i].gpu == wrap - 1;
			continue;
		}
		if (p.r[i].type != GPUPROF_OA_RECORD_SAMPLE)
			continue;
		ASSERT_LT(k, 11);
		EXPECT_EQ((wrap - 16384 * 5 + 16384 * k) & (wrap - 1),
			  p.r[i].h.timestamp) TH_LOG("report %zu", k);
		if (k && p.r[i].h.timestamp < prev)
			wraps++;
		prev = p.r[i].h.timestamp;
		ts = gpuprof_oa_unwrap(last, p.r[i].h.timestamp, 56);
		EXPECT_EQ(wrap - 16384 * 5 + 16384 * k, ts);
		last = ts;
		k++;
	}
	EXPECT_EQ(1, wraps);
	EXPECT_EQ(1, prewrap);
	free(p.r);
	recording_free(&rec);
}

TEST_HARNESS_MAIN
