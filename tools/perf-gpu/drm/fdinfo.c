// SPDX-License-Identifier: GPL-2.0-only
/*
 * The drm-usage-stats parser (see drm/fdinfo.h).  Each line stands alone:
 * a line that does not parse is counted and skipped, so one driver's
 * oddity never costs the rest of the snapshot.
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drm/fdinfo.h"

struct line {
	const char *key, *val;
	size_t key_len, val_len;
};

/* "key:<blanks>value", both non-empty, the key without blanks. */
static bool split_line(const char *p, size_t n, struct line *l)
{
	const char *colon = memchr(p, ':', n);
	size_t i;

	if (!colon || colon == p)
		return false;
	l->key = p;
	l->key_len = colon - p;
	for (i = 0; i < l->key_len; i++)
		if (isspace((unsigned char)p[i]) || !isprint((unsigned char)p[i]))
			return false;
	l->val = colon + 1;
	l->val_len = n - l->key_len - 1;
	while (l->val_len && isspace((unsigned char)*l->val)) {
		l->val++;
		l->val_len--;
	}
	while (l->val_len && isspace((unsigned char)l->val[l->val_len - 1]))
		l->val_len--;
	return l->val_len > 0;
}

static bool key_is(const struct line *l, const char *key)
{
	return l->key_len == strlen(key) && !memcmp(l->key, key, l->key_len);
}

/* The rest of the key after @prefix, copied to @name; false if no match. */
static bool key_suffix(const struct line *l, const char *prefix, char *name)
{
	size_t n = strlen(prefix);

	if (l->key_len <= n || memcmp(l->key, prefix, n) ||
	    l->key_len - n >= DRM_FDINFO_NAME)
		return false;
	memcpy(name, l->key + n, l->key_len - n);
	name[l->key_len - n] = '\0';
	return true;
}

struct unit {
	const char *name;
	uint64_t mul;
};

/*
 * "N" or "N UNIT" with UNIT one of @units (NULL-terminated) or none when
 * @bare is allowed; the value times the unit's multiplier, checked for
 * overflow.
 */
static bool parse_value(const struct line *l, const struct unit *units,
			bool bare, uint64_t *out)
{
	char buf[64], *end;
	unsigned long long v;
	size_t i;

	if (l->val_len >= sizeof(buf) || !isdigit((unsigned char)*l->val))
		return false;
	memcpy(buf, l->val, l->val_len);
	buf[l->val_len] = '\0';
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno)
		return false;
	while (isspace((unsigned char)*end))
		end++;
	if (!*end) {
		if (!bare)
			return false;
		*out = v;
		return true;
	}
	for (i = 0; units && units[i].name; i++)
		if (!strcmp(end, units[i].name))
			return !__builtin_mul_overflow((uint64_t)v, units[i].mul,
						       out);
	return false;
}

static const struct unit ns_units[] = { { "ns", 1 }, { NULL, 0 } };
static const struct unit mem_units[] = {
	{ "B", 1 }, { "KiB", 1ull << 10 }, { "MiB", 1ull << 20 },
	{ "GiB", 1ull << 30 }, { NULL, 0 }
};
static const struct unit hz_units[] = {
	{ "Hz", 1 }, { "KHz", 1000 }, { "kHz", 1000 }, { "MHz", 1000000 },
	{ "GHz", 1000000000 }, { NULL, 0 }
};

static struct drm_fdinfo_engine *engine(struct drm_fdinfo *fi,
					const char *name)
{
	unsigned int i;

	for (i = 0; i < fi->nr_engines; i++)
		if (!strcmp(fi->engine[i].name, name))
			return &fi->engine[i];
	if (fi->nr_engines == DRM_FDINFO_MAX)
		return NULL;
	/* Zeroed here, not by drm_fdinfo_parse(): see reset(). */
	memset(&fi->engine[i], 0, sizeof(fi->engine[i]));
	snprintf(fi->engine[i].name, DRM_FDINFO_NAME, "%s", name);
	fi->engine[i].capacity = 1;
	return &fi->engine[fi->nr_engines++];
}

