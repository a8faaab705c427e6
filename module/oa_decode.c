// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: the OA decoder, one unit compiled into the module and into the
 * tools alike (oa_decode.h).  Two jobs, one below the other: reports and
 * the clock, then the record stream.  Of the module it calls only
 * oa_platform.c, whose tables of GPUs and report formats it reads; oa.c
 * and the tools call it.
 */

/**
 * DOC: OA reports
 *
 * A report is a header and counters.  Haswell's header is the report id
 * and the timestamp; gen8 and later add the context id (dword 2) and GPU
 * clock ticks (dword 3), and put the reason in dword 0 from bit 19 up.
 * xe's formats with a 64-bit header (Meteor Lake's media unit, Xe2) keep
 * the report id and reason in qword 0, a 56-bit timestamp in qword 1,
 * the context id in dword 4 and 64-bit GPU ticks in qword 3, counters
 * from byte 32.  How the reason and the context id are read depends on
 * the driver, the GPU, the kernel and the submission back end, as in
 * i915_perf.c and xe_oa.c: see gpuprof_oa_rules() and
 * gpuprof_oa_xe_rules().  Counters are 32 bits, except the 40-bit A
 * counters of formats 10 to 12 (the low 32 bits in place, the high 8 one
 * byte each from byte 160) and Xe2's 64-bit PEC counters; where each
 * format keeps what is its row of oa_platform.c's format table.  Deltas
 * between two reports use the arithmetic of each counter's width, so a
 * wrap is a small delta (design.rst 4 and 5.4).
 *
 * OA timestamps are 32 or 56 bits and wrap; they are extended to 64 bits
 * from the previous report and placed on CLOCK_MONOTONIC through
 * correlation points, interpolated between two, extrapolated at the
 * nominal frequency beyond them.
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/string.h>

#include "compat.h"
#else
#include <endian.h>
#include <string.h>

#define noinline __attribute_noinline__
#endif

#include "oa_decode.h"

/*
 * Little-endian loads at any alignment (reports come from byte streams);
 * one load instruction where the CPU allows it.
 */
static inline __u32 gpuprof_oa_u32(const void *report, unsigned int off)
{
#ifdef __KERNEL__
	return get_unaligned_le32((const __u8 *)report + off);
#else
	__u32 v;

	memcpy(&v, (const __u8 *)report + off, sizeof(v));
	return le32toh(v);
#endif
}

static inline __u64 gpuprof_oa_u64(const void *report, unsigned int off)
{
	return gpuprof_oa_u32(report, off) |
	       (__u64)gpuprof_oa_u32(report, off + 4) << 32;
}

/**
 * gpuprof_oa_layout - the layout of @format on generation @gen
 * @gen: from gpuprof_oa_gen_of_device()
 * @format: GPUPROF_OA_FORMAT_*
 * @out: the layout, with the header rules of @gen's first platform on
 *	the newest kernel known here (gpuprof_oa_rules() makes them exact)
 *
 * The layout is the format's row of oa_platform.c's table.
 *
 * Return: 0, or -1 when that generation has no such format (or none
 * whose layout is known here).
 */
int gpuprof_oa_layout(unsigned int gen, __u32 format,
		      struct gpuprof_oa_layout *out)
{
	const struct gpuprof_oa_format *f = gpuprof_oa_format(format);

	if (!f || !gpuprof_oa_gen_known(gen))
		return -1;
	if (gen == GPUPROF_OA_GEN_HSW && f->hsw)
		*out = *f->hsw;
	else if (gen >= f->gens.from && gen < f->gens.to)
		*out = f->layout;
	else
		return -1;
	out->size = f->size;
	out->gen = gen;
	gpuprof_oa_rules(NULL, GPUPROF_OA_KERNEL_NEWEST,
			 GPUPROF_OA_SUBMISSION_DEFAULT, out);
	return 0;
}

/**
 * gpuprof_oa_format_offered - does i915 offer @format on @p
 * @p: the GPU
 * @kernel: the kernel (GPUPROF_OA_KERNEL())
 * @format: GPUPROF_OA_FORMAT_*
 *
 * As i915_perf.c's oa_init_supported_formats() of Linux 6.1 and 6.12,
 * which the format table's i915 ranges follow (oa_platform.c), on the
 * kernels that serve @p.
 *
 * Return: true if that kernel's i915 opens a stream of @format on @p.
 */
bool gpuprof_oa_format_offered(const struct gpuprof_oa_platform *p,
			       __u32 kernel, __u32 format)
{
	const struct gpuprof_oa_format *f = gpuprof_oa_format(format);

	if (!f || !p->oa_since || kernel < p->oa_since)
		return false;
	return gpuprof_oa_ips_hold(f->i915, p->ip);
}

/**
 * gpuprof_oa_xe_format_offered - does xe offer @format on @p
 * @p: the GPU
 * @kernel: the kernel (GPUPROF_OA_KERNEL()), not looked at: the format
 *	sets of 6.12's and 7.3's xe are the same, so a stream of any
 *	kernel's xe is read by their rules (a kernel whose xe did not
 *	have OA, or did not know the GPU, made no stream)
 * @format: GPUPROF_OA_FORMAT_*
 *
 * As xe_oa.c's per-platform format sets of Linux 6.12 and 7.3, which
 * the format table's xe ranges follow (oa_platform.c).
 *
 * Return: true if xe opens a stream of @format on @p.
 */
bool gpuprof_oa_xe_format_offered(const struct gpuprof_oa_platform *p,
				  __u32 kernel, __u32 format)
{
	const struct gpuprof_oa_format *f = gpuprof_oa_format(format);

	(void)kernel;
	return f && p->xe_since && gpuprof_oa_ips_hold(f->xe, p->ip);
}

