// SPDX-License-Identifier: GPL-2.0-only
/*
 * Who may read what (Documentation/security.rst), row by row: two users'
 * processes submit vgem jobs, each gets an automatic target, and every
 * reader the model names reads their target files with setpriv(1) or
 * unshare(1), each with the credentials of its row.  The
 * truth is the kernel's answer to cat's open(): the file's text, the
 * same as root reads, or "Permission denied".
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/fixture.h"
#include "../lib/kconfig.h"
#include "../lib/kmod.h"
#include "../lib/run.h"
#include "../lib/setup_provides.h"

#define UID_A 41000
#define UID_B 41001
#define UID_C 41002
#define MAX_DRI 16

/* The DRM nodes' modes, put back at the end. */
static struct {
	char path[PATH_MAX];
	mode_t mode;
} dri[MAX_DRI];
static int nr_dri;

/* vgem's nodes are root's (devtmpfs, no udev): open them to the users. */
static int open_dri_nodes(void)
{
	struct dirent *d;
	struct stat st;
	DIR *dir = opendir("/dev/dri");

	if (!dir)
		return -1;
	while ((d = readdir(dir)) && nr_dri < MAX_DRI) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(dri[nr_dri].path, sizeof(dri[nr_dri].path),
			 "/dev/dri/%s", d->d_name);
		if (stat(dri[nr_dri].path, &st) || !S_ISCHR(st.st_mode))
			continue;
		dri[nr_dri].mode = st.st_mode & 07777;
		if (chmod(dri[nr_dri].path, 0666))
			break;
		nr_dri++;
	}
	closedir(dir);
	return nr_dri ? 0 : -1;
}

static void close_dri_nodes(void)
{
	while (nr_dri--)
		chmod(dri[nr_dri].path, dri[nr_dri].mode);
	nr_dri = 0;
}

#define XS(x) #x
#define S(x) XS(x)

/* As a plain user: no capability at all, no groups. */
#define AS_USER(uid) \
	"setpriv --reuid=" S(uid) " --regid=" S(uid) " --clear-groups --inh-caps=-all --bounding-set=-all --"
/* A user with CAP_PERFMON alone, kept across the exec as ambient. */
#define AS_PERFMON(uid) \
	"setpriv --reuid=" S(uid) " --regid=" S(uid) " --clear-groups --inh-caps=-all,+perfmon --ambient-caps=+perfmon --"
/* A plain user in the group the udev rule gives marker (gpuprof's). */
#define GID_MARK 41010
#define AS_MEMBER(uid) \
	"setpriv --reuid=" S(uid) " --regid=" S(uid) " --groups=" S(GID_MARK) " --inh-caps=-all --bounding-set=-all --"
/* Root, its capabilities but CAP_PERFMON and CAP_SYS_ADMIN. */
#define AS_ROOT_WITHOUT \
	"setpriv --inh-caps=-perfmon,-sys_admin --bounding-set=-perfmon,-sys_admin --"

/*
 * @file of target @id read by `@how cat FILE`: 0 with the text in @out,
 * 1 with "Permission denied" in @out, -1 for any other outcome.
 */
static int read_as(const char *how, int id, const char *file, char *out,
		   size_t size)
{
	int rc = run_cmd(out, size, "%s cat /dev/gpuprof/%d/%s 2>&1", how, id,
			 file);

	if (rc == 0)
		return 0;
	return rc == 1 && strstr(out, "Permission denied") ? 1 : -1;
}

static const char *const files[] = { "name", "path", "histogram", "counters",
				     "cgroup" };

/* Every readable file of target @id: all as root reads them (@want 0), or
 * all refused (@want 1). */
static void expect_reads(struct __test_metadata *_metadata, const char *how,
			 int id, int want)
{
	char out[4096], root[4096];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		EXPECT_EQ(want, read_as(how, id, files[i], out, sizeof(out)))
			TH_LOG("%s: %s of target %d: %s", how, files[i], id, out);
		if (want)
			continue;
		ASSERT_EQ(0, read_as("", id, files[i], root, sizeof(root)));
		EXPECT_STREQ(root, out) TH_LOG("%s of target %d", files[i], id);
	}
}

