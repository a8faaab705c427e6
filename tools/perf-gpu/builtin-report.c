// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu report: per client (pid, comm), per timeline and per
 * (client, timeline) pair: jobs, busy time and its share of the
 * recording, job latency, queue and run time percentiles; frames and
 * flips per crtc; OA counters per
 * client and per timeline; lost events.  The figures and how they are
 * made are in report/model.h; this file selects and sorts them, and
 * report/print-text.c, print-csv.c and print-json.c print them as text,
 * CSV or JSON (report/print.h has the formats, their keys and columns).
 *
 * Filters (--pid, --comm, --cgroup, --timeline) choose rows, never
 * figures: a client's row is its totals whatever the timeline filter,
 * and the totals and OA attribution are those of the whole recording.  With a
 * timeline filter, the clients shown are those with a job on one of
 * those timelines; with a client filter, the timelines shown are those
 * where one of those clients had a job.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "util/options.h"

#include "builtin.h"
#include "perfdata/gpu-trace.h"
#include "report/model.h"
#include "report/oa-metrics.h"
#include "report/print.h"
#include "report/print-common.h"
#include "report/print-device.h"
#include "report/ranges.h"
#include "util/debug.h"
#include "util/cgroup.h"
#include "util/output.h"
#include "util/parse.h"

static int check_pids(const struct name_list *l)
{
	const char *bad = name_list_not_pid(l);

	if (bad)
		pr_err("--pid: '%s' is not a pid\n", bad);
	return bad ? -1 : 0;
}

/* In the --cgroup subtree: a cgroup the file names, at or below it. */
static bool in_cgroup_filter(const struct report *r,
			     const struct report_cgroup *cg)
{
	const char *path = report_cgroup_path(r, cg);

	return path && cgroup_path_within(path, r->cgroup_str);
}

static bool client_selected(const struct report *r, const struct report_client *c)
{
	char pid[16];

	snprintf(pid, sizeof(pid), "%d", c->pid);
	return (!r->pids.nr || name_list_has(&r->pids, pid)) &&
	       (!r->comms.nr || name_list_has(&r->comms, c->comm)) &&
	       (!r->cgroup_str || in_cgroup_filter(r, c->cgroup));
}

/* A timeline by its name, or driver/name. */
static bool timeline_selected(const struct report *r,
			      const struct report_timeline *tl)
{
	char full[512];

	if (!r->timelines.nr || name_list_has(&r->timelines, tl->name))
		return true;
	snprintf(full, sizeof(full), "%s/%s", tl->driver, tl->name);
	return name_list_has(&r->timelines, full);
}

static bool pair_selected(const struct report *r, const struct report_pair *p)
{
	return client_selected(r, p->client) && timeline_selected(r, p->timeline);
}

/* Sorting: the key, then pid or timeline id for a stable order. */
static enum report_sort_key sort_key;

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a < b ? 1 : a > b ? -1 : 0;
}

static int cmp_jobs(const struct report_jobs *a, const struct report_jobs *b)
{
	switch (sort_key) {
	case REPORT_SORT_BUSY:
		return cmp_u64_desc(a->busy_ns, b->busy_ns);
	case REPORT_SORT_JOBS:
		return cmp_u64_desc(a->jobs, b->jobs);
	case REPORT_SORT_LATENCY:
		return cmp_u64_desc(report_sketch_quantile(&a->latency, 990),
				    report_sketch_quantile(&b->latency, 990));
	default:
		return 0;
	}
}

/* The report of the sort: cgroup paths are the trace's. */
static const struct report *sort_report;

