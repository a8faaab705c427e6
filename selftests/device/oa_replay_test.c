// SPDX-License-Identifier: GPL-2.0-only
/*
 * Replaying a simulated recording (gpuprof-oa --sim) with "cat rec >
 * /dev/gpuprof/oa" after a vgem fence of a named target ran: the target
 * gets exactly the counter deltas that the module's rules give it, which
 * the test works out itself from the recording (decoded with the shared
 * decoder) and from the fence's running interval (its ends bracketed in
 * tracefs, on the CLOCK_MONOTONIC trace clock, by the ioctls that made
 * and signalled it).  The recording starts before the fence and ends
 * after it.  And a recording of reports 10 us apart, each simulated
 * context bound to a target of its own, against the pairs' sums.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/oa_file.h"
#include "../lib/fixture.h"
#include "../lib/trace.h"
#include "../../module/oa_decode.h"
#include "../../tools/perf-gpu/oa/sim.h"

#define REC "/tmp/gpuprof_replay.rec"
/*
 * The module stamps a fence's start and end in its own probes, not in
 * the trace events; both run inside the ioctl that made or signalled the
 * fence, so its stamp lies between that ioctl's sys_enter and sys_exit
 * (a vCPU descheduled by a busy host can stretch that to milliseconds:
 * once a report 10 ms from the trace event's time fell on the wrong
 * side).  No report may lie in either window; the slack covers the
 * trace's microsecond print and the trace clock's fast read.
 */
#define SLACK_NS 20000ull

struct window {
	uint64_t lo, hi;
};

#define IOCTL_ENTER "sys_enter: NR 16 "	/* x86-64's ioctl */
#define IOCTL_EXIT "sys_exit: NR 16 "
#define MAX_LINES 16384

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/*
 * The window of the ioctl around the first @event line: its task's
 * latest ioctl entry before it, and first ioctl exit after it.
 */
static int ioctl_window(const struct trace_line *l, int n, const char *event,
			struct window *w)
{
	int i, j;

	for (i = 0; i < n && !starts(l[i].event, event); i++)
		;
	if (i == n)
		return -1;
	for (j = i - 1; j >= 0; j--)
		if (!strcmp(l[j].task, l[i].task) && starts(l[j].event, IOCTL_ENTER))
			break;
	if (j < 0)
		return -1;
	w->lo = l[j].ns;
	for (j = i + 1; j < n; j++)
		if (!strcmp(l[j].task, l[i].task) && starts(l[j].event, IOCTL_EXIT))
			break;
	if (j == n)
		return -1;
	w->hi = l[j].ns;
	return 0;
}

/* The windows of the vgem fence's start and end, from tracefs. */
static int fence_windows(struct window *start, struct window *end)
{
	static struct trace_line lines[MAX_LINES];
	static char buf[1 << 21];
	char *line, *next;
	int n = 0;

	if (read_file(TRACING "/trace", buf, sizeof(buf)) <= 0)
		return -1;
	for (line = buf; line && *line && n < MAX_LINES; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (trace_parse_line(line, &lines[n]))
			n++;
	}
	if (ioctl_window(lines, n, "dma_fence_init: driver=vgem", start) ||
	    ioctl_window(lines, n, "dma_fence_signaled: driver=vgem", end))
		return -1;
	return start->hi < end->lo ? 0 : -1;
}

/*
 * A recording decoded here as the module reads it (module/oa.c): reports
 * placed through the correlation points, and pairs of the same context
 * summed one by one, each pair's OA time turned into ns on its own.
 */
struct pairs {
	struct gpuprof_oa_clock clock;
	bool have_ts, have_prev;
	uint64_t last_ts;
	struct gpuprof_oa_report prev;
	uint8_t prev_report[GPUPROF_OA_REPORT_MAX];
};

/*
 * Take record @h: true for a report that can be placed, its header in
 * @r and its CLOCK_MONOTONIC time in @t.  pairs_next() must follow.
 */
