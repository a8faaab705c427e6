// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu report --device, the prof(1) of the gpuprof device: see
 * report/print-device.h.  The printing only; gpuprofdev/read.c reads the
 * tree, for perf gpu top too, which gets this printer from builtin-top.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpuprofdev/read.h"
#include "report/print-device.h"
#include "util/debug.h"

static const char *const rd_units[] = {
	[GPUPROFDEV_UNKNOWN] = "values",
	[GPUPROFDEV_TIME] = "samples",
	[GPUPROFDEV_COVERAGE] = "jobs",
	[GPUPROFDEV_MEMORY] = "bytes",
};

/* As gpuprofdev/read.c words a failure of the tree as a whole. */
static int rd_fail_nomem(const struct gpuprofdev *d)
{
	pr_err("%s/.: %s\n", d->root, strerror(ENOMEM));
	return -1;
}

static void rd_put_u128(FILE *out, unsigned __int128 v)
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

static int rd_digits(unsigned __int128 v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* @v as hundredths of a percent of @total, rounded half up. */
static uint64_t rd_pct_x100(unsigned __int128 v, unsigned __int128 total)
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
static void rd_key_name(const struct gpuprofdev *d, uint64_t key, char *buf,
			size_t size)
{
	static const char *const units[] = {
		"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB",
	};
	const struct gpuprofdev_timeline *tl;

	switch (d->profile) {
	case GPUPROFDEV_TIME:
	case GPUPROFDEV_COVERAGE:
		tl = gpuprofdev_timeline(d, key);
		if (tl)
			snprintf(buf, size, "%s/%s", tl->driver, tl->timeline);
		else
			snprintf(buf, size, "timeline %llu (unnamed)",
				 (unsigned long long)key);
		break;
	case GPUPROFDEV_MEMORY:
		/* Checked below GPUPROFDEV_MEM_CLASSES when read. */
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
static bool rd_loss_key(const struct gpuprofdev_kv *kv)
{
	uint64_t v;

	return (strstr(kv->key, "dropped") || strstr(kv->key, "unattributed") ||
		strstr(kv->key, "lost")) &&
	       !gpuprofdev_u64(kv->value, strlen(kv->value), &v) && v;
}

static void rd_text_row(FILE *out, int width, uint64_t pct, unsigned __int128 v,
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
			     const struct gpuprofdev_target *t)
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
static void rd_text(const struct gpuprofdev *d, FILE *out)
{
	const char *unit = rd_units[d->profile];
	int width = rd_digits(d->total);
	char name[RD_NAME_MAX];
	size_t i, j;

	if (width < (int)strlen(unit))
		width = strlen(unit);
	fprintf(out, "# %s: %s profile, ", d->root, gpuprofdev_profile_name(d->profile));
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
		const struct gpuprofdev_target *t = &d->targets[i];
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
static void rd_json_key(const struct gpuprofdev *d, FILE *out, uint64_t key,
			unsigned __int128 value)
{
	const struct gpuprofdev_timeline *tl = NULL;
	char name[RD_NAME_MAX];

	rd_key_name(d, key, name, sizeof(name));
	fprintf(out, "{\"key\": %llu, \"name\": ", (unsigned long long)key);
	report_json_string(out, name);
	if (d->profile == GPUPROFDEV_TIME || d->profile == GPUPROFDEV_COVERAGE)
		tl = gpuprofdev_timeline(d, key);
	if (tl) {
		fputs(", \"driver\": ", out);
		report_json_string(out, tl->driver);
		fputs(", \"timeline\": ", out);
		report_json_string(out, tl->timeline);
	}
	if (d->profile == GPUPROFDEV_MEMORY)
		fprintf(out, ", \"max_bytes\": %llu", 1ull << key);
	fputs(", \"value\": ", out);
	rd_put_u128(out, value);
	fputs(", \"percent\": ", out);
	rd_put_pct(out, rd_pct_x100(value, d->total));
	fputc('}', out);
}

static void rd_json_status(const struct gpuprofdev *d, FILE *out)
{
	uint64_t v;
	size_t i;

	fputs("  \"status\": {", out);
	for (i = 0; i < d->nr_status; i++) {
		const struct gpuprofdev_kv *kv = &d->status[i];

		fputs(i ? ", " : "", out);
		report_json_string(out, kv->key);
		fputs(": ", out);
		/* Counters as numbers, the rest (mode, states) as text. */
		if (!gpuprofdev_u64(kv->value, strlen(kv->value), &v))
			fprintf(out, "%llu", (unsigned long long)v);
		else
			report_json_string(out, kv->value);
	}
	fputs("},\n", out);
}

static void rd_json_target(const struct gpuprofdev *d, FILE *out,
			   const struct gpuprofdev_target *t)
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
static void rd_json(const struct gpuprofdev *d, FILE *out)
{
	size_t i;

	fputs("{\n  \"source\": ", out);
	report_json_string(out, d->root);
	fprintf(out, ",\n  \"profile\": \"%s\",\n  \"unit\": \"%s\",\n  \"total\": ",
		gpuprofdev_profile_name(d->profile), rd_units[d->profile]);
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
static const char **rd_counter_columns(const struct gpuprofdev *d, size_t *nr)
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

static void rd_csv_row(const struct gpuprofdev *d, FILE *out, int human,
		       const struct gpuprofdev_target *t, const struct gpuprofdev_pair *pr,
		       const char **cols, size_t nr_cols)
{
	enum report_unit unit = d->profile == GPUPROFDEV_MEMORY ? UNIT_BYTES : UNIT_NONE;
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
static int rd_csv(const struct gpuprofdev *d, FILE *out)
{
	int human = isatty(fileno(out));
	const char **cols;
	size_t nr_cols, i, j;

	cols = rd_counter_columns(d, &nr_cols);
	if (!cols)
		return rd_fail_nomem(d);
	fprintf(out, "# source: %s\n# profile: %s\n# unit: %s\n# total: ",
		d->root, gpuprofdev_profile_name(d->profile), rd_units[d->profile]);
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
		const struct gpuprofdev_target *t = &d->targets[i];

		if (!t->nr_hist)
			rd_csv_row(d, out, human, t, NULL, cols, nr_cols);
		for (j = 0; j < t->nr_hist; j++)
			rd_csv_row(d, out, human, t, &t->hist[j], cols, nr_cols);
	}
	free(cols);
	return 0;
}

int report_device_print(const struct gpuprofdev *d, enum report_format fmt,
			FILE *out)
{
	switch (fmt) {
	case REPORT_JSON:
		rd_json(d, out);
		return 0;
	case REPORT_CSV:
		return rd_csv(d, out);
	default:
		rd_text(d, out);
		return 0;
	}
}

int report_device(const char *root, enum report_format fmt, FILE *out)
{
	struct gpuprofdev d;
	int err;

	err = gpuprofdev_load(&d, root);
	if (!err)
		err = report_device_print(&d, fmt, out);
	gpuprofdev_free(&d);
	return err ? -1 : 0;
}
