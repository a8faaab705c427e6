/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kselftest harness for the device tests, with two additions, made
 * before the first test runs:
 *
 * - the timeout of every test is multiplied by $GPUPROF_TIMEOUT_SCALE (a
 *   whole number from 1 to 100, default 1).  The timeouts are written
 *   for the test VM's distribution kernels; the debug kernel (make
 *   check-debug) is far slower, and says so by setting it.  Anything
 *   else in the variable stops the program before a test runs.  Tests
 *   stretch their own workload windows by gpuprof_time_scale();
 * - the timeout of every test is also multiplied by
 *   $GPUPROF_WATCHDOG_SCALE (same rules), which leaves the tests'
 *   windows alone: the harness's timeout only catches a hang, and
 *   host-tests.sh sets it so a loaded machine does not fail a test that
 *   is merely slow;
 * - $GPUPROF_TEST_ONLY="NAME..." runs only the tests called one of the
 *   NAMEs, as "fixture.test" or "test" (6.1's harness has no filter of
 *   its own).
 */
#ifndef GPUPROF_TEST_HARNESS_H
#define GPUPROF_TEST_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

/*
 * The same factor for the tests' own windows: a workload that must
 * outlast the steps of a test (a fence held, a recording's duration, a
 * wait for something to start) stretches by it too.  1 when unset; main()
 * has refused a bad value before any test runs.
 */
static inline unsigned int gpuprof_time_scale(void)
{
	const char *s = getenv("GPUPROF_TIMEOUT_SCALE");
	long k = s ? strtol(s, NULL, 10) : 1;

	return k >= 1 && k <= 100 ? k : 1;
}

/* The factor in $@var: 1 when unset, 0 (said on stderr) when bad. */
static inline long gpuprof_scale_of(const char *var)
{
	const char *s = getenv(var);
	char *end;
	long k;

	if (!s)
		return 1;
	k = strtol(s, &end, 10);
	if (end == s || *end || k < 1 || k > 100) {
		fprintf(stderr, "%s=%s: not a number from 1 to 100\n", var, s);
		return 0;
	}
	return k;
}

static inline int gpuprof_scale_timeouts(void)
{
	long k = gpuprof_scale_of("GPUPROF_TIMEOUT_SCALE");
	long w = gpuprof_scale_of("GPUPROF_WATCHDOG_SCALE");
	struct __fixture_metadata *f;
	struct __test_metadata *t;

	if (!k || !w)
		return -1;
	for (f = __fixture_list; f; f = f->next)
		for (t = f->tests; t; t = t->next)
			t->timeout *= k * w;
	return 0;
}

/* Is @name one of the space-separated words of @list? */
static inline int gpuprof_word_in(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	for (p = list; (p = strstr(p, name)); p += len)
		if ((p == list || p[-1] == ' ') &&
		    (p[len] == ' ' || p[len] == '\0'))
			return 1;
	return 0;
}

/*
 * Unlink from each fixture's list the tests not called one of the words
 * of @only; 0, or -1 when no test is called so.
 */
static inline int gpuprof_only_tests(const char *only)
{
	struct __test_metadata *t, *next, *head, *tail;
	struct __fixture_metadata *f;
	char full[256];
	int kept = 0;

	for (f = __fixture_list; f; f = f->next) {
		head = tail = NULL;
		for (t = f->tests; t; t = next) {
			next = t->next;
			snprintf(full, sizeof(full), "%s.%s", f->name, t->name);
			if (!gpuprof_word_in(only, t->name) &&
			    !gpuprof_word_in(only, full))
				continue;
			/* The harness's lists: prev of the head is the tail. */
			t->next = NULL;
			t->prev = tail;
			if (tail)
				tail->next = t;
			else
				head = t;
			tail = t;
			kept++;
		}
		if (head)
			head->prev = tail;
		f->tests = head;
	}
	if (!kept)
		fprintf(stderr, "GPUPROF_TEST_ONLY=%s: no test is called so\n",
			only);
	return kept ? 0 : -1;
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
		if (getenv("GPUPROF_TEST_ONLY") && \
		    gpuprof_only_tests(getenv("GPUPROF_TEST_ONLY"))) \
			return KSFT_FAIL; \
		return test_harness_run(argc, argv); \
	}

#endif
