// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof-oa --device: the i915 calls (see oa/i915.h).  Facts about i915
 * are from design.rst 4 and the kernel's i915_perf.c,
 * i915_ioctl.c (REG_READ) and i915_query.c; none of this ran on Intel
 * hardware here, only against selftests/i915-shim/.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "../../../module/oa_decode.h"
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

/* The first render node that i915 drives, -1 (and a message) if none. */
static int oa_find_node(struct oa_i915 *d)
{
	d->fd = oa_node_find("i915", d->node, sizeof(d->node));
	if (d->fd >= 0)
		return 0;
	pr_err("no Intel GPU (i915) found: no /dev/dri/renderD* node is driven by i915 (give one with --node)\n");
	return -1;
}

/* The node given with --node: it must be there and be i915's. */
static int oa_open_node(struct oa_i915 *d, const char *node)
{
	char name[32];

	snprintf(d->node, sizeof(d->node), "%s", node);
	d->fd = open(node, O_RDWR | O_CLOEXEC);
	if (d->fd < 0) {
		pr_err("%s: %s\n", node, strerror(errno));
		return -1;
	}
	oa_node_driver_name(d->fd, name, sizeof(name));
	if (!strcmp(name, "i915"))
		return 0;
	if (name[0])
		pr_err("no Intel GPU (i915) found: %s is driven by %s, not i915\n",
		       node, name);
	else
		pr_err("no Intel GPU (i915) found: %s is not a DRM device\n",
		       node);
	return -1;
}

static void oa_find_card(struct oa_i915 *d)
{
	oa_node_card(d->node, d->card, sizeof(d->card));
}

/* gt_{min,max}_freq_mhz of the card, in Hz as DEVICE_INFO has them. */
static uint32_t oa_gt_freq(const struct oa_i915 *d, const char *file)
{
	return oa_node_gt_freq(d->card, file);
}

/**
 * oa_i915_open - open an i915 render node and learn what it is
 * @d: filled in
 * @node: the node's path, or NULL for the first i915 render node
 */
int oa_i915_open(struct oa_i915 *d, const char *node)
{
	int v;

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	if (node ? oa_open_node(d, node) : oa_find_node(d))
		goto fail;

	if (oa_getparam(d->fd, I915_PARAM_CHIPSET_ID, &v)) {
		pr_err("%s: I915_PARAM_CHIPSET_ID: %s\n",
		       d->node, strerror(errno));
		goto fail;
	}
	d->device_id = (uint32_t)v;
	/* Linux 4.16 on; without it no timestamp can be converted. */
	if (oa_getparam(d->fd, I915_PARAM_CS_TIMESTAMP_FREQUENCY, &v) || v <= 0) {
		pr_err("%s: the kernel does not report the GPU timestamp frequency (I915_PARAM_CS_TIMESTAMP_FREQUENCY, Linux 4.16 and later)\n",
		       d->node);
		goto fail;
	}
	d->cs_hz = (uint32_t)v;
	d->timestamp_hz = d->cs_hz;
	/*
	 * On DG2 and Meteor Lake the OA timestamp ignores the CS clock's
	 * shift (Wa_18013179988): the kernels that give those GPUs OA
	 * (6.2 on) report its own rate, 2^(3 - CTC_SHIFT) times the CS
	 * clock's (i915_perf_oa_timestamp_frequency()).
	 */
	if (!oa_getparam(d->fd, OA_I915_PARAM_OA_TIMESTAMP_FREQUENCY, &v) &&
	    v > 0)
		d->timestamp_hz = (uint32_t)v;
	/* The parameter came with revision 2 (Linux 5.8); before it, 1. */
	d->perf_revision = oa_getparam(d->fd, I915_PARAM_PERF_REVISION, &v) ? 1 : v;
	d->revision = oa_getparam(d->fd, I915_PARAM_REVISION, &v) ? 0 : (uint32_t)v;
	d->platform = gpuprof_oa_platform_of_device(d->device_id);
	d->kernel = oa_node_running_kernel();
	d->submission = oa_submission();
	d->gen = d->platform ? d->platform->ip / 100 : 0;
	if (!d->gen) {
		pr_err("%s: device 0x%04x is not a GPU whose OA reports gpuprof knows (Haswell to Meteor Lake)\n",
		       d->node, d->device_id);
		goto fail;
	}
	oa_find_card(d);
	d->gt_min_hz = oa_gt_freq(d, "gt_min_freq_mhz");
	d->gt_max_hz = oa_gt_freq(d, "gt_max_freq_mhz");
	return 0;
fail:
	oa_i915_close(d);
	return -1;
}

