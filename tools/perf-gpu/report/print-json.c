// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu report --format=json (report/print.h has its keys, which are
 * stable): one document of the whole report, every time in ns.  Apart
 * from the flow of builtin-report.c so that each format reads on its own.
 */
#include <math.h>
#include <stdio.h>

#include "perfdata/gpu-trace.h"
#include "report/print-common.h"
#include "util/output.h"

static void json_key(struct report *r, const char *key)
{
	report_json_string(r->out, key);
	fputs(": ", r->out);
}

static void json_u64(struct report *r, const char *key, uint64_t v, bool comma)
{
	json_key(r, key);
	fprintf(r->out, "%llu%s", (unsigned long long)v, comma ? ", " : "");
}

/* "KEY": {count, mean, p50, p90, p99, max} of a sketch. */
static void json_sketch(struct report *r, const char *key,
			const struct report_sketch *l)
{
	json_key(r, key);
	fputc('{', r->out);
	json_u64(r, "count", l->count, true);
	json_u64(r, "mean", report_sketch_mean(l), true);
	json_u64(r, "p50", report_sketch_quantile(l, 500), true);
	json_u64(r, "p90", report_sketch_quantile(l, 900), true);
	json_u64(r, "p99", report_sketch_quantile(l, 990), true);
	json_u64(r, "max", l->max, false);
	fputc('}', r->out);
}

static void json_jobs(struct report *r, const struct report_jobs *j)
{
	uint64_t share = report_share_x100(r, j->busy_ns);

	json_u64(r, "jobs", j->jobs, true);
	json_u64(r, "unmatched", j->unmatched, true);
	json_u64(r, "unsignaled", j->unsignaled, true);
	json_u64(r, "busy_ns", j->busy_ns, true);
	json_key(r, "share_pct");
	fprintf(r->out, "%llu.%02llu, ", (unsigned long long)(share / 100),
		(unsigned long long)(share % 100));
	json_sketch(r, "latency_ns", &j->latency);
	fputs(", ", r->out);
	json_sketch(r, "queue_ns", &j->queue);
	fputs(", ", r->out);
	json_sketch(r, "run_ns", &j->run);
}

static void json_array(struct report *r, const char *key, const __u64 *v,
		       unsigned int n)
{
	unsigned int i;

	json_key(r, key);
	fputc('[', r->out);
	for (i = 0; i < n; i++)
		fprintf(r->out, "%s%llu", i ? ", " : "", (unsigned long long)v[i]);
	fputc(']', r->out);
}

/*
 * --oa-metrics: , "metrics": {SYMBOL: VALUE, ...} of the summed deltas
 * @d, each number as i915-perf-reader prints it; null for a double that
 * is no number (JSON has no nan).
 */
static void json_metrics(struct report *r, const struct gpuprof_oa_deltas *d)
{
	const struct oa_metric_value *v;
	char value[384];
	unsigned int i;

	if (!r->oa_metrics_str)
		return;
	report_oa_metrics_compute(&r->om, d);
	fputs(", ", r->out);
	json_key(r, "metrics");
	fputc('{', r->out);
	for (i = 0; i < r->om.n; i++) {
		v = report_oa_metrics_value(&r->om, i);
		if (i)
			fputs(", ", r->out);
		json_key(r, report_oa_metrics_name(&r->om, i));
		if (v->is_double && !isfinite(v->d))
			fputs("null", r->out);
		else {
			report_oa_metrics_format(&r->om, i, value, sizeof(value));
			fputs(value, r->out);
		}
	}
	fputc('}', r->out);
}

static void json_oa(struct report *r, const char *key, const struct report_oa *o)
{
	json_key(r, key);
	fputc('{', r->out);
	json_u64(r, "reports", o->reports, true);
	json_u64(r, "gpu_time_ns", o->gpu_time_ns, true);
	json_u64(r, "gpu_clock_ticks", o->d.gpu_ticks, true);
	json_u64(r, "avg_gpu_freq_mhz", o->avg_gpu_freq_mhz, true);
	json_array(r, "a", o->d.a, r->m.oa_a_shown);
	fputs(", ", r->out);
	json_array(r, "b", o->d.b, GPUPROF_OA_B_COUNTERS);
	fputs(", ", r->out);
	json_array(r, "c", o->d.c, GPUPROF_OA_C_COUNTERS);
	json_metrics(r, &o->d);
	fputc('}', r->out);
}

/* "cgroup": the path, null when the client has none or it is unnamed. */
static void json_cgroup(struct report *r, const struct report_cgroup *cg)
{
	const char *path = report_cgroup_path(r, cg);

	json_key(r, "cgroup");
	if (path)
		report_json_string(r->out, path);
	else
		fputs("null", r->out);
	fputs(", ", r->out);
}

