// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu convert --to-perfetto ($GPUPROF_PERF_GPU) on the recording
 * of host/doc_recording.c, read back by two decoders that share no code
 * with the writer: protoc --decode_raw (Debian's protobuf-compiler) and
 * host/perfetto_check.c, which checks uuids, nesting, the order of each
 * sequence and interning, and sums what the tracks hold.  Those sums are
 * compared with perf gpu report's JSON on the same file: jobs per
 * process track equal to its JOBS, the union of the "run" slices equal
 * to its BUSY (within 1 ns per job), the busy counter's integral too,
 * the OA counters equal to --oa-metrics.  doc_recording.c's own
 * description gives the filters' expected jobs.  A trace whose event
 * names a track never described fails the checker; jobs that overlap
 * on one process go on lanes and still nest.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/corrupt.h"
#include "../lib/gpu_formats.h"
#include "../lib/paths.h"
#include "../lib/run.h"
#include "../lib/setup_provides.h"
#include "../../tools/perf-gpu/perfdata/write.h"
#include "../../tools/perf-gpu/perfdata/tracing-data.h"

#define OUT_SIZE	(1 << 20)
#define MS		1000000ull

FIXTURE(convert) {
	char dir[64], data[128], trace[128];
	char out[OUT_SIZE];
	char check[OUT_SIZE];
};

FIXTURE_SETUP(convert)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/perf_gpu_convert.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->data, sizeof(self->data), "%s/perf.data", self->dir);
	snprintf(self->trace, sizeof(self->trace), "%s/trace.pftrace", self->dir);
}

FIXTURE_TEARDOWN(convert)
{
	char out[256];

	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

/* doc_recording's file, with its OA device when @oa_device. */
static int doc_recording(FIXTURE_DATA(convert) *self, bool oa_device)
{
	char path[PATH_MAX];

	return run_cmd(self->out, sizeof(self->out), "%s %s %s 2>&1",
		       beside_exe(path, sizeof(path), NULL, "doc_recording"),
		       self->data, oa_device ? "--oa-device" : "");
}

static int convert(FIXTURE_DATA(convert) *self, const char *args)
{
	return run_cmd(self->out, sizeof(self->out),
		       "%s convert --to-perfetto -i %s -o %s %s 2>&1",
		       perf_gpu_path(), self->data, self->trace, args);
}

/* The checker's verdict on the trace, in self->check: its exit status. */
static int check(FIXTURE_DATA(convert) *self)
{
	char path[PATH_MAX];

	return run_cmd(self->check, sizeof(self->check), "%s %s",
		       beside_exe(path, sizeof(path), NULL, "perfetto_check"),
		       self->trace);
}

/* A number of report's JSON: the Python expression @expr over it, d. */
static double report(FIXTURE_DATA(convert) *self, const char *args,
		     const char *expr)
{
	if (run_cmd(self->out, sizeof(self->out),
		    "%s report -i %s --format=json %s > %s/r.json && "
		    "python3 -c 'import json; d = json.load(open(\"%s/r.json\")); print(%s)'",
		    perf_gpu_path(), self->data, args, self->dir, self->dir, expr))
		return NAN;
	return strtod(self->out, NULL);
}

/* The checker's line starting with @head: the number after @key in it. */
static double checked(FIXTURE_DATA(convert) *self, const char *head,
		      const char *key)
{
	const char *line = self->check, *k;
	size_t n = strlen(head);

	while (line && *line) {
		if (!strncmp(line, head, n)) {
			k = strstr(line, key);
			if (k && k < strchrnul(line, '\n'))
				return strtod(k + strlen(key), NULL);
		}
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	return NAN;
}

static bool has_line(FIXTURE_DATA(convert) *self, const char *head)
{
	return !isnan(checked(self, head, " "));
}

TEST_F_TIMEOUT(convert, process_tracks_hold_reports_jobs_and_busy_time, 300)
{
	static const int32_t pids[] = { 2001, 1500 };
	double jobs, busy, integral;
	char head[64], expr[128];
	unsigned int i;

	SETUP_PROVIDES(!run_cmd(self->out, sizeof(self->out), "command -v protoc"),
		       "protoc (protobuf-compiler): %s", self->out);
	ASSERT_EQ(0, doc_recording(self, false)) TH_LOG("%s", self->out);
	ASSERT_EQ(0, convert(self, "")) TH_LOG("%s", self->out);
	/* doc_recording: 6 jobs each, 5 vblanks, 6 frames marked. */
	EXPECT_EQ(0, strncmp(self->out, "Written 12 jobs of 2 processes, 5 instants, ",
			     strlen("Written 12 jobs of 2 processes, 5 instants, ")))
		TH_LOG("%s", self->out);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "protoc --decode_raw < %s", self->trace));
	EXPECT_NE(NULL, strstr(self->out, "6: \"glmark2\""));
	EXPECT_NE(NULL, strstr(self->out, "8: \"cgroup=/user.slice/bench.scope\""));
	ASSERT_EQ(0, check(self)) TH_LOG("%s", self->check);
	for (i = 0; i < 2; i++) {
		snprintf(head, sizeof(head), "process %d ", pids[i]);
		snprintf(expr, sizeof(expr),
			 "[c for c in d[\"clients\"] if c[\"pid\"] == %d][0][\"jobs\"]",
			 pids[i]);
		jobs = report(self, "", expr);
		EXPECT_EQ(jobs, checked(self, head, " jobs "));
		snprintf(expr, sizeof(expr),
			 "[c for c in d[\"clients\"] if c[\"pid\"] == %d][0][\"busy_ns\"]",
			 pids[i]);
		busy = report(self, "", expr);
		EXPECT_GE(jobs, fabs(busy - checked(self, head, " busy_ns ")));
		/* The busy counter: % per 10 ms window, integrated over ns. */
		snprintf(head, sizeof(head), "counter %d GPU busy %%", pids[i]);
		integral = checked(self, head, " integral ") / 100;
		EXPECT_GE(jobs, fabs(busy - integral)) TH_LOG("%f %f", busy, integral);
	}
	EXPECT_EQ(report(self, "", "d[\"totals\"][\"jobs\"]"),
		  checked(self, "ring i915/rcs0", " slices "));
	EXPECT_EQ(5, checked(self, "instants CRTC 0", ": "));
	/* Six "frame" ranges, all glmark2's. */
	EXPECT_EQ(6, checked(self, "process 2001 ", " ranges "));
	EXPECT_EQ(0, checked(self, "process 1500 ", " ranges "));
}

