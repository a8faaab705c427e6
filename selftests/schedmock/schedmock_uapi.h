/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The interface of the schedmock test module (gpuprof_schedmock.ko), used
 * by the module and by the programs that drive it.
 *
 * The module is a DRM driver named "schedmock" with a render node, the one
 * under SCHEDMOCK_SYSFS_DRM (renderD128 and up).  Each open() of it is a
 * DRM client and one drm_sched entity on the module's one ring.
 * SCHEDMOCK_IOCTL_SUBMIT (a driver ioctl, DRM_COMMAND_BASE + 0) queues one
 * job on it:
 *
 * - duration_ns: how long the mock hardware runs the job, 1 ns to
 *   SCHEDMOCK_MAX_DURATION_NS;
 * - in_fence_fd: -1, or a sync_file fd the job waits for;
 * - after: 0, or the id of an earlier job of the same open file the job
 *   waits for (done or not);
 * - flags: 0, or SCHEDMOCK_SUBMIT_DEFERRED: the job is armed and pushed
 *   by a kernel worker (its fences are initialised there) while the
 *   caller waits, as a driver that submits from a worker does;
 * - id, out_fence_fd, pad: zero on input; on success the job's id on
 *   this file (1, 2, ...) and a new sync_file fd (close-on-exec) of its
 *   finished fence.
 *
 * Errors: EINVAL for a bad duration, an unknown id in after, unknown
 * flags or non-zero output fields; EBADF for an in_fence_fd that is neither -1 nor a
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

/* The root device the DRM device hangs from: its drm/renderD* is ours. */
#define SCHEDMOCK_SYSFS_DRM "/sys/devices/gpuprof_schedmock/drm"

#define SCHEDMOCK_MAX_DURATION_NS 60000000000ULL
#define SCHEDMOCK_MAX_JOBS 65536

struct schedmock_submit {
	__u64 duration_ns;
	__s32 in_fence_fd;
	__u32 after;
	__u32 id;
	__s32 out_fence_fd;
	__u32 flags;
	__u32 pad;
};

#define SCHEDMOCK_SUBMIT_DEFERRED	0x1

/* As <drm/drm.h> numbers a driver's ioctls: DRM_IOCTL_BASE 'd', 0x40 on. */
#define DRM_SCHEDMOCK_SUBMIT	0x00
#define DRM_IOCTL_SCHEDMOCK_SUBMIT \
	_IOWR('d', 0x40 + DRM_SCHEDMOCK_SUBMIT, struct schedmock_submit)
#define SCHEDMOCK_IOCTL_SUBMIT	DRM_IOCTL_SCHEDMOCK_SUBMIT

#endif
