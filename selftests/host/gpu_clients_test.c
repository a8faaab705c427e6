// SPDX-License-Identifier: GPL-2.0-only
/*
 * The GPU clients of tools/perf-gpu/drm/clients.c on fake proc roots:
 * directories PID/fdinfo/FD holding texts as i915, amdgpu, xe, msm and
 * panfrost print them (written after Documentation/gpu/drm-usage-stats.rst
 * and the drivers' show_fdinfo code, values our own), PID/comm, and in
 * some PID/fd/FD links.  Two scans at times the test sets (now_ns) with
 * counters advanced in between give utilisations worked out by hand.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/files.h"
#include "../../tools/perf-gpu/drm/clients.h"

#define SEC	1000000000ull

static char root[] = "/tmp/gpu_clients_test.XXXXXX";

static void mkdirf(const char *fmt, ...)
{
	char path[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (mkdir(path, 0755) && errno != EEXIST) {
		perror(path);
		abort();
	}
}

/* A process: PID/fdinfo and PID/comm ("name\n" as the kernel has it). */
static void proc(int pid, const char *comm)
{
	char text[64];

	mkdirf("%s/%d", root, pid);
	mkdirf("%s/%d/fdinfo", root, pid);
	if (comm) {
		snprintf(text, sizeof(text), "%s\n", comm);
		put_file(text, "%s/%d/comm", root, pid);
	}
}

