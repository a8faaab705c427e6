/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Finding tracefs and the GPU tracepoints in it.
 */
#ifndef PERF_GPU_PERFDATA_TRACEFS_H
#define PERF_GPU_PERFDATA_TRACEFS_H

#include <stddef.h>

/* Mount point of tracefs, or NULL when it is not mounted. */
const char *tracefs_dir(void);

/*
 * Call @fn for every event of tracing system @system, in name order.
 * Returns the number of events, or -errno when the system is absent.
 */
int tracefs_for_each_event(const char *system,
			   int (*fn)(const char *system, const char *event,
				     void *arg),
			   void *arg);

/*
 * Read the format file of @system:@event into a malloc'ed buffer.
 * Returns the buffer (NUL-terminated, length in *len) or NULL with errno.
 */
char *tracefs_read_format(const char *system, const char *event, size_t *len);

/*
 * Where field @name of @system:@event lies in a sample's raw data: its
 * offset and size from the format file.  0, or -1 when the event or the
 * field is not there.
 */
int tracefs_field(const char *system, const char *event, const char *name,
		  unsigned int *offset, unsigned int *size);

/* The tracing systems a GPU recording takes by default. */
extern const char *const gpu_trace_systems[];

#endif
