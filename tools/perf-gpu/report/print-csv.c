// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu report --format=csv (report/print.h): "# " lines of what the
 * recording says of its machine, GPU, OA stream and frames, then one
 * table, the pairs (or the cgroups, or the OA rows of --oa-metrics), in
 * plain numbers unless a terminal reads them.  Apart from the flow of
 * builtin-report.c so that each format reads on its own.
 */
#include <stdio.h>
#include <string.h>

#include "../../module/oa_platform.h"
#include "perfdata/gpu-trace.h"
#include "report/print-common.h"
#include "util/output.h"

/* A client's cgroup path for text and CSV: "" when none or unnamed. */
static const char *client_cgroup(const struct report *r,
				 const struct report_client *c)
{
	const char *path = report_cgroup_path(r, c->cgroup);

	return path ? path : "";
}

static void csv_num(struct report *r, uint64_t v, enum report_unit u)
{
	putc(',', r->out);
	report_csv_number(r->out, v, u, r->human);
}

/* The model of the recording's CPU and how many it had, as known. */
static void csv_cpu_line(struct report *r, const char *model)
{
	uint32_t avail, online;
	bool have_n = !gpu_trace_header_nrcpus(r->trace, &avail, &online);

	if (!model && !have_n)
		return;
	fprintf(r->out, "# CPU: %s", model ?: "model unknown");
	if (have_n)
		fprintf(r->out, ", %u of %u CPUs online", online, avail);
	fputc('\n', r->out);
}

/*
 * The GPU whose OA unit was read, as its gpu_oa:oa_device describes it:
 * PCI device id and revision, the platform the id belongs to, the
 * driver, the GT's frequency range and the EU count of its topology.
 */
static void csv_gpu_device_line(struct report *r)
{
	const struct report_oa_unit *u = &r->m.oa_unit;
	const struct gpuprof_oa_platform *p;

	if (!u->samples)
		return;
	p = gpuprof_oa_platform_of_device(u->device_id);
	fprintf(r->out, "# GPU device: 0x%04x rev %u, %s, driver %s", u->device_id,
		u->revision, p ? p->name : "platform unknown",
		u->driver == GPUPROF_OA_DRIVER_XE ? "xe" : "i915");
	if (u->gt_min_hz || u->gt_max_hz)
		fprintf(r->out, ", %u-%u MHz", u->gt_min_hz / 1000000,
			u->gt_max_hz / 1000000);
	if (u->n_eus)
		fprintf(r->out, ", %llu EUs", (unsigned long long)u->n_eus);
	fputc('\n', r->out);
}

/*
 * The OA stream: its metric set, report format and period, the number
 * of reports and the timestamp frequency they show.  The period is the
 * one the reports keep (report_model's oa_period_ticks), in ns at the
 * recorded frequency, with the exponent that gives it.
 */
static void csv_oa_line(struct report *r)
{
	const struct report_model *m = &r->m;
	const struct report_oa_unit *u = &m->oa_unit;
	uint64_t hz = u->timestamp_hz ?: m->oa_freq_hz;
	const char *format = gpuprof_oa_format_name(u->format);

	if (!m->oa_reports && !u->samples) {
		fprintf(r->out, "# OA: none\n");
		return;
	}
	fprintf(r->out, "# OA:");
	if (u->samples) {
		fprintf(r->out, " metric set %s", u->metric_set[0] ? u->metric_set : "unnamed");
		if (u->uuid[0])
			fprintf(r->out, " (%s)", u->uuid);
		if (format)
			fprintf(r->out, ", format %s,", format);
		else
			fprintf(r->out, ", format %u,", u->format);
	}
	if (m->oa_period_ticks && hz)
		fprintf(r->out, " period %llu ns (exponent %d),",
			(unsigned long long)((unsigned __int128)m->oa_period_ticks *
					     1000000000u / hz),
			__builtin_ctzll(m->oa_period_ticks) - 1);
	fprintf(r->out, " %llu reports, timestamp frequency ",
		(unsigned long long)m->oa_reports);
	if (m->oa_freq_hz)
		fprintf(r->out, "%llu Hz", (unsigned long long)m->oa_freq_hz);
	else
		fprintf(r->out, "unknown");
	if (u->changed)
		fprintf(r->out, "; another device or set later in the recording");
	fputc('\n', r->out);
}

