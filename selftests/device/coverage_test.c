// SPDX-License-Identifier: GPL-2.0-only
/*
 * Coverage profiling ("startcp") with real vgem fences: exact job counts,
 * attribution to the right target only, matching by comm and by path,
 * automatic targets, and the lifetime of targets and their files.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/fixture.h"

static int vgem_timeline(void)
{
	return timeline_id("vgem", "unbound");
}

TEST_F(gp, k_fences_give_k_jobs_on_vgem_unbound)
{
	char want[64];
	int id, tl;

	ASSERT_EQ(0, ctl("module cov_k\n"));
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, gpuwork("-n cov_k fences 25"));
	ASSERT_EQ(0, ctl("stop\n"));

	id = find_target("cov_k");
	ASSERT_LT(0, id);
	tl = vgem_timeline();
	ASSERT_LE(0, tl) TH_LOG("no vgem unbound timeline");
	/* Exactly one key: the vgem timeline, with exactly 25 jobs. */
	snprintf(want, sizeof(want), "%d 25\n", tl);
	ASSERT_LT(0, target_file(id, "histogram", self->buf, sizeof(self->buf)));
	EXPECT_STREQ(want, self->buf);
}

TEST_F(gp, each_target_gets_only_its_own_jobs)
{
	int a, b, tl;

	ASSERT_EQ(0, ctl("module cov_a cov_b\n"));
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, gpuwork("-n cov_a fences 7"));
	ASSERT_EQ(0, gpuwork("-n cov_b fences 3"));
	ASSERT_EQ(0, gpuwork("-n cov_other fences 5"));
	ASSERT_EQ(0, ctl("stop\n"));

	a = find_target("cov_a");
	b = find_target("cov_b");
	tl = vgem_timeline();
	ASSERT_LT(0, a);
	ASSERT_LT(0, b);
	EXPECT_EQ(7, hist_value(a, tl));
	EXPECT_EQ(3, hist_value(b, tl));
	/* The unlisted process got no directory. */
	EXPECT_EQ(2, status_num("targets"));
	EXPECT_EQ(-1, find_target("cov_other"));
}

/*
 * A client per vCPU at once, with full preemption where it can be had:
 * their probes run side by side, sharing no lock (design.rst 3.7), and
 * each target still counts exactly its own jobs, none left in flight.
 */
TEST_F(gp, clients_side_by_side_count_exactly_their_jobs)
{
	char cmd[2 * PATH_MAX + 128], old[64] = "";
	int a, b, tl, err, st;

	err = preempt_full(old, sizeof(old));
	ASSERT_EQ(0, ctl("module cov_side0 cov_side1\n"));
	ASSERT_EQ(0, ctl("startcp\n"));
	snprintf(cmd, sizeof(cmd),
		 "%s -n cov_side0 fences 3000 & %s -n cov_side1 fences 2000; "
		 "s=$?; wait $! && exit $s", gpuwork_path(), gpuwork_path());
	st = system(cmd);
	EXPECT_EQ(0, status_num("jobs_in_flight"));
	ASSERT_EQ(0, ctl("stop\n"));
	if (!err)
		write_file("/sys/kernel/debug/sched/preempt", old);
	ASSERT_TRUE(st != -1 && WIFEXITED(st) && !WEXITSTATUS(st));

	a = find_target("cov_side0");
	b = find_target("cov_side1");
	tl = vgem_timeline();
	ASSERT_LT(0, a);
	ASSERT_LT(0, b);
	TH_LOG("preemption %s; counted %lld and %lld; %lld jobs dropped",
	       err ? "as it was" : "full", hist_value(a, tl), hist_value(b, tl),
	       status_num("dropped_jobs"));
	EXPECT_EQ(3000, hist_value(a, tl));
	EXPECT_EQ(2000, hist_value(b, tl));
	EXPECT_EQ(0, status_num("dropped_jobs"));
}

