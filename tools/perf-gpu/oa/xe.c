// SPDX-License-Identifier: GPL-2.0-only
/*
 * The xe backend of the OA device (oa/device.h, oa_xe_ops): finding an
 * xe render node, asking it what it is and which OA units it has,
 * choosing a metric set (registering it with xe when xe does not have it
 * yet, and removing it at the end), opening an OA stream on one unit
 * through DRM_IOCTL_XE_OBSERVATION, reading its bare reports and losses,
 * and ENGINE_CYCLES for clock correlation: the same records as the i915
 * backend's, plus DRIVER = XE (design.rst 5).  Linux 6.12's uAPI and
 * 7.3's additions, declared in oa/xe-uapi.h; what xe's replies mean is
 * oa/xe-abi.c's.  Facts about xe are those of 6.12's xe_oa.c, xe_query.c
 * and xe_observation.c, and what 7.3's changed (its OA unit types,
 * gt_id); none of this ran on Intel hardware here, only against
 * selftests/xe-shim/.
 *
 * Test hook: $GPUPROF_SYSFS_ROOT replaces "/sys" for every sysfs file
 * read here, as in oa/i915.c, for the ioctl shim of selftests/xe-shim/.
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
#include "oa/device.h"
#include "oa/drm-node.h"
#include "oa/metric-sets.h"
#include "oa/xe-abi.h"
#include "util/debug.h"
#include "util/file.h"

/* Reports per read() at first; the buffer grows by doubling. */
#define OA_XE_READ_REPORTS	256

/* What the backend keeps of an xe device beyond struct oa_device. */
struct oa_xe {
	int fd;				/* the render node */
	struct oa_xe_unit unit;		/* the one streamed from */
	uint32_t ref_clock_hz;		/* its GT's reference clock */
	uint16_t tile_id;		/* of its GT, for sysfs */
	/*
	 * Its GT's GT_TOPOLOGY as struct drm_i915_query_topology_info and
	 * masks (u64s for the struct's alignment); topology_len is 0 when
	 * xe gave none, topology_why then says why.
	 */
	uint64_t topology[128];
	size_t topology_len;
	const char *topology_why;
	uint32_t format_value;		/* xe's encoding of dev->format */
	/* ENGINE_CYCLES, extended to 64 bits. */
	bool have_cycles;
	uint64_t last_cycles;
	/* STATUS bits said once on stderr (OA_XE_STATUS_NOTED). */
	uint64_t noted;
};

/*
 * DEVICE_QUERY @query into a malloc'ed reply of *@size bytes, asked for
 * in two calls as xe wants: the size, then the data.  NULL (and errno)
 * on failure.
 */
