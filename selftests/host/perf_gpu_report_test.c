// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu report ($GPUPROF_PERF_GPU) on recordings made with the
 * perf.data writer of tools/perf-gpu, of known behaviour: the figures
 * expected are worked out here from what is put in (jobs, busy time as a
 * union of intervals, shares, latency percentiles within the sketch's
 * bound of 1/128, frames and missed frames, OA sums from the decoder
 * module/oa_decode.c over the reports each client should get), read
 * back from the JSON output with python3's json module, from the text
 * and from the CSV; DRM client names from fdinfo snapshots.  Empty
 * recordings, recordings with no OA, only OA or
 * lost events give a report and exit 0; files cut short or with bytes
 * flipped give exit 0 or one error line naming an offset, never a crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/gpu_formats.h"
#include "../lib/corrupt.h"
#include "../lib/run.h"
#include "../../module/oa_decode.h"
#include "../../tools/perf-gpu/perfdata/machine.h"
#include "../../tools/perf-gpu/perfdata/write.h"
#include "../../tools/perf-gpu/perfdata/tracing-data.h"

#define OUT_SIZE	(1 << 20)
#define MS		1000000ull
#define T0		1000000000ull	/* recordings start at 1 s */

/*
 * EV_DELIVERED, EV_EMIT and the scheduler's events last: a file has them
 * only when used.
 */
enum {
	EV_INIT, EV_SIG, EV_DESTROY, EV_VBL, EV_MARK, EV_OA, EV_DELIVERED,
	EV_EMIT, EV_SQUEUE, EV_SRUN, EV_SDONE, EV_SDEP, EV_SBLOCKED, EV_FDINFO,
	NR_EV
};
enum { R_SAMPLE, R_COMM, R_LOST, R_CGROUP };

/* One record, kept until the file is written in time order. */
struct rec {
	uint64_t time;
	size_t seq;		/* order of addition: ties keep it */
	int type;		/* R_* */
	unsigned int ev;
	int32_t pid, tid;
	uint8_t *payload;
	size_t len;
	uint64_t lost;
	uint64_t cgroup;	/* samples: their process's; R_CGROUP: the id */
	char comm[16];
	char path[64];		/* R_CGROUP */
};

struct builder {
	struct rec *r;
	size_t n, alloc;
	struct gpu_synth_ids ids;
	bool delivered;		/* an EV_DELIVERED sample was added */
	bool emit;		/* an EV_EMIT sample was added */
	bool sched;		/* a scheduler or fdinfo sample was added */
	/* Processes put in cgroups (b_in_cgroup); others have none. */
	struct { int32_t pid; uint64_t id; } cg[8];
	unsigned int nr_cg;
};

static struct rec *b_new(struct builder *b, int type, uint64_t time)
{
	struct rec *r;

	if (b->n == b->alloc) {
		b->alloc = b->alloc ? 2 * b->alloc : 256;
		b->r = realloc(b->r, b->alloc * sizeof(*b->r));
		if (!b->r)
			abort();
	}
	r = &b->r[b->n];
	memset(r, 0, sizeof(*r));
	r->seq = b->n++;
	r->type = type;
	r->time = time;
	return r;
}

static void b_sample(struct builder *b, unsigned int ev, int32_t pid,
		     int32_t tid, uint64_t time, const void *payload,
		     size_t len)
{
	struct rec *r = b_new(b, R_SAMPLE, time);

	r->ev = ev;
	r->pid = pid;
	r->tid = tid;
	for (unsigned int i = 0; i < b->nr_cg; i++)
		if (b->cg[i].pid == pid)
			r->cgroup = b->cg[i].id;
	r->payload = malloc(len);
	if (!r->payload)
		abort();
	memcpy(r->payload, payload, len);
	r->len = len;
}

static void b_comm(struct builder *b, int32_t pid, const char *name, uint64_t time)
{
	struct rec *r = b_new(b, R_COMM, time);

	r->pid = r->tid = pid;
	snprintf(r->comm, sizeof(r->comm), "%s", name);
}

/* @pid's samples from now on carry cgroup @id. */
static void b_in_cgroup(struct builder *b, int32_t pid, uint64_t id)
{
	b->cg[b->nr_cg].pid = pid;
	b->cg[b->nr_cg++].id = id;
}

/* A CGROUP record naming @id. */
static void b_cgroup(struct builder *b, uint64_t id, const char *path, uint64_t time)
{
	struct rec *r = b_new(b, R_CGROUP, time);

	r->cgroup = id;
	snprintf(r->path, sizeof(r->path), "%s", path);
}

static void b_lost(struct builder *b, unsigned int ev, uint64_t n, uint64_t time)
{
	struct rec *r = b_new(b, R_LOST, time);

	r->ev = ev;
	r->lost = n;
}

static void b_init(struct builder *b, int32_t pid, int32_t tid,
		   const char *driver, const char *timeline, uint32_t ctx,
		   uint32_t seqno, uint64_t time)
{
	uint8_t buf[256];

	b_sample(b, EV_INIT, pid, tid, time, buf,
		 fence_init_payload(buf, pid, driver, timeline, ctx, seqno));
}

/* Signals come from interrupts: pid 0. */
static void b_signal(struct builder *b, const char *driver,
		     const char *timeline, uint32_t ctx, uint32_t seqno,
		     uint64_t time)
{
	uint8_t buf[256];

	b_sample(b, EV_SIG, 0, 0, time, buf,
		 fence_payload(buf, 0, driver, timeline, ctx, seqno));
}

static void b_destroy(struct builder *b, const char *driver,
		      const char *timeline, uint32_t ctx, uint32_t seqno,
		      uint64_t time)
{
	uint8_t buf[256];

	b_sample(b, EV_DESTROY, 0, 0, time, buf,
		 fence_class_payload(buf, FENCE_DESTROY_ID, 0, driver, timeline,
				     ctx, seqno));
}

/* An emit by thread @tid of @pid: the fence (@ctx, @seqno) is numbered. */
static void b_emit(struct builder *b, int32_t pid, int32_t tid,
		   const char *driver, const char *timeline, uint32_t ctx,
		   uint32_t seqno, uint64_t time)
{
	uint8_t buf[256];

	b->emit = true;
	b_sample(b, EV_EMIT, pid, tid, time, buf,
		 fence_class_payload(buf, FENCE_EMIT_ID, pid, driver, timeline,
				     ctx, seqno));
}

/* A job of @pid: init at @init, signaled at @end. */
static void b_job(struct builder *b, int32_t pid, const char *driver,
		  const char *timeline, uint32_t ctx, uint32_t seqno,
		  uint64_t init, uint64_t end)
{
	b_init(b, pid, pid, driver, timeline, ctx, seqno, init);
	b_signal(b, driver, timeline, ctx, seqno, end);
}

static void b_vblank(struct builder *b, int32_t crtc, uint32_t seq,
		     uint64_t stamp, uint64_t time)
{
	uint8_t buf[64];

	b_sample(b, EV_VBL, 0, 0, time, buf,
		 vblank_payload(buf, 0, crtc, seq, stamp));
}

/* A vblank or flip event sent to the client of drm_file @file. */
static void b_delivered(struct builder *b, uint64_t file, int32_t crtc,
			uint32_t seq, uint64_t time)
{
	uint8_t buf[64];

	b->delivered = true;
	b_sample(b, EV_DELIVERED, 0, 0, time, buf,
		 delivered_payload(buf, 0, file, crtc, seq));
}

static void b_mark(struct builder *b, int32_t pid, const char *text,
		   uint64_t time)
{
	uint8_t buf[512];

	b_sample(b, EV_MARK, pid, pid, time, buf, mark_payload(buf, pid, text));
}

static void b_oa(struct builder *b, uint64_t time, uint64_t gpu_time,
		 uint32_t ctx, const uint8_t *report)
{
	uint8_t buf[512];
	ssize_t n = gpu_oa_report_payload(buf, sizeof(buf), b->ids.oa_report, 1,
					  gpu_time, ctx, GPUPROF_OA_REASON_TIMER,
					  report, 256);

	if (n < 0)
		abort();
	b_sample(b, EV_OA, 1, 1, time, buf, n);
}

/* drm_sched_job_queue (@run false) or _run of the job (@ctx, @seqno). */
static void b_squeue(struct builder *b, bool run, int32_t pid, uint64_t ctx,
		     uint64_t seqno, uint64_t client, uint64_t time)
{
	uint8_t buf[256];

	b->sched = true;
	b_sample(b, run ? EV_SRUN : EV_SQUEUE, pid, pid, time, buf,
		 sched_job_payload(buf, run ? SCHED_RUN_ID : SCHED_QUEUE_ID,
				   pid, "ring0", "0000:00:02.0", ctx, seqno,
				   client));
}

/* drm_sched_job_done, or a dependency (@ev EV_SDEP, EV_SBLOCKED). */
static void b_sfence(struct builder *b, unsigned int ev, uint64_t ctx,
		     uint64_t seqno, uint64_t dep_ctx, uint64_t dep_seqno,
		     uint64_t time)
{
	uint16_t id = ev == EV_SDONE ? SCHED_DONE_ID :
		      ev == EV_SDEP ? SCHED_ADD_DEP_ID : SCHED_UNSCHED_ID;
	uint8_t buf[64];

	b->sched = true;
	b_sample(b, ev, 0, 0, time, buf,
		 sched_fence_payload(buf, id, 0, ctx, seqno, dep_ctx, dep_seqno));
}

/*
 * A gpu_client:fdinfo snapshot: @pid holds DRM client @client, its
 * stats string @stats (perf gpu record's: a drm-client-name first).
 */
static void b_fdinfo_stats(struct builder *b, int32_t pid, uint64_t client,
			   const char *pdev, const char *stats, uint64_t time)
{
	uint8_t buf[512];
	ssize_t n = gpu_client_fdinfo_payload(buf, sizeof(buf), b->ids.fdinfo,
					      pid, client, 3, "virtio_gpu",
					      pdev, stats);

	if (n < 0)
		abort();
	b->sched = true;
	b_sample(b, EV_FDINFO, pid, pid, time, buf, n);
}

static void b_fdinfo(struct builder *b, int32_t pid, uint64_t client,
		     const char *pdev, uint64_t time)
{
	b_fdinfo_stats(b, pid, client, pdev, "", time);
}

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Write the records in time order; 0 or -errno. */
static int b_write(struct builder *b, const char *path, const void *tracing,
		   size_t tracing_len)
{
	const struct perf_data_event events[NR_EV] = {
		[EV_INIT] = { "dma_fence:dma_fence_init", FENCE_INIT_ID },
		[EV_SIG] = { "dma_fence:dma_fence_signaled", FENCE_ID },
		[EV_DESTROY] = { "dma_fence:dma_fence_destroy", FENCE_DESTROY_ID },
		[EV_VBL] = { "drm:drm_vblank_event", VBLANK_ID },
		[EV_MARK] = { "gpuprof:gpuprof_mark", MARK_ID },
		[EV_OA] = { "gpu_oa:oa_report", b->ids.oa_report },
		[EV_DELIVERED] = { "drm:drm_vblank_event_delivered", DELIVERED_ID },
		[EV_EMIT] = { "dma_fence:dma_fence_emit", FENCE_EMIT_ID },
		[EV_SQUEUE] = { "gpu_scheduler:drm_sched_job_queue", SCHED_QUEUE_ID },
		[EV_SRUN] = { "gpu_scheduler:drm_sched_job_run", SCHED_RUN_ID },
		[EV_SDONE] = { "gpu_scheduler:drm_sched_job_done", SCHED_DONE_ID },
		[EV_SDEP] = { "gpu_scheduler:drm_sched_job_add_dep", SCHED_ADD_DEP_ID },
		[EV_SBLOCKED] = { "gpu_scheduler:drm_sched_job_unschedulable",
				  SCHED_UNSCHED_ID },
		[EV_FDINFO] = { "gpu_client:fdinfo", b->ids.fdinfo },
	};
	/* The file's events: up to the last one used. */
	struct perf_data_writer *w =
		perf_data_create(path, events, b->sched ? NR_EV :
				 b->emit ? EV_SQUEUE :
				 b->delivered ? EV_EMIT : EV_DELIVERED);
	int err;
	size_t i;

	if (!w)
		return -errno;
	err = perf_data_set_tracing_data(w, tracing, tracing_len);
	if (b->n)
		qsort(b->r, b->n, sizeof(*b->r), cmp_rec);
	for (i = 0; i < b->n && !err; i++) {
		struct rec *r = &b->r[i];
		struct perf_data_sample s = {
			.event = r->ev, .pid = r->pid, .tid = r->tid,
			.time = r->time, .raw = r->payload, .raw_size = r->len,
			.cgroup = r->cgroup,
		};

		if (r->type == R_SAMPLE)
			err = perf_data_write_sample(w, &s);
		else if (r->type == R_CGROUP)
			err = perf_data_write_cgroup(w, r->cgroup, r->path, r->time);
		else if (r->type == R_COMM)
			err = perf_data_write_comm(w, r->pid, r->tid, r->comm, r->time);
		else
			err = perf_data_write_lost(w, r->ev, r->lost, r->time);
	}
	if (err) {
		perf_data_abort(w);
		return err;
	}
	return perf_data_close(w);
}

