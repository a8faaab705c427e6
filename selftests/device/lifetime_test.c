// SPDX-License-Identifier: GPL-2.0-only
/*
 * Lifetimes: unloading while files are open, many load/start/unload
 * cycles, unloading while profiling runs, and who may start profiling.
 * Leaks show as "still has objects" at kmem_cache_destroy in dmesg,
 * which fails the VM run.
 */
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/gpuprof.h"
#include "../lib/kmod.h"

static int unload_refused(int err)
{
	return err == -EBUSY || err == -EAGAIN;
}

TEST(unload_fails_while_any_file_is_open)
{
	static const char *const files[] = {
		"ctl", "status", "timelines", "marker",
		"1/name", "1/path", "1/histogram", "1/pctl",
	};
	char path[64];
	size_t i;
	int fd, err;

	ASSERT_EQ(0, gpuprof_load(NULL));
	ASSERT_EQ(0, ctl("module lt_open\n"));
	ASSERT_EQ(1, find_target("lt_open"));
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), GP "/%s", files[i]);
		fd = open(path, strstr(path, "ctl") || strstr(path, "marker") ?
			  O_WRONLY : O_RDONLY);
		ASSERT_LE(0, fd) TH_LOG("%s: %s", path, strerror(errno));
		err = gpuprof_unload();
		EXPECT_TRUE(unload_refused(err)) TH_LOG("%s: unload %d", path, err);
		close(fd);
	}
	EXPECT_EQ(0, gpuprof_unload());
}

/* The harness of 6.1 times only fixture tests: a fixture of nothing. */
FIXTURE(slow) {};
FIXTURE_SETUP(slow) {}
FIXTURE_TEARDOWN(slow) {}

/* About 20 s under TCG on an idle machine; more when it is busy. */
TEST_F_TIMEOUT(slow, fifty_load_start_stop_unload_cycles, 300)
{
	static const char *const modes[] = { "start\n", "startcp\n", "startmp\n" };
	char cmd[64];
	int i;

	for (i = 0; i < 50; i++) {
		ASSERT_EQ(0, gpuprof_load(NULL)) TH_LOG("cycle %d", i);
		ASSERT_EQ(0, ctl(i % 2 ? "module lt_cycle\n" : "interval 1\n"));
		ASSERT_EQ(0, ctl(modes[i % 3]));
		snprintf(cmd, sizeof(cmd), "-n lt_cycle fences %d", 1 + i % 4);
		ASSERT_EQ(0, gpuwork(cmd));
		/* Every fourth cycle unloads with profiling running. */
		if (i % 4)
			ASSERT_EQ(0, ctl("stop\n"));
		ASSERT_EQ(0, gpuprof_unload()) TH_LOG("cycle %d", i);
	}
}

/*
 * A fence still held when the module goes: its signal finds no probe.
 * gpuwork is waited for as long as it takes to start (seconds on the
 * debug kernel under load), and holds its fence for longer than the
 * wait for it to show takes once it runs.
 */
TEST(unload_with_jobs_in_flight)
{
	const unsigned int hold_ms = 2000 * gpuprof_time_scale();
	char cmd[PATH_MAX + 32];
	int i;

	ASSERT_EQ(0, gpuprof_load(NULL));
	ASSERT_EQ(0, ctl("interval 1\n"));
	ASSERT_EQ(0, ctl("start\n"));
	snprintf(cmd, sizeof(cmd), "%s fences 1 %u &", gpuwork_path(), hold_ms);
	ASSERT_EQ(0, system(cmd));
	for (i = 0; i < 2000 * (int)gpuprof_time_scale() &&
		    status_num("jobs_in_flight") < 1; i++)
		sleep_ms(10);
	EXPECT_EQ(1, status_num("jobs_in_flight"));
	ASSERT_EQ(0, gpuprof_unload());
	/* Let the fence signal with the module gone. */
	sleep_ms(hold_ms);
}

TEST(a_start_that_fails_changes_nothing)
{
	char mode[32], path[64];
	int id;

	ASSERT_EQ(0, gpuprof_load(NULL));
	ASSERT_EQ(0, ctl("module lt_fail\n"));
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, gpuwork("-n lt_fail fences 3"));
	ASSERT_EQ(0, ctl("stop\n"));
	id = find_target("lt_fail");
	/*
	 * Without drm.ko, memory profiling has nothing to probe.  vgem and
	 * the helpers it pulled in go first: 6.1 loads drm_shmem_helper,
	 * 6.12 drm_kms_helper as well.
	 */
	ASSERT_EQ(0, system("modprobe -r vgem && "
			    "{ ! grep -q '^drm_kms_helper ' /proc/modules || rmmod drm_kms_helper; } && "
			    "rmmod drm"));
	EXPECT_EQ(-ENOENT, ctl("startmp\n"));
	EXPECT_EQ(0, system("modprobe vgem"));
	ASSERT_EQ(0, status_str("mode", mode, sizeof(mode)));
	EXPECT_STREQ("idle", mode);
	EXPECT_EQ(3, hist_value(id, timeline_id("vgem", "unbound")));
	/* Still coverage data: a new startcp adds to it. */
	snprintf(path, sizeof(path), "/dev/dri/card0");
	for (int i = 0; i < 100 && access(path, F_OK); i++)
		sleep_ms(10);
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, gpuwork("-n lt_fail fences 2"));
	ASSERT_EQ(0, ctl("stop\n"));
	EXPECT_EQ(5, hist_value(id, timeline_id("vgem", "unbound")));
	EXPECT_EQ(0, gpuprof_unload());
}

/* In a child with no capabilities at all (uid 0 still owns ctl). */
static int ctl_without_caps(const char *cmd)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		if (syscall(SYS_capset, &hdr, data))
			_exit(100);
		_exit(-ctl(cmd));
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

TEST(starting_needs_perfmon_or_sys_admin)
{
	char mode[32];

	ASSERT_EQ(0, gpuprof_load(NULL));
	EXPECT_EQ(EPERM, ctl_without_caps("start\n"));
	EXPECT_EQ(EPERM, ctl_without_caps("startcp\n"));
	EXPECT_EQ(EPERM, ctl_without_caps("startmp\n"));
	ASSERT_EQ(0, status_str("mode", mode, sizeof(mode)));
	EXPECT_STREQ("idle", mode);
	/* Other commands are for whoever may write ctl. */
	EXPECT_EQ(0, ctl_without_caps("module lt_nocap\n"));
	EXPECT_EQ(0, ctl_without_caps("interval 10\n"));
	EXPECT_EQ(0, gpuprof_unload());
}

TEST_HARNESS_MAIN
