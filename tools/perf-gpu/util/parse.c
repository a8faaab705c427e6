// SPDX-License-Identifier: GPL-2.0-only
/*
 * Command-line numbers (see parse.h).  By hand rather than strtod or
 * strtoull: those take signs, leading spaces and hexadecimal, and round.
 */
#include "util/parse.h"

#define NSEC 1000000000ull

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int parse_seconds_ns(const char *arg, uint64_t max_s, uint64_t *ns)
{
	uint64_t whole = 0, frac = 0, scale = NSEC;
	const char *p = arg;

	if (!is_digit(*p))
		return -1;
	for (; is_digit(*p); p++) {
		whole = whole * 10 + (*p - '0');
		if (whole > max_s)
			return -1;
	}
	if (*p == '.') {
		for (p++; is_digit(*p); p++) {
			if (scale == 1)
				return -1;
			scale /= 10;
			frac += (*p - '0') * scale;
		}
	}
	if (*p || whole * NSEC + frac > max_s * NSEC)
		return -1;
	*ns = whole * NSEC + frac;
	return 0;
}

int parse_size_bytes(const char *arg, uint64_t *bytes)
{
	const uint64_t max = 1ull << 50;
	uint64_t v = 0;
	const char *p = arg;
	unsigned int shift = 0;

	if (!is_digit(*p))
		return -1;
	for (; is_digit(*p); p++) {
		v = v * 10 + (*p - '0');
		if (v >= max)
			return -1;
	}
	switch (*p) {
	case 'g': case 'G':
		shift = 30;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'k': case 'K':
		shift = 10;
		break;
	case 'b': case 'B':
	case '\0':
		break;
	default:
		return -1;
	}
	if (*p && p[1])
		return -1;
	if (!v || v >= max >> shift)
		return -1;
	*bytes = v << shift;
	return 0;
}
