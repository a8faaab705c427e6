// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command-line number parsers of tools/perf-gpu/util/parse.c: what
 * each accepts, exactly, and that a refused argument leaves the value
 * as it was.
 */
#include <stdint.h>

#include "kselftest_harness.h"
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

TEST_HARNESS_MAIN
