// SPDX-License-Identifier: GPL-2.0-only
/*
 * The OA metric set table (tools/perf-gpu/oa/metric-sets.[ch], generated
 * from IGT 1.27.1): the platforms and how many sets each has, RenderBasic
 * on each, names and uuids well formed and unique, every equation in the
 * notation metric-sets.h documents, the lookups, and, against a real
 * peer, IGT 1.27.1 itself, for one device id of each platform: its
 * library has the same sets, uuids and counters, and its reader, given a
 * recording of a set named as the table names it, prints the set's
 * title and our uuid and lists only counters the table has.
 *
 * The expected figures were counted in IGT's files (grep -c '<set ' of
 * oa-STEM.xml at 2b29e8ac0) and, for DG2, in its installed library
 * (oa/metric-sets-acm.tsv).  After them come xe's Lunar Lake and
 * Battlemage, and 7.3's Panther Lake, from lib/xe/oa-configs/oa-STEM.xml
 * of IGT b3d809d53 (its counts likewise), with each set's report format
 * and registers.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <stddef.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/run.h"
#include "../lib/setup_provides.h"
#include "../../module/oa_decode.h"
#include "../../tools/perf-gpu/oa/igt-perf-abi.h"
#include "../../tools/perf-gpu/oa/metric-sets.h"
#include "../../tools/perf-gpu/oa/metrics.h"
#include "../../tools/perf-gpu/oa/writer.h"

/* IGT 1.27.1's platforms in file stem order, and one device id of each. */
static const struct {
	const char *stem;
	unsigned int sets;
	uint32_t device_id;
} igt[] = {
	{ "acmgt1", 345, 0x5693 }, { "acmgt2", 521, 0x5696 },
	{ "acmgt3", 1043, 0x5690 }, { "adl", 26, 0x4680 },
	{ "bdw", 24, 0x1616 }, { "bxt", 18, 0x5a84 },
	{ "cflgt2", 21, 0x3e92 }, { "cflgt3", 21, 0x3ea5 },
	{ "chv", 14, 0x22b0 }, { "cnl", 15, 0x5a40 },
	{ "dg1", 26, 0x4905 }, { "ehl", 19, 0x4541 },
	{ "glk", 16, 0x3185 }, { "hsw", 6, 0x0412 },
	{ "icl", 20, 0x8a52 }, { "kblgt2", 21, 0x5912 },
	{ "kblgt3", 21, 0x5926 }, { "mtlgt2", 149, 0x7d45 },
	{ "mtlgt3", 251, 0x7d55 }, { "rkl", 23, 0x4c8a },
	{ "sklgt2", 22, 0x1912 }, { "sklgt3", 21, 0x1926 },
	{ "sklgt4", 21, 0x1932 }, { "tglgt1", 23, 0x9a60 },
	{ "tglgt2", 26, 0x9a49 },
};
#define N_IGT (sizeof(igt) / sizeof(igt[0]))

/* The platforms only xe serves, after i915's, and one device id of each. */
static const struct {
	const char *stem;
	unsigned int sets;
	uint32_t device_id;
} xe[] = {
	{ "bmg", 14, 0xe20b }, { "lnl", 14, 0x64a0 }, { "ptl", 14, 0xb0a0 },
};
#define N_XE (sizeof(xe) / sizeof(xe[0]))

static const char *const device_vars[] = {
	"EuCoresTotalCount", "EuSlicesTotalCount", "EuSubslicesTotalCount",
	"EuDualSubslicesTotalCount", "EuDualSubslicesSlice0123Count",
	"EuThreadsCount", "VectorEngineTotalCount",
	"VectorEnginePerXeCoreCount", "VectorEngineThreadsCount", "SliceMask",
	"SliceTotalCount", "SubsliceMask", "DualSubsliceMask", "GtSliceMask",
	"GtSubsliceMask", "GtDualSubsliceMask", "GtXeCoreMask", "XeCoreMask",
	"XeCoreTotalCount", "GpuTimestampFrequency", "GpuMinFrequency",
	"GpuMaxFrequency", "SkuRevisionId", "QueryMode", NULL,
};
/* What IGT's xe library knows besides. */
static const char *const xe_device_vars[] = {
	"ComputeEngineTotalCount", "CopyEngineTotalCount", "SqidiTotalCount",
	"L3BankTotalCount", "L3NodeTotalCount", "GeometryPipeTotalCount",
	"DepthPipeTotalCount", "ColorPipeTotalCount", NULL,
};
static const char *const equation_ops[] = {
	"UADD", "USUB", "UMUL", "UDIV", "UMIN", "FADD", "FSUB", "FMUL", "FDIV",
	"FMAX", "AND", "<<", ">>", "UGT", "UGTE", "ULT", "ULTE", NULL,
};
static const char *const condition_ops[] = {
	"AND", "UGTE", "UGT", "ULTE", "ULT", "&&", "<<", ">>", "UMUL", NULL,
};

static bool in(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

/* @s is PREFIX then one or more digits. */
static bool numbered(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	return !strncmp(s, prefix, n) && s[n] &&
	       strspn(s + n, "0123456789") == strlen(s + n);
}

static bool topology_var(const char *s)
{
	const char *p;

	if (strncmp(s, "GtSlice", 7) || !isdigit((unsigned char)s[7]))
		return false;
	for (p = s + 7; isdigit((unsigned char)*p); p++)
		;
	return !*p || numbered(p, "DualSubslice") || numbered(p, "XeCore");
}

/* Counter @name among the first @n counters of @set. */
static bool counter_before(const struct oa_metric_set *set, unsigned int n,
			   const char *name)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(oa_metric_str(oa_metric_set_counter(set, i)->symbol),
			    name))
			return true;
	return false;
}

