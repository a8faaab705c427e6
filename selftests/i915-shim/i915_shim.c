// SPDX-License-Identifier: GPL-2.0-only
/*
 * An i915 stand-in for the host tests: an LD_PRELOAD library that makes
 * one path ($GPUPROF_SHIM_NODE, default /dev/dri/renderD199) behave as a
 * Tiger Lake GT2 (0x9A49) render node, so gpuprof-oa --device runs its
 * real open, read, loss and correlation code on a machine without an
 * Intel GPU.  The behaviour follows the kernel's i915_perf.c,
 * i915_ioctl.c and i915_query.c as of Linux 6.1; it is a model, not a
 * copy, and nothing here was compared with real hardware.
 *
 * The node is an eventfd and the stream a timerfd, so they are real fds
 * that the program can poll(); open, close, ioctl and read are
 * intercepted for them, everything else passes through.  The stream's
 * timer fires every POLL_OA_PERIOD (5 ms when not given), as i915's
 * hrtimer wakes pollers; a read then runs the simulator of
 * tools/perf-gpu/oa/sim.c up to the present and hands out its SAMPLE,
 * REPORT_LOST and BUFFER_LOST records, whole records only, as i915 does.
 *
 * Emulated: DRM_IOCTL_VERSION ("i915"); GETPARAM CHIPSET_ID, REVISION,
 * CS_TIMESTAMP_FREQUENCY (19.2 MHz), PERF_REVISION; REG_READ of the
 * render RING_TIMESTAMP, with or without I915_REG_READ_8B_WA, as a
 * 36-bit register counting CLOCK_MONOTONIC at 19.2 MHz; QUERY of the
 * topology (1 slice, 6 subslices, 16 EUs each); PERF_OPEN, validated as
 * i915 does, one stream system-wide; on the stream read (EAGAIN when
 * non-blocking and empty, ENOSPC when not one record fits, EIO once
 * disabled), I915_PERF_IOCTL_ENABLE, _DISABLE and _CONFIG.  Only report
 * format 10 and periodic sampling are simulated; the GPU stays idle.
 *
 * Environment:
 *   GPUPROF_SHIM_NODE           the fake node's path
 *   GPUPROF_SHIM_DEVICE_ID      the PCI device id CHIPSET_ID gives
 *                               (default 0x9A49): any gen8 to gen12.10
 *                               part, whose format 10 the simulator
 *                               makes alike
 *   GPUPROF_SYSFS_ROOT          where class/drm/card* / metrics / * /id are:
 *                               the metric set ids PERF_OPEN accepts
 *   GPUPROF_SHIM_LOG            a file: PERF_OPEN appends "flags F", one
 *                               "prop ID VALUE" line per property and
 *                               "open FD" or "open -ERRNO"
 *   GPUPROF_SHIM_OPEN_ERRNO     EACCES, EPERM, EBUSY, ENODEV, EINVAL, EIO
 *                               or a number: PERF_OPEN fails so, after
 *                               the properties were checked
 *   GPUPROF_SHIM_LOSS_EVERY     N: REPORT_LOST after every Nth report and
 *                               BUFFER_LOST after every 2Nth (two counts,
 *                               so a test can tell them apart)
 *   GPUPROF_SHIM_WRAP_MS        M: the timestamp's low 32 bits, and the
 *                               36-bit register, wrap M ms after the node
 *                               is first opened
 *   GPUPROF_SHIM_PERF_REVISION  what PERF_REVISION says (default 5)
 *   GPUPROF_SHIM_PERFMON        set: the caller counts as CAP_PERFMON, so
 *                               rates above 100000 Hz are allowed
 *   GPUPROF_SHIM_DRIVER         the driver name VERSION gives ("i915")
 *   GPUPROF_SHIM_FAIL_AFTER_MS  M: M ms after the open the stream is
 *                               disabled, as by a GPU reset: reads fail
 *                               with EIO
 *
 * Into a sanitized program, the sanitizer's runtime must come first:
 * LD_PRELOAD="/path/libasan.so.8 libi915_shim.so".  The shim itself is
 * not sanitized; it calls the next definition (RTLD_NEXT) of what it
 * intercepts, so it works behind ASan's interceptors.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "../../tools/perf-gpu/oa/sim.h"
#include "../lib/shim.h"

#define NSEC 1000000000ull
#define MAX_FDS 4096
#define TS_BITS 36
#define TS_MASK ((1ull << TS_BITS) - 1)
#define DEFAULT_POLL_NS 5000000ull	/* i915's DEFAULT_POLL_PERIOD_NS */
#define MAX_SAMPLE_RATE 100000ull	/* dev.i915.oa_max_sample_rate */
#define OA_EXPONENT_MAX 31

