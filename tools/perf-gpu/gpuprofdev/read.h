/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A snapshot of the gpuprof device's tree (design.rst 3: status,
 * timelines, and N/name, N/path, N/histogram, N/counters for each target
 * N), read and checked, nothing printed.  Its own folder, below report/
 * and top/, because both read the tree: perf gpu report --device prints
 * it (report/print-device.h), perf gpu top shows that report beside the
 * clients (top/device.h), and neither layer may include the other.
 *
 * The key space follows the profiling mode: timeline ids (named from
 * the timelines file) for time and coverage profiling, size classes for
 * memory profiling.  The mode is taken from status's "histograms" key
 * when the module has one (what the histograms hold, also after stop),
 * else from "mode"; when neither says (the module is idle), it is
 * unknown and keys are bare numbers.
 */
#ifndef PERF_GPU_GPUPROFDEV_READ_H
#define PERF_GPU_GPUPROFDEV_READ_H

#include <stddef.h>
#include <stdint.h>

/* Where the module's files are. */
#define GPUPROFDEV_ROOT "/dev/gpuprof"

/* Memory histograms: classes 0..63 (uapi GPUPROF_MEM_CLASSES). */
#define GPUPROFDEV_MEM_CLASSES	64

enum gpuprofdev_profile {
	GPUPROFDEV_UNKNOWN,	/* the module does not say: bare keys */
	GPUPROFDEV_TIME,	/* timeline ids, samples */
	GPUPROFDEV_COVERAGE,	/* timeline ids, jobs */
	GPUPROFDEV_MEMORY,	/* size classes, live bytes */
};

struct gpuprofdev_kv {		/* a status line, or a counter */
	char *key;
	char *value;		/* status: the text */
	uint64_t num;		/* counters: the value */
};

struct gpuprofdev_timeline {
	uint64_t id;
	char *driver, *timeline;
};

struct gpuprofdev_pair {
	uint64_t key, value;
};

/*
 * Sums over all targets are 128 bits wide: each value is a u64, so the
 * sum of many can pass 2^64 (only with absurd values, but those must
 * not wrap).
 */
struct gpuprofdev_target {
	uint64_t id;
	char *name, *path;
	struct gpuprofdev_pair *hist;	/* keys increasing */
	size_t nr_hist;
	struct gpuprofdev_kv *counters;
	size_t nr_counters;
	unsigned __int128 total;
};

/* A key's value over all targets. */
struct gpuprofdev_sum {
	uint64_t key;
	unsigned __int128 value;
};

struct gpuprofdev {
	const char *root;
	enum gpuprofdev_profile profile;
	struct gpuprofdev_kv *status;
	size_t nr_status;
	struct gpuprofdev_timeline *timelines;	/* ids increasing */
	size_t nr_timelines;
	struct gpuprofdev_target *targets;	/* ids increasing */
	size_t nr_targets;
	struct gpuprofdev_sum *sums;		/* keys increasing */
	size_t nr_sums;
	unsigned __int128 total;
};

/*
 * Read the tree under @root (GPUPROFDEV_ROOT, or a copy of it) into @d,
 * which keeps @root.  0; or -1 after one line on stderr,
 * "perf gpu report: ROOT/FILE: PROBLEM" ("...: line N: PROBLEM" for a
 * malformed line), when a file cannot be read or is not what the module
 * writes.  A target that ends while being read (its files give ENODEV,
 * or its directory is gone) is left out.  gpuprofdev_free() @d either
 * way.
 */
int gpuprofdev_load(struct gpuprofdev *d, const char *root);
void gpuprofdev_free(struct gpuprofdev *d);

/* "unknown", "time", "coverage" or "memory", as status says it. */
const char *gpuprofdev_profile_name(enum gpuprofdev_profile profile);

/* The value of status's @key, NULL when the module wrote none. */
const char *gpuprofdev_status(const struct gpuprofdev *d, const char *key);

/* The timelines file's timeline @id, NULL when it lacks it. */
const struct gpuprofdev_timeline *
gpuprofdev_timeline(const struct gpuprofdev *d, uint64_t id);

/*
 * An unsigned decimal of @n bytes at @s, as the module writes them: 0,
 * -EINVAL, or -ERANGE past 2^64-1.
 */
int gpuprofdev_u64(const char *s, size_t n, uint64_t *v);

#endif
