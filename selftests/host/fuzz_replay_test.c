// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fuzz targets of selftests/fuzz/ on their seeds and on every input
 * that once crashed one (fuzz/regressions/NAME/), through the replay
 * programs make builds beside this test (out/fuzz/NAME-replay: the same
 * target code with ASan and UBSan, linked with fuzz/replay.c).  A target
 * that crashes, leaks or breaks one of its invariants on any of them
 * fails its test; so does a replay that took another number of inputs
 * than the test counts in those directories.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/paths.h"
#include "../lib/run.h"

/* The inputs the replay takes from @dir: regular files, no dot files. */
static int count_inputs(const char *dir)
{
	char path[PATH_MAX];
	struct dirent *e;
	struct stat st;
	int n = 0;
	DIR *d = opendir(dir);

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (e->d_name[0] != '.' && !stat(path, &st) && S_ISREG(st.st_mode))
			n++;
	}
	closedir(d);
	return n;
}

static void replay(struct __test_metadata *_metadata, const char *name)
{
	static char out[1 << 20];
	char rel[128], prog[PATH_MAX], seeds[PATH_MAX], regs[PATH_MAX];
	char want[64];
	int n_seeds, n_regs, st;
	size_t len;

	snprintf(rel, sizeof(rel), "../fuzz/%s-replay", name);
	beside_exe(prog, sizeof(prog), NULL, rel);
	snprintf(rel, sizeof(rel), "../../fuzz/seeds/%s", name);
	beside_exe(seeds, sizeof(seeds), NULL, rel);
	snprintf(rel, sizeof(rel), "../../fuzz/regressions/%s", name);
	beside_exe(regs, sizeof(regs), NULL, rel);
	ASSERT_EQ(0, access(prog, X_OK)) TH_LOG("no %s", prog);

	n_seeds = count_inputs(seeds);
	ASSERT_GT(n_seeds, 0) TH_LOG("no seeds in %s", seeds);
	/* Only targets that ever crashed have regression inputs. */
	n_regs = count_inputs(regs);
	if (n_regs < 0) {
		n_regs = 0;
		regs[0] = '\0';
	}

	st = run_cmd(out, sizeof(out), "'%s' -q '%s' %s%s%s", prog, seeds,
		     *regs ? "'" : "", regs, *regs ? "'" : "");
	EXPECT_EQ(0, st) TH_LOG("%s", out);
	/* stdout is flushed at the end: its one line comes last. */
	snprintf(want, sizeof(want), "replay: %d inputs\n", n_seeds + n_regs);
	len = strlen(out);
	ASSERT_GE(len, strlen(want)) TH_LOG("%s", out);
	EXPECT_STREQ(want, out + len - strlen(want)) TH_LOG("%s", out);
}

TEST(oa_stream) { replay(_metadata, "oa_stream"); }
TEST(oa_i915) { replay(_metadata, "oa_i915"); }
TEST(perf_data) { replay(_metadata, "perf_data"); }
TEST(fdinfo) { replay(_metadata, "fdinfo"); }
TEST(live_proto) { replay(_metadata, "live_proto"); }
TEST(ctl) { replay(_metadata, "ctl"); }

TEST_HARNESS_MAIN
