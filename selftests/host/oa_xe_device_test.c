// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof-oa --device on xe, against the xe shim (selftests/xe-shim/):
 * the metric set it registers or reuses, the stream properties it asks
 * for, what it records (read back with the shared parser,
 * module/oa_decode.c), the losses xe reports out of band, its clock
 * correlation, and its refusals; and a Panther Lake under 7.3's xe (the
 * shim plays 7.3 for it), whose units differ.  Expected values are
 * worked out by hand in the comments.
 *
 * The program under test is the sanitizer build of gpuprof-oa ($GPUPROF_OA,
 * else tools/perf-gpu/out/asan/gpuprof-oa of this checkout), run with
 * LD_PRELOAD="<this test's own libasan> <shim>"; the shim is
 * $GPUPROF_XE_SHIM, else selftests/out/libxe_shim.so.
 */
#include <stdarg.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/paths.h"
#include "../lib/asan.h"
#include "../lib/fake_sysfs.h"
#include "../lib/oa_file.h"
#include "../lib/run.h"
#include "../../module/oa_decode.h"
#include "../../tools/perf-gpu/oa/metric-sets.h"
#include "../../tools/perf-gpu/oa/metrics.h"
#include "../../tools/perf-gpu/oa/sim-platform.h"

#define OUT_SIZE (1 << 16)
#define NODE "/dev/dri/renderD199"
/* The shim's Lunar Lake: device 0x6420, revision 4, 19.2 MHz. */
#define DEVICE_ID 0x6420
#define REVISION 4
#define OA_HZ 19200000ull
/* ComputeBasic is registered beforehand, as id 3, in the fake sysfs. */
#define COMPUTE_ID 3
#define MAX_RECS 8192

struct rec {
	struct gpuprof_oa_stream s;
	__u8 buf[GPUPROF_OA_RECORD_MAX];
	__u32 type[MAX_RECS];
	__u64 gpu[MAX_RECS];		/* a correlation's OA time */
	__u64 ts[MAX_RECS];		/* a SAMPLE's 56-bit timestamp */
	size_t n;
	/* The DEVICE_TOPOLOGY payload, padding included; u64s to align it. */
	__u64 topo[GPUPROF_OA_RECORD_MAX / 8];
	size_t topo_len;
};

static void on_record(void *arg, const struct gpuprof_oa_stream *s,
		      const struct gpuprof_oa_record_header *h,
		      const void *payload)
{
	struct rec *r = arg;
	struct gpuprof_oa_correlation c;
	struct gpuprof_oa_report rep;

	if (r->n == MAX_RECS)
		return;
	r->type[r->n] = h->type;
	if (h->type == GPUPROF_OA_RECORD_SAMPLE) {
		gpuprof_oa_report_header(&s->layout, payload, &rep);
		r->ts[r->n] = rep.timestamp;
	} else if (h->type == GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION ||
		   h->type == GPUPROF_OA_RECORD_CORRELATION_BOUND) {
		memcpy(&c, payload, sizeof(c));
		r->gpu[r->n] = c.gpu_timestamp;
	} else if (h->type == GPUPROF_OA_RECORD_DEVICE_TOPOLOGY) {
		r->topo_len = h->size - sizeof(*h);
		memcpy(r->topo, payload, r->topo_len);
	}
	r->n++;
}

static const char *xe_shim(void)
{
	static char path[PATH_MAX];

	return beside_exe(path, sizeof(path), "GPUPROF_XE_SHIM",
			  "../libxe_shim.so");
}

/* The uuid of Lunar Lake's set @name, from the table gpuprof-oa uses. */
static const char *lnl_uuid(const char *name, char out[OA_METRIC_UUID_LEN + 1])
{
	const struct oa_metric_set *s;

	s = oa_metric_set_find(oa_metric_platform_find("lnl"), name);
	return s ? oa_metric_uuid_format(s->uuid, out) : "";
}

FIXTURE(xe) {
	char dir[64];
	char sys[128];
	char log[128];
	char file[128];
	char preload[2 * PATH_MAX + 2];
	char render[OA_METRIC_UUID_LEN + 1], compute[OA_METRIC_UUID_LEN + 1];
	char out[OUT_SIZE];
	char logbuf[4096];
	struct rec *r;
};

