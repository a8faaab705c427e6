// SPDX-License-Identifier: GPL-2.0-only
/*
 * The aggregation of perf gpu report (report/model.h).
 *
 * State is what is in flight and what can still change: jobs in flight
 * (a hash by (context, seqno), and per context a queue in init order;
 * a drm_sched job's scheduled half stays in the hash, out of any queue,
 * linked to its finished half until it signals),
 * busy-time segments that a later job could still overlap, one latency
 * sketch per (client, timeline) pair, one interval sketch per crtc, and
 * the previous OA report.
 *
 * Busy time is kept per pair, client, timeline and in total
 * (report/busy.h).  Settling passes, which need the starts of the jobs
 * running in each scope, run every PASS_EVERY signals and when a scope
 * has many live segments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oa/metrics.h"
#include "report/model.h"
#include "util/array.h"
#include "util/map.h"

#define PASS_EVERY	4096
#define LEARNED_SLOTS	256

struct job {
	struct job *qnext;	/* in its context's queue, the next newer;
				 * or in the free list */
	struct ctx *ctx;	/* NULL: a ghost, a scheduled half */
	struct report_pair *pair;
	/*
	 * drm_sched: a finished half's scheduled half while that has not
	 * signaled, and back; NULL otherwise.
	 */
	struct job *half;
	uint32_t context, seqno;
	uint64_t init;		/* ready to run: its init, or its emit */
	uint64_t submitted;	/* its init */
	uint64_t run_from;	/* the scheduled half's signal, if started */
	bool drm_sched;		/* a fence of drm_sched */
	bool finished_half;	/* paired with a scheduled half at its init */
	bool started;		/* its scheduled half signaled */
	bool running;		/* counted in its pair's running jobs */
};

struct ctx {
	struct ctx *free_next;	/* in the free list */
	uint32_t context;
	struct job *head, *tail;	/* head: the running job */
	uint64_t last_signal;
};

/*
 * The tables, on util/map: jobs in flight by (context, seqno), contexts
 * with jobs in flight, clients by pid, timelines by a hash of their
 * names, pairs by (pid, timeline id).  Values are the addresses.
 */
struct report_model_state {
	struct u64_map jobs, ctxs, clients, timelines, pairs;
	struct job *free_jobs;
	struct ctx *free_ctxs;
	size_t alloc_clients, alloc_timelines, alloc_pairs, alloc_crtcs;
	size_t alloc_cgroups;

	/* Pairs and clients with a job running, for OA attribution. */
	struct report_pair **run_pairs;
	struct report_client **run_clients;
	uint32_t nr_run_pairs, nr_run_clients;
	size_t alloc_run_pairs, alloc_run_clients;
	uint64_t signals;

	/* Scratch of the settling passes. */
	struct scope_start *starts;
	uint64_t *start_vals;
	size_t alloc_starts, alloc_start_vals;
	uint64_t passes;

	/* OA */
	struct gpuprof_oa_layout layout;
	bool have_prev, have_oa_time;
	unsigned int prev_attr;
	uint64_t prev_lost;
	uint32_t prev_ctx, prev_size;
	uint8_t prev_report[GPUPROF_OA_REPORT_MAX];
	uint64_t prev_time;		/* the previous report's sample time */
	uint64_t pow2_intervals[64];	/* by log2 of the interval */
	struct {
		uint32_t ctx_id;
		int32_t pid;
		bool used;
	} learned[LEARNED_SLOTS];
};

/*
 * Half of murmur3's finaliser.  Not util/map's map_hash_u64(): which
 * context ids share a slot of learned[] decides who gets OA counts, so
 * a new mixer could change report's output.
 */
static uint64_t mix64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

static uint64_t job_key(uint32_t context, uint32_t seqno)
{
	return (uint64_t)context << 32 | seqno;
}

static uint64_t pair_key(const struct report_client *c,
			 const struct report_timeline *tl)
{
	return (uint64_t)(uint32_t)c->pid << 32 | tl->id;
}

static void jobs_init(struct report_jobs *j)
{
	memset(j, 0, sizeof(*j));
	report_sketch_init(&j->latency);
	report_sketch_init(&j->queue);
	report_sketch_init(&j->run);
	report_busy_init(&j->busy);
}

static void jobs_free(struct report_jobs *j)
{
	report_sketch_free(&j->latency);
	report_sketch_free(&j->queue);
	report_sketch_free(&j->run);
	report_busy_free(&j->busy);
}

/* Entities */

static struct report_client *client_find(struct report_model *m, int32_t pid)
{
	uint64_t v;

	if (!u64_map_get(&m->st->clients, (uint32_t)pid, &v))
		return NULL;
	return (struct report_client *)(uintptr_t)v;
}

static struct report_client *client_get(struct report_model *m, int32_t pid)
{
	struct report_model_state *st = m->st;
	struct report_client *c = client_find(m, pid);

	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	if (ARRAY_PUSH(m->clients, m->nr_clients, st->alloc_clients, c)) {
		free(c);
		return NULL;
	}
	c->pid = pid;
	jobs_init(&c->jobs);
	/* In m->clients already: freed with them if this fails. */
	if (u64_map_put(&st->clients, (uint32_t)pid, (uintptr_t)c))
		return NULL;
	return c;
}

/*
 * A cgroup by id: a few per recording (containers, services), looked up
 * once per client, so a search from the newest is enough.
 */
static struct report_cgroup *cgroup_get(struct report_model *m, uint64_t id)
{
	struct report_cgroup *cg;
	uint32_t i;

	for (i = m->nr_cgroups; i-- > 0;)
		if (m->cgroups[i]->id == id)
			return m->cgroups[i];
	cg = calloc(1, sizeof(*cg));
	if (!cg)
		return NULL;
	if (ARRAY_PUSH(m->cgroups, m->nr_cgroups, m->st->alloc_cgroups, cg)) {
		free(cg);
		return NULL;
	}
	cg->id = id;
	cg->index = m->nr_cgroups - 1;
	jobs_init(&cg->jobs);
	return cg;
}

/* A client is in the cgroup of its first job that says one. */
static int client_cgroup(struct report_model *m, struct report_client *c,
			 uint64_t id)
{
	if (c->cgroup || !id)
		return 0;
	c->cgroup = cgroup_get(m, id);
	if (!c->cgroup)
		return -1;
	c->cgroup->nr_clients++;
	return 0;
}

