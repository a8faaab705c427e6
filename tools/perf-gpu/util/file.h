/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading the small text files of the kernel (tracefs, sysfs, procfs,
 * /dev/gpuprof) and of fake roots: most report no size (st_size 0 for
 * tracefs and procfs, char devices for /dev/gpuprof), so they are read
 * until read() gives 0.  And writing the outputs that must appear whole
 * (struct file_out).
 */
#ifndef PERF_GPU_UTIL_FILE_H
#define PERF_GPU_UTIL_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * All of @path in a malloc'ed buffer *@buf, NUL-terminated, of *@len
 * bytes (the NUL not counted); 0 or -errno: -EFBIG for a file of @max
 * bytes or more (@max 0: no limit).
 */
int file_read_all(const char *path, size_t max, char **buf, size_t *len);

/*
 * What one read() gives of @path (relative to @dirfd, or AT_FDCWD), at
 * most @size - 1 bytes, NUL-terminated in @buf: how many, or -errno.
 * For files of a line or a number, which give all at once.
 */
ssize_t file_read_small(int dirfd, const char *path, char *buf, size_t size);

/*
 * A decimal number and at most a newline after it (a tracepoint's id, a
 * sysfs value): 0, or -errno, -EINVAL when the file holds no such thing.
 */
int file_read_u64(const char *path, uint64_t *v);

/*
 * @len bytes of @data to @fd, however many calls it takes: write() when
 * @offset is -1, else pwrite() at @offset.  0, or -errno (-EIO when the
 * file takes nothing).
 */
int file_write_all(int fd, const void *data, size_t len, off_t offset);

/*
 * An output written whole or not at all (a trace, a page, a metrics
 * file): written beside @path, at "@path.tmp.PID", and renamed over it
 * when complete, so that a reader never sees half of it.  A @path that
 * exists and is not a regular file (/dev/null, a FIFO, /dev/stdout) is
 * written in place: a rename would put a file where the device or pipe
 * was, and as root that replaces /dev/null for the whole machine.
 */
struct file_out {
	FILE *f;		/* write here */
	char *path;
	char *tmp;		/* NULL: written in place */
};

/* Open @path's output: 0, or -errno with nothing made. */
int file_out_open(struct file_out *o, const char *path);

/*
 * Flush (and with @sync, fsync before the rename) and give the output
 * its name: 0, or -errno with the temporary file removed.  Either way
 * @o is closed.
 */
int file_out_close(struct file_out *o, bool sync);

/* Give up the output: closed, the temporary file removed. */
void file_out_abort(struct file_out *o);

/* Does @path exist as something other than a regular file? */
bool file_is_special(const char *path);

#endif
