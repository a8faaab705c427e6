/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Messages for the user, on stderr, each after the name of the program
 * the user ran: "perf gpu top: ...", "gpuprof-oa: ...".  main() sets the
 * name once; every layer prints through pr_err(), so the same code (the
 * i915 stream of oa/, the live protocol, the /dev/gpuprof reader) says
 * the name of whichever program runs it.
 */
#ifndef PERF_GPU_UTIL_DEBUG_H
#define PERF_GPU_UTIL_DEBUG_H

#include <stdarg.h>

/* @name must outlive its use: a string literal or main()'s own. */
void debug_set_prog(const char *name);

/* "PROG: " then the message, whose format ends with its own newline. */
__attribute__((format(printf, 1, 2)))
void pr_err(const char *fmt, ...);
__attribute__((format(printf, 1, 0)))
void pr_verr(const char *fmt, va_list ap);

#endif
