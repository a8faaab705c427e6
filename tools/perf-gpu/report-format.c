// SPDX-License-Identifier: GPL-2.0-only
/*
 * The output formats of perf gpu report and stat: see report-format.h.
 */
#include <string.h>

#include "report-format.h"

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

void report_json_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	putc('"', out);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		default:
			/*
			 * Control bytes escaped; other bytes as they are
			 * (comm and timeline names come from the kernel).
			 */
			if (*p < 0x20 || *p == 0x7f)
				fprintf(out, "\\u%04x", *p);
			else
				putc(*p, out);
		}
	}
	putc('"', out);
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
