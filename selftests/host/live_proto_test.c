// SPDX-License-Identifier: GPL-2.0-only
/*
 * The live protocol of perf gpu top (tools/perf-gpu/live/, design.rst
 * 6.3) in-process: the line splitter and assembler, the object table,
 * the exact text of a full state and of a diff, a state made from a
 * scan, and a server and its client talking over loopback, plus the
 * client against a hand-driven socket sending broken replies.
 *
 * Expected ENGINE/HEAP ids are FNV-1a 64 of "TYPE NAME", worked out
 * apart from the code under test (Python, by hand).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../../tools/perf-gpu/live/addr.h"
#include "../../tools/perf-gpu/live/line.h"
#include "../../tools/perf-gpu/live/proto.h"

/* The whole of @st as HELLO sends it, or the diff @old -> @now. */
static char *text_of(const struct live_state *old, const struct live_state *now)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int n;

	if (!f)
		return NULL;
	n = live_state_write(f, old, now);
	fclose(f);
	if (n != (int)len) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Split and keep the words joined by '|', for one comparison. */
static int split_joined(const char *in, int max, char *out, size_t size)
{
	char line[LIVE_LINE_MAX], *argv[8];
	int argc = 0, r, i;

	snprintf(line, sizeof(line), "%s", in);
	r = live_split(line, argv, max, &argc);
	out[0] = '\0';
	for (i = 0; r == 0 && i < argc && i < max; i++)
		snprintf(out + strlen(out), size - strlen(out), "%s%s",
			 i ? "|" : "", argv[i]);
	return r ? r : argc;
}

TEST(split_words_and_spaces)
{
	char w[256];

	EXPECT_EQ(3, split_joined("HELLO 1 top", 8, w, sizeof(w)));
	EXPECT_STREQ("HELLO|1|top", w);
	/* Runs of spaces are one; leading and trailing ones go. */
	EXPECT_EQ(3, split_joined("   HELLO    1  top    ", 8, w, sizeof(w)));
	EXPECT_STREQ("HELLO|1|top", w);
	EXPECT_EQ(1, split_joined("UPDATE ", 8, w, sizeof(w)));
	EXPECT_STREQ("UPDATE", w);
	/* Bytes >= 0x80 are text (a UTF-8 comm). */
	EXPECT_EQ(1, split_joined("caf\xc3\xa9", 8, w, sizeof(w)));
	EXPECT_STREQ("caf\xc3\xa9", w);
	/* More words than room: all counted, the first kept. */
	EXPECT_EQ(5, split_joined("a b c d e", 3, w, sizeof(w)));
	EXPECT_STREQ("a|b|c", w);
}

TEST(split_blank_and_not_text)
{
	char w[256];

	EXPECT_EQ(1, split_joined("", 8, w, sizeof(w)));
	EXPECT_EQ(1, split_joined("     ", 8, w, sizeof(w)));
	EXPECT_EQ(-1, split_joined("HELLO\t1 top", 8, w, sizeof(w)));
	EXPECT_EQ(-1, split_joined("UPDATE\r", 8, w, sizeof(w)));
	EXPECT_EQ(-1, split_joined("\x01", 8, w, sizeof(w)));
	EXPECT_EQ(-1, split_joined("GOODBYE\x7f", 8, w, sizeof(w)));
}

static void feed(struct live_lines *l, const char *p, size_t n)
{
	size_t room;
	char *dst = live_lines_space(l, &room);

	if (n > room)
		n = room;
	memcpy(dst, p, n);
	live_lines_added(l, n);
}

TEST(lines_in_pieces)
{
	struct live_lines l = { 0 };
	char *line;

	feed(&l, "HEL", 3);
	EXPECT_EQ(LIVE_LINE_MORE, live_lines_next(&l, &line));
	feed(&l, "LO 1 x\r", 7);
	EXPECT_EQ(LIVE_LINE_MORE, live_lines_next(&l, &line));
	feed(&l, "\n\r\nUPD", 6);
	ASSERT_EQ(LIVE_LINE_OK, live_lines_next(&l, &line));
	EXPECT_STREQ("HELLO 1 x", line);
	ASSERT_EQ(LIVE_LINE_OK, live_lines_next(&l, &line));
	EXPECT_STREQ("", line);
	EXPECT_EQ(LIVE_LINE_MORE, live_lines_next(&l, &line));
	feed(&l, "ATE\r\n", 5);
	ASSERT_EQ(LIVE_LINE_OK, live_lines_next(&l, &line));
	EXPECT_STREQ("UPDATE", line);
	EXPECT_EQ(LIVE_LINE_MORE, live_lines_next(&l, &line));
}

