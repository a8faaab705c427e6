/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gpuprof: limits and key spaces shared by the module and userspace.
 * Only fixed-width types here: this header is compiled into both.
 */
#ifndef _UAPI_GPUPROF_H
#define _UAPI_GPUPROF_H

/* Longest write accepted by ctl and pctl, trailing newline included. */
#define GPUPROF_CTL_MAX		256

/* Sampling interval of time profiling, in milliseconds. */
#define GPUPROF_INTERVAL_MIN_MS	1
#define GPUPROF_INTERVAL_MAX_MS	60000
#define GPUPROF_INTERVAL_DEF_MS	100

/* Directory under /dev holding every gpuprof node. */
#define GPUPROF_DEV_DIR		"gpuprof"

#endif /* _UAPI_GPUPROF_H */