/* By path; cgroups the file does not name after those it does, by id. */
static int cmp_cgroup(const struct report_cgroup *a, const struct report_cgroup *b)
{
	const char *pa = report_cgroup_path(sort_report, a), *pb = report_cgroup_path(sort_report, b);

	if (a == b)
		return 0;
	if (!a || !b)
		return a ? -1 : 1;	/* no cgroup last */
	if (pa && pb)
		return strcmp(pa, pb);
	if (pa || pb)
		return pa ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

static int cmp_client(const struct report_client *a, const struct report_client *b)
{
	int d = cmp_jobs(&a->jobs, &b->jobs);

	if (!d && sort_key == REPORT_SORT_COMM)
		d = strcmp(a->comm, b->comm);
	if (!d && sort_key == REPORT_SORT_CGROUP)
		d = cmp_cgroup(a->cgroup, b->cgroup);
	if (!d)
		d = a->pid < b->pid ? -1 : a->pid > b->pid;
	return d;
}

static int cmp_timeline(const struct report_timeline *a,
			const struct report_timeline *b)
{
	int d = cmp_jobs(&a->jobs, &b->jobs);

	/* By pid or comm: timelines have neither; by name then. */
	if (!d && sort_key == REPORT_SORT_COMM)
		d = strcmp(a->driver, b->driver) ?: strcmp(a->name, b->name);
	if (!d)
		d = a->id < b->id ? -1 : a->id > b->id;
	return d;
}

static int qcmp_cgroup(const void *a, const void *b)
{
	const struct report_cgroup *x = *(struct report_cgroup *const *)a;
	const struct report_cgroup *y = *(struct report_cgroup *const *)b;

	return cmp_jobs(&x->jobs, &y->jobs) ?: cmp_cgroup(x, y);
}

static int qcmp_client(const void *a, const void *b)
{
	return cmp_client(*(struct report_client *const *)a,
			  *(struct report_client *const *)b);
}

static int qcmp_timeline(const void *a, const void *b)
{
	return cmp_timeline(*(struct report_timeline *const *)a,
			    *(struct report_timeline *const *)b);
}

static int qcmp_pair(const void *a, const void *b)
{
	const struct report_pair *p = *(struct report_pair *const *)a;
	const struct report_pair *q = *(struct report_pair *const *)b;
	int d = cmp_jobs(&p->jobs, &q->jobs);

	if (!d && (sort_key == REPORT_SORT_PID || sort_key == REPORT_SORT_COMM ||
		   sort_key == REPORT_SORT_CGROUP))
		d = cmp_client(p->client, q->client);
	if (!d)
		d = cmp_timeline(p->timeline, q->timeline);
	if (!d)
		d = cmp_client(p->client, q->client);
	return d;
}

static bool client_has_pair(const struct report *r, const struct report_client *c)
{
	uint32_t i;

	for (i = 0; i < r->m.nr_pairs; i++)
		if (r->m.pairs[i]->client == c && pair_selected(r, r->m.pairs[i]))
			return true;
	return false;
}

static bool timeline_has_pair(const struct report *r,
			      const struct report_timeline *tl)
{
	uint32_t i;

	for (i = 0; i < r->m.nr_pairs; i++)
		if (r->m.pairs[i]->timeline == tl && pair_selected(r, r->m.pairs[i]))
			return true;
	return false;
}

static int select_rows(struct report *r)
{
	const struct report_model *m = &r->m;
	bool client_filter = report_has_client_filter(r);
	bool *shown;
	uint32_t i;

	r->clients = calloc(m->nr_clients + 1, sizeof(*r->clients));
	r->tls = calloc(m->nr_timelines + 1, sizeof(*r->tls));
	r->pairs = calloc(m->nr_pairs + 1, sizeof(*r->pairs));
	r->cgroups = calloc(m->nr_cgroups + 1, sizeof(*r->cgroups));
	if (!r->clients || !r->tls || !r->pairs || !r->cgroups)
		return -1;
	for (i = 0; i < m->nr_clients; i++)
		if (client_selected(r, m->clients[i]) &&
		    (!r->timelines.nr || client_has_pair(r, m->clients[i])))
			r->clients[r->nr_clients++] = m->clients[i];
	for (i = 0; i < m->nr_timelines; i++)
		if (timeline_selected(r, m->timelines[i]) &&
		    (!client_filter || timeline_has_pair(r, m->timelines[i])))
			r->tls[r->nr_tls++] = m->timelines[i];
	for (i = 0; i < m->nr_pairs; i++)
		if (pair_selected(r, m->pairs[i]))
			r->pairs[r->nr_pairs++] = m->pairs[i];
	/* A cgroup is shown when one of its clients is: its figures all. */
	shown = calloc(m->nr_cgroups + 1, sizeof(*shown));
	if (!shown)
		return -1;
	for (i = 0; i < r->nr_clients; i++) {
		struct report_cgroup *cg = r->clients[i]->cgroup;

		if (cg && !shown[cg->index]) {
			shown[cg->index] = true;
			r->cgroups[r->nr_cgroups++] = cg;
		}
	}
	free(shown);
	sort_key = r->sort;
	sort_report = r;
	qsort(r->cgroups, r->nr_cgroups, sizeof(*r->cgroups), qcmp_cgroup);
	qsort(r->clients, r->nr_clients, sizeof(*r->clients), qcmp_client);
	qsort(r->tls, r->nr_tls, sizeof(*r->tls), qcmp_timeline);
	qsort(r->pairs, r->nr_pairs, sizeof(*r->pairs), qcmp_pair);
	return 0;
}

static int parse_sort(struct report *r)
{
	static const struct { const char *name; enum report_sort_key key; } keys[] = {
		{ "busy", REPORT_SORT_BUSY }, { "jobs", REPORT_SORT_JOBS },
		{ "latency", REPORT_SORT_LATENCY }, { "pid", REPORT_SORT_PID },
		{ "comm", REPORT_SORT_COMM }, { "cgroup", REPORT_SORT_CGROUP },
	};
	size_t i;

	if (!r->sort_str) {
		r->sort = REPORT_SORT_BUSY;
		return 0;
	}
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (!strcmp(r->sort_str, keys[i].name)) {
			r->sort = keys[i].key;
			return 0;
		}
	}
	pr_err("unknown sort key '%s' (busy,jobs,latency,pid,comm,cgroup)\n",
	       r->sort_str);
	return -1;
}

