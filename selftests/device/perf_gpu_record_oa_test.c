// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu record with OA and fdinfo in the test VM: reports from the
 * simulator driven by gpuwork's vgem fences, from a gpuprof-oa
 * recording and from the i915 shim, read back by the distribution's
 * perf script and perf report and by IGT's i915-perf-reader; DRM fdinfo
 * snapshots where the driver prints them.  Expected counts are what
 * gpuwork and gpuprof-oa were told to make.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../../module/oa_decode.h"
#include "../lib/asan.h"
#include "../lib/gpuprof.h"
#include "../lib/oa_build.h"
#include "../lib/fake_sysfs.h"
#include "../lib/oa_file.h"
#include "../lib/run.h"
#include "../lib/setup_provides.h"

#define SIGNALED "dma_fence:dma_fence_signaled:"
#define OA "gpu_oa:oa_report:"
#define FDINFO "gpu_client:fdinfo:"
#define DEVICE "gpu_oa:oa_device:"
#define UUID "0fc397c0-4833-492c-9ccd-4929d574d5b8"
#define NODE "/dev/dri/renderD199"

/* What perf script showed. */
struct tally {
	long signaled, oa, fdinfo, oa_owned;	/* oa_owned: by gpuwork */
	long oa_between;	/* OA lines between first and last signaled */
	long devices, oa_before_device;	/* gpu_oa:oa_device lines */
	char device[512];	/* the first one's fields */
	long lines;
	int time_went_back;
};

FIXTURE(oa) {
	char dir[64];
	char data[128];
	char out[65536];
	struct tally t;
};

FIXTURE_SETUP(oa)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/perf_gpu_oa.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->data, sizeof(self->data), "%s/perf.data", self->dir);
	memset(&self->t, 0, sizeof(self->t));
}

FIXTURE_TEARDOWN(oa)
{
	char out[256];

	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

/* perf script's output of the recording, as a file to read; NULL if none. */
static FILE *open_script(FIXTURE_DATA(oa) *self)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/script.txt", self->dir);
	/* Its warnings (lost chunks) apart: they would cut into a line. */
	if (run_cmd(self->out, sizeof(self->out),
		    "{ perf script -i %s 2>%s.err; } > %s", self->data, path,
		    path))
		return NULL;
	return fopen(path, "r");
}

/* perf script's lines "COMM PID [CPU] SECS.USECS: EVENT: ...", counted. */
static int tally(FIXTURE_DATA(oa) *self)
{
	unsigned long long sec, usec, last = 0;
	char *line = NULL, comm[32], ev[128];
	long oa_pending = 0;
	size_t cap = 0;
	int pid, cpu;
	FILE *f = open_script(self);

	if (!f)
		return -1;
	while (getline(&line, &cap, f) > 0) {
		if (sscanf(line, "%31s %d [%d] %llu.%llu: %127s", comm, &pid,
			   &cpu, &sec, &usec, ev) != 6)
			continue;
		self->t.lines++;
		if (sec * 1000000 + usec < last)
			self->t.time_went_back = 1;
		last = sec * 1000000 + usec;
		if (!strcmp(ev, SIGNALED)) {
			if (self->t.signaled)
				self->t.oa_between += oa_pending;
			oa_pending = 0;
			self->t.signaled++;
		} else if (!strcmp(ev, OA)) {
			self->t.oa++;
			if (self->t.signaled)
				oa_pending++;
			if (!strcmp(comm, "gpuwork") && pid > 0)
				self->t.oa_owned++;
		} else if (!strcmp(ev, FDINFO)) {
			self->t.fdinfo++;
		} else if (!strcmp(ev, DEVICE)) {
			if (!self->t.devices++)
				snprintf(self->t.device, sizeof(self->t.device),
					 "%s", strstr(line, DEVICE) +
					 strlen(DEVICE) + 1);
			self->t.oa_before_device = self->t.oa;
		}
	}
	free(line);
	fclose(f);
	return 0;
}

/* SAMPLE records of a section-5 file, by the shared parser; -1 if bad. */
static long oa_samples(const char *path)
{
	static __u8 buf[GPUPROF_OA_RECORD_MAX];
	struct gpuprof_oa_stream s;

	if (oa_file_parse(path, &s, buf, NULL, NULL))
		return -1;
	return s.samples;
}

static void report_runs(struct __test_metadata *_metadata,
			FIXTURE_DATA(oa) *self)
{
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "perf report --stdio -i %s", self->data))
		TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strcasestr(self->out, "warning")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "gpu_oa:oa_report")) TH_LOG("%s", self->out);
}

/*
 * A recording read five ways (tally, perf report, i915-perf-reader, perf
 * gpu script twice): on the debug kernel, where the sanitized programs
 * start slowly, 30 s times the scale of make check-debug ran out.
 */
