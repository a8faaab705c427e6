/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where the live protocol listens or connects: "PORT", "HOST:PORT" or
 * "[IPV6]:PORT" (an IPv6 address has colons of its own, hence the
 * brackets).  Shared by the server (--listen) and the client (--connect).
 */
#ifndef PERF_GPU_LIVE_ADDR_H
#define PERF_GPU_LIVE_ADDR_H

#include <stddef.h>

#define LIVE_HOST_MAX	256
#define LIVE_PORT_MAX	8

/*
 * Split @where into @host ("" when only a port is given) and @port (1 to
 * 5 digits, at most 65535).  0, or -1 when @where is none of the forms.
 */
int live_addr_parse(const char *where, char host[LIVE_HOST_MAX],
		    char port[LIVE_PORT_MAX]);

#endif
