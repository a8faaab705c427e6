// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device nodes: types, modes, access rules, and the module's load and
 * unload.  Runs as root inside the test VM (selftests/scripts/vm).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/files.h"
#include "../lib/kmod.h"

#define DEV "/dev/gpuprof"

FIXTURE(loaded) {
	char buf[4096];
};

FIXTURE_SETUP(loaded)
{
	ASSERT_EQ(0, gpuprof_load(NULL));
}

FIXTURE_TEARDOWN(loaded)
{
	EXPECT_EQ(0, gpuprof_unload());
}

static void expect_node(struct __test_metadata *_metadata, const char *path,
			mode_t mode)
{
	struct stat st;

	ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s: %s", path, strerror(errno));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(mode, st.st_mode & 07777) TH_LOG("%s mode %o", path,
						    st.st_mode & 07777);
}

TEST_F(loaded, ctl_is_a_write_only_char_device)
{
	int fd;

	expect_node(_metadata, DEV "/ctl", 0600);
	fd = open(DEV "/ctl", O_RDONLY);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EACCES, errno);
	fd = open(DEV "/ctl", O_RDWR);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EACCES, errno);
	fd = open(DEV "/ctl", O_WRONLY);
	ASSERT_LE(0, fd);
	close(fd);
}

TEST_F(loaded, status_is_a_read_only_char_device)
{
	expect_node(_metadata, DEV "/status", 0444);
}

TEST_F(loaded, status_reads_key_value_lines)
{
	ASSERT_LT(0, read_file(DEV "/status", self->buf, sizeof(self->buf)));
	EXPECT_NE(NULL, strstr(self->buf, "mode: idle\n")) TH_LOG("%s", self->buf);
	EXPECT_NE(NULL, strstr(self->buf, "interval_ms: 100\n"));
}

TEST_F(loaded, status_refuses_writers)
{
	EXPECT_EQ(-EACCES, write_file(DEV "/status", "reset\n"));
	EXPECT_EQ(-1, open(DEV "/status", O_RDWR));
	EXPECT_EQ(EACCES, errno);
}

TEST_F(loaded, ctl_interval_shows_in_status)
{
	EXPECT_EQ(0, write_file(DEV "/ctl", "interval 50\n"));
	ASSERT_LT(0, read_file(DEV "/status", self->buf, sizeof(self->buf)));
	EXPECT_NE(NULL, strstr(self->buf, "interval_ms: 50\n")) TH_LOG("%s", self->buf);
}

TEST_F(loaded, ctl_rejects_junk_and_changes_nothing)
{
	EXPECT_EQ(-EINVAL, write_file(DEV "/ctl", "interval 0\n"));
	EXPECT_EQ(-EINVAL, write_file(DEV "/ctl", "bogus\n"));
	EXPECT_EQ(-EINVAL, write_file_len(DEV "/ctl", "interval 5\0", 11));
	ASSERT_LT(0, read_file(DEV "/status", self->buf, sizeof(self->buf)));
	EXPECT_NE(NULL, strstr(self->buf, "interval_ms: 100\n")) TH_LOG("%s", self->buf);
}

TEST(unload_removes_the_directory)
{
	struct stat st;

	ASSERT_EQ(0, gpuprof_load(NULL));
	ASSERT_EQ(0, stat(DEV, &st));
	ASSERT_EQ(0, gpuprof_unload());
	EXPECT_EQ(-1, stat(DEV, &st));
	EXPECT_EQ(ENOENT, errno);
}

TEST(load_unload_twice)
{
	int i;

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, gpuprof_load(NULL));
		ASSERT_EQ(0, access(DEV "/ctl", W_OK));
		ASSERT_EQ(0, gpuprof_unload());
	}
}

TEST(double_load_is_refused)
{
	ASSERT_EQ(0, gpuprof_load(NULL));
	EXPECT_EQ(-EEXIST, kmod_load("GPUPROF_KO", NULL));
	EXPECT_EQ(0, gpuprof_unload());
}

/*
 * What a test killed at its timeout leaves: the module loaded, set up,
 * and held open by a child.  The next test's load kills the holder and
 * gets a fresh module: the interval back at its default.
 */
TEST(a_module_left_loaded_is_replaced)
{
	char buf[4096];
	int pipefd[2], st;
	pid_t kid;

	ASSERT_EQ(0, gpuprof_load(NULL));
	ASSERT_EQ(0, write_file(DEV "/ctl", "interval 50\n"));
	ASSERT_EQ(0, pipe(pipefd));
	kid = fork();
	ASSERT_LE(0, kid);
	if (!kid) {
		int fd = open(DEV "/status", O_RDONLY);

		close(pipefd[0]);
		if (fd >= 0 && write(pipefd[1], "h", 1) == 1)
			pause();
		_exit(1);
	}
	close(pipefd[1]);
	ASSERT_EQ(1, read(pipefd[0], buf, 1));
	close(pipefd[0]);
	EXPECT_EQ(0, gpuprof_load(NULL));
	ASSERT_EQ(kid, waitpid(kid, &st, 0));
	EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) TH_LOG("%#x", st);
	ASSERT_LT(0, read_file(DEV "/status", buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "interval_ms: 100\n")) TH_LOG("%s", buf);
	EXPECT_EQ(0, gpuprof_unload());
}

TEST(unload_while_open_fails_then_succeeds)
{
	int fd, err;

	ASSERT_EQ(0, gpuprof_load(NULL));
	fd = open(DEV "/status", O_RDONLY);
	ASSERT_LE(0, fd);
	err = gpuprof_unload();
	EXPECT_TRUE(err == -EBUSY || err == -EWOULDBLOCK) TH_LOG("%d", err);
	close(fd);
	EXPECT_EQ(0, gpuprof_unload());
}

TEST_HARNESS_MAIN
