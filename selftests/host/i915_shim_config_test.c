// SPDX-License-Identifier: GPL-2.0-only
/*
 * Metric set configuration on the i915 shim (selftests/i915-shim/):
 * DRM_IOCTL_I915_PERF_ADD_CONFIG and _REMOVE_CONFIG driven straight on
 * the fake node, each refusal with its errno in i915's order, the
 * register whitelists of one GPU of each generation at both sides of
 * every bound, the ids and the sysfs entries, and the privilege check.
 *
 * Every expected value is a literal read off Linux 7.3's
 * drivers/gpu/drm/i915/i915_perf.c (the same in 6.12), never the shim's
 * own tables: the checks of i915_perf_add_config_ioctl() (lines
 * 4585-4736) and i915_perf_remove_config_ioctl() (4749-4796),
 * alloc_oa_regs() (4491-4541), and the whitelists of lines 4304-4468 as
 * i915_perf_init() (5046-5118) picks them per platform.
 *
 * The shim must be preloaded behind this program's own ASan runtime, so
 * main() runs the harness again under LD_PRELOAD="<libasan> <shim>" (the
 * shim: $GPUPROF_I915_SHIM, else selftests/out/libi915_shim.so).  Each
 * test runs in a process of its own and sets the shim's variables for
 * itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
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
#define OFFERED "0fc397c0-4833-492c-9ccd-4929d574d5b8"	/* in the tree */
#define OFFERED_ID 42
#define UUID_A "01234567-89ab-cdef-0123-456789abcdef"
#define UUID_B "fedcba98-7654-3210-fedc-ba9876543210"
#define UUID_C "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"
#define REEXEC_ENV "GPUPROF_I915_SHIM_CONFIG_TEST_PRELOADED"

/* The kernel's ENOTSUPP (include/linux/errno.h), not userspace's. */
#define KERNEL_ENOTSUPP 524
/*
 * alloc_oa_regs() takes kmalloc_objs() of n struct i915_oa_reg (8
 * bytes); kmalloc gives at most 4 MiB on x86-64 (MAX_PAGE_ORDER 10), so
 * 524288 pairs is the most a list may have.
 */
#define MAX_PAIRS 524288u

enum { MUX, BOOLEAN, FLEX };

/* One register list: @n {addr, value} pairs at @regs. */
struct list {
	uint32_t n;
	const uint32_t *regs;
};

static int add_config(int node, const char *uuid, struct list mux,
		      struct list boolean, struct list flex)
{
	struct drm_i915_perf_oa_config c = {
		.n_mux_regs = mux.n, .mux_regs_ptr = (uintptr_t)mux.regs,
		.n_boolean_regs = boolean.n,
		.boolean_regs_ptr = (uintptr_t)boolean.regs,
		.n_flex_regs = flex.n, .flex_regs_ptr = (uintptr_t)flex.regs,
	};

	/* Up to 36 characters; a shorter @uuid is NUL-padded. */
	memcpy(c.uuid, uuid, strnlen(uuid, sizeof(c.uuid)));
	return ioctl(node, DRM_IOCTL_I915_PERF_ADD_CONFIG, &c);
}

/* A configuration of one register, @addr, in list @which. */
static int add_one(int node, const char *uuid, int which, uint32_t addr)
{
	uint32_t reg[2] = { addr, 0 };
	struct list l[3] = { { 0, NULL }, { 0, NULL }, { 0, NULL } };

	l[which] = (struct list){ 1, reg };
	return add_config(node, uuid, l[MUX], l[BOOLEAN], l[FLEX]);
}

static int remove_config(int node, uint64_t id)
{
	return ioctl(node, DRM_IOCTL_I915_PERF_REMOVE_CONFIG, &id);
}

/* The id in sysfs of @uuid, -1 when it has none. */
static long sysfs_id(const char *sys, const char *uuid)
{
	char path[512];
	long id = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/class/drm/card0/metrics/%s/id", sys,
		 uuid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &id) != 1)
		id = -1;
	fclose(f);
	return id;
}

static bool sysfs_has_dir(const char *sys, const char *uuid)
{
	char path[512];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/class/drm/card0/metrics/%s", sys, uuid);
	return !stat(path, &sb);
}

