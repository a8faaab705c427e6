// SPDX-License-Identifier: GPL-2.0-only
/*
 * The xe shim (selftests/xe-shim/xe_shim.c) as a program sees it: its
 * queries, STREAM_OPEN with every property the simulator needs and each
 * invalid chain with xe's errno, metric set registration, the stream's
 * reads and ioctls, and a forced loss.  Expected values are worked out
 * by hand from Linux 6.12's xe (the lead's .deps/xe-oa-facts.md), and
 * for a Panther Lake or GPUPROF_SHIM_KERNEL=7.3 from 7.3's xe_oa.c and
 * xe_query.c.
 *
 * The shim must be preloaded behind this program's own ASan runtime, so
 * main() runs the harness again under LD_PRELOAD="<libasan> <shim>"
 * (the shim: $GPUPROF_XE_SHIM, else selftests/out/libxe_shim.so).  Each
 * test runs in a process of its own and so starts with a fresh shim and
 * sets the shim's variables for itself.
 *
 * At 19.2 MHz exponent e samples every 2^(e+1) ticks: e = 17 is 262144
 * ticks, 13653333 ns; e = 13 is 16384 ticks, 853333 ns.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>

#include "../lib/harness.h"
#include "../lib/clock.h"
#include "../lib/asan.h"
#include "../lib/fake_sysfs.h"
#include "../lib/paths.h"
#include "../lib/run.h"
#include "../lib/shim_preload.h"
#include "../../module/oa_decode.h"
#include "../../tools/perf-gpu/oa/xe-uapi.h"

#define NODE "/dev/dri/renderD199"
#define UUID "01234567-89ab-cdef-0123-456789abcdef"
#define UUID2 "fedcba98-7654-3210-fedc-ba9876543210"
#define SET_ID 42			/* the fake sysfs's set */
#define PEC64U64 OA_XE_FORMAT(OA_XE_FMT_TYPE_PEC, 1, 1, 0)
#define MPEC8U32 OA_XE_FORMAT(OA_XE_FMT_TYPE_OAM_MPEC, 2, 0, 0)
#define REPORT 576
#define HZ 19200000ull
#define NSEC 1000000000ull
#define REEXEC_ENV "GPUPROF_XE_SHIM_TEST_PRELOADED"

static const char *xe_shim_path(void)
{
	static char path[PATH_MAX];

	return beside_exe(path, sizeof(path), "GPUPROF_XE_SHIM",
			  "../libxe_shim.so");
}

/* A property chain of up to 20 links, linked in order. */
struct chain {
	struct oa_xe_ext_set_property p[20];
	unsigned int n;
};

static void prop(struct chain *c, uint32_t property, uint64_t value)
{
	struct oa_xe_ext_set_property *e = &c->p[c->n];

	memset(e, 0, sizeof(*e));
	e->base.name = OA_XE_EXTENSION_SET_PROPERTY;
	e->property = property;
	e->value = value;
	if (c->n)
		c->p[c->n - 1].base.next_extension = (uintptr_t)e;
	c->n++;
}

/* What the simulator needs: unit 0, sampling, the set, PEC64u64, @e. */
static void valid_chain(struct chain *c, uint64_t exponent)
{
	c->n = 0;
	prop(c, OA_XE_PROP_OA_UNIT_ID, 0);
	prop(c, OA_XE_PROP_SAMPLE_OA, 1);
	prop(c, OA_XE_PROP_OA_METRIC_SET, SET_ID);
	prop(c, OA_XE_PROP_OA_FORMAT, PEC64U64);
	prop(c, OA_XE_PROP_OA_PERIOD_EXPONENT, exponent);
}

static int observe(int node, uint64_t op, void *param)
{
	struct oa_xe_observation_param p = {
		.observation_type = OA_XE_OBSERVATION_TYPE_OA,
		.observation_op = op, .param = (uintptr_t)param,
	};

	return ioctl(node, OA_XE_IOCTL_OBSERVATION, &p);
}

static int open_stream(int node, struct chain *c)
{
	return observe(node, OA_XE_OBSERVATION_OP_STREAM_OPEN, c->n ? c->p : NULL);
}

/* A query in two calls; the reply (malloc'ed) and its size. */
static void *query(int node, uint32_t id, uint32_t *size)
{
	struct oa_xe_device_query q = { .query = id };
	void *data;

	if (ioctl(node, OA_XE_IOCTL_DEVICE_QUERY, &q))
		return NULL;
	data = calloc(1, q.size);
	q.data = (uintptr_t)data;
	if (ioctl(node, OA_XE_IOCTL_DEVICE_QUERY, &q)) {
		free(data);
		return NULL;
	}
	*size = q.size;
	return data;
}

FIXTURE(xe) {
	char dir[64];
	char sys[128];
	char log[128];
	int node;
};

