/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Feeding a tool files cut short or with bytes flipped: the file's bytes
 * in and out, and the verdict on one run, which must be a clean exit or
 * exactly one error line naming the file and an offset, never a crash,
 * a sanitizer report or a hang.
 */
#ifndef GPUPROF_TEST_CORRUPT_H
#define GPUPROF_TEST_CORRUPT_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "run.h"

/* The file's bytes, malloc'ed, NUL-terminated (not counted in *@len). */
static inline void *slurp(const char *path, size_t *len)
{
	struct stat st;
	char *buf = NULL;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st))
		buf = malloc(st.st_size + 1);
	if (buf && read(fd, buf, st.st_size) != st.st_size) {
		free(buf);
		buf = NULL;
	}
	close(fd);
	if (buf) {
		buf[st.st_size] = '\0';
		*len = st.st_size;
	}
	return buf;
}

/* @path holds the @len bytes of @data, or is gone. */
static inline void write_bytes(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd >= 0) {
		if (write(fd, data, len) != (ssize_t)len)
			unlink(path);
		close(fd);
	}
}

/*
 * Run the shell command @cmd (perf gpu @tool reading @path, its stdout
 * thrown away, its stderr kept: "{ timeout 10 ... 2>&1 >/dev/null; }").
 * 0 for exit 0 and nothing on stderr; 1 for exit 1 and exactly one line
 * "perf gpu TOOL: PATH: offset N: ..."; -1 for anything else.  @why says
 * what happened, for the log.
 */
static inline int one_error_line(const char *tool, const char *path,
				 const char *cmd, char *out, size_t size,
				 char *why, size_t why_size)
{
	char prefix[256];
	char *nl;
	int st;

	st = run_cmd(out, size, "%s", cmd);
	snprintf(why, why_size, "status %d: %.300s", st, out);
	if (st == 0)
		return out[0] ? -1 : 0;
	if (st != 1)
		return -1;
	snprintf(prefix, sizeof(prefix), "perf gpu %s: %s: offset ", tool, path);
	nl = strchr(out, '\n');
	if (strncmp(out, prefix, strlen(prefix)) || !nl || nl[1])
		return -1;
	return 1;
}

/* What a run of corrupt_cuts() or corrupt_flips() saw. */
struct corrupt_run {
	int runs, errors;	/* runs, and those that gave the error line */
	size_t at;		/* where the first bad outcome was */
	size_t stride, first;	/* the offsets tried: see corrupt_sample() */
	char why[512];
};

/*
 * Which offsets a run tries.  make check takes a sample: every
 * CORRUPT_SAMPLE-th offset, from a first one that moves on each day, so
 * a week of runs has tried them all; each run is a process of the
 * sanitizer build, and every offset of two tools' files took four of
 * make check's minutes.  GPUPROF_CORRUPT_ALL=1 (make fuzz) tries every
 * offset; GPUPROF_CORRUPT_FIRST=K repeats the sample a log names.
 */
#define CORRUPT_SAMPLE	7

static inline void corrupt_sample(struct corrupt_run *r)
{
	const char *first = getenv("GPUPROF_CORRUPT_FIRST");

	memset(r, 0, sizeof(*r));
	if (getenv("GPUPROF_CORRUPT_ALL")) {
		r->stride = 1;
		return;
	}
	r->stride = CORRUPT_SAMPLE;
	r->first = first ? strtoul(first, NULL, 10) % CORRUPT_SAMPLE :
			   (size_t)(time(NULL) / 86400) % CORRUPT_SAMPLE;
}

/*
 * A check of one file: 0 clean, 1 one error line, -1 anything else, with
 * @why saying what happened (one_error_line() does it for perf gpu).
 */
typedef int (*corrupt_check_fn)(void *ctx, const char *path, char *why,
				size_t why_size);

/*
 * Give @check the @len bytes of @file, written to @path, cut short at
 * every byte below @dense (of corrupt_sample()'s) and then at every
 * @len/64th.  0 when every run was clean or one error line; -1 at the
 * first other outcome.
 */
static inline int corrupt_cuts(const void *file, size_t len, size_t dense,
			       const char *path, corrupt_check_fn check,
			       void *ctx, struct corrupt_run *r)
{
	size_t at;
	int v;

	corrupt_sample(r);
	for (at = r->first; at < len;
	     at += at < dense ? r->stride : (len / 64 ? len / 64 : 1)) {
		write_bytes(path, file, at);
		v = check(ctx, path, r->why, sizeof(r->why));
		if (v < 0) {
			r->at = at;
			return -1;
		}
		r->runs++;
		r->errors += v;
	}
	return 0;
}

/*
 * The same with one byte inverted at a time, at every byte below @dense
 * and then every @step-th (of corrupt_sample()'s: every @step * stride-th
 * past @dense); @file is restored after each.
 */
static inline int corrupt_flips(void *file, size_t len, size_t dense,
				size_t step, const char *path,
				corrupt_check_fn check, void *ctx,
				struct corrupt_run *r)
{
	unsigned char *b = file;
	size_t at;
	int v;

	corrupt_sample(r);
	for (at = r->first; at < len;
	     at += at < dense ? r->stride : step * r->stride) {
		b[at] ^= 0xff;
		write_bytes(path, file, len);
		b[at] ^= 0xff;
		v = check(ctx, path, r->why, sizeof(r->why));
		if (v < 0) {
			r->at = at;
			return -1;
		}
		r->runs++;
		r->errors += v;
	}
	return 0;
}

#endif