/*
 * @rpn in metric-sets.h's notation: NULL, else what is wrong.  @set and
 * @n: the counters a $Name may be (none for a condition).
 */
static const char *check_rpn(const char *rpn, const char *const *ops,
			     const struct oa_metric_set *set, unsigned int n)
{
	static char why[256];
	char tok[128], *end;
	const char *p = rpn;
	bool xe = set && oa_metric_set_format(set);
	int depth = 0;
	size_t len;

	while (*p) {
		len = strcspn(p, " ");
		if (!len || len >= sizeof(tok))
			return "an empty or overlong token";
		memcpy(tok, p, len);
		tok[len] = '\0';
		p += len;
		if (*p && !*++p)
			return "a trailing space";
		if (in(ops, tok)) {
			if (depth < 2)
				return "an operator without two operands";
			depth--;
			continue;
		}
		depth++;
		if (numbered(tok, "A") || numbered(tok, "B") ||
		    numbered(tok, "C") || numbered(tok, "PERFCNT") ||
		    !strcmp(tok, "GPU_TIME") || !strcmp(tok, "GPU_CLOCK"))
			continue;
		if (xe && ((numbered(tok, "PEC") && atoi(tok + 3) < 64) ||
			   numbered(tok, "MPEC")))
			continue;
		if (isdigit((unsigned char)tok[0])) {
			strtoull(tok, &end, 0);
			if (*end)
				break;
			continue;
		}
		if (tok[0] == '$' && (in(device_vars, tok + 1) ||
				      topology_var(tok + 1) ||
				      counter_before(set, n, tok + 1)))
			continue;
		if (xe && tok[0] == '$' && (in(xe_device_vars, tok + 1) ||
					    numbered(tok + 1, "GtXeCore")))
			continue;
		break;
	}
	if (*p)
		snprintf(why, sizeof(why), "a bad token: %s", tok);
	else if (depth != 1)
		snprintf(why, sizeof(why), "%d values left", depth);
	else
		return NULL;
	return why;
}

TEST(the_platforms_are_igts)
{
	const struct gpuprof_oa_platform *gpu;
	const struct oa_metric_platform *p;
	size_t i;

	ASSERT_EQ(N_IGT + N_XE, oa_metric_n_platforms);
	for (i = 0; i < N_IGT; i++) {
		p = &oa_metric_platforms[i];
		EXPECT_STREQ(igt[i].stem, p->name);
		EXPECT_EQ(igt[i].sets, p->n_sets) TH_LOG("%s", p->name);
		/* Only DG2's XML files were missing: sets without counters. */
		EXPECT_EQ(!!strncmp(p->name, "acm", 3), p->has_counters)
			TH_LOG("%s", p->name);
		EXPECT_EQ(p, oa_metric_platform_find(igt[i].stem));
		/* Every platform of IGT 1.27.1 has a RenderBasic. */
		EXPECT_NE(NULL, oa_metric_set_find(p, "RenderBasic"))
			TH_LOG("%s", p->name);
		/* The device id of the platform maps to it. */
		gpu = gpuprof_oa_platform_of_device(igt[i].device_id);
		ASSERT_NE(NULL, gpu) TH_LOG("0x%04x", igt[i].device_id);
		EXPECT_STREQ(igt[i].stem, gpu->metrics ? gpu->metrics : "(none)")
			TH_LOG("0x%04x", igt[i].device_id);
	}
	EXPECT_EQ(NULL, oa_metric_platform_find("nosuch"));
	EXPECT_EQ(NULL, oa_metric_platform_find(NULL));
	for (i = 0; i < N_XE; i++) {
		p = &oa_metric_platforms[N_IGT + i];
		EXPECT_STREQ(xe[i].stem, p->name);
		EXPECT_EQ(xe[i].sets, p->n_sets) TH_LOG("%s", p->name);
		EXPECT_TRUE(p->has_counters);
		EXPECT_NE(NULL, oa_metric_set_find(p, "RenderBasic"));
		gpu = gpuprof_oa_platform_of_device(xe[i].device_id);
		ASSERT_NE(NULL, gpu) TH_LOG("0x%04x", xe[i].device_id);
		EXPECT_STREQ(xe[i].stem, gpu->metrics ? gpu->metrics : "(none)");
	}
}

/*
 * Each xe set, and only those, has its format and registers, in IGT's
 * order: Lunar Lake's RenderBasic has 226 OA registers then 5 FLEX ones
 * (oa-lnl.xml), the first OA one 0x13000 = 0x1801, the last 0x137d4 = 0,
 * the FLEX ones from 0xe458 = 0x60000 to 0xe65c = 0; the media sets are
 * read with the MPEC format.
 */
