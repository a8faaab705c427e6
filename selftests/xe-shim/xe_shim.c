// SPDX-License-Identifier: GPL-2.0-only
/*
 * An xe stand-in for the host tests: an LD_PRELOAD library that makes one
 * path ($GPUPROF_SHIM_NODE, default /dev/dri/renderD199) behave as the
 * render node of a Lunar Lake (0x6420) under xe, so the xe OA code of
 * gpuprof-oa runs its real open, read, loss and correlation paths on a
 * machine without such a GPU.  The behaviour follows xe_oa.c,
 * xe_observation.c and xe_query.c of Linux 6.12 (the facts, with line
 * numbers, are in the lead's .deps/xe-oa-facts.md), or of 7.3 where
 * GPUPROF_SHIM_KERNEL says so or the GPU is a Panther Lake, which only
 * 7.3's xe knows; it is a model, not a copy, and nothing here was
 * compared with real hardware.  It is the
 * twin of selftests/i915-shim/i915_shim.c: the same trick, the same
 * variables where they mean the same.
 *
 * The node is an eventfd and a stream a timerfd, so both are real fds
 * the program can poll() and fcntl(); open, close, ioctl and read are
 * intercepted for them.  A stream's timer fires every 5 ms while the
 * stream is enabled, as xe's 200 Hz hrtimer wakes pollers.  A read runs
 * the simulator of tools/perf-gpu/oa/sim.c (Lunar Lake row, PEC64u64) up
 * to the present and moves what it wrote into a model of the OA buffer:
 * the reports, bare, back to back, and the loss records as bits of a
 * model OASTATUS register.
 *
 * Emulated:
 *   DRM_IOCTL_VERSION: "xe".
 *   DRM_IOCTL_XE_DEVICE_QUERY, the size-0 call giving the size and any
 *   other size than that one EINVAL: CONFIG (device id and revision),
 *   GT_LIST (a main and a media GT at 19.2 MHz), GT_TOPOLOGY (8 Xe
 *   cores of 8 SIMD16 EUs on the main GT, none on the media GT),
 *   ENGINE_CYCLES (40 bytes; the five clocks xe accepts, EINVAL for
 *   others and for an engine the GPU lacks; width 64 as on Xe2; the cycles count
 *   CLOCK_MONOTONIC at 19.2 MHz), OA_UNITS (OAG 0 with render and
 *   compute, OAM 1 with video decode and enhance, 19.2 MHz each).
 *   Other queries give EINVAL.
 *   DRM_IOCTL_XE_OBSERVATION:
 *     STREAM_OPEN, its property chain checked in xe_oa.c's order: E2BIG
 *     past 16 links; EINVAL for a pad, an extension name, a property id
 *     0 or above the kernel's last (11 in 6.12, 13 in 7.3), a unit id
 *     past the last unit, a format outside Xe2's table, an exponent above
 *     31, NUM_SYNCS above 1024, (7.3) an OA_BUFFER_SIZE not a power of
 *     two from 128 KiB to 128 MiB, a WAIT_NUM_REPORTS of 0; ENOENT for
 *     any exec queue
 *     (the shim has none); EINVAL for NO_PREEMPT (no exec queue);
 *     EACCES when paranoid without CAP_PERFMON; EINVAL without
 *     SAMPLE_OA (so for an exponent without it), without a format, or a
 *     format of the other unit's type; (7.3) EINVAL for more reports
 *     to wait for than the buffer holds; EINVAL for syncs, not modelled;
 *     EBUSY when the unit has a stream (one per unit); EINVAL for a
 *     metric set that is not registered.  Then, a shim limit: EINVAL for
 *     a unit other than 0 or a format other than PEC64u64 (valid, but
 *     not simulated).
 *     The fd has neither O_NONBLOCK nor O_CLOEXEC, as xe's; read()
 *     honours O_NONBLOCK set later with fcntl().
 *     ADD_CONFIG: EACCES as above; EINVAL for extensions, no registers
 *     or a uuid not of the 8-4-4-4-12 hex form; EADDRINUSE for a uuid
 *     registered; else the lowest free id from 1 (xe's idr).  Registers
 *     are not checked against xe's whitelists.
 *     REMOVE_CONFIG: EACCES as above; ENOENT for an unknown id.
 *   The stream fd: read() gives whole reports only, ENOSPC when not one
 *   fits, EAGAIN when non-blocking and empty, EINVAL when blocking on a
 *   stream without a period; before copying, a loss since the last read
 *   gives -1/EIO with nothing copied, its bits then read by STATUS (the
 *   reports stay, for the next read); STATUS gives the bits the last
 *   read found (0 after a read that found none); ENABLE (empties the
 *   buffer and the status, as xe re-initialises both) and DISABLE (the
 *   reports so far stay readable) do nothing in the state they ask for;
 *   CONFIG takes a chain of METRIC_SET only (other properties EINVAL,
 *   an unknown id ENODEV) and returns the previous id; INFO gives the
 *   buffer size, 16 MiB or (7.3) OA_BUFFER_SIZE's.  The buffer holds
 *   that many bytes of reports at most: beyond that the oldest go and
 *   STATUS says BUFFER_OVERFLOW.
 *
 * 7.3 differs from 6.12 where gpuprof meets it: OA_UNITS lists the media
 * GT's SAG unit (type OAM_SAG, no engine) as unit 1 before the media
 * engines' OAM unit, now 2 (xe_oa.c's num_oa_units_per_gt() on an
 * integrated Xe2 or later), gives each unit its gt_id and the
 * capabilities OA_BUFFER_SIZE, WAIT_NUM_REPORTS, OAM and OA_UNIT_GT_ID;
 * STREAM_OPEN takes the two properties of 7.3 above.  A Panther Lake
 * (GPUPROF_SHIM_DEVICE_ID 0xB080 and the others) has graphics and media
 * IP 30.00 in GT_LIST and 12 Xe cores in GT_TOPOLOGY; under 6.12 its
 * node does not open (ENXIO): that xe binds no Panther Lake.
 *
 * Metric sets, device-global in xe and outliving the fd, live in the
 * shim's table, read at the first observation ioctl from the sysfs under
 * $GPUPROF_SYSFS_ROOT (class/drm/card<N>/metrics/<uuid>/id, as another
 * process or the test left them).  ADD_CONFIG writes its set there too,
 * under the first card that has a metrics directory, and REMOVE_CONFIG
 * deletes it, so a program that reads the id back from sysfs after
 * EADDRINUSE finds it.  Without GPUPROF_SYSFS_ROOT only the table holds
 * them (the real /sys is never written).
 *
 * Environment:
 *   GPUPROF_SHIM_NODE        the fake node's path
 *   GPUPROF_SHIM_DEVICE_ID   the PCI device id CONFIG gives (0x6420); a
 *                            Battlemage or Panther Lake id makes the
 *                            simulator one
 *   GPUPROF_SHIM_KERNEL      6.12 or 7.3: whose xe is played (default
 *                            7.3 for a Panther Lake, else 6.12)
 *   GPUPROF_SYSFS_ROOT       where the metric sets are (see above)
 *   GPUPROF_SHIM_LOG         a file: STREAM_OPEN appends "prop ID VALUE"
 *                            per link and "open FD" or "open -ERRNO";
 *                            ADD_CONFIG "add UUID ID" or "add -ERRNO";
 *                            REMOVE_CONFIG "remove ID" or "remove -ERRNO"
 *   GPUPROF_SHIM_PARANOID    dev.xe.observation_paranoid (default 1)
 *   GPUPROF_SHIM_PERFMON     set: the caller counts as CAP_PERFMON
 *   GPUPROF_SHIM_LOSS_EVERY  N: the simulator's REPORT_LOST after every
 *                            Nth report (STATUS bit 0) and BUFFER_LOST
 *                            after every 2Nth (bit 1)
 *   GPUPROF_SHIM_WRAP_MS     M: the 56-bit report timestamps wrap M ms
 *                            after the node is first opened
 *   GPUPROF_SHIM_JOBS        set: the simulated GPU runs while any of
 *                            the kernel's fences is in flight, each
 *                            timeline a context of its own
 *                            (lib/shim_jobs.h; needs tracefs and the
 *                            right to trace the whole system, else
 *                            STREAM_OPEN fails with one line on
 *                            stderr); unset, it stays idle
 *
 * Into a sanitized program, the sanitizer's runtime must come first:
 * LD_PRELOAD="/path/libasan.so.8 libxe_shim.so".  The shim itself is not
 * sanitized; it calls the next definition (RTLD_NEXT) of what it
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
#include <time.h>
#include <unistd.h>

#include <drm.h>

#include "../../tools/perf-gpu/oa/device.h"
#include "../../tools/perf-gpu/oa/sim.h"
#include "../lib/shim.h"
#include "../lib/shim_jobs.h"
#include "../../tools/perf-gpu/oa/xe-uapi.h"

#define NSEC 1000000000ull
#define MAX_FDS 4096
#define SHIM_DEVICE_ID 0x6420		/* Lunar Lake */
#define SHIM_REVISION 4
#define REF_HZ 19200000ull		/* GT reference = OA timestamp clock */
#define POLL_NS 5000000ull		/* xe's 200 Hz hrtimer */
#define OA_BUFFER_SIZE (16u << 20)	/* XE_OA_BUFFER_SIZE */
#define OA_BUFFER_MIN (128u << 10)	/* 7.3's OA_BUFFER_SIZE range */
#define OA_BUFFER_MAX (128u << 20)
#define OA_EXPONENT_MAX 31
#define MAX_SYNCS 1024			/* DRM_XE_MAX_SYNCS */
#define N_UNITS 3			/* 7.3's; 6.12 has the first 2 */
#define MAX_CONFIGS 256
#define UUID_LEN 36