TEST_F_TIMEOUT(oa, sim_follows_the_fences, 90)
{
	char oa_file[160];

	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s record --oa-source=sim -o %s -- %s fences 20 10",
			     perf_gpu_path(), self->data, gpuwork_path()))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "[ perf gpu record: OA: "))
		TH_LOG("%s", self->out);
	ASSERT_EQ(0, tally(self)) TH_LOG("%s", self->out);
	EXPECT_EQ(20, self->t.signaled);
	/* 20 jobs of 10 ms and more at 1 ms reports. */
	EXPECT_LT(200, self->t.oa) TH_LOG("%ld OA lines", self->t.oa);
	EXPECT_LT(100, self->t.oa_between);
	/* Reports while gpuwork's jobs ran carry its pid. */
	EXPECT_LT(100, self->t.oa_owned);
	EXPECT_EQ(0, self->t.time_went_back);
	/* Once, before the reports: what they come from. */
	EXPECT_EQ(1, self->t.devices);
	EXPECT_EQ(0, self->t.oa_before_device);
	EXPECT_NE(NULL, strstr(self->t.device, "device_id=0x9a49 oa_format=10 timestamp_frequency=19200000 metric_set=RenderBasic uuid=0fc397c0-4833-492c-9ccd-4929d574d5b8"))
		TH_LOG("%s", self->t.device);
	report_runs(_metadata, self);

	snprintf(oa_file, sizeof(oa_file), "%s.oa", self->data);
	EXPECT_EQ(self->t.oa, oa_samples(oa_file));
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "i915-perf-reader '%s' > /dev/null", oa_file))
		TH_LOG("%s", self->out);

	/* perf gpu script: the same events, the OA reports decoded. */
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s script -i %s | grep -c '" SIGNALED "'",
			     perf_gpu_path(), self->data)) TH_LOG("%s", self->out);
	EXPECT_EQ(20, atol(self->out));
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s script -i %s | grep -c '" OA ".* d_ts=[0-9]* d_clk='",
			     perf_gpu_path(), self->data)) TH_LOG("%s", self->out);
	/* Every report but the first has deltas from the one before. */
	EXPECT_EQ(self->t.oa - 1, atol(self->out));
}

TEST_F(oa, file_replayed_in_time)
{
	char rec[160], oa_file[160];
	long n;

	snprintf(rec, sizeof(rec), "%s/rec.oa", self->dir);
	snprintf(oa_file, sizeof(oa_file), "%s/copy.oa", self->dir);
	/*
	 * A recording that starts now and lasts 10 s, to cover the command's
	 * span: under TCG on a busy host the sanitized perf gpu and gpuwork
	 * took over a second to start (1 s was seen missing the fences), and
	 * on the 6.1 debug kernel beside other VMs 20 s (5 s x 4) was.
	 */
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s --sim --start-ns now --duration %u -o %s",
			     gpuprof_oa_path(), 10 * gpuprof_time_scale(), rec))
		TH_LOG("%s", self->out);
	n = oa_samples(rec);
	ASSERT_LT(500, n);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s record --oa-source=%s --oa-output %s -o %s -- %s fences 10 20",
			     perf_gpu_path(), rec, oa_file, self->data,
			     gpuwork_path())) TH_LOG("%s", self->out);
	ASSERT_EQ(0, tally(self)) TH_LOG("%s", self->out);
	EXPECT_EQ(10, self->t.signaled);
	EXPECT_EQ(n, self->t.oa);
	/* The recording's clock is this one: fences fall among its reports. */
	EXPECT_LT(0, self->t.oa_between);
	/* No process known for a recording's contexts. */
	EXPECT_EQ(0, self->t.oa_owned);
	EXPECT_EQ(0, self->t.time_went_back);
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out), "cmp %s %s", rec,
			     oa_file)) TH_LOG("%s", self->out);
	report_runs(_metadata, self);
}

/* A number from the report's JSON: python3 evaluates @expr on d. */
static long long json_num(FIXTURE_DATA(oa) *self, const char *json,
			  const char *expr)
{
	if (run_cmd(self->out, sizeof(self->out),
		    "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(int(%s))' %s",
		    expr, json))
		return -1;
	return atoll(self->out);
}

/*
 * CLOCK_MONOTONIC of the first @event line of @comm in the recording's
 * perf script (the recording's clock), or 0 if there is none.
 */
