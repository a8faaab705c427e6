// SPDX-License-Identifier: GPL-2.0-only
/*
 * /dev/gpuprof/oa: OA record streams built here, report by report, with
 * counters that rise by known steps, attributed to targets whose vgem
 * fences run at the reports' times; and streams that are broken in every
 * way the parser must refuse, after which the device still works.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/fixture.h"
#include "../lib/oa_build.h"

#define OA GP "/oa"
#define G0 1000000000ull	/* the GPU timestamp of the first report */
#define TICK_1MS 19200u	/* 1 ms of the 19.2 MHz OA clock */
#define NO_CTX GPUPROF_OA_NO_CONTEXT
#define TIMER GPUPROF_OA_REASON_TIMER

/* Write @b to the oa node @chunk bytes at a time; 0 or the first -errno. */
static int oa_write(const struct oa_buf *b, size_t len, size_t chunk)
{
	size_t off = 0, n;
	int fd, err = 0;

	fd = open(OA, O_WRONLY);
	if (fd < 0)
		return -errno;
	while (off < len && !err) {
		n = len - off < chunk ? len - off : chunk;
		if (write(fd, b->data + off, n) != (ssize_t)n)
			err = -errno;
		off += n;
	}
	close(fd);
	return err;
}

/* N timer reports 1 ms apart from CPU time @t0, with correlations. */
static void oa_stream(struct oa_buf *b, uint64_t t0, unsigned int n,
		      uint32_t ctx)
{
	unsigned int i;

	oa_header(b, 0x9a49, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8);
	oa_correlation(b, t0, G0);
	for (i = 0; i < n; i++)
		oa_report(b, i, G0 + i * TICK_1MS, ctx, TIMER);
	oa_correlation(b, t0 + n * 1000000ull, G0 + n * TICK_1MS);
}

/*
 * Start gpuwork holding one fence for @ms; wait until it is running (the
 * module has @jobs in flight).  Its pid, or -1 if it never ran.
 */
static pid_t hold_fence(const char *name, unsigned int ms, long long jobs)
{
	char cmd[PATH_MAX + 64];
	pid_t pid;
	int i;

	snprintf(cmd, sizeof(cmd), "exec %s -n %s fences 1 %u", gpuwork_path(),
		 name, ms * gpuprof_time_scale());
	pid = fork();
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	/*
	 * As long as gpuwork takes to start: on the debug kernel under
	 * load, more than the 12 s this once waited.
	 */
	for (i = 0; i < 2000 * (int)gpuprof_time_scale() &&
	     status_num("jobs_in_flight") < jobs; i++)
		sleep_ms(10);
	if (pid > 0 && status_num("jobs_in_flight") < jobs) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	return pid;
}

static void reap(pid_t pid)
{
	int st;

	kill(pid, SIGTERM);
	waitpid(pid, &st, 0);
}

