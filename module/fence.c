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
 * Contexts are kept in a table with a lock per bucket (table.c), and a
 * fence's job is found on its context's list, at the head when fences
 * signal in order: a probe takes its context's bucket lock and no lock
 * shared with other contexts (design.rst 3.7).  Both ends of a fence are
 * probed before its init, and dma_fence_release() always fires
 * dma_fence_destroy, so a fence's memory is not initialised again while
 * a job of it is kept.
 *
 * Jobs, and the history of runs kept for OA attribution, point at their
 * target without a reference: when targets end, ctl.c has them let go
 * (gpuprof_fence_disown_ended()).
 */

/**
 * DOC: Time and coverage samples
 *
 * Time profiling counts, at the end of each sampling interval, one sample
 * for every (target, timeline) with a job running at that instant, as a
 * CPU profiler's tick samples what runs: a job of length L gets L/I
 * samples on average, whatever its phase, so a histogram estimates busy
 * time without bias.  The tick takes the jobs running on every context;
 * a signal takes the instants its job spanned that the tick's walk has
 * not reached (a late timer, a bucket still to walk).  Coverage
 * profiling counts signaled jobs (design.rst 3.4 and 10.1).
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

/*
 * The jobs of one fence context.  drm_sched's scheduled halves wait in
 * the context of their job (their own context + 1), so a job and its half
 * are under one bucket lock.
 */
struct gpuprof_ctx {
	struct hlist_node node;		/* in its bucket of gpuprof_ctxs */
	struct list_head jobs;		/* in flight, oldest first */
	struct list_head halves;	/* drm_sched halves, not signaled */
	u64 context;
	bool emits;			/* its driver numbers fences at emit */
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
	struct list_head link;		/* in ctx->jobs, a half in ->halves */
	const struct dma_fence *fence;	/* a key only, never dereferenced */
	struct gpuprof_target *owner;	/* NULL: no target's */
	enum gpuprof_job_kind kind;
	u32 timeline;
	u64 start_ns;			/* running since, 0 while not */
	/* drm_sched: a job and its scheduled half point at each other */
	struct gpuprof_job *pair;
	const spinlock_t *lock;		/* compared, never taken */
	u64 seqno;
	bool emitted;			/* dma_fence_emit seen */
};

/*
 * Running intervals of ended jobs, so OA reports that arrive after the
 * job ended are still attributed (design.rst 5.3): one ring per CPU,
 * each in the order its CPU ended them, oldest first.
 */
struct gpuprof_run {
	struct gpuprof_target *owner;
	u64 start_ns;
	u64 end_ns;
};

#define GPUPROF_RUN_HISTORY 4096

struct gpuprof_run_ring {
	spinlock_t lock;	/* its CPU's writes against others' walks */
	u32 next;		/* where the next run goes */
	u64 last_end_ns;	/* the newest run's end */
	struct gpuprof_run run[GPUPROF_RUN_HISTORY];
};

static struct gpuprof_run_ring **gpuprof_rings;	/* by CPU */

#define GPUPROF_CTX_BITS 10

static struct kmem_cache *gpuprof_job_cache;
static struct kmem_cache *gpuprof_ctx_cache;
static struct gpuprof_table gpuprof_ctxs;	/* by fence context */
static atomic_t gpuprof_nr_jobs = ATOMIC_INIT(0);

/* Sampling: intervals ended so far; the one in progress is tick + 1. */
static struct hrtimer gpuprof_timer;
static u64 gpuprof_tick;
static unsigned int gpuprof_timer_ms;

/*
 * The sampling grid at tick T: interval T ended at @end_ns, and interval
 * k at @end_ns + (k - T) * @interval_ns around it.  By tick % 4, written
 * before the tick is published.
 */
struct gpuprof_grid {
	u64 end_ns;
	u64 interval_ns;
};

static struct gpuprof_grid gpuprof_grids[4];

/* A job counts in at most this many intervals at once (a stalled VM). */
#define GPUPROF_MAX_CATCH_UP 64

static struct gpuprof_ctx *gpuprof_ctx_find(struct gpuprof_bucket *b,
					    u64 context)
{
	struct gpuprof_ctx *ctx;

	hlist_for_each_entry(ctx, &b->head, node)
		if (ctx->context == context)
			return ctx;
	return NULL;
}

/* The context @context in its bucket @b, made if new; NULL if no memory. */
static struct gpuprof_ctx *gpuprof_ctx_get(struct gpuprof_bucket *b,
					   u64 context)
{
	struct gpuprof_ctx *ctx = gpuprof_ctx_find(b, context);

	if (ctx)
		return ctx;
	ctx = kmem_cache_alloc(gpuprof_ctx_cache, GFP_ATOMIC | __GFP_NOWARN);
	if (!ctx)
		return NULL;
	ctx->context = context;
	ctx->emits = false;
	INIT_LIST_HEAD(&ctx->jobs);
	INIT_LIST_HEAD(&ctx->halves);
	hlist_add_head(&ctx->node, &b->head);
	gpuprof_table_update(&gpuprof_ctxs, b);
	return ctx;
}

