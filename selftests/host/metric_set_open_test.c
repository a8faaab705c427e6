// SPDX-License-Identifier: GPL-2.0-only
/*
 * --metric-set NAME against the i915 shim (selftests/i915-shim/) playing
 * GPUs of three generations (GPUPROF_SHIM_DEVICE_ID): gpuprof-oa --device
 * and perf gpu record --oa look the name up in IGT's table for the GPU
 * (tools/perf-gpu/oa/metric-sets.h), find its uuid in the fake sysfs and
 * open the stream with that uuid's id, as the shim's log of PERF_OPEN
 * properties shows ("prop 3 ID": DRM_I915_PERF_PROP_OA_METRICS_SET).  A
 * name the table lacks, or a set the sysfs lacks that no table knows,
 * fails with exit status 1 and one line that lists what sysfs offers.
 *
 * The fake sysfs offers the RenderBasic of three platforms at once, each
 * with its own id, so only the right lookup opens the right id.  The
 * uuids are IGT 1.27.1's (oa-bdw.xml, oa-cflgt2.xml, oa-tglgt2.xml).
 *
 * A set the sysfs does not offer is added first, as a stock i915 wants
 * (DRM_IOCTL_I915_PERF_ADD_CONFIG with the table's registers), opened by
 * the id i915 gives it and removed at the end; the shim's log shows both
 * ioctls ("add_config UUID mux N boolean N flex N -> ID", "remove_config
 * ID -> 0").  The register counts are those IGT 1.27.1's library hands
 * i915 for each RenderBasic (intel_perf_for_devinfo(): n_mux_regs,
 * n_b_counter_regs, n_flex_regs).
 *
 * perf gpu record needs tracefs, which this machine may not mount: it
 * runs in a mount namespace of its own (unshare -m) with tracefs mounted
 * there, and is skipped where that cannot be done.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/paths.h"
#include "../lib/asan.h"
#include "../lib/fake_sysfs.h"
#include "../lib/oa_file.h"
#include "../lib/run.h"
#include "../lib/setup_provides.h"
#include "../../module/oa_decode.h"

#define OUT_SIZE (1 << 16)
#define NODE "/dev/dri/renderD199"
#define BDW_RENDER_BASIC "b541bd57-0e0f-4154-b4c0-5858010a2bf7"
#define CFL_RENDER_BASIC "7fa796a4-0c7a-4201-afc6-cff0b2f528a2"
#define TGL_RENDER_BASIC "0fc397c0-4833-492c-9ccd-4929d574d5b8"
#define TGL_COMPUTE_BASIC "397a46d9-03dd-4696-8196-270362e1c575"
#define BDW_TEST_OA "d6de6f55-e526-4f79-a6a6-d7315c09044e"
#define UNKNOWN "12345678-1234-1234-1234-123456789abc"
#define ABSENT "87654321-4321-4321-4321-cba987654321"

/* Three GPUs: each one's RenderBasic and the id the fake sysfs gives it. */
static const struct {
	uint32_t device_id;
	const char *uuid;
	unsigned int id;
} gpus[] = {
	{ 0x1616, BDW_RENDER_BASIC, 101 },	/* Broadwell GT2 */
	{ 0x3e92, CFL_RENDER_BASIC, 102 },	/* Coffee Lake GT2 */
	{ 0x9a49, TGL_RENDER_BASIC, 103 },	/* Tiger Lake GT2 */
};

FIXTURE(open) {
	char dir[64];
	char sys[128];
	char log[128];
	char file[128];
	char preload[2 * PATH_MAX + 2];
	char out[OUT_SIZE];
	char logbuf[4096];
	const char *env;	/* before the program: the shim's privileges */
};

