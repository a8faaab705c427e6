// SPDX-License-Identifier: GPL-2.0-only
/*
 * The OA metric evaluator (tools/perf-gpu/oa/metrics.c) on deltas and
 * topologies made by hand, with the values computed by hand from the
 * equations of oa/metric-sets.c and the semantics oa/metric-sets.h
 * states: Tiger Lake GT2's RenderBasic, division by zero, the u64
 * wrap of FSUB, availability conditions and the device variables; on
 * xe's Lunar Lake, Battlemage and Panther Lake (IGT b3d809d53's
 * lib/xe/oa-configs), RenderBasic's PEC counters, a media set's MPEC
 * ones, the device variables IGT's xe library never fills and its
 * $GtXeCore<n>.
 */
#include <stdint.h>
#include <string.h>

#include <i915_drm.h>

#include "../lib/harness.h"
#include "../lib/oa_topology.h"
#include "../../tools/perf-gpu/oa/metrics.h"

#define TGL_GT2 0x9a49

/* One slice of 6 subslices (mask @ss) of 16 EUs, EU masks all set. */
static void tgl_device(struct oa_metrics_device *d, const union oa_topology *u,
		       size_t len)
{
	memset(d, 0, sizeof(*d));
	d->device_id = TGL_GT2;
	d->revision = 1;
	d->timestamp_frequency = 19200000;
	d->gt_min_hz = 100000000;
	d->gt_max_hz = 1300000000;
	d->topology = u;
	d->topology_len = len;
}

/* The value of the available counter @name, NULL if it is not there. */
static const struct oa_metric_value *value(const struct oa_metrics *m,
					   const char *name)
{
	unsigned int i;

	for (i = 0; i < m->n; i++)
		if (!strcmp(oa_metric_str(oa_metrics_counter(m, i)->symbol), name))
			return oa_metrics_value(m, i);
	return NULL;
}

static uint64_t u64_of(struct __test_metadata *_metadata,
		       const struct oa_metrics *m, const char *name)
{
	const struct oa_metric_value *v = value(m, name);

	EXPECT_NE(NULL, v) TH_LOG("no counter %s", name);
	if (!v)
		return ~0ull;
	EXPECT_FALSE(v->is_double) TH_LOG("%s", name);
	return v->u;
}

static double double_of(struct __test_metadata *_metadata,
			const struct oa_metrics *m, const char *name)
{
	const struct oa_metric_value *v = value(m, name);

	EXPECT_NE(NULL, v) TH_LOG("no counter %s", name);
	if (!v)
		return -1;
	EXPECT_TRUE(v->is_double) TH_LOG("%s", name);
	return v->d;
}

static const struct oa_metric_set *tgl_set(const char *name)
{
	return oa_metric_set_find(oa_metric_platform_find("tglgt2"), name);
}

