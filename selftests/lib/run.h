/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Run a program from a test and capture its output and exit status.
 */
#ifndef GPUPROF_TEST_RUN_H
#define GPUPROF_TEST_RUN_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Run the shell command made from @fmt with stderr joined to stdout; put
 * the output, NUL-terminated, in @out.  Returns the exit status, 128 + N
 * when killed by signal N, or -1 when it could not be run.
 */
__attribute__((format(printf, 3, 4)))
static inline int run_cmd(char *out, size_t size, const char *fmt, ...)
{
	char cmd[4096];
	size_t len = 0, n;
	va_list ap;
	FILE *f;
	int st;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd) - 8, fmt, ap);
	va_end(ap);
	if (n >= sizeof(cmd) - 8)
		return -1;
	snprintf(cmd + n, sizeof(cmd) - n, " 2>&1");
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (len + 1 < size && (n = fread(out + len, 1, size - 1 - len, f)))
		len += n;
	/* Drain what does not fit so the child never blocks on a pipe. */
	while (fgetc(f) != EOF)
		;
	out[len] = '\0';
	st = pclose(f);
	if (st < 0)
		return -1;
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

/*
 * The start of a shell command line that has tracefs at
 * /sys/kernel/tracing, for perf gpu record: "sh -c '" where it is
 * mounted (set-up mounts it), else a mount namespace of the command's
 * own with tracefs mounted there (as root).  The caller ends the line
 * with "'".  NULL when neither has it; @out gets the check's output.
 */
static inline const char *tracefs_shell(char *out, size_t size)
{
	const char *ns = "unshare -m sh -c 'mount -t tracefs nodev /sys/kernel/tracing && ";

	if (!access("/sys/kernel/tracing/events/dma_fence", F_OK))
		return "sh -c '";
	if (run_cmd(out, size, "%stest -d /sys/kernel/tracing/events/dma_fence'",
		    ns))
		return NULL;
	return ns;
}

/*
 * The repository a host test program was built in: the program is
 * REPO/selftests/out/host/NAME.  "." when that cannot be read or is
 * longer than 255 bytes, which keeps the callers' paths made from it
 * short.
 */
static inline const char *repo_dir(void)
{
	static char path[256];
	char *cut;
	ssize_t n;

	if (path[0])
		return path;
	n = readlink("/proc/self/exe", path, sizeof(path));
	if (n < 0 || n == sizeof(path)) {
		path[0] = '\0';
		return ".";
	}
	path[n] = '\0';
	cut = strstr(path, "/selftests/out/");
	if (cut)
		*cut = '\0';
	return path;
}

/* The perf-gpu binary under test, from $GPUPROF_PERF_GPU. */
static inline const char *perf_gpu_path(void)
{
	const char *p = getenv("GPUPROF_PERF_GPU");

	return p ? p : "perf-gpu";
}

#endif