/*
 * Context id fields, as i915's oa_get_render_ctx_id() masks them (the
 * widths and shifts of gt/intel_lrc.h): gen8/9 a 21-bit hardware id,
 * 20 bits under GuC (its top bit flags proxy submission); gen11/12 the
 * 11-bit software id from bit 5 (GEN11_SW_CTX_ID_SHIFT - 32); XeHP, and
 * gen12 under GuC since 6.12 (GEN12_GUC_SW_CTX_ID_*), 16 bits from bit 7.
 */
#define CTX_GEN8		0x1fffffu
#define CTX_GEN8_GUC		0x0fffffu
#define CTX_GEN11		(0x7ffu << 5)
#define CTX_XEHP		(0xffffu << 7)

/**
 * gpuprof_oa_rules - how i915 reads a report header on @p
 * @p: the GPU, or NULL for the first platform of @l->gen
 * @kernel: the kernel whose i915 made the stream (GPUPROF_OA_KERNEL())
 * @submission: GPUPROF_OA_SUBMISSION_*
 * @l: the layout whose rules are set
 *
 * The reason field is 6 bits, 7 on gen12.  The context id's valid bit is
 * bit 25 on gen8 and bit 16 on gen9 to gen11; on gen12 a reader uses the
 * id whatever the bit says: 6.1 never looks at it there, 6.12 squashes
 * ids whose bit is clear itself before userspace sees them (below 12.55),
 * and from 12.55 the bit is set on context switches only.
 */
void gpuprof_oa_rules(const struct gpuprof_oa_platform *p, __u32 kernel,
		      __u32 submission, struct gpuprof_oa_layout *l)
{
	unsigned int ip = p ? p->ip : l->gen * 100;
	bool guc;

	if (submission == GPUPROF_OA_SUBMISSION_DEFAULT)
		guc = p && p->guc;
	else
		guc = submission == GPUPROF_OA_SUBMISSION_GUC;

	l->reason_mask = ip >= 1200 ? 0x7f : 0x3f;
	if (ip < 800) {
		l->reason_mask = 0;
		l->valid_bit = 0;
		l->ctx_mask = 0;
	} else if (ip < 900) {
		l->valid_bit = 1u << 25;
		l->ctx_mask = guc ? CTX_GEN8_GUC : CTX_GEN8;
	} else if (ip < 1100) {
		l->valid_bit = 1u << 16;
		l->ctx_mask = guc ? CTX_GEN8_GUC : CTX_GEN8;
	} else if (ip < 1200) {
		l->valid_bit = 1u << 16;
		l->ctx_mask = CTX_GEN11;
	} else {
		l->valid_bit = 0;
		if (ip >= 1250 ||
		    (guc && kernel >= GPUPROF_OA_KERNEL(6, 12)))
			l->ctx_mask = CTX_XEHP;
		else
			l->ctx_mask = CTX_GEN11;
	}
}

/**
 * gpuprof_oa_xe_rules - how a report header of xe is read on @p
 * @p: the GPU
 * @l: the layout whose rules are set
 *
 * xe neither filters nor squashes context ids: every report carries
 * the id the hardware wrote, to be trusted when dword 0's bit 16 says
 * so, whole (xe's ids are not i915's bit fields).  The reason field is
 * the six bits IGT's xe tests read.
 */
void gpuprof_oa_xe_rules(const struct gpuprof_oa_platform *p,
			 struct gpuprof_oa_layout *l)
{
	(void)p;
	l->reason_mask = 0x3f;
	l->valid_bit = 1u << 16;
	l->ctx_mask = 0xffffffffu;
}

/* Decode the header of @report, which has @l->size bytes. */
void gpuprof_oa_report_header(const struct gpuprof_oa_layout *l,
			      const void *report,
			      struct gpuprof_oa_report *out)
{
	__u32 dw0 = gpuprof_oa_u32(report, 0);
	__u32 ctx;

	if (l->hdr64) {
		out->timestamp = gpuprof_oa_u64(report, 8) &
				 ((1ull << l->ts_bits) - 1);
		ctx = gpuprof_oa_u32(report, 16);
		out->gpu_ticks = gpuprof_oa_u64(report, 24);
	} else {
		out->timestamp = gpuprof_oa_u32(report, 4);
		ctx = gpuprof_oa_u32(report, 8);
		out->gpu_ticks = gpuprof_oa_u32(report, 12);
	}
	if (l->gen == GPUPROF_OA_GEN_HSW) {
		/* No reason field, no context id, no clock in the header. */
		out->reason = 0;
		out->ctx_id = GPUPROF_OA_NO_CONTEXT;
		out->gpu_ticks = 0;
		return;
	}
	out->reason = (dw0 >> 19) & l->reason_mask;
	/* An id i915 squashed stays "none" whatever the mask keeps of it. */
	if ((l->valid_bit && !(dw0 & l->valid_bit)) ||
	    ctx == GPUPROF_OA_NO_CONTEXT)
		out->ctx_id = GPUPROF_OA_NO_CONTEXT;
	else
		out->ctx_id = ctx & l->ctx_mask;
}

/* The 40-bit value of counter A@i, stored at @off (a wide run's). */
static __u64 gpuprof_oa_a40_at(const struct gpuprof_oa_layout *l,
			       const void *report, unsigned int i,
			       unsigned int off)
{
	const __u8 *high = (const __u8 *)report + l->a40_high_off;

	return gpuprof_oa_u32(report, off) | ((__u64)high[i] << 32);
}

/**
 * gpuprof_oa_a - the value of counter A@i in @report
 * @l: its layout
 * @report: the report
 * @i: the counter
 *
 * Return: the value, as wide as the counter; 0 for a counter the format
 * does not carry.
 */
__u64 gpuprof_oa_a(const struct gpuprof_oa_layout *l, const void *report,
		   unsigned int i)
{
	const struct gpuprof_oa_a_run *r;
	unsigned int k, off;

	for (k = 0; k < l->n_runs; k++) {
		r = &l->a_runs[k];
		if (i < r->first || i >= r->first + r->n)
			continue;
		if (r->width == GPUPROF_OA_U64)
			return gpuprof_oa_u64(report, r->off + 8 * (i - r->first));
		off = r->off + 4 * (i - r->first);
		if (r->width == GPUPROF_OA_U40)
			return gpuprof_oa_a40_at(l, report, i, off);
		return gpuprof_oa_u32(report, off);
	}
	return 0;
}

