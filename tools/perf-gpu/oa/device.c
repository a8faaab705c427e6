// SPDX-License-Identifier: GPL-2.0-only
/*
 * One OA device over its backends (see oa/device.h, design.rst 6.4):
 * what i915, xe and the simulator share, written once.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <i915_drm.h>

#include "../../../module/oa_decode.h"
#include "oa/device.h"
#include "oa/drm-node.h"
#include "oa/metric-sets.h"
#include "oa/writer.h"
#include "oa/xe-uapi.h"
#include "util/debug.h"
#include "util/file.h"

#define NSEC 1000000000ull
/* Reads per drain, then back to the caller and its clock. */
#define OA_DRAIN_READS		64
/* No OA buffer is larger, so no record or report either. */
#define OA_READ_SIZE_MAX	(16u << 20)

/* --oa-source's (gpuprof-oa's) driver names. */
int oa_parse_driver(const char *arg, enum oa_driver *d)
{
	if (!strcmp(arg, "i915"))
		*d = OA_DRIVER_I915;
	else if (!strcmp(arg, "xe"))
		*d = OA_DRIVER_XE;
	else if (!strcmp(arg, "sim"))
		*d = OA_DRIVER_SIM;
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
 * i915 node's, else the first xe node's.  The simulator only when asked
 * for.
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

/* --oa-unit where OA has no units to choose from; @why ends the line. */
void oa_device_refuse_unit(const char *why)
{
	pr_err("--oa-unit: only xe has OA units to choose from, and %s\n",
	       why);
}

/**
 * oa_device_choose - the backend of the device @cfg asks for
 * @d: set up, nothing opened yet
 * @cfg: what is asked for, copied
 *
 * Return: 0, or -1 with the message out: no GPU of any driver found, or
 * --oa-unit given for a driver without units.
 */
int oa_device_choose(struct oa_device *d, const struct oa_device_config *cfg)
{
	enum oa_driver drv;

	memset(d, 0, sizeof(*d));
	d->stream = -1;
	d->cfg = *cfg;
	if (oa_device_driver(cfg->node, cfg->driver, &drv))
		return -1;
	d->ops = drv == OA_DRIVER_XE ? &oa_xe_ops :
		 drv == OA_DRIVER_SIM ? &oa_sim_ops : &oa_i915_ops;
	if (cfg->unit_given && d->ops->no_units) {
		oa_device_refuse_unit(cfg->unit_refusal ? cfg->unit_refusal :
				      d->ops->no_units);
		return -1;
	}
	return 0;
}

/**
 * oa_device_open - open the chosen device, its metric set and its stream
 * @d: chosen by oa_device_choose()
 *
 * The period asked for is rounded to the nearest exponent's, which
 * @d->period_ns then holds.  On failure everything is closed again (a
 * set added meanwhile removed).
 *
 * Return: 0, or -1 with the message out.
 */
int oa_device_open(struct oa_device *d)
{
	const struct oa_device_config *cfg = &d->cfg;

	d->opened = true;
	if (d->ops->open(d, cfg) ||
	    d->ops->metric_set(d, cfg->metric_set ? cfg->metric_set :
				  "RenderBasic"))
		goto fail;
	d->exponent = oa_exponent_for_period(cfg->period_ns, d->timestamp_hz);
	d->period_ns = oa_exponent_to_ns(d->exponent, d->timestamp_hz);
	d->stream = d->ops->stream_open(d);
	if (d->stream < 0)
		goto fail;
	return 0;
fail:
	oa_device_close(d);
	return -1;
}

/**
 * oa_device_write_header - the records a recording of @d starts with
 * @d: the device, open
 * @w: the recording; a write failure sticks in it
 *
 * VERSION, the DRIVER record when the backend has one (before
 * DEVICE_INFO, so readers apply its rules to every report), DEVICE_INFO
 * and DEVICE_TOPOLOGY when the backend gives one (design.rst 5.2).
 */
void oa_device_write_header(struct oa_device *d, struct oa_writer *w)
{
	struct gpuprof_oa_device_info info;
	union {	/* aligned for the struct's u16 fields */
		struct drm_i915_query_topology_info info;
		uint8_t bytes[4096];
	} topo;
	size_t len = d->ops->topology(d, &topo, sizeof(topo));

	memset(&info, 0, sizeof(info));
	info.timestamp_frequency = d->timestamp_hz;
	info.device_id = d->device_id;
	info.device_revision = d->revision;
	info.gt_min_frequency = d->gt_min_hz;
	info.gt_max_frequency = d->gt_max_hz;
	info.engine_class = d->engine_class;
	info.engine_instance = d->engine_instance;
	info.oa_format = d->format;
	snprintf(info.metric_set_name, sizeof(info.metric_set_name), "%s",
		 d->set.name);
	snprintf(info.metric_set_uuid, sizeof(info.metric_set_uuid), "%s",
		 d->set.uuid);
	oa_write_version(w);
	if (d->has_drv)
		oa_write_record(w, GPUPROF_OA_RECORD_DRIVER, &d->drv,
				sizeof(d->drv));
	oa_write_device_info(w, &info);
	if (len)
		oa_write_topology(w, &topo.info, len);
}

/**
 * oa_device_correlate - a correlation point of @d, into @w
 * @d: the device, open
 * @w: the recording; a write failure sticks in it
 *
 * The point and its bound (CORRELATION_BOUND), from the backend's clock
 * sample.  Return: 0, or -1 when the GPU clock could not be read
 * (message out).
 */
int oa_device_correlate(struct oa_device *d, struct oa_writer *w)
{
	struct oa_clock_sample c;

	if (d->ops->correlate(d, &c))
		return -1;
	oa_write_correlation(w, c.cpu_ns, c.gpu_ts, c.window_ns);
	return 0;
}

/**
 * oa_device_drain - the records @d's stream holds now, each to @fn
 * @d: the device, open
 * @fn: called for each SAMPLE, REPORT_LOST and BUFFER_LOST record (and
 *	any newer type i915 gives), in order
 * @arg: for @fn
 *
 * Return: 0; -1 when the stream failed or gave a bad record, with the
 * message out: the caller reads no more of it.
 */
int oa_device_drain(struct oa_device *d, oa_i915_record_fn fn, void *arg)
{
	return d->ops->drain(d, fn, arg);
}

/*
 * Remove @d's metric set from the driver if this run added it.  A set
 * that was there before is left as it was; a program killed before this
 * leaves its set added, and the next run then finds it offered.
 */
static void oa_device_release_set(struct oa_device *d)
{
	if (!d->set.added || !d->ops->remove_set)
		return;
	if (d->ops->remove_set(d, d->set.id))
		pr_err("%s: removing metric set %s (id %llu) from %s: %s\n",
		       d->node, d->set.name, (unsigned long long)d->set.id,
		       d->ops->name, strerror(errno));
	d->set.added = false;
}

/**
 * oa_device_close - close @d's stream, remove the set it added, close it
 * @d: the device: zeroed, chosen or open; again is harmless
 */
void oa_device_close(struct oa_device *d)
{
	if (!d->ops)
		return;
	if (d->stream >= 0)
		close(d->stream);
	d->stream = -1;
	if (d->opened) {
		oa_device_release_set(d);
		d->ops->close(d);
		d->priv = NULL;
		d->opened = false;
	}
	free(d->buf.p);
	d->buf.p = NULL;
	d->buf.size = 0;
}

/**
 * oa_exponent_for_period - the OA exponent nearest a period
 * @period_ns: the period wanted
 * @freq: the OA timestamp frequency, Hz
 *
 * Exponent e samples every 2^(e+1) timestamp ticks (design.rst 4).  The
 * result is the e whose period is nearest @period_ns (the smaller on a
 * tie), clamped to 0..31 as i915 and xe accept.  Between e and e+1 the
 * midpoint is 3 * 2^e ticks, so compare @period_ns * @freq with
 * 3 * 2^e * 1e9.
 */
unsigned int oa_exponent_for_period(uint64_t period_ns, uint64_t freq)
{
	unsigned int e;

	for (e = 0; e < OA_MAX_EXPONENT; e++)
		if ((__uint128_t)period_ns * freq <=
		    ((__uint128_t)3 << e) * NSEC)
			return e;
	return OA_MAX_EXPONENT;
}

/* The period of @exponent in ns, truncated as i915's oa_exponent_to_ns(). */
uint64_t oa_exponent_to_ns(unsigned int exponent, uint64_t freq)
{
	if (!freq || exponent > OA_MAX_EXPONENT)
		return 0;
	return (uint64_t)((__uint128_t)(2ull << exponent) * NSEC / freq);
}

/**
 * oa_open_node - a render node that @driver drives
 * @driver: "i915" or "xe", as the kernel names it
 * @node: the node given (--node), or NULL for the first @driver drives
 * @path: the node's path, out
 * @size: bytes of @path
 *
 * Return: the node's fd (close-on-exec), or -1 with the message out: no
 * such node, or @node is not there or is another driver's.
 */
int oa_open_node(const char *driver, const char *node, char *path,
		 size_t size)
{
	char name[32];
	int fd;

	if (!node) {
		fd = oa_node_find(driver, path, size);
		if (fd < 0)
			pr_err("no Intel GPU (%s) found: no /dev/dri/renderD* node is driven by %s (give one with --node)\n",
			       driver, driver);
		return fd;
	}
	snprintf(path, size, "%s", node);
	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		pr_err("%s: %s\n", node, strerror(errno));
		return -1;
	}
	oa_node_driver_name(fd, name, sizeof(name));
	if (!strcmp(name, driver))
		return fd;
	if (name[0])
		pr_err("no Intel GPU (%s) found: %s is driven by %s, not %s\n",
		       driver, node, name, driver);
	else
		pr_err("no Intel GPU (%s) found: %s is not a DRM device\n",
		       driver, node);
	close(fd);
	return -1;
}