/* "client_names": those of the process's DRM clients, [] when none. */
static void json_client_names(struct report *r, int32_t pid)
{
	const char *name;
	uint32_t pos = 0;
	bool first = true;

	json_key(r, "client_names");
	fputc('[', r->out);
	while ((name = report_names_next(&r->m.names, pid, &pos))) {
		if (!first)
			fputs(", ", r->out);
		report_json_string(r->out, name);
		first = false;
	}
	fputs("], ", r->out);
}

static void json_client_id(struct report *r, const struct report_client *c)
{
	json_key(r, "pid");
	fprintf(r->out, "%d, ", c->pid);
	json_key(r, "comm");
	report_json_string(r->out, c->comm);
	fputs(", ", r->out);
	json_cgroup(r, c->cgroup);
	json_client_names(r, c->pid);
}

static void json_timeline_id(struct report *r, const struct report_timeline *tl)
{
	json_key(r, "driver");
	report_json_string(r->out, tl->driver);
	fputs(", ", r->out);
	json_key(r, "timeline");
	report_json_string(r->out, tl->name);
	fputs(", ", r->out);
}

static void json_header(struct report *r)
{
	const struct report_model *m = &r->m;
	unsigned int i, n = 0;

	json_key(r, "file");
	report_json_string(r->out, r->input);
	fputs(",\n ", r->out);
	json_u64(r, "first_ns", m->events ? m->first_time : 0, true);
	json_u64(r, "last_ns", m->events ? m->last_time : 0, true);
	json_u64(r, "span_ns", report_model_span(m), true);
	json_u64(r, "events", m->events, false);
	fputs(",\n ", r->out);
	json_key(r, "lost");
	fputc('{', r->out);
	json_u64(r, "total", report_lost_total(r), true);
	json_u64(r, "unknown", gpu_trace_lost_unknown(r->trace), true);
	json_key(r, "events");
	fputc('{', r->out);
	for (i = 0; i < gpu_trace_nr_events(r->trace); i++) {
		const struct gpu_trace_event_info *e = gpu_trace_event(r->trace, i);

		if (!e->lost)
			continue;
		if (n++)
			fputs(", ", r->out);
		json_u64(r, e->name, e->lost, false);
	}
	fputs("}},\n ", r->out);
	json_key(r, "notes");
	fputc('[', r->out);
	for (i = 0, n = 0; i < gpu_trace_nr_events(r->trace); i++) {
		const struct gpu_trace_event_info *e = gpu_trace_event(r->trace, i);
		char note[256];

		if (!e->note[0])
			continue;
		snprintf(note, sizeof(note), "%s: %s: not used", e->name, e->note);
		if (n++)
			fputs(", ", r->out);
		report_json_string(r->out, note);
	}
	fputs("],\n ", r->out);
	/* What the recording lacks, by name: "cgroups". */
	json_key(r, "lacks");
	fputc('[', r->out);
	if (report_recording_lacks(r))
		report_json_string(r->out, "cgroups");
	fputs("],\n ", r->out);
	json_key(r, "totals");
	fputc('{', r->out);
	json_jobs(r, &m->total);
	fputs("}", r->out);
}

/* "sched": report/sched.h's rows and comparison; rows [] without events. */
static void json_sched(struct report *r)
{
	const struct report_sched *s = &r->m.sched;
	const struct report_sched_compare *c = &s->cmp;
	uint32_t i, n = 0;

	fputs(",\n ", r->out);
	json_key(r, "sched");
	fputc('{', r->out);
	json_u64(r, "events", s->events, true);
	json_u64(r, "untimed", s->untimed, true);
	json_key(r, "rows");
	fputc('[', r->out);
	for (i = 0; i < s->nr_rows; i++) {
		const struct report_sched_row *row = s->rows[i];

		if (!report_sched_row_selected(r, row))
			continue;
		fprintf(r->out, "%s\n  {", n++ ? "," : "");
		json_u64(r, "client_id", row->client_id, true);
		json_key(r, "dev");
		report_json_string(r->out, row->dev);
		fputs(", ", r->out);
		json_key(r, "ring");
		report_json_string(r->out, row->ring);
		fputs(", ", r->out);
		json_key(r, "pid");
		fprintf(r->out, "%d, ", row->pid);
		json_key(r, "pid_from");
		report_json_string(r->out, row->pid_from_fdinfo ? "fdinfo" : "push");
		fputs(", ", r->out);
		json_key(r, "comm");
		report_json_string(r->out, row->comm);
		fputs(", ", r->out);
		json_key(r, "client_name");
		if (row->client_name[0])
			report_json_string(r->out, row->client_name);
		else
			fputs("null", r->out);
		fputs(", ", r->out);
		json_u64(r, "jobs", row->jobs, true);
		json_u64(r, "unfinished", row->unfinished, true);
		json_u64(r, "deps", row->deps, true);
		json_u64(r, "waited", row->waited, true);
		json_sketch(r, "dep_ns", &row->dep);
		fputs(", ", r->out);
		json_sketch(r, "queue_ns", &row->queue);
		fputs(", ", r->out);
		json_sketch(r, "run_ns", &row->run);
		fputc('}', r->out);
	}
	fputs("],\n ", r->out);
	json_key(r, "compare");
	fputc('{', r->out);
	json_u64(r, "jobs", c->jobs, true);
	json_u64(r, "ordered", c->ordered, true);
	json_u64(r, "agree", c->agree, true);
	json_u64(r, "tolerance_ns", c->tolerance_ns, true);
	json_u64(r, "max_submit_ns", c->max_submit_ns, true);
	json_u64(r, "max_handover_ns", c->max_handover_ns, true);
	json_u64(r, "max_end_ns", c->max_end_ns, true);
	json_u64(r, "sched_only", c->sched_only, false);
	fputs("}}", r->out);
}

