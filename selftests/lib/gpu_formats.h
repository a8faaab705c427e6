/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * More real tracepoint formats for the perf.data tests, as a 6.1
 * kernel's tracefs prints them, with payload builders: dma_fence_init
 * and dma_fence_destroy (the dma_fence class of
 * include/trace/events/dma_fence.h, like fence_format.h's
 * dma_fence_signaled), drm:drm_vblank_event and drm_vblank_event_delivered
 * (drivers/gpu/drm/drm_trace.h), gpuprof:gpuprof_mark (module/trace.h)
 * and ftrace:print (kernel/trace/trace_entries.h, whose buf is a
 * flexible char array of size 0, not a __data_loc).  Ids are this
 * file's to choose; they only have to differ within one file.
 */
#ifndef GPUPROF_TEST_GPU_FORMATS_H
#define GPUPROF_TEST_GPU_FORMATS_H

#include <stdint.h>
#include <string.h>

#include "fence_format.h"
#include "../../tools/perf-gpu/perfdata/write.h"

#define COMMON_FORMAT_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n" \
	"\n"

/*
 * A format of the dma_fence class (include/trace/events/dma_fence.h as
 * 6.1 prints it): the events differ by name and id alone.
 */
#define DMA_FENCE_CLASS_FORMAT(name, id) \
	"name: " name "\n" \
	"ID: " #id "\n" \
	"format:\n" \
	COMMON_FORMAT_FIELDS \
	"\tfield:__data_loc char[] driver;\toffset:8;\tsize:4;\tsigned:1;\n" \
	"\tfield:__data_loc char[] timeline;\toffset:12;\tsize:4;\tsigned:1;\n" \
	"\tfield:unsigned int context;\toffset:16;\tsize:4;\tsigned:0;\n" \
	"\tfield:unsigned int seqno;\toffset:20;\tsize:4;\tsigned:0;\n" \
	"\n" \
	"print fmt: \"driver=%s timeline=%s context=%u seqno=%u\", " \
	"__get_str(driver), __get_str(timeline), REC->context, REC->seqno\n"

#define FENCE_INIT_ID 588
static const char fence_init_format[] =
	DMA_FENCE_CLASS_FORMAT("dma_fence_init", 588);

/* The same class: only common_type differs from fence_payload(). */
static inline size_t fence_init_payload(uint8_t *p, int32_t pid,
					const char *driver,
					const char *timeline, uint32_t context,
					uint32_t seqno)
{
	uint16_t type = FENCE_INIT_ID;
	size_t n = fence_payload(p, pid, driver, timeline, context, seqno);

	memcpy(p, &type, 2);
	return n;
}

/* dma_fence_destroy: the class again, for a fence freed unsignaled. */
#define FENCE_DESTROY_ID 587
static const char fence_destroy_format[] =
	DMA_FENCE_CLASS_FORMAT("dma_fence_destroy", 587);

/*
 * dma_fence_emit: the class again, fired by a driver that numbers its
 * fences when it queues them (virtio_gpu: seqno 0 at init).
 */
#define FENCE_EMIT_ID 586
static const char fence_emit_format[] =
	DMA_FENCE_CLASS_FORMAT("dma_fence_emit", 586);

/* A payload of the dma_fence class for event @id. */
static inline size_t fence_class_payload(uint8_t *p, uint16_t id, int32_t pid,
					 const char *driver,
					 const char *timeline,
					 uint32_t context, uint32_t seqno)
{
	size_t n = fence_payload(p, pid, driver, timeline, context, seqno);

	memcpy(p, &id, 2);
	return n;
}

#define VBLANK_ID 1405
static const char vblank_format[] =
	"name: drm_vblank_event\n"
	"ID: 1405\n"
	"format:\n"
	COMMON_FORMAT_FIELDS
	"\tfield:int crtc;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int seq;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:ktime_t time;\toffset:16;\tsize:8;\tsigned:1;\n"
	"\tfield:bool high_prec;\toffset:24;\tsize:1;\tsigned:0;\n"
	"\n"
	"print fmt: \"crtc=%d, seq=%u, time=%lld, high-prec=%s\", "
	"REC->crtc, REC->seq, REC->time, REC->high_prec ? \"true\" : \"false\"\n";

/* 25 bytes of fields; the ring buffer pads the record to 28. */
static inline size_t vblank_payload(uint8_t *p, int32_t pid, int32_t crtc,
				    uint32_t seq, int64_t time)
{
	uint16_t type = VBLANK_ID;

	memset(p, 0, 28);
	memcpy(p, &type, 2);
	memcpy(p + 4, &pid, 4);
	memcpy(p + 8, &crtc, 4);
	memcpy(p + 12, &seq, 4);
	memcpy(p + 16, &time, 8);
	p[24] = 1;
	return 28;
}