static void b_free(struct builder *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		free(b->r[i].payload);
	free(b->r);
	memset(b, 0, sizeof(*b));
}

FIXTURE(report) {
	char dir[64];
	char path[128];
	void *tracing;
	size_t tracing_len;
	struct builder b;
	char out[OUT_SIZE];
	char cmd[4096];
};

FIXTURE_SETUP(report)
{
	memset(&self->b, 0, sizeof(self->b));
	self->tracing = gpu_tracing_data(&self->b.ids, &self->tracing_len);
	ASSERT_NE(NULL, self->tracing);
	snprintf(self->dir, sizeof(self->dir), "/tmp/perf_gpu_report.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
}

FIXTURE_TEARDOWN(report)
{
	char out[256];

	b_free(&self->b);
	free(self->tracing);
	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

#define WRITE_FILE() \
	ASSERT_EQ(0, b_write(&self->b, self->path, self->tracing, self->tracing_len))

/*
 * The JSON report of the file, with extra @args, through python3: the
 * value of the expression @expr over the document d, printed.  Double
 * quotes only in @expr (it goes in single quotes).  The exit status.
 */
static int query(FIXTURE_DATA(report) *self, const char *args, const char *expr)
{
	return run_cmd(self->out, sizeof(self->out),
		       "%s report -i %s --format=json %s > %s/r.json && "
		       "python3 -c 'import json; d = json.load(open(\"%s/r.json\")); print(%s)'",
		       perf_gpu_path(), self->path, args, self->dir, self->dir, expr);
}

#define EXPECT_QUERY(expected, args, expr) do {				\
		ASSERT_EQ(0, query(self, args, expr)) TH_LOG("%s", self->out); \
		EXPECT_STREQ(expected "\n", self->out);			\
	} while (0)

/* A quantile from the sketch: within 1/128 of the true one. */
static int near(uint64_t got, uint64_t want)
{
	uint64_t d = got > want ? got - want : want - got;

	return d * 128 <= want;
}

static uint64_t query_u64(FIXTURE_DATA(report) *self, const char *expr)
{
	if (query(self, "", expr))
		return UINT64_MAX;
	return strtoull(self->out, NULL, 10);
}

/*
 * Two clients on two timelines over exactly one second (marks at its
 * ends): pid 100 "zeta", 20 jobs of 10 ms on i915/rcs0 every 25 ms; pid
 * 200 "beta", 10 jobs on i915/bcs0 every 30 ms taking 2, 4, ... 20 ms.
 * One more init of zeta never signaled, one signal on i915/vcs0 whose
 * init is not in the file.
 */
static void two_clients(FIXTURE_DATA(report) *self)
{
	struct builder *b = &self->b;
	int i;

	b_comm(b, 100, "zeta", T0);
	b_comm(b, 200, "beta", T0);
	b_mark(b, 100, "start", T0);
	for (i = 0; i < 20; i++)
		b_job(b, 100, "i915", "rcs0", 1, i + 1, T0 + 10 * MS + i * 25 * MS,
		      T0 + 20 * MS + i * 25 * MS);
	for (i = 0; i < 10; i++)
		b_job(b, 200, "i915", "bcs0", 2, i + 1, T0 + 600 * MS + i * 30 * MS,
		      T0 + 600 * MS + i * 30 * MS + (i + 1) * 2 * MS);
	b_init(b, 100, 100, "i915", "rcs0", 1, 100, T0 + 900 * MS);
	b_signal(b, "i915", "vcs0", 9, 5, T0 + 950 * MS);
	b_mark(b, 100, "stop", T0 + 1000 * MS);
}

/*
 * A comm is whatever bytes a process chose: UTF-8 passes through, any
 * other byte becomes U+FFFD, control bytes are escaped, and the document
 * stays JSON that a strict UTF-8 reader takes.
 */
TEST_F(report, json_names_are_valid_utf8)
{
	b_comm(&self->b, 100, "caf\xc3\xa9\xff\xc0\x80\x01\"<", T0);
	b_job(&self->b, 100, "i915", "rcs0", 1, 1, T0, T0 + MS);
	WRITE_FILE();
	EXPECT_QUERY("'caf\\xe9\\ufffd\\ufffd\\ufffd\\x01\"<'", "",
		     "ascii(d[\"clients\"][0][\"comm\"])");
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "python3 -c 'open(\"%s/r.json\", \"rb\").read().decode(\"utf-8\")'",
			     self->dir)) TH_LOG("%s", self->out);
}

TEST_F(report, two_clients_jobs_busy_share)
{
	two_clients(self);
	WRITE_FILE();
	EXPECT_QUERY("1000000000 64", "", "d[\"span_ns\"], d[\"events\"]");
	/* pid jobs unsignaled busy share */
	EXPECT_QUERY("100 zeta 20 1 200000000 20.0\n200 beta 10 0 110000000 11.0", "",
		     "\"\\n\".join(\"%d %s %d %d %d %s\" % (c[\"pid\"], c[\"comm\"], c[\"jobs\"], "
		     "c[\"unsignaled\"], c[\"busy_ns\"], c[\"share_pct\"]) for c in d[\"clients\"])");
	EXPECT_QUERY("30 1 1 310000000 31.0", "",
		     "\" \".join(str(d[\"totals\"][k]) for k in (\"jobs\", \"unmatched\", "
		     "\"unsignaled\", \"busy_ns\", \"share_pct\"))");
	/* Timelines in order of busy time; vcs0 has the signal alone. */
	EXPECT_QUERY("i915 rcs0 20 0 1\ni915 bcs0 10 0 0\ni915 vcs0 0 1 0", "",
		     "\"\\n\".join(\"%s %s %d %d %d\" % (t[\"driver\"], t[\"timeline\"], "
		     "t[\"jobs\"], t[\"unmatched\"], t[\"unsignaled\"]) for t in d[\"timelines\"])");
	EXPECT_QUERY("2", "", "len(d[\"pairs\"])");
}

TEST_F(report, latency_percentiles_within_the_sketch_bound)
{
	two_clients(self);
	WRITE_FILE();
	/* zeta: all 10 ms; the quantiles are clamped to min and max: exact. */
	EXPECT_QUERY("20 10000000 10000000 10000000 10000000 10000000", "",
		     "\" \".join(str(d[\"clients\"][0][\"latency_ns\"][k]) for k in "
		     "(\"count\", \"mean\", \"p50\", \"p90\", \"p99\", \"max\"))");
	/*
	 * beta: 2, 4, ... 20 ms.  p50 is the 5th of 10 (10 ms), p90 the 9th
	 * (18 ms), p99 the 10th (20 ms); mean and max are exact.
	 */
	EXPECT_QUERY("10 11000000 20000000", "",
		     "\" \".join(str(d[\"clients\"][1][\"latency_ns\"][k]) for k in "
		     "(\"count\", \"mean\", \"max\"))");
	EXPECT_TRUE(near(query_u64(self, "d[\"clients\"][1][\"latency_ns\"][\"p50\"]"), 10 * MS));
	EXPECT_TRUE(near(query_u64(self, "d[\"clients\"][1][\"latency_ns\"][\"p90\"]"), 18 * MS));
	EXPECT_TRUE(near(query_u64(self, "d[\"clients\"][1][\"latency_ns\"][\"p99\"]"), 20 * MS));
	/* The total merges both: 30 values, p50 the 15th = 10 ms. */
	EXPECT_TRUE(near(query_u64(self, "d[\"totals\"][\"latency_ns\"][\"p50\"]"), 10 * MS));
	EXPECT_TRUE(near(query_u64(self, "d[\"totals\"][\"latency_ns\"][\"p90\"]"), 14 * MS));
	EXPECT_EQ(20 * MS, query_u64(self, "d[\"totals\"][\"latency_ns\"][\"max\"]"));
}

/* The lines of the text report for the two clients, by hand. */
TEST_F(report, text_report_lines)
{
	static const char *const want[] = {
		"# span: 1.00 s, 64 events\n",
		"# jobs: 30 signaled, 1 signals without their init, 1 never signaled\n",
		"# lost: none\n",
		"\nClients\n"
		"    PID COMM                JOBS UNSIGNALED        BUSY   SHARE        P50        P90        P99        MAX"
		"  QUEUE_P50  QUEUE_P99    RUN_P50    RUN_P99\n"
		"    100 zeta                  20          1   200.00 ms  20.00%   10.00 ms   10.00 ms   10.00 ms   10.00 ms"
		"       0 ns       0 ns   10.00 ms   10.00 ms\n"
		"    200 beta                  10          0   110.00 ms  11.00%",
		"\n        total                 30          1   310.00 ms  31.00%",
		"\nTimelines\n"
		"DRIVER/TIMELINE      JOBS UNMATCHED UNSIGNALED        BUSY   SHARE        P50        P90        P99        MAX"
		"  QUEUE_P50  QUEUE_P99    RUN_P50    RUN_P99\n"
		"i915/rcs0              20         0          1   200.00 ms  20.00%   10.00 ms   10.00 ms   10.00 ms   10.00 ms"
		"       0 ns       0 ns   10.00 ms   10.00 ms\n",
		"\ni915/vcs0               0         1          0        0 ns   0.00%       0 ns       0 ns       0 ns       0 ns"
		"       0 ns       0 ns       0 ns       0 ns\n",
		"\nClients x timelines\n",
		"\n    100 zeta            i915/rcs0              20          1   200.00 ms  20.00%   10.00 ms",
	};
	size_t i;

	two_clients(self);
	WRITE_FILE();
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report -i %s",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		EXPECT_TRUE(strstr(self->out, want[i]) != NULL)
			TH_LOG("line %zu not in:\n%s", i, self->out);
}

/*
 * The JSON totals and rows against the text: every client's and
 * timeline's jobs, unsignaled, busy (in the text's units) and share.
 */
static const char compare_py[] =
	"import json, sys\n"
	"d = json.load(open(sys.argv[1]))\n"
	"text = open(sys.argv[2]).read().split(\"\\n\")\n"
	"def human(v):\n"
	"    units = [\"ns\", \"us\", \"ms\", \"s\"]\n"
	"    if v < 1000:\n"
	"        return \"%d ns\" % v\n"
	"    f, i = float(v), 0\n"
	"    while i < 3 and f >= 1000:\n"
	"        f, i = f / 1000, i + 1\n"
	"    return \"%.2f %s\" % (f, units[i])\n"
	"def row(first, j):\n"
	"    return \" \".join([first, str(j[\"jobs\"]), str(j[\"unsignaled\"]),\n"
	"                     human(j[\"busy_ns\"]), \"%.2f%%\" % j[\"share_pct\"]])\n"
	"rows = [\" \".join(l.split()) for l in text]\n"
	"n = 0\n"
	"for c in d[\"clients\"]:\n"
	"    want = row(\"%d %s\" % (c[\"pid\"], c[\"comm\"]), c)\n"
	"    assert any(r.startswith(want) for r in rows), want\n"
	"    n += 1\n"
	"want = row(\"total\", d[\"totals\"])\n"
	"assert any(r.startswith(want) for r in rows), want\n"
	"for t in d[\"timelines\"]:\n"
	"    j = t\n"
	"    want = \" \".join([t[\"driver\"] + \"/\" + t[\"timeline\"], str(j[\"jobs\"]),\n"
	"                     str(j[\"unmatched\"]), str(j[\"unsignaled\"]), human(j[\"busy_ns\"]),\n"
	"                     \"%.2f%%\" % j[\"share_pct\"]])\n"
	"    assert any(r.startswith(want) for r in rows), want\n"
	"    n += 1\n"
	"assert (\"# jobs: %d signaled, %d signals without their init, %d never signaled\" %\n"
	"        (d[\"totals\"][\"jobs\"], d[\"totals\"][\"unmatched\"], d[\"totals\"][\"unsignaled\"])) in rows\n"
	"for c in d[\"clients\"]:\n"
	"    o = c[\"oa\"]\n"
	"    want = \"%d %s %d %s %d %d\" % (c[\"pid\"], c[\"comm\"], o[\"reports\"], human(o[\"gpu_time_ns\"]),\n"
	"                              o[\"gpu_clock_ticks\"], o[\"avg_gpu_freq_mhz\"])\n"
	"    assert d[\"oa\"][\"reports\"] == 0 or want in rows, want\n"
	"for f in d[\"frames\"]:\n"
	"    want = \"%d %d\" % (f[\"crtc\"], f[\"vblanks\"])\n"
	"    assert any(r.startswith(want) and r.endswith(\" %d\" % f[\"missed\"]) for r in rows), want\n"
	"print(\"ok\", n)\n";