TEST(tgl_render_basic_by_hand)
{
	static struct oa_metrics m;
	struct gpuprof_oa_deltas d = { .deltas = 1 };
	struct oa_metrics_device dev;
	union oa_topology u;
	char buf[64];
	unsigned int i;

	tgl_device(&dev, &u, tgl_topology(&u, 0x3f));
	ASSERT_EQ(0, oa_metrics_init(&m, tgl_set("RenderBasic"), &dev));
	/* 34 counters, the four sampler ones on subslice 0 of the mask. */
	ASSERT_EQ(34, m.n);
	EXPECT_EQ(96, m.vars.n_eus);
	EXPECT_EQ(7, m.vars.eu_threads);
	d.timestamp = 19200;		/* 1 ms at 19.2 MHz */
	d.gpu_ticks = 1100000;		/* 1.1 GHz */
	d.a[0] = 550000;		/* busy half the time */
	d.a[1] = 12345;
	/* EU active: (sum / 96 EUs) * 100 / clocks; UDIV drops 95 / 96. */
	d.a[7] = d.a[8] = d.a[9] = 6600000;
	d.a[10] = 6600000 + 95;
	/* Occupancy: 8 * sum / 7 threads / 96 EUs * 100 / clocks = 50. */
	d.a[15] = d.a[16] = d.a[17] = d.a[18] = 11550000;
	d.a[21] = 1000;
	d.a[32] = 7;
	d.b[0] = 110000;
	d.c[0] = 1;
	d.c[1] = 2;
	d.c[2] = 3;
	d.c[5] = 4;
	oa_metrics_compute(&m, &d);
	EXPECT_EQ(1000000, u64_of(_metadata, &m, "GpuTime"));
	EXPECT_EQ(1100000, u64_of(_metadata, &m, "GpuCoreClocks"));
	EXPECT_EQ(1100000000, u64_of(_metadata, &m, "AvgGpuCoreFrequency"));
	EXPECT_EQ(12345, u64_of(_metadata, &m, "VsThreads"));
	EXPECT_EQ(50.0, double_of(_metadata, &m, "GpuBusy"));
	EXPECT_EQ(25.0, double_of(_metadata, &m, "EuActive"));
	EXPECT_EQ(50.0, double_of(_metadata, &m, "EuThreadOccupancy"));
	EXPECT_EQ(10.0, double_of(_metadata, &m, "Sampler00Busy"));
	EXPECT_EQ(10.0, double_of(_metadata, &m, "SamplersBusy"));
	EXPECT_EQ(4000, u64_of(_metadata, &m, "RasterizedPixels"));
	EXPECT_EQ(7 * 64, u64_of(_metadata, &m, "L3ShaderThroughput"));
	EXPECT_EQ(64 * 7, u64_of(_metadata, &m, "GtiReadThroughput"));
	EXPECT_EQ(64 * 3, u64_of(_metadata, &m, "GtiWriteThroughput"));
	/* In set order, printed as IGT's reader prints them. */
	EXPECT_STREQ("GpuTime", oa_metric_str(oa_metrics_counter(&m, 0)->symbol));
	oa_metrics_format(&m, 9, buf, sizeof(buf));
	EXPECT_STREQ("50.000000", buf);
	oa_metrics_format(&m, 2, buf, sizeof(buf));
	EXPECT_STREQ("1100000000", buf);
	for (i = 1; i < m.n; i++)
		EXPECT_LT(m.avail[i - 1], m.avail[i]);
}

TEST(division_by_zero)
{
	static struct oa_metrics m;
	struct gpuprof_oa_deltas d = { .deltas = 1, .timestamp = 19200 };
	struct oa_metrics_device dev;
	union oa_topology u;

	tgl_device(&dev, &u, tgl_topology(&u, 0x3f));
	dev.timestamp_frequency = 0;
	ASSERT_EQ(0, oa_metrics_init(&m, tgl_set("RenderBasic"), &dev));
	d.a[0] = 5;
	oa_metrics_compute(&m, &d);
	/* UDIV by 0 is 0, and so is the frequency dividing by that 0. */
	EXPECT_EQ(0, u64_of(_metadata, &m, "GpuTime"));
	EXPECT_EQ(0, u64_of(_metadata, &m, "AvgGpuCoreFrequency"));
	/* FDIV by 0 clocks is 0. */
	EXPECT_EQ(0.0, double_of(_metadata, &m, "GpuBusy"));
	/* No EUs in the topology: EuActive's UDIV by 0. */
	tgl_device(&dev, &u, 0);
	ASSERT_EQ(0, oa_metrics_init(&m, tgl_set("RenderBasic"), &dev));
	EXPECT_EQ(0, m.vars.n_eus);
	d.gpu_ticks = 100;
	d.a[7] = 1000;
	oa_metrics_compute(&m, &d);
	EXPECT_EQ(0.0, double_of(_metadata, &m, "EuActive"));
	EXPECT_EQ(5.0, double_of(_metadata, &m, "GpuBusy"));
}

