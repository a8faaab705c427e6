// SPDX-License-Identifier: GPL-2.0-only
/*
 * The live protocol's server (design.rst 6.3, live/proto.h).
 *
 * One thread of its own serves every connection with poll() over the
 * listening socket, the connections and a pipe.  The sampling thread
 * never touches a socket: live_server_publish() copies the state, swaps
 * it in under a mutex and writes a byte to the pipe, so a slow network
 * or a stuck client cannot hold up sampling.
 *
 * States are immutable snapshots once handed over, shared by reference
 * count (server thread only): each connection keeps the one it last
 * sent, and UPDATE writes the difference to the newest.  A connection
 * costs its line buffer (LIVE_LINE_MAX), its output (at most
 * LIVE_OUTBUF_MAX, then ERROR MEMORY and close) and a reference.
 *
 * Closing is graceful: after ERROR or GOODBYE the output is flushed, our
 * side shut down, and the peer's input read and dropped until it closes
 * or LIVE_LINGER_MS pass, so that the peer reads our last lines instead
 * of a reset caused by requests we did not read.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
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

/* Reads per connection per poll() round: one busy peer cannot starve
 * the others. */
#define READS_PER_ROUND	64
/* An idle connection gives back an output buffer bigger than this. */
#define OUT_KEEP	(64 * 1024)
/* Room past LIVE_OUTBUF_MAX for the ERROR line that says it was hit. */
#define OUT_RESERVE	LIVE_LINE_MAX
/* accept() out of descriptors: the listener rests this long. */
#define ACCEPT_PAUSE_MS	100

struct snap {
	unsigned int refs;
	struct live_state st;
};

struct conn {
	int fd;
	bool hello;		/* HELLO answered: UPDATE allowed */
	bool closing;		/* ERROR, GOODBYE or EOF: no more requests */
	bool in_eof;		/* the peer shut its side */
	bool shut;		/* ours shut after the last byte went */
	bool dead;		/* the socket failed: close now */
	bool full;		/* a reply passed LIVE_OUTBUF_MAX: not counted yet */
	size_t peak;		/* the most output it held at once */
	uint64_t deadline_ms;	/* closing: when to stop waiting */
	struct live_lines in;
	char *out;
	size_t out_off, out_len, out_alloc;
	struct snap *sent;	/* the state last sent, for UPDATE */
};

struct live_server {
	int lfd, wake_rd, wake_wr;
	char name[LIVE_VALUE_MAX];
	pthread_t thread;
	pthread_mutex_t lock;
	struct snap *pending;	/* under lock: published, not taken yet */
	bool stop;		/* under lock */
	/* Written by the server thread, read by anyone (atomics). */
	struct live_server_stats stats;
	/* The server thread's alone: */
	struct snap *current;
	struct conn *conn[LIVE_CONN_MAX];
	unsigned int nr_conn;
	uint64_t accept_after_ms;
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ull + ts.tv_nsec / 1000000;
}

static struct snap *snap_new(const struct live_state *st)
{
	struct snap *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->refs = 1;
	if (st && live_state_copy(&s->st, st)) {
		free(s);
		return NULL;
	}
	return s;
}

static struct snap *snap_get(struct snap *s)
{
	s->refs++;
	return s;
}

static void snap_put(struct snap *s)
{
	if (s && !--s->refs) {
		live_state_free(&s->st);
		free(s);
	}
}

/* Output */

/* Queue @len bytes; false when that would pass the bound (@reserve:
 * the ERROR line saying so, allowed past it). */
static bool out_append(struct conn *c, const char *p, size_t len, bool reserve)
{
	size_t pending = c->out_len - c->out_off;
	size_t need = pending + len, cap = LIVE_OUTBUF_MAX;

	if (reserve)
		cap += OUT_RESERVE;
	if (need > cap)
		return false;
	if (c->out_off) {
		memmove(c->out, c->out + c->out_off, pending);
		c->out_len = pending;
		c->out_off = 0;
	}
	if (need > c->out_alloc) {
		size_t n = c->out_alloc ? c->out_alloc * 2 : 4096;
		char *b;

		if (n < need)
			n = need;
		if (n > LIVE_OUTBUF_MAX + OUT_RESERVE)
			n = LIVE_OUTBUF_MAX + OUT_RESERVE;
		b = realloc(c->out, n);
		if (!b)
			return false;
		c->out = b;
		c->out_alloc = n;
	}
	memcpy(c->out + c->out_len, p, len);
	c->out_len += len;
	if (need > c->peak)
		c->peak = need;
	return true;
}