TEST(xe_sets_have_a_format_and_registers)
{
	const struct oa_metric_platform *p;
	const struct oa_metric_set *s;
	const struct oa_metric_reg *r;
	unsigned int i, j, n, xe_sets = 0, regs = 0, media = 0;

	for (i = 0; i < oa_metric_n_platforms; i++) {
		p = &oa_metric_platforms[i];
		for (j = 0; j < p->n_sets; j++) {
			s = oa_metric_platform_set(p, j);
			r = oa_metric_set_regs(s, &n);
			if (i < N_IGT) {
				EXPECT_EQ(0, oa_metric_set_format(s));
				EXPECT_EQ(NULL, r);
				EXPECT_EQ(0, n);
				continue;
			}
			xe_sets++;
			regs += n;
			EXPECT_NE(NULL, r);
			EXPECT_NE(0, n);
			if (oa_metric_set_format(s) == GPUPROF_OAM_FORMAT_MPEC8u32_B8_C8) {
				media++;
				EXPECT_EQ(0, strncmp(oa_metric_str(s->symbol), "MediaSet", 8));
			} else {
				EXPECT_EQ(GPUPROF_OA_FORMAT_PEC64u64, oa_metric_set_format(s));
			}
		}
	}
	EXPECT_EQ(28 + 14, xe_sets);
	EXPECT_EQ(4 + 2, media);
	/* grep -c '<register ' of oa-lnl.xml, oa-bmg.xml and oa-ptl.xml */
	EXPECT_EQ(1728 + 1840 + 1726, regs);
	s = oa_metric_set_find(oa_metric_platform_find("lnl"), "RenderBasic");
	ASSERT_NE(NULL, s);
	r = oa_metric_set_regs(s, &n);
	ASSERT_EQ(226 + 5, n);
	EXPECT_EQ(0x13000, r[0].addr);
	EXPECT_EQ(0x1801, r[0].value);
	EXPECT_EQ(0x137d4, r[225].addr);
	EXPECT_EQ(0, r[225].value);
	EXPECT_EQ(0xe458, r[226].addr);
	EXPECT_EQ(0x60000, r[226].value);
	EXPECT_EQ(0xe65c, r[n - 1].addr);
	EXPECT_EQ(0, r[n - 1].value);
	EXPECT_EQ(NULL, oa_metric_set_regs(NULL, &n));
	EXPECT_EQ(0, n);
}

/* The i915 sets whose mux registers depend on the device, per platform. */
static unsigned int device_dependent(const char *stem)
{
	static const struct {
		const char *stem;
		unsigned int sets;
	} dep[] = { { "bdw", 5 }, { "bxt", 2 }, { "cnl", 1 }, { "sklgt2", 6 } };
	unsigned int i;

	for (i = 0; i < sizeof(dep) / sizeof(dep[0]); i++)
		if (!strcmp(dep[i].stem, stem))
			return dep[i].sets;
	return 0;
}

/*
 * Every i915 set has its registers for ADD_CONFIG given a device; without
 * one, all but the fourteen whose registers depend on it.  xe's sets have
 * none of these (theirs are oa_metric_set_regs()).  Tiger Lake GT2's
 * RenderBasic is 64 mux, 14 boolean and 7 flex registers (oa-tglgt2.xml);
 * Broxton's RenderBasic has its 80 mux registers from revision 3 on only.
 */
TEST(i915_sets_have_registers)
{
	const struct oa_metric_i915_device dev = { 0x1, 0x7, 0 };
	const struct oa_metric_i915_device bxt_b0 = { 0x1, 0x7, 3 };
	char counts[1024] = "";
	const struct oa_metric_platform *p;
	const struct oa_metric_set *s;
	struct oa_metric_i915_regs r;
	unsigned int i, j, with, without, all = 0, off = 0;
	struct oa_metric_reg reg;

	for (i = 0; i < N_IGT; i++) {
		p = oa_metric_platform_find(igt[i].stem);
		ASSERT_NE(NULL, p);
		with = without = 0;
		for (j = 0; j < p->n_sets; j++) {
			s = oa_metric_platform_set(p, j);
			without += oa_metric_set_i915_regs(s, &r);
			if (!oa_metric_set_i915_regs_on(s, &dev, &r))
				continue;
			with++;
			EXPECT_NE(0, r.n_mux + r.n_boolean + r.n_flex);
		}
		EXPECT_EQ(p->n_sets, with) TH_LOG("%s", p->name);
		EXPECT_EQ(p->n_sets - device_dependent(p->name), without)
			TH_LOG("%s", p->name);
		all += with;
		off += snprintf(counts + off, sizeof(counts) - off, " %s %u/%u",
				p->name, without, with);
	}
	TH_LOG("i915 sets with registers, without/with a device:%s", counts);
	EXPECT_EQ(2713, all);
	for (i = N_IGT; i < oa_metric_n_platforms; i++) {
		p = &oa_metric_platforms[i];
		for (j = 0; j < p->n_sets; j++) {
			s = oa_metric_platform_set(p, j);
			EXPECT_FALSE(oa_metric_set_i915_regs_on(s, &dev, &r));
			EXPECT_EQ(0, r.n_mux + r.n_boolean + r.n_flex);
		}
	}
	EXPECT_FALSE(oa_metric_set_i915_regs(NULL, &r));

	s = oa_metric_set_find(oa_metric_platform_find("tglgt2"), "RenderBasic");
	ASSERT_TRUE(oa_metric_set_i915_regs(s, &r));
	EXPECT_EQ(64, r.n_mux);
	EXPECT_EQ(14, r.n_boolean);
	EXPECT_EQ(7, r.n_flex);
	reg = oa_metric_i915_mux(&r, 0);
	EXPECT_EQ(0xd04, reg.addr);
	EXPECT_EQ(0x200, reg.value);
	reg = oa_metric_i915_mux(&r, 63);
	EXPECT_EQ(0x9888, reg.addr);
	EXPECT_EQ(0x42000001, reg.value);
	reg = oa_metric_i915_boolean(&r, 0);
	EXPECT_EQ(0xd920, reg.addr);
	EXPECT_EQ(0, reg.value);
	reg = oa_metric_i915_boolean(&r, 13);
	EXPECT_EQ(0xdc0c, reg.addr);
	EXPECT_EQ(0xfff3, reg.value);
	reg = oa_metric_i915_flex(&r, 0);
	EXPECT_EQ(0xe458, reg.addr);
	EXPECT_EQ(0x804704, reg.value);
	reg = oa_metric_i915_flex(&r, 6);
	EXPECT_EQ(0xe65c, reg.addr);
	EXPECT_EQ(0xffffffff, reg.value);
	reg = oa_metric_i915_flex(&r, 7);
	EXPECT_EQ(0, reg.addr);

	s = oa_metric_set_find(oa_metric_platform_find("bxt"), "RenderBasic");
	EXPECT_FALSE(oa_metric_set_i915_regs(s, &r));
	ASSERT_TRUE(oa_metric_set_i915_regs_on(s, &dev, &r));
	EXPECT_EQ(0, r.n_mux);
	EXPECT_EQ(5, r.n_boolean);
	EXPECT_EQ(7, r.n_flex);
	ASSERT_TRUE(oa_metric_set_i915_regs_on(s, &bxt_b0, &r));
	EXPECT_EQ(80, r.n_mux);
	reg = oa_metric_i915_mux(&r, 0);
	EXPECT_EQ(0x9840, reg.addr);
	EXPECT_EQ(0x80, reg.value);
	reg = oa_metric_i915_mux(&r, 79);
	EXPECT_EQ(0x9888, reg.addr);
	EXPECT_EQ(0x45900821, reg.value);
}

