// SPDX-License-Identifier: GPL-2.0-only
/*
 * The i915 backend of oa/device.h (see oa/i915.h).  Facts about i915
 * are from design.rst 4 and the kernel's i915_perf.c,
 * i915_ioctl.c (REG_READ) and i915_query.c; none of this ran on Intel
 * hardware here, only against selftests/i915-shim/.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "../../../module/oa_decode.h"
#include "oa/device.h"
#include "oa/drm-node.h"
#include "oa/i915-records.h"
#include "oa/i915.h"
#include "oa/metric-sets.h"
#include "oa/metrics.h"
#include "oa/writer.h"
#include "util/debug.h"
#include "util/file.h"

#define NSEC 1000000000ull
/* i915's dev.i915.oa_max_sample_rate default: faster needs CAP_PERFMON. */
#define OA_DEFAULT_MAX_RATE_HZ 100000ull
/* The render ring's RING_TIMESTAMP (RENDER_RING_BASE 0x2000 + 0x358). */
#define OA_I915_RING_TIMESTAMP	0x2358
/* i915_drm.h of 6.12, not 6.1's: the OA unit's own timestamp rate. */
#define OA_I915_PARAM_OA_TIMESTAMP_FREQUENCY	57
/* i915 wants at least 100 us between its checks of the OA buffer. */
#define OA_I915_MIN_POLL_NS	100000ull

/* What the backend keeps of an i915 device beyond struct oa_device. */
struct oa_i915 {
	int fd;				/* the render node */
	uint64_t cs_hz;			/* RING_TIMESTAMP's (DG2, MTL: not OA's) */
	int perf_revision;
	/* RING_TIMESTAMP reading. */
	uint64_t reg_offset;		/* with I915_REG_READ_8B_WA, or not */
	bool have_gpu;
	uint64_t last_cs;		/* the last point's 64-bit RING_TIMESTAMP */
};

/*
 * How i915 submits work: its enable_guc parameter, -1 for the platform's
 * default, else bit 0 (ENABLE_GUC_SUBMISSION).  The context ids of OA
 * reports depend on it (oa.rst).
 */
static uint32_t oa_submission(void)
{
	char path[PATH_MAX], buf[32], *end;
	long v;

	snprintf(path, sizeof(path), "%s/module/i915/parameters/enable_guc",
		 oa_node_sysfs_root());
	if (file_read_small(AT_FDCWD, path, buf, sizeof(buf)) <= 0)
		return GPUPROF_OA_SUBMISSION_DEFAULT;
	v = strtol(buf, &end, 10);
	if (end == buf || v < 0)
		return GPUPROF_OA_SUBMISSION_DEFAULT;
	return v & 1 ? GPUPROF_OA_SUBMISSION_GUC :
		       GPUPROF_OA_SUBMISSION_EXECLISTS;
}

static int oa_getparam(int fd, int param, int *value)
{
	drm_i915_getparam_t gp = { .param = param, .value = value };

	return oa_node_ioctl(fd, DRM_IOCTL_I915_GETPARAM, &gp);
}

/*
 * The report format recorded: the one the format table marks i915's
 * default on the GPU's IP (module/oa_platform.c), the richest i915
 * offers: A45_B8_C8 on Haswell, A32u40_A4u32_B8_C8 from gen8 to
 * gen12.10, A24u40_A14u32_B8_C8 (the OAG unit's) on DG2 and Meteor Lake.
 * 0, no format, when the table marks none: oa_i915_metric_set() refuses
 * it before any set is added.
 */
static uint32_t oa_i915_format(const struct oa_device *dev)
{
	const struct gpuprof_oa_format *f;
	uint32_t i;

	for (i = 0; i < GPUPROF_OA_FORMAT_MAX; i++) {
		f = gpuprof_oa_format(i);
		if (f && f->i915_default &&
		    gpuprof_oa_ips_hold(f->i915, dev->platform->ip))
			return i;
	}
	return 0;
}

/*
 * Open an i915 render node (cfg->node, or the first i915 drives) and
 * learn what it is: the device, its OA clock, its card in sysfs, the
 * kernel and how i915 submits work there (design.rst 4).
 */
