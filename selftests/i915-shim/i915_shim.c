// SPDX-License-Identifier: GPL-2.0-only
/*
 * An i915 stand-in for the host tests: an LD_PRELOAD library that makes
 * one path ($GPUPROF_SHIM_NODE, default /dev/dri/renderD199) behave as
 * the render node of an Intel GPU (GPUPROF_SHIM_DEVICE_ID, by default a
 * Tiger Lake GT2, 0x9A49), so gpuprof-oa --device and perf gpu record
 * run their real open, read, loss and correlation code on a machine
 * without one.  The behaviour follows the kernel's i915_perf.c,
 * i915_getparam.c, i915_ioctl.c, i915_query.c and
 * gt/intel_gt_clock_utils.c of Linux 7.3 (6.12 alike in all of this), or
 * 6.1's where GPUPROF_SHIM_KERNEL says so; it is a model, not a copy,
 * and nothing here was compared with real hardware: there is no Intel
 * GPU where it was written.
 *
 * The node is an eventfd and the stream a timerfd, so they are real fds
 * that the program can poll(); open, close, ioctl and read are
 * intercepted for them, everything else passes through.  The stream's
 * timer fires every POLL_OA_PERIOD (5 ms when not given), as i915's
 * hrtimer wakes pollers; a read then runs the simulator of
 * tools/perf-gpu/oa/sim.c up to the present and hands out its SAMPLE,
 * REPORT_LOST and BUFFER_LOST records, whole records only, as i915 does.
 *
 * The GPU: its platform is the device id's row in module/oa_platform.c
 * (an id not there plays Tiger Lake GT2), and its reports, rates and
 * topology the simulator's for it (oa/sim-platform.c): Haswell,
 * Broadwell, Skylake, Ice Lake, Tiger Lake, DG2, Meteor Lake and the
 * others of those generations.  PERF_OPEN takes the report formats that
 * GPU's i915 offers (oa_init_supported_formats()): Haswell's 1 to 7,
 * gen8 to Alder Lake's 7 to 10, DG2's 11 and 12, Meteor Lake's 11 to
 * 14, of which 13 and 14 are the media unit's and so EINVAL on the
 * render engine; any other format is EINVAL, as is 0 or one from 15
 * (I915_OA_FORMAT_MAX) on.  The stream's reports are in the format
 * asked for.  A GPU without i915 OA (Cannon Lake, Xe2 and later; DG2 and
 * Meteor Lake on 6.1) makes PERF_OPEN fail with ENOTSUPP (524) first.
 *
 * Its clocks: one OA clock, 64 bits, counting CLOCK_MONOTONIC at the
 * OA timestamp frequency; the reports' timestamps are its low 32 bits.
 * The command streamer's clock counts the same crystal, one tick every
 * 2^s of the OA clock's, and RING_TIMESTAMP is its low 36 bits, as on
 * parts whose register is narrow.  s is 0, one clock, on every GPU but
 * DG2 and graphics 12.70 to 12.74 (Meteor Lake, Arrow Lake), where the
 * OA unit ignores the CTC shift that divides the CS clock
 * (Wa_18013179988 in i915_perf_oa_timestamp_frequency()): there the
 * crystal is 38.4 MHz and s is 3 - CTC shift (GPUPROF_SHIM_CTC_SHIFT,
 * default 2), so the CS clock runs at 19.2 MHz
 * (gen11_read_clock_frequency()) and the OA clock at the crystal's 38.4
 * MHz (the CS clock shifted back left).  CS_TIMESTAMP_FREQUENCY gives
 * the CS clock's rate, OA_TIMESTAMP_FREQUENCY (param 57) the OA clock's,
 * the same elsewhere; 6.1 does not know param 57 (EINVAL).  Periods are
 * oa_exponent_to_ns(): 2^(exponent + 1) OA ticks in ns, rounded up (6.1:
 * GT clock ticks, truncated).  The other GPUs' one rate is the
 * simulator's (12.5 MHz on Haswell and gen8, 12 MHz on big-core gen9 and
 * gen11, 19.2 MHz on gen12 and the gen9 LP parts).
 *
 * Emulated: DRM_IOCTL_VERSION ("i915"); GETPARAM CHIPSET_ID, REVISION,
 * CS_TIMESTAMP_FREQUENCY, PERF_REVISION, OA_TIMESTAMP_FREQUENCY (above);
 * REG_READ of the render RING_TIMESTAMP, with or without
 * I915_REG_READ_8B_WA (above); QUERY of the topology (the simulator's
 * for the GPU: Tiger Lake GT2's 1 slice, 6 subslices, 16 EUs each);
 * PERF_OPEN, validated as i915 does, one stream system-wide, of the
 * render engine; on the stream read (EAGAIN when non-blocking and
 * empty, ENOSPC when not one record fits, EIO once disabled),
 * I915_PERF_IOCTL_ENABLE, _DISABLE and _CONFIG.  Only periodic sampling
 * is simulated; the GPU stays idle.
 *
 * Metric sets, as a stock i915 has them: none until userspace adds one
 * (the i915 of 6.1, 6.12 and 7.3 has no set of its own, no TestOa); the
 * fake sysfs stands for the card's metrics kobject and i915's idr of
 * sets, so what a test put there counts as added.  The card is the
 * lowest cardN under $GPUPROF_SYSFS_ROOT/class/drm/<node>/device/drm,
 * else the lowest with a metrics directory.
 *   ADD_CONFIG, checked in i915's order: EFAULT for an argument it cannot
 *   read; ENOTSUPP (524) on a GPU without i915 OA (above); EINVAL without the card's metrics directory (so without
 *   $GPUPROF_SYSFS_ROOT); EACCES when paranoid and not CAP_PERFMON;
 *   EINVAL when no list has both a pointer and a count; EINVAL for a
 *   uuid not of the 8-4-4-4-12 hex form; then the mux, boolean and flex
 *   lists in turn: ENOMEM for more than 524288 pairs (kmalloc's 4 MiB),
 *   EFAULT for a pair it cannot read, EINVAL for an address outside the
 *   list's whitelist for the GPU (Haswell, gen8/9, Cherryview, gen11,
 *   gen12, DG2 12.55, Meteor Lake 12.70 on; bounds included); on
 *   Haswell, EINVAL for any flex register; EADDRINUSE for a uuid with an
 *   id in the metrics directory; EEXIST for a uuid directory without
 *   one.  Else it makes <metrics>/UUID/id holding the lowest free id
 *   from 2, and returns it.  Values are not masked or kept.
 *   REMOVE_CONFIG: EFAULT, ENOTSUPP and EACCES as above; ENOENT for 0
 *   and for an id no set has; else it removes the set's directory.
 *   PERF_OPEN's and I915_PERF_IOCTL_CONFIG's ids are those of any card's
 *   metrics directory.
 *
 * Environment:
 *   GPUPROF_SHIM_NODE           the fake node's path
 *   GPUPROF_SHIM_DEVICE_ID      the PCI device id CHIPSET_ID gives
 *                               (default 0x9A49), and the GPU played
 *                               (above): its clocks, formats, reports,
 *                               topology and ADD_CONFIG's whitelists;
 *                               read at each use
 *   GPUPROF_SHIM_KERNEL         6.1: 6.1's i915 is played (no param 57,
 *                               no OA on DG2 and Meteor Lake, periods
 *                               truncated); else 7.3's; uname() gives
 *                               the program that kernel's release
 *   GPUPROF_SHIM_CTC_SHIFT      0 to 3 (default 2): the CTC shift of DG2
 *                               and Meteor Lake, whose CS clock is 38.4
 *                               MHz >> (3 - shift)
 *   GPUPROF_SYSFS_ROOT          where class/drm/card* / metrics / * /id are:
 *                               the metric set ids PERF_OPEN accepts, and
 *                               those ADD_CONFIG and REMOVE_CONFIG make
 *                               and remove
 *   GPUPROF_SHIM_LOG            a file: PERF_OPEN appends "flags F", one
 *                               "prop ID VALUE" line per property and
 *                               "open FD" or "open -ERRNO"; the first
 *                               read that hands out a report
 *                               "first_report ts TS ns NS", its 64-bit
 *                               OA timestamp and the CLOCK_MONOTONIC at
 *                               which the OA clock read it (the others
 *                               follow one period apart), and the
 *                               stream's close "close reports N", the
 *                               reports handed out; ADD_CONFIG
 *                               "add_config UUID mux N boolean N flex N
 *                               -> ID" (or "-> -ERRNO", and for an
 *                               address a whitelist refuses " LIST
 *                               0xADDR" after it, LIST mux, boolean or
 *                               flex); REMOVE_CONFIG "remove_config ID
 *                               -> 0" or "-> -ERRNO" (ID "?" when the
 *                               argument cannot be read)
 *   GPUPROF_SHIM_OPEN_ERRNO     EACCES, EPERM, EBUSY, ENODEV, EINVAL, EIO
 *                               or a number: PERF_OPEN fails so, after
 *                               the properties were checked
 *   GPUPROF_SHIM_LOSS_EVERY     N: REPORT_LOST after every Nth report and
 *                               BUFFER_LOST after every 2Nth (two counts,
 *                               so a test can tell them apart)
 *   GPUPROF_SHIM_WRAP_MS        M: the timestamp's low 32 bits, and the
 *                               36-bit register, wrap M ms after the node
 *                               is first opened (the OA clock a multiple
 *                               of 2^(36 + s) then)
 *   GPUPROF_SHIM_PERF_REVISION  what PERF_REVISION says (default the
 *                               played kernel's: 5 on 6.1, 7 on 7.3)
 *   GPUPROF_SHIM_PERFMON        set (to anything): the caller counts as
 *                               perfmon_capable() (CAP_PERFMON or
 *                               CAP_SYS_ADMIN), so rates above 100000 Hz
 *                               are allowed and paranoid does not apply
 *   GPUPROF_SHIM_PARANOID       dev.i915.perf_stream_paranoid, 0 or 1
 *                               (default 1, i915's): 1 without
 *                               GPUPROF_SHIM_PERFMON makes ADD_CONFIG and
 *                               REMOVE_CONFIG fail EACCES (PERF_OPEN does
 *                               not read it)
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
#include <ctype.h>
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
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <sys/utsname.h>
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
/* Not in this libdrm's i915_drm.h: 6.12's uapi has it, 6.1's not. */
#define SHIM_PARAM_OA_TIMESTAMP_FREQUENCY 57

