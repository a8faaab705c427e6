// SPDX-License-Identifier: GPL-2.0-only
/*
 * The program's name before each message (util/debug.h).
 */
#include <errno.h>
#include <stdio.h>

#include "util/debug.h"

static const char *prog;

void debug_set_prog(const char *name)
{
	prog = name;
}

/* The name set, else the executable's (a test that links the layers). */
static const char *debug_prog(void)
{
	return prog ? prog : program_invocation_short_name;
}

void pr_verr(const char *fmt, va_list ap)
{
	int err = errno;	/* for %m, whatever stdio does first */
	char line[1024];
	va_list aq;
	int n;

	/* One write where it fits: lines of threads do not mix. */
	va_copy(aq, ap);
	n = vsnprintf(line, sizeof(line), fmt, aq);
	va_end(aq);
	if (n >= 0 && (size_t)n < sizeof(line)) {
		fprintf(stderr, "%s: %s", debug_prog(), line);
		return;
	}
	fprintf(stderr, "%s: ", debug_prog());
	errno = err;
	vfprintf(stderr, fmt, ap);
}

void pr_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pr_verr(fmt, ap);
	va_end(ap);
}