struct tl_names {
	const char *driver, *name;
};

static bool tl_is(uint64_t v, const void *arg)
{
	const struct report_timeline *tl = (const void *)(uintptr_t)v;
	const struct tl_names *want = arg;

	return !strcmp(tl->name, want->name) &&
	       !strcmp(tl->driver, want->driver);
}

static struct report_timeline *timeline_get(struct report_model *m,
					    const char *driver,
					    const char *name)
{
	struct report_model_state *st = m->st;
	struct tl_names want = { driver, name };
	uint64_t key = map_hash_str_pair(driver, name), v;
	struct report_timeline *tl;

	if (u64_map_find_hashed(&st->timelines, &key, tl_is, &want, &v))
		return (struct report_timeline *)(uintptr_t)v;
	tl = calloc(1, sizeof(*tl));
	if (!tl)
		return NULL;
	tl->driver = strdup(driver);
	tl->name = strdup(name);
	if (!tl->driver || !tl->name ||
	    ARRAY_PUSH(m->timelines, m->nr_timelines, st->alloc_timelines, tl)) {
		free(tl->driver);
		free(tl->name);
		free(tl);
		return NULL;
	}
	tl->id = m->nr_timelines - 1;
	jobs_init(&tl->jobs);
	if (u64_map_put(&st->timelines, key, (uintptr_t)tl))
		return NULL;
	return tl;
}

static struct report_pair *pair_get(struct report_model *m,
				    struct report_client *c,
				    struct report_timeline *tl)
{
	struct report_model_state *st = m->st;
	struct report_pair *p;
	uint64_t v;

	if (u64_map_get(&st->pairs, pair_key(c, tl), &v))
		return (struct report_pair *)(uintptr_t)v;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	if (ARRAY_PUSH(m->pairs, m->nr_pairs, st->alloc_pairs, p)) {
		free(p);
		return NULL;
	}
	p->client = c;
	p->timeline = tl;
	jobs_init(&p->jobs);
	if (u64_map_put(&st->pairs, pair_key(c, tl), (uintptr_t)p))
		return NULL;
	return p;
}

/* Running pairs and clients: arrays with each one's index in it. */

static int running_inc(struct report_model *m, struct report_pair *p)
{
	struct report_model_state *st = m->st;
	struct report_client *c = p->client;

	if (p->running++)
		return 0;
	p->run_idx = st->nr_run_pairs;
	if (ARRAY_PUSH(st->run_pairs, st->nr_run_pairs, st->alloc_run_pairs, p))
		return -1;
	if (c->running_pairs++)
		return 0;
	c->run_idx = st->nr_run_clients;
	if (ARRAY_PUSH(st->run_clients, st->nr_run_clients,
		       st->alloc_run_clients, c))
		return -1;
	return 0;
}

static void running_dec(struct report_model *m, struct report_pair *p)
{
	struct report_model_state *st = m->st;
	struct report_client *c = p->client;
	struct report_pair *lp;
	struct report_client *lc;

	if (--p->running)
		return;
	lp = st->run_pairs[--st->nr_run_pairs];
	st->run_pairs[p->run_idx] = lp;
	lp->run_idx = p->run_idx;
	if (--c->running_pairs)
		return;
	lc = st->run_clients[--st->nr_run_clients];
	st->run_clients[c->run_idx] = lc;
	lc->run_idx = c->run_idx;
}

/* A job's place among the running, for OA attribution. */
static int job_run(struct report_model *m, struct job *j)
{
	if (j->running)
		return 0;
	j->running = true;
	return running_inc(m, j->pair);
}

static void job_stop(struct report_model *m, struct job *j)
{
	if (!j->running)
		return;
	j->running = false;
	running_dec(m, j->pair);
}

/*
 * @j is the oldest on its context: it runs, unless its scheduled half
 * is still to signal (then that signal starts it).
 */
static int head_runs(struct report_model *m, struct job *j)
{
	return j->half ? 0 : job_run(m, j);
}

/* Jobs in flight */

static struct job *job_find(struct report_model *m, uint32_t context,
			    uint32_t seqno)
{
	uint64_t v;

	if (!u64_map_get(&m->st->jobs, job_key(context, seqno), &v))
		return NULL;
	return (struct job *)(uintptr_t)v;
}

static struct ctx *ctx_get(struct report_model *m, uint32_t context)
{
	struct report_model_state *st = m->st;
	struct ctx *c;
	uint64_t v;

	if (u64_map_get(&st->ctxs, context, &v))
		return (struct ctx *)(uintptr_t)v;
	if (st->free_ctxs) {
		c = st->free_ctxs;
		st->free_ctxs = c->free_next;
	} else {
		c = malloc(sizeof(*c));
		if (!c)
			return NULL;
	}
	memset(c, 0, sizeof(*c));
	c->context = context;
	if (u64_map_put(&st->ctxs, context, (uintptr_t)c)) {
		c->free_next = st->free_ctxs;
		st->free_ctxs = c;
		return NULL;
	}
	return c;
}

/* Take @j out of its context's queue and the running sets. */
static int dequeue(struct report_model *m, struct job *j)
{
	struct report_model_state *st = m->st;
	struct ctx *c = j->ctx;
	struct job *prev;
	int ret = 0;

	job_stop(m, j);
	if (c->head == j) {
		/* The next job runs now (from this end, or its init). */
		c->head = j->qnext;
		if (c->head)
			ret = head_runs(m, c->head);
		else
			c->tail = NULL;
	} else {
		for (prev = c->head; prev->qnext != j; prev = prev->qnext)
			;
		prev->qnext = j->qnext;
		if (c->tail == j)
			c->tail = prev;
	}
	j->ctx = NULL;
	m->jobs_in_flight--;
	if (!c->head) {
		u64_map_del(&st->ctxs, c->context, NULL);
		c->free_next = st->free_ctxs;
		st->free_ctxs = c;
	}
	return ret;
}

/*
 * Forget @j: out of its queue (unless a ghost) and the hash.  A
 * finished half takes its scheduled half along; a scheduled half gone
 * unsignaled leaves its finished half to the rule of other jobs.
 */
