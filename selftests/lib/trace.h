/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading tracefs's trace file in device tests: emptying it, and taking
 * its lines apart ("  comm-pid  [cpu] flags  secs.usecs: event: ...").
 */
#ifndef GPUPROF_TEST_TRACE_H
#define GPUPROF_TEST_TRACE_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TRACING "/sys/kernel/tracing"

/* Empty the trace: only an open with O_TRUNC does, not a write. */
static inline int trace_clear(void)
{
	int fd = open(TRACING "/trace", O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/*
 * A kprobe event in tracefs: @def is a kprobe_events line ("p:GROUP/NAME
 * SYMBOL" to add, "-:GROUP/NAME" to remove).  Return: 0 or -errno.
 */
static inline int trace_kprobe(const char *def)
{
	int fd = open(TRACING "/kprobe_events", O_WRONLY | O_APPEND | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, def, strlen(def));
	if (n < 0)
		n = -errno;
	close(fd);
	return n < 0 ? (int)n : 0;
}

struct trace_line {
	char task[64];		/* "comm-pid" */
	size_t comm_len;	/* of its comm, before the last '-' */
	uint64_t ns;		/* the time, in the microseconds printed */
	const char *event;	/* "event: ...", inside the line */
};

/* Take @line apart; false for a comment or a line of another shape. */
static inline bool trace_parse_line(const char *line, struct trace_line *l)
{
	const char *colon = strstr(line, ": "), *ts, *t, *dash;
	size_t n;

	if (!colon || line[0] == '#')
		return false;
	for (ts = colon; ts > line && ts[-1] != ' '; ts--)
		;
	l->ns = (uint64_t)(strtod(ts, NULL) * 1e9 + 0.5);
	t = line + strspn(line, " ");
	n = strcspn(t, "[");
	while (n && t[n - 1] == ' ')
		n--;
	if (!n || n >= sizeof(l->task))
		return false;
	memcpy(l->task, t, n);
	l->task[n] = '\0';
	dash = strrchr(l->task, '-');
	l->comm_len = dash ? (size_t)(dash - l->task) : n;
	l->event = colon + 2;
	return true;
}

/*
 * The same for a line of perf script's default output ("  comm  pid
 * [cpu]  secs.nsecs: sys:event: ..."): @l->task is "comm pid", @l->event
 * the event without its system, as tracefs prints it.
 */
static inline bool perf_script_parse_line(const char *line,
					  struct trace_line *l)
{
	const char *sys, *colon;
	char *sp;

	if (!trace_parse_line(line, l))
		return false;
	/* "sys:event: ...": the system's colon comes first, unspaced. */
	sys = strchr(l->event, ':');
	colon = strstr(l->event, ": ");
	if (!sys || !colon || sys >= colon)
		return false;
	l->event = sys + 1;
	sp = strrchr(l->task, ' ');
	if (!sp)
		return false;
	while (sp > l->task && sp[-1] == ' ')
		sp--;
	l->comm_len = (size_t)(sp - l->task);
	return true;
}

#endif