static uint64_t first_event_ns(FIXTURE_DATA(oa) *self, const char *comm,
			       const char *event)
{
	unsigned long long sec, usec, ns = 0;
	char *line = NULL, c[32], ev[128];
	size_t cap = 0;
	int pid, cpu;
	FILE *f = open_script(self);

	if (!f)
		return 0;
	while (!ns && getline(&line, &cap, f) > 0)
		if (sscanf(line, "%31s %d [%d] %llu.%llu: %127s", c, &pid,
			   &cpu, &sec, &usec, ev) == 6 &&
		    !strcmp(c, comm) && !strcmp(ev, event))
			ns = (sec * 1000000 + usec) * 1000;
	free(line);
	fclose(f);
	return ns;
}

/*
 * How long gpuwork holds its job: 4 s stretched by the time scale, but
 * vgem signals a fence itself after 10 s.
 */
static unsigned int ctx_job_ms(unsigned int k_t)
{
	return 4000 * k_t < 9000 ? 4000 * k_t : 9000;
}

/* @b into @path: 0 or -1. */
static int write_oa_buf(const char *path, const struct oa_buf *b)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return -1;
	if (fwrite(b->data, 1, b->len, f) != b->len) {
		fclose(f);
		return -1;
	}
	return fclose(f) ? -1 : 0;
}

/* Sleep until CLOCK_MONOTONIC reaches @ns. */
static void sleep_until_ns(uint64_t ns)
{
	struct timespec ts = { ns / 1000000000ull, ns % 1000000000ull };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		;
}

/*
 * One recording of gpuwork's job with the reports of @rec beside it.
 * gpuwork makes @dir/gpuwork.ready once vgem is open, then holds its
 * job from when @dir/go appears: made at @go_ns, or once ready if that
 * is later.  *@ready_ns is when it was seen ready (0: never).  Returns
 * the recorder's exit status, its output in self->out.
 */