static __u32 gpuprof_oa_delta32(const void *r0, const void *r1,
				unsigned int off)
{
	return gpuprof_oa_u32(r1, off) - gpuprof_oa_u32(r0, off);
}

static __u64 gpuprof_oa_delta64(const void *r0, const void *r1,
				unsigned int off)
{
	return gpuprof_oa_u64(r1, off) - gpuprof_oa_u64(r0, off);
}

/**
 * DOC: The accumulation, and its vectors in the tools
 *
 * gpuprof_oa_accumulate() is the decoder's inner loop: every pair of
 * reports gives some fifty counter deltas, each taken in its counter's
 * width and added to a 64-bit sum.  Its loops read one width each, with
 * no choice made per counter.  In the kernel they are plain C, and so
 * they are in the tools on a CPU without AVX2.
 *
 * With AVX2 (every x86 CPU since Haswell, the oldest GPU read here) the
 * tools take the counters four or eight a step: eight 32-bit deltas in
 * one subtraction, then widened to 64 bits; a 40-bit counter's low
 * dword and high byte joined in a 64-bit lane.  The counters short of a
 * whole step go through the plain C.  The layouts most GPUs write
 * (enum gpuprof_oa_shape: gen8 to gen12's, DG2 and Meteor Lake's) have
 * a function each, built from the same code with the layout a constant,
 * so their loops are unrolled whole and nothing is looked up per pair.
 * An accumulation of format 10 takes 670 instructions in plain C, 285
 * in the general AVX2 loops, 155 in its own (Callgrind).  Every way
 * gives the same sums, bit for bit.
 */

/*
 * Add to @out[from..n) the deltas of the 32-bit counters at @p0 and
 * @p1, each modulo 2^32.
 */
static inline void gpuprof_oa_add32(const __u8 *p0, const __u8 *p1,
				    unsigned int from, unsigned int n,
				    __u64 *out)
{
	unsigned int i;

	for (i = from; i < n; i++)
		out[i] += (__u32)(gpuprof_oa_u32(p1, 4 * i) -
				  gpuprof_oa_u32(p0, 4 * i));
}

/*
 * Add to @a the deltas of A run @r (A@first on) from @r0 to @r1, from
 * its counter @from on.
 */
static inline void gpuprof_oa_add_run(const struct gpuprof_oa_layout *l,
				      const struct gpuprof_oa_a_run *r,
				      const __u8 *r0, const __u8 *r1,
				      __u64 *a, unsigned int from)
{
	const __u8 *p0 = r0 + r->off, *p1 = r1 + r->off;
	const __u8 *h0, *h1;
	unsigned int i, n = r->n;

	switch (r->width) {
	case GPUPROF_OA_U64:
		for (i = from; i < n; i++)
			a[i] += gpuprof_oa_u64(p1, 8 * i) -
				gpuprof_oa_u64(p0, 8 * i);
		break;
	case GPUPROF_OA_U40:
		/* Low 32 bits in the run, bits 32-39 a byte each apart. */
		h0 = r0 + l->a40_high_off + r->first;
		h1 = r1 + l->a40_high_off + r->first;
		for (i = from; i < n; i++)
			a[i] += ((gpuprof_oa_u32(p1, 4 * i) | (__u64)h1[i] << 32) -
				 (gpuprof_oa_u32(p0, 4 * i) | (__u64)h0[i] << 32)) &
				((1ull << 40) - 1);
		break;
	default:
		gpuprof_oa_add32(p0, p1, from, n, a);
	}
}

/* The pair and the deltas of its header's clocks, added to @acc. */
static inline void
gpuprof_oa_add_header(const struct gpuprof_oa_layout *l, const __u8 *r0,
		      const __u8 *r1, struct gpuprof_oa_deltas *acc)
{
	acc->deltas++;
	if (l->hdr64) {
		acc->timestamp += gpuprof_oa_delta64(r0, r1, 8) &
				  ((1ull << l->ts_bits) - 1);
		acc->gpu_ticks += gpuprof_oa_delta64(r0, r1, 24);
	} else {
		acc->timestamp += gpuprof_oa_delta32(r0, r1, 4);
		if (l->gen != GPUPROF_OA_GEN_HSW)
			acc->gpu_ticks += gpuprof_oa_delta32(r0, r1, 12);
	}
}

#if !defined(__KERNEL__) && defined(__x86_64__)
#include <immintrin.h>

#define GPUPROF_OA_WITH_AVX2
/* The functions built for AVX2. */
#define GPUPROF_OA_AVX2 __attribute__((target("avx2")))

/* Unaligned loads of 16 and 32 bytes. */
static __always_inline GPUPROF_OA_AVX2 __m128i gpuprof_oa_x16(const __u8 *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}

static __always_inline GPUPROF_OA_AVX2 __m256i gpuprof_oa_x32(const __u8 *p)
{
	return _mm256_loadu_si256((const __m256i *)p);
}

/* Add four 64-bit deltas to @out[0..4). */
static __always_inline GPUPROF_OA_AVX2 void gpuprof_oa_add4_avx2(__u64 *out, __m256i d)
{
	__m256i *o = (__m256i *)out;

	_mm256_storeu_si256(o, _mm256_add_epi64(_mm256_loadu_si256(o), d));
}

