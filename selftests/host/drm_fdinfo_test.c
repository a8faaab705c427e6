// SPDX-License-Identifier: GPL-2.0-only
/*
 * The drm-usage-stats parser of tools/perf-gpu (drm/fdinfo.c) on texts
 * written by hand after Documentation/gpu/drm-usage-stats.rst and what
 * i915, amdgpu and msm print, plus broken ones; drm-client-name as 7.3's
 * drm_show_fdinfo() prints it, and names its ioctl would refuse.  Expected values are
 * worked out by hand from the texts.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/harness.h"
#include "../../tools/perf-gpu/drm/fdinfo.h"

static struct drm_fdinfo *parse(const char *text)
{
	static struct drm_fdinfo fi;

	drm_fdinfo_parse(text, strlen(text), &fi);
	return &fi;
}

/* What i915 prints in 6.1, with the generic fdinfo lines before it. */
TEST(i915_engines)
{
	struct drm_fdinfo *fi = parse(
		"pos:\t0\nflags:\t02100002\nmnt_id:\t25\nino:\t532\n"
		"drm-driver:\ti915\n"
		"drm-pdev:\t0000:00:02.0\n"
		"drm-client-id:\t7\n"
		"drm-engine-render:\t25662044495 ns\n"
		"drm-engine-copy:\t0 ns\n"
		"drm-engine-video:\t0 ns\n"
		"drm-engine-capacity-video:\t2\n"
		"drm-engine-video-enhance:\t0 ns\n");
	const struct drm_fdinfo_engine *e;

	ASSERT_TRUE(drm_fdinfo_is_client(fi));
	EXPECT_STREQ("i915", fi->driver);
	EXPECT_STREQ("0000:00:02.0", fi->pdev);
	EXPECT_TRUE(fi->has_client_id);
	EXPECT_EQ(7, fi->client_id);
	EXPECT_EQ(4, fi->nr_engines);
	e = drm_fdinfo_engine(fi, "render");
	ASSERT_NE(NULL, e);
	EXPECT_EQ(25662044495ull, e->busy_ns);
	EXPECT_EQ(1, e->capacity);
	e = drm_fdinfo_engine(fi, "video");
	ASSERT_NE(NULL, e);
	EXPECT_EQ(2, e->capacity);
	/* "video-enhance" is its own engine, not video's. */
	e = drm_fdinfo_engine(fi, "video-enhance");
	ASSERT_NE(NULL, e);
	EXPECT_TRUE(e->has_busy);
	EXPECT_EQ(0, fi->malformed);
	EXPECT_EQ(0, fi->unknown);
	/* Identity keys and pos/flags stay out of the stats string. */
	EXPECT_STREQ("drm-engine-render=25662044495 ns drm-engine-copy=0 ns "
		     "drm-engine-video=0 ns drm-engine-capacity-video=2 "
		     "drm-engine-video-enhance=0 ns", fi->stats);
}

/* Memory with and without units, the 6.1 drm-memory- and newer keys. */
TEST(memory_units)
{
	struct drm_fdinfo *fi = parse(
		"drm-driver: amdgpu\n"
		"drm-pdev: 0000:03:00.0\n"
		"drm-client-id: 12\n"
		"drm-memory-vram:\t1024 KiB\n"
		"drm-memory-gtt: \t 3 MiB\n"
		"drm-total-system:\t4096\n"
		"drm-shared-system:\t2 KiB\n"
		"drm-resident-vram:\t1 GiB\n"
		"drm-purgeable-vram:\t0\n"
		"drm-active-vram:\t5 MiB\n"
		"amd-memory-visible-vram:\t7 KiB\n"
		"amd-evicted-vram:\t0 KiB\n");
	const struct drm_fdinfo_region *r;

	EXPECT_EQ(0, fi->malformed);
	r = drm_fdinfo_region(fi, "vram");
	ASSERT_NE(NULL, r);
	EXPECT_EQ(1024ull << 10, r->bytes[DRM_MEM_LEGACY]);
	EXPECT_EQ(1ull << 30, r->bytes[DRM_MEM_RESIDENT]);
	EXPECT_TRUE(r->has[DRM_MEM_PURGEABLE]);
	EXPECT_EQ(0, r->bytes[DRM_MEM_PURGEABLE]);
	EXPECT_EQ(5ull << 20, r->bytes[DRM_MEM_ACTIVE]);
	EXPECT_FALSE(r->has[DRM_MEM_TOTAL]);
	r = drm_fdinfo_region(fi, "gtt");
	ASSERT_NE(NULL, r);
	EXPECT_EQ(3ull << 20, r->bytes[DRM_MEM_LEGACY]);
	r = drm_fdinfo_region(fi, "system");
	ASSERT_NE(NULL, r);
	EXPECT_EQ(4096, r->bytes[DRM_MEM_TOTAL]);
	EXPECT_EQ(2048, r->bytes[DRM_MEM_SHARED]);
	EXPECT_EQ(3, fi->nr_regions);
	/* amdgpu's own keys go in the string untouched, but "amd-" is not
	 * the driver's prefix ("amdgpu-"): those are not DRM's, left out. */
	EXPECT_EQ(NULL, strstr(fi->stats, "amd-"));
	EXPECT_NE(NULL, strstr(fi->stats, "drm-memory-gtt=3 MiB"));
}