/* The last line of the shim's log, without its newline. */
static const char *last_log(const char *log)
{
	static char line[256], prev[256];
	FILE *f = fopen(log, "r");

	line[0] = prev[0] = '\0';
	while (f && fgets(line, sizeof(line), f))
		strcpy(prev, line);
	if (f)
		fclose(f);
	prev[strcspn(prev, "\n")] = '\0';
	return prev;
}

/* A stream on metric set @id with report format 10: its fd, or -1. */
static int open_stream(int node, uint64_t id)
{
	uint64_t props[] = {
		DRM_I915_PERF_PROP_SAMPLE_OA, 1,
		DRM_I915_PERF_PROP_OA_METRICS_SET, id,
		DRM_I915_PERF_PROP_OA_FORMAT, I915_OA_FORMAT_A32u40_A4u32_B8_C8,
	};
	struct drm_i915_perf_open_param p = {
		.flags = I915_PERF_FLAG_FD_CLOEXEC | I915_PERF_FLAG_DISABLED,
		.num_properties = 3, .properties_ptr = (uintptr_t)props,
	};

	return ioctl(node, DRM_IOCTL_I915_PERF_OPEN, &p);
}

FIXTURE(cfg) {
	char dir[64];
	char sys[128];
	char log[128];
	int node;
};

/*
 * renderD199's card0 offers OFFERED at 42; a Tiger Lake GT2; paranoid
 * (the default) with CAP_PERFMON.
 */