/* The deltas of 32-bit counters, 8 and then 4 a step: how many done. */
static __always_inline GPUPROF_OA_AVX2 unsigned int
gpuprof_oa_add32_avx2(const __u8 *p0, const __u8 *p1, unsigned int n,
		      __u64 *out)
{
	size_t i, n8 = n & ~7u;
	__m256i d;
	__m128i d4;

	for (i = 0; i < n8; i += 8) {
		d = _mm256_sub_epi32(gpuprof_oa_x32(p1 + 4 * i),
				     gpuprof_oa_x32(p0 + 4 * i));
		gpuprof_oa_add4_avx2(out + i,
				     _mm256_cvtepu32_epi64(_mm256_castsi256_si128(d)));
		gpuprof_oa_add4_avx2(out + i + 4,
				     _mm256_cvtepu32_epi64(_mm256_extracti128_si256(d, 1)));
	}
	if (n & 4) {
		d4 = _mm_sub_epi32(gpuprof_oa_x16(p1 + 4 * i),
				   gpuprof_oa_x16(p0 + 4 * i));
		gpuprof_oa_add4_avx2(out + i, _mm256_cvtepu32_epi64(d4));
	}
	return n & ~3u;
}

/* Four 40-bit values: low dwords at @low, high bytes at @high. */
static __always_inline GPUPROF_OA_AVX2 __m256i
gpuprof_oa_v40_avx2(const __u8 *low, const __u8 *high)
{
	__m256i h;
	__u32 h4;

	memcpy(&h4, high, sizeof(h4));
	h = _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(h4));
	return _mm256_or_si256(_mm256_cvtepu32_epi64(gpuprof_oa_x16(low)),
			       _mm256_slli_epi64(h, 32));
}

/* Add the deltas of four 40-bit counters to @a[0..4). */
static __always_inline GPUPROF_OA_AVX2 void
gpuprof_oa_add40x4_avx2(const __u8 *low0, const __u8 *low1,
			const __u8 *high0, const __u8 *high1, __u64 *a)
{
	__m256i d = _mm256_sub_epi64(gpuprof_oa_v40_avx2(low1, high1),
				     gpuprof_oa_v40_avx2(low0, high0));

	gpuprof_oa_add4_avx2(a, _mm256_and_si256(d, _mm256_set1_epi64x((1ll << 40) - 1)));
}

/* The deltas of 40-bit counters, 8 and then 4 a step: how many done. */
static __always_inline GPUPROF_OA_AVX2 unsigned int
gpuprof_oa_add40_avx2(const __u8 *p0, const __u8 *p1, const __u8 *h0,
		      const __u8 *h1, unsigned int n, __u64 *a)
{
	size_t i, n8 = n & ~7u;

	for (i = 0; i < n8; i += 8) {
		gpuprof_oa_add40x4_avx2(p0 + 4 * i, p1 + 4 * i, h0 + i, h1 + i,
					a + i);
		gpuprof_oa_add40x4_avx2(p0 + 4 * i + 16, p1 + 4 * i + 16,
					h0 + i + 4, h1 + i + 4, a + i + 4);
	}
	if (n & 4)
		gpuprof_oa_add40x4_avx2(p0 + 4 * i, p1 + 4 * i, h0 + i, h1 + i,
					a + i);
	return n & ~3u;
}

/* The deltas of 64-bit counters, 4 a step: how many done. */
static __always_inline GPUPROF_OA_AVX2 unsigned int
gpuprof_oa_add64_avx2(const __u8 *p0, const __u8 *p1, unsigned int n,
		      __u64 *a)
{
	size_t i, n4 = n & ~3u;

	for (i = 0; i < n4; i += 4)
		gpuprof_oa_add4_avx2(a + i,
				     _mm256_sub_epi64(gpuprof_oa_x32(p1 + 8 * i),
						      gpuprof_oa_x32(p0 + 8 * i)));
	return n4;
}

/* Add to @a the deltas of A run @r; the counters short of a step in C. */
static __always_inline GPUPROF_OA_AVX2 void
gpuprof_oa_run_avx2(const struct gpuprof_oa_layout *l,
		    const struct gpuprof_oa_a_run *r, const __u8 *r0,
		    const __u8 *r1, __u64 *a)
{
	const __u8 *p0 = r0 + r->off, *p1 = r1 + r->off;
	unsigned int done;

	if (r->width == GPUPROF_OA_U40)
		done = gpuprof_oa_add40_avx2(p0, p1,
					     r0 + l->a40_high_off + r->first,
					     r1 + l->a40_high_off + r->first,
					     r->n, a);
	else if (r->width == GPUPROF_OA_U32)
		done = gpuprof_oa_add32_avx2(p0, p1, r->n, a);
	else
		done = gpuprof_oa_add64_avx2(p0, p1, r->n, a);
	if (done < r->n)
		gpuprof_oa_add_run(l, r, r0, r1, a, done);
}

/* gpuprof_oa_add32() for B or C counters, vectors first. */
static __always_inline GPUPROF_OA_AVX2 void
gpuprof_oa_add32_all_avx2(const __u8 *p0, const __u8 *p1, unsigned int n,
			  __u64 *out)
{
	unsigned int done = gpuprof_oa_add32_avx2(p0, p1, n, out);

	if (done < n)
		gpuprof_oa_add32(p0, p1, done, n, out);
}

/* gpuprof_oa_accumulate() with AVX2. */
static __always_inline GPUPROF_OA_AVX2 void
gpuprof_oa_sum_avx2(const struct gpuprof_oa_layout *l, const __u8 *r0,
		    const __u8 *r1, struct gpuprof_oa_deltas *acc)
{
	const struct gpuprof_oa_a_run *r, *end = l->a_runs + l->n_runs;

	gpuprof_oa_add_header(l, r0, r1, acc);
	/* Whole for a shape's constant layout, so that all is known. */
#pragma GCC unroll 6
	for (r = l->a_runs; r < end; r++)
		gpuprof_oa_run_avx2(l, r, r0, r1, acc->a + r->first);
	gpuprof_oa_add32_all_avx2(r0 + l->b_off, r1 + l->b_off, l->n_b,
				  acc->b);
	gpuprof_oa_add32_all_avx2(r0 + l->c_off, r1 + l->c_off, l->n_c,
				  acc->c);
}