/*
 * --oa-metrics: with a window longer than the recording, each client's
 * one value is the metric over all its deltas, report's row.
 */
TEST_F_TIMEOUT(convert, oa_counters_equal_report_oa_metrics, 300)
{
	static const char *const metrics[] = {
		"GpuBusy", "AvgGpuCoreFrequency", "GpuCoreClocks",
	};
	static const int32_t pids[] = { 2001, 1500 };
	char head[96], expr[160];
	double want, got;
	unsigned int i, k;

	ASSERT_EQ(0, doc_recording(self, true)) TH_LOG("%s", self->out);
	ASSERT_EQ(0, convert(self, "--window 1 --oa-metrics GpuBusy,AvgGpuCoreFrequency,GpuCoreClocks"))
		TH_LOG("%s", self->out);
	ASSERT_EQ(0, check(self)) TH_LOG("%s", self->check);
	for (i = 0; i < 2; i++) {
		for (k = 0; k < 3; k++) {
			snprintf(expr, sizeof(expr),
				 "[c for c in d[\"clients\"] if c[\"pid\"] == %d][0][\"oa\"][\"metrics\"][\"%s\"]",
				 pids[i], metrics[k]);
			want = report(self, "--oa-metrics GpuBusy,AvgGpuCoreFrequency,GpuCoreClocks",
				      expr);
			snprintf(head, sizeof(head), "counter %d OA %s:", pids[i],
				 metrics[k]);
			got = checked(self, head, " last ");
			/* JSON prints six decimals. */
			EXPECT_GE(0.5e-6 * (1 + fabs(want)), fabs(want - got))
				TH_LOG("pid %d %s: report %.9g, trace %.9g", pids[i],
				       metrics[k], want, got);
			EXPECT_EQ(1, checked(self, head, " values "));
		}
	}
	/* A recording without an oa_device: the metrics are not known. */
	ASSERT_EQ(0, doc_recording(self, false)) TH_LOG("%s", self->out);
	EXPECT_EQ(1, convert(self, "--oa-metrics GpuBusy"));
	EXPECT_STREQ("perf gpu convert: --oa-metrics: the recording has no gpu_oa:oa_device event: its metric set is not known\n",
		     self->out);
}

/*
 * The filters, with what doc_recording.c says of its recording: frame f
 * at 10 s + f * 16.667 ms, glmark2's job from 1 to 7 ms into it,
 * kwin_wayland's from 10 to 12 ms.  From 10.050 s on, frames 3 to 5.
 */