FIXTURE_SETUP(cfg)
{
	strcpy(self->dir, "/tmp/gpuprof-i915-config-test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->sys, sizeof(self->sys), "%s/sys", self->dir);
	snprintf(self->log, sizeof(self->log), "%s/log", self->dir);
	ASSERT_EQ(0, fake_i915_sysfs(self->sys,
				     &(struct fake_metric_set){ OFFERED, OFFERED_ID },
				     1, 0, 0)) TH_LOG("%s: %m", self->sys);
	setenv("GPUPROF_SYSFS_ROOT", self->sys, 1);
	setenv("GPUPROF_SHIM_LOG", self->log, 1);
	setenv("GPUPROF_SHIM_NODE", NODE, 1);
	setenv("GPUPROF_SHIM_DEVICE_ID", "0x9a49", 1);
	setenv("GPUPROF_SHIM_PERFMON", "1", 1);
	unsetenv("GPUPROF_SHIM_PARANOID");
	self->node = open(NODE, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->node) TH_LOG("the shim is not preloaded: %m");
}

FIXTURE_TEARDOWN(cfg)
{
	char out[256];

	close(self->node);
	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

/*
 * Ids come from idr_alloc(..., 2, 0, ...), the lowest free from 2 (line
 * 4712; nothing stands at 1: no kernel from 6.1 on has a TestOa set);
 * the set appears as metrics/UUID/id (create_dynamic_oa_sysfs_entry())
 * and opens a stream; a uuid added or in the tree is EADDRINUSE (4699);
 * REMOVE takes the entry away, then the id is ENOENT (4774), as are 0
 * (idr_init_base(..., 1)) and 1; a removed id is free again.
 */
TEST_F(cfg, ids_sysfs_and_removal)
{
	int fd;

	EXPECT_EQ(2, add_one(self->node, UUID_A, MUX, 0x9840));
	EXPECT_STREQ("add_config " UUID_A " mux 1 boolean 0 flex 0 -> 2",
		     last_log(self->log));
	EXPECT_EQ(2, sysfs_id(self->sys, UUID_A));
	EXPECT_EQ(3, add_one(self->node, UUID_B, BOOLEAN, 0xd900));
	EXPECT_EQ(3, sysfs_id(self->sys, UUID_B));

	fd = open_stream(self->node, 3);
	EXPECT_LE(0, fd) TH_LOG("open on an added set: %m");
	if (fd >= 0)
		close(fd);

	EXPECT_EQ(-1, add_one(self->node, UUID_A, MUX, 0x9840));
	EXPECT_EQ(EADDRINUSE, errno);
	EXPECT_STREQ("add_config " UUID_A " mux 1 boolean 0 flex 0 -> -98",
		     last_log(self->log));
	EXPECT_EQ(-1, add_one(self->node, OFFERED, MUX, 0x9840));
	EXPECT_EQ(EADDRINUSE, errno);

	EXPECT_EQ(0, remove_config(self->node, 2));
	EXPECT_STREQ("remove_config 2 -> 0", last_log(self->log));
	EXPECT_EQ(-1, sysfs_id(self->sys, UUID_A));
	EXPECT_FALSE(sysfs_has_dir(self->sys, UUID_A));
	EXPECT_EQ(-1, remove_config(self->node, 2));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_STREQ("remove_config 2 -> -2", last_log(self->log));
	EXPECT_EQ(-1, remove_config(self->node, 0));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(-1, remove_config(self->node, 1));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(-1, remove_config(self->node, 99));
	EXPECT_EQ(ENOENT, errno);

	/* PERF_OPEN on an id no set has: EINVAL (line 3323-3327). */
	EXPECT_EQ(-1, open_stream(self->node, 2));
	EXPECT_EQ(EINVAL, errno);

	EXPECT_EQ(2, add_one(self->node, UUID_C, FLEX, 0xe458));
	EXPECT_EQ(2, sysfs_id(self->sys, UUID_C));
	EXPECT_EQ(4, add_one(self->node, UUID_A, MUX, 0x9840));

	/* The tree's own set is one the idr has. */
	EXPECT_EQ(0, remove_config(self->node, OFFERED_ID));
	EXPECT_EQ(-1, sysfs_id(self->sys, OFFERED));
	EXPECT_EQ(5, add_one(self->node, OFFERED, MUX, 0x9840));
}

/*
 * Paranoid (i915_perf_stream_paranoid, 1 by default) without
 * perfmon_capable() is EACCES for both (lines 4603, 4760); paranoid 0,
 * or CAP_PERFMON, lets them through.
 */
TEST_F(cfg, privilege)
{
	unsetenv("GPUPROF_SHIM_PERFMON");
	EXPECT_EQ(-1, add_one(self->node, UUID_A, MUX, 0x9840));
	EXPECT_EQ(EACCES, errno);
	EXPECT_STREQ("add_config " UUID_A " mux 1 boolean 0 flex 0 -> -13",
		     last_log(self->log));
	EXPECT_EQ(-1, remove_config(self->node, OFFERED_ID));
	EXPECT_EQ(EACCES, errno);
	EXPECT_STREQ("remove_config 42 -> -13", last_log(self->log));
	EXPECT_EQ(OFFERED_ID, sysfs_id(self->sys, OFFERED));
	setenv("GPUPROF_SHIM_PARANOID", "1", 1);
	EXPECT_EQ(-1, add_one(self->node, UUID_A, MUX, 0x9840));
	EXPECT_EQ(EACCES, errno);

	setenv("GPUPROF_SHIM_PARANOID", "0", 1);
	EXPECT_EQ(2, add_one(self->node, UUID_A, MUX, 0x9840));
	EXPECT_EQ(0, remove_config(self->node, 2));

	setenv("GPUPROF_SHIM_PARANOID", "1", 1);
	setenv("GPUPROF_SHIM_PERFMON", "1", 1);
	EXPECT_EQ(2, add_one(self->node, UUID_A, MUX, 0x9840));
	EXPECT_EQ(0, remove_config(self->node, 2));
}

/*
 * i915_perf_add_config_ioctl()'s order (7.3; the same checks and
 * errnos in 6.1 at 4131-4282 and 6.12 at 4592-4744): ENOTSUPP without
 * OA (4595), EINVAL without the metrics kobject (4597), EACCES (4603),
 * EINVAL when no list has both pointer and count (4609), EINVAL for
 * the uuid (4627), the mux list (4640), the boolean list (4654), the
 * flex list, refused whole below gen8 (4667), EADDRINUSE (4699).  Each
 * case is wrong in this way and in every later one, so only the order
 * gives its errno; where two give EINVAL, the log tells them apart.
 */
TEST_F(cfg, refusals_in_order)
{
	uint32_t bad_mux[2] = { 0x9999, 0 }, good_mux[2] = { 0x9840, 0 };
	uint32_t bad_bool[2] = { 0x1234, 0 }, good_bool[2] = { 0xd900, 0 };
	uint32_t bad_flex[2] = { 0xe460, 0 }, hsw_bool[2] = { 0x2710, 0 };
	struct list none = { 0, NULL };
	struct list mux = { 1, good_mux }, boolean = { 1, good_bool };
	const uint32_t *unmapped = (const uint32_t *)8;
	long page = sysconf(_SC_PAGESIZE);
	uint32_t *pages, *last;
	char empty[192];

	/* The same for every case: no privilege (paranoid, no CAP_PERFMON). */
	unsetenv("GPUPROF_SHIM_PERFMON");

	/* Lunar Lake: i915 has no OA there (xe's only). */
	setenv("GPUPROF_SHIM_DEVICE_ID", "0x6420", 1);
	EXPECT_EQ(-1, add_config(self->node, "x", none, none, none));
	EXPECT_EQ(KERNEL_ENOTSUPP, errno);
	EXPECT_EQ(-1, remove_config(self->node, 1));
	EXPECT_EQ(KERNEL_ENOTSUPP, errno);
	setenv("GPUPROF_SHIM_DEVICE_ID", "0x9a49", 1);

	/* No metrics kobject: no tree, or the node's card without one. */
	unsetenv("GPUPROF_SYSFS_ROOT");
	EXPECT_EQ(-1, add_config(self->node, "x", none, none, none));
	EXPECT_EQ(EINVAL, errno);
	snprintf(empty, sizeof(empty), "%s/empty", self->dir);
	ASSERT_EQ(0, fake_i915_sysfs(empty, NULL, 0, 0, 0));
	setenv("GPUPROF_SYSFS_ROOT", empty, 1);
	EXPECT_EQ(-1, add_config(self->node, "x", none, none, none));
	EXPECT_EQ(EINVAL, errno);
	/* The log shows the uuid's 35 NULs as '?'. */
	EXPECT_STREQ("add_config x???????????????????????????????????"
		     " mux 0 boolean 0 flex 0 -> -22", last_log(self->log));
	/* REMOVE does not look at the kobject: the idr is empty. */
	setenv("GPUPROF_SHIM_PERFMON", "1", 1);
	EXPECT_EQ(-1, remove_config(self->node, 2));
	EXPECT_EQ(ENOENT, errno);
	unsetenv("GPUPROF_SHIM_PERFMON");
	setenv("GPUPROF_SYSFS_ROOT", self->sys, 1);

	/* Privilege, before the registers are looked at. */
	EXPECT_EQ(-1, add_config(self->node, "x", none, none, none));
	EXPECT_EQ(EACCES, errno);
	setenv("GPUPROF_SHIM_PERFMON", "1", 1);

	/* No list with both a pointer and a count: before the uuid. */
	EXPECT_EQ(-1, add_config(self->node, "x", none, none, none));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, add_config(self->node, UUID_A, (struct list){ 1, NULL },
				 (struct list){ 0, good_bool },
				 (struct list){ 3, NULL }));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_STREQ("add_config " UUID_A " mux 1 boolean 0 flex 3 -> -22",
		     last_log(self->log));

	/* The uuid (uuid_is_valid()), before the registers. */
	EXPECT_EQ(-1, add_config(self->node, "01234567-89ab-cdef-0123_456789abcdef",
				 (struct list){ 1, bad_mux }, none, none));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_STREQ("add_config 01234567-89ab-cdef-0123_456789abcdef mux 1 boolean 0 flex 0 -> -22",
		     last_log(self->log));
	EXPECT_EQ(-1, add_config(self->node, "g1234567-89ab-cdef-0123-456789abcdef",
				 mux, none, none));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(2, add_config(self->node, "ABCDEF01-89AB-CDEF-0123-456789ABCDEF",
				mux, none, none));	/* hex of either case */

	/* Mux before boolean before flex. */
	EXPECT_EQ(-1, add_config(self->node, UUID_A, (struct list){ 1, bad_mux },
				 (struct list){ 1, bad_bool },
				 (struct list){ 1, bad_flex }));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_STREQ("add_config " UUID_A " mux 1 boolean 1 flex 1 -> -22 mux 0x00009999",
		     last_log(self->log));
	EXPECT_EQ(-1, add_config(self->node, UUID_A, mux,
				 (struct list){ 1, bad_bool },
				 (struct list){ 1, bad_flex }));
	EXPECT_STREQ("add_config " UUID_A " mux 1 boolean 1 flex 1 -> -22 boolean 0x00001234",
		     last_log(self->log));
	EXPECT_EQ(-1, add_config(self->node, UUID_A, mux, boolean,
				 (struct list){ 1, bad_flex }));
	EXPECT_STREQ("add_config " UUID_A " mux 1 boolean 1 flex 1 -> -22 flex 0x0000e460",
		     last_log(self->log));
	/* A list's pointer is read only when its turn comes. */
	EXPECT_EQ(-1, add_config(self->node, UUID_A, (struct list){ 1, bad_mux },
				 (struct list){ 1, unmapped }, none));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, add_config(self->node, UUID_A, (struct list){ 1, unmapped },
				 (struct list){ 1, bad_bool }, none));
	EXPECT_EQ(EFAULT, errno);
	/* A count with no pointer, once another list is given: EFAULT. */
	EXPECT_EQ(-1, add_config(self->node, UUID_A, (struct list){ 1, NULL },
				 boolean, none));
	EXPECT_EQ(EFAULT, errno);

	/*
	 * Within a pair: the address, then its check, then the value
	 * (alloc_oa_regs(), 4515-4526).  The pair ends a page whose next
	 * one cannot be read.
	 */
	pages = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, pages);
	ASSERT_EQ(0, mprotect((char *)pages + page, page, PROT_NONE));
	last = (uint32_t *)((char *)pages + page) - 1;
	*last = 0x9840;
	EXPECT_EQ(-1, add_config(self->node, UUID_A, (struct list){ 1, last },
				 none, none));
	EXPECT_EQ(EFAULT, errno);
	*last = 0x9999;
	EXPECT_EQ(-1, add_config(self->node, UUID_A, (struct list){ 1, last },
				 none, none));
	EXPECT_EQ(EINVAL, errno);

	/* kmalloc's limit comes before any read. */
	EXPECT_EQ(-1, add_config(self->node, UUID_A,
				 (struct list){ MAX_PAIRS + 1, good_mux },
				 none, none));
	EXPECT_EQ(ENOMEM, errno);
	EXPECT_EQ(-1, add_config(self->node, UUID_A,
				 (struct list){ MAX_PAIRS, (uint32_t *)((char *)pages + page) },
				 none, none));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, add_config(self->node, UUID_A, mux,
				 (struct list){ MAX_PAIRS + 1, unmapped }, none));
	EXPECT_EQ(ENOMEM, errno);
	munmap(pages, 2 * page);

	/* The registers before EADDRINUSE. */
	EXPECT_EQ(-1, add_config(self->node, OFFERED, (struct list){ 1, bad_mux },
				 none, none));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, add_config(self->node, OFFERED, mux, none, none));
	EXPECT_EQ(EADDRINUSE, errno);

	/* The ioctl's own argument, copied in before anything. */
	EXPECT_EQ(-1, ioctl(self->node, DRM_IOCTL_I915_PERF_ADD_CONFIG, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->node, DRM_IOCTL_I915_PERF_REMOVE_CONFIG, (void *)8));
	EXPECT_EQ(EFAULT, errno);

	/* Haswell (GRAPHICS_VER < 8): any flex register is EINVAL. */
	setenv("GPUPROF_SHIM_DEVICE_ID", "0x0412", 1);
	boolean.regs = hsw_bool;
	EXPECT_EQ(-1, add_config(self->node, UUID_A, mux, boolean,
				 (struct list){ 1, (uint32_t []){ 0xe458, 0 } }));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_STREQ("add_config " UUID_A " mux 1 boolean 1 flex 1 -> -22",
		     last_log(self->log));
	/* ... counted by n_flex_regs alone, before EADDRINUSE. */
	EXPECT_EQ(-1, add_config(self->node, OFFERED, mux, none,
				 (struct list){ 1, NULL }));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(3, add_config(self->node, UUID_A, mux, boolean, none));
}

