// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: GPU jobs from the dma_fence tracepoints, which every DRM driver
 * fires, and time sampling.
 */

/**
 * DOC: Jobs from fences
 *
 * A job is a fence.  dma_fence_init runs in the submitting task, whose
 * process owns the job (client.c); dma_fence_signaled ends it,
 * dma_fence_destroy forgets one that never signaled.  Fences of one
 * context signal in order, so the oldest job in flight on a context is
 * the one running: a job runs from max(its init, the previous job's
 * signal on its context) to its signal.  Jobs are kept per context in
 * init order; the running ones are the leading jobs of each list with a
 * start time (one, but for drm_sched jobs, below).  Fences that only
 * gather others (chain, array, the stub) are no jobs (design.rst 3.3).
 *
 * Jobs, and the history of runs kept for OA attribution, point at their
 * target without a reference: when targets end, ctl.c has them let go
 * (gpuprof_fence_disown_ended()).
 */

/**
 * DOC: Time and coverage samples
 *
 * Time profiling counts, per sampling interval, one sample for every
 * (target, timeline) that had a job running at some point of it: at each
 * tick for the heads of all contexts, and at a signal for the job ending.
 * Coverage profiling counts signaled jobs (design.rst 3.4 and 10.1).
 */
#include <linux/dma-fence.h>
#include <linux/hashtable.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>

#include "compat.h"
#include "gpuprof.h"

struct gpuprof_ctx {
	struct hlist_node node;		/* in gpuprof_ctx_hash */
	struct list_head link;		/* in gpuprof_ctxs */
	struct list_head jobs;		/* in flight, oldest first */
	u64 context;
};

/*
 * What a fence is to gpuprof: a job of its own, a drm_sched job (the
 * finished fence, with a queued phase), or the scheduled half of one.
 */
enum gpuprof_job_kind {
	GPUPROF_JOB_FENCE,
	GPUPROF_JOB_SCHED,
	GPUPROF_JOB_SCHED_HALF,
};

struct gpuprof_job {
	struct gpuprof_obj_key key;	/* in gpuprof_job_hash, by fence */
	struct list_head link;		/* in ctx->jobs; not for a half */
	struct gpuprof_ctx *ctx;	/* NULL for a half */
	struct gpuprof_target *owner;	/* NULL: no target's */
	enum gpuprof_job_kind kind;
	u32 timeline;
	u64 start_ns;			/* running since, 0 while not */
	/* drm_sched: a job and its scheduled half point at each other */
	struct gpuprof_job *pair;
	/* a half not paired yet, in gpuprof_half_hash by fence lock */
	struct hlist_node half_node;
	const spinlock_t *lock;		/* compared, never taken */
	u64 context, seqno;
};

/*
 * Running intervals of ended jobs, oldest first in a ring, so OA reports
 * that arrive after the job ended are still attributed (design.rst 5.3).
 */
struct gpuprof_run {
	struct gpuprof_target *owner;
	u64 start_ns;
	u64 end_ns;
};

#define GPUPROF_RUN_HISTORY 4096
static struct gpuprof_run gpuprof_runs[GPUPROF_RUN_HISTORY];
static u32 gpuprof_runs_next;	/* where the next run goes */

static struct kmem_cache *gpuprof_job_cache;
static struct kmem_cache *gpuprof_ctx_cache;
static DEFINE_HASHTABLE(gpuprof_job_hash, 10);
static DEFINE_HASHTABLE(gpuprof_ctx_hash, 8);
static DEFINE_HASHTABLE(gpuprof_half_hash, 6);
static LIST_HEAD(gpuprof_ctxs);
static u32 gpuprof_nr_jobs;

/* Sampling: intervals ended so far; the one in progress is tick + 1. */
static struct hrtimer gpuprof_timer;
static u64 gpuprof_tick;
static unsigned int gpuprof_timer_ms;

