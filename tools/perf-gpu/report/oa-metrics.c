// SPDX-License-Identifier: GPL-2.0-only
/*
 * The metric set of a recording's OA reports, and its counters on the
 * summed deltas of a report row (report/oa-metrics.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/oa-metrics.h"

static const char *str_or_empty(const char *s)
{
	return s ? s : "";
}

/* Keep @ev in @d: the trace's strings and bytes go at the next event. */
static int device_copy(struct report_oa_device *d, const struct gpu_event *ev)
{
	uint32_t size = ev->oa_device.topology ? ev->oa_device.topology_size : 0;
	uint8_t *topology = NULL;

	if (size) {
		topology = malloc(size);
		if (!topology)
			return -1;
		memcpy(topology, ev->oa_device.topology, size);
	}
	free(d->topology);
	d->ev = *ev;
	d->ev.name = NULL;
	d->ev.comm = NULL;
	snprintf(d->set, sizeof(d->set), "%s", str_or_empty(ev->oa_device.metric_set));
	snprintf(d->uuid, sizeof(d->uuid), "%s", str_or_empty(ev->oa_device.metric_uuid));
	d->topology = topology;
	d->ev.oa_device.metric_set = d->set;
	d->ev.oa_device.metric_uuid = d->uuid;
	d->ev.oa_device.topology = topology;
	d->ev.oa_device.topology_size = size;
	return 0;
}

/* What the equations depend on: the device, its set, its topology. */
static bool device_same(const struct report_oa_device *a,
			const struct report_oa_device *b)
{
	const typeof(a->ev.oa_device) *x = &a->ev.oa_device, *y = &b->ev.oa_device;

	return x->device_id == y->device_id && x->revision == y->revision &&
	       x->timestamp_frequency == y->timestamp_frequency &&
	       x->gt_min_hz == y->gt_min_hz && x->gt_max_hz == y->gt_max_hz &&
	       !strcmp(a->set, b->set) && !strcmp(a->uuid, b->uuid) &&
	       x->topology_size == y->topology_size &&
	       (!x->topology_size || !memcmp(a->topology, b->topology, x->topology_size));
}

static void device_describe(const struct report_oa_device *d, char *buf,
			    size_t size)
{
	snprintf(buf, size, "metric set %s%s%s%s on device 0x%04x rev %u",
		 d->set[0] ? d->set : "(unnamed)", d->uuid[0] ? " (" : "",
		 d->uuid, d->uuid[0] ? ")" : "", d->ev.oa_device.device_id,
		 d->ev.oa_device.revision);
}

static void on_report(struct report_oa_metrics *om)
{
	if (!om->have_newest) {
		om->report_without_device = true;
		return;
	}
	if (!om->have_used) {
		if (device_copy(&om->used, &om->newest.ev))
			om->oom = true;
		else
			om->have_used = true;
		return;
	}
	if (!om->mixed && !device_same(&om->used, &om->newest)) {
		om->mixed = true;
		device_describe(&om->newest, om->other, sizeof(om->other));
	}
}

void report_oa_metrics_event(struct report_oa_metrics *om,
			     const struct gpu_event *ev)
{
	if (ev->kind == GPU_EV_OA_DEVICE) {
		if (device_copy(&om->newest, ev))
			om->oom = true;
		else
			om->have_newest = true;
	} else if (ev->kind == GPU_EV_OA_REPORT) {
		on_report(om);
	}
}

int report_oa_metrics_finish(struct report_oa_metrics *om, char *err,
			     size_t err_size)
{
	char used[384];
	int n;

	if (om->oom) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	/* A device event and no reports: the rows are all zero, but valid. */
	if (!om->have_used && om->have_newest && !om->report_without_device) {
		if (device_copy(&om->used, &om->newest.ev)) {
			snprintf(err, err_size, "out of memory");
			return -1;
		}
		om->have_used = true;
	}
	if (!om->have_used) {
		snprintf(err, err_size,
			 "--oa-metrics: the recording has no gpu_oa:oa_device event: its metric set is not known");
		return -1;
	}
	device_describe(&om->used, used, sizeof(used));
	if (om->report_without_device) {
		snprintf(err, err_size,
			 "--oa-metrics: OA reports before the recording's gpu_oa:oa_device event, and reports of %s: derived metrics need one metric set",
			 used);
		return -1;
	}
	if (om->mixed) {
		snprintf(err, err_size,
			 "--oa-metrics: the recording's OA reports are of %s and of %s: derived metrics need one metric set on one device",
			 used, om->other);
		return -1;
	}
	om->m = malloc(sizeof(*om->m));
	if (!om->m) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	if (oa_metrics_init_event(om->m, &om->used.ev)) {
		snprintf(err, err_size,
			 "--oa-metrics: the recording's metric set %s on device 0x%04x has no equations here",
			 om->used.set[0] ? om->used.set : om->used.uuid,
			 om->used.ev.oa_device.device_id);
		return -1;
	}
	n = oa_metrics_select(om->m, om->list, om->idx, OA_METRICS_MAX_COUNTERS,
			      err, err_size);
	if (n < 0)
		return -1;
	om->n = n;
	return 0;
}

const char *report_oa_metrics_set(const struct report_oa_metrics *om)
{
	return oa_metric_str(om->m->set->symbol);
}

uint32_t report_oa_metrics_device(const struct report_oa_metrics *om)
{
	return om->used.ev.oa_device.device_id;
}

void report_oa_metrics_compute(struct report_oa_metrics *om,
			       const struct gpuprof_oa_deltas *d)
{
	oa_metrics_compute(om->m, d);
}

const char *report_oa_metrics_name(const struct report_oa_metrics *om,
				   unsigned int i)
{
	return oa_metric_str(oa_metrics_counter(om->m, om->idx[i])->symbol);
}

const struct oa_metric_value *
report_oa_metrics_value(const struct report_oa_metrics *om, unsigned int i)
{
	return oa_metrics_value(om->m, om->idx[i]);
}

int report_oa_metrics_format(const struct report_oa_metrics *om,
			     unsigned int i, char *buf, size_t size)
{
	return oa_metrics_format(om->m, om->idx[i], buf, size);
}

void report_oa_metrics_free(struct report_oa_metrics *om)
{
	free(om->newest.topology);
	free(om->used.topology);
	free(om->m);
	om->newest.topology = NULL;
	om->used.topology = NULL;
	om->m = NULL;
}
