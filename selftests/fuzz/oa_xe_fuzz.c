// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: what xe hands the tools (tools/perf-gpu/oa/xe-abi.c), and
 * the recording they make of it, as gpuprof-oa --device and perf gpu
 * record's xe source do.
 *
 * Input: byte 0 chooses the mode (bit 0), the report format (bit 1:
 * Lunar Lake's PEC64u64 or its media unit's MPEC8u32_B8_C8) and, in
 * mode 0, the reply (bit 2).
 *
 *  - Mode 0, a QUERY_OA_UNITS reply: the rest is the reply.  Small ids
 *    and the first unit's are looked up; a unit found must be the one
 *    asked for, and a reply too short for its units must say so, never
 *    be read past (the reply is a buffer of exactly its size, for ASan).
 *    With bit 2, a GT_TOPOLOGY reply instead, for GTs 0, 1 and the first
 *    mask's: what oa_xe_topology() makes of it must be i915's layout of
 *    one slice, whole, in which the metrics find as many EUs in every
 *    subslice present, and which a recording carries to the parser.
 *  - Mode 1, the reads of an observation stream, each led by a byte: bit
 *    7 set, an EIO whose STATUS is the low 4 bits; else a read() of the
 *    low 6 bits' number of reports from the bytes that follow (one byte
 *    short of them with bit 6, and fewer when the input ends), kept only
 *    when it is whole reports, as xe's drain (oa/xe.c) does.  The reports
 *    and the records the statuses stand for (oa_xe_status_records()) are
 *    written as the xe path writes them, after VERSION, DRIVER naming xe
 *    and DEVICE_INFO.
 *
 * Checks (mode 1): the recording is one the stream parser of
 * module/oa_decode.c takes whole, with as many samples and losses as
 * were written, under xe's rules; every report's header decodes to a
 * timestamp of at most 56 bits, which unwraps forward from the last one
 * when it moved less than half its range, and the deltas of every two
 * reports in a row are taken as the module takes them.
 */
#include <string.h>

#include "fuzz.h"
#include "../../module/oa_decode.h"
#include "../../tools/perf-gpu/oa/metrics.h"
#include "../../tools/perf-gpu/oa/writer.h"
#include "../../tools/perf-gpu/oa/xe-abi.h"

#define LNL_DEVICE_ID	0x6420

static const struct {
	uint32_t format;
	size_t size;
} formats[2] = {
	{ GPUPROF_OA_FORMAT_PEC64u64, 576 },
	{ GPUPROF_OAM_FORMAT_MPEC8u32_B8_C8, 128 },
};

static void units(const uint8_t *data, size_t size)
{
	uint8_t *reply = malloc(size ? size : 1);
	uint32_t n, id;
	struct oa_xe_unit u;
	enum oa_xe_unit_result r;

	FUZZ_CHECK(reply);
	memcpy(reply, data, size);
	n = oa_xe_unit_count(reply, size);
	/* The ids a reply can hold are anything: try the small ones, and
	 * every id the reply's units claim. */
	for (id = 0; id < 4; id++) {
		r = oa_xe_unit_find(reply, size, id, &u);
		FUZZ_CHECK(r == OA_XE_UNIT_FOUND || r == OA_XE_UNIT_ABSENT ||
			   r == OA_XE_UNIT_MALFORMED);
		if (r == OA_XE_UNIT_FOUND)
			FUZZ_CHECK(u.id == id);
		/* No unit can be found in a reply that lists none. */
		FUZZ_CHECK(n || r == OA_XE_UNIT_ABSENT);
	}
	if (size >= 16 + 12) {
		uint32_t first;

		memcpy(&first, reply + 16 + 8, sizeof(first));
		r = oa_xe_unit_find(reply, size, first, &u);
		/* The first unit is found by its id when its head is there
		 * and its engines fit, whatever follows it. */
		if (n && size >= 16 + 72)
			FUZZ_CHECK(r != OA_XE_UNIT_ABSENT);
		if (r == OA_XE_UNIT_FOUND)
			FUZZ_CHECK(u.id == first);
	}
	free(reply);
}

struct written {
	uint64_t samples, lost;
};

static void write_header(struct oa_writer *w, uint32_t format);
static void check_recording(const struct written *k, const char *rec,
			    size_t len);

