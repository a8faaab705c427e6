// SPDX-License-Identifier: GPL-2.0-only
/*
 * tools/perf-gpu/util/fdcache.c: files held by key and inode from one
 * pass to the next.  Each file held is a pipe's read end, so a test can
 * tell from /proc/self/fd which are still open.  And the premise of
 * holding procfs texts (drm/clients.c), on the running kernel: a
 * seq_file read again at offset 0 builds its text anew.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../../tools/perf-gpu/util/fdcache.h"

/* A new fd of our own (a pipe's read end; its write end closed). */
static int new_fd(void)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC))
		return -1;
	close(p[1]);
	return p[0];
}

static bool is_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0;
}

/* A cache with room for 10 holding @a (key 1, inode 100), @b (2, 200). */
static bool hold_two(struct fdcache *c, int a, int b)
{
	fdcache_init(c, 10);
	fdcache_begin(c);
	return fdcache_put(c, 1, 100, a) && fdcache_put(c, 2, 200, b);
}

TEST(held_until_a_pass_leaves_it)
{
	struct fdcache c;
	int a = new_fd(), b = new_fd();

	ASSERT_TRUE(hold_two(&c, a, b));
	/* Key 1 held already: declined, @b not taken for it. */
	EXPECT_FALSE(fdcache_put(&c, 1, 100, b));
	fdcache_end(&c);
	EXPECT_EQ(2, c.nr);

	fdcache_begin(&c);
	EXPECT_EQ(a, fdcache_get(&c, 1, 100));
	fdcache_end(&c);
	EXPECT_TRUE(is_open(a));
	EXPECT_FALSE(is_open(b));	/* not used in that pass */
	EXPECT_EQ(-1, fdcache_get(&c, 2, 200));
	EXPECT_EQ(1, c.nr);
	fdcache_free(&c);
	EXPECT_FALSE(is_open(a));
}

TEST(another_inode_or_a_drop_closes)
{
	struct fdcache c;
	int a = new_fd(), b = new_fd();

	ASSERT_TRUE(hold_two(&c, a, b));
	EXPECT_EQ(-1, fdcache_get(&c, 1, 101));
	EXPECT_FALSE(is_open(a));
	fdcache_drop(&c, 2);
	EXPECT_FALSE(is_open(b));
	EXPECT_EQ(0, c.nr);
	/* The keys can be held again, in the same pass. */
	a = new_fd();
	ASSERT_TRUE(fdcache_put(&c, 1, 101, a));
	EXPECT_EQ(a, fdcache_get(&c, 1, 101));
	fdcache_drop(&c, 3);		/* never held: nothing */
	fdcache_end(&c);
	EXPECT_EQ(1, c.nr);
	fdcache_free(&c);
	EXPECT_FALSE(is_open(a));
}

TEST(at_most_max_and_never_key_zero)
{
	struct fdcache c;
	int a = new_fd(), b = new_fd(), z = new_fd();

	fdcache_init(&c, 1);
	fdcache_begin(&c);
	EXPECT_FALSE(fdcache_put(&c, 0, 1, z));
	ASSERT_TRUE(fdcache_put(&c, 1, 1, a));
	EXPECT_FALSE(fdcache_put(&c, 2, 1, b));
	EXPECT_EQ(-1, fdcache_get(&c, 2, 1));
	fdcache_end(&c);
	EXPECT_TRUE(is_open(b));	/* declined: still the caller's */
	EXPECT_TRUE(is_open(z));
	fdcache_free(&c);
	EXPECT_FALSE(is_open(a));
	close(b);
	close(z);

	fdcache_init(&c, 0);
	a = new_fd();
	fdcache_begin(&c);
	EXPECT_FALSE(fdcache_put(&c, 1, 1, a));
	fdcache_end(&c);
	fdcache_free(&c);
	EXPECT_TRUE(is_open(a));
	close(a);
}

/*
 * Many files over many passes, some dropped each pass (tombstones), the
 * table growing and shrinking: every lookup finds its own fd.
 */
