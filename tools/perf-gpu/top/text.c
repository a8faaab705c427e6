// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu top as plain text: see top/text.h.
 */
#include <string.h>

#include "top/text.h"
#include "util/cgroup.h"

/* Widths of the fixed columns; both tables' left parts are 37 wide so
 * the engine and region columns line up under each other. */
#define PID_W		7
#define COMM_W		16
#define DRIVER_W	8
#define GPU_W		3
#define PDEV_W		16
#define CLIENTS_W	7
#define PERCENT_W	7	/* "100.00%" */
#define BYTES_W		11	/* "1023.99 MiB" */
#define CLIENT_NAME_MAX	64	/* the kernel's longest drm-client-name */

void top_format_bytes(char *buf, size_t size, uint64_t bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB",
					     "PiB", "EiB" };
	double d = (double)bytes;
	unsigned int i = 0;

	if (bytes < 1024) {
		snprintf(buf, size, "%llu B", (unsigned long long)bytes);
		return;
	}
	while (d >= 1024 && i + 1 < sizeof(units) / sizeof(units[0])) {
		d /= 1024;
		i++;
	}
	snprintf(buf, size, "%.2f %s", d, units[i]);
}

void top_format_percent(char *buf, size_t size, uint64_t pct_x100)
{
	snprintf(buf, size, "%llu.%02llu%%", (unsigned long long)(pct_x100 / 100),
		 (unsigned long long)(pct_x100 % 100));
}

