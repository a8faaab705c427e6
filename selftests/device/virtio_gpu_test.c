// SPDX-License-Identifier: GPL-2.0-only
/*
 * virtio-gpu (2D, no virgl) as a real fence producer besides vgem: coverage
 * profiling counts exactly the fences a process makes on it.
 *
 * What makes fences there (seen with tracefs on 6.1 and 6.12, see
 * Documentation/testing.rst "virtio-gpu"): each RESOURCE_CREATE, and each
 * cursor image change, make one fence "virtio_gpu" "controlq",
 * initialised in the calling task and signalled from a kernel worker.  A
 * cursor move initialises one that is never submitted and is destroyed
 * unsignalled, so it is no job.  Dumb buffers, their mapping, SETCRTC, a
 * page flip, TRANSFER_TO_HOST and WAIT make none; EXECBUFFER is ENOSYS.
 *
 * Needs the VM booted with GPUPROF_VM_QEMU_ARGS="-device virtio-gpu-pci";
 * skips without that device.  Loads virtio_gpu if the device is there and
 * the driver is not, and leaves it loaded: removing the driver right after
 * use made drm_mm_takedown() warn once on 6.12 that an object was left
 * (gpuprof was unloaded by then); virtio_gpu frees an object only when
 * the host has answered its release, from a worker.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xf86drm.h>
#include <xf86drmMode.h>
#include <libdrm/drm.h>
#include <libdrm/virtgpu_drm.h>

#include "../lib/harness.h"
#include "../lib/fixture.h"
#include "../lib/vgem.h"
#include "../lib/setup_provides.h"

#define VIRTIO_PCI_VENDOR "0x1af4"
#define VIRTIO_GPU_PCI_DEVICE "0x1050"
/* virtio-gpu's 2D formats: B8G8R8X8_UNORM; target 2 is a 2D texture. */
#define VIRTIO_GPU_FORMAT_B8G8R8X8 2
#define PIPE_TEXTURE_2D 2

/* Is a virtio-gpu PCI function present (bound to a driver or not)? */
static int virtio_gpu_pci_present(void)
{
	char path[300], vendor[16], device[16];
	struct dirent *d;
	int found = 0;
	DIR *dir = opendir("/sys/bus/pci/devices");

	if (!dir)
		return 0;
	while (!found && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/vendor",
			 d->d_name);
		if (read_file(path, vendor, sizeof(vendor)) <= 0)
			continue;
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/device",
			 d->d_name);
		if (read_file(path, device, sizeof(device)) <= 0)
			continue;
		found = !strcmp(vendor, VIRTIO_PCI_VENDOR "\n") &&
			!strcmp(device, VIRTIO_GPU_PCI_DEVICE "\n");
	}
	closedir(dir);
	return found;
}

/* The virtio_gpu card node, opened; -ENODEV when there is none. */
static int virtio_gpu_open(void)
{
	return drm_open_driver("virtio_gpu");
}

/*
 * Make sure the virtio_gpu card exists: "" when it does, else why not.
 * The VM's init loads only vgem, and devtmpfs makes the node a moment
 * after the driver binds.
 */
static const char *virtio_gpu_ready(void)
{
	int fd, i;

	fd = virtio_gpu_open();
	if (fd >= 0) {
		close(fd);
		return "";
	}
	if (!virtio_gpu_pci_present())
		return "no virtio-gpu device (GPUPROF_VM_QEMU_ARGS=-device virtio-gpu-pci)";
	if (system("modprobe virtio_gpu"))
		return "modprobe virtio_gpu failed";
	for (i = 0; i < 100; i++) {
		fd = virtio_gpu_open();
		if (fd >= 0) {
			close(fd);
			return "";
		}
		sleep_ms(50);
	}
	return "virtio_gpu loaded but no card node appeared";
}

static int resource_create(int fd, uint32_t *bo)
{
	struct drm_virtgpu_resource_create rc = {
		.target = PIPE_TEXTURE_2D,
		.format = VIRTIO_GPU_FORMAT_B8G8R8X8,
		.bind = 2,	/* render target, as Mesa asks for a 2D image */
		.width = 16, .height = 16, .depth = 1, .array_size = 1,
		.size = 16 * 16 * 4, .stride = 16 * 4,
	};

	if (ioctl(fd, DRM_IOCTL_VIRTGPU_RESOURCE_CREATE, &rc))
		return -errno;
	*bo = rc.bo_handle;
	return 0;
}