static int job_remove(struct report_model *m, struct job *j)
{
	struct report_model_state *st = m->st;
	struct job *other = j->half;
	int ret = 0;

	if (other) {
		other->half = NULL;
		j->half = NULL;
		if (j->ctx)
			ret = job_remove(m, other);
		else if (other->ctx->head == other)
			ret = head_runs(m, other);
	}
	if (j->ctx && dequeue(m, j))
		ret = -1;
	u64_map_del(&st->jobs, job_key(j->context, j->seqno), NULL);
	j->qnext = st->free_jobs;
	st->free_jobs = j;
	return ret;
}

static void count_unsignaled(struct report_model *m, struct report_pair *p)
{
	p->jobs.unsignaled++;
	p->client->jobs.unsignaled++;
	if (p->client->cgroup)
		p->client->cgroup->jobs.unsignaled++;
	p->timeline->jobs.unsignaled++;
	m->total.unsignaled++;
}

/* What a fence's driver name says of its fence, looked at once an event. */
enum fence_kind {
	FENCE_JOB,		/* a driver's own fence: a job */
	FENCE_DRM_SCHED,	/* a half of a drm_sched job */
	FENCE_CONTAINER,	/* fences of other fences: no job of its own */
};

static enum fence_kind fence_kind(const char *driver)
{
	/* The first letter only picks the names worth comparing. */
	switch (driver[0]) {
	case 'd':
		if (!strcmp(driver, "drm_sched"))
			return FENCE_DRM_SCHED;
		if (!strcmp(driver, "dma_fence_chain") ||
		    !strcmp(driver, "dma_fence_array"))
			return FENCE_CONTAINER;
		break;
	case 's':
		if (!strcmp(driver, "stub"))
			return FENCE_CONTAINER;
		break;
	}
	return FENCE_JOB;
}

/*
 * The scheduled half of the drm_sched job whose finished half @ev
 * inits, or NULL: the fence (context - 1, seqno) in flight, of
 * drm_sched, the same process and timeline name, not a finished half
 * and not paired already.  What the fences say, not their order: two
 * threads submitting at once interleave their inits.
 */
static struct job *scheduled_half_of(struct report_model *m,
				     const struct gpu_event *ev,
				     enum fence_kind kind)
{
	struct job *j;

	if (kind != FENCE_DRM_SCHED || !ev->fence.context)
		return NULL;
	j = job_find(m, ev->fence.context - 1, ev->fence.seqno);
	if (!j || !j->ctx || !j->drm_sched || j->finished_half || j->half ||
	    j->pair->client->pid != ev->pid ||
	    strcmp(j->pair->timeline->name, ev->fence.timeline))
		return NULL;
	return j;
}

/* @src cut to @size with its NUL: no printf at every job. */
static void copy_comm(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void client_name(struct report_client *c, const struct gpu_trace *t,
			const struct gpu_event *ev)
{
	/* The process's main thread names it; else the thread at hand. */
	const char *name = t ? gpu_trace_comm(t, c->pid) : NULL;

	if (!name)
		name = ev->comm;
	if (name)
		copy_comm(c->comm, sizeof(c->comm), name);
}

static int on_init(struct report_model *m, const struct gpu_trace *t,
		   const struct gpu_event *ev)
{
	struct report_model_state *st = m->st;
	struct report_timeline *tl;
	struct report_client *c;
	struct report_pair *p;
	enum fence_kind kind = fence_kind(ev->fence.driver);
	struct job *j, *sched;
	struct ctx *cx;

	if (kind == FENCE_CONTAINER)
		return 0;
	/* A fence recycled whose end was not seen: that job ended unseen. */
	j = job_find(m, ev->fence.context, ev->fence.seqno);
	if (j) {
		if (j->ctx)
			count_unsignaled(m, j->pair);
		if (job_remove(m, j))
			return -1;
	}
	/* No job, neither counted nor timed: a ghost until its signal. */
	sched = scheduled_half_of(m, ev, kind);
	if (sched && dequeue(m, sched))
		return -1;
	tl = timeline_get(m, ev->fence.driver, ev->fence.timeline);
	c = tl ? client_get(m, ev->pid) : NULL;
	p = c ? pair_get(m, c, tl) : NULL;
	if (!p || client_cgroup(m, c, ev->cgroup))
		return -1;
	client_name(c, t, ev);
	cx = ctx_get(m, ev->fence.context);
	if (!cx)
		return -1;
	if (st->free_jobs) {
		j = st->free_jobs;
		st->free_jobs = j->qnext;
	} else {
		j = malloc(sizeof(*j));
		if (!j)
			return -1;
	}
	memset(j, 0, sizeof(*j));
	j->ctx = cx;
	j->pair = p;
	j->context = ev->fence.context;
	j->seqno = ev->fence.seqno;
	j->init = ev->time;
	j->submitted = ev->fence.submitted < ev->time ? ev->fence.submitted :
			ev->time;
	j->drm_sched = kind == FENCE_DRM_SCHED;
	if (u64_map_put(&st->jobs, job_key(j->context, j->seqno),
			(uintptr_t)j)) {
		j->qnext = st->free_jobs;
		st->free_jobs = j;
		return -1;
	}
	if (sched) {
		j->finished_half = true;
		j->half = sched;
		sched->half = j;
	}
	m->jobs_in_flight++;
	if (cx->tail) {
		cx->tail->qnext = j;
		cx->tail = j;
		return 0;
	}
	cx->head = cx->tail = j;
	return head_runs(m, j);
}

/*
 * When @j's running started, or at the earliest starts: its scheduled
 * half's signal, else max(init, last signal).
 */
static uint64_t run_start(const struct job *j)
{
	if (j->started)
		return j->run_from;
	return j->init > j->ctx->last_signal ? j->init : j->ctx->last_signal;
}

struct scope_start {
	struct report_busy *busy;
	uint64_t start;
};

static int cmp_scope_start(const void *a, const void *b)
{
	const struct scope_start *x = a, *y = b;

	if (x->busy != y->busy)
		return (uintptr_t)x->busy < (uintptr_t)y->busy ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static void settle_rest(struct report_model *m, struct report_busy *b)
{
	if (b->pass != m->st->passes)
		report_busy_settle(b, NULL, 0, m->last_time);
}

/*
 * Settle every busy time with the starts of the jobs running in its
 * scope: (busy time, start) for each running job and each of its four
 * or five scopes (the cgroup when its client has one), sorted, then one
 * settle per busy time.
 */
static int busy_pass(struct report_model *m)
{
	struct report_model_state *st = m->st;
	size_t n = 0, i, j, want = m->jobs_in_flight * 5;
	struct scope_start *rs;
	size_t pos = 0;
	struct job *q;
	uint32_t k;
	uint64_t v;

	if (ARRAY_RESERVE(st->starts, st->alloc_starts, want) ||
	    ARRAY_RESERVE(st->start_vals, st->alloc_start_vals, want))
		return -1;
	rs = st->starts;
	/* In any order: sorted below, by scope then start. */
	while (u64_map_next(&st->ctxs, &pos, NULL, &v)) {
		const struct ctx *c = (const struct ctx *)(uintptr_t)v;

		/*
		 * The oldest job, and those behind it that started (a ring
		 * taking more than one job): the others start at a signal
		 * still to come.
		 */
		for (q = c->head; q; q = q->qnext) {
			struct report_pair *p = q->pair;
			uint64_t s = run_start(q);

			if (q != c->head && !q->started)
				continue;
			rs[n++] = (struct scope_start){ &p->jobs.busy, s };
			rs[n++] = (struct scope_start){ &p->client->jobs.busy, s };
			rs[n++] = (struct scope_start){ &p->timeline->jobs.busy, s };
			rs[n++] = (struct scope_start){ &m->total.busy, s };
			if (p->client->cgroup)
				rs[n++] = (struct scope_start){
					&p->client->cgroup->jobs.busy, s };
		}
	}
	qsort(rs, n, sizeof(*rs), cmp_scope_start);
	st->passes++;
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && rs[j].busy == rs[i].busy; j++)
			st->start_vals[j - i] = rs[j].start;
		report_busy_settle(rs[i].busy, st->start_vals, j - i, m->last_time);
		rs[i].busy->pass = st->passes;
	}
	for (k = 0; k < m->nr_pairs; k++)
		settle_rest(m, &m->pairs[k]->jobs.busy);
	for (k = 0; k < m->nr_clients; k++)
		settle_rest(m, &m->clients[k]->jobs.busy);
	for (k = 0; k < m->nr_timelines; k++)
		settle_rest(m, &m->timelines[k]->jobs.busy);
	for (k = 0; k < m->nr_cgroups; k++)
		settle_rest(m, &m->cgroups[k]->jobs.busy);
	settle_rest(m, &m->total.busy);
	return 0;
}

