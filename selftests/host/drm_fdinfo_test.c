// SPDX-License-Identifier: GPL-2.0-only
/*
 * The drm-usage-stats parser of tools/perf-gpu (drm-fdinfo.c) on texts
 * written by hand after Documentation/gpu/drm-usage-stats.rst and what
 * i915, amdgpu and msm print, plus broken ones.  Expected values are
 * worked out by hand from the texts.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "../../tools/perf-gpu/drm-fdinfo.h"

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

TEST_HARNESS_MAIN