/* @ctx goes when nothing of it is left. */
static void gpuprof_ctx_put(struct gpuprof_bucket *b, struct gpuprof_ctx *ctx)
{
	if (!list_empty(&ctx->jobs) || !list_empty(&ctx->halves))
		return;
	hlist_del(&ctx->node);
	gpuprof_table_update(&gpuprof_ctxs, b);
	kmem_cache_free(gpuprof_ctx_cache, ctx);
}

/* The job or half of @fence in @list, or NULL: the oldest comes first. */
static struct gpuprof_job *gpuprof_job_find(struct list_head *list,
					    const struct dma_fence *fence)
{
	struct gpuprof_job *job;

	list_for_each_entry(job, list, link)
		if (job->fence == fence)
			return job;
	return NULL;
}

/* The first job of @ctx, or NULL. */
static struct gpuprof_job *gpuprof_ctx_head(struct gpuprof_ctx *ctx)
{
	return list_first_entry_or_null(&ctx->jobs, struct gpuprof_job, link);
}

/*
 * The running job after @job on @ctx, or NULL.  Jobs run in order, so
 * the running ones lead the list, each with a start; on a context whose
 * fences are numbered at emit, they run in the order of their emits,
 * and a job initialised earlier and not emitted yet (a page flip's
 * fence) may stand before them.
 */
static struct gpuprof_job *gpuprof_next_running(struct gpuprof_ctx *ctx,
						struct gpuprof_job *job)
{
	while (!list_is_last(&job->link, &ctx->jobs)) {
		job = list_next_entry(job, link);
		if (job->start_ns)
			return job;
		if (!ctx->emits)
			return NULL;
	}
	return NULL;
}

/* The first running job of @ctx, or NULL. */
static struct gpuprof_job *gpuprof_first_running(struct gpuprof_ctx *ctx)
{
	struct gpuprof_job *job = gpuprof_ctx_head(ctx);

	if (!job || job->start_ns)
		return job;
	return ctx->emits ? gpuprof_next_running(ctx, job) : NULL;
}

/*
 * The job of @ctx to run next when the running one ends: the head, or on
 * a context numbered at emit the oldest job emitted, if it has no start.
 */
static struct gpuprof_job *gpuprof_next_to_run(struct gpuprof_ctx *ctx)
{
	struct gpuprof_job *job;

	list_for_each_entry(job, &ctx->jobs, link) {
		if (job->kind != GPUPROF_JOB_FENCE || job->start_ns)
			return NULL;
		if (!ctx->emits || job->emitted)
			return job;
	}
	return NULL;
}

/* A new job of @kind for @fence.  NULL when the table is full. */
static struct gpuprof_job *gpuprof_job_new(struct dma_fence *fence,
					   enum gpuprof_job_kind kind)
{
	struct gpuprof_job *job;

	if (atomic_inc_return(&gpuprof_nr_jobs) > GPUPROF_MAX_JOBS)
		goto full;
	job = kmem_cache_zalloc(gpuprof_job_cache, GFP_ATOMIC | __GFP_NOWARN);
	if (!job)
		goto full;
	job->fence = fence;
	job->kind = kind;
	job->lock = gpuprof_fence_lock(fence);
	job->seqno = fence->seqno;
	return job;

full:
	atomic_dec(&gpuprof_nr_jobs);
	return NULL;
}

/* Free @job, off every list already. */
static void gpuprof_job_release(struct gpuprof_job *job)
{
	kmem_cache_free(gpuprof_job_cache, job);
	atomic_dec(&gpuprof_nr_jobs);
}

/* A half goes; its job, if any, no longer waits for its signal. */
static void gpuprof_half_free(struct gpuprof_job *half)
{
	if (half->pair)
		half->pair->pair = NULL;
	list_del(&half->link);
	gpuprof_job_release(half);
}

/* Keep the run of a job ending now, in the ring of this CPU. */
static void gpuprof_run_add(struct gpuprof_target *owner, u64 start_ns,
			    u64 end_ns)
{
	struct gpuprof_run_ring *ring = gpuprof_rings[smp_processor_id()];
	struct gpuprof_run *run;

	/*
	 * A CPU's runs are kept in order of their end, which the walks
	 * rely on: interrupts are off, and a driver's signal time that is
	 * earlier than the last run's end is taken as that end.
	 */
	spin_lock(&ring->lock);
	end_ns = max(end_ns, ring->last_end_ns);
	ring->last_end_ns = end_ns;
	run = &ring->run[ring->next];
	run->owner = owner;
	run->start_ns = start_ns;
	run->end_ns = end_ns;
	ring->next = (ring->next + 1) % GPUPROF_RUN_HISTORY;
	spin_unlock(&ring->lock);
}

/*
 * Forget @job of @ctx, which ends at @now; a running one goes to the
 * history, and the next job of its context, if it is a plain fence, runs
 * from then (a drm_sched job runs from its own scheduled signal).  @b's
 * lock held.
 */
static void gpuprof_job_free(struct gpuprof_bucket *b, struct gpuprof_ctx *ctx,
			     struct gpuprof_job *job, u64 now)
{
	bool was_running = gpuprof_ctx_head(ctx) == job ||
			   gpuprof_first_running(ctx) == job;
	struct gpuprof_job *next;

