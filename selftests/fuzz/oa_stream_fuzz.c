// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the OA record stream parser the module and the tools
 * share (module/oa_decode.c; design.rst 5).
 *
 * Input: byte 0 chooses how the rest is cut into pieces (fuzz_pieces:
 * from one byte at a time to pieces bigger than any record), the rest is
 * the stream, as written to /dev/gpuprof/oa.  The stream is fed twice:
 * whole in one call, where records are checked where they lie, and in
 * pieces, where records split between pieces are assembled in the
 * record buffer.  Each record delivered is taken as module/oa.c takes it:
 * a SAMPLE's header decoded, its counter deltas from the previous report
 * of the same context accumulated, its time placed on the correlation
 * points; loss and DEVICE_INFO end the delta chain.
 *
 * Checks: both feeds deliver the same records and end in the same state
 * (the split-record path is no different from the whole one); every
 * record delivered has the size its type wants; every count of the
 * parser matches the records delivered; a refused stream takes nothing
 * more; the layout DEVICE_INFO gives fits its report size.  Reports are
 * decoded from a copy of exactly the report's size, so ASan catches a
 * layout reading past it.
 */
#include <string.h>

#include "fuzz.h"
#include "../../module/oa_decode.h"

#define HDR sizeof(struct gpuprof_oa_record_header)

/* What module/oa.c keeps of a stream, less the attribution to targets. */
struct taker {
	struct gpuprof_oa_clock clock;
	bool have_ts, have_prev;
	__u64 last_ts;
	struct gpuprof_oa_report prev;
	__u8 prev_report[GPUPROF_OA_REPORT_MAX];
	struct gpuprof_oa_deltas sum;
	__u64 time_ns;			/* of the deltas taken */
	__u64 last_cpu_ns;		/* the last report's placed time */
	__u64 records, samples, unplaced, switches, lost, infos;
	__u64 correlations, ignored_points;
};

/* The layout of a DEVICE_INFO the parser took: inside its report. */
static void check_layout(const struct gpuprof_oa_layout *l)
{
	unsigned int k, next = 0;

	FUZZ_CHECK(l->size && l->size <= GPUPROF_OA_REPORT_MAX);
	/* Runs of A counters in order, inside the report, no overlap. */
	FUZZ_CHECK(l->n_runs <= GPUPROF_OA_A_RUNS);
	for (k = 0; k < l->n_runs; k++) {
		const struct gpuprof_oa_a_run *r = &l->a_runs[k];

		FUZZ_CHECK(r->n && r->first >= next &&
			   r->first + r->n <= GPUPROF_OA_A_COUNTERS);
		FUZZ_CHECK(r->off + (r->width == GPUPROF_OA_U64 ? 8u : 4u) *
			   r->n <= l->size);
		FUZZ_CHECK(r->width != GPUPROF_OA_U40 ||
			   l->a40_high_off + r->first + r->n <= l->size);
		next = r->first + r->n;
	}
	FUZZ_CHECK(l->n_b <= GPUPROF_OA_B_COUNTERS &&
		   l->n_c <= GPUPROF_OA_C_COUNTERS);
	FUZZ_CHECK(l->b_off + 4u * l->n_b <= l->size);
	FUZZ_CHECK(l->c_off + 4u * l->n_c <= l->size);
	/* The header: a 64-bit one ends at byte 32. */
	FUZZ_CHECK(l->ts_bits == (l->hdr64 ? 56 : 32));
	FUZZ_CHECK(!l->hdr64 || l->size >= 32);
}