static int json_equals_text(FIXTURE_DATA(report) *self, const char *args)
{
	char py[160];
	FILE *f;

	snprintf(py, sizeof(py), "%s/compare.py", self->dir);
	f = fopen(py, "w");
	if (!f || fputs(compare_py, f) < 0 || fclose(f))
		return -1;
	return run_cmd(self->out, sizeof(self->out),
		       "%s report -i %s --format=json %s > %s/r.json && "
		       "%s report -i %s %s > %s/r.txt && python3 %s %s/r.json %s/r.txt",
		       perf_gpu_path(), self->path, args, self->dir,
		       perf_gpu_path(), self->path, args, self->dir, py, self->dir,
		       self->dir);
}

TEST_F(report, json_totals_equal_the_text)
{
	two_clients(self);
	WRITE_FILE();
	ASSERT_EQ(0, json_equals_text(self, "")) TH_LOG("%s", self->out);
	/* Two clients and three timelines compared. */
	EXPECT_STREQ("ok 5\n", self->out);
	ASSERT_EQ(0, json_equals_text(self, "--pid 200")) TH_LOG("%s", self->out);
	EXPECT_STREQ("ok 2\n", self->out);
}

/*
 * Overlapping jobs of one client on one timeline (vgem: a context per
 * fence, all named vgem/unbound): [0,10] [5,15] [20,30] [25,26] [50,60]
 * ms are 41 ms of jobs but 35 ms of union.  Two jobs on one context
 * run one after the other: the second from the first's signal.
 */
TEST_F(report, overlapping_jobs_count_once)
{
	static const uint64_t iv[][2] = {
		{ 0, 10 }, { 5, 15 }, { 20, 30 }, { 25, 26 }, { 50, 60 },
	};
	size_t i;

	b_comm(&self->b, 300, "gl", T0);
	for (i = 0; i < 5; i++)
		b_job(&self->b, 300, "vgem", "unbound", i + 1, 1,
		      T0 + iv[i][0] * MS, T0 + iv[i][1] * MS);
	/* Context 10: inits at 100 and 101 ms, signals at 110 and 115 ms. */
	b_init(&self->b, 300, 300, "vgem", "serial", 10, 1, T0 + 100 * MS);
	b_init(&self->b, 300, 300, "vgem", "serial", 10, 2, T0 + 101 * MS);
	b_signal(&self->b, "vgem", "serial", 10, 1, T0 + 110 * MS);
	b_signal(&self->b, "vgem", "serial", 10, 2, T0 + 115 * MS);
	WRITE_FILE();
	EXPECT_QUERY("unbound 5 35000000\nserial 2 15000000", "",
		     "\"\\n\".join(\"%s %d %d\" % (t[\"timeline\"], t[\"jobs\"], t[\"busy_ns\"]) "
		     "for t in d[\"timelines\"])");
	/* serial: latencies 10 and 14 ms; the running time of the second is 5. */
	EXPECT_EQ(14 * MS, query_u64(self, "d[\"timelines\"][1][\"latency_ns\"][\"max\"]"));
	EXPECT_TRUE(near(query_u64(self, "d[\"timelines\"][1][\"latency_ns\"][\"p50\"]"), 10 * MS));
	EXPECT_QUERY("7 50000000", "", "\"%d %d\" % (d[\"totals\"][\"jobs\"], d[\"totals\"][\"busy_ns\"])");
}

/* vgem makes a context per fence: still one timeline. */
TEST_F(report, a_context_per_fence_is_one_timeline)
{
	int i;

	for (i = 0; i < 100; i++)
		b_job(&self->b, 400, "vgem", "unbound", 1000 + i, 1,
		      T0 + i * MS, T0 + i * MS + MS / 2);
	WRITE_FILE();
	EXPECT_QUERY("1 vgem unbound 100 50000000", "",
		     "\"%d %s %s %d %d\" % (len(d[\"timelines\"]), d[\"timelines\"][0][\"driver\"], "
		     "d[\"timelines\"][0][\"timeline\"], d[\"timelines\"][0][\"jobs\"], "
		     "d[\"timelines\"][0][\"busy_ns\"])");
}

/*
 * Many jobs, so that busy time is settled many times while a long job
 * runs: 10000 jobs of 50 us every 100 us on contexts of their own (pid
 * 500, timeline a), with a job of pid 500 on timeline b running from
 * before the first to after the last, and one of pid 600 on timeline a
 * that is never signaled.  The union is the long job; the short ones
 * alone are 500 ms; the unsignaled job counts for nothing.
 */
TEST_F(report, busy_time_stays_exact_across_settling)
{
	const uint64_t start = T0 + 5 * MS, end = T0 + 1020 * MS;
	int i;

	b_init(&self->b, 500, 500, "vgem", "b", 1, 1, start);
	b_init(&self->b, 600, 600, "vgem", "a", 2, 1, T0 + 7 * MS);
	for (i = 0; i < 10000; i++)
		b_job(&self->b, 500, "vgem", "a", 10 + i, 1, T0 + 10 * MS + i * 100000ull,
		      T0 + 10 * MS + i * 100000ull + 50000);
	b_signal(&self->b, "vgem", "b", 1, 1, end);
	WRITE_FILE();
	EXPECT_QUERY("10001 1015000000", "",
		     "\"%d %d\" % (d[\"totals\"][\"jobs\"], d[\"totals\"][\"busy_ns\"])");
	/* pid 500 is busy all along; on a, 500 ms; 600 never finished. */
	EXPECT_QUERY("500 10001 1015000000\n600 0 0", "",
		     "\"\\n\".join(\"%d %d %d\" % (c[\"pid\"], c[\"jobs\"], c[\"busy_ns\"]) "
		     "for c in d[\"clients\"])");
	/* By pid, timelines come in order of first sight. */
	EXPECT_QUERY("b 1 1015000000 0\na 10000 500000000 1", "--sort pid",
		     "\"\\n\".join(\"%s %d %d %d\" % (t[\"timeline\"], t[\"jobs\"], t[\"busy_ns\"], "
		     "t[\"unsignaled\"]) for t in d[\"timelines\"])");
}

/* The same short jobs with the long one never signaled: 500 ms. */
TEST_F(report, busy_time_exact_beside_a_job_never_signaled)
{
	int i;

	b_init(&self->b, 500, 500, "vgem", "b", 1, 1, T0 + 5 * MS);
	for (i = 0; i < 10000; i++)
		b_job(&self->b, 500, "vgem", "a", 10 + i, 1, T0 + 10 * MS + i * 100000ull,
		      T0 + 10 * MS + i * 100000ull + 50000);
	WRITE_FILE();
	EXPECT_QUERY("10000 500000000 1", "",
		     "\"%d %d %d\" % (d[\"clients\"][0][\"jobs\"], d[\"clients\"][0][\"busy_ns\"], "
		     "d[\"clients\"][0][\"unsignaled\"])");
}

/*
 * drm_sched: "scheduled" on context c then "finished" on c + 1, one
 * seqno, back to back in the submitting thread: one job, the finished
 * one, queued until the scheduled half's signal (2 ms), running from
 * then (8 ms busy).  Fences that gather others are no jobs.  A fence
 * destroyed unsignaled ends its job unsignaled.
 */
TEST_F(report, sched_halves_containers_and_destroyed_fences)
{
	struct builder *b = &self->b;

	b_init(b, 700, 701, "drm_sched", "gfx", 40, 3, T0);
	b_init(b, 700, 701, "drm_sched", "gfx", 41, 3, T0);
	b_signal(b, "drm_sched", "gfx", 40, 3, T0 + 2 * MS);
	b_signal(b, "drm_sched", "gfx", 41, 3, T0 + 10 * MS);
	b_init(b, 700, 700, "dma_fence_chain", "unbound", 50, 1, T0 + 1 * MS);
	b_signal(b, "dma_fence_chain", "unbound", 50, 1, T0 + 3 * MS);
	b_init(b, 700, 700, "vgem", "unbound", 60, 1, T0 + 4 * MS);
	b_destroy(b, "vgem", "unbound", 60, 1, T0 + 5 * MS);
	WRITE_FILE();
	/* The scheduled half's signal is neither a job nor unmatched. */
	EXPECT_QUERY("drm_sched gfx 1 0 0 8000000\nvgem unbound 0 0 1 0", "",
		     "\"\\n\".join(\"%s %s %d %d %d %d\" % (t[\"driver\"], t[\"timeline\"], "
		     "t[\"jobs\"], t[\"unmatched\"], t[\"unsignaled\"], t[\"busy_ns\"]) "
		     "for t in d[\"timelines\"])");
}

/* A drm_sched job: its two inits back to back, then its two signals. */
static void b_sched_job(struct builder *b, int32_t pid, int32_t tid,
			const char *timeline, uint32_t ctx, uint32_t seqno,
			uint64_t init, uint64_t scheduled, uint64_t finished)
{
	b_init(b, pid, tid, "drm_sched", timeline, ctx, seqno, init);
	b_init(b, pid, tid, "drm_sched", timeline, ctx + 1, seqno, init);
	b_signal(b, "drm_sched", timeline, ctx, seqno, scheduled);
	b_signal(b, "drm_sched", timeline, ctx + 1, seqno, finished);
}

/*
 * A ring taking one job at a time: p1 (pid 1000) submits one of 400 ms
 * at 0; p2 (pid 2000) four of 25 ms at 10 ms, which wait for it and
 * each other: they run 400-425, ..., 475-500 ms, queued 390 to 465 ms.
 * Busy time counts running only: 100 ms for p2, not 490.
 */
TEST_F(report, sched_queued_apart_from_running)
{
	struct builder *b = &self->b;
	int i;

	b_comm(b, 1000, "p1", T0);
	b_comm(b, 2000, "p2", T0);
	b_sched_job(b, 1000, 1000, "gfx", 100, 1, T0, T0, T0 + 400 * MS);
	for (i = 0; i < 4; i++)
		b_sched_job(b, 2000, 2000, "gfx", 200, i + 1, T0 + 10 * MS,
			    T0 + (400 + 25 * i) * MS, T0 + (425 + 25 * i) * MS);
	WRITE_FILE();
	/* pid jobs busy queue-p50 queue-p99 run-p50 run-p99 */
	EXPECT_QUERY("1000 1 400000000 0 0 400000000 400000000\n"
		     "2000 4 100000000 - - 25000000 25000000", "--sort pid",
		     "\"\\n\".join(\"%d %d %d %s %s %d %d\" % (c[\"pid\"], c[\"jobs\"], c[\"busy_ns\"], "
		     "c[\"queue_ns\"][\"p50\"] if c[\"pid\"] == 1000 else \"-\", "
		     "c[\"queue_ns\"][\"p99\"] if c[\"pid\"] == 1000 else \"-\", "
		     "c[\"run_ns\"][\"p50\"], c[\"run_ns\"][\"p99\"]) for c in d[\"clients\"])");
	/* p2's queue: 390, 415, 440, 465 ms; p50 the 2nd, p99 the 4th. */
	EXPECT_TRUE(near(query_u64(self, "d[\"clients\"][1][\"queue_ns\"][\"p50\"]"), 415 * MS));
	EXPECT_LE(350 * MS, query_u64(self, "d[\"clients\"][1][\"queue_ns\"][\"p50\"]"));
	EXPECT_TRUE(near(query_u64(self, "d[\"clients\"][1][\"queue_ns\"][\"p99\"]"), 465 * MS));
	EXPECT_EQ(465 * MS, query_u64(self, "d[\"clients\"][1][\"queue_ns\"][\"max\"]"));
	/* Latency stays init to signal: p2's last job 490 ms. */
	EXPECT_EQ(490 * MS, query_u64(self, "d[\"clients\"][1][\"latency_ns\"][\"max\"]"));
	/* One timeline, its busy time the union: 500 ms; no stray signal. */
	EXPECT_QUERY("drm_sched gfx 5 0 0 500000000", "",
		     "\" \".join(str(x) for x in (d[\"timelines\"][0][\"driver\"], "
		     "d[\"timelines\"][0][\"timeline\"], d[\"timelines\"][0][\"jobs\"], "
		     "d[\"timelines\"][0][\"unmatched\"], d[\"timelines\"][0][\"unsignaled\"], "
		     "d[\"timelines\"][0][\"busy_ns\"]))");
	/* The text and the CSV carry the same columns. */
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report -i %s --sort pid",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out,
			       "   1000 p1                     1          0   400.00 ms  80.00%  400.00 ms"
			       "  400.00 ms  400.00 ms  400.00 ms       0 ns       0 ns  400.00 ms  400.00 ms\n"))
		TH_LOG("%s", self->out);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s report -i %s --format=csv --pid 1000 | tail -1",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_STREQ("1000,p1,drm_sched,gfx,1,0,400000000,80.00,400000000,400000000,"
		     "400000000,400000000,0,0,400000000,400000000,,\n", self->out);
}