static bool pairs_take(struct pairs *p, const struct gpuprof_oa_stream *s,
		       const struct gpuprof_oa_record_header *h,
		       const void *payload, struct gpuprof_oa_report *r,
		       __u64 *t)
{
	const struct gpuprof_oa_correlation *c = payload;
	__u64 ts;

	if (h->type == GPUPROF_OA_RECORD_DEVICE_INFO)
		gpuprof_oa_clock_init(&p->clock, s->info.timestamp_frequency);
	if (h->type == GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION &&
	    !gpuprof_oa_clock_add(&p->clock, c->cpu_timestamp, c->gpu_timestamp) &&
	    !p->have_ts) {
		p->last_ts = c->gpu_timestamp;
		p->have_ts = true;
	}
	if (h->type != GPUPROF_OA_RECORD_SAMPLE || !p->have_ts)
		return false;
	gpuprof_oa_report_header(&s->layout, payload, r);
	ts = gpuprof_oa_unwrap(p->last_ts, r->timestamp, s->layout.ts_bits);
	p->last_ts = ts;
	gpuprof_oa_clock_to_cpu(&p->clock, ts, t);
	return true;
}

/* Add to @got the pair the report @r at @payload ends, if it is one. */
static void pairs_add(const struct pairs *p, const struct gpuprof_oa_stream *s,
		      const struct gpuprof_oa_report *r, const void *payload,
		      struct gpuprof_oa_deltas *got)
{
	struct gpuprof_oa_deltas d = {};
	int i;

	if (!p->have_prev || p->prev.ctx_id != r->ctx_id)
		return;
	gpuprof_oa_accumulate(&s->layout, p->prev_report, payload, &d);
	got->timestamp += gpuprof_oa_ticks_to_ns(d.timestamp,
						 s->info.timestamp_frequency);
	got->gpu_ticks += d.gpu_ticks;
	for (i = 0; i < GPUPROF_OA_A_COUNTERS; i++)
		got->a[i] += d.a[i];
	for (i = 0; i < 8; i++) {
		got->b[i] += d.b[i];
		got->c[i] += d.c[i];
	}
}

/* The report @r at @payload is the previous one from now on. */
static void pairs_next(struct pairs *p, const struct gpuprof_oa_stream *s,
		       const struct gpuprof_oa_report *r, const void *payload)
{
	memcpy(p->prev_report, payload, s->layout.size);
	p->prev = *r;
	p->have_prev = true;
}

/* Target @id's counters file against @want, counter by counter. */
static void counters_match(struct __test_metadata *_metadata, int id,
			   const struct gpuprof_oa_deltas *want)
{
	char name[16];
	int i;

	EXPECT_EQ((long long)want->timestamp, oa_counter(id, "gpu_time_ns"))
		TH_LOG("target %d", id);
	EXPECT_EQ((long long)want->gpu_ticks, oa_counter(id, "gpu_clock_ticks"));
	for (i = 0; i < 36; i++) {
		snprintf(name, sizeof(name), "a%d", i);
		EXPECT_EQ((long long)want->a[i], oa_counter(id, name))
			TH_LOG("target %d %s", id, name);
	}
	for (i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "b%d", i);
		EXPECT_EQ((long long)want->b[i], oa_counter(id, name));
		snprintf(name, sizeof(name), "c%d", i);
		EXPECT_EQ((long long)want->c[i], oa_counter(id, name));
	}
	EXPECT_LT(0, want->a[0]);
}

/* What the module should make of the recording; see module/oa.c. */
struct expect {
	struct window start, end;	/* of the fence, see above */
	struct pairs p;
	uint32_t learned[64];
	int nlearned;
	struct gpuprof_oa_deltas got;	/* timestamp in ns, as the module */
	uint64_t reports, unattributed, near_edges;
};

static bool learned(struct expect *e, uint32_t ctx)
{
	for (int i = 0; i < e->nlearned; i++)
		if (e->learned[i] == ctx)
			return true;
	return false;
}

