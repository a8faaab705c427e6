/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What perf gpu report computes from a recording, in one pass over its
 * GPU events (perfdata/gpu-trace.h), in memory that does not grow with the
 * number of events: per client, timeline and (client, timeline) pair,
 * the jobs in flight, busy-time segments that can still change, and
 * latency sketches.
 *
 * Jobs (design.rst 3.3).  A job is a dma_fence, keyed by (context,
 * seqno), owned by the process (pid) of its dma_fence_init sample; its
 * timeline is the (driver, timeline) name pair of the fence, not the
 * context number.  It runs from max(its init, the previous signal on
 * its context) to its signal: the oldest job in flight on a context is
 * the one running.  A signal of a job behind others on its context
 * means theirs were missed (fences of a context signal in order): they
 * end unsignaled.  Fences that only gather others (dma_fence_chain,
 * dma_fence_array, the stub) are no jobs.  dma_fence_destroy of a job
 * in flight ends it unsignaled.
 *
 * drm_sched jobs.  drm_sched makes two fences per job, driver
 * "drm_sched", one right after the other: "scheduled" on context c and
 * "finished" on context c + 1, same seqno, same timeline name.  The pair
 * is found by what the fences say, not by their order or thread: the
 * init of a drm_sched fence (c + 1, s) is a finished half when a
 * drm_sched fence (c, s) of the same process and timeline name is in
 * flight, not itself a finished half nor paired already; that one is
 * then its scheduled half, no job of its own (neither counted nor
 * timed; its signal is no unmatched one).  A paired job has two phases:
 * queued from its init (the submission) to the scheduled half's signal
 * (drm_sched gave it to the hardware), running from then to its own
 * signal; several jobs of one context can run at once (a ring taking
 * more than one job).  A paired job whose scheduled signal was not seen
 * (lost, or destroyed first) runs by the rule above and has queue time
 * 0, as have the jobs of other drivers.  For OA attribution too, a
 * paired job runs from its scheduled half's signal.
 *
 * Fences numbered at emit.  A job of a driver that numbers its fences
 * at dma_fence_emit (virtio_gpu) comes from the reader as its init at
 * the emit (perfdata/gpu-trace.h): it is ready to run from its emit,
 * queued from its init to then.
 *
 * Figures.  jobs: signaled jobs whose init is in the file.  busy_ns: the
 * length of the union of their running intervals (report/busy.h), exact
 * when no event was lost (a job whose predecessor's signal was lost gets
 * a start the settling of busy time did not expect).  latency:
 * init to signal; queue: init to the start of running (0 but for paired
 * drm_sched jobs and jobs numbered at emit); run: the running interval;
 * each in a sketch (report/sketch.h).  Signals without their init (unmatched) and inits
 * never signaled (unsignaled) are counted, not timed.  share of a busy
 * time: over the recording's span, from its first to its last sample.
 *
 * Frames, per crtc and vblank counter (a tick continues the counter of
 * its crtc index whose last seq is below it by the least, at most 64,
 * or by as many as the periods since its last tick; else it starts
 * another: drm_vblank_event names no device, and two devices' crtcs of
 * one index tick under one number), from
 * drm:drm_vblank_event: the intervals between
 * consecutive vblank timestamps; missed frames are counted from the
 * intervals longer than 1.5 times the median interval, an interval of
 * about m medians standing for round(m) - 1 missed frames (two medians:
 * one frame missed).  The median and the long intervals come from the
 * interval sketch, each within 1/128.
 *
 * Flips, per crtc, from drm:drm_vblank_event_delivered (the vblank and
 * page-flip events the clients got; those of no file, the kernel's own
 * at a mode set or for fbdev, are not flips): flips counts them; between
 * consecutive ones of a crtc whose vblank sequence number went forward
 * by d, the interval of their sample times goes into a sketch (its
 * median within 1/128) and d - 1 frames were missed, exactly.  Equal
 * sequence numbers (one vblank, another file) give neither; one going
 * back (a counter reset) starts afresh.
 *
 * OA (design.rst 5.3, as the module does it).  Consecutive
 * gpu_oa:oa_report samples give a delta (gpuprof_oa_accumulate; the
 * layout from the report size, 256 bytes being format 10 of gen8 and
 * later; other sizes give none); a delta across a change of context id,
 * or across a LOST record of the OA event, is dropped.  Each report goes
 * to the client bound to its context id, bound when the id was seen
 * while exactly one client had a job running; else it is split evenly
 * among the clients with a job running at its time; else it is
 * unattributed.  A client's part is split evenly among the timelines of
 * its running jobs (when it has none, a bound client's part is counted
 * in oa_no_timeline).  Splits are exact: an integer divided by n gives
 * each part the quotient and the first (remainder) parts one more, so
 * the parts always sum to the whole.  reports counts the reports a
 * client or timeline got whole or in part.
 *
 * gpu_time_ns converts OA timestamp ticks with the OA timestamp
 * frequency the file shows: (last gpu_time - first gpu_time) / (last
 * sample time - first sample time) over the OA samples, the sample times
 * being CLOCK_MONOTONIC from perf gpu record's clock correlation.
 *
 * Times and sums of ns saturate at UINT64_MAX instead of wrapping.
 */