/*
 * drm_sched's stable events (7.3's formats), with the fence pairs of the
 * first jobs.  Client 7 (pid 100): a job pushed at 1 us, with a vgem
 * fence (99, 5) as dependency, found unsignaled at 2 ms, signaled at
 * 300 ms; run at 300.01 ms, done at 350 ms: dependency 299.999 ms,
 * queue 10 us, run 49.99 ms.  Its fences: inits at 0, scheduled signal
 * at 300.02 ms, finished at 350.005 ms: within 1 ms of the events.
 * Client 8 (pushed by pid 200, held by pid 300 in an fdinfo snapshot):
 * queued at 400 ms, run at 401, done at 411 ms, no dependency; its
 * scheduled signal 2 ms after the run: it disagrees.  Its second job,
 * pushed at 440 ms, runs 510-515 ms (no fences: here only).  Client 9
 * (pid 400) pushes at 450 ms a job depending on a vgem fence signaled at
 * 500 ms, never found unsignaled (the ring was busy), and on client 8's
 * second job, which drm_sched waits for only until its run at 510 ms:
 * dependency 60 ms, queue 10 ms to its run at 520 ms; its fences are
 * inited 500 us after its push, within 1 ms but out of the kernel's
 * order (arm before push); its scheduled half signals 2 ms after its
 * run (it disagrees), its finished fence 10 us after done.  A
 * run and done of a job pushed before the recording are untimed.  Every
 * figure is exact.
 */
TEST_F(report, sched_stable_events_three_phases)
{
	struct builder *b = &self->b;
	uint64_t us = 1000;

	b_comm(b, 100, "app", T0);
	b_comm(b, 200, "worker", T0);
	b_comm(b, 300, "owner", T0);
	b_fdinfo(b, 300, 8, "0000:00:02.0", T0);
	b_fdinfo(b, 300, 9, "0000:00:03.0", T0);
	/* Pushed before the recording: run and done only. */
	b_squeue(b, true, 0, 11, 1, 7, T0 + 1 * us);
	b_sfence(b, EV_SDONE, 11, 1, 0, 0, T0 + 1 * MS);
	/* Client 7's job (21, 1): scheduled half (20, 1). */
	b_init(b, 100, 100, "drm_sched", "ring0", 20, 1, T0);
	b_init(b, 100, 100, "drm_sched", "ring0", 21, 1, T0);
	b_squeue(b, false, 100, 21, 1, 7, T0 + 1 * us);
	b_sfence(b, EV_SDEP, 21, 1, 99, 5, T0 + 1 * us);
	b_sfence(b, EV_SBLOCKED, 21, 1, 99, 5, T0 + 2 * MS);
	b_signal(b, "vgem", "unbound", 99, 5, T0 + 300 * MS);
	b_squeue(b, true, 0, 21, 1, 7, T0 + 300 * MS + 10 * us);
	b_signal(b, "drm_sched", "ring0", 20, 1, T0 + 300 * MS + 20 * us);
	b_sfence(b, EV_SDONE, 21, 1, 0, 0, T0 + 350 * MS);
	b_signal(b, "drm_sched", "ring0", 21, 1, T0 + 350 * MS + 5 * us);
	/* Client 8's job (21, 2). */
	b_init(b, 200, 200, "drm_sched", "ring0", 20, 2, T0 + 400 * MS);
	b_init(b, 200, 200, "drm_sched", "ring0", 21, 2, T0 + 400 * MS);
	b_squeue(b, false, 200, 21, 2, 8, T0 + 400 * MS);
	b_squeue(b, true, 0, 21, 2, 8, T0 + 401 * MS);
	b_signal(b, "drm_sched", "ring0", 20, 2, T0 + 403 * MS);
	b_sfence(b, EV_SDONE, 21, 2, 0, 0, T0 + 411 * MS);
	b_signal(b, "drm_sched", "ring0", 21, 2, T0 + 411 * MS);
	b_squeue(b, false, 200, 21, 3, 8, T0 + 440 * MS);
	b_comm(b, 400, "third", T0 + 440 * MS);
	b_squeue(b, false, 400, 21, 4, 9, T0 + 450 * MS);
	b_sfence(b, EV_SDEP, 21, 4, 98, 1, T0 + 450 * MS);
	b_sfence(b, EV_SDEP, 21, 4, 21, 3, T0 + 450 * MS);
	b_init(b, 400, 400, "drm_sched", "ring0", 20, 4, T0 + 450 * MS + 500 * us);
	b_init(b, 400, 400, "drm_sched", "ring0", 21, 4, T0 + 450 * MS + 500 * us);
	b_signal(b, "vgem", "unbound", 98, 1, T0 + 500 * MS);
	b_squeue(b, true, 0, 21, 3, 8, T0 + 510 * MS);
	b_sfence(b, EV_SDONE, 21, 3, 0, 0, T0 + 515 * MS);
	b_squeue(b, true, 0, 21, 4, 9, T0 + 520 * MS);
	b_signal(b, "drm_sched", "ring0", 20, 4, T0 + 522 * MS);
	b_sfence(b, EV_SDONE, 21, 4, 0, 0, T0 + 530 * MS);
	b_signal(b, "drm_sched", "ring0", 21, 4, T0 + 530 * MS + 10 * us);
	WRITE_FILE();
	/* client pid from jobs waited deps dep queue run (maxima: exact) */
	EXPECT_QUERY("7 100 push app 1 1 1 299999000 10000 49990000\n"
		     "8 300 fdinfo owner 2 0 0 0 70000000 10000000\n"
		     "9 400 push third 1 1 2 60000000 10000000 10000000", "",
		     "\"\\n\".join(\"%d %d %s %s %d %d %d %d %d %d\" % (r[\"client_id\"], r[\"pid\"], "
		     "r[\"pid_from\"], r[\"comm\"], r[\"jobs\"], r[\"waited\"], r[\"deps\"], "
		     "r[\"dep_ns\"][\"max\"], r[\"queue_ns\"][\"max\"], r[\"run_ns\"][\"max\"]) "
		     "for r in d[\"sched\"][\"rows\"])");
	EXPECT_QUERY("18 1 3 2 1 1 500000 2000000 10000", "",
		     "\" \".join(str(x) for x in (d[\"sched\"][\"events\"], d[\"sched\"][\"untimed\"], "
		     "d[\"sched\"][\"compare\"][\"jobs\"], d[\"sched\"][\"compare\"][\"ordered\"], "
		     "d[\"sched\"][\"compare\"][\"agree\"], "
		     "d[\"sched\"][\"compare\"][\"sched_only\"], d[\"sched\"][\"compare\"][\"max_submit_ns\"], "
		     "d[\"sched\"][\"compare\"][\"max_handover_ns\"], d[\"sched\"][\"compare\"][\"max_end_ns\"]))");
	/* The text: rows and the comparison; --comm chooses rows. */
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report -i %s",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out,
			       "\nScheduler (gpu_scheduler events)\n"
			       "CLIENT_ID     PID COMM            DEV/RING                 JOBS   WAITED"
			       "    DEP_P50    DEP_P99  QUEUE_P50  QUEUE_P99    RUN_P50    RUN_P99\n"
			       "        7     100 app             0000:00:02.0/ring0          1        1"
			       "  300.00 ms  300.00 ms   10.00 us   10.00 us   49.99 ms   49.99 ms\n"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out,
			       "# against fence pairing: 3 jobs in both, 2 in the kernel's order, "
			       "1 agree within 1.00 ms; largest differences: submission 500.00 us, "
			       "handover 2.00 ms, end 10.00 us; 1 jobs here only\n")) TH_LOG("%s", self->out);
	EXPECT_QUERY("[8]", "--comm owner",
		     "[r[\"client_id\"] for r in d[\"sched\"][\"rows\"]]");
}

/*
 * Client names (drm-client-name, Linux 6.14 and later) from the fdinfo
 * snapshots, as perf gpu record keeps them: the first pair of the stats.
 * zeta (pid 100) holds client 7, named zeta-ui, then zeta-main (the
 * newest name counts), and client 9, named zeta-bg, which clears its
 * name later (the one it had stays); beta (200) holds client 8, never
 * named; gamma (300) client 10, whose name (65 bytes) is refused; delta
 * (400) has no snapshot.  Clients 7 and 8 push a job each through
 * drm_sched's stable events: their rows are named as the client is.
 */
static void named_clients(FIXTURE_DATA(report) *self)
{
	struct builder *b = &self->b;
	const char *pdev = "0000:00:02.0";

	b_comm(b, 100, "zeta", T0);
	b_comm(b, 200, "beta", T0);
	b_comm(b, 300, "gamma", T0);
	b_comm(b, 400, "delta", T0);
	b_fdinfo_stats(b, 100, 7, pdev, "drm-client-name=zeta-ui drm-engine-render=5 ns", T0);
	b_fdinfo_stats(b, 100, 9, pdev, "drm-client-name=zeta-bg", T0);
	b_fdinfo_stats(b, 200, 8, pdev, "drm-engine-render=1 ns", T0);
	b_fdinfo_stats(b, 300, 10, pdev, "drm-client-name="
		       "ggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg", T0);
	b_job(b, 100, "i915", "rcs0", 1, 1, T0 + 10 * MS, T0 + 20 * MS);
	b_job(b, 200, "i915", "rcs0", 1, 2, T0 + 30 * MS, T0 + 40 * MS);
	b_job(b, 300, "i915", "rcs0", 1, 3, T0 + 50 * MS, T0 + 60 * MS);
	b_job(b, 400, "i915", "rcs0", 1, 4, T0 + 70 * MS, T0 + 80 * MS);
	b_squeue(b, false, 100, 31, 1, 7, T0 + 100 * MS);
	b_squeue(b, true, 0, 31, 1, 7, T0 + 101 * MS);
	b_sfence(b, EV_SDONE, 31, 1, 0, 0, T0 + 111 * MS);
	b_squeue(b, false, 200, 41, 1, 8, T0 + 120 * MS);
	b_squeue(b, true, 0, 41, 1, 8, T0 + 121 * MS);
	b_sfence(b, EV_SDONE, 41, 1, 0, 0, T0 + 131 * MS);
	b_fdinfo_stats(b, 100, 7, pdev, "drm-client-name=zeta-main drm-engine-render=9 ns",
		       T0 + 500 * MS);
	b_fdinfo_stats(b, 100, 9, pdev, "", T0 + 500 * MS);
	b_fdinfo_stats(b, 200, 8, pdev, "drm-engine-render=2 ns", T0 + 500 * MS);
}

TEST_F(report, client_names_from_fdinfo_snapshots)
{
	named_clients(self);
	WRITE_FILE();
	/* JSON: client_names of each process (and pair), [] when none. */
	EXPECT_QUERY("100 zeta ['zeta-main', 'zeta-bg']\n200 beta []\n"
		     "300 gamma []\n400 delta []", "--sort pid",
		     "\"\\n\".join(\"%d %s %s\" % (c[\"pid\"], c[\"comm\"], c[\"client_names\"]) "
		     "for c in d[\"clients\"])");
	EXPECT_QUERY("[['zeta-main', 'zeta-bg'], [], [], []]", "--sort pid",
		     "[p[\"client_names\"] for p in d[\"pairs\"]]");
	/* A scheduler row: its client's name, null when none. */
	EXPECT_QUERY("7 100 fdinfo zeta zeta-main\n8 200 fdinfo beta None", "",
		     "\"\\n\".join(\"%d %d %s %s %s\" % (r[\"client_id\"], r[\"pid\"], "
		     "r[\"pid_from\"], r[\"comm\"], r[\"client_name\"]) for r in d[\"sched\"][\"rows\"])");

	/* Text: a CLIENT_NAME column last; COMM stays the process's. */
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report -i %s --sort pid",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "  RUN_P99 CLIENT_NAME\n    100 zeta "))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "  10.00 ms zeta-main zeta-bg\n    200 beta "))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "  10.00 ms -\n    300 gamma "))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "  10.00 ms -\n    400 delta "))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out,
			       "    DEP_P50    DEP_P99  QUEUE_P50  QUEUE_P99    RUN_P50    RUN_P99 CLIENT_NAME\n"
			       "        7     100 zeta            0000:00:02.0/ring0          1        0"
			       "       0 ns       0 ns    1.00 ms    1.00 ms   10.00 ms   10.00 ms zeta-main\n"
			       "        8     200 beta            0000:00:02.0/ring0          1        0"
			       "       0 ns       0 ns    1.00 ms    1.00 ms   10.00 ms   10.00 ms -\n"))
		TH_LOG("%s", self->out);
	/* With the cgroup column after it, the names are padded. */
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report -i %s --sort cgroup",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "  RUN_P99 CLIENT_NAME       CGROUP\n"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "  10.00 ms zeta-main zeta-bg -\n"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "  10.00 ms -                 -\n"))
		TH_LOG("%s", self->out);

	/* CSV: the names in a last column, separated by spaces. */
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s report -i %s --format=csv --sort pid | grep -v '^#' | cut -d, -f1,2,17-",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_STREQ("pid,comm,cgroup,client_name\n100,zeta,,zeta-main zeta-bg\n"
		     "200,beta,,\n300,gamma,,\n400,delta,,\n", self->out);
}