TEST(lines_bound_is_1024_with_crlf)
{
	struct live_lines l = { 0 };
	char buf[LIVE_LINE_MAX + 1], *line;

	/* 1022 bytes and \r\n: the longest line allowed. */
	memset(buf, 'a', LIVE_LINE_MAX - 2);
	memcpy(buf + LIVE_LINE_MAX - 2, "\r\n", 2);
	feed(&l, buf, LIVE_LINE_MAX);
	ASSERT_EQ(LIVE_LINE_OK, live_lines_next(&l, &line));
	EXPECT_EQ(LIVE_LINE_MAX - 2, strlen(line));
	/* 1023 and \r: no room for the \n within 1024. */
	live_lines_reset(&l);
	memset(buf, 'a', LIVE_LINE_MAX - 1);
	buf[LIVE_LINE_MAX - 1] = '\r';
	feed(&l, buf, LIVE_LINE_MAX);
	EXPECT_EQ(LIVE_LINE_TOO_LONG, live_lines_next(&l, &line));
	/* After a line, the next one's bytes still fit. */
	live_lines_reset(&l);
	feed(&l, "UPDATE\r\n", 8);
	ASSERT_EQ(LIVE_LINE_OK, live_lines_next(&l, &line));
	memset(buf, 'b', LIVE_LINE_MAX - 2);
	feed(&l, buf, LIVE_LINE_MAX - 2);
	EXPECT_EQ(LIVE_LINE_MORE, live_lines_next(&l, &line));
	feed(&l, "\r\n", 2);
	ASSERT_EQ(LIVE_LINE_OK, live_lines_next(&l, &line));
	EXPECT_EQ(LIVE_LINE_MAX - 2, strlen(line));
}

TEST(lines_need_crlf_and_no_nul)
{
	struct live_lines l = { 0 };
	char *line;

	feed(&l, "HELLO 1 x\n", 10);
	EXPECT_EQ(LIVE_LINE_NO_CR, live_lines_next(&l, &line));
	live_lines_reset(&l);
	feed(&l, "\n", 1);
	EXPECT_EQ(LIVE_LINE_NO_CR, live_lines_next(&l, &line));
	live_lines_reset(&l);
	feed(&l, "HEL\0LO\r\n", 8);
	EXPECT_EQ(LIVE_LINE_NUL, live_lines_next(&l, &line));
}

TEST(addresses)
{
	char host[LIVE_HOST_MAX], port[LIVE_PORT_MAX];

	ASSERT_EQ(0, live_addr_parse("0", host, port));
	EXPECT_STREQ("", host);
	EXPECT_STREQ("0", port);
	ASSERT_EQ(0, live_addr_parse("localhost:65535", host, port));
	EXPECT_STREQ("localhost", host);
	EXPECT_STREQ("65535", port);
	ASSERT_EQ(0, live_addr_parse("[::1]:8080", host, port));
	EXPECT_STREQ("::1", host);
	EXPECT_STREQ("8080", port);
	ASSERT_EQ(0, live_addr_parse("10.0.0.1:7", host, port));
	EXPECT_STREQ("10.0.0.1", host);
	EXPECT_EQ(-1, live_addr_parse("::1:80", host, port));
	EXPECT_EQ(-1, live_addr_parse("[::1]80", host, port));
	EXPECT_EQ(-1, live_addr_parse("[::1]", host, port));
	EXPECT_EQ(-1, live_addr_parse("host:", host, port));
	EXPECT_EQ(-1, live_addr_parse(":80", host, port));
	EXPECT_EQ(-1, live_addr_parse("host:65536", host, port));
	EXPECT_EQ(-1, live_addr_parse("host:12a", host, port));
	EXPECT_EQ(-1, live_addr_parse("", host, port));
}

TEST(table_sorted_and_found)
{
	struct live_state st = { 0 };
	const struct live_object *o;

	ASSERT_EQ(0, live_state_set(&st, LIVE_HEAP, 1, "NAME", "h"));
	ASSERT_EQ(0, live_state_set(&st, LIVE_CLIENT, 9, "NAME", "b"));
	ASSERT_EQ(0, live_state_set(&st, LIVE_CLIENT, 3, "NAME", "a"));
	ASSERT_EQ(0, live_state_set(&st, LIVE_ENGINE, 5, "NAME", "e"));
	ASSERT_EQ(4, st.nr);
	EXPECT_EQ(LIVE_CLIENT, st.obj[0].type);
	EXPECT_EQ(3, st.obj[0].id);
	EXPECT_EQ(9, st.obj[1].id);
	EXPECT_EQ(LIVE_ENGINE, st.obj[2].type);
	EXPECT_EQ(LIVE_HEAP, st.obj[3].type);
	o = live_state_find(&st, LIVE_CLIENT, 9);
	ASSERT_NE(NULL, o);
	EXPECT_STREQ("b", live_object_get(o, "NAME"));
	EXPECT_EQ(NULL, live_object_get(o, "PID"));
	EXPECT_EQ(NULL, live_state_find(&st, LIVE_ENGINE, 9));
	live_state_delete(&st, LIVE_CLIENT, 3);
	live_state_delete(&st, LIVE_CLIENT, 4);
	EXPECT_EQ(3, st.nr);
	EXPECT_EQ(NULL, live_state_find(&st, LIVE_CLIENT, 3));
	live_state_free(&st);
	EXPECT_EQ(0, st.nr);
}