TEST_F(gp, oa_is_a_write_only_node_with_one_writer)
{
	struct stat st;
	int fd;

	ASSERT_EQ(0, stat(OA, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(0600, st.st_mode & 07777);
	EXPECT_EQ(-1, open(OA, O_RDONLY));
	EXPECT_EQ(EACCES, errno);
	fd = open(OA, O_WRONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, open(OA, O_WRONLY));
	EXPECT_EQ(EBUSY, errno);
	close(fd);
	fd = open(OA, O_WRONLY);
	EXPECT_LE(0, fd);
	close(fd);
}

/*
 * A target for module @name with OA context @ctxid (hex, as pctl reads
 * it) bound to it: its id, or -1.
 */
static int bound_target(const char *name, const char *ctxid)
{
	char line[64];
	int id;

	snprintf(line, sizeof(line), "module %s\n", name);
	if (ctl(line))
		return -1;
	id = find_target(name);
	if (id < 0)
		return -1;
	snprintf(line, sizeof(line), GP "/%d/pctl", id);
	return write_file(line, ctxid) ? -1 : id;
}

TEST_F(gp, a_running_target_gets_exactly_the_deltas_of_its_reports)
{
	struct oa_buf b = {};
	pid_t pid;
	int id, tl;

	ASSERT_EQ(0, ctl("module oa_run\n"));
	ASSERT_EQ(0, ctl("interval 1000\n"));
	ASSERT_EQ(0, ctl("start\n"));
	pid = hold_fence("oa_run", 4000, 1);
	ASSERT_LT(0, pid) TH_LOG("no job in flight: %lld", status_num("jobs_in_flight"));
	id = find_target("oa_run");
	ASSERT_LT(0, id);
	/* 100 reports over the next 100 ms, well inside the fence. */
	oa_stream(&b, mono_ns(), 100, NO_CTX);
	ASSERT_EQ(0, oa_write(&b, b.len, 4096));
	EXPECT_EQ(100, status_num("oa_reports"));
	EXPECT_EQ(0, status_num("oa_unattributed_reports"))
		TH_LOG("jobs in flight %lld, unplaced %lld, gpuwork %s",
		       status_num("jobs_in_flight"),
		       status_num("oa_unplaced_reports"),
		       kill(pid, 0) ? "gone" : "running");
	EXPECT_EQ(100, oa_counter(id, "reports"));
	/* 99 deltas of each step. */
	EXPECT_EQ(9900, oa_counter(id, "a0"));
	EXPECT_EQ(693, oa_counter(id, "a33"));
	EXPECT_EQ(495, oa_counter(id, "b1"));
	EXPECT_EQ(297, oa_counter(id, "c2"));
	EXPECT_EQ(0, oa_counter(id, "a1"));
	EXPECT_EQ(99000, oa_counter(id, "gpu_clock_ticks"));
	EXPECT_EQ(99000000, oa_counter(id, "gpu_time_ns"));
	EXPECT_EQ(1, oa_counter(id, "avg_gpu_freq_mhz"));
	/* Each timer report is a sample on the OA unit's own timeline. */
	tl = timeline_id("i915-oa", "RenderBasic");
	ASSERT_LE(0, tl);
	EXPECT_EQ(100, hist_value(id, tl));
	ASSERT_EQ(0, ctl("stop\n"));
	reap(pid);
	free(b.data);
}

/*
 * xe's Lunar Lake: PEC64u64 reports whose 56-bit timestamp wraps half
 * way; each is placed in time across the wrap, inside the fence, and
 * every delta is exact, 64-bit counters and clock included.
 */
TEST_F(gp, an_xe2_target_gets_exact_deltas_across_the_56_bit_wrap)
{
	const uint64_t g0 = (1ull << 56) - 50ull * TICK_1MS;
	struct oa_buf b = {};
	uint64_t t0;
	unsigned int i;
	pid_t pid;
	int id, tl;

	ASSERT_EQ(0, ctl("module oa_xe\n"));
	ASSERT_EQ(0, ctl("interval 1000\n"));
	ASSERT_EQ(0, ctl("start\n"));
	pid = hold_fence("oa_xe", 4000, 1);
	ASSERT_LT(0, pid) TH_LOG("no job in flight: %lld", status_num("jobs_in_flight"));
	id = find_target("oa_xe");
	ASSERT_LT(0, id);
	t0 = mono_ns();
	oa_header_xe(&b, 0x6420, GPUPROF_OA_FORMAT_PEC64u64);
	oa_correlation(&b, t0, g0);
	for (i = 0; i < 100; i++)
		oa_report_pec(&b, i, g0 + i * TICK_1MS, NO_CTX, TIMER);
	oa_correlation(&b, t0 + 100 * 1000000ull, g0 + 100 * TICK_1MS);
	ASSERT_EQ(0, oa_write(&b, b.len, 4096));
	EXPECT_EQ(100, status_num("oa_reports"));
	EXPECT_EQ(0, status_num("oa_unattributed_reports"));
	EXPECT_EQ(100, oa_counter(id, "reports"));
	EXPECT_EQ(9900, oa_counter(id, "a0"));
	EXPECT_EQ(693, oa_counter(id, "a32"));
	EXPECT_EQ(99ll << 33, oa_counter(id, "a63"));
	EXPECT_EQ(0, oa_counter(id, "a1"));
	EXPECT_EQ(99000, oa_counter(id, "gpu_clock_ticks"));
	EXPECT_EQ(99000000, oa_counter(id, "gpu_time_ns"));
	/* Its timeline is xe's OA unit's. */
	tl = timeline_id("xe-oa", "RenderBasic");
	ASSERT_LE(0, tl);
	EXPECT_EQ(100, hist_value(id, tl));
	ASSERT_EQ(0, ctl("stop\n"));
	reap(pid);
	free(b.data);
}

TEST_F(gp, reports_when_no_job_runs_are_no_ones)
{
	struct oa_buf b = {};
	int id;

	ASSERT_EQ(0, ctl("module oa_idle\n"));
	ASSERT_EQ(0, ctl("startcp\n"));
	id = find_target("oa_idle");
	oa_stream(&b, mono_ns() - 10000000000ull, 50, NO_CTX);
	ASSERT_EQ(0, oa_write(&b, b.len, 1 << 20));
	EXPECT_EQ(50, status_num("oa_unattributed_reports"));
	EXPECT_EQ(0, oa_counter(id, "reports"));
	EXPECT_EQ(0, oa_counter(id, "a0"));
	free(b.data);
}

TEST_F(gp, a_bound_context_wins_over_running_jobs)
{
	struct oa_buf b = {};
	char path[64];
	pid_t pid;
	int runner, bound;

	ASSERT_EQ(0, ctl("module oa_runner oa_bound\n"));
	ASSERT_EQ(0, ctl("startcp\n"));
	runner = find_target("oa_runner");
	bound = find_target("oa_bound");
	snprintf(path, sizeof(path), GP "/%d/pctl", bound);
	ASSERT_EQ(0, write_file(path, "ctxid 42\n"));
	pid = hold_fence("oa_runner", 4000, 1);
	ASSERT_LT(0, pid) TH_LOG("no job in flight: %lld", status_num("jobs_in_flight"));
	oa_stream(&b, mono_ns(), 10, 0x42);
	ASSERT_EQ(0, oa_write(&b, b.len, 4096));
	EXPECT_EQ(10, oa_counter(bound, "reports"));
	EXPECT_EQ(900, oa_counter(bound, "a0"));
	EXPECT_EQ(0, oa_counter(runner, "reports"));
	reap(pid);
	free(b.data);
}

/*
 * A binding changed while a stream is open counts from the next report:
 * the stream's memory of its last context's target goes with it.
 */
TEST_F(gp, a_binding_changed_mid_stream_takes_the_next_reports)
{
	struct oa_buf b = {};
	char path_a[64], path_b[64];
	uint64_t t0 = mono_ns();
	unsigned int i;
	int a, c, fd;

	ASSERT_EQ(0, ctl("module oa_first oa_second\n"));
	ASSERT_EQ(0, ctl("startcp\n"));
	a = find_target("oa_first");
	c = find_target("oa_second");
	snprintf(path_a, sizeof(path_a), GP "/%d/pctl", a);
	snprintf(path_b, sizeof(path_b), GP "/%d/pctl", c);
	ASSERT_EQ(0, write_file(path_a, "ctxid 42\n"));
	oa_header(&b, 0x9a49, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8);
	oa_correlation(&b, t0, G0);
	for (i = 0; i < 5; i++)
		oa_report(&b, i, G0 + i * TICK_1MS, 0x42, TIMER);
	fd = open(OA, O_WRONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)b.len, write(fd, b.data, b.len));
	EXPECT_EQ(5, oa_counter(a, "reports"));
	ASSERT_EQ(0, write_file(path_a, "unbind\n"));
	ASSERT_EQ(0, write_file(path_b, "ctxid 42\n"));
	b.len = 0;
	for (i = 5; i < 12; i++)
		oa_report(&b, i, G0 + i * TICK_1MS, 0x42, TIMER);
	ASSERT_EQ((ssize_t)b.len, write(fd, b.data, b.len));
	close(fd);
	EXPECT_EQ(5, oa_counter(a, "reports"));
	EXPECT_EQ(7, oa_counter(c, "reports"));
	free(b.data);
}

/*
 * i915 uses a gen12 report's context id whatever bit 16 says (6.1 never
 * looks at it there; 6.12 squashes untrusted ids itself), and drops it
 * on gen9 to gen11 when the bit is clear.  The same reports, bit 16
 * clear, bound context 0x120: Tiger Lake gives them to the bound target,
 * Ice Lake to nobody.
 */
TEST_F(gp, gen12_context_ids_count_without_the_valid_bit)
{
	static const struct { uint32_t device; int reports; } want[] = {
		{ 0x9a49, 10 },	/* Tiger Lake, gen12 */
		{ 0x8a52, 0 },	/* Ice Lake, gen11 */
	};
	struct oa_buf b = {};
	char path[64];
	unsigned int i, k;
	int id;

	for (k = 0; k < 2; k++) {
		ASSERT_EQ(0, ctl("reset\n"));
		ASSERT_EQ(0, ctl("module oa_gen12\n"));
		ASSERT_EQ(0, ctl("startcp\n"));
		id = find_target("oa_gen12");
		snprintf(path, sizeof(path), GP "/%d/pctl", id);
		ASSERT_EQ(0, write_file(path, "ctxid 120\n"));
		b.len = 0;
		oa_header(&b, want[k].device,
			  GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8);
		oa_correlation(&b, mono_ns(), G0);
		for (i = 0; i < 10; i++)
			oa_report_valid(&b, i, G0 + i * TICK_1MS, 0x120, TIMER,
					0);
		ASSERT_EQ(0, oa_write(&b, b.len, 4096));
		EXPECT_EQ(want[k].reports, oa_counter(id, "reports"))
			TH_LOG("device 0x%04x", want[k].device);
		EXPECT_EQ(want[k].reports ? 900 : 0, oa_counter(id, "a0"));
		EXPECT_EQ(10 - want[k].reports,
			  status_num("oa_unattributed_reports"));
	}
	free(b.data);
}

TEST_F(gp, a_context_seen_with_one_running_target_is_learned)
{
	struct oa_buf b = {};
	uint64_t t0;
	unsigned int i;
	pid_t pid;
	int id, fd;

	ASSERT_EQ(0, ctl("module oa_learn\n"));
	ASSERT_EQ(0, ctl("startcp\n"));
	pid = hold_fence("oa_learn", 4000, 1);
	ASSERT_LT(0, pid) TH_LOG("no job in flight: %lld", status_num("jobs_in_flight"));
	id = find_target("oa_learn");
	t0 = mono_ns();
	oa_header(&b, 0x9a49, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8);
	oa_correlation(&b, t0, G0);
	for (i = 0; i < 5; i++)
		oa_report(&b, i, G0 + i * TICK_1MS, 0x77, TIMER);
	fd = open(OA, O_WRONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)b.len, write(fd, b.data, b.len));
	EXPECT_EQ(5, oa_counter(id, "reports"));
	EXPECT_LE(1, status_num("oa_learned_contexts"));
	reap(pid);
	/* Later in the same stream, no job running: the context tells. */
	b.len = 0;
	for (i = 5; i < 10; i++)
		oa_report(&b, i, G0 + 5000 * TICK_1MS + i * TICK_1MS, 0x77, TIMER);
	ASSERT_EQ((ssize_t)b.len, write(fd, b.data, b.len));
	close(fd);
	EXPECT_EQ(10, oa_counter(id, "reports"));
	EXPECT_EQ(0, status_num("oa_unattributed_reports"));
	/* A new stream forgets: its ids may mean other contexts. */
	b.len = 0;
	/* After the fence, whatever the time scale stretched it to. */
	oa_stream(&b, mono_ns() + (4000ull * gpuprof_time_scale() + 1000) * 1000000,
		  3, 0x77);
	ASSERT_EQ(0, oa_write(&b, b.len, 4096));
	EXPECT_EQ(10, oa_counter(id, "reports"));
	EXPECT_EQ(3, status_num("oa_unattributed_reports"));
	free(b.data);
}