/* A sysfs whose card0 has one set, SET_ID; paranoid 1 with CAP_PERFMON. */
FIXTURE_SETUP(xe)
{
	strcpy(self->dir, "/tmp/gpuprof-xe-shim-test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->sys, sizeof(self->sys), "%s/sys", self->dir);
	snprintf(self->log, sizeof(self->log), "%s/log", self->dir);
	ASSERT_EQ(0, fake_i915_sysfs(self->sys,
				     &(struct fake_metric_set){ UUID2, SET_ID },
				     1, 0, 0)) TH_LOG("%s: %m", self->sys);
	setenv("GPUPROF_SYSFS_ROOT", self->sys, 1);
	setenv("GPUPROF_SHIM_LOG", self->log, 1);
	setenv("GPUPROF_SHIM_NODE", NODE, 1);
	setenv("GPUPROF_SHIM_PERFMON", "1", 1);
	unsetenv("GPUPROF_SHIM_PARANOID");
	unsetenv("GPUPROF_SHIM_LOSS_EVERY");
	self->node = open(NODE, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->node) TH_LOG("the shim is not preloaded: %m");
}

FIXTURE_TEARDOWN(xe)
{
	char out[256];

	close(self->node);
	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

TEST_F(xe, version_and_queries)
{
	char name[16] = { 0 };
	struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };
	struct oa_xe_device_query q = { .query = OA_XE_QUERY_CONFIG };
	const struct oa_xe_query_oa_units *units;
	const struct oa_xe_query_gt_list *gts;
	const struct oa_xe_query_config *cfg;
	const struct oa_xe_oa_unit *u;
	struct oa_xe_topology_mask m;
	uint8_t *topo;
	uint32_t size;

	ASSERT_EQ(0, ioctl(self->node, DRM_IOCTL_VERSION, &v));
	EXPECT_STREQ("xe", name);

	/* CONFIG: 8 bytes and 5 params; a size but the right one: EINVAL. */
	ASSERT_EQ(0, ioctl(self->node, OA_XE_IOCTL_DEVICE_QUERY, &q));
	EXPECT_EQ(48, q.size);
	q.size = 56;
	EXPECT_EQ(-1, ioctl(self->node, OA_XE_IOCTL_DEVICE_QUERY, &q));
	EXPECT_EQ(EINVAL, errno);
	cfg = query(self->node, OA_XE_QUERY_CONFIG, &size);
	ASSERT_NE(NULL, cfg);
	EXPECT_EQ(5, cfg->num_params);
	EXPECT_EQ(0x6420, cfg->info[OA_XE_CONFIG_REV_AND_DEVICE_ID] & 0xffff);
	free((void *)cfg);

	/* GT_LIST: 8 + 2 * 96 bytes, both GTs at 19.2 MHz. */
	gts = query(self->node, OA_XE_QUERY_GT_LIST, &size);
	ASSERT_NE(NULL, gts);
	EXPECT_EQ(8 + 2 * 96, size);
	EXPECT_EQ(2, gts->num_gt);
	EXPECT_EQ(OA_XE_GT_TYPE_MAIN, gts->gt_list[0].type);
	EXPECT_EQ(OA_XE_GT_TYPE_MEDIA, gts->gt_list[1].type);
	EXPECT_EQ(HZ, gts->gt_list[0].reference_clock);
	EXPECT_EQ(HZ, gts->gt_list[1].reference_clock);
	free((void *)gts);

	/*
	 * GT_TOPOLOGY: per GT, DSS geometry and compute (8 + 16 bytes),
	 * L3 banks and SIMD16 EUs (8 + 8), 80 bytes; a wrong size: EINVAL.
	 * GT 0: 8 Xe cores of 8 EUs; the media GT 1: no DSS.
	 */
	q = (struct oa_xe_device_query){ .query = OA_XE_QUERY_GT_TOPOLOGY };
	ASSERT_EQ(0, ioctl(self->node, OA_XE_IOCTL_DEVICE_QUERY, &q));
	EXPECT_EQ(160, q.size);
	q.size = 152;
	EXPECT_EQ(-1, ioctl(self->node, OA_XE_IOCTL_DEVICE_QUERY, &q));
	EXPECT_EQ(EINVAL, errno);
	topo = query(self->node, OA_XE_QUERY_GT_TOPOLOGY, &size);
	ASSERT_NE(NULL, topo);
	ASSERT_EQ(160, size);
	memcpy(&m, topo, sizeof(m));
	EXPECT_EQ(0, m.gt_id);
	EXPECT_EQ(OA_XE_TOPO_DSS_GEOMETRY, m.type);
	EXPECT_EQ(16, m.num_bytes);
	EXPECT_EQ(0xff, topo[8]);
	EXPECT_EQ(0, topo[9]);
	memcpy(&m, topo + 64, sizeof(m));
	EXPECT_EQ(OA_XE_TOPO_SIMD16_EU_PER_DSS, m.type);
	EXPECT_EQ(8, m.num_bytes);
	EXPECT_EQ(0xff, topo[72]);
	memcpy(&m, topo + 80, sizeof(m));
	EXPECT_EQ(1, m.gt_id);
	EXPECT_EQ(OA_XE_TOPO_DSS_GEOMETRY, m.type);
	EXPECT_EQ(0, topo[88]);
	free(topo);

	/* OA_UNITS: 16 + 2 * (72 + 2 * 8) bytes. */
	units = query(self->node, OA_XE_QUERY_OA_UNITS, &size);
	ASSERT_NE(NULL, units);
	EXPECT_EQ(16 + 2 * 88, size);
	EXPECT_EQ(2, units->num_oa_units);
	u = (const void *)units->oa_units;
	EXPECT_EQ(0, u->oa_unit_id);
	EXPECT_EQ(OA_XE_OA_UNIT_TYPE_OAG, u->oa_unit_type);
	EXPECT_EQ(HZ, u->oa_timestamp_freq);
	EXPECT_EQ(2, u->num_engines);
	EXPECT_EQ(OA_XE_ENGINE_CLASS_RENDER, u->eci[0].engine_class);
	EXPECT_EQ(OA_XE_ENGINE_CLASS_COMPUTE, u->eci[1].engine_class);
	u = (const void *)((const char *)u + 88);
	EXPECT_EQ(1, u->oa_unit_id);
	EXPECT_EQ(OA_XE_OA_UNIT_TYPE_OAM, u->oa_unit_type);
	EXPECT_EQ(HZ, u->oa_timestamp_freq);
	EXPECT_EQ(2, u->num_engines);
	EXPECT_EQ(2, u->eci[0].engine_class);	/* video decode */
	EXPECT_EQ(3, u->eci[1].engine_class);	/* video enhance */
	EXPECT_EQ(1, u->eci[0].gt_id);
	free((void *)units);
}

/* Open a stream of @c, check it opened (or its errno), close it. */
static int try_open(int node, struct chain *c)
{
	int fd = open_stream(node, c);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/*
 * A Panther Lake (0xB080) is played as 7.3's xe has it: GT_LIST's IP
 * 30.00, 12 Xe cores (DSS mask 0x0fff), and three OA units, 16 + 88 +
 * 72 + 88 = 264 bytes: OAG 0 (render, compute; GT 0), the media GT's
 * SAG unit 1 (OAM_SAG, no engine), its OAM 2 (decode, enhance), each
 * with gt_id and capabilities 0x3f.  STREAM_OPEN takes 7.3's two
 * properties as xe_oa.c checks them: OA_BUFFER_SIZE a power of two from
 * 128 KiB to 128 MiB, WAIT_NUM_REPORTS not 0 and at most what the
 * buffer holds (131072 / 576 = 227 reports); property 14 and above
 * EINVAL.  Under 6.12 the same two are EINVAL, and a Panther Lake's
 * node does not open (ENXIO).
 */
TEST_F(xe, panther_lake_as_7_3_lists_it)
{
	const struct oa_xe_query_oa_units *units;
	const struct oa_xe_query_gt_list *gts;
	const struct oa_xe_query_config *cfg;
	struct oa_xe_oa_stream_info info;
	const struct oa_xe_oa_unit *u;
	struct chain c;
	uint8_t *topo;
	uint32_t size;
	int node, fd;

	setenv("GPUPROF_SHIM_DEVICE_ID", "0xb080", 1);
	unsetenv("GPUPROF_SHIM_KERNEL");
	node = open(NODE, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, node);
	cfg = query(node, OA_XE_QUERY_CONFIG, &size);
	ASSERT_NE(NULL, cfg);
	EXPECT_EQ(0xb080, cfg->info[OA_XE_CONFIG_REV_AND_DEVICE_ID] & 0xffff);
	free((void *)cfg);
	gts = query(node, OA_XE_QUERY_GT_LIST, &size);
	ASSERT_NE(NULL, gts);
	EXPECT_EQ(30, gts->gt_list[0].ip_ver_major);
	EXPECT_EQ(0, gts->gt_list[0].ip_ver_minor);
	EXPECT_EQ(30, gts->gt_list[1].ip_ver_major);
	free((void *)gts);
	topo = query(node, OA_XE_QUERY_GT_TOPOLOGY, &size);
	ASSERT_NE(NULL, topo);
	EXPECT_EQ(0xff, topo[8]);
	EXPECT_EQ(0x0f, topo[9]);
	free(topo);

	units = query(node, OA_XE_QUERY_OA_UNITS, &size);
	ASSERT_NE(NULL, units);
	EXPECT_EQ(264, size);
	EXPECT_EQ(3, units->num_oa_units);
	u = (const void *)units->oa_units;
	EXPECT_EQ(OA_XE_OA_UNIT_TYPE_OAG, u->oa_unit_type);
	EXPECT_EQ(0x3f, u->capabilities);
	EXPECT_EQ(0, u->gt_id);
	EXPECT_EQ(2, u->num_engines);
	u = (const void *)((const char *)u + 88);
	EXPECT_EQ(1, u->oa_unit_id);
	EXPECT_EQ(OA_XE_OA_UNIT_TYPE_OAM_SAG, u->oa_unit_type);
	EXPECT_EQ(0x3f, u->capabilities);
	EXPECT_EQ(1, u->gt_id);
	EXPECT_EQ(0, u->num_engines);
	u = (const void *)((const char *)u + 72);
	EXPECT_EQ(2, u->oa_unit_id);
	EXPECT_EQ(OA_XE_OA_UNIT_TYPE_OAM, u->oa_unit_type);
	EXPECT_EQ(1, u->gt_id);
	EXPECT_EQ(2, u->num_engines);
	EXPECT_EQ(2, u->eci[0].engine_class);	/* video decode */
	free((void *)units);

	valid_chain(&c, 17);
	prop(&c, OA_XE_PROP_OA_BUFFER_SIZE, 128 << 10);
	prop(&c, OA_XE_PROP_WAIT_NUM_REPORTS, 227);
	fd = open_stream(node, &c);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, OA_XE_STREAM_IOCTL_INFO, &info));
	EXPECT_EQ(128 << 10, info.oa_buf_size);
	close(fd);
	c.p[6].value = 228;
	EXPECT_EQ(-EINVAL, try_open(node, &c));
	c.p[6].value = 0;
	EXPECT_EQ(-EINVAL, try_open(node, &c));
	c.p[6].value = 1;
	c.p[5].value = 100000;
	EXPECT_EQ(-EINVAL, try_open(node, &c));
	c.p[5].value = 64 << 10;
	EXPECT_EQ(-EINVAL, try_open(node, &c));
	c.p[5].value = 256 << 20;
	EXPECT_EQ(-EINVAL, try_open(node, &c));
	c.p[5].value = 128 << 20;
	EXPECT_EQ(0, try_open(node, &c));
	c.p[5].property = 14;
	EXPECT_EQ(-EINVAL, try_open(node, &c));
	/* Unit 3 is past the three. */
	valid_chain(&c, 17);
	c.p[0].value = 3;
	EXPECT_EQ(-EINVAL, try_open(node, &c));
	close(node);

	/* 6.12: no such properties, and no Panther Lake. */
	setenv("GPUPROF_SHIM_KERNEL", "6.12", 1);
	EXPECT_EQ(-1, open(NODE, O_RDWR | O_CLOEXEC));
	EXPECT_EQ(ENXIO, errno);
	unsetenv("GPUPROF_SHIM_DEVICE_ID");
	valid_chain(&c, 17);
	EXPECT_EQ(0, try_open(self->node, &c));
	prop(&c, OA_XE_PROP_OA_BUFFER_SIZE, 128 << 10);
	EXPECT_EQ(-EINVAL, try_open(self->node, &c));
	c.p[5].property = OA_XE_PROP_WAIT_NUM_REPORTS;
	c.p[5].value = 1;
	EXPECT_EQ(-EINVAL, try_open(self->node, &c));
	/* A Lunar Lake under 7.3 takes them. */
	setenv("GPUPROF_SHIM_KERNEL", "7.3", 1);
	EXPECT_EQ(0, try_open(self->node, &c));
	unsetenv("GPUPROF_SHIM_KERNEL");
}