TEST_F_TIMEOUT(convert, pid_comm_and_time_choose_what_is_written, 300)
{
	ASSERT_EQ(0, doc_recording(self, false)) TH_LOG("%s", self->out);
	ASSERT_EQ(0, convert(self, "--pid 1500")) TH_LOG("%s", self->out);
	ASSERT_EQ(0, check(self)) TH_LOG("%s", self->check);
	EXPECT_EQ(6, checked(self, "process 1500 ", " jobs "));
	EXPECT_FALSE(has_line(self, "process 2001 "));
	ASSERT_EQ(0, convert(self, "--comm glmark2")) TH_LOG("%s", self->out);
	ASSERT_EQ(0, check(self)) TH_LOG("%s", self->check);
	EXPECT_EQ(6, checked(self, "process 2001 ", " jobs "));
	EXPECT_FALSE(has_line(self, "process 1500 "));
	ASSERT_EQ(0, convert(self, "--time 10.050,")) TH_LOG("%s", self->out);
	ASSERT_EQ(0, check(self)) TH_LOG("%s", self->check);
	EXPECT_EQ(3, checked(self, "process 2001 ", " jobs "));
	EXPECT_EQ(3, checked(self, "process 1500 ", " jobs "));
	EXPECT_EQ(3, checked(self, "process 2001 ", " ranges "));
	EXPECT_EQ(1, convert(self, "--time 2,1"));
	EXPECT_STREQ("perf gpu convert: bad --time '2,1': want START,END in seconds\n",
		     self->out);
	EXPECT_EQ(1, convert(self, "--pid x1"));
	EXPECT_STREQ("perf gpu convert: --pid: 'x1' is not a pid\n", self->out);
}

/*
 * One event's track uuid changed to one no descriptor gives (a vblank's:
 * an instant, type 3, on CRTC 0's track, 3, moved to CRTC 15's, 123, a
 * varint of the same length): the checker fails it, protoc cannot tell.
 */
TEST_F(convert, a_broken_uuid_reference_fails_the_checker)
{
	/* TrackEvent fields 9 (type) = 3 and 11 (track_uuid) = 3. */
	static const uint8_t ref[] = { 0x48, 0x03, 0x58, 0x03 };
	uint8_t *buf;
	size_t len, i;
	FILE *f;

	SETUP_PROVIDES(!run_cmd(self->out, sizeof(self->out), "command -v protoc"),
		       "protoc (protobuf-compiler): %s", self->out);
	ASSERT_EQ(0, doc_recording(self, false)) TH_LOG("%s", self->out);
	ASSERT_EQ(0, convert(self, "")) TH_LOG("%s", self->out);
	ASSERT_EQ(0, check(self)) TH_LOG("%s", self->check);
	f = fopen(self->trace, "r+b");
	ASSERT_NE(NULL, f);
	buf = malloc(1 << 20);
	ASSERT_NE(NULL, buf);
	len = fread(buf, 1, 1 << 20, f);
	for (i = 0; i + sizeof(ref) <= len; i++)
		if (!memcmp(buf + i, ref, sizeof(ref)))
			break;
	ASSERT_GT(len, i + sizeof(ref) - 1);
	buf[i + 3] = 123;
	ASSERT_EQ(0, fseek(f, 0, SEEK_SET));
	ASSERT_EQ(len, fwrite(buf, 1, len, f));
	ASSERT_EQ(0, fclose(f));
	free(buf);
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "protoc --decode_raw < %s > /dev/null", self->trace));
	EXPECT_EQ(1, check(self));
	EXPECT_STREQ("FAIL: track 123 is used but never described\n",
		     self->check);
}

static int64_t now_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/*
 * The clock snapshot, against this machine's clocks (the recording is
 * made here, in this boot, just before): BOOTTIME - MONOTONIC as now
 * (no suspend in between), REALTIME - MONOTONIC too, within 10 ms, and
 * MONOTONIC within the last minute.
 */
TEST_F(convert, the_clock_snapshot_maps_monotonic_to_boottime)
{
	int64_t mono, boot, real, boot_off, real_off;

	ASSERT_EQ(0, doc_recording(self, false)) TH_LOG("%s", self->out);
	ASSERT_EQ(0, convert(self, "")) TH_LOG("%s", self->out);
	ASSERT_EQ(0, check(self)) TH_LOG("%s", self->check);
	boot_off = now_ns(CLOCK_BOOTTIME) - now_ns(CLOCK_MONOTONIC);
	real_off = now_ns(CLOCK_REALTIME) - now_ns(CLOCK_MONOTONIC);
	mono = checked(self, "clock ", " monotonic ");
	boot = checked(self, "clock ", " boottime ");
	real = checked(self, "clock ", " realtime ");
	EXPECT_GE(10000000, llabs(boot - mono - boot_off))
		TH_LOG("snapshot %lld, now %lld", (long long)(boot - mono),
		       (long long)boot_off);
	EXPECT_GE(10000000, llabs(real - mono - real_off));
	EXPECT_GE(60000000000ll, now_ns(CLOCK_MONOTONIC) - mono);
	EXPECT_LE(0, now_ns(CLOCK_MONOTONIC) - mono);
}