static int record_ctx_job(FIXTURE_DATA(oa) *self, const char *rec,
			  const char *dir, uint64_t go_ns, unsigned int k_t,
			  uint64_t *ready_ns)
{
	char cmd[4096], path[PATH_MAX];
	size_t len = 0, n;
	int fd, st;
	FILE *p;

	if (snprintf(cmd, sizeof(cmd),
		     "%s record --oa-source=%s -o %s -- sh -c '%s -w %s fences 1 %u; sleep %u' 2>&1",
		     perf_gpu_path(), rec, self->data, gpuwork_path(), dir,
		     ctx_job_ms(k_t), 4 * k_t) >= (int)sizeof(cmd))
		return -1;
	p = popen(cmd, "r");
	if (!p)
		return -1;
	/* Ready within 60 s scaled, or the job is let go and is late. */
	snprintf(path, sizeof(path), "%s/gpuwork.ready", dir);
	*ready_ns = 0;
	while (mono_ns() < go_ns + 60000000000ull * k_t) {
		if (!access(path, F_OK)) {
			*ready_ns = mono_ns();
			break;
		}
		usleep(10000);
	}
	if (*ready_ns && *ready_ns < go_ns)
		sleep_until_ns(go_ns);
	snprintf(path, sizeof(path), "%s/go", dir);
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	if (fd >= 0)
		close(fd);
	while (len + 1 < sizeof(self->out) &&
	       (n = fread(self->out + len, 1, sizeof(self->out) - 1 - len, p)))
		len += n;
	while (fgetc(p) != EOF)
		;
	self->out[len] = '\0';
	st = pclose(p);
	return st < 0 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

/*
 * The same OA reports, bit 16 clear, context 0x120, for 4 s from t0,
 * while gpuwork holds one job for 4 s (ctx_job_ms()) from about 2.4 s
 * before t0.
 * Tiger Lake (gen12): the report learns the context from the first
 * report, when only gpuwork runs, and gives gpuwork every delta, after
 * its job too.  Ice Lake (gen11): without bit 16 there is no context,
 * so reports after the job are nobody's.  The file is written before
 * the recording starts, so t0 is chosen then; gpuwork waits, vgem open,
 * until the test lets its job go midway in the window that puts t0
 * over 1.25 s into the job and over 0.5 s before its end.  Commands
 * start slowly on a loaded or debug kernel: when gpuwork was ready too
 * late, or its job was seen to start outside the window, the recording
 * is made again with t0 further off (four recordings at most).  Every
 * time here stretches by the time scale (lib/harness.h), the reports'
 * spacing too.
 */
TEST_F_TIMEOUT(oa, gen12_context_ids_reach_the_report_without_the_valid_bit, 600)
{
	static const uint32_t devices[] = { 0x9a49, 0x8a52 };
	const unsigned int n = 4000, k_t = gpuprof_time_scale();
	const uint64_t second = 1000000000ull * k_t;
	const uint64_t job_ns = ctx_job_ms(k_t) * 1000000ull;
	/* From the job's start to t0, midway in the window. */
	const uint64_t mid = (5 * second / 4 + job_ns - second / 2) / 2;
	uint64_t t0, lead, began, job, ready;
	long long mine, nobody, a0;
	char rec[160], json[160], dir[160];
	struct oa_buf b = {};
	unsigned int i, k, tries;

	snprintf(rec, sizeof(rec), "%s/ctx.oa", self->dir);
	snprintf(json, sizeof(json), "%s/report.json", self->dir);
	for (k = 0; k < 2; k++) {
		lead = mid + 2 * second;
		for (tries = 0; ; tries++) {
			snprintf(dir, sizeof(dir), "%s/w%u.%u", self->dir, k, tries);
			ASSERT_EQ(0, mkdir(dir, 0755));
			b.len = 0;
			began = mono_ns();
			t0 = began + lead;
			oa_header(&b, devices[k], GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8);
			oa_correlation(&b, t0, 1000000000ull);
			for (i = 0; i < n; i++)
				oa_report_valid(&b, i, 1000000000u + i * 19200u,
						0x120, GPUPROF_OA_REASON_TIMER, 0);
			oa_correlation(&b, t0 + n * 1000000ull * k_t,
				       1000000000ull + n * 19200ull);
			ASSERT_EQ(0, write_oa_buf(rec, &b));
			ASSERT_EQ(0, record_ctx_job(self, rec, dir, t0 - mid,
						    k_t, &ready))
				TH_LOG("%s", self->out);
			ASSERT_NE(0, ready) TH_LOG("gpuwork never ready: %s", self->out);
			job = first_event_ns(self, "gpuwork",
					     "dma_fence:dma_fence_init:");
			ASSERT_NE(0, job) TH_LOG("no fence of gpuwork: %s", self->out);
			/* Inside the job, and over half a second from its end. */
			if (job + 5 * second / 4 <= t0 &&
			    t0 + second / 2 <= job + job_ns)
				break;
			TH_LOG("gpuwork ready %.1f s, its job begun %.1f s after its command; %.1f s before the first report: again",
			       ((double)ready - began) / 1e9,
			       ((double)job - began) / 1e9,
			       ((double)t0 - job) / 1e9);
			ASSERT_GT(3, tries);
			/* Time to be ready as this one needed, and a second. */
			lead = (ready > job ? ready : job) - began + second + mid;
		}
		ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
				     "%s report -i %s --format=json > %s",
				     perf_gpu_path(), self->data, json))
			TH_LOG("%s", self->out);
		mine = json_num(self, json, "sum(c[\"oa\"][\"reports\"] for c in d[\"clients\"] if c[\"comm\"] == \"gpuwork\")");
		a0 = json_num(self, json, "sum(c[\"oa\"][\"a\"][0] for c in d[\"clients\"] if c[\"comm\"] == \"gpuwork\")");
		nobody = json_num(self, json, "d[\"oa\"][\"unattributed\"][\"reports\"]");
		TH_LOG("device 0x%04x: gpuwork %lld reports (a0 %lld), nobody %lld",
		       devices[k], mine, a0, nobody);
		if (k == 0) {
			EXPECT_EQ(n, mine);
			EXPECT_EQ(100ll * (n - 1), a0);
			EXPECT_EQ(0, nobody);
		} else {
			EXPECT_LT(n / 4, nobody);
			EXPECT_EQ(n, mine + nobody);
		}
	}
	free(b.data);
}

TEST_F(oa, bad_file_is_one_line)
{
	char bad[160];

	snprintf(bad, sizeof(bad), "%s/bad.oa", self->dir);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "head -c 100 /dev/urandom > %s", bad));
	EXPECT_NE(0, run_cmd(self->out, sizeof(self->out),
			     "%s record --oa-source=%s -o %s -- true",
			     perf_gpu_path(), bad, self->data));
	EXPECT_NE(NULL, strstr(self->out, "perf gpu record: ")) TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strstr(self->out, "AddressSanitizer")) TH_LOG("%s", self->out);
	EXPECT_NE(0, run_cmd(self->out, sizeof(self->out),
			     "%s record --oa-source=/nonexistent -o %s -- true",
			     perf_gpu_path(), self->data));
	EXPECT_NE(NULL, strstr(self->out, "/nonexistent: No such file"))
		TH_LOG("%s", self->out);
	/* OA units are xe's: --oa-unit with another source is refused. */
	EXPECT_NE(0, run_cmd(self->out, sizeof(self->out),
			     "%s record --oa-source=sim --oa-unit 1 -o %s -- true",
			     perf_gpu_path(), self->data));
	EXPECT_STREQ("perf gpu record: --oa-unit: only xe has OA units to choose from, and OA does not come from xe here\n",
		     self->out);
}