static int oa_i915_open(struct oa_device *dev,
			const struct oa_device_config *cfg)
{
	struct oa_i915 *d = calloc(1, sizeof(*d));
	int v;

	if (!d) {
		pr_err("%s\n", strerror(ENOMEM));
		return -1;
	}
	dev->priv = d;
	d->fd = oa_open_node("i915", cfg->node, dev->node, sizeof(dev->node));
	if (d->fd < 0)
		return -1;
	if (oa_getparam(d->fd, I915_PARAM_CHIPSET_ID, &v)) {
		pr_err("%s: I915_PARAM_CHIPSET_ID: %s\n",
		       dev->node, strerror(errno));
		return -1;
	}
	dev->device_id = (uint32_t)v;
	/* Linux 4.16 on; without it no timestamp can be converted. */
	if (oa_getparam(d->fd, I915_PARAM_CS_TIMESTAMP_FREQUENCY, &v) || v <= 0) {
		pr_err("%s: the kernel does not report the GPU timestamp frequency (I915_PARAM_CS_TIMESTAMP_FREQUENCY, Linux 4.16 and later)\n",
		       dev->node);
		return -1;
	}
	d->cs_hz = (uint32_t)v;
	dev->timestamp_hz = d->cs_hz;
	/*
	 * On DG2 and Meteor Lake the OA timestamp ignores the CS clock's
	 * shift (Wa_18013179988): the kernels that give those GPUs OA
	 * (6.2 on) report its own rate, 2^(3 - CTC_SHIFT) times the CS
	 * clock's (i915_perf_oa_timestamp_frequency()).
	 */
	if (!oa_getparam(d->fd, OA_I915_PARAM_OA_TIMESTAMP_FREQUENCY, &v) &&
	    v > 0)
		dev->timestamp_hz = (uint32_t)v;
	/* The parameter came with revision 2 (Linux 5.8); before it, 1. */
	d->perf_revision = oa_getparam(d->fd, I915_PARAM_PERF_REVISION, &v) ? 1 : v;
	dev->revision = oa_getparam(d->fd, I915_PARAM_REVISION, &v) ? 0 : (uint32_t)v;
	dev->platform = gpuprof_oa_platform_of_device(dev->device_id);
	dev->kernel = oa_node_running_kernel();
	if (!dev->platform) {
		pr_err("%s: device 0x%04x is not a GPU whose OA reports gpuprof knows (Haswell to Meteor Lake)\n",
		       dev->node, dev->device_id);
		return -1;
	}
	oa_node_card(dev->node, dev->card, sizeof(dev->card));
	/* gt_{min,max}_freq_mhz of the card, in Hz as DEVICE_INFO has them. */
	dev->gt_min_hz = oa_node_gt_freq(dev->card, "gt_min_freq_mhz");
	dev->gt_max_hz = oa_node_gt_freq(dev->card, "gt_max_freq_mhz");
	dev->engine_class = I915_ENGINE_CLASS_RENDER;
	dev->engine_instance = 0;
	dev->drv = (struct gpuprof_oa_driver){
		.kernel = dev->kernel, .submission = oa_submission(),
		.driver = GPUPROF_OA_DRIVER_I915,
	};
	dev->has_drv = true;
	dev->format = oa_i915_format(dev);
	return 0;
}

static void oa_i915_close(struct oa_device *dev)
{
	struct oa_i915 *d = dev->priv;

	if (!d)
		return;
	if (d->fd >= 0)
		close(d->fd);
	free(d);
}

/*
 * A topology of one slice, one subslice and 8 EUs, for a kernel that
 * cannot say (before Linux 4.17): readers need one to compute EU metrics,
 * and these will be wrong, which the caller's warning says.
 */
