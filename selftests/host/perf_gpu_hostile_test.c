// SPDX-License-Identifier: GPL-2.0-only
/*
 * Crafted recordings (issue 38): a perf.data is a file people send each
 * other, so none may crash, hang or exhaust perf gpu script, report,
 * timechart or convert.  Each file below is refused with exit status 1
 * and one line, "perf gpu CMD: FILE: offset N: WHAT", N the offset in the
 * file of the bytes at fault, found independently (memmem for the text,
 * the writer's layout for the numbers).  The expected texts are
 * written by hand.
 *
 * Event formats that crash Debian 12's libtraceevent (1.7.1) when it
 * parses them, found by fuzzing tep_parse_event() alone and minimised
 * (Documentation/testing.rst, "Fuzzing"): each is caught by the trial
 * parse in a child process (perfdata/tracing-data-read.c), whose error
 * names the format.  Then the numbers of the tracing data and of the
 * file's own sections made huge or cut short.  Run on $GPUPROF_PERF_GPU,
 * the ASan/UBSan build in make check: a crash there is a failure here.
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

#define EV_ID	700

/* The fields every tracepoint record starts with, then @body. */
static char *format_of(const char *body)
{
	char *text;

	if (asprintf(&text,
		     "name: ev\nID: %d\nformat:\n"
		     "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		     "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		     "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		     "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		     "%s", EV_ID, body) < 0)
		return NULL;
	return text;
}

/* Two u32 fields, a and b, and the print fmt @args. */
#define FIELDS_AB \
	"\tfield:u32 a;\toffset:8;\tsize:4;\tsigned:0;\n" \
	"\tfield:u32 b;\toffset:12;\tsize:4;\tsigned:0;\n\n"

