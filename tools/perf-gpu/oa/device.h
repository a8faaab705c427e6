/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One OA device, whichever driver serves it (design.rst 6.4): gpuprof-oa
 * --device and perf gpu record's live OA source open, read and close an
 * OA stream through this interface alone, and never ask which driver it
 * is.  A backend is a table of operations (struct oa_device_ops), as
 * xe_observation.c hands an observation ioctl to xe_oa.c: i915's
 * (oa/i915.c), xe's (oa/xe.c) and the simulator's (oa/sim-device.c,
 * a live stream of oa/sim.c without any GPU).  What the backends share is
 * here, once: choosing the driver, the refusal of --oa-unit where there
 * are no units, the OA exponent nearest a period, the metric set a name
 * or uuid means, the read loop, the recording's first records, a
 * correlation point from a backend's clock sample, and removing at the
 * end a metric set this run added.
 *
 * Every function that fails prints one line on stderr saying why
 * (util/debug.h) and returns -1: the caller only stops.
 */
#ifndef PERF_GPU_OA_DEVICE_H
#define PERF_GPU_OA_DEVICE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../../uapi/gpuprof_oa.h"
#include "oa/i915-records.h"

struct gpuprof_oa_platform;
struct oa_writer;
struct oa_metric_set;
struct oa_metric_platform;

/* Which driver's OA is recorded (--oa-source). */
enum oa_driver { OA_DRIVER_ANY, OA_DRIVER_I915, OA_DRIVER_XE, OA_DRIVER_SIM };

/* The largest OA exponent, on every generation and both drivers. */
#define OA_MAX_EXPONENT		31

/* A metric set a stream is opened with. */
struct oa_set {
	char name[256];			/* the table's, else the uuid */
	char uuid[40];
	uint64_t id;			/* the kernel's, from sysfs or added */
	bool added;			/* added by this run: removed at the end */
};

/* A read buffer, empty at first; grown as a backend needs. */
struct oa_read_buf {
	uint8_t *p;
	size_t size;
};

/*
 * A clock sample: CLOCK_MONOTONIC and the 64-bit OA timestamp at one
 * instant, and the width of the window the two were read in (the
 * error bound).  A correlation point of the recording (design.rst 4).
 */
struct oa_clock_sample {
	uint64_t cpu_ns;
	uint64_t gpu_ts;
	uint64_t window_ns;
};

/* What the caller asks for. */
struct oa_device_config {
	enum oa_driver driver;		/* OA_DRIVER_ANY: the first GPU found */
	const char *node;		/* the render node, NULL: the first */
	uint32_t unit;			/* xe's OA unit */
	bool unit_given;
	/* The end of --oa-unit's refusal on a driver without units; NULL:
	 * the backend's own words ("this GPU is driven by i915"). */
	const char *unit_refusal;
	const char *metric_set;		/* a name or uuid; NULL: RenderBasic */
	uint64_t period_ns;		/* asked for; rounded by the exponent */
	bool verbose;			/* a backend may say more on stderr */
};

struct oa_device;

/**
 * struct oa_device_ops - one backend
 * @name: the driver, as messages name it ("i915", "xe", "sim")
 * @stream_name: its stream, as messages name it ("i915-perf stream")
 * @no_units: for a backend without OA units, the end of --oa-unit's
 *	refusal ("this GPU is driven by i915"); NULL for xe
 * @open: open the device and fill in what struct oa_device says @open
 *	fills in; @d->priv is the backend's
 * @metric_set: the set @arg names into @d->set (added to the driver if
 *	this run must), and @d->format and @d->report_size
 * @stream_open: open the stream of @d->set at @d->exponent; return its
 *	fd, close-on-exec and non-blocking, or -1
 * @drain: the records the stream holds now, each to @fn (a SAMPLE per
 *	report, REPORT_LOST and BUFFER_LOST for losses); 0, or -1 when the
 *	stream failed (the message out)
 * @correlate: a clock sample, now
 * @topology: the DEVICE_TOPOLOGY payload into @buf (aligned for struct
 *	drm_i915_query_topology_info, @size bytes); its bytes, 0 for none
 * @remove_set: remove set @id from the driver; 0, or -1 and errno.
 *	NULL for a backend that never adds a set (@d->set.added)
 * @close: close what @open opened, free @d->priv; called once, and even
 *	when @open failed half-way
 */
struct oa_device_ops {
	const char *name;
	const char *stream_name;
	const char *no_units;
	int (*open)(struct oa_device *d, const struct oa_device_config *cfg);
	int (*metric_set)(struct oa_device *d, const char *arg);
	int (*stream_open)(struct oa_device *d);
	int (*drain)(struct oa_device *d, oa_i915_record_fn fn, void *arg);
	int (*correlate)(struct oa_device *d, struct oa_clock_sample *c);
	size_t (*topology)(struct oa_device *d, void *buf, size_t size);
	int (*remove_set)(const struct oa_device *d, uint64_t id);
	void (*close)(struct oa_device *d);
};