/*
 * The fake sysfs: card0 is renderD199's card, its main GT's frequency
 * range 400..2000 MHz, ComputeBasic registered as COMPUTE_ID.
 */
FIXTURE_SETUP(xe)
{
	char path[512];

	strcpy(self->dir, "/tmp/gpuprof-xe-test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->sys, sizeof(self->sys), "%s/sys", self->dir);
	snprintf(self->log, sizeof(self->log), "%s/log", self->dir);
	snprintf(self->file, sizeof(self->file), "%s/rec", self->dir);
	lnl_uuid("RenderBasic", self->render);
	lnl_uuid("ComputeBasic", self->compute);
	ASSERT_NE(0, self->compute[0]) TH_LOG("no Lunar Lake sets in the table");
	ASSERT_EQ(0, fake_i915_sysfs(self->sys,
				     &(struct fake_metric_set){ self->compute,
								COMPUTE_ID },
				     1, 0, 0)) TH_LOG("%s: %m", self->sys);
	snprintf(path, sizeof(path), "%s/class/drm/card0/device/tile0/gt0/freq0",
		 self->sys);
	ASSERT_EQ(0, fake_sysfs_mkdirs(path));
	put_file("400\n", "%s/min_freq", path);
	put_file("2000\n", "%s/max_freq", path);
	snprintf(self->preload, sizeof(self->preload), "%s %s", asan_runtime(),
		 xe_shim());
	ASSERT_EQ(0, access(xe_shim(), R_OK)) TH_LOG("no shim at %s", xe_shim());
	self->r = malloc(sizeof(*self->r));
	ASSERT_NE(NULL, self->r);
}

FIXTURE_TEARDOWN(xe)
{
	char out[256];

	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
	free(self->r);
}

/* gpuprof-oa --device on the shim's node, with @env before it. */
__attribute__((format(printf, 3, 4)))
static int run_oa(FIXTURE_DATA(xe) *self, const char *env,
		  const char *fmt, ...)
{
	char args[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	return run_cmd(self->out, OUT_SIZE,
		       "GPUPROF_SYSFS_ROOT='%s' GPUPROF_SHIM_LOG='%s' %s LD_PRELOAD='%s' %s --device --node " NODE " %s",
		       self->sys, self->log, env, self->preload,
		       host_gpuprof_oa_path(), args);
}

static const char *read_log(FIXTURE_DATA(xe) *self)
{
	return file_text(self->log, self->logbuf, sizeof(self->logbuf));
}

static int parse(const char *path, struct rec *r)
{
	r->n = 0;
	r->topo_len = 0;
	return oa_file_parse(path, &r->s, r->buf, on_record, r);
}

static __u32 running_kernel(void)
{
	unsigned int major = 0, minor = 0;
	struct utsname u;

	uname(&u);
	sscanf(u.release, "%u.%u", &major, &minor);
	return GPUPROF_OA_KERNEL(major, minor);
}

/*
 * The head (VERSION, DRIVER, DEVICE_INFO, DEVICE_TOPOLOGY, a point and
 * its bound), the
 * closing point, and the reports' 56-bit times rising, none past the
 * closing point's (the GT reference clock is the OA clock here).  As on
 * i915, the stream opens before the first point is taken, so the first
 * reports may come before it.
 */
static void check_shape(struct __test_metadata *_metadata, const struct rec *r)
{
	__u64 last = 0;
	size_t i;

	ASSERT_GE(r->n, 8);
	EXPECT_EQ(GPUPROF_OA_RECORD_VERSION, r->type[0]);
	EXPECT_EQ(GPUPROF_OA_RECORD_DRIVER, r->type[1]);
	EXPECT_EQ(GPUPROF_OA_RECORD_DEVICE_INFO, r->type[2]);
	EXPECT_EQ(GPUPROF_OA_RECORD_DEVICE_TOPOLOGY, r->type[3]);
	EXPECT_EQ(GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION, r->type[4]);
	EXPECT_EQ(GPUPROF_OA_RECORD_CORRELATION_BOUND, r->type[5]);
	ASSERT_EQ(GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION, r->type[r->n - 2]);
	ASSERT_EQ(GPUPROF_OA_RECORD_CORRELATION_BOUND, r->type[r->n - 1]);
	for (i = 6; i < r->n - 2; i++) {
		if (r->type[i] != GPUPROF_OA_RECORD_SAMPLE)
			continue;
		EXPECT_LT(last, r->ts[i]) TH_LOG("report %zu", i);
		EXPECT_GE(r->gpu[r->n - 1] & ((1ull << 56) - 1), r->ts[i])
			TH_LOG("report %zu", i);
		last = r->ts[i];
	}
}

TEST_F(xe, registers_the_set_opens_the_stream_and_records_it)
{
	struct rec *r = self->r;
	char want[512], line[256];

	ASSERT_EQ(0, run_oa(self, "GPUPROF_SHIM_PERFMON=1",
			    "--duration 2 -v -o '%s'", self->file))
		TH_LOG("%s", self->out);
	/* RenderBasic is not in sysfs: added, taking xe's first free id, 1;
	 * then unit 0, SAMPLE_OA, that id, PEC64u64 (type 5 | sel 1 << 8 |
	 * size 1 << 16 = 0x10105 = 65797), exponent 13: 2^14 ticks at
	 * 19.2 MHz, 853333 ns, nearest 1 ms. */
	snprintf(want, sizeof(want),
		 "add %s 1\nprop 1 0\nprop 2 1\nprop 3 1\nprop 4 65797\nprop 5 13\nopen ",
		 self->render);
	EXPECT_EQ(0, strncmp(want, read_log(self), strlen(want)))
		TH_LOG("%s", self->logbuf);
	ASSERT_EQ(0, parse(self->file, r)) TH_LOG("%s", gpuprof_oa_error_name(r->s.error));
	EXPECT_EQ(GPUPROF_OA_DRIVER_XE, r->s.drv.driver);
	EXPECT_EQ(GPUPROF_OA_SUBMISSION_GUC, r->s.drv.submission);
	EXPECT_EQ(running_kernel(), r->s.drv.kernel);
	EXPECT_EQ(DEVICE_ID, r->s.info.device_id);
	EXPECT_EQ(REVISION, r->s.info.device_revision);
	EXPECT_EQ(GPUPROF_OA_FORMAT_PEC64u64, r->s.info.oa_format);
	EXPECT_EQ(OA_HZ, r->s.info.timestamp_frequency);
	EXPECT_EQ(400000000, r->s.info.gt_min_frequency);
	EXPECT_EQ(2000000000, r->s.info.gt_max_frequency);
	EXPECT_EQ(0, r->s.info.engine_class);	/* render */
	EXPECT_EQ(0, r->s.info.engine_instance);
	EXPECT_STREQ("RenderBasic", r->s.info.metric_set_name);
	EXPECT_STREQ(self->render, r->s.info.metric_set_uuid);
	EXPECT_EQ(576, r->s.layout.size);
	/*
	 * 2 s of 853333 ns reports: 2343 and some, the stream running from
	 * the open to the last drain; none missing, none lost.
	 */
	EXPECT_GE(r->s.samples, 2343) TH_LOG("%llu reports",
					     (unsigned long long)r->s.samples);
	EXPECT_EQ(0, r->s.report_lost + r->s.buffer_lost);
	check_shape(_metadata, r);
	snprintf(line, sizeof(line),
		 "gpuprof-oa: " NODE ": 0x6420, RenderBasic (%s, id 1), format 17, exponent 13 (853333 ns): %llu reports, ",
		 self->render, (unsigned long long)r->s.samples);
	EXPECT_NE(NULL, strstr(self->out, line)) TH_LOG("%s", self->out);
}

/*
 * A set this run registered is removed when it ends (REMOVE_CONFIG with
 * its id), as i915's is, so xe's sysfs is as it was: the next run
 * registers it again, under the same first free id.  One registered
 * before (ComputeBasic, by the fixture) is used and left alone.
 */
TEST_F(xe, the_set_it_registered_is_removed_at_the_end)
{
	char want[512], path[256];
	const char *log, *end;

	ASSERT_EQ(0, run_oa(self, "GPUPROF_SHIM_PERFMON=1",
			    "--duration 0.1 -o '%s'", self->file))
		TH_LOG("%s", self->out);
	EXPECT_STREQ("", self->out);
	log = read_log(self);
	snprintf(want, sizeof(want), "add %s 1\n", self->render);
	EXPECT_EQ(0, strncmp(want, log, strlen(want))) TH_LOG("%s", log);
	/* The last line, after the stream's. */
	end = log + strlen(log);
	EXPECT_EQ(0, strcmp(end - strlen("\nremove 1\n"), "\nremove 1\n"))
		TH_LOG("%s", log);
	snprintf(path, sizeof(path), "%s/class/drm/card0/metrics/%s/id",
		 self->sys, self->render);
	EXPECT_NE(0, access(path, F_OK));
	snprintf(path, sizeof(path), "%s/class/drm/card0/metrics/%s/id",
		 self->sys, self->compute);
	EXPECT_EQ(0, access(path, R_OK));

	/* Again: registered anew, as id 1, and removed again. */
	ASSERT_EQ(0, unlink(self->log));
	ASSERT_EQ(0, run_oa(self, "GPUPROF_SHIM_PERFMON=1",
			    "--duration 0.1 -o '%s'", self->file))
		TH_LOG("%s", self->out);
	log = read_log(self);
	EXPECT_EQ(0, strncmp(want, log, strlen(want))) TH_LOG("%s", log);
	EXPECT_NE(NULL, strstr(log, "\nremove 1\n")) TH_LOG("%s", log);

	/* A set xe had before is not this run's to remove. */
	ASSERT_EQ(0, unlink(self->log));
	ASSERT_EQ(0, run_oa(self, "GPUPROF_SHIM_PERFMON=1",
			    "--metric-set ComputeBasic --duration 0.1 -o '%s'",
			    self->file)) TH_LOG("%s", self->out);
	log = read_log(self);
	EXPECT_EQ(NULL, strstr(log, "remove")) TH_LOG("%s", log);
	EXPECT_EQ(0, access(path, R_OK));
}

TEST_F(xe, a_registered_set_is_taken_from_sysfs)
{
	char want[256];

	/* Paranoid 0: no CAP_PERFMON needed. */
	ASSERT_EQ(0, run_oa(self, "GPUPROF_SHIM_PARANOID=0",
			    "--metric-set computebasic --period 100000 --duration 0.05 -o '%s'",
			    self->file)) TH_LOG("%s", self->out);
	/* 100 us: 1920 ticks, between 2^10 (e = 9) and 2^11, nearer 2^11
	 * (3 * 2^9 = 1536 < 1920): e = 10. */
	snprintf(want, sizeof(want),
		 "prop 1 0\nprop 2 1\nprop 3 %d\nprop 4 65797\nprop 5 10\nopen ",
		 COMPUTE_ID);
	EXPECT_EQ(0, strncmp(want, read_log(self), strlen(want)))
		TH_LOG("%s", self->logbuf);
	EXPECT_STREQ("", self->out);
}

TEST_F(xe, losses_come_from_the_stream_status)
{
	struct rec *r = self->r;
	char line[256];
	size_t i, lost = 0;

	/* The shim: REPORT_LOST (status bit 0) after every 50th report,
	 * BUFFER_LOST (bit 1) after every 100th. */
	ASSERT_EQ(0, run_oa(self, "GPUPROF_SHIM_PERFMON=1 GPUPROF_SHIM_LOSS_EVERY=50",
			    "--duration 0.3 -o '%s'", self->file))
		TH_LOG("%s", self->out);
	ASSERT_EQ(0, parse(self->file, r));
	EXPECT_GE(r->s.report_lost, 1);
	EXPECT_GE(r->s.buffer_lost, 1);
	EXPECT_GE(r->s.report_lost, r->s.buffer_lost);
	for (i = 0; i < r->n; i++)
		lost += r->type[i] == GPUPROF_OA_RECORD_REPORT_LOST ||
			r->type[i] == GPUPROF_OA_RECORD_BUFFER_LOST;
	EXPECT_EQ(r->s.report_lost + r->s.buffer_lost, lost);
	check_shape(_metadata, r);
	snprintf(line, sizeof(line),
		 "gpuprof-oa: warning: xe lost reports: %llu REPORT_LOST and %llu BUFFER_LOST records (kept in the recording)\n",
		 (unsigned long long)r->s.report_lost,
		 (unsigned long long)r->s.buffer_lost);
	EXPECT_STREQ(line, self->out);
}

/* Each refusal: exit 1, this one line, and no recording left behind. */
TEST_F(xe, refusals_are_explained_in_one_line)
{
	static const struct { const char *env, *args, *line; } c[] = {
		{ "", "",
		  "gpuprof-oa: " NODE ": not allowed to register metric set RenderBasic (RENDER) with xe: that needs CAP_PERFMON (or root) while dev.xe.observation_paranoid is 1 (sysctl dev.xe.observation_paranoid=0 lifts it)\n" },
		{ "", "--metric-set ComputeBasic",
		  "gpuprof-oa: " NODE ": not allowed to open a system-wide xe OA stream: that needs CAP_PERFMON (or root) while dev.xe.observation_paranoid is 1 (sysctl dev.xe.observation_paranoid=0 lifts it)\n" },
		{ "GPUPROF_SHIM_PERFMON=1", "--oa-unit 1",
		  "gpuprof-oa: " NODE ": metric set RenderBasic is read with report format 17, which OA unit 1 (media, OAM) of this GPU does not offer: choose another unit (--oa-unit) or set\n" },
		{ "GPUPROF_SHIM_PERFMON=1", "--oa-unit 5",
		  "gpuprof-oa: " NODE ": there is no OA unit 5: xe lists 2 (--oa-unit 0 to 1)\n" },
		{ "", "--oa-source i915",
		  "gpuprof-oa: no Intel GPU (i915) found: " NODE " is driven by xe, not i915\n" },
		{ "", "--oa-source radeon",
		  "gpuprof-oa: --oa-source: 'radeon' is not a source of OA: i915, xe or sim (the simulator)\n" },
		{ "", "--metric-set NoSuchSet",
		  "gpuprof-oa: metric set 'NoSuchSet' is not one of IGT's lnl sets (device 0x6420); SYS/class/drm/card0/metrics has: ComputeBasic (COMPUTE)\n" },
		{ "GPUPROF_SHIM_PERFMON=1", "--metric-set 12345678-1234-1234-1234-123456789abc",
		  "gpuprof-oa: metric set 12345678-1234-1234-1234-123456789abc (12345678-1234-1234-1234-123456789abc) is not registered with xe, and gpuprof does not know its registers to register it; SYS/class/drm/card0/metrics has: ComputeBasic (COMPUTE)\n" },
	};
	char want[1024], *at;
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		/* SYS, RENDER and COMPUTE stand for what the fixture made. */
		snprintf(want, sizeof(want), "%s", c[i].line);
		at = strstr(want, "SYS");
		if (at)
			snprintf(at, sizeof(want) - (at - want), "%s%s",
				 self->sys, strstr(c[i].line, "SYS") + 3);
		at = strstr(want, "RENDER)");
		if (at)
			snprintf(at, sizeof(want) - (at - want), "%s%s",
				 self->render, strstr(c[i].line, "RENDER)") + 6);
		at = strstr(want, "COMPUTE)");
		if (at)
			snprintf(at, sizeof(want) - (at - want), "%s%s",
				 self->compute, strstr(c[i].line, "COMPUTE)") + 7);
		EXPECT_EQ(1, run_oa(self, c[i].env, "%s -o '%s'", c[i].args,
				    self->file)) TH_LOG("%s %s", c[i].env, c[i].args);
		EXPECT_STREQ(want, self->out) TH_LOG("case %zu", i);
		EXPECT_NE(0, access(self->file, F_OK)) TH_LOG("case %zu", i);
	}
}

/*
 * The DEVICE_TOPOLOGY record, made from the shim's GT_TOPOLOGY (8 Xe
 * cores of 8 vector engines), is byte for byte the simulator's lnl one,
 * padded to 8; so metrics read 64 vector engines: RenderBasic's
 * XVE_THREADS_OCCUPANCY_ALL, PEC14 * 8 / (7 threads * 64) * 100 /
 * clocks, is 84000007 * 8 / 448 = 1500000 (UDIV), * 100 / 3000000 =
 * 50.0 (oa_metrics_test's lnl case), and 0.0 with no topology.
 */
TEST_F(xe, the_topology_is_the_gt_topology_in_i915_layout)
{
	struct gpuprof_oa_deltas d = { .deltas = 1, .gpu_ticks = 3000000 };
	static struct oa_metrics m;
	struct oa_metrics_device dev;
	__u64 want[GPUPROF_OA_RECORD_MAX / 8] = { 0 };
	struct rec *r = self->r;
	const char *sym;
	size_t len;
	unsigned int i;
	bool found = false;

	ASSERT_EQ(0, run_oa(self, "GPUPROF_SHIM_PERFMON=1",
			    "--duration 1 --metric-set RenderBasic -o '%s'",
			    self->file))
		TH_LOG("%s", self->out);
	ASSERT_EQ(0, parse(self->file, r));
	len = oa_sim_platform_topology(oa_sim_platform_find("lnl"), want,
				       sizeof(want));
	ASSERT_EQ(85, len);
	ASSERT_EQ(88, r->topo_len);
	EXPECT_EQ(0, memcmp(want, r->topo, r->topo_len));

	dev = (struct oa_metrics_device){
		.device_id = r->s.info.device_id,
		.revision = r->s.info.device_revision,
		.timestamp_frequency = r->s.info.timestamp_frequency,
		.gt_min_hz = r->s.info.gt_min_frequency,
		.gt_max_hz = r->s.info.gt_max_frequency,
		.topology = r->topo, .topology_len = r->topo_len,
	};
	ASSERT_EQ(0, oa_metrics_init(&m, oa_metrics_set_of(DEVICE_ID,
							   "RenderBasic", ""),
				     &dev));
	EXPECT_EQ(64, m.vars.n_eus);
	EXPECT_EQ(8, m.vars.n_subslices);
	d.a[14] = 84000007;
	oa_metrics_compute(&m, &d);
	for (i = 0; i < m.n; i++) {
		sym = oa_metric_str(oa_metrics_counter(&m, i)->symbol);
		if (strcmp(sym, "XVE_THREADS_OCCUPANCY_ALL"))
			continue;
		found = true;
		EXPECT_EQ(50.0, oa_metrics_value(&m, i)->d);
	}
	EXPECT_TRUE(found);
}

/*
 * A Panther Lake (0xB080) under 7.3's xe: gpuprof-oa registers oa-ptl's
 * RenderBasic (its 231 registers), opens unit 0 with PEC64u64 (65797)
 * and exponent 13, and records it: 0xB080, 576-byte reports, and a
 * topology of 12 Xe cores (12 subslices of 8 EUs in i915's layout of
 * 32 subslice and 16 EU bits: 16 + 1 + 4 + 32 * 2 = 85 bytes, 88 with
 * padding, the simulator's ptl row byte for byte).  -v says what 7.3
 * says of the unit: OAG of GT 0 and its six capabilities.  Unit 1 of
 * 7.3's list is the media GT's OAM_SAG unit, refused by name with the
 * units gpuprof does record, 0 and 2; unit 2, the media engines' OAM,
 * takes the media sets.
 */
TEST_F(xe, panther_lake_under_7_3)
{
	const struct oa_metric_set *set;
	__u64 want[GPUPROF_OA_RECORD_MAX / 8] = { 0 };
	char uuid[OA_METRIC_UUID_LEN + 1], line[512];
	struct rec *r = self->r;
	unsigned int n_regs;

	set = oa_metric_set_find(oa_metric_platform_find("ptl"), "RenderBasic");
	ASSERT_NE(NULL, set);
	oa_metric_uuid_format(set->uuid, uuid);
	EXPECT_STREQ("a78beb3a-98d1-48cc-86ee-29bb3cc3b5a7", uuid);
	oa_metric_set_regs(set, &n_regs);
	EXPECT_EQ(231, n_regs);
	ASSERT_EQ(0, run_oa(self, "GPUPROF_SHIM_PERFMON=1 GPUPROF_SHIM_DEVICE_ID=0xb080",
			    "--duration 0.5 -v -o '%s'", self->file))
		TH_LOG("%s", self->out);
	snprintf(line, sizeof(line),
		 "add %s 1\nprop 1 0\nprop 2 1\nprop 3 1\nprop 4 65797\nprop 5 13\nopen ",
		 uuid);
	EXPECT_EQ(0, strncmp(line, read_log(self), strlen(line)))
		TH_LOG("%s", self->logbuf);
	EXPECT_NE(NULL, strstr(self->out,
			       "gpuprof-oa: " NODE ": OA unit 0: OAG of GT 0, 19200000 Hz, capabilities BASE SYNCS OA_BUFFER_SIZE WAIT_NUM_REPORTS OAM OA_UNIT_GT_ID\n"))
		TH_LOG("%s", self->out);
	ASSERT_EQ(0, parse(self->file, r)) TH_LOG("%s", gpuprof_oa_error_name(r->s.error));
	EXPECT_EQ(GPUPROF_OA_DRIVER_XE, r->s.drv.driver);
	EXPECT_EQ(0xb080, r->s.info.device_id);
	EXPECT_STREQ("Panther Lake", r->s.platform->name);
	EXPECT_EQ(GPUPROF_OA_FORMAT_PEC64u64, r->s.info.oa_format);
	EXPECT_STREQ("RenderBasic", r->s.info.metric_set_name);
	EXPECT_STREQ(uuid, r->s.info.metric_set_uuid);
	EXPECT_EQ(576, r->s.layout.size);
	/* 0.5 s of 853333 ns reports: 585 and some. */
	EXPECT_GE(r->s.samples, 585);
	EXPECT_EQ(0, r->s.report_lost + r->s.buffer_lost);
	check_shape(_metadata, r);
	ASSERT_EQ(85, oa_sim_platform_topology(oa_sim_platform_find("ptl"), want,
					       sizeof(want)));
	ASSERT_EQ(88, r->topo_len);
	EXPECT_EQ(0, memcmp(want, r->topo, r->topo_len));

	EXPECT_EQ(1, run_oa(self, "GPUPROF_SHIM_PERFMON=1 GPUPROF_SHIM_DEVICE_ID=0xb080",
			    "--oa-unit 1 -o '%s'", self->file));
	EXPECT_STREQ("gpuprof-oa: " NODE ": OA unit 1 is xe's OAM_SAG unit, which gpuprof does not record from: it records OAG and OAM units (here 0 (OAG), 2 (OAM))\n",
		     self->out);
	EXPECT_EQ(1, run_oa(self, "GPUPROF_SHIM_PERFMON=1 GPUPROF_SHIM_DEVICE_ID=0xb080",
			    "--oa-unit 2 -o '%s'", self->file));
	EXPECT_STREQ("gpuprof-oa: " NODE ": metric set RenderBasic is read with report format 17, which OA unit 2 (media, OAM) of this GPU does not offer: choose another unit (--oa-unit) or set\n",
		     self->out);
	/* The same Lunar Lake under 7.3: its unit 1 is the SAG unit too. */
	EXPECT_EQ(1, run_oa(self, "GPUPROF_SHIM_PERFMON=1 GPUPROF_SHIM_KERNEL=7.3",
			    "--oa-unit 1 -o '%s'", self->file));
	EXPECT_STREQ("gpuprof-oa: " NODE ": OA unit 1 is xe's OAM_SAG unit, which gpuprof does not record from: it records OAG and OAM units (here 0 (OAG), 2 (OAM))\n",
		     self->out);
	/* Under 6.12 there is no Panther Lake. */
	EXPECT_EQ(1, run_oa(self, "GPUPROF_SHIM_PERFMON=1 GPUPROF_SHIM_DEVICE_ID=0xb080 GPUPROF_SHIM_KERNEL=6.12",
			    "-o '%s'", self->file));
	EXPECT_STREQ("gpuprof-oa: " NODE ": No such device or address\n", self->out);
}

TEST_HARNESS_MAIN
