/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one hash map of tools/perf-gpu, from 64-bit keys to 64-bit values
 * (an index into an array, or an address), and its key mixers.  Users:
 * report's ranges' processes (report/ranges.c) and drm_sched jobs and
 * waits (report/sched.c); timechart's fences waiting for their
 * signal, the last signal of each fence context, timelines, vblank
 * tracks, marks, clients by pid and interned range names
 * (builtin-timechart.c, timechart/html.c); convert's clients,
 * timelines, crtcs and fences in flight (builtin-convert.c); perfetto's
 * interned names and sorter groups; drm/clients.c's clients by id in a
 * scan; thread names by tid (perfdata/comm-table.c for report's reader
 * and script, record/store.c).
 * Open addressing with linear probing and backward-shift deletion, so a
 * long recording that inits and signals millions of fences keeps a
 * table the size of the fences in flight, not of all the fences ever
 * seen.  Not users, each saying why: util/fdcache.c (slots with an fd,
 * inode and pass in line), perfetto/trace.h's cache of 16 names by
 * address, report/model.c's chained tables and 256 OA context bindings
 * and record/command-filter.c's sets (these two faster on their own).
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

/* Remove every key, keeping the slots for the next fill. */
void u64_map_clear(struct u64_map *m);

/*
 * The next key from *@pos (0 to start) and its value, in slot order:
 * false at the end.  No put or del between two calls of one walk.
 */
bool u64_map_next(const struct u64_map *m, size_t *pos, uint64_t *key,
		  uint64_t *value);

/*
 * The mixer of the keys (splitmix64's finalizer): a bijection, for a
 * spread-out value of an integer.
 */
static inline uint64_t map_hash_u64(uint64_t k)
{
	k ^= k >> 30;
	k *= 0xbf58476d1ce4e5b9ull;
	k ^= k >> 27;
	k *= 0x94d049bb133111ebull;
	k ^= k >> 31;
	return k;
}

/*
 * A key for a string: FNV-1a of @s continuing from @h (MAP_HASH_SEED to
 * start).  Keys of two strings can be equal: a map keyed by them keeps
 * the string to compare.
 */
#define MAP_HASH_SEED	0xcbf29ce484222325ull
#define MAP_HASH_PRIME	0x100000001b3ull
uint64_t map_hash_str(uint64_t h, const char *s);

/*
 * @v mixed into the key @h as one more FNV-1a step: a separator byte
 * between two strings (0 for a string's NUL, or one no string has), or
 * a small field.
 */
static inline uint64_t map_hash_field(uint64_t h, uint64_t v)
{
	return (h ^ v) * MAP_HASH_PRIME;
}

#endif