/*
 * The layouts of enum gpuprof_oa_shape as constants: gpuprof_oa_sum_avx2()
 * is built once for each, with every loop and offset known.  Their
 * header rules are gen8 and later's too (a 32-bit header with GPU
 * ticks): no generation before has either format.
 */
static const struct gpuprof_oa_layout gpuprof_oa_shapes[GPUPROF_OA_SHAPES] = {
	[GPUPROF_OA_SHAPE_A32U40_A4U32_B8_C8] =
		GPUPROF_OA_LAYOUT_A32U40_A4U32_B8_C8,
	[GPUPROF_OA_SHAPE_A24U40_A14U32_B8_C8] =
		GPUPROF_OA_LAYOUT_A24U40_A14U32_B8_C8,
};

static GPUPROF_OA_AVX2 void
gpuprof_oa_sum_any_avx2(const struct gpuprof_oa_layout *l, const __u8 *r0,
			const __u8 *r1, struct gpuprof_oa_deltas *acc)
{
	gpuprof_oa_sum_avx2(l, r0, r1, acc);
}

static GPUPROF_OA_AVX2 void
gpuprof_oa_sum_a32u40_avx2(const __u8 *r0, const __u8 *r1,
			   struct gpuprof_oa_deltas *acc)
{
	gpuprof_oa_sum_avx2(&gpuprof_oa_shapes[GPUPROF_OA_SHAPE_A32U40_A4U32_B8_C8],
			    r0, r1, acc);
}

static GPUPROF_OA_AVX2 void
gpuprof_oa_sum_a24u40_avx2(const __u8 *r0, const __u8 *r1,
			   struct gpuprof_oa_deltas *acc)
{
	gpuprof_oa_sum_avx2(&gpuprof_oa_shapes[GPUPROF_OA_SHAPE_A24U40_A14U32_B8_C8],
			    r0, r1, acc);
}

/* gpuprof_oa_accumulate() on a CPU with AVX2. */
static void gpuprof_oa_accumulate_avx2(const struct gpuprof_oa_layout *l,
				       const __u8 *r0, const __u8 *r1,
				       struct gpuprof_oa_deltas *acc)
{
	switch (l->shape) {
	case GPUPROF_OA_SHAPE_A32U40_A4U32_B8_C8:
		gpuprof_oa_sum_a32u40_avx2(r0, r1, acc);
		break;
	case GPUPROF_OA_SHAPE_A24U40_A14U32_B8_C8:
		gpuprof_oa_sum_a24u40_avx2(r0, r1, acc);
		break;
	default:
		gpuprof_oa_sum_any_avx2(l, r0, r1, acc);
	}
}
#endif

/**
 * gpuprof_oa_n_a - how many A counters a layout can carry
 * @l: the layout
 *
 * Return: one past the highest A counter of its runs: A0..A(n-1) are
 * the ones to show (those of the runs' gaps are 0).
 */
unsigned int gpuprof_oa_n_a(const struct gpuprof_oa_layout *l)
{
	unsigned int k, n = 0;

	for (k = 0; k < l->n_runs; k++)
		if (l->a_runs[k].first + l->a_runs[k].n > n)
			n = l->a_runs[k].first + l->a_runs[k].n;
	return n;
}

/*
 * gpuprof_oa_accumulate() in plain C: the kernel's, and the tools' on a
 * CPU without AVX2; a function apart, so that the registers it needs
 * are not saved on the AVX2 path.
 */
static noinline void gpuprof_oa_accumulate_c(const struct gpuprof_oa_layout *l,
					     const __u8 *r0, const __u8 *r1,
					     struct gpuprof_oa_deltas *acc)
{
	unsigned int k;

	gpuprof_oa_add_header(l, r0, r1, acc);
	for (k = 0; k < l->n_runs; k++)
		gpuprof_oa_add_run(l, &l->a_runs[k], r0, r1,
				   acc->a + l->a_runs[k].first, 0);
	gpuprof_oa_add32(r0 + l->b_off, r1 + l->b_off, 0, l->n_b, acc->b);
	gpuprof_oa_add32(r0 + l->c_off, r1 + l->c_off, 0, l->n_c, acc->c);
}

/**
 * gpuprof_oa_accumulate - add the deltas from report @r0 to report @r1
 * @l: their layout
 * @r0: the earlier report
 * @r1: the later report
 * @acc: where the deltas are summed
 */
void gpuprof_oa_accumulate(const struct gpuprof_oa_layout *l,
			   const void *r0, const void *r1,
			   struct gpuprof_oa_deltas *acc)
{
#ifdef GPUPROF_OA_WITH_AVX2
	if (__builtin_cpu_supports("avx2")) {
		gpuprof_oa_accumulate_avx2(l, r0, r1, acc);
		return;
	}
#endif
	gpuprof_oa_accumulate_c(l, r0, r1, acc);
}

/**
 * gpuprof_oa_unwrap - extend an OA timestamp to 64 bits
 * @last: the previous 64-bit timestamp (or a correlation point)
 * @ts: the new timestamp, of which the low @bits count
 * @bits: its width: a layout's ts_bits, 32 or 56 (1 to 63)
 *
 * Return: the value with low bits @ts nearest to @last; reports come in
 * order, so a small value after a large one is a wrap forward.
 */
__u64 gpuprof_oa_unwrap(__u64 last, __u64 ts, unsigned int bits)
{
	__u64 span = 1ull << bits, half = span >> 1;
	__u64 v = (last & ~(span - 1)) | (ts & (span - 1));

	if (v + half < last)
		v += span;
	else if (v > last + half && v >= span)
		v -= span;
	return v;
}

