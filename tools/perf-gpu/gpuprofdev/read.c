// SPDX-License-Identifier: GPL-2.0-only
/*
 * The reader of a gpuprof device tree: see gpuprofdev/read.h.  Every file
 * of the tree is read whole and checked line by line before the caller
 * prints anything, so a malformed file gives one error and no half
 * report.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpuprofdev/read.h"
#include "util/array.h"
#include "util/debug.h"
#include "util/file.h"

/* No file of the module comes near this; a bigger one is not ours. */
#define RD_FILE_MAX	(64u << 20)

static const char *const rd_profile_names[] = {
	[GPUPROFDEV_UNKNOWN] = "unknown",
	[GPUPROFDEV_TIME] = "time",
	[GPUPROFDEV_COVERAGE] = "coverage",
	[GPUPROFDEV_MEMORY] = "memory",
};

const char *gpuprofdev_profile_name(enum gpuprofdev_profile profile)
{
	return rd_profile_names[profile];
}

__attribute__((format(printf, 4, 5)))
static int rd_fail(const struct gpuprofdev *d, const char *rel, unsigned int line,
		   const char *fmt, ...)
{
	char msg[512], at[32] = "";
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line)
		snprintf(at, sizeof(at), "line %u: ", line);
	pr_err("%s/%s: %s%s\n", d->root, rel, at, msg);
	return -1;
}

/*
 * All of ROOT/@rel in a malloc'ed buffer; 0 or -errno.  The nodes of
 * the module have no size (char devices), so read to the end.
 */
static int rd_slurp(const struct gpuprofdev *d, const char *rel, char **buf,
		    size_t *len)
{
	char path[4096];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", d->root, rel) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	return file_read_all(path, RD_FILE_MAX, buf, len);
}

/* Lines of a file, numbered from 1; the last one may lack its newline. */
struct rd_lines {
	const char *p, *end;
	unsigned int nr;
};

static bool rd_next_line(struct rd_lines *it, const char **s, size_t *n)
{
	const char *nl;

	if (it->p >= it->end)
		return false;
	nl = memchr(it->p, '\n', it->end - it->p);
	*s = it->p;
	*n = (nl ? nl : it->end) - it->p;
	it->p = nl ? nl + 1 : it->end;
	it->nr++;
	return true;
}

static bool rd_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The next blank-separated field of [*p, end); false when none is left. */
static bool rd_field(const char **p, const char *end, const char **f,
		     size_t *n)
{
	const char *s = *p;

	while (s < end && rd_blank(*s))
		s++;
	if (s == end)
		return false;
	*f = s;
	while (s < end && !rd_blank(*s))
		s++;
	*n = s - *f;
	*p = s;
	return true;
}

int gpuprofdev_u64(const char *s, size_t n, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (!n)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		unsigned int digit = (unsigned char)s[i] - '0';

		if (digit > 9)
			return -EINVAL;
		if (x > (UINT64_MAX - digit) / 10)
			return -ERANGE;
		x = x * 10 + digit;
	}
	*v = x;
	return 0;
}

/* "line N: what 'TEXT' is not..." for a number that did not parse. */
static int rd_bad_number(const struct gpuprofdev *d, const char *rel,
			 unsigned int line, const char *what, const char *s,
			 size_t n, int err)
{
	return rd_fail(d, rel, line, "%s '%.*s' %s", what, (int)(n > 40 ? 40 : n),
		       s, err == -ERANGE ? "is above 2^64-1" :
		       "is not an unsigned decimal number");
}

/* A file of text: NUL bytes mean it is not one of the module's. */
static int rd_check_text(const struct gpuprofdev *d, const char *rel,
			 const char *buf, size_t len)
{
	const char *nul = memchr(buf, '\0', len);
	unsigned int line = 1;
	const char *p;

	if (!nul)
		return 0;
	for (p = buf; p < nul; p++)
		line += *p == '\n';
	return rd_fail(d, rel, line, "a NUL byte");
}