TEST(table_rejects_what_the_wire_cannot_say)
{
	struct live_state st = { 0 };
	char big[LIVE_VALUE_MAX + 1];

	ASSERT_EQ(0, live_state_set(&st, LIVE_CLIENT, 7, "NAME", "x"));
	/* Ids are unique across types: DELETE ID names no type. */
	errno = 0;
	EXPECT_EQ(-1, live_state_set(&st, LIVE_ENGINE, 7, "NAME", "y"));
	EXPECT_EQ(EEXIST, errno);
	EXPECT_EQ(NULL, live_state_add(&st, LIVE_HEAP, 7));
	errno = 0;
	EXPECT_EQ(-1, live_state_set(&st, LIVE_CLIENT, 7, "A B", "1"));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, live_state_set(&st, LIVE_CLIENT, 7, "A=B", "1"));
	EXPECT_EQ(-1, live_state_set(&st, LIVE_CLIENT, 7, "", "1"));
	EXPECT_EQ(-1, live_state_set(&st, LIVE_CLIENT, 7, "K", "a b"));
	EXPECT_EQ(-1, live_state_set(&st, LIVE_CLIENT, 7, "K", "a\r"));
	memset(big, 'v', LIVE_VALUE_MAX);
	big[LIVE_VALUE_MAX] = '\0';
	EXPECT_EQ(-1, live_state_set(&st, LIVE_CLIENT, 7, "K", big));
	big[LIVE_VALUE_MAX - 1] = '\0';
	EXPECT_EQ(0, live_state_set(&st, LIVE_CLIENT, 7, "K", big));
	memset(big, 'k', LIVE_KEY_MAX);
	big[LIVE_KEY_MAX] = '\0';
	EXPECT_EQ(-1, live_state_set(&st, LIVE_CLIENT, 7, big, "1"));
	/* A value may hold '=': only the first one splits. */
	EXPECT_EQ(0, live_state_set(&st, LIVE_CLIENT, 7, "Q", "a=b"));
	/* The empty value removes the key. */
	EXPECT_EQ(0, live_state_set(&st, LIVE_CLIENT, 7, "NAME", ""));
	EXPECT_EQ(NULL, live_object_get(&st.obj[0], "NAME"));
	EXPECT_EQ(2, st.obj[0].nr_attrs);
	live_state_free(&st);
}

/* A small state: two clients, an engine, a heap. */
static int make_state(struct live_state *st)
{
	return live_state_set(st, LIVE_CLIENT, 0x10, "NAME", "glxgears") ||
	       live_state_set(st, LIVE_CLIENT, 0x10, "PID", "100") ||
	       live_state_set(st, LIVE_CLIENT, 0x10, "ENGINE.render", "5000") ||
	       live_state_set(st, LIVE_CLIENT, 0x20, "NAME", "vkcube") ||
	       live_state_set(st, LIVE_CLIENT, 0x20, "PID", "200") ||
	       live_state_set(st, LIVE_ENGINE, 0xabcdef0123456789ull, "NAME",
			      "0000:00:02.0/render") ||
	       live_state_set(st, LIVE_ENGINE, 0xabcdef0123456789ull, "UTIL",
			      "1200") ||
	       live_state_set(st, LIVE_HEAP, 0x5, "NAME", "0000:00:02.0/system") ||
	       live_state_set(st, LIVE_HEAP, 0x5, "SIZE", "4096");
}

static const char full_text[] =
	"CLIENT 10\r\nNAME=glxgears\r\nPID=100\r\nENGINE.render=5000\r\n"
	"END CLIENT\r\n"
	"CLIENT 20\r\nNAME=vkcube\r\nPID=200\r\nEND CLIENT\r\n"
	"ENGINE abcdef0123456789\r\nNAME=0000:00:02.0/render\r\nUTIL=1200\r\n"
	"END ENGINE\r\n"
	"HEAP 5\r\nNAME=0000:00:02.0/system\r\nSIZE=4096\r\nEND HEAP\r\n";

TEST(write_full_state)
{
	struct live_state st = { 0 };
	char *t;

	ASSERT_EQ(0, make_state(&st));
	t = text_of(NULL, &st);
	ASSERT_NE(NULL, t);
	EXPECT_STREQ(full_text, t);
	free(t);
	live_state_free(&st);
}

