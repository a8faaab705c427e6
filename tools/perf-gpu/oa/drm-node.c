// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM render nodes, their cards in sysfs and the running kernel, for the
 * OA sources (see oa/drm-node.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>

#include "../../../module/oa_decode.h"
#include "oa/drm-node.h"
#include "util/file.h"

#define NSEC 1000000000ull

/* An ioctl that a signal does not fail, as libdrm's drmIoctl(). */
int oa_node_ioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do
		ret = ioctl(fd, req, arg);
	while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret;
}

uint64_t oa_node_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

const char *oa_node_sysfs_root(void)
{
	const char *r = getenv("GPUPROF_SYSFS_ROOT");

	return r && *r ? r : "/sys";
}

/* This kernel's version as GPUPROF_OA_KERNEL() numbers it; 0 if unknown. */
uint32_t oa_node_running_kernel(void)
{
	unsigned int major, minor;
	struct utsname u;

	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2 ||
	    major > 255 || minor > 255)
		return 0;
	return GPUPROF_OA_KERNEL(major, minor);
}

/* The driver's name of a DRM fd, "" when it is no DRM device. */
void oa_node_driver_name(int fd, char *name, size_t size)
{
	struct drm_version v = { .name_len = size - 1, .name = name };

	memset(name, 0, size);
	if (oa_node_ioctl(fd, DRM_IOCTL_VERSION, &v))
		name[0] = '\0';
	name[size - 1] = '\0';
}

/* The lowest "<prefix>N" entry of @dir, N >= 0; -1 when none. */
long oa_node_lowest_entry(const char *dir, const char *prefix)
{
	size_t len = strlen(prefix);
	struct dirent *e;
	long best = -1, n;
	char *end;
	DIR *d = opendir(dir);

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, prefix, len) || !e->d_name[len])
			continue;
		n = strtol(e->d_name + len, &end, 10);
		if (*end || n < 0)
			continue;
		if (best < 0 || n < best)
			best = n;
	}
	closedir(d);
	return best;
}

/**
 * oa_node_find - the first render node @driver drives
 * @driver: DRM_IOCTL_VERSION's name, "i915" or "xe"
 * @node: its path, filled in (also when none is found: the last tried)
 * @size: bytes of @node
 *
 * Return: the node opened read-write and close-on-exec, or -1 when none.
 */
int oa_node_find(const char *driver, char *node, size_t size)
{
	char name[32];
	long n, from = 0;
	DIR *dir;
	struct dirent *e;
	char *end;
	int fd;

	/* In order of minor number: renderD128 is the first GPU. */
	for (;;) {
		long best = -1;

		dir = opendir("/dev/dri");
		if (!dir)
			break;
		while ((e = readdir(dir))) {
			if (strncmp(e->d_name, "renderD", 7))
				continue;
			n = strtol(e->d_name + 7, &end, 10);
			if (*end || n < from)
				continue;
			if (best < 0 || n < best)
				best = n;
		}
		closedir(dir);
		if (best < 0)
			break;
		snprintf(node, size, "/dev/dri/renderD%ld", best);
		fd = open(node, O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			oa_node_driver_name(fd, name, sizeof(name));
			if (!strcmp(name, driver))
				return fd;
			close(fd);
		}
		from = best + 1;
	}
	return -1;
}

/*
 * The sysfs directory of the card of the same device as the render node:
 * <root>/class/drm/renderDxxx/device/drm/cardN, as <root>/class/drm/cardN,
 * into @card; left alone when there is none.  The node's name comes from
 * its real path, so that symlinks such as /dev/dri/by-path/... work.
 */
void oa_node_card(const char *node, char *card, size_t size)
{
	char real[PATH_MAX], dir[PATH_MAX + 64];
	const char *base = node;
	long n;

	if (realpath(node, real))
		base = real;
	if (strrchr(base, '/'))
		base = strrchr(base, '/') + 1;
	snprintf(dir, sizeof(dir), "%s/class/drm/%s/device/drm",
		 oa_node_sysfs_root(), base);
	n = oa_node_lowest_entry(dir, "card");
	if (n >= 0)
		snprintf(card, size, "%s/class/drm/card%ld",
			 oa_node_sysfs_root(), n);
}

/*
 * A GT frequency file of @card in MHz ("gt_max_freq_mhz"), in Hz as
 * DEVICE_INFO has it; 0 when @card is "" or the file is not there.
 */
uint32_t oa_node_gt_freq(const char *card, const char *file)
{
	char path[PATH_MAX + 64];
	uint64_t mhz;

	if (!card[0])
		return 0;
	snprintf(path, sizeof(path), "%s/%s", card, file);
	if (file_read_u64(path, &mhz) || mhz > UINT32_MAX / 1000000)
		return 0;
	return mhz * 1000000;
}

/**
 * oa_node_set_id - the id the kernel offers a metric set under
 * @card: the card's sysfs directory
 * @uuid: the set's
 * @id: <card>/metrics/UUID/id
 *
 * i915 and xe list their sets alike.  Return: 0, -ENOENT when the card
 * does not offer the set (no such file, or id 0), or another -errno.
 */
int oa_node_set_id(const char *card, const char *uuid, uint64_t *id)
{
	char path[PATH_MAX + 64];
	int err;

	snprintf(path, sizeof(path), "%s/metrics/%s/id", card, uuid);
	err = file_read_u64(path, id);
	if (!err && !*id)
		err = -ENOENT;
	return err;
}

/**
 * oa_node_ticks_to_oa - GPU clock ticks as OA timestamp ticks
 * @ticks: a count of the clock a driver correlates with: i915's
 *	RING_TIMESTAMP, xe's ENGINE_CYCLES
 * @hz: that clock's rate (i915's CS_TIMESTAMP_FREQUENCY, xe's reference
 *	clock)
 * @oa_hz: the OA unit's timestamp rate
 *
 * Both count one crystal; on DG2 and Meteor Lake the OA timestamp runs
 * 2^(3 - CTC_SHIFT) times the CS clock (Wa_18013179988 in i915_perf.c
 * and xe_oa.c), elsewhere the two are one.
 */
uint64_t oa_node_ticks_to_oa(uint64_t ticks, uint64_t hz, uint64_t oa_hz)
{
	if (!hz || !oa_hz || hz == oa_hz)
		return ticks;
	return (uint64_t)((unsigned __int128)ticks * oa_hz / hz);
}
