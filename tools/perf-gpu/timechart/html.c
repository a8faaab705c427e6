// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu timechart: the model of tracks and the writer of the page
 * (see timechart/html.h for the data and how it is bounded).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "timechart/html.h"
#include "util/map.h"
#include "timechart/template.h"
#include "util/array.h"
#include "util/output.h"

/* Jobs overlapping on one timeline beyond this share the last lanes. */
#define MAX_JOB_LANES	8
/* Ranges nested deeper than this are drawn in the deepest lane. */
#define MAX_RANGE_LANES	16
#define MAX_LANES	16
/* Clients a merged box weighs to pick its colour. */
#define BUCKET_CLIENTS	4
#define NO_CLIENT	(-1)

struct tc_item {
	uint64_t start, end;
	union {
		struct {
			uint32_t a, b;	/* context, seqno; seq; name, depth */
		} u;
		double v;		/* a sample's value */
	};
	int32_t client;
	uint8_t lane;
	uint8_t open;
	uint64_t queued;	/* a job's queued time before its start, ns */
};

struct tc_track {
	enum tc_kind kind;
	char *name, *unit;
	struct tc_item *items;
	size_t nr, alloc;
	unsigned int lanes;
};

struct tc_client {
	int32_t pid;
	char *comm;
};

struct timechart {
	char *title;
	struct tc_track *tracks;
	size_t nr_tracks, alloc_tracks;
	struct tc_client *clients;
	size_t nr_clients, alloc_clients;
	struct u64_map client_of_pid;
	char **names;
	size_t nr_names, alloc_names;
	struct u64_map name_of_hash;
	char **notes;
	size_t nr_notes, alloc_notes;
	bool have_span;
	uint64_t first, last;
	size_t nr_items;
};

struct timechart *tc_new(const char *title)
{
	struct timechart *tc = calloc(1, sizeof(*tc));

	if (!tc)
		return NULL;
	tc->title = strdup(title ? title : "");
	if (!tc->title) {
		free(tc);
		return NULL;
	}
	u64_map_init(&tc->client_of_pid);
	u64_map_init(&tc->name_of_hash);
	return tc;
}

void tc_free(struct timechart *tc)
{
	size_t i;

	if (!tc)
		return;
	for (i = 0; i < tc->nr_tracks; i++) {
		free(tc->tracks[i].name);
		free(tc->tracks[i].unit);
		free(tc->tracks[i].items);
	}
	for (i = 0; i < tc->nr_clients; i++)
		free(tc->clients[i].comm);
	for (i = 0; i < tc->nr_names; i++)
		free(tc->names[i]);
	for (i = 0; i < tc->nr_notes; i++)
		free(tc->notes[i]);
	free(tc->tracks);
	free(tc->clients);
	free(tc->names);
	free(tc->notes);
	u64_map_free(&tc->client_of_pid);
	u64_map_free(&tc->name_of_hash);
	free(tc->title);
	free(tc);
}

int tc_client(struct timechart *tc, int32_t pid, const char *comm)
{
	struct tc_client *c;
	uint64_t idx;

	if (u64_map_get(&tc->client_of_pid, (uint32_t)pid, &idx)) {
		c = &tc->clients[idx];
		if (!c->comm && comm) {
			c->comm = strdup(comm);
			if (!c->comm)
				return -ENOMEM;
		}
		return (int)idx;
	}
	if (ARRAY_RESERVE(tc->clients, tc->alloc_clients, tc->nr_clients + 1))
		return -ENOMEM;
	c = &tc->clients[tc->nr_clients];
	c->pid = pid;
	c->comm = comm ? strdup(comm) : NULL;
	if ((comm && !c->comm) ||
	    u64_map_put(&tc->client_of_pid, (uint32_t)pid, tc->nr_clients)) {
		free(c->comm);
		return -ENOMEM;
	}
	return (int)tc->nr_clients++;
}