/* Has target @id's directory gone (ended while we read it)? */
static bool rd_target_gone(const struct gpuprofdev *d, uint64_t id)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%llu", d->root, (unsigned long long)id);
	return stat(path, &st) && errno == ENOENT;
}

/*
 * The whole file, checked to be text; -1 after printing why not.  For a
 * target's file (@target), 1 when the target has ended meanwhile: its
 * open files give ENODEV, then its nodes vanish.
 */
static int rd_read(const struct gpuprofdev *d, const char *rel, uint64_t target,
		   bool is_target, char **buf, size_t *len)
{
	int err = rd_slurp(d, rel, buf, len);

	if (is_target && (err == -ENODEV ||
			  (err == -ENOENT && rd_target_gone(d, target))))
		return 1;
	if (err)
		return rd_fail(d, rel, 0, "%s", strerror(-err));
	if (rd_check_text(d, rel, *buf, *len)) {
		free(*buf);
		return -1;
	}
	return 0;
}

static char *rd_strndup(const char *s, size_t n)
{
	char *c = malloc(n + 1);

	if (c) {
		memcpy(c, s, n);
		c[n] = '\0';
	}
	return c;
}

/* status: "key: value" lines. */
static int rd_parse_status(struct gpuprofdev *d, const char *buf, size_t len)
{
	struct rd_lines it = { buf, buf + len, 0 };
	const char *s, *colon;
	size_t n;

	d->status = calloc(len / 2 + 1, sizeof(*d->status));
	if (!d->status)
		return rd_fail(d, "status", 0, "%s", strerror(ENOMEM));
	while (rd_next_line(&it, &s, &n)) {
		struct gpuprofdev_kv *kv = &d->status[d->nr_status];
		const char *v;

		colon = memchr(s, ':', n);
		if (!colon || colon == s || memchr(s, ' ', colon - s))
			return rd_fail(d, "status", it.nr, "not 'key: value'");
		for (v = colon + 1; v < s + n && rd_blank(*v); v++)
			;
		kv->key = rd_strndup(s, colon - s);
		kv->value = rd_strndup(v, s + n - v);
		if (!kv->key || !kv->value) {
			free(kv->key);
			free(kv->value);
			return rd_fail(d, "status", 0, "%s", strerror(ENOMEM));
		}
		d->nr_status++;
	}
	return 0;
}

const char *gpuprofdev_status(const struct gpuprofdev *d, const char *key)
{
	size_t i;

	for (i = 0; i < d->nr_status; i++)
		if (!strcmp(d->status[i].key, key))
			return d->status[i].value;
	return NULL;
}

/*
 * What the histograms hold.  "mode" is what runs now: after "stop" it
 * is idle while the histograms keep the last mode's keys, which a
 * "histograms" key says when the module has it.
 */
static int rd_profile_of(struct gpuprofdev *d)
{
	const char *hist = gpuprofdev_status(d, "histograms");
	const char *mode = gpuprofdev_status(d, "mode");
	const char *which = hist ? hist : mode;
	int i;

	if (!which)
		return rd_fail(d, "status", 0, "no 'mode' line");
	for (i = GPUPROFDEV_TIME; i <= GPUPROFDEV_MEMORY; i++) {
		if (!strcmp(which, rd_profile_names[i])) {
			d->profile = i;
			return 0;
		}
	}
	if (!strcmp(which, "idle") || !strcmp(which, "none")) {
		d->profile = GPUPROFDEV_UNKNOWN;
		return 0;
	}
	return rd_fail(d, "status", 0, "unknown %s '%s'",
		       hist ? "histograms" : "mode", which);
}

/*
 * timelines: "id driver timeline"; a driver name has no blank, a
 * timeline name may have (an i915 GEM context is named after a comm).
 */
