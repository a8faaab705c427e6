// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu top's terminal: see top/term.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "top/term.h"
#include "util/debug.h"
#include "util/file.h"

/* The alternate screen on, cursor hidden; and back. */
#define SCREEN_ENTER	"\033[?1049h\033[?25l\033[H\033[2J"
#define SCREEN_LEAVE	"\033[?25h\033[?1049l"

static struct top_term *active_term;

static void leave_at_exit(void)
{
	if (active_term)
		top_term_leave(active_term);
}

void top_term_resize(struct top_term *t)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col) {
		t->rows = ws.ws_row;
		t->cols = ws.ws_col;
	} else {
		t->rows = 24;
		t->cols = 80;
	}
}

/* Our stderr into a memory file until top_term_leave(). */
static void catch_stderr(struct top_term *t)
{
	t->saved_stderr = -1;
	t->errfd = memfd_create("perf-gpu-top-stderr", MFD_CLOEXEC);
	if (t->errfd < 0)
		return;
	fflush(stderr);
	t->saved_stderr = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (t->saved_stderr < 0 || dup2(t->errfd, STDERR_FILENO) < 0) {
		if (t->saved_stderr >= 0)
			close(t->saved_stderr);
		close(t->errfd);
		t->saved_stderr = t->errfd = -1;
	}
}

/* Back to the real stderr, with what was written meanwhile. */
static void release_stderr(struct top_term *t)
{
	char buf[4096];
	off_t off = 0;
	ssize_t n;

	if (t->saved_stderr < 0)
		return;
	fflush(stderr);
	dup2(t->saved_stderr, STDERR_FILENO);
	close(t->saved_stderr);
	while ((n = pread(t->errfd, buf, sizeof(buf), off)) > 0) {
		file_write_all(STDERR_FILENO, buf, n, -1);
		off += n;
	}
	close(t->errfd);
	t->saved_stderr = t->errfd = -1;
}

int top_term_enter(struct top_term *t)
{
	static bool registered;
	struct termios raw;

	memset(t, 0, sizeof(*t));
	t->saved_stderr = t->errfd = -1;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) ||
	    tcgetattr(STDIN_FILENO, &t->saved)) {
		pr_err("the view needs a terminal on stdin and stdout (use --batch)\n");
		return -1;
	}
	raw = t->saved;
	/* Keys as they are typed, not echoed; ISIG kept: Ctrl-C is SIGINT. */
	raw.c_lflag &= ~(ICANON | ECHO);
	raw.c_iflag &= ~(IXON | ICRNL);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)) {
		pr_err("terminal: %s\n", strerror(errno));
		return -1;
	}
	t->active = true;
	active_term = t;
	if (!registered) {
		atexit(leave_at_exit);
		registered = true;
	}
	file_write_all(STDOUT_FILENO, SCREEN_ENTER, strlen(SCREEN_ENTER), -1);
	top_term_resize(t);
	catch_stderr(t);
	return 0;
}

void top_term_leave(struct top_term *t)
{
	if (!t->active)
		return;
	t->active = false;
	active_term = NULL;
	file_write_all(STDOUT_FILENO, SCREEN_LEAVE, strlen(SCREEN_LEAVE), -1);
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &t->saved);
	release_stderr(t);
}

void top_term_draw(struct top_term *t, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *nl;
	unsigned int row = 0;
	char *frame = NULL;
	size_t flen = 0, n;
	FILE *f;

	f = open_memstream(&frame, &flen);
	if (!f)
		return;
	while (row < t->rows && p < end) {
		nl = memchr(p, '\n', end - p);
		n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		/*
		 * Each line placed and cleared first, then written no wider
		 * than the window: a full-width line leaves the cursor at
		 * the margin without wrapping, and the next move resets it.
		 */
		fprintf(f, "\033[%u;1H\033[2K", row + 1);
		if (row == 0)
			fputs("\033[7m", f);
		fwrite(p, 1, n < t->cols ? n : t->cols, f);
		if (row == 0)
			fputs("\033[0m", f);
		row++;
		p = nl ? nl + 1 : end;
	}
	if (row < t->rows)
		fprintf(f, "\033[%u;1H\033[J", row + 1);
	if (fclose(f) == 0)
		file_write_all(STDOUT_FILENO, frame, flen, -1);
	free(frame);
}

void top_term_message(struct top_term *t, char *buf, size_t size)
{
	char tail[1024];
	off_t end;
	ssize_t n;
	char *line, *nl;

	buf[0] = '\0';
	if (t->errfd < 0)
		return;
	end = lseek(t->errfd, 0, SEEK_END);
	if (end <= 0)
		return;
	n = pread(t->errfd, tail, sizeof(tail) - 1,
		  end > (off_t)sizeof(tail) - 1 ? end - (off_t)sizeof(tail) + 1 : 0);
	if (n <= 0)
		return;
	tail[n] = '\0';
	while (n > 0 && tail[n - 1] == '\n')
		tail[--n] = '\0';
	nl = strrchr(tail, '\n');
	line = nl ? nl + 1 : tail;
	snprintf(buf, size, "%s", line);
}

int top_term_key(struct top_term *t)
{
	unsigned char c;
	ssize_t n;

	(void)t;
	n = read(STDIN_FILENO, &c, 1);
	if (n == 1)
		return c;
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	return -1;
}
