// SPDX-License-Identifier: GPL-2.0-only
/*
 * Files kept open between passes (see util/fdcache.h).
 *
 * Open addressing with linear probing on the key.  A file dropped in a
 * pass leaves its slot as a tombstone (key kept, fd -1) so that probes go
 * past it; fdcache_end() rebuilds the table without the tombstones and
 * the files the pass left unused, into the spare table, and swaps.
 * Not util/map (whose mixer it uses): each slot holds the fd, inode and
 * pass in line and a pass's sweep allocates nothing once sizes settle.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "util/fdcache.h"
#include "util/map.h"

#define MIN_SLOTS	64u
/*
 * The most files held, whatever the limit: each held procfs text keeps a
 * seq_file buffer of a page in the kernel besides its struct file, so
 * 16384 files are some 64 MiB.
 */
#define MAX_FILES	16384u

struct fdcache_slot {
	uint64_t key;		/* 0: empty */
	uint64_t ino;
	int fd;			/* -1: a tombstone */
	unsigned int pass;	/* the last pass that used it */
};

void fdcache_init(struct fdcache *c, unsigned int max)
{
	memset(c, 0, sizeof(*c));
	c->max = max;
}

/* Half the process's files at most: the other half for all else. */
unsigned int fdcache_max_files(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur / 2 >= MAX_FILES)
		return MAX_FILES;
	return rl.rlim_cur / 2;
}

static struct fdcache_slot *find(const struct fdcache *c, uint64_t key)
{
	unsigned int mask = c->size - 1, i;

	if (!c->size)
		return NULL;
	for (i = map_hash_u64(key) & mask; c->slots[i].key; i = (i + 1) & mask)
		if (c->slots[i].key == key)
			return &c->slots[i];
	return NULL;
}

/* The slot for @key, or the first empty one on its probe. */
static struct fdcache_slot *probe(struct fdcache_slot *slots,
				  unsigned int size, uint64_t key)
{
	unsigned int mask = size - 1, i;

	for (i = map_hash_u64(key) & mask; slots[i].key && slots[i].key != key;
	     i = (i + 1) & mask)
		;
	return &slots[i];
}

static void close_slot(struct fdcache *c, struct fdcache_slot *s)
{
	if (s->fd < 0)
		return;
	close(s->fd);
	s->fd = -1;
	c->nr--;
}

/*
 * Move the living files into a table of @size slots; tombstones stay
 * behind.  -1 when out of memory, the table then as it was.
 */
static int rebuild(struct fdcache *c, unsigned int size)
{
	struct fdcache_slot *to = c->spare, *s;
	unsigned int i;

	if (size != c->size || !to) {
		to = calloc(size, sizeof(*to));
		if (!to)
			return -1;
		free(c->spare);
	} else {
		memset(to, 0, (size_t)size * sizeof(*to));
	}
	for (i = 0; i < c->size; i++) {
		s = &c->slots[i];
		if (s->key && s->fd >= 0)
			*probe(to, size, s->key) = *s;
	}
	c->spare = size == c->size ? c->slots : NULL;
	if (!c->spare)
		free(c->slots);
	c->slots = to;
	c->size = size;
	c->used = c->nr;
	return 0;
}

/* Slots for @n files at most half full. */
static unsigned int slots_for(unsigned int n)
{
	unsigned int size = MIN_SLOTS;

	while (size < 2 * n)
		size *= 2;
	return size;
}

void fdcache_begin(struct fdcache *c)
{
	c->pass++;
}

int fdcache_get(struct fdcache *c, uint64_t key, uint64_t ino)
{
	struct fdcache_slot *s = find(c, key);

	if (!s || s->fd < 0)
		return -1;
	if (s->ino != ino) {
		close_slot(c, s);
		return -1;
	}
	s->pass = c->pass;
	return s->fd;
}

bool fdcache_put(struct fdcache *c, uint64_t key, uint64_t ino, int fd)
{
	struct fdcache_slot *s;

	if (!key || c->nr >= c->max)
		return false;
	if (!c->size && rebuild(c, MIN_SLOTS))
		return false;
	s = probe(c->slots, c->size, key);
	if (s->key && s->fd >= 0)
		return false;		/* held already: the caller's is extra */
	if (!s->key) {
		/* A new slot: the table, tombstones too, kept half empty. */
		if (2 * (c->used + 1) > c->size) {
			if (rebuild(c, slots_for(c->nr + 1)))
				return false;
			s = probe(c->slots, c->size, key);
		}
		c->used++;
	}
	s->key = key;
	s->ino = ino;
	s->fd = fd;
	s->pass = c->pass;
	c->nr++;
	return true;
}

void fdcache_drop(struct fdcache *c, uint64_t key)
{
	struct fdcache_slot *s = find(c, key);

	if (s)
		close_slot(c, s);
}

void fdcache_end(struct fdcache *c)
{
	unsigned int i;

	for (i = 0; i < c->size; i++)
		if (c->slots[i].key && c->slots[i].pass != c->pass)
			close_slot(c, &c->slots[i]);
	/* Out of memory, the tombstones stay till a later pass. */
	if (c->size && (c->used != c->nr || slots_for(c->nr) != c->size))
		rebuild(c, slots_for(c->nr));
}

void fdcache_free(struct fdcache *c)
{
	unsigned int i;

	for (i = 0; i < c->size; i++)
		if (c->slots[i].key)
			close_slot(c, &c->slots[i]);
	free(c->slots);
	free(c->spare);
	memset(c, 0, sizeof(*c));
}