enum shim_kind { SHIM_NONE, SHIM_NODE, SHIM_STREAM };

struct shim_stream {
	int fd;
	bool enabled;
	bool nonblock;
	bool periodic;
	uint64_t metrics_set;
	uint64_t t0;			/* CLOCK_MONOTONIC at the open */
	uint64_t reports;		/* SAMPLE records handed out */
	struct oa_sim *sim;
	struct oa_writer w;
	FILE *f;			/* the simulator writes into q */
	uint8_t *q;
	size_t len, off, cap;
};

static unsigned char shim_kinds[MAX_FDS];
static struct shim_stream *shim_stream;	/* one system-wide, as in i915 */
static uint64_t shim_ts_offset;		/* the OA clock at CLOCK_MONOTONIC 0 */
static bool shim_opened;

/*
 * The GPU GPUPROF_SHIM_DEVICE_ID names, as the shim plays it: its rows
 * in module/oa_platform.c (NULL for an id not known there, which plays
 * the simulator's default, Tiger Lake GT2) and oa/sim-platform.c, and
 * its two clocks.  The command streamer's (CS_TIMESTAMP_FREQUENCY,
 * RING_TIMESTAMP) counts one tick every 2^cs_shift of the OA unit's
 * (OA_TIMESTAMP_FREQUENCY, the reports' timestamps).
 */