/* Engine classes of xe's uAPI beyond xe-uapi.h's two. */
#define CLASS_COPY 1
#define CLASS_VIDEO_DECODE 2
#define CLASS_VIDEO_ENHANCE 3

/* STATUS's bits: what the simulator's loss records stand for. */
#define ST_REPORT_LOST OA_XE_OASTATUS_REPORT_LOST
#define ST_OVERFLOW OA_XE_OASTATUS_BUFFER_OVERFLOW

enum shim_kind { SHIM_NONE, SHIM_NODE, SHIM_STREAM };

struct shim_stream {
	int fd;
	unsigned int unit;
	bool enabled;
	bool periodic;
	bool discard;			/* disabled: the simulator's output goes */
	uint64_t metric_set;
	uint64_t t0;			/* CLOCK_MONOTONIC at the open */
	struct oa_sim *sim;
	struct oa_writer w;
	FILE *f;			/* the simulator writes records into q */
	uint8_t *q;
	size_t q_len, q_cap;
	uint8_t *buf;			/* the OA buffer: bare reports */
	size_t buf_off, buf_len, buf_cap;
	uint64_t hw_status;		/* the model OASTATUS: losses since */
	uint64_t status;		/* what the last read found */
	uint64_t buf_size;		/* the OA buffer's bytes */
	struct shim_jobs *jobs;		/* $GPUPROF_SHIM_JOBS: what runs */
};

struct shim_config {
	char uuid[UUID_LEN + 1];
	uint64_t id;
};

static unsigned char shim_kinds[MAX_FDS];
static struct shim_stream *shim_streams[N_UNITS];
static struct shim_config shim_configs[MAX_CONFIGS];
static unsigned int shim_n_configs;
static bool shim_configs_loaded;
static uint64_t shim_ts_offset;
static bool shim_opened;

/*
 * The engines, as ENGINE_CYCLES knows them: the main GT's, OAG's two
 * first, then the media GT's, OAM's.
 */
static const struct oa_xe_engine_class_instance shim_engines[] = {
	{ OA_XE_ENGINE_CLASS_RENDER, 0, 0, 0 },
	{ OA_XE_ENGINE_CLASS_COMPUTE, 0, 0, 0 },
	{ CLASS_COPY, 0, 0, 0 },
	{ CLASS_VIDEO_DECODE, 0, 1, 0 },
	{ CLASS_VIDEO_ENHANCE, 0, 1, 0 },
};

