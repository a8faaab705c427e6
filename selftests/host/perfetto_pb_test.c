// SPDX-License-Identifier: GPL-2.0-only
/*
 * The protobuf writer of perfetto/pb.h, read back by an independent
 * decoder: protoc --decode_raw (Debian's protobuf-compiler, which
 * selftests/setup.sh installs) prints each field of what the writer
 * made, and the test compares that text with what it wrote: varints at
 * their limits, a negative int64, zigzag, a double, strings, nested
 * messages two deep with their patched four-byte lengths, and packets
 * flushed one after another as the repeated field 1 of a Trace; then
 * perfetto/trace.h's packets, field by field as Perfetto's .proto files
 * number them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/paths.h"
#include "../lib/run.h"
#include "../lib/setup_provides.h"
#include "../../tools/perf-gpu/perfetto/pb.h"
#include "../../tools/perf-gpu/perfetto/trace.h"

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

/*
 * The packets of perfetto/trace.h, as protoc sees them.  The numbers
 * are the fields of Perfetto's trace_packet.proto (8 timestamp, 58 its
 * clock, 10 sequence, 13 its flags, 6 clock snapshot, 60 track
 * descriptor, 11 track event, 12 interned data), track_descriptor.proto
 * (1 uuid, 5 parent, 2 name, 3 process, 8 counter), process_descriptor
 * (1 pid, 2 cmdline, 6 name), counter_descriptor (6 unit name),
 * track_event.proto (9 type: 1 begin, 2 end, 3 instant, 4 counter; 11
 * track, 10 name iid, 44 double value), interned_data.proto (2 event
 * names: 1 iid, 2 name) and clock_snapshot.proto (1 clock: 1 id, 2
 * timestamp; 2 primary clock, 6 BOOTTIME; 3 MONOTONIC, 1 REALTIME).
 * A name is interned once: the second "job" slice carries only its id;
 * packets that name no interned id (descriptors, ends, counter values)
 * carry no sequence flags, only the first the clearing (13: 3).
 */
TEST_F(pb, trace_packets_carry_perfettos_fields)
{
	static const char want[] =
		"1 {\n  10: 1\n  13: 3\n  6 {\n"
		"    1 {\n      1: 3\n      2: 1000\n    }\n"
		"    1 {\n      1: 6\n      2: 2000\n    }\n"
		"    1 {\n      1: 1\n      2: 3000\n    }\n"
		"    2: 6\n  }\n}\n"
		"1 {\n  10: 1\n  60 {\n    1: 10\n"
		"    3 {\n      1: 42\n      2: \"gpuwork fences 2\"\n      6: \"gpuwork\"\n    }\n  }\n}\n"
		"1 {\n  10: 1\n  60 {\n    1: 11\n    5: 10\n    2: \"vgem ring\"\n  }\n}\n"
		"1 {\n  10: 1\n  60 {\n    1: 12\n    5: 10\n    2: \"busy\"\n"
		"    8 {\n      6: \"percent\"\n    }\n  }\n}\n"
		"1 {\n  8: 5000\n  58: 3\n  10: 1\n  13: 2\n"
		"  12 {\n    2 {\n      1: 1\n      2: \"job\"\n    }\n  }\n"
		"  11 {\n    9: 1\n    11: 11\n    10: 1\n  }\n}\n"
		"1 {\n  8: 6000\n  58: 3\n  10: 1\n  11 {\n    9: 2\n    11: 11\n  }\n}\n"
		"1 {\n  8: 7000\n  58: 3\n  10: 1\n  13: 2\n  11 {\n    9: 1\n    11: 11\n    10: 1\n  }\n}\n"
		"1 {\n  8: 7500\n  58: 3\n  10: 1\n  11 {\n    9: 2\n    11: 11\n  }\n}\n"
		"1 {\n  8: 8000\n  58: 3\n  10: 1\n  11 {\n    9: 4\n    11: 12\n    44: 0x4049000000000000\n  }\n}\n"
		"1 {\n  8: 9000\n  58: 3\n  10: 1\n  13: 2\n"
		"  12 {\n    2 {\n      1: 2\n      2: \"vblank\"\n    }\n  }\n"
		"  11 {\n    9: 3\n    11: 11\n    10: 2\n  }\n}\n";
	struct pft_writer w;
	FILE *f;

	SETUP_PROVIDES(!run_cmd(self->out, sizeof(self->out), "command -v protoc"),
		       "protoc (protobuf-compiler): %s", self->out);
	f = fopen(self->path, "wb");
	ASSERT_NE(NULL, f);
	pft_init(&w, f);
	EXPECT_EQ(0, pft_clock_snapshot(&w, 1000, 2000, 3000));
	EXPECT_EQ(0, pft_process_track(&w, 10, 42, "gpuwork", "gpuwork fences 2", NULL));
	EXPECT_EQ(0, pft_track(&w, 11, 10, "vgem ring"));
	EXPECT_EQ(0, pft_counter_track(&w, 12, 10, "busy", PFT_UNIT_NONE,
				       "percent"));
	EXPECT_EQ(0, pft_slice_begin(&w, 5000, 11, "job"));
	EXPECT_EQ(0, pft_slice_end(&w, 6000, 11));
	EXPECT_EQ(0, pft_slice_begin(&w, 7000, 11, "job"));
	EXPECT_EQ(0, pft_slice_end(&w, 7500, 11));
	EXPECT_EQ(0, pft_counter(&w, 8000, 12, 50.0));
	EXPECT_EQ(0, pft_instant(&w, 9000, 11, "vblank"));
	EXPECT_EQ(0, pft_error(&w));
	EXPECT_EQ(10, w.packets);
	pft_free(&w);
	ASSERT_EQ(0, fclose(f));
	ASSERT_EQ(0, decode_raw(self)) TH_LOG("%s", self->out);
	EXPECT_STREQ(want, self->out);
}