struct shim_gpu {
	uint32_t device_id;
	const struct gpuprof_oa_platform *p;
	const struct oa_sim_platform *sim;
	unsigned int ip;		/* graphics IP: 1255 is 12.55 */
	bool oa;			/* i915-perf serves it */
	unsigned int cs_shift;
	uint64_t cs_hz, oa_hz;
};

/* Whether 6.1's i915 is played (GPUPROF_SHIM_KERNEL=6.1), else 7.3's. */
static bool shim_kernel_6_1(void)
{
	const char *k = getenv("GPUPROF_SHIM_KERNEL");

	return k && !strcmp(k, "6.1");
}

/*
 * i915_perf_ioctl_version(): 5 in 6.1 (POLL_OA_PERIOD), 7 in 6.12 and
 * 7.3 (OA_ENGINE_CLASS and OA_ENGINE_INSTANCE at 6, media engines at 7;
 * Meteor Lake with media C6 enabled says 6, which the shim does not
 * play).
 */
static unsigned long shim_perf_revision(void)
{
	return shim_env_ul("GPUPROF_SHIM_PERF_REVISION",
			   shim_kernel_6_1() ? 5 : 7);
}

/*
 * Wa_18013179988 (i915_perf_oa_timestamp_frequency(), 6.12 and 7.3): on
 * DG2 and on graphics 12.70 to 12.74 (Meteor Lake, Arrow Lake) the OA
 * unit ignores the CTC shift that slows the command streamer's clock.
 */
static bool shim_wa_18013179988(unsigned int ip)
{
	return ip == 1255 || (ip >= 1270 && ip <= 1274);
}

/*
 * The GPU now: the variables are read at each use, so a test in one
 * process may play several.  On the Wa_18013179988 GPUs the crystal is
 * the simulator's OA rate (38.4 MHz) and the CTC shift
 * GPUPROF_SHIM_CTC_SHIFT (default 2): the CS clock is the crystal
 * shifted right by 3 - CTC shift (gen11_read_clock_frequency() in
 * intel_gt_clock_utils.c), the OA clock that shifted back left.
 * Elsewhere both are the simulator's one rate.  6.1 has no OA on DG2
 * and does not know Meteor Lake; the shim plays both without OA there.
 */
static void shim_gpu(struct shim_gpu *g)
{
	unsigned long ctc = shim_env_ul("GPUPROF_SHIM_CTC_SHIFT", 2);

	g->device_id = shim_env_ul("GPUPROF_SHIM_DEVICE_ID", OA_SIM_DEVICE_ID);
	g->p = gpuprof_oa_platform_of_device(g->device_id);
	g->sim = oa_sim_platform_of_device(g->device_id);
	g->ip = g->p ? g->p->ip : g->sim->ip;
	g->oa = !g->p || (g->p->oa_since &&
			  (!shim_kernel_6_1() || g->ip < 1255));
	g->cs_shift = 0;
	if (shim_wa_18013179988(g->ip))
		g->cs_shift = 3 - (ctc > 3 ? 3 : ctc);
	g->cs_hz = g->sim->timestamp_hz >> g->cs_shift;
	g->oa_hz = g->cs_hz << g->cs_shift;
}

static uint64_t shim_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

/* The OA clock at CLOCK_MONOTONIC @ns: 64 bits, never wrapping here. */
static uint64_t shim_oa_ts(const struct shim_gpu *g, uint64_t ns)
{
	return shim_ts_offset + (uint64_t)((__uint128_t)ns * g->oa_hz / NSEC);
}

/* When the OA clock reaches @ts: the first ns at which it reads @ts. */
static uint64_t shim_oa_ns(const struct shim_gpu *g, uint64_t ts)
{
	__uint128_t n = (__uint128_t)(ts - shim_ts_offset) * NSEC;

	return (uint64_t)((n + g->oa_hz - 1) / g->oa_hz);
}

/*
 * RING_TIMESTAMP at @ns: the CS clock, the OA clock's count shifted
 * right by cs_shift (both count one crystal), 36 bits as on parts whose
 * register is narrow.
 */
static uint64_t shim_ring_ts(const struct shim_gpu *g, uint64_t ns)
{
	return (shim_oa_ts(g, ns) >> g->cs_shift) & TS_MASK;
}

static int shim_kind(int fd)
{
	return fd >= 0 && fd < MAX_FDS ? shim_kinds[fd] : SHIM_NONE;
}

/*
 * GPUPROF_SHIM_WRAP_MS: the OA clock at @wrap_ms from now a multiple of
 * 2^(36 + cs_shift), where both the register (its 36 bits of the CS
 * clock) and the reports' low 32 bits of the OA clock wrap.
 */
