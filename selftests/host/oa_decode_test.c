// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shared OA decoder (module/oa_decode.c) on
 * reports built by hand, with expectations computed by hand.
 */
#include <stdint.h>
#include <string.h>

#include "../lib/harness.h"
#include "../../module/oa_decode.h"

static void put32(uint8_t *r, unsigned int off, uint32_t v)
{
	r[off] = v;
	r[off + 1] = v >> 8;
	r[off + 2] = v >> 16;
	r[off + 3] = v >> 24;
}

static void put64(uint8_t *r, unsigned int off, uint64_t v)
{
	put32(r, off, (uint32_t)v);
	put32(r, off + 4, v >> 32);
}

static void put40(uint8_t *r, unsigned int i, uint64_t v)
{
	put32(r, 16 + 4 * i, (uint32_t)v);
	r[160 + i] = v >> 32;
}

#define K61 GPUPROF_OA_KERNEL(6, 1)
#define K612 GPUPROF_OA_KERNEL(6, 12)
#define SUB_DEF GPUPROF_OA_SUBMISSION_DEFAULT
#define SUB_GUC GPUPROF_OA_SUBMISSION_GUC
#define SUB_EXECLISTS GPUPROF_OA_SUBMISSION_EXECLISTS
#define NONE GPUPROF_OA_NO_CONTEXT

TEST(generation_of_device_ids)
{
	EXPECT_EQ(12, gpuprof_oa_gen_of_device(0x9a49));	/* Tiger Lake */
	EXPECT_EQ(9, gpuprof_oa_gen_of_device(0x0a84));	/* Broxton */
	EXPECT_EQ(7, gpuprof_oa_gen_of_device(0x0a16));	/* Haswell */
	EXPECT_EQ(7, gpuprof_oa_gen_of_device(0x0412));
	EXPECT_EQ(8, gpuprof_oa_gen_of_device(0x1616));	/* Broadwell */
	EXPECT_EQ(8, gpuprof_oa_gen_of_device(0x22b0));	/* Cherryview */
	EXPECT_EQ(9, gpuprof_oa_gen_of_device(0x5917));	/* Kaby Lake */
	EXPECT_EQ(11, gpuprof_oa_gen_of_device(0x8a52));	/* Ice Lake */
	EXPECT_EQ(12, gpuprof_oa_gen_of_device(0x4680));	/* Alder Lake */
	EXPECT_EQ(0, gpuprof_oa_gen_of_device(0x1234));
	EXPECT_EQ(0, gpuprof_oa_gen_of_device(0x10009a49));
}

TEST(every_format_has_its_size_where_it_exists)
{
	static const struct { unsigned int gen, fmt, size; } ok[] = {
		{ 7, 1, 64 }, { 7, 2, 128 }, { 7, 3, 128 }, { 7, 4, 64 },
		{ 7, 5, 256 }, { 7, 6, 128 }, { 7, 7, 64 },
		{ 8, 7, 64 }, { 8, 8, 64 }, { 8, 9, 128 }, { 8, 10, 256 },
		{ 9, 10, 256 }, { 11, 8, 64 }, { 12, 9, 128 }, { 12, 10, 256 },
		{ 12, 11, 256 }, { 12, 12, 256 }, { 12, 14, 128 },
		{ 20, 17, 576 }, { 20, 14, 128 },
	};
	static const struct { unsigned int gen, fmt; } missing[] = {
		{ 7, 8 }, { 7, 10 }, { 8, 5 }, { 12, 1 }, { 12, 0 },
		{ 12, 13 }, { 12, 17 }, { 13, 10 }, { 0, 10 }, { 20, 10 },
		{ 20, 13 }, { 20, 15 }, { 20, 18 }, { 20, 19 }, { 20, 25 },
		{ 20, 26 },
		{ 12, 0xffffffff },
	};
	struct gpuprof_oa_layout l;
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		ASSERT_EQ(0, gpuprof_oa_layout(ok[i].gen, ok[i].fmt, &l));
		EXPECT_EQ(ok[i].size, l.size);
		EXPECT_EQ(ok[i].gen, l.gen);
	}
	for (i = 0; i < sizeof(missing) / sizeof(missing[0]); i++)
		EXPECT_EQ(-1, gpuprof_oa_layout(missing[i].gen, missing[i].fmt, &l));
}

/*
 * Every format number has a name, no two the same, and the names the
 * uAPI headers give (the OAR_/OAM_/OAC_ prefix kept where two formats
 * differ by the unit alone); none outside the numbering.
 */
TEST(every_format_has_one_name)
{
	unsigned int i, j;

	EXPECT_STREQ("A32u40_A4u32_B8_C8",
		     gpuprof_oa_format_name(GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8));
	EXPECT_STREQ("OAR_A32u40_A4u32_B8_C8",
		     gpuprof_oa_format_name(GPUPROF_OAR_FORMAT_A32u40_A4u32_B8_C8));
	EXPECT_STREQ("PEC64u64", gpuprof_oa_format_name(GPUPROF_OA_FORMAT_PEC64u64));
	EXPECT_STREQ("A13", gpuprof_oa_format_name(GPUPROF_OA_FORMAT_A13));
	for (i = 1; i < GPUPROF_OA_FORMAT_MAX; i++) {
		ASSERT_NE(NULL, gpuprof_oa_format_name(i)) TH_LOG("format %u", i);
		for (j = 1; j < i; j++)
			EXPECT_STRNE(gpuprof_oa_format_name(j), gpuprof_oa_format_name(i));
	}
	EXPECT_EQ(NULL, gpuprof_oa_format_name(0));
	EXPECT_EQ(NULL, gpuprof_oa_format_name(GPUPROF_OA_FORMAT_MAX));
	EXPECT_EQ(NULL, gpuprof_oa_format_name(0xffffffff));
}

/* The bytes a layout's fields reach: each must fit in the report. */
static unsigned int layout_end(const struct gpuprof_oa_layout *l)
{
	static const unsigned int bytes[] = {
		[GPUPROF_OA_U32] = 4, [GPUPROF_OA_U40] = 4, [GPUPROF_OA_U64] = 8,
	};
	unsigned int k, end = l->hdr64 ? 32 : 16, e;

	for (k = 0; k < l->n_runs; k++) {
		e = l->a_runs[k].off + bytes[l->a_runs[k].width] * l->a_runs[k].n;
		end = e > end ? e : end;
		if (l->a_runs[k].width == GPUPROF_OA_U40) {
			e = l->a40_high_off + l->a_runs[k].first + l->a_runs[k].n;
			end = e > end ? e : end;
		}
	}
	if (l->n_b && l->b_off + 4u * l->n_b > end)
		end = l->b_off + 4u * l->n_b;
	if (l->n_c && l->c_off + 4u * l->n_c > end)
		end = l->c_off + 4u * l->n_c;
	return end;
}

