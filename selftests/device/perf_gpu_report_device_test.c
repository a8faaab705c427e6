// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu report --device ($GPUPROF_PERF_GPU) on the loaded module,
 * with coverage profiling of real vgem jobs: one target with K jobs has
 * 100% of them on vgem/unbound; two processes with K1 and K2 jobs have
 * K1/(K1+K2) and K2/(K1+K2), in text and in CSV.  Reported while
 * startcp still runs: after stop, status's mode is idle.
 */
#include <stdio.h>
#include <string.h>

#include "../lib/harness.h"
#include "../lib/fixture.h"
#include "../lib/run.h"

/* The row of the text report for @pct, @value and @what. */
static const char *row(const char *pct, int value, const char *what)
{
	static char line[PATH_MAX + 128];

	/* The value column is as wide as the unit's name, "jobs". */
	snprintf(line, sizeof(line), "%8s  %4d  %s\n", pct, value, what);
	return line;
}

TEST_F(gp, one_target_has_all_its_jobs_on_vgem)
{
	static const char head[] =
		"# /dev/gpuprof: coverage profile, 5 jobs in 1 target\n";
	char what[PATH_MAX + 64];

	ASSERT_EQ(0, ctl("module rd_one\n"));
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, gpuwork("-n rd_one fences 5"));
	ASSERT_EQ(0, run_cmd(self->buf, sizeof(self->buf), "%s report --device",
			     perf_gpu_path())) TH_LOG("%s", self->buf);
	ASSERT_EQ(0, ctl("stop\n"));

	EXPECT_EQ(0, strncmp(self->buf, head, strlen(head)))
		TH_LOG("%s", self->buf);
	snprintf(what, sizeof(what), "1 rd_one (%s)", gpuwork_path());
	EXPECT_NE(NULL, strstr(self->buf, row("100.00%", 5, what)))
		TH_LOG("%s", self->buf);
	EXPECT_NE(NULL, strstr(self->buf, row("100.00%", 5, "    vgem/unbound")));
	/* No OA stream was fed: the counters are there, all zero. */
	EXPECT_NE(NULL, strstr(self->buf, "      counters: gpu_time_ns=0 "
			       "gpu_clock_ticks=0 avg_gpu_freq_mhz=0 reports=0\n"));
}

TEST_F(gp, two_processes_share_by_their_jobs)
{
	char want[PATH_MAX + 128];
	int tl;

	ASSERT_EQ(0, ctl("module rd_a rd_b\n"));
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, gpuwork("-n rd_a fences 2"));
	ASSERT_EQ(0, gpuwork("-n rd_b fences 1"));
	ASSERT_EQ(0, run_cmd(self->buf, sizeof(self->buf), "%s report --device",
			     perf_gpu_path())) TH_LOG("%s", self->buf);

	/* 2 of 3 jobs and 1 of 3, rounded to hundredths. */
	snprintf(want, sizeof(want), "1 rd_a (%s)", gpuwork_path());
	EXPECT_NE(NULL, strstr(self->buf, row("66.67%", 2, want)))
		TH_LOG("%s", self->buf);
	EXPECT_NE(NULL, strstr(self->buf, row("66.67%", 2, "    vgem/unbound")));
	snprintf(want, sizeof(want), "2 rd_b (%s)", gpuwork_path());
	EXPECT_NE(NULL, strstr(self->buf, row("33.33%", 1, want)));
	EXPECT_NE(NULL, strstr(self->buf, row("33.33%", 1, "    vgem/unbound")));
	EXPECT_NE(NULL, strstr(self->buf, row("100.00%", 3, "all targets")));

	/* CSV: one row per target and key, the counters after. */
	ASSERT_EQ(0, run_cmd(self->buf, sizeof(self->buf),
			     "%s report --device --format=csv", perf_gpu_path()))
		TH_LOG("%s", self->buf);
	ASSERT_EQ(0, ctl("stop\n"));
	tl = timeline_id("vgem", "unbound");
	ASSERT_LE(0, tl);
	EXPECT_NE(NULL, strstr(self->buf, "\ntarget,name,path,key,key_name,value,percent,gpu_time_ns,"))
		TH_LOG("%s", self->buf);
	snprintf(want, sizeof(want), "\n1,rd_a,%s,%d,vgem/unbound,2,66.67,0,",
		 gpuwork_path(), tl);
	EXPECT_NE(NULL, strstr(self->buf, want));
	snprintf(want, sizeof(want), "\n2,rd_b,%s,%d,vgem/unbound,1,33.33,0,",
		 gpuwork_path(), tl);
	EXPECT_NE(NULL, strstr(self->buf, want));
}

TEST_HARNESS_MAIN
