/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's memory as the soak test compares it before loading the
 * module and after unloading it: MemAvailable, Slab and SUnreclaim from
 * /proc/meminfo and the active objects of all slab caches from
 * /proc/slabinfo, taken after dropping the page cache, dentries and
 * inodes, letting RCU-freed objects go, and shrinking every cache (which
 * flushes the per-CPU slabs SLUB counts as wholly in use).
 *
 * MemAvailable is taken with two things added back that are not the
 * kernel's to keep: the free pages sitting in the per-CPU lists (the
 * "count" of each pageset in /proc/zoneinfo; they come and go by tens of
 * MiB under a fence storm and MemFree does not count them), and the
 * measuring process's own anonymous memory and page tables (a
 * sanitizer-built test's heap grows as it runs: ASan keeps freed blocks
 * in a quarantine of up to 256 MiB; its file pages are in MemAvailable
 * already; it should not use transparent huge pages, which it would
 * free in parts that stay allocated until the kernel splits them).
 */
#ifndef GPUPROF_TEST_KMEM_H
#define GPUPROF_TEST_KMEM_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "files.h"

struct kmem {
	long long avail_kb;	/* MemAvailable + per-CPU free + own memory */
	long long own_kb;	/* that RssAnon + VmPTE */
	long long pcp_kb;	/* free pages in per-CPU lists */
	long long slab_kb;	/* Slab */
	long long sunreclaim_kb; /* SUnreclaim */
	long long objs;		/* active objects over all caches */
	long long vmalloc_kb;	/* VmallocUsed */
	long long percpu_kb;	/* Percpu */
};

static inline long long meminfo_kb(const char *text, const char *key)
{
	const char *p = strstr(text, key);
	long long v = -1;

	if (p)
		sscanf(p + strlen(key), ": %lld", &v);
	return v;
}

/* Write "1" to every cache's shrink file (aliases are symlinks: skip). */
static inline void slab_shrink_all(void)
{
	DIR *dir = opendir("/sys/kernel/slab");
	struct dirent *d;
	char path[512];

	while (dir && (d = readdir(dir))) {
		if (d->d_name[0] == '.' || d->d_type != DT_DIR)
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink",
			 d->d_name);
		write_file(path, "1");
	}
	if (dir)
		closedir(dir);
}

/* Pages on the per-CPU free lists, in kB. */
static inline long long pcp_free_kb(void)
{
	long long count, sum = 0;
	char line[256];
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " count: %lld", &count) == 1)
			sum += count;
	fclose(f);
	return sum * (sysconf(_SC_PAGESIZE) / 1024);
}

static inline long long slab_active_objects(void)
{
	char line[512], name[128];
	long long active, sum = 0;
	FILE *f = fopen("/proc/slabinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#' && sscanf(line, "%127s %lld", name, &active) == 2)
			sum += active;
	fclose(f);
	return sum;
}

/* Settle for @settle_ms after dropping caches, then measure; 0 or -1. */
static inline int kmem_measure(struct kmem *m, unsigned int settle_ms)
{
	char buf[8192];
	struct timespec ts = { settle_ms / 1000, (settle_ms % 1000) * 1000000L };

	sync();
	if (write_file("/proc/sys/vm/drop_caches", "3"))
		return -1;
	while (nanosleep(&ts, &ts))
		;
	slab_shrink_all();
	if (read_file("/proc/meminfo", buf, sizeof(buf)) <= 0)
		return -1;
	m->avail_kb = meminfo_kb(buf, "MemAvailable");
	m->slab_kb = meminfo_kb(buf, "\nSlab");
	m->sunreclaim_kb = meminfo_kb(buf, "SUnreclaim");
	m->vmalloc_kb = meminfo_kb(buf, "VmallocUsed");
	m->percpu_kb = meminfo_kb(buf, "Percpu");
	if (read_file("/proc/self/status", buf, sizeof(buf)) <= 0)
		return -1;
	m->own_kb = meminfo_kb(buf, "RssAnon") + meminfo_kb(buf, "VmPTE");
	m->pcp_kb = pcp_free_kb();
	m->avail_kb += m->own_kb + m->pcp_kb;
	m->objs = slab_active_objects();
	return m->pcp_kb < 0 || m->avail_kb < 0 || m->slab_kb < 0 || m->sunreclaim_kb < 0 ||
	       m->objs < 0 ? -1 : 0;
}

#endif