/*
 * Ice Lake's HDCAndSF NonSamplerShader00AccessStalledOnL3 is
 * "C0 B7 FSUB 100 UMUL $GpuCoreClocks FDIV": FSUB of two u64 subtracts
 * in u64, so C0 < B7 wraps to 2^64 - 5; UMUL of that double by 100 is
 * a double past 2^64, which x86-64 makes 0.  (A double subtraction would
 * give -500, which converts to 2^64 - 500.)
 */
TEST(fsub_wraps_in_u64)
{
	static struct oa_metrics m;
	struct gpuprof_oa_deltas d = { .deltas = 1, .gpu_ticks = 1000 };
	struct oa_metrics_device dev;
	const char *name = "NonSamplerShader00AccessStalledOnL3";
	union oa_topology u;

	tgl_device(&dev, &u, tgl_topology(&u, 0x3f));
	dev.device_id = 0x8a52;
	ASSERT_EQ(0, oa_metrics_init(&m, oa_metrics_set_of(0x8a52, "HDCAndSF", ""),
				     &dev));
	d.c[0] = 10;
	d.b[7] = 5;
	oa_metrics_compute(&m, &d);
	EXPECT_EQ(0.5, double_of(_metadata, &m, name));
	d.c[0] = 5;
	d.b[7] = 10;
	oa_metrics_compute(&m, &d);
	EXPECT_EQ(0.0, double_of(_metadata, &m, name));
}

/*
 * FADD's result is a double, so an FSUB of two FADD results subtracts
 * doubles: EuActivity7's EuAvgIpcRate, X / ((A11..A14 + A15..A18) - X)
 * + 1 with X = A7 + .. + A10, is 10 / -10 + 1 = 0 when only A7 is 10.
 */
TEST(fsub_of_doubles_does_not_wrap)
{
	static struct oa_metrics m;
	struct gpuprof_oa_deltas d = { .deltas = 1 };
	struct oa_metrics_device dev;
	union oa_topology u;

	tgl_device(&dev, &u, tgl_topology(&u, 0x3f));
	ASSERT_EQ(0, oa_metrics_init(&m, tgl_set("EuActivity7"), &dev));
	d.a[7] = 30;
	d.a[11] = 50;
	d.a[15] = 40;
	oa_metrics_compute(&m, &d);
	EXPECT_EQ(1.5, double_of(_metadata, &m, "EuAvgIpcRate"));
	d.a[11] = d.a[15] = 0;
	d.a[7] = 10;
	oa_metrics_compute(&m, &d);
	EXPECT_EQ(0.0, double_of(_metadata, &m, "EuAvgIpcRate"));
}

TEST(availability_conditions)
{
	static struct oa_metrics m;
	struct oa_metrics_device dev;
	union oa_topology u;

	/* Subslice 0 fused off: "$DualSubsliceMask 1 AND" is 0. */
	tgl_device(&dev, &u, tgl_topology(&u, 0x3e));
	ASSERT_EQ(0, oa_metrics_init(&m, tgl_set("RenderBasic"), &dev));
	EXPECT_EQ(30, m.n);
	EXPECT_EQ(NULL, value(&m, "Sampler00Busy"));
	EXPECT_EQ(NULL, value(&m, "SamplerBottleneck"));
	EXPECT_NE(NULL, value(&m, "RasterizedPixels"));
	EXPECT_EQ(80, m.vars.n_eus);
	EXPECT_EQ(5, m.vars.n_subslices);
	/* Subslices 1 and 2 of the first three. */
	EXPECT_EQ(2, m.vars.n_subslices_half);
	EXPECT_EQ(0x3e, m.vars.subslice_mask);
}

