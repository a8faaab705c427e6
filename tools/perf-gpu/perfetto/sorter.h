/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * DOC: perfetto/sorter - slices put in time order, on lanes that nest
 *
 * A packet sequence must go forward in time, but a recording's reader
 * learns a GPU job only when it ends, long after its start: the slices
 * of a sequence are therefore held here and handed back as begin and end
 * events in time order.  The caller pushes a job (a slice with up to
 * PFT_PHASES child slices, its phases) once it knows it, and pops events
 * up to a time before which nothing can be pushed any more (the start
 * of the oldest job still running, say); what is held is what lies
 * between, so memory follows the jobs in flight, not the recording's
 * length.  A push older than an event already popped is refused (late),
 * for the caller to count.
 *
 * Slices on one Perfetto track must nest.  Jobs of one client or ring
 * can overlap without nesting (two contexts, a ring that takes several
 * jobs), so each job goes on a lane: a child track of its group's track
 * (the process, the ring).  A job takes the first lane of its group free
 * at its start, a new lane when none is (the event that begins it says
 * so, for the caller to describe the lane first); popping jobs in the
 * order of their starts makes this the fewest lanes the overlap needs.
 * At one instant, ends come before instants and instants before begins,
 * so a lane freed at t is free for a job beginning at t; phases of no
 * length are left out, and a job of no length has no phases.
 */
#ifndef PERF_GPU_PERFETTO_SORTER_H
#define PERF_GPU_PERFETTO_SORTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PFT_PHASES	3

struct pft_phase {
	const char *name;
	uint64_t begin, end;
};

/* A job to place; strings must outlive the sorter (the caller's). */
struct pft_job {
	uint64_t group;		/* the track whose lanes it goes on */
	const char *lane_name;	/* the name of the group's lanes */
	const char *name;
	uint64_t begin, end;
	/* In time order, within [begin, end], not overlapping. */
	struct pft_phase phase[PFT_PHASES];
	unsigned int nr_phases;
	uint64_t tag;		/* the caller's, handed back */
};

enum pft_event_kind { PFT_EV_END, PFT_EV_INSTANT, PFT_EV_BEGIN };

struct pft_event {
	enum pft_event_kind kind;
	uint64_t ts;
	uint64_t track;		/* a lane, or an instant's track */
	const char *name;	/* a begin's or instant's */
	unsigned int phase;	/* 0: the job's slice; k: its phase k - 1 */
	unsigned int nr_phases;	/* the job's phases written (of length) */
	uint64_t end;		/* a begin's: when that slice ends */
	uint64_t tag;
	/* A begin on a lane never used before: describe it first. */
	bool new_lane;
	uint64_t group;		/* the lane's parent track */
	const char *lane_name;
	unsigned int lane;	/* its index in the group, from 0 */
};

struct pft_sorter;

/*
 * A sorter whose lanes are numbered from @first_lane_uuid up, a uuid
 * every @stride (uuids the caller uses for nothing else).  NULL when out
 * of memory.
 */
struct pft_sorter *pft_sorter_new(uint64_t first_lane_uuid, uint64_t stride);
void pft_sorter_free(struct pft_sorter *s);

/* 0; 1 when late (not kept); -1 out of memory. */
int pft_sorter_push(struct pft_sorter *s, const struct pft_job *job);
int pft_sorter_instant(struct pft_sorter *s, uint64_t ts, uint64_t track,
		       const char *name, uint64_t tag);

/*
 * The next event at or before @upto: 1 with @ev filled, 0 when there is
 * none.  UINT64_MAX drains the sorter.
 */
int pft_sorter_pop(struct pft_sorter *s, uint64_t upto, struct pft_event *ev);

/* Events held (a job counts once), and the time of the last popped. */
size_t pft_sorter_pending(const struct pft_sorter *s);
uint64_t pft_sorter_last(const struct pft_sorter *s);
/* The most lanes any group had. */
unsigned int pft_sorter_max_lanes(const struct pft_sorter *s);

#endif
