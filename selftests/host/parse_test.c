// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command-line parsers of tools/perf-gpu/util/parse.c: what each
 * accepts, exactly, and that a refused argument leaves the value as it
 * was; the --pid/--comm lists.
 */
#include <stdint.h>

#include "../lib/harness.h"
#include "../../tools/perf-gpu/util/parse.h"

#define UNTOUCHED 0x5a5a5a5aull

TEST(seconds_exactly)
{
	static const struct {
		const char *arg;
		uint64_t ns;
	} good[] = {
		{ "1", 1000000000ull },
		{ "0", 0 },
		{ "0.25", 250000000ull },
		{ "2.", 2000000000ull },
		{ "0.000000001", 1 },
		{ "86400", 86400000000000ull },
		{ "86400.000000000", 86400000000000ull },
		{ "007.5", 7500000000ull },
	};
	static const char *const bad[] = {
		"", ".5", "-1", "+1", " 1", "1 ", "1s", "1e3", "0x10",
		"86400.000000001", "86401", "1.0000000001", "1..2",
		"99999999999999999999999",
	};
	uint64_t ns;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(*good); i++) {
		ns = UNTOUCHED;
		EXPECT_EQ(0, parse_seconds_ns(good[i].arg, 86400, &ns))
			TH_LOG("'%s'", good[i].arg);
		EXPECT_EQ(good[i].ns, ns) TH_LOG("'%s'", good[i].arg);
	}
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		ns = UNTOUCHED;
		EXPECT_EQ(-1, parse_seconds_ns(bad[i], 86400, &ns))
			TH_LOG("'%s'", bad[i]);
		EXPECT_EQ(UNTOUCHED, ns) TH_LOG("'%s'", bad[i]);
	}
}

TEST(sizes_in_powers_of_1024)
{
	static const struct {
		const char *arg;
		uint64_t bytes;
	} good[] = {
		{ "1", 1 },
		{ "100B", 100 },
		{ "100b", 100 },
		{ "64K", 65536 },
		{ "64k", 65536 },
		{ "3M", 3ull << 20 },
		{ "2g", 2ull << 30 },
		{ "1048575G", 1048575ull << 30 },
		{ "1125899906842623", (1ull << 50) - 1 },
	};
	static const char *const bad[] = {
		"", "0", "0K", "-1", "+1", "K", " 1", "1 ", "1T", "1KB",
		"1.5M", "0x10", "1048576G", "1125899906842624",
		"18446744073709551617",
	};
	uint64_t bytes;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(*good); i++) {
		bytes = UNTOUCHED;
		EXPECT_EQ(0, parse_size_bytes(good[i].arg, &bytes))
			TH_LOG("'%s'", good[i].arg);
		EXPECT_EQ(good[i].bytes, bytes) TH_LOG("'%s'", good[i].arg);
	}
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		bytes = UNTOUCHED;
		EXPECT_EQ(-1, parse_size_bytes(bad[i], &bytes))
			TH_LOG("'%s'", bad[i]);
		EXPECT_EQ(UNTOUCHED, bytes) TH_LOG("'%s'", bad[i]);
	}
}

/* perf's --time START,END, either side empty; refused: untouched. */
TEST(time_windows)
{
	static const struct {
		const char *arg;
		uint64_t start, end;
	} good[] = {
		{ "10.050,", 10050000000ull, UINT64_MAX },
		{ ",2", 0, 2000000000ull },
		{ ",", 0, UINT64_MAX },
		{ "1.5,1.5", 1500000000ull, 1500000000ull },
		{ "0.000000001,3", 1, 3000000000ull },
	};
	static const char *const bad[] = {
		"", "1", "2,1", "a,", ",b", "1,,2", "-1,2", "1, 2",
	};
	uint64_t start, end;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(*good); i++) {
		EXPECT_EQ(0, parse_time_window(good[i].arg, &start, &end))
			TH_LOG("'%s'", good[i].arg);
		EXPECT_EQ(good[i].start, start) TH_LOG("'%s'", good[i].arg);
		EXPECT_EQ(good[i].end, end) TH_LOG("'%s'", good[i].arg);
	}
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		start = end = UNTOUCHED;
		EXPECT_EQ(-1, parse_time_window(bad[i], &start, &end))
			TH_LOG("'%s'", bad[i]);
		EXPECT_EQ(UNTOUCHED, start);
		EXPECT_EQ(UNTOUCHED, end);
	}
}

/* --pid and --comm lists: split on commas, empty names dropped. */
TEST(name_lists)
{
	struct name_list l = { 0 };

	EXPECT_EQ(0, name_list_split("12,kwin,,34", &l));
	ASSERT_EQ(3, l.nr);
	EXPECT_TRUE(name_list_has(&l, "kwin"));
	EXPECT_FALSE(name_list_has(&l, "kwin_wayland"));
	EXPECT_STREQ("kwin", name_list_not_pid(&l));
	name_list_free(&l);
	EXPECT_EQ(0, l.nr);
	EXPECT_EQ(0, name_list_split("12,34", &l));
	EXPECT_EQ(NULL, name_list_not_pid(&l));
	name_list_free(&l);
	EXPECT_EQ(0, name_list_split(NULL, &l));
	EXPECT_EQ(0, l.nr);
}

TEST_HARNESS_MAIN
