// SPDX-License-Identifier: GPL-2.0-only
/*
 * The latency sketch of perf gpu report (report/sketch.h).
 */
#include <stdlib.h>
#include <string.h>

#include "report/sketch.h"

void report_sketch_init(struct report_sketch *s)
{
	memset(s, 0, sizeof(*s));
}

void report_sketch_free(struct report_sketch *s)
{
	unsigned int g;

	for (g = 0; g < SKETCH_GROUPS; g++)
		free(s->groups[g]);
	memset(s, 0, sizeof(*s));
}

static void bucket_of(uint64_t v, unsigned int *g, unsigned int *i)
{
	unsigned int k;

	if (v < SKETCH_SUB) {
		*g = 0;
		*i = v;
		return;
	}
	k = 63 - __builtin_clzll(v);
	*g = k - SKETCH_SUB_BITS + 1;
	/* The top bit set: the next six bits pick one of 64. */
	*i = (v >> (k - SKETCH_SUB_BITS)) - SKETCH_SUB;
}

/* The value bucket @i of group @g stands for: the middle of its range. */
static uint64_t bucket_value(unsigned int g, unsigned int i)
{
	uint64_t low, width;

	if (g == 0)
		return i;
	width = 1ull << (g - 1);
	low = (uint64_t)(SKETCH_SUB + i) << (g - 1);
	return low + (width - 1) / 2;
}

static int add_count(struct report_sketch *s, unsigned int g, unsigned int i,
		     uint64_t n)
{
	if (!s->groups[g]) {
		s->groups[g] = calloc(SKETCH_SUB, sizeof(uint64_t));
		if (!s->groups[g])
			return -1;
	}
	s->groups[g][i] += n;
	return 0;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

int report_sketch_add(struct report_sketch *s, uint64_t v)
{
	unsigned int g, i;

	bucket_of(v, &g, &i);
	if (add_count(s, g, i, 1))
		return -1;
	if (!s->count || v < s->min)
		s->min = v;
	if (!s->count || v > s->max)
		s->max = v;
	s->count++;
	s->sum = sat_add(s->sum, v);
	return 0;
}

int report_sketch_merge(struct report_sketch *dst,
			const struct report_sketch *src)
{
	unsigned int g, i;

	if (!src->count)
		return 0;
	for (g = 0; g < SKETCH_GROUPS; g++) {
		if (!src->groups[g])
			continue;
		for (i = 0; i < SKETCH_SUB; i++)
			if (src->groups[g][i] &&
			    add_count(dst, g, i, src->groups[g][i]))
				return -1;
	}
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (!dst->count || src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum = sat_add(dst->sum, src->sum);
	return 0;
}

static uint64_t clamp(const struct report_sketch *s, uint64_t v)
{
	if (v < s->min)
		return s->min;
	if (v > s->max)
		return s->max;
	return v;
}

uint64_t report_sketch_quantile(const struct report_sketch *s,
				unsigned int permille)
{
	unsigned __int128 want;
	uint64_t rank, seen = 0;
	unsigned int g, i;

	if (!s->count)
		return 0;
	if (permille > 1000)
		permille = 1000;
	/* ceil(q * n), at least 1: the rank of the value wanted. */
	want = ((unsigned __int128)s->count * permille + 999) / 1000;
	rank = want ? (uint64_t)want : 1;
	for (g = 0; g < SKETCH_GROUPS; g++) {
		if (!s->groups[g])
			continue;
		for (i = 0; i < SKETCH_SUB; i++) {
			seen += s->groups[g][i];
			if (seen >= rank)
				return clamp(s, bucket_value(g, i));
		}
	}
	return s->max;
}

uint64_t report_sketch_mean(const struct report_sketch *s)
{
	return s->count ? s->sum / s->count : 0;
}

void report_sketch_walk(const struct report_sketch *s,
			void (*fn)(void *arg, uint64_t value, uint64_t count),
			void *arg)
{
	unsigned int g, i;

	for (g = 0; g < SKETCH_GROUPS; g++) {
		if (!s->groups[g])
			continue;
		for (i = 0; i < SKETCH_SUB; i++)
			if (s->groups[g][i])
				fn(arg, clamp(s, bucket_value(g, i)),
				   s->groups[g][i]);
	}
}
