/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The live protocol's line assembly (design.rst 6.3), shared by the
 * server and the client: bytes arrive in pieces, a line is whole when
 * its \r\n has come, and no line may pass LIVE_LINE_MAX bytes with its
 * \r\n.  The buffer is that size and no more, so a peer that never ends
 * its line costs 1 KiB, not memory without bound.
 */
#ifndef PERF_GPU_LIVE_LINE_H
#define PERF_GPU_LIVE_LINE_H

#include <stddef.h>

#include "live/proto.h"

struct live_lines {
	char buf[LIVE_LINE_MAX];	/* a line's \r becomes its NUL */
	size_t start, len;		/* unread bytes: buf[start, len) */
};

enum live_line_status {
	LIVE_LINE_MORE = 0,		/* no whole line yet: read more */
	LIVE_LINE_OK = 1,
	LIVE_LINE_TOO_LONG = -1,	/* LIVE_LINE_MAX bytes and no \n */
	LIVE_LINE_NO_CR = -2,		/* a \n without its \r */
	LIVE_LINE_NUL = -3,		/* a NUL byte: not text */
};

/* Where the next bytes read go, and how many fit (never 0 after MORE). */
char *live_lines_space(struct live_lines *l, size_t *room);
void live_lines_added(struct live_lines *l, size_t n);

/*
 * The next whole line, without its \r\n and NUL-terminated, in *@line
 * (valid until the next call).  Any status other than MORE and OK is a
 * protocol error: the connection is done with.
 */
enum live_line_status live_lines_next(struct live_lines *l, char **line);

/* Forget what is buffered (a closing connection drops its input). */
void live_lines_reset(struct live_lines *l);

#endif
