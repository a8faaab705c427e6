/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading the HEADER_TRACING_DATA feature of a perf.data (the layout
 * perfdata/tracing-data.c writes and perf's trace_report() reads) into a
 * libtraceevent handle: the header page, ftrace and event formats
 * parsed, kallsyms, printk formats and saved cmdlines skipped after
 * their sizes are checked.
 */
#ifndef PERF_GPU_PERFDATA_TRACING_DATA_READ_H
#define PERF_GPU_PERFDATA_TRACING_DATA_READ_H

#include <stdint.h>

#include <traceevent/event-parse.h>

#include "perfdata/read.h"

/*
 * Parse the @size bytes at file offset @offset of @f into @tep.  0, or
 * -1 with the error of @f set at the offset of the problem.
 */
int tracing_data_read(struct pdr_file *f, uint64_t offset, uint64_t size,
		      struct tep_handle *tep);

/*
 * The tracepoints of @f: its HEADER_TRACING_DATA parsed into @tep, each
 * event checked to have the u16 common_type at offset 0 that
 * libtraceevent reads an event's type from, then events[i] the format
 * of attr i (f->nr_attrs of them), NULL for an attr of another type.  0,
 * or -1 with the error of @f set.
 */
int tracing_data_events(struct pdr_file *f, struct tep_handle *tep,
			struct tep_event **events);

#endif
