/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The xe side of gpuprof-oa --device and of perf gpu record's OA source:
 * finding an xe render node, asking it what it is and which OA units it
 * has, choosing a metric set (registering it with xe when xe does not
 * have it yet), opening an OA stream on one unit through
 * DRM_IOCTL_XE_OBSERVATION, reading its bare reports and losses, and
 * ENGINE_CYCLES for clock correlation, all written as a recording of
 * design.rst 5 (the same records as the i915 path, plus DRIVER = XE).
 * Linux 6.12's uAPI, declared in oa/xe-uapi.h.  Every function that
 * fails prints one line on stderr saying why (util/debug.h) and returns
 * -1: the caller only stops.
 *
 * The name, uuid and id of a metric set and the read buffer are the i915
 * path's structs (oa/i915.h): the callers handle both paths alike.
 *
 * Test hook: $GPUPROF_SYSFS_ROOT replaces "/sys" for every sysfs file
 * read here, as in oa/i915.c, for the ioctl shim of selftests/xe-shim/.
 */
#ifndef PERF_GPU_OA_XE_H
#define PERF_GPU_OA_XE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../../uapi/gpuprof_oa.h"
#include "oa/i915-records.h"
#include "oa/i915.h"
#include "oa/xe-abi.h"

struct oa_xe {
	int fd;				/* the render node */
	char node[PATH_MAX];
	char card[PATH_MAX];		/* sysfs dir of its card, "" if none */
	uint32_t device_id;
	uint32_t revision;
	const struct gpuprof_oa_platform *platform;
	uint32_t kernel;		/* GPUPROF_OA_KERNEL() of uname */
	uint32_t gt_min_hz, gt_max_hz;	/* 0 when sysfs does not say */
	struct oa_xe_unit unit;		/* the one streamed from */
	uint64_t timestamp_hz;		/* its OA timestamp frequency */
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
	/* The report format, once the metric set is chosen. */
	uint32_t format;		/* GPUPROF_OA_FORMAT_* */
	uint32_t format_value;		/* xe's encoding of it */
	size_t report_size;
	/* ENGINE_CYCLES, extended to 64 bits. */
	bool have_cycles;
	uint64_t last_cycles;
	/* STATUS bits said once on stderr (OA_XE_STATUS_NOTED). */
	uint64_t noted;
};

int oa_xe_open(struct oa_xe *d, const char *node, uint32_t unit_id);
void oa_xe_close(struct oa_xe *d);
int oa_xe_metric_set(struct oa_xe *d, const char *arg,
		     struct oa_i915_metric *m);
int oa_xe_stream_open(const struct oa_xe *d, const struct oa_i915_metric *m,
		      unsigned int exponent);

struct oa_writer;
void oa_xe_write_header(const struct oa_xe *d, const struct oa_i915_metric *m,
			struct oa_writer *w);
int oa_xe_write_correlation(struct oa_xe *d, struct oa_writer *w);
int oa_xe_drain(struct oa_xe *d, int stream, struct oa_i915_buf *b,
		oa_i915_record_fn fn, void *arg);

/* Which driver --device records from (oa_device_driver()). */
enum oa_driver { OA_DRIVER_ANY, OA_DRIVER_I915, OA_DRIVER_XE };

int oa_device_driver(const char *node, enum oa_driver want,
		     enum oa_driver *got);
int oa_parse_driver(const char *arg, enum oa_driver *d);

#endif
