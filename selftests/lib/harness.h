/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kselftest harness for the device tests, with one addition: the
 * timeout of every test is multiplied by $GPUPROF_TIMEOUT_SCALE (a whole
 * number from 1 to 100, default 1).  The timeouts are written for the
 * test VM's distribution kernels; the debug kernel (make check-debug)
 * runs the same work 10 to 30 times slower, and says so by setting it.
 * Anything else in the variable stops the program before a test runs.
 */
#ifndef GPUPROF_TEST_HARNESS_H
#define GPUPROF_TEST_HARNESS_H

#include <stdio.h>
#include <stdlib.h>

#include "kselftest_harness.h"

static inline int gpuprof_scale_timeouts(void)
{
	const char *s = getenv("GPUPROF_TIMEOUT_SCALE");
	struct __fixture_metadata *f;
	struct __test_metadata *t;
	char *end;
	long k;

	if (!s)
		return 0;
	k = strtol(s, &end, 10);
	if (end == s || *end || k < 1 || k > 100) {
		fprintf(stderr, "GPUPROF_TIMEOUT_SCALE=%s: not a number from 1 to 100\n",
			s);
		return -1;
	}
	for (f = __fixture_list; f; f = f->next)
		for (t = f->tests; t; t = t->next)
			t->timeout *= k;
	return 0;
}

#undef TEST_HARNESS_MAIN
#define TEST_HARNESS_MAIN \
	static void __attribute__((constructor)) \
	__constructor_order_last(void) \
	{ \
		if (!__constructor_order) \
			__constructor_order = _CONSTRUCTOR_ORDER_BACKWARD; \
	} \
	int main(int argc, char **argv) \
	{ \
		if (gpuprof_scale_timeouts()) \
			return KSFT_FAIL; \
		return test_harness_run(argc, argv); \
	}

#endif
