// SPDX-License-Identifier: GPL-2.0-only
/*
 * Command-line numbers (see parse.h).  By hand rather than strtod or
 * strtoull: those take signs, leading spaces and hexadecimal, and round.
 */
#include <stdlib.h>
#include <string.h>

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

/* The longest a --time bound may be: some 570 years of seconds. */
#define TIME_MAX_S	18000000000ull

int parse_time_window(const char *arg, uint64_t *start, uint64_t *end)
{
	const char *comma = strchr(arg, ',');
	uint64_t s = 0, e = UINT64_MAX;
	char *head;
	int err = 0;

	if (!comma)
		return -1;
	head = strndup(arg, comma - arg);
	if (!head)
		return -1;
	if (*head)
		err = parse_seconds_ns(head, TIME_MAX_S, &s);
	free(head);
	if (!err && comma[1])
		err = parse_seconds_ns(comma + 1, TIME_MAX_S, &e);
	if (err || e < s)
		return -1;
	*start = s;
	*end = e;
	return 0;
}

int name_list_split(const char *s, struct name_list *l)
{
	char *tok, *save;

	if (!s)
		return 0;
	l->copy = strdup(s);
	l->names = calloc(strlen(s) / 2 + 2, sizeof(char *));
	if (!l->copy || !l->names)
		return -1;
	for (tok = strtok_r(l->copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		l->names[l->nr++] = tok;
	return 0;
}

bool name_list_has(const struct name_list *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (!strcmp(l->names[i], s))
			return true;
	return false;
}

const char *name_list_not_pid(const struct name_list *l)
{
	char *end;
	size_t i;

	for (i = 0; i < l->nr; i++) {
		strtol(l->names[i], &end, 10);
		if (!*l->names[i] || *end)
			return l->names[i];
	}
	return NULL;
}

void name_list_free(struct name_list *l)
{
	free(l->copy);
	free(l->names);
	l->copy = NULL;
	l->names = NULL;
	l->nr = 0;
}