/* @s with bytes other than printable ASCII as '?', cut to @size - 1. */
static const char *clean(char *buf, size_t size, const char *s)
{
	size_t i;

	for (i = 0; s && s[i] && i + 1 < size; i++)
		buf[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	buf[i] = '\0';
	return buf;
}

static int engine_width(const char *name)
{
	int n = strlen(name);

	return n > PERCENT_W ? n : PERCENT_W;
}

static int region_width(const char *name)
{
	int n = strlen(name);

	return n > BYTES_W ? n : BYTES_W;
}

/* The engine and region column headers, and @last (NULL for none). */
static void column_names(FILE *out, const struct top_view *v,
			 const char *last)
{
	char name[LIVE_KEY_MAX];
	unsigned int i;

	for (i = 0; i < v->nr_engines; i++)
		fprintf(out, " %*s", engine_width(v->engines[i]),
			clean(name, sizeof(name), v->engines[i]));
	for (i = 0; i < v->nr_regions; i++)
		fprintf(out, " %*s", region_width(v->regions[i]),
			clean(name, sizeof(name), v->regions[i]));
	if (last)
		fprintf(out, " %s", last);
	fputc('\n', out);
}

/*
 * The width of the clients' CLIENT_NAME column: their longest
 * drm-client-name, at least the header's; 0, no column, when none of
 * the clients shown has one (no kernel before 6.14 prints it).
 */
static int client_name_width(const struct top_view *v)
{
	int w = 0, n;
	unsigned int i;

	for (i = 0; i < v->nr_clients; i++) {
		n = strlen(v->clients[i].client_name);
		w = n > w ? n : w;
	}
	if (!w)
		return 0;
	w = w < CLIENT_NAME_MAX ? w : CLIENT_NAME_MAX;
	return w > (int)strlen("CLIENT_NAME") ? w : (int)strlen("CLIENT_NAME");
}

/*
 * A row's engine and region cells, its client name in a column @name_w
 * wide (0: none), and its cgroup when @cgroup: last, as it has no width
 * (container paths are long; the terminal cuts).
 */
static void cells(FILE *out, const struct top_view *v, const struct top_row *r,
		  int name_w, bool cgroup)
{
	char path[CGROUP_PATH_MAX];
	char name[CLIENT_NAME_MAX + 1];
	char buf[32];
	unsigned int i;

	for (i = 0; i < v->nr_engines; i++) {
		if (r->util[i].has)
			top_format_percent(buf, sizeof(buf), r->util[i].v);
		else
			snprintf(buf, sizeof(buf), "-");
		fprintf(out, " %*s", engine_width(v->engines[i]), buf);
	}
	for (i = 0; i < v->nr_regions; i++) {
		if (r->mem[i].has)
			top_format_bytes(buf, sizeof(buf), r->mem[i].v);
		else
			snprintf(buf, sizeof(buf), "-");
		fprintf(out, " %*s", region_width(v->regions[i]), buf);
	}
	if (name_w)
		fprintf(out, " %-*s", name_w, *r->client_name ?
			clean(name, sizeof(name), r->client_name) : "-");
	if (cgroup)
		fprintf(out, " %s", *r->cgroup ? clean(path, sizeof(path), r->cgroup) : "-");
	fputc('\n', out);
}

static void title(FILE *out, const struct top_view *v,
		  const struct top_text_info *info)
{
	char src[LIVE_VALUE_MAX];

	fprintf(out, "perf gpu top - %s - ",
		clean(src, sizeof(src), info->source));
	if (v->nr_clients != v->nr_all_clients)
		fprintf(out, "%u of ", v->nr_clients);
	fprintf(out, "%u client%s on %u device%s",
		v->nr_all_clients, v->nr_all_clients == 1 ? "" : "s",
		v->nr_devices, v->nr_devices == 1 ? "" : "s");
	if (info->by == TOP_BY_CGROUP)
		fprintf(out, " in %u cgroup%s", v->nr_cgroups,
			v->nr_cgroups == 1 ? "" : "s");
	fprintf(out, " - sort %s - every %.2fs - sample %lu\n",
		top_sort_name(info->sort), info->delay_s, info->sample);
}

static void devices(FILE *out, const struct top_view *v)
{
	char pdev[PDEV_W + 1], driver[DRIVER_W + 1];
	unsigned int i;

	fprintf(out, "%*s %-*s %-*s %*s", GPU_W, "GPU", PDEV_W, "PDEV",
		DRIVER_W, "DRIVER", CLIENTS_W, "CLIENTS");
	column_names(out, v, NULL);
	for (i = 0; i < v->nr_devices; i++) {
		const struct top_row *d = &v->devices[i];

		fprintf(out, "%*u %-*s %-*s %*u", GPU_W, i, PDEV_W,
			*d->pdev ? clean(pdev, sizeof(pdev), d->pdev) : "-",
			DRIVER_W, *d->driver ? clean(driver, sizeof(driver), d->driver) : "-",
			CLIENTS_W, d->nr_clients);
		cells(out, v, d, 0, false);
	}
}

static void clients(FILE *out, const struct top_view *v)
{
	char comm[COMM_W + 1], driver[DRIVER_W + 1], pid[24], gpu[16];
	char last[CLIENT_NAME_MAX + 16];
	int name_w = client_name_width(v);
	unsigned int i;

	fprintf(out, "%*s %-*s %-*s %*s", PID_W, "PID", COMM_W, "COMM",
		DRIVER_W, "DRIVER", GPU_W, "GPU");
	snprintf(last, sizeof(last), "%-*s%sCGROUP", name_w,
		 name_w ? "CLIENT_NAME" : "", name_w ? " " : "");
	column_names(out, v, last);
	for (i = 0; i < v->nr_clients; i++) {
		const struct top_row *r = &v->clients[i];

		if (r->pid >= 0)
			snprintf(pid, sizeof(pid), "%lld", (long long)r->pid);
		else
			snprintf(pid, sizeof(pid), "-");
		if (r->gpu >= 0)
			snprintf(gpu, sizeof(gpu), "%d", r->gpu);
		else
			snprintf(gpu, sizeof(gpu), "-");
		fprintf(out, "%*s %-*s %-*s %*s", PID_W, pid, COMM_W,
			clean(comm, sizeof(comm), r->comm), DRIVER_W,
			clean(driver, sizeof(driver), r->driver), GPU_W, gpu);
		cells(out, v, r, name_w, true);
	}
}

/* --by cgroup: a row per cgroup in place of the clients. */
static void cgroups(FILE *out, const struct top_view *v)
{
	unsigned int i;

	fprintf(out, "%*s", CLIENTS_W, "CLIENTS");
	column_names(out, v, "CGROUP");
	for (i = 0; i < v->nr_cgroups; i++) {
		fprintf(out, "%*u", CLIENTS_W, v->cgroups[i].nr_clients);
		cells(out, v, &v->cgroups[i], 0, true);
	}
}

/* The module's summary, each line indented and cleaned. */
static void gpuprof(FILE *out, const char *text)
{
	char line[512];
	const char *nl;

	while (*text) {
		nl = strchr(text, '\n');
		snprintf(line, sizeof(line), "%.*s",
			 (int)(nl ? nl - text : (long)strlen(text)), text);
		fprintf(out, "%s\n", clean(line, sizeof(line), line));
		if (!nl)
			break;
		text = nl + 1;
	}
}

void top_text_write(FILE *out, const struct top_view *v,
		    const struct top_text_info *info)
{
	char status[512];

	title(out, v, info);
	fputc('\n', out);
	devices(out, v);
	fputc('\n', out);
	if (info->by == TOP_BY_CGROUP)
		cgroups(out, v);
	else
		clients(out, v);
	if (info->gpuprof) {
		fputc('\n', out);
		gpuprof(out, info->gpuprof);
	}
	if (info->status && *info->status) {
		fputc('\n', out);
		fprintf(out, "%s\n", clean(status, sizeof(status), info->status));
	}
}
