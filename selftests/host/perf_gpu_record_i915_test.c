// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu record --oa-source=i915 through the i915 shim
 * (selftests/i915-shim/) playing a stock i915 on seven GPUs, each a
 * variant of every test: Haswell, Broadwell, Skylake, Ice Lake, Tiger
 * Lake, DG2 and Meteor Lake (GPUPROF_SHIM_DEVICE_ID), and DG2 once more
 * with another CTC shift.
 *
 * With no set registered, the default set, RenderBasic, is added once
 * (the shim's log: "add_config UUID mux N boolean N flex N -> 2", every
 * register inside the GPU's whitelists, or the line would name one),
 * the stream opened on id 2 in the GPU's report format and the set
 * removed at the end ("remove_config 2 -> 0"); a set already offered,
 * given by its uuid, is opened by its id and neither added nor removed.
 * Either way every report the shim handed out ("close reports N") is in
 * the recording, and perf gpu script and report read them all.  The
 * uuids and register counts are IGT 1.27.1's: its library's
 * intel_perf_for_devinfo() for each device id, revision 1 and the
 * topology the shim gives (the simulator's, oa/sim-platform.c), hands
 * i915 these n_mux_regs, n_b_counter_regs and n_flex_regs.  The report
 * formats and frequencies are i915's (i915_shim_platform_test.c says
 * where in the kernel each is).
 *
 * Where each report lands in CLOCK_MONOTONIC is checked against the
 * shim's own clock, not the code under test: its log gives the time its
 * OA clock read the first report's timestamp, and the reports come one
 * period, 2^(exponent + 1) OA ticks, apart from there.  Each must land
 * within half the worst correlation bound of the recording (the
 * clock_gettime() window around the register read, whose midpoint is
 * taken), plus the register's resolution (one tick of the command
 * streamer's clock, whose bits below it the register lacks) and one OA
 * tick of rounding.  On DG2 and Meteor Lake that clock, which
 * RING_TIMESTAMP counts, runs at 19.2 MHz while the reports' timestamps
 * count the OA unit's 38.4 MHz (Wa_18013179988; the shim's CTC shift
 * 2), and at 4.8 MHz in the last variant (shift 0): a recording that
 * mixed the two clocks, or scaled them by a fixed factor, would place
 * the reports seconds away.
 *
 * perf gpu record needs tracefs: without it at /sys/kernel/tracing the
 * tests run it in a mount namespace with tracefs mounted, and are
 * skipped where that cannot be made.  A recording names the kernel it
 * was made on (uname), and i915 serves DG2 and Meteor Lake only from
 * 6.12 on: the shim answers uname() with the kernel it plays, 7.3, so
 * every case runs whatever kernel this machine has.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/asan.h"
#include "../lib/fake_sysfs.h"
#include "../lib/paths.h"
#include "../lib/run.h"
#include "../lib/setup_provides.h"

#define OUT_SIZE (1 << 20)
#define NODE "/dev/dri/renderD199"
#define NSEC 1000000000ull

/*
 * The GPUs, each a variant of every test.  The period asked for is
 * perf gpu record's default, 1 ms; the exponent e is the one whose
 * period, 2^(e + 1) ticks, is nearest (below 3 * 2^e ticks): 12500
 * ticks at 12.5 MHz and 19200 at 19.2 MHz give e = 13, 12000 at 12 MHz
 * e = 12, 38400 at 38.4 MHz e = 14.
 */
static const struct gpu {
	const char *name;
	uint32_t device_id;
	const char *uuid;		/* RenderBasic's, IGT's */
	unsigned int mux, boolean, flex;
	unsigned int format;		/* i915's richest for the GPU */
	uint32_t oa_hz;
	unsigned int exponent;
	bool equations;			/* IGT's sets have them here */
} hsw = {
	"Haswell", 0x0412, "a490e9d2-55b3-4db0-8dab-53011032c5f3",
	62, 4, 0, 5, 12500000, 13, true,
}, bdw = {
	"Broadwell", 0x1616, "b541bd57-0e0f-4154-b4c0-5858010a2bf7",
	107, 5, 7, 10, 12500000, 13, true,
}, skl = {
	"Skylake", 0x1912, "07b25942-d9fd-4fce-bd58-e29abd66b7de",
	0, 5, 7, 10, 12000000, 12, true,
}, icl = {
	"Ice Lake", 0x8a52, "e3cd52cf-c6b0-4019-b369-3bc9c75a0cbc",
	61, 5, 6, 10, 12000000, 12, true,
}, tgl = {
	"Tiger Lake", 0x9a49, "0fc397c0-4833-492c-9ccd-4929d574d5b8",
	64, 14, 7, 10, 19200000, 13, true,
}, dg2 = {
	"DG2", 0x5690, "47b237c5-ed48-465b-b869-0d7ef59a6982",
	25, 8, 5, 12, 38400000, 14, false,
}, mtl = {
	"Meteor Lake", 0x7d55, "1124d1b6-6182-4b5a-950b-27b38ef7c996",
	30, 8, 5, 12, 38400000, 14, true,
};

