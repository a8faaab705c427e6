// SPDX-License-Identifier: GPL-2.0-only
/*
 * drm_sched jobs from the scheduler's stable events (report/sched.h).
 *
 * Jobs are found by their finished fence in one map, in flight and, once
 * done, until fence pairing compares them (or a second has passed: then
 * pairing has no such job).  A job's dependencies wait in a second map,
 * keyed by the fence, until that fence signals (or, for a job of the
 * same scheduler, is handed over) or the job runs.
 * dma_fence tracepoints carry 32-bit contexts and seqnos, so both maps
 * key on the low 32 bits of each, as the fence model does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/sched.h"
#include "util/array.h"

#define NS_PER_SEC		1000000000ull
/* How long a done job waits for fence pairing's word on it. */
#define COMPARE_WINDOW_NS	NS_PER_SEC
#define COMPARE_TOLERANCE_NS	1000000ull

struct sched_wait;

struct sched_job {
	uint64_t context, seqno;
	struct report_sched_row *row;
	uint64_t queue, run, done;	/* 0: not yet */
	uint64_t dep_end;		/* latest dependency end seen */
	struct sched_wait *waits;	/* this job's, chained by jnext */
	struct sched_job *done_next;	/* done, waiting for the comparison */
};

/* A job waiting for one of its dependencies. */
struct sched_wait {
	uint64_t key;			/* the fence's (context, seqno) */
	struct sched_job *job;
	bool on_run;			/* ends at that job's run, not signal */
	bool blocked;			/* named by unschedulable */
	struct sched_wait *next;	/* same fence */
	struct sched_wait *jnext;	/* same job */
};

static uint64_t key_of(uint64_t context, uint64_t seqno)
{
	return (context & 0xffffffffull) << 32 | (seqno & 0xffffffffull);
}

void report_sched_init(struct report_sched *s)
{
	memset(s, 0, sizeof(*s));
	u64_map_init(&s->jobs);
	u64_map_init(&s->waits);
	s->cmp.tolerance_ns = COMPARE_TOLERANCE_NS;
}

static struct sched_job *job_find(struct report_sched *s, uint64_t context,
				  uint64_t seqno)
{
	uint64_t v;

	if (!u64_map_get(&s->jobs, key_of(context, seqno), &v))
		return NULL;
	return (struct sched_job *)(uintptr_t)v;
}

static struct report_sched_row *row_get(struct report_sched *s,
					const struct gpu_event *ev)
{
	struct report_sched_row *r;
	uint32_t i;

	for (i = 0; i < s->nr_rows; i++) {
		r = s->rows[i];
		if (r->client_id == ev->sched.client_id &&
		    !strncmp(r->dev, ev->sched.dev, sizeof(r->dev) - 1) &&
		    !strncmp(r->ring, ev->sched.ring, sizeof(r->ring) - 1))
			return r;
	}
	if (ARRAY_RESERVE(s->rows, s->alloc_rows, s->nr_rows + 1))
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	snprintf(r->dev, sizeof(r->dev), "%s", ev->sched.dev);
	snprintf(r->ring, sizeof(r->ring), "%s", ev->sched.ring);
	r->client_id = ev->sched.client_id;
	r->pid = ev->pid;
	if (ev->comm)
		snprintf(r->comm, sizeof(r->comm), "%s", ev->comm);
	r->cgroup = ev->cgroup;
	report_sketch_init(&r->dep);
	report_sketch_init(&r->queue);
	report_sketch_init(&r->run);
	s->rows[s->nr_rows++] = r;
	return r;
}

static int on_queue(struct report_sched *s, const struct gpu_event *ev)
{
	struct report_sched_row *row = row_get(s, ev);
	struct sched_job *j;

	if (!row)
		return -1;
	/* A fence number reused: the old job's done was lost. */
	j = job_find(s, ev->sched.context, ev->sched.seqno);
	if (j)
		return 0;
	j = calloc(1, sizeof(*j));
	if (!j)
		return -1;
	j->context = ev->sched.context;
	j->seqno = ev->sched.seqno;
	j->row = row;
	j->queue = ev->time;
	if (u64_map_put(&s->jobs, key_of(j->context, j->seqno),
			(uintptr_t)j)) {
		free(j);
		return -1;
	}
	return 0;
}

static void wait_end(struct report_sched *s, struct sched_wait *w, uint64_t t);

/* @j's wait for the fence @key, made if it has none; NULL: no memory. */
static struct sched_wait *wait_get(struct report_sched *s,
				   struct sched_job *j, uint64_t key)
{
	struct sched_wait *w;
	uint64_t head = 0;

	for (w = j->waits; w; w = w->jnext)
		if (w->key == key)
			return w;
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->key = key;
	w->job = j;
	u64_map_get(&s->waits, key, &head);
	w->next = (struct sched_wait *)(uintptr_t)head;
	if (u64_map_put(&s->waits, key, (uintptr_t)w)) {
		free(w);
		return NULL;
	}
	w->jnext = j->waits;
	j->waits = w;
	return w;
}