TEST_F(gp, without_names_every_process_gets_a_directory)
{
	int one, ids[16], n, i, named_two = 0;
	long long two_sum = 0;
	int tl;

	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, gpuwork("-n auto_one fences 4"));
	ASSERT_EQ(0, gpuwork("-n auto_two fences 6"));
	ASSERT_EQ(0, gpuwork("-n auto_two fences 1"));
	ASSERT_EQ(0, ctl("stop\n"));

	one = find_target("auto_one");
	tl = vgem_timeline();
	ASSERT_LT(0, one);
	EXPECT_EQ(4, hist_value(one, tl));
	/* Two processes, two directories, even with one name. */
	ASSERT_LT(0, find_target("auto_two"));
	n = target_ids(ids, 16);
	for (i = 0; i < n; i++) {
		if (target_file(ids[i], "name", self->buf, sizeof(self->buf)) > 0 &&
		    !strcmp(self->buf, "auto_two\n")) {
			named_two++;
			two_sum += hist_value(ids[i], tl);
		}
	}
	EXPECT_EQ(2, named_two);
	EXPECT_EQ(7, two_sum);
	EXPECT_EQ(3, status_num("targets"));
	/* An automatic target knows its executable. */
	ASSERT_LT(0, target_file(one, "path", self->buf, sizeof(self->buf)));
	EXPECT_EQ(0, strncmp(self->buf, gpuwork_path(), strlen(gpuwork_path())));
}

TEST_F(gp, clearing_names_keeps_a_process_in_its_own_directory)
{
	char cmd[PATH_MAX + 64];
	int ids[16], n, i, named = 0;

	ASSERT_EQ(0, ctl("startcp\n"));
	/*
	 * One process, jobs 400 ms apart, across "module x" and "module";
	 * waited for as long as it takes to start (seconds on the debug
	 * kernel, where find_target()'s one second ran out).
	 */
	snprintf(cmd, sizeof(cmd), "%s -n auto_keep fences 5 %u &",
		 gpuwork_path(), 400 * gpuprof_time_scale());
	ASSERT_EQ(0, system(cmd));
	for (i = 0; i < 20 * (int)gpuprof_time_scale() &&
		    find_target("auto_keep") <= 0; i++)
		;
	ASSERT_LT(0, find_target("auto_keep"));
	ASSERT_EQ(0, ctl("module someone_else\n"));
	ASSERT_EQ(0, ctl("module\n"));
	sleep_ms(2500 * gpuprof_time_scale());
	ASSERT_EQ(0, ctl("stop\n"));
	n = target_ids(ids, 16);
	for (i = 0; i < n; i++)
		if (target_file(ids[i], "name", self->buf, sizeof(self->buf)) > 0 &&
		    !strcmp(self->buf, "auto_keep\n"))
			named++;
	EXPECT_EQ(1, named);
}

TEST_F(gp, a_name_with_a_slash_matches_the_executable_path)
{
	char cmd[PATH_MAX + 16], want[PATH_MAX + 16];
	int id, tl;

	snprintf(cmd, sizeof(cmd), "module %s\n", gpuwork_path());
	ASSERT_EQ(0, ctl(cmd));
	ASSERT_EQ(0, ctl("startcp\n"));
	/* Whatever the process calls itself. */
	ASSERT_EQ(0, gpuwork("-n by_path_x fences 5"));
	ASSERT_EQ(0, gpuwork("-n by_path_y fences 2"));
	ASSERT_EQ(0, ctl("stop\n"));

	id = find_target(gpuwork_path());
	tl = vgem_timeline();
	ASSERT_LT(0, id);
	EXPECT_EQ(7, hist_value(id, tl));
	snprintf(want, sizeof(want), "%s\n", gpuwork_path());
	ASSERT_LT(0, target_file(id, "path", self->buf, sizeof(self->buf)));
	EXPECT_STREQ(want, self->buf);
}

