/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A hash map from 64-bit keys to 64-bit values: timechart's fences
 * waiting for their signal (context and seqno to init time), the last
 * signal of each fence context, clients by pid, interned range names by
 * hash; report's drm_sched jobs in flight.  Open addressing with linear
 * probing and backward-shift deletion, so a long recording that inits
 * and signals millions of fences keeps a table the size of the fences in
 * flight, not of all the fences ever seen.
 */
#ifndef PERF_GPU_UTIL_MAP_H
#define PERF_GPU_UTIL_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct u64_map_slot {
	uint64_t key;
	uint64_t value;
	bool used;
};

struct u64_map {
	struct u64_map_slot *slots;
	size_t mask;		/* slots - 1; the size is a power of two */
	size_t nr;
};

void u64_map_init(struct u64_map *m);
void u64_map_free(struct u64_map *m);

/* The value of @key in *@value: true when it is there. */
bool u64_map_get(const struct u64_map *m, uint64_t key, uint64_t *value);

/* Set @key to @value, adding it when new: 0, or -ENOMEM. */
int u64_map_put(struct u64_map *m, uint64_t key, uint64_t value);

/* Remove @key; true when it was there (its value in *@value if asked). */
bool u64_map_del(struct u64_map *m, uint64_t key, uint64_t *value);

/*
 * A key for a string: FNV-1a of @s continuing from @h (MAP_HASH_SEED to
 * start).  Keys of two strings can be equal: a map keyed by them keeps
 * the string to compare.
 */
#define MAP_HASH_SEED	0xcbf29ce484222325ull
uint64_t map_hash_str(uint64_t h, const char *s);

#endif