/* Xe2's (and Xe3's) OA formats (xe_oa.c's table), by unit type. */
static const struct {
	uint32_t value;
	uint32_t format;
	uint32_t unit_type;
	uint32_t size;			/* bytes of a report */
} shim_formats[] = {
	{ OA_XE_FORMAT(OA_XE_FMT_TYPE_OAM_MPEC, 1, 0, 0),
	  GPUPROF_OAM_FORMAT_MPEC8u64_B8_C8, OA_XE_OA_UNIT_TYPE_OAM, 192 },
	{ OA_XE_FORMAT(OA_XE_FMT_TYPE_OAM_MPEC, 2, 0, 0),
	  GPUPROF_OAM_FORMAT_MPEC8u32_B8_C8, OA_XE_OA_UNIT_TYPE_OAM, 128 },
	{ OA_XE_FORMAT(OA_XE_FMT_TYPE_PEC, 1, 1, 0),
	  GPUPROF_OA_FORMAT_PEC64u64, OA_XE_OA_UNIT_TYPE_OAG, 576 },
	{ OA_XE_FORMAT(OA_XE_FMT_TYPE_PEC, 1, 1, 1),
	  GPUPROF_OA_FORMAT_PEC64u64_B8_C8, OA_XE_OA_UNIT_TYPE_OAG, 640 },
	{ OA_XE_FORMAT(OA_XE_FMT_TYPE_PEC, 1, 0, 0),
	  GPUPROF_OA_FORMAT_PEC64u32, OA_XE_OA_UNIT_TYPE_OAG, 320 },
	{ OA_XE_FORMAT(OA_XE_FMT_TYPE_PEC, 5, 1, 0),
	  GPUPROF_OA_FORMAT_PEC32u64_G1, OA_XE_OA_UNIT_TYPE_OAG, 320 },
	{ OA_XE_FORMAT(OA_XE_FMT_TYPE_PEC, 5, 0, 0),
	  GPUPROF_OA_FORMAT_PEC32u32_G1, OA_XE_OA_UNIT_TYPE_OAG, 192 },
	{ OA_XE_FORMAT(OA_XE_FMT_TYPE_PEC, 6, 1, 0),
	  GPUPROF_OA_FORMAT_PEC32u64_G2, OA_XE_OA_UNIT_TYPE_OAG, 320 },
	{ OA_XE_FORMAT(OA_XE_FMT_TYPE_PEC, 6, 0, 0),
	  GPUPROF_OA_FORMAT_PEC32u32_G2, OA_XE_OA_UNIT_TYPE_OAG, 192 },
	{ OA_XE_FORMAT(OA_XE_FMT_TYPE_PEC, 3, 1, 0),
	  GPUPROF_OA_FORMAT_PEC36u64_G1_32_G2_4, OA_XE_OA_UNIT_TYPE_OAG, 320 },
	{ OA_XE_FORMAT(OA_XE_FMT_TYPE_PEC, 4, 1, 0),
	  GPUPROF_OA_FORMAT_PEC36u64_G1_4_G2_32, OA_XE_OA_UNIT_TYPE_OAG, 320 },
};

static uint64_t shim_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

static uint64_t shim_mono_ns(void)
{
	return shim_clock_ns(CLOCK_MONOTONIC);
}

/* 19.2 MHz is 12 ticks per 625 ns. */
static uint64_t shim_ticks(uint64_t ns)
{
	return (uint64_t)((__uint128_t)ns * 12 / 625);
}

/* The GT's 64-bit timestamp (RING_TIMESTAMP, OA's too) at @ns. */
static uint64_t shim_gpu_ts(uint64_t ns)
{
	return shim_ts_offset + shim_ticks(ns);
}

static int shim_kind(int fd)
{
	return fd >= 0 && fd < MAX_FDS ? shim_kinds[fd] : SHIM_NONE;
}

/* Whether the caller may observe: paranoid 0, or CAP_PERFMON. */
static bool shim_privileged(void)
{
	return !shim_env_ul("GPUPROF_SHIM_PARANOID", 1) ||
	       getenv("GPUPROF_SHIM_PERFMON");
}

static uint32_t shim_device_id(void)
{
	return shim_env_ul("GPUPROF_SHIM_DEVICE_ID", SHIM_DEVICE_ID);
}

/* Panther Lake: 7.3's INTEL_PTL_IDS, and INTEL_WCL_IDS of its ptl_desc. */
static bool shim_ptl(void)
{
	uint32_t id = shim_device_id();

	return (id >= 0xb080 && id <= 0xb087) || id == 0xb08f ||
	       id == 0xb090 || id == 0xb0a0 || id == 0xb0b0 ||
	       id == 0xfd80 || id == 0xfd81;
}

/* Whether 7.3's xe is played (GPUPROF_SHIM_KERNEL), else 6.12's. */
static bool shim_7_3(void)
{
	const char *k = getenv("GPUPROF_SHIM_KERNEL");

	if (k && *k)
		return !strcmp(k, "7.3");
	return shim_ptl();
}

/* The units xe lists: 6.12 OAG and OAM, 7.3 OAG, OAM_SAG and OAM. */
static unsigned int shim_n_units(void)
{
	return shim_7_3() ? 3 : 2;
}

static uint32_t shim_unit_type(unsigned int unit)
{
	if (!unit)
		return OA_XE_OA_UNIT_TYPE_OAG;
	if (shim_7_3() && unit == 1)
		return OA_XE_OA_UNIT_TYPE_OAM_SAG;
	return OA_XE_OA_UNIT_TYPE_OAM;
}

/* --- The node ------------------------------------------------------------ */

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
	if (shim_ptl() && !shim_7_3()) {
		close(fd);
		return shim_fail(ENXIO);	/* 6.12's xe has no such GPU */
	}
	if (!shim_opened) {
		/* 2^56 M ms of ticks from now. */
		wrap = shim_env_ul("GPUPROF_SHIM_WRAP_MS", 0);
		if (wrap)
			shim_ts_offset = (1ull << 56) - wrap * (REF_HZ / 1000) -
					 shim_ticks(shim_mono_ns());
		shim_opened = true;
	}
	shim_kinds[fd] = SHIM_NODE;
	return fd;
}

static void shim_copy_name(char *dst, __kernel_size_t *len, const char *src)
{
	size_t n = strlen(src);

	if (dst && *len)
		memcpy(dst, src, n < *len ? n : *len);
	*len = n;
}

/* --- DEVICE_QUERY ------------------------------------------------------- */

/*
 * The two-call protocol: size 0 asks for @need, any other size than
 * @need is EINVAL.  Return 1 when the reply is to be written.
 */
static int shim_query_size(struct oa_xe_device_query *q, size_t need)
{
	if (!q->size) {
		q->size = need;
		return 0;
	}
	if (q->size != need)
		return shim_fail(EINVAL);
	return 1;
}

static int shim_query_config(struct oa_xe_device_query *q)
{
	/* xe 6.12's five: REV_AND_DEVICE_ID, FLAGS, MIN_ALIGNMENT, VA_BITS,
	 * MAX_EXEC_QUEUE_PRIORITY. */
	uint8_t reply[sizeof(struct oa_xe_query_config) + 5 * 8] = { 0 };
	struct oa_xe_query_config *c = (void *)reply;
	int ret = shim_query_size(q, sizeof(reply));

	if (ret <= 0)
		return ret;
	c->num_params = 5;
	c->info[OA_XE_CONFIG_REV_AND_DEVICE_ID] = shim_device_id() |
						  SHIM_REVISION << 16;
	c->info[2] = 4096;
	c->info[3] = 48;
	c->info[4] = 2;
	memcpy((void *)(uintptr_t)q->data, reply, sizeof(reply));
	return 0;
}

