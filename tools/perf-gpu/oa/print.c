// SPDX-License-Identifier: GPL-2.0-only
/*
 * OA counter deltas on perf gpu script's oa_report lines.
 *
 * The payload has no format number, only the report's size: the format
 * comes from the gpu_oa:oa_device sample before the reports
 * (script_oa_set_device()).  A recording without one (older perf gpu
 * record) is taken as A32u40_A4u32_B8_C8 (format 10), the one perf gpu
 * record took on gen8 to gen12.10; other sizes then get no deltas rather
 * than wrong ones.  The header fields (reason, context, gpu_time) are
 * the payload's own, printed by its format.
 *
 * The line: " d_ts=N d_clk=N" (OA timestamp and GPU clock ticks between
 * the two reports, what every rate is relative to), then only the
 * counters that moved, as aN= bN= cN=.  A metric set leaves most of
 * its 52 counters at zero, and 52 numbers per line would bury the few
 * that matter; name=value pairs stay greppable and awk-able whichever
 * counters appear.
 *
 * With -F ...,oa-metrics the counters of the recording's metric set
 * follow, every one the device has, in set order, as SYMBOL=VALUE: u64
 * values as integers, doubles with "%f" as IGT's i915-perf-reader prints
 * them (oa/metrics.c computes them as IGT does).
 */
#include <stdlib.h>
#include <string.h>

#include "../../../module/oa_decode.h"
#include "oa/print.h"

static void print_nonzero(FILE *out, char name, const __u64 *v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (v[i])
			fprintf(out, " %c%u=%llu", name, i, (unsigned long long)v[i]);
}

void script_oa_set_device(struct script_oa *st, uint32_t device_id,
			  uint32_t format, const struct gpuprof_oa_driver *drv)
{
	st->have_layout = gpuprof_oa_layout_of(device_id, format, drv,
					       &st->layout);
	st->known = true;
	st->have_last = false;
}

int script_oa_set_metrics(struct script_oa *st,
			  const struct oa_metrics_device *dev,
			  const char *set, const char *uuid)
{
	const struct oa_metric_set *s;

	st->have_metrics = false;
	s = oa_metrics_set_of(dev->device_id, set, uuid);
	if (!s)
		return 0;
	if (!st->metrics) {
		st->metrics = malloc(sizeof(*st->metrics));
		if (!st->metrics)
			return -1;
	}
	st->have_metrics = !oa_metrics_init(st->metrics, s, dev);
	return 0;
}

void script_oa_exit(struct script_oa *st)
{
	free(st->metrics);
	st->metrics = NULL;
	st->have_metrics = false;
}

static void print_metrics(struct oa_metrics *m,
			  const struct gpuprof_oa_deltas *d, FILE *out)
{
	char value[384];
	unsigned int i;

	oa_metrics_compute(m, d);
	for (i = 0; i < m->n; i++) {
		oa_metrics_format(m, i, value, sizeof(value));
		fprintf(out, " %s=%s",
			oa_metric_str(oa_metrics_counter(m, i)->symbol), value);
	}
}

void script_oa_print(struct script_oa *st, const uint8_t *report,
		     uint32_t size, FILE *out)
{
	struct gpuprof_oa_deltas d;

	if (!st->known) {
		st->have_layout = !gpuprof_oa_layout(9,
					GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8,
					&st->layout);
		st->known = true;
	}
	if (!st->have_layout || size != st->layout.size) {
		st->have_last = false;
		return;
	}
	if (st->have_last) {
		memset(&d, 0, sizeof(d));
		gpuprof_oa_accumulate(&st->layout, st->last, report, &d);
		fprintf(out, " d_ts=%llu d_clk=%llu",
			(unsigned long long)d.timestamp,
			(unsigned long long)d.gpu_ticks);
		print_nonzero(out, 'a', d.a, GPUPROF_OA_A_COUNTERS);
		print_nonzero(out, 'b', d.b, GPUPROF_OA_B_COUNTERS);
		print_nonzero(out, 'c', d.c, GPUPROF_OA_C_COUNTERS);
		if (st->have_metrics)
			print_metrics(st->metrics, &d, out);
	}
	memcpy(st->last, report, size);
	st->have_last = true;
}
