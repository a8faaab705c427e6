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
 * is H/I to H/I + 2.  The test accepts H/I - 1 to W/I + 3, W the time the
 * whole gpuwork process took: on the debug kernel (KASAN, lockdep) its
 * latencies are tens of ms, and W bounds the job from above.
 */
#include <stdio.h>
#include <time.h>

#include "kselftest_harness.h"
#include "../lib/fixture.h"

static void hold_one(struct __test_metadata *_metadata, unsigned int interval,
		     unsigned int hold, const char *name)
{
	char cmd[128];
	long long samples, expect = hold / interval, wall_ms;
	struct timespec t0, t1;
	int id;

	snprintf(cmd, sizeof(cmd), "module %s\n", name);
	ASSERT_EQ(0, ctl(cmd));
	snprintf(cmd, sizeof(cmd), "interval %u\n", interval);
	ASSERT_EQ(0, ctl(cmd));
	ASSERT_EQ(0, ctl("start\n"));
	snprintf(cmd, sizeof(cmd), "-n %s fences 1 %u", name, hold);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ASSERT_EQ(0, gpuwork(cmd));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ASSERT_EQ(0, ctl("stop\n"));
	/* The sampler took the data lock from its softirq meanwhile: a
	 * status read now is what lockdep needs to judge both uses. */
	EXPECT_EQ(0, status_num("jobs_in_flight"));
	wall_ms = (t1.tv_sec - t0.tv_sec) * 1000 +
		  (t1.tv_nsec - t0.tv_nsec) / 1000000;
	id = find_target(name);
	ASSERT_LT(0, id);
	samples = hist_value(id, timeline_id("vgem", "unbound"));
	TH_LOG("interval %u ms, held %u ms, gpuwork ran %lld ms: %lld samples (H/I = %lld)",
	       interval, hold, wall_ms, samples, expect);
	EXPECT_LE(expect - 1, samples);
	EXPECT_GE(wall_ms / interval + 3, samples);
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
