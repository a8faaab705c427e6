// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pure parts of gpuprof's xe OA source (tools/perf-gpu/oa/xe-abi.c):
 * walking a QUERY_OA_UNITS reply built here by hand, as 6.12 and 7.3
 * give it, xe's OA_FORMAT values per platform and unit (xe_oa.c's
 * oa_formats[] of Linux 6.12, the same in 7.3, worked out by hand from
 * type | sel << 8 | size << 16 | bc << 24), the records an OA status
 * stands for, engine cycles as OA ticks, a GT_TOPOLOGY reply in i915's
 * topology layout, and the names of 7.3's unit types, capabilities and
 * properties.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <i915_drm.h>

#include "../lib/harness.h"
#include "../../module/oa_decode.h"
#include "oa/drm-node.h"
#include "oa/xe-abi.h"

#define PTL 3000
#define LNL 2004
#define BMG 2001
#define MTL 1270
#define DG2 1255
#define TGL 1200

/*
 * Two units as 6.12 lists them on Lunar Lake: OAG 0 with render and
 * compute of GT 0, OAM 1 with a decoder and an enhancer of the media
 * GT 1; 16 bytes of zeros after them, as when an engine is reserved.
 * Offsets: head 16; unit 0 at 16, 72 + 2 * 8 = 88 bytes; unit 1 at 104,
 * 88 bytes; the zeros at 192; 208 bytes in all.
 */
#define REPLY_SIZE 208

static void put_engine(uint8_t *p, uint16_t cls, uint16_t inst, uint16_t gt)
{
	struct oa_xe_engine_class_instance e = {
		.engine_class = cls, .engine_instance = inst, .gt_id = gt,
	};

	memcpy(p, &e, sizeof(e));
}

static void put_unit(uint8_t *p, uint32_t id, uint32_t type, uint64_t hz,
		     uint64_t engines)
{
	struct oa_xe_oa_unit u = {
		.oa_unit_id = id, .oa_unit_type = type,
		.capabilities = OA_XE_OA_CAPS_BASE | OA_XE_OA_CAPS_SYNCS,
		.oa_timestamp_freq = hz, .num_engines = engines,
	};

	memcpy(p, &u, sizeof(u));
}

static void lnl_reply(uint8_t *r)
{
	struct oa_xe_query_oa_units h = { .num_oa_units = 2 };

	memset(r, 0, REPLY_SIZE);
	memcpy(r, &h, sizeof(h));
	put_unit(r + 16, 0, OA_XE_OA_UNIT_TYPE_OAG, 19200000, 2);
	put_engine(r + 88, 0, 0, 0);
	put_engine(r + 96, 4, 0, 0);
	put_unit(r + 104, 1, OA_XE_OA_UNIT_TYPE_OAM, 38400000, 2);
	put_engine(r + 176, 2, 0, 1);
	put_engine(r + 184, 3, 0, 1);
}

TEST(units_are_walked_by_their_own_engine_counts)
{
	uint8_t r[REPLY_SIZE];
	struct oa_xe_unit u;

	lnl_reply(r);
	EXPECT_EQ(2, oa_xe_unit_count(r, sizeof(r)));
	ASSERT_EQ(OA_XE_UNIT_FOUND, oa_xe_unit_find(r, sizeof(r), 0, &u));
	EXPECT_EQ(0, u.id);
	EXPECT_EQ(OA_XE_OA_UNIT_TYPE_OAG, u.type);
	EXPECT_EQ(19200000, u.timestamp_hz);
	EXPECT_EQ(3, u.capabilities);
	EXPECT_EQ(2, u.num_engines);
	EXPECT_EQ(0, u.engine.engine_class);
	EXPECT_EQ(0, u.engine.gt_id);
	/* Unit 1 starts after unit 0's two engines, at byte 104. */
	ASSERT_EQ(OA_XE_UNIT_FOUND, oa_xe_unit_find(r, sizeof(r), 1, &u));
	EXPECT_EQ(1, u.id);
	EXPECT_EQ(OA_XE_OA_UNIT_TYPE_OAM, u.type);
	EXPECT_EQ(38400000, u.timestamp_hz);
	EXPECT_EQ(2, u.engine.engine_class);
	EXPECT_EQ(0, u.engine.engine_instance);
	EXPECT_EQ(1, u.engine.gt_id);
	EXPECT_EQ(OA_XE_UNIT_ABSENT, oa_xe_unit_find(r, sizeof(r), 2, &u));
}