static void shim_place_wrap(uint64_t wrap_ms)
{
	struct shim_gpu g;
	uint64_t span;

	shim_gpu(&g);
	span = 1ull << (TS_BITS + g.cs_shift);
	shim_ts_offset = 0;
	shim_ts_offset = (span - wrap_ms * (g.oa_hz / 1000) -
			  shim_oa_ts(&g, shim_mono_ns())) & (span - 1);
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
		wrap = shim_env_ul("GPUPROF_SHIM_WRAP_MS", 0);
		if (wrap)
			shim_place_wrap(wrap);
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

/*
 * --- Metric set configurations: ADD_CONFIG and REMOVE_CONFIG ------------
 *
 * The facts are those of i915_perf.c in Linux 7.3 (the same in 6.12; 6.1
 * lacks DG2's and Meteor Lake's lists and has no OA on DG2): the checks of
 * i915_perf_add_config_ioctl() and i915_perf_remove_config_ioctl(), the
 * register whitelists i915_perf_init() picks per platform, with bounds
 * inclusive, and the fake sysfs standing for the metrics kobject and the
 * idr of configs.
 */

#define SHIM_ENOTSUPP 524		/* the kernel's own, not in errno.h */
#define SHIM_OA_FORMAT_MAX 15		/* I915_OA_FORMAT_MAX of 6.12 and 7.3 */
#define SHIM_UUID_LEN 36
/* kmalloc's largest object: MAX_PAGE_ORDER 10 of 4 KiB pages. */
#define SHIM_KMALLOC_MAX (4ull << 20)
#define SHIM_OA_REG_SIZE 8		/* struct i915_oa_reg */
#define SHIM_FIRST_CONFIG_ID 2		/* idr_alloc(..., 2, 0, ...) */

/* Registers start to end, both included; a table ends with { 0, 0 }. */
struct shim_range {
	uint32_t start, end;
};

static const struct shim_range shim_gen7_boolean[] = {
	{ 0x2710, 0x272c }, { 0x2740, 0x275c }, { 0x2770, 0x27ac }, { 0, 0 },
};

static const struct shim_range shim_gen12_boolean[] = {
	{ 0x2b2c, 0x2b2c }, { 0xd900, 0xd91c }, { 0xd920, 0xd93c },
	{ 0xd940, 0xd97c }, { 0xdc00, 0xdc3c }, { 0xdc40, 0xdc40 },
	{ 0xdc44, 0xdc44 }, { 0, 0 },
};

static const struct shim_range shim_xehp_boolean[] = {
	{ 0xdc48, 0xdc48 }, { 0xdd00, 0xdd48 }, { 0, 0 },
};

/* The OAM unit's, from graphics 12.70 (Meteor Lake). */
static const struct shim_range shim_mtl_oam_boolean[] = {
	{ 0x393000, 0x39301c }, { 0x393020, 0x39303c },
	{ 0x393040, 0x39307c }, { 0x393200, 0x39323c }, { 0, 0 },
};

static const struct shim_range shim_gen7_mux[] = {
	{ 0x91b8, 0x91cc }, { 0x9800, 0x9888 }, { 0xe180, 0xe180 }, { 0, 0 },
};

static const struct shim_range shim_hsw_mux[] = {
	{ 0x9e80, 0x9ea4 }, { 0x9ec0, 0x9ec0 }, { 0x25100, 0x2ff90 }, { 0, 0 },
};

static const struct shim_range shim_chv_mux[] = {
	{ 0x182300, 0x1823a4 }, { 0, 0 },
};

static const struct shim_range shim_gen8_mux[] = {
	{ 0x0d00, 0x0d2c }, { 0x20cc, 0x20cc }, { 0, 0 },
};

static const struct shim_range shim_gen11_mux[] = {
	{ 0x91c8, 0x91dc }, { 0, 0 },
};

static const struct shim_range shim_gen12_mux[] = {
	{ 0x0d00, 0x0d04 }, { 0x0d0c, 0x0d2c }, { 0x9840, 0x9840 },
	{ 0x9884, 0x9888 }, { 0x20cc, 0x20cc }, { 0, 0 },
};

/* 12.70 on: 0x20cc is something else there, VISACTL comes in. */
static const struct shim_range shim_mtl_mux[] = {
	{ 0x0d00, 0x0d04 }, { 0x0d0c, 0x0d2c }, { 0x9840, 0x9840 },
	{ 0x9884, 0x9888 }, { 0x38d100, 0x38d114 }, { 0, 0 },
};

/* EU_PERF_CNTL0 to 6, one register each. */
static const struct shim_range shim_gen8_flex[] = {
	{ 0xe458, 0xe458 }, { 0xe558, 0xe558 }, { 0xe658, 0xe658 },
	{ 0xe758, 0xe758 }, { 0xe45c, 0xe45c }, { 0xe55c, 0xe55c },
	{ 0xe65c, 0xe65c }, { 0, 0 },
};

/*
 * What i915 lets a configuration program on one kind of GPU: per list,
 * the tables an address may be in (NULL-terminated).  Flex lists are
 * refused whole below gen8.
 */
struct shim_oa_rules {
	unsigned int gen;
	const struct shim_range *mux[4];
	const struct shim_range *boolean[4];
	const struct shim_range *flex[2];
};

static const struct shim_oa_rules shim_rules_hsw = {
	7, { shim_gen7_mux, shim_hsw_mux }, { shim_gen7_boolean }, { NULL },
};

static const struct shim_oa_rules shim_rules_gen8 = {
	8, { shim_gen7_mux, shim_gen8_mux }, { shim_gen7_boolean },
	{ shim_gen8_flex },
};

static const struct shim_oa_rules shim_rules_chv = {
	8, { shim_gen7_mux, shim_chv_mux }, { shim_gen7_boolean },
	{ shim_gen8_flex },
};

static const struct shim_oa_rules shim_rules_gen11 = {
	11, { shim_gen7_mux, shim_gen8_mux, shim_gen11_mux },
	{ shim_gen7_boolean }, { shim_gen8_flex },
};

static const struct shim_oa_rules shim_rules_gen12 = {
	12, { shim_gen12_mux }, { shim_gen12_boolean }, { shim_gen8_flex },
};

/* DG2 (12.55): OA slice contribution limits, no OAM yet. */
static const struct shim_oa_rules shim_rules_xehp = {
	12, { shim_gen12_mux }, { shim_xehp_boolean, shim_gen12_boolean },
	{ shim_gen8_flex },
};

static const struct shim_oa_rules shim_rules_mtl = {
	12, { shim_mtl_mux },
	{ shim_xehp_boolean, shim_gen12_boolean, shim_mtl_oam_boolean },
	{ shim_gen8_flex },
};

/*
 * The rules of the GPU GPUPROF_SHIM_DEVICE_ID names, by its IP version
 * (shim_gpu()).  NULL where i915 has no OA (Cannon Lake, Xe2 and later;
 * DG2 and Meteor Lake on 6.1).
 */
static const struct shim_oa_rules *shim_oa_rules(void)
{
	struct shim_gpu g;

	shim_gpu(&g);
	if (!g.oa)
		return NULL;
	switch (g.ip / 100) {
	case 7:
		return &shim_rules_hsw;
	case 8:
	case 9:
		if (g.p && g.p->metrics && !strcmp(g.p->metrics, "chv"))
			return &shim_rules_chv;
		return &shim_rules_gen8;
	case 11:
		return &shim_rules_gen11;
	case 12:
		if (g.ip >= 1270)
			return &shim_rules_mtl;
		return g.ip >= 1255 ? &shim_rules_xehp : &shim_rules_gen12;
	}
	return NULL;
}

static bool shim_reg_allowed(const struct shim_range *const *tables,
			     uint32_t addr)
{
	const struct shim_range *r;

	for (; *tables; tables++)
		for (r = *tables; r->start || r->end; r++)
			if (addr >= r->start && addr <= r->end)
				return true;
	return false;
}

/* perf_stream_paranoid (GPUPROF_SHIM_PARANOID, default 1). */
static bool shim_paranoid(void)
{
	return shim_env_ul("GPUPROF_SHIM_PARANOID", 1) != 0;
}

/* perfmon_capable(): CAP_PERFMON or CAP_SYS_ADMIN. */
static bool shim_perfmon_capable(void)
{
	return getenv("GPUPROF_SHIM_PERFMON") != NULL;
}

/* copy_from_user(): 0, or -EFAULT when the caller cannot read @src. */
static int shim_copy_from_user(void *dst, uint64_t src, size_t size)
{
	struct iovec local = { dst, size };
	struct iovec remote = { (void *)(uintptr_t)src, size };

	if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) != (ssize_t)size)
		return -EFAULT;
	return 0;
}