void oa_i915_close(struct oa_i915 *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

/*
 * The richest report format i915 offers: A45_B8_C8 on Haswell,
 * A32u40_A4u32_B8_C8 from gen8 to gen12.10, A24u40_A14u32_B8_C8 (the OAG
 * unit's) on DG2 and Meteor Lake.
 */
uint32_t oa_i915_format(const struct oa_i915 *d)
{
	if (d->gen == GPUPROF_OA_GEN_HSW)
		return GPUPROF_OA_FORMAT_A45_B8_C8;
	if (d->platform && d->platform->ip >= 1250)
		return GPUPROF_OA_FORMAT_A24u40_A14u32_B8_C8;
	return GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8;
}

/**
 * oa_i915_metrics_of - the metric sets IGT describes for a GPU
 * @device_id: its PCI device id
 *
 * Return: the platform's table (oa/metric-sets.h), or NULL when IGT
 * 1.27.1 has none for it.
 */
const struct oa_metric_platform *oa_i915_metrics_of(uint32_t device_id)
{
	const struct gpuprof_oa_platform *p;

	p = gpuprof_oa_platform_of_device(device_id);
	return p && p->metrics ? oa_metric_platform_find(p->metrics) : NULL;
}

/**
 * oa_i915_card_device_id - the PCI device id of a DRM card, from sysfs
 * @card: its sysfs directory, <root>/class/drm/cardN
 *
 * Return: cardN/device/device ("0x9a49"), 0 when it cannot be read.
 */
uint32_t oa_i915_card_device_id(const char *card)
{
	char path[PATH_MAX + 32], buf[32], *end;
	unsigned long v;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/device/device", card);
	n = file_read_small(AT_FDCWD, path, buf, sizeof(buf));
	if (n <= 0)
		return 0;
	v = strtoul(buf, &end, 16);
	if (end == buf || (*end && *end != '\n') || v > 0xffff)
		return 0;
	return v;
}

static int oa_cmp_offer(const void *a, const void *b)
{
	const struct oa_i915_offer *x = a, *y = b;

	/* The table's order (IGT's, RenderBasic first), then by uuid. */
	if (x->set && y->set)
		return x->set < y->set ? -1 : x->set > y->set;
	if (x->set || y->set)
		return x->set ? -1 : 1;
	return strcmp(x->uuid, y->uuid);
}

/**
 * oa_i915_offered - the metric sets a card's sysfs offers
 * @card: its sysfs directory, <root>/class/drm/cardN
 * @metrics: the table of its GPU (oa_i915_metrics_of()), or NULL
 * @out: a malloc'ed array of them, known sets first in the table's
 *	order, then the others by uuid; the caller frees it
 *
 * An entry of cardN/metrics/ is a set when it is named as a uuid and its
 * id file holds a number other than 0.
 *
 * Return: how many (0, and *@out NULL, when none or no such directory),
 * or -1 when out of memory.
 */
int oa_i915_offered(const char *card, const struct oa_metric_platform *metrics,
		    struct oa_i915_offer **out)
{
	char path[PATH_MAX + 96];
	struct oa_i915_offer *o = NULL, *bigger;
	struct dirent *e;
	uint8_t u[16];
	int n = 0, cap = 0;
	uint64_t id;
	DIR *dir;

	*out = NULL;
	snprintf(path, sizeof(path), "%s/metrics", card);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((e = readdir(dir))) {
		if (!oa_metric_uuid_parse(e->d_name, u))
			continue;
		snprintf(path, sizeof(path), "%s/metrics/%s/id", card,
			 e->d_name);
		if (file_read_u64(path, &id) || !id)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			bigger = realloc(o, cap * sizeof(*o));
			if (!bigger) {
				free(o);
				closedir(dir);
				return -1;
			}
			o = bigger;
		}
		oa_metric_uuid_format(u, o[n].uuid);
		o[n].id = id;
		o[n].set = oa_metric_set_by_uuid(metrics, o[n].uuid);
		n++;
	}
	closedir(dir);
	if (n)
		qsort(o, n, sizeof(*o), oa_cmp_offer);
	*out = o;
	return n;
}

