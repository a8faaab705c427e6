// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recording machine's CPU and memory, for perf.data's header.  Only
 * the first processor's block of cpuinfo is read: the description of
 * CPU 0 is what perf writes.  The id follows perf's get_cpuid() on x86,
 * "vendor,family,model,stepping" in decimal (the "cpu family", "model"
 * and "stepping" lines are the decoded CPUID values perf computes).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/machine.h"

/* The value of "@key<blanks>: value" in @line, or NULL. */
static const char *value_of(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n))
		return NULL;
	line += n;
	while (*line == ' ' || *line == '\t')
		line++;
	if (*line != ':')
		return NULL;
	line++;
	while (*line == ' ' || *line == '\t')
		line++;
	return line;
}

/* @src without its newline, runs of blanks made one space, in @dst. */
static void squeeze(char *dst, size_t size, const char *src)
{
	size_t n = 0;
	bool blank = false;

	for (; *src && *src != '\n' && n + 1 < size; src++) {
		if (isspace((unsigned char)*src)) {
			blank = true;
			continue;
		}
		if (blank && n)
			dst[n++] = ' ';
		blank = false;
		if (n + 1 < size)
			dst[n++] = *src;
	}
	dst[n] = '\0';
}

/* A decimal number from cpuinfo, or -1. */
static long number(const char *s)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	v = strtol(s, &end, 10);
	return *end == '\n' || *end == '\0' ? v : -1;
}

static void read_cpuinfo(struct perf_machine *m, const char *path)
{
	char line[1024], vendor[64] = "";
	long family = -1, model = -1, stepping = -1;
	const char *v;
	FILE *f = fopen(path, "r");
	int n;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '\n')
			break;		/* the end of CPU 0's block */
		if ((v = value_of(line, "model name")))
			squeeze(m->cpudesc, sizeof(m->cpudesc), v);
		else if ((v = value_of(line, "vendor_id")))
			squeeze(vendor, sizeof(vendor), v);
		else if ((v = value_of(line, "cpu family")))
			family = number(v);
		else if ((v = value_of(line, "model")))
			model = number(v);
		else if ((v = value_of(line, "stepping")))
			stepping = number(v);
	}
	fclose(f);
	if (vendor[0] && !strchr(vendor, ',') && family >= 0 && model >= 0 &&
	    stepping >= 0) {
		n = snprintf(m->cpuid, sizeof(m->cpuid), "%s,%ld,%ld,%ld",
			     vendor, family, model, stepping);
		/* A cut cpuid would name another CPU: none rather. */
		if (n < 0 || (size_t)n >= sizeof(m->cpuid))
			m->cpuid[0] = '\0';
	}
}

static void read_meminfo(struct perf_machine *m, const char *path)
{
	char line[256], *end;
	const char *v;
	uint64_t kb;
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		v = value_of(line, "MemTotal");
		if (!v || !isdigit((unsigned char)*v))
			continue;
		kb = strtoull(v, &end, 10);
		if (!strcmp(end, " kB\n"))
			m->total_mem_kb = kb;
		break;
	}
	fclose(f);
}

void perf_machine_read(struct perf_machine *m, const char *cpuinfo,
		       const char *meminfo)
{
	memset(m, 0, sizeof(*m));
	read_cpuinfo(m, cpuinfo);
	read_meminfo(m, meminfo);
}
