/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sanity checks of an event format text before libtraceevent parses
 * it: libtraceevent (1.7) dereferences NULL when the print fmt names a
 * field the format does not have, as one flipped bit in a file makes,
 * divides by zero when it divides by a zero constant, and frees twice
 * on some sizeof()s.  Crashes are also caught by the trial parse
 * (tracing-data-read.c), which cannot catch a double free that does
 * not crash.
 */
#ifndef PERF_GPU_PERFDATA_FORMAT_CHECK_H
#define PERF_GPU_PERFDATA_FORMAT_CHECK_H

#include <stddef.h>

/*
 * 0 when every REC->name and __get_*(name) of the "print fmt:" line of
 * @text (@len bytes) names a field of its "field:" lines; else the
 * offset in @text of the first one that does not, plus one.
 */
size_t format_check_fields(const char *text, size_t len);

/*
 * 0 unless an argument of the print fmt divides (/ or %) by a constant
 * that is zero, or by a word that is no number (which libtraceevent
 * reads as zero): then the offset of the operator, plus one.
 * libtraceevent (1.7) works out a division of two constants while it
 * parses the format, without looking at the divisor: SIGFPE; and it
 * divides a field by a zero constant at each sample it prints.
 */
size_t format_check_divisors(const char *text, size_t len);

/*
 * 0 unless the part of the print fmt libtraceevent parses (up to a
 * statement expression, "({", or a sizeof() of another type, where it
 * gives up) takes sizeof(int), sizeof(unsigned ...),
 * sizeof(long ...) or sizeof(REC->...): then the offset of "sizeof",
 * plus one.  libtraceevent 1.7.1 frees the token after the type twice
 * there (fixed in 1.7.2): no crash to catch, a heap corrupted.  A
 * kernel format that takes sizeof() does so inside a statement
 * expression, which is not parsed.
 */
size_t format_check_sizeof(const char *text, size_t len);

#endif
