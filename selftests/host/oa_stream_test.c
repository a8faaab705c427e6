// SPDX-License-Identifier: GPL-2.0-only
/*
 * OA recordings as their readers see them: the gpuprof-oa command line
 * that writes them, and IGT's i915-perf-reader (a real peer) reading
 * what we write, checked against the shared decoder's reading.  Panther
 * Lake, which no IGT reader here knows (the installed 1.27.1 predates
 * it, and IGT's xe recorder's files are not ours), is checked instead
 * by the decoder and the metrics against values worked out from the
 * report bytes by the equations of oa-ptl.xml, written out here.
 *
 * gpuprof-oa is $GPUPROF_OA, else beside $GPUPROF_PERF_GPU, else the
 * sanitizer build in this checkout's tools/perf-gpu/out/asan/.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/run.h"
#include "../lib/setup_provides.h"
#include "../../module/oa_decode.h"
#include "../../tools/perf-gpu/oa/metrics.h"
#include "../../tools/perf-gpu/oa/sim.h"

#define MS 1000000ull
#define OUT_SIZE (4 << 20)

static const char *gpuprof_oa(void)
{
	static char path[PATH_MAX];
	const char *p = getenv("GPUPROF_OA");
	char *slash;
	ssize_t n;

	if (p)
		return p;
	p = getenv("GPUPROF_PERF_GPU");
	if (p && strchr(p, '/')) {
		snprintf(path, sizeof(path), "%.*s/gpuprof-oa",
			 (int)(strrchr(p, '/') - p), p);
		return path;
	}
	/* This test is selftests/out/host/oa_stream_test. */
	n = readlink("/proc/self/exe", path, sizeof(path) - 64);
	if (n < 0)
		return "gpuprof-oa";
	path[n] = '\0';
	slash = strrchr(path, '/');
	strcpy(slash, "/../../../tools/perf-gpu/out/asan/gpuprof-oa");
	return path;
}

static bool have_igt_reader(void)
{
	char out[256];

	return run_cmd(out, sizeof(out), "command -v i915-perf-reader") == 0;
}

/* What our decoder makes of a recording. */
struct reading {
	struct gpuprof_oa_stream s;
	__u32 ctx[1 << 16];
	__u32 reason[1 << 16];
	size_t n;
};

static void on_record(void *arg, const struct gpuprof_oa_stream *s,
		      const struct gpuprof_oa_record_header *h,
		      const void *payload)
{
	struct reading *r = arg;
	struct gpuprof_oa_report rep;

	if (h->type != GPUPROF_OA_RECORD_SAMPLE || r->n == 1 << 16)
		return;
	gpuprof_oa_report_header(&s->layout, payload, &rep);
	r->ctx[r->n] = rep.ctx_id;
	r->reason[r->n++] = rep.reason;
}

static int read_file(const char *path, struct reading *r)
{
	static __u8 rbuf[GPUPROF_OA_RECORD_MAX];
	__u8 buf[4096];
	size_t k;
	FILE *f = fopen(path, "rb");

	if (!f)
		return -1;
	memset(r, 0, sizeof(*r));
	gpuprof_oa_stream_init(&r->s, rbuf);
	while ((k = fread(buf, 1, sizeof(buf), f)))
		if (gpuprof_oa_stream_feed(&r->s, buf, k, on_record, r))
			break;
	fclose(f);
	return gpuprof_oa_stream_end(&r->s);
}

/*
 * The context ids IGT's reader lists ("hw_id=0x..."), one per run of
 * reports with the same context: a run ends at a report in another
 * context; the last run counts only if it has two reports or more.
 */
static size_t igt_timelines(const struct reading *r, __u32 *ids, size_t max)
{
	size_t i, start = 0, n = 0;

	for (i = 1; i < r->n && n < max; i++) {
		if (r->ctx[i] == r->ctx[start])
			continue;
		ids[n++] = r->ctx[start];
		start = i;
	}
	if (r->n && start != r->n - 1 && n < max)
		ids[n++] = r->ctx[start];
	return n;
}

static unsigned long field(const char *out, const char *name)
{
	const char *p = strstr(out, name);

	return p ? strtoul(p + strlen(name), NULL, 0) : ULONG_MAX;
}

FIXTURE(oa) {
	char dir[64];
	char file[128];
	char *out;
	struct reading r;
};