static void fdinfo(int pid, int fd, const char *fmt, ...)
{
	char text[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	put_file(text, "%s/%d/fdinfo/%d", root, pid, fd);
}

static void fd_link(int pid, int fd, const char *target)
{
	char path[512];

	mkdirf("%s/%d/fd", root, pid);
	snprintf(path, sizeof(path), "%s/%d/fd/%d", root, pid, fd);
	unlink(path);
	if (symlink(target, path)) {
		perror(path);
		abort();
	}
}

static void rm(const char *fmt, ...)
{
	char path[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (remove(path)) {
		perror(path);
		abort();
	}
}

/* The generic lines every fdinfo starts with. */
#define GENERIC "pos:\t0\nflags:\t02100002\nmnt_id:\t25\nino:\t1042\n"

/* i915 (i915_drm_client.c): busy ns per engine class, capacity if > 1. */
static void i915(int pid, int fd, unsigned int id, unsigned long long render,
		 unsigned long long video)
{
	fdinfo(pid, fd, GENERIC
	       "drm-driver:\ti915\n"
	       "drm-pdev:\t0000:00:02.0\n"
	       "drm-client-id:\t%u\n"
	       "drm-engine-render:\t%llu ns\n"
	       "drm-engine-copy:\t0 ns\n"
	       "drm-engine-video:\t%llu ns\n"
	       "drm-engine-capacity-video:\t2\n"
	       "drm-engine-video-enhance:\t0 ns\n", id, render, video);
}

/* amdgpu 6.1: the stray space before the tab of gtt and cpu. */
static void amdgpu(int pid, int fd, unsigned long long id,
		   unsigned long long gfx, unsigned long long vram_kib)
{
	fdinfo(pid, fd, GENERIC
	       "pasid:\t32770\n"
	       "drm-driver:\tamdgpu\n"
	       "drm-pdev:\t0000:0b:00.0\n"
	       "drm-client-id:\t%llu\n"
	       "drm-memory-vram:\t%llu KiB\n"
	       "drm-memory-gtt: \t2048 KiB\n"
	       "drm-memory-cpu: \t0 KiB\n"
	       "drm-engine-gfx:\t%llu ns\n", id, vram_kib, gfx);
}

/* xe: busy cycles per class against the GPU timestamp; ccs of 4. */
static void xe(int pid, int fd, unsigned int id, unsigned long long rcs,
	       unsigned long long bcs, unsigned long long ccs,
	       unsigned long long ts)
{
	fdinfo(pid, fd, GENERIC
	       "drm-driver:\txe\n"
	       "drm-client-id:\t%u\n"
	       "drm-pdev:\t0000:03:00.0\n"
	       "drm-total-system:\t0\n"
	       "drm-resident-system:\t0\n"
	       "drm-total-vram0:\t23992 KiB\n"
	       "drm-shared-vram0:\t16 MiB\n"
	       "drm-resident-vram0:\t20000 KiB\n"
	       "drm-cycles-rcs:\t%llu\n"
	       "drm-total-cycles-rcs:\t%llu\n"
	       "drm-cycles-bcs:\t%llu\n"
	       "drm-total-cycles-bcs:\t%llu\n"
	       "drm-cycles-ccs:\t%llu\n"
	       "drm-total-cycles-ccs:\t%llu\n"
	       "drm-engine-capacity-ccs:\t4\n", id, rcs, ts, bcs, ts, ccs, ts);
}

/* msm 6.1: no pdev; busy ns and cycles with maxfreq. */
static void msm(int pid, int fd, unsigned int id, unsigned long long ns,
		unsigned long long cycles)
{
	fdinfo(pid, fd, "drm-driver:\tmsm\n"
	       "drm-client-id:\t%u\n"
	       "drm-engine-gpu:\t%llu ns\n"
	       "drm-cycles-gpu:\t%llu\n"
	       "drm-maxfreq-gpu:\t800 MHz\n", id, ns, cycles);
}

/* panfrost: busy ns, cycles, maxfreq and curfreq per engine. */
static void panfrost(int pid, int fd, unsigned int id,
		     unsigned long long frag, unsigned long long vt)
{
	fdinfo(pid, fd, GENERIC
	       "drm-driver:\tpanfrost\n"
	       "drm-client-id:\t%u\n"
	       "drm-engine-fragment:\t%llu ns\n"
	       "drm-cycles-fragment:\t%llu\n"
	       "drm-maxfreq-fragment:\t799999987 Hz\n"
	       "drm-curfreq-fragment:\t799999987 Hz\n"
	       "drm-engine-vertex-tiler:\t%llu ns\n"
	       "drm-cycles-vertex-tiler:\t%llu\n"
	       "drm-maxfreq-vertex-tiler:\t799999987 Hz\n"
	       "drm-curfreq-vertex-tiler:\t799999987 Hz\n"
	       "drm-total-memory:\t290 MiB\n"
	       "drm-shared-memory:\t0 MiB\n"
	       "drm-active-memory:\t226 MiB\n"
	       "drm-resident-memory:\t36496 KiB\n"
	       "drm-purgeable-memory:\t128 KiB\n", id, frag, frag / 2, vt, vt / 2);
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

FIXTURE(clients) {
	struct gpu_clients s;
};

FIXTURE_SETUP(clients)
{
	strcpy(root, "/tmp/gpu_clients_test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(root));
	ASSERT_EQ(0, gpu_clients_init(&self->s, root));
}

FIXTURE_TEARDOWN(clients)
{
	gpu_clients_free(&self->s);
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Scan as if at @t seconds (in ns): exact utilisation needs exact time. */
static int scan_at(struct gpu_clients *s, uint64_t t, int32_t pid)
{
	s->now_ns = t;
	return gpu_clients_scan(s, pid);
}

/* The client whose fi says (driver, client_id), or NULL. */
static const struct gpu_client *client(const struct gpu_clients *s,
				       const char *driver, uint64_t id)
{
	unsigned int i;

	for (i = 0; i < s->nr_clients; i++)
		if (!strcmp(s->clients[i].fi.driver, driver) &&
		    s->clients[i].fi.client_id == id)
			return &s->clients[i];
	return NULL;
}

/* The utilisation of @engine of @c, or -1 if it has no such engine. */
static long util(const struct gpu_client *c, const char *engine)
{
	unsigned int i;

	for (i = 0; i < c->fi.nr_engines; i++)
		if (!strcmp(c->fi.engine[i].name, engine))
			return c->util_x100[i];
	return -1;
}

static const struct gpu_device *device(const struct gpu_clients *s,
				       const char *driver)
{
	unsigned int i;

	for (i = 0; i < s->nr_devices; i++)
		if (!strcmp(s->devices[i].driver, driver))
			return &s->devices[i];
	return NULL;
}

static long dev_util(const struct gpu_device *d, const char *engine)
{
	unsigned int i;

	for (i = 0; i < d->nr_engines; i++)
		if (!strcmp(d->engine[i], engine))
			return d->util_x100[i];
	return -1;
}

static long long dev_bytes(const struct gpu_device *d, const char *region)
{
	unsigned int i;

	for (i = 0; i < d->nr_regions; i++)
		if (!strcmp(d->region[i], region))
			return d->bytes[i];
	return -1;
}

/* i915 busy ns over 1 s: render a quarter, video (capacity 2) half. */
TEST_F(clients, i915_busy_ns)
{
	const struct gpu_client *c;
	uint64_t id;

	proc(100, "glxgears");
	i915(100, 4, 7, 5000000000ull, 1000000000ull);
	ASSERT_EQ(0, scan_at(&self->s, 10 * SEC, 0));
	ASSERT_EQ(1, self->s.nr_clients);
	c = &self->s.clients[0];
	EXPECT_FALSE(c->has_util);
	EXPECT_EQ(100, c->pid);
	EXPECT_STREQ("glxgears", c->comm);
	EXPECT_EQ(1, c->nr_fds);
	id = c->id;

	/* 250 ms of render and 1 s of video (of 2 engines) in 1 s. */
	i915(100, 4, 7, 5250000000ull, 2000000000ull);
	ASSERT_EQ(0, scan_at(&self->s, 11 * SEC, 0));
	ASSERT_EQ(1, self->s.nr_clients);
	c = &self->s.clients[0];
	EXPECT_EQ(id, c->id);
	EXPECT_TRUE(c->has_util);
	EXPECT_EQ(2500, util(c, "render"));
	EXPECT_EQ(5000, util(c, "video"));
	EXPECT_EQ(0, util(c, "copy"));
	EXPECT_EQ(0, util(c, "video-enhance"));
	EXPECT_EQ(10 * SEC, self->s.prev_scan_ns);
	EXPECT_EQ(11 * SEC, self->s.scan_ns);
	EXPECT_EQ(c, gpu_clients_find(&self->s, id));
	EXPECT_EQ(NULL, gpu_clients_find(&self->s, id + 1));
}

/* xe: cycles over total cycles; ccs's 4 instances divide. */
TEST_F(clients, xe_total_cycles)
{
	const struct gpu_client *c;

	proc(200, "vkcube");
	xe(200, 9, 3, 1000, 500, 0, 1000000);
	ASSERT_EQ(0, scan_at(&self->s, 5 * SEC, 0));
	/* rcs 1000 of 4000 ticks; ccs 8000 over 4000 ticks of 4 engines. */
	xe(200, 9, 3, 2000, 500, 8000, 1004000);
	/* The wall time plays no part: 3 s or 1 s, the same. */
	ASSERT_EQ(0, scan_at(&self->s, 8 * SEC, 0));
	c = client(&self->s, "xe", 3);
	ASSERT_NE(NULL, c);
	EXPECT_TRUE(c->has_util);
	EXPECT_EQ(2500, util(c, "rcs"));
	EXPECT_EQ(0, util(c, "bcs"));
	EXPECT_EQ(5000, util(c, "ccs"));
}

/* msm and panfrost give ns and cycles: the ns are used. */
TEST_F(clients, ns_before_cycles)
{
	const struct gpu_client *c;

	proc(300, "kmscube");
	msm(300, 3, 1, 0, 0);
	proc(301, "glmark2");
	panfrost(301, 5, 14, 1000000000ull, 0);
	ASSERT_EQ(0, scan_at(&self->s, 2 * SEC, 0));
	/* Over 2 s: msm 0.5 s busy; cycles would say 100%. */
	msm(300, 3, 1, 500000000ull, 1600000000ull);
	/* panfrost fragment 0.2 s, vertex-tiler 1 s. */
	panfrost(301, 5, 14, 1200000000ull, 1000000000ull);
	ASSERT_EQ(0, scan_at(&self->s, 4 * SEC, 0));
	c = client(&self->s, "msm", 1);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(2500, util(c, "gpu"));
	c = client(&self->s, "panfrost", 14);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(1000, util(c, "fragment"));
	EXPECT_EQ(5000, util(c, "vertex-tiler"));
	EXPECT_STREQ("glmark2", c->comm);
}

/* A driver giving only cycles and maxfreq: cycles / (maxfreq * dt). */
TEST_F(clients, cycles_maxfreq)
{
	const struct gpu_client *c;

	proc(400, "compute");
	fdinfo(400, 3, "drm-driver:\tmsm\ndrm-client-id:\t2\n"
	       "drm-cycles-gpu:\t1000\ndrm-maxfreq-gpu:\t800 MHz\n"
	       "drm-cycles-npu:\t0\ndrm-maxfreq-npu:\t1000 KHz\n"
	       "drm-engine-capacity-npu:\t2\n");
	ASSERT_EQ(0, scan_at(&self->s, SEC, 0));
	/* 100e6 cycles at 800 MHz over 0.5 s: a quarter; npu 0.3e6 cycles
	 * at 1 MHz over 0.5 s of 2 engines: 30%. */
	fdinfo(400, 3, "drm-driver:\tmsm\ndrm-client-id:\t2\n"
	       "drm-cycles-gpu:\t100001000\ndrm-maxfreq-gpu:\t800 MHz\n"
	       "drm-cycles-npu:\t300000\ndrm-maxfreq-npu:\t1000 KHz\n"
	       "drm-engine-capacity-npu:\t2\n");
	ASSERT_EQ(0, scan_at(&self->s, SEC + SEC / 2, 0));
	c = client(&self->s, "msm", 2);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(2500, util(c, "gpu"));
	EXPECT_EQ(3000, util(c, "npu"));
}

/* One client in several fds and two processes: counted once. */
TEST_F(clients, shared_and_duplicate_fds)
{
	const struct gpu_client *c;
	const struct gpu_device *d;

	/* Client 7 in fds 4 and 5 of 300 and fd 3 of 200 (passed over a
	 * socket); client 8 in fd 6 of 300 only. */
	proc(300, "server");
	proc(200, "compositor");
	i915(300, 4, 7, 1000, 0);
	i915(300, 5, 7, 1000, 0);
	i915(300, 6, 8, 0, 0);
	i915(200, 3, 7, 1000, 0);
	ASSERT_EQ(0, scan_at(&self->s, SEC, 0));
	EXPECT_EQ(2, self->s.nr_clients);
	EXPECT_EQ(4, self->s.stats.drm_fds);
	EXPECT_EQ(2, self->s.stats.processes);
	c = client(&self->s, "i915", 7);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(3, c->nr_fds);
	/* The lowest pid, whichever order the directory lists them in. */
	EXPECT_EQ(200, c->pid);
	EXPECT_STREQ("compositor", c->comm);
	c = client(&self->s, "i915", 8);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(1, c->nr_fds);
	EXPECT_EQ(300, c->pid);
	EXPECT_STREQ("server", c->comm);
	/* The device counts two clients and sums render once each. */
	i915(300, 4, 7, 2501000, 0);
	i915(300, 5, 7, 2501000, 0);
	i915(200, 3, 7, 2501000, 0);
	i915(300, 6, 8, 1000000, 0);
	ASSERT_EQ(0, scan_at(&self->s, SEC + 10000000, 0));
	ASSERT_EQ(1, self->s.nr_devices);
	d = &self->s.devices[0];
	EXPECT_STREQ("i915", d->driver);
	EXPECT_STREQ("0000:00:02.0", d->pdev);
	EXPECT_EQ(2, d->nr_clients);
	/* 2.5 ms and 1 ms of 10 ms. */
	EXPECT_EQ(2500, util(client(&self->s, "i915", 7), "render"));
	EXPECT_EQ(1000, util(client(&self->s, "i915", 8), "render"));
	EXPECT_EQ(3500, dev_util(d, "render"));
	EXPECT_EQ(4, d->nr_engines);
}

/*
 * Same client id on two devices: two clients of two ids; no id: one
 * client per fd, followed from scan to scan by pid and fd.
 */
TEST_F(clients, identity)
{
	unsigned int i;

	proc(500, "multi");
	i915(500, 3, 5, 0, 0);
	fdinfo(500, 4, "drm-driver:\ti915\ndrm-pdev:\t0000:00:03.0\n"
	       "drm-client-id:\t5\ndrm-engine-render:\t0 ns\n");
	amdgpu(500, 5, 5, 0, 1);
	fdinfo(500, 6, "drm-driver:\tvgem\ndrm-engine-e:\t0 ns\n");
	fdinfo(500, 7, "drm-driver:\tvgem\ndrm-engine-e:\t0 ns\n");
	ASSERT_EQ(0, scan_at(&self->s, SEC, 0));
	ASSERT_EQ(5, self->s.nr_clients);
	for (i = 1; i < self->s.nr_clients; i++)
		EXPECT_LT(self->s.clients[i - 1].id, self->s.clients[i].id);
	EXPECT_EQ(4, self->s.nr_devices);
	/* Devices sorted by driver then pdev. */
	EXPECT_STREQ("amdgpu", self->s.devices[0].driver);
	EXPECT_STREQ("0000:00:02.0", self->s.devices[1].pdev);
	EXPECT_STREQ("0000:00:03.0", self->s.devices[2].pdev);
	EXPECT_STREQ("vgem", self->s.devices[3].driver);
	EXPECT_EQ(2, self->s.devices[3].nr_clients);
	/* fd 6 busy for 0.5 s, fd 7 for 0.25 s of 1 s. */
	fdinfo(500, 6, "drm-driver:\tvgem\ndrm-engine-e:\t500000000 ns\n");
	fdinfo(500, 7, "drm-driver:\tvgem\ndrm-engine-e:\t250000000 ns\n");
	ASSERT_EQ(0, scan_at(&self->s, 2 * SEC, 0));
	ASSERT_EQ(5, self->s.nr_clients);
	EXPECT_EQ(7500, dev_util(device(&self->s, "vgem"), "e"));
	for (i = 0; i < self->s.nr_clients; i++)
		EXPECT_TRUE(self->s.clients[i].has_util);
}

/* Clients are sorted by id; ids stay from one scan to the next. */
TEST_F(clients, many_sorted)
{
	uint64_t ids[600];
	unsigned int i, n;
	int pid;

	for (pid = 1000; pid < 1200; pid++) {
		proc(pid, "app");
		i915(pid, 3, pid * 3, 0, 0);
		xe(pid, 4, pid * 3 + 1, 0, 0, 0, 0);
		amdgpu(pid, 5, pid * 3 + 2, 0, 4);
		amdgpu(pid, 6, pid * 3 + 2, 0, 4);
	}
	ASSERT_EQ(0, scan_at(&self->s, SEC, 0));
	n = self->s.nr_clients;
	ASSERT_EQ(600, n);
	EXPECT_EQ(800, self->s.stats.drm_fds);
	for (i = 0; i < n; i++) {
		ids[i] = self->s.clients[i].id;
		if (i)
			EXPECT_LT(ids[i - 1], ids[i]);
	}
	/* 200 amdgpu clients of 4 KiB of vram each. */
	EXPECT_EQ(200 * 4096, dev_bytes(device(&self->s, "amdgpu"), "vram"));
	EXPECT_EQ(200 * 2048 * 1024, dev_bytes(device(&self->s, "amdgpu"), "gtt"));
	/* xe: resident, not total. */
	EXPECT_EQ(200ll * 20000 * 1024, dev_bytes(device(&self->s, "xe"), "vram0"));
	ASSERT_EQ(0, scan_at(&self->s, 2 * SEC, 0));
	ASSERT_EQ(600, self->s.nr_clients);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(ids[i], self->s.clients[i].id);
		EXPECT_TRUE(self->s.clients[i].has_util);
		EXPECT_EQ(&self->s.clients[i],
			  gpu_clients_find(&self->s, ids[i]));
	}
}

/* A counter going back gives 0 and is held until it catches up. */
TEST_F(clients, counter_backwards)
{
	const struct gpu_client *c;

	proc(600, "app");
	i915(600, 3, 1, 1000000000ull, 0);
	xe(600, 4, 2, 1000, 0, 0, 100000);
	ASSERT_EQ(0, scan_at(&self->s, SEC, 0));
	i915(600, 3, 1, 500000000ull, 0);
	xe(600, 4, 2, 900, 0, 0, 101000);
	ASSERT_EQ(0, scan_at(&self->s, 2 * SEC, 0));
	c = client(&self->s, "i915", 1);
	ASSERT_NE(NULL, c);
	EXPECT_TRUE(c->has_util);
	EXPECT_EQ(0, util(c, "render"));
	EXPECT_EQ(1000000000ull, drm_fdinfo_engine(&c->fi, "render")->busy_ns);
	c = client(&self->s, "xe", 2);
	EXPECT_EQ(0, util(c, "rcs"));
	EXPECT_EQ(1000, drm_fdinfo_engine(&c->fi, "rcs")->cycles);
	/* From the held values: 0.1 s of 1 s; 250 of 1000 ticks. */
	i915(600, 3, 1, 1100000000ull, 0);
	xe(600, 4, 2, 1250, 0, 0, 102000);
	ASSERT_EQ(0, scan_at(&self->s, 3 * SEC, 0));
	c = client(&self->s, "i915", 1);
	EXPECT_EQ(1000, util(c, "render"));
	c = client(&self->s, "xe", 2);
	EXPECT_EQ(2500, util(c, "rcs"));
}

/* Near 2^64, capacities and frequencies that overflow a product. */
TEST_F(clients, huge_values)
{
	const struct gpu_client *c;

	proc(700, "big");
	fdinfo(700, 3, "drm-driver:\tx\ndrm-client-id:\t18446744073709551615\n"
	       "drm-engine-a:\t18446744072709551615 ns\n"
	       "drm-engine-b:\t0 ns\ndrm-engine-capacity-b:\t18446744073709551615\n"
	       "drm-cycles-c:\t0\ndrm-maxfreq-c:\t18446744073709551615 Hz\n"
	       "drm-engine-capacity-c:\t18446744073709551615\n"
	       "drm-cycles-d:\t0\ndrm-maxfreq-d:\t1 Hz\n"
	       "drm-engine-e:\t0 ns\n");
	ASSERT_EQ(0, scan_at(&self->s, 1, 0));
	/* a: 1 s busy in 1 s; b: all of 2^64 - 1 ns over a huge capacity;
	 * c: the denominator overflows 128 bits; d: 2^64 - 1 cycles at
	 * 1 Hz, clamped; e: 1 ns busy in the 1 s. */
	fdinfo(700, 3, "drm-driver:\tx\ndrm-client-id:\t18446744073709551615\n"
	       "drm-engine-a:\t18446744073709551615 ns\n"
	       "drm-engine-b:\t18446744073709551615 ns\n"
	       "drm-engine-capacity-b:\t18446744073709551615\n"
	       "drm-cycles-c:\t18446744073709551615\n"
	       "drm-maxfreq-c:\t18446744073709551615 Hz\n"
	       "drm-engine-capacity-c:\t18446744073709551615\n"
	       "drm-cycles-d:\t18446744073709551615\ndrm-maxfreq-d:\t1 Hz\n"
	       "drm-engine-e:\t1 ns\n");
	ASSERT_EQ(0, scan_at(&self->s, 1 + SEC, 0));
	c = client(&self->s, "x", 18446744073709551615ull);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(10000, util(c, "a"));
	/* (2^64 - 1) * 10000 / (1e9 * (2^64 - 1)) rounds down to 0. */
	EXPECT_EQ(0, util(c, "b"));
	EXPECT_EQ(0, util(c, "c"));
	EXPECT_EQ(10000, util(c, "d"));
	EXPECT_EQ(0, util(c, "e"));
	/* Busier than the wall clock (reads are not simultaneous): 100%. */
	fdinfo(700, 3, "drm-driver:\tx\ndrm-client-id:\t18446744073709551615\n"
	       "drm-engine-e:\t2000000001 ns\n");
	ASSERT_EQ(0, scan_at(&self->s, 1 + 2 * SEC, 0));
	EXPECT_EQ(10000, util(client(&self->s, "x", 18446744073709551615ull), "e"));
}

/* Summed utilisation of a device saturates at 100%. */
TEST_F(clients, device_saturates)
{
	int pid;

	for (pid = 800; pid < 803; pid++) {
		proc(pid, "busy");
		amdgpu(pid, 3, pid, 0, 1);
	}
	ASSERT_EQ(0, scan_at(&self->s, SEC, 0));
	for (pid = 800; pid < 803; pid++)
		amdgpu(pid, 3, pid, 400000000ull, 1);
	ASSERT_EQ(0, scan_at(&self->s, 2 * SEC, 0));
	EXPECT_EQ(4000, util(client(&self->s, "amdgpu", 801), "gfx"));
	EXPECT_EQ(10000, dev_util(device(&self->s, "amdgpu"), "gfx"));
	EXPECT_EQ(3 * 1024, dev_bytes(device(&self->s, "amdgpu"), "vram"));
}

/* Clients come and go between scans. */
TEST_F(clients, come_and_go)
{
	const struct gpu_client *c;

	proc(900, "a");
	proc(901, "b");
	i915(900, 3, 1, 0, 0);
	i915(901, 3, 2, 0, 0);
	ASSERT_EQ(0, scan_at(&self->s, SEC, 0));
	ASSERT_EQ(2, self->s.nr_clients);
	rm("%s/901/fdinfo/3", root);
	rm("%s/901/fdinfo", root);
	rm("%s/901/comm", root);
	rm("%s/901", root);
	i915(900, 4, 3, 0, 0);
	ASSERT_EQ(0, scan_at(&self->s, 2 * SEC, 0));
	ASSERT_EQ(2, self->s.nr_clients);
	EXPECT_EQ(NULL, client(&self->s, "i915", 2));
	c = client(&self->s, "i915", 1);
	ASSERT_NE(NULL, c);
	EXPECT_TRUE(c->has_util);
	c = client(&self->s, "i915", 3);
	ASSERT_NE(NULL, c);
	EXPECT_FALSE(c->has_util);
	EXPECT_EQ(0, self->s.stats.unreadable);
}

/*
 * Processes and fds gone between listing and reading (a pid directory
 * without fdinfo, a dangling fdinfo entry, a link without its text),
 * texts that cannot be read (a directory, a FIFO: no pread), a missing
 * comm, non-DRM fds, malformed lines: counted, never fatal or blocking.
 */
TEST_F(clients, vanished_and_unreadable)
{
	const struct gpu_client *c;
	char path[512];

	mkdirf("%s/1000", root);		/* gone: no fdinfo */
	proc(1001, NULL);			/* no comm */
	i915(1001, 3, 1, 0, 0);
	snprintf(path, sizeof(path), "%s/1001/fdinfo/4", root);
	ASSERT_EQ(0, symlink("/nonexistent", path));
	mkdirf("%s/1001/fdinfo/5", root);	/* read fails: EISDIR */
	fdinfo(1001, 6, GENERIC);		/* not DRM */
	fdinfo(1001, 7, GENERIC "drm-driver:\tbad driver\n"); /* not DRM */
	fdinfo(1001, 8, "flags:\tdrm-driver:\tx\n");	/* not DRM */
	fdinfo(1001, 9, "drm-driver:\tv3d\ndrm-client-id:\t4\nrubbish\n"
	       "drm-engine-render:\tlots ns\n");
	fdinfo(1001, 10, "");
	snprintf(path, sizeof(path), "%s/1001/fdinfo/11", root);
	ASSERT_EQ(0, mkfifo(path, 0644));	/* must not block the scan */
	mkdirf("%s/self", root);		/* not a pid */
	mkdirf("%s/00", root);			/* not a pid */
	mkdirf("%s/99999999999", root);		/* past int32 */
	mkdirf("%s/0000000000001", root);	/* too long for a pid */
	ASSERT_EQ(0, scan_at(&self->s, SEC, 0));
	EXPECT_EQ(2, self->s.nr_clients);
	EXPECT_EQ(2, self->s.stats.processes);
	EXPECT_EQ(4, self->s.stats.unreadable);
	EXPECT_EQ(6, self->s.stats.fds);
	EXPECT_EQ(2, self->s.stats.drm_fds);
	EXPECT_EQ(2, self->s.stats.malformed_lines);
	c = client(&self->s, "i915", 1);
	ASSERT_NE(NULL, c);
	EXPECT_STREQ("", c->comm);
	c = client(&self->s, "v3d", 4);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(0, c->fi.nr_engines);
}

/* The files this process has open. */
static int open_files(void)
{
	struct dirent *d;
	DIR *dir = opendir("/proc/self/fd");
	int n = 0;

	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		n += d->d_name[0] != '.';
	closedir(dir);
	return n - 1;		/* less the listing's own */
}

/* @path's text replaced by a new file renamed over it (a new inode). */
static void i915_renamed(int pid, int fd, unsigned int id)
{
	char tmp[512], path[512];

	i915(pid, 99, id, 0, 0);
	snprintf(tmp, sizeof(tmp), "%s/%d/fdinfo/99", root, pid);
	snprintf(path, sizeof(path), "%s/%d/fdinfo/%d", root, pid, fd);
	if (rename(tmp, path)) {
		perror(path);
		abort();
	}
}

/*
 * The fdinfo of DRM fds and the comm of their process stay open between
 * scans and are read again in place: a text rewritten is seen, a file
 * renamed over one (another inode in the listing) is opened anew, and
 * what the listing no longer shows is closed, as is everything at
 * gpu_clients_free().  Non-DRM fds are not held.  With room for one file
 * only, the scans find the same and hold at most that one (which one
 * depends on the listing's order).
 */
#define EXPECT_HELD(n) do {						\
	if (max >= (n)) {						\
		EXPECT_EQ(base + (n), open_files());			\
	} else {							\
		EXPECT_GE(base + (int)max, open_files());		\
	}								\
} while (0)

static void held_files(struct __test_metadata *_metadata,
		       struct gpu_clients *s, unsigned int max)
{
	int base = open_files();
	const struct gpu_client *c;

	s->held.max = max;
	proc(1200, "first");
	i915(1200, 3, 1, 0, 0);
	i915(1200, 4, 2, 0, 0);
	fdinfo(1200, 5, GENERIC);
	ASSERT_EQ(0, scan_at(s, SEC, 0));
	ASSERT_EQ(2, s->nr_clients);
	EXPECT_HELD(3);

	i915(1200, 3, 1, SEC / 2, 0);		/* in place */
	i915_renamed(1200, 4, 3);
	put_file("second\n", "%s/1200/comm", root);
	ASSERT_EQ(0, scan_at(s, 2 * SEC, 0));
	ASSERT_EQ(2, s->nr_clients);
	c = client(s, "i915", 1);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(5000, util(c, "render"));
	EXPECT_STREQ("second", c->comm);
	EXPECT_EQ(NULL, client(s, "i915", 2));
	EXPECT_NE(NULL, client(s, "i915", 3));
	EXPECT_HELD(3);

	rm("%s/1200/fdinfo/3", root);
	ASSERT_EQ(0, scan_at(s, 3 * SEC, 0));
	ASSERT_EQ(1, s->nr_clients);
	EXPECT_NE(NULL, client(s, "i915", 3));
	EXPECT_HELD(2);

	ASSERT_EQ(0, scan_at(s, 4 * SEC, 0));
	EXPECT_HELD(2);
	gpu_clients_free(s);
	EXPECT_EQ(base, open_files());
	ASSERT_EQ(0, gpu_clients_init(s, root));
}

TEST_F(clients, held_files_follow_the_listing)
{
	held_files(_metadata, &self->s, self->s.held.max);
}

TEST_F(clients, held_files_within_their_limit)
{
	held_files(_metadata, &self->s, 1);
}

/* The highest fd this process has open. */
static int highest_fd(void)
{
	struct dirent *d;
	DIR *dir = opendir("/proc/self/fd");
	int n = -1, fd;

	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		fd = atoi(d->d_name);
		if (d->d_name[0] != '.' && fd != dirfd(dir) && fd > n)
			n = fd;
	}
	closedir(dir);
	return n;
}

/*
 * Out of files (RLIMIT_NOFILE reached, the held files among them): the
 * scan gives the held ones back, holds half as many from then on, and
 * still finds every client.
 */
TEST_F(clients, out_of_files_gives_back_the_held_ones)
{
	struct rlimit old, low;
	int *fill, nr_fill, limit, top;
	unsigned int k;

	proc(1300, "many");
	for (k = 0; k < 4; k++)
		i915(1300, 3 + k, 1 + k, 0, 0);
	ASSERT_EQ(0, scan_at(&self->s, SEC, 0));
	ASSERT_EQ(4, self->s.nr_clients);
	ASSERT_EQ(5, self->s.held.nr);		/* four texts and the comm */

	/*
	 * No fd free under the limit, the gaps below the highest filled:
	 * the next open is EMFILE.
	 */
	top = highest_fd();
	ASSERT_LE(0, top);
	fill = calloc(top + 2, sizeof(*fill));
	ASSERT_NE(NULL, fill);
	for (nr_fill = 0; nr_fill <= top + 1; nr_fill++) {
		fill[nr_fill] = dup(0);
		ASSERT_LE(0, fill[nr_fill]);
		if (fill[nr_fill] > top)
			break;
	}
	ASSERT_GE(top + 1, nr_fill);
	limit = fill[nr_fill];
	close(fill[nr_fill]);
	ASSERT_EQ(0, getrlimit(RLIMIT_NOFILE, &old));
	low = old;
	low.rlim_cur = limit;
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &low));
	ASSERT_GT(0, dup(0));
	EXPECT_EQ(0, scan_at(&self->s, 2 * SEC, 0)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(4, self->s.nr_clients);
	EXPECT_EQ(2, self->s.held.max);
	EXPECT_GE(2, self->s.held.nr);
	EXPECT_EQ(0, self->s.stats.unreadable);
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &old));
	for (k = 0; k < (unsigned int)nr_fill; k++)
		close(fill[k]);
	free(fill);
}

