// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof-oa --device against the i915 shim (selftests/i915-shim/): the
 * stream properties it asks i915 for, what it records (read back with
 * the shared parser, module/oa_decode.c), the losses it passes on, its
 * clock correlation, its errors and how it stops.  Expected values are
 * worked out by hand in the comments.
 *
 * The program under test is the sanitizer build of gpuprof-oa ($GPUPROF_OA,
 * else tools/perf-gpu/out/asan/gpuprof-oa of this checkout), run with
 * LD_PRELOAD="<this test's own libasan> <shim>": ASan's runtime must come
 * first in the list, and the shim reaches libc behind ASan's interceptors
 * through RTLD_NEXT.  The shim is $GPUPROF_I915_SHIM, else
 * selftests/out/libi915_shim.so.
 */
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
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
#define UUID "0fc397c0-4833-492c-9ccd-4929d574d5b8"
#define METRICS_ID 42
/* 1 ms at 19.2 MHz: exponent e samples every 2^(e+1) ticks; 19200 ticks
 * lie between 2^14 = 16384 (e = 13) and 2^15 (e = 14), nearer 16384, so
 * e = 13, a period of 16384 / 19.2 MHz = 853333 ns. */
#define EXPONENT_1MS 13
#define PERIOD_1MS_NS 853333ull
#define MAX_RECS 8192

/* One recording as the shared parser reads it. */
struct rec {
	struct gpuprof_oa_stream s;
	__u8 buf[GPUPROF_OA_RECORD_MAX];
	__u32 type[MAX_RECS];
	__u64 cpu[MAX_RECS], gpu[MAX_RECS], window[MAX_RECS];
	__u32 ts[MAX_RECS];		/* SAMPLE: the report's timestamp */
	size_t n;
};

static void on_record(void *arg, const struct gpuprof_oa_stream *s,
		      const struct gpuprof_oa_record_header *h,
		      const void *payload)
{
	struct rec *r = arg;
	struct gpuprof_oa_correlation_bound b;
	struct gpuprof_oa_report rep;

	if (r->n == MAX_RECS)
		return;
	r->type[r->n] = h->type;
	if (h->type == GPUPROF_OA_RECORD_SAMPLE) {
		gpuprof_oa_report_header(&s->layout, payload, &rep);
		r->ts[r->n] = rep.timestamp;
	} else if (h->type == GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION ||
		   h->type == GPUPROF_OA_RECORD_CORRELATION_BOUND) {
		memset(&b, 0, sizeof(b));
		memcpy(&b, payload, h->size - sizeof(*h));
		r->cpu[r->n] = b.cpu_timestamp;
		r->gpu[r->n] = b.gpu_timestamp;
		r->window[r->n] = b.window_ns;
	}
	r->n++;
}

static int parse(const char *path, struct rec *r)
{
	r->n = 0;
	return oa_file_parse(path, &r->s, r->buf, on_record, r);
}

FIXTURE(i915) {
	char dir[64];
	char sys[128];
	char log[128];
	char file[128];
	char preload[2 * PATH_MAX + 2];
	char out[OUT_SIZE];
	char logbuf[4096];
	struct rec *r;
};