/* Two users' processes, each with its own target: their ids. */
static void two_users(struct __test_metadata *_metadata, int *a, int *b)
{
	char out[4096];

	ASSERT_EQ(0, open_dri_nodes());
	/* Coverage: each job counted, so every histogram has keys. */
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, run_cmd(out, sizeof(out), AS_USER(UID_A) " %s -n acc_a fences 3 2>&1",
			     gpuwork_path())) TH_LOG("%s", out);
	ASSERT_EQ(0, run_cmd(out, sizeof(out), AS_USER(UID_B) " %s -n acc_b fences 3 2>&1",
			     gpuwork_path())) TH_LOG("%s", out);
	close_dri_nodes();
	*a = find_target("acc_a");
	*b = find_target("acc_b");
	ASSERT_LT(0, *a);
	ASSERT_LT(0, *b);
	/* Each has its jobs: the histograms are not empty. */
	ASSERT_LT(0, target_file(*a, "histogram", out, sizeof(out)));
}

/* The set-up's tools, and CAP_PERFMON given as the rows need it. */
TEST_F(gp, the_readers_have_the_credentials_of_their_rows)
{
	char out[4096];

	SETUP_PROVIDES(!run_cmd(out, sizeof(out), "command -v setpriv unshare"),
		       "setpriv and unshare (util-linux): %s", out);
	ASSERT_EQ(0, run_cmd(out, sizeof(out), AS_USER(UID_C) " grep -E '^(Uid|CapEff)' /proc/self/status"));
	EXPECT_NE(NULL, strstr(out, "Uid:\t" S(UID_C) "\t")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "CapEff:\t0000000000000000\n")) TH_LOG("%s", out);
	/* CAP_PERFMON is bit 38. */
	ASSERT_EQ(0, run_cmd(out, sizeof(out), AS_PERFMON(UID_C) " grep -E '^(Uid|CapEff)' /proc/self/status"));
	EXPECT_NE(NULL, strstr(out, "Uid:\t" S(UID_C) "\t")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "CapEff:\t0000004000000000\n")) TH_LOG("%s", out);
}

/*
 * Row "any user": only the targets of its own processes.  30 reads, each
 * a setpriv and a cat: on the 6.1 debug kernel beside another VM the
 * harness's default (30 s, times 4) ran out.
 */
TEST_F_TIMEOUT(gp, a_user_reads_its_own_targets_only, 120)
{
	int a, b;

	two_users(_metadata, &a, &b);
	expect_reads(_metadata, AS_USER(UID_A), a, 0);
	expect_reads(_metadata, AS_USER(UID_A), b, 1);
	expect_reads(_metadata, AS_USER(UID_B), b, 0);
	expect_reads(_metadata, AS_USER(UID_B), a, 1);
	expect_reads(_metadata, AS_USER(UID_C), a, 1);
	expect_reads(_metadata, AS_USER(UID_C), b, 1);
}

/* Row "CAP_PERFMON": every target, as perf's system-wide events. */
TEST_F(gp, cap_perfmon_reads_every_target)
{
	int a, b;

	two_users(_metadata, &a, &b);
	expect_reads(_metadata, AS_PERFMON(UID_C), a, 0);
	expect_reads(_metadata, AS_PERFMON(UID_C), b, 0);
}

/* Row "root without CAP_PERFMON and CAP_SYS_ADMIN": no one special. */
TEST_F(gp, root_without_the_capability_is_a_user)
{
	unsigned long long caps;
	char out[4096], *p;
	int a, b;

	ASSERT_EQ(0, run_cmd(out, sizeof(out), AS_ROOT_WITHOUT " grep -E '^(Uid|CapEff)' /proc/self/status"));
	EXPECT_NE(NULL, strstr(out, "Uid:\t0\t")) TH_LOG("%s", out);
	/* Root's other capabilities (CAP_DAC_OVERRIDE, 1) kept; 21, 38 gone. */
	p = strstr(out, "CapEff:\t");
	ASSERT_NE(NULL, p) TH_LOG("%s", out);
	caps = strtoull(p + strlen("CapEff:\t"), NULL, 16);
	EXPECT_EQ(1ULL << 1, caps & ((1ULL << 1) | (1ULL << 21) | (1ULL << 38)))
		TH_LOG("%s", out);
	two_users(_metadata, &a, &b);
	expect_reads(_metadata, AS_ROOT_WITHOUT, a, 1);
	expect_reads(_metadata, AS_ROOT_WITHOUT, b, 1);
}