/*
 * ENGINE_CYCLES: 40 bytes; a clock xe does not take and an engine the
 * GPU lacks are EINVAL; the cycles are CLOCK_MONOTONIC at 19.2 MHz, 64
 * bits wide, sampled at cpu_timestamp (within the read's cpu_delta).
 */
TEST_F(xe, engine_cycles)
{
	struct oa_xe_query_engine_cycles c = { .clockid = CLOCK_MONOTONIC };
	struct oa_xe_device_query q = {
		.query = OA_XE_QUERY_ENGINE_CYCLES, .data = (uintptr_t)&c,
	};
	uint64_t want;

	ASSERT_EQ(0, ioctl(self->node, OA_XE_IOCTL_DEVICE_QUERY, &q));
	EXPECT_EQ(40, q.size);
	ASSERT_EQ(0, ioctl(self->node, OA_XE_IOCTL_DEVICE_QUERY, &q));
	EXPECT_EQ(64, c.width);
	want = c.cpu_timestamp * 12 / 625;
	EXPECT_LE(want, c.engine_cycles);
	EXPECT_LE(c.engine_cycles, want + (c.cpu_delta * 12 / 625) + 1);
	c.clockid = CLOCK_PROCESS_CPUTIME_ID;
	EXPECT_EQ(-1, ioctl(self->node, OA_XE_IOCTL_DEVICE_QUERY, &q));
	EXPECT_EQ(EINVAL, errno);
	c.clockid = CLOCK_BOOTTIME;
	EXPECT_EQ(0, ioctl(self->node, OA_XE_IOCTL_DEVICE_QUERY, &q));
	c.eci.engine_class = OA_XE_ENGINE_CLASS_COMPUTE;
	c.eci.gt_id = 1;		/* compute is on the main GT */
	EXPECT_EQ(-1, ioctl(self->node, OA_XE_IOCTL_DEVICE_QUERY, &q));
	EXPECT_EQ(EINVAL, errno);
	q.size = 32;
	EXPECT_EQ(-1, ioctl(self->node, OA_XE_IOCTL_DEVICE_QUERY, &q));
	EXPECT_EQ(EINVAL, errno);
}