static void csv_header(struct report *r)
{
	const char *host = gpu_trace_header_string(r->trace, HEADER_HOSTNAME);
	const char *rel = gpu_trace_header_string(r->trace, HEADER_OSRELEASE);
	const char *arch = gpu_trace_header_string(r->trace, HEADER_ARCH);
	const char *cpu = gpu_trace_header_string(r->trace, HEADER_CPUDESC);
	const struct report_model *m = &r->m;
	uint32_t i, j;

	/* What the recording says of its machine, not this one's. */
	if (host || rel || arch)
		fprintf(r->out, "# system: Linux%s%s%s%s%s%s\n", host ? " " : "",
			host ?: "", rel ? " " : "", rel ?: "", arch ? " " : "", arch ?: "");
	csv_cpu_line(r, cpu);
	fprintf(r->out, "# GPU:");
	if (!m->nr_timelines)
		fprintf(r->out, " none seen");
	for (i = 0; i < m->nr_timelines; i++) {
		const struct report_timeline *tl = m->timelines[i];

		/* Drivers in order of first sight, each with its timelines. */
		for (j = 0; j < i && strcmp(m->timelines[j]->driver, tl->driver); j++)
			;
		if (j < i)
			continue;
		fprintf(r->out, "%s %s (", i ? ";" : "", tl->driver);
		for (j = i; j < m->nr_timelines; j++)
			if (!strcmp(m->timelines[j]->driver, tl->driver))
				fprintf(r->out, "%s%s", j == i ? "" : ", ",
					m->timelines[j]->name);
		fprintf(r->out, ")");
	}
	fprintf(r->out, "\n");
	csv_gpu_device_line(r);
	csv_oa_line(r);
	report_oa_clock_line(r);
	if (report_recording_lacks(r))
		fprintf(r->out, "# lacks: %s\n", report_recording_lacks(r));
	for (i = 0; i < m->nr_crtcs; i++) {
		const struct report_crtc *c = &m->crtcs[i];

		char name[24];

		fprintf(r->out, "# frames: crtc %s: %llu vblanks, median interval %llu ns, %llu missed; %llu flips, median interval %llu ns, %llu missed\n",
			report_crtc_name(name, sizeof(name), c),
			(unsigned long long)c->vblanks,
			(unsigned long long)c->median_ns, (unsigned long long)c->missed,
			(unsigned long long)c->flips,
			(unsigned long long)c->flip_median_ns,
			(unsigned long long)c->flips_missed);
	}
	fprintf(r->out, "# recording: %s, span %llu ns, %llu events, %llu lost\n",
		r->input, (unsigned long long)report_model_span(m),
		(unsigned long long)m->events, (unsigned long long)report_lost_total(r));
}

/*
 * One OA row of the --oa-metrics table: what it is (@kind), its pid and
 * comm (@c), timeline (@tl) or range (@range), its reports, GPU time
 * and clock ticks, then the metrics of its summed deltas.
 */
static void csv_oa_row(struct report *r, const char *kind,
		       const struct report_client *c,
		       const struct report_timeline *tl, const char *range,
		       const struct report_oa *o)
{
	char value[384];
	unsigned int i;

	report_csv_field(r->out, kind);
	if (c) {
		fprintf(r->out, ",%d,", c->pid);
		report_csv_field(r->out, c->comm);
	} else {
		fputs(",,", r->out);
	}
	putc(',', r->out);
	if (tl) {
		report_csv_field(r->out, tl->driver);
		putc(',', r->out);
		report_csv_field(r->out, tl->name);
	} else {
		putc(',', r->out);
	}
	putc(',', r->out);
	if (range)
		report_csv_field(r->out, range);
	csv_num(r, o->reports, UNIT_NONE);
	csv_num(r, o->gpu_time_ns, UNIT_NS);
	csv_num(r, o->d.gpu_ticks, UNIT_NONE);
	report_oa_metrics_compute(&r->om, &o->d);
	for (i = 0; i < r->om.n; i++) {
		report_oa_metrics_format(&r->om, i, value, sizeof(value));
		fprintf(r->out, ",%s", value);
	}
	putc('\n', r->out);
}

/*
 * --oa-metrics: the table is the OA rows, not the pairs (which have no
 * OA of their own): clients, unattributed, timelines, no job running,
 * the total and the ranges, as in JSON.
 */
