/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The counters of an OA metric set, computed from the deltas between two
 * reports (struct gpuprof_oa_deltas), as IGT 1.27.1 computes them: the
 * equations, operators, device variables and quirks oa/metric-sets.h
 * documents.
 *
 * oa_metrics_init() takes a set and the device (its id, revision,
 * timestamp frequency, GT range and DEVICE_TOPOLOGY bytes), computes the
 * device variables from the topology, keeps the counters whose
 * availability condition holds there and compiles every equation of the
 * set once.  oa_metrics_compute() then evaluates the whole set on one
 * deltas, in set order, without allocating; oa_metrics_value() gives
 * the i-th available counter's value.
 *
 * Every counter of the set is computed, available or not: an equation
 * may name a counter that the device lacks ($Name), and IGT computes
 * that one all the same.
 */
#ifndef PERF_GPU_OA_METRICS_H
#define PERF_GPU_OA_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../../module/oa_decode.h"
#include "oa/metric-sets.h"

/* Bounds of the compiled form; IGT 1.27.1's largest set has 70 counters. */
#define OA_METRICS_MAX_COUNTERS	128
#define OA_METRICS_MAX_TOKENS	4096
#define OA_METRICS_STACK	64

/* What a counter's equation gives: a u64 or a double (C's types). */
struct oa_metric_value {
	bool is_double;
	uint64_t u;
	double d;
};

/* The device a recording comes from (its DEVICE_INFO and topology). */
struct oa_metrics_device {
	uint32_t device_id;
	uint32_t revision;
	uint64_t timestamp_frequency;		/* Hz */
	uint64_t gt_min_hz, gt_max_hz;
	const void *topology;	/* struct drm_i915_query_topology_info and masks */
	size_t topology_len;	/* 0: none, every topology variable is 0 */
};

/* The device variables of metric-sets.h, as IGT computes them. */
struct oa_metrics_vars {
	uint64_t n_eus;			/* EuCoresTotalCount */
	uint64_t n_slices;		/* EuSlicesTotalCount */
	uint64_t n_subslices;		/* EuSubslicesTotalCount */
	uint64_t n_subslices_half;	/* EuDualSubslicesSlice0123Count */
	uint64_t eu_threads;		/* EuThreadsCount */
	uint64_t slice_mask;		/* SliceMask */
	uint64_t subslice_mask;		/* SubsliceMask */
	uint64_t timestamp_frequency;
	uint64_t gt_min_hz, gt_max_hz;
	uint64_t revision;
	/* The subslice mask bytes of slice 0 ($GtSlice<s>DualSubslice<t>). */
	uint8_t ss0[16];
	unsigned int ss0_len;
};

/* One token of a compiled equation. */
struct oa_metrics_tok {
	uint8_t kind;		/* OA_TOK_* (metrics.c) */
	uint8_t op;
	uint16_t idx;
	uint64_t num;
};

struct oa_metrics {
	const struct oa_metric_set *set;
	struct oa_metrics_vars vars;
	unsigned int n;				/* available counters */
	uint16_t avail[OA_METRICS_MAX_COUNTERS];	/* their set index */
	uint16_t first[OA_METRICS_MAX_COUNTERS];	/* per set counter */
	uint16_t ntok[OA_METRICS_MAX_COUNTERS];
	struct oa_metrics_tok tok[OA_METRICS_MAX_TOKENS];
	struct oa_metric_value value[OA_METRICS_MAX_COUNTERS];	/* per set counter */
};

/*
 * The set a recording names on its device: the metric file of
 * gpuprof_oa_platform_of_device(@device_id), the set of uuid @uuid
 * there, else of name @name.  NULL when the device, its platform's
 * counters or the set are not known.
 */
const struct oa_metric_set *oa_metrics_set_of(uint32_t device_id,
					      const char *name,
					      const char *uuid);

void oa_metrics_device_vars(const struct oa_metrics_device *dev,
			    struct oa_metrics_vars *v);

/* Return: 0, or -1 when @set has an equation this file cannot compile. */
int oa_metrics_init(struct oa_metrics *m, const struct oa_metric_set *set,
		    const struct oa_metrics_device *dev);

/* Every counter of the set on @d. */
void oa_metrics_compute(struct oa_metrics *m, const struct gpuprof_oa_deltas *d);

/* The @i-th available counter (i < m->n), and its last computed value. */
const struct oa_metric_counter *oa_metrics_counter(const struct oa_metrics *m,
						   unsigned int i);
const struct oa_metric_value *oa_metrics_value(const struct oa_metrics *m,
					       unsigned int i);

/* The value as IGT's reader prints it: "%" PRIu64 or "%f". */
int oa_metrics_format(const struct oa_metrics *m, unsigned int i, char *buf,
		      size_t size);

struct gpu_event;

/*
 * The device a gpu_oa:oa_device event (@ev, of kind GPU_EV_OA_DEVICE)
 * describes; its topology points into @ev, valid as long as @ev is.
 */
void oa_metrics_device_of_event(struct oa_metrics_device *dev,
				const struct gpu_event *ev);

/*
 * The metric set and device of a gpu_oa:oa_device event (@ev, of kind
 * GPU_EV_OA_DEVICE), initialised in @m.  Return: 0; -1 when the table
 * has no counters for its device or set, or a set cannot compile.
 */
int oa_metrics_init_event(struct oa_metrics *m, const struct gpu_event *ev);

/*
 * The columns a user names: @list is "all" (every available counter, in
 * set order) or names separated by commas, matched without regard to
 * case against the counters' symbols.  Fills @idx with indexes for
 * oa_metrics_value() and returns how many, or -1 with @err saying which
 * name is unknown (listing the set's counters), or that more than @max
 * are named or in the set.
 */
int oa_metrics_select(const struct oa_metrics *m, const char *list,
		      unsigned int *idx, unsigned int max, char *err,
		      size_t err_size);

/* A double to u64 as x86-64 code converts it (C leaves most undefined). */
uint64_t oa_metrics_d2u(double d);

#endif