int tc_track(struct timechart *tc, enum tc_kind kind, const char *name,
	     const char *unit)
{
	struct tc_track *t;
	size_t i;

	for (i = 0; i < tc->nr_tracks; i++)
		if (tc->tracks[i].kind == kind && !strcmp(tc->tracks[i].name, name))
			return (int)i;
	if (ARRAY_RESERVE(tc->tracks, tc->alloc_tracks, tc->nr_tracks + 1))
		return -ENOMEM;
	t = &tc->tracks[tc->nr_tracks];
	memset(t, 0, sizeof(*t));
	t->kind = kind;
	t->lanes = 1;
	t->name = strdup(name);
	t->unit = strdup(unit ? unit : "");
	if (!t->name || !t->unit) {
		free(t->name);
		free(t->unit);
		return -ENOMEM;
	}
	return (int)tc->nr_tracks++;
}

/* A new item of @track, which must be of @kind; NULL when it cannot be. */
static struct tc_item *new_item(struct timechart *tc, int track,
				enum tc_kind kind, int *err)
{
	struct tc_track *t;
	struct tc_item *it;

	if (track < 0 || (size_t)track >= tc->nr_tracks ||
	    tc->tracks[track].kind != kind) {
		*err = -EINVAL;
		return NULL;
	}
	t = &tc->tracks[track];
	if (ARRAY_RESERVE(t->items, t->alloc, t->nr + 1)) {
		*err = -ENOMEM;
		return NULL;
	}
	it = &t->items[t->nr++];
	memset(it, 0, sizeof(*it));
	it->client = NO_CLIENT;
	tc->nr_items++;
	return it;
}

int tc_add_job(struct timechart *tc, int track, uint64_t start, uint64_t end,
	       int client, uint32_t context, uint32_t seqno)
{
	return tc_add_queued_job(tc, track, start, start, end, client, context,
				 seqno);
}

int tc_add_queued_job(struct timechart *tc, int track, uint64_t queued,
		      uint64_t start, uint64_t end, int client,
		      uint32_t context, uint32_t seqno)
{
	struct tc_item *it;
	int err;

	if (end < start || queued > start || client < 0 ||
	    (size_t)client >= tc->nr_clients)
		return -EINVAL;
	it = new_item(tc, track, TC_JOBS, &err);
	if (!it)
		return err;
	it->start = start;
	it->end = end;
	it->client = client;
	it->u.a = context;
	it->u.b = seqno;
	it->queued = start - queued;
	return 0;
}

int tc_add_tick(struct timechart *tc, int track, uint64_t time, uint32_t seq)
{
	struct tc_item *it;
	int err;

	it = new_item(tc, track, TC_VBLANK, &err);
	if (!it)
		return err;
	it->start = it->end = time;
	it->u.a = seq;
	return 0;
}

int tc_add_sample(struct timechart *tc, int track, uint64_t time, double value)
{
	struct tc_item *it;
	int err;

	if (!isfinite(value))
		return -EINVAL;
	it = new_item(tc, track, TC_LINE, &err);
	if (!it)
		return err;
	it->start = it->end = time;
	it->v = value;
	return 0;
}

struct name_in {
	const struct timechart *tc;
	const char *name;
};

/* Is name @idx the one wanted?  Two names may hash alike. */
static bool name_is(uint64_t idx, const void *arg)
{
	const struct name_in *n = arg;

	return !strcmp(n->tc->names[idx], n->name);
}

/* The index of @name in tc->names, added when new; -ENOMEM. */
static int intern(struct timechart *tc, const char *name)
{
	uint64_t h = map_hash_str(MAP_HASH_SEED, name), idx;
	struct name_in want = { tc, name };
	char *copy;

	if (u64_map_find_hashed(&tc->name_of_hash, &h, name_is, &want, &idx))
		return (int)idx;
	if (ARRAY_RESERVE(tc->names, tc->alloc_names, tc->nr_names + 1))
		return -ENOMEM;
	copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	if (u64_map_put(&tc->name_of_hash, h, tc->nr_names)) {
		free(copy);
		return -ENOMEM;
	}
	tc->names[tc->nr_names] = copy;
	return (int)tc->nr_names++;
}