enum shim_kind { SHIM_NONE, SHIM_NODE, SHIM_STREAM };

struct shim_stream {
	int fd;
	bool enabled;
	bool nonblock;
	bool periodic;
	uint64_t metrics_set;
	uint64_t t0;			/* CLOCK_MONOTONIC at the open */
	struct oa_sim *sim;
	struct oa_writer w;
	FILE *f;			/* the simulator writes into q */
	uint8_t *q;
	size_t len, off, cap;
};

static unsigned char shim_kinds[MAX_FDS];
static struct shim_stream *shim_stream;	/* one system-wide, as in i915 */
static uint64_t shim_ts_offset;
static bool shim_opened;

static uint64_t shim_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

/* 19.2 MHz is 12 ticks per 625 ns. */
static uint64_t shim_ticks(uint64_t ns)
{
	return (uint64_t)((__uint128_t)ns * 12 / 625);
}

/* RING_TIMESTAMP now: 36 bits, as on parts whose register is narrow. */
static uint64_t shim_ring_ts(uint64_t ns)
{
	return (shim_ts_offset + shim_ticks(ns)) & TS_MASK;
}

static int shim_kind(int fd)
{
	return fd >= 0 && fd < MAX_FDS ? shim_kinds[fd] : SHIM_NONE;
}

/* The node: an eventfd stands for it, never readable. */
static int shim_open_node(int flags)
{
	int fd = eventfd(0, flags & O_CLOEXEC ? EFD_CLOEXEC : 0);
	uint64_t wrap;

	if (fd < 0)
		return -1;
	if (fd >= MAX_FDS) {
		close(fd);
		return shim_fail(EMFILE);
	}
	if (!shim_opened) {
		/* Place both wraps (low 32 bits, the 36-bit register) at
		 * M ms from now: 0xfffffffff is M ms of ticks ahead. */
		wrap = shim_env_ul("GPUPROF_SHIM_WRAP_MS", 0);
		if (wrap)
			shim_ts_offset = (TS_MASK + 1 - wrap * 19200 -
					  shim_ticks(shim_mono_ns())) & TS_MASK;
		shim_opened = true;
	}
	shim_kinds[fd] = SHIM_NODE;
	return fd;
}

/* The simulator's FILE: records pile up in the stream's queue. */
static ssize_t shim_queue_write(void *cookie, const char *buf, size_t size)
{
	struct shim_stream *st = cookie;
	size_t cap = st->cap ? st->cap : 65536;
	uint8_t *q;

	if (st->off && st->off == st->len)
		st->off = st->len = 0;
	while (st->len + size > cap)
		cap *= 2;
	if (cap != st->cap) {
		q = realloc(st->q, cap);
		if (!q)
			return -1;
		st->q = q;
		st->cap = cap;
	}
	memcpy(st->q + st->len, buf, size);
	st->len += size;
	return size;
}

static void shim_stream_free(struct shim_stream *st)
{
	if (st->f)
		fclose(st->f);
	free(st->sim);
	free(st->q);
	free(st);
}

/* Metric set ids i915 would accept: those under the (fake) sysfs. */
static bool shim_metrics_id_known(uint64_t id)
{
	const char *root = getenv("GPUPROF_SYSFS_ROOT");
	char dir[4096], path[8192];
	struct dirent *c, *m;
	unsigned long long v;
	bool found = false;
	DIR *cards, *sets;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/class/drm", root && *root ? root : "/sys");
	cards = opendir(dir);
	if (!cards)
		return false;
	while (!found && (c = readdir(cards))) {
		if (strncmp(c->d_name, "card", 4) || strchr(c->d_name, '-'))
			continue;
		snprintf(path, sizeof(path), "%s/%s/metrics", dir, c->d_name);
		sets = opendir(path);
		if (!sets)
			continue;
		while (!found && (m = readdir(sets))) {
			if (m->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s/metrics/%s/id", dir,
				 c->d_name, m->d_name);
			f = fopen(path, "r");
			if (!f)
				continue;
			found = fscanf(f, "%llu", &v) == 1 && v == id;
			fclose(f);
		}
		closedir(sets);
	}
	closedir(cards);
	return found;
}

static int shim_errno_env(void)
{
	static const struct { const char *name; int err; } names[] = {
		{ "EACCES", EACCES }, { "EPERM", EPERM }, { "EBUSY", EBUSY },
		{ "ENODEV", ENODEV }, { "EINVAL", EINVAL }, { "EIO", EIO },
		{ "ENOENT", ENOENT },
	};
	const char *v = getenv("GPUPROF_SHIM_OPEN_ERRNO");
	size_t i;

	if (!v || !*v)
		return 0;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(v, names[i].name))
			return names[i].err;
	return atoi(v);
}

