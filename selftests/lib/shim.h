/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the ioctl shims (selftests/i915-shim, selftests/xe-shim) share:
 * the next definition of a libc function (REAL), their log, environment
 * and errno helpers, and the open family of entry points, which hand the
 * fake node's path ($GPUPROF_SHIM_NODE, default /dev/dri/renderD199) to
 * the shim's shim_open_node() and every other path to libc.  Included
 * once, by the shim's one source file.
 */
#ifndef GPUPROF_TEST_SHIM_H
#define GPUPROF_TEST_SHIM_H

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* real_NAME: libc's NAME, behind whatever interposes it (ASan). */
#define REAL(name) \
	static __typeof__(name) *real_##name; \
	if (!real_##name) \
		real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

static int shim_open_node(int flags);

/* A line to $GPUPROF_SHIM_LOG, if set, so tests can see what was asked. */
__attribute__((format(printf, 1, 2)))
static void shim_log(const char *fmt, ...)
{
	const char *path = getenv("GPUPROF_SHIM_LOG");
	va_list ap;
	FILE *f;

	if (!path || !(f = fopen(path, "a")))
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

static unsigned long shim_env_ul(const char *name, unsigned long dflt)
{
	const char *v = getenv(name);

	return v && *v ? strtoul(v, NULL, 0) : dflt;
}

static int shim_fail(int err)
{
	errno = err;
	return -1;
}

static bool shim_is_node(const char *path)
{
	const char *node = getenv("GPUPROF_SHIM_NODE");

	return path && !strcmp(path, node && *node ? node : "/dev/dri/renderD199");
}

static int shim_open(const char *path, int flags, mode_t mode, int dirfd,
		     bool at)
{
	REAL(open);
	REAL(openat);

	if (shim_is_node(path))
		return shim_open_node(flags);
	return at ? real_openat(dirfd, path, flags, mode) :
		    real_open(path, flags, mode);
}

#define MODE_ARG(flags, mode) do { \
	va_list ap; \
	va_start(ap, flags); \
	mode = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? \
	       va_arg(ap, mode_t) : 0; \
	va_end(ap); \
} while (0)

int open(const char *path, int flags, ...)
{
	mode_t mode;

	MODE_ARG(flags, mode);
	return shim_open(path, flags, mode, AT_FDCWD, false);
}

int open64(const char *path, int flags, ...)
{
	mode_t mode;

	MODE_ARG(flags, mode);
	return shim_open(path, flags, mode, AT_FDCWD, false);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode;

	MODE_ARG(flags, mode);
	return shim_open(path, flags, mode, dirfd, true);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	mode_t mode;

	MODE_ARG(flags, mode);
	return shim_open(path, flags, mode, dirfd, true);
}

/* _FORTIFY_SOURCE's entry points. */
int __open_2(const char *path, int flags)
{
	return shim_open(path, flags, 0, AT_FDCWD, false);
}

int __open64_2(const char *path, int flags)
{
	return shim_open(path, flags, 0, AT_FDCWD, false);
}

#undef MODE_ARG

/* The kernel's uuid_is_valid(): 36 characters, 8-4-4-4-12 hex digits. */
static bool shim_uuid_valid(const char *uuid)
{
	unsigned int i;

	for (i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (uuid[i] != '-')
				return false;
		} else if (!isxdigit((unsigned char)uuid[i])) {
			return false;
		}
	}
	return true;
}

#endif
