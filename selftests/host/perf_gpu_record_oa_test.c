// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu record's OA path without tracefs: a recording made here by
 * the simulator, given as --oa-source=FILE, is copied, read back and
 * merged with tracepoint-like samples in the record store.  Where each
 * report must land follows from the simulator's own clock: stream time
 * 0 is start_cpu_ns and the OA timestamp runs at 19.2 MHz.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/run.h"
#include "../../tools/perf-gpu/record/events.h"
#include "../../tools/perf-gpu/record/oa.h"
#include "../../tools/perf-gpu/record/store.h"

#define START_CPU	5000000000ull	/* 5 s of CLOCK_MONOTONIC */
#define MS		1000000ull
#define OA_ID		0xff00
#define DEVICE_ID	0xff02
#define CORR_ID		0xff03
#define FAKE_ID		77

FIXTURE(oa) {
	char dir[64], rec[128], copy[128];
	struct oa_sim sim;
	struct record_store *st;
	struct record_oa oa;
	struct record_events evs;
	/* What for_each saw. */
	uint64_t last, n_oa, n_fake, oa_before_first_fake, bad_time, bad_pid;
	uint64_t bad_type;
	uint64_t n_device, oa_before_device;
	uint32_t device_id;
	/* gpu_oa:oa_correlation samples: count, bounds, and each in order. */
	uint64_t n_corr, corr_bad, bound_min, bound_max;
	uint64_t corr[8][4];	/* cpu_time, gpu_time, bound_ns, bounded */
};

/* A 50 ms recording, busy 10..30 ms, REPORT_LOST after every 10th report. */
static int make_recording(FIXTURE_DATA(oa) *self, bool truncate_it)
{
	struct oa_sim_config cfg = {
		.seed = 3, .period_ns = MS, .report_lost_every = 10,
		.start_cpu_ns = START_CPU,
	};
	struct oa_writer w;
	FILE *f = fopen(self->rec, "wb");
	int err;

	if (!f)
		return -1;
	oa_writer_init(&w, f);
	err = oa_sim_init(&self->sim, &cfg, &w) ||
	      oa_sim_step(&self->sim, 10 * MS, false, 0) ||
	      oa_sim_step(&self->sim, 20 * MS, true, OA_SIM_CTX_BASE) ||
	      oa_sim_step(&self->sim, 20 * MS, false, 0) ||
	      oa_sim_finish(&self->sim);
	if (fclose(f) || err)
		return -1;
	/* Cut inside the last records: the closing point is half there. */
	if (truncate_it)
		return truncate(self->rec, w.bytes - 10);
	return 0;
}

FIXTURE_SETUP(oa)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/record_oa.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->rec, sizeof(self->rec), "%s/rec.oa", self->dir);
	snprintf(self->copy, sizeof(self->copy), "%s/copy.oa", self->dir);
	self->st = record_store_new();
	ASSERT_NE(NULL, self->st);
	self->oa.event = 1;
	self->oa.id = OA_ID;
	self->oa.device_event = 2;
	self->oa.device_id = DEVICE_ID;
	self->oa.corr_event = 3;
	self->oa.corr_id = CORR_ID;
	self->oa.output_opt = self->copy;
}