FIXTURE(rec) {
	char dir[64];
	char sys[128];
	char log[128];
	char data[128];
	char preload[2 * PATH_MAX + 2];
	char out[OUT_SIZE];
	char logbuf[16384];
};

/*
 * A GPU, and its command streamer's clock: the OA clock's on all but
 * DG2 and Meteor Lake, where it is 38.4 MHz >> (3 - CTC shift), the
 * shift the shim is told (GPUPROF_SHIM_CTC_SHIFT).
 */
FIXTURE_VARIANT(rec) {
	const struct gpu *g;
	unsigned int ctc_shift;
	uint32_t cs_hz;
};

FIXTURE_VARIANT_ADD(rec, haswell) { &hsw, 2, 12500000 };
FIXTURE_VARIANT_ADD(rec, broadwell) { &bdw, 2, 12500000 };
FIXTURE_VARIANT_ADD(rec, skylake) { &skl, 2, 12000000 };
FIXTURE_VARIANT_ADD(rec, ice_lake) { &icl, 2, 12000000 };
FIXTURE_VARIANT_ADD(rec, tiger_lake) { &tgl, 2, 19200000 };
FIXTURE_VARIANT_ADD(rec, dg2) { &dg2, 2, 19200000 };
FIXTURE_VARIANT_ADD(rec, meteor_lake) { &mtl, 2, 19200000 };
/* An eighth of the OA clock: code with a factor 2 built in fails. */
FIXTURE_VARIANT_ADD(rec, dg2_ctc_shift_0) { &dg2, 0, 4800000 };

