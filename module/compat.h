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

/* 6.10 dropped the source argument of __assign_str(). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define gpuprof_assign_str(field, src)	__assign_str(field)
#else
#define gpuprof_assign_str(field, src)	__assign_str(field, src)
#endif

#endif /* _GPUPROF_COMPAT_H */