/*
 * Start gpuwork named @name to hold one fence @ms from when @dir/go
 * appears, once vgem is open (it makes @dir/@name.ready then).
 */
static pid_t hold_fence_from(const char *name, unsigned int ms,
			     const char *dir)
{
	char cmd[PATH_MAX + 128];
	pid_t pid;

	snprintf(cmd, sizeof(cmd), "exec %s -n %s -w %s fences 1 %u",
		 gpuwork_path(), name, dir, ms * gpuprof_time_scale());
	pid = fork();
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/*
 * Two holders started together, whatever each takes to start: on a
 * loaded debug kernel a gpuwork once began more than 10 s after the
 * other, when vgem had already timed out the first one's fence.
 */
TEST_F(gp, reports_split_evenly_among_running_targets)
{
	struct oa_buf b = {};
	pid_t p1, p2;
	int a, c, i, fd;

	ASSERT_EQ(0, ctl("module oa_half1 oa_half2\n"));
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, system("rm -rf /tmp/oa_split && mkdir /tmp/oa_split"));
	p1 = hold_fence_from("oa_half1", 4000, "/tmp/oa_split");
	p2 = hold_fence_from("oa_half2", 4000, "/tmp/oa_split");
	ASSERT_LT(0, p1);
	ASSERT_LT(0, p2);
	for (i = 0; i < 6000 * (int)gpuprof_time_scale() &&
	     (access("/tmp/oa_split/oa_half1.ready", F_OK) ||
	      access("/tmp/oa_split/oa_half2.ready", F_OK)); i++)
		sleep_ms(10);
	EXPECT_EQ(0, access("/tmp/oa_split/oa_half1.ready", F_OK));
	EXPECT_EQ(0, access("/tmp/oa_split/oa_half2.ready", F_OK));
	/* Go in any case: no holder is left waiting. */
	fd = open("/tmp/oa_split/go", O_WRONLY | O_CREAT, 0644);
	ASSERT_LE(0, fd);
	close(fd);
	for (i = 0; i < 2000 * (int)gpuprof_time_scale() &&
	     status_num("jobs_in_flight") < 2; i++)
		sleep_ms(10);
	a = find_target("oa_half1");
	c = find_target("oa_half2");
	ASSERT_EQ(2, status_num("jobs_in_flight"))
		TH_LOG("the two gpuworks were not running together");
	oa_stream(&b, mono_ns(), 11, NO_CTX);
	ASSERT_EQ(0, oa_write(&b, b.len, 4096));
	/* 10 deltas of 100 in A0, halved. */
	EXPECT_EQ(500, oa_counter(a, "a0"));
	EXPECT_EQ(500, oa_counter(c, "a0"));
	EXPECT_EQ(11, oa_counter(a, "reports"));
	EXPECT_EQ(11, oa_counter(c, "reports"));
	reap(p1);
	reap(p2);
	free(b.data);
}

