// SPDX-License-Identifier: GPL-2.0-only
/*
 * The i915 shim (selftests/i915-shim/) as each of seven GPUs
 * (GPUPROF_SHIM_DEVICE_ID): its two timestamp frequencies, the report
 * formats PERF_OPEN takes and refuses, the reports of each, and on DG2
 * and Meteor Lake the command streamer's clock (RING_TIMESTAMP) running
 * at a fraction of the OA unit's, both counting one crystal.
 *
 * Every expected value is a literal read off the kernel's source
 * (drivers/gpu/drm/i915 of Linux 7.3, the same in 6.12), never the
 * shim's own tables:
 * - formats: oa_init_supported_formats() (i915_perf.c 4949-5003), the
 *   refusals of read_properties_unlocked() (4035-4049: EINVAL for 0, for
 *   I915_OA_FORMAT_MAX = 15 and on, and for one the platform lacks) and
 *   engine_supports_oa_format() (1660, 4173: EINVAL for Meteor Lake's
 *   media-unit formats 13 and 14 on the default render engine), and
 *   each format's size in oa_formats[] (319-335);
 * - clocks: i915_perf_oa_timestamp_frequency() (3193-3211,
 *   Wa_18013179988: DG2 and graphics 12.70 to 12.74 report the GT clock
 *   shifted left by 3 - CTC_SHIFT), what GETPARAM 57 answers
 *   (i915_getparam.c of 6.12, line 195; 6.1's has no such case), and
 *   gt/intel_gt_clock_utils.c's gen11_read_clock_frequency() (55-85: the
 *   crystal shifted right by 3 - CTC_SHIFT).  The crystal and the CTC
 *   shift are the hardware's: the shim models 38.4 MHz and a shift of 2
 *   (GPUPROF_SHIM_CTC_SHIFT), IGT's lib/i915/perf.c taking DG2's and
 *   Meteor Lake's report timestamps as twice the CS clock's, and the
 *   other GPUs' one frequency is the simulator's row (oa/sim-platform.c,
 *   from IGT's metric files): 12.5 MHz on Haswell and Broadwell
 *   (gen6_read_clock_frequency()), 12 MHz on Skylake and Ice Lake, 19.2
 *   MHz on Tiger Lake;
 * - 6.1 (GPUPROF_SHIM_KERNEL=6.1): i915_perf_init() leaves DG2 without
 *   OA (line 4426 of 6.1's i915_perf.c), so PERF_OPEN is ENOTSUPP (3812).
 *
 * The shim must be preloaded behind this program's own ASan runtime, so
 * main() runs the harness again under LD_PRELOAD="<libasan> <shim>".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "../lib/harness.h"
#include "../lib/asan.h"
#include "../lib/fake_sysfs.h"
#include "../lib/paths.h"
#include "../lib/run.h"
#include "../lib/shim_preload.h"

#define NODE "/dev/dri/renderD199"
#define SET_UUID "0fc397c0-4833-492c-9ccd-4929d574d5b8"
#define SET_ID 42
#define REEXEC_ENV "GPUPROF_I915_SHIM_PLATFORM_TEST_PRELOADED"
#define PARAM_OA_TIMESTAMP_FREQUENCY 57
#define KERNEL_ENOTSUPP 524
#define NSEC 1000000000ull

/* Formats 1 to 14 as a mask: bit n for format n. */
#define F(n) (1u << (n))
#define HSW_FORMATS (F(1) | F(2) | F(3) | F(4) | F(5) | F(6) | F(7))
#define GEN8_FORMATS (F(7) | F(8) | F(9) | F(10))
#define DG2_FORMATS (F(11) | F(12))

/* oa_formats[]'s sizes, by format. */
static const unsigned int report_size[15] = {
	[1] = 64, [2] = 128, [3] = 128, [4] = 64, [5] = 256, [6] = 128,
	[7] = 64, [8] = 64, [9] = 128, [10] = 256, [11] = 256, [12] = 256,
	[13] = 192, [14] = 128,
};

