/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers for the device tests: ctl commands, status keys, targets,
 * timelines and histograms as a user would read them from /dev/gpuprof.
 */
#ifndef GPUPROF_TEST_GPUPROF_H
#define GPUPROF_TEST_GPUPROF_H

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "files.h"

#define GP "/dev/gpuprof"

static inline int ctl(const char *cmd)
{
	return write_file(GP "/ctl", cmd);
}

/* The value of "key: value" in status as a number, or -1. */
static inline long long status_num(const char *key)
{
	char buf[4096], *p;
	size_t klen = strlen(key);

	if (read_file(GP "/status", buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, klen) && p[klen] == ':')
			return strtoll(p + klen + 1, NULL, 10);
	return -1;
}

/* The value of "key: value" in status as text, in @out. */
static inline int status_str(const char *key, char *out, size_t size)
{
	char buf[4096], *p, *end;
	size_t klen = strlen(key);

	if (read_file(GP "/status", buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, klen) || p[klen] != ':')
			continue;
		p += klen + 2;
		end = strchr(p, '\n');
		snprintf(out, size, "%.*s", end ? (int)(end - p) : (int)strlen(p), p);
		return 0;
	}
	return -1;
}

/* The pid of the running oa_helper (status "oa_helper: running PID"), or -1. */
static inline pid_t oa_helper_pid(void)
{
	char buf[64];

	if (status_str("oa_helper", buf, sizeof(buf)) || strncmp(buf, "running ", 8))
		return -1;
	return atoi(buf + 8);
}

static inline int is_number(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* Ids of the target directories, ascending; their number. */
static inline int target_ids(int *ids, int max)
{
	struct dirent *d;
	int n = 0, i, j, t;
	DIR *dir = opendir(GP);

	if (!dir)
		return -errno;
	while ((d = readdir(dir)))
		if (is_number(d->d_name) && n < max)
			ids[n++] = atoi(d->d_name);
	closedir(dir);
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && ids[j - 1] > ids[j]; j--)
			t = ids[j], ids[j] = ids[j - 1], ids[j - 1] = t;
	return n;
}

/* Read /dev/gpuprof/ID/FILE into @buf; bytes or -errno. */
static inline ssize_t target_file(int id, const char *file, char *buf,
				  size_t size)
{
	char path[64];

	snprintf(path, sizeof(path), GP "/%d/%s", id, file);
	return read_file(path, buf, size);
}

/*
 * The id of the target named @name, waiting up to a second for its files
 * (a probe makes a target at once, its files a moment later); -1 if none.
 */
static inline int find_target(const char *name)
{
	char buf[512], want[512];
	int ids[1024], n, i, tries;

	snprintf(want, sizeof(want), "%s\n", name);
	for (tries = 0; tries < 100; tries++) {
		n = target_ids(ids, 1024);
		for (i = 0; i < n; i++)
			if (target_file(ids[i], "name", buf, sizeof(buf)) > 0 &&
			    !strcmp(buf, want))
				return ids[i];
		sleep_ms(10);
	}
	return -1;
}

/* The id of timeline "driver timeline" in /dev/gpuprof/timelines, or -1. */
static inline int timeline_id(const char *driver, const char *timeline)
{
	char buf[65536], want[256], *p;

	if (read_file(GP "/timelines", buf, sizeof(buf)) < 0)
		return -1;
	snprintf(want, sizeof(want), " %s %s\n", driver, timeline);
	for (p = buf; *p; p = strchr(p, '\n') + 1) {
		char *sp = strchr(p, ' ');
		size_t len = strlen(want);

		if (sp && !strncmp(sp, want, len))
			return atoi(p);
		if (!strchr(p, '\n'))
			break;
	}
	return -1;
}


/*
 * Is @s a histogram as design.rst 3.4 writes one: "KEY VALUE" lines, keys
 * ascending, no zero value?
 */
static inline int histogram_ok(const char *s)
{
	unsigned long long k, v;
	long long last = -1;
	int n;

	while (*s) {
		/* A digit first: %llu would take blanks and signs too. */
		if (!isdigit((unsigned char)*s) ||
		    sscanf(s, "%llu %llu%n", &k, &v, &n) != 2 || s[n] != '\n')
			return 0;
		if ((long long)k <= last || !v)
			return 0;
		last = k;
		s += n + 1;
	}
	return 1;
}
/* Value of @key in target @id's histogram; 0 if absent, -1 on error. */
static inline long long hist_value(int id, unsigned int key)
{
	char buf[1 << 17], *p;
	unsigned int k;
	unsigned long long v;

	if (target_file(id, "histogram", buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; *p; ) {
		if (sscanf(p, "%u %llu", &k, &v) != 2)
			return -1;
		if (k == key)
			return v;
		p = strchr(p, '\n');
		if (!p)
			return -1;
		p++;
	}
	return 0;
}

/* The path of gpuwork, which is built beside the test programs. */
static inline const char *gpuwork_path(void)
{
	static char path[PATH_MAX];
	ssize_t n;
	char *slash;

	if (path[0])
		return path;
	n = readlink("/proc/self/exe", path, sizeof(path) - 16);
	if (n < 0)
		return "gpuwork";
	path[n] = '\0';
	slash = strrchr(path, '/');
	strcpy(slash + 1, "gpuwork");
	return path;
}

/* schedwork, the schedmock workload, built beside gpuwork. */
static inline const char *schedwork_path(void)
{
	static char path[PATH_MAX];
	const char *gw = gpuwork_path();
	const char *slash = strrchr(gw, '/');

	snprintf(path, sizeof(path), "%.*sschedwork",
		 (int)(slash ? slash + 1 - gw : 0), gw);
	return path;
}

/* gpuprof-oa, which is built beside the perf-gpu under test. */
static inline const char *gpuprof_oa_path(void)
{
	static char path[PATH_MAX];
	const char *pg = getenv("GPUPROF_PERF_GPU");
	char *slash;

	snprintf(path, sizeof(path) - 16, "%s", pg ? pg : "");
	slash = strrchr(path, '/');
	if (!slash)
		return "gpuprof-oa";
	strcpy(slash + 1, "gpuprof-oa");
	return path;
}

/* The value of @name in target @id's OA counters file, or -1. */
static inline long long oa_counter(int id, const char *name)
{
	char buf[4096], *p;
	size_t len = strlen(name);

	if (target_file(id, "counters", buf, sizeof(buf)) <= 0)
		return -1;
	for (p = buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, name, len) && p[len] == ' ')
			return strtoll(p + len + 1, NULL, 10);
	return -1;
}

/* Run gpuwork with @args; its exit status. */
static inline int gpuwork(const char *args)
{
	char cmd[PATH_MAX + 256];
	int st;

	snprintf(cmd, sizeof(cmd), "%s %s", gpuwork_path(), args);
	st = system(cmd);
	return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

/* Full preemption, where the kernel lets it be chosen; the old one. */
static inline int preempt_full(char *old, size_t size)
{
	const char *path = "/sys/kernel/debug/sched/preempt";
	char *open_paren, *close_paren;

	if (read_file(path, old, size) <= 0)
		return -1;
	/* "none voluntary (full)": the mode in parentheses is the one on */
	open_paren = strchr(old, '(');
	close_paren = open_paren ? strchr(open_paren, ')') : NULL;
	if (!close_paren)
		return -1;
	*close_paren = '\0';
	memmove(old, open_paren + 1, close_paren - open_paren);
	return write_file(path, "full");
}

#endif