int tc_add_range(struct timechart *tc, int track, uint64_t start,
		 uint64_t end, unsigned int depth, const char *name, bool open)
{
	struct tc_item *it;
	int err, idx;

	if (end < start)
		return -EINVAL;
	if (track < 0 || (size_t)track >= tc->nr_tracks ||
	    tc->tracks[track].kind != TC_RANGES)
		return -EINVAL;
	idx = intern(tc, name);
	if (idx < 0)
		return idx;
	it = new_item(tc, track, TC_RANGES, &err);
	if (!it)
		return err;
	it->start = start;
	it->end = end;
	it->u.a = idx;
	it->u.b = depth;
	it->open = open;
	return 0;
}

void tc_set_span(struct timechart *tc, uint64_t first, uint64_t last)
{
	if (last < first)
		return;
	if (!tc->have_span || first < tc->first)
		tc->first = first;
	if (!tc->have_span || last > tc->last)
		tc->last = last;
	tc->have_span = true;
}

int tc_note(struct timechart *tc, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	if (ARRAY_RESERVE(tc->notes, tc->alloc_notes, tc->nr_notes + 1))
		return -ENOMEM;
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	tc->notes[tc->nr_notes++] = s;
	return 0;
}

size_t tc_nr_items(const struct timechart *tc)
{
	return tc->nr_items;
}

/* ---- Preparing the tracks: order, lanes, the time span. ---- */

static int cmp_item(const void *a, const void *b)
{
	const struct tc_item *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return 0;
}

/*
 * Overlapping jobs of one timeline go to the first lane free at their
 * start (where a queued part begins, if they have one); when all are
 * taken, to the one that frees first.
 */
static void job_lanes(struct tc_track *t)
{
	uint64_t lane_end[MAX_JOB_LANES] = { 0 };
	unsigned int used = 0, l, best;
	size_t i;

	for (i = 0; i < t->nr; i++) {
		struct tc_item *it = &t->items[i];

		for (l = 0; l < used && lane_end[l] > it->start - it->queued; l++)
			;
		if (l == used && used < MAX_JOB_LANES) {
			used++;
		} else if (l == used) {
			for (best = 0, l = 1; l < used; l++)
				if (lane_end[l] < lane_end[best])
					best = l;
			l = best;
		}
		if (it->end > lane_end[l])
			lane_end[l] = it->end;
		it->lane = l;
	}
	t->lanes = used ? used : 1;
}

static void prepare_track(struct tc_track *t)
{
	size_t i;

	if (t->nr)
		qsort(t->items, t->nr, sizeof(*t->items), cmp_item);
	if (t->kind == TC_JOBS) {
		job_lanes(t);
	} else if (t->kind == TC_RANGES) {
		t->lanes = 1;
		for (i = 0; i < t->nr; i++) {
			struct tc_item *it = &t->items[i];

			it->lane = it->u.b < MAX_RANGE_LANES ? it->u.b :
				   MAX_RANGE_LANES - 1;
			if (it->lane + 1u > t->lanes)
				t->lanes = it->lane + 1u;
		}
	}
}

static void span_of(const struct timechart *tc, uint64_t *t0, uint64_t *t1)
{
	bool any = tc->have_span;
	size_t i;

	*t0 = tc->first;
	*t1 = tc->last;
	for (i = 0; i < tc->nr_tracks; i++) {
		const struct tc_track *t = &tc->tracks[i];
		size_t j;

		for (j = 0; j < t->nr; j++) {
			uint64_t from = t->items[j].start - t->items[j].queued;

			if (!any || from < *t0)
				*t0 = from;
			if (!any || t->items[j].end > *t1)
				*t1 = t->items[j].end;
			any = true;
		}
	}
	if (!any)
		*t0 = *t1 = 0;
}

