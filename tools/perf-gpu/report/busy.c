// SPDX-License-Identifier: GPL-2.0-only
/*
 * Busy time of perf gpu report (report/busy.h).
 */
#include <stdlib.h>
#include <string.h>

#include "report/busy.h"

#define BUSY_LIMIT	1024

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

void report_busy_init(struct report_busy *b)
{
	memset(b, 0, sizeof(*b));
	b->limit = BUSY_LIMIT;
}

void report_busy_free(struct report_busy *b)
{
	free(b->seg);
	b->seg = NULL;
	b->nr = b->alloc = 0;
}

static struct report_segment *seg_at(const struct report_busy *b, uint32_t i)
{
	return &b->seg[(b->head + i) & (b->alloc - 1)];
}

/* Room for one more live segment: the ring doubles (a power of two). */
static int room(struct report_busy *b)
{
	struct report_segment *bigger;
	uint32_t n, i;

	if (b->nr < b->alloc)
		return 0;
	n = b->alloc ? 2 * b->alloc : 8;
	if (!n)
		return -1;
	bigger = malloc((size_t)n * sizeof(*bigger));
	if (!bigger)
		return -1;
	for (i = 0; i < b->nr; i++)
		bigger[i] = *seg_at(b, i);
	free(b->seg);
	b->seg = bigger;
	b->alloc = n;
	b->head = 0;
	return 0;
}

int report_busy_add(struct report_busy *b, uint64_t start, uint64_t end)
{
	struct report_segment *last;

	/* Only a file out of time order reaches before what is final. */
	if (start < b->floor)
		start = b->floor;
	if (end <= start)
		return 0;
	/*
	 * Ends come in order: the new interval overlaps only the newest
	 * segments, and covers them from where it or they start.  Touching
	 * is no overlap: a merged segment ending where the interval starts
	 * must keep its own length.
	 */
	while (b->nr) {
		last = seg_at(b, b->nr - 1);
		if (last->end <= start)
			break;
		if (last->start < start)
			start = last->start;
		if (last->end > end)
			end = last->end;
		b->nr--;
	}
	if (room(b))
		return -1;
	last = seg_at(b, b->nr++);
	last->start = start;
	last->end = end;
	last->len = end - start;
	return 0;
}

bool report_busy_full(const struct report_busy *b)
{
	return b->nr + 1 >= b->limit;
}

static void final_oldest(struct report_busy *b)
{
	struct report_segment *s = seg_at(b, 0);

	b->done = sat_add(b->done, s->len);
	b->floor = s->end;
	b->head = (b->head + 1) & (b->alloc - 1);
	b->nr--;
}

void report_busy_settle(struct report_busy *b, const uint64_t *starts,
			size_t n, uint64_t now)
{
	uint64_t bound = n && starts[0] < now ? starts[0] : now;
	uint64_t lo, hi;
	uint32_t r, w = 0;
	size_t k = 0;
	bool open = false;	/* the segment at w - 1 takes merges */

	while (b->nr && seg_at(b, 0)->end <= bound)
		final_oldest(b);
	for (r = 0; r < b->nr; r++) {
		struct report_segment s = *seg_at(b, r);

		/* The band of starts [lo, hi) the segment begins in. */
		while (k + 1 < n && starts[k + 1] <= s.start)
			k++;
		lo = n ? starts[k] : 0;
		hi = k + 1 < n ? starts[k + 1] : UINT64_MAX;
		if (s.start < lo || s.end > hi) {
			/* Across a start: a job may yet cover part of it only. */
			*seg_at(b, w++) = s;
			open = false;
			continue;
		}
		if (open && seg_at(b, w - 1)->start >= lo) {
			struct report_segment *m = seg_at(b, w - 1);

			m->end = s.end;
			m->len = sat_add(m->len, s.len);
			continue;
		}
		*seg_at(b, w++) = s;
		open = true;
	}
	b->nr = w;
	if (b->nr >= b->limit / 2 && b->limit < UINT32_MAX / 2)
		b->limit *= 2;
}

uint64_t report_busy_total(const struct report_busy *b)
{
	uint64_t sum = b->done;
	uint32_t i;

	for (i = 0; i < b->nr; i++)
		sum = sat_add(sum, seg_at(b, i)->len);
	return sum;
}