/*
 * A text renamed over again and again while scans run (as the fake roots
 * of top's tests are written), at least 4 versions between two scans: no
 * scan reads a version older than the one before the newest at its
 * start.  A file held under the inode the
 * listing gave, not the one it was opened on, fails here on a filesystem
 * that reuses freed inode numbers (ext4): a rename between listing and
 * open leaves the held file under a number that comes back later.
 */
TEST_F(clients, renamed_over_while_scanned_is_never_stale)
{
	char tmp[512], path[512], text[512];
	volatile uint64_t *done;
	unsigned int scans = 0, wait;
	uint64_t seq, before, t;
	const struct gpu_client *c;
	pid_t kid;

	done = mmap(NULL, sizeof(*done), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, done);
	*done = 0;
	proc(1400, "renamed");
	i915(1400, 3, 1, 0, 0);
	snprintf(tmp, sizeof(tmp), "%s/1400/fdinfo/3.new", root);
	snprintf(path, sizeof(path), "%s/1400/fdinfo/3", root);
	kid = fork();
	ASSERT_LE(0, kid);
	if (!kid) {
		for (seq = 1; seq < 200000; seq++) {
			snprintf(text, sizeof(text), GENERIC
				 "drm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\n"
				 "drm-client-id:\t1\ndrm-engine-render:\t%llu ns\n",
				 (unsigned long long)seq);
			put_file(text, "%s", tmp);
			if (rename(tmp, path))
				_exit(1);
			__atomic_store_n(done, seq, __ATOMIC_RELEASE);
		}
		_exit(0);
	}
	/*
	 * Each scan once the writer has gone at least 4 versions on (or
	 * after 0.2 s), however loaded the machine.
	 */
	for (t = 1; scans < 500; t++) {
		for (wait = 0, before = *done; wait < 2000; wait++) {
			usleep(100);
			if (__atomic_load_n(done, __ATOMIC_ACQUIRE) >= before + 4)
				break;
		}
		before = __atomic_load_n(done, __ATOMIC_ACQUIRE);
		if (before >= 199990)
			break;
		ASSERT_EQ(0, scan_at(&self->s, t * SEC, 0));
		c = client(&self->s, "i915", 1);
		if (!c)
			continue;	/* the name between two renames */
		scans++;
		ASSERT_LE(before ? before - 1 : 0, c->fi.engine[0].busy_ns)
			TH_LOG("scan %u read version %llu, %llu written before it began",
			       scans, (unsigned long long)c->fi.engine[0].busy_ns,
			       (unsigned long long)before);
	}
	kill(kid, SIGKILL);
	waitpid(kid, NULL, 0);
	TH_LOG("%u scans, %llu versions written", scans,
	       (unsigned long long)*done);
	EXPECT_LT(100, scans);
	EXPECT_LE(4 * (uint64_t)scans, *done);
}