TEST(names_and_uuids_are_well_formed_and_unique)
{
	char text[OA_METRIC_UUID_LEN + 1], again[OA_METRIC_UUID_LEN + 1];
	const struct oa_metric_set *s, *t;
	const struct oa_metric_platform *p;
	unsigned int i, j, k, sets = 0;
	uint8_t u[16];
	const char *c;

	for (i = 0; i < oa_metric_n_platforms; i++) {
		p = &oa_metric_platforms[i];
		for (j = 0; j < p->n_sets; j++) {
			s = oa_metric_platform_set(p, j);
			sets++;
			c = oa_metric_str(s->symbol);
			EXPECT_TRUE(isalpha((unsigned char)c[0]) &&
				    strspn(c, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(c))
				TH_LOG("%s: set '%s'", p->name, c);
			EXPECT_NE(0, oa_metric_str(s->title)[0]);
			/* Text and bytes agree, and lookups find it. */
			oa_metric_uuid_format(s->uuid, text);
			ASSERT_TRUE(oa_metric_uuid_parse(text, u));
			EXPECT_EQ(0, memcmp(u, s->uuid, 16));
			EXPECT_EQ(s, oa_metric_set_by_uuid(p, text));
			EXPECT_EQ(s, oa_metric_set_find(p, c));
			for (k = 0; k < j; k++) {
				t = oa_metric_platform_set(p, k);
				EXPECT_NE(0, memcmp(s->uuid, t->uuid, 16))
					TH_LOG("%s: %s and %s share a uuid",
					       p->name, c, oa_metric_str(t->symbol));
				EXPECT_NE(0, strcasecmp(c, oa_metric_str(t->symbol)))
					TH_LOG("%s: %s twice", p->name, c);
			}
		}
	}
	EXPECT_EQ(2713 + 28 + 14, sets);
	/* IGT's RenderBasic of Tiger Lake GT2, which its reader prints. */
	s = oa_metric_set_by_uuid(oa_metric_platform_find("tglgt2"),
				  "0FC397C0-4833-492C-9CCD-4929D574D5B8");
	ASSERT_NE(NULL, s);
	EXPECT_STREQ("RenderBasic", oa_metric_str(s->symbol));
	EXPECT_STREQ("Render Metrics Basic set", oa_metric_str(s->title));
	EXPECT_STREQ("0fc397c0-4833-492c-9ccd-4929d574d5b8",
		     oa_metric_uuid_format(s->uuid, again));
	EXPECT_EQ(s, oa_metric_set_find(oa_metric_platform_find("tglgt2"),
					"renderbasic"));
	EXPECT_EQ(NULL, oa_metric_set_find(oa_metric_platform_find("tglgt2"),
					   "RenderBasi"));
	EXPECT_EQ(NULL, oa_metric_set_find(NULL, "RenderBasic"));
	EXPECT_FALSE(oa_metric_uuid_parse("0fc397c0-4833-492c-9ccd-4929d574d5b", u));
	EXPECT_FALSE(oa_metric_uuid_parse("0fc397c0-4833-492c-9ccd-4929d574d5b8 ", u));
	EXPECT_FALSE(oa_metric_uuid_parse("0fc397c0_4833-492c-9ccd-4929d574d5b8", u));
	EXPECT_FALSE(oa_metric_uuid_parse("0fc397c0-4833-492c-9ccd-4929d574d5bg", u));
}

TEST(every_equation_follows_the_notation)
{
	const struct oa_metric_counter *c;
	const struct oa_metric_set *s;
	const struct oa_metric_platform *p;
	unsigned int i, j, k, counters = 0, maxes = 0, conditions = 0;
	const char *why;

	for (i = 0; i < oa_metric_n_platforms; i++) {
		p = &oa_metric_platforms[i];
		for (j = 0; j < p->n_sets; j++) {
			s = oa_metric_platform_set(p, j);
			EXPECT_EQ(p->has_counters, s->n_counters > 0)
				TH_LOG("%s %s", p->name, oa_metric_str(s->symbol));
			for (k = 0; k < s->n_counters; k++) {
				c = oa_metric_set_counter(s, k);
				counters++;
				EXPECT_NE(0, oa_metric_str(c->symbol)[0]);
				EXPECT_NE(0, oa_metric_str(c->title)[0]);
				EXPECT_NE(0, oa_metric_str(c->units)[0]);
				/* IGT's files have these two types only. */
				EXPECT_TRUE(c->type == OA_METRIC_UINT64 ||
					    c->type == OA_METRIC_FLOAT);
				EXPECT_FALSE(counter_before(s, k, oa_metric_str(c->symbol)));
				why = check_rpn(oa_metric_str(c->equation),
						equation_ops, s, k);
				EXPECT_EQ(NULL, why) TH_LOG("%s %s %s: %s: %s",
					p->name, oa_metric_str(s->symbol),
					oa_metric_str(c->symbol), why,
					oa_metric_str(c->equation));
				if (oa_metric_str(c->max)[0]) {
					maxes++;
					why = check_rpn(oa_metric_str(c->max),
							equation_ops, s, k);
					EXPECT_EQ(NULL, why) TH_LOG("max of %s: %s",
						oa_metric_str(c->symbol), why);
				}
				if (oa_metric_str(c->avail)[0]) {
					conditions++;
					why = check_rpn(oa_metric_str(c->avail),
							condition_ops, s, 0);
					EXPECT_EQ(NULL, why) TH_LOG("condition of %s: %s",
						oa_metric_str(c->symbol), why);
				}
			}
		}
	}
	/* Counted in IGT's XML files: counters, max_equation and
	 * availability attributes. */
	EXPECT_EQ(16278 + 524 + 556 + 524, counters);
	EXPECT_EQ(7391 + 14 + 14 + 14, maxes);
	EXPECT_EQ(3009 + 8 + 28 + 12, conditions);
	/* The checker itself refuses what it should. */
	EXPECT_NE(NULL, check_rpn("A1 UADD", equation_ops, NULL, 0));
	EXPECT_NE(NULL, check_rpn("A1 A2", equation_ops, NULL, 0));
	EXPECT_NE(NULL, check_rpn("A1 $Nope UADD", equation_ops, NULL, 0));
	EXPECT_NE(NULL, check_rpn("A 1 READ", equation_ops, NULL, 0));
	EXPECT_NE(NULL, check_rpn("1 2 &&", equation_ops, NULL, 0));
	EXPECT_EQ(NULL, check_rpn("A1 $GpuCoreClocks FDIV", equation_ops,
				  oa_metric_set_find(oa_metric_platform_find("tglgt2"),
						     "RenderBasic"), 5));
}

/*
 * A recording IGT's reader takes: DEVICE_INFO naming @set_name, a
 * topology of one slice of three subslices of eight EUs, two correlation
 * points and one report.
 */
static int write_recording(const char *path, uint32_t device_id,
			   const char *set_name, const char *uuid)
{
	struct gpuprof_oa_device_info info = {
		.timestamp_frequency = 19200000, .device_id = device_id,
		.gt_min_frequency = 300000000, .gt_max_frequency = 1100000000,
		.oa_format = GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8,
	};
	union {
		struct drm_i915_query_topology_info t;
		uint8_t bytes[64];
	} topo = { .t = {
		.max_slices = 1, .max_subslices = 3, .max_eus_per_subslice = 8,
		.subslice_offset = 1, .subslice_stride = 1,
		.eu_offset = 2, .eu_stride = 1,
	} };
	uint8_t report[256] = { 0 };
	struct oa_writer w;
	FILE *f = fopen(path, "wb");

	if (!f)
		return -1;
	snprintf(info.metric_set_name, sizeof(info.metric_set_name), "%s",
		 set_name);
	snprintf(info.metric_set_uuid, sizeof(info.metric_set_uuid), "%s",
		 uuid);
	topo.t.data[0] = 0x1;
	topo.t.data[1] = 0x7;
	memset(topo.t.data + 2, 0xff, 3);
	report[4] = 0x10;
	oa_writer_init(&w, f);
	oa_write_version(&w);
	oa_write_device_info(&w, &info);
	oa_write_topology(&w, &topo.t, sizeof(topo.t) + 5);
	oa_write_correlation(&w, 1000000000, 0x0, 100);
	oa_write_sample(&w, report, sizeof(report));
	oa_write_correlation(&w, 2000000000, 19200000, 100);
	return fclose(f) || oa_writer_error(&w) ? -1 : 0;
}

/*
 * The reader's "-c list" against the set: each counter it lists is the
 * table's, with the same title; each of the table's without a condition
 * is listed.  Return: the number of counters listed.
 */
static unsigned int check_counter_list(struct __test_metadata *_metadata,
				       const char *stem,
				       const struct oa_metric_set *s,
				       char *out)
{
	const struct oa_metric_counter *c;
	char *line, *colon, *title, *save = NULL;
	unsigned int k, listed = 0;
	bool *seen = calloc(s->n_counters + 1, sizeof(*seen));

	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strcmp(line, "Available counters:"))
			continue;
		colon = strchr(line, ':');
		EXPECT_NE(NULL, colon) TH_LOG("%s %s: reader said '%s'", stem,
					      oa_metric_str(s->symbol), line);
		if (!colon)
			continue;
		*colon = '\0';
		for (title = colon + 1; *title == ' '; title++)
			;
		for (k = 0; k < s->n_counters; k++)
			if (!strcmp(oa_metric_str(oa_metric_set_counter(s, k)->symbol),
				    line))
				break;
		EXPECT_LT(k, s->n_counters) TH_LOG("%s %s: IGT has counter %s, the table not",
						   stem, oa_metric_str(s->symbol), line);
		if (k == s->n_counters)
			continue;
		EXPECT_STREQ(oa_metric_str(oa_metric_set_counter(s, k)->title), title);
		seen[k] = true;
		listed++;
	}
	for (k = 0; k < s->n_counters; k++) {
		c = oa_metric_set_counter(s, k);
		if (!oa_metric_str(c->avail)[0])
			EXPECT_TRUE(seen[k]) TH_LOG("%s %s: IGT lacks counter %s",
						    stem, oa_metric_str(s->symbol),
						    oa_metric_str(c->symbol));
	}
	free(seen);
	return listed;
}