/* msm's cycles and maxfreq; driver-prefixed keys kept as they are. */
TEST(cycles_maxfreq)
{
	struct drm_fdinfo *fi = parse(
		"drm-driver:\tmsm\n"
		"drm-client-id:\t3\n"
		"drm-engine-gpu:\t1000 ns\n"
		"drm-cycles-gpu:\t123456\n"
		"drm-total-cycles-gpu:\t999999\n"
		"drm-maxfreq-gpu:\t800 MHz\n"
		"drm-maxfreq-npu:\t5 KHz\n"
		"msm-foo:\tbar baz\n"
		"drm-brand-new-key:\t17 widgets\n");
	const struct drm_fdinfo_engine *e;

	EXPECT_EQ(0, fi->malformed);
	EXPECT_EQ(1, fi->unknown);
	EXPECT_STREQ("", fi->pdev);
	e = drm_fdinfo_engine(fi, "gpu");
	ASSERT_NE(NULL, e);
	EXPECT_EQ(1000, e->busy_ns);
	EXPECT_EQ(123456, e->cycles);
	EXPECT_EQ(999999, e->total_cycles);
	EXPECT_TRUE(e->has_cycles);
	EXPECT_TRUE(e->has_total_cycles);
	EXPECT_EQ(800000000ull, e->maxfreq_hz);
	e = drm_fdinfo_engine(fi, "npu");
	ASSERT_NE(NULL, e);
	EXPECT_EQ(5000, e->maxfreq_hz);
	EXPECT_FALSE(e->has_busy);
	/* No region was made of drm-total-cycles-gpu. */
	EXPECT_EQ(0, fi->nr_regions);
	EXPECT_NE(NULL, strstr(fi->stats, "msm-foo=bar baz"));
	EXPECT_NE(NULL, strstr(fi->stats, "drm-brand-new-key=17 widgets"));
}

/* Broken lines are counted and skipped; the good ones still count. */
TEST(malformed)
{
	static const char text[] =
		"drm-driver:\tvgem\n"
		"garbage without a colon\n"
		":\tno key\n"
		"drm-client-id:\tnot-a-number\n"
		"drm-engine-render:\t12 parsecs\n"
		"drm-engine-copy:\t-5 ns\n"
		"drm-engine-capacity-copy:\t0\n"
		"drm-memory-vram:\t99999999999999999999999 KiB\n"
		"drm-memory-gtt:\t18446744073709551615 KiB\n"
		"drm-maxfreq-gpu:\t5 THz\n"
		"drm-engine-ok:\t5 ns\n"
		"drm-pdev:\n"
		"drm key with spaces:\t1\n"
		"\n\n\t\n"
		"drm-engine-x\n"
		"drm-engine-last:\t7 ns";	/* no final newline */
	struct drm_fdinfo *fi = parse(text);

	EXPECT_STREQ("vgem", fi->driver);
	EXPECT_FALSE(fi->has_client_id);
	/* All but the blank lines and the two good ones. */
	EXPECT_EQ(12, fi->malformed);
	ASSERT_EQ(2, fi->nr_engines);
	EXPECT_EQ(5, drm_fdinfo_engine(fi, "ok")->busy_ns);
	EXPECT_EQ(7, drm_fdinfo_engine(fi, "last")->busy_ns);
	EXPECT_EQ(0, fi->nr_regions);
	EXPECT_STREQ("drm-engine-ok=5 ns drm-engine-last=7 ns", fi->stats);
}

/* Not a DRM client, empty, binary junk, NUL bytes: no crash, no client. */
TEST(not_drm)
{
	static const char junk[] = "pos:\t0\0drm-driver:\tx\n\xff\xfe:\x01\n";
	struct drm_fdinfo fi;
	char *big;
	size_t i;

	EXPECT_FALSE(drm_fdinfo_is_client(parse("pos:\t0\nflags:\t0\n")));
	EXPECT_FALSE(drm_fdinfo_is_client(parse("")));
	drm_fdinfo_parse(NULL, 0, &fi);
	EXPECT_FALSE(drm_fdinfo_is_client(&fi));
	drm_fdinfo_parse(junk, sizeof(junk) - 1, &fi);
	/* The NUL ends no line: "0\0drm-driver" is one odd value of pos. */
	EXPECT_FALSE(drm_fdinfo_is_client(&fi));
	/* A driver name too long to be one is refused. */
	EXPECT_FALSE(drm_fdinfo_is_client(parse(
		"drm-driver:\taaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n")));
	/* Many engines and a long text: capped, not overrun. */
	big = malloc(200 * 64);
	ASSERT_NE(NULL, big);
	big[0] = '\0';
	strcat(big, "drm-driver:\tx\n");
	for (i = 0; i < 100; i++)
		sprintf(big + strlen(big), "drm-engine-e%zu:\t%zu ns\n", i, i);
	drm_fdinfo_parse(big, strlen(big), &fi);
	EXPECT_EQ(DRM_FDINFO_MAX, fi.nr_engines);
	EXPECT_LT(strlen(fi.stats), sizeof(fi.stats));
	free(big);
}

