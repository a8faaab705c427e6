// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu stat [-e EVENT]... [--oa-source=...] [--range=...]
 *		 [--format=text|csv|json] [-o FILE] -- CMD [ARGS]
 *
 * Records CMD as perf gpu record does, then prints perf gpu report's
 * totals of the recording (--totals: the header, the clients and the
 * ranges; CSV and JSON as the report has them, so CI can diff runs),
 * and exits with CMD's status.  The recording goes to a temporary file
 * removed at the end unless -o names one to keep.  The recorder's own
 * messages go to stderr, the totals to stdout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/options.h"

#include "builtin.h"
#include "util/array.h"
#include "util/debug.h"

struct stat_opts {
	const char **events;
	int nr_events;
	size_t alloc_events;
	const char *oa_source, *range, *format, *output;
	int verbose;
};

static int add_event(const struct option *opt, const char *arg, int unset)
{
	struct stat_opts *o = opt->value;

	if (unset)
		return 0;
	return ARRAY_PUSH(o->events, o->nr_events, o->alloc_events, arg) ? -1 : 0;
}

/* argv for perf gpu record: its options, then "--", then the command. */
static const char **record_argv(const struct stat_opts *o, const char *path,
				int argc, const char **argv, int *n)
{
	const char **a = calloc(2 * o->nr_events + argc + 8, sizeof(*a));
	int i, k = 0;

	if (!a)
		return NULL;
	a[k++] = "record";
	a[k++] = "-o";
	a[k++] = path;
	for (i = 0; i < o->nr_events; i++) {
		a[k++] = "-e";
		a[k++] = o->events[i];
	}
	if (o->oa_source) {
		a[k++] = "--oa-source";
		a[k++] = o->oa_source;
	}
	if (o->verbose)
		a[k++] = "-v";
	a[k++] = "--";
	for (i = 0; i < argc; i++)
		a[k++] = argv[i];
	*n = k;
	return a;
}

static int report_totals(const struct stat_opts *o, const char *path)
{
	const char *a[10];
	int k = 0;

	a[k++] = "report";
	a[k++] = "-i";
	a[k++] = path;
	a[k++] = "--totals";
	if (o->format) {
		a[k++] = "--format";
		a[k++] = o->format;
	}
	if (o->range) {
		a[k++] = "--range";
		a[k++] = o->range;
	}
	a[k] = NULL;
	return cmd_report(k, a);
}

int cmd_stat(int argc, const char **argv)
{
	struct stat_opts o = { 0 };
	const struct option options[] = {
		OPT_CALLBACK('e', "event", &o, "SYSTEM:EVENT",
			     "record this tracepoint too (globs allowed)", add_event),
		OPT_STRING(0, "oa-source", &o.oa_source, "sim|FILE|i915",
			   "OA reports, as perf gpu record takes them"),
		OPT_STRING(0, "range", &o.range, "sys:ev1,sys:ev2[;...]",
			   "ranges from each ev1 to the next ev2 of a process"),
		OPT_STRING(0, "format", &o.format, "text|csv|json", "output format"),
		OPT_STRING('o', "output", &o.output, "file",
			   "keep the recording in this file"),
		OPT_INCR('v', "verbose", &o.verbose, "be more verbose"),
		OPT_END()
	};
	const char *const usage[] = { "perf gpu stat [<options>] -- <command> [<args>]",
				      NULL };
	char tmp[] = "/tmp/perf-gpu-stat.XXXXXX", path[64], oa[80];
	const char **rargv = NULL;
	int n, status, fd;

	argc = parse_options(argc, argv, options, usage,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	if (!argc)
		usage_with_options_msg(usage, options, "perf gpu stat needs a command to run");
	/* Check the format now, not after the command has run. */
	if (o.format && strcmp(o.format, "text") && strcmp(o.format, "csv") &&
	    strcmp(o.format, "json")) {
		pr_err("unknown format '%s' (text,csv,json)\n",
		       o.format);
		free(o.events);
		return 1;
	}
	if (!o.output) {
		/* A directory of our own: record writes FILE.oa beside FILE. */
		if (!mkdtemp(tmp)) {
			pr_err("%s: %s\n", tmp, strerror(errno));
			free(o.events);
			return 1;
		}
		snprintf(path, sizeof(path), "%s/perf.data", tmp);
		o.output = path;
	}
	rargv = record_argv(&o, o.output, argc, argv, &n);
	if (!rargv) {
		pr_err("out of memory\n");
		status = 1;
		goto out;
	}
	status = cmd_record(n, rargv);
	fd = access(o.output, R_OK);
	if (fd) {
		/* The recorder failed before it wrote anything: it said why. */
		if (!status)
			status = 1;
		goto out;
	}
	fflush(stderr);
	if (report_totals(&o, o.output) && !status)
		status = 1;
out:
	if (o.output == path) {
		snprintf(oa, sizeof(oa), "%s.oa", path);
		unlink(oa);
		unlink(path);
		rmdir(tmp);
	}
	free(rargv);
	free(o.events);
	return status;
}
