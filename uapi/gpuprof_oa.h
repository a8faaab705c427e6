/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gpuprof: i915-perf OA reports and the OA record stream, shared by the
 * module and userspace.  The stream is the recording format of IGT's
 * i915-perf-recorder: i915's own records (SAMPLE, loss) plus records of
 * device information and clock correlation, each behind an 8-byte header.
 * The decoding functions are implemented once, in module/oa_decode.c, and
 * compiled into both the module and the tools.
 */
#ifndef _UAPI_GPUPROF_OA_H
#define _UAPI_GPUPROF_OA_H

#include <linux/types.h>

/* Record types: i915's (drm_i915_perf_record_type), IGT's, ours. */
#define GPUPROF_OA_RECORD_SAMPLE		1
#define GPUPROF_OA_RECORD_REPORT_LOST		2
#define GPUPROF_OA_RECORD_BUFFER_LOST		3
#define GPUPROF_OA_RECORD_VERSION		0x10000
#define GPUPROF_OA_RECORD_DEVICE_INFO		0x10001
#define GPUPROF_OA_RECORD_DEVICE_TOPOLOGY	0x10002
#define GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION	0x10003
/* Our extensions start at 0x10100; IGT's reader skips unknown types. */
#define GPUPROF_OA_RECORD_CORRELATION_BOUND	0x10100
#define GPUPROF_OA_RECORD_DRIVER		0x10101

#define GPUPROF_OA_STREAM_VERSION		1

/* @size counts the header too. */
struct gpuprof_oa_record_header {
	__u32 type;
	__u16 pad;
	__u16 size;
};

struct gpuprof_oa_version {
	__u32 version;
	__u32 pad;
};

struct gpuprof_oa_device_info {
	__u64 timestamp_frequency;	/* Hz of the OA timestamp */
	__u32 device_id;
	__u32 device_revision;
	__u32 gt_min_frequency;
	__u32 gt_max_frequency;
	__u32 engine_class;
	__u32 engine_instance;
	__u32 oa_format;		/* GPUPROF_OA_FORMAT_* */
	char metric_set_name[256];
	char metric_set_uuid[40];
	__u32 pad;
};

struct gpuprof_oa_correlation {
	__u64 cpu_timestamp;		/* CLOCK_MONOTONIC, ns */
	__u64 gpu_timestamp;		/* OA timestamp, unwrapped to 64 bits */
};

/* Follows a correlation point: the same point and its error bound. */
struct gpuprof_oa_correlation_bound {
	__u64 cpu_timestamp;
	__u64 gpu_timestamp;
	__u64 window_ns;	/* the clock_gettime() window around the read */
};

/*
 * The driver that made the stream, where its rules differ by kernel and
 * submission back end (oa.rst): a writer that knows puts it before
 * DEVICE_INFO.  Without it a reader assumes the newest kernel it knows,
 * or its own, and the platform's default back end.
 */
struct gpuprof_oa_driver {
	__u32 kernel;		/* major << 16 | minor << 8; 0: not known */
	__u32 submission;	/* GPUPROF_OA_SUBMISSION_* */
};

#define GPUPROF_OA_SUBMISSION_DEFAULT	0	/* the platform's default */
#define GPUPROF_OA_SUBMISSION_EXECLISTS	1
#define GPUPROF_OA_SUBMISSION_GUC	2

/* OA report formats: the values of i915's enum drm_i915_oa_format. */
#define GPUPROF_OA_FORMAT_A13			1	/* Haswell */
#define GPUPROF_OA_FORMAT_A29			2	/* Haswell */
#define GPUPROF_OA_FORMAT_A13_B8_C8		3	/* Haswell */
#define GPUPROF_OA_FORMAT_B4_C8			4	/* Haswell */
#define GPUPROF_OA_FORMAT_A45_B8_C8		5	/* Haswell */
#define GPUPROF_OA_FORMAT_B4_C8_A16		6	/* Haswell */
#define GPUPROF_OA_FORMAT_C4_B8			7	/* Haswell, gen8+ */
#define GPUPROF_OA_FORMAT_A12			8	/* gen8+ */
#define GPUPROF_OA_FORMAT_A12_B8_C8		9	/* gen8+ */
#define GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8	10	/* gen8+ */
#define GPUPROF_OAR_FORMAT_A32u40_A4u32_B8_C8	11	/* DG2, MTL (6.12) */
#define GPUPROF_OA_FORMAT_A24u40_A14u32_B8_C8	12	/* DG2, MTL (6.12) */
#define GPUPROF_OAM_FORMAT_MPEC8u64_B8_C8	13	/* MTL media (6.12) */
#define GPUPROF_OAM_FORMAT_MPEC8u32_B8_C8	14	/* MTL media (6.12) */
#define GPUPROF_OA_FORMAT_MAX			15

#define GPUPROF_OA_REPORT_MAX	256	/* bytes of the largest report */

/* Report reasons (dword 0, bits 19 up, gen8+). */
#define GPUPROF_OA_REASON_TIMER		0x01
#define GPUPROF_OA_REASON_CTX_SWITCH	0x08
#define GPUPROF_OA_REASON_CLK_RATIO	0x20

/* The counters a report can carry. */
#define GPUPROF_OA_A_COUNTERS	45	/* A0..A44 (Haswell's A45_B8_C8) */
#define GPUPROF_OA_B_COUNTERS	8
#define GPUPROF_OA_C_COUNTERS	8

#define GPUPROF_OA_NO_CONTEXT	0xffffffffu

#endif /* _UAPI_GPUPROF_OA_H */