/*
 * IGT's reader, for RenderBasic and the last set of each platform: the
 * recording names the set as the table does, the reader prints the
 * title and uuid it has for that name and lists the counters it has.
 * (One run takes some 40 ms, so not every set: the library test below
 * covers them all.)
 */
TEST(igt_reader_agrees)
{
	char dir[] = "/tmp/metric_sets_test.XXXXXX", path[64], want[512];
	char uuid[OA_METRIC_UUID_LEN + 1], *out = malloc(1 << 16);
	const struct oa_metric_platform *p;
	const struct oa_metric_set *s;
	unsigned int i, j, runs = 0, counters = 0;

	ASSERT_NE(NULL, out);
	SETUP_PROVIDES(!run_cmd(out, 1 << 16, "command -v i915-perf-reader"),
		       "i915-perf-reader (package intel-gpu-tools)");
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/rec", dir);
	for (i = 0; i < N_IGT; i++) {
		p = oa_metric_platform_find(igt[i].stem);
		ASSERT_NE(NULL, p);
		for (j = 0; j < 2; j++) {
			s = j ? oa_metric_platform_set(p, p->n_sets - 1) :
			    oa_metric_set_find(p, "RenderBasic");
			ASSERT_NE(NULL, s);
			oa_metric_uuid_format(s->uuid, uuid);
			ASSERT_EQ(0, write_recording(path, igt[i].device_id,
						     oa_metric_str(s->symbol), uuid));
			/* No WARNING either: the uuid is the reader's. */
			EXPECT_EQ(0, run_cmd(out, 1 << 16, "i915-perf-reader '%s'", path))
				TH_LOG("%s %s: %.300s", p->name,
				       oa_metric_str(s->symbol), out);
			snprintf(want, sizeof(want), "\nMetric used : %s (%s) uuid=%s\n",
				 oa_metric_str(s->symbol), oa_metric_str(s->title),
				 uuid);
			EXPECT_NE(NULL, strstr(out, want))
				TH_LOG("%s: want%s got: %.300s", p->name, want, out);
			EXPECT_EQ(NULL, strstr(out, "WARNING")) TH_LOG("%s", out);
			runs++;
			if (!p->has_counters)
				continue;
			EXPECT_EQ(0, run_cmd(out, 1 << 16, "i915-perf-reader -c list '%s'",
					     path)) TH_LOG("%.300s", out);
			counters += check_counter_list(_metadata, p->name, s, out);
		}
	}
	TH_LOG("%u sets and %u of their counters as IGT's reader has them",
	       runs, counters);
	run_cmd(out, 1 << 16, "rm -rf '%s'", dir);
	free(out);
}