static int shim_query_gt_list(struct oa_xe_device_query *q)
{
	uint8_t reply[sizeof(struct oa_xe_query_gt_list) +
		      2 * sizeof(struct oa_xe_gt)] = { 0 };
	struct oa_xe_query_gt_list *l = (void *)reply;
	int ret = shim_query_size(q, sizeof(reply));
	unsigned int i;

	if (ret <= 0)
		return ret;
	l->num_gt = 2;
	for (i = 0; i < 2; i++) {
		struct oa_xe_gt *gt = &l->gt_list[i];

		gt->type = i ? OA_XE_GT_TYPE_MEDIA : OA_XE_GT_TYPE_MAIN;
		gt->gt_id = i;
		gt->reference_clock = REF_HZ;
		gt->near_mem_regions = 1;	/* system memory: an iGPU */
		gt->ip_ver_major = shim_ptl() ? 30 : 20;
		gt->ip_ver_minor = i || shim_ptl() ? 0 : 4;
	}
	memcpy((void *)(uintptr_t)q->data, reply, sizeof(reply));
	return 0;
}

static bool shim_engine_exists(const struct oa_xe_engine_class_instance *e)
{
	size_t i;

	for (i = 0; i < sizeof(shim_engines) / sizeof(shim_engines[0]); i++)
		if (shim_engines[i].engine_class == e->engine_class &&
		    shim_engines[i].engine_instance == e->engine_instance &&
		    shim_engines[i].gt_id == e->gt_id)
			return true;
	return false;
}

static int shim_query_engine_cycles(struct oa_xe_device_query *q)
{
	struct oa_xe_query_engine_cycles *c = (void *)(uintptr_t)q->data;
	int ret = shim_query_size(q, sizeof(*c));
	uint64_t before, cpu, mono;

	if (ret <= 0)
		return ret;
	switch (c->clockid) {
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_REALTIME:
	case CLOCK_BOOTTIME:
	case CLOCK_TAI:
		break;
	default:
		return shim_fail(EINVAL);
	}
	if (!shim_engine_exists(&c->eci))
		return shim_fail(EINVAL);
	/* The CPU clock just before the register read, its duration. */
	before = shim_mono_ns();
	cpu = shim_clock_ns(c->clockid);
	mono = c->clockid == CLOCK_MONOTONIC ? cpu : shim_mono_ns();
	c->engine_cycles = shim_gpu_ts(mono);
	c->cpu_timestamp = cpu;
	c->cpu_delta = shim_mono_ns() - before;
	c->width = 64;
	return 0;
}

/* A mask record of GT_TOPOLOGY at @p: its 8 bytes then @n of @mask. */
static uint8_t *shim_topo_mask(uint8_t *p, uint16_t gt, uint16_t type,
			       uint64_t mask, uint32_t n)
{
	struct oa_xe_topology_mask m = {
		.gt_id = gt, .type = type, .num_bytes = n,
	};

	memcpy(p, &m, sizeof(m));
	memcpy(p + sizeof(m), &mask, sizeof(mask));
	return p + sizeof(m) + n;
}

/*
 * 6.12's GT_TOPOLOGY for every GT, in query_gt_topology()'s order and
 * sizes (16 bytes of each DSS bitmap, 8 of L3 banks and of EUs):
 * Lunar Lake's main GT has 8 Xe cores of 8 vector engines, which Xe2
 * lists as SIMD16 EUs, Panther Lake's 12; the media GT has no DSS and
 * no EU.
 */
#define SHIM_TOPO_GT	(4 * sizeof(struct oa_xe_topology_mask) + 16 + 16 + 8 + 8)

static int shim_query_gt_topology(struct oa_xe_device_query *q)
{
	uint8_t reply[2 * SHIM_TOPO_GT] = { 0 };
	int ret = shim_query_size(q, sizeof(reply));
	uint8_t *p = reply;
	uint16_t gt;

	if (ret <= 0)
		return ret;
	for (gt = 0; gt < 2; gt++) {
		uint64_t dss = gt ? 0 : shim_ptl() ? 0xfff : 0xff;
		uint64_t eu = gt ? 0 : 0xff;

		p = shim_topo_mask(p, gt, OA_XE_TOPO_DSS_GEOMETRY, dss, 16);
		p = shim_topo_mask(p, gt, OA_XE_TOPO_DSS_COMPUTE, dss, 16);
		p = shim_topo_mask(p, gt, OA_XE_TOPO_L3_BANK, gt ? 0 : 0xf, 8);
		p = shim_topo_mask(p, gt, OA_XE_TOPO_SIMD16_EU_PER_DSS, eu, 8);
	}
	memcpy((void *)(uintptr_t)q->data, reply, sizeof(reply));
	return 0;
}

/*
 * The engines of OA unit @unit: the main GT's OAG, the media GT's OAM;
 * 7.3's SAG unit of the media GT has none (GSCCS is not given to it).
 */
static unsigned int shim_unit_engines(unsigned int unit,
				      const struct oa_xe_engine_class_instance **e)
{
	*e = unit ? &shim_engines[3] : &shim_engines[0];
	return shim_unit_type(unit) == OA_XE_OA_UNIT_TYPE_OAM_SAG ? 0 : 2;
}

