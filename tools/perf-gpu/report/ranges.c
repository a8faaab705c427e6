// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ranges for perf gpu report (report/ranges.h).
 *
 * Per process: a chain of its open ranges, innermost first, and the
 * indices of its closed ranges in the order they closed, which is the
 * order of their ends.  A job that signals now with its running
 * interval [s, now] can only overlap the open ranges and the closed ones
 * that end at or after s: a binary search finds those, so a job costs
 * the ranges it overlaps, not all the ranges there are.  An OA report
 * happens now: only open ranges (and those ending now) hold it; its
 * delta, which began at the report before, goes to the ranges it meets
 * in the share of its time they cover (range_add_delta()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/ranges.h"
#include "util/array.h"
#include "util/debug.h"

struct report_ranges_proc {
	int32_t pid;
	int32_t open;			/* innermost open range, -1 */
	uint32_t *closed;		/* ranges in the order they closed */
	uint32_t nr_closed;
	size_t alloc_closed;
};

static char *dup_part(const char *s, size_t len)
{
	char *d = malloc(len + 1);

	if (d) {
		memcpy(d, s, len);
		d[len] = 0;
	}
	return d;
}

/* "EV1,EV2[;EV3,EV4]": each EV a "system:event" name. */
static int parse_pairs(struct report_ranges *rr, const char *pairs)
{
	const char *p = pairs, *semi, *comma;

	while (*p) {
		char **b, **e, **n;
		size_t len;

		semi = strchr(p, ';');
		len = semi ? (size_t)(semi - p) : strlen(p);
		comma = memchr(p, ',', len);
		if (!comma || comma == p || comma == p + len - 1 ||
		    memchr(comma + 1, ',', p + len - comma - 1) ||
		    !memchr(p, ':', comma - p) ||
		    !memchr(comma + 1, ':', p + len - comma - 1)) {
			pr_err("--range wants SYS:EVENT1,SYS:EVENT2, not '%.*s'\n",
			       (int)len, p);
			return -1;
		}
		b = realloc(rr->pair_begin, (rr->nr_pairs + 1) * sizeof(*b));
		if (b)
			rr->pair_begin = b;
		e = realloc(rr->pair_end, (rr->nr_pairs + 1) * sizeof(*e));
		if (e)
			rr->pair_end = e;
		n = realloc(rr->pair_name, (rr->nr_pairs + 1) * sizeof(*n));
		if (n)
			rr->pair_name = n;
		if (!b || !e || !n)
			return -1;
		b[rr->nr_pairs] = dup_part(p, comma - p);
		e[rr->nr_pairs] = dup_part(comma + 1, p + len - comma - 1);
		n[rr->nr_pairs] = dup_part(p, len);
		rr->nr_pairs++;
		if (!b[rr->nr_pairs - 1] || !e[rr->nr_pairs - 1] ||
		    !n[rr->nr_pairs - 1])
			return -1;
		p += len + (semi ? 1 : 0);
	}
	return 0;
}

int report_ranges_init(struct report_ranges *rr, const char *pairs)
{
	memset(rr, 0, sizeof(*rr));
	if (pairs && parse_pairs(rr, pairs))
		return -1;
	return 0;
}

static struct report_ranges_proc *proc_of(struct report_ranges *rr,
					   int32_t pid, bool add)
{
	struct report_ranges_proc *p;
	uint64_t i;

	if (u64_map_get(&rr->proc_of, (uint32_t)pid, &i))
		return &rr->procs[i];
	if (!add)
		return NULL;
	if (ARRAY_RESERVE(rr->procs, rr->alloc_procs, rr->nr_procs + 1) ||
	    u64_map_put(&rr->proc_of, (uint32_t)pid, rr->nr_procs)) {
		rr->oom = true;
		return NULL;
	}
	p = &rr->procs[rr->nr_procs++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->open = -1;
	return p;
}

static void range_begin(struct report_ranges *rr, int32_t pid,
			const char *name, size_t len, uint64_t time)
{
	struct report_ranges_proc *p;
	struct report_range *r;

	if (rr->nr >= REPORT_RANGES_MAX) {
		rr->dropped++;
		return;
	}
	p = proc_of(rr, pid, true);
	if (!p || ARRAY_RESERVE(rr->r, rr->alloc, rr->nr + 1)) {
		rr->oom = true;
		return;
	}
	r = &rr->r[rr->nr];
	memset(r, 0, sizeof(*r));
	if (len >= REPORT_RANGE_NAME_MAX) {
		rr->long_names++;
		len = REPORT_RANGE_NAME_MAX - 1;
	}
	memcpy(r->name, name, len);
	r->pid = pid;
	r->begin = time;
	r->outer = p->open;
	p->open = rr->nr++;
}

/* Close the innermost open range of @pid named @name (NULL: any). */
static void range_end(struct report_ranges *rr, int32_t pid,
		      const char *name, size_t len, uint64_t time)
{
	struct report_ranges_proc *p = proc_of(rr, pid, false);
	int32_t *link, i;

	if (len >= REPORT_RANGE_NAME_MAX)
		len = REPORT_RANGE_NAME_MAX - 1;
	for (link = p ? &p->open : NULL; link && *link >= 0;
	     link = &rr->r[*link].outer) {
		i = *link;
		if (!name || (strlen(rr->r[i].name) == len &&
			      !memcmp(rr->r[i].name, name, len)))
			break;
	}
	if (!link || *link < 0) {
		rr->unmatched_ends++;
		return;
	}
	if (ARRAY_RESERVE(p->closed, p->alloc_closed, p->nr_closed + 1)) {
		rr->oom = true;
		return;
	}
	i = *link;
	*link = rr->r[i].outer;		/* unlink it from the open chain */
	rr->r[i].outer = -1;
	rr->r[i].end = time;
	rr->r[i].closed = true;
	p->closed[p->nr_closed++] = i;
}

static bool word(const char **s, const char *end, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(end - *s) <= n || memcmp(*s, w, n) ||
	    ((*s)[n] != ' ' && (*s)[n] != '\t'))
		return false;
	*s += n;
	while (*s < end && (**s == ' ' || **s == '\t'))
		(*s)++;
	return true;
}

/* "begin NAME" / "end NAME", blanks around allowed. */
static void on_mark(struct report_ranges *rr, int32_t pid, const char *text,
		    uint64_t time)
{
	const char *s = text, *end = text + strlen(text), *name;
	bool begin;

	while (end > s && (end[-1] == ' ' || end[-1] == '\t' ||
			   end[-1] == '\n' || end[-1] == '\r'))
		end--;
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (word(&s, end, "begin"))
		begin = true;
	else if (word(&s, end, "end"))
		begin = false;
	else {
		rr->bad_marks++;
		return;
	}
	/* The rest of the line, as the marker takes it ("begin frame 1"). */
	name = s;
	if (s == end) {
		rr->bad_marks++;
		return;
	}
	if (begin)
		range_begin(rr, pid, name, end - name, time);
	else
		range_end(rr, pid, name, end - name, time);
}

static void on_event(void *arg, const struct gpu_event *ev)
{
	struct report_ranges *rr = arg;
	unsigned int i;

	if (ev->kind == GPU_EV_MARK) {
		on_mark(rr, ev->mark.pid, ev->mark.text, ev->time);
		return;
	}
	for (i = 0; i < rr->nr_pairs; i++) {
		/*
		 * Named "EV1,EV2".  Closing first: with EV1 = EV2 each
		 * sample ends one range and begins the next.
		 */
		if (!strcmp(ev->name, rr->pair_end[i]))
			range_end(rr, ev->pid, rr->pair_name[i],
				  strlen(rr->pair_name[i]), ev->time);
		if (!strcmp(ev->name, rr->pair_begin[i]))
			range_begin(rr, ev->pid, rr->pair_name[i],
				    strlen(rr->pair_name[i]), ev->time);
	}
}

/*
 * Add [@s, @e] to the union of @r's running intervals.  Jobs arrive in
 * the order of their signals and an interval is cut to the range, so @e
 * is never below the ends already there: only the segments at the back
 * can meet it.
 */
static void range_add_run(struct report_ranges *rr, struct report_range *r,
			  uint64_t s, uint64_t e)
{
	if (s < r->begin)
		s = r->begin;
	if (r->closed && e > r->end)
		e = r->end;
	if (s >= e)
		return;
	while (r->nr_seg && r->seg[r->nr_seg - 1].end >= s) {
		if (r->seg[r->nr_seg - 1].start < s)
			s = r->seg[r->nr_seg - 1].start;
		if (r->seg[r->nr_seg - 1].end > e)
			e = r->seg[r->nr_seg - 1].end;
		r->nr_seg--;
	}
	if (ARRAY_RESERVE(r->seg, r->alloc_seg, r->nr_seg + 1)) {
		rr->oom = true;
		return;
	}
	r->seg[r->nr_seg].start = s;
	r->seg[r->nr_seg].end = e;
	r->seg[r->nr_seg].len = e - s;
	r->nr_seg++;
}

/* The first of @p's closed ranges (in end order) that ends at or after @t. */
static uint32_t first_closed_from(const struct report_ranges *rr,
				  const struct report_ranges_proc *p, uint64_t t)
{
	uint32_t lo = 0, hi = p->nr_closed;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (rr->r[p->closed[mid]].end < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void on_job(void *arg, const struct report_job_run *run)
{
	struct report_ranges *rr = arg;
	struct report_ranges_proc *p;
	int32_t i;
	uint32_t k;

	p = proc_of(rr, run->pair->client->pid, false);
	if (!p)
		return;
	for (i = p->open; i >= 0; i = rr->r[i].outer)
		range_add_run(rr, &rr->r[i], run->start, run->end);
	for (k = first_closed_from(rr, p, run->start); k < p->nr_closed; k++)
		range_add_run(rr, &rr->r[p->closed[k]], run->start, run->end);
}

/* A report at @part->time: inside @r when @r is open or ends then. */
static bool holds_now(const struct report_range *r, uint64_t t)
{
	return r->begin <= t && (!r->closed || r->end >= t);
}

static uint64_t share(uint64_t v, uint64_t num, uint64_t den)
{
	return (unsigned __int128)v * num / den;
}

/* @d scaled by @num / @den (num <= den), each counter rounded down. */
static void deltas_share(struct gpuprof_oa_deltas *out,
			 const struct gpuprof_oa_deltas *d, uint64_t num,
			 uint64_t den)
{
	unsigned int i;

	out->deltas = d->deltas;
	out->timestamp = share(d->timestamp, num, den);
	out->gpu_ticks = share(d->gpu_ticks, num, den);
	for (i = 0; i < GPUPROF_OA_A_COUNTERS; i++)
		out->a[i] = share(d->a[i], num, den);
	for (i = 0; i < GPUPROF_OA_B_COUNTERS; i++)
		out->b[i] = share(d->b[i], num, den);
	for (i = 0; i < GPUPROF_OA_C_COUNTERS; i++)
		out->c[i] = share(d->c[i], num, den);
}

/*
 * The part of the delta ending at @part (it covers the time from the
 * report before, @part->prev_time, to @part->time) that falls in @r: all
 * of it when @r covers that time, none when @r does not meet it, else
 * the share of the time @r covers, counters assumed to rise evenly
 * between two reports (nothing tells how they did).  A delta of no
 * length belongs where its report is.
 */
static void range_add_delta(struct report_range *r, const struct report_oa_part *part)
{
	uint64_t from = part->prev_time, to = part->time;
	struct gpuprof_oa_deltas d;

	if (to <= from) {
		if (holds_now(r, to))
			report_oa_deltas_add(&r->oa, part->d);
		return;
	}
	if (r->begin > from)
		from = r->begin;
	if (r->closed && r->end < to)
		to = r->end;
	if (to <= from)
		return;
	deltas_share(&d, part->d, to - from, part->time - part->prev_time);
	report_oa_deltas_add(&r->oa, &d);
}

static void range_add_oa(struct report_range *r, const struct report_oa_part *part,
			 bool own)
{
	bool inside = holds_now(r, part->time);

	if (inside && part->part == 0) {
		if (!r->have_gpu)
			r->gpu_first = part->gpu_time;
		r->gpu_last = part->gpu_time;
		r->have_gpu = true;
	}
	if (!own)
		return;
	/* A report split over the process's timelines counts once. */
	if (inside && (!r->oa_counted || r->oa_last != part->gpu_time)) {
		r->oa_reports++;
		r->oa_counted = true;
		r->oa_last = part->gpu_time;
	}
	if (part->d)
		range_add_delta(r, part);
}

static void on_oa(void *arg, const struct report_oa_part *part)
{
	struct report_ranges *rr = arg;
	int32_t pid = part->client ? part->client->pid : -1;
	uint32_t n, k;
	int32_t i;

	for (n = 0; n < rr->nr_procs; n++) {
		struct report_ranges_proc *p = &rr->procs[n];
		bool own = part->client && p->pid == pid;

		/* The OA timestamps go to every range once per report. */
		if (!own && part->part != 0)
			continue;
		for (i = p->open; i >= 0; i = rr->r[i].outer)
			range_add_oa(&rr->r[i], part, own);
		/* Closed ones that end after the delta began may hold some. */
		for (k = first_closed_from(rr, p, part->d ? part->prev_time : part->time);
		     k < p->nr_closed; k++)
			range_add_oa(&rr->r[p->closed[k]], part, own);
	}
}

void report_ranges_hooks(struct report_ranges *rr, struct report_hooks *h)
{
	memset(h, 0, sizeof(*h));
	h->arg = rr;
	h->event = on_event;
	h->job = on_job;
	h->oa = on_oa;
}

uint64_t report_range_gpu_ns(const struct report_range *r,
			     const struct report_model *m)
{
	if (!r->have_gpu || r->gpu_last <= r->gpu_first)
		return 0;
	return report_model_oa_ns(m, r->gpu_last - r->gpu_first);
}

static struct report_range_sum *sum_of(struct report_ranges *rr, const char *name)
{
	struct report_range_sum *s;
	uint32_t i, alloc = rr->nr_sums;

	for (i = 0; i < rr->nr_sums; i++)
		if (!strcmp(rr->sums[i].name, name))
			return &rr->sums[i];
	s = realloc(rr->sums, (alloc + 1) * sizeof(*s));
	if (!s)
		return NULL;
	rr->sums = s;
	s = &rr->sums[rr->nr_sums++];
	memset(s, 0, sizeof(*s));
	memcpy(s->name, name, sizeof(s->name));
	s->elapsed_min_ns = UINT64_MAX;
	return s;
}

int report_ranges_finish(struct report_ranges *rr, const struct report_model *m)
{
	uint32_t i, k;

	if (rr->oom)
		return -1;
	for (i = 0; i < rr->nr; i++) {
		struct report_range *r = &rr->r[i];
		struct report_range_sum *s = sum_of(rr, r->name);
		uint64_t elapsed;

		if (!s)
			return -1;
		r->busy_ns = 0;
		for (k = 0; k < r->nr_seg; k++)
			r->busy_ns = report_sat_add(r->busy_ns, r->seg[k].len);
		if (!r->closed) {
			s->unclosed++;
			continue;
		}
		elapsed = r->end - r->begin;
		s->count++;
		s->elapsed_ns = report_sat_add(s->elapsed_ns, elapsed);
		if (elapsed < s->elapsed_min_ns)
			s->elapsed_min_ns = elapsed;
		if (elapsed > s->elapsed_max_ns)
			s->elapsed_max_ns = elapsed;
		s->gpu_ns = report_sat_add(s->gpu_ns, report_range_gpu_ns(r, m));
		s->busy_ns = report_sat_add(s->busy_ns, r->busy_ns);
		s->oa_reports = report_sat_add(s->oa_reports, r->oa_reports);
		report_oa_deltas_add(&s->oa, &r->oa);
	}
	for (i = 0; i < rr->nr_sums; i++)
		if (!rr->sums[i].count)
			rr->sums[i].elapsed_min_ns = 0;
	return 0;
}

void report_ranges_free(struct report_ranges *rr)
{
	uint32_t i;

	for (i = 0; i < rr->nr; i++)
		free(rr->r[i].seg);
	for (i = 0; i < rr->nr_procs; i++)
		free(rr->procs[i].closed);
	for (i = 0; i < rr->nr_pairs; i++) {
		free(rr->pair_begin[i]);
		free(rr->pair_end[i]);
		free(rr->pair_name[i]);
	}
	free(rr->pair_begin);
	free(rr->pair_end);
	free(rr->pair_name);
	free(rr->r);
	free(rr->procs);
	u64_map_free(&rr->proc_of);
	free(rr->sums);
	memset(rr, 0, sizeof(*rr));
}