/*
 * The open the simulator needs: an fd without O_NONBLOCK and O_CLOEXEC,
 * each link in the log, INFO's 16 MiB; then the fd passes fcntl's flags.
 */
TEST_F(xe, open_with_every_property_the_simulator_needs)
{
	struct oa_xe_oa_stream_info info;
	struct chain c;
	char log[1024] = { 0 }, want[512];
	int fd, flags;
	FILE *f;

	valid_chain(&c, 17);
	prop(&c, OA_XE_PROP_OA_DISABLED, 0);
	fd = open_stream(self->node, &c);
	ASSERT_LE(0, fd) TH_LOG("%m");
	flags = fcntl(fd, F_GETFL);
	EXPECT_EQ(0, flags & O_NONBLOCK);
	EXPECT_EQ(0, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	EXPECT_EQ(0, fcntl(fd, F_SETFL, flags | O_NONBLOCK));
	EXPECT_EQ(O_NONBLOCK, fcntl(fd, F_GETFL) & O_NONBLOCK);
	ASSERT_EQ(0, ioctl(fd, OA_XE_STREAM_IOCTL_INFO, &info));
	EXPECT_EQ(16u << 20, info.oa_buf_size);
	f = fopen(self->log, "r");
	ASSERT_NE(NULL, f);
	EXPECT_LT(0, fread(log, 1, sizeof(log) - 1, f));
	fclose(f);
	snprintf(want, sizeof(want),
		 "prop 1 0\nprop 2 1\nprop 3 %d\nprop 4 %u\nprop 5 17\n"
		 "prop 6 0\nopen %d\n", SET_ID, PEC64U64, fd);
	EXPECT_STREQ(want, log);
	EXPECT_EQ(0, close(fd));
}

/* How a chain differs from the valid one, and xe's answer. */
enum change {
	LINKS_17, LINKS_16, LINK_PAD, EXT_NAME, PROP_0, PROP_12, PROP_PAD,
	UNIT_2, EXPONENT_32, FORMAT_I915, NUM_SYNCS_1025, EXEC_QUEUE,
	EXEC_QUEUE_UNPRIVILEGED, NO_PREEMPT, PARANOID, PARANOID_0,
	NO_SAMPLE, PERIOD_WITHOUT_SAMPLE, NO_FORMAT, MPEC_ON_OAG, PEC_ON_OAM,
	NO_METRIC_SET, UNKNOWN_METRIC_SET, SYNCS_WITHOUT_ARRAY, BUSY,
	BUSY_BEFORE_METRIC_SET,
};

static const struct {
	enum change change;
	int err;		/* 0: the open succeeds */
	const char *what;
} open_cases[] = {
	{ LINKS_17, E2BIG, "a 17th link" },
	{ LINKS_16, 0, "16 links" },
	{ LINK_PAD, EINVAL, "a link's pad" },
	{ EXT_NAME, EINVAL, "an extension name but SET_PROPERTY" },
	{ PROP_0, EINVAL, "property 0" },
	{ PROP_12, EINVAL, "property 12" },
	{ PROP_PAD, EINVAL, "a property's pad" },
	{ UNIT_2, EINVAL, "unit 2 of 2" },
	{ EXPONENT_32, EINVAL, "exponent 32" },
	{ FORMAT_I915, EINVAL, "format 0x0500, not Xe2's" },
	{ NUM_SYNCS_1025, EINVAL, "1025 syncs" },
	{ EXEC_QUEUE, ENOENT, "an exec queue" },
	{ EXEC_QUEUE_UNPRIVILEGED, ENOENT, "an exec queue, before privilege" },
	{ NO_PREEMPT, EINVAL, "NO_PREEMPT without an exec queue" },
	{ PARANOID, EACCES, "paranoid without CAP_PERFMON" },
	{ PARANOID_0, 0, "paranoid 0 without CAP_PERFMON" },
	{ NO_SAMPLE, EINVAL, "no SAMPLE_OA" },
	{ PERIOD_WITHOUT_SAMPLE, EINVAL, "a period with SAMPLE_OA 0" },
	{ NO_FORMAT, EINVAL, "no format" },
	{ MPEC_ON_OAG, EINVAL, "the media format on OAG" },
	{ PEC_ON_OAM, EINVAL, "PEC64u64 on OAM" },
	{ NO_METRIC_SET, EINVAL, "no metric set" },
	{ UNKNOWN_METRIC_SET, EINVAL, "metric set 7, not registered" },
	{ SYNCS_WITHOUT_ARRAY, EINVAL, "NUM_SYNCS without SYNCS" },
	{ BUSY, EBUSY, "a second stream on unit 0" },
	{ BUSY_BEFORE_METRIC_SET, EBUSY, "busy, checked before the set" },
};

/* The chain of @change, built on the valid one. */
static void changed_chain(struct chain *c, enum change change)
{
	valid_chain(c, 17);
	switch (change) {
	case LINKS_17:
	case LINKS_16:
		while (c->n < (change == LINKS_17 ? 17u : 16u))
			prop(c, OA_XE_PROP_OA_DISABLED, 0);
		break;
	case LINK_PAD:
		c->p[2].base.pad = 1;
		break;
	case EXT_NAME:
		c->p[2].base.name = 1;
		break;
	case PROP_0:
		prop(c, 0, 0);
		break;
	case PROP_12:
		prop(c, 12, 0);
		break;
	case PROP_PAD:
		c->p[1].pad = 1;
		break;
	case UNIT_2:
		c->p[0].value = 2;
		break;
	case EXPONENT_32:
		c->p[4].value = 32;
		break;
	case FORMAT_I915:
		c->p[3].value = OA_XE_FORMAT(OA_XE_FMT_TYPE_OAG, 5, 0, 0);
		break;
	case NUM_SYNCS_1025:
		prop(c, OA_XE_PROP_NUM_SYNCS, 1025);
		break;
	case EXEC_QUEUE:
		prop(c, OA_XE_PROP_EXEC_QUEUE_ID, 5);
		break;
	case EXEC_QUEUE_UNPRIVILEGED:
		prop(c, OA_XE_PROP_EXEC_QUEUE_ID, 5);
		unsetenv("GPUPROF_SHIM_PERFMON");
		break;
	case NO_PREEMPT:
		prop(c, OA_XE_PROP_NO_PREEMPT, 1);
		break;
	case PARANOID:
		unsetenv("GPUPROF_SHIM_PERFMON");
		break;
	case PARANOID_0:
		unsetenv("GPUPROF_SHIM_PERFMON");
		setenv("GPUPROF_SHIM_PARANOID", "0", 1);
		break;
	case NO_SAMPLE:
		c->p[1].property = OA_XE_PROP_OA_DISABLED;
		c->p[4].property = OA_XE_PROP_OA_DISABLED;
		break;
	case PERIOD_WITHOUT_SAMPLE:
		c->p[1].value = 0;
		break;
	case NO_FORMAT:
		c->p[3].property = OA_XE_PROP_OA_DISABLED;
		c->p[3].value = 0;
		break;
	case MPEC_ON_OAG:
		c->p[3].value = MPEC8U32;
		break;
	case PEC_ON_OAM:
		c->p[0].value = 1;
		break;
	case NO_METRIC_SET:
		c->p[2].property = OA_XE_PROP_OA_DISABLED;
		c->p[2].value = 0;
		break;
	case UNKNOWN_METRIC_SET:
		c->p[2].value = 7;
		break;
	case SYNCS_WITHOUT_ARRAY:
		prop(c, OA_XE_PROP_NUM_SYNCS, 1);
		break;
	case BUSY:
		break;
	case BUSY_BEFORE_METRIC_SET:
		c->p[2].value = 7;
		break;
	}
}

TEST_F(xe, each_invalid_open_has_its_errno)
{
	struct chain c, first;
	size_t i;
	int fd, busy;

	for (i = 0; i < sizeof(open_cases) / sizeof(open_cases[0]); i++) {
		busy = -1;
		setenv("GPUPROF_SHIM_PERFMON", "1", 1);
		unsetenv("GPUPROF_SHIM_PARANOID");
		if (open_cases[i].change == BUSY ||
		    open_cases[i].change == BUSY_BEFORE_METRIC_SET) {
			valid_chain(&first, 17);
			busy = open_stream(self->node, &first);
			ASSERT_LE(0, busy);
		}
		changed_chain(&c, open_cases[i].change);
		errno = 0;
		fd = open_stream(self->node, &c);
		if (open_cases[i].err) {
			EXPECT_EQ(-1, fd) TH_LOG("%s", open_cases[i].what);
			EXPECT_EQ(open_cases[i].err, errno)
				TH_LOG("%s: %s", open_cases[i].what, strerror(errno));
		} else {
			EXPECT_LE(0, fd) TH_LOG("%s: %m", open_cases[i].what);
		}
		if (fd >= 0)
			close(fd);
		if (busy >= 0)
			close(busy);
	}
}

static int add_config(int node, const char *uuid, uint32_t n_regs)
{
	struct oa_xe_oa_reg regs[1] = { { 0xdead, 1 } };
	struct oa_xe_oa_config c = {
		.n_regs = n_regs, .regs_ptr = (uintptr_t)regs,
	};

	memcpy(c.uuid, uuid, 36);
	return observe(node, OA_XE_OBSERVATION_OP_ADD_CONFIG, &c);
}

static int remove_config(int node, uint64_t id)
{
	return observe(node, OA_XE_OBSERVATION_OP_REMOVE_CONFIG, &id);
}

/* The id in sysfs of @uuid, -1 when it has none. */
static long sysfs_id(const char *sys, const char *uuid)
{
	char path[512];
	long id = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/class/drm/card0/metrics/%s/id", sys,
		 uuid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &id) != 1)
		id = -1;
	fclose(f);
	return id;
}

