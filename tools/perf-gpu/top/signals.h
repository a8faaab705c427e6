/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf gpu top's signals as bytes on a pipe (the self-pipe trick), so
 * that the one poll() of its loop wakes for a key, a signal or the next
 * sample alike, and nothing but a write(2) runs in a handler:
 *   SIGINT, SIGTERM, SIGHUP  quit (the terminal is restored on the way)
 *   SIGWINCH                 the window changed: size read again, redrawn
 *   SIGUSR1                  sample now, as the space key does
 * SIGPIPE is ignored: a peer or reader that goes away is an error return
 * of write(2), handled where it happens.
 */
#ifndef PERF_GPU_TOP_SIGNALS_H
#define PERF_GPU_TOP_SIGNALS_H

/* The pipe's read end for poll(), or -1 with a message on stderr. */
int top_signal_init(void);
/* The next signal caught, 0 when none is pending. */
int top_signal_next(void);

#endif