/* The fake sysfs: card0 is renderD199's card; RenderBasic is id 42. */
FIXTURE_SETUP(i915)
{
	strcpy(self->dir, "/tmp/gpuprof-i915-test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->sys, sizeof(self->sys), "%s/sys", self->dir);
	snprintf(self->log, sizeof(self->log), "%s/log", self->dir);
	snprintf(self->file, sizeof(self->file), "%s/rec", self->dir);
	ASSERT_EQ(0, fake_i915_sysfs(self->sys,
				     &(struct fake_metric_set){ UUID, 42 }, 1,
				     100, 1300)) TH_LOG("%s: %m", self->sys);
	snprintf(self->preload, sizeof(self->preload), "%s %s", asan_runtime(),
		 i915_shim_path());
	ASSERT_EQ(0, access(i915_shim_path(), R_OK)) TH_LOG("no shim at %s", i915_shim_path());
	self->r = malloc(sizeof(*self->r));
	ASSERT_NE(NULL, self->r);
}

FIXTURE_TEARDOWN(i915)
{
	char out[256];

	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
	free(self->r);
}

/* gpuprof-oa --device on the shim's node, with @env before it. */
__attribute__((format(printf, 3, 4)))
static int run_oa(FIXTURE_DATA(i915) *self, const char *env,
		  const char *fmt, ...)
{
	char args[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	return run_cmd(self->out, OUT_SIZE,
		       "GPUPROF_SYSFS_ROOT='%s' GPUPROF_SHIM_LOG='%s' %s LD_PRELOAD='%s' %s --device --node " NODE " %s",
		       self->sys, self->log, env, self->preload, host_gpuprof_oa_path(),
		       args);
}

static const char *read_log(FIXTURE_DATA(i915) *self)
{
	return file_text(self->log, self->logbuf, sizeof(self->logbuf));
}

/*
 * Each correlation point is followed by its bound, the same point with a
 * window; points move both clocks forward, 19.2 ticks per us.
 * Return: the number of points.
 */
static size_t check_points(struct __test_metadata *_metadata,
			   const struct rec *r)
{
	size_t i, points = 0, last = 0;
	double rate;

	for (i = 0; i < r->n; i++) {
		if (r->type[i] != GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION)
			continue;
		/* Not the last record: its bound follows. */
		EXPECT_LT(i + 1, r->n);
		if (i + 1 == r->n)
			break;
		EXPECT_EQ(GPUPROF_OA_RECORD_CORRELATION_BOUND, r->type[i + 1]);
		EXPECT_EQ(r->cpu[i], r->cpu[i + 1]);
		EXPECT_EQ(r->gpu[i], r->gpu[i + 1]);
		/* Three register reads by ioctl: the narrowest is short. */
		EXPECT_LT(r->window[i + 1], 1000000) TH_LOG("window %llu ns",
			(unsigned long long)r->window[i + 1]);
		if (points) {
			EXPECT_GT(r->cpu[i], r->cpu[last]);
			EXPECT_GT(r->gpu[i], r->gpu[last]);
			/* At most 1 s apart (DESIGN section 5). */
			EXPECT_LE(r->cpu[i] - r->cpu[last], 1000000000ull);
			rate = (double)(r->gpu[i] - r->gpu[last]) /
			       (r->cpu[i] - r->cpu[last]);
			EXPECT_GT(rate, 0.0192 * 0.99) TH_LOG("%f ticks/ns", rate);
			EXPECT_LT(rate, 0.0192 * 1.01) TH_LOG("%f ticks/ns", rate);
		}
		last = i;
		points++;
	}
	return points;
}

/* The first and the last record of @type in @r: false if none. */
static bool first_last(const struct rec *r, __u32 type, size_t *first,
		       size_t *last)
{
	size_t i;

	*first = r->n;
	for (i = 0; i < r->n; i++)
		if (r->type[i] == type) {
			if (*first == r->n)
				*first = i;
			*last = i;
		}
	return *first < r->n;
}

/*
 * Periods of @ticks from the first report to the last, to the nearest:
 * the shim's reports are a period of ns apart, which the 19.2 MHz clock
 * takes to a tick.
 */
static __u64 report_periods(const struct rec *r, __u32 ticks)
{
	size_t first, last;

	if (!first_last(r, GPUPROF_OA_RECORD_SAMPLE, &first, &last))
		return 0;
	return ((__u32)(r->ts[last] - r->ts[first]) + ticks / 2) / ticks;
}

/* CPU time from the first correlation point to the last: the timed part. */
static __u64 timed_ns(const struct rec *r)
{
	size_t first, last;

	if (!first_last(r, GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION, &first, &last))
		return 0;
	return r->cpu[last] - r->cpu[first];
}

/* The last record: the closing point's bound, after every report. */
static void check_closing_point(struct __test_metadata *_metadata,
				const struct rec *r)
{
	size_t i;

	ASSERT_GE(r->n, 2);
	ASSERT_EQ(GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION, r->type[r->n - 2]);
	ASSERT_EQ(GPUPROF_OA_RECORD_CORRELATION_BOUND, r->type[r->n - 1]);
	for (i = 0; i < r->n; i++)
		if (r->type[i] == GPUPROF_OA_RECORD_SAMPLE)
			/* 32-bit time before the closing point's, mod 2^32. */
			EXPECT_LT((__u32)(r->gpu[r->n - 1] - r->ts[i]), 1u << 31)
				TH_LOG("report %zu at 0x%x, end 0x%llx", i, r->ts[i],
				       (unsigned long long)r->gpu[r->n - 1]);
}

TEST_F(i915, opens_the_stream_with_the_right_properties_and_records_it)
{
	static const char want[] =
		"flags 3\n"		/* FD_CLOEXEC | FD_NONBLOCK */
		"prop 2 1\n"		/* SAMPLE_OA */
		"prop 3 42\n"		/* OA_METRICS_SET: the fake sysfs id */
		"prop 4 10\n"		/* OA_FORMAT A32u40_A4u32_B8_C8 */
		"prop 5 13\n"		/* OA_EXPONENT of 1 ms */
		"prop 8 5000000\n"	/* POLL_OA_PERIOD: i915's own 5 ms */
		"open ";
	struct rec *r = self->r;
	char line[256];

	ASSERT_EQ(0, run_oa(self, "", "--period 1000000 --duration 0.4 -v -o '%s'",
			    self->file)) TH_LOG("%s", self->out);
	EXPECT_EQ(0, strncmp(read_log(self), want, strlen(want)))
		TH_LOG("log:\n%s", self->logbuf);

	ASSERT_EQ(0, parse(self->file, r))
		TH_LOG("%s", gpuprof_oa_error_name(r->s.error));
	EXPECT_EQ(0x9a49, r->s.info.device_id);
	EXPECT_EQ(19200000, r->s.info.timestamp_frequency);
	EXPECT_EQ(10, r->s.info.oa_format);
	EXPECT_EQ(100000000, r->s.info.gt_min_frequency);
	EXPECT_EQ(1300000000, r->s.info.gt_max_frequency);
	EXPECT_STREQ("RenderBasic", r->s.info.metric_set_name);
	EXPECT_STREQ(UUID, r->s.info.metric_set_uuid);
	/* 0.4 s at 853333 ns is 468.75 reports; the stream opens a little
	 * before the timed part starts, so a few more. */
	EXPECT_GE(r->s.samples, 465);
	/*
	 * How many more depends on how busy the machine is; the reports
	 * come one period apart whatever it is, and the timed part lasts
	 * 0.4 s.  A bound on its overrun is a hang catcher, not a verdict
	 * on speed.
	 */
	EXPECT_EQ(r->s.samples - 1, report_periods(r, 16384));
	EXPECT_LE(400000000ull, timed_ns(r));
	EXPECT_GT(400000000ull + 5000000000ull, timed_ns(r));
	EXPECT_EQ(0, r->s.report_lost);
	EXPECT_EQ(0, r->s.buffer_lost);
	/* Start, end and maybe one at 0.5 s: each a point and a bound. */
	EXPECT_GE(check_points(_metadata, r), 2);
	check_closing_point(_metadata, r);
	snprintf(line, sizeof(line), "exponent 13 (853333 ns): %llu reports",
		 (unsigned long long)r->s.samples);
	EXPECT_NE(NULL, strstr(self->out, line)) TH_LOG("%s", self->out);

	/* A real peer: IGT's reader takes the recording as it is. */
	SETUP_PROVIDES(!run_cmd(self->out, OUT_SIZE, "command -v i915-perf-reader"),
		       "i915-perf-reader (package intel-gpu-tools)");
	ASSERT_EQ(0, run_cmd(self->out, OUT_SIZE, "i915-perf-reader -r '%s'",
			     self->file)) TH_LOG("%.2000s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "Metric used : RenderBasic (Render Metrics Basic set) uuid=" UUID "\n"));
	snprintf(line, sizeof(line), "\nReports: %llu\n",
		 (unsigned long long)r->s.samples);
	EXPECT_NE(NULL, strstr(self->out, line)) TH_LOG("%.500s", self->out);
	EXPECT_EQ(NULL, strstr(self->out, "WARNING"));
}

TEST_F(i915, losses_are_passed_through_and_counted)
{
	struct rec *r = self->r;
	char line[256];

	ASSERT_EQ(0, run_oa(self, "GPUPROF_SHIM_LOSS_EVERY=40",
			    "--duration 0.3 -v -o '%s'", self->file))
		TH_LOG("%s", self->out);
	ASSERT_EQ(0, parse(self->file, r));
	/* The shim: REPORT_LOST after every 40th report, BUFFER_LOST after
	 * every 80th; ~352 reports give 8 and 4. */
	EXPECT_GE(r->s.samples, 350);
	EXPECT_EQ(r->s.samples / 40, r->s.report_lost);
	EXPECT_EQ(r->s.samples / 80, r->s.buffer_lost);
	snprintf(line, sizeof(line), "%llu REPORT_LOST and %llu BUFFER_LOST records",
		 (unsigned long long)r->s.report_lost,
		 (unsigned long long)r->s.buffer_lost);
	EXPECT_NE(NULL, strstr(self->out, line)) TH_LOG("%s", self->out);

	/* Without -v the loss is still said, once. */
	ASSERT_EQ(0, run_oa(self, "GPUPROF_SHIM_LOSS_EVERY=40",
			    "--duration 0.3 -o '%s'", self->file));
	EXPECT_NE(NULL, strstr(self->out, "warning: i915 lost reports: "))
		TH_LOG("%s", self->out);
}

/*
 * The shim's 36-bit RING_TIMESTAMP and the reports' low 32 bits both
 * wrap 150 ms in: the 64-bit points still only move forward, at the
 * clock's rate, and every report sits before the closing point.
 */
TEST_F(i915, the_gpu_timestamp_unwraps_across_a_register_wrap)
{
	struct rec *r = self->r;
	size_t i, first = SIZE_MAX;

	ASSERT_EQ(0, run_oa(self, "GPUPROF_SHIM_WRAP_MS=150",
			    "--period 10000000 --duration 0.6 -o '%s'",
			    self->file)) TH_LOG("%s", self->out);
	ASSERT_EQ(0, parse(self->file, r));
	EXPECT_GE(check_points(_metadata, r), 3);
	check_closing_point(_metadata, r);
	for (i = 0; i < r->n && first == SIZE_MAX; i++)
		if (r->type[i] == GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION)
			first = i;
	ASSERT_NE(SIZE_MAX, first);
	/* Before the wrap: the register's top, 0xf_xxxx_xxxx ... */
	EXPECT_EQ(0xfull, r->gpu[first] >> 32);
	/* ... after it, one past: 0x10_xxxx_xxxx, not a small value. */
	EXPECT_EQ(0x10ull, r->gpu[r->n - 1] >> 32);
}

TEST_F(i915, old_kernels_get_no_poll_period)
{
	ASSERT_EQ(0, run_oa(self, "GPUPROF_SHIM_PERF_REVISION=4",
			    "--duration 0.05 -o '%s'", self->file))
		TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strstr(read_log(self), "prop 8 ")) TH_LOG("%s", self->logbuf);
	EXPECT_NE(NULL, strstr(self->logbuf, "prop 5 13\n"));
}

/*
 * 6.1's i915 has no I915_PARAM_OA_TIMESTAMP_FREQUENCY (EINVAL): the CS
 * clock's rate, the one clock on every GPU 6.1 gives OA, is declared.
 */
TEST_F(i915, linux_6_1_declares_the_cs_clock)
{
	struct rec *r = self->r;

	ASSERT_EQ(0, run_oa(self, "GPUPROF_SHIM_KERNEL=6.1",
			    "--duration 0.3 -o '%s'", self->file))
		TH_LOG("%s", self->out);
	ASSERT_EQ(0, parse(self->file, r));
	EXPECT_EQ(19200000, r->s.info.timestamp_frequency);
	EXPECT_NE(NULL, strstr(read_log(self), "\nprop 5 13\n"));
	EXPECT_GE(r->s.samples, 300);
	EXPECT_GE(check_points(_metadata, r), 2);
	check_closing_point(_metadata, r);
}

/* Each refusal: exit 1, this one line, and no recording left behind. */
TEST_F(i915, refusals_are_explained_in_one_line)
{
	static const struct { const char *env, *args, *line; } c[] = {
		{ "GPUPROF_SHIM_OPEN_ERRNO=EACCES", "",
		  "gpuprof-oa: " NODE ": not allowed to open a system-wide i915-perf stream: that needs CAP_PERFMON (or root) while dev.i915.perf_stream_paranoid is 1 (sysctl dev.i915.perf_stream_paranoid=0 lifts it)\n" },
		{ "GPUPROF_SHIM_OPEN_ERRNO=EPERM", "",
		  "gpuprof-oa: " NODE ": not allowed to open a system-wide i915-perf stream: that needs CAP_PERFMON (or root) while dev.i915.perf_stream_paranoid is 1 (sysctl dev.i915.perf_stream_paranoid=0 lifts it)\n" },
		/* 5000 ns rounds to exponent 5, 64 ticks, 3333 ns: 300030
		 * reports/s, above the shim's (i915's default) 100000. */
		{ "", "--period 5000",
		  "gpuprof-oa: " NODE ": not allowed to open a system-wide i915-perf stream: that needs CAP_PERFMON (or root) while dev.i915.perf_stream_paranoid is 1, and 300030 reports/s (--period 3333 ns) is above dev.i915.oa_max_sample_rate (100000 by default) without CAP_PERFMON\n" },
		{ "GPUPROF_SHIM_OPEN_ERRNO=EBUSY", "",
		  "gpuprof-oa: " NODE ": another i915-perf stream is open, and i915 allows only one system-wide: stop the other OA user (gputop, IGT, a GPU profiler) first\n" },
		{ "GPUPROF_SHIM_OPEN_ERRNO=ENODEV", "",
		  "gpuprof-oa: no Intel GPU (i915) found with i915-perf: " NODE " has no OA support in this kernel (ENODEV)\n" },
		{ "GPUPROF_SHIM_OPEN_ERRNO=EINVAL", "",
		  "gpuprof-oa: " NODE ": i915 refused the stream properties (EINVAL): most likely the metric set, id 42 of RenderBasic (" UUID "), is not a configuration for this GPU; the others were report format 10, exponent 13 and a poll period\n" },
		{ "GPUPROF_SHIM_DRIVER=vgem", "",
		  "gpuprof-oa: no Intel GPU (i915) found: " NODE " is driven by vgem, not i915\n" },
		/* Not offered: added, which needs CAP_PERFMON here. */
		{ "", "--metric-set ComputeBasic",
		  "gpuprof-oa: " NODE ": not allowed to add metric set ComputeBasic (397a46d9-03dd-4696-8196-270362e1c575) to i915, which offers it only once added: that needs CAP_PERFMON (or root) while dev.i915.perf_stream_paranoid is 1 (sysctl dev.i915.perf_stream_paranoid=0 lifts it)\n" },
		{ "", "--metric-set 12345678-1234-1234-1234-123456789abc",
		  "gpuprof-oa: metric set 12345678-1234-1234-1234-123456789abc (12345678-1234-1234-1234-123456789abc) is not offered by this kernel for this GPU, and gpuprof has no registers to add it with: not in SYS/class/drm/card0/metrics, which has: RenderBasic (" UUID ")\n" },
		{ "", "--seed 4",
		  "gpuprof-oa: --seed is an option of --sim only\n" },
	};
	char want[1024], *sys;
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		/* SYS stands for the fake sysfs root. */
		snprintf(want, sizeof(want), "%s", c[i].line);
		sys = strstr(want, "SYS");
		if (sys)
			snprintf(sys, sizeof(want) - (sys - want), "%s%s",
				 self->sys, strstr(c[i].line, "SYS") + 3);
		EXPECT_EQ(1, run_oa(self, c[i].env, "%s -o '%s'", c[i].args,
				    self->file)) TH_LOG("%s %s", c[i].env, c[i].args);
		EXPECT_STREQ(want, self->out);
		EXPECT_NE(0, access(self->file, F_OK)) TH_LOG("%s", c[i].env);
	}
}

/*
 * Without the shim and without --node: this machine's own /dev/dri.
 * --device looks for xe too; --oa-source i915 for i915 alone.
 */
TEST_F(i915, no_i915_node_is_said_plainly)
{
	if (!access("/sys/module/i915", F_OK) || !access("/sys/module/xe", F_OK))
		SKIP(return, "this machine has the i915 or xe driver loaded");
	EXPECT_EQ(1, run_cmd(self->out, OUT_SIZE, "%s --device -o '%s'",
			     host_gpuprof_oa_path(), self->file));
	EXPECT_STREQ("gpuprof-oa: no Intel GPU (i915 or xe) found: no /dev/dri/renderD* node is driven by i915 or xe (give one with --node)\n",
		     self->out);
	EXPECT_EQ(1, run_cmd(self->out, OUT_SIZE,
			     "%s --device --oa-source i915 -o '%s'",
			     host_gpuprof_oa_path(), self->file));
	EXPECT_STREQ("gpuprof-oa: no Intel GPU (i915) found: no /dev/dri/renderD* node is driven by i915 (give one with --node)\n",
		     self->out);
}

TEST_F(i915, a_failing_stream_ends_the_recording_with_exit_1)
{
	struct rec *r = self->r;

	EXPECT_EQ(1, run_oa(self, "GPUPROF_SHIM_FAIL_AFTER_MS=100",
			    "--duration 2 -o '%s'", self->file));
	EXPECT_STREQ("gpuprof-oa: " NODE ": the i915-perf stream failed (EIO): i915 disabled it, after a GPU reset or because the OA unit was taken over\n",
		     self->out);
	/* What came before is kept, closed by a correlation point. */
	ASSERT_EQ(0, parse(self->file, r));
	EXPECT_GE(r->s.samples, 100);
	check_closing_point(_metadata, r);
}

TEST_F(i915, a_closed_pipe_is_a_write_error)
{
	/* head reads 100 bytes and goes; our messages and status go to a
	 * file beside the pipe. */
	EXPECT_EQ(0, run_cmd(self->out, OUT_SIZE,
			     "{ GPUPROF_SYSFS_ROOT='%s' LD_PRELOAD='%s' %s --device --node " NODE " --duration 5 2>'%s.err'; echo \"status $?\" >>'%s.err'; } | head -c 100 > /dev/null; cat '%s.err'",
			     self->sys, self->preload, host_gpuprof_oa_path(), self->file,
			     self->file, self->file));
	EXPECT_STREQ("gpuprof-oa: writing stdout: Broken pipe\nstatus 1\n",
		     self->out);
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ull + ts.tv_nsec / 1000000;
}

/*
 * Without --duration it records until a signal: SIGTERM, SIGINT and
 * SIGHUP each end it with status 0 and a closing correlation point.
 */
TEST_F(i915, a_stop_signal_ends_it_cleanly)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	struct rec *r = self->r;
	struct stat st;
	uint64_t t0;
	size_t i;
	pid_t pid;
	int status;

	for (i = 0; i < 3; i++) {
		unlink(self->file);
		pid = fork();
		ASSERT_GE(pid, 0);
		if (pid == 0) {
			setenv("GPUPROF_SYSFS_ROOT", self->sys, 1);
			setenv("LD_PRELOAD", self->preload, 1);
			execl(host_gpuprof_oa_path(), "gpuprof-oa", "--device", "--node",
			      NODE, "-o", self->file, (char *)NULL);
			_exit(127);
		}
		/* The header is out once the signals are caught: then
		 * 200 ms of recording. */
		t0 = mono_ms();
		while ((stat(self->file, &st) || !st.st_size) &&
		       mono_ms() - t0 < 5000)
			usleep(5000);
		usleep(200000);
		ASSERT_EQ(0, kill(pid, sigs[i]));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFEXITED(status)) TH_LOG("%s: status 0x%x",
						      strsignal(sigs[i]), status);
		EXPECT_EQ(0, WEXITSTATUS(status));
		ASSERT_EQ(0, parse(self->file, r));
		/* 200 ms at 853333 ns: ~234 reports. */
		EXPECT_GE(r->s.samples, 200);
		EXPECT_GE(check_points(_metadata, r), 2);
		check_closing_point(_metadata, r);
	}
}