/* Skylake GT3's two slices: 3 bits a slice in the subslice mask. */
TEST(device_variables_before_gen11)
{
	struct oa_metrics_device dev = {
		.device_id = 0x1926, .timestamp_frequency = 12000000,
	};
	struct oa_metrics_vars v;
	union oa_topology u = { .t = {
		.max_slices = 2, .max_subslices = 3, .max_eus_per_subslice = 8,
		.subslice_offset = 1, .subslice_stride = 1,
		.eu_offset = 3, .eu_stride = 1,
	} };

	u.t.data[0] = 0x3;
	u.t.data[1] = 0x7;
	u.t.data[2] = 0x5;
	/* EU masks: 8, 8, 7 in slice 0; 8, (fused subslice 1), 6 in slice 1. */
	u.t.data[3] = 0xff;
	u.t.data[4] = 0xff;
	u.t.data[5] = 0x7f;
	u.t.data[6] = 0xff;
	u.t.data[7] = 0xff;
	u.t.data[8] = 0x3f;
	dev.topology = &u;
	dev.topology_len = sizeof(u.t) + 9;
	oa_metrics_device_vars(&dev, &v);
	EXPECT_EQ(0x3, v.slice_mask);
	EXPECT_EQ(0x7 | 0x5 << 3, v.subslice_mask);
	EXPECT_EQ(2, v.n_slices);
	EXPECT_EQ(5, v.n_subslices);
	EXPECT_EQ(8 + 8 + 7 + 8 + 6, v.n_eus);
	EXPECT_EQ(1, v.n_subslices_half);
	EXPECT_EQ(12000000, v.timestamp_frequency);
	/* A topology cut short counts nothing past its end. */
	dev.topology_len = sizeof(u.t) + 6;
	oa_metrics_device_vars(&dev, &v);
	EXPECT_EQ(8 + 8 + 7, v.n_eus);
	/* Broxton runs 6 threads an EU. */
	dev.device_id = 0x5a84;
	oa_metrics_device_vars(&dev, &v);
	EXPECT_EQ(6, v.eu_threads);
}

#define LNL 0x6420
#define BMG 0xe202
#define PTL 0xb080

/*
 * An Xe2 topology as IGT's xe library lays it out (one slice, the Xe
 * cores as subslices): @n_cores of mask @cores, 8 vector engines each.
 * Return: its length.
 */
static size_t xe2_topology(union oa_topology *u, unsigned int n_cores,
			   uint32_t cores)
{
	unsigned int stride = (n_cores + 7) / 8;

	memset(u, 0, sizeof(*u));
	u->t.max_slices = 1;
	u->t.max_subslices = n_cores;
	u->t.max_eus_per_subslice = 8;
	u->t.subslice_offset = 1;
	u->t.subslice_stride = stride;
	u->t.eu_offset = 1 + stride;
	u->t.eu_stride = 1;
	u->t.data[0] = 1;
	memcpy(u->t.data + 1, &cores, stride);
	memset(u->t.data + 1 + stride, 0xff, n_cores);
	return sizeof(u->t) + 1 + stride + n_cores;
}

static void xe2_device(struct oa_metrics_device *d, uint32_t device_id,
		       const union oa_topology *u, size_t len)
{
	memset(d, 0, sizeof(*d));
	d->device_id = device_id;
	d->timestamp_frequency = 19200000;
	d->gt_min_hz = 400000000;
	d->gt_max_hz = 2050000000;
	d->topology = u;
	d->topology_len = len;
}

/*
 * Lunar Lake's RenderBasic (oa-lnl.xml), 8 Xe cores of 8 vector engines:
 *   GpuTime       GPU_TIME 1000000000 UMUL $GpuTimestampFrequency UDIV
 *                 = 38400 * 10^9 / 19200000 = 2000000 ns
 *   GpuCoreClocks GPU_CLOCK = 3000000
 *   AvgGpuCoreFrequency  3000000 * 10^9 / 2000000 = 1500000000 Hz
 *   GPU_BUSY      PEC32 100 UMUL $GpuCoreClocks FDIV
 *                 = 750000 * 100 / 3000000 = 25.0
 *   IA_VERTEX     PEC33 = 4242
 *   XVE_THREADS_OCCUPANCY_ALL  PEC14 8 UMUL ($VectorEngineThreadsCount
 *                 $VectorEngineTotalCount UMUL) UDIV 100 UMUL clocks FDIV
 *                 = (84000007 * 8 = 672000056) / (7 * 64 = 448), UDIV
 *                 truncating 1500000.125 to 1500000, * 100 / 3000000 = 50.0
 *   COMMAND_PARSER_COMPUTE_ENGINE_BUSY  PEC39 $ComputeEngineTotalCount
 *                 UDIV ...: IGT's library counts EUs for that variable,
 *                 so 96000000 / 64 * 100 / 3000000 = 50.0
 *   GPU_MEMORY_REQUEST_QUEUE_FULL  PEC54 $SqidiTotalCount UDIV ...:
 *                 the variable is 0 in IGT's library, UDIV by 0 is 0: 0.0
 *   GPU_MEMORY_BYTE_READ  PEC57 2 UMUL = 2 * 1000 = 2000
 */