static struct gpuprof_ctx *gpuprof_ctx_get(u64 context)
{
	struct gpuprof_ctx *ctx;

	hash_for_each_possible(gpuprof_ctx_hash, ctx, node, context)
		if (ctx->context == context)
			return ctx;
	ctx = kmem_cache_alloc(gpuprof_ctx_cache, GFP_ATOMIC | __GFP_NOWARN);
	if (!ctx)
		return NULL;
	ctx->context = context;
	INIT_LIST_HEAD(&ctx->jobs);
	hash_add(gpuprof_ctx_hash, &ctx->node, context);
	list_add_tail(&ctx->link, &gpuprof_ctxs);
	return ctx;
}

static struct gpuprof_job *gpuprof_job_find(const struct dma_fence *fence)
{
	struct gpuprof_obj_key *key;

	key = gpuprof_obj_find(gpuprof_job_hash, HASH_BITS(gpuprof_job_hash),
			       fence);
	return key ? container_of(key, struct gpuprof_job, key) : NULL;
}

/* The first job of @ctx, or NULL. */
static struct gpuprof_job *gpuprof_ctx_head(struct gpuprof_ctx *ctx)
{
	return list_first_entry_or_null(&ctx->jobs, struct gpuprof_job, link);
}

/*
 * The job after @job on its context that runs with it, or NULL: jobs run
 * in order, so the running ones lead the list, each with a start.
 */
static struct gpuprof_job *gpuprof_next_running(struct gpuprof_job *job)
{
	if (list_is_last(&job->link, &job->ctx->jobs))
		return NULL;
	job = list_next_entry(job, link);
	return job->start_ns ? job : NULL;
}

/* A half goes; its job, if any, no longer waits for its signal. */
static void gpuprof_half_free(struct gpuprof_job *half)
{
	if (half->pair)
		half->pair->pair = NULL;
	else
		hash_del(&half->half_node);
	hash_del(&half->key.node);
	kmem_cache_free(gpuprof_job_cache, half);
	gpuprof_nr_jobs--;
}

static void gpuprof_ctx_put(struct gpuprof_ctx *ctx)
{
	if (!list_empty(&ctx->jobs))
		return;
	hash_del(&ctx->node);
	list_del(&ctx->link);
	kmem_cache_free(gpuprof_ctx_cache, ctx);
}

/*
 * Forget @job, which ends now; a running one goes to the history, and the
 * next job of its context, if it is a plain fence, runs from now (a
 * drm_sched job runs from its own scheduled signal).
 */
static void gpuprof_job_free(struct gpuprof_job *job)
{
	struct gpuprof_ctx *ctx = job->ctx;
	bool was_head = gpuprof_ctx_head(ctx) == job;
	struct gpuprof_job *next;
	u64 now = ktime_get_ns();

	if (job->kind == GPUPROF_JOB_SCHED_HALF) {
		gpuprof_half_free(job);
		return;
	}
	if (job->start_ns && job->owner) {
		struct gpuprof_run *run = &gpuprof_runs[gpuprof_runs_next];

		run->owner = job->owner;
		run->start_ns = job->start_ns;
		run->end_ns = now;
		gpuprof_runs_next = (gpuprof_runs_next + 1) % GPUPROF_RUN_HISTORY;
	}
	if (job->pair)
		job->pair->pair = NULL;
	hash_del(&job->key.node);
	list_del(&job->link);
	kmem_cache_free(gpuprof_job_cache, job);
	gpuprof_nr_jobs--;
	next = gpuprof_ctx_head(ctx);
	if (was_head && next && next->kind == GPUPROF_JOB_FENCE &&
	    !next->start_ns)
		next->start_ns = now;
	gpuprof_ctx_put(ctx);
}

/* Fences that are not jobs: containers of other fences, and the stub. */
static bool gpuprof_fence_is_container(const char *driver)
{
	return !strcmp(driver, "dma_fence_chain") ||
	       !strcmp(driver, "dma_fence_array") || !strcmp(driver, "stub");
}

