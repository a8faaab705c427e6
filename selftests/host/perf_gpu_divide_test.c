// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the fuzz target perf_data found in libtraceevent 1.7 (see
 * Documentation/testing.rst, "Fuzzing"), on files made with the perf.data
 * writer: a print fmt that divides by a constant 0 is refused with one
 * error line naming the operator's offset (libtraceevent would divide by
 * zero parsing it, or printing each sample), and a sample whose divisor
 * field is 0 is printed as its fields (libtraceevent would divide by
 * zero printing it) while the others print by the print fmt.  Run on
 * perf gpu script and report ($GPUPROF_PERF_GPU); expected text by hand.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/harness.h"
#include "../lib/files.h"
#include "../lib/run.h"
#include "../../tools/perf-gpu/perfdata/write.h"
#include "../../tools/perf-gpu/perfdata/tracing-data.h"

#define DIV_ID	700

/* An event of two u32 fields, a and b, and the print fmt @args. */
static char *div_format(const char *args)
{
	char *text;

	if (asprintf(&text,
		     "name: div\nID: %d\nformat:\n"
		     "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		     "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		     "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		     "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		     "\tfield:u32 a;\toffset:8;\tsize:4;\tsigned:0;\n"
		     "\tfield:u32 b;\toffset:12;\tsize:4;\tsigned:0;\n\n"
		     "print fmt: %s\n", DIV_ID, args) < 0)
		return NULL;
	return text;
}

/* @path: one sample of test:div per (a, b) pair, 1 ms apart from 2 s. */
static int write_div(const char *path, const char *args,
		      const uint32_t (*ab)[2], int n)
{
	static const struct perf_data_event ev = { "test:div", DIV_ID };
	struct tracing_data *td = tracing_data_new();
	char *fmt = div_format(args);
	struct perf_data_writer *w;
	void *blob = NULL;
	size_t len;
	int i, err = -1;

	if (td && fmt && tracing_data_add_format(td, "test", fmt,
						 strlen(fmt)) == DIV_ID)
		blob = tracing_data_build(td, &len);
	tracing_data_free(td);
	free(fmt);
	w = blob ? perf_data_create(path, &ev, 1) : NULL;
	if (!w)
		goto out;
	err = perf_data_set_tracing_data(w, blob, len);
	for (i = 0; i < n && !err; i++) {
		uint8_t raw[16] = { DIV_ID & 0xff, DIV_ID >> 8 };
		struct perf_data_sample s = {
			.event = 0, .pid = 42, .tid = 42,
			.time = 2000000000ull + i * 1000000ull,
			.raw = raw, .raw_size = sizeof(raw),
		};

		memcpy(raw + 4, &s.pid, 4);
		memcpy(raw + 8, &ab[i][0], 4);
		memcpy(raw + 12, &ab[i][1], 4);
		err = perf_data_write_sample(w, &s);
	}
	if (err)
		perf_data_abort(w);
	else
		err = perf_data_close(w);
out:
	free(blob);
	return err;
}

FIXTURE(div) {
	char dir[64], path[128];
	char out[65536], file[65536];
};

FIXTURE_SETUP(div)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/perf_gpu_divide.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
}

FIXTURE_TEARDOWN(div)
{
	char out[256];

	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

/* The offset in the file of the first @what, or -1. */
static long offset_of(FIXTURE_DATA(div) *self, const char *what)
{
	ssize_t n = read_file(self->path, self->file, sizeof(self->file));
	char *p = n > 0 ? memmem(self->file, n, what, strlen(what)) : NULL;

	return p ? p - self->file : -1;
}

TEST_F(div, zero_field_prints_the_fields)
{
	static const uint32_t ab[][2] = { { 7, 2 }, { 7, 0 }, { 9, 4 } };

	ASSERT_EQ(0, write_div(self->path,
				"\"q=%u r=%u\", REC->a / REC->b, REC->a % REC->b",
				ab, 3));
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s script -i %s",
			     perf_gpu_path(), self->path));
	EXPECT_STREQ("             :42    42 [000]     2.000000: test:div: q=3 r=1\n"
		     "             :42    42 [000]     2.001000: test:div:  a=7 b=0\n"
		     "             :42    42 [000]     2.002000: test:div: q=2 r=1\n",
		     self->out);
}

TEST_F(div, constant_zero_divisor_is_refused)
{
	static const uint32_t ab[][2] = { { 7, 2 } };
	const char *cmds[] = { "script", "report" };
	char want[512];
	long off;
	int i;

	ASSERT_EQ(0, write_div(self->path, "\"q=%u\", REC->a / (0)", ab, 1));
	off = offset_of(self, "/ (0)");
	ASSERT_GT(off, 0);
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(1, run_cmd(self->out, sizeof(self->out),
				     "%s %s -i %s", perf_gpu_path(), cmds[i],
				     self->path));
		snprintf(want, sizeof(want),
			 "perf gpu %s: %s: offset %ld: the print fmt of a format of system test divides by zero\n",
			 cmds[i], self->path, off);
		EXPECT_STREQ(want, self->out);
	}
}

/* Two constants: libtraceevent would work the quotient out parsing. */
TEST_F(div, constant_by_word_is_refused)
{
	static const uint32_t ab[][2] = { { 7, 2 } };
	char want[512];
	long off;

	ASSERT_EQ(0, write_div(self->path, "\"q=%u\", 1/x", ab, 1));
	off = offset_of(self, "/x");
	ASSERT_GT(off, 0);
	EXPECT_EQ(1, run_cmd(self->out, sizeof(self->out), "%s script -i %s",
			     perf_gpu_path(), self->path));
	snprintf(want, sizeof(want),
		 "perf gpu script: %s: offset %ld: the print fmt of a format of system test divides by zero\n",
		 self->path, off);
	EXPECT_STREQ(want, self->out);
}

/* A non-zero constant divisor, and a field one, print as usual. */
TEST_F(div, nonzero_divisors_print)
{
	static const uint32_t ab[][2] = { { 10, 3 } };

	ASSERT_EQ(0, write_div(self->path,
				"\"h=%u q=%u\", REC->a / 2, (REC->a + 2) / REC->b",
				ab, 1));
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s script -i %s",
			     perf_gpu_path(), self->path));
	EXPECT_STREQ("             :42    42 [000]     2.000000: test:div: h=5 q=4\n",
		     self->out);
}

TEST_HARNESS_MAIN