/*
 * 7.3 on Lunar Lake or Panther Lake: OAG 0 of GT 0 with render and
 * compute; the media GT 1's SAG unit 1 (OAM_SAG) with no engine; its
 * OAM 2 with a decoder and an enhancer; each with gt_id and the six
 * capabilities (0x3f).  Offsets: head 16; unit 0 at 16, 88 bytes; unit
 * 1 at 104, 72 bytes; unit 2 at 176, 88 bytes; 264 in all.
 */
static void lnl_7_3_reply(uint8_t *r)
{
	struct oa_xe_query_oa_units h = { .num_oa_units = 3 };
	struct oa_xe_oa_unit u;
	unsigned int i;
	static const unsigned int at[] = { 16, 104, 176 };

	memset(r, 0, 264);
	memcpy(r, &h, sizeof(h));
	put_unit(r + 16, 0, OA_XE_OA_UNIT_TYPE_OAG, 19200000, 2);
	put_engine(r + 88, 0, 0, 0);
	put_engine(r + 96, 4, 0, 0);
	put_unit(r + 104, 1, OA_XE_OA_UNIT_TYPE_OAM_SAG, 19200000, 0);
	put_unit(r + 176, 2, OA_XE_OA_UNIT_TYPE_OAM, 19200000, 2);
	put_engine(r + 248, 2, 0, 1);
	put_engine(r + 256, 3, 0, 1);
	for (i = 0; i < 3; i++) {
		memcpy(&u, r + at[i], sizeof(u));
		u.capabilities = 0x3f;
		u.gt_id = i ? 1 : 0;
		memcpy(r + at[i], &u, sizeof(u));
	}
}

TEST(units_of_7_3_have_their_gt_and_a_sag_unit_without_engines)
{
	uint8_t r[264];
	struct oa_xe_unit u;

	lnl_7_3_reply(r);
	EXPECT_EQ(3, oa_xe_unit_count(r, sizeof(r)));
	ASSERT_EQ(OA_XE_UNIT_FOUND, oa_xe_unit_find(r, sizeof(r), 1, &u));
	EXPECT_EQ(OA_XE_OA_UNIT_TYPE_OAM_SAG, u.type);
	EXPECT_EQ(0, u.num_engines);
	EXPECT_TRUE(u.has_gt);
	EXPECT_EQ(1, u.gt_id);
	EXPECT_EQ(0x3f, u.capabilities);
	/* Unit 2 comes 72 bytes after unit 1, which has no engine. */
	ASSERT_EQ(OA_XE_UNIT_FOUND, oa_xe_unit_find(r, sizeof(r), 2, &u));
	EXPECT_EQ(OA_XE_OA_UNIT_TYPE_OAM, u.type);
	EXPECT_EQ(2, u.num_engines);
	EXPECT_EQ(2, u.engine.engine_class);
	EXPECT_EQ(1, u.gt_id);
	ASSERT_EQ(OA_XE_UNIT_FOUND, oa_xe_unit_find(r, sizeof(r), 0, &u));
	EXPECT_EQ(0, u.gt_id);
	EXPECT_TRUE(u.has_gt);
	/* The gt_id field is believed only with its capability. */
	r[104 + 32] = 5;	/* unit 1's gt_id, at byte 32 of it */
	ASSERT_EQ(OA_XE_UNIT_FOUND, oa_xe_unit_find(r, sizeof(r), 1, &u));
	EXPECT_EQ(5, u.gt_id);
	r[104 + 16] = 0x1f;	/* its capabilities without OA_UNIT_GT_ID */
	ASSERT_EQ(OA_XE_UNIT_FOUND, oa_xe_unit_find(r, sizeof(r), 1, &u));
	EXPECT_FALSE(u.has_gt);
	/* 6.12's units: the GT is the first engine's. */
	lnl_reply(r);
	ASSERT_EQ(OA_XE_UNIT_FOUND, oa_xe_unit_find(r, sizeof(r), 1, &u));
	EXPECT_TRUE(u.has_gt);
	EXPECT_EQ(1, u.gt_id);
}