/* A vblank or page-flip event sent to a client's file (drm_trace.h). */
#define DELIVERED_ID 1407
static const char delivered_format[] =
	"name: drm_vblank_event_delivered\n"
	"ID: 1407\n"
	"format:\n"
	COMMON_FORMAT_FIELDS
	"\tfield:struct drm_file * file;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int crtc;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int seq;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"file=%p, crtc=%d, seq=%u\", REC->file, REC->crtc, REC->seq\n";

static inline size_t delivered_payload(uint8_t *p, int32_t pid, uint64_t file,
				       int32_t crtc, uint32_t seq)
{
	uint16_t type = DELIVERED_ID;

	memset(p, 0, 24);
	memcpy(p, &type, 2);
	memcpy(p + 4, &pid, 4);
	memcpy(p + 8, &file, 8);
	memcpy(p + 16, &crtc, 4);
	memcpy(p + 20, &seq, 4);
	return 24;
}

#define MARK_ID 1990
static const char mark_format[] =
	"name: gpuprof_mark\n"
	"ID: 1990\n"
	"format:\n"
	COMMON_FORMAT_FIELDS
	"\tfield:pid_t pid;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] text;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"pid=%d %s\", REC->pid, __get_str(text)\n";

static inline size_t mark_payload(uint8_t *p, int32_t pid, const char *text)
{
	uint16_t type = MARK_ID;
	size_t tl = strlen(text) + 1;
	uint32_t loc = tl << 16 | 16;

	memset(p, 0, 16);
	memcpy(p, &type, 2);
	memcpy(p + 4, &pid, 4);
	memcpy(p + 8, &pid, 4);
	memcpy(p + 12, &loc, 4);
	memcpy(p + 16, text, tl);
	return 16 + tl;
}

#define PRINT_ID 5
static const char print_format[] =
	"name: print\n"
	"ID: 5\n"
	"format:\n"
	COMMON_FORMAT_FIELDS
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:1;\n"
	"\n"
	"print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n";

/* trace_marker writes end in the text's NUL (a newline added before). */
static inline size_t print_payload(uint8_t *p, int32_t pid, const char *text)
{
	uint16_t type = PRINT_ID;
	size_t tl = strlen(text) + 1;

	memset(p, 0, 16);
	memcpy(p, &type, 2);
	memcpy(p + 4, &pid, 4);
	memcpy(p + 16, text, tl);
	return 16 + tl;
}

/*
 * drm_sched's stable events as 7.3's tracefs prints them (the formats
 * read in the test VM; gpu_scheduler_trace.h, "DOC: uAPI trace events").
 * drm_sched_job_queue and drm_sched_job_run are one class, as are
 * drm_sched_job_add_dep and drm_sched_job_unschedulable.
 */
#define SCHED_JOB_FORMAT(name, id) \
	"name: " name "\n" \
	"ID: " #id "\n" \
	"format:\n" \
	COMMON_FORMAT_FIELDS \
	"\tfield:__data_loc char[] name;\toffset:8;\tsize:4;\tsigned:0;\n" \
	"\tfield:u32 job_count;\toffset:12;\tsize:4;\tsigned:0;\n" \
	"\tfield:int hw_job_count;\toffset:16;\tsize:4;\tsigned:1;\n" \
	"\tfield:__data_loc char[] dev;\toffset:20;\tsize:4;\tsigned:0;\n" \
	"\tfield:u64 fence_context;\toffset:24;\tsize:8;\tsigned:0;\n" \
	"\tfield:u64 fence_seqno;\toffset:32;\tsize:8;\tsigned:0;\n" \
	"\tfield:u64 client_id;\toffset:40;\tsize:8;\tsigned:0;\n" \
	"\n" \
	"print fmt: \"dev=%s, fence=%llu:%llu, ring=%s, job count:%u, hw job count:%d, client_id:%llu\", " \
	"__get_str(dev), REC->fence_context, REC->fence_seqno, __get_str(name), " \
	"REC->job_count, REC->hw_job_count, REC->client_id\n"

#define SCHED_DEP_FORMAT(name, id, what) \
	"name: " name "\n" \
	"ID: " #id "\n" \
	"format:\n" \
	COMMON_FORMAT_FIELDS \
	"\tfield:u64 fence_context;\toffset:8;\tsize:8;\tsigned:0;\n" \
	"\tfield:u64 fence_seqno;\toffset:16;\tsize:8;\tsigned:0;\n" \
	"\tfield:u64 ctx;\toffset:24;\tsize:8;\tsigned:0;\n" \
	"\tfield:u64 seqno;\toffset:32;\tsize:8;\tsigned:0;\n" \
	"\n" \
	"print fmt: \"fence=%llu:%llu depends on " what "fence=%llu:%llu\", " \
	"REC->fence_context, REC->fence_seqno, REC->ctx, REC->seqno\n"

#define SCHED_UNSCHED_ID 1645
#define SCHED_ADD_DEP_ID 1646
#define SCHED_DONE_ID 1647
#define SCHED_RUN_ID 1648
#define SCHED_QUEUE_ID 1649
static const char sched_queue_format[] =
	SCHED_JOB_FORMAT("drm_sched_job_queue", 1649);
