/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Cgroup v2 paths as processes and perf see them.  A path is the one
 * the unified hierarchy (cgroup v2) gives, from the root of the reader's
 * cgroup namespace: "/" for the root, "/system.slice/x.service" below.
 */
#ifndef PERF_GPU_UTIL_CGROUP_H
#define PERF_GPU_UTIL_CGROUP_H

#include <stddef.h>

/*
 * The longest path kept, NUL included: what the live protocol carries
 * in one value.  A longer path is not cut (a cut path could name another
 * cgroup): it is treated as unknown.
 */
#define CGROUP_PATH_MAX	256

/*
 * The v2 path in the text of /proc/PID/cgroup (@len bytes, lines
 * "ID:CONTROLLERS:PATH"; the v2 line is "0::PATH"), copied to @path of
 * @size bytes.  0, or -1 when the text has no such line (a v1-only
 * machine), the line is not a path, or the path does not fit: @path is
 * then "".
 */
int cgroup_path_from_proc(const char *text, size_t len, char *path,
			  size_t size);

/*
 * Whether @path is @root or below it ("/a" holds "/a" and "/a/b", not
 * "/ab"); "/" holds every path.
 */
int cgroup_path_within(const char *path, const char *root);

#endif
