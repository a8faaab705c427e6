// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof-oa --device on xe (see oa/xe.h).  Facts about xe are those of
 * Linux 6.12's xe_oa.c, xe_query.c and xe_observation.c, and what 7.3's
 * changed (its OA unit types, gt_id); none of this ran on Intel hardware
 * here, only against selftests/xe-shim/.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../../module/oa_decode.h"
#include "oa/drm-node.h"
#include "oa/metric-sets.h"
#include "oa/writer.h"
#include "oa/xe.h"
#include "util/debug.h"
#include "util/file.h"

/* Reports per read() at first; the buffer grows by doubling. */
#define OA_XE_READ_REPORTS	256
/* Reads per drain, then back to the caller and its clock. */
#define OA_XE_DRAIN_READS	64

/* The node given with --node: it must be there and be xe's. */
static int oa_xe_open_node(struct oa_xe *d, const char *node)
{
	char name[32];

	snprintf(d->node, sizeof(d->node), "%s", node);
	d->fd = open(node, O_RDWR | O_CLOEXEC);
	if (d->fd < 0) {
		pr_err("%s: %s\n", node, strerror(errno));
		return -1;
	}
	oa_node_driver_name(d->fd, name, sizeof(name));
	if (!strcmp(name, OA_XE_DRIVER_NAME))
		return 0;
	if (name[0])
		pr_err("no Intel GPU (xe) found: %s is driven by %s, not xe\n",
		       node, name);
	else
		pr_err("no Intel GPU (xe) found: %s is not a DRM device\n",
		       node);
	return -1;
}

/*
 * DEVICE_QUERY @query into a malloc'ed reply of *@size bytes, asked for
 * in two calls as xe wants: the size, then the data.  NULL (and errno)
 * on failure.
 */
static void *oa_xe_query(const struct oa_xe *d, uint32_t query, size_t *size)
{
	struct oa_xe_device_query q = { .query = query };
	void *buf;

	if (oa_node_ioctl(d->fd, OA_XE_IOCTL_DEVICE_QUERY, &q))
		return NULL;
	if (!q.size) {
		errno = ENODATA;
		return NULL;
	}
	buf = calloc(1, q.size);
	if (!buf)
		return NULL;
	q.data = (uintptr_t)buf;
	if (oa_node_ioctl(d->fd, OA_XE_IOCTL_DEVICE_QUERY, &q)) {
		free(buf);
		return NULL;
	}
	*size = q.size;
	return buf;
}

/* Device id and revision (QUERY_CONFIG). */
static int oa_xe_config(struct oa_xe *d)
{
	struct oa_xe_query_config *c;
	size_t size;
	uint64_t v;

	c = oa_xe_query(d, OA_XE_QUERY_CONFIG, &size);
	if (!c) {
		pr_err("%s: DRM_XE_DEVICE_QUERY_CONFIG: %s\n", d->node,
		       strerror(errno));
		return -1;
	}
	if (size < sizeof(*c) + sizeof(c->info[0]) || !c->num_params) {
		pr_err("%s: DRM_XE_DEVICE_QUERY_CONFIG gave no device id\n",
		       d->node);
		free(c);
		return -1;
	}
	v = c->info[OA_XE_CONFIG_REV_AND_DEVICE_ID];
	d->device_id = v & 0xffff;
	d->revision = (v >> 16) & 0xff;
	free(c);
	return 0;
}

/*
 * The unit asked for is of a type gpuprof does not record: 7.3's OAM_SAG
 * (the media GT's SAG unit, listed with no engine, so no engine clock to
 * correlate with and no IGT metric set made for it), its MERT (the
 * SoC's), or one newer than 7.3.  Say so by name, and which units are
 * OAG or OAM.
 */