TEST_F(gp, no_delta_across_a_context_switch_or_a_loss)
{
	struct oa_buf b = {};
	int id;

	id = bound_target("oa_sw", "ctxid a0\n");
	ASSERT_LT(0, id);
	oa_header(&b, 0x9a49, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8);
	oa_correlation(&b, mono_ns(), G0);
	/* ctx 5, 5, 9 (switch), 5 (switch), 5, lost, 5: two deltas count. */
	oa_report(&b, 0, G0, 0xa0, TIMER);
	oa_report(&b, 1, G0 + TICK_1MS, 0xa0, TIMER);
	oa_report(&b, 2, G0 + 2 * TICK_1MS, 0x120, GPUPROF_OA_REASON_CTX_SWITCH);
	oa_report(&b, 3, G0 + 3 * TICK_1MS, 0xa0, GPUPROF_OA_REASON_CTX_SWITCH);
	oa_report(&b, 4, G0 + 4 * TICK_1MS, 0xa0, TIMER);
	oa_record(&b, GPUPROF_OA_RECORD_REPORT_LOST, NULL, 0);
	oa_report(&b, 6, G0 + 6 * TICK_1MS, 0xa0, TIMER);
	ASSERT_EQ(0, oa_write(&b, b.len, 7));
	EXPECT_EQ(200, oa_counter(id, "a0"));
	/* Context 9 is bound to no one, and no job runs. */
	EXPECT_EQ(5, oa_counter(id, "reports"));
	EXPECT_EQ(1, status_num("oa_unattributed_reports"));
	EXPECT_EQ(2, status_num("oa_context_switch_deltas"));
	EXPECT_EQ(1, status_num("oa_report_lost"));
	free(b.data);
}

