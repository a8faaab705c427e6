// SPDX-License-Identifier: GPL-2.0-only
/*
 * Files kept open between passes (see util/fdcache.h).
 *
 * The files held are a dense array, found by key through a u64_map of
 * their index; a file closed takes the last one's place, so a pass's
 * sweep allocates nothing once the sizes settle.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "util/array.h"
#include "util/fdcache.h"
#include "util/map.h"

/*
 * The most files held, whatever the limit: each held procfs text keeps a
 * seq_file buffer of a page in the kernel besides its struct file, so
 * 16384 files are some 64 MiB.
 */
#define MAX_FILES	16384u

struct fdcache_file {
	uint64_t key;
	uint64_t ino;
	int fd;
	unsigned int pass;	/* the last pass that used it */
};

void fdcache_init(struct fdcache *c, unsigned int max)
{
	memset(c, 0, sizeof(*c));
	u64_map_init(&c->index);
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

/* The index of @key's file, or -1. */
static long find(const struct fdcache *c, uint64_t key)
{
	uint64_t i;

	return u64_map_get(&c->index, key, &i) ? (long)i : -1;
}

/* Close file @i; the last file takes its place. */
static void close_file(struct fdcache *c, unsigned int i)
{
	struct fdcache_file *last = &c->files[c->nr - 1];

	close(c->files[i].fd);
	u64_map_del(&c->index, c->files[i].key, NULL);
	if (&c->files[i] != last) {
		c->files[i] = *last;
		/* Replacing a key's value allocates nothing. */
		u64_map_put(&c->index, last->key, i);
	}
	c->nr--;
}

void fdcache_begin(struct fdcache *c)
{
	c->pass++;
}

int fdcache_get(struct fdcache *c, uint64_t key, uint64_t ino)
{
	long i = find(c, key);

	if (i < 0)
		return -1;
	if (c->files[i].ino != ino) {
		close_file(c, i);
		return -1;
	}
	c->files[i].pass = c->pass;
	return c->files[i].fd;
}

bool fdcache_put(struct fdcache *c, uint64_t key, uint64_t ino, int fd)
{
	if (!key || c->nr >= c->max || find(c, key) >= 0)
		return false;	/* full, or held already: the caller's is extra */
	if (ARRAY_RESERVE(c->files, c->alloc, c->nr + 1) ||
	    u64_map_put(&c->index, key, c->nr))
		return false;
	c->files[c->nr++] = (struct fdcache_file){
		.key = key, .ino = ino, .fd = fd, .pass = c->pass,
	};
	return true;
}

void fdcache_drop(struct fdcache *c, uint64_t key)
{
	long i = find(c, key);

	if (i >= 0)
		close_file(c, i);
}

void fdcache_end(struct fdcache *c)
{
	unsigned int i;

	/* From the end: a closed file's place takes one already seen. */
	for (i = c->nr; i-- > 0;)
		if (c->files[i].pass != c->pass)
			close_file(c, i);
}

void fdcache_free(struct fdcache *c)
{
	unsigned int i;

	for (i = 0; i < c->nr; i++)
		close(c->files[i].fd);
	free(c->files);
	u64_map_free(&c->index);
	memset(c, 0, sizeof(*c));
}
