/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Load and unload gpuprof.ko from a test, by system call, so a test owns
 * the module's whole lifetime and sees the exact errno of each step.
 * The module file is named by $GPUPROF_KO (set by the VM suite).
 */
#ifndef GPUPROF_TEST_KMOD_H
#define GPUPROF_TEST_KMOD_H

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#define GPUPROF_MODNAME "gpuprof"

/* 0, or -errno of whichever step failed. */
static inline int gpuprof_load(const char *params)
{
	const char *ko = getenv("GPUPROF_KO");
	int fd, ret;

	if (!ko)
		return -ENOENT;
	fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params ? params : "", 0);
	ret = ret ? -errno : 0;
	close(fd);
	return ret;
}

static inline int gpuprof_unload(void)
{
	return syscall(SYS_delete_module, GPUPROF_MODNAME, O_NONBLOCK) ?
		-errno : 0;
}

#endif