/*
 * Row "a container": root in a user namespace of its own is its user
 * outside, and a capability there is none in the initial namespace.
 */
TEST_F(gp, root_in_a_user_namespace_is_its_user_outside)
{
	static const char how_a[] = AS_USER(UID_A) " unshare --user --map-root-user --";
	int a, b;

	/* Debian's kernels have them; a kernel without them has no row. */
	if (kernel_config("USER_NS") == 'n')
		SKIP(return, "this kernel has no user namespaces (CONFIG_USER_NS)");
	two_users(_metadata, &a, &b);
	expect_reads(_metadata, how_a, a, 0);
	expect_reads(_metadata, how_a, b, 1);
}

/*
 * pctl changes what a target counts: CAP_PERFMON, as start.  Root
 * without it passes the node's 0200 but not the open.
 */
TEST_F(gp, pctl_needs_cap_perfmon)
{
	char out[4096];
	int a, b;

	two_users(_metadata, &a, &b);
	EXPECT_NE(0, run_cmd(out, sizeof(out),
			     AS_ROOT_WITHOUT " sh -c 'echo reset > /dev/gpuprof/%d/pctl' 2>&1",
			     a));
	EXPECT_NE(NULL, strstr(out, "Permission denied")) TH_LOG("%s", out);
	EXPECT_EQ(0, run_cmd(out, sizeof(out), "echo reset > /dev/gpuprof/%d/pctl 2>&1", a))
		TH_LOG("%s", out);
}

/* Row "any user", the global files: status says counts, no names. */
TEST_F(gp, status_is_for_everyone)
{
	char out[4096];
	int a, b;

	two_users(_metadata, &a, &b);
	ASSERT_EQ(0, run_cmd(out, sizeof(out), AS_USER(UID_C) " cat /dev/gpuprof/status"));
	EXPECT_NE(NULL, strstr(out, "targets: 2\n")) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "acc_")) TH_LOG("%s", out);
}

/*
 * Row "a member of the gpuprof group": the udev rule makes marker mode
 * 0220, group gpuprof (install_test checks the rule does); here, with no
 * udev, the test does as the rule would, with a group of its own.  A
 * member writes marks; a user outside the group cannot; the member is
 * any user for the rest.
 */
TEST_F(gp, a_marker_group_member_writes_marks_and_nothing_else)
{
	char out[4096];
	struct stat st;
	int a, b;

	two_users(_metadata, &a, &b);
	ASSERT_EQ(0, stat("/dev/gpuprof/marker", &st));
	ASSERT_EQ(0, chown("/dev/gpuprof/marker", 0, GID_MARK));
	ASSERT_EQ(0, chmod("/dev/gpuprof/marker", 0220));
	EXPECT_EQ(0, run_cmd(out, sizeof(out),
			     AS_MEMBER(UID_C) " sh -c 'echo begin acc_mark > /dev/gpuprof/marker' 2>&1"))
		TH_LOG("%s", out);
	EXPECT_NE(0, run_cmd(out, sizeof(out),
			     AS_USER(UID_C) " sh -c 'echo begin acc_mark > /dev/gpuprof/marker' 2>&1"));
	EXPECT_NE(NULL, strstr(out, "Permission denied")) TH_LOG("%s", out);
	EXPECT_NE(0, run_cmd(out, sizeof(out),
			     AS_MEMBER(UID_C) " sh -c 'echo stop > /dev/gpuprof/ctl' 2>&1"));
	EXPECT_NE(NULL, strstr(out, "Permission denied")) TH_LOG("%s", out);
	expect_reads(_metadata, AS_MEMBER(UID_C), a, 1);
	expect_reads(_metadata, AS_MEMBER(UID_A), a, 0);
	chown("/dev/gpuprof/marker", st.st_uid, st.st_gid);
	chmod("/dev/gpuprof/marker", st.st_mode & 07777);
}

