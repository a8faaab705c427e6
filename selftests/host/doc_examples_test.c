// SPDX-License-Identifier: GPL-2.0-only
/*
 * The documentation (Documentation/):
 *
 * - "make -C Documentation man html" builds every page, the HTML with
 *   Sphinx and the kernel's kernel-doc, the man pages with rst2man,
 *   warnings failing the build;
 * - every DOC section of the module's kernel-doc comments is included in
 *   some page (doc_examples.py kerneldoc);
 * - man (man-db) renders the built perf-gpu-record.1 with its NAME and
 *   SYNOPSIS;
 * - every example is marked as selftests/scripts/doc_examples.py defines, and
 *   the host examples run with the output they show (the device ones run
 *   in the VM, device/doc_examples_test.c);
 * - each man page lists exactly the options its binary takes;
 * - Documentation/ABI passes the kernel's scripts/get_abi.pl, taken from
 *   the linux-source tarball, and covers every file of the module with
 *   its mode.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/run.h"
#include "../lib/setup_provides.h"

#define OUT_SIZE	(1 << 20)
#define TARBALL		"/usr/src/linux-source-6.1.tar.xz"

static char out[OUT_SIZE];

/*
 * Only for the timeouts: Sphinx, docutils and perf start slowly on a busy
 * machine.
 */
FIXTURE(docs) {
};

FIXTURE_SETUP(docs)
{
}

FIXTURE_TEARDOWN(docs)
{
}

/* The number of the line "@key: N" in @text, or -1. */
static long count_of(const char *text, const char *key)
{
	size_t len = strlen(key);
	const char *p;

	for (p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, len) && !strncmp(p + len, ": ", 2))
			return strtol(p + len + 2, NULL, 10);
	return -1;
}

TEST_F_TIMEOUT(docs, docs_build_without_warnings, 300)
{
	/* -B: every page, each time, so every warning is seen again. */
	ASSERT_EQ(0, run_cmd(out, sizeof(out), "make -s -B -C %s/Documentation man html",
			     repo_dir())) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "(WARNING/")) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "(ERROR/")) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "(SEVERE/")) TH_LOG("%s", out);
	/* Sphinx's, which -W would have made errors anyway. */
	EXPECT_EQ(NULL, strstr(out, "WARNING:")) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "ERROR:")) TH_LOG("%s", out);
	EXPECT_EQ(0, run_cmd(out, sizeof(out),
			     "cd %s/Documentation && for f in man/*.rst; do "
			     "test -s out/man/$(basename $f .rst).1 || echo missing $f; done; "
			     "for f in *.rst man/*.rst; do "
			     "test -s out/html/${f%%.rst}.html || echo missing $f; done",
			     repo_dir()));
	EXPECT_STREQ("", out);
}

/* The HTML shows the module's DOC sections, and links lead to pages. */
TEST_F_TIMEOUT(docs, html_includes_the_module_kernel_doc, 300)
{
	ASSERT_EQ(0, run_cmd(out, sizeof(out), "make -s -C %s/Documentation html", repo_dir()))
		TH_LOG("%s", out);
	/* From module/target.c's "Targets and their lifetime". */
	EXPECT_EQ(0, run_cmd(out, sizeof(out),
			     "grep -c 'gpuprof_targets_release()' %s/Documentation/out/html/design.html",
			     repo_dir())) TH_LOG("%s", out);
	/* A function's comment, as the C domain declares it. */
	EXPECT_EQ(0, run_cmd(out, sizeof(out),
			     "grep -c 'id=\"c.gpuprof_cmd_write\"' %s/Documentation/out/html/module.html",
			     repo_dir())) TH_LOG("%s", out);
	EXPECT_NE(0, run_cmd(out, sizeof(out),
			     "grep -l 'href=\"[^\":#]*\\.rst[#\"]' %s/Documentation/out/html/*.html "
			     "%s/Documentation/out/html/man/*.html", repo_dir(), repo_dir()))
		TH_LOG("links to .rst left: %s", out);
}