/*
 * The fake sysfs has UUID2 at 42: a new uuid gets the lowest free id, 1,
 * and its sysfs entry; it again is EADDRINUSE, as is UUID2; bad uuids,
 * no registers and no CAP_PERFMON are refused; a removed id is free
 * again and gone from sysfs; an unknown one is ENOENT.
 */
TEST_F(xe, add_and_remove_config)
{
	const char *bad = "01234567-89ab-cdef-0123_456789abcdef";
	const char *uuid3 = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee";
	struct chain c;
	int fd;

	EXPECT_EQ(1, add_config(self->node, UUID, 1));
	EXPECT_EQ(1, sysfs_id(self->sys, UUID));
	EXPECT_EQ(-1, add_config(self->node, UUID, 1));
	EXPECT_EQ(EADDRINUSE, errno);
	EXPECT_EQ(-1, add_config(self->node, UUID2, 1));
	EXPECT_EQ(EADDRINUSE, errno);
	EXPECT_EQ(-1, add_config(self->node, bad, 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, add_config(self->node, uuid3, 0));
	EXPECT_EQ(EINVAL, errno);
	unsetenv("GPUPROF_SHIM_PERFMON");
	EXPECT_EQ(-1, add_config(self->node, uuid3, 1));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(-1, remove_config(self->node, 1));
	EXPECT_EQ(EACCES, errno);
	setenv("GPUPROF_SHIM_PERFMON", "1", 1);
	EXPECT_EQ(2, add_config(self->node, uuid3, 1));

	/* The new set opens a stream. */
	valid_chain(&c, 17);
	c.p[2].value = 2;
	fd = open_stream(self->node, &c);
	EXPECT_LE(0, fd);
	close(fd);

	EXPECT_EQ(0, remove_config(self->node, 1));
	EXPECT_EQ(-1, sysfs_id(self->sys, UUID));
	EXPECT_EQ(-1, remove_config(self->node, 1));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(-1, remove_config(self->node, 99));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(1, add_config(self->node, UUID, 1));
	EXPECT_EQ(SET_ID, sysfs_id(self->sys, UUID2));
}

/* The chain of a stream CONFIG: one METRIC_SET link. */
TEST_F(xe, stream_ioctls)
{
	struct oa_xe_oa_stream_status st = { .oa_status = 99 };
	struct chain c, cfg;
	char buf[REPORT];
	int fd;

	valid_chain(&c, 17);
	prop(&c, OA_XE_PROP_OA_DISABLED, 1);
	fd = open_stream(self->node, &c);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));
	/* Opened disabled: nothing comes. */
	usleep(30000);
	EXPECT_EQ(-1, read(fd, buf, sizeof(buf)));
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_EQ(0, ioctl(fd, OA_XE_STREAM_IOCTL_DISABLE, 0));
	EXPECT_EQ(0, ioctl(fd, OA_XE_STREAM_IOCTL_ENABLE, 0));
	EXPECT_EQ(0, ioctl(fd, OA_XE_STREAM_IOCTL_ENABLE, 0));
	usleep(30000);		/* two periods of 13.65 ms */
	EXPECT_EQ(-1, read(fd, buf, REPORT - 1));
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_EQ(REPORT, read(fd, buf, sizeof(buf)));
	ASSERT_EQ(0, ioctl(fd, OA_XE_STREAM_IOCTL_STATUS, &st));
	EXPECT_EQ(0, st.oa_status);

	ASSERT_EQ(1, add_config(self->node, UUID, 1));
	cfg.n = 0;
	prop(&cfg, OA_XE_PROP_OA_METRIC_SET, 1);
	EXPECT_EQ(SET_ID, ioctl(fd, OA_XE_STREAM_IOCTL_CONFIG, cfg.p));
	EXPECT_EQ(1, ioctl(fd, OA_XE_STREAM_IOCTL_CONFIG, cfg.p));
	cfg.p[0].value = 9;
	EXPECT_EQ(-1, ioctl(fd, OA_XE_STREAM_IOCTL_CONFIG, cfg.p));
	EXPECT_EQ(ENODEV, errno);
	cfg.p[0].value = 1;
	prop(&cfg, OA_XE_PROP_OA_PERIOD_EXPONENT, 5);
	EXPECT_EQ(-1, ioctl(fd, OA_XE_STREAM_IOCTL_CONFIG, cfg.p));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, _IO('i', 0x5), 0));
	EXPECT_EQ(EINVAL, errno);
	close(fd);

	/* Without a period, a blocking read would wait forever: EINVAL. */
	valid_chain(&c, 17);
	c.n = 4;
	c.p[3].base.next_extension = 0;
	fd = open_stream(self->node, &c);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, read(fd, buf, sizeof(buf)));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