/*
 * Every PFT_RESET_PACKETS packets a sequence's incremental state is
 * cleared and its names interned afresh: in 150000 instants of two
 * names on sequence 2 (beside a snapshot on 1), protoc finds the
 * cleared flag (13: 3) three times on it, and the names' strings each
 * time after; host/perfetto_check, a reader of its own, accepts it (it
 * fails a name id used before it is interned again).
 */
TEST_F(pb, incremental_state_is_cleared_again_and_again)
{
	static const char *const names[] = { "vblank", "flip" };
	char path[PATH_MAX], *p;
	struct pft_writer w, w1;
	unsigned int cleared = 0, vblank = 0;
	uint64_t i;
	FILE *f;

	SETUP_PROVIDES(!run_cmd(self->out, sizeof(self->out), "command -v protoc"),
		       "protoc (protobuf-compiler): %s", self->out);
	f = fopen(self->path, "wb");
	ASSERT_NE(NULL, f);
	pft_init(&w1, f);
	pft_init_seq(&w, f, 2);
	EXPECT_EQ(0, pft_clock_snapshot(&w1, 1000, 2000, 0));
	EXPECT_EQ(0, pft_track(&w, 7, 0, "CRTC 0"));
	for (i = 0; i < 150000; i++)
		ASSERT_EQ(0, pft_instant(&w, 1000 + i, 7, names[i % 2]));
	pft_free(&w);
	pft_free(&w1);
	ASSERT_EQ(0, fclose(f));
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "protoc --decode_raw < '%s' | grep -c '13: 3'; "
			     "protoc --decode_raw < '%s' | grep -c '\"vblank\"'",
			     self->path, self->path));
	p = self->out;
	cleared = strtoul(p, &p, 10);
	vblank = strtoul(p, &p, 10);
	/* 1 on sequence 1, 3 on sequence 2 (0, 65536, 131072). */
	EXPECT_EQ(4, cleared);
	EXPECT_EQ(3, vblank);
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s '%s'",
			     beside_exe(path, sizeof(path), NULL, "perfetto_check"),
			     self->path)) TH_LOG("%s", self->out);
}

TEST_HARNESS_MAIN