/* The shim beside this test's directory: out/libi915_shim.so. */
static const char *shim(void)
{
	static char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 32);

	if (n <= 0)
		return "libi915_shim.so";
	path[n] = '\0';
	strcpy(strrchr(path, '/'), "/../libi915_shim.so");
	return path;
}

/* The i915 shim's sysfs under the test's directory, in @sys: 0 or -1. */
static int shim_sysfs(FIXTURE_DATA(oa) *self, char *sys, size_t size)
{
	snprintf(sys, size, "%s/sys", self->dir);
	return fake_i915_sysfs(sys, &(struct fake_metric_set){ UUID, 42 }, 1,
			       100, 1300);
}

TEST_F(oa, i915_through_the_shim)
{
	char sys[128], oa_file[160];

	SETUP_PROVIDES(!access(shim(), R_OK), "the i915 shim at %s (make -C selftests)", shim());
	ASSERT_EQ(0, shim_sysfs(self, sys, sizeof(sys))) TH_LOG("%s: %m", sys);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "GPUPROF_SYSFS_ROOT='%s' LD_PRELOAD='%s %s' %s record --oa --oa-node " NODE " --metric-set RenderBasic -o %s -- %s fences 10 20",
			     sys, asan_runtime(), shim(), perf_gpu_path(),
			     self->data, gpuwork_path())) TH_LOG("%s", self->out);
	ASSERT_EQ(0, tally(self)) TH_LOG("%s", self->out);
	EXPECT_EQ(10, self->t.signaled);
	EXPECT_LT(50, self->t.oa) TH_LOG("%ld OA lines", self->t.oa);
	EXPECT_EQ(0, self->t.time_went_back);
	snprintf(oa_file, sizeof(oa_file), "%s.oa", self->data);
	EXPECT_EQ(self->t.oa, oa_samples(oa_file));
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "i915-perf-reader '%s' > /dev/null", oa_file))
		TH_LOG("%s", self->out);
	report_runs(_metadata, self);
}

/* Records of @type in perf script -D's dump of the recording, or -1. */
static long dumped(FIXTURE_DATA(oa) *self, const char *type)
{
	if (run_cmd(self->out, sizeof(self->out),
		    "perf script -D -i %s 2>/dev/null | grep -c ' %s'",
		    self->data, type))
		return -1;
	return atol(self->out);
}

/*
 * A live i915 stream is placed as it is read, so the recording streams:
 * SIGKILLed halfway, the file still has the reports of its rounds, in
 * time among the fences, for stock perf script and for perf gpu report.
 * The shim loses a report every 500, so losses are placed while
 * streaming too.  The kill comes a while after the storm's own "held"
 * lines (-t) show signalled fences, not after a fixed time: under load a
 * debug kernel once took longer than that to signal the first.
 */
TEST_F_TIMEOUT(oa, i915_stream_killed_keeps_its_rounds, 120)
{
	const unsigned int k = gpuprof_time_scale();
	char sys[128], err[160], held[160];
	long rounds, lost;

	SETUP_PROVIDES(!access(shim(), R_OK), "the i915 shim at %s (make -C selftests)", shim());
	snprintf(err, sizeof(err), "%s/report.err", self->dir);
	snprintf(held, sizeof(held), "%s/held", self->dir);
	ASSERT_EQ(0, shim_sysfs(self, sys, sizeof(sys))) TH_LOG("%s: %m", sys);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "GPUPROF_SHIM_LOSS_EVERY=500 GPUPROF_SYSFS_ROOT='%s' LD_PRELOAD='%s %s' %s record --oa --oa-node " NODE " -o %s -- %s -n storm -t fences 100000000 20 >%s 2>&1 & "
			     "p=$!; n=0; while [ $(grep -c ^held %s) -lt 5 ] && [ $n -lt %u ]; do sleep 0.1; n=$((n + 1)); done; sleep %u; "
			     "kill -9 $p; sleep 1; pkill -9 -x storm; true",
			     sys, asan_runtime(), shim(), perf_gpu_path(),
			     self->data, gpuwork_path(), held, held, 300 * k,
			     k))
		TH_LOG("%s", self->out);
	ASSERT_EQ(0, tally(self)) TH_LOG("%s", self->out);
	rounds = dumped(self, "PERF_RECORD_FINISHED_ROUND");
	lost = dumped(self, "PERF_RECORD_LOST");
	TH_LOG("%ld fences signalled, %ld OA reports, %ld losses, %ld rounds",
	       self->t.signaled, self->t.oa, lost, rounds);
	EXPECT_LT(2, rounds);
	EXPECT_LT(1, self->t.signaled);
	/* 1 ms a report for seconds, of which the last second may be cut. */
	EXPECT_LT(500, self->t.oa);
	EXPECT_LT(0, self->t.oa_between);
	EXPECT_LT(0, lost);
	EXPECT_EQ(1, self->t.devices);
	EXPECT_EQ(0, self->t.oa_before_device);
	EXPECT_EQ(0, self->t.time_went_back);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s report -i %s --format=json 2> %s | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d[\"oa\"][\"total\"][\"reports\"])'",
			     perf_gpu_path(), self->data, err))
		TH_LOG("%s", self->out);
	EXPECT_EQ(self->t.oa, atol(self->out));
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "cat %s", err));
	EXPECT_NE(NULL, strstr(self->out, "was not closed (perf gpu record stopped before its end): read up to its last complete round\n"))
		TH_LOG("%s", self->out);
}

