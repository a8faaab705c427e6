// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu record's command line on the host: usage and the argument
 * errors found before tracefs or perf events are touched.  Recording
 * itself is tested in the VM (device/perf_gpu_record_test.c).
 */
#include <string.h>

#include "../lib/harness.h"
#include "../lib/run.h"

FIXTURE(rcli) {
	char out[16384];
};

FIXTURE_SETUP(rcli) {}
FIXTURE_TEARDOWN(rcli) {}

TEST_F(rcli, listed_among_the_commands)
{
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s --help",
			     perf_gpu_path()));
	EXPECT_NE(NULL, strstr(self->out, "   record ")) TH_LOG("%s", self->out);
}

TEST_F(rcli, help_prints_usage_like_perf)
{
	/* libsubcmd exits 129 on -h, as perf record -h does. */
	EXPECT_EQ(129, run_cmd(self->out, sizeof(self->out), "%s record -h",
			       perf_gpu_path()));
	EXPECT_NE(NULL, strstr(self->out, " Usage: perf gpu record [<options>] [<command>]\n"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "    -e, --event <SYSTEM:EVENT>\n"));
	EXPECT_NE(NULL, strstr(self->out, "    -m, --mmap-pages <n>"));
}

TEST_F(rcli, unknown_option)
{
	EXPECT_EQ(129, run_cmd(self->out, sizeof(self->out), "%s record --frob",
			       perf_gpu_path()));
	EXPECT_NE(NULL, strstr(self->out, "Error: unknown option `frob'"));
}

TEST_F(rcli, mmap_pages_must_be_a_power_of_two)
{
	EXPECT_EQ(1, run_cmd(self->out, sizeof(self->out), "%s record -m 3",
			     perf_gpu_path()));
	EXPECT_STREQ("perf gpu record: -m wants a power of two number of pages, not 3\n",
		     self->out);
}

TEST_F(rcli, bad_pid)
{
	EXPECT_EQ(1, run_cmd(self->out, sizeof(self->out), "%s record -p 12x",
			     perf_gpu_path()));
	EXPECT_STREQ("perf gpu record: bad pid '12x'\n", self->out);
}

TEST_F(rcli, pid_excludes_a_command_and_all_cpus)
{
	EXPECT_EQ(1, run_cmd(self->out, sizeof(self->out),
			     "%s record -p 1 -- true", perf_gpu_path()));
	EXPECT_STREQ("perf gpu record: -p cannot go with -a or a command\n",
		     self->out);
	EXPECT_EQ(1, run_cmd(self->out, sizeof(self->out),
			     "%s record -a -p 1", perf_gpu_path()));
}

/* Each bad value is one line naming it; nothing is recorded. */
TEST_F(rcli, limits_take_only_what_they_say)
{
	static const char *const bad_durations[] = {
		"0", "0.0", "-1", " 1", "1s", "1e3", "0x10", "86400.000000001",
		"1.0000000001", "", ".5", "99999999999999999999",
	};
	static const char *const bad_sizes[] = {
		"0", "0K", "-1", "1T", "1KB", "K", " 1", "0x10", "1.5M",
		"1048576G", "", "18446744073709551617",
	};
	char want[256];
	size_t i;

	for (i = 0; i < sizeof(bad_durations) / sizeof(*bad_durations); i++) {
		EXPECT_EQ(1, run_cmd(self->out, sizeof(self->out),
				     "%s record --duration '%s' -o /nonexistent/x",
				     perf_gpu_path(), bad_durations[i]));
		snprintf(want, sizeof(want),
			 "perf gpu record: bad --duration '%s': want seconds, more than 0, at most 86400\n",
			 bad_durations[i]);
		EXPECT_STREQ(want, self->out);
	}
	for (i = 0; i < sizeof(bad_sizes) / sizeof(*bad_sizes); i++) {
		EXPECT_EQ(1, run_cmd(self->out, sizeof(self->out),
				     "%s record --max-size '%s' -o /nonexistent/x",
				     perf_gpu_path(), bad_sizes[i]));
		snprintf(want, sizeof(want),
			 "perf gpu record: bad --max-size '%s': want bytes, more than 0, with B, K, M or G\n",
			 bad_sizes[i]);
		EXPECT_STREQ(want, self->out);
	}
}

TEST_HARNESS_MAIN