/* [start, end], both included (i915_mmio_range_table_contains()). */
struct range {
	uint32_t start, end;
};

#define END { 0, 0 }

/*
 * One GPU's whitelists, each list the union of the tables i915_perf_init()
 * gives it, overlapping tables merged, so that just outside a range is
 * outside the list.  Line numbers are 7.3's i915_perf.c.
 */
struct platform {
	const char *name;
	const char *device_id;
	struct range mux[12], boolean[16], flex[8];
	bool no_flex;			/* flex refused whole */
	uint32_t not_mux, not_boolean;	/* addresses only others allow */
};

/* gen8_is_valid_flex_addr() (4304): EU_PERF_CNTL0-6 (gt/intel_gt_regs.h
 * 1129-1180). */
#define FLEX_REGS { 0xe458, 0xe458 }, { 0xe558, 0xe558 }, \
	{ 0xe658, 0xe658 }, { 0xe758, 0xe758 }, { 0xe45c, 0xe45c }, \
	{ 0xe55c, 0xe55c }, { 0xe65c, 0xe65c }, END
/* gen7_oa_b_counters (4327). */
#define GEN7_BOOLEAN { 0x2710, 0x272c }, { 0x2740, 0x275c }, \
	{ 0x2770, 0x27ac }
/* gen12_oa_b_counters (4334). */
#define GEN12_BOOLEAN { 0x2b2c, 0x2b2c }, { 0xd900, 0xd91c }, \
	{ 0xd920, 0xd93c }, { 0xd940, 0xd97c }, { 0xdc00, 0xdc3c }, \
	{ 0xdc40, 0xdc40 }, { 0xdc44, 0xdc44 }