/**
 * DOC: drm_sched jobs
 *
 * drm_sched makes two fences per job when the job is armed, back to back
 * in the submitting task: "scheduled" on context c, then "finished" on
 * c + 1, with one lock (the job's own) and one seqno, both named
 * "drm_sched".  The finished fence is the job; the scheduled one signals
 * when drm_sched hands the job to the hardware ring.  A job is queued
 * from the finished fence's init to that signal, and runs from then to
 * the finished fence's signal; only the running phase is sampled and
 * takes OA reports.  Several jobs of one context can run at once when
 * the ring takes more than one.
 *
 * The halves are paired by what the fences say, not by order of arrival
 * (two CPUs can arm jobs at once): a drm_sched fence is kept as a half
 * until a drm_sched fence with the same lock, the same seqno and the next
 * context is initialised; that one is its job.  A drm_sched fence whose
 * partner was not seen (profiling started between the two inits) is no
 * job.
 */
static bool gpuprof_is_sched(const char *driver)
{
	return !strcmp(driver, "drm_sched");
}

static struct gpuprof_job *gpuprof_half_find(const struct dma_fence *fence)
{
	struct gpuprof_job *half;

	hash_for_each_possible(gpuprof_half_hash, half, half_node,
			       (unsigned long)fence->lock)
		if (half->lock == fence->lock && half->seqno == fence->seqno &&
		    half->context + 1 == fence->context)
			return half;
	return NULL;
}

/* A new job of @kind for @fence, in the job table.  NULL when full. */
static struct gpuprof_job *gpuprof_job_new(struct dma_fence *fence,
					   enum gpuprof_job_kind kind)
{
	struct gpuprof_job *job;

	if (gpuprof_nr_jobs >= GPUPROF_MAX_JOBS)
		return NULL;
	job = kmem_cache_zalloc(gpuprof_job_cache, GFP_ATOMIC | __GFP_NOWARN);
	if (!job)
		return NULL;
	job->kind = kind;
	job->lock = fence->lock;
	job->context = fence->context;
	job->seqno = fence->seqno;
	gpuprof_obj_add(gpuprof_job_hash, HASH_BITS(gpuprof_job_hash),
			&job->key, fence);
	gpuprof_nr_jobs++;
	return job;
}

/* Keep @fence as the scheduled half of a drm_sched job to come. */
static int gpuprof_half_add(struct dma_fence *fence)
{
	struct gpuprof_job *half;

	half = gpuprof_job_new(fence, GPUPROF_JOB_SCHED_HALF);
	if (!half)
		return -ENOMEM;
	hash_add(gpuprof_half_hash, &half->half_node,
		 (unsigned long)fence->lock);
	return 0;
}

/* @fence is a job of @kind on its context, owned by @owner; or NULL. */
static struct gpuprof_job *gpuprof_job_add(struct dma_fence *fence,
					   enum gpuprof_job_kind kind,
					   struct gpuprof_target *owner,
					   u32 timeline)
{
	struct gpuprof_job *job;
	struct gpuprof_ctx *ctx;

	ctx = gpuprof_ctx_get(fence->context);
	if (!ctx)
		return NULL;
	job = gpuprof_job_new(fence, kind);
	if (!job) {
		gpuprof_ctx_put(ctx);
		return NULL;
	}
	job->owner = owner;
	job->timeline = timeline;
	job->ctx = ctx;
	/*
	 * Alone on its context a plain fence runs now; else from the
	 * previous signal.  A drm_sched job is queued until its half says.
	 */
	if (kind == GPUPROF_JOB_FENCE && list_empty(&ctx->jobs))
		job->start_ns = ktime_get_ns();
	list_add_tail(&job->link, &ctx->jobs);
	return job;
}

