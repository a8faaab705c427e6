// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cgroup texts perf gpu reads: a process's cgroup v2 path from
 * /proc/PID/cgroup (perf gpu top, util/cgroup.c), whether a path lies in
 * a subtree (perf gpu report --cgroup), and the cgroup2 mount in
 * /proc/self/mountinfo whose tree perf gpu record names (record/cgroups.c),
 * and the walk of that tree on this machine's own.
 */
#include <stdio.h>
#include <string.h>

#include "../lib/harness.h"
#include "../../tools/perf-gpu/record/cgroups.h"
#include "../../tools/perf-gpu/util/cgroup.h"

static int from_proc(const char *text, char *path, size_t size)
{
	return cgroup_path_from_proc(text, strlen(text), path, size);
}

TEST(the_v2_line_wherever_it_is)
{
	char path[CGROUP_PATH_MAX];

	ASSERT_EQ(0, from_proc("0::/user.slice/session-2.scope\n", path, sizeof(path)));
	EXPECT_STREQ("/user.slice/session-2.scope", path);
	/* A hybrid machine: v1 hierarchies first, their paths not taken. */
	ASSERT_EQ(0, from_proc("12:cpu,cpuacct:/a\n1:name=systemd:/b\n0::/c\n",
			       path, sizeof(path)));
	EXPECT_STREQ("/c", path);
	/* No newline at the end; the root. */
	ASSERT_EQ(0, from_proc("0::/", path, sizeof(path)));
	EXPECT_STREQ("/", path);
	/* A removed cgroup, as the kernel says it. */
	ASSERT_EQ(0, from_proc("0::/gone (deleted)\n", path, sizeof(path)));
	EXPECT_STREQ("/gone (deleted)", path);
}

TEST(no_v2_line_or_no_room_gives_none)
{
	char path[8];

	strcpy(path, "junk");
	EXPECT_EQ(-1, from_proc("12:cpu:/a\n1:name=systemd:/b\n", path, sizeof(path)));
	EXPECT_STREQ("", path);
	EXPECT_EQ(-1, from_proc("", path, sizeof(path)));
	EXPECT_EQ(-1, from_proc("0::\n", path, sizeof(path)));	/* not a path */
	EXPECT_EQ(-1, from_proc("0:x:/a\n", path, sizeof(path)));
	/* "/1234567" and its NUL is 9: not cut, none. */
	EXPECT_EQ(-1, from_proc("0::/1234567\n", path, sizeof(path)));
	EXPECT_STREQ("", path);
	ASSERT_EQ(0, from_proc("0::/123456\n", path, sizeof(path)));
	EXPECT_STREQ("/123456", path);
	/* A NUL inside the line: not a path. */
	EXPECT_EQ(-1, cgroup_path_from_proc("0::/a\0b\n", 7, path, sizeof(path)));
}

TEST(a_subtree_holds_its_own_paths_only)
{
	EXPECT_TRUE(cgroup_path_within("/a", "/a"));
	EXPECT_TRUE(cgroup_path_within("/a/b", "/a"));
	EXPECT_TRUE(cgroup_path_within("/a/b", "/a/"));
	EXPECT_FALSE(cgroup_path_within("/ab", "/a"));
	EXPECT_FALSE(cgroup_path_within("/", "/a"));
	EXPECT_TRUE(cgroup_path_within("/", "/"));
	EXPECT_TRUE(cgroup_path_within("/x/y", "/"));
	EXPECT_TRUE(cgroup_path_within("/x/y", "//"));
}

static int find(const char *text, char *mount, char *root)
{
	return cgroups_find_mount(text, strlen(text), mount, root, 64);
}

TEST(the_first_cgroup2_mount_of_mountinfo)
{
	char mount[64], root[64];

	ASSERT_EQ(0, find("24 29 0:22 / /sys rw shared:7 - sysfs sysfs rw\n"
			  "30 24 0:26 / /sys/fs/cgroup rw,nosuid shared:9 - cgroup2 cgroup2 rw\n"
			  "31 24 0:27 / /other rw - cgroup2 none rw\n", mount, root));
	EXPECT_STREQ("/sys/fs/cgroup", mount);
	EXPECT_STREQ("/", root);
	/* Optional fields or none; a bind mount of a subtree; escapes. */
	ASSERT_EQ(0, find("91 30 0:26 /sub/dir/ /mnt/a\\040b rw - cgroup2 none rw\n",
			  mount, root));
	EXPECT_STREQ("/mnt/a b", mount);
	EXPECT_STREQ("/sub/dir", root);
	/* cgroup v1 is not cgroup2; a line without " - " is nothing. */
	EXPECT_EQ(-1, find("32 24 0:28 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n"
			   "33 24 0:29 / /x rw cgroup2 cgroup2 rw\n", mount, root));
	EXPECT_EQ(-1, find("", mount, root));
	/* Fields missing, a relative mount point: skipped. */
	EXPECT_EQ(-1, find("30 24 0:26 / - cgroup2 cgroup2 rw\n"
			   "30 24 0:26 / rel rw - cgroup2 cgroup2 rw\n", mount, root));
}

struct walked {
	unsigned int n;
	char first[64];
};

static int count(void *arg, uint64_t id, const char *path)
{
	struct walked *w = arg;

	(void)id;
	if (!w->n++)
		snprintf(w->first, sizeof(w->first), "%s", path);
	return 0;
}

/* This machine's own tree, when it has one: the root comes first. */
TEST(the_walk_names_the_root_first)
{
	struct walked w = { 0 };

	ASSERT_EQ(0, cgroups_for_each(count, &w));
	if (!w.n)
		SKIP(return, "no cgroup2 mount here");
	EXPECT_STREQ("/", w.first);
}

TEST_HARNESS_MAIN