/* xe_drm.h's names, DRM_XE_OA_... less; NULL past what 7.3 has. */
TEST(unit_types_capabilities_and_properties_by_name)
{
	char buf[128];

	EXPECT_STREQ("OAG", oa_xe_unit_type_name(0));
	EXPECT_STREQ("OAM", oa_xe_unit_type_name(1));
	EXPECT_STREQ("OAM_SAG", oa_xe_unit_type_name(2));
	EXPECT_STREQ("MERT", oa_xe_unit_type_name(3));
	EXPECT_EQ(NULL, oa_xe_unit_type_name(4));
	EXPECT_EQ(NULL, oa_xe_prop_name(0));
	EXPECT_STREQ("OA_UNIT_ID", oa_xe_prop_name(1));
	EXPECT_STREQ("SYNCS", oa_xe_prop_name(11));
	EXPECT_STREQ("OA_BUFFER_SIZE", oa_xe_prop_name(12));
	EXPECT_STREQ("WAIT_NUM_REPORTS", oa_xe_prop_name(13));
	EXPECT_EQ(NULL, oa_xe_prop_name(14));
	oa_xe_caps_names(3, buf, sizeof(buf));
	EXPECT_STREQ("BASE SYNCS", buf);
	oa_xe_caps_names(0x3f | 1ull << 40, buf, sizeof(buf));
	EXPECT_STREQ("BASE SYNCS OA_BUFFER_SIZE WAIT_NUM_REPORTS OAM OA_UNIT_GT_ID bit 40",
		     buf);
	oa_xe_caps_names(0, buf, sizeof(buf));
	EXPECT_STREQ("", buf);
	/* Cut short, still a string. */
	oa_xe_caps_names(0x3f, buf, 12);
	EXPECT_STREQ("BASE SYNCS ", buf);
}

TEST(a_unit_past_the_reply_is_malformed)
{
	uint8_t r[REPLY_SIZE];
	struct oa_xe_unit u;
	uint64_t many = 1ull << 60;

	lnl_reply(r);
	/* Cut inside unit 1's engines (it ends at 192). */
	EXPECT_EQ(OA_XE_UNIT_FOUND, oa_xe_unit_find(r, 190, 0, &u));
	EXPECT_EQ(OA_XE_UNIT_MALFORMED, oa_xe_unit_find(r, 190, 1, &u));
	/* Cut inside unit 1's head. */
	EXPECT_EQ(OA_XE_UNIT_MALFORMED, oa_xe_unit_find(r, 150, 1, &u));
	/* An engine count whose bytes would overflow. */
	memcpy(r + 16 + 64, &many, sizeof(many));
	EXPECT_EQ(OA_XE_UNIT_MALFORMED, oa_xe_unit_find(r, sizeof(r), 0, &u));
	/* Shorter than the head: no units. */
	EXPECT_EQ(0, oa_xe_unit_count(r, 15));
	EXPECT_EQ(OA_XE_UNIT_ABSENT, oa_xe_unit_find(r, 15, 0, &u));
}

/* Our format on a platform: xe's value, or 0xffffffff if not offered. */
static uint32_t value(unsigned int ip, uint32_t format)
{
	const struct gpuprof_oa_format *f = oa_xe_format_of(ip, format);

	return f ? oa_xe_format_value(f) : 0xffffffffu;
}

