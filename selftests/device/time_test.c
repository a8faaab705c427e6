// SPDX-License-Identifier: GPL-2.0-only
/*
 * Time profiling ("start"): a job held H ms at interval I ms gives about
 * H/I samples; a sampling interval counts a (target, timeline) at most
 * once, however many jobs ran in it.
 *
 * Tolerance: the fence is held by nanosleep() between the attach and the
 * signal ioctls, so the job runs H ms plus the ioctl and wake-up latency,
 * and it touches ceil(H/I) or one more intervals.  Under TCG the latency
 * is a few ms and a timer tick may come late, never early, so the count
 * is H/I to H/I + 2.  The test accepts H/I - 1 to E/I + 3, E the time
 * from the attach to the signal as the submitting process measured it:
 * on the debug kernel (KASAN, lockdep) each ioctl takes tens of ms.
 */
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/fixture.h"
#include "../lib/vgem.h"

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/*
 * One vgem job held @hold ms by a child process named @name; the time
 * from the attach to the signal in µs, or -1.
 */
static long long held_job(const char *name, unsigned int hold)
{
	long long t = -1;
	uint32_t handle;
	uint64_t size;
	int p[2], st, fd, f;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		prctl(PR_SET_NAME, name);
		fd = vgem_open();
		if (fd >= 0 && !vgem_bo_create(fd, 64, 64, &handle, &size)) {
			t = now_us();
			f = vgem_fence_attach(fd, handle);
			sleep_ms(hold);
			if (f < 0 || vgem_fence_signal(fd, f))
				t = -1;
			else
				t = now_us() - t;
		}
		_exit(write(p[1], &t, sizeof(t)) != sizeof(t));
	}
	close(p[1]);
	if (pid < 0 || read(p[0], &t, sizeof(t)) != sizeof(t))
		t = -1;
	close(p[0]);
	if (pid > 0 && (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
			WEXITSTATUS(st)))
		t = -1;
	return t;
}

static void hold_one(struct __test_metadata *_metadata, unsigned int interval,
		     unsigned int hold, const char *name)
{
	char cmd[128];
	long long samples, expect = hold / interval, held_us;
	int id;

	snprintf(cmd, sizeof(cmd), "module %s\n", name);
	ASSERT_EQ(0, ctl(cmd));
	snprintf(cmd, sizeof(cmd), "interval %u\n", interval);
	ASSERT_EQ(0, ctl(cmd));
	ASSERT_EQ(0, ctl("start\n"));
	held_us = held_job(name, hold);
	ASSERT_LE(hold * 1000LL, held_us);
	ASSERT_EQ(0, ctl("stop\n"));
	/* The sampler took the data lock from its softirq meanwhile: a
	 * status read now is what lockdep needs to judge both uses. */
	EXPECT_EQ(0, status_num("jobs_in_flight"));
	id = find_target(name);
	ASSERT_LT(0, id);
	samples = hist_value(id, timeline_id("vgem", "unbound"));
	TH_LOG("interval %u ms, held %u ms (%lld µs from attach to signal): %lld samples (H/I = %lld)",
	       interval, hold, held_us, samples, expect);
	EXPECT_LE(expect - 1, samples);
	EXPECT_GE(held_us / 1000 / interval + 3, samples);
}

TEST_F(gp, held_fence_gives_h_over_i_samples_20ms)
{
	hold_one(_metadata, 20, 600, "time_20");
}

TEST_F(gp, held_fence_gives_h_over_i_samples_100ms)
{
	hold_one(_metadata, 100, 1500, "time_100");
}

TEST_F(gp, an_interval_counts_a_timeline_once)
{
	long long samples;
	int id;

	/* 50 short jobs well inside one or two 2-second intervals. */
	ASSERT_EQ(0, ctl("module time_once\n"));
	ASSERT_EQ(0, ctl("interval 2000\n"));
	ASSERT_EQ(0, ctl("start\n"));
	ASSERT_EQ(0, gpuwork("-n time_once fences 50"));
	ASSERT_EQ(0, ctl("stop\n"));
	id = find_target("time_once");
	samples = hist_value(id, timeline_id("vgem", "unbound"));
	EXPECT_LE(1, samples);
	EXPECT_GE(2, samples);
}

TEST_F(gp, no_job_no_sample)
{
	int id;

	ASSERT_EQ(0, ctl("module time_idle\n"));
	ASSERT_EQ(0, ctl("interval 5\n"));
	ASSERT_EQ(0, ctl("start\n"));
	sleep_ms(200);
	ASSERT_EQ(0, ctl("stop\n"));
	id = find_target("time_idle");
	ASSERT_LT(0, id);
	EXPECT_EQ(0, target_file(id, "histogram", self->buf, sizeof(self->buf)));
}

TEST_HARNESS_MAIN
