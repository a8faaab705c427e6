// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu report's text, the default format (report/print.h): a header
 * of what the recording holds and lost, then a table per kind of row
 * (clients, cgroups, timelines, pairs, the scheduler, frames, OA and
 * ranges), numbers in human units.  Apart from the flow of
 * builtin-report.c so that each format reads on its own.
 */
#include <stdio.h>
#include <string.h>

#include "perfdata/gpu-trace.h"
#include "report/print-common.h"
#include "util/output.h"
#define CLIENT_NAME_HEAD	"CLIENT_NAME"

/* A number as report_csv_number() writes it for a terminal. */
static const char *human(char *buf, size_t size, uint64_t v, enum report_unit u)
{
	FILE *f = fmemopen(buf, size, "w");

	if (!f) {
		snprintf(buf, size, "%llu", (unsigned long long)v);
		return buf;
	}
	report_csv_number(f, v, u, 1);
	fclose(f);
	return buf;
}

/* Slot @n of a function's buffers hb[8][32]: one per number printed. */
#define H(n, v, u) human(hb[n], sizeof(hb[0]), (v), (u))

static void text_jobs_cells(struct report *r, const struct report_jobs *j,
			    bool unmatched)
{
	char hb[8][32];

	fprintf(r->out, " %8llu", (unsigned long long)j->jobs);
	if (unmatched)
		fprintf(r->out, " %9llu", (unsigned long long)j->unmatched);
	fprintf(r->out, " %10llu %11s %7s %10s %10s %10s %10s",
		(unsigned long long)j->unsignaled,
		H(0, j->busy_ns, UNIT_NS),
		H(1, report_share_x100(r, j->busy_ns), UNIT_PERCENT_X100),
		H(2, report_sketch_quantile(&j->latency, 500), UNIT_NS),
		H(3, report_sketch_quantile(&j->latency, 900), UNIT_NS),
		H(4, report_sketch_quantile(&j->latency, 990), UNIT_NS),
		H(5, j->latency.max, UNIT_NS));
	/* Queued and running apart (report/model.h), after the latency. */
	fprintf(r->out, " %10s %10s %10s %10s",
		H(0, report_sketch_quantile(&j->queue, 500), UNIT_NS),
		H(1, report_sketch_quantile(&j->queue, 990), UNIT_NS),
		H(2, report_sketch_quantile(&j->run, 500), UNIT_NS),
		H(3, report_sketch_quantile(&j->run, 990), UNIT_NS));
}

static void text_jobs(struct report *r, const struct report_jobs *j, bool unmatched)
{
	text_jobs_cells(r, j, unmatched);
	fputc('\n', r->out);
}

static const char jobs_head[] =
	"     JOBS UNSIGNALED        BUSY   SHARE        P50        P90        P99        MAX"
	"  QUEUE_P50  QUEUE_P99    RUN_P50    RUN_P99\n";
static const char jobs_head_unmatched[] =
	"     JOBS UNMATCHED UNSIGNALED        BUSY   SHARE        P50        P90        P99        MAX"
	"  QUEUE_P50  QUEUE_P99    RUN_P50    RUN_P99\n";

/* The width of the timeline column: the longest driver/name shown. */
static int timeline_width(const struct report *r)
{
	int w = 16, n;
	uint32_t i;

	for (i = 0; i < r->m.nr_timelines; i++) {
		n = strlen(r->m.timelines[i]->driver) + 1 + strlen(r->m.timelines[i]->name);
		if (n > w)
			w = n < 48 ? n : 48;
	}
	return w;
}

static void text_timeline_name(struct report *r, const struct report_timeline *tl,
			       int width)
{
	char full[512];

	snprintf(full, sizeof(full), "%s/%s", tl->driver, tl->name);
	fprintf(r->out, "%-*s", width, full);
}

