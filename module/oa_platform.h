/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gpuprof: what the OA decoder knows of Intel GPUs and their report
 * formats, as plain data (oa_platform.c): a row per GPU variant and a
 * row per report format.  Compiled into the module and into the tools
 * alike; oa_platform.c includes nothing of the decoder and calls
 * nothing, and the decoder (oa_decode.h) reads it (design.rst 6.5).
 */
#ifndef _GPUPROF_OA_PLATFORM_H
#define _GPUPROF_OA_PLATFORM_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#endif

#include "../uapi/gpuprof_oa.h"

/* Generations whose OA reports differ; 7 is Haswell. */
#define GPUPROF_OA_GEN_HSW	7

/* A kernel version, as far as i915-perf's rules differ between ours. */
#define GPUPROF_OA_KERNEL(major, minor)	(((major) << 16) | ((minor) << 8))
/* The newest kernel whose rules are known here. */
#define GPUPROF_OA_KERNEL_NEWEST	GPUPROF_OA_KERNEL(6, 12)

/* A graphics IP past every one known: "and every later one". */
#define GPUPROF_OA_IP_ANY	0xffff

/**
 * struct gpuprof_oa_platform - one Intel GPU variant
 * @name: "Tiger Lake GT2"
 * @metrics: the stem of IGT 1.27.1's metric definitions for it
 *	("tglgt2"), NULL when IGT has none
 * @ip: graphics IP version, major * 100 + minor (1255 is 12.55)
 * @guc: i915 submits through GuC by default (else execlists)
 * @oa_since: the first of our kernels (GPUPROF_OA_KERNEL()) whose
 *	i915-perf serves it, 0 for none
 * @xe_since: the first of our kernels whose xe serves its OA, 0 for none
 *	(6.12's and 7.3's xe have the same rules, used for every kernel)
 */
struct gpuprof_oa_platform {
	const char *name;
	const char *metrics;
	__u16 ip;
	bool guc;
	__u32 oa_since;
	__u32 xe_since;
};

/*
 * How the counters of a run are stored (struct gpuprof_oa_a_run): 4
 * bytes each; 40 bits, the low 32 at 4 bytes each and the high 8 one
 * byte per counter at the layout's @a40_high_off + counter number; 8
 * bytes each.
 */
enum gpuprof_oa_width {
	GPUPROF_OA_U32,
	GPUPROF_OA_U40,
	GPUPROF_OA_U64,
};

/**
 * struct gpuprof_oa_a_run - A counters stored alike, one after another
 * @first: the first counter, A@first
 * @n: how many
 * @width: enum gpuprof_oa_width
 * @off: byte offset of A@first (its low 32 bits)
 */
struct gpuprof_oa_a_run {
	__u8 first;
	__u8 n;
	__u8 width;
	__u16 off;
};

#define GPUPROF_OA_A_RUNS	6

/**
 * struct gpuprof_oa_layout - where a report format keeps what, and how
 * its header is read
 * @size: bytes of a report
 * @gen: the generation this layout is for
 * @hdr64: the 64-bit header of xe's later formats: the timestamp in
 *	qword 1, the context id in dword 4, GPU ticks in qword 3
 *	(else dwords 1, 2 and 3)
 * @ts_bits: the width of the OA timestamp in a report: 32, or 56 in a
 *	64-bit header
 * @n_runs: runs of A counters in @a_runs
 * @a_runs: the A counters
 * @a40_high_off: see struct gpuprof_oa_a_run
 * @n_b: B counters at @b_off
 * @b_off: see @n_b
 * @n_c: C counters at @c_off
 * @c_off: see @n_c
 * @reason_mask: the reason field's bits (dword 0 from bit 19)
 * @valid_bit: the bit of dword 0 without which the context id is not
 *	used; 0: the id is always used (gen12, where i915 itself squashes
 *	ids it does not trust)
 * @ctx_mask: the bits of the context id field that are the id
 * @shape: enum gpuprof_oa_shape: which of the layouts below this is, for
 *	the tools' accumulation (oa_decode.c); 0 for any other
 *
 * A format's row (struct gpuprof_oa_format) holds where it keeps what;
 * gpuprof_oa_layout() adds @size, @gen and the header rules.
 */
struct gpuprof_oa_layout {
	__u16 size;
	__u8 gen;
	__u8 hdr64;
	__u8 ts_bits;
	__u8 n_runs;
	struct gpuprof_oa_a_run a_runs[GPUPROF_OA_A_RUNS];
	__u16 a40_high_off;
	__u8 n_b;
	__u16 b_off;
	__u8 n_c;
	__u16 c_off;
	__u32 reason_mask;
	__u32 valid_bit;
	__u32 ctx_mask;
	__u8 shape;
};

/*
 * The counters of the layouts most GPUs write: gen8 to gen12's format
 * 10 (and its OAR twin), DG2 and Meteor Lake's format 12.  The format
 * table (oa_platform.c) gives them to their formats, and oa_decode.c
 * has the same layouts as constants, so that in the tools its
 * accumulation of these is built for each, its loops unrolled whole.
 */
enum gpuprof_oa_shape {
	GPUPROF_OA_SHAPE_ANY,
	GPUPROF_OA_SHAPE_A32U40_A4U32_B8_C8,
	GPUPROF_OA_SHAPE_A24U40_A14U32_B8_C8,
	GPUPROF_OA_SHAPES
};