FIXTURE_SETUP(rec)
{
	strcpy(self->dir, "/tmp/perf_gpu_record_i915.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->sys, sizeof(self->sys), "%s/sys", self->dir);
	snprintf(self->log, sizeof(self->log), "%s/log", self->dir);
	snprintf(self->data, sizeof(self->data), "%s/perf.data", self->dir);
	snprintf(self->preload, sizeof(self->preload), "%s %s", asan_runtime(),
		 i915_shim_path());
	ASSERT_EQ(0, access(i915_shim_path(), R_OK))
		TH_LOG("no shim at %s", i915_shim_path());
	ASSERT_EQ(0, fake_i915_stock_sysfs(self->sys)) TH_LOG("%s: %m", self->sys);
}

FIXTURE_TEARDOWN(rec)
{
	char out[256];

	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

/*
 * perf gpu record --oa-source=i915 on the shim's node as @v's GPU, with
 * CAP_PERFMON, @args after, recording `sleep @secs`: its exit status,
 * or -2 when tracefs cannot be had.
 */
__attribute__((format(printf, 4, 5)))
static int run_record(FIXTURE_DATA(rec) *self, const FIXTURE_VARIANT(rec) *v,
		      const char *secs, const char *fmt, ...)
{
	const char *ns = tracefs_shell(self->out, OUT_SIZE);
	char args[512];
	va_list ap;

	if (!ns)
		return -2;
	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	unlink(self->log);
	return run_cmd(self->out, OUT_SIZE,
		       "%sexec env GPUPROF_SHIM_PERFMON=1 GPUPROF_SHIM_CTC_SHIFT=%u GPUPROF_SHIM_DEVICE_ID=0x%04x GPUPROF_SYSFS_ROOT=%s GPUPROF_SHIM_LOG=%s LD_PRELOAD=\"%s\" %s record --oa-source=i915 --oa-node " NODE " -o %s %s -- sleep %s'",
		       ns, v->ctc_shift, v->g->device_id, self->sys, self->log,
		       self->preload,
		       perf_gpu_path(), self->data, args, secs);
}

static const char *read_log(FIXTURE_DATA(rec) *self)
{
	return file_text(self->log, self->logbuf, sizeof(self->logbuf));
}

/* The number after @key in the shim's log ("close reports "), or -1. */
static long long log_number(FIXTURE_DATA(rec) *self, const char *key)
{
	const char *p = strstr(self->logbuf, key);

	return p ? strtoll(p + strlen(key), NULL, 10) : -1;
}

/* How often @what is in @text: at most once a line, for what is asked. */
static unsigned int count_lines(const char *text, const char *what)
{
	unsigned int n = 0;
	const char *p = text;

	while ((p = strstr(p, what))) {
		n++;
		p += strlen(what);
	}
	return n;
}

/*
 * The recording read back: one oa_device line naming the GPU, its format
 * and frequency, and @reports reports, each one a script line; perf gpu
 * report counts as many, and with IGT's equations applies them.
 */
static void check_recording(struct __test_metadata *_metadata,
			    FIXTURE_DATA(rec) *self, const struct gpu *g,
			    long long reports)
{
	char want[256];

	ASSERT_EQ(0, run_cmd(self->out, OUT_SIZE, "%s script -i %s",
			     perf_gpu_path(), self->data))
		TH_LOG("%s: %.2000s", g->name, self->out);
	snprintf(want, sizeof(want),
		 "gpu_oa:oa_device: device_id=%#x oa_format=%u timestamp_frequency=%u metric_set=RenderBasic uuid=%s\n",
		 g->device_id, g->format, g->oa_hz, g->uuid);
	EXPECT_EQ(1, count_lines(self->out, want))
		TH_LOG("%s: want %s%.1000s", g->name, want, self->out);
	EXPECT_EQ(reports, count_lines(self->out, "gpu_oa:oa_report: "))
		TH_LOG("%s", g->name);

	ASSERT_EQ(0, run_cmd(self->out, OUT_SIZE, "%s report -i %s%s",
			     perf_gpu_path(), self->data,
			     g->equations ? " --oa-metrics all" : ""))
		TH_LOG("%s: %.2000s", g->name, self->out);
	snprintf(want, sizeof(want), "\n# %lld reports, %lld deltas;", reports,
		 reports - 1);
	EXPECT_NE(NULL, strstr(self->out, want))
		TH_LOG("%s: want %s in %.3000s", g->name, want, self->out);
	if (!g->equations)
		return;
	snprintf(want, sizeof(want),
		 "\n# metrics: RenderBasic on device 0x%04x, from each row's summed deltas\n",
		 g->device_id);
	EXPECT_NE(NULL, strstr(self->out, want))
		TH_LOG("%s: want %s in %.3000s", g->name, want, self->out);
}

TEST_F(rec, a_stock_i915_gets_the_default_set_added_then_removed)
{
	const struct gpu *g = variant->g;
	char want[256];
	const char *last;
	long long reports;
	int rc;

	rc = run_record(self, variant, "0.1", "%s", "");
	SETUP_PROVIDES(rc != -2, "tracefs at /sys/kernel/tracing (setup.sh mounts it): %.200s",
		       self->out);
	ASSERT_EQ(0, rc) TH_LOG("%s", self->out);
	read_log(self);
	snprintf(want, sizeof(want),
		 "add_config %s mux %u boolean %u flex %u -> 2\n",
		 g->uuid, g->mux, g->boolean, g->flex);
	EXPECT_EQ(0, strncmp(self->logbuf, want, strlen(want)))
		TH_LOG("want %slog:\n%s", want, self->logbuf);
	EXPECT_EQ(1, count_lines(self->logbuf, "add_config "))
		TH_LOG("%s", self->logbuf);
	snprintf(want, sizeof(want), "\nprop 3 2\nprop 4 %u\nprop 5 %u\n",
		 g->format, g->exponent);
	EXPECT_NE(NULL, strstr(self->logbuf, want))
		TH_LOG("want %slog:\n%s", want, self->logbuf);
	EXPECT_NE(NULL, strstr(self->logbuf, "\nopen "));
	EXPECT_EQ(NULL, strstr(self->logbuf, "\nopen -")) TH_LOG("%s", self->logbuf);
	/* The set removed last, after the stream closed. */
	last = strstr(self->logbuf, "\nremove_config ");
	EXPECT_STREQ("\nremove_config 2 -> 0\n", last ? last : "(none)")
		TH_LOG("%s", self->logbuf);
	EXPECT_FALSE(fake_i915_offered(self->sys, g->uuid));
	reports = log_number(self, "\nclose reports ");
	/* 0.1 s of periods of 1.31 ms at the longest, and the start. */
	EXPECT_LE(70, reports) TH_LOG("%s", self->logbuf);
	check_recording(_metadata, self, g, reports);
}

TEST_F(rec, an_offered_uuid_is_opened_as_it_is)
{
	const struct gpu *g = variant->g;
	long long reports;
	char want[64];
	int rc;

	fake_i915_offer(self->sys, g->uuid, 9);
	rc = run_record(self, variant, "0.1", "--metric-set %s", g->uuid);
	SETUP_PROVIDES(rc != -2, "tracefs at /sys/kernel/tracing (setup.sh mounts it): %.200s",
		       self->out);
	ASSERT_EQ(0, rc) TH_LOG("%s", self->out);
	read_log(self);
	EXPECT_EQ(NULL, strstr(self->logbuf, "add_config")) TH_LOG("%s", self->logbuf);
	EXPECT_EQ(NULL, strstr(self->logbuf, "remove_config")) TH_LOG("%s", self->logbuf);
	snprintf(want, sizeof(want), "\nprop 3 9\nprop 4 %u\n", g->format);
	EXPECT_NE(NULL, strstr(self->logbuf, want)) TH_LOG("%s", self->logbuf);
	EXPECT_TRUE(fake_i915_offered(self->sys, g->uuid));
	reports = log_number(self, "\nclose reports ");
	EXPECT_LE(70, reports) TH_LOG("%s", self->logbuf);
	check_recording(_metadata, self, g, reports);
}

/*
 * The CLOCK_MONOTONIC of each report line of `perf gpu script --ns`
 * into @t (at most @max), and the worst bound of its correlation points.
 * Return: the reports.
 */
static size_t report_times(const char *out, uint64_t *t, size_t max,
			   uint64_t *worst)
{
	unsigned long long s, ns, bound;
	const char *line, *nl, *at;
	size_t n = 0;

	*worst = 0;
	for (line = out; *line; line = nl + 1) {
		nl = strchrnul(line, '\n');
		at = strstr(line, "] ");
		if (at && at < nl && strstr(line, "gpu_oa:oa_report: ") &&
		    strstr(line, "gpu_oa:oa_report: ") < nl &&
		    sscanf(at + 2, "%llu.%llu:", &s, &ns) == 2 && n < max)
			t[n++] = s * NSEC + ns;
		at = strstr(line, " bound_ns=");
		if (at && at < nl && strstr(line, "gpu_oa:oa_correlation: ") &&
		    sscanf(at, " bound_ns=%llu", &bound) == 1 &&
		    bound > *worst)
			*worst = bound;
		if (!*nl)
			break;
	}
	return n;
}

/*
 * Every report of 0.6 s (a correlation point at the start, at 0.5 s and
 * at the end) within the bound (see the head) of the time the shim's OA
 * clock read it.
 */
TEST_F(rec, reports_land_where_the_oa_clock_puts_them)
{
	const struct gpu *g = variant->g;
	const uint64_t period = 2ull << g->exponent;
	static uint64_t t[4096];
	unsigned long long first_ns;
	uint64_t worst, truth, tol, off, worst_off = 0;
	long long reports;
	const char *first;
	size_t n, k, bad = 0;
	int rc;

	rc = run_record(self, variant, "0.6", "%s", "");
	SETUP_PROVIDES(rc != -2, "tracefs at /sys/kernel/tracing (setup.sh mounts it): %.200s",
		       self->out);
	ASSERT_EQ(0, rc) TH_LOG("%s", self->out);
	read_log(self);
	first = strstr(self->logbuf, "\nfirst_report ts ");
	ASSERT_NE(NULL, first) TH_LOG("%s", self->logbuf);
	ASSERT_EQ(1, sscanf(first, "\nfirst_report ts %*u ns %llu", &first_ns));
	reports = log_number(self, "\nclose reports ");
	/* 0.6 s of periods of 1.31 ms at the longest. */
	ASSERT_LE(450, reports) TH_LOG("%s", self->logbuf);

	ASSERT_EQ(0, run_cmd(self->out, OUT_SIZE, "%s script --ns -i %s",
			     perf_gpu_path(), self->data))
		TH_LOG("%.2000s", self->out);
	n = report_times(self->out, t, sizeof(t) / sizeof(t[0]), &worst);
	EXPECT_EQ(reports, (long long)n);
	EXPECT_LT(0, worst) TH_LOG("no bounded correlation point");
	tol = worst / 2 + (NSEC + variant->cs_hz - 1) / variant->cs_hz +
	      (NSEC + g->oa_hz - 1) / g->oa_hz;
	for (k = 0; k < n; k++) {
		truth = first_ns + k * period * NSEC / g->oa_hz;
		off = t[k] > truth ? t[k] - truth : truth - t[k];
		if (off > worst_off)
			worst_off = off;
		if (off > tol && bad++ < 5)
			TH_LOG("report %zu placed at %llu ns, the shim's OA clock read it at %llu ns: %s by %llu ns, more than %llu (worst bound %llu)",
			       k, (unsigned long long)t[k],
			       (unsigned long long)truth,
			       t[k] > truth ? "late" : "early",
			       (unsigned long long)off,
			       (unsigned long long)tol,
			       (unsigned long long)worst);
	}
	EXPECT_EQ(0, bad) TH_LOG("%zu of %zu reports out of the bound; the farthest %llu ns off",
				 bad, n, (unsigned long long)worst_off);
	TH_LOG("%s, CS clock %u Hz: %zu reports, the farthest %llu ns from the shim's clock, %llu allowed",
	       g->name, variant->cs_hz, n, (unsigned long long)worst_off,
	       (unsigned long long)tol);
}

TEST_HARNESS_MAIN