/*
 * A dependency the job was pushed with.  A finished fence of a job of the
 * same scheduler is waited for only until that job is handed to the
 * hardware (drm_sched pipelines it): its run ends the wait.
 */
static int on_dep(struct report_sched *s, const struct gpu_event *ev)
{
	struct sched_job *j = job_find(s, ev->sched.context, ev->sched.seqno);
	struct sched_job *d;
	struct sched_wait *w;

	if (!j || j->run)
		return 0;
	j->row->deps++;
	w = wait_get(s, j, key_of(ev->sched.dep_context, ev->sched.dep_seqno));
	if (!w)
		return -1;
	d = job_find(s, ev->sched.dep_context, ev->sched.dep_seqno);
	w->on_run = d && d != j && !strcmp(d->row->dev, j->row->dev) &&
		    !strcmp(d->row->ring, j->row->ring);
	/* Handed over already: nothing to wait for. */
	if (w->on_run && d->run)
		wait_end(s, w, d->run);
	return 0;
}

/* The scheduler found the job waiting for this fence, still unsignaled. */
static int on_blocked(struct report_sched *s, const struct gpu_event *ev)
{
	struct sched_job *j = job_find(s, ev->sched.context, ev->sched.seqno);
	struct sched_wait *w;

	if (!j || j->run)
		return 0;
	w = wait_get(s, j, key_of(ev->sched.dep_context, ev->sched.dep_seqno));
	if (!w)
		return -1;
	w->blocked = true;
	return 0;
}

