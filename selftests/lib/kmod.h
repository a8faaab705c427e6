/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Load and unload gpuprof.ko from a test, by system call, so a test owns
 * the module's whole lifetime and sees the exact errno of each step.
 * The module file is named by $GPUPROF_KO (set by the VM suite); the
 * fencegen test module by $GPUPROF_FENCEGEN_KO, the schedmock one by
 * $GPUPROF_SCHEDMOCK_KO.
 */
#ifndef GPUPROF_TEST_KMOD_H
#define GPUPROF_TEST_KMOD_H

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/*
 * Load the modules the module named by $@env depends on (modinfo's
 * depends), as finit_module() does not.  0, or -ENOENT.
 */
static inline int kmod_load_depends(const char *env)
{
	const char *ko = getenv(env);
	char cmd[4096];

	if (!ko)
		return -ENOENT;
	snprintf(cmd, sizeof(cmd),
		 "modprobe -q -a $(modinfo -F depends '%s' | tr , ' ')", ko);
	return system(cmd) ? -ENOENT : 0;
}

static inline int gpuprof_unload(void)
{
	return syscall(SYS_delete_module, GPUPROF_MODNAME, O_NONBLOCK) ?
		-errno : 0;
}

/*
 * Kill every other process with a file of /dev/gpuprof open: what a
 * killed test's children may still hold.  How many were killed.
 */
static inline int gpuprof_kill_holders(void)
{
	char fds[64], link[PATH_MAX], target[PATH_MAX];
	struct dirent *p, *f;
	DIR *proc, *dir;
	int pid, n = 0;
	ssize_t len;

	proc = opendir("/proc");
	if (!proc)
		return 0;
	while ((p = readdir(proc))) {
		pid = atoi(p->d_name);
		if (pid <= 0 || pid == getpid())
			continue;
		snprintf(fds, sizeof(fds), "/proc/%d/fd", pid);
		dir = opendir(fds);
		if (!dir)
			continue;
		while ((f = readdir(dir))) {
			snprintf(link, sizeof(link), "%s/%s", fds, f->d_name);
			len = readlink(link, target, sizeof(target) - 1);
			if (len <= 0)
				continue;
			target[len] = '\0';
			if (!strncmp(target, "/dev/gpuprof/", 13)) {
				fprintf(stderr, "# killing pid %d, which holds %s\n",
					pid, target);
				kill(pid, SIGKILL);
				n++;
				break;
			}
		}
		closedir(dir);
	}
	closedir(proc);
	return n;
}

/*
 * Load gpuprof.ko.  A test the harness killed at its timeout never ran
 * its teardown and left the module loaded, perhaps held by its
 * children: that test has failed already, and the tests after it must
 * not fail for it too.  So a module found loaded is said, its holders
 * killed, and it is unloaded (waiting up to 10 s) and loaded afresh.
 * kmod_load("GPUPROF_KO", ...) is the plain load, for a test of EEXIST.
 */
static inline int gpuprof_load(const char *params)
{
	int err = kmod_load("GPUPROF_KO", params), ms;

	if (err != -EEXIST)
		return err;
	fprintf(stderr, "# gpuprof.ko was left loaded by an earlier test: unloading it\n");
	gpuprof_kill_holders();
	for (ms = 0; (err = gpuprof_unload()) && ms < 10000; ms += 10)
		usleep(10000);
	if (err) {
		fprintf(stderr, "# gpuprof.ko cannot be unloaded: %s\n",
			strerror(-err));
		return -EEXIST;
	}
	return kmod_load("GPUPROF_KO", params);
}

/* fencegen: fences with any names (selftests/fencegen), loaded once. */
#define FENCEGEN "/sys/kernel/debug/gpuprof_fencegen/fence"
/* Its fences held unsignaled until the file is closed. */
#define FENCEGEN_HOLD "/sys/kernel/debug/gpuprof_fencegen/hold"

static inline int fencegen_load(void)
{
	int err;

	if (!access(FENCEGEN, W_OK))
		return 0;
	err = kmod_load("GPUPROF_FENCEGEN_KO", NULL);
	return err == -EEXIST ? 0 : err;
}

/*
 * schedmock: a mock GPU ring on the kernel's drm_sched (selftests/schedmock),
 * loaded with @params ("credits=N timeout_ms=N", either or none; the rest
 * default), reloaded when loaded with other values.  Its dependencies,
 * gpu-sched and drm, are loaded first (finit_module does not load
 * dependencies).
 */
#define SCHEDMOCK_MODNAME "gpuprof_schedmock"
#define SCHEDMOCK_PARAMS "/sys/module/" SCHEDMOCK_MODNAME "/parameters/"

static inline int schedmock_unload(void)
{
	return syscall(SYS_delete_module, SCHEDMOCK_MODNAME, O_NONBLOCK) ?
		-errno : 0;
}

/*
 * Unload once the module is free: a job's hardware fence holds the module
 * until drm_sched lets it go, which is after the job ran, even when every
 * file is closed.  Waits up to @ms; 0 or the last -errno.
 */
static inline int schedmock_unload_wait(unsigned int ms)
{
	int err;

	for (;;) {
		err = schedmock_unload();
		if (err != -EAGAIN || ms < 10)
			return err;
		usleep(10000);
		ms -= 10;
	}
}

/* Is the loaded schedmock's value of @name @want?  -errno if unreadable. */
static inline int schedmock_param_is(const char *name, unsigned long want)
{
	char path[128], buf[32];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), SCHEDMOCK_PARAMS "%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	return strtoul(buf, NULL, 10) == want;
}

static inline int schedmock_load(const char *params)
{
	unsigned long credits = 1, timeout_ms = 10000;
	const char *p;
	int same, err;

	if (params && (p = strstr(params, "credits=")))
		credits = strtoul(p + strlen("credits="), NULL, 10);
	if (params && (p = strstr(params, "timeout_ms=")))
		timeout_ms = strtoul(p + strlen("timeout_ms="), NULL, 10);
	if (!access("/sys/module/" SCHEDMOCK_MODNAME, F_OK)) {
		same = schedmock_param_is("credits", credits);
		if (same > 0)
			same = schedmock_param_is("timeout_ms", timeout_ms);
		if (same > 0)
			return 0;
		err = schedmock_unload_wait(20000);
		if (err)
			return err;
	}
	if (kmod_load_depends("GPUPROF_SCHEDMOCK_KO"))
		return -ENOENT;
	return kmod_load("GPUPROF_SCHEDMOCK_KO", params);
}

/*
 * vkms, the kernel's virtual KMS driver, built as the test module
 * gpuprof_vkms.ko (scripts/build-vkms.sh), named by $GPUPROF_VKMS_KO: a
 * DRM card of driver "vkms" whose crtc's vblanks an hrtimer makes.
 * finit_module loads no dependencies, so the DRM helpers modinfo names
 * are loaded by modprobe first.
 */
#define VKMS_MODNAME "gpuprof_vkms"

static inline int vkms_load(void)
{
	int err;

	if (!access("/sys/module/" VKMS_MODNAME, F_OK))
		return 0;
	if (kmod_load_depends("GPUPROF_VKMS_KO"))
		return -ENOENT;
	err = kmod_load("GPUPROF_VKMS_KO", NULL);
	return err == -EEXIST ? 0 : err;
}

static inline int vkms_unload(void)
{
	return syscall(SYS_delete_module, VKMS_MODNAME, O_NONBLOCK) ?
		-errno : 0;
}

#endif
