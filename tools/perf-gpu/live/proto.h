/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The live protocol's server and client (design.rst 6.3), over TCP.
 *
 * Server: perf gpu top --listen [ADDR:]PORT.  A thread of its own accepts
 * and serves connections (poll() over the sockets and a wake-up pipe);
 * the sampling thread only hands it a new state with
 * live_server_publish(), which copies under a mutex and writes one byte
 * to the pipe: sampling never waits on the network.  Each connection has
 * a bounded output buffer: a client that does not read gets ERROR MEMORY
 * and is closed when its buffer would pass the bound.
 *
 * Client: perf gpu top --connect HOST:PORT: HELLO, then UPDATE at each
 * refresh, the replies applied to a live_state that the view draws.
 */
#ifndef PERF_GPU_LIVE_PROTO_H
#define PERF_GPU_LIVE_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "live/state.h"

#define LIVE_VERSION		1
#define LIVE_LINE_MAX		1024	/* bytes, \r\n included */
#define LIVE_OUTBUF_MAX		(1 << 20)	/* per connection */
#define LIVE_CONN_MAX		16	/* connections served at once */
#define LIVE_LINGER_MS		5000	/* a closing peer's time to read */

/*
 * One request line, without its \r\n: the command word and its
 * arguments, runs of spaces as one, trailing spaces allowed.  0 with
 * @argv/@argc set (pointers into @line, modified), 1 for a blank line,
 * -1 for a line that is not text (control bytes, NUL).  Shared by both
 * sides and the fuzz target.
 */
int live_split(char *line, char **argv, int max_args, int *argc);

struct live_server;

/*
 * Listen on @where ("PORT" on loopback, or "ADDR:PORT"; port 0 picks
 * one), as @name in HELLO replies; *@port gets the port.  NULL with a
 * message on stderr on failure.
 */
struct live_server *live_server_start(const char *where, const char *name,
				      unsigned int *port);
/* Hand over the newest state (copied); 0 or -1 out of memory. */
int live_server_publish(struct live_server *srv, const struct live_state *st);
/* Close every connection (GOODBYE is not sent: the server is going). */
void live_server_stop(struct live_server *srv);

/* What a server has done, for tests and diagnostics. */
struct live_server_stats {
	uint64_t accepted;	/* connections taken */
	uint64_t closed_full;	/* closed with ERROR MEMORY: output past the bound */
	size_t peak_out;	/* the most output one connection held at once */
};

void live_server_stats(struct live_server *srv, struct live_server_stats *st);

struct live_client;

/* Connect to "HOST:PORT" and say HELLO as @name; NULL with a message. */
struct live_client *live_client_connect(const char *where, const char *name);
/*
 * The first call reads HELLO's full state; later calls send UPDATE and
 * apply the reply to @st.  0, or -1 with a message (ERROR from the
 * server, a closed connection, a malformed reply).
 */
int live_client_poll(struct live_client *c, struct live_state *st);
/* Sends GOODBYE and closes. */
void live_client_close(struct live_client *c);

/*
 * For the fuzz target of selftests/fuzz/: each side's parser without a
 * network.  live_client_attach() makes a client of @fd, a connected
 * stream socket on which HELLO was sent already (what
 * live_client_connect() does after dialling); the fuzz target plays the
 * server through a socketpair.
 */
struct live_client *live_client_attach(int fd, const char *where);

/*
 * A session is one connection of a server served without a socket and
 * without the server's thread: the bytes a peer sends go in, the
 * replies come out, through the code that serves real connections.
 */
struct live_session;

/* Serving as @name the empty state; NULL out of memory or a bad name. */
struct live_session *live_session_open(const char *name);
/* The state later requests see, as live_server_publish().  0 or -1. */
int live_session_publish(struct live_session *ss, const struct live_state *st);
/*
 * Take @len bytes from the peer, as one read of the socket would; true
 * once the connection is closing (ERROR, GOODBYE): later bytes are
 * dropped, as the server drops them.
 */
bool live_session_input(struct live_session *ss, const char *p, size_t len);
/* The replies queued since the last call, valid until the next call. */
const char *live_session_output(struct live_session *ss, size_t *len);
void live_session_close(struct live_session *ss);

#endif
