/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vgem, the kernel's virtual GEM driver, as a source of real dma_fences
 * and GEM buffers for the tests.  Its two ioctls are not in libdrm's
 * headers; their layout is the kernel uAPI's (include/uapi/drm/vgem_drm.h).
 */
#ifndef GPUPROF_TEST_VGEM_H
#define GPUPROF_TEST_VGEM_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <libdrm/drm.h>
#include <linux/dma-buf.h>

struct vgem_fence_attach {
	uint32_t handle;
	uint32_t flags;		/* VGEM_FENCE_WRITE */
	uint32_t out_fence;
	uint32_t pad;
};

struct vgem_fence_signal {
	uint32_t fence;
	uint32_t flags;
};

#define VGEM_FENCE_WRITE		0x1
#define VGEM_IOCTL_FENCE_ATTACH	\
	DRM_IOWR(DRM_COMMAND_BASE + 0x1, struct vgem_fence_attach)
#define VGEM_IOCTL_FENCE_SIGNAL	\
	DRM_IOW(DRM_COMMAND_BASE + 0x2, struct vgem_fence_signal)

/* Open the card node of DRM driver @driver; -ENODEV when there is none. */
static inline int drm_open_driver(const char *driver)
{
	char path[64], name[32];
	struct drm_version v;
	int i, fd;

	for (i = 0; i < 16; i++) {
		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(&v, 0, sizeof(v));
		memset(name, 0, sizeof(name));
		v.name = name;
		v.name_len = sizeof(name) - 1;
		if (!ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(name, driver))
			return fd;
		close(fd);
	}
	return -ENODEV;
}

/* Open the vgem card node; -errno when there is none. */
static inline int vgem_open(void)
{
	return drm_open_driver("vgem");
}

/* A dumb buffer of @width x @height at 32 bpp; its size in *size. */
static inline int vgem_bo_create(int fd, uint32_t width, uint32_t height,
				 uint32_t *handle, uint64_t *size)
{
	struct drm_mode_create_dumb c = {
		.width = width, .height = height, .bpp = 32,
	};

	if (ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c))
		return -errno;
	*handle = c.handle;
	*size = c.size;
	return 0;
}

static inline int vgem_bo_close(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	return ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c) ? -errno : 0;
}

/* A new fence on @handle: its id, or -errno. */
static inline int vgem_fence_attach(int fd, uint32_t handle)
{
	struct vgem_fence_attach a = {
		.handle = handle, .flags = VGEM_FENCE_WRITE,
	};

	if (ioctl(fd, VGEM_IOCTL_FENCE_ATTACH, &a))
		return -errno;
	return a.out_fence;
}

static inline int vgem_fence_signal(int fd, uint32_t fence)
{
	struct vgem_fence_signal s = { .fence = fence };

	return ioctl(fd, VGEM_IOCTL_FENCE_SIGNAL, &s) ? -errno : 0;
}

/*
 * A sync_file of the write fences on buffer @handle (what a reader would
 * wait for), through its dma-buf: a vgem fence another driver's job can
 * depend on.  The sync_file's fd, or -errno.
 */
static inline int vgem_sync_file(int fd, uint32_t handle)
{
	struct drm_prime_handle prime = {
		.handle = handle, .flags = DRM_CLOEXEC,
	};
	struct dma_buf_export_sync_file sync = { .flags = DMA_BUF_SYNC_READ };
	int err = 0;

	if (ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &prime))
		return -errno;
	if (ioctl(prime.fd, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &sync))
		err = -errno;
	close(prime.fd);
	return err ? err : sync.fd;
}

#endif
