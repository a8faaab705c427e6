/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The interface of the schedmock test module (gpuprof_schedmock.ko), used
 * by the module and by the programs that drive it.
 *
 * Each open() of SCHEDMOCK_DEV is one drm_sched entity on the module's one
 * ring.  SCHEDMOCK_IOCTL_SUBMIT queues one job on it:
 *
 * - duration_ns: how long the mock hardware runs the job, 1 ns to
 *   SCHEDMOCK_MAX_DURATION_NS;
 * - in_fence_fd: -1, or a sync_file fd the job waits for;
 * - after: 0, or the id of an earlier job of the same open file the job
 *   waits for (done or not);
 * - id, out_fence_fd: zero on input (the only padding there is); on
 *   success the job's id on this file (1, 2, ...) and a new sync_file fd
 *   (close-on-exec) of its finished fence.
 *
 * Errors: EINVAL for a bad duration, an unknown id in after or non-zero
 * output fields; EBADF for an in_fence_fd that is neither -1 nor a
 * sync_file; ENOSPC past SCHEDMOCK_MAX_JOBS jobs on one file.  A refused
 * submit changes nothing: no job, no id used.
 *
 * The module cannot be unloaded while a file of it is open or a fence of
 * its hardware lives, which a finished fence (an out_fence_fd) holds.
 */
#ifndef _UAPI_SCHEDMOCK_H
#define _UAPI_SCHEDMOCK_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define SCHEDMOCK_DEV "/dev/gpuprof_schedmock"

#define SCHEDMOCK_MAX_DURATION_NS 60000000000ULL
#define SCHEDMOCK_MAX_JOBS 65536

struct schedmock_submit {
	__u64 duration_ns;
	__s32 in_fence_fd;
	__u32 after;
	__u32 id;
	__s32 out_fence_fd;
};

#define SCHEDMOCK_IOCTL_SUBMIT _IOWR('S', 1, struct schedmock_submit)

#endif