TEST(formats_are_encoded_per_platform)
{
	/* Xe2: PEC type 5, select 1, counter size 1, BC report 0 or 1. */
	EXPECT_EQ(0x00010105u, value(LNL, GPUPROF_OA_FORMAT_PEC64u64));
	EXPECT_EQ(0x00010105u, value(BMG, GPUPROF_OA_FORMAT_PEC64u64));
	EXPECT_EQ(0x01010105u, value(LNL, GPUPROF_OA_FORMAT_PEC64u64_B8_C8));
	EXPECT_EQ(0x00000105u, value(LNL, GPUPROF_OA_FORMAT_PEC64u32));
	EXPECT_EQ(0x00010505u, value(LNL, GPUPROF_OA_FORMAT_PEC32u64_G1));
	EXPECT_EQ(0x00000605u, value(LNL, GPUPROF_OA_FORMAT_PEC32u32_G2));
	EXPECT_EQ(0x00010305u, value(LNL, GPUPROF_OA_FORMAT_PEC36u64_G1_32_G2_4));
	EXPECT_EQ(0x00010405u, value(LNL, GPUPROF_OA_FORMAT_PEC36u64_G1_4_G2_32));
	/* Panther Lake (Xe3): Xe2's formats in 7.3's xe_oa.c. */
	EXPECT_EQ(0x00010105u, value(PTL, GPUPROF_OA_FORMAT_PEC64u64));
	EXPECT_EQ(0x00000204u, value(PTL, GPUPROF_OAM_FORMAT_MPEC8u32_B8_C8));
	EXPECT_EQ(0xffffffffu, value(PTL, GPUPROF_OA_FORMAT_A24u40_A14u32_B8_C8));
	/* OAM_MPEC type 4, select 2; on Xe2 and Meteor Lake. */
	EXPECT_EQ(0x00000204u, value(LNL, GPUPROF_OAM_FORMAT_MPEC8u32_B8_C8));
	EXPECT_EQ(0x00000104u, value(MTL, GPUPROF_OAM_FORMAT_MPEC8u64_B8_C8));
	EXPECT_EQ(0xffffffffu, value(DG2, GPUPROF_OAM_FORMAT_MPEC8u32_B8_C8));
	/* 0x0500 is one value, two formats: gen12's and DG2/MTL's. */
	EXPECT_EQ(0x00000500u, value(TGL, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8));
	EXPECT_EQ(0x00000500u, value(MTL, GPUPROF_OA_FORMAT_A24u40_A14u32_B8_C8));
	EXPECT_EQ(0x00000501u, value(DG2, GPUPROF_OAR_FORMAT_A32u40_A4u32_B8_C8));
	EXPECT_EQ(0x00000103u, value(MTL, GPUPROF_OAC_FORMAT_A24u64_B8_C8));
	EXPECT_EQ(0x00000203u, value(DG2, GPUPROF_OAC_FORMAT_A22u32_R2u32_B8_C8));
	/* A12 is 0, a value like any other. */
	EXPECT_EQ(0x00000000u, value(TGL, GPUPROF_OA_FORMAT_A12));
	EXPECT_EQ(0x00000200u, value(TGL, GPUPROF_OA_FORMAT_A12_B8_C8));
	/* Not offered there. */
	EXPECT_EQ(0xffffffffu, value(TGL, GPUPROF_OA_FORMAT_A24u40_A14u32_B8_C8));
	EXPECT_EQ(0xffffffffu, value(MTL, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8));
	EXPECT_EQ(0xffffffffu, value(MTL, GPUPROF_OA_FORMAT_PEC64u64));
	EXPECT_EQ(0xffffffffu, value(LNL, GPUPROF_OA_FORMAT_A24u40_A14u32_B8_C8));
	/* C4_B8: xe lists it on gen12 but can never open it (index 0). */
	EXPECT_EQ(0xffffffffu, value(TGL, GPUPROF_OA_FORMAT_C4_B8));
	/* Haswell's formats are i915's only. */
	EXPECT_EQ(0xffffffffu, value(TGL, GPUPROF_OA_FORMAT_A45_B8_C8));
}