/*
 * The format table (module/oa_platform.c) that the decoder, the names
 * and both drivers' mappings read: every layout within its report's
 * size and at most GPUPROF_OA_REPORT_MAX; on each IP of the platforms
 * known, exactly one default format for i915 (where it serves OA, up to
 * Meteor Lake) and one for xe's OAG unit (gen12 on), and for its OAM
 * unit from Meteor Lake on; a format a driver offers is decoded on the
 * IP's generation, but for those named as refused (13, 15, 16 and
 * Xe2's other PEC formats).
 */
TEST(the_format_table_holds_together)
{
	static const unsigned int ips[] = {
		700, 800, 900, 1000, 1100, 1200, 1210, 1255, 1270, 1274,
		2001, 2004, 3000,
	};
	const struct gpuprof_oa_format *f;
	struct gpuprof_oa_layout l;
	unsigned int i, k, i915, oag, oam;

	for (i = 0; i < GPUPROF_OA_FORMAT_MAX; i++) {
		f = gpuprof_oa_format(i);
		if (!f)
			continue;
		EXPECT_GE(GPUPROF_OA_REPORT_MAX, f->size) TH_LOG("format %u", i);
		if (f->gens.to)
			EXPECT_GE(f->size, layout_end(&f->layout))
				TH_LOG("format %u", i);
		if (f->hsw)
			EXPECT_GE(f->size, layout_end(f->hsw)) TH_LOG("format %u", i);
	}
	for (k = 0; k < sizeof(ips) / sizeof(ips[0]); k++) {
		i915 = oag = oam = 0;
		for (i = 0; i < GPUPROF_OA_FORMAT_MAX; i++) {
			f = gpuprof_oa_format(i);
			if (!f)
				continue;
			if (gpuprof_oa_ips_hold(f->i915, ips[k])) {
				i915 += f->i915_default;
				EXPECT_EQ(0, gpuprof_oa_layout(ips[k] / 100, i, &l))
					TH_LOG("i915, IP %u, format %u", ips[k], i);
			}
			if (!gpuprof_oa_ips_hold(f->xe, ips[k]))
				continue;
			if (f->xe_fmt.type == GPUPROF_OA_XE_OAM ||
			    f->xe_fmt.type == GPUPROF_OA_XE_OAM_MPEC)
				oam += f->xe_default;
			else
				oag += f->xe_default;
			if (i != GPUPROF_OAM_FORMAT_MPEC8u64_B8_C8 &&
			    i != GPUPROF_OAC_FORMAT_A24u64_B8_C8 &&
			    i != GPUPROF_OAC_FORMAT_A22u32_R2u32_B8_C8 &&
			    (i <= GPUPROF_OA_FORMAT_PEC64u64 ||
			     i > GPUPROF_OA_FORMAT_PEC36u64_G1_4_G2_32))
				EXPECT_EQ(0, gpuprof_oa_layout(ips[k] / 100, i, &l))
					TH_LOG("xe, IP %u, format %u", ips[k], i);
		}
		EXPECT_EQ(ips[k] < 2000, i915) TH_LOG("IP %u", ips[k]);
		EXPECT_EQ(ips[k] >= 1200, oag) TH_LOG("IP %u", ips[k]);
		EXPECT_EQ(ips[k] >= 1270, oam) TH_LOG("IP %u", ips[k]);
	}
}

TEST(gen12_header_reason_context_and_ticks)
{
	uint8_t r[256] = {};
	struct gpuprof_oa_layout l;
	struct gpuprof_oa_report h;

	ASSERT_EQ(0, gpuprof_oa_layout(12, 10, &l));
	/* Reason TIMER | bit 6 (gen12 only), context valid (bit 16). */
	put32(r, 0, (0x41u << 19) | (1u << 16) | 0x5);
	put32(r, 4, 0xdeadbeef);
	put32(r, 8, 0x1234);
	put32(r, 12, 777);
	gpuprof_oa_report_header(&l, r, &h);
	EXPECT_EQ(0x41, h.reason);
	EXPECT_EQ(0xdeadbeef, h.timestamp);
	EXPECT_EQ(0x1220, h.ctx_id);	/* bits 5..15: the software id */
	EXPECT_EQ(777, h.gpu_ticks);
}

TEST(platforms_of_device_ids)
{
	static const struct {
		__u32 id;
		const char *name, *metrics;
		unsigned int ip;
		bool guc;
	} want[] = {
		{ 0x0a16, "Haswell GT2", "hsw", 700, false },
		{ 0x1616, "Broadwell", "bdw", 800, false },
		{ 0x22b0, "Cherryview", "chv", 800, false },
		{ 0x1912, "Skylake GT2", "sklgt2", 900, false },
		{ 0x0a84, "Broxton", "bxt", 900, false },
		{ 0x5917, "Kaby Lake GT2", "kblgt2", 900, false },
		{ 0x3e92, "Coffee Lake GT2", "cflgt2", 900, false },
		{ 0x9b41, "Comet Lake GT2", "cflgt2", 900, false },
		{ 0x8a52, "Ice Lake", "icl", 1100, false },
		{ 0x4e61, "Jasper Lake", "ehl", 1100, false },
		{ 0x9a49, "Tiger Lake GT2", "tglgt2", 1200, false },
		{ 0x9a40, "Tiger Lake GT2", "tglgt2", 1200, false },
		{ 0x4905, "DG1", "dg1", 1210, true },
		{ 0x4680, "Alder Lake-S", "adl", 1200, false },
		{ 0x46a6, "Alder Lake-P", "adl", 1200, true },
		{ 0x56a0, "DG2 G10", "acmgt3", 1255, true },
		{ 0x7d55, "Meteor Lake GT3", "mtlgt3", 1270, true },
		{ 0x7d41, "Arrow Lake", NULL, 1274, true },
	};
	const struct gpuprof_oa_platform *p;
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		p = gpuprof_oa_platform_of_device(want[i].id);
		ASSERT_NE(NULL, p) TH_LOG("0x%04x", want[i].id);
		EXPECT_STREQ(want[i].name, p->name);
		if (want[i].metrics) {
			EXPECT_STREQ(want[i].metrics, p->metrics);
		} else {
			EXPECT_EQ(NULL, p->metrics);
		}
		EXPECT_EQ(want[i].ip, p->ip);
		EXPECT_EQ(want[i].guc, p->guc);
	}
	EXPECT_EQ(NULL, gpuprof_oa_platform_of_device(0x1234));
	EXPECT_EQ(NULL, gpuprof_oa_platform_of_device(0x10009a49));
	EXPECT_EQ(NULL, gpuprof_oa_platform_of_device(0));
	EXPECT_EQ(NULL, gpuprof_oa_platform_of_device(0xffff));
}

