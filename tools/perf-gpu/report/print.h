/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The printers of perf gpu report, as perf keeps its own in ui/stdio/:
 * builtin-report.c reads the options, builds the model and selects and
 * sorts the rows; report/print-text.c, print-csv.c and print-json.c write
 * them, with what they share in report/print-common.c.  Kept apart so
 * that the command's flow reads in one file and each format in its own.
 *
 * JSON keys (stable; every time and duration in ns, integers):
 *   file, first_ns, last_ns, span_ns, events,
 *   lost {total, unknown, events {NAME: N}}, notes [TEXT], lacks [WHAT]
 *   ("cgroups": the samples carry no cgroup ids),
 *   totals {JOBS},
 *   clients [{pid, comm, cgroup, client_names, JOBS, oa OA}],
 *   cgroups [{cgroup, id, clients, JOBS}],
 *   timelines [{driver, timeline, JOBS, oa OA}],
 *   pairs [{pid, comm, cgroup, client_names, driver, timeline, JOBS}],
 *   frames [{crtc, vblanks, intervals, mean_interval_ns,
 *            median_interval_ns, p99_interval_ns, max_interval_ns,
 *            missed, flips, flip_intervals, median_flip_interval_ns,
 *            missed_flips}],
 *   oa {reports, deltas, lost, dropped_context_change, dropped_lost,
 *       unknown_size, frequency_hz, total OA, unattributed OA,
 *       no_timeline OA}
 * where JOBS is jobs, unmatched, unsignaled, busy_ns, share_pct (a
 * number with two decimals), latency_ns, queue_ns and run_ns, each
 * {count, mean, p50, p90, p99, max}, and OA is reports, gpu_time_ns, gpu_clock_ticks,
 * avg_gpu_freq_mhz, a [a0..a35], b [b0..b7], c [c0..c7], and with
 * --oa-metrics metrics {SYMBOL: VALUE} (the chosen counters of the
 * recording's metric set, in the order chosen, from the summed deltas:
 * a u64 counter an integer, a double one a number printed with "%f" as
 * i915-perf-reader does, null if not finite); ranges [{..., oa OA}] too.
 *
 * A client's cgroup is the one (v2) its first job was submitted from
 * (the sample's PERF_SAMPLE_CGROUP id, named by the file's CGROUP
 * records; cgroup null when the samples carry none or the file does not
 * name it).  A cgroup's figures are those of its clients' jobs together
 * (busy time their union); cgroups are shown when one of their clients
 * is.  --sort cgroup groups as perf report's does: a Cgroups table in
 * text (also with --cgroup), and in CSV the rows are the cgroups,
 *   cgroup,clients,jobs,unsignaled,busy_ns,...
 * CSV's pairs table ends with the client's cgroup column.
 *
 * Client names: client_names [NAME] is what the DRM clients of the
 * process named themselves (drm-client-name in the recording's fdinfo
 * snapshots, report/names.h), [] when none; CSV's pairs end with them
 * in a client_name column, separated by spaces; text shows a
 * CLIENT_NAME column in the clients' table when one of them has a name.
 * A scheduler row's client_name is its client's, null when none.
 *
 * --oa-metrics in CSV: the table is the OA rows instead of the pairs,
 *   row,pid,comm,driver,timeline,range,reports,gpu_time_ns,
 *   gpu_clock_ticks, then one column per counter named by its symbol;
 * row is client, unattributed, timeline, no_timeline, total or range.
 */
#ifndef PERF_GPU_REPORT_PRINT_H
#define PERF_GPU_REPORT_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "perfdata/gpu-trace.h"
#include "report/model.h"
#include "report/oa-metrics.h"
#include "report/ranges.h"
#include "util/output.h"
#include "util/parse.h"

enum report_sort_key {
	REPORT_SORT_BUSY, REPORT_SORT_JOBS, REPORT_SORT_LATENCY, REPORT_SORT_PID,
	REPORT_SORT_COMM, REPORT_SORT_CGROUP,
};

/* The state of one perf gpu report: its options, model and rows shown. */
struct report {
	const char *input;
	const char *sort_str, *pid_str, *comm_str, *timeline_str, *format_str;
	const char *cgroup_str;		/* --cgroup: a subtree; NULL: all */
	const char *device;
	const char *range_str;
	const char *oa_metrics_str;	/* --oa-metrics; NULL: none */
	bool totals_only;		/* perf gpu stat's view */
	int verbose;
	enum report_sort_key sort;
	enum report_format fmt;
	struct name_list pids, comms, timelines;
	bool human;			/* CSV numbers for a terminal */

	struct gpu_trace *trace;
	struct report_model m;
	struct report_ranges ranges;
	/* --oa-metrics: the ranges' hooks are called through ours. */
	struct report_hooks ranges_hooks;
	struct report_oa_metrics om;
	/* Rows shown, sorted. */
	struct report_client **clients;
	struct report_timeline **tls;
	struct report_pair **pairs;
	struct report_cgroup **cgroups;
	uint32_t nr_clients, nr_tls, nr_pairs, nr_cgroups;
	bool show_cgroups;		/* --sort cgroup or --cgroup: text */
	FILE *out;
};

/* The report of @r's rows to r->out, in one format each. */
void report_print_text(struct report *r);
void report_print_csv(struct report *r);
void report_print_json(struct report *r);

#endif