static void text_header(struct report *r)
{
	const struct report_model *m = &r->m;
	char hb[8][32];
	unsigned int i;
	uint64_t lost = report_lost_total(r);

	fprintf(r->out, "# perf gpu report: %s\n", r->input);
	fprintf(r->out, "# span: %s, %llu events\n", H(0, report_model_span(m), UNIT_NS),
		(unsigned long long)m->events);
	fprintf(r->out, "# jobs: %llu signaled, %llu signals without their init, %llu never signaled\n",
		(unsigned long long)m->total.jobs,
		(unsigned long long)m->total.unmatched,
		(unsigned long long)m->total.unsignaled);
	if (!lost)
		fprintf(r->out, "# lost: none\n");
	for (i = 0; i < gpu_trace_nr_events(r->trace); i++) {
		const struct gpu_trace_event_info *e = gpu_trace_event(r->trace, i);

		if (e->lost)
			fprintf(r->out, "# lost: %llu %s\n", (unsigned long long)e->lost,
				e->name);
	}
	if (gpu_trace_lost_unknown(r->trace))
		fprintf(r->out, "# lost: %llu of no known event\n",
			(unsigned long long)gpu_trace_lost_unknown(r->trace));
	report_oa_clock_line(r);
	for (i = 0; i < gpu_trace_nr_events(r->trace); i++) {
		const struct gpu_trace_event_info *e = gpu_trace_event(r->trace, i);

		if (e->note[0])
			fprintf(r->out, "# note: %s: %s: not used\n", e->name, e->note);
	}
	if (report_recording_lacks(r))
		fprintf(r->out, "# lacks: %s\n", report_recording_lacks(r));
}

/* The jobs head with @last as one more column, the path (no width). */
static void text_head(struct report *r, const char *head, const char *last)
{
	if (!last) {
		fputs(head, r->out);
		return;
	}
	fprintf(r->out, "%.*s %s\n", (int)strlen(head) - 1, head, last);
}

/*
 * The width of the clients' CLIENT_NAME column: their longest names, at
 * least the header's; 0, no column, when no client shown has a name.
 */
static int client_names_width(const struct report *r)
{
	char names[CLIENT_NAMES_MAX];
	uint32_t i;
	int w = 0, n;

	for (i = 0; i < r->nr_clients; i++) {
		n = strlen(report_client_names(r, r->clients[i]->pid, names,
					sizeof(names)));
		w = n > w ? n : w;
	}
	if (!w)
		return 0;
	return w > (int)strlen(CLIENT_NAME_HEAD) ? w :
	       (int)strlen(CLIENT_NAME_HEAD);
}

/*
 * The clients' last columns: CLIENT_NAME, @name_w wide when CGROUP
 * follows, and CGROUP; NULL when neither shows.
 */
static const char *clients_last(const struct report *r, char *buf,
				size_t size, int name_w)
{
	if (!name_w)
		return r->show_cgroups ? "CGROUP" : NULL;
	if (!r->show_cgroups)
		return CLIENT_NAME_HEAD;
	snprintf(buf, size, "%-*s CGROUP", name_w, CLIENT_NAME_HEAD);
	return buf;
}

static void text_clients(struct report *r)
{
	char buf[32], names[CLIENT_NAMES_MAX], last[CLIENT_NAMES_MAX + 8];
	int name_w = client_names_width(r);
	uint32_t i;

	fprintf(r->out, "\nClients\n    PID COMM           ");
	text_head(r, jobs_head, clients_last(r, last, sizeof(last), name_w));
	for (i = 0; i < r->nr_clients; i++) {
		fprintf(r->out, "%7d %-15s", r->clients[i]->pid, r->clients[i]->comm);
		text_jobs_cells(r, &r->clients[i]->jobs, false);
		report_client_names(r, r->clients[i]->pid, names, sizeof(names));
		if (name_w)
			fprintf(r->out, " %-*s", r->show_cgroups ? name_w : 0,
				*names ? names : "-");
		if (r->show_cgroups)
			fprintf(r->out, " %s", report_cgroup_name(buf, sizeof(buf), r,
							   r->clients[i]->cgroup));
		fputc('\n', r->out);
	}
	fprintf(r->out, "%7s %-15s", "", "total");
	text_jobs(r, &r->m.total, false);
}

/* --sort cgroup, --cgroup: the cgroups of the clients shown, summed. */
static void text_cgroups(struct report *r)
{
	char buf[32];
	uint32_t i;

	if (!r->show_cgroups)
		return;
	fprintf(r->out, "\nCgroups\nCLIENTS");
	text_head(r, jobs_head, "CGROUP");
	if (!r->nr_cgroups)
		fprintf(r->out, "   (no cgroup: the recording's samples carry none)\n");
	for (i = 0; i < r->nr_cgroups; i++) {
		fprintf(r->out, "%7u", r->cgroups[i]->nr_clients);
		text_jobs_cells(r, &r->cgroups[i]->jobs, false);
		fprintf(r->out, " %s\n", report_cgroup_name(buf, sizeof(buf), r, r->cgroups[i]));
	}
}