TEST(formats_offered_per_platform_and_kernel)
{
	static const struct {
		__u32 id, kernel, format;
		bool offered;
	} want[] = {
		{ 0x0a16, K61, 5, true }, { 0x0a16, K61, 10, false },
		{ 0x0a16, K612, 7, true },
		{ 0x1616, K61, 10, true }, { 0x1616, K61, 5, false },
		{ 0x9a49, K61, 10, true }, { 0x9a49, K61, 8, true },
		{ 0x9a49, K612, 12, false }, { 0x9a49, K612, 11, false },
		/* 6.1 serves no OA on DG2 and Meteor Lake; 6.12 does. */
		{ 0x56a0, K61, 12, false }, { 0x56a0, K61, 10, false },
		{ 0x56a0, K612, 12, true }, { 0x56a0, K612, 11, true },
		{ 0x56a0, K612, 10, false },
		{ 0x7d55, K612, 12, true }, { 0x7d55, K612, 13, false },
		/* Cannon Lake: IGT has metrics, none of our kernels OA. */
		{ 0x5a52, K612, 10, false },
	};
	const struct gpuprof_oa_platform *p;
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		p = gpuprof_oa_platform_of_device(want[i].id);
		ASSERT_NE(NULL, p);
		EXPECT_EQ(want[i].offered,
			  gpuprof_oa_format_offered(p, want[i].kernel,
						    want[i].format))
			TH_LOG("0x%04x kernel %x format %u", want[i].id,
			       want[i].kernel, want[i].format);
	}
}

/*
 * The context id of one report, bit 16 set or clear, dword 2 0xabcdef12,
 * on each GPU, kernel and back end, as i915_perf.c of that kernel reads
 * it (oa.rst's table).
 */
TEST(context_ids_per_generation_kernel_and_back_end)
{
	static const struct {
		__u32 id, kernel, submission;
		__u32 with_bit16, without_bit16;
	} want[] = {
		/* gen8: the valid bit is 25, 21-bit ids. */
		{ 0x1616, K61, SUB_DEF, NONE, NONE },
		/* gen9: bit 16; GuC drops the id's top bit. */
		{ 0x1912, K61, SUB_DEF, 0x0def12, NONE },
		{ 0x1912, K612, SUB_GUC, 0x0def12 & 0xfffff, NONE },
		/* gen11: bit 16, the software id from bit 5. */
		{ 0x8a52, K612, SUB_DEF, 0xef00, NONE },
		/* gen12: the id is used whatever bit 16 says. */
		{ 0x9a49, K61, SUB_DEF, 0xef00, 0xef00 },
		{ 0x9a49, K612, SUB_DEF, 0xef00, 0xef00 },
		/* Alder Lake-P submits through GuC: 6.12 reads 16 bits. */
		{ 0x46a6, K61, SUB_DEF, 0xef00, 0xef00 },
		{ 0x46a6, K612, SUB_DEF, 0x4def00, 0x4def00 },
		{ 0x46a6, K612, SUB_EXECLISTS, 0xef00, 0xef00 },
		/* XeHP: 16 bits from bit 7 on any back end. */
		{ 0x56a0, K612, SUB_DEF, 0x4def00, 0x4def00 },
		{ 0x56a0, K612, SUB_EXECLISTS, 0x4def00, 0x4def00 },
	};
	uint8_t r[256] = {};
	const struct gpuprof_oa_platform *p;
	struct gpuprof_oa_layout l;
	struct gpuprof_oa_report h;
	size_t i;

	put32(r, 8, 0xabcdef12);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		p = gpuprof_oa_platform_of_device(want[i].id);
		ASSERT_NE(NULL, p);
		ASSERT_EQ(0, gpuprof_oa_layout(p->ip / 100, 10, &l));
		gpuprof_oa_rules(p, want[i].kernel, want[i].submission, &l);
		put32(r, 0, (0x01u << 19) | (1u << 16));
		gpuprof_oa_report_header(&l, r, &h);
		EXPECT_EQ(want[i].with_bit16, h.ctx_id)
			TH_LOG("0x%04x kernel %x", want[i].id, want[i].kernel);
		put32(r, 0, 0x01u << 19);
		gpuprof_oa_report_header(&l, r, &h);
		EXPECT_EQ(want[i].without_bit16, h.ctx_id)
			TH_LOG("0x%04x kernel %x", want[i].id, want[i].kernel);
	}

	/* gen8's own bit, and an id i915 squashed stays none. */
	p = gpuprof_oa_platform_of_device(0x1616);
	ASSERT_EQ(0, gpuprof_oa_layout(8, 10, &l));
	gpuprof_oa_rules(p, K612, SUB_DEF, &l);
	put32(r, 0, (0x08u << 19) | (1u << 25));
	gpuprof_oa_report_header(&l, r, &h);
	EXPECT_EQ(GPUPROF_OA_REASON_CTX_SWITCH, h.reason);
	EXPECT_EQ(0x0def12, h.ctx_id);
	p = gpuprof_oa_platform_of_device(0x9a49);
	gpuprof_oa_rules(p, K612, SUB_DEF, &l);
	put32(r, 8, GPUPROF_OA_NO_CONTEXT);
	gpuprof_oa_report_header(&l, r, &h);
	EXPECT_EQ(GPUPROF_OA_NO_CONTEXT, h.ctx_id);
}

TEST(reason_is_six_bits_before_gen12_and_seven_on_it)
{
	uint8_t r[256] = {};
	struct gpuprof_oa_layout l;
	struct gpuprof_oa_report h;

	put32(r, 0, 0x7fu << 19);
	ASSERT_EQ(0, gpuprof_oa_layout(11, 10, &l));
	gpuprof_oa_rules(gpuprof_oa_platform_of_device(0x8a52), K612, SUB_DEF,
			 &l);
	gpuprof_oa_report_header(&l, r, &h);
	EXPECT_EQ(0x3f, h.reason);
	gpuprof_oa_rules(gpuprof_oa_platform_of_device(0x9a49), K612, SUB_DEF,
			 &l);
	gpuprof_oa_report_header(&l, r, &h);
	EXPECT_EQ(0x7f, h.reason);
}

TEST(haswell_has_no_context_and_no_reason)
{
	uint8_t r[256];
	struct gpuprof_oa_layout l;
	struct gpuprof_oa_report h;

	memset(r, 0xff, sizeof(r));
	put32(r, 4, 42);
	ASSERT_EQ(0, gpuprof_oa_layout(7, 5, &l));
	gpuprof_oa_report_header(&l, r, &h);
	EXPECT_EQ(0, h.reason);
	EXPECT_EQ(42, h.timestamp);
	EXPECT_EQ(GPUPROF_OA_NO_CONTEXT, h.ctx_id);
	EXPECT_EQ(0, h.gpu_ticks);
}

