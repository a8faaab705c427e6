/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gpuprof: limits and key spaces shared by the module and userspace.
 * Only fixed-width types here: this header is compiled into both.
 */
#ifndef _UAPI_GPUPROF_H
#define _UAPI_GPUPROF_H

/* Directory under /dev holding every gpuprof node. */
#define GPUPROF_DEV_DIR		"gpuprof"

/* Longest write accepted by ctl and pctl, trailing newline included. */
#define GPUPROF_CTL_MAX		256

/* Longest write accepted by marker, trailing newline included. */
#define GPUPROF_MARKER_MAX	256

/* Sampling interval of time profiling, in milliseconds. */
#define GPUPROF_INTERVAL_MIN_MS	1
#define GPUPROF_INTERVAL_MAX_MS	60000
#define GPUPROF_INTERVAL_DEF_MS	100

/*
 * Targets.  A NAME given to "module" without a '/' is matched against the
 * process name (comm), which the kernel keeps to 15 bytes, so a longer one
 * could never match and is refused; a NAME with a '/' is matched against
 * the executable's path.  At most GPUPROF_MAX_TARGETS are alive at once;
 * an ended target whose file is still open is alive until that file is
 * closed (the bound is on memory, not on names).
 */
#define GPUPROF_MAX_TARGETS	256
#define GPUPROF_MODULE_MAX_NAMES 16	/* NAMEs in one "module" command */
#define GPUPROF_COMM_MAX	15	/* bytes of a comm NAME */
#define GPUPROF_PATH_MAX	200	/* bytes of a path NAME, of a path */

/*
 * Timelines, the key space of time and coverage histograms: ids from 0,
 * given in order of first sight, never reused while the module is loaded.
 * Driver and timeline names longer than GPUPROF_TIMELINE_NAME_MAX bytes
 * are cut to it (counted in status as timeline_names_cut).
 */
#define GPUPROF_MAX_TIMELINES	4096
#define GPUPROF_TIMELINE_NAME_MAX 63

/*
 * Memory histograms: key k is the size class of buffers of at most 2^k
 * bytes (12 = up to 4 KiB), k from 0 to GPUPROF_MEM_CLASSES - 1.
 */
#define GPUPROF_MEM_CLASSES	64

/* What the probes track at once; beyond these, events are dropped. */
#define GPUPROF_MAX_JOBS	16384	/* fences in flight */
#define GPUPROF_MAX_CLIENTS	4096	/* processes seen submitting */
#define GPUPROF_MAX_BUFFERS	65536	/* live GEM objects */
#define GPUPROF_MAX_HIST_KEYS	262144	/* keys over all histograms */

#endif /* _UAPI_GPUPROF_H */
