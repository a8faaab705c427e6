/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Thread names by tid from a recording's COMM records, the newest
 * winning, cut to the kernel's TASK_COMM_LEN (15 characters): perf gpu
 * report's reader (perfdata/gpu-trace.c) and perf gpu script both name
 * threads with it.  An array of the names, in order of first sight,
 * indexed by a util/map of the tids.
 */
#ifndef PERF_GPU_PERFDATA_COMM_TABLE_H
#define PERF_GPU_PERFDATA_COMM_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "util/map.h"

struct comm_table_entry;	/* internal to perfdata/comm-table.c */

struct comm_table {
	struct comm_table_entry *comms;
	size_t nr, alloc;
	struct u64_map of_tid;	/* tid: index in comms */
};

void comm_table_init(struct comm_table *t);
void comm_table_free(struct comm_table *t);

/* The name of @tid, or NULL when no COMM named it. */
const char *comm_table_get(const struct comm_table *t, int32_t tid);

/* Name @tid by the @len bytes of @name: 0, or -ENOMEM. */
int comm_table_set(struct comm_table *t, int32_t tid, const char *name,
		   size_t len);

#endif