/*
 * DG2 (0x5690), whose OA unit ignores the CTC shift (Wa_18013179988):
 * the shim's command streamer clock, RING_TIMESTAMP's, runs at 19.2 MHz
 * (CTC shift 2), its OA clock, the reports', at 38.4 MHz.  The recording
 * declares the OA clock and format 12, and every correlation point is
 * on the OA clock: its GPU time is what the shim's OA clock read at its
 * CPU time, known from the shim's log (the time its OA clock read the
 * first report's timestamp) at 38.4 ticks per us, to within half the
 * point's window in ticks and the CS tick (two OA ticks) the register
 * cannot show, and a tick of rounding.  The 36-bit register wraps 300
 * ms in (GPUPROF_SHIM_WRAP_MS), at 2^36 CS ticks, 2^37 OA ticks: the
 * points go on across it, at 38.4 OA ticks per us.
 */
TEST_F(i915, dg2_points_are_on_the_oa_clock)
{
	unsigned long long first_ts, first_ns;
	struct rec *r = self->r;
	uint64_t want, slack, off;
	const char *first;
	size_t i, points = 0, last = 0;

	ASSERT_EQ(0, run_oa(self, "GPUPROF_SHIM_DEVICE_ID=0x5690 GPUPROF_SHIM_WRAP_MS=300",
			    "--metric-set " UUID " --duration 0.6 -o '%s'",
			    self->file)) TH_LOG("%s", self->out);
	/* 1 ms is 38400 ticks: exponent 14, 2^15 ticks; format 12. */
	EXPECT_NE(NULL, strstr(read_log(self), "\nprop 4 12\nprop 5 14\n"))
		TH_LOG("%s", self->logbuf);
	first = strstr(self->logbuf, "\nfirst_report ts ");
	ASSERT_NE(NULL, first) TH_LOG("%s", self->logbuf);
	ASSERT_EQ(2, sscanf(first, "\nfirst_report ts %llu ns %llu", &first_ts,
			    &first_ns));

	ASSERT_EQ(0, parse(self->file, r));
	EXPECT_EQ(0x5690, r->s.info.device_id);
	EXPECT_EQ(38400000, r->s.info.timestamp_frequency);
	EXPECT_EQ(12, r->s.info.oa_format);
	for (i = 0; i < r->n; i++) {
		if (r->type[i] != GPUPROF_OA_RECORD_CORRELATION_BOUND)
			continue;
		want = first_ts + (__int128)((__int128)r->cpu[i] - first_ns) *
				  384 / 10000;
		slack = r->window[i] * 384 / 20000 + 2 + 1;
		off = (__u32)(r->gpu[i] - want + slack);
		EXPECT_LE(off, 2 * slack)
			TH_LOG("point %zu at %llu ns: OA time 0x%llx, the shim's OA clock 0x%llx, window %llu ns",
			       i, (unsigned long long)r->cpu[i],
			       (unsigned long long)r->gpu[i],
			       (unsigned long long)want,
			       (unsigned long long)r->window[i]);
		if (points++) {
			/* Forward at the OA clock's rate, the window apart. */
			want = (r->cpu[i] - r->cpu[last]) * 384 / 10000;
			slack = (r->window[i] + r->window[last]) * 384 / 10000 + 6;
			EXPECT_LE(r->gpu[i] - r->gpu[last], want + slack)
				TH_LOG("point %zu after %zu", i, last);
			EXPECT_GE(r->gpu[i] - r->gpu[last] + slack, want)
				TH_LOG("point %zu after %zu", i, last);
		}
		last = i;
	}
	/* At the start, 0.5 s in and at the end. */
	EXPECT_LE(3, points);
	/* The register's wrap fell between the first point and the last. */
	for (i = 0; i < r->n; i++)
		if (r->type[i] == GPUPROF_OA_RECORD_CORRELATION_BOUND)
			break;
	ASSERT_LT(i, r->n);
	EXPECT_EQ(0x1full, r->gpu[i] >> 32);
	EXPECT_EQ(0x20ull, r->gpu[last] >> 32);
	check_closing_point(_metadata, r);
}

TEST_HARNESS_MAIN