TEST_F_TIMEOUT(docs, every_doc_section_is_included, 300)
{
	EXPECT_EQ(0, run_cmd(out, sizeof(out), "python3 %s/selftests/scripts/doc_examples.py kerneldoc",
			     repo_dir())) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "pass module/target.c: DOC: Targets and their lifetime\n"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, " DOC sections in the ")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, ", 0 included in no page\n")) TH_LOG("%s", out);
}

TEST_F_TIMEOUT(docs, man_renders_perf_gpu_record, 300)
{
	ASSERT_EQ(0, run_cmd(out, sizeof(out), "make -s -C %s/Documentation out/man/perf-gpu-record.1",
			     repo_dir())) TH_LOG("%s", out);
	ASSERT_EQ(0, run_cmd(out, sizeof(out),
			     "MANWIDTH=80 man -l %s/Documentation/out/man/perf-gpu-record.1 | col -bx",
			     repo_dir())) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\nNAME\n       perf-gpu-record - record GPU "
			       "tracepoints and OA reports into perf.data\n"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\nSYNOPSIS\n       perf gpu record [options] "
			       "[--] command [args]\n"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\nOPTIONS\n       -a, --all-cpus\n"));
	EXPECT_NE(NULL, strstr(out, "\nEXIT STATUS\n"));
	EXPECT_NE(NULL, strstr(out, "\nSEE ALSO\n       perf-gpu(1), "));
}

TEST_F_TIMEOUT(docs, every_example_is_marked, 300)
{
	ASSERT_EQ(0, run_cmd(out, sizeof(out), "python3 %s/selftests/scripts/doc_examples.py check",
			     repo_dir())) TH_LOG("%s", out);
	EXPECT_LT(0, count_of(out, "host")) TH_LOG("%s", out);
	EXPECT_LT(0, count_of(out, "device")) TH_LOG("%s", out);
}

TEST_F_TIMEOUT(docs, host_examples_show_what_they_print, 300)
{
	char last[64];
	long host;

	ASSERT_EQ(0, run_cmd(out, sizeof(out), "python3 %s/selftests/scripts/doc_examples.py check",
			     repo_dir())) TH_LOG("%s", out);
	host = count_of(out, "host");
	ASSERT_LT(0, host);
	EXPECT_EQ(0, run_cmd(out, sizeof(out), "python3 %s/selftests/scripts/doc_examples.py run host",
			     repo_dir())) TH_LOG("%s", out);
	snprintf(last, sizeof(last), "\n%ld examples passed, 0 failed\n", host);
	EXPECT_NE(NULL, strstr(out, last)) TH_LOG("%s", out);
}

TEST_F_TIMEOUT(docs, man_pages_list_the_options_the_binaries_take, 300)
{
	EXPECT_EQ(0, run_cmd(out, sizeof(out), "python3 %s/selftests/scripts/doc_examples.py options",
			     repo_dir())) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "pass perf-gpu-record.rst: ")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "pass gpuprof-oa.rst: ")) TH_LOG("%s", out);
}

TEST_F_TIMEOUT(docs, abi_passes_get_abi_and_covers_the_module, 300)
{
	char dir[] = "/tmp/doc_abi.XXXXXX";

	SETUP_PROVIDES(!access(TARBALL, R_OK), "%s (selftests/setup.sh installs linux-source-6.1)",
		       TARBALL);
	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_EQ(0, run_cmd(out, sizeof(out),
			     "tar -xJf %s -O linux-source-6.1/scripts/get_abi.pl > %s/get_abi.pl",
			     TARBALL, dir)) TH_LOG("%s", out);
	EXPECT_EQ(0, run_cmd(out, sizeof(out),
			     "python3 %s/selftests/scripts/doc_examples.py abi %s/get_abi.pl",
			     repo_dir(), dir)) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "pass /dev/gpuprof/ctl 0600\n")) TH_LOG("%s", out);
	run_cmd(out, sizeof(out), "rm -rf %s", dir);
}

TEST_HARNESS_MAIN
