/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Numbers from the command line, exactly and strictly: the whole
 * argument or nothing, no sign, no space.  Each returns 0, or -1 with
 * the value untouched; the caller says what was wrong, in its words.
 */
#ifndef PERF_GPU_UTIL_PARSE_H
#define PERF_GPU_UTIL_PARSE_H

#include <stdint.h>

/*
 * Seconds with up to nine decimals ("2", "0.25"), at most @max_s, to
 * nanoseconds.
 */
int parse_seconds_ns(const char *arg, uint64_t max_s, uint64_t *ns);

/*
 * A size in bytes: a number with an optional unit B, K, M or G (1024
 * based, either case), as perf record's --max-size takes; more than 0,
 * below 2^50.
 */
int parse_size_bytes(const char *arg, uint64_t *bytes);

#endif
