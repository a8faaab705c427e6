/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Small file helpers for the tests: whole-file reads and single writes
 * that report the exact errno, and put_file() for building fake trees.
 */
#ifndef GPUPROF_TEST_FILES_H
#define GPUPROF_TEST_FILES_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Read all of @path into @buf (NUL-terminated); bytes read or -errno. */
static inline ssize_t read_file(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len + 1 < size) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		len += n;
	}
	buf[len] = '\0';
	close(fd);
	return len;
}

/*
 * The file @path whole in @buf, NUL-terminated; "" when there is
 * none.  Return: @buf.
 */
static inline const char *file_text(const char *path, char *buf,
				    size_t size)
{
	if (read_file(path, buf, size) < 0)
		buf[0] = '\0';
	return buf;
}

/* One write(2) of @len bytes to @path: 0 when all were taken, or -errno. */
static inline int write_file_len(const char *path, const void *data,
				 size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, data, len);
	if (n < 0)
		n = -errno;
	else
		n = (size_t)n == len ? 0 : -EIO;
	close(fd);
	return n;
}

static inline int write_file(const char *path, const char *s)
{
	return write_file_len(path, s, strlen(s));
}

/*
 * Create or replace the file named by @fmt with @text, for the fake
 * trees a test builds (proc, sysfs, device files): a failure there is
 * the test's own, so it aborts with the path.
 */
__attribute__((format(printf, 2, 3)))
static inline void put_file(const char *text, const char *fmt, ...)
{
	char path[512];
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		abort();
	}
}

#endif