static int add_run(struct report_jobs *j, uint64_t start, uint64_t end)
{
	j->jobs++;
	return report_busy_add(&j->busy, start, end);
}

static int on_signal(struct report_model *m, const struct gpu_event *ev)
{
	struct report_model_state *st = m->st;
	struct report_job_run run;
	struct report_cgroup *cg;
	struct report_timeline *tl;
	struct report_pair *p;
	struct job *j;
	struct ctx *c;

	if (fence_kind(ev->fence.driver) == FENCE_CONTAINER)
		return 0;
	j = job_find(m, ev->fence.context, ev->fence.seqno);
	if (j && !j->ctx && j->half) {
		/* A scheduled half: its job leaves the queue for the ring. */
		j->half->started = true;
		j->half->run_from = ev->time;
		if (job_run(m, j->half))
			return -1;
	}
	if (j && !j->ctx)
		return job_remove(m, j);
	if (!j) {
		tl = timeline_get(m, ev->fence.driver, ev->fence.timeline);
		if (!tl)
			return -1;
		tl->jobs.unmatched++;
		m->total.unmatched++;
		return 0;
	}
	c = j->ctx;
	/* Fences of a context signal in order: those before it were missed. */
	while (c->head != j) {
		count_unsignaled(m, c->head->pair);
		if (job_remove(m, c->head))
			return -1;
	}
	p = j->pair;
	run.pair = p;
	run.context = c->context;
	run.seqno = j->seqno;
	run.init = j->submitted;
	run.start = run_start(j);
	run.end = ev->time;
	run.dep_end = 0;
	/* Queued: till drm_sched's scheduled signal, or till its emit. */
	run.queued = j->started || j->submitted < j->init;
	/* A file out of time order must not give negative times. */
	if (run.end < run.start)
		run.start = run.end;
	if (run.end < run.init)
		run.init = run.end;
	if (run.start < run.init)
		run.start = run.init;
	c->last_signal = run.end;
	/* Before a scope runs out of room: settle all. */
	cg = p->client->cgroup;
	if ((report_busy_full(&p->jobs.busy) ||
	     report_busy_full(&p->client->jobs.busy) ||
	     report_busy_full(&p->timeline->jobs.busy) ||
	     (cg && report_busy_full(&cg->jobs.busy)) ||
	     report_busy_full(&m->total.busy)) && busy_pass(m))
		return -1;
	if (add_run(&p->jobs, run.start, run.end) ||
	    add_run(&p->client->jobs, run.start, run.end) ||
	    add_run(&p->timeline->jobs, run.start, run.end) ||
	    (cg && add_run(&cg->jobs, run.start, run.end)) ||
	    add_run(&m->total, run.start, run.end) ||
	    report_sketch_add(&p->jobs.latency, run.end - run.init) ||
	    report_sketch_add(&p->jobs.queue, run.queued ? run.start - run.init : 0) ||
	    report_sketch_add(&p->jobs.run, run.end - run.start))
		return -1;
	/*
	 * A drm_sched job handed over by its scheduled half's signal:
	 * compared with the scheduler's events, which give its dependencies.
	 */
	if (j->started)
		run.dep_end = report_sched_compare(&m->sched, run.context,
						   run.seqno, run.init,
						   run.start, run.end);
	if (m->hooks.job)
		m->hooks.job(m->hooks.arg, &run);
	if (job_remove(m, j))
		return -1;
	if (++st->signals % PASS_EVERY == 0)
		return busy_pass(m);
	return 0;
}

static int on_destroy(struct report_model *m, const struct gpu_event *ev)
{
	struct job *j = job_find(m, ev->fence.context, ev->fence.seqno);

	/* Most fences die signaled, their job gone already. */
	if (!j)
		return 0;
	if (j->ctx)
		count_unsignaled(m, j->pair);
	return job_remove(m, j);
}