static void *oa_xe_query(const struct oa_device *dev, uint32_t query,
			 size_t *size)
{
	const struct oa_xe *d = dev->priv;
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
static int oa_xe_config(struct oa_device *dev)
{
	struct oa_xe_query_config *c;
	size_t size;
	uint64_t v;

	c = oa_xe_query(dev, OA_XE_QUERY_CONFIG, &size);
	if (!c) {
		pr_err("%s: DRM_XE_DEVICE_QUERY_CONFIG: %s\n", dev->node,
		       strerror(errno));
		return -1;
	}
	if (size < sizeof(*c) + sizeof(c->info[0]) || !c->num_params) {
		pr_err("%s: DRM_XE_DEVICE_QUERY_CONFIG gave no device id\n",
		       dev->node);
		free(c);
		return -1;
	}
	v = c->info[OA_XE_CONFIG_REV_AND_DEVICE_ID];
	dev->device_id = v & 0xffff;
	dev->revision = (v >> 16) & 0xff;
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
static void oa_xe_refuse_unit(const struct oa_device *dev, const void *units,
			      size_t size)
{
	const struct oa_xe *d = dev->priv;
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
		       dev->node, d->unit.id, name, list[0] ? list : "none");
	else
		pr_err("%s: OA unit %u is of type %u, which gpuprof does not know (xe of Linux 7.3 has types 0 to 3): it records OAG and OAM units (here %s)\n",
		       dev->node, d->unit.id, d->unit.type, list[0] ? list : "none");
}

/* The chosen unit (QUERY_OA_UNITS). */
static int oa_xe_find_unit(struct oa_device *dev, uint32_t unit_id)
{
	struct oa_xe *d = dev->priv;
	enum oa_xe_unit_result r;
	size_t size;
	void *units;

	units = oa_xe_query(dev, OA_XE_QUERY_OA_UNITS, &size);
	if (!units) {
		pr_err("%s: xe has no OA here: DRM_XE_DEVICE_QUERY_OA_UNITS: %s (Linux 6.12 or later is needed)\n",
		       dev->node, strerror(errno));
		return -1;
	}
	r = oa_xe_unit_find(units, size, unit_id, &d->unit);
	if (r == OA_XE_UNIT_ABSENT) {
		uint32_t n = oa_xe_unit_count(units, size);

		if (n)
			pr_err("%s: there is no OA unit %u: xe lists %u (--oa-unit 0 to %u)\n",
			       dev->node, unit_id, n, n - 1);
		else
			pr_err("%s: xe lists no OA unit: OA is not initialised on this device (it needs GuC submission, and no SR-IOV VF)\n",
			       dev->node);
	} else if (r == OA_XE_UNIT_MALFORMED) {
		pr_err("%s: DRM_XE_DEVICE_QUERY_OA_UNITS gave a unit that runs past its reply\n",
		       dev->node);
	} else if (d->unit.type != OA_XE_OA_UNIT_TYPE_OAG &&
		   d->unit.type != OA_XE_OA_UNIT_TYPE_OAM) {
		oa_xe_refuse_unit(dev, units, size);
		r = OA_XE_UNIT_ABSENT;
	} else if (!d->unit.num_engines) {
		pr_err("%s: OA unit %u has no engine, so xe cannot open a stream on it\n",
		       dev->node, unit_id);
		r = OA_XE_UNIT_ABSENT;
	} else if (!d->unit.timestamp_hz) {
		pr_err("%s: xe gives OA unit %u no timestamp frequency\n",
		       dev->node, unit_id);
		r = OA_XE_UNIT_ABSENT;
	}
	free(units);
	if (r != OA_XE_UNIT_FOUND)
		return -1;
	dev->timestamp_hz = d->unit.timestamp_hz;
	return 0;
}

/* The reference clock and tile of the unit's GT (QUERY_GT_LIST). */
static int oa_xe_gt(struct oa_device *dev)
{
	struct oa_xe *d = dev->priv;
	struct oa_xe_query_gt_list *l;
	size_t size, i, n;

	l = oa_xe_query(dev, OA_XE_QUERY_GT_LIST, &size);
	if (!l) {
		pr_err("%s: DRM_XE_DEVICE_QUERY_GT_LIST: %s\n", dev->node,
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
		       dev->node, d->unit.gt_id);
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
static void oa_xe_topology_query(struct oa_device *dev)
{
	struct oa_xe *d = dev->priv;
	void *reply;
	size_t size;

	reply = oa_xe_query(dev, OA_XE_QUERY_GT_TOPOLOGY, &size);
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
static uint32_t oa_xe_gt_freq(const struct oa_device *dev, const char *file)
{
	const struct oa_xe *d = dev->priv;
	char rel[96];

	snprintf(rel, sizeof(rel), "device/tile%u/gt%u/freq0/%s",
		 d->tile_id, d->unit.gt_id, file);
	return oa_node_gt_freq(dev->card, rel);
}

/* -v: what xe says of the unit, and why no topology. */
static void oa_xe_describe(const struct oa_device *dev)
{
	const struct oa_xe *d = dev->priv;
	char caps[160];

	oa_xe_caps_names(d->unit.capabilities, caps, sizeof(caps));
	pr_err("%s: OA unit %u: %s of GT %u, %llu Hz, capabilities %s\n",
	       dev->node, d->unit.id, oa_xe_unit_type_name(d->unit.type),
	       d->unit.gt_id, (unsigned long long)dev->timestamp_hz, caps);
	if (!d->topology_len)
		pr_err("%s: no DEVICE_TOPOLOGY record: %s\n", dev->node,
		       d->topology_why);
}

/*
 * Open an xe render node (cfg->node, or the first xe drives) and learn
 * what it is, and its OA unit cfg->unit (--oa-unit; 0 is the main GT's):
 * the unit's clock, GT, topology and engine.
 */
static int oa_xe_open(struct oa_device *dev, const struct oa_device_config *cfg)
{
	struct oa_xe *d = calloc(1, sizeof(*d));

	if (!d) {
		pr_err("%s\n", strerror(ENOMEM));
		return -1;
	}
	dev->priv = d;
	d->fd = oa_open_node(OA_XE_DRIVER_NAME, cfg->node, dev->node,
			     sizeof(dev->node));
	if (d->fd < 0 || oa_xe_config(dev))
		return -1;
	dev->platform = gpuprof_oa_platform_of_device(dev->device_id);
	dev->kernel = oa_node_running_kernel();
	if (!dev->platform || !dev->platform->xe_since) {
		pr_err("%s: device 0x%04x is not a GPU whose xe OA reports gpuprof knows (Lunar Lake, Battlemage, Panther Lake)\n",
		       dev->node, dev->device_id);
		return -1;
	}
	if (oa_xe_find_unit(dev, cfg->unit) || oa_xe_gt(dev))
		return -1;
	oa_xe_topology_query(dev);
	oa_node_card(dev->node, dev->card, sizeof(dev->card));
	dev->gt_min_hz = oa_xe_gt_freq(dev, "min_freq");
	dev->gt_max_hz = oa_xe_gt_freq(dev, "max_freq");
	/* xe numbers engine classes as i915 does (render 0, compute 4). */
	dev->engine_class = d->unit.engine.engine_class;
	dev->engine_instance = d->unit.engine.engine_instance;
	dev->drv = (struct gpuprof_oa_driver){
		.kernel = dev->kernel, .submission = GPUPROF_OA_SUBMISSION_GUC,
		.driver = GPUPROF_OA_DRIVER_XE,
	};
	dev->has_drv = true;
	if (cfg->verbose)
		oa_xe_describe(dev);
	return 0;
}

static void oa_xe_close(struct oa_device *dev)
{
	struct oa_xe *d = dev->priv;

	if (!d)
		return;
	if (d->fd >= 0)
		close(d->fd);
	free(d);
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
 * it.  Ours is removed at the end (oa_xe_remove_set()); one added
 * meanwhile by another program (EADDRINUSE) is as good, and is not ours
 * to remove.
 */
static int oa_xe_add_config(const struct oa_device *dev, struct oa_set *m,
			    const struct oa_metric_reg *regs, uint32_t n_regs)
{
	const struct oa_xe *d = dev->priv;
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
		m->added = true;
		return 0;
	}
	if (ret == 0)
		errno = EPROTO;
	if (errno == EADDRINUSE && !oa_node_set_id(dev->card, m->uuid, &m->id))
		return 0;
	if (errno == EACCES || errno == EPERM)
		pr_err("%s: not allowed to register metric set %s (%s) with xe: that needs CAP_PERFMON (or root) while dev.xe.observation_paranoid is 1 (sysctl dev.xe.observation_paranoid=0 lifts it)\n",
		       dev->node, m->name, m->uuid);
	else
		pr_err("%s: xe refused to register metric set %s (%s), %u registers: %s\n",
		       dev->node, m->name, m->uuid, n_regs, strerror(errno));
	return -1;
}

/*
 * The metric set @arg names (a set's name in the table of the device's
 * GPU, oa/metric-sets.h, or a uuid) into dev->set, with its kernel id,
 * and the report format it is read with.  xe knows sets by uuid, in
 * <card>/metrics/UUID/id, and has none of its own: a set it does not
 * have yet is registered when the table holds its registers, and removed
 * at the end (oa_device_close()).
 */
static int oa_xe_metric_set(struct oa_device *dev, const char *arg)
{
	struct oa_xe *d = dev->priv;
	struct oa_set *m = &dev->set;
	const struct oa_metric_platform *metrics;
	const struct oa_metric_set *set;
	const struct oa_metric_reg *regs = NULL;
	const struct gpuprof_oa_format *f;
	struct gpuprof_oa_layout l;
	struct gpuprof_oa_driver drv = {
		.kernel = dev->kernel, .submission = GPUPROF_OA_SUBMISSION_GUC,
		.driver = GPUPROF_OA_DRIVER_XE,
	};
	uint32_t format = 0, n_regs = 0;
	int err;

	if (oa_set_lookup(dev->device_id, arg, m, &metrics, &set)) {
		oa_set_unknown(dev, arg, metrics);
		return -1;
	}
	if (set)
		oa_xe_set_config(set, &format, &regs, &n_regs);

	/* The format first: a set the unit cannot read is not registered. */
	dev->format = format ? format :
		    oa_xe_default_format(dev->platform->ip, d->unit.type);
	f = oa_xe_format_of(dev->platform->ip, dev->format);
	if (!f || !oa_xe_format_fits_unit(f, d->unit.type)) {
		pr_err("%s: metric set %s is read with report format %u, which OA unit %u (%s) of this GPU does not offer: choose another unit (--oa-unit) or set\n",
		       dev->node, m->name, dev->format, d->unit.id,
		       d->unit.type == OA_XE_OA_UNIT_TYPE_OAM ? "media, OAM" : "OAG");
		return -1;
	}
	if (!gpuprof_oa_layout_of(dev->device_id, dev->format, &drv, &l)) {
		pr_err("%s: report format %u of xe on device 0x%04x is not one gpuprof decodes\n",
		       dev->node, dev->format, dev->device_id);
		return -1;
	}
	d->format_value = oa_xe_format_value(f);
	dev->report_size = l.size;

	if (oa_set_need_card(dev->node, dev->card))
		return -1;
	err = oa_node_set_id(dev->card, m->uuid, &m->id);
	if (!err)
		return 0;
	if (err != -ENOENT) {
		pr_err("%s/metrics/%s/id: %s\n", dev->card, m->uuid,
		       strerror(-err));
		return -1;
	}
	if (!n_regs) {
		oa_card_no_set(dev->card, metrics, false,
			       "metric set %s (%s) is not registered with xe, and gpuprof does not know its registers to register it",
			       m->name, m->uuid);
		return -1;
	}
	return oa_xe_add_config(dev, m, regs, n_regs);
}

/* One line on why xe refused the stream. */
static void oa_xe_explain_open(const struct oa_device *dev,
			       const struct oa_set *m, int err,
			       unsigned int exponent)
{
	const struct oa_xe *d = dev->priv;

	switch (err) {
	case EACCES:
	case EPERM:
		pr_err("%s: not allowed to open a system-wide xe OA stream: that needs CAP_PERFMON (or root) while dev.xe.observation_paranoid is 1 (sysctl dev.xe.observation_paranoid=0 lifts it)\n",
		       dev->node);
		break;
	case EBUSY:
		pr_err("%s: OA unit %u is in use: xe allows one stream per unit; stop the other OA user (gputop, IGT, a GPU profiler) first, or take another unit (--oa-unit)\n",
		       dev->node, d->unit.id);
		break;
	case ENODEV:
		pr_err("no Intel GPU (xe) found with OA: %s has no OA support in this kernel (ENODEV)\n",
		       dev->node);
		break;
	case EINVAL:
		/* Unit, exponent and format were checked against xe's rules
		 * here: the metric set id is what can go stale. */
		pr_err("%s: xe refused the stream properties (EINVAL): most likely the metric set, id %llu of %s (%s), is not a configuration for this GPU; the others were OA unit %u, report format %u (xe's 0x%08x) and exponent %u\n",
		       dev->node, (unsigned long long)m->id, m->name, m->uuid,
		       d->unit.id, dev->format, d->format_value, exponent);
		break;
	default:
		pr_err("%s: opening the xe OA stream: %s\n", dev->node,
		       strerror(err));
		break;
	}
}

/*
 * Open a system-wide OA stream of dev->set on the device's unit, at
 * dev->exponent.  Return: the stream fd, made close-on-exec and
 * non-blocking (xe sets neither), or -1.
 */
static int oa_xe_stream_open(struct oa_device *dev)
{
	const struct oa_xe *d = dev->priv;
	const struct oa_set *m = &dev->set;
	unsigned int exponent = dev->exponent;
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
		oa_xe_explain_open(dev, m, errno, exponent);
		return -1;
	}
	fl = fcntl(fd, F_GETFL);
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) || fl < 0 ||
	    fcntl(fd, F_SETFL, fl | O_NONBLOCK)) {
		pr_err("%s: making the xe OA stream close-on-exec and non-blocking: %s\n",
		       dev->node, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
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
static int oa_xe_correlate(struct oa_device *dev, struct oa_clock_sample *s)
{
	struct oa_xe *d = dev->priv;
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
			       dev->node, strerror(errno));
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
	s->cpu_ns = best.cpu_timestamp + best_w / 2;
	s->gpu_ts = oa_node_ticks_to_oa(d->last_cycles, d->ref_clock_hz,
					dev->timestamp_hz);
	s->window_ns = best_w;
	return 0;
}

/*
 * read() failed with EIO: xe saw losses and says which in STATUS.  Each
 * becomes its record; the status bits without one are said once.
 */
static int oa_xe_status(struct oa_device *dev, oa_i915_record_fn fn,
			void *arg)
{
	struct oa_xe *d = dev->priv;
	struct oa_xe_oa_stream_status st = { 0 };
	uint32_t rec[2];
	unsigned int i, n;
	uint64_t new;

	if (oa_node_ioctl(dev->stream, OA_XE_STREAM_IOCTL_STATUS, &st)) {
		pr_err("%s: the xe OA stream failed (EIO), and its status could not be read: %s\n",
		       dev->node, strerror(errno));
		return -1;
	}
	n = oa_xe_status_records(st.oa_status, rec);
	for (i = 0; i < n; i++)
		fn(arg, rec[i], NULL, 0);
	new = st.oa_status & OA_XE_STATUS_NOTED & ~d->noted;
	if (new & OA_XE_OASTATUS_COUNTER_OVERFLOW)
		pr_err("warning: %s: xe says an OA counter overflowed (COUNTER_OVERFLOW): a delta around it is off\n",
		       dev->node);
	if (new & OA_XE_OASTATUS_MMIO_TRG_Q_FULL)
		pr_err("warning: %s: xe says the OA MMIO trigger queue was full (MMIO_TRG_Q_FULL): triggered reports were dropped\n",
		       dev->node);
	d->noted |= new;
	return 0;
}

/* Whole reports back to back, each to @fn as a SAMPLE. */
static int oa_xe_take(struct oa_device *dev, const uint8_t *p, size_t n,
		      oa_i915_record_fn fn, void *arg)
{
	size_t size = dev->report_size, off;

	if (n % size) {
		pr_err("%s: the xe OA stream gave %zu bytes, not whole reports of %zu: stopping\n",
		       dev->node, n, size);
		return -1;
	}
	for (off = 0; off < n; off += size)
		fn(arg, GPUPROF_OA_RECORD_SAMPLE, p + off, size);
	return 0;
}

/*
 * The reports and losses the stream holds now: xe's read() gives whole
 * reports back to back, with no header; a loss fails it with EIO,
 * nothing copied, and STATUS says what was lost (oa_xe_status()).
 */
static int oa_xe_drain(struct oa_device *dev, oa_i915_record_fn fn, void *arg)
{
	if (!dev->report_size) {
		pr_err("%s: no report format chosen\n", dev->node);
		return -1;
	}
	return oa_device_read(dev, dev->report_size * OA_XE_READ_REPORTS,
			      oa_xe_take, oa_xe_status, fn, arg);
}

/* Remove set @id from xe (OBSERVATION_OP_REMOVE_CONFIG): 0, or -1, errno. */
static int oa_xe_remove_set(const struct oa_device *dev, uint64_t id)
{
	const struct oa_xe *d = dev->priv;
	struct oa_xe_observation_param p = {
		.observation_type = OA_XE_OBSERVATION_TYPE_OA,
		.observation_op = OA_XE_OBSERVATION_OP_REMOVE_CONFIG,
		.param = (uintptr_t)&id,
	};

	return oa_node_ioctl(d->fd, OA_XE_IOCTL_OBSERVATION, &p);
}

/* The unit's GT's topology in i915's layout, when xe gave one. */
static size_t oa_xe_topology_of(struct oa_device *dev, void *buf, size_t size)
{
	const struct oa_xe *d = dev->priv;

	if (!d->topology_len || d->topology_len > size)
		return 0;
	memcpy(buf, d->topology, d->topology_len);
	return d->topology_len;
}

const struct oa_device_ops oa_xe_ops = {
	.name = "xe",
	.stream_name = "xe OA stream",
	.open = oa_xe_open,
	.metric_set = oa_xe_metric_set,
	.stream_open = oa_xe_stream_open,
	.drain = oa_xe_drain,
	.correlate = oa_xe_correlate,
	.topology = oa_xe_topology_of,
	.remove_set = oa_xe_remove_set,
	.close = oa_xe_close,
};