/* Two fds of one client, and of two. */
TEST(same_client)
{
	static const char a[] = "drm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\ndrm-client-id:\t5\n";
	static const char b[] = "drm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\ndrm-client-id:\t5\ndrm-engine-render:\t1 ns\n";
	static const char c[] = "drm-driver:\ti915\ndrm-pdev:\t0000:00:03.0\ndrm-client-id:\t5\n";
	static const char d[] = "drm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\n";
	struct drm_fdinfo x, y;

	drm_fdinfo_parse(a, strlen(a), &x);
	drm_fdinfo_parse(b, strlen(b), &y);
	EXPECT_TRUE(drm_fdinfo_same_client(&x, &y));
	drm_fdinfo_parse(c, strlen(c), &y);
	EXPECT_FALSE(drm_fdinfo_same_client(&x, &y));
	/* Without drm-client-id nothing can be matched. */
	drm_fdinfo_parse(d, strlen(d), &y);
	EXPECT_FALSE(drm_fdinfo_same_client(&y, &y));
}

/*
 * amdgpu as 6.1 prints it (amdgpu_fdinfo.c): pasid first, memory in KiB,
 * and a stray space between the colon and the tab of gtt and cpu.
 */
TEST(amdgpu_61)
{
	struct drm_fdinfo *fi = parse(
		"pos:\t0\nflags:\t02100002\nmnt_id:\t24\nino:\t977\n"
		"pasid:\t32771\n"
		"drm-driver:\tamdgpu\n"
		"drm-pdev:\t0000:0b:00.0\n"
		"drm-client-id:\t301\n"
		"drm-memory-vram:\t52224 KiB\n"
		"drm-memory-gtt: \t6144 KiB\n"
		"drm-memory-cpu: \t0 KiB\n"
		"drm-engine-gfx:\t9876543210 ns\n"
		"drm-engine-dma:\t1200 ns\n"
		"drm-engine-dec:\t5 ns\n");
	const struct drm_fdinfo_region *r;

	EXPECT_STREQ("amdgpu", fi->driver);
	EXPECT_STREQ("0000:0b:00.0", fi->pdev);
	EXPECT_EQ(301, fi->client_id);
	EXPECT_EQ(0, fi->malformed);
	EXPECT_EQ(0, fi->unknown);
	ASSERT_EQ(3, fi->nr_regions);
	r = drm_fdinfo_region(fi, "gtt");
	ASSERT_NE(NULL, r);
	EXPECT_TRUE(r->has[DRM_MEM_LEGACY]);
	EXPECT_EQ(6144ull * 1024, r->bytes[DRM_MEM_LEGACY]);
	r = drm_fdinfo_region(fi, "cpu");
	ASSERT_NE(NULL, r);
	EXPECT_TRUE(r->has[DRM_MEM_LEGACY]);
	EXPECT_EQ(0, r->bytes[DRM_MEM_LEGACY]);
	EXPECT_EQ(52224ull * 1024, drm_fdinfo_region(fi, "vram")->bytes[DRM_MEM_LEGACY]);
	ASSERT_EQ(3, fi->nr_engines);
	EXPECT_EQ(9876543210ull, drm_fdinfo_engine(fi, "gfx")->busy_ns);
	/* pasid is amdgpu's but not "amdgpu-" prefixed: not kept. */
	EXPECT_EQ(NULL, strstr(fi->stats, "pasid"));
	EXPECT_NE(NULL, strstr(fi->stats, "drm-memory-gtt=6144 KiB"));
}

/*
 * xe (xe_drm_client.c): memory per region with all the newer kinds,
 * busy cycles per engine class against the GPU timestamp, capacity for
 * classes of several instances.
 */