/* The period of @exponent in ns, as i915's oa_exponent_to_ns(). */
static uint64_t shim_exponent_ns(uint64_t exponent)
{
	return (uint64_t)((__uint128_t)(2ull << exponent) * NSEC / OA_SIM_TIMESTAMP_HZ);
}

/* The checks of i915's read_properties_unlocked() and stream init. */
static int shim_check_props(const struct drm_i915_perf_open_param *p,
			    struct shim_stream *st, uint64_t *poll_ns,
			    unsigned int *exponent, uint64_t *format)
{
	const uint64_t *props = (const uint64_t *)(uintptr_t)p->properties_ptr;
	bool sample = false;
	uint32_t i;

	if (!p->num_properties || p->num_properties >= DRM_I915_PERF_PROP_MAX)
		return EINVAL;
	for (i = 0; i < p->num_properties; i++) {
		uint64_t id = props[2 * i], value = props[2 * i + 1];

		switch (id) {
		case DRM_I915_PERF_PROP_SAMPLE_OA:
			sample = sample || value;
			break;
		case DRM_I915_PERF_PROP_OA_METRICS_SET:
			if (!value)
				return EINVAL;
			st->metrics_set = value;
			break;
		case DRM_I915_PERF_PROP_OA_FORMAT:
			/* gen12's formats: C4_B8, A12, A12_B8_C8, A32u40... */
			if (value < GPUPROF_OA_FORMAT_C4_B8 ||
			    value > GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8)
				return EINVAL;
			*format = value;
			break;
		case DRM_I915_PERF_PROP_OA_EXPONENT:
			if (value > OA_EXPONENT_MAX)
				return EINVAL;
			if (NSEC / shim_exponent_ns(value) > MAX_SAMPLE_RATE &&
			    !getenv("GPUPROF_SHIM_PERFMON"))
				return EACCES;
			*exponent = value;
			st->periodic = true;
			break;
		case DRM_I915_PERF_PROP_POLL_OA_PERIOD:
			if (shim_env_ul("GPUPROF_SHIM_PERF_REVISION", 5) < 5 ||
			    value < 100000)
				return EINVAL;
			*poll_ns = value;
			break;
		default:
			/* Unknown ids, and what the shim does not model:
			 * context filtering, preemption hold, SSEU. */
			return EINVAL;
		}
	}
	if (!sample || !*format || !st->metrics_set)
		return EINVAL;
	return 0;
}

static int shim_perf_open(struct drm_i915_perf_open_param *p)
{
	const uint64_t *props = (const uint64_t *)(uintptr_t)p->properties_ptr;
	static const cookie_io_functions_t io = { .write = shim_queue_write };
	uint64_t poll_ns = DEFAULT_POLL_NS, format = 0;
	struct oa_sim_config cfg = { .seed = 1 };
	unsigned int exponent = 0;
	struct itimerspec its = { 0 };
	struct shim_stream *st;
	uint32_t i;
	int err;

	shim_log("flags %u\n", p->flags);
	for (i = 0; p->num_properties < DRM_I915_PERF_PROP_MAX &&
	     i < p->num_properties; i++)
		shim_log("prop %llu %llu\n", (unsigned long long)props[2 * i],
			 (unsigned long long)props[2 * i + 1]);
	if (p->flags & ~(I915_PERF_FLAG_FD_CLOEXEC | I915_PERF_FLAG_FD_NONBLOCK |
			 I915_PERF_FLAG_DISABLED)) {
		shim_log("open -%d\n", EINVAL);
		return shim_fail(EINVAL);
	}
	st = calloc(1, sizeof(*st));
	if (!st)
		return shim_fail(ENOMEM);
	err = shim_check_props(p, st, &poll_ns, &exponent, &format);
	if (!err)
		err = shim_errno_env();
	if (!err && shim_stream)
		err = EBUSY;
	if (!err && !shim_metrics_id_known(st->metrics_set))
		err = EINVAL;
	/* Valid for gen12, but only format 10 is simulated. */
	if (!err && format != GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8)
		err = EINVAL;
	if (err) {
		shim_log("open -%d\n", err);
		free(st);
		return shim_fail(err);
	}

	st->t0 = shim_mono_ns();
	st->enabled = !(p->flags & I915_PERF_FLAG_DISABLED);
	st->nonblock = p->flags & I915_PERF_FLAG_FD_NONBLOCK;
	st->f = fopencookie(st, "w", io);
	st->sim = malloc(sizeof(*st->sim));
	if (st->f && st->periodic) {
		cfg.period_ns = shim_exponent_ns(exponent);
		cfg.report_lost_every = shim_env_ul("GPUPROF_SHIM_LOSS_EVERY", 0);
		cfg.buffer_lost_every = 2 * cfg.report_lost_every;
		cfg.start_cpu_ns = st->t0;
		cfg.start_gpu_ts = shim_ring_ts(st->t0) ? shim_ring_ts(st->t0) : 1;
		oa_writer_init(&st->w, st->f);
	}
	if (!st->f || !st->sim ||
	    (st->periodic && oa_sim_init(st->sim, &cfg, &st->w))) {
		shim_stream_free(st);
		return shim_fail(ENOMEM);
	}
	st->fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK |
				(p->flags & I915_PERF_FLAG_FD_CLOEXEC ? TFD_CLOEXEC : 0));
	if (st->fd < 0 || st->fd >= MAX_FDS) {
		if (st->fd >= 0)
			close(st->fd);
		shim_stream_free(st);
		return shim_fail(EMFILE);
	}
	its.it_interval.tv_sec = poll_ns / NSEC;
	its.it_interval.tv_nsec = poll_ns % NSEC;
	its.it_value = its.it_interval;
	timerfd_settime(st->fd, 0, &its, NULL);
	shim_kinds[st->fd] = SHIM_STREAM;
	shim_stream = st;
	shim_log("open %d\n", st->fd);
	return st->fd;
}

