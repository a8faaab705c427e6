// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf-gpu's command line: dispatch, usage, errors and exit codes, as
 * perf's own builtins behave.  Runs on the host.
 */
#include <string.h>

#include "kselftest_harness.h"
#include "../lib/run.h"

FIXTURE(cli) {
	char out[16384];
};

FIXTURE_SETUP(cli) {}
FIXTURE_TEARDOWN(cli) {}

TEST_F(cli, no_command_prints_usage_and_fails)
{
	EXPECT_EQ(1, run_cmd(self->out, sizeof(self->out), "%s", perf_gpu_path()));
	EXPECT_NE(NULL, strstr(self->out, "usage: perf gpu")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "   list "));
}

TEST_F(cli, help_succeeds)
{
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s --help",
			     perf_gpu_path()));
	EXPECT_NE(NULL, strstr(self->out, "The perf gpu commands are:"));
}

TEST_F(cli, version)
{
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s --version",
			     perf_gpu_path()));
	EXPECT_EQ(0, strncmp(self->out, "perf gpu version ", 17)) TH_LOG("%s", self->out);
}

TEST_F(cli, unknown_command_names_it)
{
	EXPECT_EQ(1, run_cmd(self->out, sizeof(self->out), "%s frobnicate",
			     perf_gpu_path()));
	EXPECT_STREQ("perf gpu: 'frobnicate' is not a perf gpu command. See 'perf gpu --help'.\n",
		     self->out);
}

TEST_F(cli, unknown_option_is_a_usage_error)
{
	/* libsubcmd's usage_with_options() exits 129, as in perf. */
	EXPECT_EQ(129, run_cmd(self->out, sizeof(self->out), "%s list --frob",
			       perf_gpu_path()));
	EXPECT_NE(NULL, strstr(self->out, "Error: unknown option `frob'")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "Usage: perf gpu list [<options>]"));
}

TEST_F(cli, stray_argument_is_a_usage_error)
{
	EXPECT_EQ(129, run_cmd(self->out, sizeof(self->out), "%s list extra",
			       perf_gpu_path()));
}

TEST_F(cli, stock_perf_dispatches_to_perf_gpu)
{
	char dir[4096], *slash;

	snprintf(dir, sizeof(dir), "%s", perf_gpu_path());
	slash = strrchr(dir, '/');
	if (!slash)
		SKIP(return, "GPUPROF_PERF_GPU is not a path");
	*slash = '\0';
	if (run_cmd(self->out, sizeof(self->out), "perf --version") != 0)
		SKIP(return, "no perf binary");
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "perf --exec-path=%s gpu --version", dir));
	EXPECT_EQ(0, strncmp(self->out, "perf gpu version ", 17)) TH_LOG("%s", self->out);
}

TEST_HARNESS_MAIN