/* @path: system @system with the format @body, two samples of it. */
static int write_recording_of(const char *path, const char *system,
			      const char *body)
{
	static const struct perf_data_event ev = { "test:ev", EV_ID };
	struct tracing_data *td = tracing_data_new();
	char *fmt = format_of(body);
	struct perf_data_writer *w;
	void *blob = NULL;
	size_t len;
	int i, err = -1;

	if (td && fmt && tracing_data_add_format(td, system, fmt,
						 strlen(fmt)) == EV_ID)
		blob = tracing_data_build(td, &len);
	tracing_data_free(td);
	free(fmt);
	w = blob ? perf_data_create(path, &ev, 1) : NULL;
	if (!w)
		goto out;
	err = perf_data_set_tracing_data(w, blob, len);
	for (i = 0; i < 2 && !err; i++) {
		uint8_t raw[16] = { EV_ID & 0xff, EV_ID >> 8 };
		struct perf_data_sample s = {
			.event = 0, .pid = 42, .tid = 42,
			.time = 2000000000ull + i * 1000000ull,
			.raw = raw, .raw_size = sizeof(raw),
		};

		memcpy(raw + 4, &s.pid, 4);
		raw[8] = 7;
		raw[12] = 2;
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

static int write_recording(const char *path, const char *body)
{
	return write_recording_of(path, "test", body);
}

FIXTURE(hostile) {
	char dir[64], path[128];
	char out[65536], file[1 << 16];
	ssize_t size;
	long fmt_end;	/* the sane format's end, in the file */
};

FIXTURE_SETUP(hostile)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/perf_gpu_hostile.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
}

FIXTURE_TEARDOWN(hostile)
{
	char out[256];

	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

/* The file in self->file; the offset of the first @what in it, or -1. */
static long load(FIXTURE_DATA(hostile) *self, const char *what)
{
	char *p;

	self->size = read_file(self->path, self->file, sizeof(self->file));
	if (self->size <= 0)
		return -1;
	p = memmem(self->file, self->size, what, strlen(what));
	return p ? p - self->file : -1;
}

static int store(FIXTURE_DATA(hostile) *self)
{
	FILE *f = fopen(self->path, "wb");
	int err;

	if (!f)
		return -1;
	err = fwrite(self->file, 1, self->size, f) != (size_t)self->size;
	return fclose(f) || err ? -1 : 0;
}

/*
 * script, report, timechart and convert on the file: each exits 1 and
 * prints one line, "perf gpu CMD: PATH: offset @off: @what" (@off < 0:
 * any offset, @what anywhere; @what ending in a blank: what the line
 * starts with).
 */
static void refused(struct __test_metadata *_metadata,
		    FIXTURE_DATA(hostile) *self, long off, const char *what)
{
	static const char *const cmds[] = { "script", "report", "timechart",
					    "convert" };
	static const char *const args[] = { "", "", " -o /dev/null",
					    " --to-perfetto -o /dev/null" };
	char want[512], *nl;
	size_t i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		EXPECT_EQ(1, run_cmd(self->out, sizeof(self->out),
				     "%s %s -i %s%s", perf_gpu_path(), cmds[i],
				     self->path, args[i]))
			TH_LOG("%s: %s", cmds[i], self->out);
		nl = strchr(self->out, '\n');
		EXPECT_TRUE(nl && !nl[1]) TH_LOG("%s: not one line: %s", cmds[i], self->out);
		if (off >= 0)
			snprintf(want, sizeof(want), "perf gpu %s: %s: offset %ld: %s%s",
				 cmds[i], self->path, off, what,
				 what[strlen(what) - 1] == ' ' ? "" : "\n");
		else
			snprintf(want, sizeof(want), "perf gpu %s: %s: offset ",
				 cmds[i], self->path);
		EXPECT_EQ(0, strncmp(want, self->out, strlen(want)))
			TH_LOG("want: %s\n got: %s", want, self->out);
		if (off < 0)
			EXPECT_NE(NULL, strstr(self->out, what))
				TH_LOG("want: %s\n got: %s", what, self->out);
	}
}

/* A format that crashes libtraceevent's parser: refused, the format named. */
static void crashes_parser(struct __test_metadata *_metadata,
			   FIXTURE_DATA(hostile) *self, const char *body)
{
	long off;

	ASSERT_EQ(0, write_recording(self->path, body));
	off = load(self, "name: ev\n");
	ASSERT_LT(0, off);
	refused(_metadata, self, off,
		"the event format of system test crashes libtraceevent (Segmentation fault in a trial parse): not read");
}

/* REC ->x: the space hides a missing field from a REC-> scan. */
TEST_F(hostile, flags_of_a_missing_field_spelled_apart)
{
	crashes_parser(_metadata, self, FIELDS_AB
		       "print fmt: \"%d\", __print_flags(REC ->nosuch, \"|\", {1, \"A\"})\n");
}

/* An element of an element of a field. */
TEST_F(hostile, element_of_an_element)
{
	crashes_parser(_metadata, self, FIELDS_AB
		       "print fmt: \"%d\", REC->a[0][1]\n");
}

/* An element followed by a brace. */
TEST_F(hostile, element_then_a_brace)
{
	crashes_parser(_metadata, self, FIELDS_AB
		       "print fmt: \"%d\", REC->a[0]{\n");
}

/* A conditional whose last operand is assigned to. */
TEST_F(hostile, conditional_assigned_to)
{
	crashes_parser(_metadata, self, FIELDS_AB
		       "print fmt: \"%d\", REC->a ? 1 : 2 = 3\n");
}

/* A field declaration cut inside its array size. */
TEST_F(hostile, field_cut_in_its_array_size)
{
	crashes_parser(_metadata, self, "\tfield:int a[");
}

/* sizeof( and nothing after. */
TEST_F(hostile, sizeof_cut)
{
	crashes_parser(_metadata, self, FIELDS_AB "print fmt: \"%d\", sizeof(");
}

/* A constant divided by a character constant, which libtraceevent reads as 0. */
TEST_F(hostile, divided_by_a_character)
{
	long off;

	ASSERT_EQ(0, write_recording(self->path, FIELDS_AB
				     "print fmt: \"%d\", 1/'a'\n"));
	off = load(self, "name: ev\n");
	ASSERT_LT(0, off);
	refused(_metadata, self, off,
		"the event format of system test crashes libtraceevent (Floating point exception in a trial parse): not read");
}

/*
 * sizeof(int) makes libtraceevent 1.7.1 free a token twice: no crash the
 * trial parse could see, a corrupted heap.  Refused by its text, at the
 * offset of the sizeof.
 */
TEST_F(hostile, sizeof_freed_twice)
{
	long off;

	ASSERT_EQ(0, write_recording(self->path, FIELDS_AB
				     "print fmt: \"%d\", sizeof(int)\n"));
	off = load(self, "sizeof(int)");
	ASSERT_LT(0, off);
	refused(_metadata, self, off,
		"the print fmt of a format of system test takes a sizeof() libtraceevent 1.7.1 frees twice");
}

/* One that is parsed no further (a statement expression) is harmless. */
TEST_F(hostile, sizeof_past_a_statement_expression_reads)
{
	ASSERT_EQ(0, write_recording(self->path, FIELDS_AB
				     "print fmt: \"a=%u b=%u\", REC->a, ({ int x = sizeof(int); x; })\n"));
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report -i %s",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
}

/* The same file with a sane format reads: the refusals are the formats'. */
TEST_F(hostile, a_sane_format_reads)
{
	ASSERT_EQ(0, write_recording(self->path, FIELDS_AB
				     "print fmt: \"a=%u b=%u\", REC->a, REC->b\n"));
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s script -i %s",
			     perf_gpu_path(), self->path));
	EXPECT_STREQ("             :42    42 [000]     2.000000: test:ev: a=7 b=2\n"
		     "             :42    42 [000]     2.001000: test:ev: a=7 b=2\n",
		     self->out);
}