	if (job->start_ns && job->owner)
		gpuprof_run_add(job->owner, job->start_ns, now);
	if (job->pair)
		job->pair->pair = NULL;
	list_del(&job->link);
	gpuprof_job_release(job);
	next = was_running ? gpuprof_next_to_run(ctx) : NULL;
	if (next)
		next->start_ns = now;
	gpuprof_ctx_put(b, ctx);
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
 * job.  Halves wait with the jobs of context c + 1, under one lock.  The
 * fence the driver's run_job makes for the ring is no second job
 * (sched.c, "The hardware fence of a drm_sched job").
 */
static bool gpuprof_is_sched(const char *driver)
{
	return !strcmp(driver, "drm_sched");
}

/* The unpaired half in @ctx that @fence, of @ctx's context, finishes. */
static struct gpuprof_job *gpuprof_half_find(struct gpuprof_ctx *ctx,
					     const struct dma_fence *fence)
{
	struct gpuprof_job *half;

	list_for_each_entry(half, &ctx->halves, link)
		if (!half->pair && half->lock == gpuprof_fence_lock(fence) &&
		    half->seqno == fence->seqno)
			return half;
	return NULL;
}

/*
 * Whether drm_sched's @fence finishes a job whose scheduled half is kept:
 * if not, it is the scheduled half of a job to come.
 */
static bool gpuprof_sched_finishes(struct dma_fence *fence)
{
	struct gpuprof_bucket *b;
	struct gpuprof_ctx *ctx;
	unsigned long flags;
	bool found;

	b = gpuprof_table_bucket(&gpuprof_ctxs, fence->context);
	spin_lock_irqsave(&b->lock, flags);
	ctx = gpuprof_ctx_find(b, fence->context);
	found = ctx && gpuprof_half_find(ctx, fence);
	spin_unlock_irqrestore(&b->lock, flags);
	return found;
}

/* Keep @fence as the scheduled half of a drm_sched job to come. */
static void gpuprof_half_add(struct dma_fence *fence)
{
	struct gpuprof_bucket *b;
	struct gpuprof_job *half;
	struct gpuprof_ctx *ctx;
	unsigned long flags;

	b = gpuprof_table_bucket(&gpuprof_ctxs, fence->context + 1);
	spin_lock_irqsave(&b->lock, flags);
	ctx = gpuprof_ctx_get(b, fence->context + 1);
	half = ctx ? gpuprof_job_new(fence, GPUPROF_JOB_SCHED_HALF) : NULL;
	if (half)
		list_add_tail(&half->link, &ctx->halves);
	else if (ctx)
		gpuprof_ctx_put(b, ctx);
	spin_unlock_irqrestore(&b->lock, flags);
	if (!half)
		atomic64_inc(&gpuprof_drops.jobs);
}

/* @fence is a job of @kind on its context, owned by @owner. */
static void gpuprof_job_add(struct dma_fence *fence, enum gpuprof_job_kind kind,
			    struct gpuprof_target *owner, u32 timeline)
{
	struct gpuprof_job *job = NULL, *half;
	struct gpuprof_bucket *b;
	struct gpuprof_ctx *ctx;
	unsigned long flags;

	b = gpuprof_table_bucket(&gpuprof_ctxs, fence->context);
	spin_lock_irqsave(&b->lock, flags);
	ctx = gpuprof_ctx_get(b, fence->context);
	if (!ctx)
		goto out;
	job = gpuprof_job_new(fence, kind);
	if (!job) {
		gpuprof_ctx_put(b, ctx);
		goto out;
	}
	job->owner = owner;
	job->timeline = timeline;
	if (kind == GPUPROF_JOB_FENCE &&
	    gpuprof_timeline_numbering(timeline) == GPUPROF_NUMBERED_AT_EMIT)
		ctx->emits = true;
	/*
	 * Alone on its context a plain fence runs now; else from the
	 * previous signal.  A drm_sched job is queued until its half says,
	 * a fence numbered at emit until its emit.
	 */
	if (kind == GPUPROF_JOB_FENCE && list_empty(&ctx->jobs) && !ctx->emits)
		job->start_ns = ktime_get_ns();
	half = kind == GPUPROF_JOB_SCHED ? gpuprof_half_find(ctx, fence) : NULL;
	if (half) {
		half->pair = job;
		job->pair = half;
	}
	list_add_tail(&job->link, &ctx->jobs);
out:
	spin_unlock_irqrestore(&b->lock, flags);
	if (!job)
		atomic64_inc(&gpuprof_drops.jobs);
}

/*
 * The workers inside a driver's run_job, as sched.c notes them ("The
 * hardware fence of a drm_sched job" there): the fences they initialise
 * meanwhile are that job's, not jobs of their own.  Kept here, below
 * sched.c, as the probes read it.
 */
#define GPUPROF_FENCE_HANDING	16

/* A worker inside run_job for the job whose finished fence is named. */
struct gpuprof_handing {
	struct task_struct *task;	/* NULL: a free slot */
	u64 context;
	u64 seqno;
};

static struct gpuprof_handing gpuprof_handing[GPUPROF_FENCE_HANDING];
static DEFINE_SPINLOCK(gpuprof_handing_lock);
static atomic_t gpuprof_nr_handing = ATOMIC_INIT(0);

/* current's slot, or else a free one if @free; NULL.  Handing lock held. */
static struct gpuprof_handing *gpuprof_handing_slot(bool free)
{
	struct gpuprof_handing *h, *empty = NULL;

