/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel API differences gpuprof meets between 6.1 and newer kernels, in
 * one place so the rest of the module reads as if there were one kernel.
 */
#ifndef _GPUPROF_COMPAT_H
#define _GPUPROF_COMPAT_H

#include <linux/version.h>
#include <linux/device.h>

/* 6.4 dropped the owner argument of class_create(). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#define gpuprof_class_create(name)	class_create(name)
#else
#define gpuprof_class_create(name)	class_create(THIS_MODULE, name)
#endif

/* 6.2 made the device argument of class devnode() const. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define GPUPROF_DEVNODE_CONST const
#else
#define GPUPROF_DEVNODE_CONST
#endif

/*
 * The kernel built against, as the OA decoder numbers kernels
 * (GPUPROF_OA_KERNEL(): major << 16 | minor << 8): i915-perf's rules
 * differ between them.
 */
#define GPUPROF_BUILT_KERNEL	(LINUX_VERSION_CODE & 0xffff00)

/* 6.10 dropped the source argument of __assign_str(). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define gpuprof_assign_str(field, src)	__assign_str(field)
#else
#define gpuprof_assign_str(field, src)	__assign_str(field, src)
#endif

/*
 * A reference to an mm's executable, under rcu_read_lock().  6.7 made
 * files SLAB_TYPESAFE_BY_RCU and get_file_rcu() take the __rcu pointer.
 */
#include <linux/fs.h>
#include <linux/mm_types.h>
#include <linux/rcupdate.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
static inline struct file *gpuprof_get_exe_file(struct mm_struct *mm)
{
	return get_file_rcu(&mm->exe_file);
}
#else
static inline struct file *gpuprof_get_exe_file(struct mm_struct *mm)
{
	struct file *f = rcu_dereference(mm->exe_file);

	return f && get_file_rcu(f) ? f : NULL;
}
#endif

/* 6.13 replaced hrtimer_init() and setting ->function by hrtimer_setup(). */
#include <linux/hrtimer.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define gpuprof_hrtimer_setup(timer, fn, clock, mode) \
	hrtimer_setup(timer, fn, clock, mode)
#else
static inline void gpuprof_hrtimer_setup(struct hrtimer *timer,
					 enum hrtimer_restart (*fn)(struct hrtimer *),
					 clockid_t clock, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
}
#endif

/* 6.12 moved the unaligned access helpers to linux/. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/*
 * The lock a fence signals under: fence->lock until 7.x made it either
 * an external or an inline lock, read with dma_fence_spinlock(), which
 * came with the dma_fence_lock_irqsave() macro (checked in 7.3's
 * dma-fence.h).  drm_sched still gives both fences of a job one external
 * lock, which is how fence.c pairs them.
 */
#include <linux/dma-fence.h>

#ifdef dma_fence_lock_irqsave
#define gpuprof_fence_lock(f)	dma_fence_spinlock((struct dma_fence *)(f))
#else
#define gpuprof_fence_lock(f)	((f)->lock)
#endif

/*
 * drm_sched's stable trace events, with the job's DRM client id in
 * struct drm_sched_fence (drm_client_id): 6.17 (sched.c).
 */
#define GPUPROF_HAVE_SCHED_EVENTS \
	(LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0))

#endif /* _GPUPROF_COMPAT_H */
