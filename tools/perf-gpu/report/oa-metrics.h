/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf gpu report --oa-metrics: the counters of the recording's metric
 * set (GpuBusy, EuActive, ...) for each OA row of the report, computed
 * by oa/metrics.c from the row's summed deltas.  Summing the deltas and
 * applying each equation once is how IGT's i915-perf-reader aggregates
 * reports; an average of per-report percentages would weigh a short
 * report like a long one.
 *
 * The set is that of the gpu_oa:oa_device event in effect when the
 * reports came: report_oa_metrics_event() sees every event of the
 * recording (a report/model.h hook), keeps a copy of the newest device
 * event and notes the one the first report came under, and whether a
 * later report came under another one (or under none).  After the
 * recording is read, report_oa_metrics_finish() checks all that,
 * compiles the set and picks the columns; rows are then computed from
 * their sums at print time, with nothing allocated per report or row.
 */
#ifndef PERF_GPU_REPORT_OA_METRICS_H
#define PERF_GPU_REPORT_OA_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../../module/oa_decode.h"
#include "oa/metrics.h"
#include "perfdata/gpu-trace.h"

/* A gpu_oa:oa_device event, its strings and topology copied. */
struct report_oa_device {
	struct gpu_event ev;
	char set[256], uuid[64];
	uint8_t *topology;	/* allocated, ev.oa_device.topology_size bytes */
};

struct report_oa_metrics {
	const char *list;		/* --oa-metrics: "a,b,c" or "all" */
	struct report_oa_device newest;	/* the device in effect */
	bool have_newest;
	struct report_oa_device used;	/* the first report's */
	bool have_used;
	bool report_without_device;	/* a report before any device */
	bool mixed;			/* a report under another device */
	char other[384];		/* that one, described */
	bool oom;

	/* Set by report_oa_metrics_finish() */
	struct oa_metrics *m;
	unsigned int idx[OA_METRICS_MAX_COUNTERS];	/* columns */
	unsigned int n;
};

/* Take one event of the recording (every kind; only OA ones matter). */
void report_oa_metrics_event(struct report_oa_metrics *om,
			     const struct gpu_event *ev);

/*
 * After the recording: the set and the columns of om->list.  0, or -1
 * with a one-line reason in @err (no device event, a set the table
 * lacks, two sets, an unknown name, out of memory).
 */
int report_oa_metrics_finish(struct report_oa_metrics *om, char *err,
			     size_t err_size);

/* The set's symbol and its device, for a heading. */
const char *report_oa_metrics_set(const struct report_oa_metrics *om);
uint32_t report_oa_metrics_device(const struct report_oa_metrics *om);

/* Every column on @d; then read them with the two functions below. */
void report_oa_metrics_compute(struct report_oa_metrics *om,
			       const struct gpuprof_oa_deltas *d);

/* Column @i's symbol and last computed value. */
const char *report_oa_metrics_name(const struct report_oa_metrics *om,
				   unsigned int i);
const struct oa_metric_value *
report_oa_metrics_value(const struct report_oa_metrics *om, unsigned int i);

/* Column @i's value as i915-perf-reader prints it ("%" PRIu64, "%f"). */
int report_oa_metrics_format(const struct report_oa_metrics *om,
			     unsigned int i, char *buf, size_t size);

void report_oa_metrics_free(struct report_oa_metrics *om);

#endif