/* A report, as gpuprof_oa_sample() in module/oa.c takes it. */
static void take_sample(struct taker *t, const struct gpuprof_oa_stream *s,
			const void *payload)
{
	const struct gpuprof_oa_layout *l = &s->layout;
	struct gpuprof_oa_deltas d;
	struct gpuprof_oa_report r;
	__u64 ts, cpu_ns;
	__u8 *report;
	unsigned int i;

	/* Exactly the report's bytes: a layout past them is caught. */
	report = malloc(l->size);
	FUZZ_CHECK(report);
	memcpy(report, payload, l->size);
	gpuprof_oa_report_header(l, report, &r);
	if (l->gen == GPUPROF_OA_GEN_HSW)
		FUZZ_CHECK(r.reason == 0 && r.ctx_id == GPUPROF_OA_NO_CONTEXT);
	else
		FUZZ_CHECK(r.reason <= (l->gen >= 12 ? 0x7fu : 0x3fu));
	/* Xe2's PEC counters are 64 bits; the others 40 at most. */
	for (i = 0; i < GPUPROF_OA_A_COUNTERS && l->gen < 20; i++)
		FUZZ_CHECK(gpuprof_oa_a(l, report, i) < 1ull << 40);
	FUZZ_CHECK(r.timestamp < 1ull << l->ts_bits);
	FUZZ_CHECK(l->hdr64 || r.gpu_ticks <= 0xffffffffu);

	if (!t->have_ts) {
		t->unplaced++;
		goto out;
	}
	if (t->clock.gpu[t->clock.n - 1] > t->last_ts)
		t->last_ts = t->clock.gpu[t->clock.n - 1];
	ts = gpuprof_oa_unwrap(t->last_ts, r.timestamp, l->ts_bits);
	/* Extended, not changed: the low bits are the report's. */
	FUZZ_CHECK((ts & ((1ull << l->ts_bits) - 1)) == r.timestamp);
	t->last_ts = ts;
	FUZZ_CHECK(gpuprof_oa_clock_to_cpu(&t->clock, ts, &cpu_ns) == 0);
	t->last_cpu_ns = cpu_ns;

	if (t->have_prev && t->prev.ctx_id == r.ctx_id) {
		memset(&d, 0, sizeof(d));
		gpuprof_oa_accumulate(l, t->prev_report, report, &d);
		FUZZ_CHECK(d.deltas == 1 && d.timestamp < 1ull << l->ts_bits);
		/* A delta is as wide as its counter: 64 bits on Xe2. */
		for (i = 0; i < GPUPROF_OA_A_COUNTERS && l->gen < 20; i++)
			FUZZ_CHECK(d.a[i] < 1ull << 40);
		t->time_ns += gpuprof_oa_ticks_to_ns(d.timestamp,
						     s->info.timestamp_frequency);
		t->sum.deltas += d.deltas;
		t->sum.timestamp += d.timestamp;
		t->sum.gpu_ticks += d.gpu_ticks;
		for (i = 0; i < GPUPROF_OA_A_COUNTERS; i++)
			t->sum.a[i] += d.a[i];
		for (i = 0; i < GPUPROF_OA_B_COUNTERS; i++)
			t->sum.b[i] += d.b[i];
		for (i = 0; i < GPUPROF_OA_C_COUNTERS; i++)
			t->sum.c[i] += d.c[i];
	} else if (t->have_prev) {
		t->switches++;
	}
	memcpy(t->prev_report, report, l->size);
	t->prev = r;
	t->have_prev = true;
out:
	free(report);
}

static void take_correlation(struct taker *t, const void *payload)
{
	struct gpuprof_oa_correlation c;

	memcpy(&c, payload, sizeof(c));
	if (gpuprof_oa_clock_add(&t->clock, c.cpu_timestamp,
				 c.gpu_timestamp)) {
		t->ignored_points++;
		return;
	}
	FUZZ_CHECK(t->clock.n >= 1 && t->clock.n <= GPUPROF_OA_CLOCK_POINTS);
	if (!t->have_ts) {
		t->last_ts = c.gpu_timestamp;
		t->have_ts = true;
	}
}

