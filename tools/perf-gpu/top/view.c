// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu top's view of a live_state: see top/view.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "top/view.h"

static const char *const sort_names[] = {
	[TOP_SORT_UTIL] = "util",
	[TOP_SORT_MEM] = "mem",
	[TOP_SORT_PID] = "pid",
	[TOP_SORT_COMM] = "comm",
};

int top_sort_parse(const char *s, enum top_sort *sort)
{
	unsigned int i;

	for (i = 0; i < sizeof(sort_names) / sizeof(sort_names[0]); i++) {
		if (!strcmp(s, sort_names[i])) {
			*sort = i;
			return 0;
		}
	}
	return -1;
}

const char *top_sort_name(enum top_sort sort)
{
	return sort_names[sort];
}

int top_by_parse(const char *s, enum top_by *by)
{
	if (!strcmp(s, "client"))
		*by = TOP_BY_CLIENT;
	else if (!strcmp(s, "cgroup"))
		*by = TOP_BY_CGROUP;
	else
		return -1;
	return 0;
}

int top_sort_key(int key, enum top_sort *sort)
{
	switch (key) {
	case 'u':
		*sort = TOP_SORT_UTIL;
		return 0;
	case 'm':
		*sort = TOP_SORT_MEM;
		return 0;
	case 'p':
		*sort = TOP_SORT_PID;
		return 0;
	case 'c':
		*sort = TOP_SORT_COMM;
		return 0;
	}
	return -1;
}

/* Values are decimal text on the wire; anything else counts as absent. */
static bool parse_u64(const char *s, uint64_t *v)
{
	unsigned long long n;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || *end)
		return false;
	*v = n;
	return true;
}

/* Index of @name in @names, -1 when absent. */
static int column(const char **names, unsigned int nr, const char *name)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

/*
 * While collecting, a column's place: the first device (by pdev) showing
 * it, then where it came in a client's attributes there (the driver's own
 * order: render before copy), ENGINE and HEAP objects last.  Columns stay
 * where they are from one sample to the next, whatever ids the clients
 * have, and whichever engine got its first utilisation this time.
 */
struct col {
	const char *name;
	const char *pdev;
	unsigned int pos;
};

struct cols {
	struct col *c;
	unsigned int nr;
};

#define POS_OBJECT	(~0u)

static int col_add(struct cols *cols, const char *name, const char *pdev,
		   unsigned int pos)
{
	struct col *more;
	unsigned int i;
	int cmp;

	for (i = 0; i < cols->nr; i++) {
		struct col *c = &cols->c[i];

		if (strcmp(c->name, name))
			continue;
		cmp = strcmp(pdev, c->pdev);
		if (cmp < 0 || (!cmp && pos < c->pos)) {
			c->pdev = pdev;
			c->pos = pos;
		}
		return 0;
	}
	more = realloc(cols->c, (cols->nr + 1) * sizeof(*more));
	if (!more)
		return -1;
	cols->c = more;
	more[cols->nr++] = (struct col){ name, pdev, pos };
	return 0;
}

static int cmp_col(const void *pa, const void *pb)
{
	const struct col *a = pa, *b = pb;

	return strcmp(a->pdev, b->pdev) ?:
	       (a->pos != b->pos ? (a->pos < b->pos ? -1 : 1) :
		strcmp(a->name, b->name));
}

/* The names of @cols in their order, into *@names. */
static int col_names(struct cols *cols, const char ***names, unsigned int *nr)
{
	unsigned int i;

	if (cols->nr > 1)
		qsort(cols->c, cols->nr, sizeof(*cols->c), cmp_col);
	*names = calloc(cols->nr + 1, sizeof(**names));
	if (!*names)
		return -1;
	for (i = 0; i < cols->nr; i++)
		(*names)[i] = cols->c[i].name;
	*nr = cols->nr;
	return 0;
}

/* "PDEV/NAME" of ENGINE and HEAP objects: NAME, and PDEV's length. */
static const char *split_name(const char *s, size_t *pdev_len)
{
	const char *slash = s ? strrchr(s, '/') : NULL;

	if (!slash) {
		*pdev_len = 0;
		return s ? s : "";
	}
	*pdev_len = slash - s;
	return slash + 1;
}