/* "ERROR <text>", then the connection closes. */
__attribute__((format(printf, 2, 3)))
static void conn_error(struct conn *c, const char *fmt, ...)
{
	char line[LIVE_LINE_MAX];
	va_list ap;
	int n;

	if (c->closing)
		return;
	n = snprintf(line, sizeof(line), "ERROR ");
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - n - 2, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 3)
		n = sizeof(line) - 3;
	memcpy(line + n, "\r\n", 3);
	/* Failing even that (no memory at all): closed without a word. */
	if (!out_append(c, line, n + 2, true))
		c->dead = true;
	c->closing = true;
	c->deadline_ms = now_ms() + LIVE_LINGER_MS;
}

/* A whole reply, or ERROR MEMORY in its place: never half of one. */
static void conn_reply(struct conn *c, const char *p, size_t len)
{
	if (!out_append(c, p, len, false)) {
		if (!c->closing)
			c->full = true;
		conn_error(c, "MEMORY");
	}
}

static void conn_flush(struct conn *c)
{
	while (c->out_off < c->out_len) {
		ssize_t n = send(c->fd, c->out + c->out_off,
				 c->out_len - c->out_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				c->dead = true;
			return;
		}
		c->out_off += n;
	}
	c->out_off = c->out_len = 0;
	if (c->out_alloc > OUT_KEEP) {
		free(c->out);
		c->out = NULL;
		c->out_alloc = 0;
	}
}

/* Requests */

/* The reply to HELLO or UPDATE: header, objects, END. */
static void conn_send_state(struct live_server *s, struct conn *c,
			    const char *header, const char *end,
			    const struct live_state *old)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int err;

	if (!f) {
		conn_error(c, "MEMORY");
		return;
	}
	err = fputs(header, f) < 0;
	err |= live_state_write(f, old, &s->current->st) < 0;
	err |= fputs(end, f) < 0;
	err |= fclose(f) != 0;
	if (err)
		conn_error(c, "MEMORY");
	else
		conn_reply(c, buf, len);
	free(buf);
	if (c->closing)
		return;
	snap_put(c->sent);
	c->sent = snap_get(s->current);
}

/* A version is a decimal number from 1; too many digits is no version. */
static bool parse_version(const char *p, unsigned int *v)
{
	size_t i;

	*v = 0;
	for (i = 0; p[i]; i++) {
		if (p[i] < '0' || p[i] > '9' || i >= 9)
			return false;
		*v = *v * 10 + (p[i] - '0');
	}
	return *v >= 1;
}

static void do_hello(struct live_server *s, struct conn *c, int argc,
		     char **argv)
{
	char header[LIVE_LINE_MAX];
	unsigned int v;

	if (argc != 3)
		return conn_error(c, "HELLO needs VERSION NAME");
	if (c->hello)
		return conn_error(c, "HELLO was said already");
	if (!parse_version(argv[1], &v))
		return conn_error(c, "bad version");
	if (v > LIVE_VERSION)
		v = LIVE_VERSION;
	snprintf(header, sizeof(header), "HELLO %u %s\r\n", v, s->name);
	conn_send_state(s, c, header, "END HELLO\r\n", NULL);
	c->hello = !c->closing;
}

static void do_update(struct live_server *s, struct conn *c, int argc)
{
	static const char empty[] = "UPDATE\r\nEND UPDATE\r\n";

	if (argc != 1)
		return conn_error(c, "UPDATE takes no arguments");
	if (!c->hello)
		return conn_error(c, "UPDATE before HELLO");
	/* Nothing published since: no need to compare. */
	if (c->sent == s->current)
		return conn_reply(c, empty, sizeof(empty) - 1);
	conn_send_state(s, c, "UPDATE\r\n", "END UPDATE\r\n", &c->sent->st);
}

static void conn_request(struct live_server *s, struct conn *c, char *line)
{
	char *argv[4];
	int argc, r = live_split(line, argv, 4, &argc);

	if (r < 0)
		return conn_error(c, "line is not text");
	if (r > 0)
		return;		/* blank */
	if (!strcmp(argv[0], "HELLO"))
		return do_hello(s, c, argc, argv);
	if (!strcmp(argv[0], "UPDATE"))
		return do_update(s, c, argc);
	if (!strcmp(argv[0], "GOODBYE")) {
		if (argc != 1)
			return conn_error(c, "GOODBYE takes no arguments");
		c->closing = true;
		c->deadline_ms = now_ms() + LIVE_LINGER_MS;
		return;
	}
	/* The word is the peer's: cut short, it cannot pass the limit. */
	conn_error(c, "unknown command %.32s", argv[0]);
}