TEST(write_diff_changed_attributes_only)
{
	struct live_state old = { 0 }, now = { 0 };
	char *t;

	ASSERT_EQ(0, make_state(&old));
	ASSERT_EQ(0, live_state_copy(&now, &old));
	/* One value changed, one key new, one key gone, one object new,
	 * one gone, the engine and heap untouched. */
	ASSERT_EQ(0, live_state_set(&now, LIVE_CLIENT, 0x10, "ENGINE.render",
				    "7500"));
	ASSERT_EQ(0, live_state_set(&now, LIVE_CLIENT, 0x10, "MEM.system", "64"));
	ASSERT_EQ(0, live_state_set(&now, LIVE_CLIENT, 0x10, "PID", ""));
	live_state_delete(&now, LIVE_CLIENT, 0x20);
	ASSERT_EQ(0, live_state_set(&now, LIVE_CLIENT, 0x30, "NAME", "new"));
	t = text_of(&old, &now);
	ASSERT_NE(NULL, t);
	EXPECT_STREQ("CLIENT 10\r\nENGINE.render=7500\r\nMEM.system=64\r\n"
		     "PID=\r\nEND CLIENT\r\n"
		     "CLIENT 30\r\nNAME=new\r\nEND CLIENT\r\n"
		     "DELETE 20\r\n", t);
	free(t);
	/* Nothing changed: nothing written. */
	t = text_of(&now, &now);
	ASSERT_NE(NULL, t);
	EXPECT_STREQ("", t);
	free(t);
	live_state_free(&old);
	live_state_free(&now);
}

TEST(write_diff_id_moved_to_another_type)
{
	struct live_state old = { 0 }, now = { 0 };
	char *t;

	/* The client's id now names an engine: its block replaces the
	 * client at the other end, and no DELETE undoes it. */
	ASSERT_EQ(0, live_state_set(&old, LIVE_CLIENT, 0x44, "NAME", "c"));
	ASSERT_EQ(0, live_state_add(&now, LIVE_ENGINE, 0x44) ? 0 : -1);
	t = text_of(&old, &now);
	ASSERT_NE(NULL, t);
	EXPECT_STREQ("ENGINE 44\r\nEND ENGINE\r\n", t);
	free(t);
	live_state_free(&old);
	live_state_free(&now);
}

TEST(copy_is_deep)
{
	struct live_state a = { 0 }, b = { 0 };
	char *t;

	ASSERT_EQ(0, make_state(&a));
	a.time_ns = 42;
	ASSERT_EQ(0, live_state_set(&b, LIVE_HEAP, 9, "OLD", "1"));
	ASSERT_EQ(0, live_state_copy(&b, &a));
	EXPECT_EQ(42, b.time_ns);
	ASSERT_EQ(0, live_state_set(&a, LIVE_CLIENT, 0x10, "NAME", "changed"));
	live_state_delete(&a, LIVE_HEAP, 5);
	t = text_of(NULL, &b);
	ASSERT_NE(NULL, t);
	EXPECT_STREQ(full_text, t);
	free(t);
	live_state_free(&a);
	live_state_free(&b);
}

static void engine(struct drm_fdinfo *fi, const char *name, bool busy,
		   uint64_t ns)
{
	struct drm_fdinfo_engine *e = &fi->engine[fi->nr_engines++];

	snprintf(e->name, sizeof(e->name), "%s", name);
	e->busy_ns = ns;
	e->has_busy = busy;
	e->has_cycles = !busy;
	e->capacity = 1;
}

/* One amount of region @name, the region added if new. */
static void region(struct drm_fdinfo *fi, const char *name,
		   enum drm_fdinfo_mem kind, uint64_t bytes)
{
	struct drm_fdinfo_region *r = NULL;
	unsigned int i;

	for (i = 0; i < fi->nr_regions; i++)
		if (!strcmp(fi->region[i].name, name))
			r = &fi->region[i];
	if (!r) {
		r = &fi->region[fi->nr_regions++];
		snprintf(r->name, sizeof(r->name), "%s", name);
	}
	r->bytes[kind] = bytes;
	r->has[kind] = true;
}

/* FNV-1a 64 of "ENGINE 0000:03:00.0/gfx", "ENGINE 0000:03:00.0/dec=x",
 * "HEAP 0000:03:00.0/vram". */
#define ID_GFX		0x2a9f4871d0a67d20ull
#define ID_DEC		0x9b7c5bd5e18f413eull
#define ID_VRAM		0x022ba7dc0a16bda3ull

