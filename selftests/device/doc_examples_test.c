// SPDX-License-Identifier: GPL-2.0-only
/*
 * The examples of Documentation/ that need the module, those marked
 * ".. test: device" (selftests/scripts/doc_examples.py says how examples are
 * marked and run): each runs as root in the VM, with vgem loaded and
 * gpuprof.ko freshly loaded before it and unloaded after it (by
 * doc_examples.py, from $GPUPROF_KO), so target and timeline ids start
 * from scratch; each command must print what the page shows.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/gpuprof.h"
#include "../lib/run.h"

static char out[1 << 20];

/* The repository: this program is REPO/selftests/out/device/NAME. */
static const char *repo(void)
{
	static char path[PATH_MAX];
	ssize_t n;
	int i;

	if (path[0])
		return path;
	n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	if (n < 0)
		return ".";
	path[n] = '\0';
	for (i = 0; i < 4; i++)
		*strrchr(path, '/') = '\0';
	return path;
}

/* Only for the timeout: perf and python3 start slowly under TCG. */
FIXTURE(docs) {
};

FIXTURE_SETUP(docs)
{
}

FIXTURE_TEARDOWN(docs)
{
}

TEST_F_TIMEOUT(docs, device_examples_show_what_they_print, 1800)
{
	const char *line, *end;
	int passed = 0, rc;

	/*
	 * One run of them all (python3 starts slowly under TCG): it loads
	 * $GPUPROF_KO before each example and unloads it after, and fails
	 * when an example is not marked, as "check" would.
	 */
	rc = run_cmd(out, sizeof(out),
		     "python3 %s/selftests/scripts/doc_examples.py run device",
		     repo());
	EXPECT_EQ(0, rc) TH_LOG("%s", out);
	for (line = out; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		if (!strncmp(line, "pass ", 5)) {
			TH_LOG("%.*s", (int)(end - line), line);
			passed++;
		}
	}
	EXPECT_LT(0, passed);
	EXPECT_EQ(NULL, strstr(out, "FAIL ")) TH_LOG("%s", out);
}

TEST_HARNESS_MAIN
