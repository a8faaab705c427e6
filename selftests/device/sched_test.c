// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof on the kernel's real GPU scheduler (gpu-sched.ko), driven by
 * the schedmock test module: a drm_sched job counts once, is sampled and
 * takes OA reports only while it runs (from its scheduled fence's signal,
 * when drm_sched hands it to the ring, to its finished fence's signal),
 * not while it waits in the queue; and two processes submitting at once
 * make exactly their own jobs, however their fence inits interleave.
 *
 * The ring takes one job at a time (credits=1): P1 submits a 400 ms job,
 * P2 four 25 ms jobs 10 ms later, which wait some 390 ms for the ring.
 * Counted from submission, P2 would be busy for ~490 ms.
 *
 * On a kernel with drm_sched's stable events (6.17) the module takes the
 * jobs from them (module/sched.c): the same counts, and a job a kernel
 * worker pushes is its DRM client's process's.
 *
 * The hardware fence schedmock's run_job makes in drm_sched's worker is
 * no job of its own: a job alone on the ring is alone to OA, which then
 * learns its context (module/sched.c, "The hardware fence of a drm_sched
 * job").
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/fixture.h"
#include "../lib/oa_build.h"

#define RING_TIMELINE "schedmock-ring"

/* Run @script with sh, schedwork as $SW; its exit status. */
static int sh(const char *script)
{
	char cmd[PATH_MAX + 1024];
	int st;

	snprintf(cmd, sizeof(cmd), "SW=%s; %s", schedwork_path(), script);
	st = system(cmd);
	return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

/*
 * P1's 400 ms job, P2's four 25 ms jobs 10 ms after it; their outputs
 * kept.  Starting a process takes longer than that under TCG (up to
 * 750 ms), so each waits for the other: P1 until P2 runs, P2 until P1
 * has submitted.
 */
#define P1_P2 "rm -f /tmp/sched_ready /tmp/sched_go; " \
	      "$SW -n sched_p2 mark /tmp/sched_ready await /tmp/sched_go " \
	      "sleep 10 job 25 job 25 job 25 job 25 wait > /tmp/sched_p2.out & " \
	      "$SW -n sched_p1 await /tmp/sched_ready job 400 mark /tmp/sched_go " \
	      "wait > /tmp/sched_p1.out && wait $!"

FIXTURE(sched) {
	int p1, p2, tl;
};

FIXTURE_SETUP(sched)
{
	ASSERT_EQ(0, gpuprof_load(NULL));
	ASSERT_EQ(0, schedmock_load("credits=1"));
	ASSERT_EQ(0, ctl("module sched_p1\n"));
	ASSERT_EQ(0, ctl("module sched_p2\n"));
}

FIXTURE_TEARDOWN(sched)
{
	EXPECT_EQ(0, gpuprof_unload());
}

static void find_targets(struct __test_metadata *_metadata,
			 FIXTURE_DATA(sched) *self)
{
	self->p1 = find_target("sched_p1");
	self->p2 = find_target("sched_p2");
	self->tl = timeline_id("drm_sched", RING_TIMELINE);
	ASSERT_LT(0, self->p1);
	ASSERT_LT(0, self->p2);
	ASSERT_LE(0, self->tl);
}

TEST_F(sched, a_job_counts_once)
{
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, sh(P1_P2));
	ASSERT_EQ(0, ctl("stop\n"));
	find_targets(_metadata, self);
	EXPECT_EQ(1, hist_value(self->p1, self->tl));
	EXPECT_EQ(4, hist_value(self->p2, self->tl));
}

/*
 * Of the times schedwork printed after @key ("submitted_ns " or
 * "signaled_ns "), the latest (@latest) or the earliest, in ns; 0 if none.
 */
static unsigned long long schedwork_time(const char *path, const char *key,
					 bool latest)
{
	unsigned long long t, best = 0;
	char buf[4096], *p;

	if (read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	for (p = strstr(buf, key); p; p = strstr(p + 1, key)) {
		t = strtoull(p + strlen(key), NULL, 10);
		if (!best || (latest ? t > best : t < best))
			best = t;
	}
	return best;
}

/*
 * P2 must have been queued more than 6 intervals for the test to tell
 * anything: on the 6.1 debug kernel beside other work it submitted only
 * 60 ms before P1's end.  Then the module is loaded afresh and P1 and
 * P2 run again, three times at most.
 */
TEST_F(sched, queued_time_is_not_sampled)
{
	unsigned long long p1_end, p2_end, p2_submit;
	long long s1, s2, run2, queued2;
	int tries;

	for (tries = 0; ; tries++) {
		ASSERT_EQ(0, ctl("interval 10\n"));
		ASSERT_EQ(0, ctl("start\n"));
		ASSERT_EQ(0, sh(P1_P2));
		ASSERT_EQ(0, ctl("stop\n"));
		find_targets(_metadata, self);
		s1 = hist_value(self->p1, self->tl);
		s2 = hist_value(self->p2, self->tl);
		/*
		 * P2's jobs ran back to back from P1's end to its last
		 * signal: 100 ms, unless a host that stalls the VM made
		 * the mock ring's timers late (130 ms seen in CI).
		 */
		p1_end = schedwork_time("/tmp/sched_p1.out", "signaled_ns ", true);
		p2_end = schedwork_time("/tmp/sched_p2.out", "signaled_ns ", true);
		p2_submit = schedwork_time("/tmp/sched_p2.out", "submitted_ns ", false);
		ASSERT_LT(p1_end, p2_end);
		ASSERT_LT(p2_submit, p1_end);
		run2 = (long long)((p2_end - p1_end) / 10000000ull);
		queued2 = (long long)((p1_end - p2_submit) / 10000000ull);
		TH_LOG("10 ms samples: P1 %lld (runs 400 ms), P2 %lld (ran %lld intervals, queued %lld)",
		       s1, s2, run2, queued2);
		if (queued2 > 6)
			break;
		ASSERT_GT(2, tries);
		ASSERT_EQ(0, gpuprof_unload());
		ASSERT_EQ(0, gpuprof_load(NULL));
		ASSERT_EQ(0, ctl("module sched_p1\n"));
		ASSERT_EQ(0, ctl("module sched_p2\n"));
	}
	/*
	 * 40 and run2 by the jobs' lengths; a tick the host delays loses
	 * samples, a late wake-up adds one; queued, P2 would get ~49.  A
	 * stalled VM stretches run2 (the signals come late) without ticks
 * to sample it (9 samples for 14 intervals seen in CI): below, P2
	 * is held to its jobs' own 100 ms at most.  That P2's queued time
	 * is not sampled is s2 <= run2 + 3 with more than 6 intervals
	 * queued (a fixed s2 < 25 was a bound on the load: 27 samples for
	 * 26 intervals run under three VMs on two cores).
	 */
	EXPECT_LE(34, s1);
	EXPECT_GE(46, s1);
	EXPECT_LE((run2 < 10 ? run2 : 10) - 3, s2);
	EXPECT_GE(run2 + 3, s2);
}

TEST_F(sched, oa_reports_while_only_p1_runs_go_to_p1)
{
	unsigned long long p1_end;
	char cmd[PATH_MAX + 256];
	long long reports;

	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, sh(P1_P2));
	p1_end = schedwork_time("/tmp/sched_p1.out", "signaled_ns ", true);
	ASSERT_LT(400000000ull, p1_end);
	find_targets(_metadata, self);
	/*
	 * 300 ms of reports, from 350 ms before P1's job signalled: the
	 * job ran for at least its 400 ms before that (the mock ring's
	 * timer is never early), so it is on the ring all that time, and
	 * P2's are queued behind it.  Placed by the signal, not by the
	 * submission: on the debug kernel drm_sched took longer than
	 * 50 ms to hand P1's job to the ring.
	 */
	snprintf(cmd, sizeof(cmd),
		 "%s --sim --seed 3 --contexts 1 --period 20000000 --duration 0.3 "
		 "--start-ns %llu -o " GP "/oa", gpuprof_oa_path(),
		 p1_end - 350000000ull);
	ASSERT_EQ(0, system(cmd));
	reports = status_num("oa_reports");
	TH_LOG("%lld reports, P1 %lld, P2 %lld, no one's %lld", reports,
	       oa_counter(self->p1, "reports"), oa_counter(self->p2, "reports"),
	       status_num("oa_unattributed_reports"));
	EXPECT_LT(10, reports);
	EXPECT_EQ(reports, oa_counter(self->p1, "reports"));
	EXPECT_EQ(0, oa_counter(self->p2, "reports"));
	EXPECT_EQ(0, status_num("oa_unattributed_reports"));
}

static long stream_count(const char *path)
{
	char buf[4096], *p;

	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	p = strstr(buf, "stream ");
	return p ? strtol(p + 7, NULL, 10) : -1;
}

/*
 * Two processes submitting to the ring for 10 s from the two vCPUs, with
 * full preemption where it can be had: the inits of their fence pairs can
 * interleave, and each still counts exactly the jobs it submitted.
 */
TEST_F_TIMEOUT(sched, parallel_submitters_count_exactly_their_jobs, 120)
{
	char old[64] = "";
	long n1, n2;
	int err;

	err = preempt_full(old, sizeof(old));
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, sh("$SW -n sched_p1 stream 10000 1 > /tmp/sched_p1.out & "
			"$SW -n sched_p2 stream 10000 1 > /tmp/sched_p2.out; "
			"s=$?; wait $! && exit $s"));
	ASSERT_EQ(0, ctl("stop\n"));
	if (!err)
		write_file("/sys/kernel/debug/sched/preempt", old);
	find_targets(_metadata, self);
	n1 = stream_count("/tmp/sched_p1.out");
	n2 = stream_count("/tmp/sched_p2.out");
	TH_LOG("preemption %s; P1 submitted %ld, P2 %ld; counted %lld, %lld; %lld jobs dropped",
	       err ? "as it was" : "full", n1, n2, hist_value(self->p1, self->tl),
	       hist_value(self->p2, self->tl), status_num("dropped_jobs"));
	ASSERT_LT(100, n1);
	ASSERT_LT(100, n2);
	EXPECT_EQ(n1, hist_value(self->p1, self->tl));
	EXPECT_EQ(n2, hist_value(self->p2, self->tl));
}

/*
 * An OA stream written while jobs run: GPU time is CPU time since @t0 on
 * the 19.2 MHz clock, from G0; reports are numbered in order.  Tiger
 * Lake's reports (0x9a49) carry context ids in bits 5 to 15.
 */
struct oa_live {
	struct oa_buf b;
	int fd;
	uint64_t t0;
	uint32_t n;
};

#define G0 1000000000ull

static uint64_t oa_live_ts(const struct oa_live *o, uint64_t cpu_ns)
{
	return G0 + (cpu_ns - o->t0) * 192 / 10000;
}

static int oa_live_open(struct oa_live *o)
{
	memset(o, 0, sizeof(*o));
	o->fd = open(GP "/oa", O_WRONLY);
	o->t0 = mono_ns() - 1000000000ull;
	oa_header(&o->b, 0x9a49, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8);
	return o->fd;
}

/*
 * @n timer reports 1 ms apart, the last at CPU time @end, of context
 * @even for the even ones and @odd for the others; 0, or -1.
 */
static int oa_live_reports(struct oa_live *o, uint64_t end, unsigned int n,
			   uint32_t even, uint32_t odd)
{
	uint64_t t = end - (n - 1) * 1000000ull;
	unsigned int i;
	ssize_t len;

	oa_correlation(&o->b, t, oa_live_ts(o, t));
	for (i = 0; i < n; i++, t += 1000000ull)
		oa_report(&o->b, o->n++, (uint32_t)oa_live_ts(o, t),
			  i % 2 ? odd : even, GPUPROF_OA_REASON_TIMER);
	len = write(o->fd, o->b.data, o->b.len);
	n = len == (ssize_t)o->b.len;
	o->b.len = 0;
	return n ? 0 : -1;
}

static void oa_live_close(struct oa_live *o)
{
	close(o->fd);
	free(o->b.data);
}

/* Until the file @path exists, at most 30 s (time scaled); 0 or -1. */
static int await_file(const char *path)
{
	int i;

	for (i = 0; i < 3000 * (int)gpuprof_time_scale(); i++) {
		if (!access(path, F_OK))
			return 0;
		sleep_ms(10);
	}
	return -1;
}

/*
 * The job of @mark's process, submitted when @mark appeared, is on the
 * ring: drm_sched hands a job to an idle ring at once, but took more
 * than 50 ms on the debug kernel; the jobs here last seconds.
 */
static void await_running(struct __test_metadata *_metadata, const char *mark)
{
	ASSERT_EQ(0, await_file(mark));
	sleep_ms(300 * gpuprof_time_scale());
}

/*
 * P1's one job, alone on the ring: the module has one job in flight, not
 * two (the hardware fence run_job made in drm_sched's worker is none),
 * so 50 OA reports of context 0xe0 while it runs are P1's and teach the
 * module that context; 10 more 100 ms after the job, when nothing runs,
 * are P1's by what was learned.  With the hardware fence as a job of no one
 * running beside it, the context was never learned and the last 10 were
 * no one's.
 */
TEST_F(sched, a_job_alone_on_the_ring_teaches_its_oa_context)
{
	char cmd[256];
	struct oa_live o;

	ASSERT_EQ(0, ctl("startcp\n"));
	self->p1 = find_target("sched_p1");
	ASSERT_LT(0, self->p1);
	unlink("/tmp/sched_a1");
	unlink("/tmp/sched_a1done");
	snprintf(cmd, sizeof(cmd),
		 "$SW -n sched_p1 job %u mark /tmp/sched_a1 wait "
		 "mark /tmp/sched_a1done > /dev/null &",
		 2000 * gpuprof_time_scale());
	ASSERT_EQ(0, sh(cmd));
	await_running(_metadata, "/tmp/sched_a1");
	EXPECT_EQ(1, status_num("jobs_in_flight"));
	ASSERT_LE(0, oa_live_open(&o));
	ASSERT_EQ(0, oa_live_reports(&o, mono_ns(), 50, 0xe0, 0xe0));
	EXPECT_EQ(50, oa_counter(self->p1, "reports"));
	EXPECT_EQ(1, status_num("oa_learned_contexts"));
	ASSERT_EQ(0, await_file("/tmp/sched_a1done"));
	sleep_ms(100);		/* the job's end is no report's time */
	ASSERT_EQ(0, oa_live_reports(&o, mono_ns(), 10, 0xe0, 0xe0));
	oa_live_close(&o);
	TH_LOG("P1 %lld reports, no one's %lld, %lld contexts learned",
	       oa_counter(self->p1, "reports"),
	       status_num("oa_unattributed_reports"),
	       status_num("oa_learned_contexts"));
	EXPECT_EQ(60, oa_counter(self->p1, "reports"));
	EXPECT_EQ(0, status_num("oa_unattributed_reports"));
}

/*
 * P1 and P2 take the ring in turn, a job each, twice: 40 reports of
 * P1's context 0xa0 while each of P1's jobs runs, 40 of P2's 0x120 while
 * each of P2's does; then, the ring idle 100 ms, 20 reports alternating
 * the two contexts.  Each process gets exactly its own: 90 each, none no
 * one's, and each context was learned once.
 */
TEST_F(sched, alternating_processes_get_their_own_oa_reports)
{
	static const char *const phase[] = {
		"/tmp/sched_a1", "/tmp/sched_b1", "/tmp/sched_a2",
		"/tmp/sched_b2",
	};
	char cmd[1024];
	struct oa_live o;
	unsigned int ms = 1000 * gpuprof_time_scale(), i;

	ASSERT_EQ(0, ctl("startcp\n"));
	self->p1 = find_target("sched_p1");
	self->p2 = find_target("sched_p2");
	ASSERT_LT(0, self->p1);
	ASSERT_LT(0, self->p2);
	ASSERT_EQ(0, sh("rm -f /tmp/sched_a1 /tmp/sched_a1done /tmp/sched_b1 "
			"/tmp/sched_b1done /tmp/sched_a2 /tmp/sched_a2done "
			"/tmp/sched_b2 /tmp/sched_b2done"));
	snprintf(cmd, sizeof(cmd),
		 "$SW -n sched_p1 job %u mark /tmp/sched_a1 wait "
		 "mark /tmp/sched_a1done await /tmp/sched_b1done "
		 "job %u mark /tmp/sched_a2 wait mark /tmp/sched_a2done "
		 "> /dev/null & "
		 "$SW -n sched_p2 await /tmp/sched_a1done "
		 "job %u mark /tmp/sched_b1 wait mark /tmp/sched_b1done "
		 "await /tmp/sched_a2done job %u mark /tmp/sched_b2 wait "
		 "mark /tmp/sched_b2done > /dev/null &", ms, ms, ms, ms);
	ASSERT_EQ(0, sh(cmd));
	ASSERT_LE(0, oa_live_open(&o));
	for (i = 0; i < 4; i++) {
		await_running(_metadata, phase[i]);
		ASSERT_EQ(0, oa_live_reports(&o, mono_ns(), 40,
					     i % 2 ? 0x120 : 0xa0,
					     i % 2 ? 0x120 : 0xa0));
		TH_LOG("phase %u: %lld jobs in flight; P1 (%d) %lld reports, P2 (%d) %lld, no one's %lld, learned %lld",
		       i, status_num("jobs_in_flight"), self->p1,
		       oa_counter(self->p1, "reports"), self->p2,
		       oa_counter(self->p2, "reports"),
		       status_num("oa_unattributed_reports"),
		       status_num("oa_learned_contexts"));
	}
	ASSERT_EQ(0, await_file("/tmp/sched_b2done"));
	sleep_ms(100);		/* the last job's end is no report's time */
	ASSERT_EQ(0, oa_live_reports(&o, mono_ns(), 20, 0xa0, 0x120));
	oa_live_close(&o);
	TH_LOG("P1 %lld reports, P2 %lld, no one's %lld, %lld contexts learned",
	       oa_counter(self->p1, "reports"), oa_counter(self->p2, "reports"),
	       status_num("oa_unattributed_reports"),
	       status_num("oa_learned_contexts"));
	EXPECT_EQ(90, oa_counter(self->p1, "reports"));
	EXPECT_EQ(90, oa_counter(self->p2, "reports"));
	EXPECT_EQ(2, status_num("oa_learned_contexts"));
	EXPECT_EQ(0, status_num("oa_unattributed_reports"));
}

/*
 * Whether this kernel has drm_sched's stable events (6.17): tracefs's
 * format of drm_sched_job_queue, with its client_id, says; gpu-sched is
 * loaded (the fixture loaded schedmock).
 */
static bool stable_events(void)
{
	char buf[4096];

	if (read_file("/sys/kernel/tracing/events/gpu_scheduler/"
		      "drm_sched_job_queue/format", buf, sizeof(buf)) <= 0)
		return false;
	return strstr(buf, "field:u64 client_id;");
}

static void expect_source(struct __test_metadata *_metadata, bool events)
{
	char src[32];

	ASSERT_EQ(0, status_str("drm_sched_jobs", src, sizeof(src)));
	EXPECT_STREQ(events ? "events" : "fences", src);
}

/*
 * With the stable events the module takes drm_sched jobs from them, and a
 * job a kernel worker pushes for a client is the client's process's: one
 * job pushed by the process, then three by schedmock's worker
 * (SCHEDMOCK_SUBMIT_DEFERRED).  By fence pairing those three are
 * initialised in the worker: unattributed, and the process has one.
 */
TEST_F(sched, deferred_jobs_are_their_clients)
{
	bool events = stable_events();
	long long un0, un1;

	TH_LOG("stable events: %s", events ? "yes" : "no");
	expect_source(_metadata, events);
	ASSERT_EQ(0, ctl("startcp\n"));
	expect_source(_metadata, events);
	un0 = status_num("unattributed_jobs");
	ASSERT_EQ(0, sh("$SW -n sched_p1 job 5 deferred job 5 job 5 job 5 "
			"wait > /dev/null"));
	un1 = status_num("unattributed_jobs");
	ASSERT_EQ(0, ctl("stop\n"));
	find_targets(_metadata, self);
	if (events) {
		EXPECT_EQ(4, hist_value(self->p1, self->tl));
	} else {
		EXPECT_EQ(1, hist_value(self->p1, self->tl));
		/* The VM's own kernel fences may add to these. */
		EXPECT_LE(3, un1 - un0);
	}
}

/*
 * gpu-sched unloaded and loaded again while profiling: its tracepoints go
 * and come back (the tracepoint module notifier), the probes let go of
 * them before they go (the kernel warns otherwise, which the debug suite
 * counts) and take the new ones; jobs count all along.
 */
TEST_F(sched, gpu_sched_reloaded_while_profiling)
{
	bool events = stable_events();

	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, sh("$SW -n sched_p1 job 5 wait > /dev/null"));
	ASSERT_EQ(0, schedmock_unload_wait(20000));
	ASSERT_EQ(0, system("modprobe -r gpu-sched"));
	ASSERT_NE(0, access("/sys/module/gpu_sched", F_OK));
	expect_source(_metadata, false);
	ASSERT_EQ(0, schedmock_load("credits=1"));
	expect_source(_metadata, events);
	ASSERT_EQ(0, sh("$SW -n sched_p1 job 5 job 5 wait > /dev/null"));
	ASSERT_EQ(0, ctl("stop\n"));
	find_targets(_metadata, self);
	EXPECT_EQ(3, hist_value(self->p1, self->tl));
}

TEST_HARNESS_MAIN