/* @ticks of a clock of @freq Hz in ns, without overflow for any u64. */
__u64 gpuprof_oa_ticks_to_ns(__u64 ticks, __u64 freq)
{
	__u64 secs, rest;

	if (!freq)
		return 0;
	/*
	 * Under a second, the usual case (a report's delta, a report past
	 * the last correlation point): one division, not three.
	 */
	if (ticks < freq)
#ifdef __KERNEL__
		return mul_u64_u64_div_u64(ticks, 1000000000ull, freq);
#else
		return (__u64)((__uint128_t)ticks * 1000000000ull / freq);
#endif
#ifdef __KERNEL__
	secs = div64_u64_rem(ticks, freq, &rest);
	rest = mul_u64_u64_div_u64(rest, 1000000000ull, freq);
#else
	secs = ticks / freq;
	rest = ticks % freq;
	rest = (__u64)((__uint128_t)rest * 1000000000ull / freq);
#endif
	/* Saturate: beyond 584 years of ns nothing is meaningful. */
	if (secs > (~0ull - rest) / 1000000000ull)
		return ~0ull;
	return secs * 1000000000ull + rest;
}

void gpuprof_oa_clock_init(struct gpuprof_oa_clock *c, __u64 freq)
{
	memset(c, 0, sizeof(*c));
	c->freq = freq;
}

/**
 * gpuprof_oa_clock_add - add a correlation point
 * @c: the clock
 * @cpu_ns: CLOCK_MONOTONIC at the point
 * @gpu: the 64-bit OA timestamp at the point
 *
 * Return: 0, or -1 for a point that does not move both clocks forward.
 * The oldest point goes when the clock is full.
 */
int gpuprof_oa_clock_add(struct gpuprof_oa_clock *c, __u64 cpu_ns, __u64 gpu)
{
	if (c->n && (cpu_ns <= c->cpu[c->n - 1] || gpu <= c->gpu[c->n - 1]))
		return -1;
	if (c->n == GPUPROF_OA_CLOCK_POINTS) {
		memmove(c->cpu, c->cpu + 1, sizeof(c->cpu[0]) * (c->n - 1));
		memmove(c->gpu, c->gpu + 1, sizeof(c->gpu[0]) * (c->n - 1));
		c->n--;
	}
	c->cpu[c->n] = cpu_ns;
	c->gpu[c->n] = gpu;
	c->n++;
	return 0;
}

/**
 * gpuprof_oa_clock_to_cpu - CLOCK_MONOTONIC ns of OA timestamp @gpu
 * @c: the clock
 * @gpu: a 64-bit OA timestamp
 * @cpu_ns: the result
 *
 * Between two points: linear interpolation between them; outside: from
 * the nearest point at the nominal frequency.
 *
 * Return: 0, or -1 when the clock has no point yet.
 */
int gpuprof_oa_clock_to_cpu(const struct gpuprof_oa_clock *c, __u64 gpu,
			    __u64 *cpu_ns)
{
	unsigned int i;
	__u64 dg, dc;

	if (!c->n)
		return -1;
	if (gpu <= c->gpu[0]) {
		dc = gpuprof_oa_ticks_to_ns(c->gpu[0] - gpu, c->freq);
		*cpu_ns = dc < c->cpu[0] ? c->cpu[0] - dc : 0;
		return 0;
	}
	/*
	 * Between two points: the pair is looked for back from the newest,
	 * since reports come in time order, most after the newest point.
	 */
	if (gpu < c->gpu[c->n - 1]) {
		for (i = c->n - 1; gpu <= c->gpu[i - 1]; i--)
			;
		dg = c->gpu[i] - c->gpu[i - 1];
		dc = c->cpu[i] - c->cpu[i - 1];
		/* A 128-bit product: points may be hours apart. */
#ifdef __KERNEL__
		*cpu_ns = c->cpu[i - 1] +
			  mul_u64_u64_div_u64(gpu - c->gpu[i - 1], dc, dg);
#else
		*cpu_ns = c->cpu[i - 1] +
			  (__u64)((__uint128_t)(gpu - c->gpu[i - 1]) * dc / dg);
#endif
		return 0;
	}
	dc = gpuprof_oa_ticks_to_ns(gpu - c->gpu[c->n - 1], c->freq);
	*cpu_ns = dc > ~0ull - c->cpu[c->n - 1] ? ~0ull : c->cpu[c->n - 1] + dc;
	return 0;
}

/**
 * DOC: The OA record stream
 *
 * Bytes arrive in pieces of any size; a record split between pieces is
 * assembled in the caller's buffer, one that arrives whole is used where
 * it lies, and either is checked before anyone sees it: its size against
 * the header and its type, a report against the format that DEVICE_INFO
 * declared.  The first bad record stops the stream: sizes are what
 * delimit records, so nothing after a bad one can be trusted
 * (design.rst 5.1).
 */

#define HDR sizeof(struct gpuprof_oa_record_header)

/*
 * The kernel whose rules a stream without a DRIVER record follows: the
 * module's own, the newest known in the tools.
 */
static __u32 gpuprof_oa_default_kernel(void)
{
#ifdef __KERNEL__
	return GPUPROF_BUILT_KERNEL;
#else
	return GPUPROF_OA_KERNEL_NEWEST;
#endif
}

void gpuprof_oa_stream_init(struct gpuprof_oa_stream *s, __u8 *buf)
{
	memset(s, 0, sizeof(*s));
	s->buf = buf;
	s->drv.kernel = gpuprof_oa_default_kernel();
}

const char *gpuprof_oa_error_name(enum gpuprof_oa_error e)
{
	switch (e) {
	case GPUPROF_OA_OK:
		return "ok";
	case GPUPROF_OA_ERR_SIZE:
		return "bad record size";
	case GPUPROF_OA_ERR_NO_INFO:
		return "report before DEVICE_INFO";
	case GPUPROF_OA_ERR_DEVICE:
		return "unknown device or report format";
	case GPUPROF_OA_ERR_VERSION:
		return "unknown stream version";
	case GPUPROF_OA_ERR_TRUNCATED:
		return "stream ends inside a record";
	case GPUPROF_OA_ERR_NO_VERSION:
		return "stream does not begin with VERSION";
	}
	return "?";
}

