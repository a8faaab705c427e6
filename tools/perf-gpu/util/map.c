// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hash map of util/map.h.  A key's home slot is the top bits of the
 * key times 2^64 / phi (u64_map_home()), since the callers' keys are small
 * integers or a context in the high half and a seqno in the low half,
 * which the low bits alone would pile up in a few slots.  A slot is its
 * key and value, 16
 * bytes: key 0 marks it free, so the map keeps key 0 (which callers use:
 * pid 0, context 0 seqno 0) beside the slots.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/map.h"

#define MIN_SLOTS 64

void u64_map_init(struct u64_map *m)
{
	memset(m, 0, sizeof(*m));
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
	m->has_zero = false;
}

/* The slot of @key (not 0), or the free slot where it would go. */
static size_t find(const struct u64_map *m, uint64_t key)
{
	size_t i = u64_map_home(m, key);

	while (m->slots[i].key && m->slots[i].key != key)
		i = (i + 1) & m->mask;
	return i;
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
	m->shift = 64 - __builtin_ctzll(n);
	for (i = 0; old.slots && i <= old.mask; i++)
		if (old.slots[i].key)
			m->slots[find(m, old.slots[i].key)] = old.slots[i];
	free(old.slots);
	return 0;
}

int u64_map_put(struct u64_map *m, uint64_t key, uint64_t value)
{
	size_t i;

	if (!key) {
		m->nr += !m->has_zero;
		m->has_zero = true;
		m->zero_value = value;
		return 0;
	}
	/* At most half full: probes stay short. */
	if ((!m->slots || 2 * (m->nr + 1) > m->mask + 1) && grow(m))
		return -ENOMEM;
	i = find(m, key);
	if (!m->slots[i].key) {
		m->slots[i].key = key;
		m->nr++;
	}
	m->slots[i].value = value;
	return 0;
}

bool u64_map_del(struct u64_map *m, uint64_t key, uint64_t *value)
{
	size_t hole, j, home;

	if (!key) {
		if (!m->has_zero)
			return false;
		if (value)
			*value = m->zero_value;
		m->has_zero = false;
		m->nr--;
		return true;
	}
	if (!m->slots)
		return false;
	hole = find(m, key);
	if (!m->slots[hole].key)
		return false;
	if (value)
		*value = m->slots[hole].value;
	/*
	 * Shift back the entries after the hole that could not sit in it
	 * before: those whose home slot is not cyclically in (hole, j].
	 */
	for (j = (hole + 1) & m->mask; m->slots[j].key; j = (j + 1) & m->mask) {
		home = u64_map_home(m, m->slots[j].key);
		if (((j - home) & m->mask) >= ((j - hole) & m->mask)) {
			m->slots[hole] = m->slots[j];
			hole = j;
		}
	}
	m->slots[hole].key = 0;
	m->nr--;
	return true;
}

/* *@pos: 0 for key 0, then 1 + the slot to look at next. */
bool u64_map_next(const struct u64_map *m, size_t *pos, uint64_t *key,
		  uint64_t *value)
{
	size_t i;

	if (*pos == 0) {
		*pos = 1;
		if (m->has_zero) {
			if (key)
				*key = 0;
			if (value)
				*value = m->zero_value;
			return true;
		}
	}
	for (i = *pos - 1; m->slots && i <= m->mask; i++) {
		if (!m->slots[i].key)
			continue;
		if (key)
			*key = m->slots[i].key;
		if (value)
			*value = m->slots[i].value;
		*pos = i + 2;
		return true;
	}
	*pos = i + 1;
	return false;
}

uint64_t map_hash_str(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * MAP_HASH_PRIME;
	return h;
}

uint64_t map_hash_str_pair(const char *a, const char *b)
{
	/* 0xff: no byte of a string. */
	return map_hash_str(map_hash_field(map_hash_str(MAP_HASH_SEED, a),
					   0xff), b);
}
