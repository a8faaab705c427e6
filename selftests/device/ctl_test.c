// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ctl grammar, table-driven: every bad write fails with the exact
 * errno and leaves the state as it was (status and the target list read
 * the same before and after); the accepted whitespace variants work.
 */
#include <stdio.h>
#include <string.h>

#include "../lib/harness.h"
#include "../lib/fixture.h"

/* A state worth comparing: a target, a non-default interval. */
static void set_up_state(struct __test_metadata *_metadata)
{
	ASSERT_EQ(0, ctl("module ctl_keep\n"));
	ASSERT_EQ(0, ctl("interval 42\n"));
}

/* status and every target's name, as one string. */
static void snapshot(char *out, size_t size)
{
	char name[512];
	int ids[512], n, i;
	size_t len;

	read_file(GP "/status", out, size);
	n = target_ids(ids, 512);
	for (i = 0; i < n; i++) {
		len = strlen(out);
		target_file(ids[i], "name", name, sizeof(name));
		snprintf(out + len, size - len, "%d %s", ids[i], name);
	}
}

FIXTURE(ctl) {
	char before[16384];
	char after[16384];
};

FIXTURE_VARIANT(ctl) {
	const char *cmd;
	size_t len;		/* 0: strlen(cmd) */
	int err;
};

FIXTURE_SETUP(ctl)
{
	ASSERT_EQ(0, gpuprof_load(NULL));
	set_up_state(_metadata);
	snapshot(self->before, sizeof(self->before));
}

FIXTURE_TEARDOWN(ctl)
{
	EXPECT_EQ(0, gpuprof_unload());
}

#define BAD(id, text) \
	FIXTURE_VARIANT_ADD(ctl, id) { .cmd = text, .err = -EINVAL }
#define BAD_LEN(id, text, n) \
	FIXTURE_VARIANT_ADD(ctl, id) { .cmd = text, .len = n, .err = -EINVAL }

