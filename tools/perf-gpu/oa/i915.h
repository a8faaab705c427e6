/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The i915 side of gpuprof-oa --device and of perf gpu record's i915 OA
 * source: finding an i915 render node, asking it what it is, choosing a
 * metric set from sysfs, opening an i915-perf OA stream, reading its
 * records and RING_TIMESTAMP for clock correlation, writing them as a
 * recording (design.rst 4).  Every function that fails prints one line
 * on stderr saying why, in plain words (util/debug.h: after the name of
 * whichever program runs it), and returns -1: the caller only stops.
 *
 * Test hook: $GPUPROF_SYSFS_ROOT replaces "/sys" for every sysfs file
 * read here (the metric set ids and the GT frequencies), so the host tests
 * can give a fake tree beside the ioctl shim of selftests/i915-shim/.
 */
#ifndef PERF_GPU_OA_I915_H
#define PERF_GPU_OA_I915_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../../uapi/gpuprof_oa.h"
#include "oa/i915-records.h"

/* The render ring's RING_TIMESTAMP (RENDER_RING_BASE 0x2000 + 0x358). */
#define OA_I915_RING_TIMESTAMP	0x2358
/* i915_drm.h of 6.12, not 6.1's: the OA unit's own timestamp rate. */
#define OA_I915_PARAM_OA_TIMESTAMP_FREQUENCY	57
/* i915 wants at least 100 us between its checks of the OA buffer. */
#define OA_I915_MIN_POLL_NS	100000ull

struct oa_i915 {
	int fd;				/* the render node */
	char node[PATH_MAX];
	char card[PATH_MAX];		/* sysfs dir of its card, "" if none */
	uint32_t device_id;
	uint32_t revision;
	uint64_t timestamp_hz;		/* the OA reports' timestamp frequency */
	uint64_t cs_hz;			/* RING_TIMESTAMP's: the same but on DG2, MTL */
	int perf_revision;
	unsigned int gen;		/* gpuprof_oa_gen_of_device() */
	const struct gpuprof_oa_platform *platform;
	uint32_t kernel;		/* GPUPROF_OA_KERNEL() of uname */
	uint32_t submission;		/* GPUPROF_OA_SUBMISSION_* */
	uint32_t gt_min_hz, gt_max_hz;	/* 0 when sysfs does not say */
	/* RING_TIMESTAMP reading. */
	uint64_t reg_offset;		/* with I915_REG_READ_8B_WA, or not */
	bool have_gpu;
	uint64_t last_cs;		/* the last point's 64-bit RING_TIMESTAMP */
};

struct oa_i915_metric {
	char name[256];
	char uuid[40];
	uint64_t id;			/* the kernel's, from sysfs or ADD_CONFIG */
	bool added;			/* registered here: removed at the end */
};

/* A metric set a card offers in sysfs (oa_i915_offered()). */
struct oa_metric_set;
struct oa_metric_platform;
struct oa_i915_offer {
	char uuid[40];
	uint64_t id;			/* the kernel's */
	const struct oa_metric_set *set;	/* the table's, NULL if unknown */
};

int oa_i915_open(struct oa_i915 *d, const char *node);
void oa_i915_close(struct oa_i915 *d);
uint32_t oa_i915_format(const struct oa_i915 *d);
int oa_i915_metric_set(const struct oa_i915 *d, const char *arg,
		       struct oa_i915_metric *m);
void oa_i915_metric_release(const struct oa_i915 *d, struct oa_i915_metric *m);
int oa_i915_add_regs(const struct oa_i915 *d, struct oa_i915_metric *m,
		     const uint32_t *lists[3], const unsigned int n[3]);
const struct oa_metric_platform *oa_i915_metrics_of(uint32_t device_id);
uint32_t oa_i915_card_device_id(const char *card);
__attribute__((format(printf, 4, 5)))
void oa_i915_no_set(const char *card, const struct oa_metric_platform *metrics,
		    bool which, const char *fmt, ...);
int oa_i915_offered(const char *card, const struct oa_metric_platform *metrics,
		    struct oa_i915_offer **out);
uint64_t oa_i915_poll_period(uint64_t report_period_ns);
int oa_i915_perf_open(const struct oa_i915 *d, const struct oa_i915_metric *m,
		      unsigned int exponent, uint64_t period_ns);

/* Writing a recording of the device's stream (oa/writer.h). */
struct oa_writer;
void oa_i915_write_header(const struct oa_i915 *d,
			  const struct oa_i915_metric *m, struct oa_writer *w);
int oa_i915_write_correlation(struct oa_i915 *d, struct oa_writer *w);

/* The buffer oa_i915_drain() reads into: zeroed at first. */
struct oa_i915_buf {
	uint8_t *p;
	size_t size;
};
int oa_i915_drain(const struct oa_i915 *d, int stream, struct oa_i915_buf *b,
		  size_t report_size, oa_i915_record_fn fn, void *arg);

#endif
