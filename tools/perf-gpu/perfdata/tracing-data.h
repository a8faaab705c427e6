/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The HEADER_TRACING_DATA feature of a perf.data: the tracefs formats of
 * the recorded tracepoints, laid out as perf's tracing_data_get() writes
 * them, and the formats of perf-gpu's synthetic events (OA reports and
 * fdinfo snapshots), which stock perf then prints like any tracepoint.
 */
#ifndef PERF_GPU_PERFDATA_TRACING_DATA_H
#define PERF_GPU_PERFDATA_TRACING_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../../../uapi/gpuprof_oa.h"

struct tracing_data;

/* An empty builder, or NULL with errno. */
struct tracing_data *tracing_data_new(void);
void tracing_data_free(struct tracing_data *td);

/*
 * Add the format text of one event of @system (copied).  Events of one
 * system are grouped whatever the order of the calls.  The text must
 * carry an "ID: N" line; N is returned (>= 0), or -EINVAL for a text
 * without one, -EEXIST when N is taken already, -ENOMEM.
 */
int tracing_data_add_format(struct tracing_data *td, const char *system,
			    const char *format, size_t len);

/* Add the tracefs format of @system:@event; its ID, or -errno. */
int tracing_data_add_tracefs_event(struct tracing_data *td,
				   const char *system, const char *event);

/*
 * Synthetic event ids.  A record's event is found from its common_type
 * (libtraceevent's tep_find_event_by_record(), which perf script uses),
 * a u16, so the ids must fit in 16 bits: there is no range above the
 * kernel's.  The kernel (6.1 register_trace_event()) hands out event
 * types counting up from about 20 and reuses freed ones only after
 * passing 65535; a normal kernel has 2000 to 3000, so ids from 0xff00 up
 * are reached only after some 65000 registrations since boot (possible
 * with heavy kprobe churn).  What must not clash is the ids within one
 * file, and the real events of the file are known: the synthetic ids are
 * the first free ones from GPU_SYNTH_ID_BASE up.
 */
#define GPU_SYNTH_ID_BASE	0xff00

struct gpu_synth_ids {
	uint16_t oa_report;	/* gpu_oa:oa_report */
	uint16_t fdinfo;	/* gpu_client:fdinfo */
	uint16_t oa_device;	/* gpu_oa:oa_device */
	uint16_t oa_correlation;	/* gpu_oa:oa_correlation */
};

/*
 * Add the synthetic events, gpu_oa:oa_report, gpu_client:fdinfo,
 * gpu_oa:oa_device and gpu_oa:oa_correlation,
 * with ids not taken by the events added before (add the real ones
 * first; a real one added later with one of these ids gets -EEXIST).
 * Their ids go to *@ids.  0, or -ENOMEM, -ENOSPC.
 */
int tracing_data_add_synthetic(struct tracing_data *td,
			       struct gpu_synth_ids *ids);

/*
 * The blob: magic, version 0.6, this host's endianness, sizeof(long)
 * and page size, header_page and header_event (from tracefs when it is
 * mounted, else the texts a 6.1 kernel's ring buffer gives), no ftrace
 * formats, the event formats by system in the order the systems were
 * first added, then empty kallsyms, printk formats and saved cmdlines.
 * malloc'ed, length in *len; NULL with errno.
 */
void *tracing_data_build(const struct tracing_data *td, size_t *len);

/* The format texts of the synthetic events with id @id (malloc'ed). */
char *gpu_oa_report_format(uint16_t id);
char *gpu_client_fdinfo_format(uint16_t id);
char *gpu_oa_device_format(uint16_t id);
char *gpu_oa_correlation_format(uint16_t id);

/*
 * The record payloads (what PERF_SAMPLE_RAW carries) of the synthetic
 * events, in the layout of their formats: @id is the event's id and goes
 * to common_type, @pid to common_pid.  Return the length written to
 * @buf, or -E2BIG when it does not fit in @size or in the 16-bit offsets
 * and lengths of __data_loc fields.
 */
ssize_t gpu_oa_report_payload(void *buf, size_t size, uint16_t id,
			      int32_t pid, uint64_t gpu_time, uint32_t ctx_id,
			      uint32_t reason, const void *report,
			      uint32_t report_size);
ssize_t gpu_client_fdinfo_payload(void *buf, size_t size, uint16_t id,
				  int32_t pid, uint64_t client_id, uint32_t fd,
				  const char *driver, const char *pdev,
				  const char *stats);
ssize_t gpu_oa_device_payload(void *buf, size_t size, uint16_t id,
			      const struct gpuprof_oa_device_info *info,
			      const struct gpuprof_oa_driver *drv,
			      const void *topology, uint32_t topology_size);
/* @bound_ns is meaningful only when @bounded. */
ssize_t gpu_oa_correlation_payload(void *buf, size_t size, uint16_t id,
				   uint64_t cpu_time, uint64_t gpu_time,
				   uint64_t bound_ns, bool bounded);

#endif
