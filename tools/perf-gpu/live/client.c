// SPDX-License-Identifier: GPL-2.0-only
/*
 * The live protocol's client (design.rst 6.3, live/proto.h): perf gpu top
 * --connect.  It keeps a mirror of the server's state, applies each
 * reply to it, and hands the caller a copy.
 *
 * Replies are read strictly: every line must be one the grammar allows
 * where it comes, or the connection is given up with a message; the
 * same line bound as the server's, and bounds on the objects a server
 * may make us hold, so a broken or hostile server costs bounded memory.
 * Reads time out, so a silent server gives an error, not a hung view.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "live/addr.h"
#include "live/line.h"
#include "live/proto.h"
#include "util/debug.h"

#define CONNECT_TIMEOUT_MS	5000
#define REPLY_TIMEOUT_S		10
/* What a server may make us hold: far past any machine's clients. */
#define MAX_OBJECTS		65536
#define MAX_ATTRS		1024

struct live_client {
	int fd;
	bool greeted;		/* HELLO's reply read */
	bool dead;		/* failed once: every later call fails */
	char where[LIVE_HOST_MAX + LIVE_PORT_MAX + 4];
	struct live_lines in;
	struct live_state mirror;
};

__attribute__((format(printf, 2, 3)))
static int fail(struct live_client *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pr_err("%s: %s\n", c->where, msg);
	c->dead = true;
	return -1;
}

static int send_all(struct live_client *c, const char *p, size_t len)
{
	while (len) {
		ssize_t n = send(c->fd, p, len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return fail(c, "cannot send: %s", errno == EAGAIN ?
				    "timed out" : strerror(errno));
		}
		p += n;
		len -= n;
	}
	return 0;
}

/* The next line of the reply, without its \r\n. */
static int read_line(struct live_client *c, char **line)
{
	for (;;) {
		size_t room;
		char *p;
		ssize_t n;

		switch (live_lines_next(&c->in, line)) {
		case LIVE_LINE_OK:
			return 0;
		case LIVE_LINE_TOO_LONG:
			return fail(c, "the server sent a line over %d bytes",
				    LIVE_LINE_MAX);
		case LIVE_LINE_NO_CR:
			return fail(c, "the server sent a line not ending in CRLF");
		case LIVE_LINE_NUL:
			return fail(c, "the server sent a line that is not text");
		case LIVE_LINE_MORE:
			break;
		}
		p = live_lines_space(&c->in, &room);
		n = recv(c->fd, p, room, 0);
		if (n > 0) {
			live_lines_added(&c->in, n);
			continue;
		}
		if (!n)
			return fail(c, "the server closed the connection");
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return fail(c, "no reply in %d s", REPLY_TIMEOUT_S);
		return fail(c, "%m");
	}
}

/* 1 to 16 hex digits: a 64-bit id. */
static bool parse_id(const char *s, uint64_t *id)
{
	size_t n = strlen(s), i;

	if (!n || n > 16)
		return false;
	*id = 0;
	for (i = 0; i < n; i++) {
		char ch = s[i];
		unsigned int d;

		if (ch >= '0' && ch <= '9')
			d = ch - '0';
		else if (ch >= 'a' && ch <= 'f')
			d = ch - 'a' + 10;
		else if (ch >= 'A' && ch <= 'F')
			d = ch - 'A' + 10;
		else
			return false;
		*id = *id << 4 | d;
	}
	return true;
}

/* "TYPE ID": the object's block starts; one of another type with that
 * id is replaced (ids are unique across types). */
static int begin_object(struct live_client *c, enum live_type t, uint64_t id)
{
	struct live_object *o = live_state_find_id(&c->mirror, id);

	if (o && o->type != t)
		live_state_delete(&c->mirror, o->type, id);
	if (!o && c->mirror.nr >= MAX_OBJECTS)
		return fail(c, "the server sent over %d objects", MAX_OBJECTS);
	if (!live_state_add(&c->mirror, t, id))
		return fail(c, "out of memory");
	return 0;
}