TEST(formats_fit_their_unit_and_have_xe_sizes)
{
	const struct gpuprof_oa_format *pec, *mpec;

	pec = oa_xe_format_of(LNL, GPUPROF_OA_FORMAT_PEC64u64);
	mpec = oa_xe_format_of(LNL, GPUPROF_OAM_FORMAT_MPEC8u32_B8_C8);
	ASSERT_NE(NULL, pec);
	ASSERT_NE(NULL, mpec);
	EXPECT_EQ(576, pec->size);
	EXPECT_EQ(128, mpec->size);
	EXPECT_TRUE(oa_xe_format_fits_unit(pec, OA_XE_OA_UNIT_TYPE_OAG));
	EXPECT_FALSE(oa_xe_format_fits_unit(pec, OA_XE_OA_UNIT_TYPE_OAM));
	EXPECT_TRUE(oa_xe_format_fits_unit(mpec, OA_XE_OA_UNIT_TYPE_OAM));
	EXPECT_FALSE(oa_xe_format_fits_unit(mpec, OA_XE_OA_UNIT_TYPE_OAG));
	EXPECT_FALSE(oa_xe_format_fits_unit(pec, 7));
	/* 7.3's SAG and MERT units take the media formats. */
	EXPECT_TRUE(oa_xe_format_fits_unit(mpec, OA_XE_OA_UNIT_TYPE_OAM_SAG));
	EXPECT_TRUE(oa_xe_format_fits_unit(mpec, OA_XE_OA_UNIT_TYPE_MERT));
	EXPECT_FALSE(oa_xe_format_fits_unit(pec, OA_XE_OA_UNIT_TYPE_OAM_SAG));
	EXPECT_EQ(640, oa_xe_format_of(BMG, GPUPROF_OA_FORMAT_PEC64u64_B8_C8)->size);
	EXPECT_EQ(320, oa_xe_format_of(MTL, GPUPROF_OAC_FORMAT_A24u64_B8_C8)->size);
}

TEST(default_formats_per_platform_and_unit)
{
	EXPECT_EQ(GPUPROF_OA_FORMAT_PEC64u64,
		  oa_xe_default_format(LNL, OA_XE_OA_UNIT_TYPE_OAG));
	EXPECT_EQ(GPUPROF_OA_FORMAT_PEC64u64,
		  oa_xe_default_format(BMG, OA_XE_OA_UNIT_TYPE_OAG));
	EXPECT_EQ(GPUPROF_OAM_FORMAT_MPEC8u32_B8_C8,
		  oa_xe_default_format(LNL, OA_XE_OA_UNIT_TYPE_OAM));
	EXPECT_EQ(GPUPROF_OA_FORMAT_A24u40_A14u32_B8_C8,
		  oa_xe_default_format(MTL, OA_XE_OA_UNIT_TYPE_OAG));
	EXPECT_EQ(GPUPROF_OA_FORMAT_A24u40_A14u32_B8_C8,
		  oa_xe_default_format(DG2, OA_XE_OA_UNIT_TYPE_OAG));
	EXPECT_EQ(GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8,
		  oa_xe_default_format(TGL, OA_XE_OA_UNIT_TYPE_OAG));
	EXPECT_EQ(GPUPROF_OA_FORMAT_PEC64u64,
		  oa_xe_default_format(PTL, OA_XE_OA_UNIT_TYPE_OAG));
	EXPECT_EQ(0, oa_xe_default_format(LNL, OA_XE_OA_UNIT_TYPE_OAM_SAG));
}

TEST(status_bits_become_loss_records)
{
	uint32_t rec[2];

	EXPECT_EQ(0, oa_xe_status_records(0, rec));
	ASSERT_EQ(1, oa_xe_status_records(OA_XE_OASTATUS_REPORT_LOST, rec));
	EXPECT_EQ(GPUPROF_OA_RECORD_REPORT_LOST, rec[0]);
	ASSERT_EQ(1, oa_xe_status_records(OA_XE_OASTATUS_BUFFER_OVERFLOW, rec));
	EXPECT_EQ(GPUPROF_OA_RECORD_BUFFER_LOST, rec[0]);
	ASSERT_EQ(2, oa_xe_status_records(0xf, rec));
	EXPECT_EQ(GPUPROF_OA_RECORD_REPORT_LOST, rec[0]);
	EXPECT_EQ(GPUPROF_OA_RECORD_BUFFER_LOST, rec[1]);
	/* Counter overflow and a full trigger queue have no record. */
	EXPECT_EQ(0, oa_xe_status_records(OA_XE_OASTATUS_COUNTER_OVERFLOW |
					  OA_XE_OASTATUS_MMIO_TRG_Q_FULL, rec));
	EXPECT_EQ(0xcu, OA_XE_STATUS_NOTED);
}

