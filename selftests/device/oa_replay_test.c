// SPDX-License-Identifier: GPL-2.0-only
/*
 * Replaying a simulated recording (gpuprof-oa --sim) with "cat rec >
 * /dev/gpuprof/oa" after a vgem fence of a named target ran: the target
 * gets exactly the counter deltas that the module's rules give it, which
 * the test works out itself from the recording (decoded with the shared
 * decoder) and from the fence's running interval (its ends bracketed in
 * tracefs, on the CLOCK_MONOTONIC trace clock, by the ioctls that made
 * and signalled it).  The recording starts before the fence and ends
 * after it.
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

/* What the module should make of the recording; see module/oa.c. */
struct expect {
	struct window start, end;	/* of the fence, see above */
	struct gpuprof_oa_clock clock;
	bool have_ts, have_prev;
	uint64_t last_ts;
	struct gpuprof_oa_report prev;
	uint8_t prev_report[GPUPROF_OA_REPORT_MAX];
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
	const struct gpuprof_oa_correlation *c = payload;
	struct gpuprof_oa_deltas d = {};
	struct gpuprof_oa_report r;
	__u64 ts, t;
	bool ours;

	if (h->type == GPUPROF_OA_RECORD_DEVICE_INFO)
		gpuprof_oa_clock_init(&e->clock, s->info.timestamp_frequency);
	if (h->type == GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION &&
	    !gpuprof_oa_clock_add(&e->clock, c->cpu_timestamp, c->gpu_timestamp) &&
	    !e->have_ts) {
		e->last_ts = c->gpu_timestamp;
		e->have_ts = true;
	}
	if (h->type != GPUPROF_OA_RECORD_SAMPLE)
		return;
	gpuprof_oa_report_header(&s->layout, payload, &r);
	ts = gpuprof_oa_unwrap(e->last_ts, r.timestamp, s->layout.ts_bits);
	e->last_ts = ts;
	gpuprof_oa_clock_to_cpu(&e->clock, ts, &t);
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
		if (e->have_prev && e->prev.ctx_id == r.ctx_id) {
			gpuprof_oa_accumulate(&s->layout, e->prev_report, payload, &d);
			e->got.timestamp += gpuprof_oa_ticks_to_ns(d.timestamp,
						s->info.timestamp_frequency);
			e->got.gpu_ticks += d.gpu_ticks;
			for (int i = 0; i < GPUPROF_OA_A_COUNTERS; i++)
				e->got.a[i] += d.a[i];
			for (int i = 0; i < 8; i++) {
				e->got.b[i] += d.b[i];
				e->got.c[i] += d.c[i];
			}
		}
	} else {
		e->unattributed++;
	}
	memcpy(e->prev_report, payload, s->layout.size);
	e->prev = r;
	e->have_prev = true;
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
	char cmd[PATH_MAX * 2], name[16], args[64];
	int id, i, tries, ran;

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
	EXPECT_EQ((long long)e->got.timestamp, oa_counter(id, "gpu_time_ns"));
	EXPECT_EQ((long long)e->got.gpu_ticks, oa_counter(id, "gpu_clock_ticks"));
	for (i = 0; i < 36; i++) {
		snprintf(name, sizeof(name), "a%d", i);
		EXPECT_EQ((long long)e->got.a[i], oa_counter(id, name)) TH_LOG("%s", name);
	}
	for (i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "b%d", i);
		EXPECT_EQ((long long)e->got.b[i], oa_counter(id, name));
		snprintf(name, sizeof(name), "c%d", i);
		EXPECT_EQ((long long)e->got.c[i], oa_counter(id, name));
	}
	EXPECT_LT(0, e->got.a[0]);
	write_file(TRACING "/trace_clock", "local");
	free(e);
}

TEST_HARNESS_MAIN