/* Take @w off its fence's chain (it is there). */
static void wait_unlink(struct report_sched *s, struct sched_wait *w)
{
	struct sched_wait *head, **pp;
	uint64_t v = 0;

	u64_map_get(&s->waits, w->key, &v);
	head = (struct sched_wait *)(uintptr_t)v;
	for (pp = &head; *pp && *pp != w; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = w->next;
	if (head)
		u64_map_put(&s->waits, w->key, (uintptr_t)head);
	else
		u64_map_del(&s->waits, w->key, NULL);
}

/* @w's wait is over at @t: off both chains, freed. */
static void wait_end(struct report_sched *s, struct sched_wait *w, uint64_t t)
{
	struct sched_wait **pp;

	if (t > w->job->queue && t > w->job->dep_end)
		w->job->dep_end = t;
	for (pp = &w->job->waits; *pp != w; pp = &(*pp)->jnext)
		;
	*pp = w->jnext;
	wait_unlink(s, w);
	free(w);
}

/* The waits for fence @key that end now: at its signal, or at its run. */
static void waits_end(struct report_sched *s, uint64_t key, bool run,
		      uint64_t t)
{
	struct sched_wait *w, *next;
	uint64_t v;

	if (!u64_map_get(&s->waits, key, &v))
		return;
	for (w = (struct sched_wait *)(uintptr_t)v; w; w = next) {
		next = w->next;
		if (w->on_run == run)
			wait_end(s, w, t);
	}
}

static void drop_waits(struct report_sched *s, struct sched_job *j)
{
	struct sched_wait *w, *next;

	for (w = j->waits; w; w = next) {
		next = w->jnext;
		wait_unlink(s, w);
		free(w);
	}
	j->waits = NULL;
}

static int on_run(struct report_sched *s, const struct gpu_event *ev)
{
	struct sched_job *j = job_find(s, ev->sched.context, ev->sched.seqno);
	struct sched_wait *w;

	/* Jobs of this scheduler pipelined behind it may go. */
	waits_end(s, key_of(ev->sched.context, ev->sched.seqno), true, ev->time);
	/* Pushed before the recording: done will count it. */
	if (!j || j->run)
		return 0;
	j->run = ev->time;
	/*
	 * Still waiting at its run: a fence the scheduler found unsignaled
	 * was signaled unrecorded, so it waited till now; any other was
	 * signaled before the push (or never held it up).
	 */
	for (w = j->waits; w; w = w->jnext)
		if (w->blocked)
			j->dep_end = j->run;
	drop_waits(s, j);
	if (j->dep_end > j->run)
		j->dep_end = j->run;
	if (j->dep_end < j->queue)
		j->dep_end = j->queue;
	return 0;
}

static void job_free(struct report_sched *s, struct sched_job *j)
{
	u64_map_del(&s->jobs, key_of(j->context, j->seqno), NULL);
	drop_waits(s, j);
	free(j);
}

/* Done jobs fence pairing has not named within the window: its none. */
static void expire_done(struct report_sched *s, uint64_t now)
{
	struct sched_job *j;

	while ((j = s->done_head) &&
	       (now == UINT64_MAX || j->done + COMPARE_WINDOW_NS < now)) {
		s->done_head = j->done_next;
		if (!s->done_head)
			s->done_tail = NULL;
		s->cmp.sched_only++;
		job_free(s, j);
	}
}

static int on_done(struct report_sched *s, const struct gpu_event *ev)
{
	struct sched_job *j = job_find(s, ev->sched.context, ev->sched.seqno);
	struct report_sched_row *r;
	uint64_t start;

	expire_done(s, ev->time);
	if (!j || !j->run) {
		/* Pushed before the recording, or its run was lost. */
		s->untimed++;
		if (j)
			job_free(s, j);
		return 0;
	}
	if (j->done)
		return 0;
	j->done = ev->time;
	r = j->row;
	r->jobs++;
	start = j->dep_end > j->queue ? j->dep_end : j->queue;
	if (j->dep_end > j->queue) {
		r->waited++;
		if (report_sketch_add(&r->dep, j->dep_end - j->queue))
			return -1;
	}
	if (report_sketch_add(&r->queue, j->run - start) ||
	    report_sketch_add(&r->run, j->done - j->run))
		return -1;
	if (s->done_tail)
		s->done_tail->done_next = j;
	else
		s->done_head = j;
	s->done_tail = j;
	return 0;
}

int report_sched_add(struct report_sched *s, const struct gpu_event *ev)
{
	switch (ev->kind) {
	case GPU_EV_SCHED_QUEUE:
		s->events++;
		return on_queue(s, ev);
	case GPU_EV_SCHED_DEP:
		s->events++;
		return on_dep(s, ev);
	case GPU_EV_SCHED_BLOCKED:
		s->events++;
		return on_blocked(s, ev);
	case GPU_EV_SCHED_RUN:
		s->events++;
		return on_run(s, ev);
	case GPU_EV_SCHED_DONE:
		s->events++;
		return on_done(s, ev);
	case GPU_EV_FENCE_SIGNALED:
		waits_end(s, key_of(ev->fence.context, ev->fence.seqno), false,
			  ev->time);
		return 0;
	default:
		return 0;
	}
}

static uint64_t diff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

uint64_t report_sched_compare(struct report_sched *s, uint64_t context,
			      uint64_t seqno, uint64_t submit,
			      uint64_t handover, uint64_t end)
{
	struct sched_job *j = job_find(s, context, seqno), **pp;
	struct report_sched_compare *c = &s->cmp;
	uint64_t ds, dh, de, dep_end;

	if (!j || !j->done)
		return 0;
	dep_end = j->dep_end > j->queue ? j->dep_end : 0;
	ds = diff(submit, j->queue);
	dh = diff(handover, j->run);
	de = diff(end, j->done);
	c->jobs++;
	if (submit <= j->queue && j->run <= handover && j->done <= end)
		c->ordered++;
	if (ds <= c->tolerance_ns && dh <= c->tolerance_ns &&
	    de <= c->tolerance_ns)
		c->agree++;
	c->max_submit_ns = ds > c->max_submit_ns ? ds : c->max_submit_ns;
	c->max_handover_ns = dh > c->max_handover_ns ? dh : c->max_handover_ns;
	c->max_end_ns = de > c->max_end_ns ? de : c->max_end_ns;
	/* Off the done list: usually its head. */
	for (pp = &s->done_head; *pp && *pp != j; pp = &(*pp)->done_next)
		;
	if (*pp) {
		*pp = j->done_next;
		if (s->done_tail == j) {
			struct sched_job *t = s->done_head;

			while (t && t->done_next)
				t = t->done_next;
			s->done_tail = t;
		}
	}
	job_free(s, j);
	return dep_end;
}

int report_sched_finish(struct report_sched *s,
			const struct report_names *names)
{
	const struct report_drm_client *c;
	struct report_sched_row *r;
	size_t pos = 0;
	uint64_t v;
	uint32_t i;

	if (s->finished)
		return 0;
	s->finished = true;
	expire_done(s, UINT64_MAX);
	/* What is left in the map never ended. */
	while (u64_map_next(&s->jobs, &pos, NULL, &v))
		((struct sched_job *)(uintptr_t)v)->row->unfinished++;
	for (i = 0; i < s->nr_rows; i++) {
		r = s->rows[i];
		c = report_names_client(names, r->dev, r->client_id);
		if (!c)
			continue;
		r->pid = c->pid;
		r->pid_from_fdinfo = true;
		memcpy(r->client_name, c->name, sizeof(r->client_name));
	}
	return 0;
}

void report_sched_free(struct report_sched *s)
{
	size_t pos = 0;
	uint64_t v;
	uint32_t i;

	while (u64_map_next(&s->jobs, &pos, NULL, &v)) {
		struct sched_job *j = (struct sched_job *)(uintptr_t)v;

		while (j->waits) {
			struct sched_wait *w = j->waits;

			j->waits = w->jnext;
			free(w);
		}
		free(j);
	}
	u64_map_free(&s->jobs);
	u64_map_free(&s->waits);
	for (i = 0; i < s->nr_rows; i++) {
		report_sketch_free(&s->rows[i]->dep);
		report_sketch_free(&s->rows[i]->queue);
		report_sketch_free(&s->rows[i]->run);
		free(s->rows[i]);
	}
	free(s->rows);
	memset(s, 0, sizeof(*s));
}