enum { EV_INIT, EV_SIG, EV_EMIT, EV_SQUEUE, EV_SRUN, EV_SDONE, EV_SDEP, NR_EV };

/*
 * A recording at @path of the fence events init, signaled and emit, and
 * drm_sched's stable events queue, run, done and add_dep.
 */
static struct perf_data_writer *fence_recording(const char *path)
{
	struct perf_data_event events[NR_EV] = {
		[EV_INIT] = { "dma_fence:dma_fence_init", FENCE_INIT_ID },
		[EV_SIG] = { "dma_fence:dma_fence_signaled", FENCE_ID },
		[EV_EMIT] = { "dma_fence:dma_fence_emit", FENCE_EMIT_ID },
		[EV_SQUEUE] = { "gpu_scheduler:drm_sched_job_queue", SCHED_QUEUE_ID },
		[EV_SRUN] = { "gpu_scheduler:drm_sched_job_run", SCHED_RUN_ID },
		[EV_SDONE] = { "gpu_scheduler:drm_sched_job_done", SCHED_DONE_ID },
		[EV_SDEP] = { "gpu_scheduler:drm_sched_job_add_dep", SCHED_ADD_DEP_ID },
	};
	struct perf_data_writer *w = perf_data_create(path, events, NR_EV);
	struct gpu_synth_ids ids;
	size_t len;
	void *tracing = gpu_tracing_data(&ids, &len);

	if (w && (!tracing || perf_data_set_tracing_data(w, tracing, len))) {
		perf_data_abort(w);
		w = NULL;
	}
	free(tracing);
	return w;
}

static int job_of(struct perf_data_writer *w, uint8_t *buf, int32_t pid,
		  uint32_t ctx, uint32_t seqno, uint64_t t)
{
	return raw_sample(w, EV_INIT, pid, t, buf,
			  fence_init_payload(buf, pid, "i915", "rcs0", ctx, seqno));
}

static int job(struct perf_data_writer *w, uint8_t *buf, bool init,
	       uint32_t ctx, uint32_t seqno, uint64_t t)
{
	if (init)
		return job_of(w, buf, 3000, ctx, seqno, t);
	return raw_sample(w, EV_SIG, 0, t, buf,
			  fence_payload(buf, 0, "i915", "rcs0", ctx, seqno));
}

/*
 * Four jobs of one process on three contexts of i915/rcs0: A (ctx 1)
 * 0-10 ms, B (ctx 2) 2-11 ms, C (ctx 3) 5-12 ms, D (ctx 1) 10-15 ms,
 * which starts as A ends, B and C running.  Three run at once at most:
 * three lanes, the fewest, D on the one A frees at 10 ms.  Then pid 3001
 * runs a job on context 5 from 20 to 22 ms, and E of ours, inited at
 * 20.5 ms on that context, waits behind it: it runs from 22 to 24 ms
 * (a "run" child; the job slice alone would count 1.5 ms more).  The
 * union of our runs: 0 to 15 ms and 22 to 24 ms, 17 ms.
 */