#ifndef PERF_GPU_REPORT_MODEL_H
#define PERF_GPU_REPORT_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "../../../module/oa_decode.h"
#include "perfdata/gpu-trace.h"
#include "report/busy.h"
#include "report/names.h"
#include "report/sched.h"
#include "report/sketch.h"

/* Jobs of a pair, a client, a timeline or all of them. */
struct report_jobs {
	uint64_t jobs;
	uint64_t busy_ns;		/* set by report_model_finish() */
	uint64_t unmatched;		/* signals without their init */
	uint64_t unsignaled;		/* inits never signaled */
	struct report_sketch latency;	/* init to signal, ns */
	struct report_sketch queue;	/* init to running, ns */
	struct report_sketch run;	/* running, ns */
	struct report_busy busy;
};

/* OA totals of a client or a timeline. */
struct report_oa {
	uint64_t reports;		/* got whole or in part */
	/* timestamp: OA ticks; gpu_ticks: GPU clock; a, b, c: raw deltas */
	struct gpuprof_oa_deltas d;
	uint64_t gpu_time_ns;		/* set by report_model_finish() */
	uint64_t avg_gpu_freq_mhz;	/* likewise: gpu_ticks per us */
};

/*
 * The OA unit a recording read: its first gpu_oa:oa_device, and the
 * report interval the reports themselves show.
 */
struct report_oa_unit {
	uint32_t samples;		/* gpu_oa:oa_device samples; 0: none */
	bool changed;			/* a later one named another device or set */
	uint32_t device_id, revision;
	uint32_t format;		/* GPUPROF_OA_FORMAT_* */
	uint32_t driver;		/* GPUPROF_OA_DRIVER_* */
	uint32_t gt_min_hz, gt_max_hz;
	uint64_t timestamp_hz;		/* as recorded; 0 unknown */
	uint64_t n_eus;			/* from its topology; 0 when none */
	char metric_set[128], uuid[40];
};

/*
 * The clients of one cgroup (v2), by the cgroup id their first job's
 * sample carries (PERF_SAMPLE_CGROUP): their jobs together, busy time
 * the union of theirs.  The path is the trace's (gpu_trace_cgroup_path()).
 */
struct report_cgroup {
	uint64_t id;
	unsigned int index;		/* in order of first sight, from 0 */
	uint32_t nr_clients;
	struct report_jobs jobs;
};

struct report_client {
	int32_t pid;
	char comm[16];			/* the newest name seen, "" if none */
	struct report_cgroup *cgroup;	/* NULL: the samples carry none */
	struct report_jobs jobs;
	struct report_oa oa;
	/* Internal: running jobs, place in the running list. */
	uint32_t running_pairs;
	uint32_t run_idx;
};

struct report_timeline {
	unsigned int id;		/* in order of first sight, from 0 */
	char *driver, *name;
	struct report_jobs jobs;
	struct report_oa oa;
	/* Internal: the last report counted. */
	uint64_t oa_seen;
};

struct report_pair {
	struct report_client *client;
	struct report_timeline *timeline;
	struct report_jobs jobs;
	/* Internal: contexts whose running job is this pair's. */
	uint32_t running;
	uint32_t run_idx;
};

struct report_crtc {
	int32_t crtc;
	/*
	 * drm_vblank_event names no device: each device counts its own
	 * vblanks, so a second counter under one crtc index is another
	 * device's crtc of that index (0: the first seen).
	 */
	uint32_t counter;
	uint64_t vblanks;
	uint64_t last;			/* timestamp of the last vblank */
	uint32_t last_seq;		/* its sequence number */
	uint64_t period;		/* the last interval of consecutive seqs */
	struct report_sketch interval;	/* between consecutive vblanks, ns */
	uint64_t median_ns;		/* set by report_model_finish() */
	uint64_t missed;		/* likewise */
	/* drm:drm_vblank_event_delivered */
	uint64_t flips;
	uint64_t flips_missed;		/* exact, from sequence numbers */
	uint32_t last_flip_seq;
	uint64_t last_flip_time;	/* sample time of the last flip */
	struct report_sketch flip_interval;	/* between flips, ns */
	uint64_t flip_median_ns;	/* set by report_model_finish() */
};

/*
 * Hooks for accounting on top of the model (ranges): called as the
 * model learns a figure, in the order of the recording.
 */
