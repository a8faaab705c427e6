// SPDX-License-Identifier: GPL-2.0-only
/*
 * Whole files, small files and numbers in files, and outputs written
 * whole or not at all (util/file.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/array.h"
#include "util/file.h"

/* Room for at least this much before each read(). */
#define FILE_CHUNK 4096

int file_read_all(const char *path, size_t max, char **buf, size_t *len)
{
	size_t n = 0, alloc = 0;
	char *b = NULL;
	ssize_t r;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		if (max && n >= max) {
			err = -EFBIG;
			goto fail;
		}
		if (ARRAY_RESERVE(b, alloc, n + FILE_CHUNK)) {
			err = -ENOMEM;
			goto fail;
		}
		/* One byte kept for the NUL. */
		r = read(fd, b + n, alloc - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			goto fail;
		}
		if (r == 0)
			break;
		n += r;
	}
	close(fd);
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
fail:
	close(fd);
	free(b);
	return err;
}

ssize_t file_read_small(int dirfd, const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd, err;

	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do
		n = read(fd, buf, size - 1);
	while (n < 0 && errno == EINTR);
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	buf[n] = '\0';
	return n;
}

int file_read_u64(const char *path, uint64_t *v)
{
	char buf[32], *end;
	ssize_t n = file_read_small(AT_FDCWD, path, buf, sizeof(buf));

	if (n < 0)
		return n;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	if (end == buf || errno || (*end && *end != '\n'))
		return -EINVAL;
	return 0;
}

int file_write_all(int fd, const void *data, size_t len, off_t offset)
{
	const char *p = data;
	ssize_t n;

	while (len) {
		n = offset < 0 ? write(fd, p, len) : pwrite(fd, p, len, offset);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		p += n;
		len -= n;
		if (offset >= 0)
			offset += n;
	}
	return 0;
}

bool file_is_special(const char *path)
{
	struct stat st;

	return !stat(path, &st) && !S_ISREG(st.st_mode);
}

static void file_out_free(struct file_out *o)
{
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
}

int file_out_open(struct file_out *o, const char *path)
{
	int err = -ENOMEM;

	memset(o, 0, sizeof(*o));
	o->path = strdup(path);
	if (!o->path ||
	    (!file_is_special(path) &&
	     asprintf(&o->tmp, "%s.tmp.%d", path, (int)getpid()) < 0)) {
		o->tmp = NULL;
		goto fail;
	}
	/* "e": not inherited by a command that top or record starts. */
	o->f = fopen(o->tmp ? o->tmp : path, "we");
	if (o->f)
		return 0;
	err = -errno;
fail:
	file_out_free(o);
	return err;
}

int file_out_close(struct file_out *o, bool sync)
{
	int err = 0;

	errno = 0;
	if (fflush(o->f) || ferror(o->f) || (sync && o->tmp && fsync(fileno(o->f))))
		err = errno ? -errno : -EIO;
	if (fclose(o->f) && !err)
		err = -errno;
	if (!err && o->tmp && rename(o->tmp, o->path))
		err = -errno;
	if (err && o->tmp)
		unlink(o->tmp);
	file_out_free(o);
	return err;
}

void file_out_abort(struct file_out *o)
{
	fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	file_out_free(o);
}
