/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A latency sketch for perf gpu report: the distribution of a stream of
 * u64 values (ns) in constant memory, with count, sum, min and max
 * exact and quantiles from log-linear buckets.
 *
 * Values below 64 have a bucket each (exact).  Above, each power of two
 * [2^k, 2^(k+1)) is cut into 64 equal buckets of width 2^(k-6); a
 * quantile is the middle of its bucket, clamped to [min, max], so it is
 * within 1/128 of the value it stands for (half a bucket width over the
 * bucket's lowest value, which is at least 64 widths).  Buckets come in
 * groups of 64 counters, one group per power of two, allocated when a
 * value first falls in it: at most 59 groups (30 KiB), a few in practice
 * (latencies from 1 us to 1 s span 20).
 *
 * The quantile q (in thousandths) is the smallest value v such that at
 * least ceil(q * count / 1000) of the values are <= v: the p99 of 100
 * values is the 99th smallest.
 */
#ifndef PERF_GPU_REPORT_SKETCH_H
#define PERF_GPU_REPORT_SKETCH_H

#include <stdint.h>

#define SKETCH_SUB_BITS		6
#define SKETCH_SUB		(1u << SKETCH_SUB_BITS)
/* Group 0 holds 0..63; group g >= 1 holds [2^(g+5), 2^(g+6)). */
#define SKETCH_GROUPS		(64 - SKETCH_SUB_BITS + 1)

struct report_sketch {
	uint64_t count;
	uint64_t sum;		/* saturates at UINT64_MAX */
	uint64_t min, max;	/* valid when count > 0 */
	uint64_t *groups[SKETCH_GROUPS];
};

void report_sketch_init(struct report_sketch *s);
void report_sketch_free(struct report_sketch *s);

/* Add one value: 0, or -1 when a bucket group cannot be allocated. */
int report_sketch_add(struct report_sketch *s, uint64_t v);

/* Add every value of @src to @dst: 0, or -1 out of memory. */
int report_sketch_merge(struct report_sketch *dst,
			const struct report_sketch *src);

/* The quantile @permille (500 = median, 990 = p99); 0 when empty. */
uint64_t report_sketch_quantile(const struct report_sketch *s,
				unsigned int permille);

/* The mean, rounded down; 0 when empty. */
uint64_t report_sketch_mean(const struct report_sketch *s);

/*
 * Call @fn for each bucket holding values, in increasing order, with
 * the value the bucket stands for (as for quantiles) and its count.
 */
void report_sketch_walk(const struct report_sketch *s,
			void (*fn)(void *arg, uint64_t value, uint64_t count),
			void *arg);

#endif
