// SPDX-License-Identifier: GPL-2.0-only
/*
 * oa_helper=: the module starts the OA pump when profiling starts and
 * stops it, leaving no process behind, when profiling stops.  The pump
 * here is a script that replays a simulated recording into its stdout,
 * which the module made /dev/gpuprof/oa, and then waits, as a live pump
 * would, until killed.  The pump runs as oa_helper_uid:oa_helper_gid with
 * CAP_PERFMON alone, which the kernel's /proc/PID/status tells.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/fake_sysfs.h"
#include "../lib/gpuprof.h"
#include "../lib/kmod.h"

#define SCRIPT "/tmp/gpuprof_oa_helper.sh"
#define ARGS "/tmp/gpuprof_oa_helper.args"
#define ERR "/tmp/gpuprof_oa_helper.err"
#define TRIED "/tmp/gpuprof_oa_helper.tried"
#define SECRET "/tmp/gpuprof_oa_helper.secret"
#define CHILD "/tmp/gpuprof_oa_helper.child"
#define DONE "/tmp/gpuprof_oa_helper.done"

/* What the helper writes, as its uid: none left by a run as another. */
static void forget_helper_files(void)
{
	unlink(ARGS);
	unlink(ERR);
	unlink(TRIED);
	unlink(CHILD);
	unlink(DONE);
}

/* The helper script: @fmt's text, made executable; 0 or -1. */
static int __attribute__((format(printf, 1, 2)))
write_helper(const char *fmt, ...)
{
	va_list ap;
	FILE *f;
	int n;

	forget_helper_files();
	f = fopen(SCRIPT, "w");
	if (!f)
		return -1;
	va_start(ap, fmt);
	n = vfprintf(f, fmt, ap);
	va_end(ap);
	if (fclose(f) || n < 0)
		return -1;
	return chmod(SCRIPT, 0755);
}

static int write_script(void)
{

	/*
	 * Records its arguments and what its rights let it open (a root
	 * file of mode 0600, and ctl, root's 0600 node), feeds its stdout,
	 * then runs until killed.
	 */
	return write_helper("#!/bin/sh\n"
		"exec 2>" ERR "\n"
		"echo \"$@\" > " ARGS "\n"
		"{ cat " SECRET " >/dev/null 2>&1 && echo read || echo refused\n"
		"  (exec >>/dev/gpuprof/ctl) 2>/dev/null && echo opened || echo refused\n"
		"} > " TRIED "\n"
		"%s --sim --duration 0.05 --start-ns now -o \"$3\" || exit 1\n"
		": > " DONE "\n"
		"exec sleep 1000\n", gpuprof_oa_path());
}

/*
 * Whether the pump wrote its whole stream and exited, within 10 s: a stop
 * before that ends it mid-stream, and a record it cut short makes the
 * module refuse the stream (oa.c), rightly.
 */
static bool pump_done(void)
{
	int i;

	for (i = 0; i < 1000; i++) {
		if (!access(DONE, F_OK))
			return true;
		sleep_ms(10);
	}
	return false;
}

/* What the helper said on its way, for a failure's log. */
static const char *helper_said(void)
{
	static char buf[1024];

	if (read_file(ERR, buf, sizeof(buf)) <= 0)
		snprintf(buf, sizeof(buf), "(nothing)");
	return buf;
}

/* One "Name:\tvalue" line of /proc/PID/status, the value. */
static int proc_status(pid_t pid, const char *name, char *val, size_t size)
{
	char path[64], buf[4096], *p, *end;
	size_t n = strlen(name);

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	for (p = buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, name, n) || p[n] != ':')
			continue;
		p += n + 1;
		p += strspn(p, "\t ");
		end = strchr(p, '\n');
		n = end ? (size_t)(end - p) : strlen(p);
		/* Groups: ends in a space after each group. */
		while (n && p[n - 1] == ' ')
			n--;
		snprintf(val, size, "%.*s", (int)n, p);
		return 0;
	}
	return -1;
}

/*
 * A wrapper whose child holds the oa node: a process left behind in the
 * background, then the pump, then a wait, as a wrapper script would.
 */
static int write_wrapper_script(void)
{

	return write_helper("#!/bin/sh\n"
		"exec 2>" ERR "\n"
		"sleep 1000 &\n"
		"echo $! > " CHILD "\n"
		"%s --sim --duration 0.05 --start-ns now -o \"$3\" || exit 1\n"
		": > " DONE "\n"
		"wait\n", gpuprof_oa_path());
}