TEST_F(convert, overlapping_jobs_nest_on_lanes)
{
	const uint64_t t0 = 5000 * MS;
	struct perf_data_writer *w = fence_recording(self->data);
	uint8_t buf[512];
	int err;

	ASSERT_NE(NULL, w);
	err = perf_data_write_comm(w, 3000, 3000, "overlap", t0) ?:
	      job(w, buf, true, 1, 1, t0) ?:
	      job(w, buf, true, 2, 1, t0 + 2 * MS) ?:
	      job(w, buf, true, 3, 1, t0 + 5 * MS) ?:
	      job(w, buf, true, 1, 2, t0 + 10 * MS) ?:
	      job(w, buf, false, 1, 1, t0 + 10 * MS) ?:
	      job(w, buf, false, 2, 1, t0 + 11 * MS) ?:
	      job(w, buf, false, 3, 1, t0 + 12 * MS) ?:
	      job(w, buf, false, 1, 2, t0 + 15 * MS) ?:
	      perf_data_write_comm(w, 3001, 3001, "other", t0 + 20 * MS) ?:
	      job_of(w, buf, 3001, 5, 1, t0 + 20 * MS) ?:
	      job(w, buf, true, 5, 2, t0 + 20 * MS + MS / 2) ?:
	      job(w, buf, false, 5, 1, t0 + 22 * MS) ?:
	      job(w, buf, false, 5, 2, t0 + 24 * MS);
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, perf_data_close(w));
	ASSERT_EQ(0, convert(self, "")) TH_LOG("%s", self->out);
	ASSERT_EQ(0, check(self)) TH_LOG("%s", self->check);
	EXPECT_EQ(5, checked(self, "process 3000 ", " jobs "));
	EXPECT_EQ(3, checked(self, "process 3000 ", " lanes "));
	EXPECT_EQ(17 * MS, checked(self, "process 3000 ", " busy_ns "));
	EXPECT_EQ(report(self, "", "[c for c in d[\"clients\"] if c[\"pid\"] == 3000][0][\"busy_ns\"]"),
		  checked(self, "process 3000 ", " busy_ns "));
	EXPECT_EQ(2 * MS, checked(self, "process 3001 ", " busy_ns "));
	EXPECT_EQ(6, checked(self, "ring i915/rcs0", " slices "));
}

static int vq(struct perf_data_writer *w, uint8_t *buf, unsigned int ev,
	      int32_t pid, uint32_t seqno, uint64_t t)
{
	if (ev == EV_INIT)
		return raw_sample(w, ev, pid, t, buf,
				  fence_init_payload(buf, pid, "virtio_gpu",
						     "controlq", 1, seqno));
	return raw_sample(w, ev, pid, t, buf,
			  fence_class_payload(buf, ev == EV_EMIT ? FENCE_EMIT_ID :
					      FENCE_ID, pid, "virtio_gpu",
					      "controlq", 1, seqno));
}

/*
 * Fences numbered at emit (virtio_gpu), as report_test's
 * fences_numbered_at_emit: the reader gives each init at its emit, its
 * init time before that, so they reach the converter out of the order
 * of their inits.  While pid 100's third init is held (from 14 to 31
 * ms), no other job in flight, pid 300 runs 100 short jobs on i915 from
 * 30 ms, and the converter could write slices past 14 ms before that
 * job comes out: it must not.  Report's
 * figures: pid 100 two jobs, 12 ms busy; pid 200 one, 10 ms; pid 300
 * 100; none left out, and the trace's slices in order and nested.
 */
TEST_F(convert, fences_numbered_at_emit_come_in_order)
{
	const uint64_t t0 = 7000 * MS;
	struct perf_data_writer *w = fence_recording(self->data);
	uint8_t buf[512];
	int err, k;

	ASSERT_NE(NULL, w);
	err = vq(w, buf, EV_INIT, 100, 0, t0 + 10 * MS) ?:
	      vq(w, buf, EV_INIT, 200, 0, t0 + 11 * MS) ?:
	      vq(w, buf, EV_EMIT, 100, 5, t0 + 12 * MS) ?:
	      vq(w, buf, EV_EMIT, 200, 6, t0 + 13 * MS) ?:
	      vq(w, buf, EV_INIT, 100, 0, t0 + 14 * MS) ?:
	      vq(w, buf, EV_SIG, 0, 5, t0 + 20 * MS) ?:
	      vq(w, buf, EV_SIG, 0, 6, t0 + 30 * MS);
	/* 100 short jobs of pid 300 while pid 100's third init is held. */
	for (k = 0; k < 100 && !err; k++)
		err = job_of(w, buf, 300, 9, k + 1, t0 + 30 * MS + k * 9000) ?:
		      job(w, buf, false, 9, k + 1, t0 + 30 * MS + k * 9000 + 4000);
	err = err ?:
	      vq(w, buf, EV_EMIT, 50, 7, t0 + 31 * MS) ?:
	      vq(w, buf, EV_SIG, 0, 7, t0 + 35 * MS);
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, perf_data_close(w));
	ASSERT_EQ(0, convert(self, "")) TH_LOG("%s", self->out);
	ASSERT_EQ(0, check(self)) TH_LOG("%s", self->check);
	EXPECT_EQ(2, checked(self, "process 100 ", " jobs "));
	EXPECT_EQ(12 * MS, checked(self, "process 100 ", " busy_ns "));
	EXPECT_EQ(1, checked(self, "process 200 ", " jobs "));
	EXPECT_EQ(10 * MS, checked(self, "process 200 ", " busy_ns "));
	EXPECT_EQ(3, checked(self, "ring virtio_gpu/controlq", " slices "));
	EXPECT_EQ(100, checked(self, "process 300 ", " jobs "));
	EXPECT_EQ(NULL, strstr(self->out, "left out")) TH_LOG("%s", self->out);
}

