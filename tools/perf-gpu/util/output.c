// SPDX-License-Identifier: GPL-2.0-only
/*
 * The output formats of perf gpu report and stat: see util/output.h.
 */
#include <string.h>

#include "util/output.h"

int report_format_parse(const char *s, enum report_format *fmt)
{
	if (!s || !strcmp(s, "text"))
		*fmt = REPORT_TEXT;
	else if (!strcmp(s, "csv"))
		*fmt = REPORT_CSV;
	else if (!strcmp(s, "json"))
		*fmt = REPORT_JSON;
	else
		return -1;
	return 0;
}

size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and values past Unicode are not text. */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void json_write_string(FILE *out, const char *str, bool in_html)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t n;

	putc('"', out);
	while (*s) {
		if (*s == '"' || *s == '\\') {
			putc('\\', out);
			putc(*s++, out);
		} else if (*s == '\n') {
			fputs("\\n", out);
			s++;
		} else if (*s == '\t') {
			fputs("\\t", out);
			s++;
		} else if (*s < 0x20 || *s == 0x7f ||
			   (in_html && (*s == '<' || *s == '>' || *s == '&'))) {
			fprintf(out, "\\u%04x", *s++);
		} else if ((n = utf8_len(s))) {
			fwrite(s, 1, n, out);
			s += n;
		} else {
			fputs("\\ufffd", out);
			s++;
		}
	}
	putc('"', out);
}

void report_json_string(FILE *out, const char *s)
{
	json_write_string(out, s, false);
}

void report_csv_field(FILE *out, const char *s)
{
	const char *p;

	s = s ? s : "";
	if (!strpbrk(s, ",\"\r\n") && s[0] != ' ' &&
	    (!*s || s[strlen(s) - 1] != ' ')) {
		fputs(s, out);
		return;
	}
	putc('"', out);
	for (p = s; *p; p++) {
		if (*p == '"')
			putc('"', out);
		putc(*p, out);
	}
	putc('"', out);
}

static void human_scaled(FILE *out, uint64_t v, const char *const *units,
			 unsigned int nr_units, unsigned int step)
{
	double d = (double)v;
	unsigned int i = 0;

	while (i + 1 < nr_units && d >= step) {
		d /= step;
		i++;
	}
	if (i == 0)
		fprintf(out, "%llu %s", (unsigned long long)v, units[0]);
	else
		fprintf(out, "%.2f %s", d, units[i]);
}

void report_csv_number(FILE *out, uint64_t v, enum report_unit unit, int human)
{
	static const char *const time_units[] = { "ns", "us", "ms", "s" };
	static const char *const byte_units[] = { "B", "KiB", "MiB", "GiB", "TiB" };

	if (!human || unit == UNIT_NONE) {
		if (unit == UNIT_PERCENT_X100)
			fprintf(out, "%llu.%02llu", (unsigned long long)(v / 100),
				(unsigned long long)(v % 100));
		else
			fprintf(out, "%llu", (unsigned long long)v);
		return;
	}
	switch (unit) {
	case UNIT_NS:
		human_scaled(out, v, time_units, 4, 1000);
		break;
	case UNIT_BYTES:
		human_scaled(out, v, byte_units, 5, 1024);
		break;
	case UNIT_PERCENT_X100:
		fprintf(out, "%llu.%02llu%%", (unsigned long long)(v / 100),
			(unsigned long long)(v % 100));
		break;
	default:
		fprintf(out, "%llu", (unsigned long long)v);
	}
}