FIXTURE_SETUP(oa)
{
	strcpy(self->dir, "/tmp/gpuprof-oa-test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->file, sizeof(self->file), "%s/rec", self->dir);
	self->out = malloc(OUT_SIZE);
	ASSERT_NE(NULL, self->out);
}

FIXTURE_TEARDOWN(oa)
{
	char out[256];

	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
	free(self->out);
}

/*
 * Run i915-perf-reader -r on self->file and compare with our reading:
 * the same reports, correlation points and contexts, the metric set
 * found by name and its uuid ours (no "different HW configuration"),
 * and a reason line for every report but the last.
 */
static void check_igt_reader(struct __test_metadata *_metadata,
			     FIXTURE_DATA(oa) *self)
{
	static __u32 ids[1 << 16];
	size_t n_ids, i, timers = 0, switches = 0;
	const char *p;

	ASSERT_EQ(0, read_file(self->file, &self->r))
		TH_LOG("%s", gpuprof_oa_error_name(self->r.s.error));
	ASSERT_LT(self->r.n, 1 << 16);
	n_ids = igt_timelines(&self->r, ids, 1 << 16);
	for (i = 0; i + 1 < self->r.n; i++) {
		timers += self->r.reason[i] == GPUPROF_OA_REASON_TIMER;
		switches += self->r.reason[i] == GPUPROF_OA_REASON_CTX_SWITCH;
	}

	ASSERT_EQ(0, run_cmd(self->out, OUT_SIZE, "i915-perf-reader -r '%s'",
			     self->file)) TH_LOG("%.2000s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "device=0x9a49(tigerlake) graphics_ver=12"));
	EXPECT_NE(NULL, strstr(self->out,
			       "Metric used : RenderBasic (Render Metrics Basic set) uuid=0fc397c0-4833-492c-9ccd-4929d574d5b8\n"));
	EXPECT_EQ(NULL, strstr(self->out, "WARNING"));
	EXPECT_EQ(self->r.s.samples, field(self->out, "\nReports: "));
	EXPECT_EQ(n_ids, field(self->out, "\nContext switches: "));
	EXPECT_EQ(self->r.s.correlations / 2,
		  field(self->out, "\nTimestamp correlation points: "));

	p = self->out;
	for (i = 0; i < n_ids; i++) {
		p = strstr(p, "\nhw_id=");
		ASSERT_NE(NULL, p) TH_LOG("timeline %zu of %zu", i, n_ids);
		p += strlen("\nhw_id=");
		ASSERT_EQ(ids[i], strtoul(p, NULL, 0)) TH_LOG("timeline %zu", i);
	}
	EXPECT_EQ(NULL, strstr(p, "\nhw_id="));

	for (i = 0, p = self->out; (p = strstr(p, " = timer\n")); p++)
		i++;
	EXPECT_EQ(timers, i);
	for (i = 0, p = self->out; (p = strstr(p, " = context-switch\n")); p++)
		i++;
	EXPECT_EQ(switches, i);
}

TEST_F(oa, igt_reader_reads_a_gpuprof_oa_recording)
{
	SETUP_PROVIDES(have_igt_reader(), "i915-perf-reader (package intel-gpu-tools)");
	ASSERT_EQ(0, run_cmd(self->out, OUT_SIZE,
			     "%s --sim --seed 21 --contexts 3 --duration 2.5 --period 1000000 --loss-every 50 --buffer-loss-every 400 -o '%s'",
			     gpuprof_oa(), self->file)) TH_LOG("%s", self->out);
	check_igt_reader(_metadata, self);
	/* 2.5 s at 853333 ns: 2929 or 2930 timer reports, and switches. */
	EXPECT_GT(self->r.s.samples, 2930);
	EXPECT_EQ(self->r.s.samples / 50, self->r.s.report_lost);
	EXPECT_EQ(self->r.s.samples / 400, self->r.s.buffer_lost);
	EXPECT_EQ(4, self->r.s.correlations / 2);
}

/* Over a wrap of the 32-bit timestamp, with a context switch close
 * before it: IGT's reader needs the point at the wrap to place it. */
TEST_F(oa, igt_reader_reads_a_wrapped_recording)
{
	struct oa_sim_config cfg = {
		.seed = 2, .period_ns = 100 * MS,
		/* 10 s before a wrap. */
		.start_gpu_ts = (5ull << 32) - 10 * OA_SIM_TIMESTAMP_HZ,
	};
	struct oa_sim_interval iv[] = {
		{ 1000 * MS, 9999 * MS, 0x100 },	/* ends 1 ms before the wrap */
		{ 9999 * MS, 10100 * MS, 0x120 },
		{ 12000 * MS, 19000 * MS, 0x100 },
	};
	struct oa_writer w;
	struct oa_sim s;
	FILE *f;

	SETUP_PROVIDES(have_igt_reader(), "i915-perf-reader (package intel-gpu-tools)");
	f = fopen(self->file, "wb");
	ASSERT_NE(NULL, f);
	oa_writer_init(&w, f);
	ASSERT_EQ(0, oa_sim_init(&s, &cfg, &w));
	ASSERT_EQ(0, oa_sim_run(&s, 20000 * MS, iv, 3));
	ASSERT_EQ(0, oa_sim_finish(&s));
	ASSERT_EQ(0, fclose(f));
	/* 0, 1..20 s, the end (20 s + 1 tick) and the last tick before
	 * the wrap. */
	EXPECT_EQ(22 + 1, s.correlations);
	check_igt_reader(_metadata, self);
}

/* A long recording from the command line: 300 s wraps at least once. */
TEST_F(oa, igt_reader_reads_a_long_recording)
{
	SETUP_PROVIDES(have_igt_reader(), "i915-perf-reader (package intel-gpu-tools)");
	ASSERT_EQ(0, run_cmd(self->out, OUT_SIZE,
			     "%s --sim --seed 8 --contexts 4 --duration 300 --period 100000000 -o '%s'",
			     gpuprof_oa(), self->file)) TH_LOG("%s", self->out);
	check_igt_reader(_metadata, self);
}

TEST_F(oa, same_seed_same_file_and_stdout_is_the_same)
{
	char out[256];
	const char *oa = gpuprof_oa();
	const char *args = "--sim --seed 5 --duration 0.3 --period 200000 --contexts 2";

	ASSERT_EQ(0, run_cmd(self->out, OUT_SIZE, "%s %s -o '%s'", oa, args,
			     self->file)) TH_LOG("%s", self->out);
	EXPECT_EQ(0, run_cmd(self->out, OUT_SIZE, "%s %s -o '%s.2'", oa, args,
			     self->file));
	EXPECT_EQ(0, run_cmd(out, sizeof(out), "cmp '%s' '%s.2'", self->file,
			     self->file)) TH_LOG("%s", out);
	EXPECT_EQ(0, run_cmd(self->out, OUT_SIZE, "%s %s > '%s.3'", oa, args,
			     self->file));
	EXPECT_EQ(0, run_cmd(out, sizeof(out), "cmp '%s' '%s.3'", self->file,
			     self->file)) TH_LOG("%s", out);
	EXPECT_EQ(0, run_cmd(self->out, OUT_SIZE, "%s %s --seed 6 -o '%s.4'",
			     oa, args, self->file));
	EXPECT_NE(0, run_cmd(out, sizeof(out), "cmp -s '%s' '%s.4'", self->file,
			     self->file));
	/* 0.3 s at 213333 ns (exponent 11): 1406 timer reports, +-1. */
	ASSERT_EQ(0, read_file(self->file, &self->r));
	EXPECT_GE(self->r.s.samples, 1405);
}

/* The first correlation point of a recording, from its bytes. */
static __u64 first_cpu_point(const char *path)
{
	struct gpuprof_oa_record_header h;
	struct gpuprof_oa_correlation c;
	__u64 cpu = 0;
	FILE *f = fopen(path, "rb");

	while (f && fread(&h, sizeof(h), 1, f) == 1 && h.size >= sizeof(h)) {
		if (h.type == GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION) {
			if (fread(&c, sizeof(c), 1, f) == 1)
				cpu = c.cpu_timestamp;
			break;
		}
		fseek(f, h.size - sizeof(h), SEEK_CUR);
	}
	if (f)
		fclose(f);
	return cpu;
}

TEST_F(oa, start_ns_places_the_stream_on_this_clock)
{
	struct timespec a, b;
	__u64 cpu;

	ASSERT_EQ(0, run_cmd(self->out, OUT_SIZE,
			     "%s --sim --duration 0.01 --start-ns 123456789000 -o '%s'",
			     gpuprof_oa(), self->file)) TH_LOG("%s", self->out);
	EXPECT_EQ(123456789000ull, first_cpu_point(self->file));
	clock_gettime(CLOCK_MONOTONIC, &a);
	ASSERT_EQ(0, run_cmd(self->out, OUT_SIZE,
			     "%s --sim --duration 0.01 --start-ns now -o '%s'",
			     gpuprof_oa(), self->file)) TH_LOG("%s", self->out);
	clock_gettime(CLOCK_MONOTONIC, &b);
	cpu = first_cpu_point(self->file);
	EXPECT_LE(a.tv_sec * 1000000000ull + a.tv_nsec, cpu);
	EXPECT_GE(b.tv_sec * 1000000000ull + b.tv_nsec, cpu);
}

/*
 * --device --oa-source sim: the OA device over the simulator, no GPU and
 * no shim.  1 s of a live Tiger Lake GT2 at 853333 ns: 1171 timer
 * reports at least (the stream opens before the recording's second
 * starts), context switches between the two contexts, a correlation
 * point at the start, one half a second in and one at the end; IGT's
 * reader takes it as the same recording as ours.  Its refusals are one
 * line each.
 */
TEST_F(oa, device_sim_records_a_live_simulated_gpu)
{
	static const struct { const char *args, *line; } c[] = {
		{ "--oa-unit 1", "gpuprof-oa: --oa-unit: only xe has OA units to choose from, and OA comes from the simulator\n" },
		{ "--node /dev/null", "gpuprof-oa: --node: the simulator has no render node\n" },
		{ "--metric-set Nope", "gpuprof-oa: metric set 'Nope' is not one of IGT's tglgt2 sets (device 0x9a49, which the simulator plays)\n" },
	};
	size_t i, timers = 0, switches = 0;

	ASSERT_EQ(0, run_cmd(self->out, OUT_SIZE,
			     "%s --device --oa-source sim --duration 1 -o '%s'",
			     gpuprof_oa(), self->file)) TH_LOG("%s", self->out);
	EXPECT_STREQ("", self->out);
	ASSERT_EQ(0, read_file(self->file, &self->r))
		TH_LOG("%s", gpuprof_oa_error_name(self->r.s.error));
	EXPECT_EQ(0x9a49, self->r.s.info.device_id);
	EXPECT_EQ(GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8, self->r.s.info.oa_format);
	EXPECT_EQ(19200000, self->r.s.info.timestamp_frequency);
	EXPECT_STREQ("RenderBasic", self->r.s.info.metric_set_name);
	EXPECT_STREQ(OA_SIM_METRIC_UUID, self->r.s.info.metric_set_uuid);
	for (i = 0; i < self->r.n; i++) {
		timers += self->r.reason[i] == GPUPROF_OA_REASON_TIMER;
		switches += self->r.reason[i] == GPUPROF_OA_REASON_CTX_SWITCH;
	}
	EXPECT_GE(timers, 1171);
	EXPECT_GT(switches, 10);
	EXPECT_EQ(0, self->r.s.report_lost + self->r.s.buffer_lost);
	EXPECT_EQ(3, self->r.s.correlations / 2);
	if (have_igt_reader())
		check_igt_reader(_metadata, self);

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		EXPECT_EQ(1, run_cmd(self->out, OUT_SIZE,
				     "%s --device --oa-source sim %s -o '%s'",
				     gpuprof_oa(), c[i].args, self->file))
			TH_LOG("%s", c[i].args);
		EXPECT_STREQ(c[i].line, self->out);
	}
}

/* Each bad invocation: exit status 1 and exactly this one line. */
TEST_F(oa, bad_arguments_give_one_line_errors)
{
	static const struct { const char *args, *line; } c[] = {
		{ "--sim --period abc", "gpuprof-oa: --period: 'abc' is not a number from 0 to 18446744073709551615\n" },
		{ "--sim --period -5", "gpuprof-oa: --period: '-5' is not a number from 0 to 18446744073709551615\n" },
		{ "--sim --period 0", "gpuprof-oa: --period must be above 0 ns\n" },
		{ "--sim --seed 99999999999999999999", "gpuprof-oa: --seed: '99999999999999999999' is not a number from 0 to 18446744073709551615\n" },
		{ "--sim --duration 1e3", "gpuprof-oa: --duration: '1e3' is not a duration in seconds (0 to 1000000, at most 9 decimals)\n" },
		{ "--sim --duration 0.0000000001", "gpuprof-oa: --duration: '0.0000000001' is not a duration in seconds (0 to 1000000, at most 9 decimals)\n" },
		{ "--sim --duration 0.0005", "gpuprof-oa: --duration is shorter than one report period (853333 ns): the recording would have no report\n" },
		{ "--sim --period 1 --duration 100", "gpuprof-oa: that is 961538461 reports, more than 100000000: raise --period or lower --duration\n" },
		{ "--sim --contexts 65", "gpuprof-oa: --contexts: '65' is not a number from 0 to 64\n" },
		{ "--sim --loss-every x", "gpuprof-oa: --loss-every: 'x' is not a number from 0 to 4294967295\n" },
		{ "--sim -o /nonexistent/rec", "gpuprof-oa: /nonexistent/rec: No such file or directory\n" },
		{ "--sim -o /dev/full", "gpuprof-oa: writing /dev/full: No space left on device\n" },
		{ "", "gpuprof-oa: no mode given: --sim or --device\n" },
		{ "--sim --device-id zz", "gpuprof-oa: --device-id: 'zz' is not a PCI device id (0x9a49, say)\n" },
		{ "--sim --device-id 0x10000", "gpuprof-oa: --device-id: '0x10000' is not a PCI device id (0x9a49, say)\n" },
		{ "--sim --device-id 0x1234", "gpuprof-oa: --device-id: 0x1234 is not an Intel GPU whose OA gpuprof knows\n" },
		{ "--sim --device-id 0x8a52 --metric-set Nope", "gpuprof-oa: --metric-set: Nope is not a set of icl ('perf gpu list --device-id 0x8a52 sets' names them)\n" },
		{ "--device --device-id 0x8a52", "gpuprof-oa: --device-id is an option of --sim only\n" },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		EXPECT_EQ(1, run_cmd(self->out, OUT_SIZE, "%s %s", gpuprof_oa(),
				     c[i].args)) TH_LOG("%s", c[i].args);
		EXPECT_STREQ(c[i].line, self->out);
	}
}

/*
 * --device-id plays another GPU: its id, OA timestamp frequency and
 * report format (oa/sim-platform.c) in DEVICE_INFO, the set named, and
 * IGT's reader takes the recording as that GPU's.
 */
TEST_F(oa, sim_plays_the_gpu_of_a_device_id)
{
	static const struct {
		uint32_t id;
		const char *set, *reader;
		uint64_t hz;
		uint32_t format;
	} c[] = {
		{ 0x0412, "ComputeBasic", "device=0x412(haswell) graphics_ver=7", 12500000,
		  GPUPROF_OA_FORMAT_A45_B8_C8 },
		{ 0x8a52, "ComputeBasic", "device=0x8a52(icelake) graphics_ver=11", 12000000,
		  GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8 },
		{ 0x7d55, "RenderBasic", "device=0x7d55(meteorlake) graphics_ver=12", 38400000,
		  GPUPROF_OA_FORMAT_A24u40_A14u32_B8_C8 },
	};
	char want[128];
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		ASSERT_EQ(0, run_cmd(self->out, OUT_SIZE,
				     "%s --sim --device-id 0x%x --metric-set %s --duration 0.1 -o '%s'",
				     gpuprof_oa(), c[i].id, c[i].set, self->file))
			TH_LOG("%s", self->out);
		ASSERT_EQ(0, read_file(self->file, &self->r))
			TH_LOG("%s", gpuprof_oa_error_name(self->r.s.error));
		EXPECT_EQ(c[i].id, self->r.s.info.device_id);
		EXPECT_EQ(c[i].hz, self->r.s.info.timestamp_frequency);
		EXPECT_EQ(c[i].format, self->r.s.info.oa_format);
		EXPECT_STREQ(c[i].set, self->r.s.info.metric_set_name);
		EXPECT_LT(50, self->r.n);
		if (!have_igt_reader())
			continue;
		ASSERT_EQ(0, run_cmd(self->out, OUT_SIZE, "i915-perf-reader '%s'",
				     self->file)) TH_LOG("%.500s", self->out);
		EXPECT_NE(NULL, strstr(self->out, c[i].reader)) TH_LOG("%.500s", self->out);
		snprintf(want, sizeof(want), "\nMetric used : %s (", c[i].set);
		EXPECT_NE(NULL, strstr(self->out, want)) TH_LOG("%.500s", self->out);
		EXPECT_EQ(self->r.s.samples, field(self->out, "\nReports: "));
	}
}

