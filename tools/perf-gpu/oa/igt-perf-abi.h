/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * IGT's libi915_perf (1.27.1, libi915_perf.so.1.5) as a program that
 * dlopen()s it sees it: only the members read, at the places IGT's
 * lib/i915/perf.h puts them on x86-64, declared once for the two that
 * read them, oa/metric-sets-dump.c (the generator's source of DG2's
 * registers) and selftests/host/metric_sets_test.c (the table checked
 * against the library).  Facts read from perf.h, not its code.
 */
#ifndef PERF_GPU_OA_IGT_PERF_ABI_H
#define PERF_GPU_OA_IGT_PERF_ABI_H

#include <stddef.h>
#include <stdint.h>

#define IGT_PERF_LIBRARY	"libi915_perf.so.1.5"

struct igt_list {
	struct igt_list *prev, *next;
};

/* A register write, {u32 reg, u32 val}: struct oa_metric_reg's layout. */
struct igt_reg {
	uint32_t addr;
	uint32_t value;
};

/* struct intel_perf_logical_counter, up to its list link. */
struct igt_counter {
	const void *set;
	const char *name, *symbol_name, *desc;
	int storage, type, unit;	/* the enums of perf.h */
	void *max, *read;
	struct igt_list link;
};

/* struct intel_perf_metric_set, up to its list link. */
struct igt_set {
	const char *name, *symbol_name, *hw_config_guid;
	struct igt_counter *counters;
	int n_counters;
	uint64_t oa_metrics_set;
	int format, raw_size;
	int offsets[6];
	const struct igt_reg *b_counter_regs;
	uint32_t n_b_counter_regs;
	const struct igt_reg *mux_regs;
	uint32_t n_mux_regs;
	const struct igt_reg *flex_regs;
	uint32_t n_flex_regs;
	struct igt_list link;
};

/* struct intel_perf, up to its list of sets; the device's follows. */
struct igt_perf {
	const char *name;
	void *root_group;
	struct igt_list sets;
};

/* The set a list link is in. */
#define igt_set_of(node) \
	((struct igt_set *)((char *)(node) - offsetof(struct igt_set, link)))

/*
 * intel_perf_for_devinfo() and intel_perf_free(), as exported; the
 * topology is a struct drm_i915_query_topology_info.
 */
typedef struct igt_perf *(*igt_perf_for_devinfo_fn)(uint32_t device_id,
						     uint32_t revision,
						     uint64_t timestamp_frequency,
						     uint64_t gt_min_freq,
						     uint64_t gt_max_freq,
						     const void *topology);
typedef void (*igt_perf_free_fn)(struct igt_perf *perf);

#endif