static void conn_lines(struct live_server *s, struct conn *c)
{
	char *line;

	while (!c->closing) {
		switch (live_lines_next(&c->in, &line)) {
		case LIVE_LINE_MORE:
			return;
		case LIVE_LINE_OK:
			conn_request(s, c, line);
			break;
		case LIVE_LINE_TOO_LONG:
			conn_error(c, "line too long");
			break;
		case LIVE_LINE_NO_CR:
			conn_error(c, "line does not end in CRLF");
			break;
		case LIVE_LINE_NUL:
			conn_error(c, "line is not text");
			break;
		}
	}
	/* What follows an ERROR or GOODBYE is not read as requests. */
	live_lines_reset(&c->in);
}

static void conn_read(struct live_server *s, struct conn *c)
{
	unsigned int i;

	for (i = 0; i < READS_PER_ROUND && !c->in_eof && !c->dead; i++) {
		size_t room;
		char *p = live_lines_space(&c->in, &room);
		ssize_t n = recv(c->fd, p, room, MSG_DONTWAIT);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				c->dead = true;
			break;
		}
		if (!n) {
			/* A half line left at the end is dropped. */
			c->in_eof = true;
			if (!c->closing) {
				c->closing = true;
				c->deadline_ms = now_ms() + LIVE_LINGER_MS;
			}
			break;
		}
		if (c->closing)
			continue;	/* dropped: see conn_lines() */
		live_lines_added(&c->in, n);
		conn_lines(s, c);
	}
	if (c->closing)
		live_lines_reset(&c->in);
}

/* Whether a closing connection is through: all sent and the peer gone,
 * or out of time. */
static bool conn_done(struct conn *c, uint64_t now)
{
	if (c->dead)
		return true;
	if (!c->closing)
		return false;
	if (c->out_off == c->out_len && !c->shut) {
		shutdown(c->fd, SHUT_WR);
		c->shut = true;
	}
	return (c->shut && c->in_eof) || now >= c->deadline_ms;
}

static void conn_free(struct conn *c)
{
	close(c->fd);
	free(c->out);
	snap_put(c->sent);
	free(c);
}

/* Connections */