/* ---- Merging into buckets. ---- */

/* One bucket being filled, per lane. */
struct bucket {
	bool used;
	uint64_t id;
	size_t first;			/* its first item */
	uint64_t n, busy, end, last_time;
	double sum, min, max;
	int32_t client[BUCKET_CLIENTS];
	uint64_t client_busy[BUCKET_CLIENTS];
};

/* An entry of the page: an item as it is, or a bucket's summary. */
struct entry {
	uint64_t start, end;
	uint64_t n, busy;
	double mean, min, max;
	int32_t client;
	uint32_t a, b;
	uint8_t lane, open;
	uint64_t queued;
};

struct entries {
	struct entry *e;
	size_t nr, alloc;
};

struct walk {
	const struct tc_track *t;
	uint64_t t0;
	int shift;			/* bucket width 2^shift ns; -1: no merging */
	size_t count, limit;		/* stop counting past @limit */
	bool emit;
	struct entries d, m;		/* items kept, summaries */
	int err;
	struct bucket b[MAX_LANES];
};

static void push(struct walk *w, struct entries *to, const struct entry *e)
{
	if (w->err)
		return;
	if (ARRAY_RESERVE(to->e, to->alloc, to->nr + 1)) {
		w->err = -ENOMEM;
		return;
	}
	to->e[to->nr++] = *e;
}

static void emit_item(struct walk *w, const struct tc_item *it)
{
	struct entry e = {
		.start = it->start, .end = it->end, .n = 1,
		.busy = it->end - it->start, .client = it->client,
		.a = it->u.a, .b = it->u.b, .lane = it->lane, .open = it->open,
		.queued = it->queued,
	};

	if (w->t->kind == TC_LINE)
		e.mean = e.min = e.max = it->v;
	push(w, &w->d, &e);
}

static void flush(struct walk *w, struct bucket *b)
{
	struct entry e = { 0 };
	unsigned int i, top = 0;

	if (!b->used || !w->emit)
		return;
	b->used = false;
	if (b->n == 1) {
		emit_item(w, &w->t->items[b->first]);
		return;
	}
	e.start = w->t->items[b->first].start;
	e.end = w->t->kind == TC_VBLANK || w->t->kind == TC_LINE ?
		b->last_time : b->end;
	e.n = b->n;
	e.busy = b->busy;
	e.lane = w->t->items[b->first].lane;
	for (i = 1; i < BUCKET_CLIENTS; i++)
		if (b->client_busy[i] > b->client_busy[top])
			top = i;
	e.client = b->client[top];
	if (w->t->kind == TC_LINE) {
		/* A point at the middle of the samples it stands for. */
		e.start += (b->last_time - e.start) / 2;
		e.mean = b->sum / (double)b->n;
		e.min = b->min;
		e.max = b->max;
		push(w, &w->d, &e);
		return;
	}
	push(w, &w->m, &e);
}

static void add_to_bucket(struct walk *w, struct bucket *b, size_t i)
{
	const struct tc_item *it = &w->t->items[i];
	uint64_t dur = it->end - it->start;
	unsigned int c;

	if (!b->used) {
		memset(b, 0, sizeof(*b));
		b->used = true;
		b->first = i;
		b->min = b->max = it->v;
		for (c = 0; c < BUCKET_CLIENTS; c++)
			b->client[c] = NO_CLIENT;
	}
	b->n++;
	b->busy += dur;
	if (it->end > b->end)
		b->end = it->end;
	b->last_time = it->start;
	if (w->t->kind == TC_LINE) {
		b->sum += it->v;
		if (it->v < b->min)
			b->min = it->v;
		if (it->v > b->max)
			b->max = it->v;
	}
	if (it->client == NO_CLIENT)
		return;
	/* The first few clients seen are weighed; later ones are not. */
	for (c = 0; c < BUCKET_CLIENTS; c++) {
		if (b->client[c] == it->client || b->client[c] == NO_CLIENT) {
			b->client[c] = it->client;
			b->client_busy[c] += dur;
			return;
		}
	}
}