TEST_F(oa, unknown_option_is_a_usage_error)
{
	EXPECT_EQ(129, run_cmd(self->out, OUT_SIZE, "%s --sim --frob", gpuprof_oa()));
	EXPECT_NE(NULL, strstr(self->out, "Error: unknown option `frob'")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "Usage: gpuprof-oa --sim"));
}

/* A Panther Lake recording: its reports and its topology, as read. */
struct ptl_reading {
	struct gpuprof_oa_stream s;
	__u8 report[128][576];
	size_t n, timers;
	__u64 topo[512];
	size_t topo_len;
};

static void on_ptl_record(void *arg, const struct gpuprof_oa_stream *s,
			  const struct gpuprof_oa_record_header *h,
			  const void *payload)
{
	struct ptl_reading *r = arg;
	size_t len = h->size - sizeof(*h);

	if (h->type == GPUPROF_OA_RECORD_DEVICE_TOPOLOGY &&
	    len <= sizeof(r->topo)) {
		memcpy(r->topo, payload, len);
		r->topo_len = len;
	}
	if (h->type == GPUPROF_OA_RECORD_SAMPLE && r->n < 128 &&
	    s->layout.size == 576) {
		struct gpuprof_oa_report rep;

		gpuprof_oa_report_header(&s->layout, payload, &rep);
		r->timers += rep.reason == GPUPROF_OA_REASON_TIMER;
		memcpy(r->report[r->n++], payload, 576);
	}
}

