/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What perf gpu record -p needs to know of a process from /proc.
 */
#ifndef PERF_GPU_RECORD_PROC_H
#define PERF_GPU_RECORD_PROC_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * The thread ids of process @pid, in a malloc'ed array in *@tids.
 * Their number, or -errno (-ESRCH when there is no such process).
 */
int proc_threads(pid_t pid, pid_t **tids);

/* Whether @pid still runs: exists and is not a zombie. */
bool proc_alive(pid_t pid);

#endif