static int shim_query(struct drm_i915_query *q)
{
	struct drm_i915_query_item *items =
		(struct drm_i915_query_item *)(uintptr_t)q->items_ptr;
	union {
		struct drm_i915_query_topology_info info;
		uint8_t bytes[64];
	} topo;
	size_t len = oa_sim_topology(&topo, sizeof(topo));
	uint32_t i;

	if (q->flags)
		return shim_fail(EINVAL);
	for (i = 0; i < q->num_items; i++) {
		struct drm_i915_query_item *it = &items[i];

		if (it->query_id != DRM_I915_QUERY_TOPOLOGY_INFO || it->flags)
			it->length = -EINVAL;
		else if (it->length == 0)
			it->length = len;
		else if ((size_t)it->length < len)
			it->length = -EINVAL;
		else {
			memcpy((void *)(uintptr_t)it->data_ptr, &topo, len);
			it->length = len;
		}
	}
	return 0;
}

static void shim_copy_name(char *dst, __kernel_size_t *len, const char *src)
{
	size_t n = strlen(src);

	if (dst && *len)
		memcpy(dst, src, n < *len ? n : *len);
	*len = n;
}

static int shim_node_ioctl(unsigned long req, void *arg)
{
	const char *driver = getenv("GPUPROF_SHIM_DRIVER");
	struct drm_version *v = arg;
	drm_i915_getparam_t *gp = arg;
	struct drm_i915_reg_read *reg = arg;

	switch (req) {
	case DRM_IOCTL_VERSION:
		v->version_major = 1;
		v->version_minor = 6;
		v->version_patchlevel = 0;
		shim_copy_name(v->name, &v->name_len,
			       driver && *driver ? driver : "i915");
		shim_copy_name(v->date, &v->date_len, "20201103");
		shim_copy_name(v->desc, &v->desc_len, "Intel Graphics (gpuprof shim)");
		return 0;
	case DRM_IOCTL_I915_GETPARAM:
		switch (gp->param) {
		case I915_PARAM_CHIPSET_ID:
			*gp->value = shim_env_ul("GPUPROF_SHIM_DEVICE_ID",
						 OA_SIM_DEVICE_ID);
			return 0;
		case I915_PARAM_REVISION:
			*gp->value = OA_SIM_DEVICE_REV;
			return 0;
		case I915_PARAM_CS_TIMESTAMP_FREQUENCY:
			*gp->value = OA_SIM_TIMESTAMP_HZ;
			return 0;
		case I915_PARAM_PERF_REVISION:
			*gp->value = shim_env_ul("GPUPROF_SHIM_PERF_REVISION", 5);
			return 0;
		}
		return shim_fail(EINVAL);
	case DRM_IOCTL_I915_REG_READ:
		/* i915_reg_read_ioctl: the 8-byte entry, flags in the low bits. */
		if ((reg->offset & ~7ull) != 0x2358 ||
		    (reg->offset & 7) > I915_REG_READ_8B_WA)
			return shim_fail(EINVAL);
		reg->val = shim_ring_ts(shim_mono_ns());
		return 0;
	case DRM_IOCTL_I915_QUERY:
		return shim_query(arg);
	case DRM_IOCTL_I915_PERF_OPEN:
		return shim_perf_open(arg);
	}
	return shim_fail(EINVAL);
}

