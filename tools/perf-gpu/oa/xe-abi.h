/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The meaning of what xe (Linux 6.12, and 7.3's additions) hands over
 * and takes, without I/O,
 * for oa/xe.c and the host tests: the OA units of a QUERY_OA_UNITS reply,
 * xe's OA_FORMAT encoding of our report formats per platform and unit
 * (from the format table, module/oa_platform.c),
 * the records an OA status stands for, GT reference clock cycles as
 * OA timestamp ticks, a GT_TOPOLOGY reply in i915's topology layout,
 * and the names of xe's OA unit types and stream properties.  Facts from
 * xe_oa.c and xe_query.c of 6.12 (the lead's .deps/xe-oa-facts.md has
 * them with line numbers) and of 7.3.
 */
#ifndef PERF_GPU_OA_XE_ABI_H
#define PERF_GPU_OA_XE_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../../module/oa_platform.h"
#include "oa/xe-uapi.h"

/* One unit of a QUERY_OA_UNITS reply, copied out. */
struct oa_xe_unit {
	uint32_t id;			/* what OA_UNIT_ID takes */
	uint32_t type;			/* OA_XE_OA_UNIT_TYPE_* */
	uint64_t capabilities;
	uint64_t timestamp_hz;		/* oa_timestamp_freq */
	uint64_t num_engines;
	/* Its first engine, when num_engines: ENGINE_CYCLES asks it. */
	struct oa_xe_engine_class_instance engine;
	/*
	 * Its GT: the unit's gt_id where xe gives one (7.3 on,
	 * OA_XE_OA_CAPS_OA_UNIT_GT_ID), else its first engine's; has_gt
	 * false when neither says (6.12, no engine).
	 */
	uint16_t gt_id;
	bool has_gt;
};

/* What oa_xe_unit_find() found. */
enum oa_xe_unit_result {
	OA_XE_UNIT_FOUND,
	OA_XE_UNIT_ABSENT,		/* no unit has that id */
	OA_XE_UNIT_MALFORMED,		/* a unit runs past the reply */
};

enum oa_xe_unit_result oa_xe_unit_find(const void *reply, size_t size,
				       uint32_t id, struct oa_xe_unit *out);
uint32_t oa_xe_unit_count(const void *reply, size_t size);

const char *oa_xe_unit_type_name(uint32_t type);
const char *oa_xe_prop_name(uint32_t prop);
void oa_xe_caps_names(uint64_t caps, char *buf, size_t size);

/* xe's side of the format table (module/oa_platform.c). */
const struct gpuprof_oa_format *oa_xe_format_of(unsigned int ip,
						uint32_t format);
bool oa_xe_format_fits_unit(const struct gpuprof_oa_format *f,
			    uint32_t unit_type);
uint32_t oa_xe_format_value(const struct gpuprof_oa_format *f);
uint32_t oa_xe_default_format(unsigned int ip, uint32_t unit_type);

/* The records a STATUS's bits stand for, and the bits only noted. */
#define OA_XE_STATUS_NOTED (OA_XE_OASTATUS_COUNTER_OVERFLOW | \
			    OA_XE_OASTATUS_MMIO_TRG_Q_FULL)
unsigned int oa_xe_status_records(uint64_t status, uint32_t records[2]);

size_t oa_xe_topology(const void *reply, size_t size, uint16_t gt_id,
		      void *buf, size_t buf_size);

uint64_t oa_xe_cycles_unwrap(uint64_t last, uint64_t raw, unsigned int width);

#endif