static void oa_xe_refuse_unit(const struct oa_xe *d, const void *units,
			      size_t size)
{
	const char *name = oa_xe_unit_type_name(d->unit.type);
	uint32_t i, n = oa_xe_unit_count(units, size);
	char list[128] = "";
	struct oa_xe_unit u;
	size_t off = 0;
	int k;

	/* xe numbers its units 0 on, without gaps. */
	for (i = 0; i < n && off < sizeof(list); i++) {
		if (oa_xe_unit_find(units, size, i, &u) != OA_XE_UNIT_FOUND ||
		    (u.type != OA_XE_OA_UNIT_TYPE_OAG &&
		     u.type != OA_XE_OA_UNIT_TYPE_OAM))
			continue;
		k = snprintf(list + off, sizeof(list) - off, "%s%u (%s)",
			     off ? ", " : "", i, oa_xe_unit_type_name(u.type));
		if (k < 0)
			break;
		off += k;
	}
	if (name)
		pr_err("%s: OA unit %u is xe's %s unit, which gpuprof does not record from: it records OAG and OAM units (here %s)\n",
		       d->node, d->unit.id, name, list[0] ? list : "none");
	else
		pr_err("%s: OA unit %u is of type %u, which gpuprof does not know (xe of Linux 7.3 has types 0 to 3): it records OAG and OAM units (here %s)\n",
		       d->node, d->unit.id, d->unit.type, list[0] ? list : "none");
}

/* The chosen unit (QUERY_OA_UNITS). */
static int oa_xe_find_unit(struct oa_xe *d, uint32_t unit_id)
{
	enum oa_xe_unit_result r;
	size_t size;
	void *units;

	units = oa_xe_query(d, OA_XE_QUERY_OA_UNITS, &size);
	if (!units) {
		pr_err("%s: xe has no OA here: DRM_XE_DEVICE_QUERY_OA_UNITS: %s (Linux 6.12 or later is needed)\n",
		       d->node, strerror(errno));
		return -1;
	}
	r = oa_xe_unit_find(units, size, unit_id, &d->unit);
	if (r == OA_XE_UNIT_ABSENT) {
		uint32_t n = oa_xe_unit_count(units, size);

		if (n)
			pr_err("%s: there is no OA unit %u: xe lists %u (--oa-unit 0 to %u)\n",
			       d->node, unit_id, n, n - 1);
		else
			pr_err("%s: xe lists no OA unit: OA is not initialised on this device (it needs GuC submission, and no SR-IOV VF)\n",
			       d->node);
	} else if (r == OA_XE_UNIT_MALFORMED) {
		pr_err("%s: DRM_XE_DEVICE_QUERY_OA_UNITS gave a unit that runs past its reply\n",
		       d->node);
	} else if (d->unit.type != OA_XE_OA_UNIT_TYPE_OAG &&
		   d->unit.type != OA_XE_OA_UNIT_TYPE_OAM) {
		oa_xe_refuse_unit(d, units, size);
		r = OA_XE_UNIT_ABSENT;
	} else if (!d->unit.num_engines) {
		pr_err("%s: OA unit %u has no engine, so xe cannot open a stream on it\n",
		       d->node, unit_id);
		r = OA_XE_UNIT_ABSENT;
	} else if (!d->unit.timestamp_hz) {
		pr_err("%s: xe gives OA unit %u no timestamp frequency\n",
		       d->node, unit_id);
		r = OA_XE_UNIT_ABSENT;
	}
	free(units);
	if (r != OA_XE_UNIT_FOUND)
		return -1;
	d->timestamp_hz = d->unit.timestamp_hz;
	return 0;
}

/* The reference clock and tile of the unit's GT (QUERY_GT_LIST). */
static int oa_xe_gt(struct oa_xe *d)
{
	struct oa_xe_query_gt_list *l;
	size_t size, i, n;

	l = oa_xe_query(d, OA_XE_QUERY_GT_LIST, &size);
	if (!l) {
		pr_err("%s: DRM_XE_DEVICE_QUERY_GT_LIST: %s\n", d->node,
		       strerror(errno));
		return -1;
	}
	n = size < sizeof(*l) ? 0 : (size - sizeof(*l)) / sizeof(l->gt_list[0]);
	if (n > l->num_gt)
		n = l->num_gt;
	for (i = 0; i < n; i++) {
		if (l->gt_list[i].gt_id != d->unit.gt_id)
			continue;
		d->ref_clock_hz = l->gt_list[i].reference_clock;
		d->tile_id = l->gt_list[i].tile_id;
	}
	free(l);
	if (!d->ref_clock_hz) {
		pr_err("%s: DRM_XE_DEVICE_QUERY_GT_LIST gives no reference clock for GT %u\n",
		       d->node, d->unit.gt_id);
		return -1;
	}
	return 0;
}

