// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu top's JSON lines: see top/json.h.
 */
#include "top/json.h"
#include "util/output.h"

static void value(FILE *out, const struct top_value *val)
{
	if (val->has)
		fprintf(out, "%llu", (unsigned long long)val->v);
	else
		fputs("null", out);
}

static void percent(FILE *out, const struct top_value *val)
{
	if (val->has)
		fprintf(out, "%llu.%02llu", (unsigned long long)(val->v / 100),
			(unsigned long long)(val->v % 100));
	else
		fputs("null", out);
}

static void memory(FILE *out, const struct top_view *v, const struct top_row *r)
{
	unsigned int i;

	fputs(",\"memory\":{", out);
	for (i = 0; i < v->nr_regions; i++) {
		if (i)
			putc(',', out);
		report_json_string(out, v->regions[i]);
		putc(':', out);
		value(out, &r->mem[i]);
	}
	putc('}', out);
}

static void device(FILE *out, const struct top_view *v, unsigned int g)
{
	const struct top_row *d = &v->devices[g];
	unsigned int i;

	fprintf(out, "{\"gpu\":%u,\"pdev\":", g);
	report_json_string(out, d->pdev);
	fputs(",\"driver\":", out);
	report_json_string(out, d->driver);
	fprintf(out, ",\"clients\":%u,\"engines\":{", d->nr_clients);
	for (i = 0; i < v->nr_engines; i++) {
		if (i)
			putc(',', out);
		report_json_string(out, v->engines[i]);
		putc(':', out);
		percent(out, &d->util[i]);
	}
	putc('}', out);
	memory(out, v, d);
	putc('}', out);
}

/* "cgroup": the path, or null when unknown. */
static void cgroup(FILE *out, const struct top_row *r)
{
	fputs(",\"cgroup\":", out);
	if (*r->cgroup)
		report_json_string(out, r->cgroup);
	else
		fputs("null", out);
}

/* "engines": busy ns and utilisation of each engine column. */
static void engines(FILE *out, const struct top_view *v, const struct top_row *r)
{
	unsigned int i;

	fputs(",\"engines\":{", out);
	for (i = 0; i < v->nr_engines; i++) {
		if (i)
			putc(',', out);
		report_json_string(out, v->engines[i]);
		fputs(":{\"busy_ns\":", out);
		value(out, &r->busy_ns[i]);
		fputs(",\"util\":", out);
		percent(out, &r->util[i]);
		putc('}', out);
	}
	putc('}', out);
}

static void client(FILE *out, const struct top_view *v, const struct top_row *r)
{
	fprintf(out, "{\"id\":\"%llx\",\"pid\":", (unsigned long long)r->id);
	if (r->pid >= 0)
		fprintf(out, "%lld", (long long)r->pid);
	else
		fputs("null", out);
	fputs(",\"comm\":", out);
	report_json_string(out, r->comm);
	fputs(",\"driver\":", out);
	report_json_string(out, r->driver);
	fputs(",\"pdev\":", out);
	report_json_string(out, r->pdev);
	if (r->gpu >= 0)
		fprintf(out, ",\"gpu\":%d", r->gpu);
	else
		fputs(",\"gpu\":null", out);
	cgroup(out, r);
	fputs(",\"client_name\":", out);
	if (*r->client_name)
		report_json_string(out, r->client_name);
	else
		fputs("null", out);
	engines(out, v, r);
	memory(out, v, r);
	putc('}', out);
}

/* A row of --by cgroup: the sums over the cgroup's clients. */
static void group(FILE *out, const struct top_view *v, const struct top_row *g)
{
	fprintf(out, "{\"clients\":%u", g->nr_clients);
	cgroup(out, g);
	engines(out, v, g);
	memory(out, v, g);
	putc('}', out);
}

/*
 * A JSON document on this one line: a raw newline can only stand
 * between tokens (strings have theirs escaped), where a space does too.
 */
static void one_line(FILE *out, const char *doc)
{
	for (; *doc; doc++)
		putc(*doc == '\n' || *doc == '\r' ? ' ' : *doc, out);
}

void top_json_write(FILE *out, const struct top_view *v,
		    const struct top_text_info *info, double unix_time)
{
	unsigned int i;

	fprintf(out, "{\"time\":%.6f,\"sample\":%lu,\"source\":", unix_time,
		info->sample);
	report_json_string(out, info->source);
	fputs(",\"sort\":", out);
	report_json_string(out, top_sort_name(info->sort));
	fputs(",\"devices\":[", out);
	for (i = 0; i < v->nr_devices; i++) {
		if (i)
			putc(',', out);
		device(out, v, i);
	}
	fputs("],\"clients\":[", out);
	for (i = 0; i < v->nr_clients; i++) {
		if (i)
			putc(',', out);
		client(out, v, &v->clients[i]);
	}
	putc(']', out);
	if (info->by == TOP_BY_CGROUP) {
		fputs(",\"cgroups\":[", out);
		for (i = 0; i < v->nr_cgroups; i++) {
			if (i)
				putc(',', out);
			group(out, v, &v->cgroups[i]);
		}
		putc(']', out);
	}
	fputs(",\"gpuprof\":", out);
	if (info->gpuprof && *info->gpuprof)
		one_line(out, info->gpuprof);
	else
		fputs("null", out);
	fputs("}\n", out);
}
