// SPDX-License-Identifier: GPL-2.0-only
/*
 * oa_helper=: the module starts the OA pump when profiling starts and
 * stops it, leaving no process behind, when profiling stops.  The pump
 * here is a script that replays a simulated recording into
 * /dev/gpuprof/oa and then waits, as a live pump would, until killed.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/fake_sysfs.h"
#include "../lib/gpuprof.h"
#include "../lib/kmod.h"

#define SCRIPT "/tmp/gpuprof_oa_helper.sh"
#define ARGS "/tmp/gpuprof_oa_helper.args"

static int write_script(void)
{
	FILE *f = fopen(SCRIPT, "w");

	if (!f)
		return -1;
	/* Records its arguments, feeds the device, then runs until killed. */
	fprintf(f, "#!/bin/sh\n"
		"exec 2>/tmp/gpuprof_oa_helper.err\n"
		"echo \"$@\" > " ARGS "\n"
		"%s --sim --duration 0.05 --start-ns now -o \"$3\" || exit 1\n"
		"exec sleep 1000\n", gpuprof_oa_path());
	fclose(f);
	return chmod(SCRIPT, 0755);
}

static pid_t helper_pid(void)
{
	char buf[64];

	if (status_str("oa_helper", buf, sizeof(buf)) || strncmp(buf, "running ", 8))
		return -1;
	return atoi(buf + 8);
}

TEST(start_runs_the_pump_and_stop_ends_it)
{
	char buf[256];
	pid_t pid;
	int i;

	ASSERT_EQ(0, write_script());
	ASSERT_EQ(0, gpuprof_load("oa_helper=" SCRIPT));
	ASSERT_EQ(0, status_str("oa_helper", buf, sizeof(buf)));
	EXPECT_STREQ("stopped", buf);

	ASSERT_EQ(0, ctl("start\n"));
	pid = helper_pid();
	ASSERT_LT(0, pid) TH_LOG("oa_helper: %s", buf);
	/* It was told where to write, and wrote there. */
	for (i = 0; i < 300 && status_num("oa_reports") <= 0; i++)
		sleep_ms(10);
	EXPECT_LT(0, status_num("oa_reports"));
	ASSERT_LT(0, read_file(ARGS, buf, sizeof(buf)));
	EXPECT_STREQ("--device -o /dev/gpuprof/oa\n", buf);
	EXPECT_EQ(0, kill(pid, 0));

	ASSERT_EQ(0, ctl("stop\n"));
	/* Gone when stop returns: no orphan. */
	EXPECT_EQ(-1, kill(pid, 0));
	EXPECT_EQ(ESRCH, errno);
	ASSERT_EQ(0, status_str("oa_helper", buf, sizeof(buf)));
	EXPECT_STREQ("stopped", buf);
	EXPECT_STREQ("closed", (status_str("oa_stream", buf, sizeof(buf)), buf));

	/* Again, and unload while it runs: end stops it too. */
	ASSERT_EQ(0, ctl("startcp\n"));
	pid = helper_pid();
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, ctl("end\n"));
	EXPECT_EQ(-1, kill(pid, 0));
	EXPECT_EQ(0, gpuprof_unload());
}

/*
 * The real pump, gpuprof-oa --device, against the i915 ioctl shim (no
 * Intel GPU here): a wrapper gives it the shim, a fake sysfs and the
 * shim's node; the module gives it --device -o /dev/gpuprof/oa.
 */
#define SYS "/tmp/gpuprof_oa_sys"
#define UUID "0fc397c0-4833-492c-9ccd-4929d574d5b8"

static int write_device_script(void)
{
	char repo[PATH_MAX], *p;
	FILE *f;

	snprintf(repo, sizeof(repo), "%s", gpuprof_oa_path());
	p = strstr(repo, "/tools/perf-gpu/");
	if (!p)
		return -1;
	*p = '\0';
	if (fake_i915_sysfs(SYS, &(struct fake_metric_set){ UUID, 42 }, 1, 0, 0))
		return -1;
	f = fopen(SCRIPT, "w");
	if (!f)
		return -1;
	fprintf(f, "#!/bin/sh\n"
		"exec env GPUPROF_SYSFS_ROOT=" SYS " LD_PRELOAD=%s/selftests/out/libi915_shim.so "
		"%s/tools/perf-gpu/out/gpuprof-oa \"$@\" --node /dev/dri/renderD199 "
		"2>/tmp/gpuprof_oa_helper.err\n", repo, repo);
	fclose(f);
	return chmod(SCRIPT, 0755);
}

TEST(start_runs_gpuprof_oa_device_against_the_i915_shim)
{
	char buf[256];
	pid_t pid;
	int i;

	ASSERT_EQ(0, write_device_script());
	ASSERT_EQ(0, gpuprof_load("oa_helper=" SCRIPT));
	ASSERT_EQ(0, ctl("start\n"));
	pid = helper_pid();
	ASSERT_LT(0, pid);
	/* Live: 1 ms reports, a few seconds of TCG at most to see some. */
	for (i = 0; i < 500 && status_num("oa_reports") < 50; i++)
		sleep_ms(10);
	EXPECT_LE(50, status_num("oa_reports"));
	ASSERT_EQ(0, status_str("oa_stream", buf, sizeof(buf)));
	EXPECT_STREQ("open", buf);
	ASSERT_EQ(0, ctl("stop\n"));
	EXPECT_EQ(-1, kill(pid, 0));
	/* It ended its stream cleanly on SIGTERM: nothing refused. */
	ASSERT_EQ(0, status_str("oa_stream", buf, sizeof(buf)));
	EXPECT_STREQ("closed", buf);
	EXPECT_EQ(0, status_num("oa_rejected_streams"));
	if (read_file("/tmp/gpuprof_oa_helper.err", buf, sizeof(buf)) > 0)
		TH_LOG("pump said: %s", buf);
	EXPECT_EQ(0, gpuprof_unload());
}

TEST(a_helper_that_cannot_start_does_not_stop_profiling)
{
	char buf[64];

	ASSERT_EQ(0, gpuprof_load("oa_helper=/no/such/pump"));
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, status_str("oa_helper", buf, sizeof(buf)));
	EXPECT_STREQ("failed -2", buf);
	ASSERT_EQ(0, status_str("mode", buf, sizeof(buf)));
	EXPECT_STREQ("coverage", buf);
	ASSERT_EQ(0, ctl("stop\n"));
	EXPECT_EQ(0, gpuprof_unload());
}

TEST(without_oa_helper_there_is_none)
{
	char buf[64];

	ASSERT_EQ(0, gpuprof_load(NULL));
	ASSERT_EQ(0, ctl("start\n"));
	ASSERT_EQ(0, status_str("oa_helper", buf, sizeof(buf)));
	EXPECT_STREQ("none", buf);
	ASSERT_EQ(0, ctl("stop\n"));
	EXPECT_EQ(0, gpuprof_unload());
}

TEST_HARNESS_MAIN
