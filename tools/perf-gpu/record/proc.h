/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What perf gpu record needs to know of a process from /proc.
 */
#ifndef PERF_GPU_RECORD_PROC_H
#define PERF_GPU_RECORD_PROC_H

#include <stdbool.h>
#include <sys/types.h>

/* Whether @pid still runs: exists and is not a zombie. */
bool proc_alive(pid_t pid);

/*
 * Whether thread @tid is a kernel thread (PF_KTHREAD in its stat); pid 0,
 * the idle task (an interrupt on an idle CPU), counts as one.  A thread
 * gone is not.
 */
bool proc_is_kernel_thread(pid_t tid);

#endif