TEST_F(gp, a_comm_target_learns_its_path)
{
	char want[PATH_MAX + 16];
	int id;

	ASSERT_EQ(0, ctl("module cov_path\n"));
	id = find_target("cov_path");
	ASSERT_LT(0, id);
	/* Not known until a process matches. */
	EXPECT_EQ(0, target_file(id, "path", self->buf, sizeof(self->buf)));
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, gpuwork("-n cov_path fences 1"));
	ASSERT_EQ(0, ctl("stop\n"));
	snprintf(want, sizeof(want), "%s\n", gpuwork_path());
	ASSERT_LT(0, target_file(id, "path", self->buf, sizeof(self->buf)));
	EXPECT_STREQ(want, self->buf);
}

TEST_F(gp, module_without_names_clears_the_list)
{
	int id;

	ASSERT_EQ(0, ctl("module cl_a cl_b\n"));
	EXPECT_EQ(2, status_num("targets"));
	ASSERT_EQ(0, ctl("module\n"));
	EXPECT_EQ(0, status_num("targets"));
	EXPECT_EQ(-1, access(GP "/1", F_OK));
	/* And with the list empty, every process is profiled again. */
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, gpuwork("-n cl_c fences 2"));
	ASSERT_EQ(0, ctl("stop\n"));
	id = find_target("cl_c");
	EXPECT_EQ(3, id);
	EXPECT_EQ(2, hist_value(id, vgem_timeline()));
}

TEST_F(gp, end_makes_open_files_return_enodev)
{
	int id, hfd, nfd, pfd;
	char path[64], c;

	ASSERT_EQ(0, ctl("module cov_end\n"));
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, gpuwork("-n cov_end fences 2"));
	id = find_target("cov_end");
	ASSERT_LT(0, id);
	snprintf(path, sizeof(path), GP "/%d/histogram", id);
	hfd = open(path, O_RDONLY);
	snprintf(path, sizeof(path), GP "/%d/name", id);
	nfd = open(path, O_RDONLY);
	snprintf(path, sizeof(path), GP "/%d/pctl", id);
	pfd = open(path, O_WRONLY);
	ASSERT_LE(0, hfd);
	ASSERT_LE(0, nfd);
	ASSERT_LE(0, pfd);
	ASSERT_EQ(1, read(nfd, &c, 1));

	ASSERT_EQ(0, ctl("end\n"));
	EXPECT_EQ(-1, read(hfd, self->buf, sizeof(self->buf)));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(-1, read(nfd, &c, 1));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(-1, write(pfd, "reset\n", 6));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(-1, access(path, F_OK));
	EXPECT_EQ(0, status_num("targets"));
	EXPECT_EQ(0, strcmp("idle", (status_str("mode", self->buf, 64), self->buf)));
	close(hfd);
	close(nfd);
	close(pfd);
}

TEST_F(gp, ids_are_never_reused)
{
	int first, second;

	ASSERT_EQ(0, ctl("module id_a\n"));
	first = find_target("id_a");
	ASSERT_EQ(0, ctl("end\n"));
	ASSERT_EQ(0, ctl("module id_a\n"));
	second = find_target("id_a");
	EXPECT_EQ(1, first);
	EXPECT_EQ(2, second);
	ASSERT_EQ(0, ctl("module\n"));
	ASSERT_EQ(0, ctl("module id_b\n"));
	EXPECT_EQ(3, find_target("id_b"));
}

TEST_F(gp, stop_keeps_histograms_and_start_adds)
{
	int id, tl;

	ASSERT_EQ(0, ctl("module cov_add\n"));
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, gpuwork("-n cov_add fences 3"));
	ASSERT_EQ(0, ctl("stop\n"));
	/* Work while stopped is not counted. */
	ASSERT_EQ(0, gpuwork("-n cov_add fences 10"));
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, gpuwork("-n cov_add fences 2"));
	ASSERT_EQ(0, ctl("stop\n"));
	id = find_target("cov_add");
	tl = vgem_timeline();
	EXPECT_EQ(5, hist_value(id, tl));

	ASSERT_EQ(0, ctl("reset\n"));
	ASSERT_EQ(0, target_file(id, "histogram", self->buf, sizeof(self->buf)));
}

