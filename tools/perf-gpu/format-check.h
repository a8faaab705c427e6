/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A sanity check of an event format text before libtraceevent parses
 * it: libtraceevent (1.7) dereferences NULL when the print fmt names a
 * field the format does not have, as one flipped bit in a file makes.
 */
#ifndef PERF_GPU_FORMAT_CHECK_H
#define PERF_GPU_FORMAT_CHECK_H

#include <stddef.h>

/*
 * 0 when every REC->name and __get_*(name) of the "print fmt:" line of
 * @text (@len bytes) names a field of its "field:" lines; else the
 * offset in @text of the first one that does not, plus one.
 */
size_t format_check_fields(const char *text, size_t len);

#endif
