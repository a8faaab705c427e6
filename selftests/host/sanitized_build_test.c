// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every userspace program `make check` runs is an ASan + UBSan build:
 * the host and device tests, the programs they start (gpuwork,
 * live_serve, the fuzz replay drivers) and the perf-gpu and gpuprof-oa
 * under test.  A rule of selftests/Makefile that forgot the flags would
 * otherwise pass unnoticed, its bugs unreported.
 *
 * A program counts as sanitized when its dynamic section needs both
 * runtimes (gcc links them as libasan.so and libubsan.so).  The check
 * itself is tried on a program built here without the flags first.
 *
 * Two exceptions, named below and checked to be plain builds:
 * live_stuck_test times the live server's data path, which the
 * sanitizer's allocator would hold up with locks of its own; glframes,
 * the GLES client of the real-program tests, has Mesa's drivers loaded
 * into it, which keep memory to the end (a leak report at every exit).
 */
#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/run.h"
#include "../lib/setup_provides.h"

static char out_dir[PATH_MAX];	/* selftests/out */

/*
 * Programs built as the tools ship, on purpose (selftests/Makefile): a
 * timing test, and the GLES client into which Mesa's drivers are loaded.
 */
static const char *const plain_builds[] = {
	"host/live_stuck_test", "device/glframes",
};

/* Is @name of directory @dir (host, device, ...) a plain build? */
static bool plain_on_purpose(const char *dir, const char *name)
{
	const char *sub = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	char rel[PATH_MAX];
	size_t i;

	snprintf(rel, sizeof(rel), "%s/%s", sub, name);
	for (i = 0; i < sizeof(plain_builds) / sizeof(plain_builds[0]); i++)
		if (!strcmp(rel, plain_builds[i]))
			return true;
	return false;
}

static void find_out_dir(void)
{
	ssize_t n = readlink("/proc/self/exe", out_dir, sizeof(out_dir) - 1);
	char *slash;

	if (n < 0)
		return;
	out_dir[n] = '\0';
	/* .../selftests/out/host/sanitized_build_test */
	slash = strrchr(out_dir, '/');
	*slash = '\0';
	slash = strrchr(out_dir, '/');
	*slash = '\0';
}

/* 1 when @path needs both runtimes, 0 when not, -1 when unreadable. */
static int sanitized(const char *path)
{
	char out[16384];

	if (run_cmd(out, sizeof(out), "readelf -d '%s'", path) != 0)
		return -1;
	return strstr(out, "[libasan.so") && strstr(out, "[libubsan.so");
}

static bool is_elf(const char *path)
{
	char magic[4];
	FILE *f = fopen(path, "r");
	bool elf;

	if (!f)
		return false;
	elf = fread(magic, 1, 4, f) == 4 && !memcmp(magic, "\177ELF", 4);
	fclose(f);
	return elf;
}

/*
 * Check every executable ELF file of @dir whose name ends in @suffix (""
 * for all); returns how many, or -1 after logging the first one that is
 * not sanitized.
 */
static int check_dir(struct __test_metadata *_metadata, const char *dir,
		     const char *suffix)
{
	struct dirent *e;
	char path[PATH_MAX * 2];
	struct stat st;
	int n = 0;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name), slen = strlen(suffix);

		if (len < slen || strcmp(e->d_name + len - slen, suffix))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode) ||
		    !(st.st_mode & S_IXUSR) || !is_elf(path) ||
		    plain_on_purpose(dir, e->d_name))
			continue;
		if (sanitized(path) != 1) {
			TH_LOG("%s is not an ASan+UBSan build", path);
			closedir(d);
			return -1;
		}
		n++;
	}
	closedir(d);
	return n;
}

/* The check tells a plain build from a sanitized one. */
TEST(check_tells_them_apart)
{
	char dir[] = "/tmp/gpuprof-sanXXXXXX", path[64], out[4096];

	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_EQ(0, run_cmd(out, sizeof(out),
			     "cd %s && echo 'int main(void) { return 0; }' >p.c && "
			     "cc -o plain p.c && "
			     "cc -fsanitize=address,undefined -o san p.c", dir))
		TH_LOG("%s", out);
	snprintf(path, sizeof(path), "%s/plain", dir);
	EXPECT_EQ(0, sanitized(path));
	snprintf(path, sizeof(path), "%s/san", dir);
	EXPECT_EQ(1, sanitized(path));
	run_cmd(out, sizeof(out), "rm -rf %s", dir);
}

TEST(test_programs)
{
	static const char *const dirs[] = { "host", "device" };
	char dir[PATH_MAX + 16];
	int i, n, total = 0;

	find_out_dir();
	for (i = 0; i < 2; i++) {
		snprintf(dir, sizeof(dir), "%s/%s", out_dir, dirs[i]);
		n = check_dir(_metadata, dir, "");
		ASSERT_LE(0, n);
		TH_LOG("%s: %d programs", dirs[i], n);
		total += n;
	}
	/* Every *_test.c of both directories, and their helpers. */
	EXPECT_LE(40, total);
}

/* The exceptions exist and are what they say: no sanitizer runtime. */
TEST(plain_builds_are_plain)
{
	char path[PATH_MAX + 64];
	size_t i;

	find_out_dir();
	for (i = 0; i < sizeof(plain_builds) / sizeof(plain_builds[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", out_dir, plain_builds[i]);
		ASSERT_EQ(0, access(path, X_OK)) TH_LOG("%s", path);
		EXPECT_EQ(0, sanitized(path)) TH_LOG("%s", path);
	}
}

TEST(fuzz_replay_drivers)
{
	char dir[PATH_MAX + 16];

	find_out_dir();
	snprintf(dir, sizeof(dir), "%s/fuzz", out_dir);
	ASSERT_LE(0, check_dir(_metadata, dir, "-replay"));
}

TEST(tools_under_test)
{
	const char *pg = perf_gpu_path();
	char oa[PATH_MAX];

	SETUP_PROVIDES(strchr(pg, '/'), "GPUPROF_PERF_GPU, a path (make check sets it)");
	EXPECT_EQ(1, sanitized(pg)) TH_LOG("%s", pg);
	snprintf(oa, sizeof(oa), "%s", pg);
	strcpy(strrchr(oa, '/') + 1, "gpuprof-oa");
	EXPECT_EQ(1, sanitized(oa)) TH_LOG("%s", oa);
}

TEST_HARNESS_MAIN
