// SPDX-License-Identifier: GPL-2.0-only
/*
 * oa_metric_set=: the module starts its OA helper with --metric-set NAME,
 * refuses at load a value that is no set's name or uuid (it goes into the
 * helper's argv), and the real pump, gpuprof-oa --device against the
 * i915 ioctl shim playing a Coffee Lake GT2 (not the Tiger Lake the shim
 * plays by default), opens the set that name is on that GPU, not the
 * helper's default, and feeds /dev/gpuprof/oa with it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/fake_sysfs.h"
#include "../lib/gpuprof.h"
#include "../lib/kmod.h"

#define SCRIPT "/tmp/gpuprof_oa_metric_set.sh"
#define ARGS "/tmp/gpuprof_oa_metric_set.args"
#define ERR "/tmp/gpuprof_oa_metric_set.err"
#define LOG "/tmp/gpuprof_oa_metric_set.log"
#define SYS "/tmp/gpuprof_oa_metric_set_sys"
/* IGT 1.27.1's sets of Coffee Lake GT2 and of Tiger Lake GT2. */
#define CFL_RENDER_BASIC "7fa796a4-0c7a-4201-afc6-cff0b2f528a2"
#define CFL_COMPUTE_BASIC "a4985100-5f76-4822-8ca7-67908cb26274"
#define TGL_COMPUTE_BASIC "397a46d9-03dd-4696-8196-270362e1c575"

/* What the helper writes, as its uid: none left by a run as another. */
static void forget_helper_files(void)
{
	unlink(ARGS);
	unlink(ERR);
}

/* A pump that records its arguments, feeds the device from the
 * simulator, to the output after -o (its stdout), and runs until killed. */
static int write_sim_script(void)
{
	FILE *f;

	forget_helper_files();
	f = fopen(SCRIPT, "w");
	if (!f)
		return -1;
	fprintf(f, "#!/bin/sh\n"
		"exec 2>" ERR "\n"
		"echo \"$@\" > " ARGS "\n"
		"while [ $# -gt 1 ] && [ \"$1\" != -o ]; do shift; done\n"
		"%s --sim --duration 0.05 --start-ns now -o \"$2\" || exit 1\n"
		"exec sleep 1000\n", gpuprof_oa_path());
	fclose(f);
	return chmod(SCRIPT, 0755);
}

TEST(the_helper_is_given_the_metric_set)
{
	char buf[256];
	pid_t pid;
	int i;

	ASSERT_EQ(0, write_sim_script());
	ASSERT_EQ(0, gpuprof_load("oa_helper=" SCRIPT " oa_metric_set=ComputeBasic"));
	ASSERT_EQ(0, ctl("start\n"));
	pid = oa_helper_pid();
	ASSERT_LT(0, pid);
	for (i = 0; i < 300 && status_num("oa_reports") <= 0; i++)
		sleep_ms(10);
	EXPECT_LT(0, status_num("oa_reports"));
	ASSERT_LT(0, read_file(ARGS, buf, sizeof(buf)));
	EXPECT_STREQ("--device --metric-set ComputeBasic -o -\n", buf);
	ASSERT_EQ(0, ctl("stop\n"));
	EXPECT_EQ(-1, kill(pid, 0));
	EXPECT_EQ(0, gpuprof_unload());

	/* A uuid goes through as it is. */
	ASSERT_EQ(0, gpuprof_load("oa_helper=" SCRIPT " oa_metric_set=" CFL_RENDER_BASIC));
	ASSERT_EQ(0, ctl("start\n"));
	for (i = 0; i < 300 && status_num("oa_reports") <= 0; i++)
		sleep_ms(10);
	ASSERT_LT(0, read_file(ARGS, buf, sizeof(buf)));
	EXPECT_STREQ("--device --metric-set " CFL_RENDER_BASIC " -o -\n", buf);
	ASSERT_EQ(0, ctl("stop\n"));
	EXPECT_EQ(0, gpuprof_unload());
}