static void json_entities(struct report *r)
{
	uint32_t i;

	fputs(",\n ", r->out);
	json_key(r, "clients");
	fputc('[', r->out);
	for (i = 0; i < r->nr_clients; i++) {
		fprintf(r->out, "%s\n  {", i ? "," : "");
		json_client_id(r, r->clients[i]);
		json_jobs(r, &r->clients[i]->jobs);
		fputs(", ", r->out);
		json_oa(r, "oa", &r->clients[i]->oa);
		fputc('}', r->out);
	}
	fputs("],\n ", r->out);
	json_key(r, "cgroups");
	fputc('[', r->out);
	for (i = 0; i < r->nr_cgroups; i++) {
		fprintf(r->out, "%s\n  {", i ? "," : "");
		json_cgroup(r, r->cgroups[i]);
		json_key(r, "id");
		fprintf(r->out, "%llu, ", (unsigned long long)r->cgroups[i]->id);
		json_u64(r, "clients", r->cgroups[i]->nr_clients, true);
		json_jobs(r, &r->cgroups[i]->jobs);
		fputc('}', r->out);
	}
	fputs("],\n ", r->out);
	json_key(r, "timelines");
	fputc('[', r->out);
	for (i = 0; i < r->nr_tls; i++) {
		fprintf(r->out, "%s\n  {", i ? "," : "");
		json_timeline_id(r, r->tls[i]);
		json_jobs(r, &r->tls[i]->jobs);
		fputs(", ", r->out);
		json_oa(r, "oa", &r->tls[i]->oa);
		fputc('}', r->out);
	}
	fputs("],\n ", r->out);
	json_key(r, "pairs");
	fputc('[', r->out);
	for (i = 0; i < r->nr_pairs; i++) {
		fprintf(r->out, "%s\n  {", i ? "," : "");
		json_client_id(r, r->pairs[i]->client);
		json_timeline_id(r, r->pairs[i]->timeline);
		json_jobs(r, &r->pairs[i]->jobs);
		fputc('}', r->out);
	}
	fputs("]", r->out);
	json_sched(r);
}

