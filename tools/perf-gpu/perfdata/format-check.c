// SPDX-License-Identifier: GPL-2.0-only
/*
 * Field names of a tracefs format: each "field:" line ends its
 * declaration in "TYPE NAME;" or "TYPE NAME[N];", the name the last
 * identifier before the first ';' (before the "[N]" of an array).  The print fmt
 * refers to them as REC->NAME and __get_str(NAME) and the like.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/format-check.h"

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Is @name (@n bytes) declared on one of the field: lines? */
static bool has_field(const char *text, const char *end, const char *name,
		      size_t n)
{
	const char *p = text;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *eol = nl ? nl : end;
		const char *f = memmem(p, eol - p, "field:", 6);

		if (f) {
			const char *e = memchr(f, ';', eol - f), *s;

			/* "char comm[16];": back over the array size. */
			if (e && e > f && e[-1] == ']')
				while (e > f && *e != '[')
					e--;
			if (e) {
				s = e;
				while (s > f && ident_char(s[-1]))
					s--;
				if ((size_t)(e - s) == n && !memcmp(s, name, n))
					return true;
			}
		}
		p = eol + 1;
	}
	return false;
}

size_t format_check_fields(const char *text, size_t len)
{
	static const char *const refs[] = { "REC->", "__get_" };
	const char *end = text + len;
	const char *fmt = memmem(text, len, "print fmt:", 10);
	const char *p;
	size_t i;

	if (!fmt)
		return 0;
	for (i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
		size_t rl = strlen(refs[i]);

		for (p = fmt; (p = memmem(p, end - p, refs[i], rl)); p += rl) {
			const char *name = p + rl, *e;

			/* __get_str(x), __get_dynamic_array_len(x): the argument. */
			if (i == 1) {
				while (name < end && ident_char(*name))
					name++;
				if (name >= end || *name != '(')
					continue;
				name++;
				while (name < end && *name == ' ')
					name++;
			}
			for (e = name; e < end && ident_char(*e); e++)
				;
			if (e > name && !has_field(text, fmt, name, e - name))
				return name - text + 1;
		}
	}
	return 0;
}

/* Past the string literal that starts at @p ('"'), escapes and all. */
static const char *skip_literal(const char *p, const char *end)
{
	for (p++; p < end && *p != '"'; p++)
		if (*p == '\\' && p + 1 < end)
			p++;
	return p < end ? p + 1 : end;
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/*
 * Is the operand at @p a constant that is 0 as libtraceevent reads a
 * constant (strtoull, base 0: a word that is no number reads as 0)?  A
 * constant is one word, in parentheses or not, that is not REC->, not
 * a call, not a typecast and not the start of a longer expression in
 * its parentheses.
 */
static bool zero_constant(const char *p, const char *end)
{
	char word[64];
	const char *w;
	int parens = 0, i;
	size_t n;

	for (p = skip_blanks(p, end); p < end && *p == '(';
	     p = skip_blanks(p + 1, end))
		parens++;
	for (w = p; p < end && ident_char(*p); p++)
		;
	n = p - w;
	if (!n || n >= sizeof(word))
		return false;
	p = skip_blanks(p, end);
	/* REC->x, a call, a member or an element: not a constant. */
	if (p < end && (*p == '(' || *p == '.' || *p == '[' ||
			(*p == '-' && p + 1 < end && p[1] == '>')))
		return false;
	for (i = 0; i < parens; i++) {
		if (p >= end || *p != ')')
			return false;
		p = skip_blanks(p + 1, end);
	}
	/* "(int)0" is a typecast of what follows, no constant. */
	if (parens && p < end && (ident_char(*p) || *p == '('))
		return false;
	memcpy(word, w, n);
	word[n] = '\0';
	return strtoull(word, NULL, 0) == 0;
}

size_t format_check_divisors(const char *text, size_t len)
{
	const char *end = text + len;
	const char *p = memmem(text, len, "print fmt:", 10);

	if (!p)
		return 0;
	for (p += 10; p < end; p++) {
		if (*p == '"') {
			p = skip_literal(p, end) - 1;
			continue;
		}
		if ((*p == '/' || *p == '%') && zero_constant(p + 1, end))
			return p - text + 1;
	}
	return 0;
}

/*
 * Past a string or character literal at @p as libtraceevent's tokenizer
 * reads it: it ends at its quote, and also at a byte that is not
 * printable (a TAB), where skip_literal() would go on; an escaped byte
 * and a newline do not end it.
 */
static const char *skip_literal_as_tep(const char *p, const char *end)
{
	char quote = *p, last = 0;

	for (p++; p < end; last = *p, p++) {
		if (last == '\\' || *p == '\n')
			continue;
		if (*p == quote)
			return p + 1;
		if (!isprint((unsigned char)*p))
			return p;
	}
	return end;
}

size_t format_check_sizeof(const char *text, size_t len)
{
	static const char *const twice[] = { "int", "unsigned", "long", "REC" };
	const char *end = text + len;
	const char *p = memmem(text, len, "print fmt:", 10);
	const char *w;
	size_t i, n;

	if (!p)
		return 0;
	for (p += 10; p < end; p++) {
		if (*p == '"' || *p == '\'') {
			p = skip_literal_as_tep(p, end) - 1;
			continue;
		}
		/* libtraceevent parses no further than a statement expression. */
		if (*p == '(' && p + 1 < end && p[1] == '{')
			return 0;
		if (end - p < 6 || memcmp(p, "sizeof", 6) ||
		    (p > text && ident_char(p[-1])))
			continue;
		w = skip_blanks(p + 6, end);
		if (w >= end || *w != '(')
			continue;
		w = skip_blanks(w + 1, end);
		for (n = 0; w + n < end && ident_char(w[n]); n++)
			;
		for (i = 0; i < sizeof(twice) / sizeof(twice[0]); i++)
			if (n == strlen(twice[i]) && !memcmp(w, twice[i], n))
				return p - text + 1;
		/* Another type: libtraceevent gives up on the format there. */
		return 0;
	}
	return 0;
}