/* perf.h's intel_perf_logical_counter_unit_t, in order. */
static const char *const igt_units[] = {
	"bytes", "hz", "ns", "us", "pixels", "texels", "threads", "percent",
	"messages", "number", "cycles", "events", "utilization",
	"eu sends to l3 cache lines", "eu atomic requests to l3 cache lines",
	"eu requests to l3 cache lines", "eu bytes per l3 cache line", "gbps",
};

/*
 * The installed library itself (libi915_perf.so.1.5 of IGT 1.27.1, which
 * the reader uses), asked for each platform's sets through its exported
 * intel_perf_for_devinfo(): the same sets in the same order, with the
 * same names, titles and uuids; each counter it keeps on a device of one
 * slice of three subslices of eight EUs is the table's, with the same
 * title, type, units and whether it has a maximum; each of the table's
 * without a condition is kept.  The library's structures as
 * oa/igt-perf-abi.h declares them.
 */
TEST(igt_library_has_the_same_sets)
{
	igt_perf_for_devinfo_fn for_devinfo;
	igt_perf_free_fn perf_free;
	union {
		struct drm_i915_query_topology_info t;
		uint8_t bytes[64];
	} topo = { .t = {
		.max_slices = 1, .max_subslices = 3, .max_eus_per_subslice = 8,
		.subslice_offset = 1, .subslice_stride = 1,
		.eu_offset = 2, .eu_stride = 1,
	} };
	unsigned int i, j, k, n, sets = 0, counters = 0;
	const struct oa_metric_counter *c;
	const struct oa_metric_platform *p;
	const struct oa_metric_set *s;
	char uuid[OA_METRIC_UUID_LEN + 1], out[256];
	struct igt_counter *ic;
	struct igt_perf *perf;
	struct igt_list *node;
	struct igt_set *is;
	void *lib;
	bool *seen;

	if (run_cmd(out, sizeof(out), "dpkg-query -W -f '${Version}' intel-gpu-tools") ||
	    strncmp(out, "1.27.1-", 7))
		SETUP_PROVIDES(0, "IGT 1.27.1 (intel-gpu-tools), not '%s'", out);
	lib = dlopen(IGT_PERF_LIBRARY, RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		SKIP(return, "%s", dlerror());
	for_devinfo = (igt_perf_for_devinfo_fn)dlsym(lib, "intel_perf_for_devinfo");
	perf_free = (igt_perf_free_fn)dlsym(lib, "intel_perf_free");
	ASSERT_NE(NULL, for_devinfo);
	ASSERT_NE(NULL, perf_free);
	topo.t.data[0] = 0x1;
	topo.t.data[1] = 0x7;
	memset(topo.t.data + 2, 0xff, 3);
	for (i = 0; i < N_IGT; i++) {
		p = oa_metric_platform_find(igt[i].stem);
		ASSERT_NE(NULL, p);
		perf = for_devinfo(igt[i].device_id, 0, 19200000, 300000000,
				   1100000000, &topo);
		ASSERT_NE(NULL, perf) TH_LOG("%s 0x%04x", p->name, igt[i].device_id);
		n = 0;
		for (node = perf->sets.next; node != &perf->sets; node = node->next) {
			is = igt_set_of(node);
			if (n >= p->n_sets) {
				n++;
				continue;
			}
			s = oa_metric_platform_set(p, n++);
			sets++;
			EXPECT_STREQ(is->symbol_name, oa_metric_str(s->symbol));
			EXPECT_STREQ(is->name, oa_metric_str(s->title));
			EXPECT_STREQ(is->hw_config_guid,
				     oa_metric_uuid_format(s->uuid, uuid))
				TH_LOG("%s %s", p->name, is->symbol_name);
			if (!p->has_counters)
				continue;
			seen = calloc(s->n_counters + 1, sizeof(*seen));
			ASSERT_NE(NULL, seen);
			for (j = 0; j < (unsigned int)is->n_counters; j++) {
				ic = &is->counters[j];
				for (k = 0; k < s->n_counters; k++)
					if (!strcmp(ic->symbol_name,
						    oa_metric_str(oa_metric_set_counter(s, k)->symbol)))
						break;
				EXPECT_LT(k, s->n_counters) TH_LOG("%s %s: IGT has counter %s, the table not",
					p->name, is->symbol_name, ic->symbol_name);
				if (k == s->n_counters)
					continue;
				c = oa_metric_set_counter(s, k);
				seen[k] = true;
				counters++;
				EXPECT_STREQ(ic->name, oa_metric_str(c->title));
				/* STORAGE_UINT64 is 0, STORAGE_FLOAT 3. */
				EXPECT_EQ(c->type == OA_METRIC_FLOAT ? 3 : 0, ic->storage)
					TH_LOG("%s %s", p->name, ic->symbol_name);
				EXPECT_TRUE(ic->unit >= 0 && ic->unit < 18 &&
					    !strcmp(igt_units[ic->unit], oa_metric_str(c->units)))
					TH_LOG("%s %s: unit %d, table '%s'", p->name,
					       ic->symbol_name, ic->unit,
					       oa_metric_str(c->units));
				EXPECT_EQ(!!ic->max, !!oa_metric_str(c->max)[0])
					TH_LOG("%s %s", p->name, ic->symbol_name);
			}
			for (k = 0; k < s->n_counters; k++) {
				c = oa_metric_set_counter(s, k);
				if (!oa_metric_str(c->avail)[0])
					EXPECT_TRUE(seen[k]) TH_LOG("%s %s: IGT lacks counter %s",
						p->name, is->symbol_name,
						oa_metric_str(c->symbol));
			}
			free(seen);
		}
		EXPECT_EQ(p->n_sets, n) TH_LOG("%s", p->name);
		perf_free(perf);
	}
	TH_LOG("%u sets and %u counters as IGT's library has them", sets,
	       counters);
	EXPECT_EQ(2713, sets);
	dlclose(lib);
}

/*
 * The devices the register lists are compared on: revision, slices
 * present, subslices present in each (of two slices of three subslices
 * of eight EUs).  Between them every condition of the table holds on
 * one and fails on another: both sides of IGT's revision tests (2, 3,
 * 5), slice 0 or 1 missing, subslice 0 of slice 0 missing.
 */
static const struct {
	uint32_t revision;
	uint8_t slices, subslices[2];
} reg_devices[] = {
	{ 0, 0x1, { 0x7, 0 } }, { 2, 0x3, { 0x7, 0x7 } },
	{ 3, 0x1, { 0x6, 0 } }, { 5, 0x2, { 0, 0x5 } },
};
#define N_REG_DEVICES (sizeof(reg_devices) / sizeof(reg_devices[0]))

/* Device @d's topology as i915 reports it; @t has room for it. */
static size_t reg_device_topology(unsigned int d,
				  struct drm_i915_query_topology_info *t)
{
	unsigned int s, ss;

	memset(t, 0, sizeof(*t) + 9);
	t->max_slices = 2;
	t->max_subslices = 3;
	t->max_eus_per_subslice = 8;
	t->subslice_offset = 1;
	t->subslice_stride = 1;
	t->eu_offset = 3;
	t->eu_stride = 1;
	t->data[0] = reg_devices[d].slices;
	for (s = 0; s < 2; s++) {
		t->data[1 + s] = reg_devices[d].subslices[s];
		for (ss = 0; ss < 3; ss++)
			if (reg_devices[d].subslices[s] & (1 << ss))
				t->data[3 + s * 3 + ss] = 0xff;
	}
	return sizeof(*t) + 9;
}

/*
 * One list of the table's, as @reg gives it, against IGT's @n registers
 * at @igt: the same number, the same registers in the same order.
 * Return: the number compared.
 */
static unsigned int compare_regs(struct __test_metadata *_metadata,
				 const char *what, const struct oa_metric_i915_regs *r,
				 struct oa_metric_reg (*reg)(const struct oa_metric_i915_regs *,
							     unsigned int),
				 unsigned int n_table, const struct igt_reg *igt,
				 uint32_t n)
{
	struct oa_metric_reg t;
	unsigned int i;

	EXPECT_EQ(n, n_table) TH_LOG("%s: IGT has %u registers, the table %u",
				     what, n, n_table);
	for (i = 0; i < n && i < n_table; i++) {
		t = reg(r, i);
		if (t.addr == igt[i].addr && t.value == igt[i].value)
			continue;
		EXPECT_EQ((uint64_t)igt[i].addr << 32 | igt[i].value,
			  (uint64_t)t.addr << 32 | t.value)
			TH_LOG("%s register %u: IGT 0x%x = 0x%x, the table 0x%x = 0x%x",
			       what, i, igt[i].addr, igt[i].value, t.addr, t.value);
		break;
	}
	return i;
}

/*
 * The installed library's register lists for ADD_CONFIG, mux, boolean
 * counters and flex, for every set of every i915 platform on each of the
 * devices above, against the table's for the same device (its variables
 * computed by oa_metrics_device_vars() from the same topology): the same
 * registers in the same order.  Every condition of the table holds on
 * one of the devices and fails on another.
 */
TEST(igt_library_has_the_same_registers)
{
	igt_perf_for_devinfo_fn for_devinfo;
	igt_perf_free_fn perf_free;
	union {
		struct drm_i915_query_topology_info t;
		uint8_t bytes[64];
	} topo;
	unsigned int i, d, c, n, sets, regs, all_sets = 0, all_regs = 0;
	struct oa_metrics_device md = {
		.timestamp_frequency = 19200000, .gt_min_hz = 300000000,
		.gt_max_hz = 1100000000, .topology = &topo,
	};
	unsigned int held[32] = { 0 };
	struct oa_metric_i915_device dev;
	const struct oa_metric_platform *p;
	const struct oa_metric_set *s;
	struct oa_metric_i915_regs r;
	struct oa_metrics_vars v;
	char out[256], what[128];
	struct igt_perf *perf;
	struct igt_list *node;
	struct igt_set *is;
	void *lib;

	if (run_cmd(out, sizeof(out), "dpkg-query -W -f '${Version}' intel-gpu-tools") ||
	    strncmp(out, "1.27.1-", 7))
		SETUP_PROVIDES(0, "IGT 1.27.1 (intel-gpu-tools), not '%s'", out);
	lib = dlopen(IGT_PERF_LIBRARY, RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		SKIP(return, "%s", dlerror());
	for_devinfo = (igt_perf_for_devinfo_fn)dlsym(lib, "intel_perf_for_devinfo");
	perf_free = (igt_perf_free_fn)dlsym(lib, "intel_perf_free");
	ASSERT_NE(NULL, for_devinfo);
	ASSERT_NE(NULL, perf_free);
	ASSERT_GE(32, oa_metric_n_i915_conds);
	for (i = 0; i < N_IGT; i++) {
		p = oa_metric_platform_find(igt[i].stem);
		ASSERT_NE(NULL, p);
		sets = regs = 0;
		for (d = 0; d < N_REG_DEVICES; d++) {
			md.device_id = igt[i].device_id;
			md.revision = reg_devices[d].revision;
			md.topology_len = reg_device_topology(d, &topo.t);
			oa_metrics_device_vars(&md, &v);
			dev.slice_mask = v.slice_mask;
			dev.subslice_mask = v.subslice_mask;
			dev.revision = v.revision;
			for (c = 0; c < oa_metric_n_i915_conds; c++)
				held[c] |= oa_metric_i915_cond_holds(c, &dev) ? 1 : 2;
			perf = for_devinfo(igt[i].device_id, md.revision, 19200000,
					   300000000, 1100000000, &topo);
			ASSERT_NE(NULL, perf) TH_LOG("%s 0x%04x", p->name, igt[i].device_id);
			n = 0;
			for (node = perf->sets.next; node != &perf->sets;
			     node = node->next, n++) {
				is = igt_set_of(node);
				if (n >= p->n_sets)
					continue;
				s = oa_metric_platform_set(p, n);
				EXPECT_STREQ(is->symbol_name, oa_metric_str(s->symbol));
				EXPECT_TRUE(oa_metric_set_i915_regs_on(s, &dev, &r))
					TH_LOG("%s %s", p->name, is->symbol_name);
				snprintf(what, sizeof(what), "%s %s, device %u, mux",
					 p->name, is->symbol_name, d);
				regs += compare_regs(_metadata, what, &r, oa_metric_i915_mux,
						     r.n_mux, is->mux_regs, is->n_mux_regs);
				snprintf(what, sizeof(what), "%s %s, device %u, boolean",
					 p->name, is->symbol_name, d);
				regs += compare_regs(_metadata, what, &r, oa_metric_i915_boolean,
						     r.n_boolean, is->b_counter_regs, is->n_b_counter_regs);
				snprintf(what, sizeof(what), "%s %s, device %u, flex",
					 p->name, is->symbol_name, d);
				regs += compare_regs(_metadata, what, &r, oa_metric_i915_flex,
						     r.n_flex, is->flex_regs, is->n_flex_regs);
				sets++;
			}
			EXPECT_EQ(p->n_sets, n) TH_LOG("%s", p->name);
			perf_free(perf);
		}
		TH_LOG("%s: %u sets on %zu devices, %u registers the same as IGT's",
		       p->name, sets, N_REG_DEVICES, regs);
		all_sets += sets;
		all_regs += regs;
	}
	for (c = 1; c < oa_metric_n_i915_conds; c++)
		EXPECT_EQ(3, held[c]) TH_LOG("condition %u holds on %s device", c,
					     held[c] == 1 ? "every" : "no");
	TH_LOG("%u sets, %u registers in all", all_sets, all_regs);
	EXPECT_EQ(2713 * N_REG_DEVICES, all_sets);
	dlclose(lib);
}

TEST_HARNESS_MAIN