/* The device of @pdev (@len bytes): its index, added when new. */
static int device(struct top_view *v, const char *pdev, size_t len)
{
	struct top_row *more;
	unsigned int i;
	char *copy;

	for (i = 0; i < v->nr_devices; i++)
		if (strlen(v->devices[i].pdev) == len &&
		    !memcmp(v->devices[i].pdev, pdev, len))
			return i;
	more = realloc(v->devices, (v->nr_devices + 1) * sizeof(*more));
	if (!more)
		return -1;
	v->devices = more;
	copy = strndup(pdev, len);
	if (!copy)
		return -1;
	memset(&more[v->nr_devices], 0, sizeof(*more));
	/* The view owns its devices' pdev strings: ENGINE names hold them
	 * only as a prefix. */
	more[v->nr_devices].pdev = copy;
	more[v->nr_devices].driver = "";
	more[v->nr_devices].comm = "";
	more[v->nr_devices].cgroup = "";
	more[v->nr_devices].client_name = "";
	more[v->nr_devices].pid = -1;
	more[v->nr_devices].gpu = -1;
	return v->nr_devices++;
}

/* A CLIENT's engine and region columns. */
static int collect_client(struct cols *engines, struct cols *regions,
			  const struct live_object *o, const char *pdev)
{
	unsigned int j;
	int r = 0;

	for (j = 0; j < o->nr_attrs && !r; j++) {
		const char *k = o->attrs[j].key;

		if (!strncmp(k, "UTIL.", 5))
			r = col_add(engines, k + 5, pdev, j);
		else if (!strncmp(k, "ENGINE.", 7))
			r = col_add(engines, k + 7, pdev, j);
		else if (!strncmp(k, "MEM.", 4))
			r = col_add(regions, k + 4, pdev, j);
	}
	return r;
}

/* First pass: the devices and the columns. */
static int collect(struct top_view *v, const struct live_state *st)
{
	struct cols engines = { 0 }, regions = { 0 };
	unsigned int i;
	size_t len;
	int r = 0;

	for (i = 0; i < st->nr && !r; i++) {
		const struct live_object *o = &st->obj[i];
		const char *name, *full;
		int d;

		switch (o->type) {
		case LIVE_CLIENT:
			name = live_object_get(o, "PDEV");
			d = device(v, name ? name : "", name ? strlen(name) : 0);
			r = d < 0 ? -1 : collect_client(&engines, &regions, o,
							 v->devices[d].pdev);
			break;
		case LIVE_ENGINE:
		case LIVE_HEAP:
			full = live_object_get(o, "NAME");
			name = split_name(full, &len);
			d = device(v, full ? full : "", len);
			if (d < 0)
				r = -1;
			else
				r = col_add(o->type == LIVE_ENGINE ? &engines : &regions,
					    name, v->devices[d].pdev, POS_OBJECT);
			break;
		default:
			break;
		}
	}
	if (!r)
		r = col_names(&engines, &v->engines, &v->nr_engines) ?:
		    col_names(&regions, &v->regions, &v->nr_regions);
	free(engines.c);
	free(regions.c);
	return r;
}

static int cmp_pdev(const void *a, const void *b)
{
	return strcmp(((const struct top_row *)a)->pdev,
		      ((const struct top_row *)b)->pdev);
}

static int device_of(const struct top_view *v, const char *pdev)
{
	unsigned int i;

	for (i = 0; i < v->nr_devices; i++)
		if (!strcmp(v->devices[i].pdev, pdev ? pdev : ""))
			return i;
	return -1;
}

/* A CLIENT object as a row; its values already point into v->values. */
static void fill_client(struct top_view *v, struct top_row *r,
			const struct live_object *o)
{
	const char *s;
	uint64_t n;
	unsigned int j;
	int c;

	r->id = o->id;
	s = live_object_get(o, "PID");
	r->pid = parse_u64(s, &n) && n <= INT32_MAX ? (int64_t)n : -1;
	s = live_object_get(o, "NAME");
	r->comm = s ? s : "";
	s = live_object_get(o, "DRIVER");
	r->driver = s ? s : "";
	s = live_object_get(o, "PDEV");
	r->pdev = s ? s : "";
	s = live_object_get(o, "CGROUP");
	r->cgroup = s ? s : "";
	s = live_object_get(o, "CLIENT_NAME");
	r->client_name = s ? s : "";
	r->gpu = device_of(v, r->pdev);
	for (j = 0; j < o->nr_attrs; j++) {
		const char *k = o->attrs[j].key, *val = o->attrs[j].value;
		struct top_value *dst = NULL;

		if (!strncmp(k, "UTIL.", 5)) {
			c = column(v->engines, v->nr_engines, k + 5);
			dst = c >= 0 ? &r->util[c] : NULL;
		} else if (!strncmp(k, "ENGINE.", 7)) {
			c = column(v->engines, v->nr_engines, k + 7);
			dst = c >= 0 ? &r->busy_ns[c] : NULL;
		} else if (!strncmp(k, "MEM.", 4)) {
			c = column(v->regions, v->nr_regions, k + 4);
			dst = c >= 0 ? &r->mem[c] : NULL;
		}
		if (dst && parse_u64(val, &dst->v))
			dst->has = true;
	}
	for (j = 0; j < v->nr_engines; j++)
		r->util_sum += r->util[j].has ? r->util[j].v : 0;
	for (j = 0; j < v->nr_regions; j++)
		r->mem_sum += r->mem[j].has ? r->mem[j].v : 0;
}