static void on_record(void *arg, const struct gpuprof_oa_stream *s,
		      const struct gpuprof_oa_record_header *h,
		      const void *payload)
{
	struct expect *e = arg;
	struct gpuprof_oa_report r;
	bool ours;
	__u64 t;

	if (!pairs_take(&e->p, s, h, payload, &r, &t))
		return;
	if ((t + SLACK_NS >= e->start.lo && t <= e->start.hi + SLACK_NS) ||
	    (t + SLACK_NS >= e->end.lo && t <= e->end.hi + SLACK_NS))
		e->near_edges++;

	/* Bound by learning, else running at t: one target, ours. */
	ours = (r.ctx_id != GPUPROF_OA_NO_CONTEXT && learned(e, r.ctx_id)) ||
	       (t > e->start.hi && t < e->end.lo);
	if (ours && r.ctx_id != GPUPROF_OA_NO_CONTEXT && !learned(e, r.ctx_id))
		e->learned[e->nlearned++] = r.ctx_id;
	if (ours) {
		e->reports++;
		pairs_add(&e->p, s, &r, payload, &e->got);
	} else {
		e->unattributed++;
	}
	pairs_next(&e->p, s, &r, payload);
}

static int expect_from(const char *path, struct expect *e)
{
	static uint8_t buf[GPUPROF_OA_RECORD_MAX];
	struct gpuprof_oa_stream s;

	return oa_file_parse(path, &s, buf, on_record, e);
}

TEST_F_TIMEOUT(gp, replay_gives_the_target_the_deltas_of_its_interval, 120)
{
	const unsigned int hold_ms = 1500 * gpuprof_time_scale();
	struct expect *e = calloc(1, sizeof(*e));
	uint64_t start, window, period, margin, duration;
	char cmd[PATH_MAX * 2], args[64];
	int id, tries, ran;

	ASSERT_EQ(0, write_file(TRACING "/trace_clock", "mono"));
	ASSERT_EQ(0, trace_clear());
	ASSERT_EQ(0, write_file(TRACING "/events/dma_fence/dma_fence_init/enable", "1"));
	ASSERT_EQ(0, write_file(TRACING "/events/dma_fence/dma_fence_signaled/enable", "1"));
	ASSERT_EQ(0, write_file(TRACING "/events/raw_syscalls/filter", "id == 16"));
	ASSERT_EQ(0, write_file(TRACING "/events/raw_syscalls/enable", "1"));
	ASSERT_EQ(0, ctl("module oa_replay\n"));
	ASSERT_EQ(0, ctl("startcp\n"));
	snprintf(args, sizeof(args), "-n oa_replay fences 1 %u", hold_ms);
	ran = gpuwork(args);
	write_file(TRACING "/events/raw_syscalls/enable", "0");
	write_file(TRACING "/events/raw_syscalls/filter", "0");
	write_file(TRACING "/events/dma_fence/enable", "0");
	ASSERT_EQ(0, ran);
	ASSERT_EQ(0, fence_windows(&e->start, &e->end));
	TH_LOG("the module stamped the fence's start within %llu us, its end within %llu us",
	       (unsigned long long)(e->start.hi - e->start.lo) / 1000,
	       (unsigned long long)(e->end.hi - e->end.lo) / 1000);
	id = find_target("oa_replay");
	ASSERT_LT(0, id);

	/*
	 * Two contexts taking turns, from before the fence to after it;
	 * shifted until no report lies in the window of either end.  The
	 * period is 50 ms, or longer when a window is wider than half of
	 * it (77 ms was seen on the debug kernel under load, where no shift
	 * could clear both ends), and the margins grow with it.
	 */
	window = e->start.hi - e->start.lo;
	if (e->end.hi - e->end.lo > window)
		window = e->end.hi - e->end.lo;
	for (period = 50000000ull; period < 2 * window + 10000000ull; )
		period *= 2;
	margin = 10 * period;
	duration = hold_ms * 1000000ull + 2 * margin;
	for (tries = 0; tries < 16; tries++) {
		struct expect keep = *e;

		start = e->start.lo - margin + tries * (period / 15);
		snprintf(cmd, sizeof(cmd),
			 "%s --sim --seed 7 --contexts 2 --period %llu "
			 "--duration %llu.%09llu --start-ns %llu -o " REC,
			 gpuprof_oa_path(), (unsigned long long)period,
			 (unsigned long long)(duration / 1000000000ull),
			 (unsigned long long)(duration % 1000000000ull),
			 (unsigned long long)start);
		ASSERT_EQ(0, system(cmd));
		memset(e, 0, sizeof(*e));
		e->start = keep.start;
		e->end = keep.end;
		ASSERT_EQ(0, expect_from(REC, e));
		if (!e->near_edges)
			break;
	}
	ASSERT_EQ(0, e->near_edges);
	TH_LOG("fence ran %llu ns; %llu reports ours, %llu no one's",
	       (unsigned long long)(e->end.lo - e->start.hi),
	       (unsigned long long)e->reports, (unsigned long long)e->unattributed);
	ASSERT_LT(10, e->reports);
	ASSERT_LT(5, e->unattributed);

	snprintf(cmd, sizeof(cmd), "cat " REC " > " GP "/oa");
	ASSERT_EQ(0, system(cmd));
	EXPECT_EQ((long long)e->reports, oa_counter(id, "reports"));
	EXPECT_EQ((long long)e->unattributed, status_num("oa_unattributed_reports"));
	counters_match(_metadata, id, &e->got);
	write_file(TRACING "/trace_clock", "local");
	free(e);
}