/* 6.12 zeroes gt_id's bytes (its reserved[0]) and has two capabilities. */
static int shim_query_oa_units(struct oa_xe_device_query *q)
{
	const struct oa_xe_engine_class_instance *e;
	uint8_t reply[sizeof(struct oa_xe_query_oa_units) +
		      N_UNITS * (sizeof(struct oa_xe_oa_unit) + 2 * 8)] = { 0 };
	struct oa_xe_query_oa_units *h = (void *)reply;
	size_t off = sizeof(*h), need = sizeof(*h);
	unsigned int u, n;
	int ret;

	for (u = 0; u < shim_n_units(); u++)
		need += sizeof(struct oa_xe_oa_unit) +
			shim_unit_engines(u, &e) * sizeof(*e);
	ret = shim_query_size(q, need);
	if (ret <= 0)
		return ret;
	h->num_oa_units = shim_n_units();
	for (u = 0; u < shim_n_units(); u++) {
		struct oa_xe_oa_unit *unit = (void *)(reply + off);

		n = shim_unit_engines(u, &e);
		unit->oa_unit_id = u;
		unit->oa_unit_type = shim_unit_type(u);
		unit->capabilities = OA_XE_OA_CAPS_BASE | OA_XE_OA_CAPS_SYNCS;
		if (shim_7_3()) {
			unit->capabilities |= OA_XE_OA_CAPS_OA_BUFFER_SIZE |
					      OA_XE_OA_CAPS_WAIT_NUM_REPORTS |
					      OA_XE_OA_CAPS_OAM |
					      OA_XE_OA_CAPS_OA_UNIT_GT_ID;
			unit->gt_id = u ? 1 : 0;
		}
		/* No CTC-shift workaround on Xe2: the reference clock. */
		unit->oa_timestamp_freq = REF_HZ;
		unit->num_engines = n;
		memcpy(unit->eci, e, n * sizeof(*e));
		off += sizeof(*unit) + n * sizeof(*e);
	}
	memcpy((void *)(uintptr_t)q->data, reply, need);
	return 0;
}

static int shim_device_query(struct oa_xe_device_query *q)
{
	if (q->extensions || q->reserved[0] || q->reserved[1])
		return shim_fail(EINVAL);
	switch (q->query) {
	case OA_XE_QUERY_CONFIG:
		return shim_query_config(q);
	case OA_XE_QUERY_GT_LIST:
		return shim_query_gt_list(q);
	case OA_XE_QUERY_GT_TOPOLOGY:
		return shim_query_gt_topology(q);
	case OA_XE_QUERY_ENGINE_CYCLES:
		return shim_query_engine_cycles(q);
	case OA_XE_QUERY_OA_UNITS:
		return shim_query_oa_units(q);
	}
	return shim_fail(EINVAL);
}

/* --- Metric sets -------------------------------------------------------- */

static const char *shim_sysfs_root(void)
{
	const char *root = getenv("GPUPROF_SYSFS_ROOT");

	return root && *root ? root : NULL;
}

static struct shim_config *shim_config_by_id(uint64_t id)
{
	unsigned int i;

	for (i = 0; i < shim_n_configs; i++)
		if (shim_configs[i].id == id)
			return &shim_configs[i];
	return NULL;
}

static struct shim_config *shim_config_by_uuid(const char *uuid)
{
	unsigned int i;

	for (i = 0; i < shim_n_configs; i++)
		if (!strcmp(shim_configs[i].uuid, uuid))
			return &shim_configs[i];
	return NULL;
}

static void shim_config_add(const char *uuid, uint64_t id)
{
	if (shim_n_configs == MAX_CONFIGS || shim_config_by_uuid(uuid) ||
	    shim_config_by_id(id))
		return;
	snprintf(shim_configs[shim_n_configs].uuid, UUID_LEN + 1, "%s", uuid);
	shim_configs[shim_n_configs].id = id;
	shim_n_configs++;
}

/* The sets the sysfs tree already has, once. */
static void shim_configs_load(void)
{
	const char *root = shim_sysfs_root();
	char dir[4096], path[8192];
	struct dirent *c, *m;
	unsigned long long v;
	DIR *cards, *sets;
	FILE *f;

	if (shim_configs_loaded)
		return;
	shim_configs_loaded = true;
	if (!root)
		return;
	snprintf(dir, sizeof(dir), "%s/class/drm", root);
	cards = opendir(dir);
	if (!cards)
		return;
	while ((c = readdir(cards))) {
		if (strncmp(c->d_name, "card", 4) || strchr(c->d_name, '-'))
			continue;
		snprintf(path, sizeof(path), "%s/%s/metrics", dir, c->d_name);
		sets = opendir(path);
		if (!sets)
			continue;
		while ((m = readdir(sets))) {
			if (strlen(m->d_name) != UUID_LEN ||
			    !shim_uuid_valid(m->d_name))
				continue;
			snprintf(path, sizeof(path), "%s/%s/metrics/%s/id", dir,
				 c->d_name, m->d_name);
			f = fopen(path, "r");
			if (!f)
				continue;
			if (fscanf(f, "%llu", &v) == 1 && v)
				shim_config_add(m->d_name, v);
			fclose(f);
		}
		closedir(sets);
	}
	closedir(cards);
}

/*
 * The metrics directory of the first card under the sysfs root that has
 * one, into @out; false when there is none.
 */
static bool shim_metrics_dir(char *out, size_t size)
{
	const char *root = shim_sysfs_root();
	char dir[4096];
	struct dirent *c;
	struct stat sb;
	bool found = false;
	DIR *cards;

	if (!root)
		return false;
	snprintf(dir, sizeof(dir), "%s/class/drm", root);
	cards = opendir(dir);
	if (!cards)
		return false;
	while (!found && (c = readdir(cards))) {
		if (strncmp(c->d_name, "card", 4) || strchr(c->d_name, '-'))
			continue;
		snprintf(out, size, "%s/%s/metrics", dir, c->d_name);
		found = !stat(out, &sb) && S_ISDIR(sb.st_mode);
	}
	closedir(cards);
	return found;
}

static void shim_sysfs_publish(const char *uuid, uint64_t id)
{
	char dir[4096], path[8192];
	FILE *f;

	if (!shim_metrics_dir(dir, sizeof(dir)))
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, uuid);
	if (mkdir(path, 0755) && errno != EEXIST)
		return;
	snprintf(path, sizeof(path), "%s/%s/id", dir, uuid);
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "%llu\n", (unsigned long long)id);
	fclose(f);
}

static void shim_sysfs_unpublish(const char *uuid)
{
	char dir[4096], path[8192];

	if (!shim_metrics_dir(dir, sizeof(dir)))
		return;
	snprintf(path, sizeof(path), "%s/%s/id", dir, uuid);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%s", dir, uuid);
	rmdir(path);
}

static int shim_add_config_checked(const struct oa_xe_oa_config *c)
{
	char uuid[UUID_LEN + 1];
	uint64_t id;

	if (!shim_privileged())
		return -EACCES;
	if (c->extensions || !c->n_regs || !c->regs_ptr)
		return -EINVAL;
	memcpy(uuid, c->uuid, UUID_LEN);
	uuid[UUID_LEN] = 0;
	if (!shim_uuid_valid(uuid))
		return -EINVAL;
	if (shim_config_by_uuid(uuid))
		return -EADDRINUSE;
	if (shim_n_configs == MAX_CONFIGS)
		return -ENOMEM;
	for (id = 1; shim_config_by_id(id); id++)
		;
	shim_config_add(uuid, id);
	shim_sysfs_publish(uuid, id);
	return id;
}