static int rd_parse_timelines(struct gpuprofdev *d, const char *buf, size_t len)
{
	struct rd_lines it = { buf, buf + len, 0 };
	const char *s, *p, *f;
	size_t n, fn;

	d->timelines = calloc(len / 4 + 1, sizeof(*d->timelines));
	if (!d->timelines)
		return rd_fail(d, "timelines", 0, "%s", strerror(ENOMEM));
	while (rd_next_line(&it, &s, &n)) {
		struct gpuprofdev_timeline *tl = &d->timelines[d->nr_timelines];
		const char *end = s + n;
		int err;

		p = s;
		if (!rd_field(&p, end, &f, &fn))
			return rd_fail(d, "timelines", it.nr, "an empty line");
		err = gpuprofdev_u64(f, fn, &tl->id);
		if (err)
			return rd_bad_number(d, "timelines", it.nr, "id", f, fn, err);
		if (d->nr_timelines && tl->id <= tl[-1].id)
			return rd_fail(d, "timelines", it.nr,
				       "id %llu not above the one before",
				       (unsigned long long)tl->id);
		if (!rd_field(&p, end, &f, &fn))
			return rd_fail(d, "timelines", it.nr,
				       "no driver name");
		/* The rest, after one separator, is the timeline name. */
		if (p < end)
			p++;
		tl->driver = rd_strndup(f, fn);
		tl->timeline = rd_strndup(p, end - p);
		if (!tl->driver || !tl->timeline) {
			free(tl->driver);
			free(tl->timeline);
			return rd_fail(d, "timelines", 0, "%s", strerror(ENOMEM));
		}
		d->nr_timelines++;
	}
	return 0;
}

