// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scaling selftests/lib/harness.h applies to every test's timeout:
 * GPUPROF_WATCHDOG_SCALE stretches a timeout a slow test would pass,
 * and a bad factor in either variable stops the program before any test
 * runs, in one line.  Each case runs this program again, on the test
 * "sleeps_past_one_second" alone, which sleeps only when asked to.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/run.h"

FIXTURE(scale) {
	char out[4096];
	char self[PATH_MAX];
};

FIXTURE_SETUP(scale)
{
	ssize_t n = readlink("/proc/self/exe", self->self,
			     sizeof(self->self) - 1);

	ASSERT_LT(0, n);
	self->self[n] = '\0';
}

FIXTURE_TEARDOWN(scale)
{
}

/* A timeout of 1 s; 1.5 s of sleep when run by the cases below. */
TEST_F_TIMEOUT(scale, sleeps_past_one_second, 1)
{
	if (getenv("GPUPROF_HARNESS_SCALE_CHILD"))
		usleep(1500000);
}

static int again(FIXTURE_DATA(scale) *self, const char *env)
{
	return run_cmd(self->out, sizeof(self->out),
		       "env %s GPUPROF_HARNESS_SCALE_CHILD=1 GPUPROF_TEST_ONLY=sleeps_past_one_second '%s'",
		       env, self->self);
}

TEST_F(scale, the_timeout_fails_a_slow_test_unscaled)
{
	EXPECT_NE(0, again(self, "-u GPUPROF_WATCHDOG_SCALE -u GPUPROF_TIMEOUT_SCALE"));
	EXPECT_NE(NULL, strstr(self->out, "not ok 1 scale.sleeps_past_one_second"))
		TH_LOG("%s", self->out);
}

TEST_F(scale, the_watchdog_scale_lets_it_pass)
{
	EXPECT_EQ(0, again(self, "-u GPUPROF_TIMEOUT_SCALE GPUPROF_WATCHDOG_SCALE=3"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "ok 1 scale.sleeps_past_one_second"));
}

TEST_F(scale, a_bad_watchdog_scale_stops_before_any_test)
{
	EXPECT_EQ(1, again(self, "GPUPROF_WATCHDOG_SCALE=x"));
	EXPECT_STREQ("GPUPROF_WATCHDOG_SCALE=x: not a number from 1 to 100\n",
		     self->out);
}

TEST_F(scale, a_bad_timeout_scale_stops_before_any_test)
{
	EXPECT_EQ(1, again(self, "GPUPROF_TIMEOUT_SCALE=101"));
	EXPECT_STREQ("GPUPROF_TIMEOUT_SCALE=101: not a number from 1 to 100\n",
		     self->out);
}

TEST_HARNESS_MAIN