static size_t oa_min_topology(void *buf, size_t size)
{
	struct drm_i915_query_topology_info t = {
		.max_slices = 1, .max_subslices = 1, .max_eus_per_subslice = 8,
		.subslice_offset = 1, .subslice_stride = 1,
		.eu_offset = 2, .eu_stride = 1,
	};
	uint8_t *masks = (uint8_t *)buf + sizeof(t);

	if (size < sizeof(t) + 3)
		return 0;
	memcpy(buf, &t, sizeof(t));
	masks[0] = masks[1] = 0x01;
	masks[2] = 0xff;
	return sizeof(t) + 3;
}

/*
 * The device's slice/subslice/EU topology into @buf (aligned for struct
 * drm_i915_query_topology_info, @size bytes).  Return: its bytes, or 0
 * with @why set when the kernel cannot say.
 */
static size_t oa_i915_query_topology(const struct oa_device *dev, void *buf,
				     size_t size, const char **why)
{
	const struct oa_i915 *d = dev->priv;
	struct drm_i915_query_item item = {
		.query_id = DRM_I915_QUERY_TOPOLOGY_INFO,
	};
	struct drm_i915_query q = {
		.num_items = 1, .items_ptr = (uintptr_t)&item,
	};

	*why = "the kernel gave no topology";
	/* First the length, then the data, as i915_query.c expects. */
	if (oa_node_ioctl(d->fd, DRM_IOCTL_I915_QUERY, &q)) {
		*why = strerror(errno);
	} else if (item.length > 0 && (size_t)item.length <= size &&
		   (size_t)item.length >= sizeof(struct drm_i915_query_topology_info)) {
		item.data_ptr = (uintptr_t)buf;
		if (!oa_node_ioctl(d->fd, DRM_IOCTL_I915_QUERY, &q) &&
		    item.length > 0 &&
		    oa_topology_size(buf) <= (size_t)item.length)
			return oa_topology_size(buf);
		*why = "the second query failed";
	} else if (item.length > 0) {
		*why = "it is larger than expected";
	}
	return 0;
}

/**
 * oa_i915_topology - the device's slice/subslice/EU topology
 * @dev: the device
 * @buf: room for it, aligned for struct drm_i915_query_topology_info
 * @size: bytes of @buf
 *
 * Return: its bytes; on a failed query a minimal stand-in and a warning.
 */
static size_t oa_i915_topology(struct oa_device *dev, void *buf, size_t size)
{
	const char *why;
	size_t len = oa_i915_query_topology(dev, buf, size, &why);

	if (len)
		return len;
	pr_err("warning: %s: the topology query failed (%s): writing one slice of one subslice of 8 EUs, so EU metrics will be off\n",
	       dev->node, why);
	return oa_min_topology(buf, size);
}

/*
 * One list of an i915 set's registers as ADD_CONFIG takes them: @n
 * {addr, value} pairs of u32, malloc'ed; NULL when out of memory.
 */
static uint32_t *oa_i915_reg_list(const struct oa_metric_i915_regs *r,
				  struct oa_metric_reg (*reg)(const struct oa_metric_i915_regs *,
							      unsigned int),
				  unsigned int n)
{
	uint32_t *list = calloc(2 * (size_t)n + 2, sizeof(*list));
	struct oa_metric_reg v;
	unsigned int i;

	for (i = 0; list && i < n; i++) {
		v = reg(r, i);
		list[2 * i] = v.addr;
		list[2 * i + 1] = v.value;
	}
	return list;
}

/*
 * The register lists of @r, the first @n_mux, @n_boolean and @n_flex of
 * each, offered to i915 as a configuration of @uuid.  Return: the new
 * id, or -1 with errno.
 */
static int oa_i915_try_config(const struct oa_device *dev, const char *uuid,
			      const uint32_t *lists[3], unsigned int n_mux,
			      unsigned int n_boolean, unsigned int n_flex)
{
	const struct oa_i915 *d = dev->priv;
	struct drm_i915_perf_oa_config c = {
		.n_mux_regs = n_mux,
		.n_boolean_regs = n_boolean,
		.n_flex_regs = n_flex,
		.mux_regs_ptr = (uintptr_t)lists[0],
		.boolean_regs_ptr = (uintptr_t)lists[1],
		.flex_regs_ptr = (uintptr_t)lists[2],
	};

	memcpy(c.uuid, uuid, sizeof(c.uuid));
	return oa_node_ioctl(d->fd, DRM_IOCTL_I915_PERF_ADD_CONFIG, &c);
}