static struct drm_fdinfo_region *region(struct drm_fdinfo *fi,
					const char *name)
{
	unsigned int i;

	for (i = 0; i < fi->nr_regions; i++)
		if (!strcmp(fi->region[i].name, name))
			return &fi->region[i];
	if (fi->nr_regions == DRM_FDINFO_MAX)
		return NULL;
	memset(&fi->region[i], 0, sizeof(fi->region[i]));
	snprintf(fi->region[i].name, DRM_FDINFO_NAME, "%s", name);
	return &fi->region[fi->nr_regions++];
}

/* Memory keys, most specific first: drm-total-cycles- is an engine's. */
static const struct {
	const char *prefix;
	enum drm_fdinfo_mem kind;
} mem_keys[] = {
	{ "drm-total-", DRM_MEM_TOTAL },
	{ "drm-shared-", DRM_MEM_SHARED },
	{ "drm-resident-", DRM_MEM_RESIDENT },
	{ "drm-purgeable-", DRM_MEM_PURGEABLE },
	{ "drm-active-", DRM_MEM_ACTIVE },
	{ "drm-memory-", DRM_MEM_LEGACY },
};

/* One drm- line other than the identity ones: 1 known, 0 unknown, -1 bad. */
static int parse_stat(struct drm_fdinfo *fi, const struct line *l)
{
	char name[DRM_FDINFO_NAME];
	struct drm_fdinfo_engine *e;
	struct drm_fdinfo_region *r;
	uint64_t v;
	size_t i;

	if (key_suffix(l, "drm-engine-capacity-", name)) {
		if (!parse_value(l, NULL, true, &v) || !v)
			return -1;
		e = engine(fi, name);
		if (e)
			e->capacity = v;
		return 1;
	}
	if (key_suffix(l, "drm-engine-", name)) {
		if (!parse_value(l, ns_units, true, &v))
			return -1;
		e = engine(fi, name);
		if (e) {
			e->busy_ns = v;
			e->has_busy = true;
		}
		return 1;
	}
	if (key_suffix(l, "drm-total-cycles-", name) ||
	    key_suffix(l, "drm-cycles-", name)) {
		bool total = l->key[4] == 't';

		if (!parse_value(l, NULL, true, &v))
			return -1;
		e = engine(fi, name);
		if (e && total) {
			e->total_cycles = v;
			e->has_total_cycles = true;
		} else if (e) {
			e->cycles = v;
			e->has_cycles = true;
		}
		return 1;
	}
	if (key_suffix(l, "drm-maxfreq-", name)) {
		if (!parse_value(l, hz_units, true, &v))
			return -1;
		e = engine(fi, name);
		if (e)
			e->maxfreq_hz = v;
		return 1;
	}
	for (i = 0; i < sizeof(mem_keys) / sizeof(mem_keys[0]); i++) {
		if (!key_suffix(l, mem_keys[i].prefix, name))
			continue;
		if (!parse_value(l, mem_units, true, &v))
			return -1;
		r = region(fi, name);
		if (r) {
			r->bytes[mem_keys[i].kind] = v;
			r->has[mem_keys[i].kind] = true;
		}
		return 1;
	}
	return 0;
}

/* Append " key=value" (blanks in the value made single spaces). */
static void add_stat(struct drm_fdinfo *fi, const struct line *l)
{
	size_t len = strlen(fi->stats), room = sizeof(fi->stats) - len;
	char pair[256];
	size_t n = 0, i;
	bool blank = false;

	if (l->key_len + l->val_len + 3 > sizeof(pair))
		return;
	if (len)
		pair[n++] = ' ';
	memcpy(pair + n, l->key, l->key_len);
	n += l->key_len;
	pair[n++] = '=';
	for (i = 0; i < l->val_len; i++) {
		char c = l->val[i];

		if (isspace((unsigned char)c) || !isprint((unsigned char)c)) {
			blank = true;
			continue;
		}
		if (blank)
			pair[n++] = ' ';
		blank = false;
		pair[n++] = c;
	}
	if (n < room) {
		memcpy(fi->stats + len, pair, n);
		fi->stats[len + n] = '\0';
	}
}

/*
 * The client's name as the first pair of the stats, wherever its line
 * was: a gpu_client:fdinfo sample has no field of its own for it, and
 * a reader finds it there without looking through the rest.
 */
static void add_client_name(struct drm_fdinfo *fi)
{
	struct line l = {
		.key = "drm-client-name", .key_len = 15,
		.val = fi->client_name, .val_len = strlen(fi->client_name),
	};

	add_stat(fi, &l);
}

