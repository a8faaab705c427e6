// SPDX-License-Identifier: GPL-2.0-only
/*
 * The protobuf writer of perfetto/pb.h, read back by an independent
 * decoder: protoc --decode_raw (Debian's protobuf-compiler, which
 * selftests/setup.sh installs) prints each field of what the writer
 * made, and the test compares that text with what it wrote: varints at
 * their limits, a negative int64, zigzag, a double, strings, nested
 * messages two deep with their patched four-byte lengths, and packets
 * flushed one after another as the repeated field 1 of a Trace.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "../lib/run.h"
#include "../lib/setup_provides.h"
#include "../../tools/perf-gpu/perfetto/pb.h"

FIXTURE(pb) {
	char dir[64], path[128];
	char out[65536];
	struct pb_buf b;
};

FIXTURE_SETUP(pb)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/perfetto_pb.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->path, sizeof(self->path), "%s/trace.pb", self->dir);
	pb_init(&self->b);
}

FIXTURE_TEARDOWN(pb)
{
	char out[256];

	pb_free(&self->b);
	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

/* protoc --decode_raw of the file, in self->out; its exit status. */
static int decode_raw(FIXTURE_DATA(pb) *self)
{
	return run_cmd(self->out, sizeof(self->out),
		       "protoc --decode_raw < '%s'", self->path);
}

TEST_F(pb, protoc_reads_every_kind_of_field)
{
	static const char want[] =
		"1 {\n"
		"  1: 0\n"
		"  2: 127\n"
		"  3: 128\n"
		"  4: 18446744073709551615\n"
		"  5: 18446744073709551614\n"
		"  6: 3\n"
		"  7: 0x3ff8000000000000\n"
		"  8: \"gpuwork\"\n"
		"  536870911: 1\n"
		"  9 {\n"
		"    1: 42\n"
		"    10 {\n"
		"      2: \"vgem\"\n"
		"    }\n"
		"  }\n"
		"  11: \"\"\n"	/* an empty message: protoc cannot tell */
		"}\n"
		"1 {\n"
		"  8: 1000000000000\n"
		"}\n";
	size_t outer, inner;
	FILE *f;

	SETUP_PROVIDES(!run_cmd(self->out, sizeof(self->out), "command -v protoc"),
		       "protoc (protobuf-compiler): %s", self->out);
	f = fopen(self->path, "wb");
	ASSERT_NE(NULL, f);
	pb_uint(&self->b, 1, 0);
	pb_uint(&self->b, 2, 127);
	pb_uint(&self->b, 3, 128);
	pb_uint(&self->b, 4, UINT64_MAX);
	pb_int(&self->b, 5, -2);
	pb_sint(&self->b, 6, -2);
	pb_double(&self->b, 7, 1.5);
	pb_string(&self->b, 8, "gpuwork");
	pb_uint(&self->b, 536870911, 1);	/* the largest field number */
	outer = pb_begin(&self->b, 9);
	pb_uint(&self->b, 1, 42);
	inner = pb_begin(&self->b, 10);
	pb_string(&self->b, 2, "vgem");
	pb_end(&self->b, inner);
	pb_end(&self->b, outer);
	pb_end(&self->b, pb_begin(&self->b, 11));
	EXPECT_EQ(0, pb_flush_as(&self->b, 1, f));
	pb_uint(&self->b, 8, 1000000000000ull);
	EXPECT_EQ(0, pb_flush_as(&self->b, 1, f));
	ASSERT_EQ(0, fclose(f));
	ASSERT_EQ(0, decode_raw(self)) TH_LOG("%s", self->out);
	EXPECT_STREQ(want, self->out);
}

/*
 * A nested message longer than four length bytes can say is refused
 * (EMSGSIZE) rather than written with a wrong length, and nothing is
 * flushed after it.
 */
TEST_F(pb, an_oversized_nested_message_is_an_error)
{
	static char big[1 << 20];
	size_t mark;
	FILE *f;
	int i;

	mark = pb_begin(&self->b, 1);
	for (i = 0; i < 256; i++)
		pb_bytes(&self->b, 2, big, sizeof(big));
	EXPECT_EQ(0, pb_error(&self->b));
	pb_end(&self->b, mark);
	EXPECT_EQ(EMSGSIZE, pb_error(&self->b));
	f = fopen(self->path, "wb");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(-1, pb_flush_as(&self->b, 1, f));
	ASSERT_EQ(0, fclose(f));
	EXPECT_EQ(0, access(self->path, F_OK));
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "stat -c %%s '%s'",
			     self->path));
	EXPECT_STREQ("0\n", self->out);
}

TEST_HARNESS_MAIN