TEST(xe_cycles_total)
{
	struct drm_fdinfo *fi = parse(
		"pos:\t0\nflags:\t0100002\nmnt_id:\t26\nino:\t688\n"
		"drm-driver:\txe\n"
		"drm-client-id:\t19\n"
		"drm-pdev:\t0000:03:00.0\n"
		"drm-total-system:\t0\n"
		"drm-shared-system:\t0\n"
		"drm-active-system:\t0\n"
		"drm-resident-system:\t0\n"
		"drm-purgeable-system:\t0\n"
		"drm-total-gtt:\t256 KiB\n"
		"drm-resident-gtt:\t256 KiB\n"
		"drm-total-vram0:\t40960 KiB\n"
		"drm-shared-vram0:\t8 MiB\n"
		"drm-resident-vram0:\t40960 KiB\n"
		"drm-cycles-rcs:\t31415926\n"
		"drm-total-cycles-rcs:\t8000000000\n"
		"drm-cycles-bcs:\t0\n"
		"drm-total-cycles-bcs:\t8000000000\n"
		"drm-cycles-ccs:\t77\n"
		"drm-total-cycles-ccs:\t8000000000\n"
		"drm-engine-capacity-ccs:\t4\n");
	const struct drm_fdinfo_engine *e;
	const struct drm_fdinfo_region *r;

	EXPECT_EQ(0, fi->malformed);
	EXPECT_EQ(0, fi->unknown);
	EXPECT_EQ(19, fi->client_id);
	ASSERT_EQ(3, fi->nr_engines);
	e = drm_fdinfo_engine(fi, "rcs");
	ASSERT_NE(NULL, e);
	EXPECT_FALSE(e->has_busy);
	EXPECT_TRUE(e->has_cycles);
	EXPECT_TRUE(e->has_total_cycles);
	EXPECT_EQ(31415926, e->cycles);
	EXPECT_EQ(8000000000ull, e->total_cycles);
	EXPECT_EQ(1, e->capacity);
	EXPECT_EQ(4, drm_fdinfo_engine(fi, "ccs")->capacity);
	/* drm-total-cycles- made no region "cycles-rcs". */
	ASSERT_EQ(3, fi->nr_regions);
	r = drm_fdinfo_region(fi, "vram0");
	ASSERT_NE(NULL, r);
	EXPECT_EQ(40960ull << 10, r->bytes[DRM_MEM_TOTAL]);
	EXPECT_EQ(8ull << 20, r->bytes[DRM_MEM_SHARED]);
	EXPECT_EQ(40960ull << 10, r->bytes[DRM_MEM_RESIDENT]);
	EXPECT_FALSE(r->has[DRM_MEM_ACTIVE]);
	r = drm_fdinfo_region(fi, "system");
	ASSERT_NE(NULL, r);
	EXPECT_TRUE(r->has[DRM_MEM_PURGEABLE]);
}

/*
 * xe of Linux 6.12 exactly as it prints a Battlemage client
 * (xe_drm_client.c, drm_file.c): the common keys, then per TTM region
 * in its order (system, gtt, vram0, vram1, stolen) total, shared,
 * active and resident, purgeable for system only, sizes divided by 1024
 * while they divide evenly (at most to MiB, else bare bytes); then per
 * engine class present, in enum order (rcs, vcs, vecs, bcs, other, ccs),
 * its cycles and the one GPU timestamp as total cycles, and capacity for
 * a class of several engines.  vram1 is a second tile's.
 */
