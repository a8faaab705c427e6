// SPDX-License-Identifier: GPL-2.0-only
/*
 * Finding tracefs and the GPU tracepoints in it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata/tracefs.h"
#include "util/file.h"

/* dma_fence first: every DRM driver fires it; the rest where they exist. */
const char *const gpu_trace_systems[] = {
	"dma_fence", "drm", "gpu_scheduler", "i915", "virtio_gpu", "gpuprof",
	NULL,
};

const char *tracefs_dir(void)
{
	static const char *const candidates[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	size_t i;

	for (i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/events", candidates[i]);
		if (access(path, R_OK | X_OK) == 0)
			return candidates[i];
	}
	return NULL;
}

static int event_dirent(const struct dirent *d)
{
	/* Event directories; skip ".", ".." and the files "enable", "filter". */
	return d->d_name[0] != '.' && d->d_type == DT_DIR;
}

int tracefs_for_each_event(const char *system,
			   int (*fn)(const char *system, const char *event,
				     void *arg),
			   void *arg)
{
	const char *dir = tracefs_dir();
	struct dirent **names;
	char path[PATH_MAX];
	int n, i, err = 0;

	if (!dir)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/events/%s", dir, system);
	n = scandir(path, &names, event_dirent, alphasort);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		if (!err)
			err = fn(system, names[i]->d_name, arg);
		free(names[i]);
	}
	free(names);
	return err ? err : n;
}

char *tracefs_read_format(const char *system, const char *event, size_t *len)
{
	const char *dir = tracefs_dir();
	char path[PATH_MAX];
	char *buf;
	int err;

	if (!dir) {
		errno = ENOENT;
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, system,
		 event);
	err = file_read_all(path, 0, &buf, len);
	if (err) {
		errno = -err;
		return NULL;
	}
	return buf;
}

int tracefs_field(const char *system, const char *event, const char *name,
		  unsigned int *offset, unsigned int *size)
{
	char want[80], *fmt, *p;
	size_t len;
	int ret = -1;

	fmt = tracefs_read_format(system, event, &len);
	if (!fmt)
		return -1;
	/* "field:unsigned int seqno;\toffset:20;\tsize:4;..." */
	snprintf(want, sizeof(want), " %s;", name);
	p = strstr(fmt, want);
	if (p && (p = strstr(p, "offset:")) &&
	    sscanf(p, "offset:%u;%*[ \t]size:%u;", offset, size) == 2)
		ret = 0;
	free(fmt);
	return ret;
}