	for (h = gpuprof_handing; h < gpuprof_handing + GPUPROF_FENCE_HANDING;
	     h++) {
		if (h->task == current)
			return h;
		if (!h->task && !empty)
			empty = h;
	}
	return free ? empty : NULL;
}

/* sched.c: current hands the job finished by @finished to run_job. */
void gpuprof_fence_handing_begin(const struct dma_fence *finished)
{
	struct gpuprof_handing *h;
	unsigned long flags;

	spin_lock_irqsave(&gpuprof_handing_lock, flags);
	h = gpuprof_handing_slot(true);
	if (h) {
		if (!h->task)
			atomic_inc(&gpuprof_nr_handing);
		h->task = current;
		h->context = finished->context;
		h->seqno = finished->seqno;
	}
	spin_unlock_irqrestore(&gpuprof_handing_lock, flags);
}

/*
 * Whether @fence, not drm_sched's and being initialised, is the hardware
 * fence of the drm_sched job current hands to run_job: the init probe
 * then leaves it alone.
 */
static bool gpuprof_fence_is_handed(const struct dma_fence *fence)
{
	unsigned long flags;
	bool found;

	if (!atomic_read(&gpuprof_nr_handing))
		return false;
	spin_lock_irqsave(&gpuprof_handing_lock, flags);
	found = gpuprof_handing_slot(false);
	spin_unlock_irqrestore(&gpuprof_handing_lock, flags);
	return found;
}

/*
 * @fence signals: if it is the scheduled fence of the job current hands
 * over, run_job is done.  From the signal probe.
 */
static void gpuprof_fence_handed(const struct dma_fence *fence)
{
	struct gpuprof_handing *h;
	unsigned long flags;

	if (!atomic_read(&gpuprof_nr_handing))
		return;
	spin_lock_irqsave(&gpuprof_handing_lock, flags);
	h = gpuprof_handing_slot(false);
	if (h && fence->context + 1 == h->context && fence->seqno == h->seqno) {
		h->task = NULL;
		atomic_dec(&gpuprof_nr_handing);
	}
	spin_unlock_irqrestore(&gpuprof_handing_lock, flags);
}

/* sched.c: no worker is noted any more (stop, an unload). */
void gpuprof_fence_handing_clear(void)
{
	spin_lock_irq(&gpuprof_handing_lock);
	memset(gpuprof_handing, 0, sizeof(gpuprof_handing));
	atomic_set(&gpuprof_nr_handing, 0);
	spin_unlock_irq(&gpuprof_handing_lock);
}

/*
 * Set while sched.c takes drm_sched jobs from the scheduler's stable
 * events: drm_sched's fences are then none of the init probe's.
 */
static bool gpuprof_sched_events;

void gpuprof_fence_take_sched(bool events)
{
	WRITE_ONCE(gpuprof_sched_events, events);
}

/* sched.c: drm_sched queues the job whose finished fence is @fence. */
void gpuprof_fence_sched_queued(struct dma_fence *fence,
				struct gpuprof_target *owner)
{
	int tl = gpuprof_timeline_id(fence->ops->get_driver_name(fence),
				     fence->ops->get_timeline_name(fence));