/* xehp_oa_b_counters (4353). */
#define XEHP_BOOLEAN { 0xdc48, 0xdc48 }, { 0xdd00, 0xdd48 }
/* gen12_oa_mux_regs (4389) without 0x20cc: mtl_oa_mux_regs (4402) too. */
#define GEN12_MUX { 0x0d00, 0x0d04 }, { 0x0d0c, 0x0d2c }, \
	{ 0x9840, 0x9840 }, { 0x9884, 0x9888 }

static const struct platform platforms[] = {
	{
		/* hsw_is_valid_mux_addr(): gen7_oa_mux_regs (4359) and
		 * hsw_oa_mux_regs (4366); flex: GRAPHICS_VER < 8 (4667). */
		"Haswell", "0x0412",
		{ { 0x91b8, 0x91cc }, { 0x9800, 0x9888 }, { 0xe180, 0xe180 },
		  { 0x9e80, 0x9ea4 }, { 0x9ec0, 0x9ec0 }, { 0x25100, 0x2ff90 },
		  END },
		{ GEN7_BOOLEAN, END }, { END }, true, 0x0d00, 0xd900,
	},
	{
		/* gen8_is_valid_mux_addr(): gen7 and gen8_oa_mux_regs (4378). */
		"Broadwell", "0x1616",
		{ { 0x0d00, 0x0d2c }, { 0x20cc, 0x20cc }, { 0x91b8, 0x91cc },
		  { 0x9800, 0x9888 }, { 0xe180, 0xe180 }, END },
		{ GEN7_BOOLEAN, END }, { FLEX_REGS }, false, 0x9e80, 0xd900,
	},
	{
		/* The same on gen9 (IS_GRAPHICS_VER(i915, 8, 9), 5071). */
		"Skylake", "0x1912",
		{ { 0x0d00, 0x0d2c }, { 0x20cc, 0x20cc }, { 0x91b8, 0x91cc },
		  { 0x9800, 0x9888 }, { 0xe180, 0xe180 }, END },
		{ GEN7_BOOLEAN, END }, { FLEX_REGS }, false, 0x91d0, 0x2b2c,
	},
	{
		/* gen11_is_valid_mux_addr(): gen7, gen8 and gen11_oa_mux_regs
		 * (4384), whose 0x91c8-0x91dc joins gen7's 0x91b8-0x91cc. */
		"Ice Lake", "0x8a52",
		{ { 0x0d00, 0x0d2c }, { 0x20cc, 0x20cc }, { 0x91b8, 0x91dc },
		  { 0x9800, 0x9888 }, { 0xe180, 0xe180 }, END },
		{ GEN7_BOOLEAN, END }, { FLEX_REGS }, false, 0x9e80, 0xd940,
	},
	{
		/* gen12_is_valid_mux_addr() below 12.70: gen12_oa_mux_regs;
		 * gen12_is_valid_b_counter_addr(). */
		"Tiger Lake", "0x9a49",
		{ GEN12_MUX, { 0x20cc, 0x20cc }, END },
		{ GEN12_BOOLEAN, END }, { FLEX_REGS }, false, 0x9800, 0xdc48,
	},
	{
		/* HAS_OA_SLICE_CONTRIB_LIMITS: xehp_is_valid_b_counter_addr()
		 * (4455), no OAM below 12.70 (4446). */
		"DG2", "0x5690",
		{ GEN12_MUX, { 0x20cc, 0x20cc }, END },
		{ GEN12_BOOLEAN, XEHP_BOOLEAN, END }, { FLEX_REGS }, false,
		0x38d100, 0x393000,
	},
	{
		/* 12.70: mtl_oa_mux_regs, and mtl_oam_b_counters (4345). */
		"Meteor Lake", "0x7d55",
		{ GEN12_MUX, { 0x38d100, 0x38d114 }, END },
		{ GEN12_BOOLEAN, XEHP_BOOLEAN, { 0x393000, 0x39301c },
		  { 0x393020, 0x39303c }, { 0x393040, 0x39307c },
		  { 0x393200, 0x39323c }, END },
		{ FLEX_REGS }, false, 0x20cc, 0x2710,
	},
};

