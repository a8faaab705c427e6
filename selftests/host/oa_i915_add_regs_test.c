// SPDX-License-Identifier: GPL-2.0-only
/*
 * A set whose registers i915 refuses: oa_i915_add_regs() on the i915
 * shim (selftests/i915-shim/, which checks ADD_CONFIG's registers against
 * Linux 7.3's whitelists) with a copy of Tiger Lake GT2's RenderBasic in
 * which one register was planted, outside gen12's mux whitelist
 * (0x9999: gen12_is_valid_mux_addr() takes 0xd00-0xd04, 0xd0c-0xd2c,
 * 0x9840, 0x9884-0x9888 and 0x20cc).  i915 says EINVAL and no more;
 * the one line must name the register, its list and its place, and no
 * configuration may be left behind by the trials that found it.
 *
 * The shim is preloaded into this program itself (lib/shim_preload.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/fake_sysfs.h"
#include "../lib/paths.h"
#include "../lib/run.h"
#include "../lib/shim_preload.h"
#include "oa/i915.h"
#include "oa/metric-sets.h"
#include "util/debug.h"

#define NODE "/dev/dri/renderD199"
#define TGL_RENDER_BASIC "0fc397c0-4833-492c-9ccd-4929d574d5b8"
#define REEXEC_ENV "GPUPROF_OA_I915_ADD_REGS_TEST_PRELOADED"

FIXTURE(add) {
	char dir[64], sys[128], err[160];
	struct oa_device d;
	struct oa_set m;
	uint32_t *lists[3];
	unsigned int n[3];
};

/* RenderBasic's three lists as the table has them, malloc'ed. */
static uint32_t *copy_list(const struct oa_metric_i915_regs *r,
			   struct oa_metric_reg (*reg)(const struct oa_metric_i915_regs *,
						       unsigned int),
			   unsigned int n)
{
	uint32_t *l = calloc(2 * n + 2, sizeof(*l));
	unsigned int i;

	for (i = 0; l && i < n; i++) {
		l[2 * i] = reg(r, i).addr;
		l[2 * i + 1] = reg(r, i).value;
	}
	return l;
}

FIXTURE_SETUP(add)
{
	const struct oa_metric_set *set;
	struct oa_metric_i915_regs r;
	char path[256];

	strcpy(self->dir, "/tmp/oa_add_regs.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->sys, sizeof(self->sys), "%s/sys", self->dir);
	snprintf(self->err, sizeof(self->err), "%s/stderr", self->dir);
	ASSERT_EQ(0, fake_i915_sysfs(self->sys, NULL, 0, 0, 0));
	snprintf(path, sizeof(path), "%s/class/drm/card0/metrics", self->sys);
	ASSERT_EQ(0, fake_sysfs_mkdirs(path));
	setenv("GPUPROF_SYSFS_ROOT", self->sys, 1);
	setenv("GPUPROF_SHIM_DEVICE_ID", "0x9a49", 1);
	setenv("GPUPROF_SHIM_PERFMON", "1", 1);
	ASSERT_EQ(0, oa_i915_ops.open(&self->d, &(struct oa_device_config){
						.node = NODE }));
	set = oa_metric_set_find(oa_metrics_of(0x9a49), "RenderBasic");
	ASSERT_NE(NULL, set);
	ASSERT_TRUE(oa_metric_set_i915_regs(set, &r));
	self->n[0] = r.n_mux;
	self->n[1] = r.n_boolean;
	self->n[2] = r.n_flex;
	self->lists[0] = copy_list(&r, oa_metric_i915_mux, r.n_mux);
	self->lists[1] = copy_list(&r, oa_metric_i915_boolean, r.n_boolean);
	self->lists[2] = copy_list(&r, oa_metric_i915_flex, r.n_flex);
	/* IGT 1.27.1's library gives these counts for it. */
	ASSERT_EQ(64, self->n[0]);
	ASSERT_EQ(14, self->n[1]);
	ASSERT_EQ(7, self->n[2]);
	memset(&self->m, 0, sizeof(self->m));
	strcpy(self->m.name, "RenderBasic");
	strcpy(self->m.uuid, TGL_RENDER_BASIC);
	debug_set_prog("add");
}

FIXTURE_TEARDOWN(add)
{
	char out[256];
	int i;

	oa_i915_ops.close(&self->d);
	for (i = 0; i < 3; i++)
		free(self->lists[i]);
	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

/* oa_i915_add_regs() with stderr in @self->err; its return. */
static int add(FIXTURE_DATA(add) *self)
{
	const uint32_t *lists[3] = { self->lists[0], self->lists[1],
				     self->lists[2] };
	int saved = dup(2), ret;

	fflush(stderr);
	if (!freopen(self->err, "w", stderr))
		return -2;
	ret = oa_i915_add_regs(&self->d, &self->m, lists, self->n);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	return ret;
}

static const char *err_text(FIXTURE_DATA(add) *self)
{
	static char buf[1024];

	if (read_file(self->err, buf, sizeof(buf)) < 0)
		buf[0] = '\0';
	return buf;
}

static int entries(FIXTURE_DATA(add) *self)
{
	char out[64];

	run_cmd(out, sizeof(out), "ls '%s/class/drm/card0/metrics' | wc -l",
		self->sys);
	return atoi(out);
}

TEST_F(add, the_copy_as_it_is_is_added)
{
	ASSERT_EQ(0, add(self)) TH_LOG("%s", err_text(self));
	EXPECT_EQ(2, self->m.id);
	EXPECT_TRUE(self->m.added);
	EXPECT_EQ(1, entries(self));
	EXPECT_EQ(0, oa_i915_ops.remove_set(&self->d, self->m.id));
	EXPECT_EQ(0, entries(self));
}

/* Each list in turn: the 41st mux, the 9th boolean, the 3rd flex. */
TEST_F(add, a_planted_register_is_named_in_one_line)
{
	static const struct { int list; unsigned int at; uint32_t addr;
			      const char *line; } c[] = {
		{ 0, 40, 0x9999, "add: " NODE ": i915 refused metric set RenderBasic (" TGL_RENDER_BASIC "): its mux register 41 of 64, 0x00009999 = 0x%08x, is not one this kernel lets userspace program on this GPU\n" },
		/* gen12's boolean whitelist ends at 0xdc44. */
		{ 1, 8, 0xdc48, "add: " NODE ": i915 refused metric set RenderBasic (" TGL_RENDER_BASIC "): its boolean register 9 of 14, 0x0000dc48 = 0x%08x, is not one this kernel lets userspace program on this GPU\n" },
		/* Flex: the seven EU_PERF_CNTL registers only. */
		{ 2, 2, 0xe460, "add: " NODE ": i915 refused metric set RenderBasic (" TGL_RENDER_BASIC "): its flex register 3 of 7, 0x0000e460 = 0x%08x, is not one this kernel lets userspace program on this GPU\n" },
	};
	char want[512];
	uint32_t old;
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		old = self->lists[c[i].list][2 * c[i].at];
		self->lists[c[i].list][2 * c[i].at] = c[i].addr;
		EXPECT_EQ(-1, add(self));
		snprintf(want, sizeof(want), c[i].line,
			 self->lists[c[i].list][2 * c[i].at + 1]);
		EXPECT_STREQ(want, err_text(self));
		EXPECT_FALSE(self->m.added);
		/* The trials that found it left nothing behind. */
		EXPECT_EQ(0, entries(self));
		self->lists[c[i].list][2 * c[i].at] = old;
	}
}

int main(int argc, char **argv)
{
	return run_with_shim_preloaded(argc, argv, i915_shim_path(),
				       REEXEC_ENV);
}