FIXTURE_SETUP(open)
{
	struct fake_metric_set sets[sizeof(gpus) / sizeof(gpus[0]) + 2];
	size_t i;

	strcpy(self->dir, "/tmp/metric_set_open.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->sys, sizeof(self->sys), "%s/sys", self->dir);
	snprintf(self->log, sizeof(self->log), "%s/log", self->dir);
	snprintf(self->file, sizeof(self->file), "%s/rec", self->dir);
	for (i = 0; i < sizeof(gpus) / sizeof(gpus[0]); i++) {
		sets[i].uuid = gpus[i].uuid;
		sets[i].id = gpus[i].id;
	}
	sets[i++] = (struct fake_metric_set){ TGL_COMPUTE_BASIC, 104 };
	sets[i++] = (struct fake_metric_set){ UNKNOWN, 105 };
	ASSERT_EQ(0, fake_i915_sysfs(self->sys, sets, i, 0, 0))
		TH_LOG("%s: %m", self->sys);
	snprintf(self->preload, sizeof(self->preload), "%s %s", asan_runtime(),
		 i915_shim_path());
	ASSERT_EQ(0, access(i915_shim_path(), R_OK)) TH_LOG("no shim at %s", i915_shim_path());
	/* CAP_PERFMON, as gpuprof's OA helper has: i915 adds sets then. */
	self->env = "GPUPROF_SHIM_PERFMON=1";
}

FIXTURE_TEARDOWN(open)
{
	char out[256];

	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

/* gpuprof-oa --device on the shim's node as GPU @dev, @args after. */
__attribute__((format(printf, 3, 4)))
static int run_oa(FIXTURE_DATA(open) *self, uint32_t dev, const char *fmt,
		  ...)
{
	char args[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	unlink(self->log);
	return run_cmd(self->out, OUT_SIZE,
		       "%s GPUPROF_SHIM_DEVICE_ID=0x%04x GPUPROF_SYSFS_ROOT='%s' GPUPROF_SHIM_LOG='%s' LD_PRELOAD='%s' %s --device --node " NODE " %s",
		       self->env, dev, self->sys, self->log, self->preload,
		       host_gpuprof_oa_path(), args);
}

/*
 * perf gpu record --oa on the shim's node as GPU @dev, @args after, with
 * tracefs (tracefs_shell()): 0, its status, or -2 when tracefs cannot be
 * had here.
 */
__attribute__((format(printf, 3, 4)))
static int run_record(FIXTURE_DATA(open) *self, uint32_t dev,
		      const char *fmt, ...)
{
	const char *ns = tracefs_shell(self->out, OUT_SIZE);
	char args[1024];
	va_list ap;

	if (!ns)
		return -2;
	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	unlink(self->log);
	return run_cmd(self->out, OUT_SIZE,
		       "%sexec env %s GPUPROF_SHIM_DEVICE_ID=0x%04x GPUPROF_SYSFS_ROOT=%s GPUPROF_SHIM_LOG=%s LD_PRELOAD=\"%s\" %s record --oa --oa-node " NODE " -o %s/perf.data %s -- true'",
		       ns, self->env, dev, self->sys, self->log, self->preload,
		       perf_gpu_path(), self->dir, args);
}

static const char *read_log(FIXTURE_DATA(open) *self)
{
	return file_text(self->log, self->logbuf, sizeof(self->logbuf));
}

/* The DEVICE_INFO of recording @path, via the shared parser. */
static void on_record(void *arg, const struct gpuprof_oa_stream *s,
		      const struct gpuprof_oa_record_header *h,
		      const void *payload)
{
	(void)arg;
	(void)s;
	(void)h;
	(void)payload;
}

static int device_info(const char *path, struct gpuprof_oa_device_info *info)
{
	static __u8 buf[GPUPROF_OA_RECORD_MAX];
	struct gpuprof_oa_stream s;

	oa_file_parse(path, &s, buf, on_record, NULL);
	*info = s.info;
	return s.have_info ? 0 : -1;
}

/* The shim's log: PERF_OPEN asked for metric set @id, and opened. */
static void check_opened(struct __test_metadata *_metadata,
			 FIXTURE_DATA(open) *self, unsigned int id)
{
	char want[64];

	snprintf(want, sizeof(want), "\nprop 3 %u\n", id);
	EXPECT_NE(NULL, strstr(read_log(self), want))
		TH_LOG("want%slog:\n%s", want, self->logbuf);
	EXPECT_NE(NULL, strstr(self->logbuf, "\nopen ")) TH_LOG("%s", self->logbuf);
	EXPECT_EQ(NULL, strstr(self->logbuf, "\nopen -")) TH_LOG("%s", self->logbuf);
}

TEST_F(open, gpuprof_oa_opens_the_gpus_own_render_basic)
{
	struct gpuprof_oa_device_info info;
	size_t i;

	for (i = 0; i < sizeof(gpus) / sizeof(gpus[0]); i++) {
		ASSERT_EQ(0, run_oa(self, gpus[i].device_id,
				    "--metric-set RenderBasic --duration 0.05 -o '%s'",
				    self->file)) TH_LOG("0x%04x: %s",
							gpus[i].device_id, self->out);
		check_opened(_metadata, self, gpus[i].id);
		/* The recording says which GPU and which set. */
		ASSERT_EQ(0, device_info(self->file, &info));
		EXPECT_EQ(gpus[i].device_id, info.device_id);
		EXPECT_STREQ("RenderBasic", info.metric_set_name);
		EXPECT_STREQ(gpus[i].uuid, info.metric_set_uuid);
	}
	/* The name ignoring case, and the uuid in capitals, name it too. */
	ASSERT_EQ(0, run_oa(self, 0x9a49,
			    "--metric-set computebasic --duration 0.05 -o '%s'",
			    self->file)) TH_LOG("%s", self->out);
	check_opened(_metadata, self, 104);
	ASSERT_EQ(0, run_oa(self, 0x9a49,
			    "--metric-set 397A46D9-03DD-4696-8196-270362E1C575 --duration 0.05 -o '%s'",
			    self->file)) TH_LOG("%s", self->out);
	check_opened(_metadata, self, 104);
	ASSERT_EQ(0, device_info(self->file, &info));
	EXPECT_STREQ("ComputeBasic", info.metric_set_name);
	EXPECT_STREQ(TGL_COMPUTE_BASIC, info.metric_set_uuid);
	/* A uuid no table knows still works, named by itself. */
	ASSERT_EQ(0, run_oa(self, 0x9a49, "--metric-set " UNKNOWN
			    " --duration 0.05 -o '%s'", self->file))
		TH_LOG("%s", self->out);
	check_opened(_metadata, self, 105);
	ASSERT_EQ(0, device_info(self->file, &info));
	EXPECT_STREQ(UNKNOWN, info.metric_set_name);
}

/* What every refusal on the Tiger Lake GT2 lists, SYS the fake root. */
#define TGL_OFFER "RenderBasic (" \
	TGL_RENDER_BASIC "), ComputeBasic (" TGL_COMPUTE_BASIC "), " \
	UNKNOWN ", " CFL_RENDER_BASIC ", " BDW_RENDER_BASIC "\n"

static void expect_line(struct __test_metadata *_metadata,
			FIXTURE_DATA(open) *self, const char *prog,
			const char *line)
{
	char want[2048], *sys;

	/* SYS stands for the fake sysfs root, wherever it is. */
	snprintf(want, sizeof(want), "%s: %s", prog, line);
	while ((sys = strstr(want, "SYS"))) {
		char rest[2048];

		snprintf(rest, sizeof(rest), "%s", sys + 3);
		snprintf(sys, sizeof(want) - (sys - want), "%s%s", self->sys,
			 rest);
	}
	EXPECT_STREQ(want, self->out);
}

TEST_F(open, an_unknown_name_or_absent_set_is_one_line_listing_the_rest)
{
	/* A name not in IGT's tglgt2 sets. */
	EXPECT_EQ(1, run_oa(self, 0x9a49, "--metric-set NoSuchSet -o '%s'",
			    self->file));
	expect_line(_metadata, self, "gpuprof-oa",
		    "metric set 'NoSuchSet' is not one of IGT's tglgt2 sets (device 0x9a49); "
		    "SYS/class/drm/card0/metrics has: " TGL_OFFER);
	/* A uuid neither offered nor in any table: nothing to add it with. */
	EXPECT_EQ(1, run_oa(self, 0x9a49, "--metric-set " ABSENT " -o '%s'",
			    self->file));
	expect_line(_metadata, self, "gpuprof-oa",
		    "metric set " ABSENT " (" ABSENT ") is not offered by this kernel for this GPU, "
		    "and gpuprof has no registers to add it with: "
		    "not in SYS/class/drm/card0/metrics, which has: " TGL_OFFER);
	/* On the Broadwell, its own names, the Tiger Lake's by uuid. */
	EXPECT_EQ(1, run_oa(self, 0x1616, "--metric-set " ABSENT " -o '%s'",
			    self->file));
	expect_line(_metadata, self, "gpuprof-oa",
		    "metric set " ABSENT " (" ABSENT ") is not offered by this kernel for this GPU, "
		    "and gpuprof has no registers to add it with: "
		    "not in SYS/class/drm/card0/metrics, which has: RenderBasic (" BDW_RENDER_BASIC "), "
		    TGL_RENDER_BASIC ", " UNKNOWN ", " TGL_COMPUTE_BASIC ", "
		    CFL_RENDER_BASIC "\n");
	/* No recording is left behind. */
	EXPECT_NE(0, access(self->file, F_OK));
	/* The stream was never asked for. */
	EXPECT_STREQ("", read_log(self));
}

TEST_F(open, perf_gpu_record_opens_the_gpus_own_render_basic)
{
	struct gpuprof_oa_device_info info;
	char oa[160];
	size_t i;
	int rc;

	snprintf(oa, sizeof(oa), "%s/perf.data.oa", self->dir);
	for (i = 0; i < sizeof(gpus) / sizeof(gpus[0]); i++) {
		rc = run_record(self, gpus[i].device_id, "--metric-set RenderBasic");
		SETUP_PROVIDES(rc != -2, "tracefs at /sys/kernel/tracing (setup.sh mounts it): %.200s",
			       self->out);
		ASSERT_EQ(0, rc) TH_LOG("0x%04x: %s", gpus[i].device_id, self->out);
		check_opened(_metadata, self, gpus[i].id);
		ASSERT_EQ(0, device_info(oa, &info));
		EXPECT_EQ(gpus[i].device_id, info.device_id);
		EXPECT_STREQ("RenderBasic", info.metric_set_name);
		EXPECT_STREQ(gpus[i].uuid, info.metric_set_uuid);
	}
	EXPECT_EQ(1, run_record(self, 0x9a49, "--metric-set NoSuchSet"));
	expect_line(_metadata, self, "perf gpu record",
		    "metric set 'NoSuchSet' is not one of IGT's tglgt2 sets (device 0x9a49); "
		    "SYS/class/drm/card0/metrics has: " TGL_OFFER);
	EXPECT_EQ(1, run_record(self, 0x9a49, "--metric-set " ABSENT));
	expect_line(_metadata, self, "perf gpu record",
		    "metric set " ABSENT " (" ABSENT ") is not offered by this kernel for this GPU, "
		    "and gpuprof has no registers to add it with: "
		    "not in SYS/class/drm/card0/metrics, which has: " TGL_OFFER);
}

/*
 * A stock i915 offers no set at all (its metrics directory is empty in
 * 6.1, 6.12 and 7.3 until userspace adds one); TestOa is one of IGT's.
 */
static const struct {
	uint32_t device_id;
	const char *test_oa, *uuid;
	unsigned int mux, boolean, flex;
} stock[] = {
	/* Broadwell GT2, Skylake GT2, Ice Lake, Tiger Lake GT2 */
	{ 0x1616, BDW_TEST_OA, BDW_RENDER_BASIC, 107, 5, 7 },
	{ 0x1912, "c5384091-ce4c-406c-ab4d-4c530f71c7ae",
	  "07b25942-d9fd-4fce-bd58-e29abd66b7de", 0, 5, 7 },
	{ 0x8a52, "e617cfd5-6cc5-4143-8994-cd36cebb921f",
	  "e3cd52cf-c6b0-4019-b369-3bc9c75a0cbc", 61, 5, 6 },
	{ 0x9a49, "6607f034-d053-40d1-8215-67c07f3041bb", TGL_RENDER_BASIC,
	  64, 14, 7 },
};

/* A fresh sysfs under @self->sys whose card offers no set. */
static void stock_sysfs(struct __test_metadata *_metadata,
			FIXTURE_DATA(open) *self)
{
	ASSERT_EQ(0, fake_i915_stock_sysfs(self->sys))
		TH_LOG("%s: %m", self->sys);
}

TEST_F(open, a_stock_i915_gets_the_set_added_then_removed)
{
	struct gpuprof_oa_device_info info;
	char want[256];
	size_t i;

	for (i = 0; i < sizeof(stock) / sizeof(stock[0]); i++) {
		stock_sysfs(_metadata, self);
		ASSERT_EQ(0, run_oa(self, stock[i].device_id,
				    "--duration 0.05 -o '%s'", self->file))
			TH_LOG("0x%04x: %s", stock[i].device_id, self->out);
		snprintf(want, sizeof(want),
			 "add_config %s mux %u boolean %u flex %u -> 2\n",
			 stock[i].uuid, stock[i].mux, stock[i].boolean,
			 stock[i].flex);
		EXPECT_EQ(0, strncmp(read_log(self), want, strlen(want)))
			TH_LOG("want %slog:\n%s", want, self->logbuf);
		check_opened(_metadata, self, 2);
		EXPECT_NE(NULL, strstr(self->logbuf, "\nremove_config 2 -> 0\n"))
			TH_LOG("%s", self->logbuf);
		/* As i915 was: the added set gone. */
		EXPECT_FALSE(fake_i915_offered(self->sys, stock[i].uuid));
		ASSERT_EQ(0, device_info(self->file, &info));
		EXPECT_EQ(stock[i].device_id, info.device_id);
		EXPECT_STREQ("RenderBasic", info.metric_set_name);
		EXPECT_STREQ(stock[i].uuid, info.metric_set_uuid);
	}
}

/* The same through perf gpu record --oa, with its default set. */
TEST_F(open, perf_gpu_record_adds_the_set_on_a_stock_i915)
{
	struct gpuprof_oa_device_info info;
	char oa[160], want[256];
	int rc;

	snprintf(oa, sizeof(oa), "%s/perf.data.oa", self->dir);
	stock_sysfs(_metadata, self);
	rc = run_record(self, 0x9a49, "%s", "");
	SETUP_PROVIDES(rc != -2, "tracefs at /sys/kernel/tracing (setup.sh mounts it): %.200s",
		       self->out);
	ASSERT_EQ(0, rc) TH_LOG("%s", self->out);
	snprintf(want, sizeof(want), "add_config %s mux 64 boolean 14 flex 7 -> 2\n",
		 TGL_RENDER_BASIC);
	EXPECT_EQ(0, strncmp(read_log(self), want, strlen(want)))
		TH_LOG("%s", self->logbuf);
	check_opened(_metadata, self, 2);
	EXPECT_NE(NULL, strstr(self->logbuf, "\nremove_config 2 -> 0\n"))
		TH_LOG("%s", self->logbuf);
	EXPECT_FALSE(fake_i915_offered(self->sys, TGL_RENDER_BASIC));
	ASSERT_EQ(0, device_info(oa, &info));
	EXPECT_STREQ("RenderBasic", info.metric_set_name);
}

/*
 * A set already offered (another program added it) is opened by its id,
 * neither added again nor removed.
 */
TEST_F(open, an_offered_set_is_neither_added_nor_removed)
{
	stock_sysfs(_metadata, self);
	fake_i915_offer(self->sys, stock[3].test_oa, 9);
	ASSERT_EQ(0, run_oa(self, 0x9a49, "--metric-set TestOa --duration 0.05 -o '%s'",
			    self->file)) TH_LOG("%s", self->out);
	check_opened(_metadata, self, 9);
	EXPECT_EQ(NULL, strstr(self->logbuf, "add_config")) TH_LOG("%s", self->logbuf);
	EXPECT_EQ(NULL, strstr(self->logbuf, "remove_config")) TH_LOG("%s", self->logbuf);
	EXPECT_TRUE(fake_i915_offered(self->sys, stock[3].test_oa));
}

/* Without CAP_PERFMON, paranoid i915 adds nothing: one line says so. */
TEST_F(open, adding_without_cap_perfmon_is_one_line)
{
	self->env = "";
	stock_sysfs(_metadata, self);
	EXPECT_EQ(1, run_oa(self, 0x9a49, "--duration 0.05 -o '%s'", self->file));
	expect_line(_metadata, self, "gpuprof-oa",
		    NODE ": not allowed to add metric set RenderBasic (" TGL_RENDER_BASIC ") to i915, "
		    "which offers it only once added: that needs CAP_PERFMON (or root) while "
		    "dev.i915.perf_stream_paranoid is 1 (sysctl dev.i915.perf_stream_paranoid=0 lifts it)\n");
	EXPECT_FALSE(fake_i915_offered(self->sys, TGL_RENDER_BASIC));
	EXPECT_NE(0, access(self->file, F_OK));
}

TEST_HARNESS_MAIN