static int shim_add_config(const struct oa_xe_oa_config *c)
{
	int ret = shim_add_config_checked(c);

	if (ret < 0) {
		shim_log("add %d\n", ret);
		return shim_fail(-ret);
	}
	shim_log("add %.36s %d\n", c->uuid, ret);
	return ret;
}

static int shim_remove_config(const uint64_t *idp)
{
	struct shim_config *c;
	int err = 0;

	if (!shim_privileged())
		err = EACCES;
	else if (!(c = shim_config_by_id(*idp)))
		err = ENOENT;
	if (err) {
		shim_log("remove -%d\n", err);
		return shim_fail(err);
	}
	shim_log("remove %llu\n", (unsigned long long)*idp);
	shim_sysfs_unpublish(c->uuid);
	*c = shim_configs[--shim_n_configs];
	return 0;
}

/* --- STREAM_OPEN -------------------------------------------------------- */

struct shim_open_param {
	uint64_t unit;
	bool sample;
	uint64_t metric_set;
	bool have_format;
	uint32_t format;		/* GPUPROF_OA_FORMAT_* */
	uint32_t format_unit_type;
	uint32_t format_size;		/* bytes of its reports */
	int exponent;			/* -1: not periodic */
	uint64_t buffer_size;		/* 7.3; 0: not given */
	uint64_t wait_reports;		/* 7.3; 0: not given */
	bool disabled;
	uint64_t exec_queue;
	bool no_preempt;
	uint64_t num_syncs;
	uint64_t syncs;
};

/* The property chain at @ext, as xe_oa_user_extensions() walks it. */
static int shim_parse_chain(uint64_t ext, struct shim_open_param *p,
			    bool config, bool log)
{
	const struct oa_xe_ext_set_property *e;
	unsigned int n, i;

	for (n = 0; ext; n++, ext = e->base.next_extension) {
		if (n >= OA_XE_MAX_CHAIN)
			return -E2BIG;
		e = (const void *)(uintptr_t)ext;
		if (log)
			shim_log("prop %u %llu\n", e->property,
				 (unsigned long long)e->value);
		if (e->base.pad || e->base.name != OA_XE_EXTENSION_SET_PROPERTY ||
		    !e->property || e->pad ||
		    e->property > (shim_7_3() ? OA_XE_PROP_LAST_7_3 :
				   OA_XE_PROP_LAST_6_12))
			return -EINVAL;
		/* CONFIG takes the metric set and syncs only. */
		if (config && e->property != OA_XE_PROP_OA_METRIC_SET &&
		    e->property != OA_XE_PROP_NUM_SYNCS &&
		    e->property != OA_XE_PROP_SYNCS)
			return -EINVAL;
		switch (e->property) {
		case OA_XE_PROP_OA_UNIT_ID:
			if (e->value >= shim_n_units())
				return -EINVAL;
			p->unit = e->value;
			break;
		case OA_XE_PROP_SAMPLE_OA:
			p->sample = e->value;
			break;
		case OA_XE_PROP_OA_METRIC_SET:
			p->metric_set = e->value;
			break;
		case OA_XE_PROP_OA_FORMAT:
			for (i = 0; i < sizeof(shim_formats) /
					sizeof(shim_formats[0]); i++)
				if (shim_formats[i].value == e->value)
					break;
			if (i == sizeof(shim_formats) / sizeof(shim_formats[0]))
				return -EINVAL;
			p->have_format = true;
			p->format = shim_formats[i].format;
			p->format_unit_type = shim_formats[i].unit_type;
			p->format_size = shim_formats[i].size;
			break;
		case OA_XE_PROP_OA_PERIOD_EXPONENT:
			if (e->value > OA_EXPONENT_MAX)
				return -EINVAL;
			p->exponent = e->value;
			break;
		case OA_XE_PROP_OA_DISABLED:
			p->disabled = e->value;
			break;
		case OA_XE_PROP_EXEC_QUEUE_ID:
			p->exec_queue = e->value;
			break;
		case OA_XE_PROP_OA_ENGINE_INSTANCE:
			break;		/* used with an exec queue only */
		case OA_XE_PROP_NO_PREEMPT:
			p->no_preempt = e->value;
			break;
		case OA_XE_PROP_NUM_SYNCS:
			if (e->value > MAX_SYNCS)
				return -EINVAL;
			p->num_syncs = e->value;
			break;
		case OA_XE_PROP_SYNCS:
			p->syncs = e->value;
			break;
		case OA_XE_PROP_OA_BUFFER_SIZE:
			if (e->value < OA_BUFFER_MIN || e->value > OA_BUFFER_MAX ||
			    (e->value & (e->value - 1)))
				return -EINVAL;
			p->buffer_size = e->value;
			break;
		case OA_XE_PROP_WAIT_NUM_REPORTS:
			/* xe keeps it in an int. */
			if (!(int)e->value)
				return -EINVAL;
			p->wait_reports = (int)e->value;
			break;
		}
	}
	return 0;
}

/* The checks of xe_oa_stream_open_ioctl() after the chain, in order. */
static int shim_check_open(struct shim_open_param *p)
{
	uint32_t unit_type = shim_unit_type(p->unit);

	if (p->exec_queue)
		return -ENOENT;		/* no exec queue exists here */
	if (p->no_preempt)
		return -EINVAL;		/* it needs an exec queue */
	if (!shim_privileged())
		return -EACCES;
	if (!p->sample)
		return -EINVAL;		/* also a period without sampling */
	if (!p->have_format || p->format_unit_type !=
	    (unit_type == OA_XE_OA_UNIT_TYPE_OAG ? unit_type :
	     OA_XE_OA_UNIT_TYPE_OAM))
		return -EINVAL;
	/* 7.3: the defaults, then no more reports than the buffer holds. */
	if (!p->buffer_size)
		p->buffer_size = OA_BUFFER_SIZE;
	if (!p->wait_reports)
		p->wait_reports = 1;
	if (p->wait_reports > p->buffer_size / p->format_size)
		return -EINVAL;
	if (p->num_syncs)
		return -EINVAL;		/* without SYNCS; with, not modelled */
	if (shim_streams[p->unit])
		return -EBUSY;
	if (!p->metric_set || !shim_config_by_id(p->metric_set))
		return -EINVAL;
	if (p->unit || p->format != GPUPROF_OA_FORMAT_PEC64u64)
		return -EINVAL;		/* valid, but not simulated */
	return 0;
}

