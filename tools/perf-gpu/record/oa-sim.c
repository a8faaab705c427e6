// SPDX-License-Identifier: GPL-2.0-only
/*
 * --oa-source=sim: the simulator driven by the recording's own fences.
 * A job runs from its dma_fence_init (its dma_fence_emit for a fence
 * numbered there, perfdata/fence-number.h) to the dma_fence_signaled of
 * the same (context, seqno); while any job runs the GPU is busy, in the
 * context of its process.  Stepping happens after the fact over the
 * sorted samples, so the simulated stream follows what was really seen.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/fence-number.h"
#include "perfdata/tracefs.h"
#include "record/events.h"
#include "record/oa.h"
#include "record/store.h"
#include "util/array.h"
#include "util/debug.h"

#define NO_END UINT64_MAX

struct field {
	int off;		/* -1: not found */
};

struct job {
	uint64_t start, end;
	uint32_t context, seqno;
	unsigned int owner;	/* index into oa->owner */
};

struct sig {
	uint64_t time;
	uint32_t context, seqno;
};

struct collect {
	struct record_oa *oa;
	int init_ev, sig_ev, emit_ev;
	/* Jobs initialised unnumbered: their index + 1, until their emit. */
	struct fence_number *unnumbered;
	int ctx_off, seq_off;
	struct job *jobs;
	size_t nr_jobs, alloc_jobs;
	struct sig *sigs;
	size_t nr_sigs, alloc_sigs;
};

/* The offset of "unsigned int NAME;" in a tracefs format, or -1. */
/* The offset of a dma_fence field in the raw data, -1 if none. */
static int field_offset(const char *system, const char *event,
			const char *name)
{
	unsigned int off, size;

	return tracefs_field(system, event, name, &off, &size) ? -1 : (int)off;
}

static int event_index(const struct record_events *evs, const char *name)
{
	unsigned int i;

	for (i = 0; i < evs->nr; i++)
		if (!strcmp(evs->ev[i].name, name))
			return i;
	return -1;
}

static bool read_u32(const void *raw, uint32_t size, int off, uint32_t *v)
{
	if (off < 0 || (uint32_t)off + 4 > size)
		return false;
	memcpy(v, (const uint8_t *)raw + off, 4);
	return true;
}

/* The context of process @pid: one per process, the last shared past 64. */
static unsigned int owner_of(struct record_oa *oa, int32_t pid)
{
	unsigned int i;

	for (i = 0; i < oa->nr_owners; i++)
		if (oa->owner[i] == pid)
			return i;
	if (oa->nr_owners < OA_SIM_MAX_CONTEXTS) {
		oa->owner[oa->nr_owners] = pid;
		return oa->nr_owners++;
	}
	/* Shared, so its reports cannot name one process. */
	oa->owner[OA_SIM_MAX_CONTEXTS - 1] = 0;
	return OA_SIM_MAX_CONTEXTS - 1;
}

static int collect_fn(void *arg, unsigned int event, int32_t pid,
		      uint64_t time, const void *raw, uint32_t raw_size)
{
	struct collect *c = arg;
	uint32_t ctx, seq;

	if ((int)event != c->init_ev && (int)event != c->sig_ev &&
	    (int)event != c->emit_ev)
		return 0;
	if (!read_u32(raw, raw_size, c->ctx_off, &ctx) ||
	    !read_u32(raw, raw_size, c->seq_off, &seq))
		return 0;
	if ((int)event == c->emit_ev) {
		/* Numbered at emit (design.rst 3.3): its number and start. */
		uintptr_t held = (uintptr_t)fence_number_take(c->unnumbered,
							      ctx, pid);

		if (held) {
			c->jobs[held - 1].seqno = seq;
			c->jobs[held - 1].start = time;
		}
		return 0;
	}
	if ((int)event == c->init_ev) {
		void *evicted;

		if (ARRAY_RESERVE(c->jobs, c->alloc_jobs, c->nr_jobs + 1))
			return -ENOMEM;
		/* Threads are not told apart here: the process stands in. */
		if (!seq && fence_number_hold(c->unnumbered, ctx, pid,
					      (void *)(uintptr_t)(c->nr_jobs + 1),
					      &evicted))
			return -ENOMEM;
		c->jobs[c->nr_jobs++] = (struct job){
			.start = time, .end = NO_END, .context = ctx,
			.seqno = seq, .owner = owner_of(c->oa, pid),
		};
		return 0;
	}
	return ARRAY_PUSH(c->sigs, c->nr_sigs, c->alloc_sigs,
			  ((struct sig){ time, ctx, seq }));
}

