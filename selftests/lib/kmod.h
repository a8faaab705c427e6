/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Load and unload gpuprof.ko from a test, by system call, so a test owns
 * the module's whole lifetime and sees the exact errno of each step.
 * The module file is named by $GPUPROF_KO (set by the VM suite); the
 * fencegen test module by $GPUPROF_FENCEGEN_KO.
 */
#ifndef GPUPROF_TEST_KMOD_H
#define GPUPROF_TEST_KMOD_H

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#define GPUPROF_MODNAME "gpuprof"

/* Load the module file named by $@env; 0, or -errno of the failed step. */
static inline int kmod_load(const char *env, const char *params)
{
	const char *ko = getenv(env);
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

static inline int gpuprof_load(const char *params)
{
	return kmod_load("GPUPROF_KO", params);
}

static inline int gpuprof_unload(void)
{
	return syscall(SYS_delete_module, GPUPROF_MODNAME, O_NONBLOCK) ?
		-errno : 0;
}

/* fencegen: fences with any names (selftests/fencegen), loaded once. */
#define FENCEGEN "/sys/kernel/debug/gpuprof_fencegen/fence"

static inline int fencegen_load(void)
{
	int err;

	if (!access(FENCEGEN, W_OK))
		return 0;
	err = kmod_load("GPUPROF_FENCEGEN_KO", NULL);
	return err == -EEXIST ? 0 : err;
}

#endif