TEST(xe_612_every_key_and_region)
{
	struct drm_fdinfo *fi = parse(
		"drm-driver:\txe\n"
		"drm-client-id:\t7\n"
		"drm-pdev:\t0000:03:00.0\n"
		"drm-total-system:\t1536\n"
		"drm-shared-system:\t0\n"
		"drm-active-system:\t0\n"
		"drm-resident-system:\t1536\n"
		"drm-purgeable-system:\t1536\n"
		"drm-total-gtt:\t12 KiB\n"
		"drm-shared-gtt:\t0\n"
		"drm-active-gtt:\t4 KiB\n"
		"drm-resident-gtt:\t12 KiB\n"
		"drm-total-vram0:\t3 MiB\n"
		"drm-shared-vram0:\t1025 KiB\n"
		"drm-active-vram0:\t2 MiB\n"
		"drm-resident-vram0:\t3 MiB\n"
		"drm-total-vram1:\t5120 MiB\n"
		"drm-shared-vram1:\t0\n"
		"drm-active-vram1:\t0\n"
		"drm-resident-vram1:\t5120 MiB\n"
		"drm-total-stolen:\t0\n"
		"drm-shared-stolen:\t0\n"
		"drm-active-stolen:\t0\n"
		"drm-resident-stolen:\t0\n"
		"drm-cycles-rcs:\t100\n"
		"drm-total-cycles-rcs:\t123456789012\n"
		"drm-cycles-vcs:\t200\n"
		"drm-total-cycles-vcs:\t123456789012\n"
		"drm-engine-capacity-vcs:\t2\n"
		"drm-cycles-vecs:\t0\n"
		"drm-total-cycles-vecs:\t123456789012\n"
		"drm-cycles-bcs:\t3\n"
		"drm-total-cycles-bcs:\t123456789012\n"
		"drm-cycles-ccs:\t400\n"
		"drm-total-cycles-ccs:\t123456789012\n"
		"drm-engine-capacity-ccs:\t4\n");
	static const char *const classes[] = { "rcs", "vcs", "vecs", "bcs",
					       "ccs" };
	static const uint64_t cycles[] = { 100, 200, 0, 3, 400 };
	static const unsigned int capacity[] = { 1, 2, 1, 1, 4 };
	static const struct {
		const char *name;
		uint64_t total, shared, active, resident;
	} want[] = {
		{ "system", 1536, 0, 0, 1536 },
		{ "gtt", 12 << 10, 0, 4 << 10, 12 << 10 },
		{ "vram0", 3 << 20, 1025 << 10, 2 << 20, 3 << 20 },
		{ "vram1", 5120ull << 20, 0, 0, 5120ull << 20 },
		{ "stolen", 0, 0, 0, 0 },
	};
	const struct drm_fdinfo_engine *e;
	const struct drm_fdinfo_region *r;
	size_t i;

	EXPECT_EQ(0, fi->malformed);
	EXPECT_EQ(0, fi->unknown);
	EXPECT_EQ(7, fi->client_id);
	EXPECT_STREQ("xe", fi->driver);
	ASSERT_EQ(5, fi->nr_engines);
	for (i = 0; i < 5; i++) {
		e = drm_fdinfo_engine(fi, classes[i]);
		ASSERT_NE(NULL, e) TH_LOG("%s", classes[i]);
		EXPECT_TRUE(e->has_cycles && e->has_total_cycles);
		EXPECT_FALSE(e->has_busy);
		EXPECT_EQ(cycles[i], e->cycles) TH_LOG("%s", classes[i]);
		EXPECT_EQ(123456789012ull, e->total_cycles);
		EXPECT_EQ(capacity[i], e->capacity) TH_LOG("%s", classes[i]);
	}
	ASSERT_EQ(5, fi->nr_regions);
	for (i = 0; i < 5; i++) {
		r = drm_fdinfo_region(fi, want[i].name);
		ASSERT_NE(NULL, r) TH_LOG("%s", want[i].name);
		EXPECT_EQ(want[i].total, r->bytes[DRM_MEM_TOTAL]);
		EXPECT_EQ(want[i].shared, r->bytes[DRM_MEM_SHARED]);
		EXPECT_EQ(want[i].active, r->bytes[DRM_MEM_ACTIVE]);
		EXPECT_EQ(want[i].resident, r->bytes[DRM_MEM_RESIDENT]);
		EXPECT_TRUE(r->has[DRM_MEM_ACTIVE]) TH_LOG("%s", want[i].name);
		/* Only system memory can be purged. */
		EXPECT_EQ(!strcmp(want[i].name, "system"),
			  r->has[DRM_MEM_PURGEABLE]) TH_LOG("%s", want[i].name);
		EXPECT_FALSE(r->has[DRM_MEM_LEGACY]);
	}
	EXPECT_EQ(1536, drm_fdinfo_region(fi, "system")->bytes[DRM_MEM_PURGEABLE]);
}

/*
 * panfrost (Documentation/gpu/panfrost.rst): busy ns and cycles per
 * engine, maxfreq and curfreq, memory as the one region "memory".
 */
TEST(panfrost)
{
	struct drm_fdinfo *fi = parse(
		"drm-driver:\tpanfrost\n"
		"drm-client-id:\t28\n"
		"drm-engine-fragment:\t2000000000 ns\n"
		"drm-cycles-fragment:\t1500000000\n"
		"drm-maxfreq-fragment:\t800000000 Hz\n"
		"drm-curfreq-fragment:\t400000000 Hz\n"
		"drm-engine-vertex-tiler:\t60000000 ns\n"
		"drm-cycles-vertex-tiler:\t45000000\n"
		"drm-maxfreq-vertex-tiler:\t800 MHz\n"
		"drm-curfreq-vertex-tiler:\t400 MHz\n"
		"drm-total-memory:\t300 MiB\n"
		"drm-shared-memory:\t0 MiB\n"
		"drm-active-memory:\t200 MiB\n"
		"drm-resident-memory:\t40000 KiB\n"
		"drm-purgeable-memory:\t64 KiB\n");
	const struct drm_fdinfo_engine *e;
	const struct drm_fdinfo_region *r;

	EXPECT_EQ(0, fi->malformed);
	/* drm-curfreq- is not in the standard keys this parser knows. */
	EXPECT_EQ(2, fi->unknown);
	EXPECT_NE(NULL, strstr(fi->stats, "drm-curfreq-fragment=400000000 Hz"));
	ASSERT_EQ(2, fi->nr_engines);
	e = drm_fdinfo_engine(fi, "vertex-tiler");
	ASSERT_NE(NULL, e);
	EXPECT_EQ(60000000, e->busy_ns);
	EXPECT_EQ(45000000, e->cycles);
	EXPECT_EQ(800000000, e->maxfreq_hz);
	EXPECT_FALSE(e->has_total_cycles);
	EXPECT_EQ(800000000, drm_fdinfo_engine(fi, "fragment")->maxfreq_hz);
	ASSERT_EQ(1, fi->nr_regions);
	r = drm_fdinfo_region(fi, "memory");
	ASSERT_NE(NULL, r);
	EXPECT_EQ(300ull << 20, r->bytes[DRM_MEM_TOTAL]);
	EXPECT_EQ(200ull << 20, r->bytes[DRM_MEM_ACTIVE]);
	EXPECT_EQ(40000ull << 10, r->bytes[DRM_MEM_RESIDENT]);
	EXPECT_EQ(64ull << 10, r->bytes[DRM_MEM_PURGEABLE]);
}

