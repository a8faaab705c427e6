/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gpuprof: Intel OA reports (i915-perf's and xe's observation streams)
 * and the OA record stream, shared by the module and userspace.  The
 * stream is the recording format of IGT's i915-perf-recorder: i915's own
 * records (SAMPLE, loss) plus records of device information and clock
 * correlation, each behind an 8-byte header.  An xe stream, whose read()
 * gives bare reports, is written in the same records (design.rst 4).
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
 * The driver that made the stream, where its rules differ by driver,
 * kernel and submission back end (oa.rst): a writer that knows puts it
 * before DEVICE_INFO.  Without it a reader assumes i915, the newest
 * kernel it knows, or its own, and the platform's default back end.
 * The first version of the record had only @kernel and @submission (8
 * bytes); a reader takes both sizes, the short one as i915's.
 */
struct gpuprof_oa_driver {
	__u32 kernel;		/* major << 16 | minor << 8; 0: not known */
	__u32 submission;	/* GPUPROF_OA_SUBMISSION_* */
	__u32 driver;		/* GPUPROF_OA_DRIVER_* */
	__u32 pad;
};

#define GPUPROF_OA_DRIVER_I915		0
#define GPUPROF_OA_DRIVER_XE		1

#define GPUPROF_OA_SUBMISSION_DEFAULT	0	/* the platform's default */
#define GPUPROF_OA_SUBMISSION_EXECLISTS	1
#define GPUPROF_OA_SUBMISSION_GUC	2

/*
 * OA report formats: the values of i915's enum drm_i915_oa_format, then
 * those only xe offers (its enum xe_oa_format_name, less the ones i915
 * has too).  One numbering for both drivers, so DEVICE_INFO's oa_format
 * names a layout whoever made the stream.
 */
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
#define GPUPROF_OAC_FORMAT_A24u64_B8_C8		15	/* xe: DG2, MTL */
#define GPUPROF_OAC_FORMAT_A22u32_R2u32_B8_C8	16	/* xe: DG2, MTL */
#define GPUPROF_OA_FORMAT_PEC64u64		17	/* xe: Xe2 */
#define GPUPROF_OA_FORMAT_PEC64u64_B8_C8	18	/* xe: Xe2 */
#define GPUPROF_OA_FORMAT_PEC64u32		19	/* xe: Xe2 */
#define GPUPROF_OA_FORMAT_PEC32u64_G1		20	/* xe: Xe2 */
#define GPUPROF_OA_FORMAT_PEC32u32_G1		21	/* xe: Xe2 */
#define GPUPROF_OA_FORMAT_PEC32u64_G2		22	/* xe: Xe2 */
#define GPUPROF_OA_FORMAT_PEC32u32_G2		23	/* xe: Xe2 */
#define GPUPROF_OA_FORMAT_PEC36u64_G1_32_G2_4	24	/* xe: Xe2 */
#define GPUPROF_OA_FORMAT_PEC36u64_G1_4_G2_32	25	/* xe: Xe2 */
#define GPUPROF_OA_FORMAT_MAX			26

#define GPUPROF_OA_REPORT_MAX	640	/* bytes of the largest report */

/* Report reasons (dword 0, bits 19 up, gen8+). */
#define GPUPROF_OA_REASON_TIMER		0x01
#define GPUPROF_OA_REASON_CTX_SWITCH	0x08
#define GPUPROF_OA_REASON_CLK_RATIO	0x20

/*
 * The counters a report can carry.  A format has one kind of main
 * counters, kept as A: A0..A44 (Haswell's A45_B8_C8), Xe2's PEC0..PEC63
 * or Meteor Lake's media MPEC0..MPEC7.
 */
#define GPUPROF_OA_A_COUNTERS	64
#define GPUPROF_OA_B_COUNTERS	8
#define GPUPROF_OA_C_COUNTERS	8

#define GPUPROF_OA_NO_CONTEXT	0xffffffffu

#endif /* _UAPI_GPUPROF_OA_H */