FIXTURE_TEARDOWN(oa)
{
	char out[256];

	record_oa_free(&self->oa);
	record_store_free(self->st);
	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

/* Three tracepoint-like samples of event 0 at 5, 15 and 25 ms. */
static int add_fakes(struct record_store *st)
{
	uint8_t raw[8] = { FAKE_ID, 0 };
	int i, err = 0;

	for (i = 0; i < 3 && !err; i++)
		err = record_store_add_sample(st, 0, 42, 42, 1,
					      START_CPU + (5 + 10 * i) * MS, 0,
					      raw, sizeof(raw));
	return err;
}

static int check(void *arg, unsigned int event, int32_t pid, uint64_t time,
		 const void *raw, uint32_t raw_size)
{
	FIXTURE_DATA(oa) *self = arg;
	uint64_t gpu, want;
	uint16_t type;
	int32_t cpid;

	if (time < self->last)
		self->bad_time++;
	self->last = time;
	memcpy(&type, raw, 2);
	if (event == 0) {
		self->n_fake++;
		return 0;
	}
	/* gpu_oa:oa_correlation: at the point's CPU time. */
	if (event == 3) {
		uint64_t v[4] = { 0 };

		if (type != CORR_ID || raw_size < 36) {
			self->bad_type++;
			return 0;
		}
		memcpy(v, (const uint8_t *)raw + 8, 24);
		memcpy(&v[3], (const uint8_t *)raw + 32, 4);
		if (v[0] != time || v[3] > 1)
			self->corr_bad++;
		if (!self->n_corr || v[2] < self->bound_min)
			self->bound_min = v[2];
		if (v[2] > self->bound_max)
			self->bound_max = v[2];
		if (self->n_corr < 8)
			memcpy(self->corr[self->n_corr], v, sizeof(v));
		self->n_corr++;
		return 0;
	}
	/* gpu_oa:oa_device: once, before the reports, the recording's GPU. */
	if (event == 2) {
		self->n_device++;
		self->oa_before_device = self->n_oa;
		if (type != DEVICE_ID || raw_size < 56)
			self->bad_type++;
		else
			memcpy(&self->device_id, (const uint8_t *)raw + 16, 4);
		return 0;
	}
	self->n_oa++;
	if (!self->n_fake)
		self->oa_before_first_fake++;
	if (type != OA_ID || raw_size < 32)
		self->bad_type++;
	memcpy(&cpid, (const uint8_t *)raw + 4, 4);
	/* A recording's contexts have no known process: pid 0. */
	if (pid != 0 || cpid != 0)
		self->bad_pid++;
	memcpy(&gpu, (const uint8_t *)raw + 8, 8);
	want = START_CPU + (gpu - self->sim.start_gpu) * 1000000000ull /
			   OA_SIM_TIMESTAMP_HZ;
	if (time + 1 < want || time > want + 1)
		self->bad_time++;
	return 0;
}

TEST_F(oa, file_reports_merge_in_time)
{
	char out[256];

	ASSERT_EQ(0, make_recording(self, false));
	ASSERT_EQ(0, add_fakes(self->st));
	record_oa_set_source(&self->oa, self->rec);
	ASSERT_EQ(RECORD_OA_FILE, self->oa.source);
	ASSERT_EQ(0, record_oa_start(&self->oa, "unused", self->st));
	ASSERT_EQ(0, record_oa_finish(&self->oa, self->st, &self->evs));

	EXPECT_EQ(self->sim.reports, self->oa.reports);
	EXPECT_LT(50, self->oa.reports);
	EXPECT_EQ(self->sim.report_lost, self->oa.report_lost);
	EXPECT_LT(0, self->oa.report_lost);
	EXPECT_EQ(self->sim.correlations, self->oa.correlations);
	/* Each loss is a LOST record of one report. */
	EXPECT_EQ(self->sim.report_lost, record_store_lost(self->st));
	EXPECT_EQ(3 + 1 + self->sim.reports + self->sim.correlations,
		  record_store_samples(self->st));

	ASSERT_EQ(0, record_store_for_each_sample(self->st, check, self));
	EXPECT_EQ(3, self->n_fake);
	EXPECT_EQ(1, self->n_device);
	EXPECT_EQ(0, self->oa_before_device);
	EXPECT_EQ(OA_SIM_DEVICE_ID, self->device_id);
	EXPECT_EQ(self->sim.reports, self->n_oa);
	EXPECT_EQ(0, self->bad_time);
	EXPECT_EQ(0, self->bad_type);
	EXPECT_EQ(0, self->bad_pid);
	/* Each point with its bound: the simulator's are 200 to 999 ns. */
	EXPECT_EQ(self->sim.correlations, self->n_corr);
	EXPECT_EQ(0, self->corr_bad);
	EXPECT_LE(200, self->bound_min);
	EXPECT_GT(1000, self->bound_max);
	EXPECT_EQ(START_CPU, self->corr[0][0]);
	EXPECT_EQ(1, self->corr[0][3]);
	/*
	 * Timer reports come where the OA timestamp is a multiple of the
	 * period (16384 ticks, 0.853 ms): those in the first 5 ms (96000
	 * ticks) precede the first fake sample.
	 */
	EXPECT_EQ(16384, self->sim.period_ticks);
	EXPECT_EQ((self->sim.start_gpu + 96000) / 16384 -
		  self->sim.start_gpu / 16384, self->oa_before_first_fake);
	/* The copy is the recording. */
	EXPECT_EQ(0, run_cmd(out, sizeof(out), "cmp '%s' '%s'", self->rec,
			     self->copy)) TH_LOG("%s", out);
}

/*
 * A Tiger Lake stream's start in @w: a point at START_CPU (OA time 0)
 * and a report 5 ms on, made in @r (@size bytes, valid), which the
 * caller reuses for more.
 */
static void write_start(struct oa_writer *w, uint8_t *r, size_t size)
{
	static const struct gpuprof_oa_device_info di = {
		.timestamp_frequency = 19200000, .device_id = 0x9a49,
		.oa_format = GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8,
	};

	oa_write_version(w);
	oa_write_device_info(w, &di);
	oa_write_correlation(w, START_CPU, 0, 1500);
	r[0] = 1;
	memcpy(r + 4, &(uint32_t){ 96000 }, 4);
	oa_write_sample(w, r, size);
}

/*
 * Points with known bounds, and one whose stream has no bound (a writer
 * from before CORRELATION_BOUND): each is one gpu_oa:oa_correlation
 * sample with its own bound, or none.
 */
TEST_F(oa, correlation_bounds_kept_per_point)
{
	struct gpuprof_oa_correlation bare = {
		.cpu_timestamp = START_CPU + 10 * MS,
		.gpu_timestamp = 192000,
	};
	const uint64_t want[3][4] = {
		{ START_CPU, 0, 1500, 1 },
		{ START_CPU + 10 * MS, 192000, 0, 0 },
		{ START_CPU + 20 * MS, 384000, 4200, 1 },
	};
	uint8_t r[256] = { 0 };
	struct oa_writer w;
	FILE *f = fopen(self->rec, "wb");
	int i;

	ASSERT_NE(NULL, f);
	oa_writer_init(&w, f);
	write_start(&w, r, sizeof(r));
	oa_write_record(&w, GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION, &bare,
			sizeof(bare));
	oa_write_correlation(&w, START_CPU + 20 * MS, 384000, 4200);
	oa_writer_flush(&w);
	ASSERT_EQ(0, fclose(f) || oa_writer_error(&w));

	record_oa_set_source(&self->oa, self->rec);
	ASSERT_EQ(0, record_oa_start(&self->oa, "unused", self->st));
	ASSERT_EQ(0, record_oa_finish(&self->oa, self->st, &self->evs));
	ASSERT_EQ(0, record_store_for_each_sample(self->st, check, self));
	EXPECT_EQ(3, self->oa.correlations);
	ASSERT_EQ(3, self->n_corr);
	EXPECT_EQ(0, self->corr_bad);
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(want[i][0], self->corr[i][0]) TH_LOG("point %d", i);
		EXPECT_EQ(want[i][1], self->corr[i][1]) TH_LOG("point %d", i);
		EXPECT_EQ(want[i][2], self->corr[i][2]) TH_LOG("point %d", i);
		EXPECT_EQ(want[i][3], self->corr[i][3]) TH_LOG("point %d", i);
	}
	/* The report, halfway between the first two points. */
	EXPECT_EQ(1, self->n_oa);
	EXPECT_EQ(0, self->bad_time);
}