static int dumb_create(int fd, uint32_t w, uint32_t h,
		       struct drm_mode_create_dumb *cd)
{
	memset(cd, 0, sizeof(*cd));
	cd->width = w;
	cd->height = h;
	cd->bpp = 32;
	return ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, cd) ? -errno : 0;
}

/* Map dumb buffer @cd and fill it, as a CPU renderer would. */
static int dumb_write(int fd, const struct drm_mode_create_dumb *cd)
{
	struct drm_mode_map_dumb md = { .handle = cd->handle };
	void *p;

	if (ioctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &md))
		return -errno;
	p = mmap(NULL, cd->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 md.offset);
	if (p == MAP_FAILED)
		return -errno;
	memset(p, 0x5a, cd->size);
	munmap(p, cd->size);
	return 0;
}

/*
 * The child's steps report the first failure on stderr and exit with the
 * step's number, which the parent shows.
 */
#define STEP(n, expr) do {						\
	int _step = (n), _r = (expr);					\
	if (_r) {							\
		fprintf(stderr, "# step %d: %s: %d (%s)\n", _step, #expr,	\
			_r, strerror(_r < 0 ? -_r : errno));		\
		_exit(_step);						\
	}								\
} while (0)

/* In a child named @comm: @fn(card fd, @k); its exit status. */
static int run_as(const char *comm, void (*fn)(int fd, int k), int k)
{
	pid_t pid;
	int st;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		int fd;

		prctl(PR_SET_NAME, comm, 0, 0, 0);
		fd = virtio_gpu_open();
		STEP(1, fd < 0 ? fd : 0);
		fn(fd, k);
		close(fd);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/*
 * The ioctls that make no fence first (a dumb buffer written through its
 * mapping and transferred, WAIT, EXECBUFFER refused without virgl), then
 * @k resources created.
 */
static void buffers_and_resources(int fd, int k)
{
	struct drm_mode_create_dumb cd;
	struct drm_virtgpu_3d_transfer_to_host xfer = {
		.box = { .w = 64, .h = 64, .d = 1 },
	};
	struct drm_virtgpu_3d_wait wait = { 0 };
	uint32_t cmd[4] = { 0 };
	struct drm_virtgpu_execbuffer eb = {
		.size = sizeof(cmd), .command = (uintptr_t)cmd, .fence_fd = -1,
	};
	uint32_t bo;
	int i;

	STEP(2, dumb_create(fd, 640, 480, &cd));
	STEP(3, dumb_write(fd, &cd));
	xfer.bo_handle = cd.handle;
	STEP(4, ioctl(fd, DRM_IOCTL_VIRTGPU_TRANSFER_TO_HOST, &xfer));
	wait.handle = cd.handle;
	STEP(5, ioctl(fd, DRM_IOCTL_VIRTGPU_WAIT, &wait));
	/* Without virgl there is no command stream to run. */
	STEP(6, !ioctl(fd, DRM_IOCTL_VIRTGPU_EXECBUFFER, &eb) ||
	     errno != ENOSYS);
	for (i = 0; i < k; i++)
		STEP(7, resource_create(fd, &bo));
}

static void flip_done(int fd, unsigned int seq, unsigned int sec,
		      unsigned int usec, void *data)
{
	(void)fd, (void)seq, (void)sec, (void)usec;
	*(int *)data = 1;
}

/* The first connected connector, with a mode; NULL if none. */
static drmModeConnectorPtr connected(int fd, drmModeResPtr res)
{
	drmModeConnectorPtr c;
	int i;

	for (i = 0; i < res->count_connectors; i++) {
		c = drmModeGetConnector(fd, res->connectors[i]);
		if (c && c->connection == DRM_MODE_CONNECTED && c->count_modes)
			return c;
		drmModeFreeConnector(c);
	}
	return NULL;
}

/*
 * A mode set and a page flip with its event (no fence), then @k cursor
 * images set (a fence each) with a move after each (a fence never
 * submitted).
 */
static void display(int fd, int k)
{
	drmEventContext ev = { .version = 2, .page_flip_handler = flip_done };
	struct drm_mode_create_dumb scanout, cursor;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	drmModeModeInfo mode;
	drmModeConnectorPtr conn;
	drmModeResPtr res;
	uint32_t fb, crtc;
	int i, flipped = 0;

	STEP(10, drmSetMaster(fd));
	res = drmModeGetResources(fd);
	STEP(11, !res || !res->count_crtcs);
	crtc = res->crtcs[0];
	conn = connected(fd, res);
	STEP(12, !conn);
	mode = conn->modes[0];
	for (i = 0; i < conn->count_modes; i++)
		if (conn->modes[i].hdisplay == 640 &&
		    conn->modes[i].vdisplay == 480)
			mode = conn->modes[i];
	STEP(13, dumb_create(fd, mode.hdisplay, mode.vdisplay, &scanout));
	STEP(14, dumb_write(fd, &scanout));
	STEP(15, drmModeAddFB(fd, mode.hdisplay, mode.vdisplay, 24, 32,
			      scanout.pitch, scanout.handle, &fb));
	STEP(16, drmModeSetCrtc(fd, crtc, fb, 0, 0, &conn->connector_id, 1,
				&mode));
	STEP(17, drmModePageFlip(fd, crtc, fb, DRM_MODE_PAGE_FLIP_EVENT,
				 &flipped));
	STEP(18, poll(&pfd, 1, 5000) != 1 || drmHandleEvent(fd, &ev) ||
	     !flipped);
	STEP(19, dumb_create(fd, 64, 64, &cursor));
	STEP(20, dumb_write(fd, &cursor));
	for (i = 0; i < k; i++) {
		STEP(21, drmModeSetCursor(fd, crtc, cursor.handle, 64, 64));
		STEP(22, drmModeMoveCursor(fd, crtc, 10 + i, 10 + i));
	}
	STEP(23, drmModeSetCursor(fd, crtc, 0, 0, 0));
	drmModeFreeConnector(conn);
	drmModeFreeResources(res);
}

FIXTURE(virtio) {
	const char *not_ready;	/* why virtio-gpu is not there, "" */
	int loaded;
	char buf[4096];
};

/*
 * This harness runs the test body after a SKIP in setup, so setup only
 * notes why and each test skips itself.
 */
FIXTURE_SETUP(virtio)
{
	self->not_ready = virtio_gpu_ready();
	if (*self->not_ready)
		return;
	ASSERT_EQ(0, gpuprof_load(NULL));
	self->loaded = 1;
}

FIXTURE_TEARDOWN(virtio)
{
	if (self->loaded)
		EXPECT_EQ(0, gpuprof_unload());
}

/*
 * Coverage of @fn(@k) run by a process named @comm: the histogram text.
 * Profiling stops only once no job is in flight: the fences signal from
 * virtio_gpu's worker, which may run after the process has exited.
 */
static void cover(struct __test_metadata *_metadata, const char *comm,
		  void (*fn)(int fd, int k), int k, char *hist, size_t size)
{
	char cmd[64];
	int id, i;

	snprintf(cmd, sizeof(cmd), "module %s\n", comm);
	ASSERT_EQ(0, ctl(cmd));
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, run_as(comm, fn, k));
	for (i = 0; i < 200 && status_num("jobs_in_flight") != 0; i++)
		sleep_ms(10);
	EXPECT_EQ(0, status_num("jobs_in_flight"));
	ASSERT_EQ(0, ctl("stop\n"));
	id = find_target(comm);
	ASSERT_LT(0, id);
	ASSERT_LE(0, target_file(id, "histogram", hist, size));
}

TEST_F(virtio, k_resources_give_k_jobs_on_virtio_gpu_controlq)
{
	char want[64];

	/* device-suite.sh gives the VM its virtio-gpu. */
	SETUP_PROVIDES(!*self->not_ready, "%s", self->not_ready);
	cover(_metadata, "virtio_res", buffers_and_resources, 5, self->buf,
	      sizeof(self->buf));
	snprintf(want, sizeof(want), "%d 5\n",
		 timeline_id("virtio_gpu", "controlq"));
	EXPECT_STREQ(want, self->buf);
}

TEST_F(virtio, k_cursor_images_give_k_jobs_moves_none)
{
	char want[64];

	/* device-suite.sh gives the VM its virtio-gpu. */
	SETUP_PROVIDES(!*self->not_ready, "%s", self->not_ready);
	cover(_metadata, "virtio_cur", display, 3, self->buf,
	      sizeof(self->buf));
	snprintf(want, sizeof(want), "%d 3\n",
		 timeline_id("virtio_gpu", "controlq"));
	EXPECT_STREQ(want, self->buf);
}

TEST_HARNESS_MAIN
