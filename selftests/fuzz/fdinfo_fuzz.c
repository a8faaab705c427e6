// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the DRM fdinfo (drm-usage-stats) parser of perf gpu
 * record and top (tools/perf-gpu/drm/fdinfo.c; design.rst 6.2), and the
 * two other procfs texts perf gpu reads: /proc/PID/cgroup (top's cgroup
 * of a client, util/cgroup.c) and /proc/self/mountinfo (record's
 * cgroup2 mount, record/cgroups.c).
 *
 * Input: the text of /proc/PID/fdinfo/FD, in a buffer of exactly its
 * size and without a NUL after it, as the parser is allowed to get it.
 * The result goes into a struct full of garbage, as perf gpu top reuses
 * one for thousands of texts.
 *
 * Checks: every string of the result is terminated inside its array and
 * the counts are within their bounds; engine and region names are unique
 * and found by name; the stats string is "key=value" pairs of printable
 * text; the identity-only parse finds the same driver, pdev and client
 * id; parsing again gives the same result.  A cgroup path found is
 * whole in its buffer, starts with '/' and holds no newline or NUL; a
 * mount found has an absolute mount point and root.
 */
#include <ctype.h>
#include <string.h>

#include "fuzz.h"
#include "../../tools/perf-gpu/drm/fdinfo.h"
#include "../../tools/perf-gpu/record/cgroups.h"
#include "../../tools/perf-gpu/util/cgroup.h"

static void check_name(const char *name, size_t size, bool may_be_empty)
{
	size_t len = strnlen(name, size), i;

	FUZZ_CHECK(len < size);
	FUZZ_CHECK(may_be_empty || len > 0);
	for (i = 0; i < len; i++)
		FUZZ_CHECK(isgraph((unsigned char)name[i]));
}

static void check_engines(const struct drm_fdinfo *fi)
{
	unsigned int i;

	FUZZ_CHECK(fi->nr_engines <= DRM_FDINFO_MAX);
	for (i = 0; i < fi->nr_engines; i++) {
		const struct drm_fdinfo_engine *e = &fi->engine[i];

		FUZZ_CHECK(strnlen(e->name, DRM_FDINFO_NAME) < DRM_FDINFO_NAME);
		FUZZ_CHECK(e->name[0]);
		/* Capacity 0 would divide by zero in utilisation. */
		FUZZ_CHECK(e->capacity >= 1);
		FUZZ_CHECK(drm_fdinfo_engine(fi, e->name) == e);
	}
}

static void check_regions(const struct drm_fdinfo *fi)
{
	unsigned int i, k;

	FUZZ_CHECK(fi->nr_regions <= DRM_FDINFO_MAX);
	for (i = 0; i < fi->nr_regions; i++) {
		const struct drm_fdinfo_region *r = &fi->region[i];

		FUZZ_CHECK(strnlen(r->name, DRM_FDINFO_NAME) < DRM_FDINFO_NAME);
		FUZZ_CHECK(r->name[0]);
		FUZZ_CHECK(drm_fdinfo_region(fi, r->name) == r);
		for (k = 0; k < DRM_MEM_KINDS; k++)
			FUZZ_CHECK(r->has[k] || !r->bytes[k]);
	}
}

/* "k=v k=v ...": printable, single spaces, each pair with its '='. */
static void check_stats(const struct drm_fdinfo *fi)
{
	size_t len = strnlen(fi->stats, sizeof(fi->stats)), i;

	FUZZ_CHECK(len < sizeof(fi->stats));
	for (i = 0; i < len; i++)
		FUZZ_CHECK(isprint((unsigned char)fi->stats[i]));
	FUZZ_CHECK(!len || (fi->stats[0] != ' ' && fi->stats[0] != '=' &&
			    strchr(fi->stats, '=')));
	FUZZ_CHECK(!strstr(fi->stats, "  "));
}

/* The whole result, not the entries past the counts. */
static void check_same(const struct drm_fdinfo *a, const struct drm_fdinfo *b)
{
	FUZZ_CHECK(!memcmp(a, b, offsetof(struct drm_fdinfo, engine)));
	FUZZ_CHECK(a->nr_engines == b->nr_engines &&
		   a->nr_regions == b->nr_regions &&
		   a->malformed == b->malformed && a->unknown == b->unknown);
	FUZZ_CHECK(!memcmp(a->engine, b->engine,
			   a->nr_engines * sizeof(a->engine[0])));
	FUZZ_CHECK(!memcmp(a->region, b->region,
			   a->nr_regions * sizeof(a->region[0])));
	FUZZ_CHECK(!strcmp(a->stats, b->stats));
}

static void check_proc_texts(const char *text, size_t size)
{
	char path[CGROUP_PATH_MAX], mount[64], root[64];
	size_t len;

	memset(path, 0xa5, sizeof(path));
	if (cgroup_path_from_proc(text, size, path, sizeof(path))) {
		FUZZ_CHECK(!path[0]);
	} else {
		len = strnlen(path, sizeof(path));
		FUZZ_CHECK(len < sizeof(path) && path[0] == '/');
		FUZZ_CHECK(!memchr(path, '\n', len));
		FUZZ_CHECK(cgroup_path_within(path, "/"));
		FUZZ_CHECK(cgroup_path_within(path, path));
	}
	if (!cgroups_find_mount(text, size, mount, root, sizeof(mount))) {
		FUZZ_CHECK(strnlen(mount, sizeof(mount)) < sizeof(mount));
		FUZZ_CHECK(strnlen(root, sizeof(root)) < sizeof(root));
		FUZZ_CHECK(mount[0] == '/' && root[0] == '/');
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct drm_fdinfo *fi = malloc(sizeof(*fi));
	struct drm_fdinfo *again = malloc(sizeof(*again));
	struct drm_fdinfo *id = malloc(sizeof(*id));
	char *text = malloc(size ? size : 1);

	FUZZ_CHECK(fi && again && id && text);
	memcpy(text, data, size);
	memset(fi, 0xa5, sizeof(*fi));
	memset(again, 0x5a, sizeof(*again));
	memset(id, 0xa5, sizeof(*id));

	drm_fdinfo_parse(text, size, fi);
	check_name(fi->driver, sizeof(fi->driver), true);
	check_name(fi->pdev, sizeof(fi->pdev), true);
	check_engines(fi);
	check_regions(fi);
	check_stats(fi);
	FUZZ_CHECK(drm_fdinfo_is_client(fi) == !!fi->driver[0]);
	FUZZ_CHECK(drm_fdinfo_same_client(fi, fi) == fi->has_client_id);

	drm_fdinfo_parse(text, size, again);
	check_same(fi, again);

	drm_fdinfo_parse_identity(text, size, id);
	FUZZ_CHECK(!strcmp(id->driver, fi->driver));
	FUZZ_CHECK(!strcmp(id->pdev, fi->pdev));
	FUZZ_CHECK(id->has_client_id == fi->has_client_id);
	FUZZ_CHECK(!id->has_client_id || id->client_id == fi->client_id);
	FUZZ_CHECK(!id->nr_engines && !id->nr_regions && !id->stats[0]);
	FUZZ_CHECK(id->malformed <= fi->malformed);
	check_proc_texts(text, size);

	free(text);
	free(id);
	free(again);
	free(fi);
	return 0;
}