TEST(a32u40_deltas_with_40_and_32_bit_wraps)
{
	uint8_t r0[256] = {}, r1[256] = {};
	struct gpuprof_oa_deltas d = {};
	struct gpuprof_oa_layout l;

	ASSERT_EQ(0, gpuprof_oa_layout(12, 10, &l));
	put32(r0, 4, 0xfffffff0);	/* timestamp wraps: +0x20 */
	put32(r1, 4, 0x00000010);
	put32(r0, 12, 100);		/* clock ticks: +900 */
	put32(r1, 12, 1000);
	put40(r0, 5, 0xfffffffff0ull);	/* A5 wraps at 40 bits: +0x20 */
	put40(r1, 5, 0x0000000010ull);
	put40(r0, 31, 0x00ffffffffull);	/* A31 carries into the high byte */
	put40(r1, 31, 0x0100000004ull);
	put32(r0, 144 + 4, 100);	/* A33 */
	put32(r1, 144 + 4, 350);
	put32(r0, 192 + 12, 0xffffffff);	/* B3 wraps at 32 bits */
	put32(r1, 192 + 12, 1);
	put32(r0, 224 + 28, 5);		/* C7 */
	put32(r1, 224 + 28, 12);
	gpuprof_oa_accumulate(&l, r0, r1, &d);
	gpuprof_oa_accumulate(&l, r0, r1, &d);
	EXPECT_EQ(2, d.deltas);
	EXPECT_EQ(0x40, d.timestamp);
	EXPECT_EQ(1800, d.gpu_ticks);
	EXPECT_EQ(0x40, d.a[5]);
	EXPECT_EQ(10, d.a[31]);
	EXPECT_EQ(500, d.a[33]);
	EXPECT_EQ(4, d.b[3]);
	EXPECT_EQ(14, d.c[7]);
	EXPECT_EQ(0, d.a[0]);
	EXPECT_EQ(0, d.a[32]);
	EXPECT_EQ(0x0100000004ull, gpuprof_oa_a(&l, r1, 31));
	EXPECT_EQ(350, gpuprof_oa_a(&l, r1, 33));
}

/* A little-endian dword of @r at @off, read a byte at a time. */
static uint64_t get32(const uint8_t *r, unsigned int off)
{
	return r[off] | r[off + 1] << 8 | r[off + 2] << 16 |
	       (uint64_t)r[off + 3] << 24;
}

/* The width of counter A@i in @l, in bits; 0 for one it does not carry. */
static unsigned int a_width(const struct gpuprof_oa_layout *l, unsigned int i)
{
	static const unsigned int bits[] = {
		[GPUPROF_OA_U32] = 32, [GPUPROF_OA_U40] = 40, [GPUPROF_OA_U64] = 64,
	};
	unsigned int k;

	for (k = 0; k < l->n_runs; k++)
		if (i >= l->a_runs[k].first &&
		    i < l->a_runs[k].first + l->a_runs[k].n)
			return bits[l->a_runs[k].width];
	return 0;
}

static uint64_t mod_width(uint64_t v, unsigned int bits)
{
	return bits >= 64 ? v : v & ((1ull << bits) - 1);
}

/*
 * Every layout the decoder knows, on reports of random bytes, so that
 * about half the deltas wrap: the sums of five pairs must be, counter
 * by counter, the differences of its values read one at a time
 * (gpuprof_oa_a(), and the B and C dwords read here), each in its
 * width.  In the tools on a CPU with AVX2 this checks the vector loops
 * against the counters' own values: whole steps, the counters short of
 * one (runs of 1, 4, 5 and 20), and each layout built in.
 */
TEST(every_layout_sums_each_counter_in_its_width)
{
	static const unsigned int gens[] = { 7, 8, 12, 20 };
	unsigned int g, f, i, k, pair, layouts = 0;
	uint64_t seed = 0x9e3779b97f4a7c15ull;

	for (g = 0; g < sizeof(gens) / sizeof(gens[0]); g++) {
		for (f = 0; f < GPUPROF_OA_FORMAT_MAX; f++) {
			uint8_t r[6][GPUPROF_OA_REPORT_MAX];
			struct gpuprof_oa_deltas d = {}, want = {};
			struct gpuprof_oa_layout l;

			if (gpuprof_oa_layout(gens[g], f, &l))
				continue;
			layouts++;
			for (k = 0; k < 6; k++)
				for (i = 0; i < l.size; i++) {
					seed = seed * 6364136223846793005ull +
					       1442695040888963407ull;
					r[k][i] = seed >> 56;
				}
			for (pair = 0; pair < 5; pair++) {
				const uint8_t *r0 = r[pair], *r1 = r[pair + 1];

				gpuprof_oa_accumulate(&l, r0, r1, &d);
				for (i = 0; i < GPUPROF_OA_A_COUNTERS; i++)
					want.a[i] += mod_width(gpuprof_oa_a(&l, r1, i) -
							       gpuprof_oa_a(&l, r0, i),
							       a_width(&l, i));
				for (i = 0; i < l.n_b; i++)
					want.b[i] += mod_width(get32(r1, l.b_off + 4 * i) -
							       get32(r0, l.b_off + 4 * i), 32);
				for (i = 0; i < l.n_c; i++)
					want.c[i] += mod_width(get32(r1, l.c_off + 4 * i) -
							       get32(r0, l.c_off + 4 * i), 32);
			}
			for (i = 0; i < GPUPROF_OA_A_COUNTERS; i++)
				if (want.a[i] != d.a[i])
					TH_LOG("gen %u format %u A%u: %llu, want %llu",
					       gens[g], f, i,
					       (unsigned long long)d.a[i],
					       (unsigned long long)want.a[i]);
			for (i = 0; i < GPUPROF_OA_A_COUNTERS; i++)
				ASSERT_EQ(want.a[i], d.a[i]);
			for (i = 0; i < GPUPROF_OA_B_COUNTERS; i++)
				ASSERT_EQ(want.b[i], d.b[i]);
			for (i = 0; i < GPUPROF_OA_C_COUNTERS; i++)
				ASSERT_EQ(want.c[i], d.c[i]);
			ASSERT_EQ(5, d.deltas);
		}
	}
	/* Seven on Haswell, on gen8 and on gen12 each, two on Xe2. */
	EXPECT_EQ(23, layouts);
}

/*
 * DG2's format 12: widths alternate, and bytes 160 to 191 hold both the
 * high bytes of the 40-bit counters and A36 (dword 40) and A37 (dword
 * 46), where 32-bit counters leave them free.
 */