static void gpuprof_fence_init_probe(void *data, struct dma_fence *fence)
{
	const char *driver = fence->ops->get_driver_name(fence);
	const char *timeline = fence->ops->get_timeline_name(fence);
	enum gpuprof_job_kind kind = GPUPROF_JOB_FENCE;
	struct gpuprof_target *owner;
	struct gpuprof_job *job, *half = NULL;
	unsigned long flags;
	int tl;

	if (gpuprof_fence_is_container(driver))
		return;
	spin_lock_irqsave(&gpuprof_data_lock, flags);
	if (gpuprof.mode != GPUPROF_TIME && gpuprof.mode != GPUPROF_COVERAGE)
		goto out;
	/* A recycled fence whose end we missed is a new job now. */
	job = gpuprof_job_find(fence);
	if (job)
		gpuprof_job_free(job);
	if (gpuprof_is_sched(driver)) {
		half = gpuprof_half_find(fence);
		if (!half) {
			if (gpuprof_half_add(fence))
				goto drop;
			goto out;
		}
		kind = GPUPROF_JOB_SCHED;
	}

	tl = gpuprof_timeline_id(driver, timeline);
	if (tl < 0)
		goto out;
	owner = gpuprof_current_target(&gpuprof_drops.unattributed_jobs);
	job = gpuprof_job_add(fence, kind, owner, tl);
	if (!job)
		goto drop;
	if (half) {
		hash_del(&half->half_node);
		half->pair = job;
		job->pair = half;
	}
out:
	spin_unlock_irqrestore(&gpuprof_data_lock, flags);
	return;
drop:
	atomic64_inc(&gpuprof_drops.jobs);
	spin_unlock_irqrestore(&gpuprof_data_lock, flags);
}

/* The scheduled half of a job signals: the job is on the ring from now. */
static void gpuprof_half_signaled(struct gpuprof_job *half)
{
	if (half->pair && !half->pair->start_ns)
		half->pair->start_ns = ktime_get_ns();
	gpuprof_half_free(half);
}

static void gpuprof_fence_signaled_probe(void *data, struct dma_fence *fence)
{
	struct gpuprof_job *job;
	unsigned long flags;

	spin_lock_irqsave(&gpuprof_data_lock, flags);
	job = gpuprof_job_find(fence);
	if (!job)
		goto out;
	if (job->kind == GPUPROF_JOB_SCHED_HALF) {
		gpuprof_half_signaled(job);
		goto out;
	}
	/*
	 * A job that ends counts in the interval it ends in, if it ran: a
	 * drm_sched job cancelled in its queue did not.
	 */
	if (job->owner && gpuprof.mode == GPUPROF_COVERAGE)
		gpuprof_target_hist_add(job->owner, job->timeline, 1, 0);
	else if (job->owner && gpuprof.mode == GPUPROF_TIME &&
		 (job->start_ns || job->kind == GPUPROF_JOB_FENCE))
		gpuprof_target_hist_add(job->owner, job->timeline, 1,
					gpuprof_tick + 1);
	gpuprof_job_free(job);
out:
	spin_unlock_irqrestore(&gpuprof_data_lock, flags);
}

static void gpuprof_fence_destroy_probe(void *data, struct dma_fence *fence)
{
	struct gpuprof_job *job;
	unsigned long flags;

	/*
	 * Most fences die signaled, and their job went at the signal: skip
	 * the lock.  One signaled before profiling started has no job either.
	 */
	if (test_bit(DMA_FENCE_FLAG_SIGNALED_BIT, &fence->flags))
		return;
	spin_lock_irqsave(&gpuprof_data_lock, flags);
	job = gpuprof_job_find(fence);
	if (job)
		gpuprof_job_free(job);
	spin_unlock_irqrestore(&gpuprof_data_lock, flags);
}

static enum hrtimer_restart gpuprof_timer_fn(struct hrtimer *timer)
{
	struct gpuprof_job *job;
	struct gpuprof_ctx *ctx;
	unsigned long flags;

