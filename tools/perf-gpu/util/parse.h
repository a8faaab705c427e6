/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Numbers from the command line, exactly and strictly: the whole
 * argument or nothing, no sign, no space.  Each returns 0, or -1 with
 * the value untouched; the caller says what was wrong, in its words.
 */
#ifndef PERF_GPU_UTIL_PARSE_H
#define PERF_GPU_UTIL_PARSE_H

#include <stdbool.h>
#include <stddef.h>
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

/*
 * perf's --time START,END: seconds as perf script prints them
 * ("12.345678"), either side empty for the recording's start or end
 * (*@start 0, *@end UINT64_MAX), END not before START.
 */
int parse_time_window(const char *arg, uint64_t *start, uint64_t *end);

/* A comma-separated option value (--pid, --comm), split. */
struct name_list {
	char *copy;
	char **names;
	size_t nr;
};

/* @s (NULL: none) into @l: 0, or -1 out of memory. */
int name_list_split(const char *s, struct name_list *l);
bool name_list_has(const struct name_list *l, const char *s);
/* The first name of @l that is not a pid, or NULL. */
const char *name_list_not_pid(const struct name_list *l);
void name_list_free(struct name_list *l);

#endif