static void text_timelines(struct report *r)
{
	int w = timeline_width(r);
	uint32_t i;

	fprintf(r->out, "\nTimelines\n%-*s%s", w, "DRIVER/TIMELINE", jobs_head_unmatched);
	for (i = 0; i < r->nr_tls; i++) {
		text_timeline_name(r, r->tls[i], w);
		text_jobs(r, &r->tls[i]->jobs, true);
	}
	fprintf(r->out, "%-*s", w, "total");
	text_jobs(r, &r->m.total, true);
}

static void text_pairs(struct report *r)
{
	int w = timeline_width(r);
	uint32_t i;

	fprintf(r->out, "\nClients x timelines\n    PID COMM            %-*s%s", w,
		"DRIVER/TIMELINE", jobs_head);
	for (i = 0; i < r->nr_pairs; i++) {
		fprintf(r->out, "%7d %-15s ", r->pairs[i]->client->pid,
			r->pairs[i]->client->comm);
		text_timeline_name(r, r->pairs[i]->timeline, w);
		text_jobs(r, &r->pairs[i]->jobs, false);
	}
}

/*
 * The scheduler's own account, where the recording has its stable events
 * (report/sched.h), and how it compares with the pairing above.
 */
static void text_sched(struct report *r)
{
	const struct report_sched *s = &r->m.sched;
	const struct report_sched_compare *c = &s->cmp;
	char hb[8][32], ring[2 * REPORT_SCHED_NAME + 2];
	bool names = false;
	int w = 22, n;
	uint32_t i;

	if (!s->events)
		return;
	for (i = 0; i < s->nr_rows; i++) {
		n = snprintf(ring, sizeof(ring), "%s/%s", s->rows[i]->dev,
			     s->rows[i]->ring);
		w = n > w ? n : w;
		if (s->rows[i]->client_name[0] &&
		    report_sched_row_selected(r, s->rows[i]))
			names = true;
	}
	fprintf(r->out, "\nScheduler (gpu_scheduler events)\n"
		"CLIENT_ID     PID COMM            %-*s   JOBS   WAITED"
		"    DEP_P50    DEP_P99  QUEUE_P50  QUEUE_P99    RUN_P50    RUN_P99%s\n",
		w, "DEV/RING", names ? " " CLIENT_NAME_HEAD : "");
	for (i = 0; i < s->nr_rows; i++) {
		const struct report_sched_row *row = s->rows[i];

		if (!report_sched_row_selected(r, row))
			continue;
		snprintf(ring, sizeof(ring), "%s/%s", row->dev, row->ring);
		fprintf(r->out, "%9llu %7d %-15s %-*s %6llu %8llu %10s %10s %10s %10s %10s %10s",
			(unsigned long long)row->client_id, row->pid, row->comm,
			w, ring, (unsigned long long)row->jobs,
			(unsigned long long)row->waited,
			H(0, report_sketch_quantile(&row->dep, 500), UNIT_NS),
			H(1, report_sketch_quantile(&row->dep, 990), UNIT_NS),
			H(2, report_sketch_quantile(&row->queue, 500), UNIT_NS),
			H(3, report_sketch_quantile(&row->queue, 990), UNIT_NS),
			H(4, report_sketch_quantile(&row->run, 500), UNIT_NS),
			H(5, report_sketch_quantile(&row->run, 990), UNIT_NS));
		if (names)
			fprintf(r->out, " %s", row->client_name[0] ?
				row->client_name : "-");
		fputc('\n', r->out);
	}
	fprintf(r->out, "# against fence pairing: %llu jobs in both, %llu in the kernel's order, %llu agree within %s; largest differences: submission %s, handover %s, end %s; %llu jobs here only\n",
		(unsigned long long)c->jobs, (unsigned long long)c->ordered,
		(unsigned long long)c->agree,
		H(0, c->tolerance_ns, UNIT_NS), H(1, c->max_submit_ns, UNIT_NS),
		H(2, c->max_handover_ns, UNIT_NS), H(3, c->max_end_ns, UNIT_NS),
		(unsigned long long)c->sched_only);
}

