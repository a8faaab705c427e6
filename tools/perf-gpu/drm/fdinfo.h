/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Parsing one DRM fdinfo text (/proc/PID/fdinfo/FD) as the kernel's
 * Documentation/gpu/drm-usage-stats.rst describes it: "key:\tvalue"
 * lines, the drm- keys standard, driver keys prefixed with the driver's
 * name.  Written once for perf gpu record and a later perf gpu top.
 * Pure: no I/O, so the host tests feed it hand-made texts.
 */
#ifndef PERF_GPU_DRM_FDINFO_H
#define PERF_GPU_DRM_FDINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DRM_FDINFO_NAME	64
#define DRM_FDINFO_MAX	32	/* engines or memory regions kept */
/*
 * The longest drm-client-name, the kernel's DRM_CLIENT_NAME_MAX_LEN: a
 * name a client gives itself with DRM_IOCTL_SET_CLIENT_NAME (Linux 6.14
 * and later), printable ASCII without blanks.
 */
#define DRM_FDINFO_CLIENT_NAME	64

enum drm_fdinfo_mem {
	DRM_MEM_TOTAL,		/* drm-total-<region> */
	DRM_MEM_SHARED,
	DRM_MEM_RESIDENT,
	DRM_MEM_PURGEABLE,
	DRM_MEM_ACTIVE,
	DRM_MEM_LEGACY,		/* drm-memory-<region> (before 6.4) */
	DRM_MEM_KINDS
};

struct drm_fdinfo_engine {
	char name[DRM_FDINFO_NAME];
	uint64_t busy_ns;		/* drm-engine-<e> */
	uint64_t capacity;		/* drm-engine-capacity-<e>; 1 if absent */
	uint64_t cycles;		/* drm-cycles-<e> */
	uint64_t total_cycles;		/* drm-total-cycles-<e> */
	uint64_t maxfreq_hz;		/* drm-maxfreq-<e>, in Hz */
	bool has_busy, has_cycles, has_total_cycles;
};

struct drm_fdinfo_region {
	char name[DRM_FDINFO_NAME];
	uint64_t bytes[DRM_MEM_KINDS];	/* in bytes, units applied */
	bool has[DRM_MEM_KINDS];
};

struct drm_fdinfo {
	char driver[DRM_FDINFO_NAME];	/* "" when the text has no drm-driver */
	char pdev[DRM_FDINFO_NAME];
	uint64_t client_id;
	bool has_client_id;
	/*
	 * drm-client-name, "" when the client has none (the kernel prints
	 * the line only once one is set).  Not part of the identity two
	 * texts are one client by: the client may set it at any time.
	 */
	char client_name[DRM_FDINFO_CLIENT_NAME + 1];
	bool has_client_name;
	struct drm_fdinfo_engine engine[DRM_FDINFO_MAX];
	unsigned int nr_engines;
	struct drm_fdinfo_region region[DRM_FDINFO_MAX];
	unsigned int nr_regions;
	unsigned int malformed;		/* lines skipped as unparsable */
	unsigned int unknown;		/* well-formed lines of keys not known */
	/*
	 * The drm- lines and the driver's own ones as "key=value" pairs
	 * separated by spaces, value as written (unit included), minus the
	 * identity keys (drm-driver, drm-pdev, drm-client-id): what goes in a
	 * gpu_client:fdinfo sample.  Cut at a whole pair when full.  A
	 * valid drm-client-name, which has no field of its own in the
	 * sample, is its first pair, wherever its line was
	 * (drm_fdinfo_stats_client_name() reads it back).
	 */
	char stats[2048];
};

/*
 * Parse @len bytes of @text into @out.  Never fails: bad lines are
 * counted in out->malformed and skipped.  Whether the text is a DRM
 * client at all: drm_fdinfo_is_client().  Everything up to the engines is
 * zeroed first, each engine and region as it is taken; entries past
 * nr_engines and nr_regions are left as they were.
 */
void drm_fdinfo_parse(const char *text, size_t len, struct drm_fdinfo *out);

/*
 * Only the identity of the client (driver, pdev, client_id, client_name,
 * malformed counting only those lines), as drm_fdinfo_parse() would find
 * it; no engines, regions or stats.  Cheap: perf gpu top tells a further fd of
 * a client it has already parsed this way.
 */
void drm_fdinfo_parse_identity(const char *text, size_t len,
			       struct drm_fdinfo *out);

/*
 * The drm-client-name a stats string carries (as drm_fdinfo_parse() makes
 * it, and a gpu_client:fdinfo sample keeps it): its first pair when that
 * is "drm-client-name=NAME" with a valid NAME, copied to @name; else
 * false and @name "".  The string may come from any file: it is checked.
 */
bool drm_fdinfo_stats_client_name(const char *stats,
				  char name[DRM_FDINFO_CLIENT_NAME + 1]);

/* A DRM client: drm-driver given (what every driver printing stats does). */
bool drm_fdinfo_is_client(const struct drm_fdinfo *fi);

/* Two texts of one client: same drm-pdev and drm-client-id. */
bool drm_fdinfo_same_client(const struct drm_fdinfo *a,
			    const struct drm_fdinfo *b);

/* The engine or region of that name, NULL if absent. */
const struct drm_fdinfo_engine *drm_fdinfo_engine(const struct drm_fdinfo *fi,
						  const char *name);
const struct drm_fdinfo_region *drm_fdinfo_region(const struct drm_fdinfo *fi,
						  const char *name);

#endif
