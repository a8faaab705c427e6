/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Time for the tests: CLOCK_MONOTONIC in ns, and a sleep that finishes
 * even when a signal interrupts it.
 */
#ifndef GPUPROF_TEST_CLOCK_H
#define GPUPROF_TEST_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static inline void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

#endif
