/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A precondition that selftests/setup.sh or make provides (a package, a
 * program built beside the test, an environment variable make check
 * sets).  Missing, the test fails and names it: a skip there would hide
 * a broken set-up (Documentation/testing.rst, "Skips").  A genuine skip,
 * a kernel or machine without a feature, stays SKIP() with its reason.
 */
#ifndef GPUPROF_SELFTESTS_SETUP_PROVIDES_H
#define GPUPROF_SELFTESTS_SETUP_PROVIDES_H

#define SETUP_PROVIDES(cond, fmt, ...) \
	ASSERT_TRUE(cond) TH_LOG("set-up provides this: " fmt, ##__VA_ARGS__)

#endif