TEST(a24u40_a14u32_offsets_and_widths)
{
	uint8_t r0[256] = {}, r1[256] = {};
	struct gpuprof_oa_deltas d = {};
	struct gpuprof_oa_layout l;

	ASSERT_EQ(0, gpuprof_oa_layout(12, 12, &l));
	put32(r0, 16 + 12, 0xfffffff0);	/* A3, 32 bits: wraps, +0x20 */
	put32(r1, 16 + 12, 0x10);
	put32(r0, 32, 0xffffffff);	/* A4, 40 bits: carries */
	put32(r1, 32, 0x1);
	r1[160 + 4] = 1;
	put32(r1, 32 + 19 * 4, 7);	/* A23 */
	put32(r1, 112, 11);		/* A24, 32 bits */
	put32(r1, 128 + 12, 13);	/* A31, 40 bits */
	r1[160 + 31] = 2;
	put32(r1, 144 + 16, 17);	/* A36 */
	put32(r1, 184, 19);		/* A37 at dword 46 */
	put32(r1, 192 + 4, 23);		/* B1 */
	put32(r1, 224, 29);		/* C0 */
	gpuprof_oa_accumulate(&l, r0, r1, &d);
	EXPECT_EQ(0x20, d.a[3]);
	EXPECT_EQ(2, d.a[4]);
	EXPECT_EQ(7, d.a[23]);
	EXPECT_EQ(11, d.a[24]);
	EXPECT_EQ((2ull << 32) + 13, d.a[31]);
	EXPECT_EQ(17, d.a[36]);
	EXPECT_EQ(19, d.a[37]);
	EXPECT_EQ(0, d.a[38]);
	EXPECT_EQ(23, d.b[1]);
	EXPECT_EQ(29, d.c[0]);
	EXPECT_EQ((2ull << 32) + 13, gpuprof_oa_a(&l, r1, 31));
	EXPECT_EQ(0, gpuprof_oa_a(&l, r1, 40));
}

TEST(haswell_a45_b8_c8_offsets)
{
	uint8_t r0[256] = {}, r1[256] = {};
	struct gpuprof_oa_deltas d = {};
	struct gpuprof_oa_layout l;

	ASSERT_EQ(0, gpuprof_oa_layout(7, 5, &l));
	put32(r1, 12, 3);		/* A0 */
	put32(r1, 12 + 44 * 4, 44);	/* A44 */
	put32(r1, 192, 8);		/* B0 */
	put32(r1, 252, 9);		/* C7 */
	put32(r1, 12, 3);
	gpuprof_oa_accumulate(&l, r0, r1, &d);
	EXPECT_EQ(3, d.a[0]);
	EXPECT_EQ(44, d.a[44]);
	EXPECT_EQ(8, d.b[0]);
	EXPECT_EQ(9, d.c[7]);
	EXPECT_EQ(0, d.gpu_ticks);
}

TEST(gen8_small_formats)
{
	uint8_t r0[128] = {}, r1[128] = {};
	struct gpuprof_oa_deltas d = {};
	struct gpuprof_oa_layout l;

	/* A12: A7..A18 from byte 12. */
	ASSERT_EQ(0, gpuprof_oa_layout(9, GPUPROF_OA_FORMAT_A12, &l));
	put32(r1, 12, 7);
	put32(r1, 12 + 11 * 4, 18);
	gpuprof_oa_accumulate(&l, r0, r1, &d);
	EXPECT_EQ(7, d.a[7]);
	EXPECT_EQ(18, d.a[18]);
	EXPECT_EQ(0, d.a[19]);

	/* A12_B8_C8: B from byte 64, C from 96. */
	memset(&d, 0, sizeof(d));
	ASSERT_EQ(0, gpuprof_oa_layout(9, GPUPROF_OA_FORMAT_A12_B8_C8, &l));
	put32(r1, 64 + 4, 21);
	put32(r1, 96 + 28, 37);
	gpuprof_oa_accumulate(&l, r0, r1, &d);
	EXPECT_EQ(21, d.b[1]);
	EXPECT_EQ(37, d.c[7]);

	/* C4_B8: C0..C3 from byte 16, B from 32 (28 on Haswell). */
	memset(&d, 0, sizeof(d));
	memset(r1, 0, sizeof(r1));
	ASSERT_EQ(0, gpuprof_oa_layout(9, GPUPROF_OA_FORMAT_C4_B8, &l));
	put32(r1, 16 + 12, 43);
	put32(r1, 32, 50);
	gpuprof_oa_accumulate(&l, r0, r1, &d);
	EXPECT_EQ(43, d.c[3]);
	EXPECT_EQ(50, d.b[0]);
	memset(&d, 0, sizeof(d));
	ASSERT_EQ(0, gpuprof_oa_layout(7, GPUPROF_OA_FORMAT_C4_B8, &l));
	gpuprof_oa_accumulate(&l, r0, r1, &d);
	EXPECT_EQ(50, d.b[1]);
}

/* Haswell's other formats: one counter each, where its layout puts it. */
TEST(haswell_small_formats)
{
	static const struct {
		unsigned int fmt, off;
		char kind;
		unsigned int idx;
	} cases[] = {
		{ GPUPROF_OA_FORMAT_A13, 12 + 12 * 4, 'a', 12 },
		{ GPUPROF_OA_FORMAT_A29, 12 + 28 * 4, 'a', 28 },
		{ GPUPROF_OA_FORMAT_A13_B8_C8, 64 + 7 * 4, 'b', 7 },
		{ GPUPROF_OA_FORMAT_A13_B8_C8, 96, 'c', 0 },
		{ GPUPROF_OA_FORMAT_B4_C8, 16 + 3 * 4, 'b', 3 },
		{ GPUPROF_OA_FORMAT_B4_C8, 32 + 7 * 4, 'c', 7 },
		{ GPUPROF_OA_FORMAT_B4_C8_A16, 60, 'a', 29 },
		{ GPUPROF_OA_FORMAT_B4_C8_A16, 60 + 15 * 4, 'a', 44 },
	};
	struct gpuprof_oa_layout l;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t r0[128] = {}, r1[128] = {};
		struct gpuprof_oa_deltas d = {};
		__u64 got;

		ASSERT_EQ(0, gpuprof_oa_layout(7, cases[i].fmt, &l));
		put32(r0, cases[i].off, 0xfffffff0);	/* wraps: +0x21 */
		put32(r1, cases[i].off, 0x11);
		gpuprof_oa_accumulate(&l, r0, r1, &d);
		got = cases[i].kind == 'a' ? d.a[cases[i].idx] :
		      cases[i].kind == 'b' ? d.b[cases[i].idx] : d.c[cases[i].idx];
		EXPECT_EQ(0x21, got) TH_LOG("format %u offset %u", cases[i].fmt,
					    cases[i].off);
	}
}

TEST(timestamp_unwrap)
{
	uint64_t t = 0xf0000000ull;	/* a correlation point */
	static const uint32_t seq[] = {
		0x30000000, 0x70000000, 0xb0000000, 0xf0000000, 0x30000000,
		0x70000000,
	};
	static const uint64_t want[] = {
		0x130000000ull, 0x170000000ull, 0x1b0000000ull,
		0x1f0000000ull, 0x230000000ull, 0x270000000ull,
	};
	size_t i;

	/* Two wraps, each step a quarter of the range. */
	for (i = 0; i < 6; i++) {
		t = gpuprof_oa_unwrap(t, seq[i], 32);
		EXPECT_EQ(want[i], t);
	}
	EXPECT_EQ(0x200000010ull, gpuprof_oa_unwrap(0x1fffffff0ull, 0x10, 32));
	/* A little backwards across a wrap stays backwards. */
	EXPECT_EQ(0x1fffffff0ull,
		  gpuprof_oa_unwrap(0x200000010ull, 0xfffffff0, 32));
	EXPECT_EQ(0x10ull, gpuprof_oa_unwrap(0x5, 0x10, 32));
	EXPECT_EQ(0xfffffff0ull, gpuprof_oa_unwrap(0x10, 0xfffffff0, 32));
}