/* With PID/fd present its links decide which texts are read at all. */
TEST_F(clients, fd_links)
{
	proc(1100, "linked");
	i915(1100, 3, 1, 0, 0);
	fd_link(1100, 3, "/dev/dri/renderD128");
	i915(1100, 4, 2, 0, 0);
	fd_link(1100, 4, "socket:[4242]");	/* says DRM, is not */
	fdinfo(1100, 5, "drm-driver:\tivpu\ndrm-client-id:\t9\n");
	fd_link(1100, 5, "/dev/accel/accel0");
	i915(1100, 6, 3, 0, 0);			/* no link: fd closed */
	fdinfo(1100, 7, GENERIC);
	fd_link(1100, 7, "/dev/null");
	ASSERT_EQ(0, scan_at(&self->s, SEC, 0));
	EXPECT_EQ(2, self->s.nr_clients);
	EXPECT_NE(NULL, client(&self->s, "i915", 1));
	EXPECT_NE(NULL, client(&self->s, "ivpu", 9));
	EXPECT_EQ(2, self->s.stats.fds);
	EXPECT_EQ(1, self->s.stats.unreadable);
}

/* @pid: that process alone; one gone is no error. */
TEST_F(clients, one_pid)
{
	proc(1200, "a");
	proc(1201, "b");
	i915(1200, 3, 1, 0, 0);
	i915(1201, 3, 2, 0, 0);
	ASSERT_EQ(0, scan_at(&self->s, SEC, 1201));
	ASSERT_EQ(1, self->s.nr_clients);
	EXPECT_EQ(1201, self->s.clients[0].pid);
	EXPECT_EQ(1, self->s.stats.processes);
	ASSERT_EQ(0, scan_at(&self->s, 2 * SEC, 4242));
	EXPECT_EQ(0, self->s.nr_clients);
	EXPECT_EQ(1, self->s.stats.unreadable);
}