/* What cannot be a set's name or uuid never reaches an argv. */
TEST(a_bad_metric_set_is_refused_at_load)
{
	static const char *const bad[] = {
		"oa_metric_set=Render;Basic", "oa_metric_set=-v",
		"oa_metric_set=a/b", "oa_metric_set=\"Render Basic\"",
		"oa_metric_set=RenderBasic$x",
		"oa_metric_set=A1234567890123456789012345678901234567890123456789012345678901234",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-EINVAL, gpuprof_load(bad[i])) TH_LOG("%s", bad[i]);
		if (!access("/sys/module/gpuprof", F_OK))
			gpuprof_unload();
	}
	/* 64 characters is the most. */
	ASSERT_EQ(0, gpuprof_load("oa_metric_set=A123456789012345678901234567890123456789012345678901234567890123"));
	EXPECT_EQ(0, gpuprof_unload());
}

/*
 * The real pump on a Coffee Lake GT2 (GPUPROF_SHIM_DEVICE_ID): sysfs
 * offers that GPU's ComputeBasic as id 42 and Tiger Lake's as 43, and
 * not the helper's default, RenderBasic; the helper, told ComputeBasic,
 * opens 42 and its reports reach the module.
 */
static int write_device_script(void)
{
	static const struct fake_metric_set sets[] = {
		{ CFL_COMPUTE_BASIC, 42 }, { TGL_COMPUTE_BASIC, 43 },
	};
	char repo[PATH_MAX], *p;
	const char *shim;
	FILE *f;

	snprintf(repo, sizeof(repo), "%s", gpuprof_oa_path());
	p = strstr(repo, "/tools/perf-gpu/");
	if (!p)
		return -1;
	*p = '\0';
	forget_helper_files();
	if (system("rm -rf " SYS " " LOG) ||
	    fake_i915_sysfs(SYS, sets, 2, 0, 0))
		return -1;
	f = fopen(SCRIPT, "w");
	if (!f)
		return -1;
	/* The shim is $GPUPROF_I915_SHIM, else the one built here. */
	shim = getenv("GPUPROF_I915_SHIM");
	fprintf(f, "#!/bin/sh\n"
		"echo \"$@\" > " ARGS "\n"
		"exec env GPUPROF_SHIM_DEVICE_ID=0x3e92 GPUPROF_SHIM_LOG=" LOG
		" GPUPROF_SYSFS_ROOT=" SYS " LD_PRELOAD=%s%s "
		"%s/tools/perf-gpu/out/gpuprof-oa \"$@\" --node /dev/dri/renderD199 "
		"2>" ERR "\n", shim ? shim : repo,
		shim ? "" : "/selftests/out/libi915_shim.so", repo);
	fclose(f);
	return chmod(SCRIPT, 0755);
}

TEST(the_pump_opens_the_named_set_of_a_coffee_lake)
{
	char buf[4096];
	pid_t pid;
	int i;

	ASSERT_EQ(0, write_device_script());
	ASSERT_EQ(0, gpuprof_load("oa_helper=" SCRIPT " oa_metric_set=ComputeBasic"));
	ASSERT_EQ(0, ctl("start\n"));
	pid = oa_helper_pid();
	ASSERT_LT(0, pid);
	for (i = 0; i < 500 && status_num("oa_reports") < 50; i++)
		sleep_ms(10);
	EXPECT_LE(50, status_num("oa_reports"));
	ASSERT_EQ(0, status_str("oa_stream", buf, sizeof(buf)));
	EXPECT_STREQ("open", buf);
	ASSERT_EQ(0, ctl("stop\n"));
	EXPECT_EQ(-1, kill(pid, 0));
	ASSERT_EQ(0, status_str("oa_stream", buf, sizeof(buf)));
	EXPECT_STREQ("closed", buf);
	EXPECT_EQ(0, status_num("oa_rejected_streams"));
	/* The stream was opened with Coffee Lake's ComputeBasic, id 42. */
	ASSERT_LT(0, read_file(LOG, buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "\nprop 3 42\n")) TH_LOG("shim log:\n%s", buf);
	if (read_file(ERR, buf, sizeof(buf)) > 0)
		TH_LOG("pump said: %s", buf);
	EXPECT_EQ(0, gpuprof_unload());
}

TEST_HARNESS_MAIN