static void on_record(void *arg, const struct gpuprof_oa_stream *s,
		      const struct gpuprof_oa_record_header *h,
		      const void *payload)
{
	struct taker *t = arg;

	t->records++;
	FUZZ_CHECK(h->size >= HDR);
	FUZZ_CHECK(s->records == t->records);
	switch (h->type) {
	case GPUPROF_OA_RECORD_SAMPLE:
		FUZZ_CHECK(s->have_info && h->size == HDR + s->layout.size);
		t->samples++;
		take_sample(t, s, payload);
		break;
	case GPUPROF_OA_RECORD_REPORT_LOST:
	case GPUPROF_OA_RECORD_BUFFER_LOST:
		FUZZ_CHECK(h->size == HDR);
		t->lost++;
		t->have_prev = false;
		break;
	case GPUPROF_OA_RECORD_VERSION:
		FUZZ_CHECK(h->size == HDR + sizeof(struct gpuprof_oa_version));
		break;
	case GPUPROF_OA_RECORD_DEVICE_INFO:
		FUZZ_CHECK(h->size == HDR + sizeof(struct gpuprof_oa_device_info));
		FUZZ_CHECK(s->have_info);
		FUZZ_CHECK(s->info.timestamp_frequency);
		FUZZ_CHECK(strnlen(s->info.metric_set_name,
				   sizeof(s->info.metric_set_name)) <
			   sizeof(s->info.metric_set_name));
		check_layout(&s->layout);
		t->infos++;
		gpuprof_oa_clock_init(&t->clock, s->info.timestamp_frequency);
		t->have_ts = false;
		t->have_prev = false;
		break;
	case GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION:
		FUZZ_CHECK(h->size == HDR + sizeof(struct gpuprof_oa_correlation));
		t->correlations++;
		take_correlation(t, payload);
		break;
	case GPUPROF_OA_RECORD_CORRELATION_BOUND:
		FUZZ_CHECK(h->size ==
			   HDR + sizeof(struct gpuprof_oa_correlation_bound));
		t->correlations++;
		break;
	}
}

/* One feeding of the stream; @pieces NULL: all of it at once. */
static void feed(struct gpuprof_oa_stream *s, struct taker *t, __u8 *buf,
		 const uint8_t *data, size_t size, struct fuzz_pieces *pieces)
{
	size_t off = 0, n;
	int ret = 0;

	gpuprof_oa_stream_init(s, buf);
	memset(t, 0, sizeof(*t));
	while (off < size && !ret) {
		n = pieces ? fuzz_piece(pieces, size - off) : size;
		ret = gpuprof_oa_stream_feed(s, data + off, n, on_record, t);
		FUZZ_CHECK(ret == 0 || ret == -1);
		FUZZ_CHECK(!ret == !s->error);
		off += n;
	}
	if (!ret) {
		ret = gpuprof_oa_stream_end(s);
		FUZZ_CHECK(!ret == !s->error);
		FUZZ_CHECK(!s->error || s->error == GPUPROF_OA_ERR_TRUNCATED);
	}
	FUZZ_CHECK(gpuprof_oa_error_name(s->error));
	/* A refused stream takes nothing more, and says so. */
	if (s->error) {
		__u64 records = s->records;

		FUZZ_CHECK(gpuprof_oa_stream_feed(s, data, size, on_record, t) == -1);
		FUZZ_CHECK(s->records == records);
	}
	/* Every count is one of the records delivered. */
	FUZZ_CHECK(s->records == t->records);
	FUZZ_CHECK(s->samples == t->samples);
	FUZZ_CHECK(s->report_lost + s->buffer_lost == t->lost);
	FUZZ_CHECK(s->correlations == t->correlations);
	FUZZ_CHECK(s->samples + s->report_lost + s->buffer_lost +
		   s->correlations + s->unknown <= s->records);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gpuprof_oa_stream whole, split;
	struct taker tw, ts;
	struct fuzz_pieces pieces;
	__u8 *buf;

	if (!size)
		return 0;
	fuzz_pieces_init(&pieces, data[0]);
	data++;
	size--;
	/* The record buffer is exactly what the parser may use. */
	buf = malloc(GPUPROF_OA_RECORD_MAX);
	FUZZ_CHECK(buf);
	feed(&whole, &tw, buf, data, size, NULL);
	feed(&split, &ts, buf, data, size, &pieces);
	free(buf);

	FUZZ_CHECK(whole.error == split.error);
	FUZZ_CHECK(whole.records == split.records &&
		   whole.samples == split.samples &&
		   whole.report_lost == split.report_lost &&
		   whole.buffer_lost == split.buffer_lost &&
		   whole.correlations == split.correlations &&
		   whole.unknown == split.unknown &&
		   whole.have_info == split.have_info);
	FUZZ_CHECK(!memcmp(&tw, &ts, sizeof(tw)));
	return 0;
}