/* The size a record of @type must have, 0 for "at least a header". */
static __u32 gpuprof_oa_record_size(const struct gpuprof_oa_stream *s,
				    __u32 type)
{
	switch (type) {
	case GPUPROF_OA_RECORD_SAMPLE:
		return HDR + s->layout.size;
	case GPUPROF_OA_RECORD_REPORT_LOST:
	case GPUPROF_OA_RECORD_BUFFER_LOST:
		return HDR;
	case GPUPROF_OA_RECORD_VERSION:
		return HDR + sizeof(struct gpuprof_oa_version);
	case GPUPROF_OA_RECORD_DEVICE_INFO:
		return HDR + sizeof(struct gpuprof_oa_device_info);
	case GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION:
		return HDR + sizeof(struct gpuprof_oa_correlation);
	case GPUPROF_OA_RECORD_CORRELATION_BOUND:
		return HDR + sizeof(struct gpuprof_oa_correlation_bound);
	case GPUPROF_OA_RECORD_DRIVER:
		/* The short first version is checked by the caller. */
		return HDR + sizeof(struct gpuprof_oa_driver);
	}
	return 0;
}

/* DRIVER's first version: kernel and submission only. */
#define GPUPROF_OA_DRIVER_V1_SIZE	8

/**
 * gpuprof_oa_layout_of - how reports of a device and format are read
 * @device_id: the PCI device id
 * @format: GPUPROF_OA_FORMAT_*
 * @drv: the driver, the kernel (0: the newest known) and the back end
 *	that made them; NULL for i915 on the newest kernel known, with the
 *	platform's default back end
 * @l: the layout, with its header rules
 *
 * Return: the GPU, or NULL when it is not known, its driver does not
 * offer @format on that kernel, or the format's layout is not known.
 */
const struct gpuprof_oa_platform *
gpuprof_oa_layout_of(__u32 device_id, __u32 format,
		     const struct gpuprof_oa_driver *drv,
		     struct gpuprof_oa_layout *l)
{
	__u32 kernel = drv && drv->kernel ? drv->kernel :
			GPUPROF_OA_KERNEL_NEWEST;
	bool xe = drv && drv->driver == GPUPROF_OA_DRIVER_XE;
	const struct gpuprof_oa_platform *p;

	p = gpuprof_oa_platform_of_device(device_id);
	if (!p || (drv && drv->driver > GPUPROF_OA_DRIVER_XE))
		return NULL;
	if (xe ? !gpuprof_oa_xe_format_offered(p, kernel, format) :
		 !gpuprof_oa_format_offered(p, kernel, format))
		return NULL;
	if (gpuprof_oa_layout(p->ip / 100, format, l))
		return NULL;
	if (xe)
		gpuprof_oa_xe_rules(p, l);
	else
		gpuprof_oa_rules(p, kernel, drv ? drv->submission :
				 GPUPROF_OA_SUBMISSION_DEFAULT, l);
	return p;
}

/* DEVICE_INFO at @payload: the GPU, its report format and their rules. */
static enum gpuprof_oa_error
gpuprof_oa_take_device_info(struct gpuprof_oa_stream *s, const __u8 *payload)
{
	const struct gpuprof_oa_platform *p;

	memcpy(&s->info, payload, sizeof(s->info));
	s->have_info = false;
	p = gpuprof_oa_layout_of(s->info.device_id, s->info.oa_format,
				 &s->drv, &s->layout);
	/* OA timestamps tick at MHz, not THz: refuse nonsense. */
	if (!p || !s->info.timestamp_frequency ||
	    s->info.timestamp_frequency > 10000000000ull)
		return GPUPROF_OA_ERR_DEVICE;
	s->platform = p;
	s->info.metric_set_name[sizeof(s->info.metric_set_name) - 1] = 0;
	s->info.metric_set_uuid[sizeof(s->info.metric_set_uuid) - 1] = 0;
	s->have_info = true;
	return GPUPROF_OA_OK;
}

/*
 * A DRIVER record of @len payload bytes: its driver, kernel and back end
 * rule the reports from here.  A driver not known here is refused: its
 * reports could not be read right.  DRIVER belongs before DEVICE_INFO;
 * after it, the same layout is read with the new rules.
 */
static enum gpuprof_oa_error
gpuprof_oa_take_driver(struct gpuprof_oa_stream *s, const __u8 *payload,
		       __u32 len)
{
	__u32 kernel = gpuprof_oa_u32(payload, 0);
	__u32 submission = gpuprof_oa_u32(payload, 4);
	__u32 driver = GPUPROF_OA_DRIVER_I915;

	if (len > GPUPROF_OA_DRIVER_V1_SIZE)
		driver = gpuprof_oa_u32(payload, 8);
	if (driver > GPUPROF_OA_DRIVER_XE)
		return GPUPROF_OA_ERR_DEVICE;
	if (kernel)
		s->drv.kernel = kernel;
	s->drv.submission = submission <= GPUPROF_OA_SUBMISSION_GUC ?
			    submission : GPUPROF_OA_SUBMISSION_DEFAULT;
	s->drv.driver = driver;
	if (s->have_info &&
	    !gpuprof_oa_layout_of(s->info.device_id, s->info.oa_format,
				  &s->drv, &s->layout))
		return GPUPROF_OA_ERR_DEVICE;
	return GPUPROF_OA_OK;
}

