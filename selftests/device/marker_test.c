// SPDX-License-Identifier: GPL-2.0-only
/*
 * /dev/gpuprof/marker and the gpuprof:gpuprof_mark tracepoint: the
 * grammar, the event in tracefs, and the event in a perf recording made
 * by the distribution's perf.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/fixture.h"
#include "../lib/run.h"
#include "../lib/trace.h"
#include "../lib/setup_provides.h"

#define MARKER GP "/marker"
#define EVENT "/sys/kernel/tracing/events/gpuprof/gpuprof_mark"

TEST_F(gp, marker_is_a_write_only_node)
{
	struct stat st;

	ASSERT_EQ(0, stat(MARKER, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(0200, st.st_mode & 07777);
	EXPECT_EQ(-1, open(MARKER, O_RDONLY));
	EXPECT_EQ(EACCES, errno);
}

TEST_F(gp, marker_grammar)
{
	char big[300];

	EXPECT_EQ(0, write_file(MARKER, "begin frame 1\n"));
	EXPECT_EQ(0, write_file(MARKER, "end frame 1"));
	EXPECT_EQ(-EINVAL, write_file(MARKER, "begin\n"));
	EXPECT_EQ(-EINVAL, write_file(MARKER, "begin \n"));
	EXPECT_EQ(-EINVAL, write_file(MARKER, "start x\n"));
	EXPECT_EQ(-EINVAL, write_file(MARKER, "\n"));
	EXPECT_EQ(-EINVAL, write_file_len(MARKER, "", 0));
	EXPECT_EQ(-EINVAL, write_file_len(MARKER, "end a\0b", 7));
	EXPECT_EQ(-EINVAL, write_file(MARKER, "end a\tb\n"));
	memset(big, 'x', sizeof(big));
	memcpy(big, "begin ", 6);
	EXPECT_EQ(-EINVAL, write_file_len(MARKER, big, 257));
	EXPECT_EQ(0, write_file_len(MARKER, big, 256));
}

TEST_F(gp, marker_fires_the_tracepoint)
{
	char want[64];

	ASSERT_EQ(0, trace_clear());
	ASSERT_EQ(0, write_file(EVENT "/enable", "1"));
	ASSERT_EQ(0, write_file(MARKER, "begin tracefs_mark\n"));
	ASSERT_EQ(0, write_file(EVENT "/enable", "0"));
	ASSERT_LT(0, read_file("/sys/kernel/tracing/trace", self->buf,
			       sizeof(self->buf)));
	snprintf(want, sizeof(want), "gpuprof_mark: pid=%d begin tracefs_mark\n",
		 getpid());
	EXPECT_NE(NULL, strstr(self->buf, want)) TH_LOG("%s", self->buf);
}

/* perf starts slowly under TCG: give it more than the default 30 s. */
TEST_F_TIMEOUT(gp, stock_perf_records_the_marker, 180)
{
	char out[16384];

	SETUP_PROVIDES(!run_cmd(out, sizeof(out), "perf --version"), "perf (package linux-perf)");
	ASSERT_EQ(0, run_cmd(out, sizeof(out),
			     "perf record -q -N -B -e gpuprof:gpuprof_mark -o /tmp/mark.data "
			     "-- sh -c 'echo begin perf_mark > " MARKER "'"))
		TH_LOG("%s", out);
	ASSERT_EQ(0, run_cmd(out, sizeof(out), "perf script -i /tmp/mark.data"));
	EXPECT_NE(NULL, strstr(out, "gpuprof:gpuprof_mark: pid=")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, " begin perf_mark")) TH_LOG("%s", out);
}

TEST_HARNESS_MAIN
