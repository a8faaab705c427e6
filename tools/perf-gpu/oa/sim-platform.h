/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the OA simulator (oa/sim.h) makes of each Intel GPU: the OA
 * timestamp frequency i915 (xe, on Xe2) reports there, a GT clock and its range, the
 * GT's topology (slices, subslices, EUs) and the report format, one row
 * per IGT 1.27.1 metric file (gpuprof_oa_platform_of_device()->metrics).
 * The frequencies follow the kernel's rules; the topologies are one
 * plausible SKU of the platform, not every SKU.
 */
#ifndef PERF_GPU_OA_SIM_PLATFORM_H
#define PERF_GPU_OA_SIM_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

/**
 * struct oa_sim_platform - one simulated GPU
 * @metrics: IGT's metric file stem ("tglgt2")
 * @ip: graphics IP (major * 100 + minor), for ids without a metric file
 * @timestamp_hz: the OA timestamp frequency i915 (xe) reports
 * @gt_hz: the GT clock the simulator runs at, fixed
 * @gt_min_hz: the GT range DEVICE_INFO declares
 * @gt_max_hz: see @gt_min_hz
 * @slices: slices present, each with @subslices of @eus EUs
 * @subslices: see @slices
 * @eus: see @slices
 * @max_subslices: the topology's subslice count per slice (i915's)
 * @max_eus: the topology's EUs per subslice (i915's)
 * @threads: hardware threads per EU (IGT's EuThreadsCount)
 * @format: the report format the simulator writes, GPUPROF_OA_FORMAT_*
 */
struct oa_sim_platform {
	const char *metrics;
	uint16_t ip;
	uint64_t timestamp_hz;
	uint64_t gt_hz;
	uint32_t gt_min_hz, gt_max_hz;
	uint8_t slices, subslices, eus;
	uint8_t max_subslices, max_eus;
	uint8_t threads;
	uint32_t format;
};

extern const struct oa_sim_platform oa_sim_platforms[];
extern const unsigned int oa_sim_n_platforms;

/*
 * The row of @device_id: its metric file's, else the first of the
 * nearest graphics IP at or below its own in its generation, else Tiger
 * Lake GT2's.
 */
const struct oa_sim_platform *oa_sim_platform_of_device(uint32_t device_id);

/* The row of IGT's metric file stem @metrics, or NULL. */
const struct oa_sim_platform *oa_sim_platform_find(const char *metrics);

static inline unsigned int oa_sim_platform_n_eus(const struct oa_sim_platform *p)
{
	return p->slices * p->subslices * p->eus;
}

static inline unsigned int
oa_sim_platform_n_subslices(const struct oa_sim_platform *p)
{
	return p->slices * p->subslices;
}

/*
 * The platform's DRM_I915_QUERY_TOPOLOGY_INFO: the struct, the slice
 * mask, per slice its subslice mask bytes, per subslice its EU mask
 * bytes; the first @slices, @subslices and @eus bits set.
 * Return: the bytes written to @buf, 0 when @size is too small.
 */
size_t oa_sim_platform_topology(const struct oa_sim_platform *p, void *buf,
				size_t size);

#endif