TEST_F(gp, a_long_gap_is_placed_by_the_newer_correlation_point)
{
	/* 2^32 ticks less 5 s: from the first report's low 32 bits alone,
	 * the second would seem 5 s earlier, before the fence began. */
	const uint64_t gap = (1ull << 32) - 5ull * 19200000;
	struct oa_buf b = {};
	uint64_t now;
	pid_t pid;
	int id;

	ASSERT_EQ(0, ctl("module oa_gap\n"));
	ASSERT_EQ(0, ctl("startcp\n"));
	pid = hold_fence("oa_gap", 4000, 1);
	ASSERT_LT(0, pid) TH_LOG("no job in flight: %lld", status_num("jobs_in_flight"));
	id = find_target("oa_gap");
	now = mono_ns();
	oa_header(&b, 0x9a49, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8);
	oa_correlation(&b, now, G0);
	oa_report(&b, 0, (uint32_t)G0, NO_CTX, TIMER);
	/* The fence is still running then, as far as the module knows. */
	oa_correlation(&b, now + 218700000000ull, G0 + gap);
	oa_report(&b, 1, (uint32_t)(G0 + gap), NO_CTX, TIMER);
	ASSERT_EQ(0, oa_write(&b, b.len, 4096));
	EXPECT_EQ(2, oa_counter(id, "reports"));
	EXPECT_EQ(0, status_num("oa_unattributed_reports"));
	reap(pid);
	free(b.data);
}

TEST_F(gp, other_reasons_and_unknown_records_are_counted)
{
	struct oa_buf b = {};
	uint8_t ext[8] = { 1, 2, 3 };

	oa_header(&b, 0x9a49, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8);
	oa_correlation(&b, mono_ns(), G0);
	oa_report(&b, 0, G0, NO_CTX, TIMER);
	/* A clock-ratio report, and one with a reason bit gen12 added. */
	oa_report(&b, 1, G0 + TICK_1MS, NO_CTX, GPUPROF_OA_REASON_CLK_RATIO);
	oa_report(&b, 2, G0 + 2 * TICK_1MS, NO_CTX, 0x40);
	/* Records of a type this reader does not know are skipped. */
	oa_record(&b, 0x10200, ext, sizeof(ext));
	oa_record(&b, 0x10201, NULL, 0);
	oa_report(&b, 3, G0 + 3 * TICK_1MS, NO_CTX, TIMER);
	ASSERT_EQ(0, oa_write(&b, b.len, 4096));
	EXPECT_EQ(4, status_num("oa_reports"));
	EXPECT_EQ(2, status_num("oa_other_reasons"));
	EXPECT_EQ(2, status_num("oa_unknown_records"));
	EXPECT_EQ(0, status_num("oa_rejected_streams"));
	free(b.data);
}