/*
 * The same stream to its end (--duration): no record came after its
 * round was written, and every report of the .oa file is in the file.
 */
TEST_F_TIMEOUT(oa, i915_stream_to_its_end_loses_nothing, 120)
{
	const unsigned int k = gpuprof_time_scale();
	char sys[128], oa_file[160], said[2048];

	SETUP_PROVIDES(!access(shim(), R_OK), "the i915 shim at %s (make -C selftests)", shim());
	ASSERT_EQ(0, shim_sysfs(self, sys, sizeof(sys))) TH_LOG("%s: %m", sys);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "GPUPROF_SHIM_LOSS_EVERY=500 GPUPROF_SYSFS_ROOT='%s' LD_PRELOAD='%s %s' %s record --oa --oa-node " NODE " --duration %u -o %s -- sh -c 'exec %s -n storm fences 100000000 20 >/dev/null'",
			     sys, asan_runtime(), shim(), perf_gpu_path(), 3 * k,
			     self->data, gpuwork_path()))
		TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strstr(self->out, "came after their round"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "stopped by --duration"))
		TH_LOG("%s", self->out);
	memcpy(said, self->out, sizeof(said) - 1);
	said[sizeof(said) - 1] = 0;
	ASSERT_EQ(0, tally(self)) TH_LOG("%s", self->out);
	snprintf(oa_file, sizeof(oa_file), "%s.oa", self->data);
	TH_LOG("%ld fences signalled, %ld OA reports, %ld rounds",
	       self->t.signaled, self->t.oa,
	       dumped(self, "PERF_RECORD_FINISHED_ROUND"));
	EXPECT_LT(1000, self->t.oa);
	EXPECT_EQ(self->t.oa, oa_samples(oa_file)) TH_LOG("%s", said);
	EXPECT_EQ(0, self->t.time_went_back);
}

/* The deltas of a recording's reports in a row, as readers take them. */
struct file_deltas {
	struct gpuprof_oa_deltas d;
	uint8_t prev[GPUPROF_OA_REPORT_MAX];
	bool have_prev;
	long samples;
};

static void add_delta(void *arg, const struct gpuprof_oa_stream *s,
		      const struct gpuprof_oa_record_header *h,
		      const void *payload)
{
	struct file_deltas *fd = arg;

	if (h->type == GPUPROF_OA_RECORD_REPORT_LOST ||
	    h->type == GPUPROF_OA_RECORD_BUFFER_LOST)
		fd->have_prev = false;
	if (h->type != GPUPROF_OA_RECORD_SAMPLE)
		return;
	fd->samples++;
	if (fd->have_prev)
		gpuprof_oa_accumulate(&s->layout, fd->prev, payload, &fd->d);
	memcpy(fd->prev, payload, s->layout.size);
	fd->have_prev = true;
}

/* Its xe twin: out/libxe_shim.so. */
static const char *xe_shim(void)
{
	static char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 32);

	if (n <= 0)
		return "libxe_shim.so";
	path[n] = '\0';
	strcpy(strrchr(path, '/'), "/../libxe_shim.so");
	return path;
}

/*
 * A fake sysfs with the card's metrics directory under the test's
 * directory, then perf gpu record of gpuwork's 10 jobs of @hold_ms
 * through the xe shim, the variables @env set too: the recorder's exit
 * status, its output in self->out; -1 when the sysfs could not be made.
 */
static int record_through_xe_shim(FIXTURE_DATA(oa) *self, const char *env,
				  unsigned int hold_ms)
{
	char sys[128], path[192];

	snprintf(sys, sizeof(sys), "%s/sys", self->dir);
	snprintf(path, sizeof(path), "%s/class/drm/card0/metrics", sys);
	if (fake_i915_sysfs(sys, NULL, 0, 0, 0) || fake_sysfs_mkdirs(path)) {
		snprintf(self->out, sizeof(self->out), "%s: %m", sys);
		return -1;
	}
	return run_cmd(self->out, sizeof(self->out),
		       "%s GPUPROF_SHIM_PERFMON=1 GPUPROF_SYSFS_ROOT='%s' LD_PRELOAD='%s %s' %s record --oa-source=xe --oa-node " NODE " -o %s -- %s fences 10 %u",
		       env, sys, asan_runtime(), xe_shim(), perf_gpu_path(),
		       self->data, gpuwork_path(), hold_ms);
}

