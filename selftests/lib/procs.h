/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Processes for the fault and soak tests: children the test forks and
 * must not leave behind (killed and reaped at the end of a test, even a
 * failed one), and "light" processes, thousands of them alive at once,
 * each submitting vgem fences as a process of its own.
 *
 * A light process is a clone() that shares the test's memory, files and
 * signal handlers but is a thread group of its own: the module sees a
 * new client (tgid) for each, at the cost of a task and a kernel stack,
 * where thousands of fork()ed copies of a sanitizer-built test would not
 * fit in the test VM.  It runs only lite_main(): raw system calls, no
 * sanitizer instrumentation, no libc state (it shares the test's thread
 * pointer), then blocks until the pool is released.
 */
#ifndef GPUPROF_TEST_PROCS_H
#define GPUPROF_TEST_PROCS_H

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vgem.h"

/* ---- Children killed and reaped at the end of a test ---------------- */

#define KIDS_MAX 256

static pid_t kids[KIDS_MAX];
static int nkids;

static inline pid_t kid_add(pid_t pid)
{
	if (pid > 0 && nkids < KIDS_MAX)
		kids[nkids++] = pid;
	return pid;
}

/*
 * Kill and reap @pid (once); its exit status as waitpid() gives it.  A
 * child that leads a process group of its own (kid_sh()) is killed with
 * its group, so that what its shell started dies with it too.
 */
static inline int kid_kill(pid_t pid, int sig)
{
	int i, st = -1;

	for (i = 0; i < nkids; i++) {
		if (kids[i] != pid)
			continue;
		kill(getpgid(pid) == pid ? -pid : pid, sig);
		if (waitpid(pid, &st, 0) != pid)
			st = -1;
		kids[i] = kids[--nkids];
		break;
	}
	return st;
}

/* Reap @pid, which exits by itself; its exit status as waitpid() gives it. */
static inline int kid_wait(pid_t pid)
{
	int i, st = -1;

	if (waitpid(pid, &st, 0) != pid)
		st = -1;
	for (i = 0; i < nkids; i++)
		if (kids[i] == pid)
			kids[i] = kids[--nkids];
	return st;
}

/* The light processes of a test, if any (below). */
struct lite_pool;
static struct lite_pool *live_pool;
static inline void lite_kill(struct lite_pool *p);

static inline void kids_kill_all(void)
{
	while (nkids)
		kid_kill(kids[nkids - 1], SIGKILL);
	if (live_pool)
		lite_kill(live_pool);
}

/* fork() a child that runs @fn(@arg) and exits. */
static inline pid_t kid_fork(void (*fn)(void *arg), void *arg)
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		fn(arg);
		_exit(0);
	}
	return kid_add(pid);
}

/*
 * kid_fork(), then wait until the child writes one byte to *@ready, the
 * write end of a pipe made here: 0 when it is ready, anything else (or
 * nothing, when it dies first) a failure, given as -1.
 */
static inline pid_t kid_fork_ready(void (*fn)(void *arg), void *arg,
				   int *ready)
{
	int fds[2];
	pid_t pid;
	char c = 1;

	if (pipe2(fds, O_CLOEXEC))
		return -1;
	*ready = fds[1];
	pid = kid_fork(fn, arg);
	close(fds[1]);
	if (pid > 0 && (read(fds[0], &c, 1) != 1 || c))
		pid = -1;
	close(fds[0]);
	return pid;
}

/*
 * A shell command line as a child (exec it, so its pid is the child's), in
 * a process group of its own: a loop such as "while :; do gpuwork ...;
 * done" must not leave a gpuwork running into the next test when the
 * shell is killed (kid_kill() kills the group).
 */
static inline pid_t kid_sh(const char *cmdline)
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		execl("/bin/sh", "sh", "-c", cmdline, (char *)NULL);
		_exit(127);
	}
	/* Both sides set it, so that it holds whichever runs first. */
	if (pid > 0)
		setpgid(pid, pid);
	return kid_add(pid);
}

/* ---- Light processes ------------------------------------------------- */

#define LITE_STACK	16384

/* What the next light process does; it copies what it needs first. */
struct lite_job {
	int vgem;		/* vgem card, shared */
	uint32_t handle;	/* a buffer to put write fences on */
	int fences;		/* fences to attach and signal */
	int ready_w;		/* a byte when done: 0, or 1 on an error */
	int release_r;		/* end of file here: exit */
	char comm[16];		/* process name to take, "" for the test's */
};