/* The times of the store's OA reports and losses, as written. */
struct placed {
	uint64_t report[8], lost[8];
	int n_report, n_lost;
};

static int note_report(void *arg, unsigned int event, int32_t pid,
		       uint64_t time, const void *raw, uint32_t raw_size)
{
	struct placed *p = arg;

	(void)pid, (void)raw, (void)raw_size;
	if (event == 1 && p->n_report < 8)
		p->report[p->n_report++] = time;
	return 0;
}

/*
 * The output read back as it grows, as a live stream's is: a report
 * waits for a point at or after it, a loss for the report before it;
 * record_oa_ingest_upto() is the point before the last until the end.
 */
TEST_F(oa, ingest_places_reports_as_points_come)
{
	struct record_oa_ingest *in;
	struct placed p = { 0 };
	uint8_t r[256] = { 0 };
	struct oa_writer w;
	FILE *f = fopen(self->rec, "wb");

	ASSERT_NE(NULL, f);
	oa_writer_init(&w, f);
	self->oa.output = self->rec;
	in = record_oa_ingest_new(&self->oa, self->st);
	ASSERT_NE(NULL, in);

	write_start(&w, r, sizeof(r));
	ASSERT_EQ(0, oa_writer_flush(&w));
	ASSERT_EQ(0, record_oa_ingest_feed(in));
	EXPECT_EQ(0, self->oa.reports);
	EXPECT_EQ(0, record_oa_ingest_upto(in));

	/*
	 * A point after it: the report goes halfway between the two.  The
	 * next report is past the next point, and a loss waits behind it.
	 */
	oa_write_correlation(&w, START_CPU + 10 * MS, 192000, 1500);
	memcpy(r + 4, &(uint32_t){ 480000 }, 4);
	oa_write_sample(&w, r, sizeof(r));
	oa_write_record(&w, GPUPROF_OA_RECORD_REPORT_LOST, NULL, 0);
	ASSERT_EQ(0, oa_writer_flush(&w));
	ASSERT_EQ(0, record_oa_ingest_feed(in));
	EXPECT_EQ(1, self->oa.reports);
	EXPECT_EQ(START_CPU, record_oa_ingest_upto(in));
	oa_write_correlation(&w, START_CPU + 20 * MS, 384000, 1500);
	ASSERT_EQ(0, oa_writer_flush(&w));
	ASSERT_EQ(0, record_oa_ingest_feed(in));
	EXPECT_EQ(1, self->oa.reports);
	EXPECT_EQ(0, record_store_lost(self->st));
	EXPECT_EQ(START_CPU + 10 * MS, record_oa_ingest_upto(in));

	/* The end: the last report from the last point, then its loss. */
	ASSERT_EQ(0, record_oa_ingest_end(in));
	EXPECT_EQ(2, self->oa.reports);
	EXPECT_EQ(1, self->oa.report_lost);
	EXPECT_EQ(1, record_store_lost(self->st));
	EXPECT_EQ(UINT64_MAX, record_oa_ingest_upto(in));
	ASSERT_EQ(0, record_store_for_each_sample(self->st, note_report, &p));
	ASSERT_EQ(2, p.n_report);
	EXPECT_EQ(START_CPU + 5 * MS, p.report[0]);
	EXPECT_EQ(START_CPU + 25 * MS, p.report[1]);
	EXPECT_EQ(START_CPU + 25 * MS, record_store_last_time(self->st));
	record_oa_ingest_free(in);
	self->oa.output = NULL;
	fclose(f);
}

