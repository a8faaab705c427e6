// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu report --oa-metrics ($GPUPROF_PERF_GPU) on a recording made
 * here with the perf.data writer: a Tiger Lake GT2 with RenderBasic
 * (gpu_oa:oa_device), two clients each bound to a context, reports
 * between and around them.  The metrics expected of a row are worked out
 * here as IGT aggregates reports: the deltas of the pairs the report
 * gives that row, summed with the module's decoder
 * (gpuprof_oa_accumulate), then each equation applied once with
 * tools/perf-gpu/oa/metrics.c.  The reports alternate a busy and an
 * idle millisecond of different GPU clock counts, so that this differs
 * from the average of per-report percentages.  IGT 1.27.1's
 * i915-perf-reader, given zeta's reports as a recording of its own (one
 * context: one segment), prints the same counters.  Then the errors: a
 * name the set lacks, no device event, a device the table lacks, two
 * sets.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include <i915_drm.h>

#include "../lib/harness.h"
#include "../lib/oa_topology.h"
#include "../lib/gpu_formats.h"
#include "../lib/run.h"
#include "../lib/setup_provides.h"
#include "../../module/oa_decode.h"
#include "../../tools/perf-gpu/oa/metrics.h"
#include "../../tools/perf-gpu/oa/writer.h"
#include "../../tools/perf-gpu/perfdata/machine.h"
#include "../../tools/perf-gpu/perfdata/write.h"
#include "../../tools/perf-gpu/perfdata/tracing-data.h"

#define OUT_SIZE	(1 << 20)
#define MS		1000000ull
#define T0		1000000000ull
#define TGL		0x9a49
#define OA_FREQ		19200000ull
#define NR_REPORTS	100
#define KERNEL		0x060c00

enum { EV_INIT, EV_SIG, EV_MARK, EV_OA, EV_DEV, NR_EV };

/* Rows of the recording: who gets the delta ending at each report. */
enum { ZETA, BETA, UNATTRIBUTED, RANGE, TOTAL, NR_ROWS };

/* What make_file() writes besides the reports. */
struct recording {
	bool device;		/* a gpu_oa:oa_device before the reports */
	uint32_t device_id;
	const char *second_set;	/* another device event half-way */
	bool tiny;		/* beta's range "tiny", 70.6 to 70.9 ms */
};

struct expect {
	struct gpuprof_oa_deltas row[NR_ROWS];
	struct gpuprof_oa_deltas tiny;	/* beta's range "tiny" */
	/* zeta's GpuBusy per report, to average */
	double busy_sum;
	unsigned int busy_n;
};

FIXTURE(metrics) {
	char dir[64];
	char path[128];
	void *tracing;
	size_t tracing_len;
	struct gpu_synth_ids ids;
	struct expect e;
	char out[OUT_SIZE];
	char want[8192];
};

/* Compiled once: its tables are large for a stack. */
static struct oa_metrics ref;