/* Stop ends the helper's children too: none is left holding the node. */
TEST(stop_ends_what_the_helper_started)
{
	char buf[256];
	pid_t child = 0;
	int i;

	ASSERT_EQ(0, write_wrapper_script());
	ASSERT_EQ(0, gpuprof_load("oa_helper=" SCRIPT));
	ASSERT_EQ(0, ctl("start\n"));
	for (i = 0; i < 300 && (status_num("oa_reports") <= 0 || child <= 0); i++) {
		sleep_ms(10);
		if (read_file(CHILD, buf, sizeof(buf)) > 0)
			child = atoi(buf);
	}
	ASSERT_LT(0, child) TH_LOG("pump said: %s", helper_said());
	EXPECT_LT(0, status_num("oa_reports"));
	ASSERT_EQ(0, kill(child, 0));
	ASSERT_TRUE(pump_done()) TH_LOG("pump said: %s", helper_said());

	ASSERT_EQ(0, ctl("stop\n"));
	/* Gone, or a zombie that init has yet to reap: its files closed. */
	if (!proc_status(child, "State", buf, sizeof(buf)))
		EXPECT_EQ('Z', buf[0]) TH_LOG("child %d: %s", child, buf);
	ASSERT_EQ(0, status_str("oa_stream", buf, sizeof(buf)));
	EXPECT_STREQ("closed", buf);
	EXPECT_EQ(0, gpuprof_unload());
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
	pid = oa_helper_pid();
	ASSERT_LT(0, pid) TH_LOG("oa_helper: %s", buf);
	/* It was told where to write, and wrote there. */
	for (i = 0; i < 300 && status_num("oa_reports") <= 0; i++)
		sleep_ms(10);
	EXPECT_LT(0, status_num("oa_reports")) TH_LOG("pump said: %s", helper_said());
	ASSERT_LT(0, read_file(ARGS, buf, sizeof(buf)));
	EXPECT_STREQ("--device -o -\n", buf);
	EXPECT_EQ(0, kill(pid, 0));
	ASSERT_TRUE(pump_done()) TH_LOG("pump said: %s", helper_said());

	ASSERT_EQ(0, ctl("stop\n"));
	/* Gone when stop returns: no orphan. */
	EXPECT_EQ(-1, kill(pid, 0));
	EXPECT_EQ(ESRCH, errno);
	ASSERT_EQ(0, status_str("oa_helper", buf, sizeof(buf)));
	EXPECT_STREQ("stopped", buf);
	EXPECT_STREQ("closed", (status_str("oa_stream", buf, sizeof(buf)), buf));

	/* Again, and unload while it runs: end stops it too. */
	ASSERT_EQ(0, ctl("startcp\n"));
	pid = oa_helper_pid();
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, ctl("end\n"));
	EXPECT_EQ(-1, kill(pid, 0));
	EXPECT_EQ(0, gpuprof_unload());
}

/* Each of the helper's capability sets is CAP_PERFMON (38) alone. */
#define ONLY_CAP_PERFMON "0000004000000000"

static void expect_helper_creds(struct __test_metadata *_metadata, pid_t pid,
				const char *ids, const char *gids)
{
	static const char *const sets[] = {
		"CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb",
	};
	char buf[256];
	size_t i;

	ASSERT_EQ(0, proc_status(pid, "Uid", buf, sizeof(buf)));
	EXPECT_STREQ(ids, buf);
	ASSERT_EQ(0, proc_status(pid, "Gid", buf, sizeof(buf)));
	EXPECT_STREQ(gids, buf);
	ASSERT_EQ(0, proc_status(pid, "Groups", buf, sizeof(buf)));
	EXPECT_STREQ("", buf);
	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		ASSERT_EQ(0, proc_status(pid, sets[i], buf, sizeof(buf)));
		EXPECT_STREQ(ONLY_CAP_PERFMON, buf) TH_LOG("%s", sets[i]);
	}
	ASSERT_EQ(0, proc_status(pid, "NoNewPrivs", buf, sizeof(buf)));
	EXPECT_STREQ("1", buf);
}