TEST(lnl_render_basic_by_hand)
{
	static struct oa_metrics m;
	struct gpuprof_oa_deltas d = { .deltas = 1 };
	struct oa_metrics_device dev;
	union oa_topology u;

	xe2_device(&dev, LNL, &u, xe2_topology(&u, 8, 0xff));
	ASSERT_EQ(0, oa_metrics_init(&m, oa_metrics_set_of(LNL, "RenderBasic", ""),
				     &dev));
	ASSERT_EQ(66, m.n);
	EXPECT_EQ(64, m.vars.n_eus);
	EXPECT_EQ(8, m.vars.n_subslices);
	EXPECT_EQ(7, m.vars.eu_threads);
	d.timestamp = 38400;
	d.gpu_ticks = 3000000;
	d.a[32] = 750000;
	d.a[33] = 4242;
	d.a[14] = 84000007;
	d.a[39] = 96000000;
	d.a[54] = 999;
	d.a[57] = 1000;
	oa_metrics_compute(&m, &d);
	EXPECT_EQ(2000000, u64_of(_metadata, &m, "GpuTime"));
	EXPECT_EQ(3000000, u64_of(_metadata, &m, "GpuCoreClocks"));
	EXPECT_EQ(1500000000, u64_of(_metadata, &m, "AvgGpuCoreFrequency"));
	EXPECT_EQ(25.0, double_of(_metadata, &m, "GPU_BUSY"));
	EXPECT_EQ(4242, u64_of(_metadata, &m, "IA_VERTEX"));
	EXPECT_EQ(50.0, double_of(_metadata, &m, "XVE_THREADS_OCCUPANCY_ALL"));
	EXPECT_EQ(50.0, double_of(_metadata, &m, "COMMAND_PARSER_COMPUTE_ENGINE_BUSY"));
	EXPECT_EQ(0.0, double_of(_metadata, &m, "GPU_MEMORY_REQUEST_QUEUE_FULL"));
	EXPECT_EQ(2000, u64_of(_metadata, &m, "GPU_MEMORY_BYTE_READ"));
}

/*
 * Battlemage's RenderBasic (oa-bmg.xml), 20 Xe cores of 8 vector
 * engines (160):
 *   GpuTime       19200 * 10^9 / 19200000 = 1000000 ns
 *   AvgGpuCoreFrequency  2400000 * 10^9 / 1000000 = 2400000000 Hz
 *   GPU_BUSY      600000 * 100 / 2400000 = 25.0
 *   XVE_ACTIVE    PEC24 $EuCoresTotalCount UDIV 100 UMUL clocks FDIV
 *                 = 288000000 / 160 * 100 / 2400000 = 75.0
 *   XVE_THREADS_OCCUPANCY_ALL  168000000 * 8 / (7 * 160) * 100 / 2400000
 *                 = 1200000 * 100 / 2400000 = 50.0
 *   SYSMEM_TRANSACTION_WRITE  PEC62 = 77
 */