static void text_frames(struct report *r)
{
	char hb[8][32];
	uint32_t i;

	fprintf(r->out, "\nFrames (vblank intervals)\n"
		"   CRTC  VBLANKS       MEAN     MEDIAN        P99        MAX   MISSED"
		"    FLIPS FLIP_MEDIAN FLIP_MISSED\n");
	if (!r->m.nr_crtcs)
		fprintf(r->out, "   (no drm:drm_vblank_event)\n");
	for (i = 0; i < r->m.nr_crtcs; i++) {
		const struct report_crtc *c = &r->m.crtcs[i];
		char name[24];

		fprintf(r->out, "%7s %8llu %10s %10s %10s %10s %8llu",
			report_crtc_name(name, sizeof(name), c),
			(unsigned long long)c->vblanks,
			H(0, report_sketch_mean(&c->interval), UNIT_NS),
			H(1, c->median_ns, UNIT_NS),
			H(2, report_sketch_quantile(&c->interval, 990), UNIT_NS),
			H(3, c->interval.max, UNIT_NS), (unsigned long long)c->missed);
		/* The flips the clients got, beside the vblank ticks. */
		fprintf(r->out, " %8llu %11s %11llu\n", (unsigned long long)c->flips,
			H(4, c->flip_median_ns, UNIT_NS),
			(unsigned long long)c->flips_missed);
	}
}

/* Counters that moved, as name=value: most of a metric set's are 0. */
static void text_counters(struct report *r, const struct gpuprof_oa_deltas *d)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->m.oa_a_shown; i++)
		if (d->a[i])
			n += fprintf(r->out, "%s a%u=%llu", n ? "" : "       ", i,
				     (unsigned long long)d->a[i]);
	for (i = 0; i < GPUPROF_OA_B_COUNTERS; i++)
		if (d->b[i])
			n += fprintf(r->out, "%s b%u=%llu", n ? "" : "       ", i,
				     (unsigned long long)d->b[i]);
	for (i = 0; i < GPUPROF_OA_C_COUNTERS; i++)
		if (d->c[i])
			n += fprintf(r->out, "%s c%u=%llu", n ? "" : "       ", i,
				     (unsigned long long)d->c[i]);
	if (n)
		fputc('\n', r->out);
}

/* Lines of text the metrics wrap at, and their indent. */
#define METRICS_WIDTH	100
#define METRICS_INDENT	"       "

/*
 * --oa-metrics: the set's counters of the summed deltas @d, as
 * SYMBOL=VALUE under the row, doubles to two decimals, wrapped: "all"
 * is dozens of them.
 */
static void text_metrics(struct report *r, const struct gpuprof_oa_deltas *d)
{
	const struct oa_metric_value *v;
	unsigned int i;
	char pair[192];
	int col = 0, n;

	if (!r->oa_metrics_str)
		return;
	report_oa_metrics_compute(&r->om, d);
	for (i = 0; i < r->om.n; i++) {
		v = report_oa_metrics_value(&r->om, i);
		if (v->is_double)
			n = snprintf(pair, sizeof(pair), " %s=%.2f",
				     report_oa_metrics_name(&r->om, i), v->d);
		else
			n = snprintf(pair, sizeof(pair), " %s=%llu",
				     report_oa_metrics_name(&r->om, i),
				     (unsigned long long)v->u);
		if (col && col + n > METRICS_WIDTH) {
			fputc('\n', r->out);
			col = 0;
		}
		if (!col)
			col = fprintf(r->out, METRICS_INDENT);
		col += fprintf(r->out, "%s", pair);
	}
	if (col)
		fputc('\n', r->out);
}

static void text_oa_row(struct report *r, const struct report_oa *o)
{
	char hb[8][32];

	fprintf(r->out, " %8llu %11s %16llu %8llu\n", (unsigned long long)o->reports,
		H(0, o->gpu_time_ns, UNIT_NS), (unsigned long long)o->d.gpu_ticks,
		(unsigned long long)o->avg_gpu_freq_mhz);
	text_counters(r, &o->d);
	text_metrics(r, &o->d);
}

static const char oa_head[] = "  REPORTS    GPU_TIME  GPU_CLOCK_TICKS  AVG_MHZ\n";