/**
 * oa_metrics_of - the metric sets IGT describes for a GPU
 * @device_id: its PCI device id
 *
 * Return: the platform's table (oa/metric-sets.h), or NULL when IGT has
 * none for it.
 */
const struct oa_metric_platform *oa_metrics_of(uint32_t device_id)
{
	const struct gpuprof_oa_platform *p;

	p = gpuprof_oa_platform_of_device(device_id);
	return p && p->metrics ? oa_metric_platform_find(p->metrics) : NULL;
}

/**
 * oa_card_device_id - the PCI device id of a DRM card, from sysfs
 * @card: its sysfs directory, <root>/class/drm/cardN
 *
 * Return: cardN/device/device ("0x9a49"), 0 when it cannot be read.
 */
uint32_t oa_card_device_id(const char *card)
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

static int oa_card_cmp_offer(const void *a, const void *b)
{
	const struct oa_card_offer *x = a, *y = b;

	/* The table's order (IGT's, RenderBasic first), then by uuid. */
	if (x->set && y->set)
		return x->set < y->set ? -1 : x->set > y->set;
	if (x->set || y->set)
		return x->set ? -1 : 1;
	return strcmp(x->uuid, y->uuid);
}

/**
 * oa_card_offered - the metric sets a card's sysfs offers
 * @card: its sysfs directory, <root>/class/drm/cardN
 * @metrics: the table of its GPU (oa_metrics_of()), or NULL
 * @out: a malloc'ed array of them, known sets first in the table's
 *	order, then the others by uuid; the caller frees it
 *
 * An entry of cardN/metrics/ is a set when it is named as a uuid and its
 * id file holds a number other than 0.
 *
 * Return: how many (0, and *@out NULL, when none or no such directory),
 * or -1 when out of memory.
 */