	spin_lock_irqsave(&gpuprof_data_lock, flags);
	gpuprof_tick++;
	list_for_each_entry(ctx, &gpuprof_ctxs, link) {
		job = gpuprof_ctx_head(ctx);
		if (!job->start_ns)
			continue;
		for (; job; job = gpuprof_next_running(job))
			if (job->owner)
				gpuprof_target_hist_add(job->owner,
							job->timeline, 1,
							gpuprof_tick);
	}
	spin_unlock_irqrestore(&gpuprof_data_lock, flags);

	hrtimer_forward_now(timer, ms_to_ktime(READ_ONCE(gpuprof_timer_ms)));
	return HRTIMER_RESTART;
}

struct gpuprof_probe {
	const char *name;
	void *func;
	struct tracepoint *tp;
};

/*
 * The ends before the beginning: attached in this order and detached in
 * the reverse, no job is ever seen starting without its end being seen.
 */
static struct gpuprof_probe gpuprof_probes[] = {
	{ "dma_fence_signaled", gpuprof_fence_signaled_probe },
	{ "dma_fence_destroy", gpuprof_fence_destroy_probe },
	{ "dma_fence_init", gpuprof_fence_init_probe },
};

static void gpuprof_find_tracepoint(struct tracepoint *tp, void *priv)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(gpuprof_probes); i++)
		if (!strcmp(tp->name, gpuprof_probes[i].name))
			gpuprof_probes[i].tp = tp;
}

static void gpuprof_probes_unregister(size_t n)
{
	while (n--)
		tracepoint_probe_unregister(gpuprof_probes[n].tp,
					    gpuprof_probes[n].func, NULL);
	/* No probe runs once this returns: the tables may go. */
	tracepoint_synchronize_unregister();
}

/* Forget every job in flight: their ends would not be seen. */
static void gpuprof_jobs_free(void)
{
	struct gpuprof_job *job;
	struct hlist_node *tmp;
	int bkt;

	spin_lock_irq(&gpuprof_data_lock);
	hash_for_each_safe(gpuprof_job_hash, bkt, tmp, job, key.node)
		gpuprof_job_free(job);
	spin_unlock_irq(&gpuprof_data_lock);
}

/**
 * gpuprof_fence_start - attach the probes
 *
 * Called under gpuprof_lock with the mode still idle, so the probes do
 * nothing until gpuprof_fence_run() follows.
 */
int gpuprof_fence_start(void)
{
	size_t i;
	int err;

	for (i = 0; i < ARRAY_SIZE(gpuprof_probes); i++) {
		err = tracepoint_probe_register(gpuprof_probes[i].tp,
						gpuprof_probes[i].func, NULL);
		if (err) {
			gpuprof_probes_unregister(i);
			return err;
		}
	}
	return 0;
}

/* The mode is set: in time profiling, start sampling. */
void gpuprof_fence_run(void)
{
	if (gpuprof.mode != GPUPROF_TIME)
		return;
	WRITE_ONCE(gpuprof_timer_ms, gpuprof.interval_ms);
	hrtimer_start(&gpuprof_timer, ms_to_ktime(gpuprof_timer_ms),
		      HRTIMER_MODE_REL_SOFT);
}

/* Called under gpuprof_lock, once the mode is back to idle. */
void gpuprof_fence_stop(void)
{
	hrtimer_cancel(&gpuprof_timer);
	gpuprof_probes_unregister(ARRAY_SIZE(gpuprof_probes));
	gpuprof_jobs_free();
}

/* A new interval takes effect from the next tick on. */
void gpuprof_fence_set_interval(unsigned int ms)
{
	WRITE_ONCE(gpuprof_timer_ms, ms);
}

