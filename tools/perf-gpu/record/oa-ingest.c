// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading the --oa-output file back into the recording: every SAMPLE
 * record a gpu_oa:oa_report sample, every loss record a LOST record,
 * every correlation point a gpu_oa:oa_correlation sample with the bound
 * of the CORRELATION_BOUND record after it.
 * Two passes over the file: the first gathers the correlation points,
 * the second places each report between the two points around it, so a
 * report is never placed by a point that came before a clock step it
 * was not subject to; nothing but the points is held in memory.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../module/oa_decode.h"
#include "perfdata/tracing-data.h"
#include "record/oa.h"
#include "record/store.h"
#include "util/array.h"
#include "util/debug.h"


struct point {
	uint64_t cpu, gpu;
};

struct ingest {
	struct record_oa *oa;
	struct record_store *st;
	bool place;		/* second pass */
	struct point *pts;
	size_t nr, alloc;
	uint64_t last_gpu;	/* for unwrapping, 64-bit */
	uint64_t last_time;	/* CLOCK_MONOTONIC of the last report */
	/* What the reports come from, sent once before the first. */
	struct gpuprof_oa_driver drv;
	uint8_t topology[4096];
	uint32_t topology_size;
	bool device_sent;
	/* A point of the second pass not sent yet: its bound may follow. */
	struct gpuprof_oa_correlation pending;
	bool has_pending;
	int err;
};

/* gpu_oa:oa_device, just before the first report at @time. */
static void send_device(struct ingest *in, const struct gpuprof_oa_stream *s,
			uint64_t time)
{
	uint8_t buf[64 + 256 + 40 + sizeof(in->topology)];
	ssize_t n;

	in->device_sent = true;
	n = gpu_oa_device_payload(buf, sizeof(buf), in->oa->device_id,
				  &s->info, &in->drv, in->topology,
				  in->topology_size);
	if (n < 0) {
		in->err = (int)n;
		return;
	}
	in->err = record_store_add_sample(in->st, in->oa->device_event, 0, 0,
					  0, time ? time - 1 : 0, buf, n);
}

/* gpu_oa:oa_correlation, at the point's own CPU time. */
static void send_point(struct ingest *in, uint64_t cpu, uint64_t gpu,
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
					  0, cpu, buf, n);
}

/* The pending point, when no bound came for it. */
static void flush_point(struct ingest *in)
{
	if (!in->has_pending)
		return;
	in->has_pending = false;
	send_point(in, in->pending.cpu_timestamp, in->pending.gpu_timestamp,
		   0, false);
}

static void add_point(struct ingest *in, uint64_t cpu, uint64_t gpu)
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
static uint64_t to_cpu(const struct ingest *in, uint64_t gpu, uint64_t freq)
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

static void place_report(struct ingest *in, const struct gpuprof_oa_stream *s,
			 const void *report)
{
	uint8_t buf[64 + GPUPROF_OA_REPORT_MAX];
	struct gpuprof_oa_report r;
	uint64_t gpu, time;
	ssize_t n;
	int32_t pid;

	gpuprof_oa_report_header(&s->layout, report, &r);
	gpu = gpuprof_oa_unwrap(in->last_gpu, r.timestamp,
				s->layout.ts_bits);
	in->last_gpu = gpu;
	if (!in->place)
		return;
	time = to_cpu(in, gpu, s->info.timestamp_frequency);
	in->last_time = time;
	if (!in->device_sent) {
		send_device(in, s, time);
		if (in->err)
			return;
	}
	pid = owner(in->oa, r.ctx_id);
	n = gpu_oa_report_payload(buf, sizeof(buf), in->oa->id, pid, gpu,
				  r.ctx_id, r.reason, report, s->layout.size);
	if (n < 0)
		return;
	in->oa->reports++;
	in->err = record_store_add_sample(in->st, in->oa->event, pid, pid, 0,
					  time, buf, n);
}

static void on_record(void *arg, const struct gpuprof_oa_stream *s,
		      const struct gpuprof_oa_record_header *h,
		      const void *payload)
{
	struct ingest *in = arg;
	struct gpuprof_oa_correlation c;
	struct gpuprof_oa_correlation_bound b;

	if (in->err)
		return;
	if (in->place && h->type != GPUPROF_OA_RECORD_CORRELATION_BOUND)
		flush_point(in);
	switch (h->type) {
	case GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION:
		memcpy(&c, payload, sizeof(c));
		in->last_gpu = c.gpu_timestamp;
		if (!in->place) {
			add_point(in, c.cpu_timestamp, c.gpu_timestamp);
			in->oa->correlations++;
		} else {
			in->pending = c;
			in->has_pending = true;
		}
		break;
	case GPUPROF_OA_RECORD_CORRELATION_BOUND:
		if (!in->place)
			break;
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
		place_report(in, s, payload);
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
	case GPUPROF_OA_RECORD_BUFFER_LOST:
		if (!in->place)
			break;
		if (h->type == GPUPROF_OA_RECORD_REPORT_LOST)
			in->oa->report_lost++;
		else
			in->oa->buffer_lost++;
		/* One lost report at least; i915 does not say how many. */
		in->err = record_store_add_lost(in->st, in->oa->event, 1,
						in->last_time);
		break;
	}
}

static int pass(struct ingest *in, FILE *f, uint8_t *rec)
{
	struct gpuprof_oa_stream s;
	uint8_t buf[65536];
	size_t n;
	long off = 0;

	gpuprof_oa_stream_init(&s, rec);
	in->last_gpu = 0;
	rewind(f);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (gpuprof_oa_stream_feed(&s, buf, n, on_record, in))
			break;
		off += n;
	}
	if (in->place && !in->err)
		flush_point(in);
	if (in->err) {
		pr_err("%s\n", strerror(-in->err));
		return -1;
	}
	if (ferror(f) || gpuprof_oa_stream_end(&s)) {
		pr_err("%s: %s near offset %ld\n", in->oa->output,
		       ferror(f) ? strerror(errno) :
		       gpuprof_oa_error_name(s.error), off);
		return -1;
	}
	return 0;
}

int record_oa_ingest(struct record_oa *oa, struct record_store *st)
{
	struct ingest in = { .oa = oa, .st = st };
	uint8_t *rec = malloc(GPUPROF_OA_RECORD_MAX);
	FILE *f = fopen(oa->output, "rb");
	int err = -1;

	if (!f || !rec) {
		pr_err("%s: %s\n", oa->output, strerror(errno));
		goto out;
	}
	if (pass(&in, f, rec))
		goto out;
	if (!in.nr) {
		pr_err("%s: no correlation point: the OA reports cannot be placed in time\n",
		       oa->output);
		goto out;
	}
	in.place = true;
	err = pass(&in, f, rec);
out:
	if (f)
		fclose(f);
	free(rec);
	free(in.pts);
	return err;
}
