/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gpuprof: the OA decoder (oa_decode.c): Intel OA reports of i915 and
 * xe, the clock that places them in time, and the OA record stream.
 * Plain C on __u32-style types, compiled into the module and into the
 * tools alike.  What it knows of GPUs and report formats is the data of
 * oa_platform.h, which it reads; the formats' numbers are in
 * uapi/gpuprof_oa.h.
 */
#ifndef _GPUPROF_OA_DECODE_H
#define _GPUPROF_OA_DECODE_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#endif

#include "../uapi/gpuprof_oa.h"
#include "oa_platform.h"

/* The header fields of one report. */
struct gpuprof_oa_report {
	__u32 reason;		/* GPUPROF_OA_REASON_* bits; 0 on Haswell */
	__u32 ctx_id;		/* GPUPROF_OA_NO_CONTEXT when not valid */
	__u64 timestamp;	/* the low @ts_bits of the OA timestamp */
	__u64 gpu_ticks;	/* GPU clock ticks, gen8+ (0 on Haswell) */
};

/* Counter deltas summed over pairs of reports. */
struct gpuprof_oa_deltas {
	__u64 deltas;		/* pairs summed */
	__u64 timestamp;	/* OA timestamp ticks */
	__u64 gpu_ticks;
	__u64 a[GPUPROF_OA_A_COUNTERS];
	__u64 b[GPUPROF_OA_B_COUNTERS];
	__u64 c[GPUPROF_OA_C_COUNTERS];
};

int gpuprof_oa_layout(unsigned int gen, __u32 format,
		      struct gpuprof_oa_layout *out);
bool gpuprof_oa_format_offered(const struct gpuprof_oa_platform *p,
			       __u32 kernel, __u32 format);
bool gpuprof_oa_xe_format_offered(const struct gpuprof_oa_platform *p,
				  __u32 kernel, __u32 format);
void gpuprof_oa_rules(const struct gpuprof_oa_platform *p, __u32 kernel,
		      __u32 submission, struct gpuprof_oa_layout *l);
void gpuprof_oa_xe_rules(const struct gpuprof_oa_platform *p,
			 struct gpuprof_oa_layout *l);
const struct gpuprof_oa_platform *
gpuprof_oa_layout_of(__u32 device_id, __u32 format,
		     const struct gpuprof_oa_driver *drv,
		     struct gpuprof_oa_layout *l);
unsigned int gpuprof_oa_n_a(const struct gpuprof_oa_layout *l);
void gpuprof_oa_report_header(const struct gpuprof_oa_layout *l,
			      const void *report,
			      struct gpuprof_oa_report *out);
__u64 gpuprof_oa_a(const struct gpuprof_oa_layout *l, const void *report,
		   unsigned int i);
void gpuprof_oa_accumulate(const struct gpuprof_oa_layout *l,
			   const void *r0, const void *r1,
			   struct gpuprof_oa_deltas *acc);
__u64 gpuprof_oa_unwrap(__u64 last, __u64 ts, unsigned int bits);

/* Correlation of the OA timestamp with CLOCK_MONOTONIC. */
#define GPUPROF_OA_CLOCK_POINTS 16

struct gpuprof_oa_clock {
	__u64 freq;		/* OA timestamp Hz */
	unsigned int n;		/* points held, oldest first */
	__u64 cpu[GPUPROF_OA_CLOCK_POINTS];
	__u64 gpu[GPUPROF_OA_CLOCK_POINTS];
};

void gpuprof_oa_clock_init(struct gpuprof_oa_clock *c, __u64 freq);
int gpuprof_oa_clock_add(struct gpuprof_oa_clock *c, __u64 cpu_ns,
			 __u64 gpu);
int gpuprof_oa_clock_to_cpu(const struct gpuprof_oa_clock *c, __u64 gpu,
			    __u64 *cpu_ns);
__u64 gpuprof_oa_ticks_to_ns(__u64 ticks, __u64 freq);

/* The OA record stream, parsed as it arrives, records split anywhere. */
#define GPUPROF_OA_RECORD_MAX	65535	/* a u16 size */

/* Why a stream was refused (struct gpuprof_oa_stream.error). */
enum gpuprof_oa_error {
	GPUPROF_OA_OK,
	GPUPROF_OA_ERR_SIZE,		/* below the header, or wrong for the type */
	GPUPROF_OA_ERR_NO_INFO,		/* a report before DEVICE_INFO */
	GPUPROF_OA_ERR_DEVICE,		/* device or format not known */
	GPUPROF_OA_ERR_VERSION,		/* a version other than 1 */
	GPUPROF_OA_ERR_TRUNCATED,	/* the stream ended inside a record */
	GPUPROF_OA_ERR_NO_VERSION,	/* the first record is not VERSION */
};

/**
 * struct gpuprof_oa_stream - parser state of one stream
 * @buf: room for one record, GPUPROF_OA_RECORD_MAX bytes, the caller's
 * @have: bytes of the record being assembled in @buf
 * @size: its size, from its header, once @have covers the header
 * @drv: the driver, kernel and back end whose rules apply: a DRIVER
 *	record's, else i915, the reader's default kernel and the
 *	platform's back end
 * @platform: the GPU DEVICE_INFO named, valid when @have_info
 * @info: the DEVICE_INFO, valid when @have_info
 * @have_info: a valid DEVICE_INFO was seen
 * @layout: the report layout DEVICE_INFO declared, with the rules of
 *	@platform, @kernel and @submission
 * @error: why the stream was refused; then it takes nothing more
 * @records: records taken whole
 * @samples: of @records, SAMPLE records
 * @report_lost: of @records, REPORT_LOST records
 * @buffer_lost: of @records, BUFFER_LOST records
 * @correlations: of @records, TIMESTAMP_CORRELATION and
 *	CORRELATION_BOUND records
 * @unknown: of @records, records of a type not known here, skipped
 */
struct gpuprof_oa_stream {
	__u8 *buf;
	__u32 have;
	__u32 size;
	struct gpuprof_oa_driver drv;
	const struct gpuprof_oa_platform *platform;
	struct gpuprof_oa_device_info info;
	bool have_info;
	struct gpuprof_oa_layout layout;
	enum gpuprof_oa_error error;
	__u64 records;
	__u64 samples;
	__u64 report_lost;
	__u64 buffer_lost;
	__u64 correlations;
	__u64 unknown;
};

/*
 * Called for each valid record, with the header and @h->size - 8 bytes
 * of payload; SAMPLE records carry @s->layout.size bytes of report.
 */
typedef void (*gpuprof_oa_record_fn)(void *arg,
				     const struct gpuprof_oa_stream *s,
				     const struct gpuprof_oa_record_header *h,
				     const void *payload);

void gpuprof_oa_stream_init(struct gpuprof_oa_stream *s, __u8 *buf);
int gpuprof_oa_stream_feed(struct gpuprof_oa_stream *s, const void *data,
			   size_t len, gpuprof_oa_record_fn fn, void *arg);
int gpuprof_oa_stream_end(struct gpuprof_oa_stream *s);
const char *gpuprof_oa_error_name(enum gpuprof_oa_error e);

#endif /* _GPUPROF_OA_DECODE_H */