/* --oa-metrics: the ranges' hooks, and every event to r->om. */
static void metrics_event(void *arg, const struct gpu_event *ev)
{
	struct report *r = arg;

	r->ranges_hooks.event(r->ranges_hooks.arg, ev);
	report_oa_metrics_event(&r->om, ev);
}

static void metrics_job(void *arg, const struct report_job_run *run)
{
	struct report *r = arg;

	r->ranges_hooks.job(r->ranges_hooks.arg, run);
}

static void metrics_oa(void *arg, const struct report_oa_part *part)
{
	struct report *r = arg;

	r->ranges_hooks.oa(r->ranges_hooks.arg, part);
}

static int run(struct report *r)
{
	int ret;

	struct report_hooks hooks;
	char err[1024];

	report_ranges_hooks(&r->ranges, &hooks);
	if (r->oa_metrics_str) {
		r->ranges_hooks = hooks;
		hooks.arg = r;
		hooks.event = metrics_event;
		hooks.job = metrics_job;
		hooks.oa = metrics_oa;
	}
	r->trace = gpu_trace_open(r->input);
	if (!r->trace || report_model_init(&r->m, &hooks)) {
		pr_err("out of memory\n");
		return -1;
	}
	ret = report_model_read(&r->m, r->trace);
	if (ret == -1) {
		pr_err("%s: %s\n", r->input,
		       gpu_trace_error(r->trace));
		return -1;
	}
	if (r->cgroup_str && !gpu_trace_has_cgroups(r->trace)) {
		pr_err("--cgroup: %s has no cgroups: its samples carry no cgroup ids (the recording kernel refused PERF_SAMPLE_CGROUP)\n",
		       r->input);
		return -1;
	}
	if (ret || report_model_finish(&r->m) ||
	    report_ranges_finish(&r->ranges, &r->m) || select_rows(r)) {
		pr_err("out of memory\n");
		return -1;
	}
	/* Before any output: an error leaves nothing half-printed. */
	if (r->oa_metrics_str &&
	    report_oa_metrics_finish(&r->om, err, sizeof(err))) {
		pr_err("%s\n", err);
		return -1;
	}
	r->out = stdout;
	switch (r->fmt) {
	case REPORT_TEXT:
		report_print_text(r);
		break;
	case REPORT_CSV:
		report_print_csv(r);
		break;
	case REPORT_JSON:
		report_print_json(r);
		break;
	}
	if (r->verbose)
		pr_err("%llu events, %llu jobs in flight at the end\n",
		       (unsigned long long)r->m.events,
		       (unsigned long long)r->m.jobs_in_flight);
	return fflush(stdout) ? -1 : 0;
}

