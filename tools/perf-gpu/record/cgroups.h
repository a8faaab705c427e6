/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The cgroups that exist when perf gpu record starts, for the file's
 * PERF_RECORD_CGROUP records: the kernel reports only the cgroups made
 * while its events are open, so those made before are read from the
 * cgroup v2 tree, as perf record does.  Each directory of the first
 * cgroup2 mount in /proc/self/mountinfo is a cgroup; its id is the
 * 64-bit handle name_to_handle_at() gives (the kernfs node id the
 * kernel's PERF_SAMPLE_CGROUP carries), its path the one from the
 * hierarchy's root that the kernel's own records use.
 */
#ifndef PERF_GPU_RECORD_CGROUPS_H
#define PERF_GPU_RECORD_CGROUPS_H

#include <stddef.h>
#include <stdint.h>

typedef int (*cgroups_fn)(void *arg, uint64_t id, const char *path);

/*
 * Call @fn for every cgroup under @mount (a cgroup2 mount point whose
 * root in the hierarchy is @root, "/" for the whole), parents first,
 * until it returns non-zero, which is returned; a directory that goes
 * while walked is skipped.  0 when done.
 */
int cgroups_walk(const char *mount, const char *root, cgroups_fn fn,
		 void *arg);

/*
 * The first cgroup2 mount of @mountinfo (the text of /proc/PID/mountinfo,
 * @len bytes): its mount point and root, unescaped, into @mount and
 * @root of @size bytes each.  0, or -1 when there is none.
 */
int cgroups_find_mount(const char *mountinfo, size_t len, char *mount,
		       char *root, size_t size);

/* Both: every cgroup of this machine's cgroup2 mount; 0 when none. */
int cgroups_for_each(cgroups_fn fn, void *arg);

#endif