FIXTURE_SETUP(metrics)
{
	self->tracing = gpu_tracing_data(&self->ids, &self->tracing_len);
	ASSERT_NE(NULL, self->tracing);
	snprintf(self->dir, sizeof(self->dir), "/tmp/perf_gpu_report_metrics.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
}

FIXTURE_TEARDOWN(metrics)
{
	char out[256];

	free(self->tracing);
	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

/* Slice 0 of a GT2: subslices 0x3f, 16 EUs each (bytes of the query). */
static int device(struct perf_data_writer *w, FIXTURE_DATA(metrics) *self,
		  uint32_t device_id, const char *set, uint64_t time)
{
	struct gpuprof_oa_device_info di = {
		.timestamp_frequency = OA_FREQ, .device_id = device_id,
		.oa_format = GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8,
		.gt_min_frequency = 100000000, .gt_max_frequency = 1300000000,
	};
	struct gpuprof_oa_driver drv = { .kernel = KERNEL };
	union oa_topology topo;
	size_t topo_len = tgl_topology(&topo, 0x3f);
	uint8_t buf[1024];

	snprintf(di.metric_set_name, sizeof(di.metric_set_name), "%s", set);
	return raw_sample(w, EV_DEV, 0, time, buf,
		      gpu_oa_device_payload(buf, sizeof(buf), self->ids.oa_device,
					    &di, &drv, &topo, topo_len));
}

/* Zeta runs on i915/rcs0 from 10 to 40 ms, beta on i915/bcs0 from 50 to 90. */
static uint32_t ctx_of(int k)
{
	if (k >= 10 && k < 40)
		return 0xa;
	if (k >= 50 && k < 90)
		return 0xb;
	return GPUPROF_OA_NO_CONTEXT;
}

static void put32(uint8_t *r, unsigned int off, uint32_t v)
{
	memcpy(r + off, &v, 4);
}

/*
 * Report k, 1 ms after report k - 1: odd milliseconds are busy (A0 up
 * 900000 of 1000000 clocks), even ones idle (A0 up 300000 of 3000000);
 * every other A, B and C low dword rises by its own step.  The high
 * bytes of the 40-bit A counters (bytes 160 to 191) stay 0.
 */
static void make_report(uint8_t *r, int k)
{
	uint32_t clk = 0, a0 = 0;
	unsigned int i;
	int j;

	for (j = 1; j <= k; j++) {
		clk += j % 2 ? 1000000 : 3000000;
		a0 += j % 2 ? 900000 : 300000;
	}
	memset(r, 0, 256);
	put32(r, 0, GPUPROF_OA_REASON_TIMER << 19 |
		    (ctx_of(k) != GPUPROF_OA_NO_CONTEXT ? 1u << 16 : 0));
	put32(r, 4, (uint32_t)(k * (OA_FREQ / 1000)));
	put32(r, 8, ctx_of(k) != GPUPROF_OA_NO_CONTEXT ? ctx_of(k) : 0);
	put32(r, 12, clk);
	put32(r, 16, a0);
	for (i = 5; i < 40; i++)
		put32(r, i * 4, (uint32_t)(k * (i * 1000 + (k % 3) * 7)));
	for (i = 48; i < 64; i++)
		put32(r, i * 4, (uint32_t)(k * i * 300));
}

static void deltas_add(struct gpuprof_oa_deltas *acc,
		       const struct gpuprof_oa_deltas *d)
{
	unsigned int i;

	acc->timestamp += d->timestamp;
	acc->gpu_ticks += d->gpu_ticks;
	for (i = 0; i < GPUPROF_OA_A_COUNTERS; i++)
		acc->a[i] += d->a[i];
	for (i = 0; i < GPUPROF_OA_B_COUNTERS; i++)
		acc->b[i] += d->b[i];
	for (i = 0; i < GPUPROF_OA_C_COUNTERS; i++)
		acc->c[i] += d->c[i];
}

/*
 * @num / @den of @d added to @acc, each counter rounded down: the share
 * of a delta a range gets for the part of the delta's time it covers.
 */
static void deltas_add_share(struct gpuprof_oa_deltas *acc,
			     const struct gpuprof_oa_deltas *d, uint64_t num,
			     uint64_t den)
{
	unsigned int i;

	acc->timestamp += d->timestamp * num / den;
	acc->gpu_ticks += d->gpu_ticks * num / den;
	for (i = 0; i < GPUPROF_OA_A_COUNTERS; i++)
		acc->a[i] += d->a[i] * num / den;
	for (i = 0; i < GPUPROF_OA_B_COUNTERS; i++)
		acc->b[i] += d->b[i] * num / den;
	for (i = 0; i < GPUPROF_OA_C_COUNTERS; i++)
		acc->c[i] += d->c[i] * num / den;
}

static int counter(const struct oa_metrics *m, const char *sym)
{
	unsigned int i;

	for (i = 0; i < m->n; i++)
		if (!strcmp(oa_metric_str(oa_metrics_counter(m, i)->symbol), sym))
			return i;
	return -1;
}

/* RenderBasic on the Tiger Lake of the recording, compiled here. */
static void init_ref(struct __test_metadata *_metadata)
{
	union oa_topology topo;
	struct oa_metrics_device dev = {
		.device_id = TGL, .timestamp_frequency = OA_FREQ,
		.gt_min_hz = 100000000, .gt_max_hz = 1300000000,
		.topology = &topo, .topology_len = tgl_topology(&topo, 0x3f),
	};

	ASSERT_EQ(0, oa_metrics_init(&ref, oa_metrics_set_of(TGL, "RenderBasic", NULL),
				     &dev));
}

/* self->path, with the events of the recordings here. */
static struct perf_data_writer *create_file(FIXTURE_DATA(metrics) *self)
{
	const struct perf_data_event events[NR_EV] = {
		[EV_INIT] = { "dma_fence:dma_fence_init", FENCE_INIT_ID },
		[EV_SIG] = { "dma_fence:dma_fence_signaled", FENCE_ID },
		[EV_MARK] = { "gpuprof:gpuprof_mark", MARK_ID },
		[EV_OA] = { "gpu_oa:oa_report", self->ids.oa_report },
		[EV_DEV] = { "gpu_oa:oa_device", self->ids.oa_device },
	};

	return perf_data_create(self->path, events, NR_EV);
}

/*
 * The recording, and in self->e what each row should sum: the delta
 * ending at report k goes to zeta for k in 11..39 (0xa bound to zeta,
 * the only one running), to beta for 51..89, else to no one (no
 * context, no one running); those at 10, 40, 50 and 90 cross a change
 * of context and are dropped.  Zeta marks the range "work" from 20 to
 * 30 ms: the reports of 20.5 to 29.5 ms, the deltas ending at 21.5 to
 * 29.5 ms whole, and half of those ending at 20.5 and 30.5 ms (each
 * covers the millisecond before its report; the range covers half of
 * it).  With @rec->tiny, beta's range "tiny" from 70.6 to 70.9 ms holds
 * no report and 300 of the 1000 us of the delta ending at 71.5 ms.
 */
static void make_file(struct __test_metadata *_metadata,
		      FIXTURE_DATA(metrics) *self, const struct recording *rec)
{
	struct perf_data_writer *w = create_file(self);
	struct gpuprof_oa_layout l;
	struct expect *e = &self->e;
	uint8_t prev[256], r[256], buf[1024];
	int err = 0, k, busy, row;

	ASSERT_NE(NULL, w);
	struct gpuprof_oa_driver drv = { .kernel = KERNEL };

	ASSERT_NE(NULL, gpuprof_oa_layout_of(TGL, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8,
					     &drv, &l));
	memset(e, 0, sizeof(*e));
	busy = counter(&ref, "GpuBusy");
	ASSERT_LE(0, busy);
	err = perf_data_set_tracing_data(w, self->tracing, self->tracing_len);
	err = err ?: perf_data_write_comm(w, 100, 100, "zeta", T0);
	err = err ?: perf_data_write_comm(w, 200, 200, "beta", T0);
	if (rec->device)
		err = err ?: device(w, self, rec->device_id, "RenderBasic", T0);
	for (k = 0; k < NR_REPORTS && !err; k++) {
		uint64_t t = T0 + k * MS;
		struct gpuprof_oa_deltas d = { 0 };

		if (k == 10)
			err = raw_sample(w, EV_INIT, 100, t, buf,
				     fence_init_payload(buf, 100, "i915", "rcs0", 1, 1));
		if (k == 50)
			err = raw_sample(w, EV_INIT, 200, t, buf,
				     fence_init_payload(buf, 200, "i915", "bcs0", 3, 1));
		if (k == 40)
			err = raw_sample(w, EV_SIG, 0, t, buf,
				     fence_payload(buf, 0, "i915", "rcs0", 1, 1));
		if (k == 90)
			err = raw_sample(w, EV_SIG, 0, t, buf,
				     fence_payload(buf, 0, "i915", "bcs0", 3, 1));
		if (k == 20)
			err = err ?: raw_sample(w, EV_MARK, 100, t, buf,
					    mark_payload(buf, 100, "begin work"));
		if (k == 30)
			err = err ?: raw_sample(w, EV_MARK, 100, t, buf,
					    mark_payload(buf, 100, "end work"));
		/* After report 70 (70.5 ms): samples go in time order. */
		if (k == 71 && rec->tiny)
			err = err ?: raw_sample(w, EV_MARK, 200, t - 400000, buf,
						mark_payload(buf, 200, "begin tiny"));
		if (k == 71 && rec->tiny)
			err = err ?: raw_sample(w, EV_MARK, 200, t - 100000, buf,
						mark_payload(buf, 200, "end tiny"));
		if (k == 60 && rec->second_set)
			err = err ?: device(w, self, rec->device_id, rec->second_set, t);
		make_report(r, k);
		err = err ?: raw_sample(w, EV_OA, 1, t + MS / 2, buf,
				    gpu_oa_report_payload(buf, sizeof(buf),
							  self->ids.oa_report, 1,
							  k * (OA_FREQ / 1000), ctx_of(k),
							  GPUPROF_OA_REASON_TIMER,
							  r, 256));
		if (k && ctx_of(k) == ctx_of(k - 1)) {
			gpuprof_oa_accumulate(&l, prev, r, &d);
			row = ctx_of(k) == 0xa ? ZETA : ctx_of(k) == 0xb ? BETA :
			      UNATTRIBUTED;
			deltas_add(&e->row[row], &d);
			deltas_add(&e->row[TOTAL], &d);
			if (k > 20 && k < 30)
				deltas_add(&e->row[RANGE], &d);
			if (k == 20 || k == 30)
				deltas_add_share(&e->row[RANGE], &d, 1, 2);
			if (k == 71)
				deltas_add_share(&e->tiny, &d, 300, 1000);
			if (row == ZETA) {
				oa_metrics_compute(&ref, &d);
				e->busy_sum += oa_metrics_value(&ref, busy)->d;
				e->busy_n++;
			}
		}
		memcpy(prev, r, 256);
	}
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, perf_data_close(w));
}

/* Counter @i of the reference on the row's sum, as the reader prints it. */
static const char *ref_value(int i, char *buf, size_t size)
{
	oa_metrics_format(&ref, i, buf, size);
	return buf;
}

/*
 * The metrics object JSON should have for @d with every counter:
 * "metrics": {"GpuTime": 29000000, ...}.
 */
static void want_json(char *want, size_t size, const struct gpuprof_oa_deltas *d)
{
	size_t len;
	unsigned int i;
	char v[384];

	oa_metrics_compute(&ref, d);
	len = snprintf(want, size, "\"metrics\": {");
	for (i = 0; i < ref.n; i++)
		len += snprintf(want + len, size - len, "%s\"%s\": %s", i ? ", " : "",
				oa_metric_str(oa_metrics_counter(&ref, i)->symbol),
				ref_value(i, v, sizeof(v)));
	snprintf(want + len, size - len, "}");
}

static int count_newlines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static int report(FIXTURE_DATA(metrics) *self, const char *args)
{
	return run_cmd(self->out, sizeof(self->out), "%s report -i %s %s",
		       perf_gpu_path(), self->path, args);
}

static const struct recording one_set = { .device = true, .device_id = TGL };

TEST_F(metrics, json_rows_sum_then_apply)
{
	const char *rows[] = {
		"\"pid\": 100", "\"pid\": 200", "\"unattributed\": {",
		"\"name\": \"work\"", "\"total\": {",
	};
	struct expect *e = &self->e;
	double busy;
	char *at;
	int i;

	init_ref(_metadata);
	make_file(_metadata, self, &one_set);
	ASSERT_EQ(0, report(self, "--format=json --oa-metrics=all")) TH_LOG("%s", self->out);
	/* Each row's object, then its metrics: the first after the row's key. */
	for (i = 0; i < NR_ROWS; i++) {
		want_json(self->want, sizeof(self->want), &e->row[i]);
		at = strstr(self->out, rows[i]);
		ASSERT_NE(NULL, at) TH_LOG("%s", rows[i]);
		at = strstr(at, "\"metrics\": {");
		ASSERT_NE(NULL, at);
		EXPECT_EQ(0, strncmp(at, self->want, strlen(self->want)))
			TH_LOG("%s:\nwant %s\ngot  %.*s", rows[i], self->want,
			       (int)strlen(self->want), at);
	}
	/*
	 * Zeta's GpuBusy: 30% of its clocks (busy and idle milliseconds
	 * alternate, 1 and 3 million clocks), not the 50% of an average
	 * of its reports' 90% and 10%.
	 */
	oa_metrics_compute(&ref, &e->row[ZETA]);
	busy = oa_metrics_value(&ref, counter(&ref, "GpuBusy"))->d;
	/* 15 busy and 14 idle milliseconds: 17.7 of 57 million clocks. */
	EXPECT_GT(1e-9, fabs(busy - 1770.0 / 57)) TH_LOG("%f", busy);
	EXPECT_LT(10.0, e->busy_sum / e->busy_n - busy)
		TH_LOG("%f %f", e->busy_sum / e->busy_n, busy);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s report -i %s --format=json --oa-metrics=all | "
			     "python3 -c 'import json, sys; d = json.load(sys.stdin); "
			     "c = [x for x in d[\"clients\"] if x[\"pid\"] == 100][0]; "
			     "print(\"%%.6f\" %% c[\"oa\"][\"metrics\"][\"GpuBusy\"], "
			     "len(d[\"timelines\"][0][\"oa\"][\"metrics\"]), "
			     "\"metrics\" in d[\"oa\"][\"no_timeline\"])'",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	snprintf(self->want, sizeof(self->want), "%.6f %u True\n", busy, ref.n);
	EXPECT_STREQ(self->want, self->out);
}

/*
 * Zeta's reports alone as an i915-perf recording: IGT's reader makes
 * them one segment (one context) and prints its counters, from one
 * accumulation from the first report to the last, which no counter
 * wraps within: the same as the sum of the pairs' deltas.
 */
static int write_i915_perf(const char *path)
{
	const struct oa_metric_set *set = oa_metrics_set_of(TGL, "RenderBasic", NULL);
	struct gpuprof_oa_device_info di = {
		.timestamp_frequency = OA_FREQ, .device_id = TGL,
		.oa_format = GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8,
		.gt_min_frequency = 100000000, .gt_max_frequency = 1300000000,
	};
	struct oa_writer w;
	union oa_topology topo;
	size_t topo_len = tgl_topology(&topo, 0x3f);
	uint8_t r[256];
	FILE *f;
	int k;

	if (!set)
		return -1;
	f = fopen(path, "wb");
	if (!f)
		return -1;
	snprintf(di.metric_set_name, sizeof(di.metric_set_name), "RenderBasic");
	oa_metric_uuid_format(set->uuid, di.metric_set_uuid);
	oa_writer_init(&w, f);
	oa_write_version(&w);
	oa_write_device_info(&w, &di);
	oa_write_topology(&w, &topo.t, topo_len);
	oa_write_correlation(&w, T0, 0, 1000);
	for (k = 10; k < 40; k++) {
		make_report(r, k);
		oa_write_sample(&w, r, sizeof(r));
	}
	oa_write_correlation(&w, T0 + NR_REPORTS * MS, NR_REPORTS * (OA_FREQ / 1000), 1000);
	oa_writer_flush(&w);
	return fclose(f) || oa_writer_error(&w) ? -1 : 0;
}

TEST_F(metrics, zeta_as_i915_perf_reader_sees_its_segment)
{
	char path[160], v[384], *line, *colon, *save = NULL;
	unsigned int seen = 0;
	int k;

	init_ref(_metadata);
	make_file(_metadata, self, &one_set);
	SETUP_PROVIDES(!run_cmd(self->out, sizeof(self->out), "command -v i915-perf-reader"),
		       "i915-perf-reader (package intel-gpu-tools)");
	snprintf(path, sizeof(path), "%s/zeta.i915", self->dir);
	ASSERT_EQ(0, write_i915_perf(path));
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "i915-perf-reader -c all -r '%s' | sed -n '/^hw_id=0xa /,/^ report/p'",
			     path)) TH_LOG("%s", self->out);
	oa_metrics_compute(&ref, &self->e.row[ZETA]);
	for (line = strtok_r(self->out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "   ", 3) || !(colon = strstr(line, ": ")))
			continue;
		*colon = '\0';
		k = counter(&ref, line + 3);
		ASSERT_LE(0, k) TH_LOG("%s", line);
		ref_value(k, v, sizeof(v));
		if (oa_metrics_value(&ref, k)->is_double) {
			EXPECT_GT(1e-6, fabs(strtod(v, NULL) - strtod(colon + 2, NULL)))
				TH_LOG("%s: ours %s, reader %s", line + 3, v, colon + 2);
		} else {
			EXPECT_STREQ(v, colon + 2) TH_LOG("%s", line + 3);
		}
		seen++;
	}
	EXPECT_EQ(ref.n, seen);
}