/*
 * A recording without names (a kernel before 6.14, or clients that set
 * none): no CLIENT_NAME column in the text, [] and null in JSON, an
 * empty CSV field.
 */
TEST_F(report, no_client_names_no_column)
{
	two_clients(self);
	b_fdinfo_stats(&self->b, 100, 7, "0000:00:02.0", "drm-engine-render=5 ns", T0);
	WRITE_FILE();
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report -i %s",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strstr(self->out, "CLIENT_NAME")) TH_LOG("%s", self->out);
	EXPECT_QUERY("[[], []]", "--sort pid", "[c[\"client_names\"] for c in d[\"clients\"]]");
}

/* No stable events: no scheduler section, and rows [] in JSON. */
TEST_F(report, sched_section_only_with_the_events)
{
	struct builder *b = &self->b;

	b_sched_job(b, 1000, 1000, "gfx", 100, 1, T0, T0 + MS, T0 + 2 * MS);
	WRITE_FILE();
	EXPECT_QUERY("0 []", "", "d[\"sched\"][\"events\"], d[\"sched\"][\"rows\"]");
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report -i %s",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strstr(self->out, "Scheduler")) TH_LOG("%s", self->out);
}

/*
 * Two threads of one process submit at once, on entities whose
 * contexts are adjacent (300/301 and 302/303) with the same seqno:
 * scheduled A, scheduled B, finished A, finished B.  Two jobs, each
 * queued 1 ms and running 4 ms.  Then a third entity (304/305) right
 * after: its scheduled half (304, 1) is no finished half of (303, 1).
 */
TEST_F(report, sched_pairs_by_fence_not_by_order)
{
	struct builder *b = &self->b;

	b_init(b, 3000, 3001, "drm_sched", "gfx", 300, 1, T0);
	b_init(b, 3000, 3002, "drm_sched", "gfx", 302, 1, T0 + 1000);
	b_init(b, 3000, 3001, "drm_sched", "gfx", 301, 1, T0 + 2000);
	b_init(b, 3000, 3002, "drm_sched", "gfx", 303, 1, T0 + 3000);
	b_signal(b, "drm_sched", "gfx", 300, 1, T0 + 2000 + MS);
	b_signal(b, "drm_sched", "gfx", 302, 1, T0 + 3000 + MS);
	b_signal(b, "drm_sched", "gfx", 301, 1, T0 + 2000 + 5 * MS);
	b_signal(b, "drm_sched", "gfx", 303, 1, T0 + 3000 + 5 * MS);
	b_sched_job(b, 3000, 3003, "gfx", 304, 1, T0 + 10 * MS, T0 + 11 * MS, T0 + 15 * MS);
	WRITE_FILE();
	/* jobs unmatched unsignaled busy queue-count queue-max run-p50 run-max */
	EXPECT_QUERY("3 0 0 8001000 3 1000000 4000000 4000000", "",
		     "\" \".join(str(x) for x in (d[\"totals\"][\"jobs\"], d[\"totals\"][\"unmatched\"], "
		     "d[\"totals\"][\"unsignaled\"], d[\"totals\"][\"busy_ns\"], "
		     "d[\"totals\"][\"queue_ns\"][\"count\"], d[\"totals\"][\"queue_ns\"][\"max\"], "
		     "d[\"totals\"][\"run_ns\"][\"p50\"], d[\"totals\"][\"run_ns\"][\"max\"]))");
}

/*
 * The scheduled signal of job 2 lost: it runs by the rule of other
 * drivers, from the previous signal on its context (15 ms) to its own
 * (25 ms), queue 0; job 1 queued 5 ms, ran 10 ms.  Busy 20 ms.
 */
TEST_F(report, sched_lost_scheduled_signal_runs_by_the_old_rule)
{
	struct builder *b = &self->b;

	b_sched_job(b, 4000, 4000, "gfx", 400, 1, T0, T0 + 5 * MS, T0 + 15 * MS);
	b_init(b, 4000, 4000, "drm_sched", "gfx", 400, 2, T0 + MS);
	b_init(b, 4000, 4000, "drm_sched", "gfx", 401, 2, T0 + MS);
	b_signal(b, "drm_sched", "gfx", 401, 2, T0 + 25 * MS);
	WRITE_FILE();
	/* jobs unmatched unsignaled busy queue-p50 queue-max run-p50 run-max */
	EXPECT_QUERY("2 0 0 20000000 0 5000000 10000000 10000000", "",
		     "\" \".join(str(x) for x in (d[\"totals\"][\"jobs\"], d[\"totals\"][\"unmatched\"], "
		     "d[\"totals\"][\"unsignaled\"], d[\"totals\"][\"busy_ns\"], "
		     "d[\"totals\"][\"queue_ns\"][\"p50\"], d[\"totals\"][\"queue_ns\"][\"max\"], "
		     "d[\"totals\"][\"run_ns\"][\"p50\"], d[\"totals\"][\"run_ns\"][\"max\"]))");
}

/*
 * Other drivers: queue time 0 and run time the running interval, the
 * latency when no job waits for another (two_clients); busy, jobs and
 * latency as before.
 */
TEST_F(report, other_drivers_queue_nothing)
{
	two_clients(self);
	WRITE_FILE();
	EXPECT_QUERY("True", "",
		     "all(j[\"queue_ns\"] == {\"count\": j[\"jobs\"], \"mean\": 0, \"p50\": 0, "
		     "\"p90\": 0, \"p99\": 0, \"max\": 0} and j[\"run_ns\"] == j[\"latency_ns\"] "
		     "for j in d[\"clients\"] + d[\"timelines\"] + d[\"pairs\"] + [d[\"totals\"]])");
	EXPECT_QUERY("30 310000000", "",
		     "d[\"totals\"][\"jobs\"], d[\"totals\"][\"busy_ns\"]");
}

/*
 * Fences numbered at emit (virtio_gpu): every init has seqno 0.  A's job
 * is initialised and emitted by its thread, B's the same, overlapping;
 * A's page flip fence is emitted a frame later by a kworker; B's cursor
 * fence is destroyed unemitted.  Jobs run from max(emit, the previous
 * signal on the context): A [12, 20] and [31, 35] ms, B [20, 30] ms.
 */
TEST_F(report, fences_numbered_at_emit)
{
	const char *v = "virtio_gpu", *q = "controlq";
	struct builder *b = &self->b;

	b_init(b, 100, 100, v, q, 1, 0, T0 + 10 * MS);
	b_init(b, 200, 200, v, q, 1, 0, T0 + 11 * MS);
	b_emit(b, 100, 100, v, q, 1, 5, T0 + 12 * MS);
	b_emit(b, 200, 200, v, q, 1, 6, T0 + 13 * MS);
	b_init(b, 100, 100, v, q, 1, 0, T0 + 14 * MS);
	b_signal(b, v, q, 1, 5, T0 + 20 * MS);
	b_signal(b, v, q, 1, 6, T0 + 30 * MS);
	b_emit(b, 50, 50, v, q, 1, 7, T0 + 31 * MS);
	b_signal(b, v, q, 1, 7, T0 + 35 * MS);
	b_init(b, 200, 200, v, q, 1, 0, T0 + 40 * MS);
	b_destroy(b, v, q, 1, 0, T0 + 41 * MS);
	WRITE_FILE();
	EXPECT_QUERY("3 0 0 22000000", "",
		     "d[\"totals\"][\"jobs\"], d[\"totals\"][\"unmatched\"], "
		     "d[\"totals\"][\"unsignaled\"], d[\"totals\"][\"busy_ns\"]");
	EXPECT_QUERY("[(100, 2, 12000000), (200, 1, 10000000)]", "--sort pid",
		     "[(c[\"pid\"], c[\"jobs\"], c[\"busy_ns\"]) for c in d[\"clients\"]]");
	/* Latency from the init, queue from the init to the start. */
	EXPECT_QUERY("2 2 17", "",
		     "[c for c in d[\"clients\"] if c[\"pid\"] == 100][0][\"queue_ns\"][\"count\"], "
		     "[c for c in d[\"clients\"] if c[\"pid\"] == 100][0][\"queue_ns\"][\"p50\"] // 1000000, "
		     "[c for c in d[\"clients\"] if c[\"pid\"] == 100][0][\"queue_ns\"][\"max\"] // 1000000");
}

/*
 * Flips: 300 delivered on crtc 0, sequence numbers 0..304 with five
 * gaps of two (a frame missed each), sample times a period apart per
 * sequence number; vblank ticks at every one of them, none missed; in
 * one gap an event of no file (the kernel's own), which is no flip.
 */
TEST_F(report, flips_delivered_and_missed)
{
	const uint64_t period = 16666667;
	char want[512];
	uint32_t seq;
	int flips = 0;

	for (seq = 0; seq <= 304; seq++) {
		uint64_t stamp = T0 + seq * period;

		b_vblank(&self->b, 0, seq, stamp, stamp);
		/* The kernel's own event, of no file: no flip, no gap filled. */
		if (seq == 50)
			b_delivered(&self->b, 0, 0, seq, stamp + 50000);
		if (seq == 50 || seq == 100 || seq == 150 || seq == 200 || seq == 250)
			continue;
		b_delivered(&self->b, 0xffff888012345600ull, 0, seq, stamp + 100000);
		flips++;
	}
	WRITE_FILE();
	ASSERT_EQ(300, flips);
	EXPECT_QUERY("0 305 0 300 299 5", "",
		     "\" \".join(str(f[k]) for f in d[\"frames\"] for k in (\"crtc\", \"vblanks\", "
		     "\"missed\", \"flips\", \"flip_intervals\", \"missed_flips\"))");
	EXPECT_TRUE(near(query_u64(self, "d[\"frames\"][0][\"median_flip_interval_ns\"]"), period));
	EXPECT_TRUE(near(query_u64(self, "d[\"frames\"][0][\"median_interval_ns\"]"), period));
	/* The text row and the CSV line say the same. */
	ASSERT_EQ(0, query(self, "", "\"%8d %8d %8.2f ms %11d\" % (0, 300, "
			   "d[\"frames\"][0][\"median_flip_interval_ns\"] / 1e6, 5)"));
	snprintf(want, sizeof(want), "%.*s\n", (int)strcspn(self->out, "\n"), self->out);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report -i %s",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "   MISSED    FLIPS FLIP_MEDIAN FLIP_MISSED\n"));
	EXPECT_NE(NULL, strstr(self->out, want)) TH_LOG("%s not in %s", want, self->out);
	ASSERT_EQ(0, query(self, "", "\"# frames: crtc 0: 305 vblanks, median interval %d ns, "
			   "0 missed; 300 flips, median interval %d ns, 5 missed\" % "
			   "(d[\"frames\"][0][\"median_interval_ns\"], "
			   "d[\"frames\"][0][\"median_flip_interval_ns\"])"));
	snprintf(want, sizeof(want), "%.*s", (int)strcspn(self->out, "\n"), self->out);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report -i %s --format=csv",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, want)) TH_LOG("%s not in %s", want, self->out);
}

/*
 * Vblanks of crtc 0 every 16666667 ns for two seconds, two missing
 * (the 30th and the 70th): 119 vblanks, 118 intervals, 2 of them double,
 * 2 frames missed.  Sample times jitter; the vblank timestamps do not.
 * crtc 1: every 10 ms, one gap of three intervals: 2 missed.
 */
/*
 * Two devices' crtc 0 at once, as on 7.3 with virtio_gpu beside vkms:
 * one counting from 600 at 75 Hz, one from 3 at 60 Hz, 2 s each, their
 * ticks interleaved; the flips delivered on the 60 Hz counter's seqs.
 * drm_vblank_event names no device, but each counter is continuous:
 * two rows, "0" and "0/1", each its own period, no frame missed, the
 * flips on the second.  Then one device whose vblank was off for 5 s
 * (its counter advanced by the 300 frames that passed): one row.
 */