static void cleanup(struct report *r)
{
	report_model_free(&r->m);
	report_ranges_free(&r->ranges);
	report_oa_metrics_free(&r->om);
	gpu_trace_close(r->trace);
	free(r->clients);
	free(r->tls);
	free(r->pairs);
	free(r->cgroups);
	name_list_free(&r->pids);
	name_list_free(&r->comms);
	name_list_free(&r->timelines);
}

int cmd_report(int argc, const char **argv)
{
	struct report r = { .input = "perf.data" };
	const struct option options[] = {
		OPT_STRING('i', "input", &r.input, "file", "input file name"),
		OPT_STRING('s', "sort", &r.sort_str, "key",
			   "sort by busy (default), jobs, latency (p99), pid, comm or cgroup (rows per cgroup)"),
		OPT_STRING(0, "pid", &r.pid_str, "pid[,pid...]", "only these processes"),
		OPT_STRING(0, "comm", &r.comm_str, "comm[,comm...]", "only these process names"),
		OPT_STRING(0, "cgroup", &r.cgroup_str, "path",
			   "only the clients in this cgroup (v2) or below it"),
		OPT_STRING(0, "timeline", &r.timeline_str, "name[,name...]",
			   "only these timelines (name or driver/name)"),
		OPT_STRING(0, "format", &r.format_str, "text|csv|json", "output format"),
		OPT_STRING(0, "range", &r.range_str, "sys:ev1,sys:ev2[;...]",
			   "ranges from each ev1 to the next ev2 of a process"),
		OPT_STRING(0, "oa-metrics", &r.oa_metrics_str, "name,...|all",
			   "the recording's metric set's counters (GpuBusy, ...) per OA row"),
		OPT_BOOLEAN(0, "totals", &r.totals_only,
			    "text: only the header, clients and ranges (perf gpu stat)"),
		OPT_STRING_OPTARG(0, "device", &r.device, "dir",
				  "report the gpuprof device's histograms instead",
				  GPUPROFDEV_ROOT),
		OPT_INCR('v', "verbose", &r.verbose, "be more verbose"),
		OPT_END()
	};
	const char *const usage[] = { "perf gpu report [<options>]", NULL };
	int ret = 1;

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc)
		usage_with_options(usage, options);
	if (report_format_parse(r.format_str, &r.fmt)) {
		pr_err("unknown format '%s' (text,csv,json)\n",
		       r.format_str);
		return 1;
	}
	if (r.device && r.oa_metrics_str) {
		pr_err("--oa-metrics: the metrics of a recording, not of --device\n");
		return 1;
	}
	if (r.device)
		return report_device(r.device, r.fmt, stdout) ? 1 : 0;
	r.om.list = r.oa_metrics_str;
	if (report_ranges_init(&r.ranges, r.range_str) ||
	    parse_sort(&r) || name_list_split(r.pid_str, &r.pids) ||
	    name_list_split(r.comm_str, &r.comms) ||
	    name_list_split(r.timeline_str, &r.timelines) || check_pids(&r.pids))
		goto out;
	if (r.cgroup_str && r.cgroup_str[0] != '/') {
		pr_err("--cgroup: '%s' is not a cgroup path (it starts with /)\n",
		       r.cgroup_str);
		goto out;
	}
	r.show_cgroups = r.cgroup_str || r.sort == REPORT_SORT_CGROUP;
	r.human = isatty(STDOUT_FILENO);
	tep_set_loglevel(r.verbose ? TEP_LOG_WARNING : TEP_LOG_NONE);
	ret = run(&r) ? 1 : 0;
out:
	cleanup(&r);
	return ret;
}