/* Remove configuration @id from i915 (REMOVE_CONFIG): 0, or -1 and errno. */
static int oa_i915_remove_set(const struct oa_device *dev, uint64_t id)
{
	const struct oa_i915 *d = dev->priv;

	return oa_node_ioctl(d->fd, DRM_IOCTL_I915_PERF_REMOVE_CONFIG, &id);
}

static const char *const oa_i915_list_name[3] = { "mux", "boolean", "flex" };

/*
 * i915 refused a configuration with EINVAL and says no more: ask it which
 * register, by offering each list alone, then the shortest prefix of the
 * guilty list that it refuses (each accepted trial is removed at once).
 * Its own whitelists judge, whichever kernel this is.  Return: the list
 * (0 mux, 1 boolean, 2 flex) and in @at the register's index, or -1.
 */
static int oa_i915_refused_reg(const struct oa_device *dev, const char *uuid,
			       const uint32_t *lists[3], const unsigned int n[3],
			       unsigned int *at)
{
	unsigned int lo, hi, mid, k[3];
	int l, id;

	for (l = 0; l < 3; l++) {
		if (!n[l])
			continue;
		memset(k, 0, sizeof(k));
		k[l] = n[l];
		id = oa_i915_try_config(dev, uuid, lists, k[0], k[1], k[2]);
		if (id > 0) {
			oa_i915_remove_set(dev, id);
			continue;
		}
		if (errno != EINVAL)
			return -1;
		/* The shortest refused prefix ends with the register. */
		lo = 1;
		hi = n[l];
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			k[l] = mid;
			id = oa_i915_try_config(dev, uuid, lists, k[0], k[1], k[2]);
			if (id > 0) {
				oa_i915_remove_set(dev, id);
				lo = mid + 1;
			} else if (errno == EINVAL) {
				hi = mid;
			} else {
				return -1;
			}
		}
		*at = lo - 1;
		return l;
	}
	return -1;
}

/* One line on why i915 would not add @m's set. */
static void oa_i915_explain_add(const struct oa_device *dev,
				const struct oa_set *m, int err,
				const uint32_t *lists[3], const unsigned int n[3])
{
	unsigned int at;
	int l;

	switch (err) {
	case EACCES:
	case EPERM:
		pr_err("%s: not allowed to add metric set %s (%s) to i915, which offers it only once added: that needs CAP_PERFMON (or root) while dev.i915.perf_stream_paranoid is 1 (sysctl dev.i915.perf_stream_paranoid=0 lifts it)\n",
		       dev->node, m->name, m->uuid);
		return;
	case EINVAL:
		l = oa_i915_refused_reg(dev, m->uuid, lists, n, &at);
		if (l >= 0) {
			pr_err("%s: i915 refused metric set %s (%s): its %s register %u of %u, 0x%08x = 0x%08x, is not one this kernel lets userspace program on this GPU\n",
			       dev->node, m->name, m->uuid, oa_i915_list_name[l],
			       at + 1, n[l], lists[l][2 * at],
			       lists[l][2 * at + 1]);
			return;
		}
		break;
	case 524:	/* ENOTSUPP, the kernel's own: no OA here */
		pr_err("%s: i915 has no OA support for this GPU (ENOTSUPP)\n",
		       dev->node);
		return;
	}
	pr_err("%s: i915 refused to add metric set %s (%s), %u mux, %u boolean and %u flex registers: %s\n",
	       dev->node, m->name, m->uuid, n[0], n[1], n[2], strerror(err));
}

/**
 * oa_i915_add_regs - add @m's uuid to i915 as a configuration of these
 *	registers (DRM_IOCTL_I915_PERF_ADD_CONFIG), and take its id
 * @d: the device
 * @m: the set: its uuid and name; its id and "added" are set
 * @lists: the mux, boolean-counter and flex registers, {addr, value}
 *	pairs of u32
 * @n: how many pairs in each
 *
 * One added meanwhile by another program (EADDRINUSE) is as good, and is
 * not ours to remove.  A refusal is one line; for EINVAL it names the
 * register i915 refused (oa_i915_refused_reg()).
 */