TEST_F(report, frames_of_two_devices_on_one_crtc_index)
{
	const uint64_t p75 = 13333333, p60 = 16666667;
	int i;

	for (i = 0; i < 150; i++)
		b_vblank(&self->b, 0, 600 + i, T0 + i * p75, T0 + i * p75);
	for (i = 0; i < 120; i++) {
		uint64_t t = T0 + 5 * MS + i * p60;

		b_vblank(&self->b, 0, 3 + i, t, t);
		if (i >= 10 && i < 110)
			b_delivered(&self->b, 0xffff8880deadb000ull, 0, 3 + i, t);
	}
	/* crtc 1: ten ticks, five seconds off, ten more. */
	for (i = 0; i < 20; i++) {
		uint64_t t = T0 + i * p60 + (i >= 10 ? 5000 * MS : 0);

		b_vblank(&self->b, 1, i < 10 ? i : i + 300, t, t);
	}
	WRITE_FILE();
	/* crtc 1's 300 missed: from the sketch, within 1/128 (298 here). */
	EXPECT_QUERY("0 0 150 0 0\n0 1 120 0 100\n1 0 20 True 0", "",
		     "\"\\n\".join(\"%d %d %d %s %d\" % (f[\"crtc\"], f[\"counter\"], f[\"vblanks\"], "
		     "f[\"missed\"] if f[\"crtc\"] == 0 else abs(f[\"missed\"] - 300) <= 3, f[\"flips\"]) for f in sorted(d[\"frames\"], key=lambda f: (f[\"crtc\"], f[\"counter\"])))");
	EXPECT_TRUE(near(query_u64(self, "[f for f in d[\"frames\"] if f[\"counter\"] == 0][0][\"median_interval_ns\"]"), p75));
	EXPECT_TRUE(near(query_u64(self, "[f for f in d[\"frames\"] if f[\"counter\"] == 1][0][\"median_interval_ns\"]"), p60));
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report -i %s",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "\n    0/1      120 ")) TH_LOG("%s", self->out);
}

TEST_F(report, frames_and_missed_vblanks)
{
	const uint64_t period = 16666667;
	uint64_t sum = 0, last = 0;
	int i, n = 0;

	for (i = 0; i <= 120; i++) {
		uint64_t stamp = T0 + i * period;

		if (i == 30 || i == 70)
			continue;
		b_vblank(&self->b, 0, i, stamp, stamp + (i * 7919 % 13) * 100000);
		if (n++)
			sum += stamp - last;
		last = stamp;
	}
	for (i = 0; i <= 50; i++)
		if (i != 20 && i != 21)
			b_vblank(&self->b, 1, i, T0 + i * 10 * MS, T0 + i * 10 * MS + 1);
	WRITE_FILE();
	ASSERT_EQ(119, n);
	EXPECT_QUERY("0 119 118 2\n1 49 48 2", "",
		     "\"\\n\".join(\"%d %d %d %d\" % (f[\"crtc\"], f[\"vblanks\"], f[\"intervals\"], "
		     "f[\"missed\"]) for f in d[\"frames\"])");
	EXPECT_EQ(sum / 118, query_u64(self, "d[\"frames\"][0][\"mean_interval_ns\"]"));
	EXPECT_TRUE(near(query_u64(self, "d[\"frames\"][0][\"median_interval_ns\"]"), period));
	/* p99: the 117th of 118, a double interval. */
	EXPECT_TRUE(near(query_u64(self, "d[\"frames\"][0][\"p99_interval_ns\"]"), 2 * period));
	EXPECT_EQ(2 * period, query_u64(self, "d[\"frames\"][0][\"max_interval_ns\"]"));
}

/*
 * OA.  Reports every ms, at k ms + 0.5 ms for k = 0..99, OA timestamps
 * at 19.2 MHz, GPU clocks at 1.2 GHz, counters rising by even steps
 * (a0 by 4k - 2, a33 by 4, b3 by 6, c7 by 8 across its 32-bit wrap).
 * Jobs: zeta (100) on rcs0 [10, 40) ms; beta (200) on rcs0 [30, 70) and
 * on bcs0 [45, 55).  Context ids: 0xa for k = 10..34, none for 35..39
 * (split between zeta and beta), 0xb for 40..69 and 75..79 (bound to
 * beta by then, who runs nothing: no timeline), none elsewhere (no one
 * running: unattributed).  A LOST record between reports 50 and 51.
 */
#define OA_N 100
#define OA_TICKS 19200ull

static uint32_t oa_ctx(int k)
{
	if (k >= 10 && k < 35)
		return 0xa;
	if ((k >= 40 && k < 70) || (k >= 75 && k < 80))
		return 0xb;
	return GPUPROF_OA_NO_CONTEXT;
}

static void put32(uint8_t *r, unsigned int off, uint32_t v)
{
	memcpy(r + off, &v, 4);
}

/* Report k in format 10: header, A0 (40-bit), A33, B3, C7. */
static void oa_make(uint8_t *r, int k, uint64_t gpu_time)
{
	uint64_t a0 = 2ull * k * k + 0xfffffff0ull;
	uint32_t ctx = oa_ctx(k);

	memset(r, 0, 256);
	put32(r, 0, GPUPROF_OA_REASON_TIMER << 19 |
		    (ctx != GPUPROF_OA_NO_CONTEXT ? 1u << 16 : 0));
	put32(r, 4, (uint32_t)gpu_time);
	put32(r, 8, ctx != GPUPROF_OA_NO_CONTEXT ? ctx : 0);
	put32(r, 12, 5000 + k * 1200000);
	put32(r, 16, (uint32_t)a0);
	r[160] = a0 >> 32;
	put32(r, 148, k * 4);
	put32(r, 204, k * 6);
	put32(r, 252, 0xffffff00u + k * 8);
}

/* Expected OA sums: zeta, beta, unattributed; rcs0, bcs0, none. */
struct oa_expect {
	struct gpuprof_oa_deltas who[3], tl[3];
	uint64_t reports[3], tl_reports[3];
	struct gpuprof_oa_deltas all;
};

static void deltas_add(struct gpuprof_oa_deltas *acc,
		       const struct gpuprof_oa_deltas *d, unsigned int div)
{
	unsigned int i;

	acc->timestamp += d->timestamp / div;
	acc->gpu_ticks += d->gpu_ticks / div;
	for (i = 0; i < GPUPROF_OA_A_COUNTERS; i++)
		acc->a[i] += d->a[i] / div;
	for (i = 0; i < GPUPROF_OA_B_COUNTERS; i++)
		acc->b[i] += d->b[i] / div;
	for (i = 0; i < GPUPROF_OA_C_COUNTERS; i++)
		acc->c[i] += d->c[i] / div;
}

static void oa_scenario(FIXTURE_DATA(report) *self, struct oa_expect *e)
{
	struct builder *b = &self->b;
	struct gpuprof_oa_layout l;
	uint8_t prev[256], r[256];
	int k;

	memset(e, 0, sizeof(*e));
	gpuprof_oa_layout(12, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8, &l);
	b_comm(b, 100, "zeta", T0);
	b_comm(b, 200, "beta", T0);
	b_job(b, 100, "i915", "rcs0", 1, 1, T0 + 10 * MS, T0 + 40 * MS);
	b_job(b, 200, "i915", "rcs0", 2, 1, T0 + 30 * MS, T0 + 70 * MS);
	b_job(b, 200, "i915", "bcs0", 3, 1, T0 + 45 * MS, T0 + 55 * MS);
	for (k = 0; k < OA_N; k++) {
		uint64_t gpu_time = 19200000000ull + k * OA_TICKS;
		struct gpuprof_oa_deltas d = { 0 };
		bool delta = k > 0 && k != 51 && oa_ctx(k) == oa_ctx(k - 1);
		int who = k >= 10 && k < 35 ? 0 : k >= 40 && k < 80 && oa_ctx(k) == 0xb ? 1 : 2;

		oa_make(r, k, gpu_time);
		b_oa(b, T0 + k * MS + MS / 2, gpu_time, oa_ctx(k), r);
		if (delta) {
			gpuprof_oa_accumulate(&l, prev, r, &d);
			deltas_add(&e->all, &d, 1);
		}
		memcpy(prev, r, 256);
		if (k >= 35 && k < 40) {
			/* Split between the two, both on rcs0. */
			deltas_add(&e->who[0], &d, 2);
			deltas_add(&e->who[1], &d, 2);
			deltas_add(&e->tl[0], &d, 1);
			e->reports[0]++;
			e->reports[1]++;
			e->tl_reports[0]++;
			continue;
		}
		deltas_add(&e->who[who], &d, 1);
		e->reports[who]++;
		if (who == 2)
			continue;
		if (k >= 45 && k < 55) {
			deltas_add(&e->tl[0], &d, 2);
			deltas_add(&e->tl[1], &d, 2);
			e->tl_reports[0]++;
			e->tl_reports[1]++;
		} else if (k < 70) {
			deltas_add(&e->tl[0], &d, 1);
			e->tl_reports[0]++;
		} else {
			deltas_add(&e->tl[2], &d, 1);
			e->tl_reports[2]++;
		}
	}
	b_lost(b, EV_OA, 3, T0 + 51 * MS);
}

/* "reports gpu_time_ns ticks mhz a0..a35 b0..b7 c0..c7" */
static void oa_line(char *buf, size_t size, uint64_t reports,
		    const struct gpuprof_oa_deltas *d)
{
	/* 99 ms of samples for 99 * 19200 ticks. */
	uint64_t ns = d->timestamp * 99 * MS / (99 * OA_TICKS);
	size_t len;
	int i;

	len = snprintf(buf, size, "%llu %llu %llu %llu", (unsigned long long)reports,
		       (unsigned long long)ns, (unsigned long long)d->gpu_ticks,
		       (unsigned long long)(ns ? d->gpu_ticks * 1000 / ns : 0));
	for (i = 0; i < 36; i++)
		len += snprintf(buf + len, size - len, " %llu", (unsigned long long)d->a[i]);
	for (i = 0; i < 8; i++)
		len += snprintf(buf + len, size - len, " %llu", (unsigned long long)d->b[i]);
	for (i = 0; i < 8; i++)
		len += snprintf(buf + len, size - len, " %llu", (unsigned long long)d->c[i]);
	snprintf(buf + len, size - len, "\n");
}

#define OA_PY(obj) \
	"\" \".join(str(x) for x in [" obj "[\"reports\"], " obj "[\"gpu_time_ns\"], " \
	obj "[\"gpu_clock_ticks\"], " obj "[\"avg_gpu_freq_mhz\"]] + " obj "[\"a\"] + " \
	obj "[\"b\"] + " obj "[\"c\"])"

TEST_F(report, oa_sums_per_client_and_timeline)
{
	struct oa_expect e;
	char want[2048];

	oa_scenario(self, &e);
	WRITE_FILE();
	/* The steps are even: every split is exact. */
	EXPECT_NE(0, e.who[0].a[0]);
	EXPECT_NE(0, e.who[1].c[7]);
	EXPECT_NE(0, e.tl[1].b[3]);
	/* Context changes at reports 10, 35, 40, 70, 75 and 80. */
	EXPECT_QUERY("100 92 3 1 6 19200000", "",
		     "\"%d %d %d %d %d %d\" % (d[\"oa\"][\"reports\"], d[\"oa\"][\"deltas\"], "
		     "d[\"oa\"][\"lost\"], d[\"oa\"][\"dropped_lost\"], "
		     "d[\"oa\"][\"dropped_context_change\"], d[\"oa\"][\"frequency_hz\"])");
	oa_line(want, sizeof(want), e.reports[0], &e.who[0]);
	ASSERT_EQ(0, query(self, "--pid 100", OA_PY("d[\"clients\"][0][\"oa\"]")));
	EXPECT_STREQ(want, self->out);
	oa_line(want, sizeof(want), e.reports[1], &e.who[1]);
	ASSERT_EQ(0, query(self, "--pid 200", OA_PY("d[\"clients\"][0][\"oa\"]")));
	EXPECT_STREQ(want, self->out);
	oa_line(want, sizeof(want), e.reports[2], &e.who[2]);
	ASSERT_EQ(0, query(self, "", OA_PY("d[\"oa\"][\"unattributed\"]")));
	EXPECT_STREQ(want, self->out);
	oa_line(want, sizeof(want), e.tl_reports[0], &e.tl[0]);
	ASSERT_EQ(0, query(self, "--timeline rcs0", OA_PY("d[\"timelines\"][0][\"oa\"]")));
	EXPECT_STREQ(want, self->out);
	oa_line(want, sizeof(want), e.tl_reports[1], &e.tl[1]);
	ASSERT_EQ(0, query(self, "--timeline i915/bcs0", OA_PY("d[\"timelines\"][0][\"oa\"]")));
	EXPECT_STREQ(want, self->out);
	oa_line(want, sizeof(want), e.tl_reports[2], &e.tl[2]);
	ASSERT_EQ(0, query(self, "", OA_PY("d[\"oa\"][\"no_timeline\"]")));
	EXPECT_STREQ(want, self->out);
	/* Everything taken, however shared out. */
	oa_line(want, sizeof(want), OA_N, &e.all);
	ASSERT_EQ(0, query(self, "", OA_PY("d[\"oa\"][\"total\"]")));
	EXPECT_STREQ(want, self->out);
	ASSERT_EQ(0, json_equals_text(self, "")) TH_LOG("%s", self->out);
}