static int write_secret(void)
{
	int fd = open(SECRET, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		return -1;
	close(fd);
	return chmod(SECRET, 0600);
}

/*
 * Load with @params, start, and check the running pump's credentials
 * (@ids and @gids, /proc's four columns) and what they let it open.
 */
static void helper_runs_as(struct __test_metadata *_metadata,
			   const char *params, const char *ids,
			   const char *gids)
{
	char buf[256];
	pid_t pid;
	int i;

	ASSERT_EQ(0, write_script());
	ASSERT_EQ(0, write_secret());
	ASSERT_EQ(0, gpuprof_load(params));
	ASSERT_EQ(0, ctl("start\n"));
	pid = oa_helper_pid();
	ASSERT_LT(0, pid);
	for (i = 0; i < 300 && status_num("oa_reports") <= 0; i++)
		sleep_ms(10);
	EXPECT_LT(0, status_num("oa_reports")) TH_LOG("pump said: %s", helper_said());
	expect_helper_creds(_metadata, pid, ids, gids);
	/* Its stdout was the oa node, but it is no root: ctl is closed. */
	ASSERT_LT(0, read_file(TRIED, buf, sizeof(buf)));
	EXPECT_STREQ("refused\nrefused\n", buf);
	ASSERT_EQ(0, ctl("stop\n"));
	EXPECT_EQ(-1, kill(pid, 0));
	EXPECT_EQ(0, gpuprof_unload());
}

/* Started by default as nobody:nogroup, not as the kernel's root. */
TEST(the_helper_runs_as_nobody_with_cap_perfmon_alone)
{
	helper_runs_as(_metadata, "oa_helper=" SCRIPT,
		       "65534\t65534\t65534\t65534", "65534\t65534\t65534\t65534");
}

/* oa_helper_uid= and oa_helper_gid= choose; -1 is no id. */
TEST(the_helper_runs_as_the_ids_given)
{
	helper_runs_as(_metadata, "oa_helper=" SCRIPT " oa_helper_uid=41003 oa_helper_gid=41004",
		       "41003\t41003\t41003\t41003", "41004\t41004\t41004\t41004");
	EXPECT_EQ(-EINVAL, gpuprof_load("oa_helper_uid=4294967295"));
	if (!access("/sys/module/gpuprof", F_OK))
		gpuprof_unload();
	EXPECT_EQ(-EINVAL, gpuprof_load("oa_helper_gid=-1"));
	if (!access("/sys/module/gpuprof", F_OK))
		gpuprof_unload();
}

/*
 * The real pump, gpuprof-oa --device, against the i915 ioctl shim (no
 * Intel GPU here): a wrapper gives it the shim, a fake sysfs and the
 * shim's node; the module gives it --device -o - and the oa node as
 * its stdout.
 */
#define SYS "/tmp/gpuprof_oa_sys"
#define UUID "0fc397c0-4833-492c-9ccd-4929d574d5b8"

static int write_device_script(void)
{
	char repo[PATH_MAX], *p;

	snprintf(repo, sizeof(repo), "%s", gpuprof_oa_path());
	p = strstr(repo, "/tools/perf-gpu/");
	if (!p)
		return -1;
	*p = '\0';
	if (fake_i915_sysfs(SYS, &(struct fake_metric_set){ UUID, 42 }, 1, 0, 0))
		return -1;
	return write_helper("#!/bin/sh\n"
		"exec env GPUPROF_SYSFS_ROOT=" SYS " LD_PRELOAD=%s/selftests/out/libi915_shim.so "
		"%s/tools/perf-gpu/out/gpuprof-oa \"$@\" --node /dev/dri/renderD199 "
		"2>" ERR "\n", repo, repo);
}

TEST(start_runs_gpuprof_oa_device_against_the_i915_shim)
{
	char buf[256];
	pid_t pid;
	int i;

	ASSERT_EQ(0, write_device_script());
	ASSERT_EQ(0, gpuprof_load("oa_helper=" SCRIPT));
	ASSERT_EQ(0, ctl("start\n"));
	pid = oa_helper_pid();
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
	if (read_file(ERR, buf, sizeof(buf)) > 0)
		TH_LOG("pump said: %s", buf);
	EXPECT_EQ(0, gpuprof_unload());
}

/*
 * Load with @params, the oa node held by another writer if @hold_oa,
 * and start: the helper's status says @failed, and profiling runs.
 */
static void start_fails(struct __test_metadata *_metadata, const char *params,
			bool hold_oa, const char *failed)
{
	char buf[64];
	int fd = -1;

	ASSERT_EQ(0, gpuprof_load(params));
	if (hold_oa) {
		fd = open("/dev/gpuprof/oa", O_WRONLY);
		ASSERT_LE(0, fd);
	}
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, status_str("oa_helper", buf, sizeof(buf)));
	EXPECT_STREQ(failed, buf);
	ASSERT_EQ(0, status_str("mode", buf, sizeof(buf)));
	EXPECT_STREQ("coverage", buf);
	ASSERT_EQ(0, ctl("stop\n"));
	if (fd >= 0)
		close(fd);
	EXPECT_EQ(0, gpuprof_unload());
}

TEST(a_helper_that_cannot_start_does_not_stop_profiling)
{
	start_fails(_metadata, "oa_helper=/no/such/pump", false, "failed -2");
}

/*
 * The module's own steps that can fail: no setpriv at the path given,
 * and the oa node held by another writer when the module opens it for
 * the helper (one writer at a time): exec refused with that errno.
 */
TEST(a_helper_without_setpriv_or_the_oa_node_does_not_start)
{
	ASSERT_EQ(0, write_script());
	start_fails(_metadata, "oa_helper=" SCRIPT " oa_helper_setpriv=/no/such/setpriv",
		    false, "failed -2");
	start_fails(_metadata, "oa_helper=" SCRIPT, true, "failed -16");
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