TEST_F(oa, truncated_file_refused)
{
	ASSERT_EQ(0, make_recording(self, true));
	record_oa_set_source(&self->oa, self->rec);
	ASSERT_EQ(0, record_oa_start(&self->oa, "unused", self->st));
	EXPECT_EQ(-1, record_oa_finish(&self->oa, self->st, &self->evs));
}

TEST_F(oa, missing_file_refused)
{
	record_oa_set_source(&self->oa, "/nonexistent.oa");
	EXPECT_EQ(-1, record_oa_start(&self->oa, "unused", self->st));
}

TEST(sources)
{
	struct record_oa oa = { 0 };

	record_oa_set_source(&oa, "sim");
	EXPECT_EQ(RECORD_OA_SIM, oa.source);
	record_oa_set_source(&oa, "i915");
	EXPECT_EQ(RECORD_OA_DEVICE, oa.source);
	EXPECT_EQ(OA_DRIVER_I915, oa.driver);
	record_oa_set_source(&oa, "xe");
	EXPECT_EQ(RECORD_OA_DEVICE, oa.source);
	EXPECT_EQ(OA_DRIVER_XE, oa.driver);
	record_oa_set_source(&oa, "device");
	EXPECT_EQ(RECORD_OA_DEVICE, oa.source);
	EXPECT_EQ(OA_DRIVER_ANY, oa.driver);
	record_oa_set_source(&oa, "./sim");
	EXPECT_EQ(RECORD_OA_FILE, oa.source);
	EXPECT_STREQ("./sim", oa.file);
}

TEST_HARNESS_MAIN