TEST_F(report, filters_choose_rows)
{
	two_clients(self);
	WRITE_FILE();
	EXPECT_QUERY("[200] ['bcs0'] 1", "--pid 200",
		     "[c[\"pid\"] for c in d[\"clients\"]], [t[\"timeline\"] for t in d[\"timelines\"]], "
		     "len(d[\"pairs\"])");
	EXPECT_QUERY("[100] ['rcs0'] 1", "--comm zeta",
		     "[c[\"pid\"] for c in d[\"clients\"]], [t[\"timeline\"] for t in d[\"timelines\"]], "
		     "len(d[\"pairs\"])");
	/* vcs0 has no client's job: not shown with a client filter. */
	EXPECT_QUERY("[100, 200] 2", "--pid 100,200",
		     "[c[\"pid\"] for c in d[\"clients\"]], len(d[\"timelines\"])");
	EXPECT_QUERY("[200] ['bcs0']", "--timeline i915/bcs0",
		     "[c[\"pid\"] for c in d[\"clients\"]], [t[\"timeline\"] for t in d[\"timelines\"]]");
	EXPECT_QUERY("[] ['vcs0'] 0", "--timeline vcs0",
		     "[c[\"pid\"] for c in d[\"clients\"]], [t[\"timeline\"] for t in d[\"timelines\"]], "
		     "len(d[\"pairs\"])");
	/* Totals are the recording's, whatever the rows. */
	EXPECT_QUERY("30 310000000", "--pid 200",
		     "d[\"totals\"][\"jobs\"], d[\"totals\"][\"busy_ns\"]");
	/* A pid that is no number is a usage error. */
	EXPECT_EQ(1, run_cmd(self->out, sizeof(self->out), "%s report -i %s --pid 1x",
			     perf_gpu_path(), self->path));
	EXPECT_STREQ("perf gpu report: --pid: '1x' is not a pid\n", self->out);
}

TEST_F(report, sort_orders)
{
	two_clients(self);
	WRITE_FILE();
	/* zeta: 200 ms busy, 20 jobs, p99 10 ms; beta: 110 ms, 10, 20 ms. */
	EXPECT_QUERY("[100, 200]", "", "[c[\"pid\"] for c in d[\"clients\"]]");
	EXPECT_QUERY("[100, 200]", "--sort busy", "[c[\"pid\"] for c in d[\"clients\"]]");
	EXPECT_QUERY("[100, 200]", "--sort jobs", "[c[\"pid\"] for c in d[\"clients\"]]");
	EXPECT_QUERY("[200, 100]", "--sort latency", "[c[\"pid\"] for c in d[\"clients\"]]");
	EXPECT_QUERY("[100, 200]", "--sort pid", "[c[\"pid\"] for c in d[\"clients\"]]");
	EXPECT_QUERY("[200, 100]", "--sort comm", "[c[\"pid\"] for c in d[\"clients\"]]");
	EXPECT_QUERY("['bcs0', 'rcs0', 'vcs0']", "--sort comm",
		     "[t[\"timeline\"] for t in d[\"timelines\"]]");
	EXPECT_QUERY("['bcs0', 'rcs0']", "--sort latency",
		     "[p[\"timeline\"] for p in d[\"pairs\"]]");
	EXPECT_EQ(1, run_cmd(self->out, sizeof(self->out), "%s report -i %s --sort size",
			     perf_gpu_path(), self->path));
	EXPECT_STREQ("perf gpu report: unknown sort key 'size' (busy,jobs,latency,pid,comm,cgroup)\n",
		     self->out);
	EXPECT_EQ(1, run_cmd(self->out, sizeof(self->out), "%s report -i %s --format=xml",
			     perf_gpu_path(), self->path));
	EXPECT_STREQ("perf gpu report: unknown format 'xml' (text,csv,json)\n", self->out);
}

/*
 * Cgroups: 100 and 101 in /a (id 10), their jobs overlapping (busy the
 * union, 15 ms, not the sum, 20); 200 in id 20, which no CGROUP record
 * names; 300 in none (an older recording's samples).  --sort cgroup and
 * --cgroup choose and group rows, never change figures.
 */
TEST_F(report, cgroups_group_filter_and_union_busy_time)
{
	b_cgroup(&self->b, 10, "/a", T0);
	b_cgroup(&self->b, 11, "/ab", T0);
	b_in_cgroup(&self->b, 100, 10);
	b_in_cgroup(&self->b, 101, 10);
	b_in_cgroup(&self->b, 200, 20);
	b_comm(&self->b, 100, "one", T0);
	b_comm(&self->b, 101, "two", T0);
	b_comm(&self->b, 200, "unnamed", T0);
	b_comm(&self->b, 300, "old", T0);
	b_init(&self->b, 100, 100, "i915", "rcs0", 1, 1, T0);
	b_init(&self->b, 101, 101, "i915", "bcs0", 2, 1, T0 + 5 * MS);
	b_signal(&self->b, "i915", "rcs0", 1, 1, T0 + 10 * MS);
	b_signal(&self->b, "i915", "bcs0", 2, 1, T0 + 15 * MS);
	b_init(&self->b, 200, 200, "i915", "rcs0", 3, 1, T0 + 20 * MS);
	b_signal(&self->b, "i915", "rcs0", 3, 1, T0 + 24 * MS);
	b_init(&self->b, 300, 300, "i915", "rcs0", 4, 1, T0 + 30 * MS);
	b_signal(&self->b, "i915", "rcs0", 4, 1, T0 + 31 * MS);
	WRITE_FILE();

	EXPECT_QUERY("[(\'/a\', 10, 2, 2, 15000000), (None, 20, 1, 1, 4000000)]", "",
		     "[(g[\"cgroup\"], g[\"id\"], g[\"clients\"], g[\"jobs\"], g[\"busy_ns\"]) for g in d[\"cgroups\"]]");
	EXPECT_QUERY("[(100, \'/a\'), (101, \'/a\'), (200, None), (300, None)]", "--sort pid",
		     "[(c[\"pid\"], c[\"cgroup\"]) for c in d[\"clients\"]]");
	/* A subtree: /a holds its clients, not /ab's nor the others. */
	EXPECT_QUERY("[100, 101] [\'/a\']", "--cgroup /a --sort pid",
		     "[c[\"pid\"] for c in d[\"clients\"]], [g[\"cgroup\"] for g in d[\"cgroups\"]]");
	EXPECT_QUERY("[]", "--cgroup /ab", "[c[\"pid\"] for c in d[\"clients\"]]");
	/* A client filter like --comm: only the timelines its clients used. */
	EXPECT_QUERY("[]", "--cgroup /ab", "[t[\"timeline\"] for t in d[\"timelines\"]]");
	EXPECT_QUERY("[\'bcs0\', \'rcs0\']", "--cgroup /a",
		     "sorted(t[\"timeline\"] for t in d[\"timelines\"])");
	EXPECT_QUERY("[100, 101]", "--cgroup / --sort pid", "[c[\"pid\"] for c in d[\"clients\"]]");
	/* Filters choose rows: the totals stay the whole recording's. */
	EXPECT_QUERY("4", "--cgroup /a", "d[\"totals\"][\"jobs\"]");

	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s report -i %s --sort cgroup --format=csv | grep -v '^# '",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_STREQ("cgroup,clients,jobs,unsignaled,busy_ns,share_pct,latency_p50_ns,"
		     "latency_p90_ns,latency_p99_ns,latency_max_ns,queue_p50_ns,queue_p99_ns,"
		     "run_p50_ns,run_p99_ns\n"
		     "/a,2,2,0,15000000,48.38,10000000,10000000,10000000,10000000,0,0,10000000,10000000\n"
		     "#20,1,1,0,4000000,12.90,4000000,4000000,4000000,4000000,0,0,4000000,4000000\n",
		     self->out);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s report -i %s --sort cgroup --totals | grep -A6 '^Clients'",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "  10.00 ms /a\n    101 two")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "   1.00 ms -\n        total")) TH_LOG("%s", self->out);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s report -i %s --sort cgroup --totals | grep -A3 '^Cgroups'",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "\n      2        2          0    15.00 ms  48.38%"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "    4.00 ms #20\n")) TH_LOG("%s", self->out);

	/* A relative path is no cgroup: one line, status 1. */
	EXPECT_EQ(1, run_cmd(self->out, sizeof(self->out), "%s report -i %s --cgroup a",
			     perf_gpu_path(), self->path));
	EXPECT_STREQ("perf gpu report: --cgroup: 'a' is not a cgroup path (it starts with /)\n",
		     self->out);
}

TEST_F(report, csv_header_and_one_row_per_pair)
{
	char want[4096], beta[256], cpu[192];
	struct perf_machine mach;
	struct utsname u;

	two_clients(self);
	WRITE_FILE();
	ASSERT_EQ(0, uname(&u));
	/* beta's percentiles as the JSON has them: the CSV must agree. */
	ASSERT_EQ(0, query(self, "--pid 200",
			   "\",\".join([str(d[\"pairs\"][0][\"latency_ns\"][k]) for k in "
			   "(\"p50\", \"p90\", \"p99\", \"max\")] + "
			   "[str(d[\"pairs\"][0][s][k]) for s in (\"queue_ns\", \"run_ns\") "
			   "for k in (\"p50\", \"p99\")])"));
	snprintf(beta, sizeof(beta), "%.*s", (int)strcspn(self->out, "\n"), self->out);
	/* The writer describes the CPUs it runs on, as cpuinfo names them. */
	perf_machine_read(&mach, "/proc/cpuinfo", "/proc/meminfo");
	snprintf(cpu, sizeof(cpu), "# CPU: %s, %ld of %ld CPUs online\n",
		 mach.cpudesc[0] ? mach.cpudesc : "model unknown",
		 sysconf(_SC_NPROCESSORS_ONLN), sysconf(_SC_NPROCESSORS_CONF));
	/* Into a pipe: plain numbers; the system is what the file says. */
	snprintf(want, sizeof(want),
		 "# system: Linux %s %s %s\n"
		 "%s"
		 "# GPU: i915 (rcs0, bcs0, vcs0)\n"
		 "# OA: none\n"
		 "# recording: %s, span 1000000000 ns, 64 events, 0 lost\n"
		 "pid,comm,driver,timeline,jobs,unsignaled,busy_ns,share_pct,"
		 "latency_p50_ns,latency_p90_ns,latency_p99_ns,latency_max_ns,"
		 "queue_p50_ns,queue_p99_ns,run_p50_ns,run_p99_ns,cgroup,client_name\n"
		 "100,zeta,i915,rcs0,20,1,200000000,20.00,10000000,10000000,10000000,10000000,"
		 "0,0,10000000,10000000,,\n"
		 "200,beta,i915,bcs0,10,0,110000000,11.00,%s,,\n",
		 u.nodename, u.release, u.machine, cpu, self->path, beta);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report -i %s --format=csv",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_STREQ(want, self->out);
	/* On a terminal: units to read (script(1) gives a pty). */
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "script -qec '%s report -i %s --format=csv' /dev/null",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "\n100,zeta,i915,rcs0,20,1,200.00 ms,20.00%,"
			       "10.00 ms,10.00 ms,10.00 ms,10.00 ms,0 ns,0 ns,10.00 ms,10.00 ms,,\r\n"))
		TH_LOG("%s", self->out);
}

/*
 * Saturation: two jobs of one client, each of nearly 2^64 ns, on two
 * contexts: the latency sum saturates at 2^64 - 1 (mean 2^63 - 1)
 * instead of wrapping (mean 2^63 - 2); busy, the union, is exact.
 */
TEST_F(report, times_saturate)
{
	b_init(&self->b, 800, 800, "vgem", "x", 1, 1, 0);
	b_init(&self->b, 800, 800, "vgem", "x", 2, 1, 1);
	b_signal(&self->b, "vgem", "x", 1, 1, UINT64_MAX - 1);
	b_signal(&self->b, "vgem", "x", 2, 1, UINT64_MAX);
	WRITE_FILE();
	EXPECT_QUERY("2 18446744073709551615 9223372036854775807 100.0", "",
		     "\"%d %d %d %s\" % (d[\"clients\"][0][\"jobs\"], d[\"clients\"][0][\"busy_ns\"], "
		     "d[\"clients\"][0][\"latency_ns\"][\"mean\"], d[\"clients\"][0][\"share_pct\"])");
}

TEST_F(report, empty_recording)
{
	char want[1024];

	WRITE_FILE();
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report -i %s",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "# span: 0 ns, 0 events\n"));
	EXPECT_NE(NULL, strstr(self->out, "   (no drm:drm_vblank_event)\n"));
	EXPECT_NE(NULL, strstr(self->out, "   (no gpu_oa:oa_report)\n"));
	EXPECT_QUERY("0 0 [] [] [] [] 0", "",
		     "d[\"events\"], d[\"span_ns\"], d[\"clients\"], d[\"timelines\"], d[\"pairs\"], "
		     "d[\"frames\"], d[\"oa\"][\"reports\"]");
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report -i %s --format=csv | tail -4",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	snprintf(want, sizeof(want),
		 "# GPU: none seen\n"
		 "# OA: none\n"
		 "# recording: %s, span 0 ns, 0 events, 0 lost\n"
		 "pid,comm,driver,timeline,jobs,unsignaled,busy_ns,share_pct,"
		 "latency_p50_ns,latency_p90_ns,latency_p99_ns,latency_max_ns,"
		 "queue_p50_ns,queue_p99_ns,run_p50_ns,run_p99_ns,cgroup,client_name\n", self->path);
	EXPECT_STREQ(want, self->out);
}