	if (tl < 0)
		return;
	gpuprof_timeline_used(tl);
	gpuprof_job_add(fence, GPUPROF_JOB_SCHED, owner, tl);
}

/* sched.c: the job whose finished fence is @fence goes to the hardware. */
void gpuprof_fence_sched_runs(struct dma_fence *fence)
{
	struct gpuprof_bucket *b;
	struct gpuprof_job *job;
	struct gpuprof_ctx *ctx;
	unsigned long flags;

	b = gpuprof_table_bucket(&gpuprof_ctxs, fence->context);
	spin_lock_irqsave(&b->lock, flags);
	ctx = gpuprof_ctx_find(b, fence->context);
	job = ctx ? gpuprof_job_find(&ctx->jobs, fence) : NULL;
	if (job && !job->start_ns)
		job->start_ns = ktime_get_ns();
	spin_unlock_irqrestore(&b->lock, flags);
}

/*
 * The submitting task's process and the timeline are looked up before
 * any bucket lock is taken: a process not seen before takes the data
 * lock (client.c), which nests outside bucket locks.
 */
static void gpuprof_fence_init_probe(void *data, struct dma_fence *fence)
{
	const char *driver = fence->ops->get_driver_name(fence);
	enum gpuprof_mode mode = READ_ONCE(gpuprof.mode);
	enum gpuprof_job_kind kind = GPUPROF_JOB_FENCE;
	struct gpuprof_target *owner;
	int tl;

	if (mode != GPUPROF_TIME && mode != GPUPROF_COVERAGE)
		return;
	if (gpuprof_fence_is_container(driver))
		return;
	if (gpuprof_is_sched(driver)) {
		if (READ_ONCE(gpuprof_sched_events))
			return;
		if (!gpuprof_sched_finishes(fence)) {
			gpuprof_half_add(fence);
			return;
		}
		kind = GPUPROF_JOB_SCHED;
	} else if (gpuprof_fence_is_handed(fence)) {
		/* run_job's: its drm_sched job is counted (sched.c). */
		return;
	}
	tl = gpuprof_timeline_id(driver, fence->ops->get_timeline_name(fence));
	if (tl < 0)
		return;
	gpuprof_timeline_used(tl);
	owner = gpuprof_current_target(&gpuprof_drops.unattributed_jobs);
	gpuprof_job_add(fence, kind, owner, tl);
}

/* The scheduled half of a job signals at @now: the job is on the ring. */
static void gpuprof_half_signaled(struct gpuprof_job *half, u64 now)
{
	if (half->pair && !half->pair->start_ns)
		half->pair->start_ns = now;
	gpuprof_half_free(half);
}

/* The interval of the grid @g of tick @tick that time @t falls in. */
static u64 gpuprof_interval_of(const struct gpuprof_grid *g, u64 tick, u64 t)
{
	if (t > g->end_ns)
		return tick + div64_u64(t - g->end_ns + g->interval_ns - 1,
					g->interval_ns);
	return tick - min(tick, div64_u64(g->end_ns - t, g->interval_ns));
}

/*
 * Samples of @job, running since @start, at the ends of intervals @from
 * to @to: one at each end it ran at, at most GPUPROF_MAX_CATCH_UP.  A key
 * takes one sample per interval however often it is asked.
 */
static void gpuprof_job_sample_range(struct gpuprof_job *job,
				     const struct gpuprof_grid *g, u64 tick,
				     u64 start, u64 from, u64 to)
{
	u64 k = max(from, gpuprof_interval_of(g, tick, start));

	if (to >= GPUPROF_MAX_CATCH_UP)
		k = max(k, to - GPUPROF_MAX_CATCH_UP + 1);
	for (; k <= to; k++)
		gpuprof_target_hist_add(job->owner, job->timeline, 1, k);
}

/*
 * The time samples of a job ending at @now: one at every interval's end
 * from its start to @now, by the grid, since the timer may be late (a
 * loaded VM) and its walk may not have reached the job's bucket yet
 * (design.rst 3.7).  A job between two ends has none.
 */
static void gpuprof_job_time_sample(struct gpuprof_job *job, u64 now)
{
	struct gpuprof_grid g;
	u64 tick, last;

	/* Pairs with the release in gpuprof_timer_fn(): the tick's grid. */
	tick = smp_load_acquire(&gpuprof_tick);
	g.end_ns = READ_ONCE(gpuprof_grids[tick % 4].end_ns);
	g.interval_ns = READ_ONCE(gpuprof_grids[tick % 4].interval_ns);
	if (!g.interval_ns)
		return;
	/* Interval @last ends at or after @now: not passed yet. */
	last = gpuprof_interval_of(&g, tick, now);
	if (last > 1)
		gpuprof_job_sample_range(job, &g, tick, job->start_ns ?: now,
					 1, last - 1);
}

/* A job ends by its signal, at @now. */
static void gpuprof_job_signaled(struct gpuprof_bucket *b,
				 struct gpuprof_ctx *ctx,
				 struct gpuprof_job *job, u64 now)
{
	enum gpuprof_mode mode = READ_ONCE(gpuprof.mode);