/* The crtc @crtc, added on first sight; NULL out of memory. */
/* Counters one crtc index may show (devices with a crtc of that index). */
#define MAX_COUNTERS_PER_CRTC	8
/* Frames a counter may skip and still be the same (vblank was off). */
#define COUNTER_GAP_MAX		64

static struct report_crtc *crtc_new(struct report_model *m, int32_t crtc,
				    uint32_t counter)
{
	struct report_model_state *st = m->st;
	struct report_crtc *c;

	if (ARRAY_RESERVE(m->crtcs, st->alloc_crtcs, m->nr_crtcs + 1))
		return NULL;
	c = &m->crtcs[m->nr_crtcs++];
	memset(c, 0, sizeof(*c));
	c->crtc = crtc;
	c->counter = counter;
	report_sketch_init(&c->interval);
	report_sketch_init(&c->flip_interval);
	return c;
}

/*
 * The row of crtc @crtc whose vblank counter @seq belongs to: the one it
 * continues (its last seq below it by the least, at most
 * COUNTER_GAP_MAX; or by more, for a tick @stamp whose distance from the
 * row's last is that many of its periods, within a factor 2: vblank was
 * off a while), else a row without vblanks yet, else a new counter
 * (another device's crtc of that index, or a counter reset), else, past
 * MAX_COUNTERS_PER_CRTC, the first.  @vblank: @seq is a tick (its row's
 * last seq moves); else a flip's, which joins the counter at most 63
 * below it (its vblank's event comes after it), or makes the row its
 * vblank's tick will join.
 */
static struct report_crtc *crtc_get(struct report_model *m, int32_t crtc,
				    uint32_t seq, uint64_t stamp, bool vblank)
{
	struct report_crtc *c, *best = NULL, *empty = NULL, *first = NULL;
	uint32_t i, n = 0, gap, best_gap = COUNTER_GAP_MAX + 1;

	for (i = 0; i < m->nr_crtcs; i++) {
		c = &m->crtcs[i];
		if (c->crtc != crtc)
			continue;
		n++;
		first = first ? first : c;
		if (!c->vblanks) {
			empty = empty ? empty : c;
			continue;
		}
		/* A flip is for the vblank seq, seen or about to be. */
		gap = vblank ? seq - c->last_seq : seq + 1 - c->last_seq;
		if (!gap || gap - 1 >= COUNTER_GAP_MAX || gap >= best_gap)
			continue;
		best = c;
		best_gap = gap;
	}
	if (best)
		return best;
	/* Off for longer: the ticks missed match the time that passed. */
	for (i = 0; vblank && stamp && i < m->nr_crtcs; i++) {
		c = &m->crtcs[i];
		gap = seq - c->last_seq;
		if (c->crtc == crtc && c->vblanks && c->period && gap &&
		    gap < 1u << 31 && stamp > c->last &&
		    (stamp - c->last) / gap >= c->period / 2 &&
		    (stamp - c->last) / gap <= c->period * 2)
			return c;
	}
	if (empty)
		return empty;
	/* A flip is delivered before its vblank's event: it may come first. */
	if (!first || n < MAX_COUNTERS_PER_CRTC)
		return crtc_new(m, crtc, n);
	return first;
}

static int on_vblank(struct report_model *m, const struct gpu_event *ev)
{
	struct report_crtc *c = crtc_get(m, ev->vblank.crtc, ev->vblank.seq,
					 ev->vblank.stamp, true);

	if (!c)
		return -1;
	/* A timestamp going back (a reset counter) starts afresh. */
	if (c->vblanks && ev->vblank.stamp >= c->last &&
	    report_sketch_add(&c->interval, ev->vblank.stamp - c->last))
		return -1;
	if (c->vblanks && ev->vblank.seq == c->last_seq + 1 &&
	    ev->vblank.stamp > c->last)
		c->period = ev->vblank.stamp - c->last;
	c->last = ev->vblank.stamp;
	c->last_seq = ev->vblank.seq;
	c->vblanks++;
	return 0;
}

static int on_delivered(struct report_model *m, const struct gpu_event *ev)
{
	struct report_crtc *c;
	uint32_t ahead;

	/* The kernel's own events (a mode set, fbdev) go to no file. */
	if (!ev->delivered.file)
		return 0;
	c = crtc_get(m, ev->delivered.crtc, ev->delivered.seq, 0, false);
	if (!c)
		return -1;
	/* Unsigned: a counter that wrapped still went forward. */
	ahead = ev->delivered.seq - c->last_flip_seq;
	if (c->flips && ahead && ahead < 1u << 31 &&
	    ev->time >= c->last_flip_time) {
		c->flips_missed = report_sat_add(c->flips_missed, ahead - 1);
		if (report_sketch_add(&c->flip_interval,
				      ev->time - c->last_flip_time))
			return -1;
	}
	/* The same vblank for another file keeps the first one's time. */
	if (!c->flips || ahead) {
		c->last_flip_seq = ev->delivered.seq;
		c->last_flip_time = ev->time;
	}
	c->flips++;
	return 0;
}

/* OA */

static uint64_t part_of(uint64_t v, unsigned int n, unsigned int i)
{
	return v / n + (i < v % n);
}

/* Part @i of @n of @d: the quotient, one more for the first remainders. */
static void split(const struct gpuprof_oa_deltas *d, unsigned int n,
		  unsigned int i, struct gpuprof_oa_deltas *out)
{
	unsigned int k;

	out->deltas = part_of(d->deltas, n, i);
	out->timestamp = part_of(d->timestamp, n, i);
	out->gpu_ticks = part_of(d->gpu_ticks, n, i);
	for (k = 0; k < GPUPROF_OA_A_COUNTERS; k++)
		out->a[k] = part_of(d->a[k], n, i);
	for (k = 0; k < GPUPROF_OA_B_COUNTERS; k++)
		out->b[k] = part_of(d->b[k], n, i);
	for (k = 0; k < GPUPROF_OA_C_COUNTERS; k++)
		out->c[k] = part_of(d->c[k], n, i);
}

