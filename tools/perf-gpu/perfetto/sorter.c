// SPDX-License-Identifier: GPL-2.0-only
/*
 * Slices held and handed back in time order, on lanes
 * (perfetto/sorter.h).  A min-heap (util/heap.h) of the next event of
 * each job held, keyed by (time, kind, order of arrival): a job is one
 * entry, put back with its next event after each pop.
 */
#include <stdlib.h>
#include <string.h>

#include "perfetto/sorter.h"
#include "util/array.h"
#include "util/heap.h"
#include "util/map.h"

/* A job's events: its begin and end, and each phase's. */
#define MAX_STEPS	(2 + 2 * PFT_PHASES)

struct step {
	uint64_t ts;
	uint8_t kind;		/* enum pft_event_kind */
	uint8_t phase;		/* 0: the job, k: phase k - 1 */
};

struct item {
	struct item *next_spare;
	struct pft_job job;
	uint64_t lane;		/* uuid, 0 before its begin */
	uint64_t instant_track;	/* an instant's (its one step) */
	unsigned int next, nr;
	struct step steps[MAX_STEPS];
};

struct lane {
	uint64_t uuid;
	uint64_t free_at;	/* the end of its last job */
};

struct group {
	struct lane *lanes;
	size_t nr, alloc;
};

struct pft_sorter {
	struct heap heap;
	uint64_t arrivals;
	uint64_t last;		/* the time of the last event popped */
	uint64_t next_lane, lane_stride;
	struct u64_map group_of;	/* group uuid: index + 1 */
	struct group *groups;
	size_t nr_groups, alloc_groups;
	unsigned int max_lanes;
	/* Items let go, kept for the next pushes (SPARE_MAX at most). */
	struct item *spare;
	size_t nr_spare;
};

#define SPARE_MAX	4096

static struct item *item_new(struct pft_sorter *s)
{
	struct item *it = s->spare;

	if (!it)
		return calloc(1, sizeof(*it));
	s->spare = it->next_spare;
	s->nr_spare--;
	memset(it, 0, sizeof(*it));
	return it;
}

static void item_put(struct pft_sorter *s, struct item *it)
{
	if (s->nr_spare == SPARE_MAX) {
		free(it);
		return;
	}
	it->next_spare = s->spare;
	s->spare = it;
	s->nr_spare++;
}

struct pft_sorter *pft_sorter_new(uint64_t first_lane_uuid, uint64_t stride)
{
	struct pft_sorter *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->next_lane = first_lane_uuid;
	s->lane_stride = stride;
	heap_init(&s->heap);
	u64_map_init(&s->group_of);
	return s;
}

void pft_sorter_free(struct pft_sorter *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->heap.nr; i++)
		free(s->heap.e[i].p);
	while (s->spare) {
		struct item *it = s->spare;

		s->spare = it->next_spare;
		free(it);
	}
	for (i = 0; i < s->nr_groups; i++)
		free(s->groups[i].lanes);
	free(s->groups);
	heap_free(&s->heap);
	u64_map_free(&s->group_of);
	free(s);
}

/* A step's tie in the heap: its kind first, then its arrival. */
static uint64_t order(struct pft_sorter *s, const struct step *st)
{
	return (uint64_t)st->kind << 62 | s->arrivals++;
}

/* Put @it in the heap at its next step: 0, or -1 out of memory. */
static int heap_put(struct pft_sorter *s, struct item *it)
{
	const struct step *st = &it->steps[it->next];

	return heap_push(&s->heap, st->ts, order(s, st), it);
}

static int push_item(struct pft_sorter *s, struct item *it)
{
	if (it->steps[0].ts < s->last) {
		item_put(s, it);
		return 1;
	}
	if (heap_put(s, it)) {
		item_put(s, it);
		return -1;
	}
	return 0;
}

static void add_step(struct item *it, uint64_t ts, enum pft_event_kind kind,
		     unsigned int phase)
{
	it->steps[it->nr++] = (struct step){ ts, kind, phase };
}

