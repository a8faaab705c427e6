/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one hash map of tools/perf-gpu, from 64-bit keys to 64-bit values
 * (an index into an array, or an address), and its key mixers.  Users:
 * report's model (jobs and contexts in flight, clients, timelines,
 * pairs: report/model.c), ranges' processes (report/ranges.c) and
 * drm_sched jobs and waits (report/sched.c); timechart's fences waiting
 * for their signal, the last signal of each fence context, timelines,
 * vblank tracks, marks, clients by pid and interned range names
 * (builtin-timechart.c, timechart/html.c); convert's clients,
 * timelines, crtcs and fences in flight (builtin-convert.c); perfetto's
 * interned names and sorter groups; drm/clients.c's clients by id in a
 * scan; thread names by tid (perfdata/comm-table.c for report's reader
 * and script, record/store.c); the command filter's processes and
 * fences (record/command-filter.c); the files top holds open between
 * scans (util/fdcache.c).
 * Open addressing with linear probing and backward-shift deletion, so a
 * long recording that inits and signals millions of fences keeps a
 * table the size of the fences in flight, not of all the fences ever
 * seen; 16-byte slots, an inline look-up and one multiplication a home
 * slot, so that report's model and the recorder's filter, which look up
 * several keys an event, are no slower on it than they were on tables of
 * their own (report: as many instructions on report_bench's recording;
 * the filter's add, look-up and delete: twice as fast).  Not users, two
 * caches of a fixed size whose evictions are their behaviour:
 * perfetto/trace.h's 16 names by address and report/model.c's 256 OA
 * context bindings (which decide who gets OA counts).
 */
#ifndef PERF_GPU_UTIL_MAP_H
#define PERF_GPU_UTIL_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A slot: key 0 marks it free (the map keeps key 0 apart). */
struct u64_map_slot {
	uint64_t key;
	uint64_t value;
};

struct u64_map {
	struct u64_map_slot *slots;
	size_t mask;		/* slots - 1; the size is a power of two */
	unsigned int shift;	/* 64 - log2(slots) */
	size_t nr;		/* keys, key 0 among them */
	bool has_zero;		/* key 0 is there, its value: */
	uint64_t zero_value;
};

void u64_map_init(struct u64_map *m);
void u64_map_free(struct u64_map *m);

/* Set @key to @value, adding it when new: 0, or -ENOMEM. */
int u64_map_put(struct u64_map *m, uint64_t key, uint64_t value);

/* Remove @key; true when it was there (its value in *@value if asked). */
bool u64_map_del(struct u64_map *m, uint64_t key, uint64_t *value);

/* Remove every key, keeping the slots for the next fill. */
void u64_map_clear(struct u64_map *m);

/*
 * The next key from *@pos (0 to start) and its value: key 0 first, then
 * in slot order; false at the end.  No put or del between two calls of
 * one walk.
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
 * The home slot of @key: Fibonacci hashing, the top bits of the key
 * times 2^64 / phi, which depend on every bit of the key (a context in
 * the high half, a seqno in the low half) at one multiplication.
 */
static inline size_t u64_map_home(const struct u64_map *m, uint64_t key)
{
	return (key * 0x9e3779b97f4a7c15ull) >> m->shift;
}

/*
 * The value of @key in *@value: true when it is there.  Inline: report
 * looks up a job, a context, a client and a timeline for each event.
 */
static inline bool u64_map_get(const struct u64_map *m, uint64_t key,
			       uint64_t *value)
{
	size_t i;

	if (!key) {
		if (m->has_zero)
			*value = m->zero_value;
		return m->has_zero;
	}
	if (!m->slots)
		return false;
	for (i = u64_map_home(m, key); m->slots[i].key;
	     i = (i + 1) & m->mask) {
		if (m->slots[i].key == key) {
			*value = m->slots[i].value;
			return true;
		}
	}
	return false;
}

/*
 * Keys made from something wider than a key (a string, two strings) may
 * be equal for two things.  Such a map keeps each thing at the first key
 * from its hash that was free when it came (hash, hash + 1, ...) and
 * never deletes one: a look-up walks those keys until @same says a value
 * is the thing (true, its value in *@value) or a key is free (false, the
 * key to put the thing at in *@key).  *@key starts as the hash.
 */
static inline bool u64_map_find_hashed(const struct u64_map *m, uint64_t *key,
				       bool (*same)(uint64_t value,
						    const void *arg),
				       const void *arg, uint64_t *value)
{
	uint64_t v;

	for (;; ++*key) {
		if (!u64_map_get(m, *key, &v))
			return false;
		if (same(v, arg)) {
			*value = v;
			return true;
		}
	}
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
 * A key for the pair of strings (@a, @b), a separator byte no string
 * has between them, so that ("ab", "c") and ("a", "bc") differ: a
 * timeline's (driver, name).
 */
uint64_t map_hash_str_pair(const char *a, const char *b);

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