#define GPUPROF_OA_RUN(f, count, w, o)					\
	{ .first = (f), .n = (count), .width = (w), .off = (o) }

/* A0-31 40 bits, A32-35 32 bits; high bytes from byte 160. */
#define GPUPROF_OA_LAYOUT_A32U40_A4U32_B8_C8 {				\
	.ts_bits = 32, .shape = GPUPROF_OA_SHAPE_A32U40_A4U32_B8_C8,	\
	.n_runs = 2,							\
	.a_runs = { GPUPROF_OA_RUN(0, 32, GPUPROF_OA_U40, 16),		\
		    GPUPROF_OA_RUN(32, 4, GPUPROF_OA_U32, 144) },	\
	.a40_high_off = 160,						\
	.n_b = 8, .b_off = 192, .n_c = 8, .c_off = 224 }

/*
 * DG2 and MTL mix widths: A0-3 32 bits, A4-23 40, A24-27 32, A28-31 40,
 * A32-36 32 and A37 at dword 46; high bytes from byte 160, indexed by
 * counter number as in format 10.
 */
#define GPUPROF_OA_LAYOUT_A24U40_A14U32_B8_C8 {			\
	.ts_bits = 32, .shape = GPUPROF_OA_SHAPE_A24U40_A14U32_B8_C8,	\
	.n_runs = 6,							\
	.a_runs = { GPUPROF_OA_RUN(0, 4, GPUPROF_OA_U32, 16),		\
		    GPUPROF_OA_RUN(4, 20, GPUPROF_OA_U40, 32),		\
		    GPUPROF_OA_RUN(24, 4, GPUPROF_OA_U32, 112),		\
		    GPUPROF_OA_RUN(28, 4, GPUPROF_OA_U40, 128),		\
		    GPUPROF_OA_RUN(32, 5, GPUPROF_OA_U32, 144),		\
		    GPUPROF_OA_RUN(37, 1, GPUPROF_OA_U32, 184) },	\
	.a40_high_off = 160,						\
	.n_b = 8, .b_off = 192, .n_c = 8, .c_off = 224 }

/*
 * Which unit writes a format, as xe names the types of its formats
 * (enum drm_xe_oa_format_type, whose values these are): the OAG unit
 * takes OAG, OAR, OAC and PEC formats, an OAM unit OAM and MPEC ones.
 */
enum gpuprof_oa_xe_type {
	GPUPROF_OA_XE_OAG,
	GPUPROF_OA_XE_OAR,
	GPUPROF_OA_XE_OAM,
	GPUPROF_OA_XE_OAC,
	GPUPROF_OA_XE_OAM_MPEC,
	GPUPROF_OA_XE_PEC,
};

/* Graphics IPs @from to @to - 1 (x100); none when @to is 0. */
struct gpuprof_oa_ips {
	__u16 from;
	__u16 to;
};

static inline bool gpuprof_oa_ips_hold(struct gpuprof_oa_ips r,
				       unsigned int ip)
{
	return ip >= r.from && ip < r.to;
}

/* Generations @from to @to - 1 (20 and 30: Xe2 and Xe3); none when 0. */
struct gpuprof_oa_gens {
	__u8 from;
	__u8 to;
};

/*
 * xe's encoding of a format, the fields of its OA_FORMAT property
 * (DRM_XE_OA_FORMAT_MASK_*): the type (enum gpuprof_oa_xe_type), the
 * counter select, the counter size, whether the report has B and C
 * counters.
 */
struct gpuprof_oa_xe_format {
	__u8 type;
	__u8 sel;
	__u8 counter_size;
	__u8 bc_report;
};

/**
 * struct gpuprof_oa_format - one report format, all that is known of it
 * @name: as i915's and xe's uAPI headers spell it, less their prefix
 *	("A32u40_A4u32_B8_C8"); the OAR_, OAM_ and OAC_ prefixes stay, as
 *	10 and 11 differ by the unit alone; NULL for a number that is no
 *	format
 * @size: bytes of a report
 * @layout: where it keeps its header and counters, on the generations
 *	@gens; none where it is not decoded (@gens.to 0)
 * @gens: see @layout
 * @hsw: Haswell's layout of it, where Haswell lays it out otherwise
 *	(C4_B8), else NULL
 * @i915: the graphics IPs whose i915 offers it (to the kernels of the
 *	platform's @oa_since on)
 * @i915_default: the format i915 records on @i915 when none is asked for
 * @xe: the graphics IPs whose xe offers it
 * @xe_default: the format xe records on @xe, on a unit that takes it
 * @xe_fmt: xe's encoding of it
 */
struct gpuprof_oa_format {
	const char *name;
	__u16 size;
	struct gpuprof_oa_layout layout;
	struct gpuprof_oa_gens gens;
	const struct gpuprof_oa_layout *hsw;
	struct gpuprof_oa_ips i915;
	bool i915_default;
	struct gpuprof_oa_ips xe;
	bool xe_default;
	struct gpuprof_oa_xe_format xe_fmt;
};

const struct gpuprof_oa_platform *gpuprof_oa_platform_of_device(__u32 device_id);
unsigned int gpuprof_oa_gen_of_device(__u32 device_id);
bool gpuprof_oa_gen_known(unsigned int gen);
const struct gpuprof_oa_format *gpuprof_oa_format(__u32 format);
const char *gpuprof_oa_format_name(__u32 format);

#endif /* _GPUPROF_OA_PLATFORM_H */
