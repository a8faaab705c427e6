// SPDX-License-Identifier: GPL-2.0-only
/*
 * Parsing the [HOST:]PORT of --listen and --connect (see live/addr.h).
 * Only the shape is checked here; getaddrinfo() says whether the host
 * exists.
 */
#include <string.h>

#include "live/addr.h"

static int parse_port(const char *s, char port[LIVE_PORT_MAX])
{
	size_t n = strlen(s), i;
	unsigned long v = 0;

	if (!n || n > 5)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	if (v > 65535)
		return -1;
	memcpy(port, s, n + 1);
	return 0;
}

int live_addr_parse(const char *where, char host[LIVE_HOST_MAX],
		    char port[LIVE_PORT_MAX])
{
	const char *colon, *end;
	size_t n;

	host[0] = '\0';
	if (where[0] == '[') {
		end = strchr(where, ']');
		if (!end || end[1] != ':')
			return -1;
		n = end - where - 1;
		colon = end + 1;
		where++;
	} else {
		colon = strrchr(where, ':');
		if (!colon)
			return parse_port(where, port);
		n = colon - where;
		/* A bare IPv6 address: its last colon is not the port's. */
		if (memchr(where, ':', n))
			return -1;
	}
	if (!n || n >= LIVE_HOST_MAX)
		return -1;
	memcpy(host, where, n);
	host[n] = '\0';
	return parse_port(colon + 1, port);
}