const struct gpuprofdev_timeline *
gpuprofdev_timeline(const struct gpuprofdev *d, uint64_t id)
{
	size_t lo = 0, hi = d->nr_timelines;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->timelines[mid].id == id)
			return &d->timelines[mid];
		if (d->timelines[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* N/histogram: "KEY VALUE" lines, keys increasing. */
static int rd_parse_histogram(struct gpuprofdev *d, struct gpuprofdev_target *t,
			      const char *rel, const char *buf, size_t len)
{
	struct rd_lines it = { buf, buf + len, 0 };
	const char *s, *p, *f, *end;
	size_t n, fn;

	t->hist = calloc(len / 4 + 1, sizeof(*t->hist));
	if (!t->hist)
		return rd_fail(d, rel, 0, "%s", strerror(ENOMEM));
	while (rd_next_line(&it, &s, &n)) {
		struct gpuprofdev_pair *pr = &t->hist[t->nr_hist];
		int err;

		p = s;
		end = s + n;
		if (!rd_field(&p, end, &f, &fn))
			return rd_fail(d, rel, it.nr, "an empty line");
		err = gpuprofdev_u64(f, fn, &pr->key);
		if (err)
			return rd_bad_number(d, rel, it.nr, "key", f, fn, err);
		if (!rd_field(&p, end, &f, &fn))
			return rd_fail(d, rel, it.nr, "not 'KEY VALUE'");
		err = gpuprofdev_u64(f, fn, &pr->value);
		if (err)
			return rd_bad_number(d, rel, it.nr, "value", f, fn, err);
		if (rd_field(&p, end, &f, &fn))
			return rd_fail(d, rel, it.nr, "not 'KEY VALUE'");
		if (t->nr_hist && pr->key <= pr[-1].key)
			return rd_fail(d, rel, it.nr,
				       "key %llu not above the one before",
				       (unsigned long long)pr->key);
		/* Not a key of the module: the file is not what we think. */
		if (d->profile == GPUPROFDEV_MEMORY && pr->key >= GPUPROFDEV_MEM_CLASSES)
			return rd_fail(d, rel, it.nr,
				       "size class %llu above %u",
				       (unsigned long long)pr->key,
				       GPUPROFDEV_MEM_CLASSES - 1);
		t->total += pr->value;
		t->nr_hist++;
	}
	return 0;
}

/* N/counters: "name value" lines. */
static int rd_parse_counters(struct gpuprofdev *d, struct gpuprofdev_target *t,
			     const char *rel, const char *buf, size_t len)
{
	struct rd_lines it = { buf, buf + len, 0 };
	const char *s, *p, *f, *name, *end, *extra;
	size_t n, fn, name_n, extra_n;

	t->counters = calloc(len / 4 + 1, sizeof(*t->counters));
	if (!t->counters)
		return rd_fail(d, rel, 0, "%s", strerror(ENOMEM));
	while (rd_next_line(&it, &s, &n)) {
		struct gpuprofdev_kv *kv = &t->counters[t->nr_counters];
		int err;

		p = s;
		end = s + n;
		if (!rd_field(&p, end, &name, &name_n) ||
		    !rd_field(&p, end, &f, &fn) ||
		    rd_field(&p, end, &extra, &extra_n))
			return rd_fail(d, rel, it.nr, "not 'name value'");
		err = gpuprofdev_u64(f, fn, &kv->num);
		if (err)
			return rd_bad_number(d, rel, it.nr, "value", f, fn, err);
		kv->key = rd_strndup(name, name_n);
		if (!kv->key)
			return rd_fail(d, rel, 0, "%s", strerror(ENOMEM));
		t->nr_counters++;
	}
	return 0;
}

/* name and path: one line or nothing; the text without its newline. */
static int rd_parse_line_file(struct gpuprofdev *d, const char *rel,
			      const char *buf, size_t len, char **out)
{
	const char *nl = memchr(buf, '\n', len);

	if (nl && nl + 1 < buf + len)
		return rd_fail(d, rel, 2, "more than one line");
	*out = rd_strndup(buf, nl ? (size_t)(nl - buf) : len);
	return *out ? 0 : rd_fail(d, rel, 0, "%s", strerror(ENOMEM));
}

enum { RD_NAME, RD_PATH, RD_HISTOGRAM, RD_COUNTERS, RD_NR_FILES };
static const char *const rd_target_files[RD_NR_FILES] = {
	"name", "path", "histogram", "counters",
};

/* 1 when the target ended meanwhile (leave it out), 0, or -1. */
static int rd_read_target(struct gpuprofdev *d, struct gpuprofdev_target *t)
{
	char rel[64], *buf;
	size_t len;
	int i, err;

	for (i = 0; i < RD_NR_FILES; i++) {
		snprintf(rel, sizeof(rel), "%llu/%s", (unsigned long long)t->id,
			 rd_target_files[i]);
		err = rd_read(d, rel, t->id, true, &buf, &len);
		if (err)
			return err;
		switch (i) {
		case RD_NAME:
			err = rd_parse_line_file(d, rel, buf, len, &t->name);
			break;
		case RD_PATH:
			err = rd_parse_line_file(d, rel, buf, len, &t->path);
			break;
		case RD_HISTOGRAM:
			err = rd_parse_histogram(d, t, rel, buf, len);
			break;
		default:
			err = rd_parse_counters(d, t, rel, buf, len);
		}
		free(buf);
		if (err)
			return -1;
	}
	return 0;
}

static void rd_free_target(struct gpuprofdev_target *t)
{
	size_t i;

	free(t->name);
	free(t->path);
	free(t->hist);
	for (i = 0; i < t->nr_counters; i++)
		free(t->counters[i].key);
	free(t->counters);
	memset(t, 0, sizeof(*t));
}

static int rd_cmp_target(const void *a, const void *b)
{
	uint64_t x = ((const struct gpuprofdev_target *)a)->id;
	uint64_t y = ((const struct gpuprofdev_target *)b)->id;

	return (x > y) - (x < y);
}

/* The decimal directories under the root, in id order. */
static int rd_list_targets(struct gpuprofdev *d)
{
	size_t alloc = 0;
	struct dirent *e;
	DIR *dir;

	dir = opendir(d->root);
	if (!dir)
		return rd_fail(d, ".", 0, "%s", strerror(errno));
	while ((e = readdir(dir))) {
		uint64_t id;

		if (gpuprofdev_u64(e->d_name, strlen(e->d_name), &id))
			continue;
		if (ARRAY_RESERVE(d->targets, alloc, d->nr_targets + 1)) {
			closedir(dir);
			return rd_fail(d, ".", 0, "%s", strerror(ENOMEM));
		}
		memset(&d->targets[d->nr_targets], 0, sizeof(*d->targets));
		d->targets[d->nr_targets++].id = id;
	}
	closedir(dir);
	if (d->nr_targets)
		qsort(d->targets, d->nr_targets, sizeof(*d->targets),
		      rd_cmp_target);
	return 0;
}

static int rd_read_targets(struct gpuprofdev *d)
{
	size_t i, kept = 0;
	int r;

	if (rd_list_targets(d))
		return -1;
	for (i = 0; i < d->nr_targets; i++) {
		r = rd_read_target(d, &d->targets[i]);
		if (r < 0)
			return -1;
		if (r > 0) {
			rd_free_target(&d->targets[i]);
			continue;
		}
		d->total += d->targets[i].total;
		d->targets[kept++] = d->targets[i];
	}
	d->nr_targets = kept;
	return 0;
}

static int rd_cmp_pair(const void *a, const void *b)
{
	uint64_t x = ((const struct gpuprofdev_pair *)a)->key;
	uint64_t y = ((const struct gpuprofdev_pair *)b)->key;

	return (x > y) - (x < y);
}

/* Every key's value over all targets, in key order. */
static int rd_sum_keys(struct gpuprofdev *d)
{
	struct gpuprofdev_pair *all;
	size_t n = 0, i, j;

	for (i = 0; i < d->nr_targets; i++)
		n += d->targets[i].nr_hist;
	all = malloc((n + 1) * sizeof(*all));
	d->sums = malloc((n + 1) * sizeof(*d->sums));
	if (!all || !d->sums) {
		free(all);
		return rd_fail(d, ".", 0, "%s", strerror(ENOMEM));
	}
	for (i = 0, n = 0; i < d->nr_targets; i++)
		for (j = 0; j < d->targets[i].nr_hist; j++)
			all[n++] = d->targets[i].hist[j];
	if (n)
		qsort(all, n, sizeof(*all), rd_cmp_pair);
	for (i = 0; i < n; i++) {
		if (!d->nr_sums || d->sums[d->nr_sums - 1].key != all[i].key) {
			d->sums[d->nr_sums].key = all[i].key;
			d->sums[d->nr_sums++].value = 0;
		}
		d->sums[d->nr_sums - 1].value += all[i].value;
	}
	free(all);
	return 0;
}

void gpuprofdev_free(struct gpuprofdev *d)
{
	size_t i;

	for (i = 0; i < d->nr_status; i++) {
		free(d->status[i].key);
		free(d->status[i].value);
	}
	free(d->status);
	for (i = 0; i < d->nr_timelines; i++) {
		free(d->timelines[i].driver);
		free(d->timelines[i].timeline);
	}
	free(d->timelines);
	for (i = 0; i < d->nr_targets; i++)
		rd_free_target(&d->targets[i]);
	free(d->targets);
	free(d->sums);
}

/*
 * Read the tree.  Timelines last: ids are never reused and the file
 * only grows, so every key of the histograms read before is in it.
 */
int gpuprofdev_load(struct gpuprofdev *d, const char *root)
{
	char *buf;
	size_t len;
	int err;

	memset(d, 0, sizeof(*d));
	d->root = root;
	if (rd_read(d, "status", 0, false, &buf, &len))
		return -1;
	err = rd_parse_status(d, buf, len);
	free(buf);
	if (err || rd_profile_of(d) || rd_read_targets(d) || rd_sum_keys(d))
		return -1;
	if (rd_read(d, "timelines", 0, false, &buf, &len))
		return -1;
	err = rd_parse_timelines(d, buf, len);
	free(buf);
	return err;
}
