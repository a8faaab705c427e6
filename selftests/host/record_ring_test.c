// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu record's decoding of the kernel's ring records: each record
 * built here byte by byte the way kernel/events/core.c writes it for
 * PERF_DATA_SAMPLE_TYPE with sample_id_all (a COMM's name padded to 8
 * bytes, then pid/tid, time, cpu, identifier; a sample's raw payload,
 * then its cgroup id), and its fields read back.
 * A COMM's time is what orders a process's exec name and its later
 * prctl(PR_SET_NAME) read from two CPUs' rings.
 */
#include <stdint.h>
#include <string.h>

#include "../lib/harness.h"
#include "../../tools/perf-gpu/record/ring.h"

struct rec {
	union {
		union perf_event event;
		uint8_t bytes[256];
	};
	size_t len;
};

static void put(struct rec *r, const void *p, size_t n)
{
	memcpy(r->bytes + r->len, p, n);
	r->len += n;
}

static void put32(struct rec *r, uint32_t v)
{
	put(r, &v, sizeof(v));
}

static void put64(struct rec *r, uint64_t v)
{
	put(r, &v, sizeof(v));
}

static void begin(struct rec *r, uint32_t type)
{
	memset(r, 0, sizeof(*r));
	put32(r, type);	/* type, then misc and size, set by end() */
	put32(r, 0);
}

static void end(struct rec *r)
{
	r->event.header.size = r->len;
}

/* The sample_id trailer: pid, tid, time, cpu, reserved, identifier. */
static void put_sample_id(struct rec *r, uint32_t pid, uint64_t time,
			  uint32_t cpu, uint64_t id)
{
	put32(r, pid);
	put32(r, pid);
	put64(r, time);
	put32(r, cpu);
	put32(r, 0);
	put64(r, id);
}

static void comm_record(struct rec *r, uint32_t pid, const char *name,
			uint64_t time)
{
	size_t n = (strlen(name) + 1 + 7) & ~(size_t)7;
	char padded[32] = "";

	begin(r, PERF_RECORD_COMM);
	put32(r, pid);
	put32(r, pid);
	memcpy(padded, name, strlen(name));
	put(r, padded, n);
	put_sample_id(r, pid, time, 1, 77);
	end(r);
}

TEST(a_comm_of_up_to_7_characters_has_its_time)
{
	struct ring_comm c;
	struct rec r;

	comm_record(&r, 161, "gpuwork", 9155108000ull);
	ASSERT_EQ(56, r.len);
	ASSERT_EQ(0, ring_parse_comm(&r.event, &c));
	EXPECT_EQ(161, c.pid);
	EXPECT_EQ(161, c.tid);
	EXPECT_STREQ("gpuwork", c.comm);
	EXPECT_EQ(9155108000ull, c.time);
}

TEST(a_comm_of_8_to_15_characters_has_its_time)
{
	const char *names[] = { "gpuworkA", "fifteen_chars_x" };
	struct ring_comm c;
	struct rec r;

	for (int i = 0; i < 2; i++) {
		comm_record(&r, 162, names[i], 9156117000ull + i);
		ASSERT_EQ(64, r.len);
		ASSERT_EQ(0, ring_parse_comm(&r.event, &c));
		EXPECT_STREQ(names[i], c.comm);
		EXPECT_EQ(9156117000ull + i, c.time);
	}
}

TEST(a_comm_too_short_or_unterminated_is_refused)
{
	struct ring_comm c;
	struct rec r;

	comm_record(&r, 1, "gpuwork", 5);
	r.event.header.size -= 8;	/* no room for the whole trailer */
	EXPECT_EQ(-1, ring_parse_comm(&r.event, &c));
	r.event.header.size = 8 + 8 + 32;	/* no name at all */
	EXPECT_EQ(-1, ring_parse_comm(&r.event, &c));
	comm_record(&r, 1, "gpuwork", 5);
	memset(r.bytes + 16, 'x', 8);	/* the NUL overwritten */
	EXPECT_EQ(-1, ring_parse_comm(&r.event, &c));
}

