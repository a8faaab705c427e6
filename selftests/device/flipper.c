// SPDX-License-Identifier: GPL-2.0-only
/*
 * flipper: a KMS client that flips two framebuffers on every vblank, for
 * the tests that record display events (vkms in the test VM).
 *
 *   flipper [-n COMM] [-d /dev/dri/cardN] [-r HZ] FRAMES [skip F1,F2,...]
 *
 * It sets the preferred mode of the first connected connector with
 * drmModeSetCrtc (with -r, slowed to HZ frames a second by a lower pixel
 * clock: vkms times its vblank from the mode, and a slow kernel under
 * TCG keeps up with a longer frame), then, for frames 1 to FRAMES, commits a flip to the
 * other framebuffer through the atomic API (nonblocking, with a
 * page-flip event and an out-fence from the crtc's OUT_FENCE_PTR, so the
 * kernel makes a real dma_fence for each flip) and waits for its event.  A frame listed after "skip" is not flipped: the
 * program waits for one vblank instead, so exactly one vblank passes
 * without a flip.  Without -d it opens the first card whose driver is
 * vkms.  It ends with one line,
 *
 *   frames N flips M skipped S refresh_mhz R crtc_id C
 *
 * and on any error prints one line to stderr and exits 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <xf86drm.h>
#include <xf86drmMode.h>

#define MAX_SKIPS 64
#define MAX_CARDS 16

struct display {
	int fd;
	uint32_t conn_id, crtc_id, plane_id;
	unsigned int pipe;
	drmModeModeInfo mode;
	uint32_t fb[2];
	/* Atomic property ids. */
	uint32_t plane_fb_id, crtc_out_fence_ptr;
};

/* The event handler's report of the flip it was handed. */
struct flip_wait {
	int done;
	uint32_t crtc_id;
};

__attribute__((format(printf, 1, 2), noreturn))
static void fail(const char *fmt, ...)
{
	va_list ap;

	fputs("flipper: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void usage(void)
{
	fail("usage: flipper [-n COMM] [-d /dev/dri/cardN] [-r HZ] FRAMES [skip F1,F2,...]");
}

static long parse_count(const char *s, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 1 || v > 1000000)
		fail("bad %s '%s'", what, s);
	return v;
}

static int parse_skips(char *list, long *skips)
{
	char *tok, *save;
	int n = 0;

	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == MAX_SKIPS)
			fail("more than %d frames to skip", MAX_SKIPS);
		skips[n++] = parse_count(tok, "frame to skip");
	}
	if (!n)
		fail("no frame after 'skip'");
	return n;
}

static int is_skipped(long frame, const long *skips, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (skips[i] == frame)
			return 1;
	return 0;
}

