// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading the --oa-output file back into the recording: every SAMPLE
 * record a gpu_oa:oa_report sample, every loss record a LOST record,
 * every correlation point a gpu_oa:oa_correlation sample with the bound
 * of the CORRELATION_BOUND record after it.
 *
 * The file is read as it grows (record_oa_ingest_feed(), after every
 * poll of a live stream) or once at the end; either way in one pass.  A
 * report waits until a correlation point at or after its OA time has
 * been read, then it is placed between the two points around it, so a
 * report is never placed by a point that came before a clock step it was
 * not subject to.  Reports after the last point are placed from that
 * point once the file ends.  What waits is at most the reports of one
 * correlation interval: with a live stream the recording's memory stays
 * bounded (record_oa_ingest_upto()).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../module/oa_decode.h"
#include "perfdata/tracing-data.h"
#include "record/oa.h"
#include "record/store.h"
#include "util/array.h"
#include "util/debug.h"

struct point {
	uint64_t cpu, gpu;
};

/*
 * A record read but not placed yet: a report (with the oa_device sample
 * to go just before it, when it is the first of its device), or a loss,
 * which goes at the time of the report placed before it.  Payloads are
 * in the ingest's byte buffer from @start on.
 */
struct waiting {
	bool lost;
	int32_t pid;
	uint64_t gpu, freq;
	size_t start;
	uint32_t device_len, report_len;
};

struct record_oa_ingest {
	struct record_oa *oa;
	struct record_store *st;
	int fd;			/* the --oa-output file, read as it grows */
	long off;		/* bytes of it fed to the parser */
	struct gpuprof_oa_stream s;
	uint8_t *rec;
	struct point *pts;
	size_t nr, alloc;
	uint64_t last_gpu;	/* for unwrapping, 64-bit */
	uint64_t last_time;	/* CLOCK_MONOTONIC of the last report placed */
	/* What the reports come from, sent once before the first. */
	struct gpuprof_oa_driver drv;
	uint8_t topology[4096];
	uint32_t topology_size;
	bool device_sent;
	/* A point not sent yet: its bound may follow. */
	struct gpuprof_oa_correlation pending;
	bool has_pending;
	/* Records waiting for a point: wait[first..nr_wait) */
	struct waiting *wait;
	size_t first, nr_wait, alloc_wait;
	uint8_t *bytes;
	size_t nr_bytes, alloc_bytes;
	bool ended;
	int err;
};

/* gpu_oa:oa_correlation, at the point's own CPU time. */
static void send_point(struct record_oa_ingest *in, uint64_t cpu, uint64_t gpu,
		       uint64_t bound_ns, bool bounded)
{
	uint8_t buf[64];
	ssize_t n;

	n = gpu_oa_correlation_payload(buf, sizeof(buf), in->oa->corr_id,
				       cpu, gpu, bound_ns, bounded);
	if (n < 0) {
		in->err = (int)n;
		return;
	}
	in->err = record_store_add_sample(in->st, in->oa->corr_event, 0, 0,
					  0, cpu, 0, buf, n);
}

/* The pending point, when no bound came for it. */
static void flush_point(struct record_oa_ingest *in)
{
	if (!in->has_pending)
		return;
	in->has_pending = false;
	send_point(in, in->pending.cpu_timestamp, in->pending.gpu_timestamp,
		   0, false);
}

static void add_point(struct record_oa_ingest *in, uint64_t cpu, uint64_t gpu)
{
	/* Keep both clocks increasing: interpolation divides by the step. */
	if (in->nr && (cpu <= in->pts[in->nr - 1].cpu ||
		       gpu <= in->pts[in->nr - 1].gpu))
		return;
	if (ARRAY_PUSH(in->pts, in->nr, in->alloc, ((struct point){ cpu, gpu })))
		in->err = -ENOMEM;
}