extern const struct oa_device_ops oa_i915_ops, oa_xe_ops, oa_sim_ops;

/**
 * struct oa_device - an open OA device and its stream
 * @ops: its backend, set by oa_device_choose()
 * @priv: the backend's own state
 *
 * What the backend's @open fills in:
 * @node: the render node, for messages ("sim" for the simulator)
 * @card: its card's sysfs directory, "" when none was found
 * @device_id: the PCI device id
 * @revision: the device revision
 * @platform: the GPU (module/oa_platform.c)
 * @kernel: the running kernel, GPUPROF_OA_KERNEL()
 * @timestamp_hz: the OA timestamp frequency
 * @gt_min_hz: the GT range, 0 when unknown
 * @gt_max_hz: see @gt_min_hz
 * @engine_class: the engine the stream is of
 * @engine_instance: see @engine_class
 * @drv: the DRIVER record, written when @has_drv
 * @has_drv: see @drv
 *
 * What the backend's @metric_set fills in:
 * @set: the metric set
 * @format: the report format, GPUPROF_OA_FORMAT_* (@open may set the
 *	driver's default before)
 * @report_size: the bytes of a report
 *
 * And device.c:
 * @exponent: the OA exponent nearest the period asked for
 * @period_ns: its period
 * @stream: the stream fd, -1 when none
 * @buf: the read buffer (oa_device_read())
 * @cfg: what was asked for
 * @opened: the backend's @open was called: its @close is due
 */
struct oa_device {
	const struct oa_device_ops *ops;
	void *priv;
	char node[PATH_MAX];
	char card[PATH_MAX];
	uint32_t device_id;
	uint32_t revision;
	const struct gpuprof_oa_platform *platform;
	uint32_t kernel;
	uint64_t timestamp_hz;
	uint32_t gt_min_hz, gt_max_hz;
	uint32_t engine_class, engine_instance;
	struct gpuprof_oa_driver drv;
	bool has_drv;
	struct oa_set set;
	uint32_t format;
	size_t report_size;
	unsigned int exponent;
	uint64_t period_ns;
	int stream;
	struct oa_read_buf buf;
	struct oa_device_config cfg;
	bool opened;
};

int oa_parse_driver(const char *arg, enum oa_driver *d);
int oa_device_driver(const char *node, enum oa_driver want,
		     enum oa_driver *got);
void oa_device_refuse_unit(const char *why);

int oa_device_choose(struct oa_device *d, const struct oa_device_config *cfg);
int oa_device_open(struct oa_device *d);
void oa_device_write_header(struct oa_device *d, struct oa_writer *w);
int oa_device_correlate(struct oa_device *d, struct oa_writer *w);
int oa_device_drain(struct oa_device *d, oa_i915_record_fn fn, void *arg);
void oa_device_close(struct oa_device *d);

/* The OA exponent nearest a period, and an exponent's period. */
unsigned int oa_exponent_for_period(uint64_t period_ns, uint64_t freq);
uint64_t oa_exponent_to_ns(unsigned int exponent, uint64_t freq);

/* A metric set a card offers in sysfs (oa_card_offered()). */
struct oa_card_offer {
	char uuid[40];
	uint64_t id;			/* the kernel's */
	const struct oa_metric_set *set;	/* the table's, NULL if unknown */
};

/* For the backends, and perf gpu list. */
uint32_t oa_card_device_id(const char *card);
int oa_card_offered(const char *card, const struct oa_metric_platform *metrics,
		    struct oa_card_offer **out);
__attribute__((format(printf, 4, 5)))
void oa_card_no_set(const char *card, const struct oa_metric_platform *metrics,
		    bool which, const char *fmt, ...);
int oa_open_node(const char *driver, const char *node, char *path,
		 size_t size);
const struct oa_metric_platform *oa_metrics_of(uint32_t device_id);
int oa_set_lookup(uint32_t device_id, const char *arg, struct oa_set *m,
		  const struct oa_metric_platform **metrics,
		  const struct oa_metric_set **set);
void oa_set_unknown(const struct oa_device *dev, const char *arg,
		    const struct oa_metric_platform *metrics);
int oa_set_need_card(const char *node, const char *card);
int oa_device_read(struct oa_device *d, size_t first_size,
		   int (*take)(struct oa_device *d, const uint8_t *p, size_t n,
			       oa_i915_record_fn fn, void *arg),
		   int (*eio)(struct oa_device *d, oa_i915_record_fn fn,
			      void *arg),
		   oa_i915_record_fn fn, void *arg);

#endif