static int shim_stream_ioctl(unsigned long req, unsigned long arg)
{
	struct shim_stream *st = shim_stream;
	uint64_t old;

	switch (req) {
	case I915_PERF_IOCTL_ENABLE:
		st->enabled = true;
		return 0;
	case I915_PERF_IOCTL_DISABLE:
		st->enabled = false;
		return 0;
	case I915_PERF_IOCTL_CONFIG:
		if (!shim_metrics_id_known(arg))
			return shim_fail(EINVAL);
		old = st->metrics_set;
		st->metrics_set = arg;
		return old;
	}
	return shim_fail(EINVAL);
}

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;
	REAL(ioctl);

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	switch (shim_kind(fd)) {
	case SHIM_NODE:
		return shim_node_ioctl(req, arg);
	case SHIM_STREAM:
		return shim_stream_ioctl(req, (unsigned long)arg);
	}
	return real_ioctl(fd, req, arg);
}

/* Run the simulated GPU up to now. */
static void shim_advance(struct shim_stream *st)
{
	uint64_t elapsed = shim_mono_ns() - st->t0;

	if (!st->periodic || elapsed <= st->sim->elapsed_ns)
		return;
	oa_sim_step(st->sim, elapsed - st->sim->elapsed_ns, false, 0);
	fflush(st->f);
}

/*
 * Whole i915 records (SAMPLE, REPORT_LOST, BUFFER_LOST) into @buf; the
 * simulator's own header and correlation records are not i915's and are
 * skipped.  *@stuck says a record was there that did not fit.
 */
static size_t shim_take(struct shim_stream *st, uint8_t *buf, size_t count,
			bool *stuck)
{
	struct drm_i915_perf_record_header h;
	size_t done = 0;

	*stuck = false;
	while (st->len - st->off >= sizeof(h)) {
		memcpy(&h, st->q + st->off, sizeof(h));
		if (h.size < sizeof(h) || st->len - st->off < h.size)
			break;
		if (h.type >= DRM_I915_PERF_RECORD_SAMPLE &&
		    h.type <= DRM_I915_PERF_RECORD_OA_BUFFER_LOST) {
			if (count - done < h.size) {
				*stuck = true;
				break;
			}
			memcpy(buf + done, st->q + st->off, h.size);
			done += h.size;
		}
		st->off += h.size;
	}
	if (st->off == st->len)
		st->off = st->len = 0;
	return done;
}

static ssize_t shim_stream_read(struct shim_stream *st, void *buf,
				size_t count)
{
	struct pollfd pfd = { .fd = st->fd, .events = POLLIN };
	uint64_t expirations;
	size_t n;
	bool stuck;
	uint64_t fail_ms = shim_env_ul("GPUPROF_SHIM_FAIL_AFTER_MS", 0);
	REAL(read);

	for (;;) {
		if (fail_ms && shim_mono_ns() - st->t0 >= fail_ms * 1000000)
			st->enabled = false;
		if (!st->enabled)
			return shim_fail(EIO);
		shim_advance(st);
		/* This read answers the timer's wake-up. */
		while (real_read(st->fd, &expirations, sizeof(expirations)) > 0)
			;
		n = shim_take(st, buf, count, &stuck);
		if (n)
			return n;
		if (stuck)
			return shim_fail(ENOSPC);
		if (st->nonblock)
			return shim_fail(EAGAIN);
		poll(&pfd, 1, -1);
	}
}

ssize_t read(int fd, void *buf, size_t count)
{
	REAL(read);

	if (shim_kind(fd) == SHIM_STREAM)
		return shim_stream_read(shim_stream, buf, count);
	if (shim_kind(fd) == SHIM_NODE)
		return shim_fail(EINVAL);
	return real_read(fd, buf, count);
}

ssize_t __read_chk(int fd, void *buf, size_t count, size_t buflen)
{
	(void)buflen;
	return read(fd, buf, count);
}

int close(int fd)
{
	REAL(close);

	if (shim_kind(fd) == SHIM_STREAM && shim_stream) {
		shim_stream_free(shim_stream);
		shim_stream = NULL;
	}
	if (shim_kind(fd) != SHIM_NONE)
		shim_kinds[fd] = SHIM_NONE;
	return real_close(fd);
}