TEST_F(metrics, names_chosen_in_their_order)
{
	char v[2][384], *at;
	int busy, time;

	init_ref(_metadata);
	make_file(_metadata, self, &one_set);
	busy = counter(&ref, "GpuBusy");
	time = counter(&ref, "GpuTime");
	ASSERT_LE(0, busy);
	ASSERT_LE(0, time);
	oa_metrics_compute(&ref, &self->e.row[BETA]);
	ASSERT_EQ(0, report(self, "--format=json --oa-metrics=gpubusy,GPUTIME"))
		TH_LOG("%s", self->out);
	snprintf(self->want, sizeof(self->want),
		 "\"metrics\": {\"GpuBusy\": %s, \"GpuTime\": %s}",
		 ref_value(busy, v[0], sizeof(v[0])), ref_value(time, v[1], sizeof(v[1])));
	at = strstr(self->out, "\"pid\": 200");
	ASSERT_NE(NULL, at);
	at = strstr(at, "\"metrics\"");
	ASSERT_NE(NULL, at);
	EXPECT_EQ(0, strncmp(at, self->want, strlen(self->want))) TH_LOG("%s", at);
	/* Text: under beta's row (and its counters), two decimals. */
	ASSERT_EQ(0, report(self, "--oa-metrics=gpubusy,GPUTIME")) TH_LOG("%s", self->out);
	snprintf(self->want, sizeof(self->want), "\n        GpuBusy=%.2f GpuTime=%s\n",
		 oa_metrics_value(&ref, busy)->d, v[1]);
	at = strstr(self->out, "\nOA per client\n");
	ASSERT_NE(NULL, at);
	at = strstr(at, "    200 beta");
	ASSERT_NE(NULL, at);
	at = strchr(at + 1, '\n');
	ASSERT_NE(NULL, at);
	at = strchr(at + 1, '\n');	/* past the counters' line */
	ASSERT_NE(NULL, at);
	EXPECT_EQ(0, strncmp(at, self->want, strlen(self->want)))
		TH_LOG("want %s got %.80s", self->want, at);
	EXPECT_NE(NULL, strstr(self->out, "# metrics: RenderBasic on device 0x9a49"))
		TH_LOG("%s", self->out);
}