static bool shim_is_dir(const char *path)
{
	struct stat sb;

	return !stat(path, &sb) && S_ISDIR(sb.st_mode);
}

/*
 * The lowest N of the entries cardN in @dir, of those with a metrics
 * directory under <@root>/class/drm when @metrics; -1 when none.
 */
static long shim_lowest_card(const char *dir, const char *root, bool metrics)
{
	char path[8192];
	struct dirent *e;
	long n, best = -1;
	char *end;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, "card", 4) || !e->d_name[4])
			continue;
		n = strtol(e->d_name + 4, &end, 10);
		if (*end || n < 0 || (best >= 0 && n >= best))
			continue;
		snprintf(path, sizeof(path), "%s/class/drm/card%ld/metrics",
			 root, n);
		if (!metrics || shim_is_dir(path))
			best = n;
	}
	if (d)
		closedir(d);
	return best;
}

/*
 * The metrics directory of the node's card, the metrics kobject: that of
 * the lowest cardN under <root>/class/drm/<node>/device/drm, else of the
 * lowest cardN under <root>/class/drm that has one; false when it is not
 * there.  Only a fake tree ($GPUPROF_SYSFS_ROOT) is ever written, so
 * without one there is none.
 */
static bool shim_metrics_dir(char *out, size_t size)
{
	const char *root = getenv("GPUPROF_SYSFS_ROOT");
	const char *node = getenv("GPUPROF_SHIM_NODE");
	char dir[4096];
	long n;

	if (!root || !*root)
		return false;
	if (!node || !*node)
		node = "/dev/dri/renderD199";
	if (strrchr(node, '/'))
		node = strrchr(node, '/') + 1;
	snprintf(dir, sizeof(dir), "%s/class/drm/%s/device/drm", root, node);
	n = shim_lowest_card(dir, root, false);
	if (n < 0) {
		snprintf(dir, sizeof(dir), "%s/class/drm", root);
		n = shim_lowest_card(dir, root, true);
	}
	if (n < 0)
		return false;
	snprintf(out, size, "%s/class/drm/card%ld/metrics", root, n);
	return shim_is_dir(out);
}

/* The id in <@dir>/<@name>/id: 0, or -1 when there is none. */
static int shim_set_id(const char *dir, const char *name, uint64_t *id)
{
	char path[8192];
	unsigned long long v = 0;
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/%s/id", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ret = fscanf(f, "%llu", &v) == 1 ? 0 : -1;
	fclose(f);
	*id = v;
	return ret;
}

/* The uuid under @dir whose id is @id, into @uuid; false when none. */
static bool shim_set_of_id(const char *dir, uint64_t id,
			   char uuid[SHIM_UUID_LEN + 1])
{
	struct dirent *e;
	bool found = false;
	uint64_t v;
	DIR *d = opendir(dir);

	while (d && !found && (e = readdir(d))) {
		if (e->d_name[0] == '.' || strlen(e->d_name) != SHIM_UUID_LEN)
			continue;
		found = !shim_set_id(dir, e->d_name, &v) && v == id;
		if (found)
			memcpy(uuid, e->d_name, SHIM_UUID_LEN + 1);
	}
	if (d)
		closedir(d);
	return found;
}