int oa_card_offered(const char *card, const struct oa_metric_platform *metrics,
		    struct oa_card_offer **out)
{
	char path[PATH_MAX + 96];
	struct oa_card_offer *o = NULL, *bigger;
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
		qsort(o, n, sizeof(*o), oa_card_cmp_offer);
	*out = o;
	return n;
}

/*
 * What the card offers, malloc'ed, or NULL when out of memory:
 * "RenderBasic (0fc397c0-...), ComputeBasic (...), ...", known sets by
 * name, others by uuid alone; "none".
 */
static char *oa_card_offer_list(const char *card,
				const struct oa_metric_platform *metrics)
{
	struct oa_card_offer *o;
	char *text = NULL;
	size_t size;
	int i, n;
	FILE *f;

	n = oa_card_offered(card, metrics, &o);
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
 * oa_card_no_set - the one line for a set a card does not have
 * @card: its sysfs directory, "" when none was found
 * @metrics: its platform's table, for the names of what it has
 * @which: @fmt ends where the path goes: "CARD/metrics, which has: LIST"
 *	follows it (else "; CARD/metrics has: LIST")
 * @fmt: why, a printf format and its arguments
 *
 * xe lists its sets in sysfs as i915 does, so its path says it so too.
 */
void oa_card_no_set(const char *card, const struct oa_metric_platform *metrics,
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
	offer = oa_card_offer_list(card, metrics);
	pr_err("%s%s%s/metrics%s %s\n", why ? why : strerror(ENOMEM),
	       which ? "" : "; ", card, which ? ", which has:" : " has:",
	       offer ? offer : strerror(ENOMEM));
	free(why);
	free(offer);
}

/**
 * oa_set_unknown - the one line for a set name the tables do not have
 * @dev: the GPU (its device id and card)
 * @arg: the name given
 * @metrics: its platform's table, NULL when there is none
 *
 * Worded alike for every driver: what the tables lack, then what the
 * card offers now (oa_card_no_set()).
 */
void oa_set_unknown(const struct oa_device *dev, const char *arg,
		    const struct oa_metric_platform *metrics)
{
	if (metrics)
		oa_card_no_set(dev->card, metrics, false,
			       "metric set '%s' is not one of IGT's %s sets (device 0x%04x)",
			       arg, metrics->name, dev->device_id);
	else
		oa_card_no_set(dev->card, metrics, false,
			       "metric set '%s' is not known: IGT has no metric sets for device 0x%04x, so give a uuid",
			       arg, dev->device_id);
}

/**
 * oa_set_lookup - the metric set @arg names on a GPU
 * @device_id: the GPU's PCI device id
 * @arg: a set's name in the table of its platform (oa/metric-sets.h;
 *	case does not matter when one set matches), or a uuid
 * @m: its name (the table's, else the uuid) and uuid; the rest zero
 * @metrics: the platform's table, NULL when there is none
 * @set: the table's set, NULL for a uuid the table does not know
 *
 * Return: 0, or -1 for a name the table does not have (nothing said:
 * each driver words it).
 */
int oa_set_lookup(uint32_t device_id, const char *arg, struct oa_set *m,
		  const struct oa_metric_platform **metrics,
		  const struct oa_metric_set **set)
{
	uint8_t u[16];

	memset(m, 0, sizeof(*m));
	*metrics = oa_metrics_of(device_id);
	if (oa_metric_uuid_parse(arg, u)) {
		oa_metric_uuid_format(u, m->uuid);
		*set = oa_metric_set_by_uuid(*metrics, m->uuid);
	} else {
		*set = oa_metric_set_find(*metrics, arg);
		if (!*set)
			return -1;
		oa_metric_uuid_format((*set)->uuid, m->uuid);
	}
	snprintf(m->name, sizeof(m->name), "%s",
		 *set ? oa_metric_str((*set)->symbol) : m->uuid);
	return 0;
}

/* Sets are known by their ids under the card's sysfs: -1 without one. */
int oa_set_need_card(const char *node, const char *card)
{
	if (card[0])
		return 0;
	pr_err("%s: its card's sysfs directory was not found under %s/class/drm: cannot look up metric set ids\n",
	       node, oa_node_sysfs_root());
	return -1;
}

/**
 * oa_device_read - the reads of one drain, for a backend's @drain
 * @d: the device; its stream is read into @d->buf
 * @first_size: the buffer's first size; it doubles on ENOSPC (not one
 *	record or report fitted) up to the largest OA buffer, 16 MiB
 * @take: what was read, @n bytes at @p: to @fn; -1 (message out) stops
 * @eio: the read failed with EIO: -1 (message out) stops, 0 reads on
 * @fn: for @take and @eio
 * @arg: for @fn
 *
 * Reads until the stream has nothing more or OA_DRAIN_READS reads were
 * made, so that a busy stream does not starve the caller's clock points.
 *
 * Return: 0; -1 when the stream failed, with the message out.
 */
int oa_device_read(struct oa_device *d, size_t first_size,
		   int (*take)(struct oa_device *d, const uint8_t *p, size_t n,
			       oa_i915_record_fn fn, void *arg),
		   int (*eio)(struct oa_device *d, oa_i915_record_fn fn,
			      void *arg),
		   oa_i915_record_fn fn, void *arg)
{
	struct oa_read_buf *b = &d->buf;
	uint8_t *bigger;
	ssize_t n;
	int reads;

	if (!b->p) {
		b->p = malloc(first_size);
		if (!b->p) {
			pr_err("%s\n", strerror(ENOMEM));
			return -1;
		}
		b->size = first_size;
	}
	for (reads = 0; reads < OA_DRAIN_READS; reads++) {
		n = read(d->stream, b->p, b->size);
		if (n > 0) {
			if (take(d, b->p, n, fn, arg))
				return -1;
			continue;
		}
		if (n == 0 || errno == EAGAIN)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno == EIO) {
			if (eio(d, fn, arg))
				return -1;
			continue;
		}
		if (errno == ENOSPC && b->size < OA_READ_SIZE_MAX) {
			bigger = realloc(b->p, b->size * 2);
			if (!bigger)
				break;
			b->p = bigger;
			b->size *= 2;
			continue;
		}
		break;
	}
	if (reads == OA_DRAIN_READS)
		return 0;
	pr_err("%s: reading the %s: %s\n", d->node, d->ops->stream_name,
	       strerror(errno ? errno : ENOMEM));
	return -1;
}