TEST(timestamp_unwrap_56_bits)
{
	const uint64_t top = 1ull << 56;

	/* Across the wrap of a 56-bit timestamp, and a second time. */
	EXPECT_EQ(top + 0x10, gpuprof_oa_unwrap(top - 0x10, 0x10, 56));
	EXPECT_EQ(2 * top + 5,
		  gpuprof_oa_unwrap(2 * top - 3, 5, 56));
	/* Bits above the width are not the timestamp's. */
	EXPECT_EQ(top + 0x20,
		  gpuprof_oa_unwrap(top + 0x10, 0xff00000000000020ull, 56));
	/* A little backwards across the wrap stays backwards. */
	EXPECT_EQ(top - 0x10, gpuprof_oa_unwrap(top + 0x10, top - 0x10, 56));
	/* No wrap yet: the value itself, not one span up. */
	EXPECT_EQ(top - 1, gpuprof_oa_unwrap(0x10, top - 1, 56));
	/* 32 bits of it would have taken a wrap of the low half. */
	EXPECT_EQ(0x100000010ull, gpuprof_oa_unwrap(0xfffffff0ull, 0x100000010ull, 56));
}

#define LNL 0x6420
#define BMG 0xe20b

TEST(xe2_platforms_are_xe_only)
{
	static const struct gpuprof_oa_driver xe = {
		.kernel = K612, .driver = GPUPROF_OA_DRIVER_XE,
	};
	static const struct gpuprof_oa_driver xe61 = {
		.kernel = K61, .driver = GPUPROF_OA_DRIVER_XE,
	};
	static const struct gpuprof_oa_driver bad = {
		.kernel = K612, .driver = 2,
	};
	const struct gpuprof_oa_platform *p;
	struct gpuprof_oa_layout l;

	EXPECT_EQ(20, gpuprof_oa_gen_of_device(LNL));
	EXPECT_EQ(20, gpuprof_oa_gen_of_device(0x64b0));
	EXPECT_EQ(20, gpuprof_oa_gen_of_device(BMG));
	EXPECT_EQ(20, gpuprof_oa_gen_of_device(0xe212));
	p = gpuprof_oa_platform_of_device(LNL);
	ASSERT_NE(NULL, p);
	EXPECT_STREQ("Lunar Lake", p->name);
	EXPECT_STREQ("lnl", p->metrics);
	EXPECT_EQ(2004, p->ip);
	EXPECT_STREQ("bmg", gpuprof_oa_platform_of_device(BMG)->metrics);

	/* i915 serves neither; xe does, PEC64u64 and the media one. */
	EXPECT_EQ(NULL, gpuprof_oa_layout_of(LNL, GPUPROF_OA_FORMAT_PEC64u64,
					     NULL, &l));
	/* xe of any kernel is read by 6.12's rules, the only ones known. */
	EXPECT_EQ(p, gpuprof_oa_layout_of(LNL, GPUPROF_OA_FORMAT_PEC64u64,
					  &xe61, &l));
	EXPECT_EQ(NULL, gpuprof_oa_layout_of(LNL, GPUPROF_OA_FORMAT_PEC64u64,
					     &bad, &l));
	EXPECT_EQ(p, gpuprof_oa_layout_of(LNL, GPUPROF_OA_FORMAT_PEC64u64,
					  &xe, &l));
	EXPECT_EQ(576, l.size);
	EXPECT_NE(NULL, gpuprof_oa_layout_of(BMG,
					     GPUPROF_OAM_FORMAT_MPEC8u32_B8_C8,
					     &xe, &l));
	EXPECT_EQ(128, l.size);
	/* Offered by xe, but no reader shows its layout: refused. */
	EXPECT_TRUE(gpuprof_oa_xe_format_offered(p, K612,
						 GPUPROF_OA_FORMAT_PEC32u32_G1));
	EXPECT_EQ(NULL, gpuprof_oa_layout_of(LNL, GPUPROF_OA_FORMAT_PEC32u32_G1,
					     &xe, &l));
	/* Not Xe2's at all. */
	EXPECT_FALSE(gpuprof_oa_xe_format_offered(p, K612,
						  GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8));

	/* Tiger Lake under xe: i915's formats but C4_B8, xe's rules. */
	p = gpuprof_oa_platform_of_device(0x9a49);
	EXPECT_FALSE(gpuprof_oa_xe_format_offered(p, K612,
						  GPUPROF_OA_FORMAT_C4_B8));
	EXPECT_TRUE(gpuprof_oa_xe_format_offered(p, K612,
						 GPUPROF_OA_FORMAT_A12));
	EXPECT_TRUE(gpuprof_oa_xe_format_offered(p, K61,
						 GPUPROF_OA_FORMAT_A12));
	ASSERT_EQ(p, gpuprof_oa_layout_of(0x9a49, 10, &xe, &l));
	EXPECT_EQ(1u << 16, l.valid_bit);
	EXPECT_EQ(0xffffffffu, l.ctx_mask);
	EXPECT_EQ(0x3f, l.reason_mask);
	/* Haswell: no xe. */
	EXPECT_EQ(NULL, gpuprof_oa_layout_of(0x0412, 5, &xe, &l));
	/* Meteor Lake's media format under xe, not under i915. */
	EXPECT_NE(NULL, gpuprof_oa_layout_of(0x7d55, 14, &xe, &l));
	EXPECT_EQ(NULL, gpuprof_oa_layout_of(0x7d55, 14, NULL, &l));
	EXPECT_EQ(NULL, gpuprof_oa_layout_of(0x9a49, 14, &xe, &l));
}