int oa_i915_add_regs(const struct oa_device *dev, struct oa_set *m,
		     const uint32_t *lists[3], const unsigned int n[3])
{
	int id, err;

	id = oa_i915_try_config(dev, m->uuid, lists, n[0], n[1], n[2]);
	if (id > 0) {
		m->id = id;
		m->added = true;
		return 0;
	}
	err = id ? errno : EPROTO;
	if (err == EADDRINUSE && !oa_node_set_id(dev->card, m->uuid, &m->id))
		return 0;
	oa_i915_explain_add(dev, m, err, lists, n);
	return -1;
}

/*
 * The registers of @set on this device: a few sets of Broadwell, Skylake,
 * Broxton and Cannon Lake program some mux registers only on some slice
 * or subslice masks or revisions, as IGT does (oa/metric-sets.h), so the
 * device's topology decides.  False when the table has none for @set.
 */
static bool oa_i915_set_regs(const struct oa_device *dev,
			     const struct oa_metric_set *set,
			     struct oa_metric_i915_regs *r)
{
	union {	/* aligned for the struct's u16 fields */
		struct drm_i915_query_topology_info info;
		uint8_t bytes[4096];
	} topo;
	struct oa_metrics_device md = {
		.device_id = dev->device_id, .revision = dev->revision,
		.topology = &topo,
	};
	struct oa_metric_i915_device on;
	struct oa_metrics_vars v;
	const char *why;

	/* Without a topology only the sets that do not ask are known. */
	md.topology_len = oa_i915_query_topology(dev, &topo, sizeof(topo),
						 &why);
	if (!md.topology_len)
		return oa_metric_set_i915_regs(set, r);
	oa_metrics_device_vars(&md, &v);
	on = (struct oa_metric_i915_device){
		.slice_mask = v.slice_mask,
		.subslice_mask = v.subslice_mask,
		.revision = v.revision,
	};
	return oa_metric_set_i915_regs_on(set, &on, r);
}

/*
 * Add @set with the table's registers (a stock i915 offers no set until
 * userspace adds one, as IGT's tools, gputop and Mesa do).
 * Return: 0, -ENOENT when the table has no registers for it, or -1.
 */
static int oa_i915_add_config(const struct oa_device *dev,
			      const struct oa_metric_set *set,
			      struct oa_set *m)
{
	struct oa_metric_i915_regs r;
	const uint32_t *lists[3];
	unsigned int n[3];
	int err = -1, l;

	if (!oa_i915_set_regs(dev, set, &r))
		return -ENOENT;
	n[0] = r.n_mux;
	n[1] = r.n_boolean;
	n[2] = r.n_flex;
	lists[0] = oa_i915_reg_list(&r, oa_metric_i915_mux, n[0]);
	lists[1] = oa_i915_reg_list(&r, oa_metric_i915_boolean, n[1]);
	lists[2] = oa_i915_reg_list(&r, oa_metric_i915_flex, n[2]);
	if (lists[0] && lists[1] && lists[2])
		err = oa_i915_add_regs(dev, m, lists, n);
	else
		pr_err("out of memory\n");
	for (l = 0; l < 3; l++)
		free((void *)lists[l]);
	return err;
}

/*
 * The metric set @arg names (a set's name in IGT's table for the
 * device's GPU, "RenderBasic", oa/metric-sets.h, or a uuid) into
 * dev->set, with its kernel id.  The kernel knows sets by uuid, in
 * <card>/metrics/UUID/id.  A set it does not offer yet is added when the
 * table has its registers (and removed at the end, oa_device_close()); a
 * name the table does not have, or a set neither offered nor known, fails
 * with one line listing what the card offers.
 */
