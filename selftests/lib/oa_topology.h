/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The DRM_I915_QUERY_TOPOLOGY_INFO the OA tests give their Tiger Lake
 * GT2: one slice of six subslices of 16 EUs, the subslice mask chosen
 * per test (a fused subslice takes its sampler counters away).
 */
#ifndef GPUPROF_TEST_OA_TOPOLOGY_H
#define GPUPROF_TEST_OA_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <i915_drm.h>

/* Room for the struct and the masks of small topologies. */
union oa_topology {
	struct drm_i915_query_topology_info t;
	uint8_t bytes[sizeof(struct drm_i915_query_topology_info) + 64];
};

/* Tiger Lake GT2 with subslice mask @ss; Return: its length. */
static inline size_t tgl_topology(union oa_topology *u, uint8_t ss)
{
	memset(u, 0, sizeof(*u));
	u->t.max_slices = 1;
	u->t.max_subslices = 6;
	u->t.max_eus_per_subslice = 16;
	u->t.subslice_offset = 1;
	u->t.subslice_stride = 1;
	u->t.eu_offset = 2;
	u->t.eu_stride = 2;
	u->t.data[0] = 1;
	u->t.data[1] = ss;
	memset(u->t.data + 2, 0xff, 12);
	return sizeof(u->t) + 14;
}

#endif
