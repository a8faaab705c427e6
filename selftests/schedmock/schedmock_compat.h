/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every difference between the drm_sched APIs of the test kernels,
 * Debian's 6.1, 6.12 and 7.3.  All carry struct drm_sched_init_args (a
 * backport on 6.1); from 6.12 the scheduler has a run queue count of its
 * own to set, and its jobs cost a number of credits and name a DRM client;
 * the DRM core's files have a client id and fdinfo from 6.5.
 */
#ifndef SCHEDMOCK_COMPAT_H
#define SCHEDMOCK_COMPAT_H

#include <linux/version.h>
#include <drm/gpu_scheduler.h>

static inline int schedmock_sched_init(struct drm_gpu_scheduler *sched,
				       const struct drm_sched_backend_ops *ops,
				       u32 credits, long timeout,
				       const char *name, struct device *dev)
{
	const struct drm_sched_init_args args = {
		.ops = ops,
		.credit_limit = credits,
		.timeout = timeout,
		.name = name,
		.dev = dev,
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
#endif
	};

	return drm_sched_init(sched, &args);
}

/*
 * One credit per job: 6.1 counts jobs, 6.12 asks for each job's cost and
 * its DRM client's id (which the stable events of 6.17 carry).
 */
static inline int schedmock_job_init(struct drm_sched_job *job,
				     struct drm_sched_entity *entity,
				     void *owner, u64 client_id)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	return drm_sched_job_init(job, entity, 1, owner, client_id);
#else
	return drm_sched_job_init(job, entity, owner);
#endif
}

/*
 * What timedout_job() returns when the job ended and the scheduler carries
 * on: 6.17 renamed DRM_GPU_SCHED_STAT_NOMINAL to DRM_GPU_SCHED_STAT_RESET.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
#define SCHEDMOCK_STAT_ENDED	DRM_GPU_SCHED_STAT_RESET
#else
#define SCHEDMOCK_STAT_ENDED	DRM_GPU_SCHED_STAT_NOMINAL
#endif

/* 6.13 replaced hrtimer_init() and setting ->function by hrtimer_setup(). */
#include <linux/hrtimer.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define schedmock_hrtimer_setup(timer, fn, clock, mode) \
	hrtimer_setup(timer, fn, clock, mode)
#else
static inline void schedmock_hrtimer_setup(struct hrtimer *timer,
					   enum hrtimer_restart (*fn)(struct hrtimer *),
					   clockid_t clock, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
}
#endif

/*
 * The DRM file's client id, drm-client-id in its fdinfo: the DRM core
 * numbers files from 6.5 on (with drm_show_fdinfo()); 6.1 has neither.
 */
#include <drm/drm_file.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define schedmock_client_id(file)	((file)->client_id)
#define SCHEDMOCK_SHOW_FDINFO		.show_fdinfo = drm_show_fdinfo,
#else
#define schedmock_client_id(file)	0
#define SCHEDMOCK_SHOW_FDINFO
#endif

/*
 * DRM files take unsigned offsets (6.12 added the flag; 7.3's drm_open()
 * warns and refuses a file without it).
 */
#ifdef FOP_UNSIGNED_OFFSET
#define SCHEDMOCK_FOP_FLAGS		.fop_flags = FOP_UNSIGNED_OFFSET,
#else
#define SCHEDMOCK_FOP_FLAGS
#endif

/* struct drm_driver lost its date in 6.14. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 14, 0)
#define SCHEDMOCK_DRIVER_DATE
#else
#define SCHEDMOCK_DRIVER_DATE		.date = "20261205",
#endif

#endif
