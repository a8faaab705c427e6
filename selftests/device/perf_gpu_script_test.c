// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu script in the test VM, on a real recording: perf gpu record
 * of gpuwork making K vgem fences, then perf gpu script and the
 * distribution's perf script on the same file.  Both must show the K
 * dma_fence_signaled events of gpuwork, the same lines in the same
 * order (same comm, pid, cpu, nanosecond timestamps, payload text).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/gpuprof.h"
#include "../lib/run.h"

#define SIGNALED "dma_fence:dma_fence_signaled:"
#define K 50
#define OUT_SIZE (1 << 20)

FIXTURE(script) {
	char dir[64];
	char data[128];
	char ours[OUT_SIZE];
	char theirs[OUT_SIZE];
};

FIXTURE_SETUP(script)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/perf_gpu_script.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->data, sizeof(self->data), "%s/perf.data", self->dir);
}

FIXTURE_TEARDOWN(script)
{
	char out[256];

	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

/* Keep the lines of @s that contain @what, in order; their number. */
static int keep_lines(char *s, const char *what)
{
	char *in = s, *out = s;
	int n = 0;

	while (*in) {
		char *nl = strchr(in, '\n');
		size_t len = nl ? (size_t)(nl - in + 1) : strlen(in);

		if (memmem(in, len, what, strlen(what))) {
			memmove(out, in, len);
			out += len;
			n++;
		}
		in += len;
	}
	*out = '\0';
	return n;
}

/* Lines of @s that contain both @a and @b. */
static int count_with(const char *s, const char *a, const char *b)
{
	int n = 0;

	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s + 1) : strlen(s);

		if (memmem(s, len, a, strlen(a)) && memmem(s, len, b, strlen(b)))
			n++;
		s += len;
	}
	return n;
}

TEST_F(script, fences_match_perf_script)
{
	char out[4096];
	int ours, theirs;

	ASSERT_EQ(0, run_cmd(out, sizeof(out), "%s record -o %s -- %s fences %d",
			     perf_gpu_path(), self->data, gpuwork_path(), K))
		TH_LOG("%s", out);
	/* stderr apart: one stray warning would be a line. */
	ASSERT_EQ(0, run_cmd(self->ours, sizeof(self->ours),
			     "{ %s script --ns -i %s 2>/dev/null; }",
			     perf_gpu_path(), self->data));
	ASSERT_EQ(0, run_cmd(self->theirs, sizeof(self->theirs),
			     "{ perf script --ns -i %s 2>/dev/null; }", self->data));
	ours = keep_lines(self->ours, SIGNALED);
	theirs = keep_lines(self->theirs, SIGNALED);
	EXPECT_EQ(K, count_with(self->ours, "gpuwork ", SIGNALED))
		TH_LOG("%s", self->ours);
	EXPECT_EQ(theirs, ours);
	/* The whole lines: comm, pid, cpu, ns timestamp, payload. */
	EXPECT_STREQ(self->theirs, self->ours);
}

TEST_HARNESS_MAIN