/* msm as 6.1 prints it (msm_gpu.c): no pdev, cycles with maxfreq in Hz. */
TEST(msm_61)
{
	struct drm_fdinfo *fi = parse(
		"drm-driver:\tmsm\n"
		"drm-client-id:\t6\n"
		"drm-engine-gpu:\t4400000 ns\n"
		"drm-cycles-gpu:\t3000000\n"
		"drm-maxfreq-gpu:\t710000000 Hz\n");
	const struct drm_fdinfo_engine *e;

	EXPECT_EQ(0, fi->malformed);
	EXPECT_STREQ("", fi->pdev);
	e = drm_fdinfo_engine(fi, "gpu");
	ASSERT_NE(NULL, e);
	EXPECT_TRUE(e->has_busy);
	EXPECT_EQ(4400000, e->busy_ns);
	EXPECT_EQ(3000000, e->cycles);
	EXPECT_EQ(710000000, e->maxfreq_hz);
}

/* The largest values, one past them, and values without their units. */
TEST(huge_and_bare)
{
	struct drm_fdinfo *fi = parse(
		"drm-driver:\ti915\n"
		"drm-client-id:\t18446744073709551615\n"
		"drm-engine-render:\t18446744073709551615 ns\n"
		"drm-engine-copy:\t18446744073709551616 ns\n"
		"drm-cycles-copy:\t99999999999999999999\n"
		"drm-engine-video:\t77\n"
		"drm-memory-vram:\t17592186044415 MiB\n"
		"drm-memory-gtt:\t17592186044416 MiB\n"
		"drm-memory-cpu:\t100\n"
		"drm-maxfreq-video:\t1000\n"
		"drm-maxfreq-copy:\t18446744073709551615 KHz\n"
		"drm-engine-capacity-video:\t18446744073709551615\n");
	const struct drm_fdinfo_engine *e;

	EXPECT_EQ(18446744073709551615ull, fi->client_id);
	EXPECT_EQ(18446744073709551615ull,
		  drm_fdinfo_engine(fi, "render")->busy_ns);
	/* copy's busy, cycles and maxfreq and gtt's bytes overflow. */
	EXPECT_EQ(4, fi->malformed);
	EXPECT_EQ(NULL, drm_fdinfo_engine(fi, "copy"));
	e = drm_fdinfo_engine(fi, "video");
	ASSERT_NE(NULL, e);
	EXPECT_EQ(77, e->busy_ns);
	EXPECT_EQ(1000, e->maxfreq_hz);
	EXPECT_EQ(18446744073709551615ull, e->capacity);
	/* 2^44 - 1 MiB fits in 64 bits; 2^44 MiB does not. */
	EXPECT_EQ(17592186044415ull << 20,
		  drm_fdinfo_region(fi, "vram")->bytes[DRM_MEM_LEGACY]);
	EXPECT_EQ(NULL, drm_fdinfo_region(fi, "gtt"));
	EXPECT_EQ(100, drm_fdinfo_region(fi, "cpu")->bytes[DRM_MEM_LEGACY]);
}

/*
 * Parsing into a struct that held a larger text: only what the new text
 * says is there (the parser zeroes entries as it takes them, not all).
 */
TEST(reuse_struct)
{
	static const char big[] =
		"drm-driver:\txe\ndrm-pdev:\t0000:03:00.0\ndrm-client-id:\t4\n"
		"drm-cycles-rcs:\t10\ndrm-total-cycles-rcs:\t20\n"
		"drm-engine-capacity-rcs:\t3\ndrm-maxfreq-rcs:\t5 MHz\n"
		"drm-cycles-bcs:\t1\ndrm-total-vram0:\t4 KiB\n"
		"drm-resident-vram0:\t4 KiB\nbad line\n";
	static const char small[] =
		"drm-driver:\ti915\ndrm-engine-rcs:\t9 ns\n"
		"drm-memory-vram0:\t1\n";
	struct drm_fdinfo *fi = malloc(sizeof(*fi));
	const struct drm_fdinfo_engine *e;
	const struct drm_fdinfo_region *r;

	ASSERT_NE(NULL, fi);
	memset(fi, 0xa5, sizeof(*fi));
	drm_fdinfo_parse(big, strlen(big), fi);
	EXPECT_EQ(1, fi->malformed);
	drm_fdinfo_parse(small, strlen(small), fi);
	EXPECT_STREQ("i915", fi->driver);
	EXPECT_STREQ("", fi->pdev);
	EXPECT_FALSE(fi->has_client_id);
	EXPECT_EQ(0, fi->client_id);
	EXPECT_EQ(0, fi->malformed);
	ASSERT_EQ(1, fi->nr_engines);
	e = drm_fdinfo_engine(fi, "rcs");
	ASSERT_NE(NULL, e);
	EXPECT_EQ(9, e->busy_ns);
	EXPECT_FALSE(e->has_cycles);
	EXPECT_FALSE(e->has_total_cycles);
	EXPECT_EQ(0, e->cycles);
	EXPECT_EQ(1, e->capacity);
	EXPECT_EQ(0, e->maxfreq_hz);
	ASSERT_EQ(1, fi->nr_regions);
	r = drm_fdinfo_region(fi, "vram0");
	ASSERT_NE(NULL, r);
	EXPECT_FALSE(r->has[DRM_MEM_TOTAL]);
	EXPECT_FALSE(r->has[DRM_MEM_RESIDENT]);
	EXPECT_EQ(1, r->bytes[DRM_MEM_LEGACY]);
	EXPECT_STREQ("drm-engine-rcs=9 ns drm-memory-vram0=1", fi->stats);
	free(fi);
}