void report_oa_deltas_add(struct gpuprof_oa_deltas *acc,
			  const struct gpuprof_oa_deltas *d)
{
	unsigned int k;

	acc->deltas = report_sat_add(acc->deltas, d->deltas);
	acc->timestamp = report_sat_add(acc->timestamp, d->timestamp);
	acc->gpu_ticks = report_sat_add(acc->gpu_ticks, d->gpu_ticks);
	for (k = 0; k < GPUPROF_OA_A_COUNTERS; k++)
		acc->a[k] = report_sat_add(acc->a[k], d->a[k]);
	for (k = 0; k < GPUPROF_OA_B_COUNTERS; k++)
		acc->b[k] = report_sat_add(acc->b[k], d->b[k]);
	for (k = 0; k < GPUPROF_OA_C_COUNTERS; k++)
		acc->c[k] = report_sat_add(acc->c[k], d->c[k]);
}

static void oa_take(struct report_oa *o, const struct gpuprof_oa_deltas *d)
{
	o->reports++;
	if (d)
		report_oa_deltas_add(&o->d, d);
}

static void oa_hook(struct report_model *m, const struct gpu_event *ev,
		    const struct report_client *c,
		    const struct report_timeline *tl, unsigned int part,
		    unsigned int parts, const struct gpuprof_oa_deltas *d)
{
	struct report_oa_part p = {
		.client = c, .timeline = tl, .time = ev->time,
		.gpu_time = ev->oa.gpu_time, .part = part, .parts = parts,
		.d = d, .prev_time = m->st->prev_time,
	};

	if (m->hooks.oa)
		m->hooks.oa(m->hooks.arg, &p);
}

/* Client @c's part of a report: split among its running timelines. */
static void oa_client_part(struct report_model *m, const struct gpu_event *ev,
			   struct report_client *c,
			   const struct gpuprof_oa_deltas *d)
{
	struct report_model_state *st = m->st;
	struct gpuprof_oa_deltas part;
	unsigned int n = c->running_pairs, i = 0;
	uint32_t k;

	oa_take(&c->oa, d);
	if (!n) {
		oa_take(&m->oa_no_timeline, d);
		oa_hook(m, ev, c, NULL, 0, 1, d);
		return;
	}
	for (k = 0; k < st->nr_run_pairs && i < n; k++) {
		struct report_pair *p = st->run_pairs[k];

		if (p->client != c)
			continue;
		if (d)
			split(d, n, i, &part);
		/* Two clients' parts on one timeline: one report there. */
		if (p->timeline->oa_seen != m->oa_reports) {
			p->timeline->oa_seen = m->oa_reports;
			p->timeline->oa.reports++;
		}
		if (d)
			report_oa_deltas_add(&p->timeline->oa.d, &part);
		oa_hook(m, ev, c, p->timeline, i, n, d ? &part : NULL);
		i++;
	}
}

static uint32_t learned_slot(uint32_t ctx_id)
{
	return mix64(ctx_id) & (LEARNED_SLOTS - 1);
}

/* Whom the report of @ctx_id goes to: the bound client, else the running. */
static void oa_attribute(struct report_model *m, const struct gpu_event *ev,
			 const struct gpuprof_oa_deltas *d)
{
	struct report_model_state *st = m->st;
	struct report_client *bound = NULL, *c;
	struct gpuprof_oa_deltas part;
	uint32_t ctx_id = ev->oa.ctx_id, slot = learned_slot(ctx_id);
	unsigned int n, i;

	if (ctx_id != GPUPROF_OA_NO_CONTEXT && st->learned[slot].used &&
	    st->learned[slot].ctx_id == ctx_id)
		bound = client_find(m, st->learned[slot].pid);
	if (bound) {
		oa_client_part(m, ev, bound, d);
		return;
	}
	n = st->nr_run_clients;
	if (!n) {
		oa_take(&m->oa_unattributed, d);
		oa_hook(m, ev, NULL, NULL, 0, 1, d);
		return;
	}
	/* Bound when its client's job was the only one running. */
	if (n == 1 && ctx_id != GPUPROF_OA_NO_CONTEXT) {
		st->learned[slot].used = true;
		st->learned[slot].ctx_id = ctx_id;
		st->learned[slot].pid = st->run_clients[0]->pid;
	}
	for (i = 0; i < n; i++) {
		c = st->run_clients[i];
		if (d)
			split(d, n, i, &part);
		oa_client_part(m, ev, c, d ? &part : NULL);
	}
}

/*
 * An interval between two consecutive reports, when a power of two the
 * OA timer can have: 2^(exponent+1) ticks, exponent 0 and up.
 */
static void count_interval(struct report_model_state *st, uint64_t ticks)
{
	if (ticks >= 2 && !(ticks & (ticks - 1)))
		st->pow2_intervals[__builtin_ctzll(ticks)]++;
}

/* The commonest power-of-two interval; the shorter one of a tie. */
static uint64_t oa_period(const struct report_model_state *st)
{
	unsigned int i, best = 0;

	for (i = 1; i < 64; i++)
		if (st->pow2_intervals[i] > st->pow2_intervals[best])
			best = i;
	return st->pow2_intervals[best] ? 1ull << best : 0;
}

static void on_oa(struct report_model *m, const struct gpu_trace *t,
		  const struct gpu_event *ev)
{
	struct report_model_state *st = m->st;
	const struct gpu_trace_event_info *info = t ? gpu_trace_event(t, ev->attr) : NULL;
	uint64_t lost = info ? info->lost : 0;
	struct gpuprof_oa_deltas d, *dp = NULL;
	bool sized = ev->oa.size == st->layout.size;

	m->oa_reports++;
	/* oa_last_gpu is still the report before's. */
	if (st->have_prev && st->prev_attr == ev->attr && st->prev_lost == lost)
		count_interval(st, ev->oa.gpu_time - m->oa_last_gpu);
	if (!st->have_oa_time) {
		m->oa_first_gpu = ev->oa.gpu_time;
		m->oa_first_time = ev->time;
		st->have_oa_time = true;
	}
	m->oa_last_gpu = ev->oa.gpu_time;
	m->oa_last_time = ev->time;
	if (!sized)
		m->oa_no_layout++;
	if (st->have_prev && (st->prev_attr != ev->attr || st->prev_lost != lost))
		m->oa_lost_drops++;
	else if (st->have_prev && st->prev_ctx != ev->oa.ctx_id)
		m->oa_switch_drops++;
	else if (st->have_prev && sized && st->prev_size == ev->oa.size) {
		memset(&d, 0, sizeof(d));
		gpuprof_oa_accumulate(&st->layout, st->prev_report, ev->oa.report, &d);
		report_oa_deltas_add(&m->oa_all, &d);
		m->oa_deltas++;
		dp = &d;
	}
	oa_attribute(m, ev, dp);
	st->have_prev = sized;
	st->prev_attr = ev->attr;
	st->prev_lost = lost;
	st->prev_ctx = ev->oa.ctx_id;
	st->prev_size = ev->oa.size;
	st->prev_time = ev->time;
	if (sized)
		memcpy(st->prev_report, ev->oa.report, ev->oa.size);
}