TEST_F(gp, pctl_reset_zeroes_one_target)
{
	char path[64];
	int a, b, tl;

	ASSERT_EQ(0, ctl("module pr_a pr_b\n"));
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, gpuwork("-n pr_a fences 2"));
	ASSERT_EQ(0, gpuwork("-n pr_b fences 3"));
	ASSERT_EQ(0, ctl("stop\n"));
	a = find_target("pr_a");
	b = find_target("pr_b");
	tl = vgem_timeline();
	snprintf(path, sizeof(path), GP "/%d/pctl", a);
	ASSERT_EQ(0, write_file(path, "reset\n"));
	EXPECT_EQ(0, hist_value(a, tl));
	EXPECT_EQ(3, hist_value(b, tl));
	EXPECT_EQ(0, write_file(path, "ctxid 1f\n"));
	EXPECT_EQ(0, write_file(path, "ctxid 0x1F\n"));
	EXPECT_EQ(0, write_file(path, "unbind\n"));
	EXPECT_EQ(-EINVAL, write_file(path, "ctxid\n"));
	EXPECT_EQ(-EINVAL, write_file(path, "ctxid -1\n"));
	EXPECT_EQ(-EINVAL, write_file(path, "ctxid +1\n"));
	EXPECT_EQ(-EINVAL, write_file(path, "ctxid xyz\n"));
	EXPECT_EQ(-EINVAL, write_file(path, "ctxid 1ffffffffffffffff\n"));
	/* Report context ids are 32 bits, and all ones means none. */
	EXPECT_EQ(-EINVAL, write_file(path, "ctxid 100000000\n"));
	EXPECT_EQ(-EINVAL, write_file(path, "ctxid ffffffff\n"));
	EXPECT_EQ(0, write_file(path, "ctxid fffffffe\n"));
	EXPECT_EQ(-EINVAL, write_file(path, "ctxid 1 2\n"));
	EXPECT_EQ(-EINVAL, write_file(path, "reset 1\n"));
	EXPECT_EQ(-EINVAL, write_file(path, "bogus\n"));
	EXPECT_EQ(3, hist_value(b, tl));
}

TEST_F(gp, another_mode_while_running_is_busy)
{
	ASSERT_EQ(0, status_str("histograms", self->buf, 64));
	EXPECT_STREQ("none", self->buf);
	ASSERT_EQ(0, ctl("startcp\n"));
	EXPECT_EQ(-EBUSY, ctl("start\n"));
	EXPECT_EQ(-EBUSY, ctl("startmp\n"));
	EXPECT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, status_str("mode", self->buf, 64));
	EXPECT_STREQ("coverage", self->buf);
	ASSERT_EQ(0, ctl("stop\n"));
	ASSERT_EQ(0, status_str("mode", self->buf, 64));
	EXPECT_STREQ("idle", self->buf);
	/* Stopped, the histograms still hold coverage. */
	ASSERT_EQ(0, status_str("histograms", self->buf, 64));
	EXPECT_STREQ("coverage", self->buf);
	ASSERT_EQ(0, ctl("start\n"));
	ASSERT_EQ(0, status_str("mode", self->buf, 64));
	EXPECT_STREQ("time", self->buf);
	EXPECT_EQ(-EBUSY, ctl("startcp\n"));
}

TEST_F(gp, timelines_lists_vgem)
{
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, gpuwork("-n tl_list fences 3"));
	EXPECT_EQ(0, ctl("stop\n"));
	ASSERT_LT(0, read_file(GP "/timelines", self->buf, sizeof(self->buf)));
	/* vgem makes a context per fence, yet one timeline. */
	EXPECT_STREQ("0 vgem unbound\n", self->buf);
	EXPECT_EQ(1, status_num("timelines"));
}

TEST_HARNESS_MAIN