TEST(state_from_a_scan)
{
	struct gpu_client c[2];
	struct gpu_device d;
	struct gpu_clients s;
	struct live_state st = { 0 };
	char *t;

	memset(c, 0, sizeof(c));
	memset(&d, 0, sizeof(d));
	memset(&s, 0, sizeof(s));
	c[0].id = 0x2a;
	c[0].pid = 4321;
	memcpy(c[0].comm, "my app\x01", 8);
	strcpy(c[0].fi.driver, "amdgpu");
	strcpy(c[0].fi.pdev, "0000:03:00.0");
	/* drm-client-name: any printable ASCII, '=' too; c[1] has none. */
	strcpy(c[0].fi.client_name, "ui=main");
	c[0].fi.has_client_name = true;
	engine(&c[0].fi, "gfx", true, 5);
	engine(&c[0].fi, "dec=x", false, 0);	/* cycles only: no ns */
	region(&c[0].fi, "vram", DRM_MEM_TOTAL, 2048);
	region(&c[0].fi, "vram", DRM_MEM_RESIDENT, 1024);
	region(&c[0].fi, "gtt", DRM_MEM_TOTAL, 300);
	region(&c[0].fi, "cpu", DRM_MEM_SHARED, 77);	/* no amount kept */
	c[0].util_x100[0] = 1234;
	c[0].util_x100[1] = 50;
	c[0].has_util = true;
	/* Its id is the gfx engine's hash: the engine steps aside. */
	c[1].id = ID_GFX;
	c[1].pid = 7;
	strcpy(c[1].fi.driver, "amdgpu");

	strcpy(d.driver, "amdgpu");
	strcpy(d.pdev, "0000:03:00.0");
	strcpy(d.engine[0], "gfx");
	d.util_x100[0] = 1234;
	strcpy(d.engine[1], "dec=x");
	d.util_x100[1] = 50;
	d.nr_engines = 2;
	strcpy(d.region[0], "vram");
	d.bytes[0] = 1024;
	d.nr_regions = 1;
	s.clients = c;
	s.nr_clients = 2;
	s.devices = &d;
	s.nr_devices = 1;
	s.scan_ns = 99;

	ASSERT_EQ(0, live_state_set(&st, LIVE_HEAP, 1, "STALE", "1"));
	ASSERT_EQ(0, live_state_from_clients(&st, &s));
	EXPECT_EQ(99, st.time_ns);
	EXPECT_EQ(ID_GFX + 1, st.obj[2].id);
	t = text_of(NULL, &st);
	ASSERT_NE(NULL, t);
	EXPECT_STREQ("CLIENT 2a\r\nNAME=my_app_\r\nPID=4321\r\nDRIVER=amdgpu\r\n"
		     "PDEV=0000:03:00.0\r\nCLIENT_NAME=ui=main\r\n"
		     "ENGINE.gfx=5\r\nUTIL.gfx=1234\r\n"
		     "UTIL.dec_x=50\r\nMEM.vram=1024\r\nMEM.gtt=300\r\n"
		     "END CLIENT\r\n"
		     "CLIENT 2a9f4871d0a67d20\r\nPID=7\r\nDRIVER=amdgpu\r\n"
		     "END CLIENT\r\n"
		     "ENGINE 2a9f4871d0a67d21\r\nNAME=0000:03:00.0/gfx\r\n"
		     "UTIL=1234\r\nEND ENGINE\r\n"
		     "ENGINE 9b7c5bd5e18f413e\r\nNAME=0000:03:00.0/dec=x\r\n"
		     "UTIL=50\r\nEND ENGINE\r\n"
		     "HEAP 22ba7dc0a16bda3\r\nNAME=0000:03:00.0/vram\r\n"
		     "SIZE=1024\r\nEND HEAP\r\n", t);
	free(t);
	EXPECT_NE(NULL, live_state_find(&st, LIVE_HEAP, ID_VRAM));
	EXPECT_NE(NULL, live_state_find(&st, LIVE_ENGINE, ID_DEC));
	live_state_free(&st);
}

/* Server and client */

static int tcp_connect(unsigned int port)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct timeval tv = { .tv_sec = 10 };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Send @req and read until @end has come (or EOF): the text in @buf. */
static int exchange(int fd, const char *req, const char *end, char *buf,
		    size_t size)
{
	size_t len = 0;

	if (*req && send(fd, req, strlen(req), MSG_NOSIGNAL) != (ssize_t)strlen(req))
		return -1;
	buf[0] = '\0';
	while (len + 1 < size) {
		ssize_t n = recv(fd, buf + len, size - 1 - len, 0);

		if (n <= 0)
			break;
		len += n;
		buf[len] = '\0';
		if (len >= strlen(end) && !strcmp(buf + len - strlen(end), end))
			return 0;
	}
	return -1;
}

FIXTURE(live) {
	struct live_server *srv;
	unsigned int port;
	struct live_state st;
	char where[64];
	char buf[16384];
};

FIXTURE_SETUP(live)
{
	memset(&self->st, 0, sizeof(self->st));
	self->srv = live_server_start("0", "test-server", &self->port);
	ASSERT_NE(NULL, self->srv);
	ASSERT_NE(0, self->port);
	snprintf(self->where, sizeof(self->where), "127.0.0.1:%u", self->port);
	ASSERT_EQ(0, make_state(&self->st));
	ASSERT_EQ(0, live_server_publish(self->srv, &self->st));
}

FIXTURE_TEARDOWN(live)
{
	live_server_stop(self->srv);
	live_state_free(&self->st);
}

static const char hello_text[] = "HELLO 1 test-server\r\n"
	"CLIENT 10\r\nNAME=glxgears\r\nPID=100\r\nENGINE.render=5000\r\n"
	"END CLIENT\r\n"
	"CLIENT 20\r\nNAME=vkcube\r\nPID=200\r\nEND CLIENT\r\n"
	"ENGINE abcdef0123456789\r\nNAME=0000:00:02.0/render\r\nUTIL=1200\r\n"
	"END ENGINE\r\n"
	"HEAP 5\r\nNAME=0000:00:02.0/system\r\nSIZE=4096\r\nEND HEAP\r\n"
	"END HELLO\r\n";