struct lite_pool {
	int n, max;
	pid_t *pids;
	char *stacks;
	int ready[2];
	int release[2];
	int errors;
	struct lite_job job;
};

__attribute__((no_sanitize("address", "undefined")))
static int lite_main(void *arg)
{
	const struct lite_job *j = arg;
	int release = j->release_r, fd = j->vgem, i;
	struct vgem_fence_attach a;
	struct vgem_fence_signal s;
	char c = 0;

	if (j->comm[0])
		syscall(SYS_prctl, PR_SET_NAME, j->comm, 0, 0, 0);
	for (i = 0; i < j->fences; i++) {
		a.handle = j->handle;
		a.flags = VGEM_FENCE_WRITE;
		a.out_fence = 0;
		a.pad = 0;
		if (syscall(SYS_ioctl, fd, VGEM_IOCTL_FENCE_ATTACH, &a)) {
			c = 1;
			break;
		}
		s.fence = a.out_fence;
		s.flags = 0;
		if (syscall(SYS_ioctl, fd, VGEM_IOCTL_FENCE_SIGNAL, &s)) {
			c = 1;
			break;
		}
	}
	syscall(SYS_write, j->ready_w, &c, 1);
	/* Only the pool's release wakes it: the job may be reused now. */
	syscall(SYS_read, release, &c, 1);
	return 0;
}

/* Room for @max light processes on vgem card @vgem; 0 or -errno. */
static inline int lite_init(struct lite_pool *p, int max, int vgem)
{
	uint64_t size;
	int err;

	memset(p, 0, sizeof(*p));
	p->ready[0] = p->ready[1] = p->release[0] = p->release[1] = -1;
	p->max = max;
	p->pids = calloc(max, sizeof(*p->pids));
	p->stacks = mmap(NULL, (size_t)max * LITE_STACK, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (!p->pids || p->stacks == MAP_FAILED)
		return -ENOMEM;
	if (pipe2(p->ready, O_CLOEXEC) || pipe2(p->release, O_CLOEXEC))
		return -errno;
	err = vgem_bo_create(vgem, 64, 64, &p->job.handle, &size);
	if (err)
		return err;
	p->job.vgem = vgem;
	p->job.ready_w = p->ready[1];
	p->job.release_r = p->release[0];
	live_pool = p;
	return 0;
}

/*
 * One more light process, named @comm ("" keeps the test's name), that
 * submits @fences jobs and stays alive; returns when its jobs are done:
 * 0, or -1 when it could not be made or its fences failed.
 */
static inline int lite_spawn(struct lite_pool *p, const char *comm, int fences)
{
	char *stack;
	pid_t pid;
	char c;

	if (p->n == p->max)
		return -1;
	snprintf(p->job.comm, sizeof(p->job.comm), "%s", comm);
	p->job.fences = fences;
	stack = p->stacks + (size_t)(p->n + 1) * LITE_STACK;
	pid = clone(lite_main, stack, CLONE_VM | CLONE_FS | CLONE_FILES |
		    CLONE_SIGHAND | SIGCHLD, &p->job);
	if (pid < 0)
		return -1;
	p->pids[p->n++] = pid;
	if (read(p->ready[0], &c, 1) != 1 || c)
		p->errors++;
	return p->errors ? -1 : 0;
}

/* Let every light process exit and reap them. */
static inline void lite_release(struct lite_pool *p)
{
	int i, st;

	if (p->release[1] >= 0) {
		close(p->release[1]);
		p->release[1] = -1;
	}
	for (i = 0; i < p->n; i++)
		waitpid(p->pids[i], &st, 0);
	p->n = 0;
}

/* A failed test's: they share its files, so they would never see EOF. */
static inline void lite_kill(struct lite_pool *p)
{
	int i, st;

	for (i = 0; i < p->n; i++) {
		kill(p->pids[i], SIGKILL);
		waitpid(p->pids[i], &st, 0);
	}
	p->n = 0;
}

static inline void lite_free(struct lite_pool *p)
{
	live_pool = NULL;
	lite_release(p);
	if (p->stacks && p->stacks != MAP_FAILED)
		munmap(p->stacks, (size_t)p->max * LITE_STACK);
	free(p->pids);
	if (p->ready[0] >= 0) {
		close(p->ready[0]);
		close(p->ready[1]);
	}
	if (p->release[0] >= 0)
		close(p->release[0]);
	memset(p, 0, sizeof(*p));
}

#endif