TEST_F(gp, any_write_size_gives_the_same_result)
{
	struct oa_buf b = {};
	int id;

	id = bound_target("oa_bytes", "ctxid 60\n");
	ASSERT_LT(0, id);
	oa_stream(&b, mono_ns(), 20, 0x60);
	ASSERT_EQ(0, oa_write(&b, b.len, 1));
	ASSERT_EQ(0, oa_write(&b, b.len, 13));
	ASSERT_EQ(0, oa_write(&b, b.len, b.len));
	/*
	 * Writes that end a record put together across two writes and
	 * begin the next (264 bytes each here): the first record's bytes
	 * must not be taken for the previous report's once the next one's
	 * are put in their place.
	 */
	ASSERT_EQ(0, oa_write(&b, b.len, 300));
	ASSERT_EQ(0, oa_write(&b, b.len, 500));
	EXPECT_EQ(100, oa_counter(id, "reports"));
	EXPECT_EQ(5 * 1900, oa_counter(id, "a0"));
	free(b.data);
}

/*
 * 383 ticks of 19.2 MHz: 19947.92 ns, so 19947 a pair, and a run of two
 * pairs or more turned into ns at once would be a ns more than its
 * pairs' sum.  Five pairs fit in a run's 0.1 ms.
 */
#define TICK_RUN 383u
#define NS_RUN 19947ll

/*
 * Reports 20 us apart, all of one bound context, go as runs (module/
 * oa.c, "Runs of reports to one target"): the target's sums are still
 * those of each pair, its time each pair's ns summed, a B counter that
 * wraps in the middle of a run included, and each timer report is a
 * sample.  Written whole, in 264-byte records cut by 1, 13 and 300-byte
 * writes, and 4 KiB at a time (chunks end mid-run).
 */
TEST_F(gp, a_run_of_one_context_sums_each_pair)
{
	static const size_t sizes[] = { 0, 1, 13, 300, 4096 };
	const uint32_t base = 0xffffffffu - 5 * 150;
	struct oa_buf b = {};
	unsigned int i, k;
	int id, tl;

	ASSERT_EQ(0, ctl("interval 1000\n"));
	ASSERT_EQ(0, ctl("start\n"));
	id = bound_target("oa_runs", "ctxid 60\n");
	ASSERT_LT(0, id);
	oa_header(&b, 0x9a49, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8);
	oa_correlation(&b, mono_ns(), G0);
	for (i = 0; i < 300; i++)
		oa_report_b1(&b, i, G0 + i * TICK_RUN, 0x60, TIMER, 1,
			     base + 5 * i);
	for (k = 0; k < ARRAY_SIZE(sizes); k++)
		ASSERT_EQ(0, oa_write(&b, b.len, sizes[k] ? sizes[k] : b.len));
	/* Five streams of 300 reports, 299 pairs each. */
	EXPECT_EQ(5 * 300, oa_counter(id, "reports"));
	EXPECT_EQ(5 * 299 * 100, oa_counter(id, "a0"));
	EXPECT_EQ(5 * 299 * 5, oa_counter(id, "b1"));
	EXPECT_EQ(5 * 299 * 1000, oa_counter(id, "gpu_clock_ticks"));
	EXPECT_EQ(5 * 299 * NS_RUN, oa_counter(id, "gpu_time_ns"));
	tl = timeline_id("i915-oa", "RenderBasic");
	ASSERT_LE(0, tl);
	EXPECT_EQ(5 * 300, hist_value(id, tl));
	ASSERT_EQ(0, ctl("stop\n"));
	free(b.data);
}

/*
 * A run ends where its pairs stop going to its target: another bound
 * context, a context no one has, a lost report.  Ten reports of each
 * segment; only pairs within a segment of one context count.  (Tiger
 * Lake's ids are bits 5-15 of dword 2: 0x60, 0xa0 and 0x120 differ.)
 */