static void text_oa(struct report *r)
{
	const struct report_model *m = &r->m;
	int w = timeline_width(r);
	uint32_t i;

	fprintf(r->out, "\nOA\n");
	if (!m->oa_reports) {
		fprintf(r->out, "   (no gpu_oa:oa_report)\n");
		return;
	}
	fprintf(r->out, "# %llu reports, %llu deltas; dropped: %llu at a context change, %llu after lost reports; %llu of unknown size\n",
		(unsigned long long)m->oa_reports, (unsigned long long)m->oa_deltas,
		(unsigned long long)m->oa_switch_drops,
		(unsigned long long)m->oa_lost_drops,
		(unsigned long long)m->oa_no_layout);
	if (m->oa_freq_hz)
		fprintf(r->out, "# OA timestamp frequency %llu Hz, from the first and last report's timestamps and times\n",
			(unsigned long long)m->oa_freq_hz);
	else
		fprintf(r->out, "# OA timestamp frequency unknown (fewer than two reports apart in time): no gpu_time\n");
	if (r->oa_metrics_str)
		fprintf(r->out, "# metrics: %s on device 0x%04x, from each row's summed deltas\n",
			report_oa_metrics_set(&r->om), report_oa_metrics_device(&r->om));
	fprintf(r->out, "\nOA per client\n    PID COMM           %s", oa_head);
	for (i = 0; i < r->nr_clients; i++) {
		fprintf(r->out, "%7d %-15s", r->clients[i]->pid, r->clients[i]->comm);
		text_oa_row(r, &r->clients[i]->oa);
	}
	if (!report_has_client_filter(r)) {
		fprintf(r->out, "%7s %-15s", "-", "unattributed");
		text_oa_row(r, &m->oa_unattributed);
	}
	if (r->oa_metrics_str) {
		/* The recording's metrics, beside each client's. */
		struct report_oa all;

		report_oa_total(r, &all);
		fprintf(r->out, "%7s %-15s", "", "total");
		text_oa_row(r, &all);
	}
	fprintf(r->out, "\nOA per timeline\n%-*s%s", w, "DRIVER/TIMELINE", oa_head);
	for (i = 0; i < r->nr_tls; i++) {
		text_timeline_name(r, r->tls[i], w);
		text_oa_row(r, &r->tls[i]->oa);
	}
	if (!r->timelines.nr) {
		/* A bound client's reports while none of its jobs ran. */
		fprintf(r->out, "%-*s", w, "(no job running)");
		text_oa_row(r, &m->oa_no_timeline);
	}
}

static void text_ranges(struct report *r)
{
	const struct report_ranges *rr = &r->ranges;
	char hb[8][32];
	uint32_t i;

	if (!rr->nr && !rr->unmatched_ends && !rr->bad_marks && !rr->dropped)
		return;
	fprintf(r->out, "\nRanges\n%-24s %6s %11s %10s %10s %10s %11s %11s %8s\n",
		"NAME", "COUNT", "ELAPSED", "MEAN", "MIN", "MAX", "GPU_TIME",
		"GPU_BUSY", "REPORTS");
	for (i = 0; i < rr->nr_sums; i++) {
		const struct report_range_sum *sum = &rr->sums[i];

		fprintf(r->out, "%-24.64s %6llu %11s %10s %10s %10s %11s %11s %8llu\n",
			sum->name, (unsigned long long)sum->count,
			H(0, sum->elapsed_ns, UNIT_NS),
			H(1, sum->count ? sum->elapsed_ns / sum->count : 0, UNIT_NS),
			H(2, sum->elapsed_min_ns, UNIT_NS),
			H(3, sum->elapsed_max_ns, UNIT_NS),
			H(4, sum->gpu_ns, UNIT_NS), H(5, sum->busy_ns, UNIT_NS),
			(unsigned long long)sum->oa_reports);
		text_metrics(r, &sum->oa);
		if (sum->unclosed)
			fprintf(r->out, "# %s: %llu begun and never ended\n", sum->name,
				(unsigned long long)sum->unclosed);
	}
	if (rr->unmatched_ends || rr->bad_marks || rr->dropped || rr->long_names)
		fprintf(r->out, "# marks: %llu ends without a begin, %llu neither begin nor end, %llu ranges over %u not kept, %llu names cut to %u bytes\n",
			(unsigned long long)rr->unmatched_ends,
			(unsigned long long)rr->bad_marks,
			(unsigned long long)rr->dropped, REPORT_RANGES_MAX,
			(unsigned long long)rr->long_names, REPORT_RANGE_NAME_MAX - 1);
}

void report_print_text(struct report *r)
{
	text_header(r);
	if (r->totals_only) {
		/* perf gpu stat: what the command did, in one screen. */
		text_clients(r);
		text_cgroups(r);
		text_ranges(r);
		return;
	}
	text_clients(r);
	text_cgroups(r);
	text_timelines(r);
	text_pairs(r);
	text_sched(r);
	text_frames(r);
	text_oa(r);
	text_ranges(r);
}

