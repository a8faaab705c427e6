/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The sysfs of one i915 GPU as gpuprof-oa and perf gpu record read it
 * through GPUPROF_SYSFS_ROOT: render node renderD199 (the i915 shim's)
 * belongs to card0, which offers metric sets by uuid with their config
 * ids, as i915 does under /sys/class/drm/card0/metrics/UUID/id.
 */
#ifndef GPUPROF_TEST_FAKE_SYSFS_H
#define GPUPROF_TEST_FAKE_SYSFS_H

#include <errno.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"

struct fake_metric_set {
	const char *uuid;
	unsigned int id;
};

/* mkdir -p @path: 0, or -1 with errno set. */
static inline int fake_sysfs_mkdirs(const char *path)
{
	char dir[512];
	char *p;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -1;
	return 0;
}

/*
 * Under @root: renderD199's card0, its metric sets @sets[0..n), and its
 * GT frequency range when @gt_max_mhz is not 0.  Return: 0, or -1 with
 * errno set (a failure there is the test's own).
 */
static inline int fake_i915_sysfs(const char *root,
				  const struct fake_metric_set *sets, size_t n,
				  unsigned int gt_min_mhz,
				  unsigned int gt_max_mhz)
{
	char path[512], id[16];
	size_t i;

	snprintf(path, sizeof(path), "%s/class/drm/renderD199/device/drm/card0",
		 root);
	if (fake_sysfs_mkdirs(path))
		return -1;
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/class/drm/card0/metrics/%s",
			 root, sets[i].uuid);
		if (fake_sysfs_mkdirs(path))
			return -1;
		snprintf(id, sizeof(id), "%u\n", sets[i].id);
		put_file(id, "%s/id", path);
	}
	if (gt_max_mhz) {
		snprintf(id, sizeof(id), "%u\n", gt_min_mhz);
		put_file(id, "%s/class/drm/card0/gt_min_freq_mhz", root);
		snprintf(id, sizeof(id), "%u\n", gt_max_mhz);
		put_file(id, "%s/class/drm/card0/gt_max_freq_mhz", root);
	}
	return 0;
}

/* The metric set directory of @uuid under @root's card0, into @path. */
static inline void fake_i915_set_dir(char *path, size_t size,
				     const char *root, const char *uuid)
{
	snprintf(path, size, "%s/class/drm/card0/metrics/%s", root, uuid);
}

/*
 * A fresh tree under @root (anything there before removed) whose card
 * offers no metric set, as a stock i915's.  Return: 0, or -1 with errno.
 */
static inline int fake_i915_stock_sysfs(const char *root)
{
	char path[512];

	if (strlen(root) < 2 || strchr(root, '\'') ||
	    snprintf(path, sizeof(path), "rm -rf '%s'", root) >= (int)sizeof(path)) {
		errno = EINVAL;
		return -1;
	}
	if (system(path)) {
		errno = EIO;
		return -1;
	}
	if (fake_i915_sysfs(root, NULL, 0, 0, 0))
		return -1;
	snprintf(path, sizeof(path), "%s/class/drm/card0/metrics", root);
	return fake_sysfs_mkdirs(path);
}

/* As another program would: @uuid added under @root's card0 as @id. */
static inline void fake_i915_offer(const char *root, const char *uuid,
				   unsigned int id)
{
	char path[512], text[16];

	fake_i915_set_dir(path, sizeof(path), root, uuid);
	fake_sysfs_mkdirs(path);
	snprintf(text, sizeof(text), "%u\n", id);
	put_file(text, "%s/id", path);
}

/* Whether @root's card0 offers @uuid. */
static inline bool fake_i915_offered(const char *root, const char *uuid)
{
	char path[512];

	fake_i915_set_dir(path, sizeof(path), root, uuid);
	strncat(path, "/id", sizeof(path) - strlen(path) - 1);
	return !access(path, F_OK);
}

#endif