static void put_u32(FIXTURE_DATA(hostile) *self, long off, uint32_t v)
{
	memcpy(self->file + off, &v, sizeof(v));
}

static void put_u64(FIXTURE_DATA(hostile) *self, long off, uint64_t v)
{
	memcpy(self->file + off, &v, sizeof(v));
}

/* The sane recording, loaded; the offset of its format's text. */
#define SANE FIELDS_AB "print fmt: \"a=%u b=%u\", REC->a, REC->b\n"

static long sane(struct __test_metadata *_metadata,
		 FIXTURE_DATA(hostile) *self)
{
	char *fmt = format_of(SANE);
	long off;

	if (!fmt || write_recording(self->path, SANE)) {
		free(fmt);
		return -1;
	}
	off = load(self, "name: ev\n");
	EXPECT_LT(0, off);
	self->fmt_end = off + strlen(fmt);
	free(fmt);
	return off;
}

/* The raw data of the first sample: its common_type, pid, a and b. */
static long first_raw(FIXTURE_DATA(hostile) *self)
{
	static const uint8_t raw[16] = { EV_ID & 0xff, EV_ID >> 8, 0, 0, 42, 0, 0, 0,
					 7, 0, 0, 0, 2, 0, 0, 0 };
	char *p = memmem(self->file, self->size, raw, sizeof(raw));

	return p ? p - self->file : -1;
}

/*
 * A name the file gives is quoted in the error with every byte that is
 * not printable ASCII written \xNN: a crafted recording sends no escape
 * sequence (here one that retitles a terminal) to the user's terminal.
 * The name is a system's, and its format one that crashes the parser.
 */
TEST_F(hostile, escapes_in_a_quoted_name_are_not_printed)
{
	static const char title[] = "\x1b]2;owned\x07";
	long off;

	ASSERT_EQ(0, write_recording_of(self->path, title,
					"\tfield:int a["));
	off = load(self, "name: ev\n");
	ASSERT_LT(0, off);
	refused(_metadata, self, off,
		"the event format of system \\x1b]2;owned\\x07 crashes libtraceevent (Segmentation fault in a trial parse): not read");
}

/* The system's format count, then each format's u64 size, precede it. */
TEST_F(hostile, format_count_huge)
{
	long off = sane(_metadata, self);

	ASSERT_LT(0, off);
	put_u32(self, off - 12, 0xffffffffu);
	ASSERT_EQ(0, store(self));
	/*
	 * The second format's u64 size is read from the sizes of kallsyms
	 * and the printk formats (both 0): an empty format.
	 */
	refused(_metadata, self, self->fmt_end + 8,
		"event format of system test does not parse");
}

