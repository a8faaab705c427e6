// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu top --openmetrics: see top/openmetrics.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "top/openmetrics.h"
#include "util/debug.h"
#include "util/file.h"
#include "util/output.h"

/* A label value between double quotes, escaped as the format says. */
static void label_value(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	putc('"', out);
	while (*p) {
		if (*p == '\\' || *p == '"') {
			putc('\\', out);
			putc(*p++, out);
		} else if (*p == '\n') {
			fputs("\\n", out);
			p++;
		} else if ((n = utf8_len(p))) {
			fwrite(p, 1, n, out);
			p += n;
		} else {
			putc('?', out);
			p++;
		}
	}
	putc('"', out);
}

static void label(FILE *out, const char *name, const char *value)
{
	fprintf(out, ",%s=", name);
	label_value(out, value);
}

/*
 * NAME{pid=...,comm=...,cgroup=...,driver=...,pdev=...,client_id=...,
 * client_name=... without the '}'; cgroup "" when unknown, client_name ""
 * when the client has not named itself (Prometheus takes an empty label
 * as no label).
 */
static void client_labels(FILE *out, const char *metric,
			  const struct gpu_client *cl)
{
	char num[32];

	snprintf(num, sizeof(num), "%d", cl->pid);
	fprintf(out, "%s{pid=", metric);
	label_value(out, num);
	label(out, "comm", cl->comm);
	label(out, "cgroup", cl->cgroup);
	label(out, "driver", cl->fi.driver);
	label(out, "pdev", cl->fi.pdev);
	snprintf(num, sizeof(num), "%llu", (unsigned long long)cl->fi.client_id);
	label(out, "client_id", num);
	label(out, "client_name", cl->fi.client_name);
}

/*
 * The clients by pid, pdev and client id, not by gpu_clients' hashed ids:
 * the same clients give the same file, which diffs and tests can use.
 */
static int cmp_client(const void *pa, const void *pb)
{
	const struct gpu_client *a = *(const struct gpu_client *const *)pa;
	const struct gpu_client *b = *(const struct gpu_client *const *)pb;
	int c;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	c = strcmp(a->fi.pdev, b->fi.pdev);
	if (c)
		return c;
	return a->fi.client_id < b->fi.client_id ? -1 :
	       a->fi.client_id > b->fi.client_id;
}