TEST_F(live, hello_update_delete_on_the_wire)
{
	int fd = tcp_connect(self->port);

	ASSERT_LE(0, fd);
	/* The lower version of the two is answered. */
	ASSERT_EQ(0, exchange(fd, "HELLO 3 raw\r\n", "END HELLO\r\n",
			      self->buf, sizeof(self->buf)));
	EXPECT_STREQ(hello_text, self->buf);
	ASSERT_EQ(0, live_state_set(&self->st, LIVE_ENGINE,
				    0xabcdef0123456789ull, "UTIL", "1300"));
	live_state_delete(&self->st, LIVE_CLIENT, 0x20);
	ASSERT_EQ(0, live_server_publish(self->srv, &self->st));
	ASSERT_EQ(0, exchange(fd, "UPDATE\r\n", "END UPDATE\r\n", self->buf,
			      sizeof(self->buf)));
	EXPECT_STREQ("UPDATE\r\nENGINE abcdef0123456789\r\nUTIL=1300\r\n"
		     "END ENGINE\r\nDELETE 20\r\nEND UPDATE\r\n", self->buf);
	/* Nothing new since: an empty update. */
	ASSERT_EQ(0, exchange(fd, "UPDATE\r\n", "END UPDATE\r\n", self->buf,
			      sizeof(self->buf)));
	EXPECT_STREQ("UPDATE\r\nEND UPDATE\r\n", self->buf);
	/* GOODBYE: the server closes, saying nothing. */
	EXPECT_EQ(-1, exchange(fd, "GOODBYE\r\n", "never", self->buf,
			       sizeof(self->buf)));
	EXPECT_STREQ("", self->buf);
	close(fd);
}

TEST_F(live, client_follows_the_server)
{
	struct live_client *c = live_client_connect(self->where, "tester");
	struct live_state got = { 0 };
	char *want, *have;

	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, live_client_poll(c, &got));
	want = text_of(NULL, &self->st);
	have = text_of(NULL, &got);
	EXPECT_STREQ(want, have);
	free(want);
	free(have);
	EXPECT_NE(0, got.time_ns);

	ASSERT_EQ(0, live_state_set(&self->st, LIVE_CLIENT, 0x10, "PID", ""));
	ASSERT_EQ(0, live_state_set(&self->st, LIVE_CLIENT, 0x10, "MEM.lmem",
				    "8"));
	live_state_delete(&self->st, LIVE_HEAP, 5);
	ASSERT_EQ(0, live_state_set(&self->st, LIVE_HEAP, 6, "NAME", "x/y"));
	ASSERT_EQ(0, live_server_publish(self->srv, &self->st));
	ASSERT_EQ(0, live_client_poll(c, &got));
	want = text_of(NULL, &self->st);
	have = text_of(NULL, &got);
	EXPECT_STREQ(want, have);
	free(want);
	free(have);
	live_client_close(c);
	live_state_free(&got);
}

/* Whether the name "localhost" resolves here. */
static bool has_localhost(void)
{
	struct addrinfo *ai;

	if (getaddrinfo("localhost", NULL, NULL, &ai))
		return false;
	freeaddrinfo(ai);
	return true;
}

TEST_F(live, client_by_host_name_and_ipv6)
{
	struct live_state got = { 0 };
	struct live_server *srv6;
	struct live_client *c;
	char where[64];
	unsigned int port;

	/*
	 * "localhost" may give ::1 first: the client tries each address.
	 * A root without /etc/hosts (a debootstrap chroot) has no such
	 * name: then only the numeric addresses are tried.
	 */
	if (!has_localhost()) {
		TH_LOG("no name localhost here (no /etc/hosts?): not tried");
	} else {
		snprintf(where, sizeof(where), "localhost:%u", self->port);
		c = live_client_connect(where, "tester");
		ASSERT_NE(NULL, c);
		EXPECT_EQ(0, live_client_poll(c, &got));
		EXPECT_EQ(self->st.nr, got.nr);
		live_client_close(c);
	}

	srv6 = live_server_start("[::1]:0", "six", &port);
	if (!srv6) {
		live_state_free(&got);
		SKIP(return, "no IPv6 loopback here");
	}
	ASSERT_EQ(0, live_server_publish(srv6, &self->st));
	snprintf(where, sizeof(where), "[::1]:%u", port);
	c = live_client_connect(where, "tester");
	ASSERT_NE(NULL, c);
	EXPECT_EQ(0, live_client_poll(c, &got));
	EXPECT_EQ(self->st.nr, got.nr);
	live_client_close(c);
	live_server_stop(srv6);
	live_state_free(&got);
}

TEST_F(live, client_sees_the_server_go)
{
	struct live_client *c = live_client_connect(self->where, "tester");
	struct live_state got = { 0 };

	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, live_client_poll(c, &got));
	live_server_stop(self->srv);
	self->srv = NULL;
	EXPECT_EQ(-1, live_client_poll(c, &got));
	/* Failed once, failed for good. */
	EXPECT_EQ(-1, live_client_poll(c, &got));
	live_client_close(c);
	live_state_free(&got);
}