TEST_F(hostile, format_size_huge)
{
	long off = sane(_metadata, self);

	ASSERT_LT(0, off);
	put_u64(self, off - 8, 1ull << 62);
	ASSERT_EQ(0, store(self));
	refused(_metadata, self, off,
		"tracing data ends inside an event format (4611686018427387904 bytes, ");
}

/* The system count precedes the first system's name. */
TEST_F(hostile, system_count_huge)
{
	long off = sane(_metadata, self);

	ASSERT_LT(0, off);
	off = load(self, "test");
	ASSERT_LT(0, off);
	put_u32(self, off - 4, 0xffffffffu);
	ASSERT_EQ(0, store(self));
	/*
	 * More systems are read from the 16 bytes of the sizes of kallsyms,
	 * the printk formats and the saved cmdlines (all 0): empty names and
	 * no formats, five bytes each, until a count is cut.
	 */
	refused(_metadata, self, self->fmt_end + 16,
		"tracing data ends inside a format count (4 bytes, 0 left)");
}

TEST_F(hostile, header_page_size_huge)
{
	long off = sane(_metadata, self);

	ASSERT_LT(0, off);
	off = load(self, "header_page");
	ASSERT_LT(0, off);
	put_u64(self, off + 12, 1ull << 40);
	ASSERT_EQ(0, store(self));
	refused(_metadata, self, off + 12 + 8,
		"tracing data ends inside header_page (1099511627776 bytes, ");
}

/* Cut inside the format's text. */
TEST_F(hostile, cut_inside_the_format)
{
	long off = sane(_metadata, self);
	char want[64];

	ASSERT_LT(0, off);
	self->size = off + 20;
	ASSERT_EQ(0, store(self));
	snprintf(want, sizeof(want), "is outside the file of %ld bytes", off + 20);
	refused(_metadata, self, -1, want);
}

/* perf.data's header: attrs {offset, size} at 24, data at 40. */
TEST_F(hostile, attrs_size_huge)
{
	ASSERT_LT(0, sane(_metadata, self));
	put_u64(self, 32, 1ull << 60);
	ASSERT_EQ(0, store(self));
	refused(_metadata, self, 24,
		"attrs section 112+1152921504606846976 is outside the file");
}

TEST_F(hostile, data_size_huge)
{
	char want[128];

	ASSERT_LT(0, sane(_metadata, self));
	put_u64(self, 48, 1ull << 60);
	ASSERT_EQ(0, store(self));
	snprintf(want, sizeof(want),
		 "data section 256+1152921504606846976 is outside the file of %ld bytes",
		 (long)self->size);
	refused(_metadata, self, 40, want);
}

/* attr_size at 16: one attr would be 64 KiB. */
TEST_F(hostile, attr_size_huge)
{
	ASSERT_LT(0, sane(_metadata, self));
	put_u64(self, 16, 0xffff);
	ASSERT_EQ(0, store(self));
	refused(_metadata, self, 16, "attr entry size 65535 is not in 80..4096");
}

/* The first sample's raw_size, just before its raw data, past its record. */
TEST_F(hostile, raw_size_past_its_record)
{
	long raw;

	ASSERT_LT(0, sane(_metadata, self));
	raw = first_raw(self);
	ASSERT_LT(0, raw);
	put_u32(self, raw - 4, 0xfff0);
	ASSERT_EQ(0, store(self));
	/* Left: the raw data, the cgroup id and the padding between. */
	refused(_metadata, self, raw - 4,
		"raw size 65520 runs past the sample's end (28 left)");
}

/*
 * The first sample's record header (identifier, tid, time, cpu and
 * period, 40 bytes, and raw_size before the raw data) says size 0: a
 * reader that trusted it would not move on.
 */
TEST_F(hostile, record_of_size_zero)
{
	long raw;

	ASSERT_LT(0, sane(_metadata, self));
	raw = first_raw(self);
	ASSERT_LT(0, raw);
	self->file[raw - 52 + 6] = 0;
	self->file[raw - 52 + 7] = 0;
	ASSERT_EQ(0, store(self));
	refused(_metadata, self, raw - 52, "record size 0 is below the header");
}

TEST_HARNESS_MAIN