/* The simulator's FILE: records pile up in the stream's queue. */
static ssize_t shim_queue_write(void *cookie, const char *data, size_t size)
{
	struct shim_stream *st = cookie;
	size_t cap = st->q_cap ? st->q_cap : 65536;
	uint8_t *q;

	if (st->discard)
		return size;
	while (st->q_len + size > cap)
		cap *= 2;
	if (cap != st->q_cap) {
		q = realloc(st->q, cap);
		if (!q)
			return -1;
		st->q = q;
		st->q_cap = cap;
	}
	memcpy(st->q + st->q_len, data, size);
	st->q_len += size;
	return size;
}

static void shim_stream_free(struct shim_stream *st)
{
	if (st->jobs)
		shim_jobs_close(st->jobs);
	free(st->jobs);
	if (st->f)
		fclose(st->f);
	free(st->sim);
	free(st->q);
	free(st->buf);
	free(st);
}

/* Append one report to the OA buffer, dropping the oldest when full. */
static void shim_buffer_put(struct shim_stream *st, const uint8_t *r,
			    size_t size)
{
	uint8_t *b;

	if (st->buf_off && st->buf_len + size > st->buf_cap) {
		memmove(st->buf, st->buf + st->buf_off, st->buf_len - st->buf_off);
		st->buf_len -= st->buf_off;
		st->buf_off = 0;
	}
	if (st->buf_len - st->buf_off + size > st->buf_size) {
		st->buf_off += size;
		st->hw_status |= ST_OVERFLOW;
	}
	if (st->buf_len + size > st->buf_cap) {
		size_t cap = st->buf_cap ? 2 * st->buf_cap : 65536;

		b = realloc(st->buf, cap);
		if (!b)
			return;
		st->buf = b;
		st->buf_cap = cap;
	}
	memcpy(st->buf + st->buf_len, r, size);
	st->buf_len += size;
}

/*
 * The simulator's records into the model hardware: SAMPLE reports into
 * the buffer, REPORT_LOST and BUFFER_LOST into OASTATUS; the others
 * (clock correlation and such) are the simulator's, not the GPU's.
 */
static void shim_take_records(struct shim_stream *st)
{
	struct gpuprof_oa_record_header h;
	size_t off = 0;

	while (st->q_len - off >= sizeof(h)) {
		memcpy(&h, st->q + off, sizeof(h));
		if (h.size < sizeof(h) || st->q_len - off < h.size)
			break;
		if (h.type == GPUPROF_OA_RECORD_SAMPLE)
			shim_buffer_put(st, st->q + off + sizeof(h),
					h.size - sizeof(h));
		else if (h.type == GPUPROF_OA_RECORD_REPORT_LOST)
			st->hw_status |= ST_REPORT_LOST;
		else if (h.type == GPUPROF_OA_RECORD_BUFFER_LOST)
			st->hw_status |= ST_OVERFLOW;
		off += h.size;
	}
	memmove(st->q, st->q + off, st->q_len - off);
	st->q_len -= off;
}

/* Run the simulated GPU up to now: idle, or as the fences ran. */
static void shim_advance(struct shim_stream *st)
{
	uint64_t now = shim_mono_ns(), elapsed = now - st->t0;

	if (!st->periodic || elapsed <= st->sim->elapsed_ns)
		return;
	if (st->jobs)
		shim_jobs_run(st->jobs, st->sim, st->t0, now);
	else
		oa_sim_step(st->sim, elapsed - st->sim->elapsed_ns, false, 0);
	fflush(st->f);
	shim_take_records(st);
}

static void shim_timer(struct shim_stream *st, bool on)
{
	struct itimerspec its = { 0 };

	if (on) {
		its.it_interval.tv_nsec = POLL_NS;
		its.it_value = its.it_interval;
	}
	timerfd_settime(st->fd, 0, &its, NULL);
}

static int shim_stream_open(const struct oa_xe_observation_param *op)
{
	static const cookie_io_functions_t io = { .write = shim_queue_write };
	struct shim_open_param p = { .exponent = -1 };
	struct oa_sim_config cfg = { .seed = 1 };
	struct shim_stream *st;
	int err;

	err = shim_parse_chain(op->param, &p, false, true);
	if (!err)
		err = shim_check_open(&p);
	if (err) {
		shim_log("open %d\n", err);
		return shim_fail(-err);
	}
	st = calloc(1, sizeof(*st));
	if (!st)
		return shim_fail(ENOMEM);
	st->unit = p.unit;
	st->buf_size = p.buffer_size;
	st->metric_set = p.metric_set;
	st->periodic = p.exponent >= 0;
	st->t0 = shim_mono_ns();
	st->f = fopencookie(st, "w", io);
	st->sim = malloc(sizeof(*st->sim));
	cfg.device_id = shim_device_id();
	cfg.period_ns = oa_exponent_to_ns(p.exponent < 0 ? 0 : p.exponent,
					  REF_HZ);
	cfg.report_lost_every = shim_env_ul("GPUPROF_SHIM_LOSS_EVERY", 0);
	cfg.buffer_lost_every = 2 * cfg.report_lost_every;
	cfg.start_cpu_ns = st->t0;
	cfg.start_gpu_ts = shim_gpu_ts(st->t0);
	if (st->f)
		oa_writer_init(&st->w, st->f);
	if (!st->f || !st->sim || oa_sim_init(st->sim, &cfg, &st->w)) {
		shim_stream_free(st);
		return shim_fail(ENOMEM);
	}
	if (getenv("GPUPROF_SHIM_JOBS")) {
		st->jobs = malloc(sizeof(*st->jobs));
		err = st->jobs ? shim_jobs_open(st->jobs) : -ENOMEM;
		if (err) {
			fprintf(stderr, "xe shim: GPUPROF_SHIM_JOBS: the kernel's dma_fence tracepoints: %s\n",
				strerror(-err));
			shim_stream_free(st);
			return shim_fail(-err);
		}
	}
	fflush(st->f);
	st->q_len = 0;		/* its header records are no reports */
	/* anon_inode_getfd(..., 0): blocking, inherited across exec. */
	st->fd = timerfd_create(CLOCK_MONOTONIC, 0);
	if (st->fd < 0 || st->fd >= MAX_FDS) {
		if (st->fd >= 0)
			close(st->fd);
		shim_stream_free(st);
		return shim_fail(EMFILE);
	}
	st->enabled = !p.disabled;
	st->discard = p.disabled;
	shim_timer(st, st->enabled);
	shim_kinds[st->fd] = SHIM_STREAM;
	shim_streams[st->unit] = st;
	shim_log("open %d\n", st->fd);
	return st->fd;
}