/*
 * --oa on a node xe drives takes xe's path: the shim's Lunar Lake
 * (0x6420), RenderBasic registered with it, read as PEC64u64 (17).
 * IGT 1.27.1's i915-perf-reader knows neither, so only ours read it.
 * Several recordings and readings: as long a ceiling as the sim's.
 */
TEST_F_TIMEOUT(oa, xe_through_the_shim, 90)
{
	char oa_file[160];

	SETUP_PROVIDES(!access(xe_shim(), R_OK), "the xe shim at %s (make -C selftests)", xe_shim());
	ASSERT_EQ(0, record_through_xe_shim(self, "", 20)) TH_LOG("%s", self->out);
	ASSERT_EQ(0, tally(self)) TH_LOG("%s", self->out);
	EXPECT_EQ(10, self->t.signaled);
	EXPECT_LT(50, self->t.oa) TH_LOG("%ld OA lines", self->t.oa);
	/* Stock perf script: the reports among the fences, in time. */
	EXPECT_LT(50, self->t.oa_between) TH_LOG("%ld", self->t.oa_between);
	EXPECT_EQ(0, self->t.time_went_back);
	EXPECT_EQ(1, self->t.devices);
	EXPECT_EQ(0, strncmp(self->t.device, "device_id=0x6420 oa_format=17 ", 30))
		TH_LOG("%s", self->t.device);
	snprintf(oa_file, sizeof(oa_file), "%s.oa", self->data);
	EXPECT_EQ(self->t.oa, oa_samples(oa_file));
	report_runs(_metadata, self);

	/*
	 * perf gpu report: every report and every tick of the recording,
	 * each once, split among the clients and no one exactly, gpuwork's
	 * share among them.
	 */
	{
		static __u8 buf[GPUPROF_OA_RECORD_MAX];
		struct file_deltas fd = {};
		struct gpuprof_oa_stream st;
		char json[160];
		long long total, ticks, mine, clients, nobody, cticks, nticks;

		ASSERT_EQ(0, oa_file_parse(oa_file, &st, buf, add_delta, &fd));
		ASSERT_LT(50, fd.samples);
		ASSERT_LT(0, (long long)fd.d.gpu_ticks);
		snprintf(json, sizeof(json), "%s/report.json", self->dir);
		ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
				     "%s report -i %s --format=json > %s",
				     perf_gpu_path(), self->data, json))
			TH_LOG("%s", self->out);
		total = json_num(self, json, "d[\"oa\"][\"total\"][\"reports\"]");
		ticks = json_num(self, json, "d[\"oa\"][\"total\"][\"gpu_clock_ticks\"]");
		clients = json_num(self, json, "sum(c[\"oa\"][\"reports\"] for c in d[\"clients\"])");
		cticks = json_num(self, json, "sum(c[\"oa\"][\"gpu_clock_ticks\"] for c in d[\"clients\"])");
		nobody = json_num(self, json, "d[\"oa\"][\"unattributed\"][\"reports\"]");
		nticks = json_num(self, json, "d[\"oa\"][\"unattributed\"][\"gpu_clock_ticks\"]");
		mine = json_num(self, json, "sum(c[\"oa\"][\"reports\"] for c in d[\"clients\"] if c[\"comm\"] == \"gpuwork\")");
		TH_LOG("%ld reports, %llu ticks; gpuwork %lld, no one %lld",
		       fd.samples, (unsigned long long)fd.d.gpu_ticks, mine,
		       nobody);
		EXPECT_EQ(fd.samples, total);
		EXPECT_EQ((long long)fd.d.gpu_ticks, ticks);
		EXPECT_EQ(total, clients + nobody);
		EXPECT_EQ(ticks, cticks + nticks);
		/* 10 jobs of 20 ms at about 1 ms a report. */
		EXPECT_LT(100, mine);
		/* Xe2's 64 PEC counters are shown, not gen8's 36. */
		EXPECT_EQ(64, json_num(self, json, "len(d[\"oa\"][\"total\"][\"a\"])"));
	}
}

/*
 * The xe shim's GPU runs while the kernel's fences are in flight
 * (GPUPROF_SHIM_JOBS, lib/shim_jobs.h): the busy time the OA reports
 * give (GpuTime times GPU_BUSY, from the summed deltas) is the time
 * gpuwork's 10 fences were held, by stock perf script's timestamps,
 * within two report periods a job and 5 ms.  Without the variable the
 * shim's GPU stays idle and the test fails (GPU_BUSY 0).
 */