int report_model_init(struct report_model *m, const struct report_hooks *hooks)
{
	memset(m, 0, sizeof(*m));
	if (hooks)
		m->hooks = *hooks;
	jobs_init(&m->total);
	report_sched_init(&m->sched);
	report_names_init(&m->names);
	m->st = calloc(1, sizeof(*m->st));
	if (!m->st)
		return -1;
	/*
	 * Until a gpu_oa:oa_device says otherwise (recordings made before
	 * it existed have none): format 10, the layout of every gen8 to
	 * gen12.10 part.
	 */
	if (gpuprof_oa_layout(12, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8,
			      &m->st->layout))
		return -1;
	m->oa_a_shown = gpuprof_oa_n_a(&m->st->layout);
	return 0;
}

/* The first device seen; whether a later one differs. */
static void note_oa_unit(struct report_oa_unit *d, const struct gpu_event *ev)
{
	struct oa_metrics_device dev;
	struct oa_metrics_vars vars;

	if (d->samples++) {
		if (d->device_id != ev->oa_device.device_id ||
		    strcmp(d->metric_set, ev->oa_device.metric_set) ||
		    strcmp(d->uuid, ev->oa_device.metric_uuid))
			d->changed = true;
		return;
	}
	d->device_id = ev->oa_device.device_id;
	d->revision = ev->oa_device.revision;
	d->format = ev->oa_device.format;
	d->driver = ev->oa_device.driver;
	d->gt_min_hz = ev->oa_device.gt_min_hz;
	d->gt_max_hz = ev->oa_device.gt_max_hz;
	d->timestamp_hz = ev->oa_device.timestamp_frequency;
	snprintf(d->metric_set, sizeof(d->metric_set), "%s", ev->oa_device.metric_set);
	snprintf(d->uuid, sizeof(d->uuid), "%s", ev->oa_device.metric_uuid);
	/* EuCoresTotalCount as the metric equations see it. */
	oa_metrics_device_of_event(&dev, ev);
	oa_metrics_device_vars(&dev, &vars);
	d->n_eus = vars.n_eus;
}

/* The device of the reports that follow: their layout. */
static void on_oa_device(struct report_model *m, const struct gpu_event *ev)
{
	struct report_model_state *st = m->st;

	struct gpuprof_oa_driver drv = {
		.kernel = ev->oa_device.kernel,
		.submission = ev->oa_device.submission,
		.driver = ev->oa_device.driver,
	};

	if (!gpuprof_oa_layout_of(ev->oa_device.device_id,
				  ev->oa_device.format, &drv, &st->layout))
		st->layout.size = 0;	/* its reports are not decoded */
	else if (gpuprof_oa_n_a(&st->layout) > m->oa_a_shown)
		m->oa_a_shown = gpuprof_oa_n_a(&st->layout);
	st->have_prev = false;
	note_oa_unit(&m->oa_unit, ev);
}

int report_model_add(struct report_model *m, const struct gpu_trace *t,
		     const struct gpu_event *ev)
{
	if (!m->events || ev->time < m->first_time)
		m->first_time = ev->time;
	if (!m->events || ev->time > m->last_time)
		m->last_time = ev->time;
	m->events++;
	if (m->hooks.event)
		m->hooks.event(m->hooks.arg, ev);
	if (report_sched_add(&m->sched, ev) || report_names_add(&m->names, ev))
		return -1;
	switch (ev->kind) {
	case GPU_EV_FENCE_INIT:
		return on_init(m, t, ev);
	case GPU_EV_FENCE_SIGNALED:
		return on_signal(m, ev);
	case GPU_EV_VBLANK:
		return on_vblank(m, ev);
	case GPU_EV_VBLANK_DELIVERED:
		return on_delivered(m, ev);
	case GPU_EV_OA_DEVICE:
		on_oa_device(m, ev);
		return 0;
	case GPU_EV_OA_REPORT:
		on_oa(m, t, ev);
		return 0;
	case GPU_EV_OA_CORRELATION:
		m->oa_corr_points++;
		if (ev->oa_corr.bounded) {
			m->oa_corr_bounded++;
			if (ev->oa_corr.bound_ns > m->oa_corr_worst_ns)
				m->oa_corr_worst_ns = ev->oa_corr.bound_ns;
		}
		return 0;
	case GPU_EV_OTHER:
		if (ev->fence.driver && !strcmp(ev->name, "dma_fence:dma_fence_destroy"))
			return on_destroy(m, ev);
		return 0;
	default:
		/* Marks: for ranges; fdinfo snapshots: names, above. */
		return 0;
	}
}

int report_model_read(struct report_model *m, struct gpu_trace *t)
{
	struct gpu_event ev;
	uint32_t i;
	int ret;

	while ((ret = gpu_trace_next(t, &ev)) > 0)
		if (report_model_add(m, t, &ev))
			return -2;
	if (ret < 0)
		return -1;
	/* Names as they were at the end. */
	for (i = 0; i < m->nr_clients; i++) {
		const char *name = gpu_trace_comm(t, m->clients[i]->pid);

		if (name)
			snprintf(m->clients[i]->comm, sizeof(m->clients[i]->comm),
				 "%s", name);
	}
	if (report_sched_finish(&m->sched, &m->names))
		return -2;
	for (i = 0; i < m->sched.nr_rows; i++) {
		struct report_sched_row *r = m->sched.rows[i];
		const char *name = gpu_trace_comm(t, r->pid);

		if (name)
			snprintf(r->comm, sizeof(r->comm), "%s", name);
	}
	return 0;
}

uint64_t report_model_span(const struct report_model *m)
{
	return m->events ? m->last_time - m->first_time : 0;
}