/*
 * A held init is given out at its emit, with its own older time: the
 * converter must not write past that time while taking the event in.
 * 32 episodes of five events each, so one emit falls on every position
 * of the converter's periodic write (every 32 events): pid 100 inits a
 * virtio_gpu fence (unnumbered, held) at T, pid 300 runs an i915 job
 * from T + 1 to T + 2 ms, pid 100's emit at T + 3 ms numbers the fence,
 * which signals at T + 5 ms.  Every job is in the trace: 32 of pid 100,
 * their busy time report's, and 32 of pid 300; none left out.
 */
TEST_F(convert, a_held_init_given_out_at_a_periodic_write_is_not_late)
{
	const uint64_t t0 = 9000 * MS;
	struct perf_data_writer *w = fence_recording(self->data);
	uint8_t buf[512];
	int err = 0, i;

	ASSERT_NE(NULL, w);
	for (i = 0; i < 32 && !err; i++) {
		uint64_t t = t0 + i * 10 * MS;

		err = vq(w, buf, EV_INIT, 100, 0, t) ?:
		      job_of(w, buf, 300, 9, i + 1, t + MS) ?:
		      job(w, buf, false, 9, i + 1, t + 2 * MS) ?:
		      vq(w, buf, EV_EMIT, 100, i + 1, t + 3 * MS) ?:
		      vq(w, buf, EV_SIG, 0, i + 1, t + 5 * MS);
	}
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, perf_data_close(w));
	ASSERT_EQ(0, convert(self, "")) TH_LOG("%s", self->out);
	ASSERT_EQ(0, check(self)) TH_LOG("%s", self->check);
	EXPECT_EQ(NULL, strstr(self->out, "left out")) TH_LOG("%s", self->out);
	EXPECT_EQ(32, checked(self, "process 100 ", " jobs "));
	EXPECT_EQ(report(self, "", "[c for c in d[\"clients\"] if c[\"pid\"] == 100][0][\"busy_ns\"]"),
		  checked(self, "process 100 ", " busy_ns "));
	EXPECT_EQ(32, checked(self, "process 300 ", " jobs "));
}

/*
 * A crafted recording: one job signaled 584 years after its init.  The
 * busy counter walks its windows one by one, and walked this one for
 * ever; convert now refuses it in one line, exit 1, and writes no trace.
 */
TEST_F(convert, a_job_of_centuries_is_refused_not_walked)
{
	const uint64_t t0 = 1000 * MS;
	struct perf_data_writer *w = fence_recording(self->data);
	uint8_t buf[512];
	char want[256];

	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, perf_data_write_comm(w, 3000, 3000, "forever", t0) ?:
		     job(w, buf, true, 1, 1, t0) ?:
		     job(w, buf, false, 1, 1, UINT64_MAX - 1000));
	ASSERT_EQ(0, perf_data_close(w));
	EXPECT_EQ(1, convert(self, "")) TH_LOG("%s", self->out);
	snprintf(want, sizeof(want), "perf gpu convert: %s: offset ", self->data);
	EXPECT_EQ(0, strncmp(want, self->out, strlen(want))) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, ": a job ends 18446744073 s after the recording's first event: over 100000000 windows of --window"))
		TH_LOG("%s", self->out);
	EXPECT_NE(0, access(self->trace, F_OK));
}

/* A fence event of @driver/@timeline: init (by @pid) or signal. */
static int fence_ev(struct perf_data_writer *w, uint8_t *buf, bool init,
		    int32_t pid, const char *driver, const char *timeline,
		    uint32_t ctx, uint32_t seqno, uint64_t t)
{
	if (init)
		return raw_sample(w, EV_INIT, pid, t, buf,
				  fence_init_payload(buf, pid, driver, timeline,
						     ctx, seqno));
	return raw_sample(w, EV_SIG, 0, t, buf,
			  fence_payload(buf, 0, driver, timeline, ctx, seqno));
}

/* drm_sched_job_queue (by @pid) or _run of finished fence (21, @seqno). */
static int sched_job(struct perf_data_writer *w, uint8_t *buf, bool run,
		     int32_t pid, uint32_t seqno, uint64_t t)
{
	return raw_sample(w, run ? EV_SRUN : EV_SQUEUE, pid, t, buf,
			  sched_job_payload(buf, run ? SCHED_RUN_ID : SCHED_QUEUE_ID,
					    pid, "ring0", "0000:00:02.0", 21,
					    seqno, 7));
}