static int oa_i915_set_id(struct oa_device *dev, const char *arg)
{
	const struct oa_metric_platform *metrics;
	const struct oa_metric_set *set;
	struct oa_set *m = &dev->set;
	int err;

	if (oa_set_lookup(dev->device_id, arg, m, &metrics, &set)) {
		oa_set_unknown(dev, arg, metrics);
		return -1;
	}
	if (oa_set_need_card(dev->node, dev->card))
		return -1;
	err = oa_node_set_id(dev->card, m->uuid, &m->id);
	if (err == -ENOENT && set) {
		err = oa_i915_add_config(dev, set, m);
		if (err != -ENOENT)
			return err;
	}
	if (err == -ENOENT) {
		oa_card_no_set(dev->card, metrics, true,
			       "metric set %s (%s) is not offered by this kernel for this GPU, and gpuprof has no registers to add it with: not in ",
			       m->name, m->uuid);
		return -1;
	}
	if (err) {
		oa_card_no_set(dev->card, metrics, false,
			       "metric set %s (%s): %s/metrics/%s/id: %s",
			       m->name, m->uuid, dev->card, m->uuid,
			       strerror(-err));
		return -1;
	}
	return 0;
}

/*
 * How often i915 checks the OA buffer for reports (and wakes poll()).
 * Its own default, 5 ms, is kept; only reports faster than that would
 * fill a quarter of the 16 MiB OA buffer (16384 reports of 256 bytes)
 * make it shorter, down to i915's minimum of 100 us.  Sent only to
 * kernels of perf revision 5 and later, which know the property.
 */
static uint64_t oa_i915_poll_period(uint64_t report_period_ns)
{
	uint64_t p = 5000000;

	if (report_period_ns < p / 16384)
		p = report_period_ns * 16384;
	return p < OA_I915_MIN_POLL_NS ? OA_I915_MIN_POLL_NS : p;
}

/* One line on why i915 refused the stream. */
static void oa_explain_open(const struct oa_device *dev,
			    const struct oa_set *m, int err,
			    unsigned int exponent, uint64_t period_ns)
{
	const struct oa_i915 *d = dev->priv;
	uint64_t rate = period_ns ? NSEC / period_ns : 0;

	switch (err) {
	case EACCES:
	case EPERM:
		if (rate > OA_DEFAULT_MAX_RATE_HZ)
			pr_err("%s: not allowed to open a system-wide i915-perf stream: that needs CAP_PERFMON (or root) while dev.i915.perf_stream_paranoid is 1, and %llu reports/s (--period %llu ns) is above dev.i915.oa_max_sample_rate (100000 by default) without CAP_PERFMON\n",
			       dev->node, (unsigned long long)rate,
			       (unsigned long long)period_ns);
		else
			pr_err("%s: not allowed to open a system-wide i915-perf stream: that needs CAP_PERFMON (or root) while dev.i915.perf_stream_paranoid is 1 (sysctl dev.i915.perf_stream_paranoid=0 lifts it)\n",
			       dev->node);
		break;
	case EBUSY:
		pr_err("%s: another i915-perf stream is open, and i915 allows only one system-wide: stop the other OA user (gputop, IGT, a GPU profiler) first\n",
		       dev->node);
		break;
	case ENODEV:
		pr_err("no Intel GPU (i915) found with i915-perf: %s has no OA support in this kernel (ENODEV)\n",
		       dev->node);
		break;
	case EINVAL:
		/* Our exponent, format and poll period follow i915's rules;
		 * the metric set id is what can go stale or not match. */
		pr_err("%s: i915 refused the stream properties (EINVAL): most likely the metric set, id %llu of %s (%s), is not a configuration for this GPU; the others were report format %u, exponent %u%s\n",
		       dev->node, (unsigned long long)m->id, m->name, m->uuid,
		       dev->format, exponent,
		       d->perf_revision >= 5 ? " and a poll period" : "");
		break;
	default:
		pr_err("%s: opening the i915-perf stream: %s\n",
		       dev->node, strerror(err));
		break;
	}
}

/*
 * Open a system-wide OA stream of dev->set at dev->exponent (period
 * dev->period_ns, for the messages and the poll period).  Return: the
 * stream fd (close-on-exec, non-blocking), or -1.
 */