/* Check the whole record at @rec and take what the stream needs of it. */
static enum gpuprof_oa_error
gpuprof_oa_check_record(struct gpuprof_oa_stream *s, const __u8 *rec,
			__u32 type, __u32 size)
{
	const __u8 *payload = rec + HDR;
	__u32 want;

	if (type == GPUPROF_OA_RECORD_SAMPLE && !s->have_info)
		return GPUPROF_OA_ERR_NO_INFO;
	want = gpuprof_oa_record_size(s, type);
	if (want && size != want &&
	    !(type == GPUPROF_OA_RECORD_DRIVER &&
	      size == HDR + GPUPROF_OA_DRIVER_V1_SIZE))
		return GPUPROF_OA_ERR_SIZE;

	switch (type) {
	case GPUPROF_OA_RECORD_SAMPLE:
		s->samples++;
		break;
	case GPUPROF_OA_RECORD_REPORT_LOST:
		s->report_lost++;
		break;
	case GPUPROF_OA_RECORD_BUFFER_LOST:
		s->buffer_lost++;
		break;
	case GPUPROF_OA_RECORD_VERSION:
		if (gpuprof_oa_u32(payload, 0) != GPUPROF_OA_STREAM_VERSION)
			return GPUPROF_OA_ERR_VERSION;
		break;
	case GPUPROF_OA_RECORD_DEVICE_INFO: {
		enum gpuprof_oa_error e = gpuprof_oa_take_device_info(s, payload);

		if (e)
			return e;
		break;
	}
	case GPUPROF_OA_RECORD_DRIVER: {
		enum gpuprof_oa_error e;

		e = gpuprof_oa_take_driver(s, payload, size - HDR);
		if (e)
			return e;
		break;
	}
	case GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION:
	case GPUPROF_OA_RECORD_CORRELATION_BOUND:
		s->correlations++;
		break;
	case GPUPROF_OA_RECORD_DEVICE_TOPOLOGY:
		break;
	default:
		/* An extension we do not know: its size delimits it. */
		s->unknown++;
		break;
	}
	s->records++;
	return GPUPROF_OA_OK;
}

/*
 * Hand a checked record to @fn with its header copied out: records lie
 * where they arrived, at any alignment.  The payload is bytes.
 */
static void gpuprof_oa_deliver(const struct gpuprof_oa_stream *s,
			       const __u8 *rec, gpuprof_oa_record_fn fn,
			       void *arg)
{
	struct gpuprof_oa_record_header h;

	memcpy(&h, rec, sizeof(h));
	fn(arg, s, &h, rec + HDR);
}

/*
 * What a record's header alone tells: its size cannot hold the header,
 * or the stream does not begin with VERSION.  Junk is refused at its
 * first header, not at its end.
 */
static enum gpuprof_oa_error
gpuprof_oa_check_header(const struct gpuprof_oa_stream *s, const __u8 *hdr)
{
	__u32 size = hdr[6] | (hdr[7] << 8);

	if (size < HDR)
		return GPUPROF_OA_ERR_SIZE;
	if (!s->records && gpuprof_oa_u32(hdr, 0) != GPUPROF_OA_RECORD_VERSION)
		return GPUPROF_OA_ERR_NO_VERSION;
	return GPUPROF_OA_OK;
}

/*
 * The SAMPLE records that lie whole at @p, one after another: the
 * stream's commonest case by far, told by one look at each header's
 * type and size, which is all gpuprof_oa_check_record() asks of them
 * once DEVICE_INFO is in.  Return: the bytes they took.
 */
static noinline size_t gpuprof_oa_take_samples(struct gpuprof_oa_stream *s,
					       const __u8 *p, size_t len,
					       gpuprof_oa_record_fn fn,
					       void *arg)
{
	__u32 want = HDR + s->layout.size;
	const __u8 *start = p, *last;

	if (!s->have_info || len < want)
		return 0;
	last = p + len - want;
	while (p <= last && gpuprof_oa_u32(p, 0) == GPUPROF_OA_RECORD_SAMPLE &&
	       (__u32)(p[6] | (p[7] << 8)) == want) {
		s->samples++;
		s->records++;
		if (fn)
			gpuprof_oa_deliver(s, p, fn, arg);
		p += want;
	}
	return p - start;
}

/**
 * gpuprof_oa_stream_feed - take the next @len bytes of the stream
 * @s: the stream
 * @data: the bytes
 * @len: their number
 * @fn: called for each valid record, may be NULL
 * @arg: passed to @fn
 *
 * Return: 0, or -1 when a record was bad (s->error says why; records
 * before it were taken).  A refused stream takes nothing more.
 */
int gpuprof_oa_stream_feed(struct gpuprof_oa_stream *s, const void *data,
			   size_t len, gpuprof_oa_record_fn fn, void *arg)
{
	const __u8 *p = data;
	__u32 need, take;

	if (s->error)
		return -1;
	while (len) {
		/* A whole record in the input is checked where it lies. */
		if (!s->have && len >= HDR) {
			__u32 size = gpuprof_oa_take_samples(s, p, len, fn, arg);

			p += size;
			len -= size;
			if (len < HDR)
				continue;
			size = p[6] | (p[7] << 8);

			s->error = gpuprof_oa_check_header(s, p);
			if (s->error)
				return -1;
			if (size <= len) {
				s->error = gpuprof_oa_check_record(s, p,
								   gpuprof_oa_u32(p, 0),
								   size);
				if (s->error)
					return -1;
				if (fn)
					gpuprof_oa_deliver(s, p, fn, arg);
				p += size;
				len -= size;
				continue;
			}
		}
		/* Else it is assembled: the header first, then the rest. */
		need = s->have < HDR ? HDR : s->size;
		take = need - s->have;
		if (take > len)
			take = len;
		memcpy(s->buf + s->have, p, take);
		s->have += take;
		p += take;
		len -= take;
		if (s->have < HDR)
			continue;
		if (need == HDR) {
			s->size = s->buf[6] | (s->buf[7] << 8);
			s->error = gpuprof_oa_check_header(s, s->buf);
			if (s->error)
				return -1;
		}
		if (s->have < s->size)
			continue;

		s->error = gpuprof_oa_check_record(s, s->buf,
						   gpuprof_oa_u32(s->buf, 0),
						   s->size);
		if (s->error)
			return -1;
		if (fn)
			gpuprof_oa_deliver(s, s->buf, fn, arg);
		s->have = 0;
	}
	return 0;
}

/* The stream is over: a record cut short is an error.  Return: 0 or -1. */
int gpuprof_oa_stream_end(struct gpuprof_oa_stream *s)
{
	if (!s->error && s->have)
		s->error = GPUPROF_OA_ERR_TRUNCATED;
	return s->error ? -1 : 0;
}