static uint64_t ns_of_ticks(uint64_t ticks, uint64_t freq)
{
	return (uint64_t)((__uint128_t)ticks * 1000000000u / (freq ? freq : 1));
}

/* CLOCK_MONOTONIC of OA time @gpu: interpolated, or extrapolated. */
static uint64_t to_cpu(const struct record_oa_ingest *in, uint64_t gpu,
		       uint64_t freq)
{
	const struct point *a, *b;
	size_t lo = 0, hi = in->nr, mid;
	uint64_t d;

	if (!in->nr)
		return 0;
	while (lo < hi) {	/* the first point at or after @gpu */
		mid = (lo + hi) / 2;
		if (in->pts[mid].gpu < gpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0) {
		d = ns_of_ticks(in->pts[0].gpu - gpu, freq);
		return d < in->pts[0].cpu ? in->pts[0].cpu - d : 0;
	}
	if (lo == in->nr) {
		a = &in->pts[in->nr - 1];
		return a->cpu + ns_of_ticks(gpu - a->gpu, freq);
	}
	a = &in->pts[lo - 1];
	b = &in->pts[lo];
	return a->cpu + (uint64_t)((__uint128_t)(gpu - a->gpu) *
				   (b->cpu - a->cpu) / (b->gpu - a->gpu));
}

static int32_t owner(const struct record_oa *oa, uint32_t ctx)
{
	int k = oa_sim_ctx_index(ctx, oa->nr_owners);

	/* Only the simulator's contexts have known processes. */
	if (oa->source != RECORD_OA_SIM || k < 0)
		return 0;
	return oa->owner[k];
}

/* Room for @len more payload bytes; NULL (and the error set) if none. */
static uint8_t *bytes_room(struct record_oa_ingest *in, size_t len)
{
	if (ARRAY_RESERVE(in->bytes, in->alloc_bytes, in->nr_bytes + len)) {
		in->err = -ENOMEM;
		return NULL;
	}
	return in->bytes + in->nr_bytes;
}

/* gpu_oa:oa_device, into the bytes of the report that follows. */
static uint32_t wait_device(struct record_oa_ingest *in,
			    const struct gpuprof_oa_stream *s)
{
	size_t size = 64 + 256 + 40 + sizeof(in->topology);
	uint8_t *buf = bytes_room(in, size);
	ssize_t n;

	if (!buf)
		return 0;
	n = gpu_oa_device_payload(buf, size, in->oa->device_id, &s->info,
				  &in->drv, in->topology, in->topology_size);
	if (n < 0) {
		in->err = (int)n;
		return 0;
	}
	in->device_sent = true;
	in->nr_bytes += n;
	return n;
}

static void wait_report(struct record_oa_ingest *in,
			const struct gpuprof_oa_stream *s, const void *report)
{
	struct waiting w = { .start = in->nr_bytes };
	struct gpuprof_oa_report r;
	uint8_t *buf;
	ssize_t n;

	gpuprof_oa_report_header(&s->layout, report, &r);
	w.gpu = gpuprof_oa_unwrap(in->last_gpu, r.timestamp,
				  s->layout.ts_bits);
	in->last_gpu = w.gpu;
	w.freq = s->info.timestamp_frequency;
	w.pid = owner(in->oa, r.ctx_id);
	if (!in->device_sent) {
		w.device_len = wait_device(in, s);
		if (in->err)
			return;
	}
	buf = bytes_room(in, 64 + GPUPROF_OA_REPORT_MAX);
	if (!buf)
		return;
	n = gpu_oa_report_payload(buf, 64 + GPUPROF_OA_REPORT_MAX, in->oa->id,
				  w.pid, w.gpu, r.ctx_id, r.reason, report,
				  s->layout.size);
	if (n < 0) {
		/* A report the file cannot hold: its device goes with the next. */
		in->nr_bytes = w.start;
		if (w.device_len)
			in->device_sent = false;
		return;
	}
	in->nr_bytes += n;
	w.report_len = n;
	if (ARRAY_PUSH(in->wait, in->nr_wait, in->alloc_wait, w))
		in->err = -ENOMEM;
}

static void wait_lost(struct record_oa_ingest *in)
{
	struct waiting w = { .lost = true, .start = in->nr_bytes };

	if (ARRAY_PUSH(in->wait, in->nr_wait, in->alloc_wait, w))
		in->err = -ENOMEM;
}

/*
 * Every report older than this has been read: one read after the last
 * point can still be older than that point (it was taken between the
 * drain before the point and the point), but not older than the point
 * before, points being half a second apart.  A loss is placed no
 * earlier, where a streamed round may already have been written.
 */
static uint64_t all_before(const struct record_oa_ingest *in)
{
	return in->nr >= 2 ? in->pts[in->nr - 2].cpu : 0;
}

static void place(struct record_oa_ingest *in, const struct waiting *w)
{
	const uint8_t *p = in->bytes + w->start;
	uint64_t time;

	if (w->lost) {
		/* One lost report at least; i915 does not say how many. */
		time = in->last_time > all_before(in) ? in->last_time :
		       all_before(in);
		in->err = record_store_add_lost(in->st, in->oa->event, 1, time);
		return;
	}
	time = to_cpu(in, w->gpu, w->freq);
	in->last_time = time;
	if (w->device_len) {
		in->err = record_store_add_sample(in->st, in->oa->device_event,
						  0, 0, 0, time ? time - 1 : 0,
						  0, p, w->device_len);
		if (in->err)
			return;
	}
	in->oa->reports++;
	in->err = record_store_add_sample(in->st, in->oa->event, w->pid,
					  w->pid, 0, time, 0, p + w->device_len,
					  w->report_len);
}

/*
 * Place the waiting records, in the order read, up to the first report
 * after the last point (all of them when @all); keep the rest.
 */
static void place_waiting(struct record_oa_ingest *in, bool all)
{
	size_t base, i;

	for (; in->first < in->nr_wait && !in->err; in->first++) {
		const struct waiting *w = &in->wait[in->first];

		if (!all && !w->lost &&
		    (!in->nr || w->gpu > in->pts[in->nr - 1].gpu))
			break;
		place(in, w);
	}
	if (!in->first)
		return;
	/* What still waits goes to the front of both buffers. */
	base = in->first < in->nr_wait ? in->wait[in->first].start :
	       in->nr_bytes;
	memmove(in->bytes, in->bytes + base, in->nr_bytes - base);
	in->nr_bytes -= base;
	for (i = in->first; i < in->nr_wait; i++) {
		in->wait[i - in->first] = in->wait[i];
		in->wait[i - in->first].start -= base;
	}
	in->nr_wait -= in->first;
	in->first = 0;
}

static void on_record(void *arg, const struct gpuprof_oa_stream *s,
		      const struct gpuprof_oa_record_header *h,
		      const void *payload)
{
	struct record_oa_ingest *in = arg;
	struct gpuprof_oa_correlation c;
	struct gpuprof_oa_correlation_bound b;

	if (in->err)
		return;
	if (h->type != GPUPROF_OA_RECORD_CORRELATION_BOUND)
		flush_point(in);
	switch (h->type) {
	case GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION:
		memcpy(&c, payload, sizeof(c));
		in->last_gpu = c.gpu_timestamp;
		add_point(in, c.cpu_timestamp, c.gpu_timestamp);
		in->oa->correlations++;
		in->pending = c;
		in->has_pending = true;
		place_waiting(in, false);
		break;
	case GPUPROF_OA_RECORD_CORRELATION_BOUND:
		memcpy(&b, payload, sizeof(b));
		/* The bound of the point before it, which it repeats. */
		if (in->has_pending &&
		    (in->pending.cpu_timestamp != b.cpu_timestamp ||
		     in->pending.gpu_timestamp != b.gpu_timestamp))
			flush_point(in);
		in->has_pending = false;
		send_point(in, b.cpu_timestamp, b.gpu_timestamp, b.window_ns,
			   true);
		break;
	case GPUPROF_OA_RECORD_SAMPLE:
		wait_report(in, s, payload);
		break;
	case GPUPROF_OA_RECORD_DRIVER:
		memcpy(&in->drv, payload, sizeof(in->drv));
		break;
	case GPUPROF_OA_RECORD_DEVICE_TOPOLOGY:
		in->topology_size = h->size - sizeof(*h);
		if (in->topology_size > sizeof(in->topology))
			in->topology_size = 0;	/* no GPU has so many */
		memcpy(in->topology, payload, in->topology_size);
		break;
	case GPUPROF_OA_RECORD_DEVICE_INFO:
		/* A new device: its own record before its reports. */
		in->device_sent = false;
		break;
	case GPUPROF_OA_RECORD_REPORT_LOST:
		in->oa->report_lost++;
		wait_lost(in);
		break;
	case GPUPROF_OA_RECORD_BUFFER_LOST:
		in->oa->buffer_lost++;
		wait_lost(in);
		break;
	}
}

struct record_oa_ingest *record_oa_ingest_new(struct record_oa *oa,
					      struct record_store *st)
{
	struct record_oa_ingest *in = calloc(1, sizeof(*in));

	if (!in || !(in->rec = malloc(GPUPROF_OA_RECORD_MAX))) {
		pr_err("out of memory\n");
		free(in);
		return NULL;
	}
	in->oa = oa;
	in->st = st;
	in->fd = open(oa->output, O_RDONLY | O_CLOEXEC);
	if (in->fd < 0) {
		pr_err("%s: %s\n", oa->output, strerror(errno));
		record_oa_ingest_free(in);
		return NULL;
	}
	gpuprof_oa_stream_init(&in->s, in->rec);
	return in;
}

int record_oa_ingest_feed(struct record_oa_ingest *in)
{
	uint8_t buf[65536];
	ssize_t n;

	if (in->ended)
		return 0;
	while ((n = read(in->fd, buf, sizeof(buf))) > 0) {
		if (gpuprof_oa_stream_feed(&in->s, buf, n, on_record, in))
			break;
		in->off += n;
	}
	if (in->err) {
		pr_err("%s\n", strerror(-in->err));
		return -1;
	}
	if (n < 0 || in->s.error) {
		pr_err("%s: %s near offset %ld\n", in->oa->output,
		       n < 0 ? strerror(errno) :
		       gpuprof_oa_error_name(in->s.error), in->off);
		return -1;
	}
	return 0;
}

int record_oa_ingest_end(struct record_oa_ingest *in)
{
	if (in->ended)
		return 0;
	if (record_oa_ingest_feed(in))
		return -1;
	in->ended = true;
	if (gpuprof_oa_stream_end(&in->s)) {
		pr_err("%s: %s near offset %ld\n", in->oa->output,
		       gpuprof_oa_error_name(in->s.error), in->off);
		return -1;
	}
	if (!in->nr) {
		pr_err("%s: no correlation point: the OA reports cannot be placed in time\n",
		       in->oa->output);
		return -1;
	}
	place_waiting(in, true);
	flush_point(in);
	if (in->err) {
		pr_err("%s\n", strerror(-in->err));
		return -1;
	}
	return 0;
}

/* all_before(), until the file has ended: then no more will come. */
uint64_t record_oa_ingest_upto(const struct record_oa_ingest *in)
{
	if (in->ended)
		return UINT64_MAX;
	return all_before(in);
}

void record_oa_ingest_free(struct record_oa_ingest *in)
{
	if (!in)
		return;
	if (in->fd >= 0)
		close(in->fd);
	free(in->rec);
	free(in->pts);
	free(in->wait);
	free(in->bytes);
	free(in);
}