static int oa_i915_stream_open(struct oa_device *dev)
{
	const struct oa_i915 *d = dev->priv;
	const struct oa_set *m = &dev->set;
	unsigned int exponent = dev->exponent;
	uint64_t period_ns = dev->period_ns;
	uint64_t props[2 * 5];
	struct drm_i915_perf_open_param p = {
		.flags = I915_PERF_FLAG_FD_CLOEXEC | I915_PERF_FLAG_FD_NONBLOCK,
		.properties_ptr = (uintptr_t)props,
	};
	unsigned int n = 0;
	int fd;

#define OA_PROP(id, v) do { props[n++] = (id); props[n++] = (v); } while (0)
	OA_PROP(DRM_I915_PERF_PROP_SAMPLE_OA, 1);
	OA_PROP(DRM_I915_PERF_PROP_OA_METRICS_SET, m->id);
	OA_PROP(DRM_I915_PERF_PROP_OA_FORMAT, dev->format);
	OA_PROP(DRM_I915_PERF_PROP_OA_EXPONENT, exponent);
	if (d->perf_revision >= 5)
		OA_PROP(DRM_I915_PERF_PROP_POLL_OA_PERIOD,
			oa_i915_poll_period(period_ns));
#undef OA_PROP
	p.num_properties = n / 2;
	fd = oa_node_ioctl(d->fd, DRM_IOCTL_I915_PERF_OPEN, &p);
	if (fd < 0)
		oa_explain_open(dev, m, errno, exponent, period_ns);
	return fd;
}

/*
 * One read() of an i915-perf stream gives whole records only, failing
 * with ENOSPC when not even one fits: the buffer starts at OA_READ_SIZE
 * and doubles (oa_device_read()).
 */
#define OA_READ_SIZE		(64u << 10)

/* The records of one read(), to @fn; -1 (message out) on a bad one. */
static int oa_i915_take(struct oa_device *dev, const uint8_t *p, size_t n,
			oa_i915_record_fn fn, void *arg)
{
	struct oa_i915_bad bad;

	if (!oa_i915_records(p, n, dev->report_size, fn, arg, &bad))
		return 0;
	if (bad.left >= sizeof(struct gpuprof_oa_record_header))
		pr_err("%s: the i915-perf stream gave a record of type %u and %u bytes, which it never should: stopping\n",
		       dev->node, bad.type, bad.size);
	else
		pr_err("%s: the i915-perf stream gave %zu bytes of a record: stopping\n",
		       dev->node, bad.left);
	return -1;
}

/* i915 puts losses in band: EIO means the stream is gone. */
static int oa_i915_eio(struct oa_device *dev, oa_i915_record_fn fn,
		       void *arg)
{
	(void)fn;
	(void)arg;
	pr_err("%s: the i915-perf stream failed (EIO): i915 disabled it, after a GPU reset or because the OA unit was taken over\n",
	       dev->node);
	return -1;
}

/*
 * The records the stream holds now, each checked to carry a whole report
 * of the format's size, to @fn.
 */
static int oa_i915_drain(struct oa_device *dev, oa_i915_record_fn fn,
			     void *arg)
{
	return oa_device_read(dev, OA_READ_SIZE, oa_i915_take, oa_i915_eio,
			      fn, arg);
}

/*
 * RING_TIMESTAMP of the render ring.  The 8-byte register must be read
 * as two 32-bit halves (I915_REG_READ_8B_WA, i915_drm.h: a single 8-byte
 * read returns an invalid value); kernels before 4.9 do not know the flag
 * and say EINVAL, and then the plain read is all there is.
 */
static int oa_reg_read(struct oa_device *dev, uint64_t *val)
{
	struct oa_i915 *d = dev->priv;
	struct drm_i915_reg_read r;

	if (!d->reg_offset) {
		r = (struct drm_i915_reg_read) {
			.offset = OA_I915_RING_TIMESTAMP | I915_REG_READ_8B_WA,
		};
		if (!oa_node_ioctl(d->fd, DRM_IOCTL_I915_REG_READ, &r)) {
			d->reg_offset = r.offset;
			*val = r.val;
			return 0;
		}
		if (errno != EINVAL)
			return -1;
		d->reg_offset = OA_I915_RING_TIMESTAMP;
	}
	r = (struct drm_i915_reg_read) { .offset = d->reg_offset };
	if (oa_node_ioctl(d->fd, DRM_IOCTL_I915_REG_READ, &r))
		return -1;
	*val = r.val;
	return 0;
}