/*
 * The unit's GT's topology, for the DEVICE_TOPOLOGY record that metric
 * equations counting Xe cores and vector engines read.  Not having it
 * fails nothing: the recording goes without the record and
 * topology_why says why.
 */
static void oa_xe_topology_query(struct oa_xe *d)
{
	void *reply;
	size_t size;

	reply = oa_xe_query(d, OA_XE_QUERY_GT_TOPOLOGY, &size);
	if (!reply) {
		d->topology_why = "xe did not answer DEVICE_QUERY GT_TOPOLOGY";
		return;
	}
	d->topology_len = oa_xe_topology(reply, size, d->unit.gt_id,
					 d->topology, sizeof(d->topology));
	if (!d->topology_len)
		d->topology_why = "xe's GT_TOPOLOGY reply has no DSS or EU mask of the unit's GT";
	free(reply);
}

/*
 * The GT's frequency limits, where xe has them: min_freq and max_freq
 * (MHz) of card/device/tile<T>/gt<G>/freq0.  Absent on some parts.
 */
static uint32_t oa_xe_gt_freq(const struct oa_xe *d, const char *file)
{
	char rel[96];

	snprintf(rel, sizeof(rel), "device/tile%u/gt%u/freq0/%s",
		 d->tile_id, d->unit.gt_id, file);
	return oa_node_gt_freq(d->card, rel);
}

/**
 * oa_xe_open - open an xe render node and learn what it is
 * @d: filled in
 * @node: the node's path, or NULL for the first xe render node
 * @unit_id: the OA unit to stream from (--oa-unit; 0 is the main GT's)
 */
int oa_xe_open(struct oa_xe *d, const char *node, uint32_t unit_id)
{
	memset(d, 0, sizeof(*d));
	d->fd = -1;
	if (node) {
		if (oa_xe_open_node(d, node))
			goto fail;
	} else {
		d->fd = oa_node_find(OA_XE_DRIVER_NAME, d->node,
				     sizeof(d->node));
		if (d->fd < 0) {
			pr_err("no Intel GPU (xe) found: no /dev/dri/renderD* node is driven by xe (give one with --node)\n");
			goto fail;
		}
	}
	if (oa_xe_config(d))
		goto fail;
	d->platform = gpuprof_oa_platform_of_device(d->device_id);
	d->kernel = oa_node_running_kernel();
	if (!d->platform || !d->platform->xe_since) {
		pr_err("%s: device 0x%04x is not a GPU whose xe OA reports gpuprof knows (Lunar Lake, Battlemage, Panther Lake)\n",
		       d->node, d->device_id);
		goto fail;
	}
	if (oa_xe_find_unit(d, unit_id) || oa_xe_gt(d))
		goto fail;
	oa_xe_topology_query(d);
	oa_node_card(d->node, d->card, sizeof(d->card));
	d->gt_min_hz = oa_xe_gt_freq(d, "min_freq");
	d->gt_max_hz = oa_xe_gt_freq(d, "max_freq");
	return 0;
fail:
	oa_xe_close(d);
	return -1;
}