TEST(pec64u64_header_and_deltas)
{
	static const struct gpuprof_oa_driver xe = {
		.kernel = K612, .driver = GPUPROF_OA_DRIVER_XE,
	};
	uint8_t r0[576] = {}, r1[576] = {};
	struct gpuprof_oa_deltas d = {};
	struct gpuprof_oa_layout l;
	struct gpuprof_oa_report h;

	ASSERT_NE(NULL, gpuprof_oa_layout_of(LNL, GPUPROF_OA_FORMAT_PEC64u64,
					     &xe, &l));
	EXPECT_EQ(1, l.hdr64);
	EXPECT_EQ(56, l.ts_bits);
	EXPECT_EQ(64, gpuprof_oa_n_a(&l));
	/* Context switch, valid id; bits above 56 of the timestamp junk. */
	put32(r0, 0, (0x08u << 19) | (1u << 16));
	put64(r0, 8, 0xabfffffffffffff0ull);
	put32(r0, 16, 0x00c0ffee);
	put32(r0, 20, 0xffffffff);	/* dword 5 is not the id */
	put64(r0, 24, 0xfffffffffffffff0ull);
	gpuprof_oa_report_header(&l, r0, &h);
	EXPECT_EQ(GPUPROF_OA_REASON_CTX_SWITCH, h.reason);
	EXPECT_EQ(0x00fffffffffffff0ull, h.timestamp);
	EXPECT_EQ(0x00c0ffee, h.ctx_id);
	EXPECT_EQ(0xfffffffffffffff0ull, h.gpu_ticks);
	/* Bit 16 clear: no context. */
	put32(r1, 0, 0x01u << 19);
	put32(r1, 16, 0x00c0ffee);
	gpuprof_oa_report_header(&l, r1, &h);
	EXPECT_EQ(NONE, h.ctx_id);
	EXPECT_EQ(GPUPROF_OA_REASON_TIMER, h.reason);

	/* Timestamp across 2^56, ticks across 2^64, 64-bit counters. */
	put64(r1, 8, 0x20);
	put64(r1, 24, 0x10);
	put64(r0, 32 + 8 * 0, 5);
	put64(r1, 32 + 8 * 0, 12);
	put64(r0, 32 + 8 * 32, 0xfffffffffffffffeull);
	put64(r1, 32 + 8 * 32, 3);
	put64(r0, 32 + 8 * 63, 1ull << 40);
	put64(r1, 32 + 8 * 63, (1ull << 41) + 1);
	gpuprof_oa_accumulate(&l, r0, r1, &d);
	EXPECT_EQ(0x30, d.timestamp);
	EXPECT_EQ(0x20, d.gpu_ticks);
	EXPECT_EQ(7, d.a[0]);
	EXPECT_EQ(5, d.a[32]);
	EXPECT_EQ((1ull << 40) + 1, d.a[63]);
	EXPECT_EQ(0, d.a[1]);
	EXPECT_EQ((1ull << 41) + 1, gpuprof_oa_a(&l, r1, 63));
	EXPECT_EQ(0, gpuprof_oa_a(&l, r1, 64));
}

TEST(mpec8u32_b8_c8_offsets)
{
	static const struct gpuprof_oa_driver xe = {
		.kernel = K612, .driver = GPUPROF_OA_DRIVER_XE,
	};
	uint8_t r0[128] = {}, r1[128] = {};
	struct gpuprof_oa_deltas d = {};
	struct gpuprof_oa_layout l;

	ASSERT_NE(NULL, gpuprof_oa_layout_of(LNL,
					     GPUPROF_OAM_FORMAT_MPEC8u32_B8_C8,
					     &xe, &l));
	EXPECT_EQ(8, gpuprof_oa_n_a(&l));
	put32(r1, 32 + 4 * 7, 3);	/* MPEC7 */
	put32(r1, 64 + 4 * 2, 4);	/* B2 */
	put32(r1, 96 + 4 * 5, 6);	/* C5 */
	put32(r0, 32, 0xffffffff);	/* MPEC0 wraps at 32 bits */
	put32(r1, 32, 1);
	gpuprof_oa_accumulate(&l, r0, r1, &d);
	EXPECT_EQ(2, d.a[0]);
	EXPECT_EQ(3, d.a[7]);
	EXPECT_EQ(4, d.b[2]);
	EXPECT_EQ(6, d.c[5]);
}

/* Feed @n bytes; the stream's error after it. */
static enum gpuprof_oa_error feed(struct gpuprof_oa_stream *s,
				  const void *p, size_t n)
{
	gpuprof_oa_stream_feed(s, p, n, NULL, NULL);
	return s->error;
}

/* A record of @type with @len bytes of @payload at @buf: its size. */
static size_t record(uint8_t *buf, uint32_t type, const void *payload,
		     size_t len)
{
	put32(buf, 0, type);
	buf[4] = buf[5] = 0;
	buf[6] = (8 + len) & 0xff;
	buf[7] = (8 + len) >> 8;
	memcpy(buf + 8, payload, len);
	return 8 + len;
}

TEST(driver_record_says_xe)
{
	static uint8_t buf[GPUPROF_OA_RECORD_MAX];
	struct gpuprof_oa_version v = { .version = 1 };
	struct gpuprof_oa_driver drv = {
		.kernel = K612, .submission = SUB_GUC,
		.driver = GPUPROF_OA_DRIVER_XE,
	};
	struct gpuprof_oa_device_info info = {
		.timestamp_frequency = 19200000, .device_id = LNL,
		.oa_format = GPUPROF_OA_FORMAT_PEC64u64,
	};
	static uint8_t rec[1024];
	uint8_t report[576] = {};
	struct gpuprof_oa_stream s;
	size_t n;

	/* Version, DRIVER (xe), DEVICE_INFO, one SAMPLE of 576 bytes. */
	gpuprof_oa_stream_init(&s, buf);
	ASSERT_EQ(0, feed(&s, rec, record(rec, GPUPROF_OA_RECORD_VERSION, &v,
					  sizeof(v))));
	ASSERT_EQ(0, feed(&s, rec, record(rec, GPUPROF_OA_RECORD_DRIVER, &drv,
					  sizeof(drv))));
	ASSERT_EQ(0, feed(&s, rec, record(rec, GPUPROF_OA_RECORD_DEVICE_INFO,
					  &info, sizeof(info))));
	EXPECT_EQ(GPUPROF_OA_DRIVER_XE, s.drv.driver);
	EXPECT_EQ(576, s.layout.size);
	EXPECT_EQ(1, s.layout.hdr64);
	ASSERT_EQ(0, feed(&s, rec, record(rec, GPUPROF_OA_RECORD_SAMPLE,
					  report, sizeof(report))));
	EXPECT_EQ(1, s.samples);
	/* A report of i915's size is the wrong size for it. */
	EXPECT_EQ(GPUPROF_OA_ERR_SIZE,
		  feed(&s, rec, record(rec, GPUPROF_OA_RECORD_SAMPLE, report,
				       256)));

	/* Without DRIVER, Lunar Lake is i915's, which has none. */
	gpuprof_oa_stream_init(&s, buf);
	feed(&s, rec, record(rec, GPUPROF_OA_RECORD_VERSION, &v, sizeof(v)));
	EXPECT_EQ(GPUPROF_OA_ERR_DEVICE,
		  feed(&s, rec, record(rec, GPUPROF_OA_RECORD_DEVICE_INFO,
				       &info, sizeof(info))));

	/* The first version of DRIVER (8 bytes) is i915's. */
	gpuprof_oa_stream_init(&s, buf);
	feed(&s, rec, record(rec, GPUPROF_OA_RECORD_VERSION, &v, sizeof(v)));
	EXPECT_EQ(0, feed(&s, rec, record(rec, GPUPROF_OA_RECORD_DRIVER, &drv,
					  8)));
	EXPECT_EQ(GPUPROF_OA_DRIVER_I915, s.drv.driver);
	EXPECT_EQ(K612, s.drv.kernel);
	EXPECT_EQ(SUB_GUC, s.drv.submission);

	/* A driver not known here, or a size of neither version: refused. */
	drv.driver = 2;
	gpuprof_oa_stream_init(&s, buf);
	feed(&s, rec, record(rec, GPUPROF_OA_RECORD_VERSION, &v, sizeof(v)));
	EXPECT_EQ(GPUPROF_OA_ERR_DEVICE,
		  feed(&s, rec, record(rec, GPUPROF_OA_RECORD_DRIVER, &drv,
				       sizeof(drv))));
	gpuprof_oa_stream_init(&s, buf);
	feed(&s, rec, record(rec, GPUPROF_OA_RECORD_VERSION, &v, sizeof(v)));
	EXPECT_EQ(GPUPROF_OA_ERR_SIZE,
		  feed(&s, rec, record(rec, GPUPROF_OA_RECORD_DRIVER, &drv,
				       12)));

	/* DRIVER after DEVICE_INFO re-reads it: xe's Lunar Lake, then i915. */
	drv.driver = GPUPROF_OA_DRIVER_XE;
	gpuprof_oa_stream_init(&s, buf);
	feed(&s, rec, record(rec, GPUPROF_OA_RECORD_VERSION, &v, sizeof(v)));
	feed(&s, rec, record(rec, GPUPROF_OA_RECORD_DRIVER, &drv, sizeof(drv)));
	ASSERT_EQ(0, feed(&s, rec, record(rec, GPUPROF_OA_RECORD_DEVICE_INFO,
					  &info, sizeof(info))));
	drv.driver = GPUPROF_OA_DRIVER_I915;
	n = record(rec, GPUPROF_OA_RECORD_DRIVER, &drv, sizeof(drv));
	EXPECT_EQ(GPUPROF_OA_ERR_DEVICE, feed(&s, rec, n));
}

