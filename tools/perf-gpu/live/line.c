// SPDX-License-Identifier: GPL-2.0-only
/*
 * Lines of the live protocol: splitting a request into words and
 * assembling lines from what the socket gives (see live/line.h and
 * live/proto.h).  Both sides and the tests go through these, so the
 * spacing rules and the length bound are enforced in one place.
 */
#include <string.h>

#include "live/line.h"

/* Text is printable ASCII and bytes >= 0x80 (a comm may be UTF-8). */
static int is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

int live_split(char *line, char **argv, int max_args, int *argc)
{
	char *p;
	int n = 0;

	for (p = line; *p; p++)
		if (is_control(*p))
			return -1;
	p = line;
	for (;;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		/* Words past @max_args are counted, not kept: the caller
		 * sees too many arguments in *argc. */
		if (n < max_args)
			argv[n] = p;
		n++;
		while (*p && *p != ' ')
			p++;
		if (*p)
			*p++ = '\0';
	}
	*argc = n;
	return n ? 0 : 1;
}

char *live_lines_space(struct live_lines *l, size_t *room)
{
	/* Move the unread rest down only when asked for room: one move per
	 * read, not one per line. */
	if (l->start) {
		memmove(l->buf, l->buf + l->start, l->len - l->start);
		l->len -= l->start;
		l->start = 0;
	}
	*room = LIVE_LINE_MAX - l->len;
	return l->buf + l->len;
}

void live_lines_added(struct live_lines *l, size_t n)
{
	l->len += n;
}

enum live_line_status live_lines_next(struct live_lines *l, char **line)
{
	char *p = l->buf + l->start;
	size_t avail = l->len - l->start;
	char *nl = memchr(p, '\n', avail);
	size_t n;

	if (!nl)
		return avail >= LIVE_LINE_MAX ? LIVE_LINE_TOO_LONG : LIVE_LINE_MORE;
	n = nl - p;
	if (!n || p[n - 1] != '\r')
		return LIVE_LINE_NO_CR;
	if (memchr(p, '\0', n - 1))
		return LIVE_LINE_NUL;
	p[n - 1] = '\0';
	l->start += n + 1;
	*line = p;
	return LIVE_LINE_OK;
}

void live_lines_reset(struct live_lines *l)
{
	l->start = l->len = 0;
}