/*
 * What 7.3's drm_show_fdinfo() prints for a client that named itself
 * (DRM_IOCTL_SET_CLIENT_NAME): drm-client-name after drm-pdev, then the
 * driver's lines.  The name is the client's, not a stat: it goes first in
 * the stats string, which a gpu_client:fdinfo sample keeps, and once.
 */
TEST(client_name)
{
	struct drm_fdinfo *fi = parse(
		"pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t1061\n"
		"drm-driver:\ti915\n"
		"drm-client-id:\t7\n"
		"drm-pdev:\t0000:00:02.0\n"
		"drm-client-name:\tgears-main\n"
		"drm-engine-render:\t5000 ns\n"
		"drm-total-system0:\t8 KiB\n");
	char name[DRM_FDINFO_CLIENT_NAME + 1];

	ASSERT_TRUE(drm_fdinfo_is_client(fi));
	EXPECT_TRUE(fi->has_client_name);
	EXPECT_STREQ("gears-main", fi->client_name);
	EXPECT_EQ(7, fi->client_id);
	EXPECT_EQ(0, fi->malformed);
	EXPECT_EQ(0, fi->unknown);
	EXPECT_STREQ("drm-client-name=gears-main drm-engine-render=5000 ns "
		     "drm-total-system0=8 KiB", fi->stats);
	EXPECT_TRUE(drm_fdinfo_stats_client_name(fi->stats, name));
	EXPECT_STREQ("gears-main", name);

	/* Wherever the line is, the name goes first; any printable ASCII. */
	fi = parse("drm-driver:\tamdgpu\ndrm-client-id:\t3\n"
		   "drm-engine-gfx:\t1 ns\namdgpu-x:\t2\n"
		   "drm-client-name:\tq\"b\\s=1,2{}\n");
	EXPECT_STREQ("q\"b\\s=1,2{}", fi->client_name);
	EXPECT_STREQ("drm-client-name=q\"b\\s=1,2{} drm-engine-gfx=1 ns "
		     "amdgpu-x=2", fi->stats);
	EXPECT_TRUE(drm_fdinfo_stats_client_name(fi->stats, name));
	EXPECT_STREQ("q\"b\\s=1,2{}", name);
}

/* No name set (or a kernel before 6.14): none, and none in the stats. */
TEST(client_name_absent)
{
	struct drm_fdinfo *fi = parse(
		"drm-driver:\ti915\ndrm-client-id:\t7\n"
		"drm-engine-render:\t5000 ns\n");
	char name[DRM_FDINFO_CLIENT_NAME + 1] = "x";

	EXPECT_FALSE(fi->has_client_name);
	EXPECT_STREQ("", fi->client_name);
	EXPECT_STREQ("drm-engine-render=5000 ns", fi->stats);
	EXPECT_FALSE(drm_fdinfo_stats_client_name(fi->stats, name));
	EXPECT_STREQ("", name);
}

/*
 * Names the kernel would refuse (over 64 bytes, a blank or a byte that
 * is not printable ASCII inside, none at all): counted as malformed and
 * left out, the rest of the text taken.  64 bytes is still a name.
 */