/*
 * Pairwise sums for the targets bound to the simulator's two contexts
 * (the module takes such runs from their first report to their last:
 * module/oa.c, "Runs of reports to one target").
 */
struct bound {
	struct pairs p;
	struct gpuprof_oa_deltas got[2];	/* timestamp in ns */
	uint64_t reports[2], unattributed;
};

static void on_bound_record(void *arg, const struct gpuprof_oa_stream *s,
			    const struct gpuprof_oa_record_header *h,
			    const void *payload)
{
	struct gpuprof_oa_report r;
	struct bound *e = arg;
	int k = -1, i;
	__u64 t;

	if (!pairs_take(&e->p, s, h, payload, &r, &t))
		return;
	for (i = 0; i < 2; i++)
		if (r.ctx_id != GPUPROF_OA_NO_CONTEXT &&
		    (OA_SIM_CTX(i) & s->layout.ctx_mask) == r.ctx_id)
			k = i;
	if (k < 0) {
		e->unattributed++;
	} else {
		e->reports[k]++;
		pairs_add(&e->p, s, &r, payload, &e->got[k]);
	}
	pairs_next(&e->p, s, &r, payload);
}

/*
 * 0.2 s of reports 10 us apart, as make bench's ingest: two contexts
 * taking turns and idle stretches.  Each bound target gets exactly the
 * sums of its pairs, though the module takes a run's deltas at once.
 */
TEST_F_TIMEOUT(gp, bound_contexts_get_their_pairs_sums_at_10_us, 120)
{
	static uint8_t buf[GPUPROF_OA_RECORD_MAX];
	struct bound *e = calloc(1, sizeof(*e));
	struct gpuprof_oa_stream s;
	char cmd[PATH_MAX * 2], path[64], bind[16];
	int id[2], k;

	ASSERT_NE(NULL, e);
	ASSERT_EQ(0, ctl("module oa_ctx_a oa_ctx_b\n"));
	for (k = 0; k < 2; k++) {
		id[k] = find_target(k ? "oa_ctx_b" : "oa_ctx_a");
		ASSERT_LT(0, id[k]);
		snprintf(path, sizeof(path), GP "/%d/pctl", id[k]);
		snprintf(bind, sizeof(bind), "ctxid %x\n", OA_SIM_CTX(k));
		ASSERT_EQ(0, write_file(path, bind));
	}
	snprintf(cmd, sizeof(cmd),
		 "%s --sim --seed 11 --contexts 2 --period 10000 --duration 0.2 -o " REC,
		 gpuprof_oa_path());
	ASSERT_EQ(0, system(cmd));
	ASSERT_EQ(0, oa_file_parse(REC, &s, buf, on_bound_record, e));
	TH_LOG("reports: %llu and %llu bound, %llu no one's",
	       (unsigned long long)e->reports[0], (unsigned long long)e->reports[1],
	       (unsigned long long)e->unattributed);
	ASSERT_LT(1000, e->reports[0]);
	ASSERT_LT(1000, e->reports[1]);

	snprintf(cmd, sizeof(cmd), "cat " REC " > " GP "/oa");
	ASSERT_EQ(0, system(cmd));
	EXPECT_EQ((long long)e->unattributed, status_num("oa_unattributed_reports"));
	for (k = 0; k < 2; k++) {
		EXPECT_EQ((long long)e->reports[k], oa_counter(id[k], "reports"));
		counters_match(_metadata, id[k], &e->got[k]);
	}
	free(e);
}

TEST_HARNESS_MAIN