/* drm_sched_job_done of (21, @seqno), or its add_dep on (99, @dep). */
static int sched_fence(struct perf_data_writer *w, uint8_t *buf, bool done,
		       uint32_t seqno, uint32_t dep, uint64_t t)
{
	return raw_sample(w, done ? EV_SDONE : EV_SDEP, 0, t, buf,
			  sched_fence_payload(buf, done ? SCHED_DONE_ID :
					      SCHED_ADD_DEP_ID, 0, 21, seqno,
					      99, dep));
}

/*
 * drm_sched's stable events give a job's dependency phase (report/
 * sched.h).  Pid 100 pushes two jobs on drm_sched's ring0 (scheduled
 * fences on context 20, finished on 21).  The first, inited at 0 and
 * pushed at 1 us, depends on a vgem fence signaled at 300 ms; it runs
 * from its scheduled signal at 300.02 ms to 350.005 ms: a "dependency"
 * child 0-300 ms, "queue" 300-300.02 ms, "run" 300.02-350.005 ms.  The
 * second, inited and pushed at 400 ms with no dependency, runs from
 * 401.01 to 411 ms: "queue" and "run" only.  Busy time, report's: the
 * two runs, 59.975 ms.
 */
TEST_F(convert, drm_sched_jobs_show_their_dependency_phase)
{
	const uint64_t t0 = 9000 * MS, us = 1000;
	struct perf_data_writer *w = fence_recording(self->data);
	uint8_t buf[512];
	int err;

	ASSERT_NE(NULL, w);
	err = perf_data_write_comm(w, 100, 100, "app", t0) ?:
	      fence_ev(w, buf, true, 100, "drm_sched", "ring0", 20, 1, t0) ?:
	      fence_ev(w, buf, true, 100, "drm_sched", "ring0", 21, 1, t0) ?:
	      sched_job(w, buf, false, 100, 1, t0 + us) ?:
	      sched_fence(w, buf, false, 1, 5, t0 + us) ?:
	      fence_ev(w, buf, false, 0, "vgem", "unbound", 99, 5, t0 + 300 * MS) ?:
	      sched_job(w, buf, true, 0, 1, t0 + 300 * MS + 10 * us) ?:
	      fence_ev(w, buf, false, 0, "drm_sched", "ring0", 20, 1,
		       t0 + 300 * MS + 20 * us) ?:
	      sched_fence(w, buf, true, 1, 0, t0 + 350 * MS) ?:
	      fence_ev(w, buf, false, 0, "drm_sched", "ring0", 21, 1,
		       t0 + 350 * MS + 5 * us) ?:
	      fence_ev(w, buf, true, 100, "drm_sched", "ring0", 20, 2, t0 + 400 * MS) ?:
	      fence_ev(w, buf, true, 100, "drm_sched", "ring0", 21, 2, t0 + 400 * MS) ?:
	      sched_job(w, buf, false, 100, 2, t0 + 400 * MS) ?:
	      sched_job(w, buf, true, 0, 2, t0 + 401 * MS) ?:
	      fence_ev(w, buf, false, 0, "drm_sched", "ring0", 20, 2,
		       t0 + 401 * MS + 10 * us) ?:
	      sched_fence(w, buf, true, 2, 0, t0 + 411 * MS) ?:
	      fence_ev(w, buf, false, 0, "drm_sched", "ring0", 21, 2, t0 + 411 * MS);
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, perf_data_close(w));
	ASSERT_EQ(0, convert(self, "")) TH_LOG("%s", self->out);
	ASSERT_EQ(0, check(self)) TH_LOG("%s", self->check);
	EXPECT_EQ(2, checked(self, "process 100 ", " jobs "));
	EXPECT_EQ(1, checked(self, "process 100 ", " dependency "));
	EXPECT_EQ(300 * MS, checked(self, "process 100 ", " dependency 1 "));
	EXPECT_EQ(2, checked(self, "process 100 ", " queue "));
	EXPECT_EQ(20 * us + MS + 10 * us, checked(self, "process 100 ", " queue 2 "));
	EXPECT_EQ(2, checked(self, "process 100 ", " run "));
	EXPECT_EQ(49985 * us + 9990 * us, checked(self, "process 100 ", " run 2 "));
	EXPECT_EQ(report(self, "", "[c for c in d[\"clients\"] if c[\"pid\"] == 100][0][\"busy_ns\"]"),
		  checked(self, "process 100 ", " busy_ns "));
	EXPECT_EQ(59975 * us, checked(self, "process 100 ", " busy_ns "));
}