/* Jobs of ended targets are no one's now; called with the data lock held. */
void gpuprof_fence_disown_ended(void)
{
	struct gpuprof_job *job;
	int bkt, i;

	lockdep_assert_held(&gpuprof_data_lock);
	hash_for_each(gpuprof_job_hash, bkt, job, key.node)
		if (job->owner && READ_ONCE(job->owner->ended))
			job->owner = NULL;
	for (i = 0; i < GPUPROF_RUN_HISTORY; i++)
		if (gpuprof_runs[i].owner &&
		    READ_ONCE(gpuprof_runs[i].owner->ended))
			gpuprof_runs[i].owner = NULL;
}

static int gpuprof_add_unique(struct gpuprof_target **out, int n, int max,
			      struct gpuprof_target *t)
{
	int i;

	for (i = 0; i < n; i++)
		if (out[i] == t)
			return n;
	if (n < max)
		out[n++] = t;
	return n;
}

/**
 * gpuprof_targets_running_at - the targets with a job running at @t_ns
 * @t_ns: a CLOCK_MONOTONIC time, now or in the recent past
 * @out: the targets, each once
 * @max: room in @out
 * @alone: set when no job of no target was running too
 *
 * Called with the data lock held.  Looks at the jobs running now and at
 * the history of ended ones.  Return: the number of targets in @out.
 */
int gpuprof_targets_running_at(u64 t_ns, struct gpuprof_target **out,
			       int max, bool *alone)
{
	struct gpuprof_job *job;
	struct gpuprof_ctx *ctx;
	struct gpuprof_run *run;
	int n = 0, others = 0;
	u32 i, idx;

	lockdep_assert_held(&gpuprof_data_lock);
	list_for_each_entry(ctx, &gpuprof_ctxs, link) {
		job = gpuprof_ctx_head(ctx);
		if (!job->start_ns)
			continue;
		for (; job; job = gpuprof_next_running(job)) {
			if (job->start_ns > t_ns)
				continue;
			if (job->owner)
				n = gpuprof_add_unique(out, n, max, job->owner);
			else
				others++;
		}
	}
	/* Newest first: runs end in order, so stop at one that ended before. */
	for (i = 1; i <= GPUPROF_RUN_HISTORY; i++) {
		idx = (gpuprof_runs_next + GPUPROF_RUN_HISTORY - i) %
		      GPUPROF_RUN_HISTORY;
		run = &gpuprof_runs[idx];
		if (!run->end_ns || run->end_ns < t_ns)
			break;
		if (run->owner && run->start_ns <= t_ns)
			n = gpuprof_add_unique(out, n, max, run->owner);
	}
	/* Ended jobs of no target are not kept: "alone" is as of now. */
	*alone = !others;
	return n;
}

u32 gpuprof_jobs_in_flight(void)
{
	return READ_ONCE(gpuprof_nr_jobs);
}

int gpuprof_fence_init(void)
{
	size_t i;

	for_each_kernel_tracepoint(gpuprof_find_tracepoint, NULL);
	for (i = 0; i < ARRAY_SIZE(gpuprof_probes); i++) {
		if (!gpuprof_probes[i].tp) {
			pr_err("gpuprof: no tracepoint %s\n",
			       gpuprof_probes[i].name);
			return -ENOENT;
		}
	}
	gpuprof_job_cache = KMEM_CACHE(gpuprof_job, 0);
	gpuprof_ctx_cache = KMEM_CACHE(gpuprof_ctx, 0);
	if (!gpuprof_job_cache || !gpuprof_ctx_cache) {
		kmem_cache_destroy(gpuprof_ctx_cache);
		kmem_cache_destroy(gpuprof_job_cache);
		return -ENOMEM;
	}
	gpuprof_hrtimer_setup(&gpuprof_timer, gpuprof_timer_fn, CLOCK_MONOTONIC,
			      HRTIMER_MODE_REL_SOFT);
	return 0;
}

void gpuprof_fence_exit(void)
{
	kmem_cache_destroy(gpuprof_ctx_cache);
	kmem_cache_destroy(gpuprof_job_cache);
}