static const char sched_run_format[] =
	SCHED_JOB_FORMAT("drm_sched_job_run", 1648);
static const char sched_add_dep_format[] =
	SCHED_DEP_FORMAT("drm_sched_job_add_dep", 1646, "");
static const char sched_unsched_format[] =
	SCHED_DEP_FORMAT("drm_sched_job_unschedulable", 1645, "unsignalled ");
static const char sched_done_format[] =
	"name: drm_sched_job_done\n"
	"ID: 1647\n"
	"format:\n"
	COMMON_FORMAT_FIELDS
	"\tfield:u64 fence_context;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 fence_seqno;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"fence=%llu:%llu signaled\", REC->fence_context, REC->fence_seqno\n";

/* drm_sched_job_queue or _run (@id): 48 bytes of fields, then the strings. */
static inline size_t sched_job_payload(uint8_t *p, uint16_t id, int32_t pid,
				       const char *ring, const char *dev,
				       uint64_t context, uint64_t seqno,
				       uint64_t client_id)
{
	size_t rl = strlen(ring) + 1, dl = strlen(dev) + 1;
	uint32_t loc, zero = 0;

	memset(p, 0, 48);
	memcpy(p, &id, 2);
	memcpy(p + 4, &pid, 4);
	loc = rl << 16 | 48;
	memcpy(p + 8, &loc, 4);
	memcpy(p + 12, &zero, 4);
	memcpy(p + 16, &zero, 4);
	loc = dl << 16 | (48 + rl);
	memcpy(p + 20, &loc, 4);
	memcpy(p + 24, &context, 8);
	memcpy(p + 32, &seqno, 8);
	memcpy(p + 40, &client_id, 8);
	memcpy(p + 48, ring, rl);
	memcpy(p + 48 + rl, dev, dl);
	return 48 + rl + dl;
}

/* drm_sched_job_add_dep or _unschedulable (@id), or _done (no dep). */
static inline size_t sched_fence_payload(uint8_t *p, uint16_t id, int32_t pid,
					 uint64_t context, uint64_t seqno,
					 uint64_t dep_context, uint64_t dep_seqno)
{
	memset(p, 0, 40);
	memcpy(p, &id, 2);
	memcpy(p + 4, &pid, 4);
	memcpy(p + 8, &context, 8);
	memcpy(p + 16, &seqno, 8);
	if (id == SCHED_DONE_ID)
		return 24;
	memcpy(p + 24, &dep_context, 8);
	memcpy(p + 32, &dep_seqno, 8);
	return 40;
}

/*
 * The tracing data of every format above, fence_format.h's and the
 * synthetic events; their ids in @ids.  NULL on failure.
 */
static inline void *gpu_tracing_data(struct gpu_synth_ids *ids, size_t *len)
{
	static const struct {
		const char *system, *text;
		int id;
	} formats[] = {
		{ "dma_fence", fence_init_format, FENCE_INIT_ID },
		{ "dma_fence", fence_format, FENCE_ID },
		{ "dma_fence", fence_destroy_format, FENCE_DESTROY_ID },
		{ "dma_fence", fence_emit_format, FENCE_EMIT_ID },
		{ "drm", vblank_format, VBLANK_ID },
		{ "drm", delivered_format, DELIVERED_ID },
		{ "gpuprof", mark_format, MARK_ID },
		{ "ftrace", print_format, PRINT_ID },
		{ "gpu_scheduler", sched_unsched_format, SCHED_UNSCHED_ID },
		{ "gpu_scheduler", sched_add_dep_format, SCHED_ADD_DEP_ID },
		{ "gpu_scheduler", sched_done_format, SCHED_DONE_ID },
		{ "gpu_scheduler", sched_run_format, SCHED_RUN_ID },
		{ "gpu_scheduler", sched_queue_format, SCHED_QUEUE_ID },
	};
	struct tracing_data *td = tracing_data_new();
	void *blob = NULL;
	size_t i;

	if (!td)
		return NULL;
	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (tracing_data_add_format(td, formats[i].system, formats[i].text,
					    strlen(formats[i].text)) != formats[i].id)
			goto out;
	if (!tracing_data_add_synthetic(td, ids))
		blob = tracing_data_build(td, len);
out:
	tracing_data_free(td);
	return blob;
}

/*
 * Write a sample of event @ev carrying the payload @raw of @len bytes
 * (a builder's result: negative is its error, passed on).
 */
static inline int raw_sample(struct perf_data_writer *w, unsigned int ev,
			     int32_t pid, uint64_t time, const void *raw,
			     ssize_t len)
{
	struct perf_data_sample s = {
		.event = ev, .pid = pid, .tid = pid, .time = time,
		.raw = raw, .raw_size = len,
	};

	return len < 0 ? (int)len : perf_data_write_sample(w, &s);
}

#endif