/* A list counts as given with both a pointer and a length. */
static bool shim_list_given(uint64_t ptr, uint32_t n)
{
	return ptr && n;
}

/*
 * alloc_oa_regs(): nothing to check for no registers; ENOMEM for more
 * than kmalloc gives; then per {addr, value} pair EFAULT for an address
 * it cannot read, EINVAL for one outside @tables (said in @why), EFAULT
 * for a value it cannot read.
 */
static int shim_check_regs(const char *list,
			   const struct shim_range *const *tables,
			   uint64_t ptr, uint32_t n, char *why, size_t size)
{
	uint32_t i, addr, value;

	if (!n)
		return 0;
	if (!tables[0])
		return -EINVAL;
	if ((uint64_t)n * SHIM_OA_REG_SIZE > SHIM_KMALLOC_MAX)
		return -ENOMEM;
	for (i = 0; i < n; i++, ptr += 2 * sizeof(uint32_t)) {
		if (shim_copy_from_user(&addr, ptr, sizeof(addr)))
			return -EFAULT;
		if (!shim_reg_allowed(tables, addr)) {
			snprintf(why, size, " %s 0x%08x", list, addr);
			return -EINVAL;
		}
		if (shim_copy_from_user(&value, ptr + sizeof(addr),
					sizeof(value)))
			return -EFAULT;
	}
	return 0;
}

/* The three register lists, in i915's order. */
static int shim_check_lists(const struct shim_oa_rules *r,
			    const struct drm_i915_perf_oa_config *c,
			    char *why, size_t size)
{
	int err;

	err = shim_check_regs("mux", r->mux, c->mux_regs_ptr, c->n_mux_regs,
			      why, size);
	if (!err)
		err = shim_check_regs("boolean", r->boolean,
				      c->boolean_regs_ptr, c->n_boolean_regs,
				      why, size);
	if (err)
		return err;
	if (r->gen < 8)
		return c->n_flex_regs ? -EINVAL : 0;
	return shim_check_regs("flex", r->flex, c->flex_regs_ptr,
			       c->n_flex_regs, why, size);
}

/* The sysfs entry of a new set: <@dir>/<@uuid>/id, the lowest free id. */
static int shim_publish_set(const char *dir, const char *uuid)
{
	char path[8192], other[SHIM_UUID_LEN + 1];
	uint64_t id = SHIM_FIRST_CONFIG_ID;
	FILE *f;

	while (shim_set_of_id(dir, id, other))
		id++;
	snprintf(path, sizeof(path), "%s/%s", dir, uuid);
	if (mkdir(path, 0755))
		return -errno;		/* sysfs_create_group(): EEXIST */
	snprintf(path, sizeof(path), "%s/%s/id", dir, uuid);
	f = fopen(path, "w");
	if (!f || fprintf(f, "%llu\n", (unsigned long long)id) < 0 ||
	    fclose(f)) {
		if (f)
			unlink(path);
		snprintf(path, sizeof(path), "%s/%s", dir, uuid);
		rmdir(path);
		return -ENOMEM;
	}
	return id;
}

static int shim_add_config_checked(const struct drm_i915_perf_oa_config *c,
				   char *why, size_t size)
{
	const struct shim_oa_rules *r = shim_oa_rules();
	char dir[4096], uuid[SHIM_UUID_LEN + 1];
	uint64_t id;
	int err;

	if (!r)
		return -SHIM_ENOTSUPP;
	if (!shim_metrics_dir(dir, sizeof(dir)))
		return -EINVAL;
	if (shim_paranoid() && !shim_perfmon_capable())
		return -EACCES;
	if (!shim_list_given(c->mux_regs_ptr, c->n_mux_regs) &&
	    !shim_list_given(c->boolean_regs_ptr, c->n_boolean_regs) &&
	    !shim_list_given(c->flex_regs_ptr, c->n_flex_regs))
		return -EINVAL;
	memcpy(uuid, c->uuid, SHIM_UUID_LEN);
	uuid[SHIM_UUID_LEN] = '\0';
	if (!shim_uuid_valid(uuid))
		return -EINVAL;
	err = shim_check_lists(r, c, why, size);
	if (err)
		return err;
	if (!shim_set_id(dir, uuid, &id))
		return -EADDRINUSE;
	return shim_publish_set(dir, uuid);
}

static int shim_add_config(void *arg)
{
	struct drm_i915_perf_oa_config c;
	char uuid[SHIM_UUID_LEN + 1], why[64] = "";
	unsigned int i;
	int ret;

	if (shim_copy_from_user(&c, (uintptr_t)arg, sizeof(c))) {
		shim_log("add_config ? -> -%d\n", EFAULT);
		return shim_fail(EFAULT);
	}
	ret = shim_add_config_checked(&c, why, sizeof(why));
	for (i = 0; i < SHIM_UUID_LEN; i++)
		uuid[i] = isgraph((unsigned char)c.uuid[i]) ? c.uuid[i] : '?';
	uuid[SHIM_UUID_LEN] = '\0';
	shim_log("add_config %s mux %u boolean %u flex %u -> %d%s\n", uuid,
		 c.n_mux_regs, c.n_boolean_regs, c.n_flex_regs, ret, why);
	return ret < 0 ? shim_fail(-ret) : ret;
}

static int shim_remove_config_checked(uint64_t id)
{
	char dir[4096], path[8192], uuid[SHIM_UUID_LEN + 1];

	if (!shim_oa_rules())
		return -SHIM_ENOTSUPP;
	if (shim_paranoid() && !shim_perfmon_capable())
		return -EACCES;
	/* The idr starts at 1: nothing is ever found at 0. */
	if (!id || !shim_metrics_dir(dir, sizeof(dir)) ||
	    !shim_set_of_id(dir, id, uuid))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/%s/id", dir, uuid);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%s", dir, uuid);
	rmdir(path);
	return 0;
}