TEST_F(gp, a_run_ends_at_a_switch_or_a_loss)
{
	static const struct { uint32_t ctx; bool lost_before; } seg[] = {
		{ 0x60, false }, { 0xa0, false }, { 0x60, false },
		{ 0x120, false }, { 0x60, false }, { 0x60, true },
		{ 0xa0, false },
	};
	struct oa_buf b = {};
	unsigned int i, k, n = 0;
	int one, two;

	one = bound_target("oa_one", "ctxid 60\n");
	two = bound_target("oa_two", "ctxid a0\n");
	ASSERT_LT(0, one);
	ASSERT_LT(0, two);
	oa_header(&b, 0x9a49, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8);
	oa_correlation(&b, mono_ns(), G0);
	for (k = 0; k < ARRAY_SIZE(seg); k++) {
		if (seg[k].lost_before)
			oa_record(&b, GPUPROF_OA_RECORD_REPORT_LOST, NULL, 0);
		for (i = 0; i < 10; i++, n++)
			oa_report_b1(&b, n, G0 + n * TICK_RUN, seg[k].ctx, TIMER,
				     1, 5 * n);
	}
	ASSERT_EQ(0, oa_write(&b, b.len, b.len));
	/* oa_one: four segments of 9 pairs; oa_two: two. */
	EXPECT_EQ(40, oa_counter(one, "reports"));
	EXPECT_EQ(4 * 9 * 100, oa_counter(one, "a0"));
	EXPECT_EQ(4 * 9 * 5, oa_counter(one, "b1"));
	EXPECT_EQ(4 * 9 * NS_RUN, oa_counter(one, "gpu_time_ns"));
	EXPECT_EQ(20, oa_counter(two, "reports"));
	EXPECT_EQ(2 * 9 * 100, oa_counter(two, "a0"));
	EXPECT_EQ(2 * 9 * NS_RUN, oa_counter(two, "gpu_time_ns"));
	EXPECT_EQ(10, status_num("oa_unattributed_reports"));
	free(b.data);
}

/*
 * A run spans at most 0.1 ms of OA time.  B1 here rises 3 x 10^9 a
 * report 60 us apart, which no GPU counts, so that taking two pairs in
 * one would lose 2^32: each pair is taken on its own.
 */
TEST_F(gp, a_run_spans_at_most_a_tenth_of_a_millisecond)
{
	const uint32_t tick = 6 * TICK_1MS / 100;
	struct oa_buf b = {};
	unsigned int i;
	int id;

	id = bound_target("oa_span", "ctxid 60\n");
	ASSERT_LT(0, id);
	oa_header(&b, 0x9a49, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8);
	oa_correlation(&b, mono_ns(), G0);
	for (i = 0; i < 20; i++)
		oa_report_b1(&b, i, G0 + i * tick, 0x60, TIMER, 1,
			     3000000000u * i);
	ASSERT_EQ(0, oa_write(&b, b.len, b.len));
	EXPECT_EQ(20, oa_counter(id, "reports"));
	EXPECT_EQ(19 * 3000000000ll, oa_counter(id, "b1"));
	free(b.data);
}

/* Each way a stream can be broken, then a good stream still works. */
FIXTURE(bad) {
	struct oa_buf b;
};

FIXTURE_VARIANT(bad) {
	int kind;
};

enum { SIZE0, SIZE4, SAMPLE_FIRST, WRONG_SIZE, UNKNOWN_DEVICE, VERSION2,
       FORMAT_NOT_ON_GEN, CUT_SHORT, RANDOM_BYTES, NO_VERSION, UNKNOWN_ONLY };

FIXTURE_VARIANT_ADD(bad, size_0) { .kind = SIZE0 };
FIXTURE_VARIANT_ADD(bad, size_below_the_header) { .kind = SIZE4 };
FIXTURE_VARIANT_ADD(bad, sample_before_device_info) { .kind = SAMPLE_FIRST };
FIXTURE_VARIANT_ADD(bad, report_size_not_the_format) { .kind = WRONG_SIZE };
FIXTURE_VARIANT_ADD(bad, unknown_device) { .kind = UNKNOWN_DEVICE };
FIXTURE_VARIANT_ADD(bad, version_2) { .kind = VERSION2 };
FIXTURE_VARIANT_ADD(bad, haswell_format_on_gen12) { .kind = FORMAT_NOT_ON_GEN };
FIXTURE_VARIANT_ADD(bad, size_past_the_end) { .kind = CUT_SHORT };
FIXTURE_VARIANT_ADD(bad, random_bytes) { .kind = RANDOM_BYTES };
FIXTURE_VARIANT_ADD(bad, device_info_first) { .kind = NO_VERSION };
FIXTURE_VARIANT_ADD(bad, unknown_records_only) { .kind = UNKNOWN_ONLY };

FIXTURE_SETUP(bad)
{
	memset(&self->b, 0, sizeof(self->b));
	ASSERT_EQ(0, gpuprof_load(NULL));
}

FIXTURE_TEARDOWN(bad)
{
	free(self->b.data);
	EXPECT_EQ(0, gpuprof_unload());
}