BAD_LEN(empty_write, "", 0);
BAD(only_newline, "\n");
BAD(only_blanks, " \t \n");
BAD(unknown_verb, "bogus\n");
BAD(verb_is_case_sensitive, "START\n");
BAD(two_newlines, "stop\n\n");
BAD(start_with_argument, "start now\n");
BAD(startcp_with_argument, "startcp 1\n");
BAD(startmp_with_argument, "startmp x\n");
BAD(stop_with_argument, "stop 1\n");
BAD(end_with_argument, "end all\n");
BAD(reset_with_argument, "reset 1\n");
BAD(interval_without_number, "interval\n");
BAD(interval_zero, "interval 0\n");
BAD(interval_too_big, "interval 60001\n");
BAD(interval_negative, "interval -5\n");
BAD(interval_plus_sign, "interval +5\n");
BAD(interval_hex, "interval 0x10\n");
BAD(interval_suffix, "interval 5ms\n");
BAD(interval_overflow, "interval 4294967297\n");
BAD(interval_huge, "interval 99999999999999999999999\n");
BAD(interval_two_numbers, "interval 5 6\n");
BAD(interval_decimal_point, "interval 1.5\n");
BAD_LEN(embedded_nul, "interval 5\0 junk\n", 17);
BAD_LEN(trailing_nul, "stop\0", 5);
BAD(binary_junk, "\xff\xfe\x01\x02\n");
BAD(carriage_return, "stop\r\n");
BAD(high_bit_name, "module caf\xc3\xa9\n");
BAD(comm_name_too_long, "module sixteen_chars_xx\n");
/* A '/' and 200 more bytes: one over GPUPROF_PATH_MAX. */
BAD(path_name_too_long, "module /"
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n");
BAD(too_many_names, "module n1 n2 n3 n4 n5 n6 n7 n8 n9 n10 n11 n12 n13 n14"
    " n15 n16 n17\n");
BAD(one_bad_name_spoils_all, "module ok_a ok_b this_name_is_too_long\n");
BAD(write_over_256_bytes, "module "
    "a b c d e f g h i j k l m n o p a b c d e f g h i j k l m n o p "
    "a b c d e f g h i j k l m n o p a b c d e f g h i j k l m n o p "
    "a b c d e f g h i j k l m n o p a b c d e f g h i j k l m n o p "
    "a b c d e f g h i j k l m n o p a b c d e f g h i j k l m n o p\n");

/* A path NAME must name a regular file that exists now. */
FIXTURE_VARIANT_ADD(ctl, path_that_does_not_exist) {
	.cmd = "module /no/such/program\n", .err = -ENOENT,
};
FIXTURE_VARIANT_ADD(ctl, path_that_is_not_a_file) {
	.cmd = "module /dev/null\n", .err = -EINVAL,
};
FIXTURE_VARIANT_ADD(ctl, good_name_then_missing_path) {
	.cmd = "module fine_name /no/such/program\n", .err = -ENOENT,
};

TEST_F(ctl, is_refused_and_changes_nothing)
{
	size_t len = variant->len ? variant->len : strlen(variant->cmd);

	EXPECT_EQ(variant->err, write_file_len(GP "/ctl", variant->cmd, len));
	snapshot(self->after, sizeof(self->after));
	EXPECT_STREQ(self->before, self->after);
}

TEST_F(gp, whitespace_variants_are_accepted)
{
	ASSERT_EQ(0, ctl("interval\t50\n"));
	EXPECT_EQ(50, status_num("interval_ms"));
	ASSERT_EQ(0, ctl("  interval   51  \n"));
	EXPECT_EQ(51, status_num("interval_ms"));
	ASSERT_EQ(0, ctl("interval 52"));
	EXPECT_EQ(52, status_num("interval_ms"));
	ASSERT_EQ(0, ctl("interval 0052\n"));
	EXPECT_EQ(52, status_num("interval_ms"));
	ASSERT_EQ(0, ctl("interval 1\n"));
	ASSERT_EQ(0, ctl("interval 60000\n"));
	EXPECT_EQ(60000, status_num("interval_ms"));
	ASSERT_EQ(0, ctl("module\tws_a \t ws_b\n"));
	EXPECT_LT(0, find_target("ws_a"));
	EXPECT_LT(0, find_target("ws_b"));
	ASSERT_EQ(0, ctl("\tstop\t\n"));
}

TEST_F(gp, exactly_256_bytes_is_accepted)
{
	char cmd[257];

	/* "interval" and 247 blanks and "1": 256 bytes. */
	memset(cmd, ' ', 256);
	memcpy(cmd, "interval", 8);
	cmd[255] = '7';
	cmd[256] = '\0';
	EXPECT_EQ(0, write_file_len(GP "/ctl", cmd, 256));
	EXPECT_EQ(7, status_num("interval_ms"));
}

TEST_F(gp, a_name_given_twice_makes_one_target)
{
	ASSERT_EQ(0, ctl("module twice twice\n"));
	ASSERT_EQ(0, ctl("module twice\n"));
	EXPECT_EQ(1, status_num("targets"));
}

/* 1280 device nodes: minutes on the debug kernel (KASAN, lockdep). */
TEST_F_TIMEOUT(gp, the_target_limit_is_enforced_whole, 900)
{
	char cmd[256];
	int i, j;

	/* 16 commands of 16 names: the 256 targets allowed. */
	for (i = 0; i < 16; i++) {
		int len = snprintf(cmd, sizeof(cmd), "module");

		for (j = 0; j < 16; j++)
			len += snprintf(cmd + len, sizeof(cmd) - len, " t%d_%d",
					i, j);
		ASSERT_EQ(0, ctl(cmd)) TH_LOG("%s", cmd);
	}
	EXPECT_EQ(256, status_num("targets"));
	/* One more is refused, and two more where one would fit as well. */
	EXPECT_EQ(-EINVAL, ctl("module one_more\n"));
	EXPECT_EQ(256, status_num("targets"));
	ASSERT_EQ(0, ctl("end\n"));
	EXPECT_EQ(0, status_num("targets"));
	ASSERT_EQ(0, ctl("module after_end\n"));
	EXPECT_EQ(257, find_target("after_end"));
}

TEST_HARNESS_MAIN