struct report_job_run {
	const struct report_pair *pair;	/* owner pid and timeline */
	uint32_t context, seqno;
	uint64_t init, start, end;	/* end: the signal */
	bool queued;			/* [init, start) was a queued phase */
	/*
	 * A drm_sched job whose stable events showed it waiting for its
	 * dependencies: until then, from its push (report_sched_compare()); else 0.
	 */
	uint64_t dep_end;
};

struct report_oa_part {
	const struct report_client *client;	/* NULL: unattributed */
	const struct report_timeline *timeline;	/* NULL: none running */
	uint64_t time;			/* the report's sample time */
	uint64_t gpu_time;		/* its unwrapped OA timestamp */
	unsigned int part, parts;	/* this part of the report's delta */
	const struct gpuprof_oa_deltas *d;	/* that part, NULL: no delta */
	uint64_t prev_time;		/* with @d: the time it starts from */
};

struct report_hooks {
	void *arg;
	/* Every GPU event, before the model takes it. */
	void (*event)(void *arg, const struct gpu_event *ev);
	/* A job that signaled, with its running interval. */
	void (*job)(void *arg, const struct report_job_run *run);
	/* One (client, timeline) part of an OA report, delta or not. */
	void (*oa)(void *arg, const struct report_oa_part *part);
};

struct report_model {
	struct report_hooks hooks;

	/* Recording */
	uint64_t events;		/* GPU events taken */
	uint64_t first_time, last_time;	/* of any sample; valid if events */

	/* Entities, in order of first sight */
	struct report_client **clients;
	struct report_timeline **timelines;
	struct report_pair **pairs;
	struct report_crtc *crtcs;
	struct report_cgroup **cgroups;
	uint32_t nr_clients, nr_timelines, nr_pairs, nr_crtcs, nr_cgroups;
	struct report_jobs total;	/* every job */
	uint64_t jobs_in_flight;

	/* OA */
	uint64_t oa_reports;		/* gpu_oa:oa_report samples */
	uint64_t oa_deltas;		/* deltas taken */
	uint64_t oa_switch_drops;	/* deltas dropped: context changed */
	uint64_t oa_lost_drops;		/* deltas dropped: LOST record between */
	uint64_t oa_no_layout;		/* reports of a size with no layout */
	struct gpuprof_oa_deltas oa_all;	/* every delta taken */
	struct report_oa oa_unattributed;
	struct report_oa oa_no_timeline;
	uint64_t oa_first_gpu, oa_last_gpu, oa_first_time, oa_last_time;
	uint64_t oa_freq_hz;		/* estimated; 0 when unknown */
	struct report_oa_unit oa_unit;
	/*
	 * The OA unit's period: a timer report comes every 2^(exponent+1)
	 * ticks, so the commonest power-of-two interval between two
	 * consecutive reports of a stream is the period (context-switch
	 * reports fall between and make other intervals).  0: none seen.
	 */
	uint64_t oa_period_ticks;
	/* gpu_oa:oa_correlation: points, those with a bound, the widest. */
	uint64_t oa_corr_points, oa_corr_bounded, oa_corr_worst_ns;
	/* A counters to show: 36 (gen8+), more for a device whose
	 * layout carries more (Haswell 45, DG2 38, Xe2's 64 PEC). */
	unsigned int oa_a_shown;

	/* drm_sched's stable events, compared with the pairing above */
	struct report_sched sched;
	/* DRM clients and their names from the fdinfo snapshots */
	struct report_names names;

	/* Internal state (report/model.c) */
	struct report_model_state *st;
};

/* 0, or -1 out of memory. */
int report_model_init(struct report_model *m, const struct report_hooks *hooks);

/*
 * Take one event of @t: 0, or -1 out of memory.  @t gives the loss
 * counts of the OA event so far.
 */
int report_model_add(struct report_model *m, const struct gpu_trace *t,
		     const struct gpu_event *ev);

/* Read all of @t: 0, -1 on a trace error (see gpu_trace_error()), -2 out of memory. */
int report_model_read(struct report_model *m, struct gpu_trace *t);

/*
 * At the end: busy times, latency, queue and run sketches of clients,
 * timelines and the total (merged from pairs), frames and flips, OA
 * times and frequencies.
 * 0, or -1 out of memory.
 */
int report_model_finish(struct report_model *m);

/* OA ticks in ns with the frequency of the file; 0 when unknown. */
uint64_t report_model_oa_ns(const struct report_model *m, uint64_t ticks);

/* The recording's span in ns. */
uint64_t report_model_span(const struct report_model *m);

void report_model_free(struct report_model *m);

/* @d added to @acc, every counter saturating. */
void report_oa_deltas_add(struct gpuprof_oa_deltas *acc,
			  const struct gpuprof_oa_deltas *d);

/* Saturating ns arithmetic. */
static inline uint64_t report_sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

#endif