/* One GT's topology from @reply, checked, then recorded and parsed. */
static void topology_of(const uint8_t *reply, size_t size, uint16_t gt)
{
	uint64_t buf[128];
	struct drm_i915_query_topology_info t;
	struct oa_metrics_device dev = { .device_id = LNL_DEVICE_ID };
	struct oa_metrics_vars v;
	struct written k = { 0 };
	struct oa_writer w;
	char *rec = NULL;
	size_t len, rec_len = 0;
	uint8_t *exact;
	FILE *f;

	len = oa_xe_topology(reply, size, gt, buf, sizeof(buf));
	if (!len)
		return;
	memcpy(&t, buf, sizeof(t));
	FUZZ_CHECK(t.max_slices == 1 && t.subslice_offset == 1);
	FUZZ_CHECK(t.max_subslices % 8 == 0 && t.max_subslices >= 32 &&
		   t.max_subslices <= 64);
	FUZZ_CHECK(t.max_eus_per_subslice % 8 == 0 &&
		   t.max_eus_per_subslice >= 16 &&
		   t.max_eus_per_subslice <= 64);
	FUZZ_CHECK(t.subslice_stride == t.max_subslices / 8);
	FUZZ_CHECK(t.eu_offset == 1 + t.subslice_stride);
	FUZZ_CHECK(t.eu_stride == t.max_eus_per_subslice / 8);
	FUZZ_CHECK(len == oa_topology_size(&t));
	FUZZ_CHECK(((const uint8_t *)buf)[sizeof(t)] == 1);

	/* Exactly its bytes: a metric reading past them is caught. */
	exact = malloc(len);
	FUZZ_CHECK(exact);
	memcpy(exact, buf, len);
	dev.topology = exact;
	dev.topology_len = len;
	oa_metrics_device_vars(&dev, &v);
	FUZZ_CHECK(v.n_slices == 1 && v.n_subslices > 0);
	FUZZ_CHECK(v.n_eus % v.n_subslices == 0);
	FUZZ_CHECK(v.n_eus / v.n_subslices <= t.max_eus_per_subslice);
	free(exact);

	f = open_memstream(&rec, &rec_len);
	FUZZ_CHECK(f);
	oa_writer_init(&w, f);
	write_header(&w, GPUPROF_OA_FORMAT_PEC64u64);
	FUZZ_CHECK(oa_write_topology(&w, (const void *)buf, len) == 0);
	FUZZ_CHECK(oa_writer_flush(&w) == 0);
	FUZZ_CHECK(fclose(f) == 0);
	check_recording(&k, rec, rec_len);
	free(rec);
}

static void topology(const uint8_t *data, size_t size)
{
	uint8_t *reply = malloc(size ? size : 1);
	uint16_t first;

	FUZZ_CHECK(reply);
	memcpy(reply, data, size);
	topology_of(reply, size, 0);
	topology_of(reply, size, 1);
	if (size >= 2) {
		memcpy(&first, reply, sizeof(first));
		topology_of(reply, size, first);
	}
	free(reply);
}

static void write_header(struct oa_writer *w, uint32_t format)
{
	struct gpuprof_oa_driver drv = {
		.kernel = GPUPROF_OA_KERNEL(6, 12),
		.submission = GPUPROF_OA_SUBMISSION_GUC,
		.driver = GPUPROF_OA_DRIVER_XE,
	};
	struct gpuprof_oa_device_info info = {
		.timestamp_frequency = 19200000,
		.device_id = LNL_DEVICE_ID,
		.oa_format = format,
		.metric_set_name = "RenderBasic",
	};

	oa_write_version(w);
	oa_write_record(w, GPUPROF_OA_RECORD_DRIVER, &drv, sizeof(drv));
	oa_write_device_info(w, &info);
}

/* A read() that failed with EIO, and the STATUS after it. */
static void one_status(struct oa_writer *w, struct written *k,
		       uint64_t status)
{
	uint32_t rec[2];
	unsigned int i, nr;

	nr = oa_xe_status_records(status, rec);
	FUZZ_CHECK(nr == (unsigned int)(!!(status & 1) + !!(status & 2)));
	for (i = 0; i < nr; i++) {
		FUZZ_CHECK(rec[i] == GPUPROF_OA_RECORD_REPORT_LOST ||
			   rec[i] == GPUPROF_OA_RECORD_BUFFER_LOST);
		oa_write_record(w, rec[i], NULL, 0);
		k->lost++;
	}
}