/*
 * A fence on timeline "acctl NAME" made by a task of @uid: root opens
 * fencegen's file and a child that became @uid writes it, so the fence
 * is made in a task whose euid is @uid.  0 when it was made.
 */
static int fence_as(uid_t uid, const char *name)
{
	char line[128];
	int fd, st;
	pid_t pid;

	snprintf(line, sizeof(line), "acctl %s\n", name);
	fd = open(FENCEGEN, O_WRONLY);
	if (fd < 0)
		return -1;
	pid = fork();
	if (!pid) {
		if (setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
			_exit(2);
		_exit(write(fd, line, strlen(line)) == (ssize_t)strlen(line) ? 0 : 1);
	}
	close(fd);
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The "acctl" lines of @text whose timeline is one of @names, in order. */
static void acctl_lines(const char *text, const char *const *names,
			char *out, size_t size)
{
	const char *p, *end, *tl;
	size_t len = 0, i;

	out[0] = '\0';
	for (p = text; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, '\n');
		tl = strstr(p, " acctl ");
		if (!tl || tl > end)
			continue;
		tl += strlen(" acctl ");
		for (i = 0; names[i]; i++) {
			if ((size_t)(end - tl) != strlen(names[i]) ||
			    strncmp(tl, names[i], end - tl))
				continue;
			len += snprintf(out + len, size - len, "%.*s\n",
					(int)(end - p), p);
			break;
		}
	}
}

/*
 * Row "any user", the global files: timelines names a user's own
 * timelines and the shared ones, never another user's (an i915 context
 * is named COMM[PID]); CAP_PERFMON reads them all.  The truth: which
 * uid made which fence, and root's lines.
 */
TEST_F(gp, timelines_show_a_user_its_own_and_the_shared)
{
	static const char *const all[] = { "alice[11]", "bob[22]", "root[1]",
					   "ring0", NULL };
	static const char *const of_a[] = { "alice[11]", "ring0", NULL };
	static const char *const of_b[] = { "bob[22]", "ring0", NULL };
	static const char *const of_c[] = { "ring0", NULL };
	static const char *const of_root[] = { "root[1]", "ring0", NULL };
	static const struct {
		const char *how;
		const char *const *sees;
	} readers[] = {
		{ AS_USER(UID_A), of_a },
		{ AS_USER(UID_B), of_b },
		{ AS_USER(UID_C), of_c },
		{ AS_ROOT_WITHOUT, of_root },
		{ AS_PERFMON(UID_C), all },
	};
	char root[8192], out[8192], want[4096], got[4096];
	size_t i;

	ASSERT_EQ(0, fencegen_load());
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, fence_as(UID_A, "alice[11]"));
	ASSERT_EQ(0, fence_as(UID_B, "bob[22]"));
	ASSERT_EQ(0, fence_as(0, "root[1]"));
	/* A ring two users submit to is no one's. */
	ASSERT_EQ(0, fence_as(UID_A, "ring0"));
	ASSERT_EQ(0, fence_as(UID_B, "ring0"));
	ASSERT_EQ(0, ctl("stop\n"));

	ASSERT_EQ(0, run_cmd(root, sizeof(root), "cat /dev/gpuprof/timelines"));
	acctl_lines(root, all, want, sizeof(want));
	for (i = 0; all[i]; i++)
		ASSERT_NE(NULL, strstr(want, all[i])) TH_LOG("root reads:\n%s", root);
	for (i = 0; i < sizeof(readers) / sizeof(readers[0]); i++) {
		ASSERT_EQ(0, run_cmd(out, sizeof(out), "%s cat /dev/gpuprof/timelines 2>&1",
				     readers[i].how)) TH_LOG("%s", out);
		acctl_lines(root, readers[i].sees, want, sizeof(want));
		acctl_lines(out, all, got, sizeof(got));
		EXPECT_STREQ(want, got) TH_LOG("%s", readers[i].how);
	}
}

TEST_HARNESS_MAIN