TEST_F(metrics, csv_columns_by_symbol)
{
	size_t len = 0;
	unsigned int i;
	char v[384], *at, *end;

	init_ref(_metadata);
	make_file(_metadata, self, &one_set);
	ASSERT_EQ(0, report(self, "--format=csv --oa-metrics=all | grep -v '^#'"))
		TH_LOG("%s", self->out);
	len = snprintf(self->want, sizeof(self->want),
		       "row,pid,comm,driver,timeline,range,reports,gpu_time_ns,gpu_clock_ticks");
	for (i = 0; i < ref.n; i++)
		len += snprintf(self->want + len, sizeof(self->want) - len, ",%s",
				oa_metric_str(oa_metrics_counter(&ref, i)->symbol));
	snprintf(self->want + len, sizeof(self->want) - len, "\n");
	EXPECT_EQ(0, strncmp(self->out, self->want, len + 1)) TH_LOG("%s", self->out);
	/* Zeta's row ends in its metrics. */
	oa_metrics_compute(&ref, &self->e.row[ZETA]);
	len = 0;
	for (i = 0; i < ref.n; i++)
		len += snprintf(self->want + len, sizeof(self->want) - len, ",%s",
				ref_value(i, v, sizeof(v)));
	snprintf(self->want + len, sizeof(self->want) - len, "\n");
	at = strstr(self->out, "\nclient,100,zeta,,,,");
	ASSERT_NE(NULL, at) TH_LOG("%s", self->out);
	end = strchr(at + 1, '\n');
	ASSERT_NE(NULL, end);
	ASSERT_LT(at + len, end);
	EXPECT_EQ(0, strncmp(end + 1 - len - 1, self->want, len + 1))
		TH_LOG("want %s got %.*s", self->want, (int)(end - at), at + 1);
	/* One row per client, timeline, the three totals and the range. */
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s report -i %s --format=csv --oa-metrics=all | grep -v '^#' | "
			     "python3 -c 'import csv, sys; r = list(csv.reader(sys.stdin)); "
			     "print(len(r), set(len(x) for x in r), [x[0] for x in r[1:]])'",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	snprintf(self->want, sizeof(self->want),
		 "9 {%u} ['client', 'client', 'unattributed', 'timeline', 'timeline', "
		 "'no_timeline', 'total', 'range']\n", 9 + ref.n);
	EXPECT_STREQ(self->want, self->out);
}