static bool copy_name(char *dst, const struct line *l)
{
	size_t i;

	if (l->val_len >= DRM_FDINFO_NAME)
		return false;
	for (i = 0; i < l->val_len; i++)
		if (!isgraph((unsigned char)l->val[i]))
			return false;
	memcpy(dst, l->val, l->val_len);
	dst[l->val_len] = '\0';
	return true;
}

/*
 * A client name as the kernel takes it (drm_set_client_name()): 1 to
 * DRM_FDINFO_CLIENT_NAME bytes of printable ASCII, no blank.
 */
static bool valid_client_name(const char *s, size_t n)
{
	size_t i;

	if (!n || n > DRM_FDINFO_CLIENT_NAME)
		return false;
	for (i = 0; i < n; i++)
		if (s[i] <= ' ' || s[i] >= 0x7f)
			return false;
	return true;
}

/* drm-client-name's value; false for a bad one, @fi left as it was. */
static bool take_client_name(struct drm_fdinfo *fi, const struct line *l)
{
	if (!valid_client_name(l->val, l->val_len))
		return false;
	memcpy(fi->client_name, l->val, l->val_len);
	fi->client_name[l->val_len] = '\0';
	fi->has_client_name = true;
	return true;
}

/*
 * drm-pdev, drm-client-id and drm-client-name: true if @l was one of
 * them.
 */
static bool identity_line(struct drm_fdinfo *fi, const struct line *l)
{
	uint64_t v;

	if (key_is(l, "drm-pdev")) {
		if (!copy_name(fi->pdev, l))
			fi->malformed++;
		return true;
	}
	if (key_is(l, "drm-client-id")) {
		if (parse_value(l, NULL, true, &v)) {
			fi->client_id = v;
			fi->has_client_id = true;
		} else {
			fi->malformed++;
		}
		return true;
	}
	if (key_is(l, "drm-client-name")) {
		if (!take_client_name(fi, l))
			fi->malformed++;
		return true;
	}
	return false;
}

static void parse_line(struct drm_fdinfo *fi, const struct line *l,
		       const char *driver_prefix, size_t prefix_len)
{
	int ret;

	if (key_is(l, "drm-driver")) {
		/* Taken in the first pass; only its validity is counted. */
		if (!fi->driver[0])
			fi->malformed++;
		return;
	}
	if (identity_line(fi, l))
		return;
	if (l->key_len > 4 && !memcmp(l->key, "drm-", 4)) {
		ret = parse_stat(fi, l);
		if (ret < 0) {
			fi->malformed++;
			return;
		}
		if (!ret)
			fi->unknown++;
		add_stat(fi, l);
		return;
	}
	if (prefix_len && l->key_len > prefix_len &&
	    !memcmp(l->key, driver_prefix, prefix_len)) {
		/* The driver's own keys: kept as they are, not interpreted. */
		add_stat(fi, l);
		return;
	}
	/* pos:, flags:, mnt_id:, ino: and the like: not DRM's. */
}

typedef void (*line_fn)(struct drm_fdinfo *fi, const char *p, size_t n,
			const char *prefix, size_t prefix_len);

static void for_each_line(struct drm_fdinfo *fi, const char *text, size_t len,
			  line_fn fn, const char *prefix, size_t prefix_len)
{
	const char *p = text, *end = text + len, *nl;

	while (p < end) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		if (nl > p)
			fn(fi, p, nl - p, prefix, prefix_len);
		p = nl + 1;
	}
}

/* Could the line's key be @key at all: a cheap test before split_line. */
static bool starts(const char *p, size_t n, const char *key, size_t key_len)
{
	return n > key_len && !memcmp(p, key, key_len);
}

/* drm-driver, the first valid one: its validity is counted elsewhere. */
static void take_driver(struct drm_fdinfo *fi, const char *p, size_t n)
{
	struct line l;

	if (!fi->driver[0] && starts(p, n, "drm-driver", 10) &&
	    split_line(p, n, &l) && key_is(&l, "drm-driver"))
		copy_name(fi->driver, &l);
}

/*
 * The first pass: drm-driver, and drm-client-name (the last valid one,
 * as the second pass will find it), which goes first in the stats.  Bad
 * lines are counted in the second pass.
 */