static const char *const list_name[3] = { "mux", "boolean", "flex" };

/* @addr in list @which: added (then removed) when @in, else refused. */
static void expect_addr(struct __test_metadata *_metadata, int node,
			const char *log, const struct platform *p, int which,
			uint32_t addr, bool in)
{
	char want[160];
	int id;

	id = add_one(node, UUID_A, which, addr);
	if (in) {
		EXPECT_LE(2, id) TH_LOG("%s: %s 0x%x refused: %s", p->name,
					list_name[which], addr, strerror(errno));
		if (id >= 2)
			EXPECT_EQ(0, remove_config(node, id));
		return;
	}
	EXPECT_EQ(-1, id) TH_LOG("%s: %s 0x%x taken", p->name,
				 list_name[which], addr);
	if (id >= 2)
		remove_config(node, id);
	EXPECT_EQ(EINVAL, errno);
	snprintf(want, sizeof(want),
		 "add_config " UUID_A " mux %u boolean %u flex %u -> -22 %s 0x%08x",
		 which == MUX, which == BOOLEAN, which == FLEX,
		 list_name[which], addr);
	EXPECT_STREQ(want, last_log(log)) TH_LOG("%s", p->name);
}

/*
 * Each bound of each range of each list, on one GPU of each kind: the
 * bound is in, one past it is out; 0 and 0xffffffff are out everywhere.
 */