/*
 * What the card offers, malloc'ed, or NULL when out of memory:
 * "RenderBasic (0fc397c0-...), ComputeBasic (...), ...", known sets by
 * name, others by uuid alone; "none".
 */
static char *oa_i915_offer_list(const char *card,
				const struct oa_metric_platform *metrics)
{
	struct oa_i915_offer *o;
	char *text = NULL;
	size_t size;
	int i, n;
	FILE *f;

	n = oa_i915_offered(card, metrics, &o);
	if (n < 0)
		return NULL;
	f = open_memstream(&text, &size);
	if (f && !n)
		fputs("none", f);
	for (i = 0; f && i < n; i++) {
		if (o[i].set)
			fprintf(f, "%s%s (%s)", i ? ", " : "",
				oa_metric_str(o[i].set->symbol), o[i].uuid);
		else
			fprintf(f, "%s%s", i ? ", " : "", o[i].uuid);
	}
	if (!f || fclose(f)) {
		free(text);
		text = NULL;
	}
	free(o);
	return text;
}

/**
 * oa_i915_no_set - the one line for a set a card does not have
 * @card: its sysfs directory, "" when none was found
 * @metrics: its platform's table, for the names of what it has
 * @which: @fmt ends where the path goes: "CARD/metrics, which has: LIST"
 *	follows it (else "; CARD/metrics has: LIST")
 * @fmt: why, a printf format and its arguments
 *
 * xe lists its sets in sysfs as i915 does, so its path says it so too.
 */