/* "KEY=VALUE" inside a block; an empty VALUE removes KEY. */
static int set_attr(struct live_client *c, enum live_type t, uint64_t id,
		    char *word, const char *line)
{
	char *eq = strchr(word, '=');
	struct live_object *o = live_state_find(&c->mirror, t, id);

	if (!eq || eq == word)
		return fail(c, "not KEY=VALUE in an object: '%.80s'", line);
	*eq = '\0';
	if (o->nr_attrs >= MAX_ATTRS && !live_object_get(o, word))
		return fail(c, "the server sent over %d attributes", MAX_ATTRS);
	if (live_state_set(&c->mirror, t, id, word, eq + 1))
		return fail(c, errno == EINVAL ? "attribute too long: '%.80s'" :
			    "out of memory at '%.80s'", line);
	return 0;
}

/*
 * A reply's body, up to "END @what": objects (and, in an UPDATE, DELETE
 * lines) applied to the mirror as they come.
 */
static int read_body(struct live_client *c, const char *what)
{
	char copy[LIVE_LINE_MAX], *line, *argv[3];
	bool in_object = false, update = !strcmp(what, "UPDATE");
	enum live_type t = LIVE_CLIENT, nt;
	uint64_t id = 0;
	int argc, r;

	for (;;) {
		if (read_line(c, &line))
			return -1;
		/* Kept whole for messages: live_split() cuts it up. */
		snprintf(copy, sizeof(copy), "%s", line);
		r = live_split(line, argv, 3, &argc);
		if (r < 0)
			return fail(c, "the server sent a line that is not text");
		if (r > 0)
			continue;
		if (!strcmp(argv[0], "ERROR"))
			return fail(c, "the server said %.200s", copy);
		if (in_object) {
			if (argc == 2 && !strcmp(argv[0], "END") &&
			    !strcmp(argv[1], live_type_name(t))) {
				in_object = false;
				continue;
			}
			if (argc != 1 || set_attr(c, t, id, argv[0], copy))
				return c->dead ? -1 :
				       fail(c, "not KEY=VALUE in an object: '%.80s'",
					    copy);
			continue;
		}
		if (argc == 2 && !strcmp(argv[0], "END") &&
		    !strcmp(argv[1], what))
			return 0;
		if (argc == 2 && update && !strcmp(argv[0], "DELETE") &&
		    parse_id(argv[1], &id)) {
			struct live_object *o = live_state_find_id(&c->mirror, id);

			if (!o)
				return fail(c, "DELETE of an unknown object: '%.80s'",
					    copy);
			live_state_delete(&c->mirror, o->type, id);
			continue;
		}
		if (argc == 2 && !live_type_parse(argv[0], &nt) &&
		    parse_id(argv[1], &id)) {
			t = nt;
			if (begin_object(c, t, id))
				return -1;
			in_object = true;
			continue;
		}
		return fail(c, "unexpected line in %s: '%.80s'", what, copy);
	}
}

/* A version the server may answer: from 1 to ours. */
static bool parse_version(const char *s)
{
	unsigned int v = 0;
	size_t i;

	for (i = 0; s[i]; i++) {
		if (s[i] < '0' || s[i] > '9' || i >= 9)
			return false;
		v = v * 10 + (s[i] - '0');
	}
	return v >= 1 && v <= LIVE_VERSION;
}

/* Our name in HELLO: one word of text. */
static bool valid_name(const char *name)
{
	size_t i;

	for (i = 0; name[i]; i++)
		if ((unsigned char)name[i] <= ' ' || name[i] == 0x7f)
			return false;
	return i > 0;
}