TEST(bad_arguments)
{
	unsigned int port;

	EXPECT_EQ(NULL, live_server_start("0", "two words", &port));
	EXPECT_EQ(NULL, live_server_start("0", "", &port));
	EXPECT_EQ(NULL, live_server_start("::1:0", "x", &port));
	EXPECT_EQ(NULL, live_server_start("70000", "x", &port));
	EXPECT_EQ(NULL, live_client_connect("1234", "x"));
	EXPECT_EQ(NULL, live_client_connect("127.0.0.1:1", "two words"));
}

/*
 * The client against a hand-driven server: a listening socket whose
 * connection is accepted after live_client_connect() and answered with
 * canned text.
 */
FIXTURE(fake) {
	int lfd, fd;
	struct live_client *c;
	struct live_state st;
};

FIXTURE_SETUP(fake)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	socklen_t sl = sizeof(sa);
	char where[64], hello[64];
	ssize_t n;

	memset(&self->st, 0, sizeof(self->st));
	self->lfd = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_LE(0, self->lfd);
	ASSERT_EQ(0, bind(self->lfd, (struct sockaddr *)&sa, sizeof(sa)));
	ASSERT_EQ(0, listen(self->lfd, 1));
	ASSERT_EQ(0, getsockname(self->lfd, (struct sockaddr *)&sa, &sl));
	snprintf(where, sizeof(where), "127.0.0.1:%u", ntohs(sa.sin_port));
	self->c = live_client_connect(where, "me");
	ASSERT_NE(NULL, self->c);
	self->fd = accept(self->lfd, NULL, NULL);
	ASSERT_LE(0, self->fd);
	n = recv(self->fd, hello, sizeof(hello) - 1, 0);
	ASSERT_EQ(12, n);
	hello[n] = '\0';
	EXPECT_STREQ("HELLO 1 me\r\n", hello);
}

FIXTURE_TEARDOWN(fake)
{
	live_client_close(self->c);
	close(self->fd);
	close(self->lfd);
	live_state_free(&self->st);
}

static int answer(int fd, const char *text)
{
	size_t n = strlen(text);

	return send(fd, text, n, MSG_NOSIGNAL) == (ssize_t)n ? 0 : -1;
}

TEST_F(fake, blank_lines_and_spaces_in_replies_are_fine)
{
	ASSERT_EQ(0, answer(self->fd, "\r\nHELLO  1   srv \r\n"
			    "CLIENT  a\r\n\r\nNAME=x\r\nEND   CLIENT\r\n"
			    "HEAP 1b\r\nEND HEAP\r\nEND HELLO\r\n"));
	ASSERT_EQ(0, live_client_poll(self->c, &self->st));
	ASSERT_EQ(2, self->st.nr);
	EXPECT_STREQ("x", live_object_get(&self->st.obj[0], "NAME"));
	EXPECT_EQ(0x1b, self->st.obj[1].id);
	EXPECT_EQ(0, self->st.obj[1].nr_attrs);
}

TEST_F(fake, update_applies_changes_and_deletes)
{
	char req[16];

	ASSERT_EQ(0, answer(self->fd, "HELLO 1 srv\r\nCLIENT 1\r\nA=1\r\nB=2\r\n"
			    "END CLIENT\r\nCLIENT 2\r\nA=9\r\nEND CLIENT\r\n"
			    "END HELLO\r\n"));
	ASSERT_EQ(0, live_client_poll(self->c, &self->st));
	/* An engine takes client 2's id: its block replaces the client. */
	ASSERT_EQ(0, answer(self->fd, "UPDATE\r\nCLIENT 1\r\nA=5\r\nB=\r\n"
			    "END CLIENT\r\nENGINE 2\r\nU=3\r\nEND ENGINE\r\n"
			    "HEAP 7\r\nS=1\r\nEND HEAP\r\nDELETE 7\r\n"
			    "END UPDATE\r\n"));
	ASSERT_EQ(0, live_client_poll(self->c, &self->st));
	ASSERT_EQ(8, recv(self->fd, req, sizeof(req), 0));
	ASSERT_EQ(2, self->st.nr);
	EXPECT_STREQ("5", live_object_get(&self->st.obj[0], "A"));
	EXPECT_EQ(NULL, live_object_get(&self->st.obj[0], "B"));
	EXPECT_EQ(LIVE_ENGINE, self->st.obj[1].type);
	EXPECT_EQ(2, self->st.obj[1].id);
	EXPECT_STREQ("3", live_object_get(&self->st.obj[1], "U"));
	EXPECT_EQ(NULL, live_object_get(&self->st.obj[1], "A"));
}