/* A read() that gave @n bytes: whole reports, or the stream stops. */
static int one_read(struct oa_writer *w, struct written *k,
		    const uint8_t *p, size_t n, size_t report_size)
{
	size_t off;

	if (n % report_size)
		return -1;
	for (off = 0; off < n; off += report_size) {
		oa_write_sample(w, p + off, report_size);
		k->samples++;
	}
	return 0;
}

struct taker {
	struct gpuprof_oa_deltas d;
	uint8_t prev[GPUPROF_OA_REPORT_MAX];
	bool have_prev;
	uint64_t last_ts;
};

static void take(void *arg, const struct gpuprof_oa_stream *s,
		 const struct gpuprof_oa_record_header *h, const void *payload)
{
	const struct gpuprof_oa_layout *l = &s->layout;
	struct taker *t = arg;
	struct gpuprof_oa_report r;
	uint8_t *report;
	uint64_t ts;

	if (h->type != GPUPROF_OA_RECORD_SAMPLE) {
		t->have_prev = false;
		return;
	}
	FUZZ_CHECK(s->drv.driver == GPUPROF_OA_DRIVER_XE);
	FUZZ_CHECK(l->hdr64 && l->ts_bits == 56);
	/* Exactly the report's bytes: a layout past them is caught. */
	report = malloc(l->size);
	FUZZ_CHECK(report);
	memcpy(report, payload, l->size);
	gpuprof_oa_report_header(l, report, &r);
	FUZZ_CHECK(r.timestamp < 1ull << 56);
	FUZZ_CHECK(r.reason <= 0x3f);
	ts = gpuprof_oa_unwrap(t->last_ts, r.timestamp, l->ts_bits);
	FUZZ_CHECK((ts & ((1ull << 56) - 1)) == r.timestamp);
	if (((r.timestamp - t->last_ts) & ((1ull << 56) - 1)) < 1ull << 55)
		FUZZ_CHECK(ts >= t->last_ts);
	t->last_ts = ts;
	if (t->have_prev)
		gpuprof_oa_accumulate(l, t->prev, report, &t->d);
	memcpy(t->prev, report, l->size);
	t->have_prev = true;
	free(report);
}

static void check_recording(const struct written *k, const char *rec,
			    size_t len)
{
	struct gpuprof_oa_stream s;
	struct taker *t = calloc(1, sizeof(*t));
	__u8 *buf = malloc(GPUPROF_OA_RECORD_MAX);

	FUZZ_CHECK(buf && t);
	/* The unwrap starts where a correlation point would put it. */
	t->last_ts = 1ull << 56;
	gpuprof_oa_stream_init(&s, buf);
	FUZZ_CHECK(gpuprof_oa_stream_feed(&s, rec, len, take, t) == 0);
	FUZZ_CHECK(gpuprof_oa_stream_end(&s) == 0);
	FUZZ_CHECK(s.samples == k->samples);
	FUZZ_CHECK(s.report_lost + s.buffer_lost == k->lost);
	FUZZ_CHECK(t->d.deltas <= k->samples);
	free(buf);
	free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct written k = { 0 };
	struct oa_writer w;
	size_t report_size, len = 0, off = 0, n;
	uint32_t format;
	uint8_t lead;
	char *rec = NULL;
	FILE *f;

	if (!size)
		return 0;
	if (!(data[0] & 1)) {
		if (data[0] & 4)
			topology(data + 1, size - 1);
		else
			units(data + 1, size - 1);
		return 0;
	}
	format = formats[(data[0] >> 1) & 1].format;
	report_size = formats[(data[0] >> 1) & 1].size;
	f = open_memstream(&rec, &len);
	FUZZ_CHECK(f);
	oa_writer_init(&w, f);
	write_header(&w, format);
	for (data++, size--; off < size; off += n) {
		lead = data[off++];
		if (lead & 0x80) {
			one_status(&w, &k, lead & 0x0f);
			n = 0;
			continue;
		}
		n = (lead & 0x3f) * report_size - !!(lead & 0x40);
		if (n > size - off)
			n = size - off;
		if (one_read(&w, &k, data + off, n, report_size))
			break;
	}
	FUZZ_CHECK(oa_writer_flush(&w) == 0);
	FUZZ_CHECK(fclose(f) == 0);
	check_recording(&k, rec, len);
	free(rec);
	return 0;
}