static const struct gpu {
	const char *name, *id;
	uint32_t cs_hz, oa_hz;
	unsigned int formats;		/* what PERF_OPEN takes */
	unsigned int exponent;		/* about 1 ms of reports */
} gpus[] = {
	{ "Haswell", "0x0412", 12500000, 12500000, HSW_FORMATS, 13 },
	{ "Broadwell", "0x1616", 12500000, 12500000, GEN8_FORMATS, 13 },
	{ "Skylake", "0x1912", 12000000, 12000000, GEN8_FORMATS, 13 },
	{ "Ice Lake", "0x8a52", 12000000, 12000000, GEN8_FORMATS, 13 },
	{ "Tiger Lake", "0x9a49", 19200000, 19200000, GEN8_FORMATS, 13 },
	{ "DG2", "0x5690", 19200000, 38400000, DG2_FORMATS, 14 },
	/* 13 and 14 are offered, but for the media unit's engines. */
	{ "Meteor Lake", "0x7d55", 19200000, 38400000, DG2_FORMATS, 14 },
};

#define N_GPUS (sizeof(gpus) / sizeof(gpus[0]))

FIXTURE(plat) {
	char dir[64];
	char sys[128];
	char log[128];
	int node;
};

FIXTURE_SETUP(plat)
{
	strcpy(self->dir, "/tmp/gpuprof-i915-platform-test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->sys, sizeof(self->sys), "%s/sys", self->dir);
	snprintf(self->log, sizeof(self->log), "%s/log", self->dir);
	ASSERT_EQ(0, fake_i915_sysfs(self->sys,
				     &(struct fake_metric_set){ SET_UUID, SET_ID },
				     1, 0, 0)) TH_LOG("%s: %m", self->sys);
	setenv("GPUPROF_SYSFS_ROOT", self->sys, 1);
	setenv("GPUPROF_SHIM_LOG", self->log, 1);
	setenv("GPUPROF_SHIM_NODE", NODE, 1);
	setenv("GPUPROF_SHIM_PERFMON", "1", 1);
	unsetenv("GPUPROF_SHIM_KERNEL");
	unsetenv("GPUPROF_SHIM_CTC_SHIFT");
	self->node = open(NODE, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->node) TH_LOG("the shim is not preloaded: %m");
}

FIXTURE_TEARDOWN(plat)
{
	char out[256];

	close(self->node);
	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

static int getparam(int node, int param, int *value)
{
	drm_i915_getparam_t gp = { .param = param, .value = value };

	return ioctl(node, DRM_IOCTL_I915_GETPARAM, &gp);
}

/* A non-blocking stream of @format sampling at @exponent: fd, or -1. */
static int open_stream(int node, uint64_t format, uint64_t exponent)
{
	uint64_t props[] = {
		DRM_I915_PERF_PROP_SAMPLE_OA, 1,
		DRM_I915_PERF_PROP_OA_METRICS_SET, SET_ID,
		DRM_I915_PERF_PROP_OA_FORMAT, format,
		DRM_I915_PERF_PROP_OA_EXPONENT, exponent,
	};
	struct drm_i915_perf_open_param p = {
		.flags = I915_PERF_FLAG_FD_CLOEXEC | I915_PERF_FLAG_FD_NONBLOCK,
		.num_properties = 4, .properties_ptr = (uintptr_t)props,
	};

	return ioctl(node, DRM_IOCTL_I915_PERF_OPEN, &p);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000l };

	nanosleep(&ts, NULL);
}

/*
 * 30 ms of @fd's reports: every one a SAMPLE of @size bytes, dword 1
 * (the timestamp, in every format's header) one period of 2^(@exponent
 * + 1) OA ticks after the one before.  Return: how many.
 */
static unsigned int check_reports(struct __test_metadata *_metadata, int fd,
				  const char *what, unsigned int size,
				  unsigned int exponent)
{
	static uint8_t buf[1 << 16];
	struct drm_i915_perf_record_header h;
	uint32_t ts, prev = 0;
	unsigned int n = 0;
	ssize_t len, off;

	sleep_ms(30);
	len = read(fd, buf, sizeof(buf));
	EXPECT_LT(0, len) TH_LOG("%s: %m", what);
	for (off = 0; off + (ssize_t)sizeof(h) <= len; off += h.size) {
		memcpy(&h, buf + off, sizeof(h));
		EXPECT_EQ(DRM_I915_PERF_RECORD_SAMPLE, h.type) TH_LOG("%s", what);
		EXPECT_EQ(sizeof(h) + size, h.size) TH_LOG("%s", what);
		if (h.size <= sizeof(h) || h.type != DRM_I915_PERF_RECORD_SAMPLE)
			break;
		memcpy(&ts, buf + off + sizeof(h) + 4, sizeof(ts));
		if (n++)
			EXPECT_EQ(2u << exponent, ts - prev)
				TH_LOG("%s: report %u", what, n);
		prev = ts;
	}
	return n;
}

TEST_F(plat, clocks_of_each_gpu)
{
	unsigned int i;
	int v;

	for (i = 0; i < N_GPUS; i++) {
		setenv("GPUPROF_SHIM_DEVICE_ID", gpus[i].id, 1);
		ASSERT_EQ(0, getparam(self->node, I915_PARAM_CHIPSET_ID, &v));
		EXPECT_EQ(strtol(gpus[i].id, NULL, 16), v) TH_LOG("%s", gpus[i].name);
		ASSERT_EQ(0, getparam(self->node,
				      I915_PARAM_CS_TIMESTAMP_FREQUENCY, &v));
		EXPECT_EQ(gpus[i].cs_hz, (uint32_t)v) TH_LOG("%s", gpus[i].name);
		ASSERT_EQ(0, getparam(self->node, PARAM_OA_TIMESTAMP_FREQUENCY,
				      &v));
		EXPECT_EQ(gpus[i].oa_hz, (uint32_t)v) TH_LOG("%s", gpus[i].name);
	}
	/* The kernel's rule for the other CTC shifts: 38.4 MHz >> (3 - s)
	 * for the CS clock, that << (3 - s) for the OA one. */
	setenv("GPUPROF_SHIM_DEVICE_ID", "0x5690", 1);
	setenv("GPUPROF_SHIM_CTC_SHIFT", "0", 1);
	ASSERT_EQ(0, getparam(self->node, I915_PARAM_CS_TIMESTAMP_FREQUENCY, &v));
	EXPECT_EQ(4800000, v);
	ASSERT_EQ(0, getparam(self->node, PARAM_OA_TIMESTAMP_FREQUENCY, &v));
	EXPECT_EQ(38400000, v);
	setenv("GPUPROF_SHIM_CTC_SHIFT", "3", 1);
	ASSERT_EQ(0, getparam(self->node, I915_PARAM_CS_TIMESTAMP_FREQUENCY, &v));
	EXPECT_EQ(38400000, v);
	ASSERT_EQ(0, getparam(self->node, PARAM_OA_TIMESTAMP_FREQUENCY, &v));
	EXPECT_EQ(38400000, v);
}

/*
 * Each format 0 to 15 on each GPU: opened, its reports of the format's
 * size one period apart, or refused with EINVAL.
 */
TEST_F(plat, formats_of_each_gpu)
{
	unsigned int i, f, n;
	char what[64];
	int fd;

	for (i = 0; i < N_GPUS; i++) {
		setenv("GPUPROF_SHIM_DEVICE_ID", gpus[i].id, 1);
		for (f = 0; f <= 15; f++) {
			snprintf(what, sizeof(what), "%s format %u",
				 gpus[i].name, f);
			fd = open_stream(self->node, f, gpus[i].exponent);
			if (!(gpus[i].formats & F(f) & 0x7fff)) {
				EXPECT_EQ(-1, fd) TH_LOG("%s opened", what);
				EXPECT_EQ(EINVAL, errno) TH_LOG("%s", what);
				if (fd >= 0)
					close(fd);
				continue;
			}
			ASSERT_LE(0, fd) TH_LOG("%s: %m", what);
			n = check_reports(_metadata, fd, what, report_size[f],
					  gpus[i].exponent);
			/* 30 ms of 1.3 ms (0.85 ms on DG2) periods, or more. */
			EXPECT_LE(15, n) TH_LOG("%s: %u reports", what, n);
			close(fd);
		}
	}
}

/*
 * DG2 and Meteor Lake: RING_TIMESTAMP read now is the OA clock of the
 * reports shifted right by 3 - CTC_SHIFT = 1, at the same instant.  The
 * shim's log gives the first report's OA timestamp and the time the OA
 * clock read it; the register is read between two clock_gettime()
 * calls, so it may be off by that window, and by one CS tick for the
 * shifted-out bit, and two OA ticks for rounding.
 */
TEST_F(plat, ring_timestamp_is_the_oa_clock_halved)
{
	static const char *const ids[] = { "0x5690", "0x7d55" };
	unsigned long long first_ts, first_ns;
	struct drm_i915_reg_read reg;
	uint64_t t0, t1, mid, want, got, slack;
	unsigned int i;
	char line[256];
	FILE *f;
	int fd;

	for (i = 0; i < 2; i++) {
		setenv("GPUPROF_SHIM_DEVICE_ID", ids[i], 1);
		unlink(self->log);
		fd = open_stream(self->node, 12, 14);
		ASSERT_LE(0, fd) TH_LOG("%s: %m", ids[i]);
		check_reports(_metadata, fd, ids[i], 256, 14);
		reg = (struct drm_i915_reg_read){
			.offset = 0x2358 | I915_REG_READ_8B_WA,
		};
		t0 = mono_ns();
		ASSERT_EQ(0, ioctl(self->node, DRM_IOCTL_I915_REG_READ, &reg));
		t1 = mono_ns();
		close(fd);
		mid = t0 + (t1 - t0) / 2;
		f = fopen(self->log, "r");
		ASSERT_NE(NULL, f);
		first_ts = first_ns = 0;
		while (fgets(line, sizeof(line), f))
			sscanf(line, "first_report ts %llu ns %llu", &first_ts,
			       &first_ns);
		fclose(f);
		ASSERT_NE(0, first_ns) TH_LOG("%s: no first_report in the log", ids[i]);
		/* The OA clock at @mid, 38.4 ticks per us, halved; 36 bits. */
		want = ((first_ts + (mid - first_ns) * 384 / 10000) >> 1) &
		       ((1ull << 36) - 1);
		got = reg.val;
		slack = (t1 - t0) * 192 / 10000 + 3;
		EXPECT_LE((got - want + slack) & ((1ull << 36) - 1), 2 * slack)
			TH_LOG("%s: RING_TIMESTAMP 0x%llx, want 0x%llx +- %llu",
			       ids[i], (unsigned long long)got,
			       (unsigned long long)want,
			       (unsigned long long)slack);
	}
}

/* 6.1's i915: no OA_TIMESTAMP_FREQUENCY, no OA on DG2. */
TEST_F(plat, linux_6_1)
{
	int v, fd;

	setenv("GPUPROF_SHIM_KERNEL", "6.1", 1);
	setenv("GPUPROF_SHIM_DEVICE_ID", "0x9a49", 1);
	EXPECT_EQ(-1, getparam(self->node, PARAM_OA_TIMESTAMP_FREQUENCY, &v));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, getparam(self->node, I915_PARAM_CS_TIMESTAMP_FREQUENCY, &v));
	EXPECT_EQ(19200000, v);
	fd = open_stream(self->node, 10, 13);
	EXPECT_LE(0, fd) TH_LOG("%m");
	if (fd >= 0)
		close(fd);
	setenv("GPUPROF_SHIM_DEVICE_ID", "0x5690", 1);
	EXPECT_EQ(-1, open_stream(self->node, 12, 14));
	EXPECT_EQ(KERNEL_ENOTSUPP, errno);
}

int main(int argc, char **argv)
{
	return run_with_shim_preloaded(argc, argv, i915_shim_path(),
				       REEXEC_ENV);
}
