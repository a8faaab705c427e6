/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A hash map from 64-bit keys to 64-bit values for perf gpu timechart:
 * fences waiting for their signal (context and seqno to init time),
 * the last signal of each fence context, clients by pid, interned range
 * names by hash.  Open addressing with linear probing and backward-shift
 * deletion, so a long recording that inits and signals millions of
 * fences keeps a table the size of the fences in flight, not of all the
 * fences ever seen.
 */
#ifndef PERF_GPU_TIMECHART_MAP_H
#define PERF_GPU_TIMECHART_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tc_map_slot {
	uint64_t key;
	uint64_t value;
	bool used;
};

struct tc_map {
	struct tc_map_slot *slots;
	size_t mask;		/* slots - 1; the size is a power of two */
	size_t nr;
};

void tc_map_init(struct tc_map *m);
void tc_map_free(struct tc_map *m);

/* The value of @key in *@value: true when it is there. */
bool tc_map_get(const struct tc_map *m, uint64_t key, uint64_t *value);

/* Set @key to @value, adding it when new: 0, or -ENOMEM. */
int tc_map_put(struct tc_map *m, uint64_t key, uint64_t value);

/* Remove @key; true when it was there (its value in *@value if asked). */
bool tc_map_del(struct tc_map *m, uint64_t key, uint64_t *value);

#endif
