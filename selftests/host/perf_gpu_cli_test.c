// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf-gpu's command line: dispatch, usage, errors and exit codes, as
 * perf's own builtins behave.  Runs on the host.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/run.h"
#include "../lib/setup_provides.h"

/* The directory of the perf-gpu under test, for perf --exec-path. */
static bool perf_gpu_dir(char *dir, size_t size)
{
	char *slash;

	snprintf(dir, size, "%s", perf_gpu_path());
	slash = strrchr(dir, '/');
	if (!slash)
		return false;
	*slash = '\0';
	return true;
}

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
	char dir[4096];

	SETUP_PROVIDES(perf_gpu_dir(dir, sizeof(dir)), "GPUPROF_PERF_GPU, a path (make check sets it)");
	SETUP_PROVIDES(!run_cmd(self->out, sizeof(self->out), "perf --version"),
		       "perf (package linux-perf)");
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "perf --exec-path=%s gpu --version", dir));
	EXPECT_EQ(0, strncmp(self->out, "perf gpu version ", 17)) TH_LOG("%s", self->out);
}

/*
 * Run ARGV with its stdout a pipe nobody reads (as `| head` leaves it once
 * head has exited) and its stderr in @err; returns the wait status.
 */
static int run_into_closed_pipe(char *const argv[], char *err, size_t size)
{
	FILE *f = tmpfile();
	int p[2], st = -1;
	size_t n;
	pid_t pid;

	if (!f || pipe(p))
		return -1;
	close(p[0]);
	pid = fork();
	if (pid == 0) {
		/* The test runner may ignore SIGPIPE; a shell would not. */
		signal(SIGPIPE, SIG_DFL);
		dup2(p[1], 1);
		dup2(fileno(f), 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	waitpid(pid, &st, 0);
	rewind(f);
	n = fread(err, 1, size - 1, f);
	err[n] = '\0';
	fclose(f);
	return st;
}

/*
 * Output cut short by the reader is no error of perf gpu's: it exits as a
 * shell reports a SIGPIPE (128 + 13) rather than dying of the signal,
 * which stock perf would report as "FATAL: unable to run 'perf-gpu'".
 */
TEST_F(cli, reader_gone_is_not_fatal)
{
	char dir[4096], opt[4200];
	char *const direct[] = { (char *)perf_gpu_path(), "version", NULL };
	char *const stock[] = { "perf", opt, "gpu", "version", NULL };
	int st;

	st = run_into_closed_pipe(direct, self->out, sizeof(self->out));
	ASSERT_TRUE(WIFEXITED(st)) TH_LOG("killed by signal %d", WTERMSIG(st));
	EXPECT_EQ(128 + SIGPIPE, WEXITSTATUS(st));
	EXPECT_STREQ("", self->out);

	SETUP_PROVIDES(perf_gpu_dir(dir, sizeof(dir)), "GPUPROF_PERF_GPU, a path (make check sets it)");
	SETUP_PROVIDES(!run_cmd(self->out, sizeof(self->out), "perf --version"),
		       "perf (package linux-perf)");
	snprintf(opt, sizeof(opt), "--exec-path=%s", dir);
	st = run_into_closed_pipe(stock, self->out, sizeof(self->out));
	EXPECT_EQ(NULL, strstr(self->out, "FATAL")) TH_LOG("%s", self->out);
	ASSERT_TRUE(WIFEXITED(st));
	EXPECT_EQ(128 + SIGPIPE, WEXITSTATUS(st));
}

TEST_HARNESS_MAIN