/* "HELLO V NAME" or "UPDATE", blank lines before it skipped. */
static int read_header(struct live_client *c)
{
	char copy[LIVE_LINE_MAX], *line, *argv[4];
	int argc, r;

	do {
		if (read_line(c, &line))
			return -1;
		snprintf(copy, sizeof(copy), "%s", line);
		r = live_split(line, argv, 4, &argc);
		if (r < 0)
			return fail(c, "the server sent a line that is not text");
	} while (r > 0);
	if (!strcmp(argv[0], "ERROR"))
		return fail(c, "the server said %.200s", copy);
	if (!c->greeted) {
		if (argc == 3 && !strcmp(argv[0], "HELLO") &&
		    parse_version(argv[1]))
			return 0;
	} else if (argc == 1 && !strcmp(argv[0], "UPDATE")) {
		return 0;
	}
	return fail(c, "unexpected reply: '%.80s'", copy);
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int live_client_poll(struct live_client *c, struct live_state *st)
{
	static const char update[] = "UPDATE\r\n";

	if (c->dead) {
		pr_err("%s: the connection is closed\n", c->where);
		return -1;
	}
	if (c->greeted && send_all(c, update, sizeof(update) - 1))
		return -1;
	if (!c->greeted)
		live_state_free(&c->mirror);
	if (read_header(c) || read_body(c, c->greeted ? "UPDATE" : "HELLO"))
		return -1;
	c->greeted = true;
	if (live_state_copy(st, &c->mirror))
		return fail(c, "out of memory");
	/* The server's clock means nothing here: the time it arrived. */
	st->time_ns = monotonic_ns();
	return 0;
}

/* A connected socket to one of @host's addresses, or -1. */
static int dial(struct live_client *c, const char *host, const char *port)
{
	struct addrinfo hints = {
		.ai_socktype = SOCK_STREAM,
		.ai_flags = AI_NUMERICSERV,
	}, *res, *ai;
	int fd = -1, err = 0, gai;

	gai = getaddrinfo(host, port, &hints, &res);
	if (gai) {
		pr_err("%s: %s\n", c->where, gai_strerror(gai));
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		struct pollfd pfd;
		socklen_t sl = sizeof(err);

		fd = socket(ai->ai_family,
			    ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
			    ai->ai_protocol);
		if (fd < 0) {
			err = errno;
			continue;
		}
		/* Non-blocking, to give up on an address after a while
		 * rather than the kernel's minutes. */
		if (!connect(fd, ai->ai_addr, ai->ai_addrlen))
			break;
		err = errno;
		if (err == EINPROGRESS) {
			pfd = (struct pollfd){ .fd = fd, .events = POLLOUT };
			err = ETIMEDOUT;
			if (poll(&pfd, 1, CONNECT_TIMEOUT_MS) == 1 &&
			    !getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &sl) &&
			    !err)
				break;
		}
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		pr_err("cannot connect to %s: %s\n", c->where,
		       strerror(err));
	return fd;
}

/* Blocking from now on, with timeouts. */
static void set_blocking(int fd)
{
	struct timeval tv = { .tv_sec = REPLY_TIMEOUT_S };
	int one = 1;

	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

struct live_client *live_client_connect(const char *where, const char *name)
{
	char host[LIVE_HOST_MAX], port[LIVE_PORT_MAX], hello[LIVE_LINE_MAX];
	struct live_client *c;
	int n;

	if (live_addr_parse(where, host, port) || !*host) {
		pr_err("'%s' is not HOST:PORT or [IPV6]:PORT\n",
		       where);
		return NULL;
	}
	n = snprintf(hello, sizeof(hello), "HELLO %d %s\r\n", LIVE_VERSION,
		     name);
	if (!valid_name(name) || n >= (int)sizeof(hello)) {
		pr_err("the name '%s' is not one word\n", name);
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		pr_err("out of memory\n");
		return NULL;
	}
	snprintf(c->where, sizeof(c->where), "%s", where);
	c->fd = dial(c, host, port);
	if (c->fd < 0) {
		free(c);
		return NULL;
	}
	set_blocking(c->fd);
	if (send_all(c, hello, n)) {
		live_client_close(c);
		return NULL;
	}
	return c;
}

struct live_client *live_client_attach(int fd, const char *where)
{
	struct live_client *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->fd = fd;
	snprintf(c->where, sizeof(c->where), "%s", where);
	return c;
}

void live_client_close(struct live_client *c)
{
	static const char bye[] = "GOODBYE\r\n";

	if (!c)
		return;
	/* Best effort, never waiting: the server closes on EOF anyway. */
	if (!c->dead)
		send(c->fd, bye, sizeof(bye) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
	close(c->fd);
	live_state_free(&c->mirror);
	free(c);
}