/* Each reply must be refused, and the client then stays failed. */
static const char *const bad_replies[] = {
	"ERROR MEMORY\r\n",
	"HELLO 1 srv\r\nERROR going away\r\n",
	"HELLO 2 srv\r\nEND HELLO\r\n",			/* not our version */
	"HELLO 0 srv\r\nEND HELLO\r\n",
	"HELLO 1\r\nEND HELLO\r\n",
	"UPDATE\r\nEND UPDATE\r\n",			/* HELLO expected */
	"HELLO 1 srv\r\nEND UPDATE\r\n",
	"HELLO 1 srv\r\nFOO 1\r\nEND HELLO\r\n",
	"HELLO 1 srv\r\nCLIENT 1\r\nEND ENGINE\r\nEND HELLO\r\n",
	"HELLO 1 srv\r\nCLIENT 1\r\nNOEQUALS\r\nEND CLIENT\r\nEND HELLO\r\n",
	"HELLO 1 srv\r\nCLIENT 1\r\n=v\r\nEND CLIENT\r\nEND HELLO\r\n",
	"HELLO 1 srv\r\nCLIENT 1\r\nA=1 2\r\nEND CLIENT\r\nEND HELLO\r\n",
	"HELLO 1 srv\r\nCLIENT 12345678901234567\r\nEND CLIENT\r\nEND HELLO\r\n",
	"HELLO 1 srv\r\nCLIENT 0x1\r\nEND CLIENT\r\nEND HELLO\r\n",
	"HELLO 1 srv\r\nDELETE 1\r\nEND HELLO\r\n",	/* only in UPDATE */
	"HELLO 1 srv\r\nEND HELLO\n",
	"HELLO 1 srv\r\nCLIENT\t1\r\n",
	"HELLO 1 srv\r\n",				/* then EOF */
	"",						/* EOF at once */
};

TEST_F(fake, broken_replies_fail)
{
	unsigned int i;

	for (i = 0; i < sizeof(bad_replies) / sizeof(*bad_replies); i++) {
		char where[64];
		struct sockaddr_in sa;
		socklen_t sl = sizeof(sa);
		char hello[64];

		ASSERT_EQ(0, answer(self->fd, bad_replies[i]));
		shutdown(self->fd, SHUT_WR);
		EXPECT_EQ(-1, live_client_poll(self->c, &self->st))
			TH_LOG("reply %u accepted", i);
		EXPECT_EQ(-1, live_client_poll(self->c, &self->st));
		/* A new connection for the next reply. */
		live_client_close(self->c);
		close(self->fd);
		ASSERT_EQ(0, getsockname(self->lfd, (struct sockaddr *)&sa, &sl));
		snprintf(where, sizeof(where), "127.0.0.1:%u", ntohs(sa.sin_port));
		self->c = live_client_connect(where, "me");
		ASSERT_NE(NULL, self->c);
		self->fd = accept(self->lfd, NULL, NULL);
		ASSERT_LE(0, self->fd);
		ASSERT_EQ(12, recv(self->fd, hello, sizeof(hello), 0));
	}
}

TEST_F(fake, delete_of_an_unknown_id_fails)
{
	ASSERT_EQ(0, answer(self->fd, "HELLO 1 srv\r\nCLIENT 1\r\nEND CLIENT\r\n"
			    "END HELLO\r\n"));
	ASSERT_EQ(0, live_client_poll(self->c, &self->st));
	/* The server lost track of what we hold: we cannot follow it. */
	ASSERT_EQ(0, answer(self->fd, "UPDATE\r\nDELETE 2\r\nEND UPDATE\r\n"));
	EXPECT_EQ(-1, live_client_poll(self->c, &self->st));
}

TEST_F(fake, line_over_the_bound_fails)
{
	char line[LIVE_LINE_MAX + 2];

	/* "A=", 1021 bytes of value and \r\n: 1025 bytes. */
	ASSERT_EQ(0, answer(self->fd, "HELLO 1 srv\r\nCLIENT 1\r\n"));
	memset(line, 'v', sizeof(line));
	memcpy(line, "A=", 2);
	memcpy(line + LIVE_LINE_MAX - 1, "\r\n", 3);
	ASSERT_EQ(LIVE_LINE_MAX + 1, strlen(line));
	ASSERT_EQ(0, answer(self->fd, line));
	EXPECT_EQ(-1, live_client_poll(self->c, &self->st));
}

TEST_F(fake, value_over_its_bound_fails)
{
	char line[LIVE_VALUE_MAX + 8];

	/* Within a line, but more than a value may hold. */
	ASSERT_EQ(0, answer(self->fd, "HELLO 1 srv\r\nCLIENT 1\r\n"));
	memset(line, 'v', sizeof(line));
	memcpy(line, "A=", 2);
	memcpy(line + LIVE_VALUE_MAX + 2, "\r\n", 3);
	ASSERT_EQ(0, answer(self->fd, line));
	ASSERT_EQ(0, answer(self->fd, "END CLIENT\r\nEND HELLO\r\n"));
	EXPECT_EQ(-1, live_client_poll(self->c, &self->st));
}

TEST_HARNESS_MAIN