void oa_xe_close(struct oa_xe *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

/* The table's registers go to ADD_CONFIG as they are. */
_Static_assert(sizeof(struct oa_metric_reg) == sizeof(struct oa_xe_oa_reg) &&
	       offsetof(struct oa_metric_reg, value) ==
	       offsetof(struct oa_xe_oa_reg, value),
	       "struct oa_metric_reg is not xe's {addr, value} pair");

/*
 * What the metric-set table knows of an xe set beyond its name: the
 * report format it is read with (0: the unit's default) and the
 * registers ADD_CONFIG programs it with (none: it cannot be registered).
 */
static void oa_xe_set_config(const struct oa_metric_set *set,
			     uint32_t *format, const struct oa_metric_reg **regs,
			     uint32_t *n_regs)
{
	unsigned int n;

	*format = oa_metric_set_format(set);
	*regs = oa_metric_set_regs(set, &n);
	*n_regs = n;
}

/*
 * Register @m's set with xe (OBSERVATION_OP_ADD_CONFIG) and take its id:
 * xe ships no configurations, so a set is there only once someone added
 * it.  One added meanwhile by another program (EADDRINUSE) is as good.
 */
static int oa_xe_add_config(const struct oa_xe *d, struct oa_i915_metric *m,
			    const struct oa_metric_reg *regs, uint32_t n_regs)
{
	struct oa_xe_oa_config c = {
		.n_regs = n_regs, .regs_ptr = (uintptr_t)regs,
	};
	struct oa_xe_observation_param p = {
		.observation_type = OA_XE_OBSERVATION_TYPE_OA,
		.observation_op = OA_XE_OBSERVATION_OP_ADD_CONFIG,
		.param = (uintptr_t)&c,
	};
	int ret;

	memcpy(c.uuid, m->uuid, sizeof(c.uuid));
	ret = oa_node_ioctl(d->fd, OA_XE_IOCTL_OBSERVATION, &p);
	if (ret > 0) {
		m->id = ret;
		return 0;
	}
	if (ret == 0)
		errno = EPROTO;
	if (errno == EADDRINUSE && !oa_node_set_id(d->card, m->uuid, &m->id))
		return 0;
	if (errno == EACCES || errno == EPERM)
		pr_err("%s: not allowed to register metric set %s (%s) with xe: that needs CAP_PERFMON (or root) while dev.xe.observation_paranoid is 1 (sysctl dev.xe.observation_paranoid=0 lifts it)\n",
		       d->node, m->name, m->uuid);
	else
		pr_err("%s: xe refused to register metric set %s (%s), %u registers: %s\n",
		       d->node, m->name, m->uuid, n_regs, strerror(errno));
	return -1;
}

/**
 * oa_xe_metric_set - the metric set @arg names, its kernel id and format
 * @d: the device; its report format is set from the set
 * @arg: a set's name in the table of the device's GPU (oa/metric-sets.h),
 *	or a uuid
 * @m: filled in; the name is the table's, else the uuid
 *
 * xe knows sets by uuid, in <card>/metrics/UUID/id, and has none of its
 * own: a set it does not have yet is registered when the table holds its
 * registers.
 */
int oa_xe_metric_set(struct oa_xe *d, const char *arg,
		     struct oa_i915_metric *m)
{
	const struct oa_metric_platform *metrics;
	const struct oa_metric_set *set;
	const struct oa_metric_reg *regs = NULL;
	const struct oa_xe_format *f;
	struct gpuprof_oa_layout l;
	struct gpuprof_oa_driver drv = {
		.kernel = d->kernel, .submission = GPUPROF_OA_SUBMISSION_GUC,
		.driver = GPUPROF_OA_DRIVER_XE,
	};
	uint32_t format = 0, n_regs = 0;
	uint8_t u[16];
	int err;

	memset(m, 0, sizeof(*m));
	metrics = oa_i915_metrics_of(d->device_id);
	if (oa_metric_uuid_parse(arg, u)) {
		oa_metric_uuid_format(u, m->uuid);
		set = oa_metric_set_by_uuid(metrics, m->uuid);
	} else {
		set = oa_metric_set_find(metrics, arg);
		if (!set) {
			if (metrics)
				pr_err("metric set '%s' is not one of IGT's %s sets (device 0x%04x)\n",
				       arg, metrics->name, d->device_id);
			else
				pr_err("metric set '%s' is not known: gpuprof has no metric sets for device 0x%04x, so give a uuid\n",
				       arg, d->device_id);
			return -1;
		}
		oa_metric_uuid_format(set->uuid, m->uuid);
	}
	snprintf(m->name, sizeof(m->name), "%s",
		 set ? oa_metric_str(set->symbol) : m->uuid);
	if (set)
		oa_xe_set_config(set, &format, &regs, &n_regs);

	/* The format first: a set the unit cannot read is not registered. */
	d->format = format ? format :
		    oa_xe_default_format(d->platform->ip, d->unit.type);
	f = oa_xe_format_of(d->platform->ip, d->format);
	if (!f || !oa_xe_format_fits_unit(f, d->unit.type)) {
		pr_err("%s: metric set %s is read with report format %u, which OA unit %u (%s) of this GPU does not offer: choose another unit (--oa-unit) or set\n",
		       d->node, m->name, d->format, d->unit.id,
		       d->unit.type == OA_XE_OA_UNIT_TYPE_OAM ? "media, OAM" : "OAG");
		return -1;
	}
	if (!gpuprof_oa_layout_of(d->device_id, d->format, &drv, &l)) {
		pr_err("%s: report format %u of xe on device 0x%04x is not one gpuprof decodes\n",
		       d->node, d->format, d->device_id);
		return -1;
	}
	d->format_value = oa_xe_format_value(f);
	d->report_size = l.size;

	if (!d->card[0]) {
		pr_err("%s: its card's sysfs directory was not found under %s/class/drm: cannot look up metric set ids\n",
		       d->node, oa_node_sysfs_root());
		return -1;
	}
	err = oa_node_set_id(d->card, m->uuid, &m->id);
	if (!err)
		return 0;
	if (err != -ENOENT) {
		pr_err("%s/metrics/%s/id: %s\n", d->card, m->uuid,
		       strerror(-err));
		return -1;
	}
	if (!n_regs) {
		oa_i915_no_set(d->card, metrics, false,
			       "metric set %s (%s) is not registered with xe, and gpuprof does not know its registers to register it",
			       m->name, m->uuid);
		return -1;
	}
	return oa_xe_add_config(d, m, regs, n_regs);
}

/* One line on why xe refused the stream. */
static void oa_xe_explain_open(const struct oa_xe *d,
			       const struct oa_i915_metric *m, int err,
			       unsigned int exponent)
{
	switch (err) {
	case EACCES:
	case EPERM:
		pr_err("%s: not allowed to open a system-wide xe OA stream: that needs CAP_PERFMON (or root) while dev.xe.observation_paranoid is 1 (sysctl dev.xe.observation_paranoid=0 lifts it)\n",
		       d->node);
		break;
	case EBUSY:
		pr_err("%s: OA unit %u is in use: xe allows one stream per unit; stop the other OA user (gputop, IGT, a GPU profiler) first, or take another unit (--oa-unit)\n",
		       d->node, d->unit.id);
		break;
	case ENODEV:
		pr_err("no Intel GPU (xe) found with OA: %s has no OA support in this kernel (ENODEV)\n",
		       d->node);
		break;
	case EINVAL:
		/* Unit, exponent and format were checked against xe's rules
		 * here: the metric set id is what can go stale. */
		pr_err("%s: xe refused the stream properties (EINVAL): most likely the metric set, id %llu of %s (%s), is not a configuration for this GPU; the others were OA unit %u, report format %u (xe's 0x%08x) and exponent %u\n",
		       d->node, (unsigned long long)m->id, m->name, m->uuid,
		       d->unit.id, d->format, d->format_value, exponent);
		break;
	default:
		pr_err("%s: opening the xe OA stream: %s\n", d->node,
		       strerror(err));
		break;
	}
}

/**
 * oa_xe_stream_open - open a system-wide OA stream on the device's unit
 * @d: the device, its metric set chosen (oa_xe_metric_set())
 * @m: the metric set
 * @exponent: the OA exponent (oa_sim_exponent_for_period())
 *
 * Return: the stream fd, made close-on-exec and non-blocking (xe sets
 * neither), or -1.
 */
int oa_xe_stream_open(const struct oa_xe *d, const struct oa_i915_metric *m,
		      unsigned int exponent)
{
	static const uint32_t ids[] = {
		OA_XE_PROP_OA_UNIT_ID, OA_XE_PROP_SAMPLE_OA,
		OA_XE_PROP_OA_METRIC_SET, OA_XE_PROP_OA_FORMAT,
		OA_XE_PROP_OA_PERIOD_EXPONENT,
	};
	const uint64_t values[] = {
		d->unit.id, 1, m->id, d->format_value, exponent,
	};
	struct oa_xe_ext_set_property props[ARRAY_SIZE(ids)];
	struct oa_xe_observation_param p = {
		.observation_type = OA_XE_OBSERVATION_TYPE_OA,
		.observation_op = OA_XE_OBSERVATION_OP_STREAM_OPEN,
		.param = (uintptr_t)props,
	};
	int fd, fl;
	size_t i;

	memset(props, 0, sizeof(props));
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		props[i].base.name = OA_XE_EXTENSION_SET_PROPERTY;
		if (i + 1 < ARRAY_SIZE(ids))
			props[i].base.next_extension = (uintptr_t)&props[i + 1];
		props[i].property = ids[i];
		props[i].value = values[i];
	}
	fd = oa_node_ioctl(d->fd, OA_XE_IOCTL_OBSERVATION, &p);
	if (fd < 0) {
		oa_xe_explain_open(d, m, errno, exponent);
		return -1;
	}
	fl = fcntl(fd, F_GETFL);
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) || fl < 0 ||
	    fcntl(fd, F_SETFL, fl | O_NONBLOCK)) {
		pr_err("%s: making the xe OA stream close-on-exec and non-blocking: %s\n",
		       d->node, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/**
 * oa_xe_write_header - the records a recording of @d starts with
 * @d: the device
 * @m: the metric set its stream was opened with
 * @w: the recording
 *
 * VERSION, DRIVER (xe, GuC, this kernel), DEVICE_INFO and, when xe gave
 * the unit's GT's topology, DEVICE_TOPOLOGY in i915's layout (as the
 * i915 path writes it).  A write failure sticks in @w.
 */
void oa_xe_write_header(const struct oa_xe *d, const struct oa_i915_metric *m,
			struct oa_writer *w)
{
	struct gpuprof_oa_driver drv = {
		.kernel = d->kernel, .submission = GPUPROF_OA_SUBMISSION_GUC,
		.driver = GPUPROF_OA_DRIVER_XE,
	};
	struct gpuprof_oa_device_info info;

	memset(&info, 0, sizeof(info));
	info.timestamp_frequency = d->timestamp_hz;
	info.device_id = d->device_id;
	info.device_revision = d->revision;
	info.gt_min_frequency = d->gt_min_hz;
	info.gt_max_frequency = d->gt_max_hz;
	/* xe numbers engine classes as i915 does (render 0, compute 4). */
	info.engine_class = d->unit.engine.engine_class;
	info.engine_instance = d->unit.engine.engine_instance;
	info.oa_format = d->format;
	snprintf(info.metric_set_name, sizeof(info.metric_set_name), "%s",
		 m->name);
	snprintf(info.metric_set_uuid, sizeof(info.metric_set_uuid), "%s",
		 m->uuid);
	oa_write_version(w);
	/* Before DEVICE_INFO, so readers apply xe's rules to every report. */
	oa_write_record(w, GPUPROF_OA_RECORD_DRIVER, &drv, sizeof(drv));
	oa_write_device_info(w, &info);
	if (d->topology_len)
		oa_write_topology(w, (const void *)d->topology,
				  d->topology_len);
}

/*
 * A correlation point of CLOCK_MONOTONIC and the OA timestamp, from
 * QUERY_ENGINE_CYCLES on the unit's first engine: xe samples the CPU
 * clock right before reading the engine's RING_TIMESTAMP and says how
 * long the read took (cpu_delta).  Of three tries the narrowest wins; the
 * point is the middle of its window.  The cycles run at the GT reference
 * clock and are @width bits wide (36 before Xe2): they are extended to
 * 64 bits against the previous point (points come at least every second,
 * far below a wrap), then turned into OA timestamp ticks, whose low bits
 * are those of the reports of the same instant.
 */
static int oa_xe_correlate(struct oa_xe *d, uint64_t *cpu_ns,
			   uint64_t *gpu_ts, uint64_t *window_ns)
{
	struct oa_xe_query_engine_cycles c, best = { 0 };
	struct oa_xe_device_query q = {
		.query = OA_XE_QUERY_ENGINE_CYCLES, .size = sizeof(c),
		.data = (uintptr_t)&c,
	};
	uint64_t best_w = UINT64_MAX;
	int i;

	for (i = 0; i < 3; i++) {
		memset(&c, 0, sizeof(c));
		c.eci = d->unit.engine;
		c.clockid = CLOCK_MONOTONIC;
		if (oa_node_ioctl(d->fd, OA_XE_IOCTL_DEVICE_QUERY, &q)) {
			pr_err("%s: DRM_XE_DEVICE_QUERY_ENGINE_CYCLES: %s: no clock correlation is possible\n",
			       d->node, strerror(errno));
			return -1;
		}
		if (c.cpu_delta < best_w) {
			best_w = c.cpu_delta;
			best = c;
		}
	}
	d->last_cycles = d->have_cycles ?
			 oa_xe_cycles_unwrap(d->last_cycles, best.engine_cycles,
					     best.width) :
			 best.engine_cycles;
	d->have_cycles = true;
	*cpu_ns = best.cpu_timestamp + best_w / 2;
	*gpu_ts = oa_node_ticks_to_oa(d->last_cycles, d->ref_clock_hz,
				      d->timestamp_hz);
	*window_ns = best_w;
	return 0;
}

/**
 * oa_xe_write_correlation - a correlation point of @d, into @w
 * @d: the device
 * @w: the recording; a write failure sticks in it
 *
 * Return: 0, or -1 when the GPU clock could not be read (message out).
 */
int oa_xe_write_correlation(struct oa_xe *d, struct oa_writer *w)
{
	uint64_t cpu, gpu, window;

	if (oa_xe_correlate(d, &cpu, &gpu, &window))
		return -1;
	oa_write_correlation(w, cpu, gpu, window);
	return 0;
}

/*
 * read() failed with EIO: xe saw losses and says which in STATUS.  Each
 * becomes its record; the status bits without one are said once.
 */
static int oa_xe_status(struct oa_xe *d, int stream, oa_i915_record_fn fn,
			void *arg)
{
	struct oa_xe_oa_stream_status st = { 0 };
	uint32_t rec[2];
	unsigned int i, n;
	uint64_t new;

	if (oa_node_ioctl(stream, OA_XE_STREAM_IOCTL_STATUS, &st)) {
		pr_err("%s: the xe OA stream failed (EIO), and its status could not be read: %s\n",
		       d->node, strerror(errno));
		return -1;
	}
	n = oa_xe_status_records(st.oa_status, rec);
	for (i = 0; i < n; i++)
		fn(arg, rec[i], NULL, 0);
	new = st.oa_status & OA_XE_STATUS_NOTED & ~d->noted;
	if (new & OA_XE_OASTATUS_COUNTER_OVERFLOW)
		pr_err("warning: %s: xe says an OA counter overflowed (COUNTER_OVERFLOW): a delta around it is off\n",
		       d->node);
	if (new & OA_XE_OASTATUS_MMIO_TRG_Q_FULL)
		pr_err("warning: %s: xe says the OA MMIO trigger queue was full (MMIO_TRG_Q_FULL): triggered reports were dropped\n",
		       d->node);
	d->noted |= new;
	return 0;
}

/**
 * oa_xe_drain - the reports and losses an xe OA stream holds now
 * @d: the device
 * @stream: its stream, from oa_xe_stream_open(), non-blocking
 * @b: the read buffer, empty at first; the caller frees b->p
 * @fn: called with a SAMPLE for each report, a REPORT_LOST or
 *	BUFFER_LOST (no payload) for each loss, in order
 * @arg: for @fn
 *
 * xe's read() gives whole reports back to back, with no header; a loss
 * fails it with EIO, nothing copied, and STATUS says what was lost.
 * Reads until the stream has nothing more or OA_XE_DRAIN_READS reads.
 *
 * Return: 0; -1 when the stream failed, with the message out.
 */
int oa_xe_drain(struct oa_xe *d, int stream, struct oa_i915_buf *b,
		oa_i915_record_fn fn, void *arg)
{
	size_t size = d->report_size, off;
	uint8_t *bigger;
	ssize_t n;
	int reads;

	if (!size) {
		pr_err("%s: no report format chosen\n", d->node);
		return -1;
	}
	if (!b->p) {
		b->size = size * OA_XE_READ_REPORTS;
		b->p = malloc(b->size);
		if (!b->p) {
			pr_err("%s\n", strerror(ENOMEM));
			return -1;
		}
	}
	for (reads = 0; reads < OA_XE_DRAIN_READS; reads++) {
		n = read(stream, b->p, b->size);
		if (n > 0) {
			if (n % size) {
				pr_err("%s: the xe OA stream gave %zd bytes, not whole reports of %zu: stopping\n",
				       d->node, n, size);
				return -1;
			}
			for (off = 0; off < (size_t)n; off += size)
				fn(arg, GPUPROF_OA_RECORD_SAMPLE, b->p + off,
				   size);
			continue;
		}
		if (n == 0 || errno == EAGAIN)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno == EIO) {
			if (oa_xe_status(d, stream, fn, arg))
				return -1;
			continue;
		}
		if (errno == ENOSPC && b->size < (16u << 20)) {
			bigger = realloc(b->p, b->size * 2);
			if (!bigger)
				break;
			b->p = bigger;
			b->size *= 2;
			continue;
		}
		break;
	}
	if (reads == OA_XE_DRAIN_READS)
		return 0;
	pr_err("%s: reading the xe OA stream: %s\n", d->node,
	       strerror(errno ? errno : ENOMEM));
	return -1;
}

/* --oa-source's (or gpuprof-oa --oa-source's) driver names. */
int oa_parse_driver(const char *arg, enum oa_driver *d)
{
	if (!strcmp(arg, "i915"))
		*d = OA_DRIVER_I915;
	else if (!strcmp(arg, "xe"))
		*d = OA_DRIVER_XE;
	else
		return -1;
	return 0;
}

/**
 * oa_device_driver - which driver's OA to record
 * @node: the render node given, or NULL
 * @want: what was asked for: one driver, or OA_DRIVER_ANY
 * @got: the answer
 *
 * Asked for any: the given node's driver when it is xe (i915 otherwise,
 * whose open says what is wrong with the node); with no node, the first
 * i915 node's, else the first xe node's.
 *
 * Return: 0, or -1 with the message out when no node of either is there.
 */
int oa_device_driver(const char *node, enum oa_driver want,
		     enum oa_driver *got)
{
	char name[32], path[PATH_MAX];
	int fd;

	*got = want;
	if (want != OA_DRIVER_ANY)
		return 0;
	*got = OA_DRIVER_I915;
	if (node) {
		fd = open(node, O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			oa_node_driver_name(fd, name, sizeof(name));
			close(fd);
			if (!strcmp(name, OA_XE_DRIVER_NAME))
				*got = OA_DRIVER_XE;
		}
		return 0;
	}
	fd = oa_node_find("i915", path, sizeof(path));
	if (fd < 0) {
		fd = oa_node_find(OA_XE_DRIVER_NAME, path, sizeof(path));
		*got = OA_DRIVER_XE;
	}
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	pr_err("no Intel GPU (i915 or xe) found: no /dev/dri/renderD* node is driven by i915 or xe (give one with --node)\n");
	return -1;
}
