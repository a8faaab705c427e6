// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu report --device: see util/gpuprof-dev.h.  Every file of the tree
 * is read whole and checked line by line before anything is printed, so
 * a malformed file gives one error and no half report.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/array.h"
#include "util/debug.h"
#include "util/file.h"
#include "util/gpuprof-dev.h"

/*
 * Sums over all targets: each value is a u64, so the sum of many can
 * pass 2^64 (only with absurd values, but those must not wrap).
 */
typedef unsigned __int128 u128;

/* No file of the module comes near this; a bigger one is not ours. */
#define RD_FILE_MAX	(64u << 20)
/* Memory histograms: classes 0..63 (uapi GPUPROF_MEM_CLASSES). */
#define RD_MEM_CLASSES	64

enum rd_profile {
	RD_UNKNOWN,	/* the module does not say: bare keys */
	RD_TIME,	/* timeline ids, samples */
	RD_COVERAGE,	/* timeline ids, jobs */
	RD_MEMORY,	/* size classes, live bytes */
};

static const char *const rd_profile_names[] = {
	[RD_UNKNOWN] = "unknown",
	[RD_TIME] = "time",
	[RD_COVERAGE] = "coverage",
	[RD_MEMORY] = "memory",
};

static const char *const rd_units[] = {
	[RD_UNKNOWN] = "values",
	[RD_TIME] = "samples",
	[RD_COVERAGE] = "jobs",
	[RD_MEMORY] = "bytes",
};

struct rd_kv {			/* a status line, or a counter */
	char *key;
	char *value;		/* status: the text */
	uint64_t num;		/* counters: the value */
};

struct rd_timeline {
	uint64_t id;
	char *driver, *timeline;
};

struct rd_pair {
	uint64_t key, value;
};

struct rd_target {
	uint64_t id;
	char *name, *path;
	struct rd_pair *hist;
	size_t nr_hist;
	struct rd_kv *counters;
	size_t nr_counters;
	u128 total;
};

/* A key's value over all targets. */
struct rd_sum {
	uint64_t key;
	u128 value;
};

struct rd_dev {
	const char *root;
	enum rd_profile profile;
	struct rd_kv *status;
	size_t nr_status;
	struct rd_timeline *timelines;
	size_t nr_timelines;
	struct rd_target *targets;
	size_t nr_targets;
	struct rd_sum *sums;
	size_t nr_sums;
	u128 total;
};