static int cmp_sig(const void *a, const void *b)
{
	const struct sig *x = a, *y = b;

	if (x->context != y->context)
		return x->context < y->context ? -1 : 1;
	if (x->seqno != y->seqno)
		return x->seqno < y->seqno ? -1 : 1;
	return x->time < y->time ? -1 : x->time > y->time;
}

/* Each job ends at the first signal of its fence at or after its start. */
static void match_signals(struct collect *c)
{
	size_t i, lo, hi, mid;

	qsort(c->sigs, c->nr_sigs, sizeof(*c->sigs), cmp_sig);
	for (i = 0; i < c->nr_jobs; i++) {
		struct job *j = &c->jobs[i];
		struct sig key = { j->start, j->context, j->seqno };

		lo = 0;
		hi = c->nr_sigs;
		while (lo < hi) {
			mid = (lo + hi) / 2;
			if (cmp_sig(&c->sigs[mid], &key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < c->nr_sigs && c->sigs[lo].context == j->context &&
		    c->sigs[lo].seqno == j->seqno)
			j->end = c->sigs[lo].time;
	}
}

/* A change of the running set: +1 at a job's start, -1 at its end. */
struct edge {
	uint64_t time;
	int delta;
	unsigned int owner;
};

static int cmp_edge(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->delta - y->delta;	/* ends first: no zero-length overlap */
}

/*
 * Step the simulator from oa->start_ns to oa->end_ns.  The context in a
 * busy stretch is that of the first-seen process with a job running, a
 * fixed rule, so a run is reproducible from its samples.
 */
static int drive(struct record_oa *oa, struct oa_sim *sim,
		 const struct job *jobs, size_t nr)
{
	unsigned int running[OA_SIM_MAX_CONTEXTS] = { 0 }, total = 0, k;
	struct edge *e = calloc(2 * nr + 1, sizeof(*e));
	uint64_t now = oa->start_ns, t;
	size_t n = 0, i;
	int err = 0;

	if (!e)
		return -1;
	for (i = 0; i < nr; i++) {
		uint64_t s = jobs[i].start < oa->start_ns ? oa->start_ns :
			     jobs[i].start;
		uint64_t end = jobs[i].end > oa->end_ns ? oa->end_ns :
			       jobs[i].end;

		if (s >= end)
			continue;
		e[n++] = (struct edge){ s, 1, jobs[i].owner };
		e[n++] = (struct edge){ end, -1, jobs[i].owner };
		oa->jobs++;
	}
	qsort(e, n, sizeof(*e), cmp_edge);
	for (i = 0; i <= n && !err; i++) {
		t = i < n ? e[i].time : oa->end_ns;
		if (t > now) {
			for (k = 0; total && !running[k]; k++)
				;
			err = oa_sim_step(sim, t - now, total > 0,
					  OA_SIM_CTX(total ? k : 0));
			now = t;
		}
		if (i < n) {
			running[e[i].owner] += e[i].delta;
			total += e[i].delta;
		}
	}
	free(e);
	return err;
}

int record_oa_run_sim(struct record_oa *oa, struct record_store *st,
		      const struct record_events *evs)
{
	struct collect c = { .oa = oa };
	struct oa_sim_config cfg = {
		.seed = 1, .period_ns = oa->period_ns,
		.start_cpu_ns = oa->start_ns,
	};
	struct oa_sim *sim = NULL;
	int err = -1;

	c.init_ev = event_index(evs, "dma_fence:dma_fence_init");
	c.sig_ev = event_index(evs, "dma_fence:dma_fence_signaled");
	c.emit_ev = event_index(evs, "dma_fence:dma_fence_emit");
	c.unnumbered = fence_number_new();
	if (!c.unnumbered)
		goto out;
	c.ctx_off = field_offset("dma_fence", "dma_fence_init", "context");
	c.seq_off = field_offset("dma_fence", "dma_fence_init", "seqno");
	if (c.init_ev < 0 || c.sig_ev < 0 || c.ctx_off < 0 || c.seq_off < 0)
		pr_err("--oa-source=sim: no dma_fence tracepoints recorded: the simulated GPU stays idle\n");
	else if (record_store_for_each_sample(st, collect_fn, &c))
		goto out;
	match_signals(&c);
	sim = malloc(sizeof(*sim));
	if (!sim || oa_sim_init(sim, &cfg, &oa->w) ||
	    drive(oa, sim, c.jobs, c.nr_jobs) || oa_sim_finish(sim)) {
		pr_err("OA simulator: %s\n", strerror(errno));
		goto out;
	}
	err = 0;
out:
	free(sim);
	free(c.jobs);
	free(c.sigs);
	fence_number_free(c.unnumbered, NULL);
	return err;
}