static void accept_one(struct live_server *s, int fd)
{
	static const char full[] = "ERROR too many connections\r\n";
	struct conn *c;
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (s->nr_conn == LIVE_CONN_MAX) {
		/* Best effort: a new socket's buffer has room for a line. */
		send(fd, full, sizeof(full) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
		close(fd);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		close(fd);
		return;
	}
	c->fd = fd;
	s->conn[s->nr_conn++] = c;
	__atomic_add_fetch(&s->stats.accepted, 1, __ATOMIC_RELAXED);
}

static void accept_all(struct live_server *s)
{
	for (;;) {
		int fd = accept4(s->lfd, NULL, NULL,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd >= 0) {
			accept_one(s, fd);
			continue;
		}
		if (errno == EINTR || errno == ECONNABORTED)
			continue;
		/* Out of descriptors or memory: the pending connection
		 * keeps the listener readable, so rest instead of spin. */
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			s->accept_after_ms = now_ms() + ACCEPT_PAUSE_MS;
		return;
	}
}

/* Take the newest published state; true when asked to stop. */
static bool take_published(struct live_server *s)
{
	char buf[64];
	struct snap *p;
	bool stop;

	while (read(s->wake_rd, buf, sizeof(buf)) > 0)
		;
	pthread_mutex_lock(&s->lock);
	p = s->pending;
	s->pending = NULL;
	stop = s->stop;
	pthread_mutex_unlock(&s->lock);
	if (p) {
		snap_put(s->current);
		s->current = p;
	}
	return stop;
}

/* The poll() set: the pipe, the listener (unless resting), connections. */
static int poll_set(struct live_server *s, struct pollfd *pfd, uint64_t now,
		    int *timeout, bool *listening)
{
	unsigned int i;
	int n = 0;

	*timeout = -1;
	pfd[n++] = (struct pollfd){ .fd = s->wake_rd, .events = POLLIN };
	*listening = now >= s->accept_after_ms;
	if (*listening)
		pfd[n++] = (struct pollfd){ .fd = s->lfd, .events = POLLIN };
	else
		*timeout = s->accept_after_ms - now;
	for (i = 0; i < s->nr_conn; i++) {
		struct conn *c = s->conn[i];
		short ev = 0;

		if (!c->in_eof)
			ev |= POLLIN;
		if (c->out_off < c->out_len)
			ev |= POLLOUT;
		pfd[n++] = (struct pollfd){ .fd = c->fd, .events = ev };
		if (c->closing) {
			int left = c->deadline_ms > now ?
				   c->deadline_ms - now : 0;

			if (*timeout < 0 || left < *timeout)
				*timeout = left;
		}
	}
	return n;
}

static void serve_conns(struct live_server *s, struct pollfd *pfd)
{
	unsigned int i, kept = 0;
	uint64_t now;

	for (i = 0; i < s->nr_conn; i++) {
		struct conn *c = s->conn[i];
		short rev = pfd[i].revents;

		/* POLLHUP once our side is shut too: read to the EOF (or
		 * the reset) rather than close on unread bytes. */
		if (rev & POLLERR)
			c->dead = true;
		else if ((rev & (POLLIN | POLLHUP)) && !c->in_eof)
			conn_read(s, c);
		else if (rev & POLLHUP)
			c->dead = true;
		/* Replies go out at once, not a poll() round later. */
		if (!c->dead)
			conn_flush(c);
	}
	now = now_ms();
	for (i = 0; i < s->nr_conn; i++) {
		struct conn *c = s->conn[i];

		if (c->peak > __atomic_load_n(&s->stats.peak_out, __ATOMIC_RELAXED))
			__atomic_store_n(&s->stats.peak_out, c->peak, __ATOMIC_RELAXED);
		if (c->full) {
			__atomic_add_fetch(&s->stats.closed_full, 1, __ATOMIC_RELAXED);
			c->full = false;
		}
		if (conn_done(c, now))
			conn_free(c);
		else
			s->conn[kept++] = c;
	}
	s->nr_conn = kept;
}

static void *serve(void *arg)
{
	struct live_server *s = arg;
	struct pollfd pfd[2 + LIVE_CONN_MAX];
	unsigned int i;

	for (;;) {
		bool listening;
		int timeout, n = poll_set(s, pfd, now_ms(), &timeout, &listening);
		int first = listening ? 2 : 1;

		if (poll(pfd, n, timeout) < 0 && errno != EINTR) {
			pr_err("poll: %m: serving stops\n");
			break;
		}
		/* A state published before a request came is the one it
		 * sees: the pipe is looked at first. */
		if ((pfd[0].revents & POLLIN) && take_published(s))
			break;
		serve_conns(s, pfd + first);
		if (listening && (pfd[1].revents & POLLIN))
			accept_all(s);
	}
	for (i = 0; i < s->nr_conn; i++)
		conn_free(s->conn[i]);
	s->nr_conn = 0;
	return NULL;
}

/* Setup */

/* A name in HELLO replies is one word of text. */
static bool valid_name(const char *name)
{
	size_t n = strlen(name), i;

	if (!n || n >= LIVE_VALUE_MAX)
		return false;
	for (i = 0; i < n; i++)
		if ((unsigned char)name[i] <= ' ' || name[i] == 0x7f)
			return false;
	return true;
}

static int listen_on(const char *where, unsigned int *port)
{
	char host[LIVE_HOST_MAX], serv[LIVE_PORT_MAX];
	struct addrinfo hints = {
		.ai_socktype = SOCK_STREAM,
		.ai_flags = AI_PASSIVE | AI_NUMERICSERV,
	}, *res, *ai;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int fd = -1, err, one = 1;

	if (live_addr_parse(where, host, serv)) {
		pr_err("'%s' is not [ADDR:]PORT or [IPV6]:PORT\n",
		       where);
		return -1;
	}
	/* A port alone: loopback only, nothing reachable from outside. */
	err = getaddrinfo(*host ? host : "127.0.0.1", serv, &hints, &res);
	if (err) {
		pr_err("%s: %s\n", where, gai_strerror(err));
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family,
			    ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
			    ai->ai_protocol);
		if (fd < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (!bind(fd, ai->ai_addr, ai->ai_addrlen) &&
		    !listen(fd, LIVE_CONN_MAX))
			break;
		err = errno;
		close(fd);
		fd = -1;
		errno = err;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		pr_err("cannot listen on %s: %m\n", where);
		return -1;
	}
	if (getsockname(fd, (struct sockaddr *)&ss, &sl)) {
		pr_err("%s: %m\n", where);
		close(fd);
		return -1;
	}
	*port = ntohs(ss.ss_family == AF_INET6 ?
		      ((struct sockaddr_in6 *)&ss)->sin6_port :
		      ((struct sockaddr_in *)&ss)->sin_port);
	return fd;
}

struct live_server *live_server_start(const char *where, const char *name,
				      unsigned int *port)
{
	struct live_server *s;
	int p[2];

	if (!valid_name(name)) {
		pr_err("the name '%s' is not one word\n", name);
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		goto nomem;
	strcpy(s->name, name);
	s->current = snap_new(NULL);
	if (!s->current)
		goto nomem;
	s->lfd = listen_on(where, port);
	if (s->lfd < 0)
		goto fail;
	if (pipe2(p, O_NONBLOCK | O_CLOEXEC)) {
		pr_err("pipe: %m\n");
		goto fail_lfd;
	}
	s->wake_rd = p[0];
	s->wake_wr = p[1];
	pthread_mutex_init(&s->lock, NULL);
	if (pthread_create(&s->thread, NULL, serve, s)) {
		pr_err("cannot start the server thread\n");
		pthread_mutex_destroy(&s->lock);
		close(p[0]);
		close(p[1]);
		goto fail_lfd;
	}
	return s;
nomem:
	pr_err("out of memory\n");
	goto fail;
fail_lfd:
	close(s->lfd);
fail:
	if (s)
		snap_put(s->current);
	free(s);
	return NULL;
}

static void wake(struct live_server *s)
{
	/* A full pipe already holds a wake-up: EAGAIN is fine. */
	if (write(s->wake_wr, "", 1) < 0 && errno != EAGAIN)
		pr_err("wake-up: %m\n");
}

int live_server_publish(struct live_server *srv, const struct live_state *st)
{
	struct snap *n = snap_new(st), *old;

	/* The copy is made before the lock: the server thread never waits
	 * for it. */
	if (!n)
		return -1;
	pthread_mutex_lock(&srv->lock);
	old = srv->pending;
	srv->pending = n;
	pthread_mutex_unlock(&srv->lock);
	/* Never seen by the server thread: ours to free. */
	snap_put(old);
	wake(srv);
	return 0;
}

void live_server_stats(struct live_server *srv, struct live_server_stats *st)
{
	st->accepted = __atomic_load_n(&srv->stats.accepted, __ATOMIC_RELAXED);
	st->closed_full = __atomic_load_n(&srv->stats.closed_full, __ATOMIC_RELAXED);
	st->peak_out = __atomic_load_n(&srv->stats.peak_out, __ATOMIC_RELAXED);
}

void live_server_stop(struct live_server *srv)
{
	if (!srv)
		return;
	pthread_mutex_lock(&srv->lock);
	srv->stop = true;
	pthread_mutex_unlock(&srv->lock);
	wake(srv);
	pthread_join(srv->thread, NULL);
	snap_put(srv->pending);
	snap_put(srv->current);
	pthread_mutex_destroy(&srv->lock);
	close(srv->wake_rd);
	close(srv->wake_wr);
	close(srv->lfd);
	free(srv);
}

/* Sessions: one connection, no socket, no thread (see live/proto.h). */

struct live_session {
	struct live_server srv;
	struct conn conn;
};

struct live_session *live_session_open(const char *name)
{
	struct live_session *ss;

	if (!valid_name(name))
		return NULL;
	ss = calloc(1, sizeof(*ss));
	if (!ss)
		return NULL;
	strcpy(ss->srv.name, name);
	ss->srv.lfd = ss->srv.wake_rd = ss->srv.wake_wr = -1;
	ss->conn.fd = -1;
	ss->srv.current = snap_new(NULL);
	if (!ss->srv.current) {
		free(ss);
		return NULL;
	}
	return ss;
}

int live_session_publish(struct live_session *ss, const struct live_state *st)
{
	struct snap *n = snap_new(st);

	if (!n)
		return -1;
	/* What take_published() does with a state handed over. */
	snap_put(ss->srv.current);
	ss->srv.current = n;
	return 0;
}

/* What conn_read() does with bytes recv() gave, minus the socket. */
bool live_session_input(struct live_session *ss, const char *p, size_t len)
{
	struct conn *c = &ss->conn;

	while (len && !c->closing) {
		size_t room, n;
		char *dst = live_lines_space(&c->in, &room);

		n = len < room ? len : room;
		memcpy(dst, p, n);
		p += n;
		len -= n;
		live_lines_added(&c->in, n);
		conn_lines(&ss->srv, c);
	}
	if (c->closing)
		live_lines_reset(&c->in);
	return c->closing;
}

const char *live_session_output(struct live_session *ss, size_t *len)
{
	struct conn *c = &ss->conn;
	const char *out = c->out ? c->out + c->out_off : "";

	/* Taken as conn_flush() takes what send() took. */
	*len = c->out_len - c->out_off;
	c->out_off = c->out_len = 0;
	return out;
}

void live_session_close(struct live_session *ss)
{
	if (!ss)
		return;
	free(ss->conn.out);
	snap_put(ss->conn.sent);
	snap_put(ss->srv.current);
	free(ss);
}