TEST_F(cfg, whitelists)
{
	const struct range *r;
	size_t i;
	int w;

	for (i = 0; i < sizeof(platforms) / sizeof(platforms[0]); i++) {
		const struct platform *p = &platforms[i];

		setenv("GPUPROF_SHIM_DEVICE_ID", p->device_id, 1);
		for (w = MUX; w <= FLEX; w++) {
			r = w == MUX ? p->mux : w == BOOLEAN ? p->boolean : p->flex;
			if (w == FLEX && p->no_flex)
				continue;
			for (; r->start || r->end; r++) {
				expect_addr(_metadata, self->node, self->log,
					    p, w, r->start, true);
				expect_addr(_metadata, self->node, self->log,
					    p, w, r->end, true);
				expect_addr(_metadata, self->node, self->log,
					    p, w, r->start - 1, false);
				expect_addr(_metadata, self->node, self->log,
					    p, w, r->end + 1, false);
			}
			expect_addr(_metadata, self->node, self->log, p, w,
				    0, false);
			expect_addr(_metadata, self->node, self->log, p, w,
				    0xffffffff, false);
		}
		expect_addr(_metadata, self->node, self->log, p, MUX,
			    p->not_mux, false);
		expect_addr(_metadata, self->node, self->log, p, BOOLEAN,
			    p->not_boolean, false);
		if (p->no_flex) {
			EXPECT_EQ(-1, add_one(self->node, UUID_A, FLEX, 0xe458));
			EXPECT_EQ(EINVAL, errno);
		}
	}
}

int main(int argc, char **argv)
{
	return run_with_shim_preloaded(argc, argv, i915_shim_path(),
				       REEXEC_ENV);
}