TEST_F_TIMEOUT(oa, xe_shim_busy_follows_the_fences, 90)
{
	const unsigned int k_t = gpuprof_time_scale();
	long long oa_us, fence_us, period_us, tol_us;
	char json[160], script[160];

	SETUP_PROVIDES(!access(xe_shim(), R_OK), "the xe shim at %s (make -C selftests)", xe_shim());
	ASSERT_EQ(0, record_through_xe_shim(self, "GPUPROF_SHIM_JOBS=1", 50 * k_t))
		TH_LOG("%s", self->out);
	ASSERT_EQ(0, tally(self)) TH_LOG("%s", self->out);
	ASSERT_EQ(10, self->t.signaled);

	snprintf(json, sizeof(json), "%s/report.json", self->dir);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s report -i %s --format=json --oa-metrics GpuTime,GPU_BUSY > %s",
			     perf_gpu_path(), self->data, json))
		TH_LOG("%s", self->out);
	oa_us = json_num(self, json, "d[\"oa\"][\"total\"][\"metrics\"][\"GpuTime\"] * d[\"oa\"][\"total\"][\"metrics\"][\"GPU_BUSY\"] / 100 / 1000");
	/* perf script's lines, written by tally(): held from init to signal. */
	snprintf(script, sizeof(script), "%s/script.txt", self->dir);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "python3 -c 'import re,sys\n"
			     "held, t = {}, 0.0\n"
			     "for l in open(sys.argv[1]):\n"
			     "    m = re.search(r\" ([0-9]+[.][0-9]+): +dma_fence:dma_fence_(init|signaled): +driver=vgem .*context=([0-9]+) seqno=([0-9]+)\", l)\n"
			     "    if not m: continue\n"
			     "    k = (m.group(3), m.group(4))\n"
			     "    if m.group(2) == \"init\": held[k] = float(m.group(1))\n"
			     "    elif k in held: t += float(m.group(1)) - held.pop(k)\n"
			     "print(int(t * 1e6))' %s", script))
		TH_LOG("%s", self->out);
	fence_us = atoll(self->out);
	/* The mean time between reports. */
	period_us = json_num(self, json, "d[\"oa\"][\"total\"][\"gpu_time_ns\"] / max(d[\"oa\"][\"total\"][\"reports\"], 1) / 1000");
	ASSERT_LT(0, period_us);
	tol_us = 10 * 2 * period_us + 5000;
	TH_LOG("busy by OA %lld us, fences held %lld us, report period %lld us",
	       oa_us, fence_us, period_us);
	EXPECT_LE(10 * 50000ll * k_t, fence_us);
	EXPECT_GE(tol_us, llabs(oa_us - fence_us));
}

/*
 * vgem in 6.1 has no show_fdinfo: its fdinfo is pos/flags/mnt_id/ino
 * only, no drm-driver, so no client to sample.  Then only the scan is
 * checked (DRM fds were read); where the driver prints, a sample shows.
 */
TEST_F(oa, fdinfo_snapshots)
{
	long fds, clients;
	char *p;

	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s record --fdinfo-interval 100 -o %s -- %s fences 10 %u",
			     perf_gpu_path(), self->data, gpuwork_path(),
			     50 * gpuprof_time_scale()))
		TH_LOG("%s", self->out);
	p = strstr(self->out, "snapshots, ");
	ASSERT_NE(NULL, p) TH_LOG("%s", self->out);
	fds = atol(p + strlen("snapshots, "));
	ASSERT_LT(0, fds) TH_LOG("%s", self->out);
	p = strstr(self->out, "fds read, ");
	ASSERT_NE(NULL, p) TH_LOG("%s", self->out);
	clients = atol(p + strlen("fds read, "));
	ASSERT_EQ(0, tally(self)) TH_LOG("%s", self->out);
	EXPECT_EQ(10, self->t.signaled);
	/* What the message counted is what perf script shows. */
	EXPECT_EQ(clients, self->t.fdinfo);
	/* The count apart from the reason: make check counts skips by reason. */
	if (!clients) {
		TH_LOG("%ld DRM fds read", fds);
		SKIP(return, "vgem prints no drm-driver in fdinfo on this kernel");
	}
}

TEST_F(oa, fdinfo_off_system_wide)
{
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s record -a -o %s -- %s fences 3",
			     perf_gpu_path(), self->data, gpuwork_path()))
		TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strstr(self->out, "fdinfo:")) TH_LOG("%s", self->out);
}

TEST_HARNESS_MAIN