TEST(bmg_render_basic_by_hand)
{
	static struct oa_metrics m;
	struct gpuprof_oa_deltas d = { .deltas = 1 };
	struct oa_metrics_device dev;
	union oa_topology u;

	xe2_device(&dev, BMG, &u, xe2_topology(&u, 20, 0xfffff));
	ASSERT_EQ(0, oa_metrics_init(&m, oa_metrics_set_of(BMG, "RenderBasic", ""),
				     &dev));
	ASSERT_EQ(70, m.n);
	EXPECT_EQ(160, m.vars.n_eus);
	EXPECT_EQ(20, m.vars.n_subslices);
	d.timestamp = 19200;
	d.gpu_ticks = 2400000;
	d.a[32] = 600000;
	d.a[24] = 288000000;
	d.a[14] = 168000000;
	d.a[62] = 77;
	oa_metrics_compute(&m, &d);
	EXPECT_EQ(1000000, u64_of(_metadata, &m, "GpuTime"));
	EXPECT_EQ(2400000, u64_of(_metadata, &m, "GpuCoreClocks"));
	EXPECT_EQ(2400000000, u64_of(_metadata, &m, "AvgGpuCoreFrequency"));
	EXPECT_EQ(25.0, double_of(_metadata, &m, "GPU_BUSY"));
	EXPECT_EQ(75.0, double_of(_metadata, &m, "XVE_ACTIVE"));
	EXPECT_EQ(50.0, double_of(_metadata, &m, "XVE_THREADS_OCCUPANCY_ALL"));
	EXPECT_EQ(77, u64_of(_metadata, &m, "SYSMEM_TRANSACTION_WRITE"));
}

/*
 * Panther Lake's RenderBasic (oa-ptl.xml), 12 Xe cores of 8 vector
 * engines (96), whose equations differ from Xe2's in two places:
 *   GpuTime       19200 * 10^9 / 19200000 = 1000000 ns
 *   AvgGpuCoreFrequency  2400000 * 10^9 / 1000000 = 2400000000 Hz
 *   GPU_BUSY      1200000 * 100 / 2400000 = 50.0
 *   XVE_ACTIVE    115200000 / 96 * 100 / 2400000 = 50.0
 *   XVE_THREADS_OCCUPANCY_ALL  PEC14 ($VectorEngineThreadsCount
 *                 $VectorEngineTotalCount UMUL) UDIV 100 UMUL clocks
 *                 FDIV, no "8 UMUL" as on Xe2: 1209600005 / (7 * 96 =
 *                 672) = 1800000.007, UDIV 1800000, * 100 / 2400000 =
 *                 75.0 (Xe2's equation would give 600.0)
 *   COMMAND_PARSER_COMPUTE_ENGINE_BUSY  230400000 / 96 (the EU count,
 *                 IGT's library's value) * 100 / 2400000 = 100.0
 *   GPU_MEMORY_BYTE_READ  PEC57, no "2 UMUL" as on Xe2: 1000
 *   GPU_MEMORY_BYTE_READ_RATE  PEC57 $GpuTime FDIV = 1000 / 1000000
 */