TEST(many_passes_with_drops_and_growth)
{
	enum { N = 700, PASSES = 6 };
	static int fd[N];
	struct fdcache c;
	unsigned int i, pass, live;

	fdcache_init(&c, N);
	for (pass = 0; pass < PASSES; pass++) {
		fdcache_begin(&c);
		live = 0;
		/* Pass p keeps the keys up to N >> p, the rest left. */
		for (i = 0; i < (unsigned int)N >> pass; i++) {
			int f = fdcache_get(&c, i + 1, 7);

			if (pass) {
				ASSERT_EQ(fd[i], f) TH_LOG("pass %u key %u", pass, i + 1);
			} else {
				ASSERT_EQ(-1, f);
				fd[i] = new_fd();
				ASSERT_TRUE(fdcache_put(&c, i + 1, 7, fd[i]));
			}
			/* Every third dropped and held again at once. */
			if (i % 3 == 2) {
				fdcache_drop(&c, i + 1);
				ASSERT_FALSE(is_open(fd[i]));
				fd[i] = new_fd();
				ASSERT_TRUE(fdcache_put(&c, i + 1, 7, fd[i]));
			}
			live++;
		}
		fdcache_end(&c);
		ASSERT_EQ(live, c.nr);
		for (i = live; i < (unsigned int)N >> (pass ? pass - 1 : 0); i++) {
			ASSERT_FALSE(is_open(fd[i])) TH_LOG("pass %u key %u", pass, i + 1);
		}
		for (i = 0; i < live; i++) {
			ASSERT_TRUE(is_open(fd[i]));
		}
		EXPECT_EQ(c.nr, c.index.nr);
	}
	fdcache_free(&c);
	for (i = 0; i < (unsigned int)N >> (PASSES - 1); i++) {
		EXPECT_FALSE(is_open(fd[i]));
	}
}

/*
 * Half the files dropped in a pass: the others, further along the same
 * probe sequences and moved into the dropped ones' places, are still
 * found in that pass.
 */
TEST(drops_leave_the_others_found)
{
	enum { N = 500 };
	static int fd[N];
	struct fdcache c;
	unsigned int i;

	fdcache_init(&c, N);
	fdcache_begin(&c);
	for (i = 0; i < N; i++) {
		fd[i] = new_fd();
		ASSERT_TRUE(fdcache_put(&c, i + 1, 1, fd[i]));
	}
	for (i = 0; i < N; i += 2)
		fdcache_drop(&c, i + 1);
	for (i = 1; i < N; i += 2) {
		ASSERT_EQ(fd[i], fdcache_get(&c, i + 1, 1)) TH_LOG("key %u", i + 1);
	}
	fdcache_end(&c);
	EXPECT_EQ(N / 2, c.nr);
	fdcache_free(&c);
}

/* What one pread() at offset 0 of @fd gives, NUL-terminated. */
static const char *text_at_0(int fd, char *buf, size_t size)
{
	ssize_t n = pread(fd, buf, size - 1, 0);

	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/*
 * PID/fdinfo/N held open follows its fd (its pos: moves with lseek on
 * the fd), and PID/comm held open follows a rename of the thread.
 */
TEST(procfs_texts_held_are_built_anew)
{
	char path[64], buf[512], name[16];
	int fd, info, comm;

	fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	info = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, info);
	EXPECT_EQ(0, strncmp(text_at_0(info, buf, sizeof(buf)), "pos:\t0\n", 7))
		TH_LOG("%s", buf);
	ASSERT_EQ(3, lseek(fd, 3, SEEK_SET));
	EXPECT_EQ(0, strncmp(text_at_0(info, buf, sizeof(buf)), "pos:\t3\n", 7))
		TH_LOG("%s", buf);
	close(fd);
	/* The fd gone: the held text says so, it does not repeat itself. */
	EXPECT_GT(0, pread(info, buf, sizeof(buf), 0));
	close(info);

	ASSERT_EQ(0, prctl(PR_GET_NAME, name));
	comm = open("/proc/thread-self/comm", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, comm);
	ASSERT_EQ(0, prctl(PR_SET_NAME, "fdcache-held"));
	EXPECT_STREQ("fdcache-held\n", text_at_0(comm, buf, sizeof(buf)));
	ASSERT_EQ(0, prctl(PR_SET_NAME, "fdcache-again"));
	EXPECT_STREQ("fdcache-again\n", text_at_0(comm, buf, sizeof(buf)));
	close(comm);
	prctl(PR_SET_NAME, name);
}

TEST_HARNESS_MAIN
