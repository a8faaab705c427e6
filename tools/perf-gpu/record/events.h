/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The tracepoints perf gpu record opens: the GPU systems present in
 * tracefs by default, plus those named with -e.
 */
#ifndef PERF_GPU_RECORD_EVENTS_H
#define PERF_GPU_RECORD_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

struct record_event {
	char *system, *event;
	char *name;		/* "system:event" */
	uint64_t id;		/* tracefs events/SYSTEM/EVENT/id */
};

struct record_events {
	struct record_event *ev;
	unsigned int nr;
	size_t alloc;
};

/*
 * Add the default GPU tracepoints that exist.  Absent systems are no
 * error; with @verbose each is named once on stderr.  0 or -errno.
 */
int record_events_add_defaults(struct record_events *evs, bool verbose);

/*
 * Add "SYSTEM:EVENT" (EVENT may be a glob, like perf's -e sys:ev*).
 * Already present ones are skipped.  0, -EINVAL for a malformed name,
 * -ENOENT when no such tracepoint exists, or another -errno.
 */
int record_events_add(struct record_events *evs, const char *spec);

void record_events_free(struct record_events *evs);

#endif