static int open_vkms(void)
{
	char path[32];
	drmVersionPtr v;
	int i, fd, found;

	for (i = 0; i < MAX_CARDS; i++) {
		snprintf(path, sizeof(path), DRM_DEV_NAME, DRM_DIR_NAME, i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		v = drmGetVersion(fd);
		found = v && !strcmp(v->name, "vkms");
		drmFreeVersion(v);
		if (found)
			return fd;
		close(fd);
	}
	fail("no DRM card of the vkms driver");
}

/* The id of the property NAME of object ID, or 0. */
static uint32_t prop_id(int fd, uint32_t id, uint32_t type, const char *name,
			uint64_t *value)
{
	drmModeObjectPropertiesPtr props;
	drmModePropertyPtr p;
	uint32_t ret = 0, i;

	props = drmModeObjectGetProperties(fd, id, type);
	if (!props)
		return 0;
	for (i = 0; i < props->count_props && !ret; i++) {
		p = drmModeGetProperty(fd, props->props[i]);
		if (p && !strcmp(p->name, name)) {
			ret = p->prop_id;
			if (value)
				*value = props->prop_values[i];
		}
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return ret;
}

/* The first connected connector, its preferred mode and a crtc for it. */
static void pick_output(struct display *d)
{
	drmModeResPtr res = drmModeGetResources(d->fd);
	drmModeConnectorPtr conn = NULL;
	drmModeEncoderPtr enc;
	uint32_t possible = 0;
	int i, m;

	if (!res)
		fail("drmModeGetResources: %s", strerror(errno));
	for (i = 0; i < res->count_connectors; i++) {
		conn = drmModeGetConnector(d->fd, res->connectors[i]);
		if (conn && conn->connection == DRM_MODE_CONNECTED &&
		    conn->count_modes)
			break;
		drmModeFreeConnector(conn);
		conn = NULL;
	}
	if (!conn)
		fail("no connected connector");
	d->conn_id = conn->connector_id;
	d->mode = conn->modes[0];
	for (m = 0; m < conn->count_modes; m++)
		if (conn->modes[m].type & DRM_MODE_TYPE_PREFERRED) {
			d->mode = conn->modes[m];
			break;
		}
	for (i = 0; i < conn->count_encoders; i++) {
		enc = drmModeGetEncoder(d->fd, conn->encoders[i]);
		if (enc)
			possible |= enc->possible_crtcs;
		drmModeFreeEncoder(enc);
	}
	drmModeFreeConnector(conn);
	for (i = 0; i < res->count_crtcs; i++)
		if (possible & (1u << i))
			break;
	if (i == res->count_crtcs)
		fail("no crtc for connector %u", d->conn_id);
	d->crtc_id = res->crtcs[i];
	d->pipe = i;
	drmModeFreeResources(res);
}

/* The primary plane of the chosen crtc. */
static void pick_plane(struct display *d)
{
	drmModePlaneResPtr planes = drmModeGetPlaneResources(d->fd);
	drmModePlanePtr p;
	uint64_t type;
	uint32_t i;

	if (!planes)
		fail("drmModeGetPlaneResources: %s", strerror(errno));
	for (i = 0; i < planes->count_planes && !d->plane_id; i++) {
		p = drmModeGetPlane(d->fd, planes->planes[i]);
		if (p && (p->possible_crtcs & (1u << d->pipe)) &&
		    prop_id(d->fd, p->plane_id, DRM_MODE_OBJECT_PLANE, "type",
			    &type) && type == DRM_PLANE_TYPE_PRIMARY)
			d->plane_id = p->plane_id;
		drmModeFreePlane(p);
	}
	drmModeFreePlaneResources(planes);
	if (!d->plane_id)
		fail("no primary plane for crtc %u", d->crtc_id);
}

static uint32_t make_fb(struct display *d)
{
	uint32_t handle, pitch, fb;
	uint64_t size;

	if (drmModeCreateDumbBuffer(d->fd, d->mode.hdisplay, d->mode.vdisplay,
				    32, 0, &handle, &pitch, &size))
		fail("dumb buffer: %s", strerror(errno));
	if (drmModeAddFB(d->fd, d->mode.hdisplay, d->mode.vdisplay, 24, 32,
			 pitch, handle, &fb))
		fail("drmModeAddFB: %s", strerror(errno));
	return fb;
}

/* The mode's refresh rate in mHz, as the vblank core times the frame. */
static unsigned long refresh_mhz(const drmModeModeInfo *m)
{
	unsigned long long num = (unsigned long long)m->clock * 1000000;
	unsigned long long den = (unsigned long long)m->htotal * m->vtotal;

	if (m->flags & DRM_MODE_FLAG_INTERLACE)
		num *= 2;
	if (m->flags & DRM_MODE_FLAG_DBLSCAN)
		den *= 2;
	if (m->vscan > 1)
		den *= m->vscan;
	return den ? (num + den / 2) / den : 0;
}

static void on_flip(int fd, unsigned int seq, unsigned int sec,
		    unsigned int usec, unsigned int crtc_id, void *data)
{
	struct flip_wait *w = data;

	(void)fd;
	(void)seq;
	(void)sec;
	(void)usec;
	w->done = 1;
	w->crtc_id = crtc_id;
}

static void wait_flip(struct display *d, struct flip_wait *w)
{
	drmEventContext ev = {
		.version = 3,
		.page_flip_handler2 = on_flip,
	};
	struct pollfd pfd = { .fd = d->fd, .events = POLLIN };
	unsigned long mhz = refresh_mhz(&d->mode);
	int n, wait_ms = 1000;

	/*
	 * A flip is due within a frame; ten frames, and at least a second,
	 * mean it is lost.  A slow kernel under load has armed a flip 1.5 s
	 * after its vblank at 2 Hz (the 6.1 debug kernel).
	 */
	if (mhz && 10000000 / mhz > (unsigned long)wait_ms)
		wait_ms = 10000000 / mhz;
	while (!w->done) {
		n = poll(&pfd, 1, wait_ms);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			fail("poll: %s", strerror(errno));
		if (!n)
			fail("no flip event within %d ms", wait_ms);
		if (drmHandleEvent(d->fd, &ev))
			fail("drmHandleEvent: %s", strerror(errno));
	}
	if (w->crtc_id != d->crtc_id)
		fail("flip event of crtc %u, not %u", w->crtc_id, d->crtc_id);
}

/* One flip to @fb, committed atomically with an out-fence. */
static void flip(struct display *d, uint32_t fb)
{
	drmModeAtomicReqPtr req = drmModeAtomicAlloc();
	struct flip_wait w = { 0 };
	struct pollfd pfd;
	int32_t fence = -1;

	if (!req)
		fail("drmModeAtomicAlloc failed");
	if (drmModeAtomicAddProperty(req, d->plane_id, d->plane_fb_id, fb) < 0 ||
	    drmModeAtomicAddProperty(req, d->crtc_id, d->crtc_out_fence_ptr,
				     (uint64_t)(uintptr_t)&fence) < 0)
		fail("drmModeAtomicAddProperty failed");
	if (drmModeAtomicCommit(d->fd, req, DRM_MODE_ATOMIC_NONBLOCK |
				DRM_MODE_PAGE_FLIP_EVENT, &w))
		fail("atomic flip: %s", strerror(errno));
	drmModeAtomicFree(req);
	if (fence < 0)
		fail("atomic flip gave no out-fence");
	wait_flip(d, &w);
	/* The kernel signals the out-fence as it sends the flip's event. */
	pfd = (struct pollfd){ .fd = fence, .events = POLLIN };
	if (poll(&pfd, 1, 0) != 1)
		fail("out-fence not signalled after its flip event");
	close(fence);
}

static void wait_one_vblank(struct display *d)
{
	drmVBlank vbl = { 0 };

	vbl.request.type = DRM_VBLANK_RELATIVE |
		((d->pipe << DRM_VBLANK_HIGH_CRTC_SHIFT) &
		 DRM_VBLANK_HIGH_CRTC_MASK);
	vbl.request.sequence = 1;
	if (drmWaitVBlank(d->fd, &vbl))
		fail("drmWaitVBlank: %s", strerror(errno));
}

/*
 * @m slowed to @hz frames a second: the same timings at a pixel clock
 * (kHz) scaled down, which is all the frame's length depends on.
 */
static void slow_mode(drmModeModeInfo *m, long hz)
{
	unsigned long now = refresh_mhz(m);

	if (!now || (unsigned long)hz * 1000 >= now)
		fail("-r %ld: not below the mode's %lu mHz", hz, now);
	m->clock = (uint32_t)(((unsigned long long)m->clock * hz * 1000 +
			       now / 2) / now);
	m->vrefresh = hz;
	snprintf(m->name, sizeof(m->name), "%ux%u@%ld", m->hdisplay,
		 m->vdisplay, hz);
}

int main(int argc, char **argv)
{
	struct display d = { .fd = -1 };
	long frames, frame, skips[MAX_SKIPS], flips = 0, skipped = 0;
	const char *comm = NULL, *card = NULL;
	int nskips = 0, opt;
	long hz = 0;

	while ((opt = getopt(argc, argv, "+n:d:r:")) != -1) {
		switch (opt) {
		case 'r':
			hz = parse_count(optarg, "HZ");
			break;
		case 'n':
			comm = optarg;
			break;
		case 'd':
			card = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind == argc)
		usage();
	frames = parse_count(argv[optind++], "FRAMES");
	if (optind < argc) {
		if (strcmp(argv[optind], "skip") || optind + 2 != argc)
			usage();
		nskips = parse_skips(argv[optind + 1], skips);
	}
	if (comm && prctl(PR_SET_NAME, comm))
		fail("prctl: %s", strerror(errno));

	if (card) {
		d.fd = open(card, O_RDWR | O_CLOEXEC);
		if (d.fd < 0)
			fail("%s: %s", card, strerror(errno));
	} else {
		d.fd = open_vkms();
	}
	if (drmSetClientCap(d.fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) ||
	    drmSetClientCap(d.fd, DRM_CLIENT_CAP_ATOMIC, 1))
		fail("the driver has no atomic modesetting");
	pick_output(&d);
	if (hz)
		slow_mode(&d.mode, hz);
	pick_plane(&d);
	d.plane_fb_id = prop_id(d.fd, d.plane_id, DRM_MODE_OBJECT_PLANE,
				"FB_ID", NULL);
	d.crtc_out_fence_ptr = prop_id(d.fd, d.crtc_id, DRM_MODE_OBJECT_CRTC,
				       "OUT_FENCE_PTR", NULL);
	if (!d.plane_fb_id || !d.crtc_out_fence_ptr)
		fail("no FB_ID or OUT_FENCE_PTR property");
	d.fb[0] = make_fb(&d);
	d.fb[1] = make_fb(&d);

	/* The mode is set the legacy way, which waits until it is on. */
	if (drmModeSetCrtc(d.fd, d.crtc_id, d.fb[0], 0, 0, &d.conn_id, 1,
			   &d.mode))
		fail("drmModeSetCrtc: %s", strerror(errno));

	for (frame = 1; frame <= frames; frame++) {
		if (is_skipped(frame, skips, nskips)) {
			wait_one_vblank(&d);
			skipped++;
			continue;
		}
		flip(&d, d.fb[(flips + 1) % 2]);
		flips++;
	}
	printf("frames %ld flips %ld skipped %ld refresh_mhz %lu crtc_id %u\n",
	       frames, flips, skipped, refresh_mhz(&d.mode), d.crtc_id);
	return 0;
}