TEST(a_lost_record_has_its_id_count_and_time)
{
	struct ring_lost l;
	struct rec r;

	begin(&r, PERF_RECORD_LOST);
	put64(&r, 4242);
	put64(&r, 17);
	put_sample_id(&r, 0, 123456789, 0, 4242);
	end(&r);
	ASSERT_EQ(0, ring_parse_lost(&r.event, &l));
	EXPECT_EQ(4242, l.id);
	EXPECT_EQ(17, l.lost);
	EXPECT_EQ(123456789, l.time);
	r.event.header.size = 24;
	EXPECT_EQ(-1, ring_parse_lost(&r.event, &l));
}

TEST(a_sample_has_its_fields_and_raw_payload)
{
	const uint8_t raw[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	struct ring_sample s;
	struct rec r;

	begin(&r, PERF_RECORD_SAMPLE);
	put64(&r, 99);		/* identifier */
	put32(&r, 300);		/* pid, tid */
	put32(&r, 301);
	put64(&r, 5000000001ull);
	put32(&r, 1);		/* cpu, reserved */
	put32(&r, 0);
	put64(&r, 1);		/* period */
	put32(&r, sizeof(raw));
	put(&r, raw, sizeof(raw));
	put64(&r, 0x4d2);	/* PERF_SAMPLE_CGROUP */
	end(&r);
	ASSERT_EQ(0, ring_parse_sample(&r.event, true, &s));
	EXPECT_EQ(0x4d2, s.cgroup);
	EXPECT_EQ(99, s.id);
	EXPECT_EQ(300, s.pid);
	EXPECT_EQ(301, s.tid);
	EXPECT_EQ(5000000001ull, s.time);
	EXPECT_EQ(1, s.cpu);
	EXPECT_EQ(sizeof(raw), s.raw_size);
	EXPECT_EQ(0, memcmp(raw, s.raw, sizeof(raw)));
	r.event.header.size -= 8;	/* no cgroup after the payload */
	EXPECT_EQ(-1, ring_parse_sample(&r.event, true, &s));
	/* Which is the whole sample of an event without PERF_SAMPLE_CGROUP. */
	ASSERT_EQ(0, ring_parse_sample(&r.event, false, &s));
	EXPECT_EQ(0, s.cgroup);
	EXPECT_EQ(300, s.pid);
	EXPECT_EQ(5000000001ull, s.time);
	EXPECT_EQ(sizeof(raw), s.raw_size);
	EXPECT_EQ(0, memcmp(raw, s.raw, sizeof(raw)));
	r.event.header.size -= 1;	/* the payload cut short */
	EXPECT_EQ(-1, ring_parse_sample(&r.event, true, &s));
	EXPECT_EQ(-1, ring_parse_sample(&r.event, false, &s));
}

/* A cgroup made while recording: id, path padded to 8, the trailer. */
static void cgroup_record(struct rec *r, uint64_t id, const char *path)
{
	size_t n = (strlen(path) + 1 + 7) & ~(size_t)7;
	char padded[64] = "";

	begin(r, PERF_RECORD_CGROUP);
	put64(r, id);
	memcpy(padded, path, strlen(path));
	put(r, padded, n);
	put_sample_id(r, 0, 777, 0, 77);
	end(r);
}

TEST(a_cgroup_record_has_its_id_path_and_time)
{
	struct ring_cgroup c;
	struct rec r;

	cgroup_record(&r, 4242, "/system.slice/x.service");
	ASSERT_EQ(0, ring_parse_cgroup(&r.event, &c));
	EXPECT_EQ(4242, c.id);
	EXPECT_STREQ("/system.slice/x.service", c.path);
	EXPECT_EQ(777, c.time);
	memset(r.bytes + 16, 'x', 24);	/* the NUL overwritten */
	EXPECT_EQ(-1, ring_parse_cgroup(&r.event, &c));
	cgroup_record(&r, 4242, "/");
	r.event.header.size = 8 + 8 + 32;	/* no path at all */
	EXPECT_EQ(-1, ring_parse_cgroup(&r.event, &c));
	/* A path not from the root, or empty: not a cgroup's. */
	cgroup_record(&r, 4242, "relative");
	EXPECT_EQ(-1, ring_parse_cgroup(&r.event, &c));
	cgroup_record(&r, 4242, "");
	EXPECT_EQ(-1, ring_parse_cgroup(&r.event, &c));
}

TEST_HARNESS_MAIN