	if (job->kind == GPUPROF_JOB_FENCE && !job->emitted)
		gpuprof_timeline_numbered(job->timeline,
					  GPUPROF_NUMBERED_AT_INIT);
	/* If it ran: a drm_sched job cancelled in its queue did not. */
	if (job->owner && mode == GPUPROF_COVERAGE)
		gpuprof_target_hist_add(job->owner, job->timeline, 1, 0);
	else if (job->owner && mode == GPUPROF_TIME &&
		 (job->start_ns || job->kind == GPUPROF_JOB_FENCE))
		gpuprof_job_time_sample(job, now);
	gpuprof_job_free(b, ctx, job, now);
}

/*
 * @fence ends, by its signal (@signaled) or destroyed unsignaled: find
 * its job on its context, or its half on the next one.
 */
static void gpuprof_fence_end(struct dma_fence *fence, bool signaled)
{
	struct gpuprof_bucket *b;
	struct gpuprof_job *job;
	struct gpuprof_ctx *ctx;
	unsigned long flags;
	u64 now;

	/*
	 * A fence is given its signal time, CLOCK_MONOTONIC, before the
	 * tracepoint fires: one clock read fewer per job (an HPET read costs
	 * microseconds in the test VM), and the driver's own time when it
	 * gives one.
	 */
	if (signaled && test_bit(DMA_FENCE_FLAG_TIMESTAMP_BIT, &fence->flags))
		now = ktime_to_ns(fence->timestamp);
	else
		now = ktime_get_ns();

	b = gpuprof_table_bucket(&gpuprof_ctxs, fence->context);
	spin_lock_irqsave(&b->lock, flags);
	ctx = gpuprof_ctx_find(b, fence->context);
	job = ctx ? gpuprof_job_find(&ctx->jobs, fence) : NULL;
	if (job && signaled)
		gpuprof_job_signaled(b, ctx, job, now);
	else if (job)
		gpuprof_job_free(b, ctx, job, now);
	spin_unlock_irqrestore(&b->lock, flags);
	if (job)
		return;

	b = gpuprof_table_bucket(&gpuprof_ctxs, fence->context + 1);
	spin_lock_irqsave(&b->lock, flags);
	ctx = gpuprof_ctx_find(b, fence->context + 1);
	job = ctx ? gpuprof_job_find(&ctx->halves, fence) : NULL;
	if (job) {
		if (signaled)
			gpuprof_half_signaled(job, now);
		else
			gpuprof_half_free(job);
		gpuprof_ctx_put(b, ctx);
	}
	spin_unlock_irqrestore(&b->lock, flags);
}

/**
 * DOC: Fences numbered at emit
 *
 * virtio_gpu initialises a fence with seqno 0 when it builds a command
 * and numbers it at dma_fence_emit, when it queues the command to the
 * host; a page flip's fence is initialised in the committing task and
 * emitted by the commit's worker a frame later.  Such a fence is queued
 * from its init to its emit and runs from max(its emit, the previous
 * emitted job's signal): its context is marked at the first emit seen,
 * and from then on its jobs run in the order of their emits.  The probe
 * has the fence itself, so the job is found by its address whatever the
 * seqno says (design.rst 3.3).
 *
 * A context is forgotten when its last job ends, so the timeline keeps
 * what was learned (timeline.c): numbered at emit once one of its fences
 * is emitted, at init once one signals without.  Until then a fence
 * alone on a new context is taken to run from its init, for the jobs
 * listing and OA, but the tick's walk does not sample it before its
 * emit: its emit restarts it, or its signal samples the run from its
 * init.  Without that, the first job after every idle stretch of
 * kmscube on virtio_gpu counted from its init, tens of ms early on the
 * debug kernels (testing.rst, "Real programs").
 */
static void gpuprof_fence_emit_probe(void *data, struct dma_fence *fence)
{
	enum gpuprof_mode mode = READ_ONCE(gpuprof.mode);
	struct gpuprof_bucket *b;
	struct gpuprof_job *job;
	struct gpuprof_ctx *ctx;
	unsigned long flags;

	if (mode != GPUPROF_TIME && mode != GPUPROF_COVERAGE)
		return;
	b = gpuprof_table_bucket(&gpuprof_ctxs, fence->context);
	spin_lock_irqsave(&b->lock, flags);
	ctx = gpuprof_ctx_find(b, fence->context);
	job = ctx ? gpuprof_job_find(&ctx->jobs, fence) : NULL;
	if (job && job->kind == GPUPROF_JOB_FENCE && !job->emitted) {
		struct gpuprof_job *running = gpuprof_first_running(ctx);

		ctx->emits = true;
		job->emitted = true;
		gpuprof_timeline_numbered(job->timeline,
					  GPUPROF_NUMBERED_AT_EMIT);
		/* Running alone, or started at its init before ctx was known. */
		if (!running || running == job)
			job->start_ns = ktime_get_ns();
	}
	spin_unlock_irqrestore(&b->lock, flags);
}

static void gpuprof_fence_signaled_probe(void *data, struct dma_fence *fence)
{
	gpuprof_fence_end(fence, true);
	gpuprof_fence_handed(fence);
}

static void gpuprof_fence_destroy_probe(void *data, struct dma_fence *fence)
{
	/*
	 * Most fences die signaled, and their job went at the signal: skip
	 * the lookup.  One signaled before profiling started has no job
	 * either.
	 */
	if (test_bit(DMA_FENCE_FLAG_SIGNALED_BIT, &fence->flags))
		return;
	gpuprof_fence_end(fence, false);
}

struct gpuprof_ctxs_walk {
	void (*fn)(struct gpuprof_ctx *ctx, void *arg);
	void *arg;
};

static void gpuprof_ctxs_walk_bucket(struct gpuprof_bucket *b, void *arg)
{
	struct gpuprof_ctxs_walk *w = arg;
	struct gpuprof_ctx *ctx;

	hlist_for_each_entry(ctx, &b->head, node)
		w->fn(ctx, w->arg);
}

/* Call @fn on every context, under its bucket's lock. */
static void gpuprof_ctxs_walk(void (*fn)(struct gpuprof_ctx *ctx, void *arg),
			      void *arg)
{
	struct gpuprof_ctxs_walk w = { .fn = fn, .arg = arg };

	gpuprof_table_walk(&gpuprof_ctxs, gpuprof_ctxs_walk_bucket, &w);
}

/* The intervals a tick ended: @from to @to, on grid @g. */
struct gpuprof_tick_walk {
	struct gpuprof_grid g;
	u64 from, to;
};

/*
 * May the tick's walk sample @job?  Not a plain fence not emitted on a
 * timeline not known yet to number at init: it may be waiting for its
 * emit, and if it signals instead, its signal samples its run.
 */
static bool gpuprof_job_walk_samples(const struct gpuprof_job *job)
{
	return job->kind != GPUPROF_JOB_FENCE || job->emitted ||
	       gpuprof_timeline_numbering(job->timeline) ==
	       GPUPROF_NUMBERED_AT_INIT;
}

/*
 * A sample in each interval the tick ended for each job of @ctx running
 * then (several when the timer came late): the walk reaches @ctx some
 * time after the tick.
 */
static void gpuprof_ctx_sample(struct gpuprof_ctx *ctx, void *arg)
{
	struct gpuprof_tick_walk *w = arg;
	struct gpuprof_job *job;

	for (job = gpuprof_first_running(ctx); job;
	     job = gpuprof_next_running(ctx, job))
		if (job->owner && job->start_ns <= w->g.end_ns &&
		    gpuprof_job_walk_samples(job))
			gpuprof_job_sample_range(job, &w->g, w->to,
						 job->start_ns, w->from, w->to);
}

/*
 * A tick ends the intervals since the last one: one, or more when the
 * timer came later than an interval (hrtimer_forward_now() says how
 * many), each on the grid of the timer's expiry times.
 */
static enum hrtimer_restart gpuprof_timer_fn(struct hrtimer *timer)
{
	unsigned int ms = READ_ONCE(gpuprof_timer_ms);
	u64 end = ktime_to_ns(hrtimer_get_expires(timer));
	u64 n = hrtimer_forward_now(timer, ms_to_ktime(ms));
	struct gpuprof_tick_walk w;
	struct gpuprof_grid *g;

