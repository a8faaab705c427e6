/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Writing the OA record stream (design.rst 5, the recording format
 * of IGT's i915-perf-recorder) to a FILE.  Each call writes one whole
 * record.  The first failure sticks: later calls write nothing and fail
 * too, so a caller may check only at the end (oa_writer_error()).
 * Records are written in host byte order, which is the little-endian
 * order of the format on the x86 machines that have i915.
 */
#ifndef PERF_GPU_OA_WRITER_H
#define PERF_GPU_OA_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <i915_drm.h>

#include "../../../uapi/gpuprof_oa.h"

struct oa_writer {
	FILE *f;
	int error;		/* errno of the first failure, 0 if none */
	uint64_t records;	/* records written whole */
	uint64_t bytes;
};

void oa_writer_init(struct oa_writer *w, FILE *f);
int oa_writer_error(const struct oa_writer *w);
int oa_writer_flush(struct oa_writer *w);

int oa_write_record(struct oa_writer *w, uint32_t type, const void *payload,
		    size_t len);
int oa_write_version(struct oa_writer *w);
int oa_write_device_info(struct oa_writer *w,
			 const struct gpuprof_oa_device_info *info);
int oa_write_topology(struct oa_writer *w,
		      const struct drm_i915_query_topology_info *topo,
		      size_t len);
int oa_write_correlation(struct oa_writer *w, uint64_t cpu_ns,
			 uint64_t gpu_ts, uint64_t window_ns);
int oa_write_sample(struct oa_writer *w, const void *report, size_t size);
int oa_write_report_lost(struct oa_writer *w);
int oa_write_buffer_lost(struct oa_writer *w);

/* Bytes of a topology: the struct and its masks, as i915's query sizes it. */
size_t oa_topology_size(const struct drm_i915_query_topology_info *topo);

#endif