static int shim_remove_config(void *arg)
{
	uint64_t id;
	int ret;

	if (shim_copy_from_user(&id, (uintptr_t)arg, sizeof(id))) {
		shim_log("remove_config ? -> -%d\n", EFAULT);
		return shim_fail(EFAULT);
	}
	ret = shim_remove_config_checked(id);
	shim_log("remove_config %llu -> %d\n", (unsigned long long)id, ret);
	return ret < 0 ? shim_fail(-ret) : 0;
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

/*
 * The period of @exponent in ns, as i915's oa_exponent_to_ns(): 7.3's
 * (and 6.12's) rounds up on the OA clock; 6.1's truncates on the GT
 * clock (intel_gt_clock_interval_to_ns()), the same one on every GPU
 * 6.1 has OA on.
 */
static uint64_t shim_exponent_ns(const struct shim_gpu *g, uint64_t exponent)
{
	__uint128_t n = (__uint128_t)(2ull << exponent) * NSEC;

	if (shim_kernel_6_1())
		return (uint64_t)(n / g->cs_hz);
	return (uint64_t)((n + g->oa_hz - 1) / g->oa_hz);
}

/*
 * The report formats i915 offers on @g (oa_init_supported_formats() of
 * i915_perf.c, the same from 6.1 to 7.3 where each has the GPU): all
 * seven of Haswell's; gen8 to Alder Lake C4_B8, A12, A12_B8_C8 and
 * A32u40_A4u32_B8_C8; DG2 the OAR unit's A32u40_A4u32_B8_C8 and
 * A24u40_A14u32_B8_C8; Meteor Lake (Arrow Lake too) those and its media
 * unit's MPEC8u64_B8_C8 and MPEC8u32_B8_C8.
 */
static bool shim_format_offered(const struct shim_gpu *g, uint64_t f)
{
	if (g->ip < 800)
		return f >= GPUPROF_OA_FORMAT_A13 && f <= GPUPROF_OA_FORMAT_C4_B8;
	if (g->ip < 1255)
		return f >= GPUPROF_OA_FORMAT_C4_B8 &&
		       f <= GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8;
	if (g->ip < 1270)
		return f == GPUPROF_OAR_FORMAT_A32u40_A4u32_B8_C8 ||
		       f == GPUPROF_OA_FORMAT_A24u40_A14u32_B8_C8;
	return f >= GPUPROF_OAR_FORMAT_A32u40_A4u32_B8_C8 &&
	       f <= GPUPROF_OAM_FORMAT_MPEC8u32_B8_C8;
}

/* The media unit's formats: no use on the render engine's OAG unit. */
static bool shim_format_oam(uint64_t f)
{
	return f == GPUPROF_OAM_FORMAT_MPEC8u64_B8_C8 ||
	       f == GPUPROF_OAM_FORMAT_MPEC8u32_B8_C8;
}

/*
 * The checks of i915's read_properties_unlocked() and stream init.  The
 * engine is always the render one, the only one the shim models: after
 * the properties, a format of the media unit is EINVAL
 * (engine_supports_oa_format()).
 */
static int shim_check_props(const struct drm_i915_perf_open_param *p,
			    struct shim_stream *st, uint64_t *poll_ns,
			    unsigned int *exponent, uint64_t *format)
{
	const uint64_t *props = (const uint64_t *)(uintptr_t)p->properties_ptr;
	bool sample = false;
	struct shim_gpu g;
	uint32_t i;

	shim_gpu(&g);
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
			if (!value || value >= SHIM_OA_FORMAT_MAX ||
			    !shim_format_offered(&g, value))
				return EINVAL;
			*format = value;
			break;
		case DRM_I915_PERF_PROP_OA_EXPONENT:
			if (value > OA_EXPONENT_MAX)
				return EINVAL;
			if (NSEC / shim_exponent_ns(&g, value) > MAX_SAMPLE_RATE &&
			    !shim_perfmon_capable())
				return EACCES;
			*exponent = value;
			st->periodic = true;
			break;
		case DRM_I915_PERF_PROP_POLL_OA_PERIOD:
			if (shim_perf_revision() < 5 ||
			    value < 100000)
				return EINVAL;
			*poll_ns = value;
			break;
		default:
			/* Unknown ids, and what the shim does not model:
			 * context filtering, preemption hold, SSEU, engines
			 * other than the render one. */
			return EINVAL;
		}
	}
	if (shim_format_oam(*format))
		return EINVAL;
	if (!sample || !*format || !st->metrics_set)
		return EINVAL;
	return 0;
}

/*
 * The stream's simulator: the GPU's own reports in @format, from the OA
 * clock's reading at the open, GPUPROF_SHIM_LOSS_EVERY's losses.
 */
static int shim_stream_sim(struct shim_stream *st, const struct shim_gpu *g,
			   unsigned int exponent, uint64_t format)
{
	struct oa_sim_config cfg = {
		.seed = 1,
		.device_id = g->device_id,
		.format = format,
		.period_ns = shim_exponent_ns(g, exponent),
		.start_cpu_ns = st->t0,
		.start_gpu_ts = shim_oa_ts(g, st->t0) ? shim_oa_ts(g, st->t0) : 1,
	};

	cfg.report_lost_every = shim_env_ul("GPUPROF_SHIM_LOSS_EVERY", 0);
	cfg.buffer_lost_every = 2 * cfg.report_lost_every;
	oa_writer_init(&st->w, st->f);
	return oa_sim_init(st->sim, &cfg, &st->w);
}