/*
 * perf gpu convert on @path, the trace thrown away: see one_error_line().
 * Two warnings of a trace written are not errors: a recording from
 * another boot (a cut may leave the clock out) and events older than
 * what was written (a flipped timestamp makes them).
 */
static int convert_one(void *ctx, const char *path, char *why,
		       size_t why_size)
{
	FIXTURE_DATA(convert) *self = ctx;
	char cmd[1024];

	snprintf(cmd, sizeof(cmd),
		 "{ timeout 10 %s convert --to-perfetto -i %s -o /dev/null 2>%s/err >/dev/null; "
		 "st=$?; grep -av -e 'BOOTTIME taken as CLOCK_MONOTONIC' "
		 "-e 'older than what was written already left out' %s/err; exit $st; }",
		 perf_gpu_path(), path, self->dir, self->dir);
	return one_error_line("convert", path, cmd, self->out,
			      sizeof(self->out), why, why_size);
}

/* The header, ids, attrs, tracing data and the first records. */
#define DENSE 1400

/*
 * doc_recording's file, which has every kind of event convert writes
 * (jobs, instants, ranges, OA), cut short: each cut gives one error line
 * naming the file and an offset, or a trace; never a crash under the
 * sanitizers, nor a hang.
 */
TEST_F_TIMEOUT(convert, cut_files_give_one_error_line, 1200)
{
	struct corrupt_run r;
	char cut[160], why[256];
	uint8_t *file;
	size_t len;

	ASSERT_EQ(0, doc_recording(self, true)) TH_LOG("%s", self->out);
	file = slurp(self->data, &len);
	ASSERT_NE(NULL, file);
	ASSERT_LT(DENSE, len);
	snprintf(cut, sizeof(cut), "%s/cut.data", self->dir);
	EXPECT_EQ(0, corrupt_cuts(file, len, DENSE, cut, convert_one, self, &r))
		TH_LOG("cut at %zu: %s", r.at, r.why);
	EXPECT_EQ(r.runs, r.errors);
	EXPECT_EQ(0, convert_one(self, self->data, why, sizeof(why)))
		TH_LOG("%s", why);
	TH_LOG("%d cuts, %d errors (dense part: every %zu from %zu)",
	       r.runs, r.errors, r.stride, r.first);
	free(file);
}

TEST_F_TIMEOUT(convert, flipped_bytes_never_crash, 1200)
{
	struct corrupt_run r;
	char bad[160];
	uint8_t *file;
	size_t len;

	ASSERT_EQ(0, doc_recording(self, true)) TH_LOG("%s", self->out);
	file = slurp(self->data, &len);
	ASSERT_NE(NULL, file);
	snprintf(bad, sizeof(bad), "%s/bad.data", self->dir);
	EXPECT_EQ(0, corrupt_flips(file, len, DENSE, 3, bad, convert_one,
				   self, &r))
		TH_LOG("flip at %zu: %s", r.at, r.why);
	TH_LOG("%d flips, %d errors (dense part: every %zu from %zu)",
	       r.runs, r.errors, r.stride, r.first);
	free(file);
}

/*
 * -o naming a FIFO (or a device: /dev/null) writes through it and leaves
 * it be: convert wrote beside the output and renamed over it, which as
 * root replaced /dev/null with a trace.  The FIFO gives the bytes the
 * trace written to a file holds.
 */
TEST_F_TIMEOUT(convert, a_fifo_output_is_written_through_not_replaced, 120)
{
	char fifo[160], got[160];
	struct stat st;

	ASSERT_EQ(0, doc_recording(self, false)) TH_LOG("%s", self->out);
	ASSERT_EQ(0, convert(self, "")) TH_LOG("%s", self->out);
	snprintf(fifo, sizeof(fifo), "%s/fifo", self->dir);
	snprintf(got, sizeof(got), "%s/got", self->dir);
	ASSERT_EQ(0, mkfifo(fifo, 0600));
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "timeout 20 cat %s > %s & "
			     "%s convert --to-perfetto -i %s -o %s >/dev/null; st=$?; wait; exit $st",
			     fifo, got, perf_gpu_path(), self->data, fifo))
		TH_LOG("%s", self->out);
	ASSERT_EQ(0, lstat(fifo, &st));
	EXPECT_TRUE(S_ISFIFO(st.st_mode));
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out), "cmp %s %s",
			     self->trace, got)) TH_LOG("%s", self->out);
}

TEST_HARNESS_MAIN
