/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Opening the schedmock test module's render node (schedmock_uapi.h): the
 * renderD* under its root device's drm/ in sysfs, whichever minor the DRM
 * core gave it.
 */
#ifndef GPUPROF_SELFTESTS_SCHEDMOCK_H
#define GPUPROF_SELFTESTS_SCHEDMOCK_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "../schedmock/schedmock_uapi.h"

/* /dev/dri/renderDN of schedmock into @path; -ENOENT if not loaded. */
static inline int schedmock_node(char *path, size_t size)
{
	DIR *d = opendir(SCHEDMOCK_SYSFS_DRM);
	struct dirent *e;
	int err = -ENOENT;

	if (!d)
		return -ENOENT;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "renderD", 7)) {
			snprintf(path, size, "/dev/dri/%s", e->d_name);
			err = 0;
			break;
		}
	closedir(d);
	return err;
}

/* open() of schedmock's render node with @flags; -1 and errno if not. */
static inline int schedmock_open(int flags)
{
	char path[300];
	int err = schedmock_node(path, sizeof(path));

	if (err) {
		errno = -err;
		return -1;
	}
	return open(path, flags);
}

#endif
