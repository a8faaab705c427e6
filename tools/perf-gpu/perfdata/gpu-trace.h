/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The GPU events of a perf.data, decoded: what perf gpu report, stat and
 * timechart consume.  One pass over the file in its record order (perf
 * gpu record writes samples in time order); each sample of a tracepoint
 * this layer knows comes out with its fields read through libtraceevent
 * from the formats in the file's tracing data, after the payload has been
 * checked against that format (perfdata/trace-print.c), so a corrupted
 * file gives one error with its byte offset, never a read out of bounds.
 *
 * COMM records name threads (the newest name wins, as perf gpu record
 * writes them before each thread's first sample); CGROUP records name
 * the cgroup ids samples carry; LOST records are counted per event.  Other tracepoints come out as GPU_EV_OTHER with
 * their name, for --range=EVENT1,EVENT2; so does a known event whose
 * format lacks a field this layer reads (another kernel's), with the
 * reason in its gpu_trace_event_info.note.  Samples of attrs that are
 * not tracepoints are counted and skipped.
 */
#ifndef PERF_GPU_PERFDATA_GPU_TRACE_H
#define PERF_GPU_PERFDATA_GPU_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "perfdata/read.h"

enum gpu_event_kind {
	GPU_EV_OTHER,		/* a tracepoint not listed below */
	GPU_EV_FENCE_INIT,	/* dma_fence:dma_fence_init: a job submitted */
	GPU_EV_FENCE_SIGNALED,	/* dma_fence:dma_fence_signaled: it ended */
	GPU_EV_VBLANK,		/* drm:drm_vblank_event */
	GPU_EV_MARK,		/* gpuprof:gpuprof_mark or ftrace:print */
	GPU_EV_OA_REPORT,	/* gpu_oa:oa_report (synthetic) */
	GPU_EV_FDINFO,		/* gpu_client:fdinfo (synthetic) */
	GPU_EV_VBLANK_DELIVERED,	/* drm:drm_vblank_event_delivered */
	GPU_EV_OA_DEVICE,	/* gpu_oa:oa_device (synthetic) */
	GPU_EV_OA_CORRELATION,	/* gpu_oa:oa_correlation (synthetic) */
	/*
	 * drm_sched's stable uAPI events (gpu_scheduler, Linux 6.17 and
	 * later): a job pushed to its entity's queue, handed to the
	 * hardware, its hardware fence signaled; a dependency it was
	 * pushed with, and one the scheduler found unsignaled when the
	 * job was next to run.
	 */
	GPU_EV_SCHED_QUEUE,	/* gpu_scheduler:drm_sched_job_queue */
	GPU_EV_SCHED_RUN,	/* gpu_scheduler:drm_sched_job_run */
	GPU_EV_SCHED_DONE,	/* gpu_scheduler:drm_sched_job_done */
	GPU_EV_SCHED_DEP,	/* gpu_scheduler:drm_sched_job_add_dep */
	GPU_EV_SCHED_BLOCKED,	/* gpu_scheduler:drm_sched_job_unschedulable */
};

struct gpu_event {
	enum gpu_event_kind kind;
	unsigned int attr;	/* index of the event's attr in the file */
	const char *name;	/* "system:event" */
	uint64_t time;		/* CLOCK_MONOTONIC ns */
	int32_t pid, tid;
	uint32_t cpu;
	uint64_t cgroup;	/* the thread's cgroup id, 0 if not sampled */
	const char *comm;	/* the thread's name, NULL if never named */
	uint64_t offset;	/* of the record in the file, for errors */
	/*
	 * Per kind.  Strings are NUL-terminated and, like @report, valid
	 * until the next gpu_trace_next() call.  An OTHER event of the
	 * dma_fence system whose format has the class's fields (for
	 * example dma_fence_destroy) has @fence filled too.
	 */
	union {
		/*
		 * A fence numbered at emit (perfdata/fence-number.h) comes
		 * out as its init at the emit's place and time, with the
		 * emit's seqno: @time is when it reached the GPU's queue,
		 * @submitted when it was initialised (@time for every other
		 * fence event).
		 */
		struct {
			const char *driver, *timeline;
			uint32_t context, seqno;
			uint64_t submitted;
		} fence;
		struct {
			int32_t crtc;
			uint32_t seq;
			/*
			 * The vblank's own timestamp (field "time",
			 * CLOCK_MONOTONIC ns), or the sample time when
			 * the format has no such field.
			 */
			uint64_t stamp;
		} vblank;
		struct {
			uint64_t file;	/* the struct drm_file's address */
			int32_t crtc;
			uint32_t seq;	/* the vblank the client got */
		} delivered;
		struct {
			int32_t pid;	/* the writer (gpuprof_mark's field) */
			const char *text;	/* trailing newline removed */
		} mark;
		struct {
			uint64_t gpu_time;	/* unwrapped OA timestamp, ticks */
			uint32_t ctx_id, reason;
			const uint8_t *report;
			uint32_t size;
		} oa;
		struct {
			uint64_t client_id;
			uint32_t fd;
			const char *driver, *pdev, *stats;
		} fdinfo;
		/* What the OA reports after it come from. */
		struct {
			uint64_t timestamp_frequency;	/* Hz */
			uint32_t device_id, revision;
			uint32_t gt_min_hz, gt_max_hz;
			uint32_t format;	/* GPUPROF_OA_FORMAT_* */
			uint32_t kernel;	/* GPUPROF_OA_KERNEL(), 0 */
			uint32_t submission;	/* GPUPROF_OA_SUBMISSION_* */
			uint32_t driver;	/* GPUPROF_OA_DRIVER_* */
			const char *metric_set, *metric_uuid;
			/* drm_i915_query_topology_info, unaligned */
			const uint8_t *topology;
			uint32_t topology_size;
		} oa_device;
		/*
		 * A drm_sched job, named by its finished fence (context,
		 * seqno).  @ring, @dev, @client_id and the counts for
		 * QUEUE and RUN only (else NULL and 0); the fence waited
		 * for (@dep_context, @dep_seqno) for DEP and BLOCKED only.
		 */
		struct {
			const char *ring, *dev;
			uint64_t context, seqno;
			uint64_t client_id;	/* drm-client-id; 0: none */
			uint32_t job_count;	/* in the entity's queue */
			int32_t hw_job_count;	/* credits on the ring */
			uint64_t dep_context, dep_seqno;
		} sched;
		/* One reading of the OA clock against CLOCK_MONOTONIC. */
		struct {
			uint64_t cpu_time, gpu_time;
			uint64_t bound_ns;	/* when @bounded */
			bool bounded;
		} oa_corr;
	};
};

struct gpu_trace_event_info {
	char name[128];		/* "system:event" */
	enum gpu_event_kind kind;
	uint64_t samples;	/* seen so far */
	uint64_t lost;		/* from LOST records */
	/* Why a known event is OTHER ("" when it is not), for reports. */
	char note[96];
};

struct gpu_trace;

/*
 * Open @path and read its tracing data.  NULL only when out of memory;
 * else check gpu_trace_error(): a trace that failed to open returns 0
 * from gpu_trace_next() and its error stays set.
 */
struct gpu_trace *gpu_trace_open(const char *path);

/*
 * The next GPU event: 1 with @ev filled, 0 at the end of the file, -1 on
 * an error (gpu_trace_error() says what and where).
 */
int gpu_trace_next(struct gpu_trace *t, struct gpu_event *ev);

/*
 * Whether an init is held unnumbered (perfdata/fence-number.h): it comes
 * out later, at its emit, with its init time; *@time the oldest such.
 * A reader that orders what it writes waits for it.
 */
bool gpu_trace_held_init(const struct gpu_trace *t, uint64_t *time);

/* NULL when all is well, else "offset N: PROBLEM". */
const char *gpu_trace_error(const struct gpu_trace *t);

/* The file's events, one per attr, with sample and loss counts so far. */
unsigned int gpu_trace_nr_events(const struct gpu_trace *t);
const struct gpu_trace_event_info *gpu_trace_event(const struct gpu_trace *t,
						  unsigned int attr);

/* Events lost by LOST records whose id names no attr of the file. */
uint64_t gpu_trace_lost_unknown(const struct gpu_trace *t);

/*
 * Whether the samples carry cgroup ids (an attr with PERF_SAMPLE_CGROUP):
 * not in a recording from a kernel without cgroup perf events
 * (perf gpu record drops the field there), nor in files of perf gpu
 * before cgroups.
 */
bool gpu_trace_has_cgroups(const struct gpu_trace *t);

/* The newest name of thread @tid so far, or NULL. */
const char *gpu_trace_comm(const struct gpu_trace *t, int32_t tid);

/* The path of cgroup @id from the CGROUP records so far, or NULL. */
const char *gpu_trace_cgroup_path(const struct gpu_trace *t, uint64_t id);

/* The numbers of perf's header features read below (perf's own names). */
enum {
	HEADER_HOSTNAME = 3,
	HEADER_OSRELEASE = 4,
	HEADER_ARCH = 6,
	HEADER_NRCPUS = 7,
	HEADER_CPUDESC = 8,
	HEADER_CLOCK_DATA = 29,
};

/*
 * A string feature of the file's header as perf writes them (a u32
 * length, then the NUL-padded text): HEADER_HOSTNAME (3), OSRELEASE (4),
 * ARCH (6), CPUDESC (8).  NULL when the file has none or it is not
 * terminated.  Valid until gpu_trace_close().
 */
const char *gpu_trace_header_string(const struct gpu_trace *t,
				    unsigned int feat);

/*
 * HEADER_NRCPUS: the CPUs the recording machine had (*@avail, the
 * highest present + 1) and had online (*@online).  0, or -1 when the
 * file has no such feature or it is short.
 */
int gpu_trace_header_nrcpus(const struct gpu_trace *t, uint32_t *avail,
			    uint32_t *online);

/*
 * HEADER_CLOCK_DATA: the samples' clock (*@clockid, CLOCK_MONOTONIC for
 * perf gpu record's) and, read at one moment when the recording began,
 * the time of day (*@tod_ns, CLOCK_REALTIME) and that clock (*@clock_ns).
 * 0, or -1 when the file has no such feature (version 1) or it is short.
 */
int gpu_trace_header_clock(const struct gpu_trace *t, uint32_t *clockid,
			   uint64_t *tod_ns, uint64_t *clock_ns);

/* The file as read (size, features), e.g. for a report's header. */
const struct pdr_file *gpu_trace_file(const struct gpu_trace *t);

void gpu_trace_close(struct gpu_trace *t);

#endif