void oa_i915_no_set(const char *card, const struct oa_metric_platform *metrics,
		    bool which, const char *fmt, ...)
{
	char *why = NULL, *offer = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&why, fmt, ap) < 0)
		why = NULL;
	va_end(ap);
	if (!card[0]) {
		pr_err("%s; no sysfs directory of its card was found under %s/class/drm\n",
		       why ? why : strerror(ENOMEM), oa_node_sysfs_root());
		free(why);
		return;
	}
	offer = oa_i915_offer_list(card, metrics);
	pr_err("%s%s%s/metrics%s %s\n", why ? why : strerror(ENOMEM),
	       which ? "" : "; ", card, which ? ", which has:" : " has:",
	       offer ? offer : strerror(ENOMEM));
	free(why);
	free(offer);
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
static size_t oa_i915_query_topology(const struct oa_i915 *d, void *buf,
				     size_t size, const char **why)
{
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
 * @d: the device
 * @buf: room for it, aligned for struct drm_i915_query_topology_info
 * @size: bytes of @buf
 *
 * Return: its bytes; on a failed query a minimal stand-in and a warning.
 */
static size_t oa_i915_topology(const struct oa_i915 *d, void *buf,
			       size_t size)
{
	const char *why;
	size_t len = oa_i915_query_topology(d, buf, size, &why);

	if (len)
		return len;
	pr_err("warning: %s: the topology query failed (%s): writing one slice of one subslice of 8 EUs, so EU metrics will be off\n",
	       d->node, why);
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
static int oa_i915_try_config(const struct oa_i915 *d, const char *uuid,
			      const uint32_t *lists[3], unsigned int n_mux,
			      unsigned int n_boolean, unsigned int n_flex)
{
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

static void oa_i915_remove_config(const struct oa_i915 *d, uint64_t id)
{
	oa_node_ioctl(d->fd, DRM_IOCTL_I915_PERF_REMOVE_CONFIG, &id);
}

static const char *const oa_i915_list_name[3] = { "mux", "boolean", "flex" };

/*
 * i915 refused a configuration with EINVAL and says no more: ask it which
 * register, by offering each list alone, then the shortest prefix of the
 * guilty list that it refuses (each accepted trial is removed at once).
 * Its own whitelists judge, whichever kernel this is.  Return: the list
 * (0 mux, 1 boolean, 2 flex) and in @at the register's index, or -1.
 */
static int oa_i915_refused_reg(const struct oa_i915 *d, const char *uuid,
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
		id = oa_i915_try_config(d, uuid, lists, k[0], k[1], k[2]);
		if (id > 0) {
			oa_i915_remove_config(d, id);
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
			id = oa_i915_try_config(d, uuid, lists, k[0], k[1], k[2]);
			if (id > 0) {
				oa_i915_remove_config(d, id);
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
static void oa_i915_explain_add(const struct oa_i915 *d,
				const struct oa_i915_metric *m, int err,
				const uint32_t *lists[3], const unsigned int n[3])
{
	unsigned int at;
	int l;

	switch (err) {
	case EACCES:
	case EPERM:
		pr_err("%s: not allowed to add metric set %s (%s) to i915, which offers it only once added: that needs CAP_PERFMON (or root) while dev.i915.perf_stream_paranoid is 1 (sysctl dev.i915.perf_stream_paranoid=0 lifts it)\n",
		       d->node, m->name, m->uuid);
		return;
	case EINVAL:
		l = oa_i915_refused_reg(d, m->uuid, lists, n, &at);
		if (l >= 0) {
			pr_err("%s: i915 refused metric set %s (%s): its %s register %u of %u, 0x%08x = 0x%08x, is not one this kernel lets userspace program on this GPU\n",
			       d->node, m->name, m->uuid, oa_i915_list_name[l],
			       at + 1, n[l], lists[l][2 * at],
			       lists[l][2 * at + 1]);
			return;
		}
		break;
	case 524:	/* ENOTSUPP, the kernel's own: no OA here */
		pr_err("%s: i915 has no OA support for this GPU (ENOTSUPP)\n",
		       d->node);
		return;
	}
	pr_err("%s: i915 refused to add metric set %s (%s), %u mux, %u boolean and %u flex registers: %s\n",
	       d->node, m->name, m->uuid, n[0], n[1], n[2], strerror(err));
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
int oa_i915_add_regs(const struct oa_i915 *d, struct oa_i915_metric *m,
		     const uint32_t *lists[3], const unsigned int n[3])
{
	int id, err;

	id = oa_i915_try_config(d, m->uuid, lists, n[0], n[1], n[2]);
	if (id > 0) {
		m->id = id;
		m->added = true;
		return 0;
	}
	err = id ? errno : EPROTO;
	if (err == EADDRINUSE && !oa_node_set_id(d->card, m->uuid, &m->id))
		return 0;
	oa_i915_explain_add(d, m, err, lists, n);
	return -1;
}

/*
 * The registers of @set on this device: a few sets of Broadwell, Skylake,
 * Broxton and Cannon Lake program some mux registers only on some slice
 * or subslice masks or revisions, as IGT does (oa/metric-sets.h), so the
 * device's topology decides.  False when the table has none for @set.
 */
static bool oa_i915_set_regs(const struct oa_i915 *d,
			     const struct oa_metric_set *set,
			     struct oa_metric_i915_regs *r)
{
	union {	/* aligned for the struct's u16 fields */
		struct drm_i915_query_topology_info info;
		uint8_t bytes[4096];
	} topo;
	struct oa_metrics_device dev = {
		.device_id = d->device_id, .revision = d->revision,
		.topology = &topo,
	};
	struct oa_metric_i915_device on;
	struct oa_metrics_vars v;
	const char *why;

	/* Without a topology only the sets that do not ask are known. */
	dev.topology_len = oa_i915_query_topology(d, &topo, sizeof(topo), &why);
	if (!dev.topology_len)
		return oa_metric_set_i915_regs(set, r);
	oa_metrics_device_vars(&dev, &v);
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
static int oa_i915_add_config(const struct oa_i915 *d,
			      const struct oa_metric_set *set,
			      struct oa_i915_metric *m)
{
	struct oa_metric_i915_regs r;
	const uint32_t *lists[3];
	unsigned int n[3];
	int err = -1, l;

	if (!oa_i915_set_regs(d, set, &r))
		return -ENOENT;
	n[0] = r.n_mux;
	n[1] = r.n_boolean;
	n[2] = r.n_flex;
	lists[0] = oa_i915_reg_list(&r, oa_metric_i915_mux, n[0]);
	lists[1] = oa_i915_reg_list(&r, oa_metric_i915_boolean, n[1]);
	lists[2] = oa_i915_reg_list(&r, oa_metric_i915_flex, n[2]);
	if (lists[0] && lists[1] && lists[2])
		err = oa_i915_add_regs(d, m, lists, n);
	else
		pr_err("out of memory\n");
	for (l = 0; l < 3; l++)
		free((void *)lists[l]);
	return err;
}

/**
 * oa_i915_metric_set - the metric set @arg names, and its kernel id
 * @d: the device
 * @arg: a set's name in IGT's table for the device's GPU ("RenderBasic",
 *	oa/metric-sets.h), or a uuid
 * @m: filled in; the name is the table's, else the uuid
 *
 * The kernel knows sets by uuid, in <card>/metrics/UUID/id.  A set it
 * does not offer yet is added when the table has its registers (and
 * removed by oa_i915_metric_release()); a name the table does not have,
 * or a set neither offered nor known, fails with one line listing what
 * the card offers.
 */
int oa_i915_metric_set(const struct oa_i915 *d, const char *arg,
		       struct oa_i915_metric *m)
{
	const struct oa_metric_platform *metrics;
	const struct oa_metric_set *set;
	int err;
	uint8_t u[16];

	memset(m, 0, sizeof(*m));
	metrics = oa_i915_metrics_of(d->device_id);
	if (oa_metric_uuid_parse(arg, u)) {
		oa_metric_uuid_format(u, m->uuid);
		set = oa_metric_set_by_uuid(metrics, m->uuid);
	} else {
		set = oa_metric_set_find(metrics, arg);
		if (!set) {
			if (metrics)
				oa_i915_no_set(d->card, metrics, false,
					       "metric set '%s' is not one of IGT's %s sets (device 0x%04x)",
					       arg, metrics->name, d->device_id);
			else
				oa_i915_no_set(d->card, metrics, false,
					       "metric set '%s' is not known: IGT has no metric sets for device 0x%04x, so give a uuid",
					       arg, d->device_id);
			return -1;
		}
		oa_metric_uuid_format(set->uuid, m->uuid);
	}
	snprintf(m->name, sizeof(m->name), "%s",
		 set ? oa_metric_str(set->symbol) : m->uuid);
	if (!d->card[0]) {
		pr_err("%s: its card's sysfs directory was not found under %s/class/drm: cannot look up metric set ids\n",
		       d->node, oa_node_sysfs_root());
		return -1;
	}
	err = oa_node_set_id(d->card, m->uuid, &m->id);
	if (err == -ENOENT && set) {
		err = oa_i915_add_config(d, set, m);
		if (err != -ENOENT)
			return err;
	}
	if (err == -ENOENT) {
		oa_i915_no_set(d->card, metrics, true,
			       "metric set %s (%s) is not offered by this kernel for this GPU, and gpuprof has no registers to add it with: not in ",
			       m->name, m->uuid);
		return -1;
	}
	if (err) {
		oa_i915_no_set(d->card, metrics, false,
			       "metric set %s (%s): %s/metrics/%s/id: %s",
			       m->name, m->uuid, d->card, m->uuid,
			       strerror(-err));
		return -1;
	}
	return 0;
}

/**
 * oa_i915_metric_release - remove @m's set from i915 if it was added here
 * @d: the device, still open
 * @m: the set oa_i915_metric_set() chose
 *
 * A set that was there before is left as it was.  A program killed before
 * this leaves its set added; the next run then finds it offered.
 */
void oa_i915_metric_release(const struct oa_i915 *d, struct oa_i915_metric *m)
{
	if (!m->added || d->fd < 0)
		return;
	if (oa_node_ioctl(d->fd, DRM_IOCTL_I915_PERF_REMOVE_CONFIG, &m->id))
		pr_err("%s: removing metric set %s (id %llu) from i915: %s\n",
		       d->node, m->name, (unsigned long long)m->id,
		       strerror(errno));
	m->added = false;
}

/*
 * How often i915 checks the OA buffer for reports (and wakes poll()).
 * Its own default, 5 ms, is kept; only reports faster than that would
 * fill a quarter of the 16 MiB OA buffer (16384 reports of 256 bytes)
 * make it shorter, down to i915's minimum of 100 us.  Sent only to
 * kernels of perf revision 5 and later, which know the property.
 */
uint64_t oa_i915_poll_period(uint64_t report_period_ns)
{
	uint64_t p = 5000000;

	if (report_period_ns < p / 16384)
		p = report_period_ns * 16384;
	return p < OA_I915_MIN_POLL_NS ? OA_I915_MIN_POLL_NS : p;
}

/* One line on why i915 refused the stream. */
static void oa_explain_open(const struct oa_i915 *d,
			    const struct oa_i915_metric *m, int err,
			    unsigned int exponent, uint64_t period_ns)
{
	uint64_t rate = period_ns ? NSEC / period_ns : 0;

	switch (err) {
	case EACCES:
	case EPERM:
		if (rate > OA_DEFAULT_MAX_RATE_HZ)
			pr_err("%s: not allowed to open a system-wide i915-perf stream: that needs CAP_PERFMON (or root) while dev.i915.perf_stream_paranoid is 1, and %llu reports/s (--period %llu ns) is above dev.i915.oa_max_sample_rate (100000 by default) without CAP_PERFMON\n",
			       d->node, (unsigned long long)rate,
			       (unsigned long long)period_ns);
		else
			pr_err("%s: not allowed to open a system-wide i915-perf stream: that needs CAP_PERFMON (or root) while dev.i915.perf_stream_paranoid is 1 (sysctl dev.i915.perf_stream_paranoid=0 lifts it)\n",
			       d->node);
		break;
	case EBUSY:
		pr_err("%s: another i915-perf stream is open, and i915 allows only one system-wide: stop the other OA user (gputop, IGT, a GPU profiler) first\n",
		       d->node);
		break;
	case ENODEV:
		pr_err("no Intel GPU (i915) found with i915-perf: %s has no OA support in this kernel (ENODEV)\n",
		       d->node);
		break;
	case EINVAL:
		/* Our exponent, format and poll period follow i915's rules;
		 * the metric set id is what can go stale or not match. */
		pr_err("%s: i915 refused the stream properties (EINVAL): most likely the metric set, id %llu of %s (%s), is not a configuration for this GPU; the others were report format %u, exponent %u%s\n",
		       d->node, (unsigned long long)m->id, m->name, m->uuid,
		       oa_i915_format(d), exponent,
		       d->perf_revision >= 5 ? " and a poll period" : "");
		break;
	default:
		pr_err("%s: opening the i915-perf stream: %s\n",
		       d->node, strerror(err));
		break;
	}
}

/**
 * oa_i915_perf_open - open a system-wide OA stream
 * @d: the device
 * @m: the metric set
 * @exponent: the OA exponent (oa_sim_exponent_for_period())
 * @period_ns: its period, for the messages and the poll period
 *
 * Return: the stream fd (close-on-exec, non-blocking), or -1.
 */
int oa_i915_perf_open(const struct oa_i915 *d, const struct oa_i915_metric *m,
		      unsigned int exponent, uint64_t period_ns)
{
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
	OA_PROP(DRM_I915_PERF_PROP_OA_FORMAT, oa_i915_format(d));
	OA_PROP(DRM_I915_PERF_PROP_OA_EXPONENT, exponent);
	if (d->perf_revision >= 5)
		OA_PROP(DRM_I915_PERF_PROP_POLL_OA_PERIOD,
			oa_i915_poll_period(period_ns));
#undef OA_PROP
	p.num_properties = n / 2;
	fd = oa_node_ioctl(d->fd, DRM_IOCTL_I915_PERF_OPEN, &p);
	if (fd < 0)
		oa_explain_open(d, m, errno, exponent, period_ns);
	return fd;
}

static void oa_i915_device_info(const struct oa_i915 *d,
				const struct oa_i915_metric *m,
				struct gpuprof_oa_device_info *info)
{
	memset(info, 0, sizeof(*info));
	info->timestamp_frequency = d->timestamp_hz;
	info->device_id = d->device_id;
	info->device_revision = d->revision;
	info->gt_min_frequency = d->gt_min_hz;
	info->gt_max_frequency = d->gt_max_hz;
	info->engine_class = I915_ENGINE_CLASS_RENDER;
	info->engine_instance = 0;
	info->oa_format = oa_i915_format(d);
	snprintf(info->metric_set_name, sizeof(info->metric_set_name), "%s",
		 m->name);
	snprintf(info->metric_set_uuid, sizeof(info->metric_set_uuid), "%s",
		 m->uuid);
}

/**
 * oa_i915_write_header - the records a recording of @d starts with
 * @d: the device
 * @m: the metric set its stream was opened with
 * @w: the recording
 *
 * VERSION, DEVICE_INFO and TOPOLOGY (design.rst 5.2); a write failure
 * sticks in @w.
 */
void oa_i915_write_header(const struct oa_i915 *d,
			  const struct oa_i915_metric *m, struct oa_writer *w)
{
	struct gpuprof_oa_device_info info;
	union {	/* aligned for the struct's u16 fields */
		struct drm_i915_query_topology_info info;
		uint8_t bytes[4096];
	} topo;
	size_t len;

	struct gpuprof_oa_driver drv = {
		.kernel = d->kernel, .submission = d->submission,
	};

	oa_i915_device_info(d, m, &info);
	len = oa_i915_topology(d, &topo, sizeof(topo));
	oa_write_version(w);
	/* Before DEVICE_INFO, so readers apply its rules to every report. */
	oa_write_record(w, GPUPROF_OA_RECORD_DRIVER, &drv, sizeof(drv));
	oa_write_device_info(w, &info);
	oa_write_topology(w, &topo.info, len);
}

/*
 * One read() of an i915-perf stream gives whole records only, failing
 * with ENOSPC when not even one fits: the buffer starts at
 * OA_READ_SIZE and doubles up to the OA buffer's largest size, 16 MiB,
 * past which no record can be.
 */
#define OA_READ_SIZE		(64u << 10)
#define OA_READ_SIZE_MAX	(16u << 20)
/* Reads per drain, then back to the caller and its clock. */
#define OA_DRAIN_READS		64

/* The records of one read(), to @fn; -1 (message out) on a bad one. */
static int oa_i915_pass(const struct oa_i915 *d, const uint8_t *p, size_t n,
			size_t report_size, oa_i915_record_fn fn, void *arg)
{
	struct oa_i915_bad bad;

	if (!oa_i915_records(p, n, report_size, fn, arg, &bad))
		return 0;
	if (bad.left >= sizeof(struct gpuprof_oa_record_header))
		pr_err("%s: the i915-perf stream gave a record of type %u and %u bytes, which it never should: stopping\n",
		       d->node, bad.type, bad.size);
	else
		pr_err("%s: the i915-perf stream gave %zu bytes of a record: stopping\n",
		       d->node, bad.left);
	return -1;
}

/**
 * oa_i915_drain - the records an i915-perf stream holds now, each to @fn
 * @d: the device
 * @stream: its stream, from oa_i915_perf_open(), non-blocking
 * @b: the read buffer, empty at first; the caller frees b->p
 * @report_size: what a SAMPLE must carry (0: any size, checked later)
 * @fn: called for each record, in order
 * @arg: for @fn
 *
 * Reads until the stream has nothing more or OA_DRAIN_READS reads were
 * made, so that a busy stream does not starve the caller's clock points.
 *
 * Return: 0; -1 when the stream failed or gave a bad record, with the
 * message out: the caller reads no more of it.
 */
int oa_i915_drain(const struct oa_i915 *d, int stream, struct oa_i915_buf *b,
		  size_t report_size, oa_i915_record_fn fn, void *arg)
{
	uint8_t *bigger;
	ssize_t n;
	int reads;

	if (!b->p) {
		b->p = malloc(OA_READ_SIZE);
		if (!b->p) {
			pr_err("%s\n", strerror(ENOMEM));
			return -1;
		}
		b->size = OA_READ_SIZE;
	}
	for (reads = 0; reads < OA_DRAIN_READS; reads++) {
		n = read(stream, b->p, b->size);
		if (n > 0) {
			if (oa_i915_pass(d, b->p, n, report_size, fn, arg))
				return -1;
			continue;
		}
		if (n == 0 || errno == EAGAIN)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno == ENOSPC && b->size < OA_READ_SIZE_MAX) {
			/* Not even one record fitted: make room. */
			bigger = realloc(b->p, b->size * 2);
			if (!bigger)
				break;
			b->p = bigger;
			b->size *= 2;
			continue;
		}
		if (errno == EIO) {
			pr_err("%s: the i915-perf stream failed (EIO): i915 disabled it, after a GPU reset or because the OA unit was taken over\n",
			       d->node);
			return -1;
		}
		break;
	}
	if (reads == OA_DRAIN_READS)
		return 0;
	pr_err("%s: reading the i915-perf stream: %s\n", d->node,
	       strerror(errno ? errno : ENOMEM));
	return -1;
}

/*
 * RING_TIMESTAMP of the render ring.  The 8-byte register must be read
 * as two 32-bit halves (I915_REG_READ_8B_WA, i915_drm.h: a single 8-byte
 * read returns an invalid value); kernels before 4.9 do not know the flag
 * and say EINVAL, and then the plain read is all there is.
 */
static int oa_reg_read(struct oa_i915 *d, uint64_t *val)
{
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
 * oa_i915_correlate - a correlation point of CLOCK_MONOTONIC and the GPU
 * @d: the device
 * @cpu_ns: CLOCK_MONOTONIC at the point
 * @gpu_ts: the 64-bit GPU timestamp there
 * @window_ns: the error bound: the clock_gettime() window of the read
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
static int oa_i915_correlate(struct oa_i915 *d, uint64_t *cpu_ns,
			     uint64_t *gpu_ts, uint64_t *window_ns)
{
	uint64_t t0, t1, raw, best_raw = 0, best_w = UINT64_MAX, mid = 0;
	int i;

	for (i = 0; i < 3; i++) {
		t0 = oa_node_mono_ns();
		if (oa_reg_read(d, &raw)) {
			pr_err("%s: reading RING_TIMESTAMP (DRM_IOCTL_I915_REG_READ 0x%x): %s: no clock correlation is possible\n",
			       d->node, OA_I915_RING_TIMESTAMP, strerror(errno));
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
	*cpu_ns = mid;
	*gpu_ts = oa_node_ticks_to_oa(d->last_cs, d->cs_hz, d->timestamp_hz);
	*window_ns = best_w;
	return 0;
}

/**
 * oa_i915_write_correlation - a correlation point of @d, into @w
 * @d: the device
 * @w: the recording; a write failure sticks in it
 *
 * Return: 0, or -1 when the GPU clock could not be read (message out).
 */
int oa_i915_write_correlation(struct oa_i915 *d, struct oa_writer *w)
{
	uint64_t cpu, gpu, window;

	if (oa_i915_correlate(d, &cpu, &gpu, &window))
		return -1;
	oa_write_correlation(w, cpu, gpu, window);
	return 0;
}