static uint64_t sat_u128(unsigned __int128 v)
{
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

uint64_t report_model_oa_ns(const struct report_model *m, uint64_t ticks)
{
	uint64_t gpu = m->oa_last_gpu - m->oa_first_gpu;
	uint64_t ns = m->oa_last_time - m->oa_first_time;

	if (m->oa_last_gpu <= m->oa_first_gpu || m->oa_last_time <= m->oa_first_time)
		return 0;
	return sat_u128((unsigned __int128)ticks * ns / gpu);
}

static void oa_finish(const struct report_model *m, struct report_oa *o)
{
	o->gpu_time_ns = report_model_oa_ns(m, o->d.timestamp);
	o->avg_gpu_freq_mhz = o->gpu_time_ns ?
		sat_u128((unsigned __int128)o->d.gpu_ticks * 1000 / o->gpu_time_ns) : 0;
}

struct missed_walk {
	uint64_t median, missed;
};

static void count_missed(void *arg, uint64_t v, uint64_t count)
{
	struct missed_walk *w = arg;
	unsigned __int128 frames;

	/* Longer than 1.5 medians: round(v / median) - 1 frames each. */
	if ((unsigned __int128)v * 2 <= (unsigned __int128)w->median * 3)
		return;
	frames = ((unsigned __int128)v + w->median / 2) / w->median - 1;
	w->missed = report_sat_add(w->missed, sat_u128(frames * count));
}

static int merge_sketches(struct report_jobs *dst, const struct report_jobs *src)
{
	return report_sketch_merge(&dst->latency, &src->latency) ||
	       report_sketch_merge(&dst->queue, &src->queue) ||
	       report_sketch_merge(&dst->run, &src->run);
}

static void jobs_finish(struct report_jobs *j)
{
	j->busy_ns = report_busy_total(&j->busy);
}

int report_model_finish(struct report_model *m)
{
	struct report_model_state *st = m->st;
	struct report_pair *p;
	size_t pos = 0;
	struct job *j;
	uint64_t v;
	uint32_t i;

	if (report_sched_finish(&m->sched, &m->names))
		return -1;
	/* Jobs still in flight at the end never signaled here. */
	while (u64_map_next(&st->ctxs, &pos, NULL, &v))
		for (j = ((struct ctx *)(uintptr_t)v)->head; j; j = j->qnext)
			count_unsignaled(m, j->pair);
	for (i = 0; i < m->nr_pairs; i++) {
		p = m->pairs[i];
		jobs_finish(&p->jobs);
		if (merge_sketches(&p->client->jobs, &p->jobs) ||
		    merge_sketches(&p->timeline->jobs, &p->jobs) ||
		    (p->client->cgroup &&
		     merge_sketches(&p->client->cgroup->jobs, &p->jobs)) ||
		    merge_sketches(&m->total, &p->jobs))
			return -1;
	}
	for (i = 0; i < m->nr_cgroups; i++)
		jobs_finish(&m->cgroups[i]->jobs);
	for (i = 0; i < m->nr_clients; i++) {
		jobs_finish(&m->clients[i]->jobs);
		oa_finish(m, &m->clients[i]->oa);
	}
	for (i = 0; i < m->nr_timelines; i++) {
		jobs_finish(&m->timelines[i]->jobs);
		oa_finish(m, &m->timelines[i]->oa);
	}
	jobs_finish(&m->total);
	oa_finish(m, &m->oa_unattributed);
	oa_finish(m, &m->oa_no_timeline);
	m->oa_period_ticks = oa_period(m->st);
	if (m->oa_last_gpu > m->oa_first_gpu && m->oa_last_time > m->oa_first_time)
		m->oa_freq_hz = sat_u128((unsigned __int128)(m->oa_last_gpu - m->oa_first_gpu) *
					 1000000000u / (m->oa_last_time - m->oa_first_time));
	for (i = 0; i < m->nr_crtcs; i++) {
		struct report_crtc *cr = &m->crtcs[i];
		struct missed_walk w = { report_sketch_quantile(&cr->interval, 500), 0 };

		cr->median_ns = w.median;
		if (w.median)
			report_sketch_walk(&cr->interval, count_missed, &w);
		cr->missed = w.missed;
		cr->flip_median_ns = report_sketch_quantile(&cr->flip_interval, 500);
	}
	return 0;
}

void report_model_free(struct report_model *m)
{
	struct report_model_state *st = m->st;
	struct ctx *c, *cn;
	struct job *j, *jn;
	size_t pos;
	uint64_t v;
	uint32_t i;

	report_sched_free(&m->sched);
	report_names_free(&m->names);
	for (i = 0; i < m->nr_pairs; i++) {
		jobs_free(&m->pairs[i]->jobs);
		free(m->pairs[i]);
	}
	for (i = 0; i < m->nr_clients; i++) {
		jobs_free(&m->clients[i]->jobs);
		free(m->clients[i]);
	}
	for (i = 0; i < m->nr_timelines; i++) {
		jobs_free(&m->timelines[i]->jobs);
		free(m->timelines[i]->driver);
		free(m->timelines[i]->name);
		free(m->timelines[i]);
	}
	for (i = 0; i < m->nr_cgroups; i++) {
		jobs_free(&m->cgroups[i]->jobs);
		free(m->cgroups[i]);
	}
	free(m->cgroups);
	for (i = 0; i < m->nr_crtcs; i++) {
		report_sketch_free(&m->crtcs[i].interval);
		report_sketch_free(&m->crtcs[i].flip_interval);
	}
	jobs_free(&m->total);
	free(m->pairs);
	free(m->clients);
	free(m->timelines);
	free(m->crtcs);
	if (st) {
		/* Every job in flight, ghosts too, is in the map. */
		for (pos = 0; u64_map_next(&st->jobs, &pos, NULL, &v);)
			free((void *)(uintptr_t)v);
		for (pos = 0; u64_map_next(&st->ctxs, &pos, NULL, &v);)
			free((void *)(uintptr_t)v);
		for (j = st->free_jobs; j; j = jn) {
			jn = j->qnext;
			free(j);
		}
		for (c = st->free_ctxs; c; c = cn) {
			cn = c->free_next;
			free(c);
		}
		u64_map_free(&st->jobs);
		u64_map_free(&st->ctxs);
		u64_map_free(&st->clients);
		u64_map_free(&st->timelines);
		u64_map_free(&st->pairs);
		free(st->run_pairs);
		free(st->run_clients);
		free(st->starts);
		free(st->start_vals);
		free(st);
	}
	memset(m, 0, sizeof(*m));
}