/* Whether @it is kept as it is however many items are around it. */
static bool is_long(const struct walk *w, const struct tc_item *it)
{
	if (w->shift < 0)
		return true;
	if (w->t->kind != TC_JOBS && w->t->kind != TC_RANGES)
		return false;
	return it->end - it->start >= (1ull << w->shift);
}

/*
 * One pass over a track: count the entries it gives with this bucket
 * width (stopping once past w->limit), and with w->emit make them.
 */
static void walk_track(struct walk *w)
{
	const struct tc_track *t = w->t;
	size_t i;

	memset(w->b, 0, sizeof(w->b));
	for (i = 0; i < t->nr && w->count <= w->limit && !w->err; i++) {
		const struct tc_item *it = &t->items[i];
		struct bucket *b = &w->b[it->lane];
		uint64_t id;

		if (is_long(w, it)) {
			w->count++;
			if (w->emit)
				emit_item(w, it);
			continue;
		}
		id = (it->start - w->t0) >> w->shift;
		if (!w->emit) {
			if (!b->used || b->id != id)
				w->count++;
			b->used = true;
			b->id = id;
			continue;
		}
		if (b->used && b->id != id)
			flush(w, b);
		if (!b->used)
			w->count++;
		add_to_bucket(w, b, i);
		b->id = id;
	}
	for (i = 0; i < MAX_LANES; i++)
		flush(w, &w->b[i]);
}

/* Entries of the whole page with bucket width 2^@shift, up to @limit + 1. */
static size_t count_entries(const struct timechart *tc, uint64_t t0, int shift,
			    size_t limit)
{
	struct walk w = { .t0 = t0, .shift = shift, .limit = limit };
	size_t i;

	for (i = 0; i < tc->nr_tracks && w.count <= limit; i++) {
		w.t = &tc->tracks[i];
		walk_track(&w);
	}
	return w.count;
}

/*
 * The smallest bucket width that keeps the page within @max entries; -1
 * when everything fits as it is.  Passes that go over stop early, so
 * each costs about @max steps until the right width is reached.
 */
static int choose_shift(const struct timechart *tc, uint64_t t0, size_t max)
{
	int shift;

	if (tc->nr_items <= max)
		return -1;
	for (shift = 0; shift < 63; shift++)
		if (count_entries(tc, t0, shift, max) <= max)
			return shift;
	return 63;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->lane - y->lane;
}

/* ---- Writing JSON and HTML. ---- */

/* A JSON string inside the page's <script> element. */
static void json_str(FILE *f, const char *str)
{
	json_write_string(f, str, true);
}

static void html_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

/* A finite double, short: JSON has no NaN or infinities. */
static void json_num(FILE *f, double v)
{
	fprintf(f, "%.6g", isfinite(v) ? v : 0.0);
}