/*
 * 2 s of exponent 17 (262144 ticks, 13653333 ns) read blocking, then
 * DISABLE (what came so far stays) and non-blocking reads to the end:
 * whole reports, timer reports one period apart, no loss, and as many
 * as fit in the time from the open to DISABLE, within one.
 */
TEST_F(xe, two_seconds_without_loss)
{
	static uint8_t buf[64 * REPORT];
	const struct gpuprof_oa_driver drv = { .driver = GPUPROF_OA_DRIVER_XE };
	struct oa_xe_oa_stream_status st;
	struct gpuprof_oa_layout l;
	struct gpuprof_oa_report h;
	uint64_t t0, t1, reports = 0, last = 0;
	double want;
	struct chain c;
	ssize_t n;
	size_t k;
	int fd;

	ASSERT_NE(NULL, gpuprof_oa_layout_of(0x6420, GPUPROF_OA_FORMAT_PEC64u64,
					     &drv, &l));
	valid_chain(&c, 17);
	t0 = mono_ns();
	fd = open_stream(self->node, &c);
	ASSERT_LE(0, fd);
	while (mono_ns() - t0 < 2 * NSEC) {
		n = read(fd, buf, sizeof(buf));
		ASSERT_LT(0, n) TH_LOG("%m");
		ASSERT_EQ(0, n % REPORT);
		for (k = 0; k < (size_t)n; k += REPORT) {
			gpuprof_oa_report_header(&l, buf + k, &h);
			EXPECT_EQ(GPUPROF_OA_REASON_TIMER, h.reason);
			EXPECT_EQ(0, h.timestamp % 262144);
			if (reports)
				ASSERT_EQ(last + 262144, h.timestamp);
			last = h.timestamp;
			reports++;
		}
	}
	EXPECT_EQ(0, ioctl(fd, OA_XE_STREAM_IOCTL_DISABLE, 0));
	t1 = mono_ns();
	EXPECT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (k = 0; k < (size_t)n; k += REPORT) {
			gpuprof_oa_report_header(&l, buf + k, &h);
			ASSERT_EQ(last + 262144, h.timestamp);
			last = h.timestamp;
			reports++;
		}
	}
	EXPECT_EQ(EAGAIN, errno);
	ASSERT_EQ(0, ioctl(fd, OA_XE_STREAM_IOCTL_STATUS, &st));
	EXPECT_EQ(0, st.oa_status);
	want = (double)(t1 - t0) / 13653333.0;
	EXPECT_LE(want - 1, (double)reports) TH_LOG("%llu for %f",
						(unsigned long long)reports, want);
	EXPECT_GE(want + 1, (double)reports) TH_LOG("%llu for %f",
						(unsigned long long)reports, want);
	close(fd);
}