static int shim_perf_open(struct drm_i915_perf_open_param *p)
{
	const uint64_t *props = (const uint64_t *)(uintptr_t)p->properties_ptr;
	static const cookie_io_functions_t io = { .write = shim_queue_write };
	uint64_t poll_ns = DEFAULT_POLL_NS, format = 0;
	unsigned int exponent = 0;
	struct itimerspec its = { 0 };
	struct shim_stream *st;
	struct shim_gpu g;
	uint32_t i;
	int err;

	shim_gpu(&g);
	shim_log("flags %u\n", p->flags);
	for (i = 0; p->num_properties < DRM_I915_PERF_PROP_MAX &&
	     i < p->num_properties; i++)
		shim_log("prop %llu %llu\n", (unsigned long long)props[2 * i],
			 (unsigned long long)props[2 * i + 1]);
	err = !g.oa ? SHIM_ENOTSUPP : 0;
	if (!err && p->flags & ~(I915_PERF_FLAG_FD_CLOEXEC |
				 I915_PERF_FLAG_FD_NONBLOCK |
				 I915_PERF_FLAG_DISABLED))
		err = EINVAL;
	if (err) {
		shim_log("open -%d\n", err);
		return shim_fail(err);
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
	if (!st->f || !st->sim ||
	    (st->periodic && shim_stream_sim(st, &g, exponent, format))) {
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
	union {	/* DG2's 32 subslices of 16 EUs take 85 bytes */
		struct drm_i915_query_topology_info info;
		uint8_t bytes[512];
	} topo;
	struct shim_gpu g;
	size_t len;
	uint32_t i;

	/* The simulator's topology of the GPU played. */
	shim_gpu(&g);
	len = oa_sim_platform_topology(g.sim, &topo, sizeof(topo));
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

/*
 * i915_getparam_ioctl() (i915_getparam.c): CS_TIMESTAMP_FREQUENCY is
 * the GT's clock; OA_TIMESTAMP_FREQUENCY, which 6.12 has and 6.1 does
 * not know (EINVAL), is i915_perf_oa_timestamp_frequency(), another
 * clock on the Wa_18013179988 GPUs only.
 */
static int shim_getparam(drm_i915_getparam_t *gp)
{
	struct shim_gpu g;

	shim_gpu(&g);
	switch (gp->param) {
	case I915_PARAM_CHIPSET_ID:
		*gp->value = g.device_id;
		return 0;
	case I915_PARAM_REVISION:
		*gp->value = OA_SIM_DEVICE_REV;
		return 0;
	case I915_PARAM_CS_TIMESTAMP_FREQUENCY:
		*gp->value = g.cs_hz;
		return 0;
	case I915_PARAM_PERF_REVISION:
		*gp->value = shim_perf_revision();
		return 0;
	case SHIM_PARAM_OA_TIMESTAMP_FREQUENCY:
		if (shim_kernel_6_1())
			break;
		*gp->value = g.oa_hz;
		return 0;
	}
	return shim_fail(EINVAL);
}

static int shim_node_ioctl(unsigned long req, void *arg)
{
	const char *driver = getenv("GPUPROF_SHIM_DRIVER");
	struct drm_version *v = arg;
	drm_i915_getparam_t *gp = arg;
	struct drm_i915_reg_read *reg = arg;
	struct shim_gpu g;

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
		return shim_getparam(gp);
	case DRM_IOCTL_I915_REG_READ:
		/* i915_reg_read_ioctl: the 8-byte entry, flags in the low bits. */
		if ((reg->offset & ~7ull) != 0x2358 ||
		    (reg->offset & 7) > I915_REG_READ_8B_WA)
			return shim_fail(EINVAL);
		shim_gpu(&g);
		reg->val = shim_ring_ts(&g, shim_mono_ns());
		return 0;
	case DRM_IOCTL_I915_QUERY:
		return shim_query(arg);
	case DRM_IOCTL_I915_PERF_OPEN:
		return shim_perf_open(arg);
	case DRM_IOCTL_I915_PERF_ADD_CONFIG:
		return shim_add_config(arg);
	case DRM_IOCTL_I915_PERF_REMOVE_CONFIG:
		return shim_remove_config(arg);
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
 * A report leaves the shim: the first one's OA timestamp, and the
 * CLOCK_MONOTONIC at which the OA clock read it, go to the log, so a
 * test knows when the reports were taken without asking the code under
 * test; the GPU idle, the simulator makes them one period apart.
 */
static void shim_handed_out(struct shim_stream *st)
{
	struct shim_gpu g;
	uint64_t ts;

	if (st->reports++)
		return;
	shim_gpu(&g);
	ts = st->sim->start_gpu + st->sim->first_report;
	shim_log("first_report ts %llu ns %llu\n", (unsigned long long)ts,
		 (unsigned long long)shim_oa_ns(&g, ts));
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
			if (h.type == DRM_I915_PERF_RECORD_SAMPLE)
				shim_handed_out(st);
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

/*
 * The kernel the shim plays is the one the program finds running: a
 * recording names it, and which GPUs and formats i915-perf serves follow
 * from it (oa_node_running_kernel()), whatever kernel the test machine
 * has.
 */
int uname(struct utsname *u)
{
	REAL(uname);

	if (real_uname(u))
		return -1;
	snprintf(u->release, sizeof(u->release), "%s",
		 shim_kernel_6_1() ? "6.1.0-shim" : "7.3.0-shim");
	return 0;
}

int close(int fd)
{
	REAL(close);

	if (shim_kind(fd) == SHIM_STREAM && shim_stream) {
		shim_log("close reports %llu\n",
			 (unsigned long long)shim_stream->reports);
		shim_stream_free(shim_stream);
		shim_stream = NULL;
	}
	if (shim_kind(fd) != SHIM_NONE)
		shim_kinds[fd] = SHIM_NONE;
	return real_close(fd);
}
