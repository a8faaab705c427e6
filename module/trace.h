/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gpuprof's own tracepoint: application markers written to
 * /dev/gpuprof/marker, which perf records as gpuprof:gpuprof_mark.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM gpuprof

#if !defined(_GPUPROF_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _GPUPROF_TRACE_H

#include <linux/tracepoint.h>

#include "compat.h"

TRACE_EVENT(gpuprof_mark,
	    TP_PROTO(pid_t pid, const char *text),
	    TP_ARGS(pid, text),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __string(text, text)),
	    TP_fast_assign(__entry->pid = pid;
			   gpuprof_assign_str(text, text);),
	    TP_printk("pid=%d %s", __entry->pid, __get_str(text))
);

#endif /* _GPUPROF_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