/*
 * GPUPROF_SHIM_LOSS_EVERY=5, exponent 13 (853333 ns): after 30 ms at
 * least 35 reports were made, so REPORT_LOST came after the 5th (and
 * more) and BUFFER_LOST after the 10th.  The next read is EIO and copies
 * nothing; STATUS gives both bits; the reports are still there for the
 * read after, which finds no new loss, so STATUS is 0 again.
 */
TEST_F(xe, forced_loss_gives_eio_then_status)
{
	static uint8_t buf[128 * REPORT];
	struct oa_xe_oa_stream_status st;
	struct chain c;
	ssize_t n;
	size_t k;
	int fd;

	setenv("GPUPROF_SHIM_LOSS_EVERY", "5", 1);
	valid_chain(&c, 13);
	fd = open_stream(self->node, &c);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));
	usleep(30000);
	EXPECT_EQ(0, ioctl(fd, OA_XE_STREAM_IOCTL_DISABLE, 0));
	memset(buf, 0xa5, sizeof(buf));
	EXPECT_EQ(-1, read(fd, buf, sizeof(buf)));
	EXPECT_EQ(EIO, errno);
	for (k = 0; k < sizeof(buf); k++)
		ASSERT_EQ(0xa5, buf[k]);
	ASSERT_EQ(0, ioctl(fd, OA_XE_STREAM_IOCTL_STATUS, &st));
	EXPECT_EQ(OA_XE_OASTATUS_REPORT_LOST | OA_XE_OASTATUS_BUFFER_OVERFLOW,
		  st.oa_status);
	/* STATUS does not clear what it reports. */
	ASSERT_EQ(0, ioctl(fd, OA_XE_STREAM_IOCTL_STATUS, &st));
	EXPECT_EQ(3, st.oa_status);
	n = read(fd, buf, sizeof(buf));
	EXPECT_LE(35 * REPORT, n);
	EXPECT_EQ(0, n % REPORT);
	ASSERT_EQ(0, ioctl(fd, OA_XE_STREAM_IOCTL_STATUS, &st));
	EXPECT_EQ(0, st.oa_status);
	close(fd);
}