static __u64 le64(const __u8 *p)
{
	__u64 v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static const struct oa_metric_value *metric_named(const struct oa_metrics *m,
						  const char *name)
{
	unsigned int i;

	for (i = 0; i < m->n; i++)
		if (!strcmp(oa_metric_str(oa_metrics_counter(m, i)->symbol), name))
			return oa_metrics_value(m, i);
	return NULL;
}

/*
 * gpuprof-oa --sim --device-id 0xb080 plays a Panther Lake: a recording
 * of 7.3's xe (DRIVER record: xe, 7.3), RenderBasic of oa-ptl.xml, 576
 * byte PEC64u64 reports, 12 Xe cores of 8 vector engines in its
 * topology.  50 ms at exponent 13 (16384 ticks, 853333 ns) hold 58 or
 * 59 timer reports, and context switches add theirs.  For every pair of reports the metrics computed from the
 * decoder's deltas must be those worked out here from the bytes (qword
 * 1 the 56-bit timestamp, qword 3 the clocks, PEC n at byte 32 + 8n, as
 * IGT's xe_oa.c reads 576B reports) by oa-ptl.xml's equations:
 *   GpuTime  dts * 10^9 / 19200000, integer
 *   GPU_BUSY  PEC32 * 100 / clocks
 *   XVE_ACTIVE  (PEC24 / 96) * 100 / clocks, the first division integer
 *   XVE_THREADS_OCCUPANCY_ALL  (PEC14 / (7 * 96)) * 100 / clocks
 *   GPU_MEMORY_BYTE_READ  PEC57 (Xe2's doubles it; Panther Lake's not)
 * The simulator's GT runs at 2400 MHz: 125 clocks a tick.
 */
TEST_F(oa, panther_lake_sim_by_hand)
{
	static struct ptl_reading r;
	static __u8 rbuf[GPUPROF_OA_RECORD_MAX];
	static struct oa_metrics m;
	struct oa_metrics_device dev;
	size_t i, busy = 0;
	FILE *f;
	__u8 chunk[4096];
	size_t k;

	ASSERT_EQ(0, run_cmd(self->out, OUT_SIZE,
			     "%s --sim --device-id 0xb080 --seed 4 --contexts 2 --duration 0.05 -o '%s'",
			     gpuprof_oa(), self->file)) TH_LOG("%s", self->out);
	memset(&r, 0, sizeof(r));
	gpuprof_oa_stream_init(&r.s, rbuf);
	f = fopen(self->file, "rb");
	ASSERT_NE(NULL, f);
	while ((k = fread(chunk, 1, sizeof(chunk), f)))
		if (gpuprof_oa_stream_feed(&r.s, chunk, k, on_ptl_record, &r))
			break;
	fclose(f);
	ASSERT_EQ(0, gpuprof_oa_stream_end(&r.s))
		TH_LOG("%s", gpuprof_oa_error_name(r.s.error));
	EXPECT_EQ(GPUPROF_OA_DRIVER_XE, r.s.drv.driver);
	EXPECT_EQ(GPUPROF_OA_KERNEL(7, 3), r.s.drv.kernel);
	EXPECT_EQ(0xb080, r.s.info.device_id);
	EXPECT_EQ(GPUPROF_OA_FORMAT_PEC64u64, r.s.info.oa_format);
	EXPECT_STREQ("RenderBasic", (const char *)r.s.info.metric_set_name);
	EXPECT_STREQ("a78beb3a-98d1-48cc-86ee-29bb3cc3b5a7",
		     (const char *)r.s.info.metric_set_uuid);
	EXPECT_STREQ("Panther Lake", r.s.platform->name);
	EXPECT_GE(r.timers, 58);
	EXPECT_LE(r.timers, 59);
	ASSERT_LT(r.n, 128);

	dev = (struct oa_metrics_device){
		.device_id = r.s.info.device_id,
		.revision = r.s.info.device_revision,
		.timestamp_frequency = r.s.info.timestamp_frequency,
		.gt_min_hz = r.s.info.gt_min_frequency,
		.gt_max_hz = r.s.info.gt_max_frequency,
		.topology = r.topo, .topology_len = r.topo_len,
	};
	ASSERT_EQ(0, oa_metrics_init(&m, oa_metrics_set_of(0xb080, "RenderBasic", NULL),
				     &dev));
	EXPECT_EQ(96, m.vars.n_eus);
	EXPECT_EQ(12, m.vars.n_subslices);
	EXPECT_EQ(7, m.vars.eu_threads);
	EXPECT_EQ(19200000, r.s.info.timestamp_frequency);

	for (i = 1; i < r.n; i++) {
		const __u8 *a = r.report[i - 1], *b = r.report[i];
		struct gpuprof_oa_deltas d = { 0 };
		__u64 dts = (le64(b + 8) - le64(a + 8)) & ((1ull << 56) - 1);
		__u64 clocks = le64(b + 24) - le64(a + 24);
		__u64 pec[64];
		unsigned int n;

		for (n = 0; n < 64; n++)
			pec[n] = le64(b + 32 + 8 * n) - le64(a + 32 + 8 * n);
		EXPECT_EQ(dts * 125, clocks) TH_LOG("pair %zu", i);
		gpuprof_oa_accumulate(&r.s.layout, a, b, &d);
		oa_metrics_compute(&m, &d);
		EXPECT_EQ(dts * 1000000000ull / 19200000,
			  metric_named(&m, "GpuTime")->u) TH_LOG("pair %zu", i);
		EXPECT_EQ(clocks, metric_named(&m, "GpuCoreClocks")->u);
		EXPECT_EQ((double)(pec[32] * 100) / (double)clocks,
			  metric_named(&m, "GPU_BUSY")->d) TH_LOG("pair %zu", i);
		EXPECT_EQ((double)(pec[24] / 96 * 100) / (double)clocks,
			  metric_named(&m, "XVE_ACTIVE")->d) TH_LOG("pair %zu", i);
		EXPECT_EQ((double)(pec[14] / (7 * 96) * 100) / (double)clocks,
			  metric_named(&m, "XVE_THREADS_OCCUPANCY_ALL")->d)
			TH_LOG("pair %zu", i);
		EXPECT_EQ(pec[57], metric_named(&m, "GPU_MEMORY_BYTE_READ")->u);
		EXPECT_LE(metric_named(&m, "GPU_BUSY")->d, 100.0);
		EXPECT_LE(metric_named(&m, "XVE_THREADS_OCCUPANCY_ALL")->d, 100.0);
		busy += pec[32] > 0;
	}
	/* Two contexts take turns with idle gaps: some pairs of each. */
	EXPECT_GT(busy, 0);
	EXPECT_LT(busy, r.n - 1);
	TH_LOG("%zu reports (%zu timer), %zu pairs with work", r.n, r.timers,
	       busy);
}

TEST_HARNESS_MAIN