TEST_F(report, only_oa_and_lost_events)
{
	uint8_t r[256];
	int k;

	for (k = 0; k < 10; k++) {
		oa_make(r, k, 19200000000ull + k * OA_TICKS);
		b_oa(&self->b, T0 + k * MS, 19200000000ull + k * OA_TICKS,
		     GPUPROF_OA_NO_CONTEXT, r);
	}
	b_lost(&self->b, EV_OA, 4, T0 + 5 * MS + 1);
	b_lost(&self->b, EV_SIG, 2, T0 + 6 * MS);
	WRITE_FILE();
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report -i %s",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "# lost: 2 dma_fence:dma_fence_signaled\n# lost: 4 gpu_oa:oa_report\n"))
		TH_LOG("%s", self->out);
	EXPECT_QUERY("6 {'dma_fence:dma_fence_signaled': 2, 'gpu_oa:oa_report': 4} 10 8 10 0", "",
		     "d[\"lost\"][\"total\"], d[\"lost\"][\"events\"], d[\"oa\"][\"reports\"], "
		     "d[\"oa\"][\"deltas\"], d[\"oa\"][\"unattributed\"][\"reports\"], "
		     "d[\"totals\"][\"jobs\"]");
}

/* A format without a field the report reads: the event is not used. */
TEST_F(report, format_missing_a_field)
{
	static const char init_no_seqno[] =
		"name: dma_fence_init\n"
		"ID: 588\n"
		"format:\n"
		COMMON_FORMAT_FIELDS
		"\tfield:__data_loc char[] driver;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:__data_loc char[] timeline;\toffset:12;\tsize:4;\tsigned:1;\n"
		"\tfield:unsigned int context;\toffset:16;\tsize:4;\tsigned:0;\n"
		"\tfield:unsigned int seq;\toffset:20;\tsize:4;\tsigned:0;\n"
		"\n"
		"print fmt: \"driver=%s timeline=%s context=%u seq=%u\", "
		"__get_str(driver), __get_str(timeline), REC->context, REC->seq\n";
	struct tracing_data *td = tracing_data_new();
	struct gpu_synth_ids ids;

	ASSERT_NE(NULL, td);
	ASSERT_EQ(FENCE_INIT_ID, tracing_data_add_format(td, "dma_fence", init_no_seqno,
							strlen(init_no_seqno)));
	ASSERT_EQ(FENCE_ID, tracing_data_add_format(td, "dma_fence", fence_format,
						    strlen(fence_format)));
	ASSERT_EQ(FENCE_DESTROY_ID, tracing_data_add_format(td, "dma_fence", fence_destroy_format,
							    strlen(fence_destroy_format)));
	ASSERT_EQ(VBLANK_ID, tracing_data_add_format(td, "drm", vblank_format,
						     strlen(vblank_format)));
	ASSERT_EQ(MARK_ID, tracing_data_add_format(td, "gpuprof", mark_format,
						   strlen(mark_format)));
	ASSERT_EQ(0, tracing_data_add_synthetic(td, &ids));
	free(self->tracing);
	self->tracing = tracing_data_build(td, &self->tracing_len);
	tracing_data_free(td);
	ASSERT_NE(NULL, self->tracing);
	self->b.ids = ids;
	b_job(&self->b, 900, "i915", "rcs0", 1, 1, T0, T0 + MS);
	WRITE_FILE();
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report -i %s",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out,
			       "# note: dma_fence:dma_fence_init: format has no field seqno: not used\n"))
		TH_LOG("%s", self->out);
	EXPECT_QUERY("0 1", "", "d[\"totals\"][\"jobs\"], d[\"totals\"][\"unmatched\"]");
}

/* perf gpu report on @path: see one_error_line(). */
static int check_one(FIXTURE_DATA(report) *self, const char *path, char *why,
		     size_t why_size)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd),
		 "{ timeout 10 %s report -i %s --format=json 2>&1 >/dev/null; }",
		 perf_gpu_path(), path);
	return one_error_line("report", path, cmd, self->out, sizeof(self->out),
			      why, why_size);
}

/* A small recording of every kind of event. */
static void small_file(FIXTURE_DATA(report) *self)
{
	uint8_t r[256];
	int k;

	b_comm(&self->b, 100, "zeta", T0);
	for (k = 0; k < 4; k++) {
		b_job(&self->b, 100, "i915", "rcs0", 1, k + 1, T0 + k * MS, T0 + k * MS + MS / 2);
		b_vblank(&self->b, 0, k, T0 + k * MS, T0 + k * MS + 1);
		oa_make(r, 10 + k, 19200000000ull + k * OA_TICKS);
		b_oa(&self->b, T0 + k * MS + 2, 19200000000ull + k * OA_TICKS, 0xa, r);
	}
	b_mark(&self->b, 100, "begin frame", T0 + 5 * MS);
	b_lost(&self->b, EV_OA, 1, T0 + 5 * MS);
}

/* The header, ids, attrs and the first records: every byte. */
#define DENSE 1400

static int check_cb(void *self, const char *path, char *why, size_t why_size)
{
	return check_one(self, path, why, why_size);
}

TEST_F_TIMEOUT(report, cut_files_give_one_error_line, 1200)
{
	struct corrupt_run r;
	char cut[160], why[256];
	uint8_t *file;
	size_t len;

	small_file(self);
	WRITE_FILE();
	file = slurp(self->path, &len);
	ASSERT_NE(NULL, file);
	ASSERT_LT(DENSE, len);
	snprintf(cut, sizeof(cut), "%s/cut.data", self->dir);
	EXPECT_EQ(0, corrupt_cuts(file, len, DENSE, cut, check_cb, self, &r))
		TH_LOG("cut at %zu: %s", r.at, r.why);
	EXPECT_EQ(r.runs, r.errors);
	EXPECT_EQ(0, check_one(self, self->path, why, sizeof(why))) TH_LOG("%s", why);
	TH_LOG("%d cuts, %d errors (dense part: every %zu from %zu)",
	       r.runs, r.errors, r.stride, r.first);
	free(file);
}

TEST_F_TIMEOUT(report, flipped_bytes_never_crash, 1200)
{
	struct corrupt_run r;
	char bad[160];
	uint8_t *file;
	size_t len;

	small_file(self);
	WRITE_FILE();
	file = slurp(self->path, &len);
	ASSERT_NE(NULL, file);
	snprintf(bad, sizeof(bad), "%s/bad.data", self->dir);
	EXPECT_EQ(0, corrupt_flips(file, len, DENSE, 3, bad, check_cb, self, &r))
		TH_LOG("flip at %zu: %s", r.at, r.why);
	TH_LOG("%d flips, %d errors (dense part: every %zu from %zu)",
	       r.runs, r.errors, r.stride, r.first);
	free(file);
}

TEST_F(report, not_a_file)
{
	char why[256];

	EXPECT_EQ(1, check_one(self, "/nonexistent/perf.data", why, sizeof(why)))
		TH_LOG("%s", why);
	EXPECT_EQ(1, check_one(self, "/dev/null", why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(1, check_one(self, self->dir, why, sizeof(why))) TH_LOG("%s", why);
}

/*
 * Ranges: pid 100 marks "frame" over 25 ms holding two overlapping jobs
 * (one ends after it), "outer" around "inner" around part of a job, an
 * "end" with no begin and a "dangling" begin; pid 200's job in the
 * same time is not pid 100's; two OA reports 12 ms apart inside the
 * frame; a --range pair made of pid 300's init and destroy.
 */
TEST_F(report, ranges_from_marks_and_event_pairs)
{
	struct builder *b = &self->b;
	uint8_t r[256], buf[256];

	b_comm(b, 100, "marker", T0);
	b_comm(b, 200, "other", T0);
	b_comm(b, 300, "paired", T0);
	b_mark(b, 100, "begin frame", T0);
	b_job(b, 200, "i915", "rcs0", 9, 1, T0 + 5 * MS, T0 + 24 * MS);
	oa_make(r, 0, 19200000000ull);
	b_oa(b, T0 + 6 * MS, 19200000000ull, GPUPROF_OA_NO_CONTEXT, r);
	b_job(b, 100, "i915", "rcs0", 1, 1, T0 + 10 * MS, T0 + 20 * MS);
	b_job(b, 100, "i915", "bcs0", 2, 1, T0 + 15 * MS, T0 + 30 * MS);
	oa_make(r, 1, 19200000000ull + 12 * OA_TICKS);
	b_oa(b, T0 + 18 * MS, 19200000000ull + 12 * OA_TICKS, GPUPROF_OA_NO_CONTEXT, r);
	b_mark(b, 100, "end frame", T0 + 25 * MS);
	b_mark(b, 100, "begin outer", T0 + 40 * MS);
	b_job(b, 100, "i915", "rcs0", 3, 1, T0 + 45 * MS, T0 + 60 * MS);
	b_mark(b, 100, "begin inner", T0 + 50 * MS);
	b_mark(b, 100, "end inner", T0 + 55 * MS);
	b_mark(b, 100, "end outer", T0 + 70 * MS);
	b_mark(b, 100, "end nothing", T0 + 71 * MS);
	b_mark(b, 100, "begin dangling", T0 + 72 * MS);
	b_init(b, 300, 300, "i915", "vcs0", 7, 1, T0 + 100 * MS);
	b_sample(b, EV_DESTROY, 300, 300, T0 + 130 * MS, buf,
		 fence_class_payload(buf, FENCE_DESTROY_ID, 300, "i915", "vcs0", 7, 1));
	WRITE_FILE();

	/* name count unclosed elapsed min max gpu busy */
#define RANGES_PY "\"\\n\".join(\"%s %d %d %d %d %d %d %d\" % (x[\"name\"], x[\"count\"], " \
	"x[\"unclosed\"], x[\"elapsed_ns\"], x[\"elapsed_min_ns\"], x[\"elapsed_max_ns\"], " \
	"x[\"gpu_ns\"], x[\"busy_ns\"]) for x in d[\"ranges\"])"
	EXPECT_QUERY("frame 1 0 25000000 25000000 25000000 12000000 15000000\n"
		     "outer 1 0 30000000 30000000 30000000 0 15000000\n"
		     "inner 1 0 5000000 5000000 5000000 0 5000000\n"
		     "dangling 0 1 0 0 0 0 0",
		     "", RANGES_PY);
	EXPECT_QUERY("1 0 1", "", "\"%d %d %d\" % (d[\"marks\"][\"unmatched_ends\"], "
		     "d[\"marks\"][\"dropped\"], [x for x in d[\"ranges\"] "
		     "if x[\"name\"] == \"frame\"][0][\"oa\"][\"reports\"])");
	/*
	 * The pair's range: pid 300's init to its destroy.  The inits of
	 * pids 100 (three) and 200 (one) begin ranges no destroy of theirs
	 * ends.
	 */
	EXPECT_QUERY("dma_fence:dma_fence_init,dma_fence:dma_fence_destroy 1 4 30000000 30000000 30000000 0 0",
		     "--range=dma_fence:dma_fence_init,dma_fence:dma_fence_destroy",
		     "\"\\n\".join(\"%s %d %d %d %d %d %d %d\" % (x[\"name\"], x[\"count\"], "
		     "x[\"unclosed\"], x[\"elapsed_ns\"], x[\"elapsed_min_ns\"], "
		     "x[\"elapsed_max_ns\"], x[\"gpu_ns\"], x[\"busy_ns\"]) "
		     "for x in d[\"ranges\"] if x[\"name\"].startswith(\"dma\"))");
	/* Instances, each as marked. */
	EXPECT_QUERY("frame 100 0 25000000\nouter 100 40000000 70000000\n"
		     "inner 100 50000000 55000000\ndangling 100 72000000 0", "",
		     "\"\\n\".join(\"%s %d %d %d\" % (x[\"name\"], x[\"pid\"], "
		     "x[\"begin_ns\"] - 1000000000, max(x[\"end_ns\"] - 1000000000, 0)) "
		     "for x in d[\"range_instances\"])");
	/* The text report's table. */
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report -i %s",
			     perf_gpu_path(), self->path));
	EXPECT_NE(NULL, strstr(self->out, "\nRanges\n")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "# dangling: 1 begun and never ended\n"))
		TH_LOG("%s", self->out);
	/* A malformed pair is a usage error. */
	EXPECT_EQ(1, run_cmd(self->out, sizeof(self->out), "%s report -i %s --range=a,b",
			     perf_gpu_path(), self->path));
	EXPECT_NE(NULL, strstr(self->out, "--range wants")) TH_LOG("%s", self->out);
}

TEST_HARNESS_MAIN
