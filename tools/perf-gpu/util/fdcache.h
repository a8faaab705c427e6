/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Files kept open from one pass over a tree to the next, so that a file
 * read again is one pread() at offset 0 rather than openat, read and
 * close.  Made for procfs texts: a seq_file (PID/fdinfo/N, PID/comm)
 * builds its text anew on each read at offset 0, so a held file gives
 * what a fresh open would.  A file is held under a 64-bit key (non-zero)
 * and the number of the inode it is open on: a name that a directory
 * listing shows on another inode (d_ino; a file renamed over it) is
 * opened again.  The caller takes the number from fstat() of the open
 * file, not from the listing: a listed inode that no one holds open can
 * be freed, and its number come back on a later file of the name.
 *
 * A pass starts with fdcache_begin(); the files not looked up or added
 * in it are closed by fdcache_end().  At most @max files are held: past
 * that, fdcache_put() declines and the caller closes its own.
 */
#ifndef PERF_GPU_UTIL_FDCACHE_H
#define PERF_GPU_UTIL_FDCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/map.h"

struct fdcache_file;		/* internal to util/fdcache.c */

struct fdcache {
	struct fdcache_file *files;		/* the files held, */
	size_t alloc;
	unsigned int nr;			/* these many */
	struct u64_map index;			/* key -> place in files */
	unsigned int max;			/* at most */
	unsigned int pass;			/* the current pass */
};

/* An empty cache of at most @max files (0: hold none). */
void fdcache_init(struct fdcache *c, unsigned int max);

/*
 * The most files a process should hold: half its RLIMIT_NOFILE, and at
 * most 16384 (each procfs text held keeps a page of kernel memory).
 */
unsigned int fdcache_max_files(void);

void fdcache_begin(struct fdcache *c);

/*
 * The fd held for @key, opened on inode @ino, kept for this pass; -1 when
 * none is (one held for another inode is closed).
 */
int fdcache_get(struct fdcache *c, uint64_t key, uint64_t ino);

/* Hold @fd for @key and @ino: true, or false when full (@fd not taken). */
bool fdcache_put(struct fdcache *c, uint64_t key, uint64_t ino, int fd);

/* Close and forget @key's fd (one whose read failed). */
void fdcache_drop(struct fdcache *c, uint64_t key);

/* Close the files of earlier passes not used in this one. */
void fdcache_end(struct fdcache *c);

/* Close every file held. */
void fdcache_free(struct fdcache *c);

#endif
