// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the live protocol of perf gpu top (design.rst 6.3): the
 * line assembly (tools/perf-gpu/live/line.c) and the parsers on both
 * sides of it, the server's of requests (live/server.c) and the
 * client's of replies (live/client.c, into live/state.c).
 *
 * Input: byte 0 chooses the side (bit 0) and, for the server, how the
 * rest is cut into reads (the other bits, fuzz_pieces); the rest is what
 * the peer sent.
 *
 * Server side: the bytes go to a session (live_session_*: one connection
 * served by the server's code, without socket or thread), a read at a
 * time; between reads the state served changes, so UPDATE has something
 * to send.  Checks: the replies are lines of text ending in \r\n, of at
 * most LIVE_LINE_MAX bytes; nothing is answered after an ERROR line.
 *
 * Client side: the bytes are the server's, sent through a socketpair to
 * a client attached to the other end, which reads replies until it gives
 * up (the input ends, or it is malformed).  Checks: each state a reply
 * gives is sorted by (type, id), ids are unique, attributes are words
 * with keys unique within their object.
 */
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fuzz.h"
#include "../../tools/perf-gpu/live/line.h"
#include "../../tools/perf-gpu/live/proto.h"

/* The state served: two generations that differ in every way UPDATE shows. */
static void make_state(struct live_state *st, unsigned int gen)
{
	char v[32];

	memset(st, 0, sizeof(*st));
	snprintf(v, sizeof(v), "%u", 1000 + 500 * gen);
	FUZZ_CHECK(!live_state_set(st, LIVE_CLIENT, 0x10, "NAME", "glx_gears"));
	FUZZ_CHECK(!live_state_set(st, LIVE_CLIENT, 0x10, "PID", "100"));
	FUZZ_CHECK(!live_state_set(st, LIVE_CLIENT, 0x10, "ENGINE.render", v));
	if (gen % 2 == 0)
		FUZZ_CHECK(!live_state_set(st, LIVE_CLIENT, 0x20, "NAME", "vkcube"));
	FUZZ_CHECK(!live_state_set(st, LIVE_ENGINE, 0x30, "NAME",
				   "0000:00:02.0/render"));
	FUZZ_CHECK(!live_state_set(st, LIVE_HEAP, 0x40, "SIZE", v));
}

/* Replies: whole lines of text; nothing after an ERROR line. */
static void check_replies(const char *out, size_t len, bool *errored)
{
	const char *p = out, *end = out + len, *nl;

	while (p < end) {
		nl = memchr(p, '\n', end - p);
		FUZZ_CHECK(nl && nl > p && nl[-1] == '\r');
		FUZZ_CHECK(nl + 1 - p <= LIVE_LINE_MAX);
		FUZZ_CHECK(!memchr(p, '\0', nl - p));
		FUZZ_CHECK(!*errored);
		*errored = nl - p >= 6 && !memcmp(p, "ERROR ", 6);
		p = nl + 1;
	}
}

static void serve(const uint8_t *data, size_t size, struct fuzz_pieces *fp)
{
	struct live_session *ss = live_session_open("fuzz");
	struct live_state st;
	bool errored = false, closing = false;
	unsigned int gen = 0;
	const char *out;
	size_t off = 0, n, len;

	FUZZ_CHECK(ss);
	while (off < size && !closing) {
		make_state(&st, gen++);
		FUZZ_CHECK(!live_session_publish(ss, &st));
		live_state_free(&st);
		n = fuzz_piece(fp, size - off);
		closing = live_session_input(ss, (const char *)data + off, n);
		off += n;
		out = live_session_output(ss, &len);
		check_replies(out, len, &errored);
		FUZZ_CHECK(!errored || closing);
	}
	live_session_close(ss);
}

/* What a reply leaves the client with. */
static void check_state(const struct live_state *st)
{
	unsigned int i, a, b;

	for (i = 0; i < st->nr; i++) {
		const struct live_object *o = &st->obj[i];

		FUZZ_CHECK(o->type < LIVE_NR_TYPES);
		if (i)
			FUZZ_CHECK(o[-1].type < o->type ||
				   (o[-1].type == o->type && o[-1].id < o->id));
		for (a = 0; a < i; a++)
			FUZZ_CHECK(st->obj[a].id != o->id);
		for (a = 0; a < o->nr_attrs; a++) {
			const struct live_attr *at = &o->attrs[a];

			FUZZ_CHECK(at->key[0] && at->value[0]);
			FUZZ_CHECK(!strpbrk(at->key, " =") &&
				   !strchr(at->value, ' '));
			for (b = 0; b < a; b++)
				FUZZ_CHECK(strcmp(o->attrs[b].key, at->key));
		}
	}
}

static void drain(int fd)
{
	char buf[4096];

	while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
}

static void connect_to(const uint8_t *data, size_t size)
{
	struct live_state st = { 0 };
	struct live_client *c;
	size_t off = 0;
	ssize_t w;
	int sv[2];

	FUZZ_CHECK(!socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
	/*
	 * All of the server's bytes first, in one piece (the socket buffer
	 * would not hold many small ones): the client blocks on reads.  It
	 * reads them in its own pieces, up to the room its line buffer has.
	 */
	while (off < size) {
		w = send(sv[1], data + off, size - off, MSG_NOSIGNAL);
		FUZZ_CHECK(w > 0);
		off += w;
	}
	shutdown(sv[1], SHUT_WR);
	c = live_client_attach(sv[0], "fuzz");
	FUZZ_CHECK(c);
	while (!live_client_poll(c, &st)) {
		check_state(&st);
		/* Its UPDATE requests, unread, must not fill the socket. */
		drain(sv[1]);
	}
	live_state_free(&st);
	live_client_close(c);
	close(sv[1]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_pieces fp;

	/* The socket buffer holds this much without the client reading. */
	if (!size || size > 65536)
		return 0;
	fuzz_pieces_init(&fp, data[0] >> 1);
	if (data[0] & 1)
		connect_to(data + 1, size - 1);
	else
		serve(data + 1, size - 1, &fp);
	return 0;
}