TEST(ptl_render_basic_by_hand)
{
	static struct oa_metrics m;
	struct gpuprof_oa_deltas d = { .deltas = 1 };
	struct oa_metrics_device dev;
	union oa_topology u;

	xe2_device(&dev, PTL, &u, xe2_topology(&u, 12, 0xfff));
	ASSERT_EQ(0, oa_metrics_init(&m, oa_metrics_set_of(PTL, "RenderBasic", ""),
				     &dev));
	ASSERT_EQ(66, m.n);
	EXPECT_EQ(96, m.vars.n_eus);
	EXPECT_EQ(12, m.vars.n_subslices);
	EXPECT_EQ(7, m.vars.eu_threads);
	d.timestamp = 19200;
	d.gpu_ticks = 2400000;
	d.a[32] = 1200000;
	d.a[24] = 115200000;
	d.a[14] = 1209600005;
	d.a[39] = 230400000;
	d.a[57] = 1000;
	oa_metrics_compute(&m, &d);
	EXPECT_EQ(1000000, u64_of(_metadata, &m, "GpuTime"));
	EXPECT_EQ(2400000, u64_of(_metadata, &m, "GpuCoreClocks"));
	EXPECT_EQ(2400000000, u64_of(_metadata, &m, "AvgGpuCoreFrequency"));
	EXPECT_EQ(50.0, double_of(_metadata, &m, "GPU_BUSY"));
	EXPECT_EQ(50.0, double_of(_metadata, &m, "XVE_ACTIVE"));
	EXPECT_EQ(75.0, double_of(_metadata, &m, "XVE_THREADS_OCCUPANCY_ALL"));
	EXPECT_EQ(100.0, double_of(_metadata, &m, "COMMAND_PARSER_COMPUTE_ENGINE_BUSY"));
	EXPECT_EQ(1000, u64_of(_metadata, &m, "GPU_MEMORY_BYTE_READ"));
	EXPECT_EQ(1000.0 / 1000000, double_of(_metadata, &m, "GPU_MEMORY_BYTE_READ_RATE"));
}

/*
 * The media unit's sets read MPEC n, which the decoder keeps as A n:
 * Lunar Lake's MediaSet1 COMMAND_PARSER_VIDEO_DECODE_ENGINE0_BUSY is
 * "A2 100 UMUL $GpuCoreClocks FDIV" = 300 * 100 / 1200 = 25.0, its
 * VIDEO_DECODE_BOX1_WRITE_REQUEST "A7" = 9.
 */
TEST(xe2_media_set_reads_mpec_as_a)
{
	static struct oa_metrics m;
	struct gpuprof_oa_deltas d = { .deltas = 1, .gpu_ticks = 1200 };
	struct oa_metrics_device dev;
	union oa_topology u;

	xe2_device(&dev, LNL, &u, xe2_topology(&u, 8, 0xff));
	ASSERT_EQ(0, oa_metrics_init(&m, oa_metrics_set_of(LNL, "MediaSet1", ""),
				     &dev));
	ASSERT_EQ(11, m.n);
	d.a[2] = 300;
	d.a[7] = 9;
	oa_metrics_compute(&m, &d);
	EXPECT_EQ(25.0, double_of(_metadata, &m,
				  "COMMAND_PARSER_VIDEO_DECODE_ENGINE0_BUSY"));
	EXPECT_EQ(9, u64_of(_metadata, &m, "VIDEO_DECODE_BOX1_WRITE_REQUEST"));
}

/*
 * Lunar Lake's TestOa has TEST_EVENT1_CYCLES_XECORE<n> ("PEC3" ..) on
 * condition $GtXeCore<n>, which IGT's xe library answers with Xe core 0
 * whatever n is: Xe core 5 fused keeps all eight, Xe core 0 fused drops
 * all eight.
 */
TEST(xe2_xecore_conditions_as_igt)
{
	static struct oa_metrics m;
	const struct oa_metric_set *s = oa_metrics_set_of(LNL, "TestOa", "");
	struct oa_metrics_device dev;
	union oa_topology u;

	ASSERT_NE(NULL, s);
	xe2_device(&dev, LNL, &u, xe2_topology(&u, 8, 0xdf));
	ASSERT_EQ(0, oa_metrics_init(&m, s, &dev));
	EXPECT_EQ(21, m.n);
	EXPECT_NE(NULL, value(&m, "TEST_EVENT1_CYCLES_XECORE5"));
	EXPECT_EQ(7, m.vars.n_subslices);
	xe2_device(&dev, LNL, &u, xe2_topology(&u, 8, 0xfe));
	ASSERT_EQ(0, oa_metrics_init(&m, s, &dev));
	EXPECT_EQ(13, m.n);
	EXPECT_EQ(NULL, value(&m, "TEST_EVENT1_CYCLES_XECORE1"));
	EXPECT_NE(NULL, value(&m, "TEST_EVENT1_CYCLES_AVERAGE"));
}

