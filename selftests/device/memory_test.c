// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory profiling ("startmp"): live bytes of vgem dumb buffers per size
 * class, gone when the process that holds them exits.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/fixture.h"

struct holder {
	pid_t pid;
	int in;		/* its stdin: closing it makes it exit */
};

/* Start "gpuwork -n NAME buffer BYTES" and wait until it holds the buffer. */
static int hold_buffer(struct holder *h, const char *name, unsigned long bytes)
{
	int to[2], from[2];
	char size[32], line[64];
	ssize_t n;

	/* Close-on-exec: another holder must not keep this one's stdin open. */
	if (pipe2(to, O_CLOEXEC) || pipe2(from, O_CLOEXEC))
		return -1;
	h->pid = fork();
	if (h->pid < 0)
		return -1;
	if (h->pid == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		close(to[1]);
		close(from[0]);
		snprintf(size, sizeof(size), "%lu", bytes);
		execl(gpuwork_path(), "gpuwork", "-n", name, "buffer", size,
		      (char *)NULL);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	h->in = to[1];
	n = read(from[0], line, sizeof(line) - 1);
	close(from[0]);
	if (n <= 0 || strncmp(line, "ready", 5))
		return -1;
	return 0;
}

static int release_buffer(struct holder *h)
{
	int st;

	close(h->in);
	if (waitpid(h->pid, &st, 0) != h->pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST_F(gp, live_bytes_while_held_and_none_after_exit)
{
	struct holder h;
	int id;

	ASSERT_EQ(0, ctl("module mem_hold\n"));
	ASSERT_EQ(0, ctl("startmp\n"));
	ASSERT_EQ(0, hold_buffer(&h, "mem_hold", 1 << 20));
	id = find_target("mem_hold");
	ASSERT_LT(0, id);
	/* 1 MiB is class 20: sizes up to 2^20. */
	ASSERT_LT(0, target_file(id, "histogram", self->buf, sizeof(self->buf)));
	EXPECT_STREQ("20 1048576\n", self->buf);
	EXPECT_EQ(1, status_num("buffers_live"));

	ASSERT_EQ(0, release_buffer(&h));
	/* The pair is gone, not shown as 0. */
	EXPECT_EQ(0, target_file(id, "histogram", self->buf, sizeof(self->buf)));
	EXPECT_EQ(0, status_num("buffers_live"));
	ASSERT_EQ(0, ctl("stop\n"));
}

TEST_F(gp, size_classes_and_two_holders)
{
	struct holder a, b, c;
	int id;

	ASSERT_EQ(0, ctl("module mem_cls\n"));
	ASSERT_EQ(0, ctl("startmp\n"));
	ASSERT_EQ(0, hold_buffer(&a, "mem_cls", 4096));		/* class 12 */
	ASSERT_EQ(0, hold_buffer(&b, "mem_cls", 3 * 4096));	/* class 14 */
	ASSERT_EQ(0, hold_buffer(&c, "mem_cls", 4 * 4096));	/* class 14 */
	id = find_target("mem_cls");
	ASSERT_LT(0, id);
	ASSERT_LT(0, target_file(id, "histogram", self->buf, sizeof(self->buf)));
	EXPECT_STREQ("12 4096\n14 28672\n", self->buf);

	ASSERT_EQ(0, release_buffer(&b));
	ASSERT_LT(0, target_file(id, "histogram", self->buf, sizeof(self->buf)));
	EXPECT_STREQ("12 4096\n14 16384\n", self->buf);
	ASSERT_EQ(0, release_buffer(&a));
	ASSERT_EQ(0, release_buffer(&c));
	EXPECT_EQ(0, target_file(id, "histogram", self->buf, sizeof(self->buf)));
	ASSERT_EQ(0, ctl("stop\n"));
}

TEST_F(gp, buffers_of_other_processes_are_not_counted)
{
	struct holder a, b;
	int id;

	ASSERT_EQ(0, ctl("module mem_mine\n"));
	ASSERT_EQ(0, ctl("startmp\n"));
	ASSERT_EQ(0, hold_buffer(&a, "mem_mine", 8192));
	ASSERT_EQ(0, hold_buffer(&b, "mem_theirs", 65536));
	id = find_target("mem_mine");
	ASSERT_LT(0, id);
	ASSERT_LT(0, target_file(id, "histogram", self->buf, sizeof(self->buf)));
	EXPECT_STREQ("13 8192\n", self->buf);
	EXPECT_EQ(1, status_num("targets"));
	ASSERT_EQ(0, release_buffer(&a));
	ASSERT_EQ(0, release_buffer(&b));
	ASSERT_EQ(0, ctl("stop\n"));
}

TEST_F(gp, stop_keeps_live_bytes_and_startmp_starts_afresh)
{
	struct holder a;
	int id;

	ASSERT_EQ(0, ctl("module mem_again\n"));
	ASSERT_EQ(0, ctl("startmp\n"));
	ASSERT_EQ(0, hold_buffer(&a, "mem_again", 8192));
	ASSERT_EQ(0, ctl("stop\n"));
	id = find_target("mem_again");
	/* Stopped: the level of the moment stays, though the buffer goes. */
	ASSERT_EQ(0, release_buffer(&a));
	ASSERT_LT(0, target_file(id, "histogram", self->buf, sizeof(self->buf)));
	EXPECT_STREQ("13 8192\n", self->buf);
	/* Its release was not seen: a new start cannot carry it on. */
	ASSERT_EQ(0, ctl("startmp\n"));
	EXPECT_EQ(0, target_file(id, "histogram", self->buf, sizeof(self->buf)));
	EXPECT_EQ(0, status_num("buffers_live"));
	ASSERT_EQ(0, ctl("stop\n"));
}

TEST_F(gp, reset_forgets_the_buffers_it_zeroed)
{
	struct holder a, b;
	int id;

	ASSERT_EQ(0, ctl("module mem_reset\n"));
	ASSERT_EQ(0, ctl("startmp\n"));
	ASSERT_EQ(0, hold_buffer(&a, "mem_reset", 1 << 20));
	ASSERT_EQ(0, ctl("reset\n"));
	ASSERT_EQ(0, hold_buffer(&b, "mem_reset", 1 << 20));
	id = find_target("mem_reset");
	/* A goes: it was counted before the reset, not after. */
	ASSERT_EQ(0, release_buffer(&a));
	ASSERT_LT(0, target_file(id, "histogram", self->buf, sizeof(self->buf)));
	EXPECT_STREQ("20 1048576\n", self->buf);
	ASSERT_EQ(0, release_buffer(&b));
	EXPECT_EQ(0, target_file(id, "histogram", self->buf, sizeof(self->buf)));
	ASSERT_EQ(0, ctl("stop\n"));
}

/*
 * A histogram of several lines read with every buffer size from 1 byte
 * up gives the same text, and reads end at line ends when a line fits.
 */
TEST_F(gp, reads_of_any_size_see_one_snapshot_in_whole_lines)
{
	char whole[256], got[256], path[64];
	struct holder a, b;
	size_t len, size, off;
	ssize_t n;
	int id, fd;

	ASSERT_EQ(0, ctl("module mem_read\n"));
	ASSERT_EQ(0, ctl("startmp\n"));
	ASSERT_EQ(0, hold_buffer(&a, "mem_read", 4096));
	ASSERT_EQ(0, hold_buffer(&b, "mem_read", 1 << 20));
	id = find_target("mem_read");
	ASSERT_LT(0, target_file(id, "histogram", whole, sizeof(whole)));
	ASSERT_STREQ("12 4096\n20 1048576\n", whole);
	len = strlen(whole);
	snprintf(path, sizeof(path), GP "/%d/histogram", id);

	for (size = 1; size <= len + 1; size++) {
		fd = open(path, O_RDONLY);
		ASSERT_LE(0, fd);
		/* The snapshot is fixed at open: a change now is not seen. */
		if (size == 1)
			ASSERT_EQ(0, release_buffer(&a));
		off = 0;
		while ((n = read(fd, got + off, size)) > 0) {
			/* A read that could hold the next line ends on a line end. */
			if ((size_t)n < size && off + n < len)
				EXPECT_EQ('\n', got[off + n - 1]);
			if (size >= 11)
				EXPECT_EQ('\n', got[off + n - 1]);
			off += n;
		}
		EXPECT_EQ(0, n);
		got[off] = '\0';
		EXPECT_STREQ(size == 1 ? whole : "20 1048576\n", got) TH_LOG("size %zu", size);
		close(fd);
	}
	/* lseek is honoured. */
	fd = open(path, O_RDONLY);
	ASSERT_EQ(3, lseek(fd, 3, SEEK_SET));
	n = read(fd, got, sizeof(got) - 1);
	ASSERT_EQ(8, n);
	got[n] = '\0';
	EXPECT_STREQ("1048576\n", got);
	close(fd);
	ASSERT_EQ(0, release_buffer(&b));
	ASSERT_EQ(0, ctl("stop\n"));
}

TEST_HARNESS_MAIN
