// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu list on trees the test makes: the DRM clients of a fake proc
 * root (--proc-root) and the OA metric sets of a fake sysfs
 * (--sysfs-root, SYSFS/class/drm/cardN/metrics/UUID/id as i915 has it,
 * named from IGT's table for the GPU of cardN/device/device).  The
 * clients are compared whole; the sets by line: every set IGT knows for
 * the card's GPU, with its offered id or "-", then the offered sets IGT
 * does not know.  The set counts are IGT 1.27.1's (grep -c '<set ' of
 * oa-tglgt2.xml and oa-bdw.xml, as in metric_sets_test).
 */
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../lib/harness.h"
#include "../lib/files.h"
#include "../lib/run.h"

static char root[] = "/tmp/perf_gpu_list_trees.XXXXXX";

/* Two of IGT 1.27.1's tglgt2 sets (oa-tglgt2.xml). */
#define TGL_RENDER_BASIC "0fc397c0-4833-492c-9ccd-4929d574d5b8"
#define TGL_TEST_OA "6607f034-d053-40d1-8215-67c07f3041bb"
#define TGL_SETS 26
#define BDW_SETS 24

static void mkdirs(const char *fmt, ...)
{
	char path[512], *p, c;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	/* Each parent first, as mkdir -p. */
	for (p = path + 1; ; p++) {
		if (*p && *p != '/')
			continue;
		c = *p;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			perror(path);
			abort();
		}
		if (!c)
			break;
		*p = c;
	}
}