TEST(set_of_a_recording)
{
	const struct oa_metric_set *s = tgl_set("RenderBasic");
	char uuid[OA_METRIC_UUID_LEN + 1];

	oa_metric_uuid_format(s->uuid, uuid);
	EXPECT_EQ(s, oa_metrics_set_of(TGL_GT2, "", uuid));
	EXPECT_EQ(s, oa_metrics_set_of(TGL_GT2, "RenderBasic", "junk"));
	/* The uuid wins over the name. */
	EXPECT_EQ(s, oa_metrics_set_of(TGL_GT2, "ComputeBasic", uuid));
	EXPECT_EQ(NULL, oa_metrics_set_of(TGL_GT2, "NoSuchSet", ""));
	EXPECT_EQ(NULL, oa_metrics_set_of(0x1234, "RenderBasic", uuid));
	/* DG2's sets have no counters here. */
	EXPECT_EQ(NULL, oa_metrics_set_of(0x5690, "RenderBasic", ""));
	/* Each Xe2 device id finds its own platform's set. */
	EXPECT_EQ(oa_metric_set_find(oa_metric_platform_find("lnl"), "RenderBasic"),
		  oa_metrics_set_of(0x64b0, "", "12f20772-0044-44ff-bcc0-d2bc252d140e"));
	EXPECT_EQ(oa_metric_set_find(oa_metric_platform_find("bmg"), "RenderBasic"),
		  oa_metrics_set_of(0xe212, "RenderBasic", ""));
	EXPECT_EQ(NULL, oa_metrics_set_of(LNL, "", "f05e23fc-913d-4ab9-ba9a-43beb059a18c"));
	/* Panther Lake's, for its ids and Wildcat Lake's, which 7.3's xe
	 * and IGT take for one. */
	EXPECT_EQ(oa_metric_set_find(oa_metric_platform_find("ptl"), "RenderBasic"),
		  oa_metrics_set_of(0xb0b0, "", "a78beb3a-98d1-48cc-86ee-29bb3cc3b5a7"));
	EXPECT_EQ(oa_metric_set_find(oa_metric_platform_find("ptl"), "RenderBasic"),
		  oa_metrics_set_of(0xfd81, "RenderBasic", ""));
	EXPECT_EQ(NULL, oa_metrics_set_of(PTL, "", "12f20772-0044-44ff-bcc0-d2bc252d140e"));
}

/* Every set of every platform compiles, its conditions included. */
TEST(every_set_compiles)
{
	static struct oa_metrics m;
	struct oa_metrics_device dev;
	const struct oa_metric_platform *p;
	unsigned int i, j, sets = 0;
	union oa_topology u;

	tgl_device(&dev, &u, tgl_topology(&u, 0x3f));
	for (i = 0; i < oa_metric_n_platforms; i++) {
		p = &oa_metric_platforms[i];
		for (j = 0; p->has_counters && j < p->n_sets; j++) {
			EXPECT_EQ(0, oa_metrics_init(&m, oa_metric_platform_set(p, j), &dev))
				TH_LOG("%s %s", p->name,
				       oa_metric_str(oa_metric_platform_set(p, j)->symbol));
			sets++;
		}
	}
	TH_LOG("%u sets compiled", sets);
}

TEST(double_to_u64_as_x86_64)
{
	EXPECT_EQ(3, oa_metrics_d2u(3.99));
	EXPECT_EQ(~0ull, oa_metrics_d2u(-1.5));
	EXPECT_EQ(1ull << 63, oa_metrics_d2u(0x1p63));
	EXPECT_EQ(0, oa_metrics_d2u(0x1p64));
	EXPECT_EQ(1ull << 63, oa_metrics_d2u(-0x1p64));
	EXPECT_EQ(1ull << 63, oa_metrics_d2u(__builtin_nan("")));
	EXPECT_EQ(0xfffffffffffff800ull, oa_metrics_d2u(0x1p64 - 2048));
}

TEST_HARNESS_MAIN