static int shim_observation(const struct oa_xe_observation_param *op)
{
	if (op->extensions || op->observation_type != OA_XE_OBSERVATION_TYPE_OA)
		return shim_fail(EINVAL);
	shim_configs_load();
	switch (op->observation_op) {
	case OA_XE_OBSERVATION_OP_STREAM_OPEN:
		return shim_stream_open(op);
	case OA_XE_OBSERVATION_OP_ADD_CONFIG:
		return shim_add_config((const void *)(uintptr_t)op->param);
	case OA_XE_OBSERVATION_OP_REMOVE_CONFIG:
		return shim_remove_config((const void *)(uintptr_t)op->param);
	}
	return shim_fail(EINVAL);
}

static int shim_node_ioctl(unsigned long req, void *arg)
{
	struct drm_version *v = arg;

	switch (req) {
	case DRM_IOCTL_VERSION:
		v->version_major = 1;
		v->version_minor = 1;
		v->version_patchlevel = 0;
		shim_copy_name(v->name, &v->name_len, OA_XE_DRIVER_NAME);
		shim_copy_name(v->date, &v->date_len, "20201103");
		shim_copy_name(v->desc, &v->desc_len,
			       "Intel Xe2 Graphics (gpuprof shim)");
		return 0;
	case OA_XE_IOCTL_DEVICE_QUERY:
		return shim_device_query(arg);
	case OA_XE_IOCTL_OBSERVATION:
		return shim_observation(arg);
	}
	return shim_fail(EINVAL);
}

/* --- The stream --------------------------------------------------------- */

static struct shim_stream *shim_stream_of(int fd)
{
	unsigned int u;

	for (u = 0; u < N_UNITS; u++)
		if (shim_streams[u] && shim_streams[u]->fd == fd)
			return shim_streams[u];
	return NULL;
}

static int shim_stream_config(struct shim_stream *st, uint64_t chain)
{
	struct shim_open_param p = { .exponent = -1 };
	uint64_t old = st->metric_set;
	int err;

	err = shim_parse_chain(chain, &p, true, false);
	if (err)
		return shim_fail(-err);
	if (!shim_config_by_id(p.metric_set))
		return shim_fail(ENODEV);
	if (p.num_syncs)
		return shim_fail(EINVAL);
	st->metric_set = p.metric_set;
	return old;
}

static int shim_stream_ioctl(struct shim_stream *st, unsigned long req,
			     void *arg)
{
	struct oa_xe_oa_stream_status *status = arg;
	struct oa_xe_oa_stream_info *info = arg;

	switch (req) {
	case OA_XE_STREAM_IOCTL_ENABLE:
		if (st->enabled)
			return 0;
		/* What ran while disabled is gone; xe starts the buffer and
		 * its status afresh. */
		shim_advance(st);
		st->buf_off = st->buf_len = 0;
		st->hw_status = 0;
		st->discard = false;
		st->enabled = true;
		shim_timer(st, true);
		return 0;
	case OA_XE_STREAM_IOCTL_DISABLE:
		if (!st->enabled)
			return 0;
		shim_advance(st);	/* the reports so far stay readable */
		st->discard = true;
		st->enabled = false;
		shim_timer(st, false);
		return 0;
	case OA_XE_STREAM_IOCTL_CONFIG:
		return shim_stream_config(st, (uintptr_t)arg);
	case OA_XE_STREAM_IOCTL_STATUS:
		memset(status, 0, sizeof(*status));
		status->oa_status = st->status;
		return 0;
	case OA_XE_STREAM_IOCTL_INFO:
		memset(info, 0, sizeof(*info));
		info->oa_buf_size = st->buf_size;
		return 0;
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
		return shim_stream_ioctl(shim_stream_of(fd), req, arg);
	}
	return real_ioctl(fd, req, arg);
}

/* The timer's expirations, taken without blocking: a read answers them. */
static void shim_drain_timer(struct shim_stream *st)
{
	struct pollfd pfd = { .fd = st->fd, .events = POLLIN };
	uint64_t expirations;
	REAL(read);

	while (poll(&pfd, 1, 0) == 1 &&
	       real_read(st->fd, &expirations, sizeof(expirations)) > 0)
		;
}

/* __xe_oa_read(): the status first, then whole reports. */
static ssize_t shim_copy_reports(struct shim_stream *st, uint8_t *out,
				 size_t count)
{
	size_t size = st->sim->layout.size, n;

	st->status = st->hw_status;
	st->hw_status = 0;
	if (st->status)
		return shim_fail(EIO);
	if (st->buf_len == st->buf_off)
		return shim_fail(EAGAIN);
	n = (count / size) * size;
	if (!n)
		return shim_fail(ENOSPC);
	if (n > st->buf_len - st->buf_off)
		n = st->buf_len - st->buf_off;
	memcpy(out, st->buf + st->buf_off, n);
	st->buf_off += n;
	if (st->buf_off == st->buf_len)
		st->buf_off = st->buf_len = 0;
	return n;
}

static ssize_t shim_stream_read(struct shim_stream *st, void *buf,
				size_t count)
{
	struct pollfd pfd = { .fd = st->fd, .events = POLLIN };

	/* O_NONBLOCK as fcntl() set it on the real fd. */
	if (fcntl(st->fd, F_GETFL) & O_NONBLOCK) {
		if (st->enabled)
			shim_advance(st);
		shim_drain_timer(st);
		return shim_copy_reports(st, buf, count);
	}
	/* Blocking: wait for reports (the status alone wakes nobody). */
	if (!st->periodic)
		return shim_fail(EINVAL);
	for (;;) {
		if (st->enabled)
			shim_advance(st);
		shim_drain_timer(st);
		if (st->buf_len > st->buf_off)
			return shim_copy_reports(st, buf, count);
		/* Disabled, the timer is off: as xe, wait forever. */
		poll(&pfd, 1, -1);
	}
}

ssize_t read(int fd, void *buf, size_t count)
{
	REAL(read);

	if (shim_kind(fd) == SHIM_STREAM)
		return shim_stream_read(shim_stream_of(fd), buf, count);
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
	struct shim_stream *st;
	REAL(close);

	if (shim_kind(fd) == SHIM_STREAM && (st = shim_stream_of(fd))) {
		shim_streams[st->unit] = NULL;
		shim_stream_free(st);
	}
	if (shim_kind(fd) != SHIM_NONE)
		shim_kinds[fd] = SHIM_NONE;
	return real_close(fd);
}