/*
 * GPUPROF_SHIM_WRAP_MS=40: 2^56 comes 40 ms after the node's first
 * open.  Reports of exponent 13 (16384 ticks, which divide 2^56) read
 * over 80 ms step by 16384 ticks at 56 bits, across one wrap to small
 * values; ENGINE_CYCLES, 64 bits wide, has passed 2^56 by then.
 */
TEST(report_timestamps_wrap_at_56_bits)
{
	static uint8_t buf[256 * REPORT];
	const struct gpuprof_oa_driver drv = { .driver = GPUPROF_OA_DRIVER_XE };
	struct oa_xe_query_engine_cycles cy = { .clockid = CLOCK_MONOTONIC };
	struct oa_xe_device_query q = {
		.query = OA_XE_QUERY_ENGINE_CYCLES, .size = sizeof(cy),
		.data = (uintptr_t)&cy,
	};
	const uint64_t mask = (1ull << 56) - 1;
	struct gpuprof_oa_layout l;
	struct gpuprof_oa_report h;
	uint64_t last = 0, reports = 0, wraps = 0;
	char sys[] = "/tmp/gpuprof-xe-shim-wrap.XXXXXX";
	struct chain c;
	ssize_t n;
	size_t k;
	int node, fd;

	ASSERT_NE(NULL, gpuprof_oa_layout_of(0x6420, GPUPROF_OA_FORMAT_PEC64u64,
					     &drv, &l));
	ASSERT_NE(NULL, mkdtemp(sys));
	ASSERT_EQ(0, fake_i915_sysfs(sys, &(struct fake_metric_set){ UUID2, SET_ID },
				     1, 0, 0));
	setenv("GPUPROF_SYSFS_ROOT", sys, 1);
	setenv("GPUPROF_SHIM_NODE", NODE, 1);
	setenv("GPUPROF_SHIM_PERFMON", "1", 1);
	setenv("GPUPROF_SHIM_WRAP_MS", "40", 1);
	node = open(NODE, O_RDWR);
	ASSERT_LE(0, node);
	valid_chain(&c, 13);
	fd = open_stream(node, &c);
	ASSERT_LE(0, fd);
	usleep(80000);
	ASSERT_EQ(0, ioctl(fd, OA_XE_STREAM_IOCTL_DISABLE, 0));
	ASSERT_EQ(0, ioctl(node, OA_XE_IOCTL_DEVICE_QUERY, &q));
	EXPECT_LT(1ull << 56, cy.engine_cycles);
	EXPECT_EQ(0, fcntl(fd, F_SETFL, O_NONBLOCK));
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (k = 0; k < (size_t)n; k += REPORT) {
			gpuprof_oa_report_header(&l, buf + k, &h);
			if (reports) {
				ASSERT_EQ((last + 16384) & mask, h.timestamp);
				wraps += h.timestamp < last;
			}
			last = h.timestamp;
			reports++;
		}
	}
	EXPECT_EQ(1, wraps);
	EXPECT_LE(40, reports);		/* 80 ms of 853 us periods: 93 */
	close(fd);
	close(node);
	run_cmd((char *)buf, sizeof(buf), "rm -rf '%s'", sys);
}

int main(int argc, char **argv)
{
	return run_with_shim_preloaded(argc, argv, xe_shim_path(), REEXEC_ENV);
}
