/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Busy time for perf gpu report: the length of the union of the running
 * intervals of jobs, exact, in memory bounded by the jobs running rather
 * than the jobs seen.
 *
 * Intervals come in the order of their ends (jobs signal in time order)
 * and are kept as disjoint, sorted segments.  A new one can only reach
 * back to where a job still in flight started: every such job runs from
 * a start already known (max(its init, the last signal on its context);
 * jobs queued behind it start at a later signal, jobs not yet seen after
 * the last event), and when it signals, its interval covers everything
 * from its start on.  So a settling pass, given the starts of the
 * running jobs, makes final what ends before the first start, and merges
 * the segments that lie between two consecutive starts (or after the
 * last one) into one segment that remembers its covered length: nothing
 * to come can split them, it can only cover them whole.  What is left is
 * at most a few segments per running job.
 */
#ifndef PERF_GPU_REPORT_BUSY_H
#define PERF_GPU_REPORT_BUSY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct report_segment {
	uint64_t start, end;
	uint64_t len;		/* covered: end - start unless merged by a pass */
};

struct report_busy {
	uint64_t done;		/* covered length of the segments made final */
	uint64_t floor;		/* the end of the last segment made final */
	struct report_segment *seg;	/* live segments: a ring, in order */
	uint32_t head, nr, alloc;
	uint32_t limit;		/* live segments that call for a pass */
	uint64_t pass;		/* the last pass that settled it */
};

void report_busy_init(struct report_busy *b);
void report_busy_free(struct report_busy *b);

/* Add [@start, @end]: 0, or -1 out of memory. */
int report_busy_add(struct report_busy *b, uint64_t start, uint64_t end);

/* True when the live segments call for a settling pass. */
bool report_busy_full(const struct report_busy *b);

/*
 * Settle: @starts, ascending, the starts of the @n jobs running in this
 * busy time's scope; @now, the time of the last event.  (The limit for
 * the next pass doubles when half of it stays live: then the jobs
 * running need that many.)
 */
void report_busy_settle(struct report_busy *b, const uint64_t *starts,
			size_t n, uint64_t now);

/* The busy time so far, saturating. */
uint64_t report_busy_total(const struct report_busy *b);

#endif