/* SYSFS/class/drm/CARD/metrics/UUID, with its id file unless @id NULL. */
static void metric_set(const char *card, const char *uuid, const char *id)
{
	mkdirs("%s/sys/class/drm/%s/metrics/%s", root, card, uuid);
	if (id)
		put_file(id, "%s/sys/class/drm/%s/metrics/%s/id", root, card, uuid);
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

FIXTURE(list) {
	char out[16384];
};

FIXTURE_SETUP(list)
{
	strcpy(root, "/tmp/perf_gpu_list_trees.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(root));
	mkdirs("%s/proc", root);
	mkdirs("%s/sys", root);
}

FIXTURE_TEARDOWN(list)
{
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int list(char *out, size_t size)
{
	return run_cmd(out, size, "%s list --proc-root %s/proc --sysfs-root %s/sys",
		       perf_gpu_path(), root, root);
}

/* The output from "DRM clients:" on. */
static const char *clients_on(const char *out)
{
	const char *p = strstr(out, "DRM clients:\n");

	return p ? p : "(no DRM clients section)";
}

/* From "DRM clients:" to the end of the line starting with @last. */
static const char *clients_until(const char *out, const char *last)
{
	static char buf[4096];
	const char *p = clients_on(out), *q = strstr(p, last);

	q = q ? strchr(q, '\n') : NULL;
	snprintf(buf, sizeof(buf), "%.*s", q ? (int)(q - p + 1) : (int)strlen(p), p);
	return buf;
}

/* The lines after the "OA metric sets" header. */
static const char *sets_of(const char *out)
{
	const char *p = strstr(out, "OA metric sets");

	p = p ? strchr(p, '\n') : NULL;
	return p ? p + 1 : "";
}

/* The lines of @text that start with @prefix and end with @suffix (NULL: any). */
static int lines(const char *text, const char *prefix, const char *suffix)
{
	size_t np = strlen(prefix), ns = suffix ? strlen(suffix) : 0;
	const char *p, *end;
	int n = 0;

	for (p = text; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, '\n');
		if (strncmp(p, prefix, np) || (size_t)(end - p) < np)
			continue;
		if (!suffix || ((size_t)(end - p) >= ns &&
				!strncmp(end - ns, suffix, ns)))
			n++;
	}
	return n;
}

#define I915(id) "pos:\t0\nflags:\t02100002\ndrm-driver:\ti915\n" \
		 "drm-pdev:\t0000:00:02.0\ndrm-client-id:\t" #id "\n" \
		 "drm-engine-render:\t100 ns\n"

TEST_F(list, clients_and_metric_sets)
{
	const char *sets;

	/* Client 12: two fds of 4200 and one of 310 (passed over); 9 of
	 * 4200 alone; an msm fd without drm-client-id; a non-DRM fd. */
	mkdirs("%s/proc/4200/fdinfo", root);
	put_file("glxgears\n", "%s/proc/4200/comm", root);
	put_file(I915(12), "%s/proc/4200/fdinfo/5", root);
	put_file(I915(12), "%s/proc/4200/fdinfo/6", root);
	put_file(I915(9), "%s/proc/4200/fdinfo/7", root);
	put_file("pos:\t0\nflags:\t02\n", "%s/proc/4200/fdinfo/0", root);
	mkdirs("%s/proc/310/fdinfo", root);
	put_file("Xwayland\n", "%s/proc/310/comm", root);
	put_file(I915(12), "%s/proc/310/fdinfo/30", root);
	mkdirs("%s/proc/77/fdinfo", root);	/* no comm */
	put_file("drm-driver:\tmsm\ndrm-engine-gpu:\t5 ns\n",
	    "%s/proc/77/fdinfo/3", root);
	mkdirs("%s/proc/self", root);

	/*
	 * Sets of card0, card2 and card10 (in that order, not as text),
	 * card0's connector, a set without id, one with a bad id, one with
	 * id 0 and an entry not named as a uuid.  card0 is a Tiger Lake GT2:
	 * IGT's tglgt2 sets are named, in IGT's order (RenderBasic before
	 * TestOa), the others after them by uuid; card2 is a Broadwell,
	 * where the same uuid is no set; card10 says no device id.
	 */
	mkdirs("%s/sys/class/drm/card0/device", root);
	put_file("0x9a49\n", "%s/sys/class/drm/card0/device/device", root);
	mkdirs("%s/sys/class/drm/card2/device", root);
	put_file("0x1616\n", "%s/sys/class/drm/card2/device/device", root);
	metric_set("card0", "ffffffff-0000-4000-8000-000000000002", "21\n");
	metric_set("card0", "0a0a0a0a-0000-4000-8000-000000000001", "1\n");
	metric_set("card0", TGL_TEST_OA, "2\n");
	metric_set("card0", TGL_RENDER_BASIC, "3\n");
	metric_set("card0", "11111111-0000-4000-8000-000000000003", NULL);
	metric_set("card0", "22222222-0000-4000-8000-000000000004", "x7\n");
	metric_set("card0", "66666666-0000-4000-8000-000000000008", "0\n");
	metric_set("card0", "RenderBasic", "8\n");
	metric_set("card10", "33333333-0000-4000-8000-000000000005", "4\n");
	metric_set("card2", TGL_RENDER_BASIC, "5\n");
	metric_set("card0-DP-1", "55555555-0000-4000-8000-000000000007", "6\n");

	ASSERT_EQ(0, list(self->out, sizeof(self->out)));
	EXPECT_STREQ(
		"DRM clients:\n"
		"      PID COMM             DRIVER     PDEV              CLIENT  FDS\n"
		"       77 -                msm        -                      -    1\n"
		"      310 Xwayland         i915       0000:00:02.0          12    3\n"
		"     4200 glxgears         i915       0000:00:02.0           9    1\n"
		"OA metric sets (card, name, uuid, id offered now or -):\n",
		clients_until(self->out, "OA metric sets"));
	sets = sets_of(self->out);
	/* card0: IGT's order, RenderBasic first; then the unknown. */
	EXPECT_EQ(TGL_SETS + 2, lines(sets, "  card0 ", NULL));
	EXPECT_EQ(TGL_SETS - 2, lines(sets, "  card0 ", " -"));
	EXPECT_EQ(0, strncmp(sets, "  card0    RenderBasic              "
			     TGL_RENDER_BASIC " 3\n", 64));
	EXPECT_NE(NULL, strstr(sets, "  card0    TestOa                   "
			       TGL_TEST_OA " 2\n"));
	EXPECT_NE(NULL, strstr(sets,
		"  card0    -                        0a0a0a0a-0000-4000-8000-000000000001 1\n"
		"  card0    -                        ffffffff-0000-4000-8000-000000000002 21\n"
		"  card2    "));
	/* card2, a Broadwell: the Tiger Lake uuid is no set of it. */
	EXPECT_EQ(BDW_SETS + 1, lines(sets, "  card2 ", NULL));
	EXPECT_EQ(BDW_SETS, lines(sets, "  card2 ", " -"));
	EXPECT_NE(NULL, strstr(sets,
		"  card2    -                        " TGL_RENDER_BASIC " 5\n"
		"  card10   -                        33333333-0000-4000-8000-000000000005 4\n"));
	/* card10 says no device id: its offer only, and last. */
	EXPECT_EQ(1, lines(sets, "  card10 ", NULL));
	EXPECT_EQ(TGL_SETS + BDW_SETS + 4, lines(sets, "", NULL));
	/* The sections before still come (tracefs or not). */
	EXPECT_NE(NULL, strstr(self->out, "GPU tracepoints:\n"));
	EXPECT_NE(NULL, strstr(self->out, "DRM devices (node, pdev, driver):\n"));
}

TEST_F(list, empty_trees)
{
	ASSERT_EQ(0, list(self->out, sizeof(self->out)));
	EXPECT_STREQ("DRM clients:\n  (none)\nOA metric sets (card, name, uuid, id offered now or -):\n  (none)\n",
		     clients_on(self->out));
}

/*
 * A card of a GPU IGT knows that offers nothing (stock i915 before any
 * set is added, its TestOa aside): every set it could have, none offered.
 */
TEST_F(list, a_card_offering_nothing_lists_what_could_be_added)
{
	mkdirs("%s/sys/class/drm/card0/device", root);
	put_file("0x9a49\n", "%s/sys/class/drm/card0/device/device", root);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s list --sysfs-root %s/sys sets", perf_gpu_path(),
			     root));
	EXPECT_EQ(0, strncmp(self->out,
			     "OA metric sets (card, name, uuid, id offered now or -):\n"
			     "  card0    RenderBasic              " TGL_RENDER_BASIC " -\n",
			     120));
	EXPECT_EQ(TGL_SETS, lines(sets_of(self->out), "  card0 ", " -"));
	EXPECT_EQ(TGL_SETS + 1, lines(self->out, "", NULL));
}

