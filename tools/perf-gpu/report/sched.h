/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * drm_sched jobs as the scheduler's stable trace events tell them
 * (gpu_scheduler_trace.h, "DOC: uAPI trace events", Linux 6.17 and
 * later; design.rst 3.3): the second source of perf gpu report's
 * scheduler figures, beside the pairing of drm_sched's two fences
 * (report/model.h).  Where a recording has both, each job is compared.
 *
 * A job is named by its finished fence (context, seqno).  It has three
 * phases:
 *
 * - dependency: from drm_sched_job_queue (the push to its entity) to the
 *   latest end, after the push, of a fence drm_sched_job_add_dep named
 *   (every dependency, at the push): its signal, or for a finished fence
 *   of a job on the same scheduler that job's run (drm_sched waits for
 *   the handover only); no later than the job's own run.  A fence
 *   drm_sched_job_unschedulable named (the scheduler found it unsignaled
 *   when the job was next) whose signal is not in the recording ends the
 *   phase at the run; any other dependency without a recorded signal was
 *   signaled before the push.  A job without such a wait has none;
 * - queue: from then to drm_sched_job_run (handed to the hardware);
 * - run: from then to drm_sched_job_done (its hardware fence signaled).
 *
 * Rows are (device, client id, ring): client_id is the DRM client the
 * driver gave drm_sched_job_init() (drm-client-id in the fdinfo of its
 * file; 0 when the driver gives none).  A row's process is the one a
 * gpu_client:fdinfo snapshot of the recording shows holding that client
 * on that device, else the one that pushed the row's first job (the
 * push runs in the submitting ioctl for the drivers of the kernel tree);
 * its client name the one such snapshots show (report/names.h).
 *
 * Jobs whose queue event is not in the recording (pushed before it
 * started) are counted in no row; jobs not done by its end are counted
 * as unfinished.  Memory holds the jobs in flight, not all the jobs.
 */
#ifndef PERF_GPU_REPORT_SCHED_H
#define PERF_GPU_REPORT_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata/gpu-trace.h"
#include "report/names.h"
#include "report/sketch.h"
#include "util/map.h"

#define REPORT_SCHED_NAME	64

struct report_sched_row {
	char dev[REPORT_SCHED_NAME], ring[REPORT_SCHED_NAME];
	uint64_t client_id;
	int32_t pid;			/* see above; 0 when unknown */
	bool pid_from_fdinfo;
	char comm[16];			/* of the first push, "" if unnamed */
	/* drm-client-name from the fdinfo snapshots, "" when none */
	char client_name[DRM_FDINFO_CLIENT_NAME + 1];
	uint64_t cgroup;		/* of the first push's sample */
	uint64_t jobs;			/* done, their push in the recording */
	uint64_t unfinished;		/* pushed, not done by the end */
	uint64_t deps;			/* drm_sched_job_add_dep of its jobs */
	uint64_t waited;		/* jobs with a dependency phase */
	struct report_sketch dep, queue, run;	/* ns */
};

/*
 * The comparison with fence pairing, over the jobs both sources saw
 * end: the largest differences of the three boundaries (submission,
 * handover to the hardware, end), how many jobs have all three in the
 * order the kernel fires them and how many within @tolerance_ns.
 *
 * The two sources look at neighbouring points of one job, in a fixed
 * order: drm_sched_job_arm() inits the fences before the driver pushes
 * the job (drm_sched_job_queue), drm_sched_job_run fires before the
 * driver's run_job() and the scheduled fence's signal, and
 * drm_sched_job_done before the finished fence's signal.  How far apart
 * is the driver's and the machine's business (a guest stalled between
 * arm and push moves the submission by milliseconds); the order holds
 * for every job fence pairing paired rightly.
 */
struct report_sched_compare {
	uint64_t jobs;			/* in both */
	uint64_t ordered;		/* all three in the kernel's order */
	uint64_t agree;			/* all three within the tolerance */
	uint64_t sched_only;		/* done here, no paired job there */
	uint64_t max_submit_ns, max_handover_ns, max_end_ns;
	uint64_t tolerance_ns;
};

struct report_sched {
	struct report_sched_row **rows;	/* in order of first sight */
	uint32_t nr_rows;
	uint64_t events;		/* stable events taken */
	/* Jobs done whose push or run is not in the recording. */
	uint64_t untimed;
	struct report_sched_compare cmp;
	bool finished;			/* report_sched_finish() ran */
	/* Internal: jobs in flight and done-but-not-compared, waits. */
	struct u64_map jobs, waits;
	struct sched_job *done_head, *done_tail;
	size_t alloc_rows;
};

void report_sched_init(struct report_sched *s);

/* Take @ev if it concerns the scheduler (any other: ignored).  0 or -1 (memory). */
int report_sched_add(struct report_sched *s, const struct gpu_event *ev);

/*
 * A job fence pairing timed (report/model.h): @context, @seqno its
 * finished fence, @submit its init, @handover the scheduled half's
 * signal, @end its own signal.  Compared, and let go.  Return: the end of
 * its dependency phase as the stable events showed it, or 0 when it
 * waited for none or they did not show the job.
 */
uint64_t report_sched_compare(struct report_sched *s, uint64_t context,
			      uint64_t seqno, uint64_t submit,
			      uint64_t handover, uint64_t end);

/*
 * At the end (once; again: nothing): processes and client names from
 * the fdinfo snapshots in @names, unfinished counts.  0 or -1.
 */
int report_sched_finish(struct report_sched *s,
			const struct report_names *names);

void report_sched_free(struct report_sched *s);

#endif