/**
 * oa_i915_correlate - a clock sample of CLOCK_MONOTONIC and the GPU
 * @dev: the device
 * @c: CLOCK_MONOTONIC at the point, the 64-bit OA timestamp there and
 *	the error bound, the clock_gettime() window of the read
 *
 * The register is read between two clock_gettime() calls three times;
 * the narrowest window wins and its midpoint is the CPU time.
 *
 * The GPU time is made consistent with the OA reports: their timestamp
 * is the low 32 bits of the OA clock, and RING_TIMESTAMP itself may be
 * narrower than 64 bits (36 bits on some parts; the upper half of an old
 * single 8-byte read is not even valid), so its high bits wrap on their
 * own schedule.  Only the first point takes the register whole; each
 * later one takes its low 32 bits and unwraps them against the previous
 * point (gpuprof_oa_unwrap(), as readers unwrap reports).  Points come at
 * least every second, far under the 2^31 ticks (111 s at 19.2 MHz) that
 * the unwrap tolerates, so the 64-bit value only ever moves forward.
 * RING_TIMESTAMP counts the command streamer's clock; where the OA clock
 * runs faster (DG2, Meteor Lake: both count the same crystal, the CS one
 * shifted right) the point is given in OA ticks (oa_node_ticks_to_oa()), so
 * its low 32 bits equal the report timestamps of the same instant.
 */
static int oa_i915_correlate(struct oa_device *dev, struct oa_clock_sample *c)
{
	struct oa_i915 *d = dev->priv;
	uint64_t t0, t1, raw, best_raw = 0, best_w = UINT64_MAX, mid = 0;
	int i;

	for (i = 0; i < 3; i++) {
		t0 = oa_node_mono_ns();
		if (oa_reg_read(dev, &raw)) {
			pr_err("%s: reading RING_TIMESTAMP (DRM_IOCTL_I915_REG_READ 0x%x): %s: no clock correlation is possible\n",
			       dev->node, OA_I915_RING_TIMESTAMP, strerror(errno));
			return -1;
		}
		t1 = oa_node_mono_ns();
		if (t1 - t0 < best_w) {
			best_w = t1 - t0;
			mid = t0 + best_w / 2;
			best_raw = raw;
		}
	}
	d->last_cs = d->have_gpu ? gpuprof_oa_unwrap(d->last_cs, best_raw, 32) :
		     best_raw;
	d->have_gpu = true;
	c->cpu_ns = mid;
	c->gpu_ts = oa_node_ticks_to_oa(d->last_cs, d->cs_hz,
					dev->timestamp_hz);
	c->window_ns = best_w;
	return 0;
}

/*
 * The size of the reports, then the set @arg names, added if need be:
 * the format first, so that no set is added for a stream that could not
 * be read.
 */
static int oa_i915_metric_set(struct oa_device *dev, const char *arg)
{
	struct gpuprof_oa_layout l;

	if (gpuprof_oa_layout(dev->platform->ip / 100, dev->format, &l)) {
		pr_err("%s: report format %u of i915 on device 0x%04x is not one gpuprof decodes\n",
		       dev->node, dev->format, dev->device_id);
		return -1;
	}
	dev->report_size = l.size;
	return oa_i915_set_id(dev, arg);
}

const struct oa_device_ops oa_i915_ops = {
	.name = "i915",
	.stream_name = "i915-perf stream",
	.no_units = "this GPU is driven by i915",
	.open = oa_i915_open,
	.metric_set = oa_i915_metric_set,
	.stream_open = oa_i915_stream_open,
	.drain = oa_i915_drain,
	.correlate = oa_i915_correlate,
	.topology = oa_i915_topology,
	.remove_set = oa_i915_remove_set,
	.close = oa_i915_close,
};
