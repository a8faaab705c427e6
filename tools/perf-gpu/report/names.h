/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The DRM clients a recording's gpu_client:fdinfo snapshots show (perf
 * gpu record, design.rst 6.2): which process held which client (its
 * drm-pdev and drm-client-id), and the name the client gave itself with
 * DRM_IOCTL_SET_CLIENT_NAME (drm-client-name, Linux 6.14 and later),
 * which a snapshot keeps as the first pair of its stats
 * (drm_fdinfo_stats_client_name()).
 *
 * A client's name is the newest a snapshot of it showed: a client that
 * clears its name keeps the one it had in the report.  One drm_file has
 * one name whichever process holds it, so a name goes to every process
 * seen holding the client; a text without drm-client-id is a client of
 * its process alone.  Memory: one entry per (process, client) seen.
 */
#ifndef PERF_GPU_REPORT_NAMES_H
#define PERF_GPU_REPORT_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "drm/fdinfo.h"
#include "perfdata/gpu-trace.h"

#define REPORT_NAMES_PDEV	64

struct report_drm_client {
	char pdev[REPORT_NAMES_PDEV];	/* cut to fit */
	uint64_t client_id;		/* 0: the text had none */
	int32_t pid;
	char name[DRM_FDINFO_CLIENT_NAME + 1];	/* "" when none */
};

struct report_names {
	struct report_drm_client *v;	/* in order of first sight */
	uint32_t nr;
	size_t alloc;
};

void report_names_init(struct report_names *n);

/* Take @ev if it is a gpu_client:fdinfo sample.  0, or -1 out of memory. */
int report_names_add(struct report_names *n, const struct gpu_event *ev);

/*
 * Client @client_id of @pdev as first seen (the process then holding
 * it, its name), or NULL; client id 0 (none) names no client.
 */
const struct report_drm_client *
report_names_client(const struct report_names *n, const char *pdev,
		    uint64_t client_id);

/*
 * The names of the clients process @pid was seen holding, each once, in
 * order of first sight: call with *@pos 0, then again, until NULL.
 */
const char *report_names_next(const struct report_names *n, int32_t pid,
			      uint32_t *pos);

void report_names_free(struct report_names *n);

#endif