TEST(correlation_interpolates_and_extrapolates)
{
	struct gpuprof_oa_clock c;
	__u64 ns;

	gpuprof_oa_clock_init(&c, 19200000);
	EXPECT_EQ(-1, gpuprof_oa_clock_to_cpu(&c, 0, &ns));
	ASSERT_EQ(0, gpuprof_oa_clock_add(&c, 1000000000, 100000000));
	/* The GPU clock ran 1% fast between these points. */
	ASSERT_EQ(0, gpuprof_oa_clock_add(&c, 2000000000, 119392000));
	EXPECT_EQ(-1, gpuprof_oa_clock_add(&c, 2000000000, 119392001));
	EXPECT_EQ(-1, gpuprof_oa_clock_add(&c, 2000000001, 119392000));
	ASSERT_EQ(0, gpuprof_oa_clock_to_cpu(&c, 109696000, &ns));
	EXPECT_EQ(1500000000, ns);
	/* Outside the points, the nominal rate: 19200 ticks = 1 ms. */
	ASSERT_EQ(0, gpuprof_oa_clock_to_cpu(&c, 119392000 + 19200, &ns));
	EXPECT_EQ(2001000000, ns);
	ASSERT_EQ(0, gpuprof_oa_clock_to_cpu(&c, 100000000 - 19200, &ns));
	EXPECT_EQ(999000000, ns);
	EXPECT_EQ(1000000000ull, gpuprof_oa_ticks_to_ns(19200000, 19200000));
	/* No overflow on the way: 2^56 ticks (a billion hours) at 19.2 MHz. */
	EXPECT_EQ(3752999689475413333ull,
		  gpuprof_oa_ticks_to_ns(1ull << 56, 19200000));
}

TEST(the_clock_keeps_its_newest_points)
{
	struct gpuprof_oa_clock c;
	__u64 ns;
	int i;

	gpuprof_oa_clock_init(&c, 1000000000);
	for (i = 1; i <= GPUPROF_OA_CLOCK_POINTS + 4; i++)
		ASSERT_EQ(0, gpuprof_oa_clock_add(&c, i * 1000ull, i * 2000ull));
	EXPECT_EQ(GPUPROF_OA_CLOCK_POINTS, c.n);
	EXPECT_EQ(5000, c.cpu[0]);
	ASSERT_EQ(0, gpuprof_oa_clock_to_cpu(&c, 11000, &ns));
	EXPECT_EQ(5500, ns);
}

/*
 * A stream that does not begin with VERSION is refused at its first
 * header, fed whole or a byte at a time, before the record ends; a
 * record whose size cannot hold its header likewise.
 */
TEST(junk_is_refused_at_its_first_header)
{
	static uint8_t buf[GPUPROF_OA_RECORD_MAX];
	struct gpuprof_oa_stream s;
	uint8_t rec[64] = { 0 };
	size_t i;

	/* A DEVICE_INFO record of 64 bytes. */
	put32(rec, 0, GPUPROF_OA_RECORD_DEVICE_INFO);
	rec[6] = sizeof(rec);
	gpuprof_oa_stream_init(&s, buf);
	for (i = 0; i < 7; i++)
		ASSERT_EQ(0, gpuprof_oa_stream_feed(&s, rec + i, 1, NULL, NULL));
	EXPECT_EQ(-1, gpuprof_oa_stream_feed(&s, rec + 7, 1, NULL, NULL));
	EXPECT_EQ(GPUPROF_OA_ERR_NO_VERSION, s.error);
	/* Refused, it takes nothing more. */
	EXPECT_EQ(-1, gpuprof_oa_stream_feed(&s, rec, sizeof(rec), NULL, NULL));

	gpuprof_oa_stream_init(&s, buf);
	EXPECT_EQ(-1, gpuprof_oa_stream_feed(&s, rec, 20, NULL, NULL));
	EXPECT_EQ(GPUPROF_OA_ERR_NO_VERSION, s.error);
	EXPECT_STREQ("stream does not begin with VERSION",
		     gpuprof_oa_error_name(s.error));

	/* VERSION's type with a size of 4: below the header. */
	put32(rec, 0, GPUPROF_OA_RECORD_VERSION);
	rec[6] = 4;
	gpuprof_oa_stream_init(&s, buf);
	for (i = 0; i < 7; i++)
		ASSERT_EQ(0, gpuprof_oa_stream_feed(&s, rec + i, 1, NULL, NULL));
	EXPECT_EQ(-1, gpuprof_oa_stream_feed(&s, rec + 7, 1, NULL, NULL));
	EXPECT_EQ(GPUPROF_OA_ERR_SIZE, s.error);
}

TEST_HARNESS_MAIN