/* --device-id: a GPU's sets with no card; the sections narrow. */
TEST_F(list, device_id_lists_a_gpus_sets_without_a_card)
{
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s list --sysfs-root %s/sys --device-id 0x1616 sets",
			     perf_gpu_path(), root));
	EXPECT_EQ(0, strncmp(self->out,
			     "OA metric sets IGT knows for bdw (device, name, uuid, -: no card read):\n"
			     "  0x1616   RenderBasic ", 85));
	EXPECT_EQ(BDW_SETS, lines(self->out, "  0x1616 ", " -"));
	EXPECT_EQ(BDW_SETS + 1, lines(self->out, "", NULL));
	/* Decimal too: 39497 is 0x9a49. */
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s list --device-id 39497 sets", perf_gpu_path()));
	EXPECT_EQ(TGL_SETS, lines(self->out, "  0x9a49 ", " -"));
}

/* Each refusal: one line naming the cause, and the status. */
TEST_F(list, bad_sections_and_device_ids_are_refused)
{
	static const char setz[] =
		"perf gpu list: 'setz' is not a section: tracepoints, devices, clients or sets\n"
		"\n Usage: perf gpu list ";

	/* The line, then perf's usage, as for a bad option. */
	EXPECT_EQ(129, run_cmd(self->out, sizeof(self->out),
			       "{ %s list setz >/dev/null; }", perf_gpu_path()));
	EXPECT_EQ(0, strncmp(self->out, setz, sizeof(setz) - 1)) TH_LOG("%s", self->out);
	EXPECT_EQ(1, run_cmd(self->out, sizeof(self->out),
			     "{ %s list --device-id 0x1234 sets >/dev/null; }",
			     perf_gpu_path()));
	EXPECT_STREQ("perf gpu list: --device-id: IGT 1.27.1 has no metric sets for device 0x1234\n",
		     self->out);
	EXPECT_EQ(1, run_cmd(self->out, sizeof(self->out),
			     "{ %s list --device-id 0x9a49z sets >/dev/null; }",
			     perf_gpu_path()));
	EXPECT_STREQ("perf gpu list: --device-id: '0x9a49z' is not a PCI device id (0x9a49)\n",
		     self->out);
}

/* A proc root that is not there: a one-line error naming it, status 1. */
TEST_F(list, no_proc_root)
{
	char want[600];

	EXPECT_EQ(1, run_cmd(self->out, sizeof(self->out),
			     "{ %s list --proc-root %s/nonexistent >/dev/null; }",
			     perf_gpu_path(), root));
	snprintf(want, sizeof(want),
		 "perf gpu list: %s/nonexistent: No such file or directory\n",
		 root);
	EXPECT_STREQ(want, self->out);
}

TEST_HARNESS_MAIN
