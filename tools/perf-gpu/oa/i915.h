/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The i915 backend of the OA device (oa/device.h, oa_i915_ops):
 * finding an i915 render node, asking it what it is, choosing a metric
 * set from sysfs (adding it when i915 lacks it), opening an i915-perf OA
 * stream, reading its records and RING_TIMESTAMP for clock correlation
 * (design.rst 4).  Declared here besides oa_i915_ops (oa/device.h): what
 * the tests call on an i915 device the backend opened.  Every function
 * that fails prints one line on stderr saying why, in plain words
 * (util/debug.h: after the name of whichever program runs it), and
 * returns -1: the caller only stops.
 *
 * Test hook: $GPUPROF_SYSFS_ROOT replaces "/sys" for every sysfs file
 * read here (the metric set ids and the GT frequencies), so the host tests
 * can give a fake tree beside the ioctl shim of selftests/i915-shim/.
 */
#ifndef PERF_GPU_OA_I915_H
#define PERF_GPU_OA_I915_H

#include <stdint.h>

#include "oa/device.h"

int oa_i915_add_regs(const struct oa_device *dev, struct oa_set *m,
		     const uint32_t *lists[3], const unsigned int n[3]);

#endif
