/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf gpu record's DRM client snapshots: every interval, the fdinfo of
 * the DRM fds of the traced processes, one gpu_client:fdinfo sample per
 * client (fds of one drm-pdev + drm-client-id counted once).
 */
#ifndef PERF_GPU_RECORD_FDINFO_H
#define PERF_GPU_RECORD_FDINFO_H

#include <stdint.h>
#include <sys/types.h>

struct record_store;

struct record_fdinfo {
	uint64_t interval_ns;	/* 0: off */
	pid_t root;		/* this process and its descendants; 0: all */
	uint64_t next;		/* CLOCK_MONOTONIC of the next snapshot */
	unsigned int event;	/* the store's index of gpu_client:fdinfo */
	uint16_t id;		/* its tracepoint id */
	uint64_t snapshots, samples, fds;
};

/*
 * Take a snapshot into @st when the interval is over at @now (or always
 * with @force).  0 or -ENOMEM; unreadable files are skipped (a process
 * exits, closes fds, or is not ours to read).
 */
int record_fdinfo_tick(struct record_fdinfo *f, struct record_store *st,
		       uint64_t now, int force);

/* The text of /proc/@pid/fdinfo/@fd if @fd is a DRM fd; NULL if not. */
char *record_fdinfo_read(pid_t pid, int fd, size_t *len);

#endif
