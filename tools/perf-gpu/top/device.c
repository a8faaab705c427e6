// SPDX-License-Identifier: GPL-2.0-only
/*
 * The gpuprof module's part of perf gpu top: see top/device.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gpuprofdev/read.h"
#include "top/device.h"
#include "util/output.h"

/* @text cut after @max lines, with a line saying how many more there were. */
static char *cut(char *text, unsigned int max)
{
	unsigned int lines = 0, more = 0;
	char *p, *stop = NULL, *shorter;

	for (p = text; *p; p++) {
		if (*p != '\n')
			continue;
		if (++lines == max)
			stop = p + 1;
		else if (lines > max)
			more++;
	}
	if (!stop || !more)
		return text;
	if (asprintf(&shorter, "%.*s# ... %u more lines: perf gpu report --device\n",
		     (int)(stop - text), text, more) < 0)
		return text;
	free(text);
	return shorter;
}

char *top_device_summary(const char *root, bool json, unsigned int max_lines,
			 int (*print)(const struct gpuprofdev *d,
				      enum report_format fmt, FILE *out))
{
	struct gpuprofdev d;
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int err;

	if (stat(root, &st))
		return NULL;
	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	err = gpuprofdev_load(&d, root);
	if (!err)
		err = print(&d, json ? REPORT_JSON : REPORT_TEXT, f);
	gpuprofdev_free(&d);
	if (fclose(f) || err) {
		free(buf);
		buf = NULL;
		/* An error line, not a part of a report. */
		f = open_memstream(&buf, &len);
		if (!f)
			return NULL;
		if (json) {
			fputs("{\"root\":", f);
			report_json_string(f, root);
			fputs(",\"error\":\"not readable\"}", f);
		} else {
			fprintf(f, "# %s: not readable (perf gpu report --device says why)\n",
				root);
		}
		if (fclose(f)) {
			free(buf);
			return NULL;
		}
	}
	if (!json && max_lines)
		buf = cut(buf, max_lines);
	return buf;
}
