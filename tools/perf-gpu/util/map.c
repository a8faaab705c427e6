// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hash map of util/map.h.  Keys are mixed with a 64-bit
 * finalizer (splitmix64's), since the callers' keys are small integers
 * or a context in the high half and a seqno in the low half, which would
 * otherwise pile up in a few slots.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/map.h"

#define MIN_SLOTS 64

void u64_map_init(struct u64_map *m)
{
	m->slots = NULL;
	m->mask = 0;
	m->nr = 0;
}

void u64_map_free(struct u64_map *m)
{
	free(m->slots);
	u64_map_init(m);
}

void u64_map_clear(struct u64_map *m)
{
	if (m->slots)
		memset(m->slots, 0, (m->mask + 1) * sizeof(*m->slots));
	m->nr = 0;
}

/* The slot of @key, or the empty slot where it would go. */
static size_t find(const struct u64_map *m, uint64_t key)
{
	size_t i = map_hash_u64(key) & m->mask;

	while (m->slots[i].used && m->slots[i].key != key)
		i = (i + 1) & m->mask;
	return i;
}

bool u64_map_get(const struct u64_map *m, uint64_t key, uint64_t *value)
{
	size_t i;

	if (!m->slots)
		return false;
	i = find(m, key);
	if (!m->slots[i].used)
		return false;
	*value = m->slots[i].value;
	return true;
}

static int grow(struct u64_map *m)
{
	size_t n = m->slots ? 2 * (m->mask + 1) : MIN_SLOTS, i;
	struct u64_map old = *m;

	m->slots = calloc(n, sizeof(*m->slots));
	if (!m->slots) {
		*m = old;
		return -ENOMEM;
	}
	m->mask = n - 1;
	for (i = 0; old.slots && i <= old.mask; i++)
		if (old.slots[i].used)
			m->slots[find(m, old.slots[i].key)] = old.slots[i];
	free(old.slots);
	return 0;
}

int u64_map_put(struct u64_map *m, uint64_t key, uint64_t value)
{
	size_t i;

	/* At most half full: probes stay short. */
	if ((!m->slots || 2 * (m->nr + 1) > m->mask + 1) && grow(m))
		return -ENOMEM;
	i = find(m, key);
	if (!m->slots[i].used) {
		m->slots[i].used = true;
		m->slots[i].key = key;
		m->nr++;
	}
	m->slots[i].value = value;
	return 0;
}

bool u64_map_del(struct u64_map *m, uint64_t key, uint64_t *value)
{
	size_t hole, j, home;

	if (!m->slots)
		return false;
	hole = find(m, key);
	if (!m->slots[hole].used)
		return false;
	if (value)
		*value = m->slots[hole].value;
	/*
	 * Shift back the entries after the hole that could not sit in it
	 * before: those whose home slot is not cyclically in (hole, j].
	 */
	for (j = (hole + 1) & m->mask; m->slots[j].used; j = (j + 1) & m->mask) {
		home = map_hash_u64(m->slots[j].key) & m->mask;
		if (((j - home) & m->mask) >= ((j - hole) & m->mask)) {
			m->slots[hole] = m->slots[j];
			hole = j;
		}
	}
	m->slots[hole].used = false;
	m->nr--;
	return true;
}

bool u64_map_next(const struct u64_map *m, size_t *pos, uint64_t *key,
		  uint64_t *value)
{
	size_t i;

	for (i = *pos; m->slots && i <= m->mask; i++) {
		if (!m->slots[i].used)
			continue;
		if (key)
			*key = m->slots[i].key;
		if (value)
			*value = m->slots[i].value;
		*pos = i + 1;
		return true;
	}
	*pos = i;
	return false;
}

uint64_t map_hash_str(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * MAP_HASH_PRIME;
	return h;
}
