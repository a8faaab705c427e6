// SPDX-License-Identifier: GPL-2.0-only
/*
 * The examples of Documentation/ that need the module, those marked
 * ".. test: device" (selftests/scripts/doc_examples.py says how examples are
 * marked and run): each runs as root in the VM, with vgem loaded and
 * gpuprof.ko freshly loaded before it and unloaded after it, so target
 * and timeline ids start from scratch; each command must print what the
 * page shows.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/gpuprof.h"
#include "../lib/kmod.h"
#include "../lib/run.h"

static char out[1 << 20];
static char ids[1 << 16];

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

/* Unload, giving a process that used a file up to 3 s to let it go. */
static int unload(void)
{
	int err, tries;

	for (tries = 0; tries < 30; tries++) {
		err = gpuprof_unload();
		if (err != -EBUSY && err != -EAGAIN)
			break;
		sleep_ms(100);
	}
	return err;
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
	char *id, *save;
	int n = 0, err, rc;

	/* Every example marked, or the list is not to be trusted. */
	ASSERT_EQ(0, run_cmd(out, sizeof(out), "python3 %s/selftests/scripts/doc_examples.py check",
			     repo())) TH_LOG("%s", out);
	ASSERT_EQ(0, run_cmd(ids, sizeof(ids),
			     "{ python3 %s/selftests/scripts/doc_examples.py list device 2>/dev/null; }",
			     repo())) TH_LOG("%s", ids);

	for (id = strtok_r(ids, "\n", &save); id; id = strtok_r(NULL, "\n", &save)) {
		err = gpuprof_load(NULL);
		ASSERT_EQ(0, err) TH_LOG("loading gpuprof for %s: %s", id,
					 strerror(-err));
		rc = run_cmd(out, sizeof(out),
			     "python3 %s/selftests/scripts/doc_examples.py run device '%s'",
			     repo(), id);
		EXPECT_EQ(0, rc) TH_LOG("%s", out);
		if (!rc)
			TH_LOG("pass %s", id);
		err = unload();
		ASSERT_EQ(0, err) TH_LOG("unloading gpuprof after %s: %s", id,
					 strerror(-err));
		n++;
	}
	EXPECT_LT(0, n);
}

TEST_HARNESS_MAIN