TEST_F(metrics, unknown_name_lists_the_set)
{
	init_ref(_metadata);
	make_file(_metadata, self, &one_set);
	EXPECT_EQ(1, report(self, "--oa-metrics=GpuBusy,NoSuchThing"));
	EXPECT_NE(NULL, strstr(self->out, "metric set RenderBasic has no counter 'NoSuchThing'; it has: GpuTime, GpuCoreClocks, AvgGpuCoreFrequency, "))
		TH_LOG("%s", self->out);
	EXPECT_EQ(1, count_newlines(self->out)) TH_LOG("%s", self->out);
	/* Nothing on stdout. */
	ASSERT_EQ(0, report(self, "--format=json --oa-metrics=nope 2>/dev/null; echo rc=$?"));
	EXPECT_STREQ("rc=1\n", self->out);
}

TEST_F(metrics, recordings_without_one_set)
{
	struct recording rec = one_set;

	init_ref(_metadata);
	rec.device = false;
	make_file(_metadata, self, &rec);
	EXPECT_EQ(1, report(self, "--oa-metrics=all"));
	EXPECT_STREQ("perf gpu report: --oa-metrics: the recording has no gpu_oa:oa_device event: its metric set is not known\n",
		     self->out);
	/* Without the option, the same recording reports. */
	EXPECT_EQ(0, report(self, "> /dev/null"));

	rec.device = true;
	rec.device_id = 0x1234;
	make_file(_metadata, self, &rec);
	EXPECT_EQ(1, report(self, "--oa-metrics=all"));
	EXPECT_STREQ("perf gpu report: --oa-metrics: the recording's metric set RenderBasic on device 0x1234 has no equations here\n",
		     self->out);

	rec.device_id = TGL;
	rec.second_set = "ComputeBasic";
	make_file(_metadata, self, &rec);
	ASSERT_EQ(0, report(self, "--format=csv --oa-metrics=all 2>&1; echo rc=$?"));
	EXPECT_STREQ("perf gpu report: --oa-metrics: the recording's OA reports are of metric set RenderBasic on device 0x9a49 rev 0 and of metric set ComputeBasic on device 0x9a49 rev 0: derived metrics need one metric set on one device\nrc=1\n",
		     self->out);
	EXPECT_EQ(0, report(self, "--format=csv > /dev/null"));
}