static void json_tail(struct report *r)
{
	const struct report_model *m = &r->m;
	uint64_t oa_lost = 0;
	uint32_t i;

	for (i = 0; i < gpu_trace_nr_events(r->trace); i++)
		if (gpu_trace_event(r->trace, i)->kind == GPU_EV_OA_REPORT)
			oa_lost = report_sat_add(oa_lost, gpu_trace_event(r->trace, i)->lost);
	fputs(",\n ", r->out);
	json_key(r, "frames");
	fputc('[', r->out);
	for (i = 0; i < m->nr_crtcs; i++) {
		const struct report_crtc *c = &m->crtcs[i];

		fprintf(r->out, "%s\n  {", i ? "," : "");
		json_key(r, "crtc");
		fprintf(r->out, "%d, ", c->crtc);
		json_u64(r, "counter", c->counter, true);
		json_u64(r, "vblanks", c->vblanks, true);
		json_u64(r, "intervals", c->interval.count, true);
		json_u64(r, "mean_interval_ns", report_sketch_mean(&c->interval), true);
		json_u64(r, "median_interval_ns", c->median_ns, true);
		json_u64(r, "p99_interval_ns", report_sketch_quantile(&c->interval, 990), true);
		json_u64(r, "max_interval_ns", c->interval.max, true);
		json_u64(r, "missed", c->missed, true);
		json_u64(r, "flips", c->flips, true);
		json_u64(r, "flip_intervals", c->flip_interval.count, true);
		json_u64(r, "median_flip_interval_ns", c->flip_median_ns, true);
		json_u64(r, "missed_flips", c->flips_missed, false);
		fputc('}', r->out);
	}
	fputs("],\n ", r->out);
	json_key(r, "oa");
	fputc('{', r->out);
	json_u64(r, "reports", m->oa_reports, true);
	json_u64(r, "deltas", m->oa_deltas, true);
	json_u64(r, "lost", oa_lost, true);
	json_u64(r, "dropped_context_change", m->oa_switch_drops, true);
	json_u64(r, "dropped_lost", m->oa_lost_drops, true);
	json_u64(r, "unknown_size", m->oa_no_layout, true);
	json_u64(r, "frequency_hz", m->oa_freq_hz, true);
	json_u64(r, "correlation_points", m->oa_corr_points, true);
	json_u64(r, "correlation_bounded", m->oa_corr_bounded, true);
	json_u64(r, "correlation_worst_bound_ns", m->oa_corr_worst_ns, true);
	{
		struct report_oa all;

		report_oa_total(r, &all);
		json_oa(r, "total", &all);
	}
	fputs(", ", r->out);
	json_oa(r, "unattributed", &m->oa_unattributed);
	fputs(", ", r->out);
	json_oa(r, "no_timeline", &m->oa_no_timeline);
	fputs("}", r->out);
}

static void json_range_oa(struct report *r, uint64_t reports,
			  const struct gpuprof_oa_deltas *d)
{
	struct report_oa o;

	report_range_oa(r, reports, d, &o);
	json_oa(r, "oa", &o);
}

static void json_ranges(struct report *r)
{
	const struct report_ranges *rr = &r->ranges;
	uint32_t i, k;

	fputs(",\n ", r->out);
	json_key(r, "marks");
	fputc('{', r->out);
	json_u64(r, "ranges", rr->nr, true);
	json_u64(r, "dropped", rr->dropped, true);
	json_u64(r, "unmatched_ends", rr->unmatched_ends, true);
	json_u64(r, "bad", rr->bad_marks, true);
	json_u64(r, "names_cut", rr->long_names, false);
	fputs("},\n ", r->out);
	json_key(r, "ranges");
	fputc('[', r->out);
	for (i = 0; i < rr->nr_sums; i++) {
		const struct report_range_sum *sum = &rr->sums[i];

		fprintf(r->out, "%s\n  {", i ? "," : "");
		json_key(r, "name");
		report_json_string(r->out, sum->name);
		fputs(", ", r->out);
		json_u64(r, "count", sum->count, true);
		json_u64(r, "unclosed", sum->unclosed, true);
		json_u64(r, "elapsed_ns", sum->elapsed_ns, true);
		json_u64(r, "elapsed_min_ns", sum->elapsed_min_ns, true);
		json_u64(r, "elapsed_max_ns", sum->elapsed_max_ns, true);
		json_u64(r, "gpu_ns", sum->gpu_ns, true);
		json_u64(r, "busy_ns", sum->busy_ns, true);
		json_range_oa(r, sum->oa_reports, &sum->oa);
		fputc('}', r->out);
	}
	fputs("],\n ", r->out);
	/* Each range as marked, in the order of their begin. */
	json_key(r, "range_instances");
	fputc('[', r->out);
	for (k = 0; k < rr->nr; k++) {
		const struct report_range *x = &rr->r[k];

		fprintf(r->out, "%s\n  {", k ? "," : "");
		json_key(r, "name");
		report_json_string(r->out, x->name);
		fprintf(r->out, ", \"pid\": %d, ", x->pid);
		json_u64(r, "begin_ns", x->begin, true);
		json_u64(r, "end_ns", x->closed ? x->end : 0, true);
		json_u64(r, "elapsed_ns", x->closed ? x->end - x->begin : 0, true);
		json_u64(r, "gpu_ns", report_range_gpu_ns(x, &r->m), true);
		json_u64(r, "busy_ns", x->busy_ns, true);
		json_u64(r, "oa_reports", x->oa_reports, true);
		json_u64(r, "gpu_clock_ticks", x->oa.gpu_ticks, false);
		fputc('}', r->out);
	}
	fputs("]", r->out);
}

void report_print_json(struct report *r)
{
	fputs("{", r->out);
	json_header(r);
	json_entities(r);
	json_tail(r);
	json_ranges(r);
	fputs("\n}\n", r->out);
}