static void family(FILE *out, const char *name, const char *type,
		   const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* An engine's value for one family: false when the driver gives none. */
typedef bool (*engine_value)(char *buf, size_t size,
			     const struct drm_fdinfo_engine *e);

static bool busy_seconds(char *buf, size_t size,
			  const struct drm_fdinfo_engine *e)
{
	if (!e->has_busy)
		return false;
	/* Seconds exactly, from integer ns: no rounding through a double. */
	snprintf(buf, size, "%llu.%09llu", (unsigned long long)(e->busy_ns / 1000000000),
		(unsigned long long)(e->busy_ns % 1000000000));
	return true;
}

static bool capacity(char *buf, size_t size,
		      const struct drm_fdinfo_engine *e)
{
	if (!e->has_busy)
		return false;
	snprintf(buf, size, "%llu", (unsigned long long)(e->capacity ? e->capacity : 1));
	return true;
}

static bool cycles(char *buf, size_t size,
		    const struct drm_fdinfo_engine *e)
{
	if (!e->has_cycles)
		return false;
	snprintf(buf, size, "%llu", (unsigned long long)e->cycles);
	return true;
}

static bool total_cycles(char *buf, size_t size,
			  const struct drm_fdinfo_engine *e)
{
	if (!e->has_total_cycles)
		return false;
	snprintf(buf, size, "%llu", (unsigned long long)e->total_cycles);
	return true;
}

static bool max_frequency(char *buf, size_t size,
			   const struct drm_fdinfo_engine *e)
{
	if (!e->maxfreq_hz)
		return false;
	snprintf(buf, size, "%llu", (unsigned long long)e->maxfreq_hz);
	return true;
}

static const struct {
	const char *name, *type, *help;
	engine_value get;
} engine_families[] = {
	{ "gpu_client_engine_busy_seconds_total", "counter",
	  "Time the engine spent on the client's work (DRM fdinfo drm-engine-<engine>).",
	  busy_seconds },
	{ "gpu_client_engine_capacity", "gauge",
	  "Instances of the engine the busy time is spread over (drm-engine-capacity-<engine>, 1 when not given).",
	  capacity },
	{ "gpu_client_engine_cycles_total", "counter",
	  "Engine cycles spent on the client's work (drm-cycles-<engine>).",
	  cycles },
	{ "gpu_client_engine_elapsed_cycles_total", "counter",
	  "Engine cycles elapsed, busy or not, for utilisation from cycles (drm-total-cycles-<engine>).",
	  total_cycles },
	{ "gpu_client_engine_max_frequency_hertz", "gauge",
	  "Maximum engine frequency, for utilisation from cycles (drm-maxfreq-<engine>).",
	  max_frequency },
};

/* The label value of each memory kind: the key's word. */
static const char *const mem_kinds[DRM_MEM_KINDS] = {
	[DRM_MEM_TOTAL] = "total",
	[DRM_MEM_SHARED] = "shared",
	[DRM_MEM_RESIDENT] = "resident",
	[DRM_MEM_PURGEABLE] = "purgeable",
	[DRM_MEM_ACTIVE] = "active",
	[DRM_MEM_LEGACY] = "memory",
};

static void engine_family(FILE *out, const struct gpu_client **order,
			  unsigned int nr, unsigned int f)
{
	unsigned int i, j;
	char val[64];

	family(out, engine_families[f].name, engine_families[f].type,
	       engine_families[f].help);
	for (i = 0; i < nr; i++) {
		const struct gpu_client *cl = order[i];

		for (j = 0; j < cl->fi.nr_engines; j++) {
			const struct drm_fdinfo_engine *e = &cl->fi.engine[j];

			if (!engine_families[f].get(val, sizeof(val), e))
				continue;
			client_labels(out, engine_families[f].name, cl);
			label(out, "engine", e->name);
			fprintf(out, "} %s\n", val);
		}
	}
}

static void memory_family(FILE *out, const struct gpu_client **order,
			  unsigned int nr)
{
	const char *name = "gpu_client_memory_bytes";
	unsigned int i, j, k;

	family(out, name, "gauge",
	       "Memory of the client's buffers by region and kind (drm-<kind>-<region>).");
	for (i = 0; i < nr; i++) {
		const struct gpu_client *cl = order[i];

		for (j = 0; j < cl->fi.nr_regions; j++) {
			const struct drm_fdinfo_region *r = &cl->fi.region[j];

			for (k = 0; k < DRM_MEM_KINDS; k++) {
				if (!r->has[k])
					continue;
				client_labels(out, name, cl);
				label(out, "region", r->name);
				label(out, "kind", mem_kinds[k]);
				fprintf(out, "} %llu\n", (unsigned long long)r->bytes[k]);
			}
		}
	}
}

/*
 * One sample of 1 per client with its labels: a client whose driver
 * gives no usage in fdinfo (drm_show_fdinfo() alone: driver, client id,
 * name) is still listed, its name still a label, as node_exporter's
 * *_info gauges list what has no value.
 */
static void info_family(FILE *out, const struct gpu_client **order,
			unsigned int nr)
{
	const char *name = "gpu_client_info";
	unsigned int i;

	family(out, name, "gauge",
	       "A DRM client in fdinfo, its identity as labels (value 1).");
	for (i = 0; i < nr; i++) {
		client_labels(out, name, order[i]);
		fputs("} 1\n", out);
	}
}

int top_openmetrics_write(FILE *out, const struct gpu_clients *c)
{
	const struct gpu_client **order;
	unsigned int i, f;

	order = calloc(c->nr_clients + 1, sizeof(*order));
	if (!order)
		return -1;
	for (i = 0; i < c->nr_clients; i++)
		order[i] = &c->clients[i];
	qsort(order, c->nr_clients, sizeof(*order), cmp_client);
	info_family(out, order, c->nr_clients);
	for (f = 0; f < sizeof(engine_families) / sizeof(engine_families[0]); f++)
		engine_family(out, order, c->nr_clients, f);
	memory_family(out, order, c->nr_clients);
	fputs("# EOF\n", out);
	free(order);
	return 0;
}

int top_openmetrics_update(const char *path, const struct gpu_clients *c)
{
	struct file_out out;
	int err;

	err = file_out_open(&out, path);
	if (err) {
		pr_err("%s: %s\n", path, strerror(-err));
		return -1;
	}
	/* The data on disk before the name points at it. */
	if (top_openmetrics_write(out.f, c)) {
		file_out_abort(&out);
		pr_err("%s: %s\n", path, strerror(ENOMEM));
		return -1;
	}
	err = file_out_close(&out, true);
	if (err) {
		pr_err("%s: %s\n", path, strerror(-err));
		return -1;
	}
	return 0;
}