static void csv_oa_metrics(struct report *r)
{
	const struct report_ranges *rr = &r->ranges;
	struct report_oa o;
	unsigned int i;

	fputs("row,pid,comm,driver,timeline,range,reports,gpu_time_ns,gpu_clock_ticks",
	      r->out);
	for (i = 0; i < r->om.n; i++) {
		putc(',', r->out);
		report_csv_field(r->out, report_oa_metrics_name(&r->om, i));
	}
	putc('\n', r->out);
	for (i = 0; i < r->nr_clients; i++)
		csv_oa_row(r, "client", r->clients[i], NULL, NULL, &r->clients[i]->oa);
	csv_oa_row(r, "unattributed", NULL, NULL, NULL, &r->m.oa_unattributed);
	for (i = 0; i < r->nr_tls; i++)
		csv_oa_row(r, "timeline", NULL, r->tls[i], NULL, &r->tls[i]->oa);
	csv_oa_row(r, "no_timeline", NULL, NULL, NULL, &r->m.oa_no_timeline);
	report_oa_total(r, &o);
	csv_oa_row(r, "total", NULL, NULL, NULL, &o);
	for (i = 0; i < rr->nr_sums; i++) {
		report_range_oa(r, rr->sums[i].oa_reports, &rr->sums[i].oa, &o);
		csv_oa_row(r, "range", NULL, NULL, rr->sums[i].name, &o);
	}
}

static const char csv_jobs_head[] =
	"jobs,unsignaled,busy_ns,share_pct,"
	"latency_p50_ns,latency_p90_ns,latency_p99_ns,latency_max_ns,"
	"queue_p50_ns,queue_p99_ns,run_p50_ns,run_p99_ns";

/* The columns of csv_jobs_head, each after a comma. */
static void csv_jobs(struct report *r, const struct report_jobs *j)
{
	csv_num(r, j->jobs, UNIT_NONE);
	csv_num(r, j->unsignaled, UNIT_NONE);
	csv_num(r, j->busy_ns, UNIT_NS);
	csv_num(r, report_share_x100(r, j->busy_ns), UNIT_PERCENT_X100);
	csv_num(r, report_sketch_quantile(&j->latency, 500), UNIT_NS);
	csv_num(r, report_sketch_quantile(&j->latency, 900), UNIT_NS);
	csv_num(r, report_sketch_quantile(&j->latency, 990), UNIT_NS);
	csv_num(r, j->latency.max, UNIT_NS);
	csv_num(r, report_sketch_quantile(&j->queue, 500), UNIT_NS);
	csv_num(r, report_sketch_quantile(&j->queue, 990), UNIT_NS);
	csv_num(r, report_sketch_quantile(&j->run, 500), UNIT_NS);
	csv_num(r, report_sketch_quantile(&j->run, 990), UNIT_NS);
}

/* --sort cgroup: a row per cgroup, the sums over its clients. */
static void csv_cgroups(struct report *r)
{
	char buf[32];
	uint32_t i;

	fprintf(r->out, "cgroup,clients,%s\n", csv_jobs_head);
	for (i = 0; i < r->nr_cgroups; i++) {
		report_csv_field(r->out, report_cgroup_name(buf, sizeof(buf), r,
						     r->cgroups[i]));
		fprintf(r->out, ",%u", r->cgroups[i]->nr_clients);
		csv_jobs(r, &r->cgroups[i]->jobs);
		putc('\n', r->out);
	}
}

void report_print_csv(struct report *r)
{
	uint32_t i;

	csv_header(r);
	if (r->oa_metrics_str) {
		csv_oa_metrics(r);
		return;
	}
	if (r->sort == REPORT_SORT_CGROUP) {
		csv_cgroups(r);
		return;
	}
	fprintf(r->out, "pid,comm,driver,timeline,%s,cgroup,client_name\n",
		csv_jobs_head);
	for (i = 0; i < r->nr_pairs; i++) {
		const struct report_pair *p = r->pairs[i];
		char names[CLIENT_NAMES_MAX];

		fprintf(r->out, "%d,", p->client->pid);
		report_csv_field(r->out, p->client->comm);
		putc(',', r->out);
		report_csv_field(r->out, p->timeline->driver);
		putc(',', r->out);
		report_csv_field(r->out, p->timeline->name);
		csv_jobs(r, &p->jobs);
		putc(',', r->out);
		report_csv_field(r->out, client_cgroup(r, p->client));
		putc(',', r->out);
		report_csv_field(r->out, report_client_names(r, p->client->pid, names,
						      sizeof(names)));
		putc('\n', r->out);
	}
}
