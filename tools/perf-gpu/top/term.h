/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf gpu top's terminal, without curses: the terminal in a raw mode
 * (keys one at a time, no echo; Ctrl-C still a signal), the alternate
 * screen and a hidden cursor while the view runs, all undone by
 * top_term_leave(), which also runs at exit() so that no error path
 * leaves the terminal raw.  A frame is drawn line by line with cursor
 * moves, each line cut to the window's width and the frame to its
 * height, so nothing ever wraps or scrolls.
 *
 * While the view is up, stderr goes to a memory file: a message printed
 * then (by the live protocol's client, say) would be drawn over.  The
 * view shows its last line; top_term_leave() gives all of it back to
 * the real stderr.
 */
#ifndef PERF_GPU_TOP_TERM_H
#define PERF_GPU_TOP_TERM_H

#include <stdbool.h>
#include <stddef.h>
#include <termios.h>

struct top_term {
	struct termios saved;
	bool active;
	unsigned int rows, cols;
	int saved_stderr;	/* the real stderr while ours is errfd */
	int errfd;
};

/* 0, or -1 with a message when stdin or stdout is not a terminal. */
int top_term_enter(struct top_term *t);
void top_term_leave(struct top_term *t);
/* Read the window's size again (after SIGWINCH). */
void top_term_resize(struct top_term *t);
/* Draw @text's lines ('\n'-separated, ASCII), the first highlighted. */
void top_term_draw(struct top_term *t, const char *text, size_t len);
/* The last line written to stderr since top_term_enter(), or "". */
void top_term_message(struct top_term *t, char *buf, size_t size);
/* A key pressed (a byte of stdin), or -1 at end of input. */
int top_term_key(struct top_term *t);

#endif