static void first_pass(struct drm_fdinfo *fi, const char *p, size_t n,
		       const char *prefix, size_t prefix_len)
{
	struct line l;

	(void)prefix;
	(void)prefix_len;
	take_driver(fi, p, n);
	if (starts(p, n, "drm-client-name", 15) && split_line(p, n, &l) &&
	    key_is(&l, "drm-client-name"))
		take_client_name(fi, &l);
}

static void take_line(struct drm_fdinfo *fi, const char *p, size_t n,
		      const char *prefix, size_t prefix_len)
{
	struct line l;

	size_t i;

	for (i = 0; i < n && isspace((unsigned char)p[i]); i++)
		;
	if (i == n)
		return;		/* blank */
	if (!split_line(p, n, &l)) {
		fi->malformed++;
		return;
	}
	parse_line(fi, &l, prefix, prefix_len);
}

/* One pass: the identity keys do not depend on the driver's name. */
static void take_identity(struct drm_fdinfo *fi, const char *p, size_t n,
			  const char *prefix, size_t prefix_len)
{
	struct line l;

	(void)prefix;
	(void)prefix_len;
	if (!starts(p, n, "drm-", 4) || (p[4] != 'd' && p[4] != 'p' &&
					 p[4] != 'c'))
		return;
	take_driver(fi, p, n);
	if (split_line(p, n, &l))
		identity_line(fi, &l);
}

/*
 * The fields before the engines, and the counts; not the arrays (some 8
 * KiB, zeroed entry by entry as they are taken): perf gpu top parses
 * thousands of texts a scan.
 */
static void reset(struct drm_fdinfo *fi)
{
	memset(fi, 0, offsetof(struct drm_fdinfo, engine));
	fi->nr_engines = 0;
	fi->nr_regions = 0;
	fi->malformed = 0;
	fi->unknown = 0;
	fi->stats[0] = '\0';
}

void drm_fdinfo_parse_identity(const char *text, size_t len,
			       struct drm_fdinfo *out)
{
	reset(out);
	if (!text)
		return;
	for_each_line(out, text, len, take_identity, NULL, 0);
}

void drm_fdinfo_parse(const char *text, size_t len, struct drm_fdinfo *out)
{
	char prefix[DRM_FDINFO_NAME + 1];
	size_t prefix_len = 0;

	reset(out);
	if (!text)
		return;
	/* drm-driver first: the driver's key prefix may come before it. */
	for_each_line(out, text, len, first_pass, NULL, 0);
	if (out->driver[0])
		prefix_len = snprintf(prefix, sizeof(prefix), "%s-",
				      out->driver);
	if (out->has_client_name)
		add_client_name(out);
	for_each_line(out, text, len, take_line, prefix, prefix_len);
}

bool drm_fdinfo_stats_client_name(const char *stats,
				  char name[DRM_FDINFO_CLIENT_NAME + 1])
{
	static const char key[] = "drm-client-name=";
	const char *val;
	size_t n;

	name[0] = '\0';
	if (!stats || strncmp(stats, key, sizeof(key) - 1))
		return false;
	val = stats + sizeof(key) - 1;
	n = strcspn(val, " ");
	if (!valid_client_name(val, n))
		return false;
	memcpy(name, val, n);
	name[n] = '\0';
	return true;
}

bool drm_fdinfo_is_client(const struct drm_fdinfo *fi)
{
	return fi->driver[0] != '\0';
}

bool drm_fdinfo_same_client(const struct drm_fdinfo *a,
			    const struct drm_fdinfo *b)
{
	return a->has_client_id && b->has_client_id &&
	       a->client_id == b->client_id && !strcmp(a->pdev, b->pdev) &&
	       !strcmp(a->driver, b->driver);
}

const struct drm_fdinfo_engine *drm_fdinfo_engine(const struct drm_fdinfo *fi,
						  const char *name)
{
	unsigned int i;

	for (i = 0; i < fi->nr_engines; i++)
		if (!strcmp(fi->engine[i].name, name))
			return &fi->engine[i];
	return NULL;
}

const struct drm_fdinfo_region *drm_fdinfo_region(const struct drm_fdinfo *fi,
						  const char *name)
{
	unsigned int i;

	for (i = 0; i < fi->nr_regions; i++)
		if (!strcmp(fi->region[i].name, name))
			return &fi->region[i];
	return NULL;
}