/* Entries of one array, their start delta-coded from the previous one's. */
static void write_entries(FILE *f, const char *key, enum tc_kind kind,
			  bool merged, const struct entries *es, uint64_t t0)
{
	uint64_t prev = t0;
	size_t i;

	fprintf(f, ",\"%s\":[", key);
	for (i = 0; i < es->nr; i++) {
		const struct entry *e = &es->e[i];
		unsigned long long dt = e->start - prev, dur = e->end - e->start;

		prev = e->start;
		if (i)
			fputc(',', f);
		switch (kind) {
		case TC_JOBS:
		case TC_RANGES:
			if (merged)
				fprintf(f, "%llu,%llu,%u,%llu,%llu,%d", dt, dur,
					e->lane, (unsigned long long)e->n,
					(unsigned long long)e->busy,
					kind == TC_JOBS ? e->client : NO_CLIENT);
			else if (kind == TC_JOBS)
				fprintf(f, "%llu,%llu,%u,%d,%u,%u", dt, dur,
					e->lane, e->client, e->a, e->b);
			else
				fprintf(f, "%llu,%llu,%u,%u,%u,-1", dt, dur,
					e->lane, e->a, e->open);
			break;
		case TC_VBLANK:
			if (merged)
				fprintf(f, "%llu,%llu,%llu", dt, dur,
					(unsigned long long)e->n);
			else
				fprintf(f, "%llu,%u", dt, e->a);
			break;
		case TC_LINE:
			fprintf(f, "%llu,%llu,", dt, (unsigned long long)e->n);
			json_num(f, e->mean);
			fputc(',', f);
			json_num(f, e->min);
			fputc(',', f);
			json_num(f, e->max);
			break;
		}
	}
	fputc(']', f);
}

/*
 * The queued parts of the jobs kept as they are, "q": [start, dur,
 * lane, client], in the order of their start; left out when there are
 * none, so pages without them stay as they were.
 */
static int write_queued(FILE *f, const struct entries *d, uint64_t t0)
{
	struct entries q = { 0 };
	uint64_t prev = t0;
	size_t i;

	for (i = 0; i < d->nr; i++) {
		struct entry e = d->e[i];

		if (!e.queued)
			continue;
		if (ARRAY_RESERVE(q.e, q.alloc, q.nr + 1)) {
			free(q.e);
			return -ENOMEM;
		}
		e.end = e.start;
		e.start -= e.queued;
		q.e[q.nr++] = e;
	}
	if (!q.nr)
		return 0;
	qsort(q.e, q.nr, sizeof(*q.e), cmp_entry);
	fputs(",\"q\":[", f);
	for (i = 0; i < q.nr; i++) {
		fprintf(f, "%s%llu,%llu,%u,%d", i ? "," : "",
			(unsigned long long)(q.e[i].start - prev),
			(unsigned long long)(q.e[i].end - q.e[i].start),
			q.e[i].lane, q.e[i].client);
		prev = q.e[i].start;
	}
	fputc(']', f);
	free(q.e);
	return 0;
}

static const char *const kind_names[] = {
	[TC_JOBS] = "jobs",
	[TC_VBLANK] = "vblank",
	[TC_LINE] = "line",
	[TC_RANGES] = "ranges",
};

static int write_track(FILE *f, const struct tc_track *t, uint64_t t0,
		       int shift, struct tc_write_stats *st)
{
	struct walk w = { .t = t, .t0 = t0, .shift = shift, .limit = SIZE_MAX,
			  .emit = true };

	walk_track(&w);
	if (!w.err) {
		if (w.d.nr)
			qsort(w.d.e, w.d.nr, sizeof(*w.d.e), cmp_entry);
		if (w.m.nr)
			qsort(w.m.e, w.m.nr, sizeof(*w.m.e), cmp_entry);
		fputs("{\"kind\":", f);
		json_str(f, kind_names[t->kind]);
		fputs(",\"name\":", f);
		json_str(f, t->name);
		fputs(",\"unit\":", f);
		json_str(f, t->unit);
		fprintf(f, ",\"lanes\":%u", t->lanes);
		if (t->kind == TC_LINE) {
			write_entries(f, "p", t->kind, false, &w.d, t0);
		} else {
			write_entries(f, "d", t->kind, false, &w.d, t0);
			write_entries(f, "m", t->kind, true, &w.m, t0);
			if (t->kind == TC_JOBS)
				w.err = write_queued(f, &w.d, t0);
		}
		fputc('}', f);
		/* A line point that stands for several samples is a summary. */
		if (t->kind == TC_LINE) {
			size_t i;

			for (i = 0; i < w.d.nr; i++)
				if (w.d.e[i].n > 1)
					st->merged++;
				else
					st->detail++;
		} else {
			st->detail += w.d.nr;
			st->merged += w.m.nr;
		}
	}
	free(w.d.e);
	free(w.m.e);
	return w.err;
}

