/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The GPU clients of a machine from DRM fdinfo (design.rst 6.2): one scan
 * reads /proc/PID/fdinfo/FD for every DRM fd of every process (under a
 * proc root that tests replace with a fake tree), parses each text with
 * drm/fdinfo.c, groups the fds of one client (same drm-pdev and
 * drm-client-id: counted once, however many fds or processes share it)
 * and, against the previous scan, computes each engine's utilisation.
 * What perf gpu top shows, serves (live protocol) and exports
 * (OpenMetrics); perf gpu list shows the clients of one scan.
 *
 * Utilisation of an engine over the interval between two scans, in
 * hundredths of a percent (10000 = the engine, all its capacity, busy
 * all along):
 *   drm-engine-<e> ns:     delta busy / (delta wall time * capacity)
 *   drm-cycles-<e> with drm-total-cycles-<e>: delta cycles / delta total
 *   drm-cycles-<e> with drm-maxfreq-<e>: delta cycles / (maxfreq * delta t)
 * A counter that went backwards (a new client with a reused id) gives 0.
 * Where the driver gives busy ns, those are used (time busy is what top
 * shows); else cycles with total-cycles; else cycles with maxfreq.  The
 * capacity (drm-engine-capacity-<e>, 1 if absent) divides all three: xe
 * sums the cycles of a class's instances against one timestamp.  Results
 * are clamped to 10000 (reads of a counter and of the clock are not
 * simultaneous), per client and per device.  As the drm-usage-stats
 * document asks, a counter seen lower than before is held at the larger
 * value (in fi, so exports never see it go back) until it catches up.
 */
#ifndef PERF_GPU_DRM_CLIENTS_H
#define PERF_GPU_DRM_CLIENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "drm/fdinfo.h"
#include "util/cgroup.h"
#include "util/fdcache.h"
#include "util/map.h"

/*
 * The most of one fdinfo text read: far above what any driver prints.  A
 * longer text is cut at its last whole line.
 */
#define GPU_CLIENTS_TEXT_MAX	(64 << 10)

struct gpu_client {
	uint64_t id;			/* stable while the client lives:
					   from (pdev, client_id) */
	int32_t pid;			/* the lowest pid holding it (the
					   first of a shared client /proc
					   lists); its comm below */
	char comm[16];
	struct drm_fdinfo fi;		/* driver, pdev, client_id, engines
					   (busy ns, cycles), regions */
	unsigned int nr_fds;		/* fds of it seen in this scan */
	/* Per engine of fi, in its order: since the previous scan. */
	uint32_t util_x100[DRM_FDINFO_MAX];
	bool has_util;			/* false in the client's first scan */
	/*
	 * The cgroup v2 path of pid (/proc/PID/cgroup), "" when unknown.
	 * Read when the client first shows or its pid changes, then kept:
	 * a process moved to another cgroup while it holds the client is
	 * seen in its old one until then (what moves live processes is
	 * rare: runtimes place a process before it execs).
	 */
	char cgroup[CGROUP_PATH_MAX];
};

struct gpu_client_ref;		/* internal to drm/clients.c */

/* One DRM device (pdev) and the sums over its clients. */
struct gpu_device {
	char driver[DRM_FDINFO_NAME];
	char pdev[DRM_FDINFO_NAME];
	unsigned int nr_clients;
	/* Engines by name over the device's clients: summed utilisation. */
	char engine[DRM_FDINFO_MAX][DRM_FDINFO_NAME];
	uint32_t util_x100[DRM_FDINFO_MAX];
	unsigned int nr_engines;
	/* Regions by name: summed resident (else total, else legacy) bytes. */
	char region[DRM_FDINFO_MAX][DRM_FDINFO_NAME];
	uint64_t bytes[DRM_FDINFO_MAX];
	unsigned int nr_regions;
};

struct gpu_clients_stats {
	uint64_t processes;		/* /proc entries looked at */
	uint64_t fds;			/* fdinfo files read */
	uint64_t drm_fds;		/* of DRM clients */
	uint64_t unreadable;		/* gone or denied while scanned */
	uint64_t malformed_lines;	/* of the texts parsed: one per
					   client, further fds of it are
					   only identified */
};

struct gpu_clients {
	char *proc_root;		/* "/proc" by default */
	uint64_t scan_ns, prev_scan_ns;	/* CLOCK_MONOTONIC of the scans */
	struct gpu_client *clients;	/* this scan's, sorted by id */
	unsigned int nr_clients;
	struct gpu_device *devices;
	unsigned int nr_devices;
	struct gpu_clients_stats stats;
	/* Internal: the previous scan's clients, for utilisation. */
	struct gpu_client *prev;
	unsigned int nr_prev;
	size_t alloc, alloc_prev;
	/*
	 * Tests: when non-zero, the time a scan takes as scan_ns instead of
	 * reading CLOCK_MONOTONIC, so that utilisation can be predicted.
	 */
	uint64_t now_ns;
	/* Internal: buffers kept from one scan to the next. */
	char *text, *dents;		/* an fdinfo text; directory entries */
	size_t text_size;
	struct u64_map by_id;		/* clients by id during a scan: index */
	size_t alloc_devices;
	struct gpu_client_ref *order;	/* for sorting clients by id */
	/*
	 * The fdinfo files of DRM clients and their processes' comm, held
	 * open between scans (drm/clients.c); its max may be lowered after
	 * gpu_clients_init() (tests; 0 holds none).
	 */
	struct fdcache held;
};

/* @proc_root NULL for "/proc".  0, or -1 out of memory. */
int gpu_clients_init(struct gpu_clients *s, const char *proc_root);

/*
 * Scan now: 0, or -1 when the proc root cannot be read at all (errno
 * set).  Processes and fds that vanish or deny access while scanned are
 * counted in stats.unreadable, not errors.  @pid > 0: that process only.
 */
int gpu_clients_scan(struct gpu_clients *s, int32_t pid);

/* The client with @id in the last scan, or NULL. */
const struct gpu_client *gpu_clients_find(const struct gpu_clients *s,
					  uint64_t id);

void gpu_clients_free(struct gpu_clients *s);

#endif
