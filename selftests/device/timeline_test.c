// SPDX-License-Identifier: GPL-2.0-only
/*
 * Timelines with names chosen by the fencegen test module: one key per
 * (driver, timeline) pair, names cut and cleaned for the line format, and
 * the bounded key space with its drop counter.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/fixture.h"

static int fence(const char *names)
{
	return write_file(FENCEGEN, names);
}

TEST_F(gp, one_key_per_driver_and_timeline)
{
	char want[128];
	int id, me;

	ASSERT_EQ(0, fencegen_load());
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, fence("drv_a ring0\n"));
	ASSERT_EQ(0, fence("drv_a ring0\n"));
	ASSERT_EQ(0, fence("drv_a ring1\n"));
	ASSERT_EQ(0, fence("drv_b ring0\n"));
	ASSERT_EQ(0, fence("drv_a ring1\n"));
	ASSERT_EQ(0, fence("drv_a ring1\n"));
	ASSERT_EQ(0, ctl("stop\n"));

	ASSERT_LT(0, read_file(GP "/timelines", self->buf, sizeof(self->buf)));
	EXPECT_STREQ("0 drv_a ring0\n1 drv_a ring1\n2 drv_b ring0\n", self->buf);
	/* This test program submitted them: it is the only target. */
	snprintf(want, sizeof(want), "%.15s", program_invocation_short_name);
	me = find_target(want);
	ASSERT_LT(0, me);
	id = me;
	ASSERT_LT(0, target_file(id, "histogram", self->buf, sizeof(self->buf)));
	EXPECT_STREQ("0 2\n1 3\n2 1\n", self->buf);
}

/*
 * fencegen's "drm_sched" fences imitate drm_sched's pair without the
 * scheduler: the fence-pairing rule.  Where gpu-sched is loaded on a
 * kernel with its stable events the module takes drm_sched jobs from
 * those alone (status: drm_sched_jobs: events), so gpu-sched goes first
 * (an earlier program's schedmock loaded it; seen on 7.3: no timeline).
 */
TEST_F(gp, a_drm_sched_job_is_one_job_and_containers_none)
{
	char want[64];
	int me;

	if (!access("/sys/module/" SCHEDMOCK_MODNAME, F_OK))
		ASSERT_EQ(0, schedmock_unload_wait(20000));
	if (!access("/sys/module/gpu_sched", F_OK))
		ASSERT_EQ(0, system("modprobe -r gpu-sched"));
	ASSERT_EQ(0, status_str("drm_sched_jobs", want, sizeof(want)));
	ASSERT_STREQ("fences", want);
	ASSERT_EQ(0, fencegen_load());
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, fence("!drm_sched gfx_ring\n"));
	ASSERT_EQ(0, fence("!drm_sched gfx_ring\n"));
	ASSERT_EQ(0, fence("!drm_sched gfx_ring\n"));
	/* Containers of other fences are no jobs of their own. */
	ASSERT_EQ(0, fence("dma_fence_chain unbound\n"));
	ASSERT_EQ(0, fence("dma_fence_array unbound\n"));
	/* A pair cannot be held: fencegen says so, and makes none. */
	{
		int fd = open(FENCEGEN_HOLD, O_WRONLY);

		ASSERT_LE(0, fd);
		EXPECT_EQ(-1, write(fd, "!drm_sched gfx_ring\n", 20));
		EXPECT_EQ(EINVAL, errno);
		close(fd);
	}
	ASSERT_EQ(0, ctl("stop\n"));

	ASSERT_LT(0, read_file(GP "/timelines", self->buf, sizeof(self->buf)));
	EXPECT_STREQ("0 drm_sched gfx_ring\n", self->buf);
	snprintf(want, sizeof(want), "%.15s", program_invocation_short_name);
	me = find_target(want);
	ASSERT_LT(0, me);
	ASSERT_LT(0, target_file(me, "histogram", self->buf, sizeof(self->buf)));
	EXPECT_STREQ("0 3\n", self->buf);
}

TEST_F(gp, names_are_cleaned_and_cut)
{
	char names[300], want[300];

	ASSERT_EQ(0, fencegen_load());
	ASSERT_EQ(0, ctl("startcp\n"));
	/* A tab in the driver, spaces and a control byte in the timeline. */
	ASSERT_EQ(0, fence("drv\tx ring one\x01two\n"));
	/* 70-byte names are cut to 63. */
	memset(names, 'd', 70);
	names[70] = ' ';
	memset(names + 71, 't', 70);
	names[141] = '\0';
	ASSERT_EQ(0, fence(names));
	ASSERT_EQ(0, ctl("stop\n"));

	snprintf(want, sizeof(want), "0 drv_x ring one_two\n1 %.63s %.63s\n",
		 names, names + 71);
	ASSERT_LT(0, read_file(GP "/timelines", self->buf, sizeof(self->buf)));
	EXPECT_STREQ(want, self->buf);
	EXPECT_EQ(1, status_num("timeline_names_cut"));
}

TEST_F(gp, the_key_space_is_bounded_and_drops_are_counted)
{
	char names[64];
	int i, id;

	ASSERT_EQ(0, fencegen_load());
	ASSERT_EQ(0, ctl("module timeline_test\n"));
	ASSERT_EQ(0, ctl("startcp\n"));
	for (i = 0; i < 4096 + 3; i++) {
		snprintf(names, sizeof(names), "bulk t%d\n", i);
		ASSERT_EQ(0, fence(names));
	}
	ASSERT_EQ(0, ctl("stop\n"));
	EXPECT_EQ(4096, status_num("timelines"));
	EXPECT_EQ(3, status_num("dropped_timelines"));
	id = find_target("timeline_test");
	ASSERT_LT(0, id);
	/* 4096 keys of 1 job each; nothing for the dropped three. */
	EXPECT_EQ(1, hist_value(id, 0));
	EXPECT_EQ(1, hist_value(id, 4095));
	ASSERT_LT(0, target_file(id, "histogram", self->buf, sizeof(self->buf)));
	EXPECT_EQ(4096, ({ int lines = 0; char *p;
			   for (p = self->buf; *p; p++) lines += *p == '\n';
			   lines; }));
}

TEST_HARNESS_MAIN