/* "TICKS [a...] [b...] [c...] REPORTS" as python prints the JSON's. */
static void want_range(char *want, size_t size, const struct gpuprof_oa_deltas *d,
		       unsigned int reports)
{
	size_t len = snprintf(want, size, "%llu [", (unsigned long long)d->gpu_ticks);
	unsigned int i;

	for (i = 0; i < 36; i++)
		len += snprintf(want + len, size - len, "%s%llu", i ? ", " : "",
				(unsigned long long)d->a[i]);
	len += snprintf(want + len, size - len, "] [");
	for (i = 0; i < GPUPROF_OA_B_COUNTERS; i++)
		len += snprintf(want + len, size - len, "%s%llu", i ? ", " : "",
				(unsigned long long)d->b[i]);
	len += snprintf(want + len, size - len, "] [");
	for (i = 0; i < GPUPROF_OA_C_COUNTERS; i++)
		len += snprintf(want + len, size - len, "%s%llu", i ? ", " : "",
				(unsigned long long)d->c[i]);
	snprintf(want + len, size - len, "] %u\n", reports);
}

/*
 * A range's OA counters, exact: every raw delta and every derived metric
 * of "work" (which begins and ends half-way between two reports, so it
 * gets half of the deltas at either end) and of "tiny" (inside one
 * report interval: 300 us of its 1000, no report of its own).  A delta
 * is split by time, its counters assumed to rise evenly between its
 * two reports, each share rounded down.
 */
