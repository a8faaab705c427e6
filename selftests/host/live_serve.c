// SPDX-License-Identifier: GPL-2.0-only
/*
 * A live protocol server for the conformance tests (live_conformance.py),
 * not a test itself: the server code of perf gpu top --listen serving a
 * state the tests know, made with live_state_from_clients() from a
 * hand-made scan, so the tests can expect exact text.
 *
 *   live_serve [WHERE]        WHERE as for --listen, "0" by default
 *
 * Prints "port N" when listening and "gen K" once generation K is
 * published: SIGUSR1 moves to the next one; SIGTERM or SIGINT stops.
 * Generation K (K from 0):
 *   client 0x10, pid 100, comm "glx gears", i915 at 0000:00:02.0: render
 *     busy 1000000 + 500000 K ns, video busy 0; utilisation render
 *     2500 + 100 K, video 0; system memory 4096 resident
 *   client 0x20, pid 200, comm "vkcube", same device, K even only:
 *     render busy 7000000 ns, no utilisation yet; system memory 8192
 *   the device: render 2500 + 100 K, video 0; system 4096 (+ 8192 when
 *     the second client is there)
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/perf-gpu/live/proto.h"

#define PDEV "0000:00:02.0"

static void set_engine(struct drm_fdinfo *fi, const char *name, uint64_t busy)
{
	struct drm_fdinfo_engine *e = &fi->engine[fi->nr_engines++];

	snprintf(e->name, sizeof(e->name), "%s", name);
	e->busy_ns = busy;
	e->capacity = 1;
	e->has_busy = true;
}

static void set_region(struct drm_fdinfo *fi, const char *name, uint64_t bytes)
{
	struct drm_fdinfo_region *r = &fi->region[fi->nr_regions++];

	snprintf(r->name, sizeof(r->name), "%s", name);
	r->bytes[DRM_MEM_RESIDENT] = bytes;
	r->has[DRM_MEM_RESIDENT] = true;
}

static void set_client(struct gpu_client *c, uint64_t id, int pid,
		       const char *comm)
{
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->pid = pid;
	snprintf(c->comm, sizeof(c->comm), "%s", comm);
	strcpy(c->fi.driver, "i915");
	strcpy(c->fi.pdev, PDEV);
	c->nr_fds = 1;
}

static void make_scan(struct gpu_clients *s, struct gpu_client *clients,
		      struct gpu_device *dev, unsigned int k)
{
	bool second = !(k % 2);

	memset(s, 0, sizeof(*s));
	memset(dev, 0, sizeof(*dev));
	set_client(&clients[0], 0x10, 100, "glx gears");
	set_engine(&clients[0].fi, "render", 1000000 + 500000ull * k);
	set_engine(&clients[0].fi, "video", 0);
	set_region(&clients[0].fi, "system", 4096);
	clients[0].util_x100[0] = 2500 + 100 * k;
	clients[0].has_util = true;
	set_client(&clients[1], 0x20, 200, "vkcube");
	set_engine(&clients[1].fi, "render", 7000000);
	set_region(&clients[1].fi, "system", 8192);

	strcpy(dev->driver, "i915");
	strcpy(dev->pdev, PDEV);
	dev->nr_clients = second ? 2 : 1;
	strcpy(dev->engine[0], "render");
	dev->util_x100[0] = 2500 + 100 * k;
	strcpy(dev->engine[1], "video");
	dev->nr_engines = 2;
	strcpy(dev->region[0], "system");
	dev->bytes[0] = 4096 + (second ? 8192 : 0);
	dev->nr_regions = 1;

	s->clients = clients;
	s->nr_clients = second ? 2 : 1;
	s->devices = dev;
	s->nr_devices = 1;
}

static int publish(struct live_server *srv, unsigned int k)
{
	struct gpu_client clients[2];
	struct live_state st = { 0 };
	struct gpu_device dev;
	struct gpu_clients s;
	int err;

	make_scan(&s, clients, &dev, k);
	err = live_state_from_clients(&st, &s) || live_server_publish(srv, &st);
	live_state_free(&st);
	if (err) {
		fprintf(stderr, "live_serve: cannot publish generation %u\n", k);
		return -1;
	}
	printf("gen %u\n", k);
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	struct live_server *srv;
	unsigned int port, k = 0;
	sigset_t set;
	int sig;

	/* Blocked before the server thread starts, so that it inherits the
	 * mask and the signals come to sigwait() below. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	srv = live_server_start(argc > 1 ? argv[1] : "0", "live-serve", &port);
	if (!srv)
		return 1;
	printf("port %u\n", port);
	fflush(stdout);
	if (publish(srv, k))
		goto out;
	while (!sigwait(&set, &sig) && sig == SIGUSR1)
		if (publish(srv, ++k))
			break;
out:
	live_server_stop(srv);
	return 0;
}