TEST(gpu_clock_ticks_as_oa_ticks)
{
	/* Xe2: one clock. */
	EXPECT_EQ(123456789ull, oa_node_ticks_to_oa(123456789ull, 19200000,
						   19200000));
	/* An OA clock 8 times the reference: 1000 cycles, 8000 ticks. */
	EXPECT_EQ(8000ull, oa_node_ticks_to_oa(1000, 19200000, 153600000));
	/* ... and half of it: 1001 cycles, 500 ticks (truncated). */
	EXPECT_EQ(500ull, oa_node_ticks_to_oa(1001, 19200000, 9600000));
	/* No overflow on the way: 2^60 * 8 = 2^63. */
	EXPECT_EQ(1ull << 63, oa_node_ticks_to_oa(1ull << 60, 1, 8));
	/* 36-bit cycles cross 2^36: 0xffffffff0 then 0x10 is 2^36 + 16. */
	EXPECT_EQ((1ull << 36) + 16,
		  oa_xe_cycles_unwrap(0xffffffff0ull, 0x10, 36));
	/* Xe2's are 64 bits wide: taken as they are. */
	EXPECT_EQ(5ull, oa_xe_cycles_unwrap(1ull << 40, 5, 64));
}

/*
 * GT_TOPOLOGY as 6.12 answers on Lunar Lake: per GT, DSS geometry and
 * compute (8 + 16 bytes each), L3 banks and SIMD16 EUs (8 + 8 each), 80
 * bytes; GT 0 has 8 Xe cores of 8 EUs, the media GT 1 nothing.  Records
 * end at 24, 48, 64, 80, then 104, 128, 144, 160.
 */
#define TOPO_SIZE 160

static uint8_t *put_mask(uint8_t *p, uint16_t gt, uint16_t type,
			 uint64_t mask, uint32_t n)
{
	struct oa_xe_topology_mask m = {
		.gt_id = gt, .type = type, .num_bytes = n,
	};

	memset(p, 0, sizeof(m) + n);
	memcpy(p, &m, sizeof(m));
	memcpy(p + sizeof(m), &mask, sizeof(mask));
	return p + sizeof(m) + n;
}

static void lnl_topology(uint8_t *r, uint64_t dss, uint64_t eu)
{
	uint16_t gt;

	for (gt = 0; gt < 2; gt++) {
		r = put_mask(r, gt, OA_XE_TOPO_DSS_GEOMETRY, gt ? 0 : dss, 16);
		r = put_mask(r, gt, OA_XE_TOPO_DSS_COMPUTE, 0, 16);
		r = put_mask(r, gt, OA_XE_TOPO_L3_BANK, gt ? 0 : 0xf, 8);
		r = put_mask(r, gt, OA_XE_TOPO_SIMD16_EU_PER_DSS, gt ? 0 : eu, 8);
	}
}

/*
 * What the simulator writes for lnl, by hand: one slice of 32 subslice
 * bits (8 set) and 16 EU bits per subslice (8 set in the 8 present):
 * header, slice byte at 0, subslices at 1..4, EUs at 5, 2 bytes each,
 * 16 + 5 + 64 = 85 bytes.
 */
#define LNL_TOPO_SIZE 85