TEST_F(metrics, range_deltas_exact_and_split_at_its_ends)
{
	static const char *const names[] = { "work", "tiny" };
	struct recording rec = one_set;
	const struct gpuprof_oa_deltas *d[] = { &self->e.row[RANGE], &self->e.tiny };
	const unsigned int reports[] = { 10, 0 };
	char *at;
	int i;

	init_ref(_metadata);
	rec.tiny = true;
	make_file(_metadata, self, &rec);
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
				     "%s report -i %s --format=json | python3 -c 'import json, sys; "
				     "r = [x for x in json.load(sys.stdin)[\"ranges\"] if x[\"name\"] == \"%s\"][0][\"oa\"]; "
				     "print(r[\"gpu_clock_ticks\"], r[\"a\"], r[\"b\"], r[\"c\"], r[\"reports\"])'",
				     perf_gpu_path(), self->path, names[i])) TH_LOG("%s", self->out);
		want_range(self->want, sizeof(self->want), d[i], reports[i]);
		EXPECT_STREQ(self->want, self->out) TH_LOG("range %s", names[i]);
	}
	/* Their metrics: the set's equations on those sums. */
	ASSERT_EQ(0, report(self, "--format=json --oa-metrics=all")) TH_LOG("%s", self->out);
	for (i = 0; i < 2; i++) {
		char key[32];

		snprintf(key, sizeof(key), "\"name\": \"%s\"", names[i]);
		want_json(self->want, sizeof(self->want), d[i]);
		at = strstr(self->out, key);
		ASSERT_NE(NULL, at) TH_LOG("%s", key);
		at = strstr(at, "\"metrics\": {");
		ASSERT_NE(NULL, at);
		EXPECT_EQ(0, strncmp(at, self->want, strlen(self->want)))
			TH_LOG("%s:\nwant %s\ngot  %.*s", names[i], self->want,
			       (int)strlen(self->want), at);
	}
	/* Half a delta is not the whole one: the split is what is seen. */
	EXPECT_NE(0, self->e.tiny.gpu_ticks);
	EXPECT_GT(self->e.row[RANGE].gpu_ticks, 9 * 2000000ull);
}

/*
 * The CSV header of a recording whose OA unit is known: the CPU of the
 * machine that wrote the file (this one, HEADER_CPUDESC and NRCPUS), the
 * GPU device line from gpu_oa:oa_device (id, revision, platform, driver,
 * GT frequency range, EUs of its topology: subslices 0x1f of 16 EUs are
 * 80), and the OA line: set, uuid, format, period.  The timer reports
 * come 2^14 ticks apart (exponent 13: 16384 ticks at 19.2 MHz are
 * 853333 ns) with a context-switch report between two of them, whose
 * intervals are not the period.
 */
