// SPDX-License-Identifier: GPL-2.0-only
/*
 * selftests/scripts/tap-summary.sh, the last lines of make check: the
 * counts it prints for logs written here, each failure named by log,
 * program and test before the counts (so the tail of a CI run says
 * what failed), the skip reasons counted, and its exit status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/run.h"

FIXTURE(tap) {
	char dir[64];
	char out[8192];
};

FIXTURE_SETUP(tap)
{
	strcpy(self->dir, "/tmp/gpuprof-tap-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
}

FIXTURE_TEARDOWN(tap)
{
	char out[256];

	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

static void write_log(struct __test_metadata *_metadata, const char *dir,
		      const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fputs(text, f);
	ASSERT_EQ(0, fclose(f));
}

static int summary(FIXTURE_DATA(tap) *self, const char *logs)
{
	return run_cmd(self->out, sizeof(self->out),
		       "cd '%s' && sh %s/selftests/scripts/tap-summary.sh %s",
		       self->dir, repo_dir(), logs);
}

TEST_F(tap, passes_alone_give_the_count_and_status_0)
{
	write_log(_metadata, self->dir, "host.log",
		  "# program: a_test\nok 1 one\nok 2 two\n# exit: 0\n");
	EXPECT_EQ(0, summary(self, "host.log"));
	EXPECT_STREQ("2 passed, 0 failed, 0 skipped\n", self->out);
}

TEST_F(tap, each_failure_is_named_before_the_counts)
{
	write_log(_metadata, self->dir, "host.log",
		  "# program: a_test\nok 1 one\nnot ok 2 a.breaks\n# exit: 1\n"
		  "# program: b_test\nok 1 b.fine\n# exit: 0\n");
	write_log(_metadata, self->dir, "vm-7.3.log",
		  "# program: c_test\nnot ok 1 c.late\nok 2 c.on_time\n# exit: 1\n");
	EXPECT_EQ(1, summary(self, "host.log vm-7.3.log"));
	EXPECT_STREQ("# failed: host.log: a_test: not ok 2 a.breaks\n"
		     "# failed: vm-7.3.log: c_test: not ok 1 c.late\n"
		     "3 passed, 2 failed, 0 skipped\n", self->out);
}

/* A crash after its tests passed is a failure, named by its status. */
TEST_F(tap, a_program_exiting_non_zero_is_named)
{
	write_log(_metadata, self->dir, "host.log",
		  "# program: a_test\nok 1 one\n# exit: 134\n");
	EXPECT_EQ(1, summary(self, "host.log"));
	EXPECT_STREQ("# failed: host.log: a_test: exited 134\n"
		     "1 passed, 1 failed, 0 skipped\n", self->out);
}

TEST_F(tap, skip_reasons_are_counted_most_first)
{
	write_log(_metadata, self->dir, "host.log",
		  "# program: a_test\n"
		  "ok 1 one # SKIP no Intel GPU\n"
		  "ok 2 two # SKIP no fault injection\n"
		  "ok 3 three # SKIP no fault injection\n"
		  "ok 4 four # SKIP\n"
		  "# exit: 0\n");
	EXPECT_EQ(0, summary(self, "host.log"));
	EXPECT_STREQ("# skipped 2: no fault injection\n"
		     "# skipped 1: no Intel GPU\n"
		     "# skipped 1: (no reason given)\n"
		     "0 passed, 0 failed, 4 skipped\n", self->out);
}

TEST_F(tap, a_log_without_results_fails)
{
	write_log(_metadata, self->dir, "vm-6.1.log", "# program: a_test\n");
	EXPECT_EQ(1, summary(self, "vm-6.1.log"));
	EXPECT_STREQ("# failed: no test results\n"
		     "0 passed, 1 failed, 0 skipped\n", self->out);
}

TEST_HARNESS_MAIN