/* A text past the read limit is cut at a line, not inside a number. */
TEST_F(clients, long_text)
{
	const char head[] = "drm-driver:\ti915\ndrm-client-id:\t1\n";
	const char tail[] = "drm-engine-render:\t1234567890 ns\n";
	size_t len = GPU_CLIENTS_TEXT_MAX + 100, n;
	const struct gpu_client *c;
	char *text = malloc(len + 1);

	ASSERT_NE(NULL, text);
	/* Pad so that the limit falls inside the number of tail. */
	n = GPU_CLIENTS_TEXT_MAX - 24 - strlen(head);
	memcpy(text, head, strlen(head));
	memset(text + strlen(head), 'x', n);
	memcpy(text + strlen(head), "pad:", 4);
	text[strlen(head) + n - 1] = '\n';
	snprintf(text + strlen(head) + n, len + 1 - strlen(head) - n, "%s", tail);
	proc(1300, "long");
	put_file(text, "%s/1300/fdinfo/3", root);
	free(text);
	ASSERT_EQ(0, scan_at(&self->s, SEC, 0));
	c = client(&self->s, "i915", 1);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(0, c->fi.nr_engines);
	EXPECT_EQ(0, c->fi.malformed);
}

/* No proc root: an error, and the last scan stays. */
TEST_F(clients, no_root)
{
	struct gpu_clients s;

	proc(1400, "a");
	i915(1400, 3, 1, 0, 0);
	ASSERT_EQ(0, scan_at(&self->s, SEC, 0));
	free(self->s.proc_root);
	self->s.proc_root = strdup("/nonexistent/proc");
	ASSERT_NE(NULL, self->s.proc_root);
	errno = 0;
	EXPECT_EQ(-1, scan_at(&self->s, 2 * SEC, 0));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(1, self->s.nr_clients);
	EXPECT_EQ(SEC, self->s.scan_ns);
	/* The real /proc: this process has no DRM fd, nothing breaks. */
	ASSERT_EQ(0, gpu_clients_init(&s, NULL));
	EXPECT_EQ(0, gpu_clients_scan(&s, getpid()));
	EXPECT_EQ(0, s.nr_clients);
	EXPECT_EQ(1, s.stats.processes);
	EXPECT_EQ(0, s.stats.unreadable);
	EXPECT_EQ(0, gpu_clients_scan(&s, 0));
	EXPECT_LT(1, s.stats.processes);
	gpu_clients_free(&s);
}

TEST_HARNESS_MAIN