TEST_F(metrics, csv_header_describes_machine_and_oa_unit)
{
	struct gpuprof_oa_device_info di = {
		.timestamp_frequency = OA_FREQ, .device_id = TGL, .device_revision = 3,
		.oa_format = GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8,
		.gt_min_frequency = 100000000, .gt_max_frequency = 1300000000,
		.metric_set_name = "RenderBasic",
		.metric_set_uuid = "8fb61ba2-2fbb-454c-a136-2dec5a8a595e",
	};
	struct gpuprof_oa_driver drv = { .kernel = KERNEL };
	struct perf_data_writer *w = create_file(self);
	uint64_t ticks[22], times[22], span;
	char cpu[256] = "", *end;
	union oa_topology topo;
	size_t topo_len = tgl_topology(&topo, 0x1f);
	struct perf_machine mach;
	struct utsname u;
	uint8_t r[256], buf[1024];
	int err, k, n = 0;

	ASSERT_NE(NULL, w);
	err = perf_data_set_tracing_data(w, self->tracing, self->tracing_len);
	err = err ?: perf_data_write_comm(w, 100, 100, "zeta", T0);
	err = err ?: raw_sample(w, EV_DEV, 0, T0, buf,
				gpu_oa_device_payload(buf, sizeof(buf), self->ids.oa_device,
						      &di, &drv, &topo, topo_len));
	err = err ?: raw_sample(w, EV_INIT, 100, T0, buf,
				fence_init_payload(buf, 100, "i915", "rcs0", 1, 1));
	for (k = 0; k <= 20; k++) {
		ticks[n] = 5000 + (k << 14);
		times[n++] = T0 + MS + (k << 14) * 1000000000ull / OA_FREQ;
		if (k == 7) {	/* a context switch 1000 ticks later */
			ticks[n] = ticks[n - 1] + 1000;
			times[n] = times[n - 1] + 1000 * 1000000000ull / OA_FREQ;
			n++;
		}
	}
	for (k = 0; k < n && !err; k++) {
		make_report(r, k);
		put32(r, 4, (uint32_t)ticks[k]);
		err = raw_sample(w, EV_OA, 1, times[k], buf,
				 gpu_oa_report_payload(buf, sizeof(buf), self->ids.oa_report,
						       1, ticks[k], GPUPROF_OA_NO_CONTEXT,
						       k == 8 ? GPUPROF_OA_REASON_CTX_SWITCH :
						       GPUPROF_OA_REASON_TIMER, r, 256));
	}
	err = err ?: raw_sample(w, EV_SIG, 0, times[n - 1], buf,
				fence_payload(buf, 0, "i915", "rcs0", 1, 1));
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, perf_data_close(w));

	ASSERT_EQ(0, uname(&u));
	perf_machine_read(&mach, "/proc/cpuinfo", "/proc/meminfo");
	snprintf(cpu, sizeof(cpu), "# CPU: %s, %ld of %ld CPUs online\n",
		 mach.cpudesc[0] ? mach.cpudesc : "model unknown",
		 sysconf(_SC_NPROCESSORS_ONLN), sysconf(_SC_NPROCESSORS_CONF));
	span = times[n - 1] - T0;
	snprintf(self->want, sizeof(self->want),
		 "# system: Linux %s %s %s\n"
		 "%s"
		 "# GPU: i915 (rcs0)\n"
		 "# GPU device: 0x9a49 rev 3, Tiger Lake GT2, driver i915, 100-1300 MHz, 80 EUs\n"
		 "# OA: metric set RenderBasic (8fb61ba2-2fbb-454c-a136-2dec5a8a595e), "
		 "format A32u40_A4u32_B8_C8, period 853333 ns (exponent 13), "
		 "%d reports, timestamp frequency %llu Hz\n"
		 "# recording: %s, span %llu ns, %d events, 0 lost\n",
		 u.nodename, u.release, u.machine, cpu, n,
		 (unsigned long long)((ticks[n - 1] - ticks[0]) * 1000000000ull /
				      (times[n - 1] - times[0])),
		 self->path, (unsigned long long)span, n + 3);
	ASSERT_EQ(0, report(self, "--format=csv")) TH_LOG("%s", self->out);
	end = strstr(self->out, "\npid,");
	ASSERT_NE(NULL, end) TH_LOG("%s", self->out);
	end[1] = '\0';
	EXPECT_STREQ(self->want, self->out);
}

TEST_HARNESS_MAIN