	w.from = gpuprof_tick + 1;
	w.to = gpuprof_tick + max_t(u64, n, 1);
	w.g.interval_ns = (u64)ms * NSEC_PER_MSEC;
	w.g.end_ns = end + (w.to - w.from) * w.g.interval_ns;
	g = &gpuprof_grids[w.to % 4];
	WRITE_ONCE(g->end_ns, w.g.end_ns);
	WRITE_ONCE(g->interval_ns, w.g.interval_ns);
	/* Pairs with the acquire in gpuprof_job_time_sample(). */
	smp_store_release(&gpuprof_tick, w.to);
	gpuprof_ctxs_walk(gpuprof_ctx_sample, &w);
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
	{ "dma_fence_emit", gpuprof_fence_emit_probe },
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

/* @ctx ends, each job as if signaled @now, the last one taking @ctx. */
static void gpuprof_ctx_end(struct gpuprof_bucket *b, struct gpuprof_ctx *ctx,
			    u64 now)
{
	struct gpuprof_job *job, *tmp;

	list_for_each_entry_safe(job, tmp, &ctx->halves, link)
		gpuprof_half_free(job);
	while ((job = gpuprof_ctx_head(ctx)) && !list_is_singular(&ctx->jobs))
		gpuprof_job_free(b, ctx, job, now);
	if (job)
		gpuprof_job_free(b, ctx, job, now);
	else
		gpuprof_ctx_put(b, ctx);
}

/* Forget every job in flight: their ends would not be seen. */
static void gpuprof_jobs_free(void)
{
	u64 now = ktime_get_ns();
	struct gpuprof_bucket *b;
	struct gpuprof_ctx *ctx;
	struct hlist_node *tmp;
	u32 i;

	for (i = 0; i < 1U << gpuprof_ctxs.bits; i++) {
		b = &gpuprof_ctxs.bucket[i];
		spin_lock_irq(&b->lock);
		hlist_for_each_entry_safe(ctx, tmp, &b->head, node)
			gpuprof_ctx_end(b, ctx, now);
		spin_unlock_irq(&b->lock);
	}
}

/**
 * gpuprof_fence_start - attach the probes
 *
 * Called under gpuprof_lock with the mode still idle, so the probes do
 * nothing until gpuprof_fence_run() follows.
 *
 * Return: 0, or -errno when a probe cannot be attached.
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
	/* The grid starts now: interval tick + 1 ends an interval later. */
	WRITE_ONCE(gpuprof_grids[gpuprof_tick % 4].end_ns, ktime_get_ns());
	WRITE_ONCE(gpuprof_grids[gpuprof_tick % 4].interval_ns,
		   (u64)gpuprof_timer_ms * NSEC_PER_MSEC);
	/* Pairs with the acquire in gpuprof_job_time_sample(). */
	smp_store_release(&gpuprof_tick, gpuprof_tick);
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

static void gpuprof_ctx_disown_ended(struct gpuprof_ctx *ctx, void *arg)
{
	struct gpuprof_job *job;

	list_for_each_entry(job, &ctx->jobs, link)
		if (job->owner && READ_ONCE(job->owner->ended))
			job->owner = NULL;
}

/*
 * Jobs and runs of ended targets are no one's now.  Called after the RCU
 * grace period that follows the targets' unlinking (ctl.c): no probe still
 * holds an ended target it found elsewhere, to put in a job or a run.
 */
void gpuprof_fence_disown_ended(void)
{
	struct gpuprof_run_ring *ring;
	int cpu, i;

	gpuprof_ctxs_walk(gpuprof_ctx_disown_ended, NULL);
	for_each_possible_cpu(cpu) {
		ring = gpuprof_rings[cpu];
		spin_lock_irq(&ring->lock);
		for (i = 0; i < GPUPROF_RUN_HISTORY; i++)
			if (ring->run[i].owner &&
			    READ_ONCE(ring->run[i].owner->ended))
				ring->run[i].owner = NULL;
		spin_unlock_irq(&ring->lock);
	}
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

struct gpuprof_running_at {
	u64 t_ns;
	struct gpuprof_target **out;
	int max;
	int n;
	int others;
};

static void gpuprof_ctx_running_at(struct gpuprof_ctx *ctx, void *arg)
{
	struct gpuprof_running_at *q = arg;
	struct gpuprof_job *job;

	for (job = gpuprof_first_running(ctx); job;
	     job = gpuprof_next_running(ctx, job)) {
		if (job->start_ns > q->t_ns)
			continue;
		if (job->owner)
			q->n = gpuprof_add_unique(q->out, q->n, q->max,
						  job->owner);
		else
			q->others++;
	}
}

/* The runs of @ring, newest first, that cover @q->t_ns. */
static void gpuprof_ring_running_at(struct gpuprof_run_ring *ring,
				    struct gpuprof_running_at *q)
{
	struct gpuprof_run *run;
	u32 i, idx;

	spin_lock(&ring->lock);
	/* Runs of a CPU end in order: stop at one that ended before. */
	for (i = 1; i <= GPUPROF_RUN_HISTORY; i++) {
		idx = (ring->next + GPUPROF_RUN_HISTORY - i) %
		      GPUPROF_RUN_HISTORY;
		run = &ring->run[idx];
		if (!run->end_ns || run->end_ns < q->t_ns)
			break;
		if (run->owner && run->start_ns <= q->t_ns)
			q->n = gpuprof_add_unique(q->out, q->n, q->max,
						  run->owner);
	}
	spin_unlock(&ring->lock);
}

/**
 * gpuprof_targets_running_at - the targets with a job running at @t_ns
 * @t_ns: a CLOCK_MONOTONIC time, now or in the recent past
 * @out: the targets, each once
 * @max: room in @out
 * @alone: set when no job of no target was running too
 *
 * Called with the data lock held, so the targets stay: ctl.c releases
 * ended ones only after it dropped OA's bindings under that lock.  Looks
 * at the jobs running now and at the history of ended ones.
 *
 * Return: the number of targets in @out.
 */
int gpuprof_targets_running_at(u64 t_ns, struct gpuprof_target **out,
			       int max, bool *alone)
{
	struct gpuprof_running_at q = { .t_ns = t_ns, .out = out, .max = max };
	int cpu;

	lockdep_assert_held(&gpuprof_data_lock);
	gpuprof_ctxs_walk(gpuprof_ctx_running_at, &q);
	for_each_possible_cpu(cpu)
		gpuprof_ring_running_at(gpuprof_rings[cpu], &q);
	/* Ended jobs of no target are not kept: "alone" is as of now. */
	*alone = !q.others;
	return q.n;
}

u32 gpuprof_jobs_in_flight(void)
{
	return atomic_read(&gpuprof_nr_jobs);
}

static void gpuprof_rings_free(void)
{
	int cpu;

	if (!gpuprof_rings)
		return;
	for_each_possible_cpu(cpu)
		kvfree(gpuprof_rings[cpu]);
	kfree(gpuprof_rings);
	gpuprof_rings = NULL;
}

static int gpuprof_rings_alloc(void)
{
	int cpu;

	gpuprof_rings = kcalloc(nr_cpu_ids, sizeof(*gpuprof_rings), GFP_KERNEL);
	if (!gpuprof_rings)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		gpuprof_rings[cpu] = kvzalloc(sizeof(*gpuprof_rings[cpu]),
					      GFP_KERNEL);
		if (!gpuprof_rings[cpu]) {
			gpuprof_rings_free();
			return -ENOMEM;
		}
		spin_lock_init(&gpuprof_rings[cpu]->lock);
	}
	return 0;
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
	if (!gpuprof_job_cache || !gpuprof_ctx_cache ||
	    gpuprof_table_init(&gpuprof_ctxs, GPUPROF_CTX_BITS) ||
	    gpuprof_rings_alloc()) {
		gpuprof_fence_exit();
		return -ENOMEM;
	}
	gpuprof_hrtimer_setup(&gpuprof_timer, gpuprof_timer_fn, CLOCK_MONOTONIC,
			      HRTIMER_MODE_REL_SOFT);
	return 0;
}

void gpuprof_fence_exit(void)
{
	gpuprof_rings_free();
	gpuprof_table_destroy(&gpuprof_ctxs);
	kmem_cache_destroy(gpuprof_ctx_cache);
	kmem_cache_destroy(gpuprof_job_cache);
}