/* An ENGINE (UTIL) or HEAP (SIZE) object into its device's row. */
static void fill_device(struct top_view *v, const struct live_object *o)
{
	const char *full = live_object_get(o, "NAME"), *name;
	struct top_value *dst;
	struct top_row *d;
	char pdev[LIVE_VALUE_MAX];
	size_t len;
	int c, g;

	name = split_name(full, &len);
	snprintf(pdev, sizeof(pdev), "%.*s", (int)len, full ? full : "");
	g = device_of(v, pdev);
	if (g < 0)
		return;
	d = &v->devices[g];
	if (o->type == LIVE_ENGINE) {
		c = column(v->engines, v->nr_engines, name);
		dst = c >= 0 ? &d->util[c] : NULL;
		if (dst && parse_u64(live_object_get(o, "UTIL"), &dst->v)) {
			dst->has = true;
			d->util_sum += dst->v;
		}
	} else {
		c = column(v->regions, v->nr_regions, name);
		dst = c >= 0 ? &d->mem[c] : NULL;
		if (dst && parse_u64(live_object_get(o, "SIZE"), &dst->v)) {
			dst->has = true;
			d->mem_sum += dst->v;
		}
	}
}

/* The values of a row: utilisation and busy ns per engine, then regions. */
static unsigned int values_per_row(const struct top_view *v)
{
	return 2 * v->nr_engines + v->nr_regions;
}

/* Point @r's value arrays at the @i-th block of v->values. */
static void place(struct top_view *v, struct top_row *r, unsigned int i)
{
	unsigned int per = values_per_row(v);

	r->util = v->values + (size_t)i * per;
	r->busy_ns = r->util + v->nr_engines;
	r->mem = r->busy_ns + v->nr_engines;
}

int top_view_build(struct top_view *v, const struct live_state *st,
		   int64_t pid, enum top_sort sort)
{
	unsigned int i, nr_clients = 0, per;

	memset(v, 0, sizeof(*v));
	if (collect(v, st))
		goto fail;
	for (i = 0; i < st->nr; i++)
		nr_clients += st->obj[i].type == LIVE_CLIENT;
	if (v->nr_devices > 1)
		qsort(v->devices, v->nr_devices, sizeof(*v->devices), cmp_pdev);
	per = values_per_row(v);
	/*
	 * A block per client, device and cgroup (no more cgroups than
	 * clients); one more than needed: calloc(0) may give NULL.
	 */
	v->values = calloc((size_t)(2 * nr_clients + v->nr_devices) * per + 1,
			   sizeof(*v->values));
	v->clients = calloc(nr_clients + 1, sizeof(*v->clients));
	if (!v->values || !v->clients)
		goto fail;
	for (i = 0; i < v->nr_devices; i++) {
		v->devices[i].id = i;
		v->devices[i].gpu = i;
		place(v, &v->devices[i], nr_clients + i);
	}
	for (i = 0; i < st->nr; i++) {
		const struct live_object *o = &st->obj[i];
		struct top_row *r = &v->clients[v->nr_clients];

		if (o->type != LIVE_CLIENT) {
			fill_device(v, o);
			continue;
		}
		/* A row the -p filter dropped is written over: clear it. */
		memset(r, 0, sizeof(*r));
		place(v, r, v->nr_all_clients++);
		fill_client(v, r, o);
		if (r->gpu >= 0) {
			struct top_row *d = &v->devices[r->gpu];

			d->nr_clients++;
			if (!*d->driver)
				d->driver = r->driver;
		}
		if (pid <= 0 || r->pid == pid)
			v->nr_clients++;
	}
	top_view_sort(v, sort);
	return 0;
fail:
	top_view_free(v);
	return -1;
}

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a < b ? 1 : a > b ? -1 : 0;
}