TEST_F(bad, is_refused_and_the_device_goes_on)
{
	struct gpuprof_oa_version v2 = { .version = 2 };
	struct oa_buf *b = &self->b, good = {};
	uint8_t report[128] = {};
	char state[32], why[64];
	int err;

	switch (variant->kind) {
	case SIZE0:
		oa_record_raw(b, GPUPROF_OA_RECORD_VERSION, 0, NULL, 0);
		break;
	case SIZE4:
		oa_record_raw(b, GPUPROF_OA_RECORD_VERSION, 4, NULL, 0);
		break;
	case SAMPLE_FIRST:
		oa_report(b, 0, 0, NO_CTX, TIMER);
		break;
	case WRONG_SIZE:
		oa_header(b, 0x9a49, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8);
		oa_record(b, GPUPROF_OA_RECORD_SAMPLE, report, sizeof(report));
		break;
	case UNKNOWN_DEVICE:
		oa_header(b, 0x1234, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8);
		break;
	case VERSION2:
		oa_record(b, GPUPROF_OA_RECORD_VERSION, &v2, sizeof(v2));
		break;
	case FORMAT_NOT_ON_GEN:
		oa_header(b, 0x9a49, GPUPROF_OA_FORMAT_A45_B8_C8);
		break;
	case CUT_SHORT:
		oa_header(b, 0x9a49, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8);
		oa_report(b, 0, 0, NO_CTX, TIMER);
		b->len -= 10;	/* the last record claims more than comes */
		break;
	case RANDOM_BYTES:
		/* 100 KB of noise whose first "header" is big and unknown. */
		srand(7);
		for (err = 0; err < 100 * 1024; err++) {
			uint8_t c = rand();

			oa_put(b, &c, 1);
		}
		b->data[6] = 0xff;
		b->data[7] = 0xff;
		break;
	case NO_VERSION:
		oa_header(b, 0x9a49, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8);
		memmove(b->data, b->data + 16, b->len - 16);
		b->len -= 16;	/* DEVICE_INFO, reports: all but VERSION */
		oa_correlation(b, mono_ns(), G0);
		oa_report(b, 0, G0, NO_CTX, TIMER);
		break;
	case UNKNOWN_ONLY:
		for (err = 0; err < 1000; err++)
			oa_record(b, 0x10200, report, sizeof(report));
		break;
	}
	/* Refused at the first write: the whole stream in one write. */
	if (variant->kind >= RANDOM_BYTES) {
		int fd = open(OA, O_WRONLY);

		ASSERT_LE(0, fd);
		EXPECT_EQ(-1, write(fd, b->data, b->len));
		EXPECT_EQ(EINVAL, errno);
		close(fd);
		EXPECT_EQ(1, status_num("oa_rejected_streams"));
		ASSERT_EQ(0, status_str("oa_stream_error", why, sizeof(why)));
		EXPECT_STREQ("stream does not begin with VERSION", why);
		b->len = 0;
	}
	err = b->len ? oa_write(b, b->len, 4096) : -EINVAL;
	/* A cut record is only known to be cut when the writer closes. */
	EXPECT_EQ(variant->kind == CUT_SHORT ? 0 : -EINVAL, err);
	EXPECT_EQ(1, status_num("oa_rejected_streams"));
	ASSERT_EQ(0, status_str("oa_stream", state, sizeof(state)));
	EXPECT_STREQ("refused", state);

	oa_stream(&good, mono_ns(), 3, NO_CTX);
	EXPECT_EQ(0, oa_write(&good, good.len, 4096));
	EXPECT_EQ(1, status_num("oa_rejected_streams"));
	EXPECT_EQ(3, status_num("oa_reports"));
	free(good.data);
}

TEST_F(gp, a_stream_cut_at_every_byte_is_refused_only_mid_record)
{
	struct oa_buf b = {};
	size_t cut, boundaries = 0, off = 0;

	oa_stream(&b, mono_ns(), 3, NO_CTX);
	for (cut = 0; cut <= b.len; cut++) {
		/* Record boundaries: where a prefix is a whole stream. */
		if (cut == off) {
			boundaries++;
			if (off < b.len)
				off += ((struct gpuprof_oa_record_header *)
					(b.data + off))->size;
		}
		ASSERT_EQ(0, oa_write(&b, cut, 4096)) TH_LOG("cut %zu", cut);
	}
	EXPECT_EQ((long long)(b.len + 1 - boundaries),
		  status_num("oa_rejected_streams"));
	EXPECT_EQ(0, status_num("unattributed_jobs"));
	free(b.data);
}

TEST_HARNESS_MAIN