__attribute__((format(printf, 4, 5)))
static int rd_fail(const struct rd_dev *d, const char *rel, unsigned int line,
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
static int rd_slurp(const struct rd_dev *d, const char *rel, char **buf,
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

/* An unsigned decimal of @n bytes: 0, -EINVAL, or -ERANGE past 2^64-1. */
static int rd_u64(const char *s, size_t n, uint64_t *v)
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
static int rd_bad_number(const struct rd_dev *d, const char *rel,
			 unsigned int line, const char *what, const char *s,
			 size_t n, int err)
{
	return rd_fail(d, rel, line, "%s '%.*s' %s", what, (int)(n > 40 ? 40 : n),
		       s, err == -ERANGE ? "is above 2^64-1" :
		       "is not an unsigned decimal number");
}

/* A file of text: NUL bytes mean it is not one of the module's. */
static int rd_check_text(const struct rd_dev *d, const char *rel,
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
static bool rd_target_gone(const struct rd_dev *d, uint64_t id)
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
static int rd_read(const struct rd_dev *d, const char *rel, uint64_t target,
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
static int rd_parse_status(struct rd_dev *d, const char *buf, size_t len)
{
	struct rd_lines it = { buf, buf + len, 0 };
	const char *s, *colon;
	size_t n;

	d->status = calloc(len / 2 + 1, sizeof(*d->status));
	if (!d->status)
		return rd_fail(d, "status", 0, "%s", strerror(ENOMEM));
	while (rd_next_line(&it, &s, &n)) {
		struct rd_kv *kv = &d->status[d->nr_status];
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

static const char *rd_status(const struct rd_dev *d, const char *key)
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
static int rd_profile_of(struct rd_dev *d)
{
	const char *hist = rd_status(d, "histograms");
	const char *mode = rd_status(d, "mode");
	const char *which = hist ? hist : mode;
	int i;

	if (!which)
		return rd_fail(d, "status", 0, "no 'mode' line");
	for (i = RD_TIME; i <= RD_MEMORY; i++) {
		if (!strcmp(which, rd_profile_names[i])) {
			d->profile = i;
			return 0;
		}
	}
	if (!strcmp(which, "idle") || !strcmp(which, "none")) {
		d->profile = RD_UNKNOWN;
		return 0;
	}
	return rd_fail(d, "status", 0, "unknown %s '%s'",
		       hist ? "histograms" : "mode", which);
}

/*
 * timelines: "id driver timeline"; a driver name has no blank, a
 * timeline name may have (an i915 GEM context is named after a comm).
 */
static int rd_parse_timelines(struct rd_dev *d, const char *buf, size_t len)
{
	struct rd_lines it = { buf, buf + len, 0 };
	const char *s, *p, *f;
	size_t n, fn;

	d->timelines = calloc(len / 4 + 1, sizeof(*d->timelines));
	if (!d->timelines)
		return rd_fail(d, "timelines", 0, "%s", strerror(ENOMEM));
	while (rd_next_line(&it, &s, &n)) {
		struct rd_timeline *tl = &d->timelines[d->nr_timelines];
		const char *end = s + n;
		int err;

		p = s;
		if (!rd_field(&p, end, &f, &fn))
			return rd_fail(d, "timelines", it.nr, "an empty line");
		err = rd_u64(f, fn, &tl->id);
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

static const struct rd_timeline *rd_timeline(const struct rd_dev *d,
					     uint64_t id)
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
static int rd_parse_histogram(struct rd_dev *d, struct rd_target *t,
			      const char *rel, const char *buf, size_t len)
{
	struct rd_lines it = { buf, buf + len, 0 };
	const char *s, *p, *f, *end;
	size_t n, fn;

	t->hist = calloc(len / 4 + 1, sizeof(*t->hist));
	if (!t->hist)
		return rd_fail(d, rel, 0, "%s", strerror(ENOMEM));
	while (rd_next_line(&it, &s, &n)) {
		struct rd_pair *pr = &t->hist[t->nr_hist];
		int err;

		p = s;
		end = s + n;
		if (!rd_field(&p, end, &f, &fn))
			return rd_fail(d, rel, it.nr, "an empty line");
		err = rd_u64(f, fn, &pr->key);
		if (err)
			return rd_bad_number(d, rel, it.nr, "key", f, fn, err);
		if (!rd_field(&p, end, &f, &fn))
			return rd_fail(d, rel, it.nr, "not 'KEY VALUE'");
		err = rd_u64(f, fn, &pr->value);
		if (err)
			return rd_bad_number(d, rel, it.nr, "value", f, fn, err);
		if (rd_field(&p, end, &f, &fn))
			return rd_fail(d, rel, it.nr, "not 'KEY VALUE'");
		if (t->nr_hist && pr->key <= pr[-1].key)
			return rd_fail(d, rel, it.nr,
				       "key %llu not above the one before",
				       (unsigned long long)pr->key);
		/* Not a key of the module: the file is not what we think. */
		if (d->profile == RD_MEMORY && pr->key >= RD_MEM_CLASSES)
			return rd_fail(d, rel, it.nr,
				       "size class %llu above %u",
				       (unsigned long long)pr->key,
				       RD_MEM_CLASSES - 1);
		t->total += pr->value;
		t->nr_hist++;
	}
	return 0;
}

/* N/counters: "name value" lines. */
static int rd_parse_counters(struct rd_dev *d, struct rd_target *t,
			     const char *rel, const char *buf, size_t len)
{
	struct rd_lines it = { buf, buf + len, 0 };
	const char *s, *p, *f, *name, *end, *extra;
	size_t n, fn, name_n, extra_n;

	t->counters = calloc(len / 4 + 1, sizeof(*t->counters));
	if (!t->counters)
		return rd_fail(d, rel, 0, "%s", strerror(ENOMEM));
	while (rd_next_line(&it, &s, &n)) {
		struct rd_kv *kv = &t->counters[t->nr_counters];
		int err;

		p = s;
		end = s + n;
		if (!rd_field(&p, end, &name, &name_n) ||
		    !rd_field(&p, end, &f, &fn) ||
		    rd_field(&p, end, &extra, &extra_n))
			return rd_fail(d, rel, it.nr, "not 'name value'");
		err = rd_u64(f, fn, &kv->num);
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
static int rd_parse_line_file(struct rd_dev *d, const char *rel,
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
static int rd_read_target(struct rd_dev *d, struct rd_target *t)
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

static void rd_free_target(struct rd_target *t)
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
	uint64_t x = ((const struct rd_target *)a)->id;
	uint64_t y = ((const struct rd_target *)b)->id;

	return (x > y) - (x < y);
}

/* The decimal directories under the root, in id order. */
static int rd_list_targets(struct rd_dev *d)
{
	size_t alloc = 0;
	struct dirent *e;
	DIR *dir;

	dir = opendir(d->root);
	if (!dir)
		return rd_fail(d, ".", 0, "%s", strerror(errno));
	while ((e = readdir(dir))) {
		uint64_t id;

		if (rd_u64(e->d_name, strlen(e->d_name), &id))
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

static int rd_read_targets(struct rd_dev *d)
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
	uint64_t x = ((const struct rd_pair *)a)->key;
	uint64_t y = ((const struct rd_pair *)b)->key;

	return (x > y) - (x < y);
}

/* Every key's value over all targets, in key order. */
static int rd_sum_keys(struct rd_dev *d)
{
	struct rd_pair *all;
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

static void rd_free(struct rd_dev *d)
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
static int rd_load(struct rd_dev *d)
{
	char *buf;
	size_t len;
	int err;

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

/* ---- output ---- */

static void rd_put_u128(FILE *out, u128 v)
{
	char buf[48];
	int i = sizeof(buf);

	buf[--i] = '\0';
	do {
		buf[--i] = '0' + (int)(v % 10);
		v /= 10;
	} while (v);
	fputs(buf + i, out);
}

static int rd_digits(u128 v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* @v as hundredths of a percent of @total, rounded half up. */
static uint64_t rd_pct_x100(u128 v, u128 total)
{
	if (!total)
		return 0;
	return (uint64_t)((v * 20000 + total) / (total * 2));
}

static void rd_put_pct(FILE *out, uint64_t x100)
{
	fprintf(out, "%llu.%02llu", (unsigned long long)(x100 / 100),
		(unsigned long long)(x100 % 100));
}

/*
 * What a key means: "driver/timeline", "<= 4 KiB", "timeline 7
 * (unnamed)" for an id the timelines file lacks (kept, not an error: the
 * share is still right), or the bare number when the mode is unknown.
 */
static void rd_key_name(const struct rd_dev *d, uint64_t key, char *buf,
			size_t size)
{
	static const char *const units[] = {
		"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB",
	};
	const struct rd_timeline *tl;

	switch (d->profile) {
	case RD_TIME:
	case RD_COVERAGE:
		tl = rd_timeline(d, key);
		if (tl)
			snprintf(buf, size, "%s/%s", tl->driver, tl->timeline);
		else
			snprintf(buf, size, "timeline %llu (unnamed)",
				 (unsigned long long)key);
		break;
	case RD_MEMORY:
		/* Checked below RD_MEM_CLASSES when read. */
		snprintf(buf, size, "<= %u %s", 1u << (key % 10),
			 units[key / 10]);
		break;
	default:
		snprintf(buf, size, "%llu", (unsigned long long)key);
	}
}

#define RD_NAME_MAX 160

/* Counters every target has, shown even when zero in text. */
static bool rd_summary_counter(const char *name)
{
	return !strcmp(name, "gpu_time_ns") || !strcmp(name, "gpu_clock_ticks") ||
	       !strcmp(name, "avg_gpu_freq_mhz") || !strcmp(name, "reports");
}

/* The status counters that say some activity was not counted. */
static bool rd_loss_key(const struct rd_kv *kv)
{
	uint64_t v;

	return (strstr(kv->key, "dropped") || strstr(kv->key, "unattributed") ||
		strstr(kv->key, "lost")) &&
	       !rd_u64(kv->value, strlen(kv->value), &v) && v;
}

static void rd_text_row(FILE *out, int width, uint64_t pct, u128 v,
			const char *indent, const char *what)
{
	char p[32];

	snprintf(p, sizeof(p), "%llu.%02llu%%", (unsigned long long)(pct / 100),
		 (unsigned long long)(pct % 100));
	fprintf(out, "%8s  %*s", p, width - rd_digits(v), "");
	rd_put_u128(out, v);
	fprintf(out, "  %s%s\n", indent, what);
}

static void rd_text_counters(FILE *out, int width,
			     const struct rd_target *t)
{
	size_t i;

	fprintf(out, "%8s  %*s      counters:", "", width, "");
	if (!t->nr_counters)
		fputs(" none", out);
	for (i = 0; i < t->nr_counters; i++)
		if (rd_summary_counter(t->counters[i].key) || t->counters[i].num)
			fprintf(out, " %s=%llu", t->counters[i].key,
				(unsigned long long)t->counters[i].num);
	fputc('\n', out);
}

/*
 * A table in the manner of prof(1): share, value, then what, each
 * target followed by its keys and its counters, then all targets.
 */
static void rd_text(const struct rd_dev *d, FILE *out)
{
	const char *unit = rd_units[d->profile];
	int width = rd_digits(d->total);
	char name[RD_NAME_MAX];
	size_t i, j;

	if (width < (int)strlen(unit))
		width = strlen(unit);
	fprintf(out, "# %s: %s profile, ", d->root, rd_profile_names[d->profile]);
	rd_put_u128(out, d->total);
	fprintf(out, " %s in %zu target%s\n", unit, d->nr_targets,
		d->nr_targets == 1 ? "" : "s");
	for (i = 0; i < d->nr_status; i++)
		if (rd_loss_key(&d->status[i]))
			fprintf(out, "# %s: %s\n", d->status[i].key,
				d->status[i].value);
	fprintf(out, "#\n# %6s  %*s  %s\n", "share", width, unit,
		"target, key");
	for (i = 0; i < d->nr_targets; i++) {
		const struct rd_target *t = &d->targets[i];
		char who[1024];

		snprintf(who, sizeof(who), "%llu %s%s%s%s",
			 (unsigned long long)t->id, t->name, *t->path ? " (" : "",
			 t->path, *t->path ? ")" : "");
		rd_text_row(out, width, rd_pct_x100(t->total, d->total),
			    t->total, "", who);
		for (j = 0; j < t->nr_hist; j++) {
			rd_key_name(d, t->hist[j].key, name, sizeof(name));
			rd_text_row(out, width,
				    rd_pct_x100(t->hist[j].value, d->total),
				    t->hist[j].value, "    ", name);
		}
		rd_text_counters(out, width, t);
	}
	if (!d->nr_targets)
		return;
	rd_text_row(out, width, rd_pct_x100(d->total, d->total), d->total, "",
		    "all targets");
	for (j = 0; j < d->nr_sums; j++) {
		rd_key_name(d, d->sums[j].key, name, sizeof(name));
		rd_text_row(out, width, rd_pct_x100(d->sums[j].value, d->total),
			    d->sums[j].value, "    ", name);
	}
}

/* The fields of one key in JSON, after its "key". */
static void rd_json_key(const struct rd_dev *d, FILE *out, uint64_t key,
			u128 value)
{
	const struct rd_timeline *tl = NULL;
	char name[RD_NAME_MAX];

	rd_key_name(d, key, name, sizeof(name));
	fprintf(out, "{\"key\": %llu, \"name\": ", (unsigned long long)key);
	report_json_string(out, name);
	if (d->profile == RD_TIME || d->profile == RD_COVERAGE)
		tl = rd_timeline(d, key);
	if (tl) {
		fputs(", \"driver\": ", out);
		report_json_string(out, tl->driver);
		fputs(", \"timeline\": ", out);
		report_json_string(out, tl->timeline);
	}
	if (d->profile == RD_MEMORY)
		fprintf(out, ", \"max_bytes\": %llu", 1ull << key);
	fputs(", \"value\": ", out);
	rd_put_u128(out, value);
	fputs(", \"percent\": ", out);
	rd_put_pct(out, rd_pct_x100(value, d->total));
	fputc('}', out);
}

static void rd_json_status(const struct rd_dev *d, FILE *out)
{
	uint64_t v;
	size_t i;

	fputs("  \"status\": {", out);
	for (i = 0; i < d->nr_status; i++) {
		const struct rd_kv *kv = &d->status[i];

		fputs(i ? ", " : "", out);
		report_json_string(out, kv->key);
		fputs(": ", out);
		/* Counters as numbers, the rest (mode, states) as text. */
		if (!rd_u64(kv->value, strlen(kv->value), &v))
			fprintf(out, "%llu", (unsigned long long)v);
		else
			report_json_string(out, kv->value);
	}
	fputs("},\n", out);
}

static void rd_json_target(const struct rd_dev *d, FILE *out,
			   const struct rd_target *t)
{
	size_t j;

	fprintf(out, "    {\"id\": %llu, \"name\": ", (unsigned long long)t->id);
	report_json_string(out, t->name);
	fputs(", \"path\": ", out);
	report_json_string(out, t->path);
	fputs(", \"value\": ", out);
	rd_put_u128(out, t->total);
	fputs(", \"percent\": ", out);
	rd_put_pct(out, rd_pct_x100(t->total, d->total));
	fputs(",\n     \"histogram\": [", out);
	for (j = 0; j < t->nr_hist; j++) {
		fputs(j ? ",\n       " : "\n       ", out);
		rd_json_key(d, out, t->hist[j].key, t->hist[j].value);
	}
	fputs("],\n     \"counters\": {", out);
	for (j = 0; j < t->nr_counters; j++) {
		fputs(j ? ", " : "", out);
		report_json_string(out, t->counters[j].key);
		fprintf(out, ": %llu", (unsigned long long)t->counters[j].num);
	}
	fputs("}}", out);
}

/* One document; keys documented in Documentation/perf-gpu.rst. */
static void rd_json(const struct rd_dev *d, FILE *out)
{
	size_t i;

	fputs("{\n  \"source\": ", out);
	report_json_string(out, d->root);
	fprintf(out, ",\n  \"profile\": \"%s\",\n  \"unit\": \"%s\",\n  \"total\": ",
		rd_profile_names[d->profile], rd_units[d->profile]);
	rd_put_u128(out, d->total);
	fputs(",\n", out);
	rd_json_status(d, out);
	fputs("  \"keys\": [", out);
	for (i = 0; i < d->nr_sums; i++) {
		fputs(i ? ",\n    " : "\n    ", out);
		rd_json_key(d, out, d->sums[i].key, d->sums[i].value);
	}
	fputs("],\n  \"targets\": [", out);
	for (i = 0; i < d->nr_targets; i++) {
		fputs(i ? ",\n" : "\n", out);
		rd_json_target(d, out, &d->targets[i]);
	}
	fputs("]\n}\n", out);
}

/* Counter names of all targets, in first-seen order: the CSV columns. */
static const char **rd_counter_columns(const struct rd_dev *d, size_t *nr)
{
	const char **cols;
	size_t n = 0, i, j, k;

	for (i = 0; i < d->nr_targets; i++)
		n += d->targets[i].nr_counters;
	cols = malloc((n + 1) * sizeof(*cols));
	if (!cols)
		return NULL;
	*nr = 0;
	for (i = 0; i < d->nr_targets; i++) {
		for (j = 0; j < d->targets[i].nr_counters; j++) {
			const char *c = d->targets[i].counters[j].key;

			for (k = 0; k < *nr && strcmp(cols[k], c); k++)
				;
			if (k == *nr)
				cols[(*nr)++] = c;
		}
	}
	return cols;
}

static void rd_csv_row(const struct rd_dev *d, FILE *out, int human,
		       const struct rd_target *t, const struct rd_pair *pr,
		       const char **cols, size_t nr_cols)
{
	enum report_unit unit = d->profile == RD_MEMORY ? UNIT_BYTES : UNIT_NONE;
	char name[RD_NAME_MAX];
	size_t i, j;

	fprintf(out, "%llu,", (unsigned long long)t->id);
	report_csv_field(out, t->name);
	putc(',', out);
	report_csv_field(out, t->path);
	putc(',', out);
	if (pr) {
		fprintf(out, "%llu,", (unsigned long long)pr->key);
		rd_key_name(d, pr->key, name, sizeof(name));
		report_csv_field(out, name);
		putc(',', out);
		report_csv_number(out, pr->value, unit, human);
		putc(',', out);
		report_csv_number(out, rd_pct_x100(pr->value, d->total),
				  UNIT_PERCENT_X100, human);
	} else {
		/* A target without keys still shows its counters. */
		fputs(",,", out);
		report_csv_number(out, 0, unit, human);
		putc(',', out);
		report_csv_number(out, 0, UNIT_PERCENT_X100, human);
	}
	for (i = 0; i < nr_cols; i++) {
		putc(',', out);
		for (j = 0; j < t->nr_counters; j++) {
			if (!strcmp(t->counters[j].key, cols[i])) {
				report_csv_number(out, t->counters[j].num,
						  UNIT_NONE, human);
				break;
			}
		}
	}
	putc('\n', out);
}

/*
 * gputop's convention: "# key: value" header lines (ours, then the
 * module's status), a row of column names, one row per target and key
 * with the target's counters in the columns after.
 */
static int rd_csv(const struct rd_dev *d, FILE *out)
{
	int human = isatty(fileno(out));
	const char **cols;
	size_t nr_cols, i, j;

	cols = rd_counter_columns(d, &nr_cols);
	if (!cols)
		return rd_fail(d, ".", 0, "%s", strerror(ENOMEM));
	fprintf(out, "# source: %s\n# profile: %s\n# unit: %s\n# total: ",
		d->root, rd_profile_names[d->profile], rd_units[d->profile]);
	rd_put_u128(out, d->total);
	fputc('\n', out);
	for (i = 0; i < d->nr_status; i++)
		fprintf(out, "# %s: %s\n", d->status[i].key, d->status[i].value);
	fputs("target,name,path,key,key_name,value,percent", out);
	for (i = 0; i < nr_cols; i++) {
		putc(',', out);
		report_csv_field(out, cols[i]);
	}
	putc('\n', out);
	for (i = 0; i < d->nr_targets; i++) {
		const struct rd_target *t = &d->targets[i];

		if (!t->nr_hist)
			rd_csv_row(d, out, human, t, NULL, cols, nr_cols);
		for (j = 0; j < t->nr_hist; j++)
			rd_csv_row(d, out, human, t, &t->hist[j], cols, nr_cols);
	}
	free(cols);
	return 0;
}

int report_device(const char *root, enum report_format fmt, FILE *out)
{
	struct rd_dev d = { .root = root };
	int err;

	err = rd_load(&d);
	if (!err) {
		switch (fmt) {
		case REPORT_JSON:
			rd_json(&d, out);
			break;
		case REPORT_CSV:
			err = rd_csv(&d, out);
			break;
		default:
			rd_text(&d, out);
		}
	}
	rd_free(&d);
	return err ? -1 : 0;
}