static void lnl_expected(uint8_t *b)
{
	struct drm_i915_query_topology_info t = {
		.max_slices = 1, .max_subslices = 32,
		.max_eus_per_subslice = 16, .subslice_offset = 1,
		.subslice_stride = 4, .eu_offset = 5, .eu_stride = 2,
	};
	unsigned int ss;

	memset(b, 0, LNL_TOPO_SIZE);
	memcpy(b, &t, sizeof(t));
	b[16] = 1;
	b[17] = 0xff;
	for (ss = 0; ss < 8; ss++)
		b[16 + 5 + 2 * ss] = 0xff;
}

TEST(topology_of_the_units_gt_in_i915_layout)
{
	uint64_t buf[128];
	uint8_t r[TOPO_SIZE], want[LNL_TOPO_SIZE];

	lnl_topology(r, 0xff, 0xff);
	lnl_expected(want);
	ASSERT_EQ(LNL_TOPO_SIZE, oa_xe_topology(r, sizeof(r), 0, buf,
						sizeof(buf)));
	EXPECT_EQ(0, memcmp(want, buf, sizeof(want)));
	/* Compute DSS count as well as geometry ones (IGT's union). */
	put_mask(r + 24, 0, OA_XE_TOPO_DSS_COMPUTE, 0xf0, 16);
	put_mask(r, 0, OA_XE_TOPO_DSS_GEOMETRY, 0x0f, 16);
	ASSERT_EQ(LNL_TOPO_SIZE, oa_xe_topology(r, sizeof(r), 0, buf,
						sizeof(buf)));
	EXPECT_EQ(0, memcmp(want, buf, sizeof(want)));
	/* The media GT has no DSS: nothing. */
	EXPECT_EQ(0, oa_xe_topology(r, sizeof(r), 1, buf, sizeof(buf)));
	/* No room for the 85 bytes. */
	EXPECT_EQ(0, oa_xe_topology(r, sizeof(r), 0, buf, LNL_TOPO_SIZE - 1));
}

TEST(topology_widens_for_masks_past_32_dss_or_16_eus)
{
	uint64_t buf[128];
	const uint8_t *b = (const uint8_t *)buf;
	struct drm_i915_query_topology_info t;
	uint8_t r[TOPO_SIZE];

	/* DSS 39 and EU 17: 40 subslice bits, 24 EU bits. */
	lnl_topology(r, 1ull << 39, 1u << 17);
	ASSERT_EQ(16 + 1 + 5 + 40 * 3, oa_xe_topology(r, sizeof(r), 0, buf,
						      sizeof(buf)));
	memcpy(&t, buf, sizeof(t));
	EXPECT_EQ(40, t.max_subslices);
	EXPECT_EQ(24, t.max_eus_per_subslice);
	EXPECT_EQ(6, t.eu_offset);
	EXPECT_EQ(0x80, b[16 + 1 + 4]);
	EXPECT_EQ(0x02, b[16 + 6 + 39 * 3 + 2]);
	/* A bit past 64 fits no layout: refused. */
	r[8 + 9] = 1;
	EXPECT_EQ(0, oa_xe_topology(r, sizeof(r), 0, buf, sizeof(buf)));
}

/*
 * The reply cut at every byte, in a heap block of exactly that size so
 * that ASan sees any read past it: a cut inside a record is malformed,
 * a cut between records is a shorter reply, whole (GT 0's four masks)
 * from byte 80.
 */
TEST(topology_cut_anywhere_reads_nothing_past_it)
{
	uint8_t r[TOPO_SIZE], *cut;
	uint64_t buf[128];
	size_t n, got;

	lnl_topology(r, 0xff, 0xff);
	for (n = 0; n <= TOPO_SIZE; n++) {
		bool whole = n == 80 || n == 104 || n == 128 || n == 144 ||
			     n == 160;

		cut = malloc(n ? n : 1);
		ASSERT_NE(NULL, cut);
		memcpy(cut, r, n);
		got = oa_xe_topology(cut, n, 0, buf, sizeof(buf));
		free(cut);
		EXPECT_EQ(whole ? LNL_TOPO_SIZE : 0, got) TH_LOG("cut at %zu", n);
	}
}

TEST_HARNESS_MAIN
