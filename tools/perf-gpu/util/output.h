/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The output formats of perf gpu report, stat and report --device:
 * text for a terminal, CSV (gputop's convention: a header of system, CPU,
 * GPU and OA information as "# key: value" lines, then one row per
 * object), JSON (one document, stable keys, Documentation/perf-gpu.rst).
 * Here are the pieces every writer needs: the --format parser and the
 * quoting rules of CSV and JSON.
 */
#ifndef PERF_GPU_UTIL_OUTPUT_H
#define PERF_GPU_UTIL_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum report_format {
	REPORT_TEXT,
	REPORT_CSV,
	REPORT_JSON,
};

/* 0 with *@fmt set for "text", "csv" or "json"; -1 for anything else. */
int report_format_parse(const char *s, enum report_format *fmt);

/*
 * @s as a JSON string, quotes included: control bytes escaped as \u00XX,
 * bytes that are not UTF-8 (a comm is any bytes the process chose) as
 * U+FFFD, so that the document is valid whatever the recording holds.
 * @in_html also escapes '<', '>' and '&', for JSON inside a <script>
 * element (timechart), where the text must not close the element.
 */
void json_write_string(FILE *out, const char *s, bool in_html);

/*
 * The length of the valid UTF-8 sequence at @s, 0 when it is not one:
 * overlong forms, surrogates and values past U+10FFFF are not text.
 * Escapers copy the valid ones whole (JSON, OpenMetrics labels).
 */
size_t utf8_len(const unsigned char *s);

/* json_write_string() for the report's own documents. */
void report_json_string(FILE *out, const char *s);

/* @s as one CSV field: quoted (with "" for ") only when it needs to be. */
void report_csv_field(FILE *out, const char *s);

/*
 * @v as CSV wants it: a plain number in a file, with a unit scaled for
 * reading (ns -> "1.25 ms", bytes -> "4.0 MiB") when @human is set,
 * which callers do when stdout is a terminal (gputop's rule).
 */
enum report_unit { UNIT_NONE, UNIT_NS, UNIT_BYTES, UNIT_PERCENT_X100 };
void report_csv_number(FILE *out, uint64_t v, enum report_unit unit, int human);

#endif
