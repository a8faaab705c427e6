// SPDX-License-Identifier: GPL-2.0-only
/*
 * Targets by cgroup ("module cgroup:/PATH"): the processes in a cgroup v2
 * directory or below it at their first submission, counted exactly,
 * others not; a target's cgroup file; a cgroup removed while its target
 * lives; a cgroup that does not exist.  And the same two cgroups seen
 * by perf gpu record -a ($GPUPROF_PERF_GPU): its report by cgroup gives
 * the counts the device does, and stock perf report --sort cgroup names
 * both cgroups from the file's CGROUP records.  The test mounts the cgroup v2
 * hierarchy itself (the VM's init does not) and makes its cgroups at the
 * root, so their paths in the hierarchy are "/gpuprof_test_*".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/kconfig.h"
#include "../lib/gpuprof.h"
#include "../lib/kmod.h"
#include "../lib/run.h"

FIXTURE(cg) {
	char root[64];		/* where the hierarchy is mounted */
	char buf[4096];
	char out[1 << 16];
};

static int cg_write(FIXTURE_DATA(cg) *self, const char *file, const char *text);

FIXTURE_SETUP(cg)
{
	strcpy(self->root, "/tmp/gpuprof-cgroup.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->root));
	ASSERT_EQ(0, mount("none", self->root, "cgroup2", 0, NULL))
		TH_LOG("mount cgroup2: %s", strerror(errno));
	/*
	 * The perf_event controller is on in every v2 cgroup implicitly,
	 * but a fresh boot makes the css of such controllers for new
	 * cgroups only once the root's subtree_control has been written
	 * (systemd does at boot; this VM has no systemd): before that,
	 * perf samples give a new cgroup's processes the root's id (seen
	 * with stock perf record --all-cgroups too).  One write makes
	 * them, as on any systemd machine.
	 */
	ASSERT_EQ(0, cg_write(self, "/cgroup.subtree_control", "+pids"));
	ASSERT_EQ(0, gpuprof_load(NULL));
}

/* Write @text to the hierarchy's @file: 0 or -errno. */
static int cg_write(FIXTURE_DATA(cg) *self, const char *file, const char *text)
{
	char path[128];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s%s", self->root, file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* rmdir @path, waiting for the cgroup's last exited task to go. */
static int cg_rmdir(const char *path)
{
	int i;

	for (i = 0; i < 200; i++) {
		if (!rmdir(path) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -errno;
		sleep_ms(10);
	}
	return -EBUSY;
}

static void cg_path(FIXTURE_DATA(cg) *self, char *out, size_t size,
		    const char *cgroup)
{
	snprintf(out, size, "%s%s", self->root, cgroup);
}

FIXTURE_TEARDOWN(cg)
{
	static const char *const made[] = {
		"/gpuprof_test_a/sub", "/gpuprof_test_a", "/gpuprof_test_b",
		"/gpuprof_test_gone",
	};
	char path[128];
	size_t i;

	EXPECT_EQ(0, gpuprof_unload());
	for (i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
		cg_path(self, path, sizeof(path), made[i]);
		EXPECT_EQ(0, cg_rmdir(path)) TH_LOG("rmdir %s", path);
	}
	EXPECT_EQ(0, umount(self->root));
	rmdir(self->root);
}

static void cg_mkdir(FIXTURE_DATA(cg) *self, const char *cgroup)
{
	char path[128];

	cg_path(self, path, sizeof(path), cgroup);
	if (mkdir(path, 0755) && errno != EEXIST)
		fprintf(stderr, "# mkdir %s: %s\n", path, strerror(errno));
}

/*
 * Run "gpuwork ARGS..." in @cgroup (NULL: where this test runs), moved
 * there before it execs; its exit status.
 */
static int gpuwork_in(FIXTURE_DATA(cg) *self, const char *cgroup,
		      const char *comm, const char *fences)
{
	char procs[160], pid[16];
	pid_t child;
	int st, fd;

	child = fork();
	if (child < 0)
		return -1;
	if (child == 0) {
		if (cgroup) {
			snprintf(procs, sizeof(procs), "%s%s/cgroup.procs",
				 self->root, cgroup);
			snprintf(pid, sizeof(pid), "%d", getpid());
			fd = open(procs, O_WRONLY);
			if (fd < 0 || write(fd, pid, strlen(pid)) < 0)
				_exit(126);
			close(fd);
		}
		execl(gpuwork_path(), "gpuwork", "-n", comm, "fences", fences,
		      (char *)NULL);
		_exit(127);
	}
	if (waitpid(child, &st, 0) != child || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static long long vgem_jobs(int id)
{
	return hist_value(id, timeline_id("vgem", "unbound"));
}

/* Cgroups a and b, each a target, profiling in coverage mode: 0 or -1. */
static int two_cgroup_targets(FIXTURE_DATA(cg) *self)
{
	cg_mkdir(self, "/gpuprof_test_a");
	cg_mkdir(self, "/gpuprof_test_b");
	if (ctl("module cgroup:/gpuprof_test_a cgroup:/gpuprof_test_b\n") ||
	    ctl("startcp\n"))
		return -1;
	return 0;
}

/*
 * The two targets, in *@a and *@b, counted 25 and 7 jobs: 0, or -1 with
 * what differs on stderr.
 */
static int counted_25_and_7(int *a, int *b)
{
	*a = find_target("cgroup:/gpuprof_test_a");
	*b = find_target("cgroup:/gpuprof_test_b");
	if (*a <= 0 || *b <= 0 || vgem_jobs(*a) != 25 || vgem_jobs(*b) != 7) {
		fprintf(stderr, "# targets %d and %d: %lld and %lld jobs, not 25 and 7\n",
			*a, *b, *a > 0 ? vgem_jobs(*a) : -1, *b > 0 ? vgem_jobs(*b) : -1);
		return -1;
	}
	return 0;
}

TEST_F(cg, two_cgroups_count_exactly_their_jobs_and_no_one_elses)
{
	int a, b;

	ASSERT_EQ(0, two_cgroup_targets(self));
	ASSERT_EQ(0, gpuwork_in(self, "/gpuprof_test_a", "cg_one", "25"));
	ASSERT_EQ(0, gpuwork_in(self, "/gpuprof_test_b", "cg_two", "7"));
	ASSERT_EQ(0, gpuwork_in(self, NULL, "cg_three", "5"));
	ASSERT_EQ(0, ctl("stop\n"));
	ASSERT_EQ(0, counted_25_and_7(&a, &b));
	/* The third process, in neither, has no directory of its own. */
	EXPECT_EQ(2, status_num("targets"));
	ASSERT_LT(0, target_file(a, "cgroup", self->buf, sizeof(self->buf)));
	EXPECT_STREQ("/gpuprof_test_a\n", self->buf);
	ASSERT_LT(0, target_file(b, "cgroup", self->buf, sizeof(self->buf)));
	EXPECT_STREQ("/gpuprof_test_b\n", self->buf);
}

TEST_F(cg, a_process_below_the_cgroup_belongs_to_it)
{
	int a;

	cg_mkdir(self, "/gpuprof_test_a");
	cg_mkdir(self, "/gpuprof_test_a/sub");
	ASSERT_EQ(0, ctl("module cgroup:/gpuprof_test_a\n"));
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, gpuwork_in(self, "/gpuprof_test_a/sub", "cg_below", "6"));
	ASSERT_EQ(0, gpuwork_in(self, "/gpuprof_test_a", "cg_in", "3"));
	ASSERT_EQ(0, ctl("stop\n"));
	a = find_target("cgroup:/gpuprof_test_a");
	ASSERT_LT(0, a);
	EXPECT_EQ(9, vgem_jobs(a));
}

/* A process target's cgroup file: where its first process was. */
TEST_F(cg, a_process_target_names_its_process_cgroup)
{
	int id;

	cg_mkdir(self, "/gpuprof_test_b");
	ASSERT_EQ(0, ctl("module cg_named\n"));
	id = find_target("cg_named");
	ASSERT_LT(0, id);
	/* Not known before its first job: an empty file. */
	EXPECT_EQ(0, target_file(id, "cgroup", self->buf, sizeof(self->buf)));
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, gpuwork_in(self, "/gpuprof_test_b", "cg_named", "2"));
	ASSERT_EQ(0, ctl("stop\n"));
	EXPECT_EQ(2, vgem_jobs(id));
	ASSERT_LT(0, target_file(id, "cgroup", self->buf, sizeof(self->buf)));
	EXPECT_STREQ("/gpuprof_test_b\n", self->buf);
}

TEST_F(cg, a_removed_cgroup_leaves_its_target_whole)
{
	char path[128];
	int id;

	cg_mkdir(self, "/gpuprof_test_gone");
	ASSERT_EQ(0, ctl("module cgroup:/gpuprof_test_gone\n"));
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, gpuwork_in(self, "/gpuprof_test_gone", "cg_gone", "4"));
	cg_path(self, path, sizeof(path), "/gpuprof_test_gone");
	ASSERT_EQ(0, cg_rmdir(path));
	/* Profiling goes on: other processes are matched against it. */
	ASSERT_EQ(0, gpuwork_in(self, NULL, "cg_after", "3"));
	ASSERT_EQ(0, ctl("stop\n"));
	id = find_target("cgroup:/gpuprof_test_gone");
	ASSERT_LT(0, id);
	EXPECT_EQ(4, vgem_jobs(id));
	ASSERT_LT(0, target_file(id, "cgroup", self->buf, sizeof(self->buf)));
	EXPECT_STREQ("/gpuprof_test_gone\n", self->buf);
	EXPECT_EQ(1, status_num("targets"));
	/* The target ends, and with it its hold on the cgroup. */
	ASSERT_EQ(0, ctl("module\n"));
	EXPECT_EQ(0, status_num("targets"));
}

/*
 * The row of @cgroup in perf gpu report --sort cgroup --format=csv
 * ("cgroup,clients,jobs,..."): its jobs, or -1 when it has none.
 */
static long long csv_jobs(const char *csv, const char *cgroup)
{
	char head[160];
	const char *p;
	long long clients, jobs;

	snprintf(head, sizeof(head), "\n%s,", cgroup);
	p = strstr(csv, head);
	if (!p || sscanf(p + strlen(head), "%lld,%lld", &clients, &jobs) != 2)
		return -1;
	return jobs;
}

TEST_F(cg, record_and_report_by_cgroup_agree_with_the_device)
{
	char dir[] = "/tmp/gpuprof-cgrec.XXXXXX", line[256];
	int a, b;

	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_EQ(0, two_cgroup_targets(self));
	/* System-wide for as long as the three run, each moved before exec. */
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s record -a -o %s/perf.data -- sh -c \""
			     "sh -c 'echo \\$\\$ > %s/gpuprof_test_a/cgroup.procs; exec %s -n cg_one fences 25'; "
			     "sh -c 'echo \\$\\$ > %s/gpuprof_test_b/cgroup.procs; exec %s -n cg_two fences 7'; "
			     "%s -n cg_three fences 5\"",
			     perf_gpu_path(), dir, self->root, gpuwork_path(),
			     self->root, gpuwork_path(), gpuwork_path()))
		TH_LOG("%s", self->out);
	ASSERT_EQ(0, ctl("stop\n"));
	ASSERT_EQ(0, counted_25_and_7(&a, &b));

	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s report -i %s/perf.data --sort cgroup --format=csv",
			     perf_gpu_path(), dir)) TH_LOG("%s", self->out);
	/*
	 * A kernel without perf's cgroup events (the 6.1 and 6.12 debug
	 * kernels) gives samples without cgroup ids: the report says so,
	 * has no cgroup rows, and refuses to filter by one.
	 */
	ASSERT_NE(0, kernel_config("CGROUP_PERF"));
	if (kernel_config("CGROUP_PERF") == 'n') {
		EXPECT_NE(NULL, strstr(self->out, "\n# lacks: cgroups: ")) TH_LOG("%s", self->out);
		EXPECT_EQ(-1, csv_jobs(self->out, "/gpuprof_test_a")) TH_LOG("%s", self->out);
		EXPECT_EQ(1, run_cmd(self->out, sizeof(self->out),
				     "%s report -i %s/perf.data --cgroup /gpuprof_test_b 2>&1",
				     perf_gpu_path(), dir)) TH_LOG("%s", self->out);
		run_cmd(self->out, sizeof(self->out), "rm -rf %s", dir);
		return;
	}
	EXPECT_EQ(vgem_jobs(a), csv_jobs(self->out, "/gpuprof_test_a")) TH_LOG("%s", self->out);
	EXPECT_EQ(vgem_jobs(b), csv_jobs(self->out, "/gpuprof_test_b")) TH_LOG("%s", self->out);
	/* The third process is in the root cgroup, not in either. */
	EXPECT_EQ(5, csv_jobs(self->out, "/")) TH_LOG("%s", self->out);
	/* --cgroup: that subtree's clients only. */
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s report -i %s/perf.data --cgroup /gpuprof_test_b --format=csv",
			     perf_gpu_path(), dir)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, ",cg_two,vgem,")) TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strstr(self->out, ",cg_one,")) TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strstr(self->out, ",cg_three,")) TH_LOG("%s", self->out);

	/* Stock perf names both cgroups from the file's CGROUP records. */
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "perf report -i %s/perf.data --sort cgroup --stdio 2>&1",
			     dir)) TH_LOG("%s", self->out);
	snprintf(line, sizeof(line), "%%  /gpuprof_test_a\n");
	EXPECT_NE(NULL, strstr(self->out, line)) TH_LOG("%s", self->out);
	snprintf(line, sizeof(line), "%%  /gpuprof_test_b\n");
	EXPECT_NE(NULL, strstr(self->out, line)) TH_LOG("%s", self->out);
	run_cmd(self->out, sizeof(self->out), "rm -rf %s", dir);
}

TEST_F(cg, a_cgroup_that_does_not_exist_is_refused)
{
	EXPECT_EQ(-ENOENT, ctl("module cg_ok cgroup:/gpuprof_test_none\n"));
	/* The command changed nothing: no target, not even the comm one. */
	EXPECT_EQ(0, status_num("targets"));
	/* A file is no cgroup. */
	EXPECT_EQ(-ENOTDIR, ctl("module cgroup:/cgroup.procs\n"));
	EXPECT_EQ(-EINVAL, ctl("module cgroup:relative\n"));
	EXPECT_EQ(0, status_num("targets"));
}

TEST_HARNESS_MAIN
