/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The command perf gpu record runs and traces: forked stopped, so that
 * its events can be opened on its pid before it runs, then let go.
 */
#ifndef PERF_GPU_RECORD_WORKLOAD_H
#define PERF_GPU_RECORD_WORKLOAD_H

#include <sys/types.h>

struct workload {
	pid_t pid;
	int go_fd;	/* write end: the child execs when it closes */
	int err_fd;	/* read end: the child's exec errno, or EOF on exec */
};

/* Fork @argv[0] held before exec.  0 or -errno. */
int workload_prepare(struct workload *w, const char *const *argv);

/*
 * Let it exec.  0 once it has, or the -errno of a failed exec (the
 * child has then exited 127 and been reaped).
 */
int workload_start(struct workload *w);

/* Kill and reap a workload never started, after an error. */
void workload_abort(struct workload *w);

/*
 * Shell-style exit status of a wait() status: the exit code, or
 * 128 + N when killed by signal N.
 */
int workload_exit_code(int status);

#endif