/*
 * Ties go by pid, then cgroup, then id: the order never depends on the
 * sort used.
 */
static int cmp_tail(const struct top_row *a, const struct top_row *b)
{
	int c;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	c = strcmp(a->cgroup, b->cgroup);
	if (c)
		return c;
	return a->id < b->id ? -1 : a->id > b->id;
}

static int cmp_util(const void *pa, const void *pb)
{
	const struct top_row *a = pa, *b = pb;

	return cmp_u64_desc(a->util_sum, b->util_sum) ?: cmp_tail(a, b);
}

static int cmp_mem(const void *pa, const void *pb)
{
	const struct top_row *a = pa, *b = pb;

	return cmp_u64_desc(a->mem_sum, b->mem_sum) ?: cmp_tail(a, b);
}

static int cmp_pid(const void *pa, const void *pb)
{
	return cmp_tail(pa, pb);
}

static int cmp_comm(const void *pa, const void *pb)
{
	const struct top_row *a = pa, *b = pb;

	return strcmp(a->comm, b->comm) ?: cmp_tail(a, b);
}

void top_view_sort(struct top_view *v, enum top_sort sort)
{
	static int (*const cmp[])(const void *, const void *) = {
		[TOP_SORT_UTIL] = cmp_util,
		[TOP_SORT_MEM] = cmp_mem,
		[TOP_SORT_PID] = cmp_pid,
		[TOP_SORT_COMM] = cmp_comm,
	};

	if (v->nr_clients)
		qsort(v->clients, v->nr_clients, sizeof(*v->clients), cmp[sort]);
	if (v->nr_cgroups)
		qsort(v->cgroups, v->nr_cgroups, sizeof(*v->cgroups),
		      sort == TOP_SORT_COMM ? cmp_pid : cmp[sort]);
}

/* A value of a client added into its cgroup's. */
static void add_value(struct top_value *sum, const struct top_value *v)
{
	if (!v->has)
		return;
	sum->v += v->v;
	sum->has = true;
}

/* The row of @cgroup in v->cgroups, or -1. */
static int cgroup_row(const struct top_view *v, const char *cgroup)
{
	unsigned int i;

	for (i = 0; i < v->nr_cgroups; i++)
		if (!strcmp(v->cgroups[i].cgroup, cgroup))
			return i;
	return -1;
}

int top_view_group(struct top_view *v, enum top_sort sort)
{
	unsigned int i, j, first = v->nr_all_clients + v->nr_devices;
	struct top_row *g;
	int k;

	free(v->cgroups);
	v->nr_cgroups = 0;
	v->cgroups = calloc(v->nr_clients + 1, sizeof(*v->cgroups));
	if (!v->cgroups)
		return -1;
	/* Each a fresh block: clear what an earlier grouping summed. */
	memset(v->values + (size_t)first * values_per_row(v), 0,
	       (size_t)v->nr_clients * values_per_row(v) * sizeof(*v->values));
	for (i = 0; i < v->nr_clients; i++) {
		const struct top_row *r = &v->clients[i];

		k = cgroup_row(v, r->cgroup);
		if (k < 0) {
			k = v->nr_cgroups++;
			g = &v->cgroups[k];
			g->id = k;
			g->pid = -1;
			g->comm = "";
			g->driver = "";
			g->pdev = "";
			g->cgroup = r->cgroup;
			g->client_name = "";
			g->gpu = -1;
			place(v, g, first + k);
		}
		g = &v->cgroups[k];
		g->nr_clients++;
		g->util_sum += r->util_sum;
		g->mem_sum += r->mem_sum;
		for (j = 0; j < v->nr_engines; j++) {
			add_value(&g->util[j], &r->util[j]);
			add_value(&g->busy_ns[j], &r->busy_ns[j]);
		}
		for (j = 0; j < v->nr_regions; j++)
			add_value(&g->mem[j], &r->mem[j]);
	}
	top_view_sort(v, sort);
	return 0;
}

void top_view_free(struct top_view *v)
{
	unsigned int i;

	for (i = 0; i < v->nr_devices; i++)
		free((char *)v->devices[i].pdev);
	free(v->devices);
	free(v->clients);
	free(v->cgroups);
	free(v->values);
	free(v->engines);
	free(v->regions);
	memset(v, 0, sizeof(*v));
}