static int cmp_track_order(const void *a, const void *b, void *arg)
{
	const struct tc_track *tracks = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (tracks[x].kind != tracks[y].kind)
		return tracks[x].kind < tracks[y].kind ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int write_data(FILE *f, struct timechart *tc, uint64_t t0, uint64_t t1,
		      int shift, struct tc_write_stats *st)
{
	size_t i, *order;
	int err = 0;

	order = malloc((tc->nr_tracks + 1) * sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (i = 0; i < tc->nr_tracks; i++)
		order[i] = i;
	qsort_r(order, tc->nr_tracks, sizeof(*order), cmp_track_order, tc->tracks);

	fprintf(f, "{\"t0_sec\":%llu,\"t0_nsec\":%llu,\"span\":%llu,\"bucket_ns\":%llu",
		(unsigned long long)(t0 / 1000000000ull),
		(unsigned long long)(t0 % 1000000000ull),
		(unsigned long long)(t1 - t0),
		shift < 0 ? 0ull : 1ull << shift);
	fputs(",\"title\":", f);
	json_str(f, tc->title);
	fputs(",\"notes\":[", f);
	for (i = 0; i < tc->nr_notes; i++) {
		if (i)
			fputc(',', f);
		json_str(f, tc->notes[i]);
	}
	fputs("],\"clients\":[", f);
	for (i = 0; i < tc->nr_clients; i++) {
		fprintf(f, "%s[%d,", i ? "," : "", tc->clients[i].pid);
		json_str(f, tc->clients[i].comm ? tc->clients[i].comm : "");
		fputc(']', f);
	}
	fputs("],\"names\":[", f);
	for (i = 0; i < tc->nr_names; i++) {
		if (i)
			fputc(',', f);
		json_str(f, tc->names[i]);
	}
	fputs("],\"tracks\":[", f);
	for (i = 0; i < tc->nr_tracks && !err; i++) {
		if (i)
			fputc(',', f);
		err = write_track(f, &tc->tracks[order[i]], t0, shift, st);
	}
	/* Counted last: the counts are known only once the tracks are out. */
	fprintf(f, "],\"items\":%zu,\"detail\":%zu,\"merged\":%zu}",
		tc->nr_items, st->detail, st->merged);
	free(order);
	return err;
}

/* The template up to @marker (or its end) from *@pos, which moves past it. */
static void write_until(FILE *f, const char **pos, const char *marker)
{
	const char *at = strstr(*pos, marker);

	if (!at) {
		fputs(*pos, f);
		*pos += strlen(*pos);
		return;
	}
	fwrite(*pos, 1, at - *pos, f);
	*pos = at + strlen(marker);
}

int tc_write_html(struct timechart *tc, FILE *f, size_t max_items,
		  struct tc_write_stats *stats)
{
	struct tc_write_stats st = { 0 };
	const char *pos = timechart_template;
	uint64_t t0, t1;
	size_t i;
	int shift, err;

	if (!max_items)
		max_items = TC_MAX_ITEMS_DEFAULT;
	for (i = 0; i < tc->nr_tracks; i++)
		prepare_track(&tc->tracks[i]);
	span_of(tc, &t0, &t1);
	shift = choose_shift(tc, t0, max_items);
	st.bucket_ns = shift < 0 ? 0 : 1ull << shift;

	write_until(f, &pos, TIMECHART_TITLE_MARK);
	html_text(f, tc->title);
	write_until(f, &pos, TIMECHART_DATA_MARK);
	err = write_data(f, tc, t0, t1, shift, &st);
	fputs(pos, f);
	if (stats)
		*stats = st;
	if (err)
		return err;
	if (fflush(f) || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}