TEST(client_name_malformed)
{
	static const char *const bad[] = {
		"drm-client-name:\t"
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
		"drm-client-name:\tgears main\n",
		"drm-client-name:\tgears\tmain\n",
		"drm-client-name:\tcaf\xc3\xa9\n",
		"drm-client-name:\tbell\x07\n",
		"drm-client-name:\t\n",
	};
	char text[512], name[DRM_FDINFO_CLIENT_NAME + 1];
	struct drm_fdinfo *fi;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text),
			 "drm-driver:\ti915\ndrm-client-id:\t7\n%s"
			 "drm-engine-render:\t5 ns\n", bad[i]);
		fi = parse(text);
		EXPECT_FALSE(fi->has_client_name) TH_LOG("case %zu", i);
		EXPECT_STREQ("", fi->client_name) TH_LOG("case %zu", i);
		EXPECT_EQ(1, fi->malformed) TH_LOG("case %zu", i);
		EXPECT_STREQ("drm-engine-render=5 ns", fi->stats) TH_LOG("case %zu", i);
		EXPECT_TRUE(drm_fdinfo_is_client(fi));
		EXPECT_EQ(1, fi->nr_engines);
	}
	/* Exactly 64: taken. */
	fi = parse("drm-driver:\ti915\ndrm-client-name:\t"
		   "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\n");
	EXPECT_TRUE(fi->has_client_name);
	EXPECT_EQ(64, strlen(fi->client_name));
	EXPECT_EQ(0, fi->malformed);
	EXPECT_TRUE(drm_fdinfo_stats_client_name(fi->stats, name));
	EXPECT_EQ(64, strlen(name));
}

/*
 * The name read back from a stats string, which a recording holds (any
 * file: checked): only as the first pair, and only a valid name.
 */
TEST(stats_client_name)
{
	static const struct {
		const char *stats, *name;
	} cases[] = {
		{ "drm-client-name=ui", "ui" },
		{ "drm-client-name=ui drm-engine-render=5 ns", "ui" },
		{ "drm-client-name=a=b drm-engine-render=5 ns", "a=b" },
		{ "", NULL },
		{ "drm-engine-render=5 ns drm-client-name=ui", NULL },
		{ "drm-client-name= drm-engine-render=5 ns", NULL },
		{ "drm-client-name=", NULL },
		{ "drm-client-nam=ui", NULL },
		{ "drm-client-name=caf\xc3\xa9", NULL },
		{ "drm-client-name="
		  "ccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc", NULL },
	};
	char name[DRM_FDINFO_CLIENT_NAME + 1];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		EXPECT_EQ(cases[i].name != NULL,
			  drm_fdinfo_stats_client_name(cases[i].stats, name))
			TH_LOG("case %zu", i);
		EXPECT_STREQ(cases[i].name ? cases[i].name : "", name)
			TH_LOG("case %zu", i);
	}
	EXPECT_FALSE(drm_fdinfo_stats_client_name(NULL, name));
}

/* The identity alone is what the full parse finds, bad lines and all. */
TEST(identity_matches_parse)
{
	static const char *const texts[] = {
		"drm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\ndrm-client-id:\t7\n",
		"drm-client-id:\t9\ndrm-engine-x:\t1 ns\ndrm-driver:\tmsm\n",
		"drm-driver:\tbad name\ndrm-driver:\tgood\ndrm-driver:\tlater\n"
		"drm-pdev:\t0000:00:03.0\ndrm-pdev:\t\ndrm-client-id:\tx\n"
		"drm-client-id:\t12\ndrm-client-id:\t-1\n",
		"drm-pdev :\t0000:00:02.0\ndrm-driver:\tv\ndrm-client-idx:\t5\n",
		"pos:\t0\nflags:\t02\n",
		"drm-driver:\tamdgpu\ndrm-pdev:\t0000:0b:00.0\ndrm-client-id:\t18446744073709551615\n",
		"drm-driver:\txe\ndrm-client-id:\t3\ndrm-client-name:\tfirst\n"
		"drm-client-name:\tbad name\ndrm-client-name:\tlast\n",
		"drm-client-name:\tui\ndrm-driver:\tv3d\n",
	};
	struct drm_fdinfo *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	size_t i;

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		drm_fdinfo_parse(texts[i], strlen(texts[i]), a);
		drm_fdinfo_parse_identity(texts[i], strlen(texts[i]), b);
		EXPECT_STREQ(a->driver, b->driver) TH_LOG("text %zu", i);
		EXPECT_STREQ(a->pdev, b->pdev) TH_LOG("text %zu", i);
		EXPECT_EQ(a->has_client_id, b->has_client_id) TH_LOG("text %zu", i);
		EXPECT_EQ(a->client_id, b->client_id) TH_LOG("text %zu", i);
		EXPECT_EQ(a->has_client_name, b->has_client_name) TH_LOG("text %zu", i);
		EXPECT_STREQ(a->client_name, b->client_name) TH_LOG("text %zu", i);
		EXPECT_EQ(0, b->nr_engines);
	}
	/* The seventh: the last good name, the bad one counted. */
	drm_fdinfo_parse(texts[6], strlen(texts[6]), a);
	EXPECT_STREQ("last", a->client_name);
	EXPECT_EQ(1, a->malformed);
	EXPECT_STREQ("drm-client-name=last", a->stats);
	/* The third: first good driver, last good pdev and client id. */
	drm_fdinfo_parse_identity(texts[2], strlen(texts[2]), b);
	EXPECT_STREQ("good", b->driver);
	EXPECT_STREQ("0000:00:03.0", b->pdev);
	EXPECT_EQ(12, b->client_id);
	free(a);
	free(b);
}

TEST_HARNESS_MAIN