int pft_sorter_push(struct pft_sorter *s, const struct pft_job *job)
{
	struct item *it = item_new(s);
	uint64_t end, from;
	unsigned int i;

	if (!it)
		return -1;
	it->job = *job;
	end = job->end < job->begin ? job->begin : job->end;
	it->job.end = end;
	add_step(it, job->begin, PFT_EV_BEGIN, 0);
	from = job->begin;
	for (i = 0; i < job->nr_phases && i < PFT_PHASES; i++) {
		const struct pft_phase *p = &job->phase[i];
		uint64_t b = p->begin < from ? from : p->begin;
		uint64_t e = p->end > end ? end : p->end;

		if (e <= b)
			continue;
		add_step(it, b, PFT_EV_BEGIN, i + 1);
		add_step(it, e, PFT_EV_END, i + 1);
		from = e;
	}
	add_step(it, end, PFT_EV_END, 0);
	return push_item(s, it);
}

int pft_sorter_instant(struct pft_sorter *s, uint64_t ts, uint64_t track,
		       const char *name, uint64_t tag)
{
	struct item *it = item_new(s);

	if (!it)
		return -1;
	it->job.name = name;
	it->job.tag = tag;
	it->job.begin = it->job.end = ts;
	it->instant_track = track;
	add_step(it, ts, PFT_EV_INSTANT, 0);
	return push_item(s, it);
}

static struct group *group_of(struct pft_sorter *s, uint64_t uuid)
{
	uint64_t idx;

	if (u64_map_get(&s->group_of, uuid, &idx))
		return &s->groups[idx - 1];
	if (ARRAY_RESERVE(s->groups, s->alloc_groups, s->nr_groups + 1) ||
	    u64_map_put(&s->group_of, uuid, s->nr_groups + 1))
		return NULL;
	memset(&s->groups[s->nr_groups], 0, sizeof(s->groups[0]));
	return &s->groups[s->nr_groups++];
}

/*
 * The lane of a job beginning now: the first of its group free at its
 * begin, or a new one.  0 out of memory.
 */
static uint64_t take_lane(struct pft_sorter *s, const struct pft_job *job,
			  struct pft_event *ev)
{
	struct group *g = group_of(s, job->group);
	size_t i;

	if (!g)
		return 0;
	for (i = 0; i < g->nr; i++)
		if (g->lanes[i].free_at <= job->begin)
			break;
	if (i == g->nr) {
		if (ARRAY_RESERVE(g->lanes, g->alloc, g->nr + 1))
			return 0;
		g->lanes[g->nr++] = (struct lane){ .uuid = s->next_lane };
		s->next_lane += s->lane_stride;
		if (g->nr > s->max_lanes)
			s->max_lanes = g->nr;
		ev->new_lane = true;
	}
	g->lanes[i].free_at = job->end;
	ev->lane = i;
	return g->lanes[i].uuid;
}

int pft_sorter_pop(struct pft_sorter *s, uint64_t upto, struct pft_event *ev)
{
	const struct heap_entry *top = heap_top(&s->heap);
	struct heap_entry e;
	struct item *it;
	const struct step *st;

	if (!top || top->key > upto)
		return 0;
	it = top->p;
	st = &it->steps[it->next];
	memset(ev, 0, sizeof(*ev));
	ev->kind = st->kind;
	ev->ts = st->ts;
	ev->phase = st->phase;
	ev->nr_phases = it->nr > 2 ? (it->nr - 2) / 2 : 0;
	ev->tag = it->job.tag;
	ev->group = it->job.group;
	ev->lane_name = it->job.lane_name;
	if (st->kind == PFT_EV_INSTANT) {
		ev->track = it->instant_track;
		ev->name = it->job.name;
	} else {
		if (!it->lane) {
			it->lane = take_lane(s, &it->job, ev);
			if (!it->lane)
				return -1;
		}
		ev->track = it->lane;
	}
	if (st->kind == PFT_EV_BEGIN) {
		ev->name = st->phase ? it->job.phase[st->phase - 1].name :
			   it->job.name;
		ev->end = it->steps[it->next + 1].ts;
		if (!st->phase)
			ev->end = it->job.end;
	}
	s->last = st->ts;
	/* Put the job back at its next step, or let it go. */
	if (++it->next < it->nr) {
		st = &it->steps[it->next];
		heap_replace_top(&s->heap, st->ts, order(s, st), it);
	} else {
		heap_pop(&s->heap, &e);
		item_put(s, it);
	}
	return 1;
}

size_t pft_sorter_pending(const struct pft_sorter *s)
{
	return s->heap.nr;
}

uint64_t pft_sorter_last(const struct pft_sorter *s)
{
	return s->last;
}

unsigned int pft_sorter_max_lanes(const struct pft_sorter *s)
{
	return s->max_lanes;
}
