// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu report --device (tools/perf-gpu/gpuprofdev/read.c and
 * report/print-device.c) on copies of the module's tree made here in a
 * temporary directory: the exact report for known histograms in each
 * profiling mode (shares of all targets' samples, jobs or bytes;
 * timeline names; size classes; counters) in text, CSV and JSON (parsed
 * by python3), and malformed trees giving one error line naming the file
 * and line, or the documented fallback.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/files.h"
#include "../lib/run.h"
#include "../../tools/perf-gpu/util/debug.h"
#include "../../tools/perf-gpu/report/print-device.h"

#define OUT_SIZE (1 << 16)

FIXTURE(rd) {
	char root[64];
	char out[OUT_SIZE];
	char err[4096];
	int ret;
};

FIXTURE_SETUP(rd)
{
	/* As perf-gpu's main() names the program before report_device(). */
	debug_set_prog("perf gpu report");
	snprintf(self->root, sizeof(self->root), "/tmp/perf_gpu_rd.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->root));
}

FIXTURE_TEARDOWN(rd)
{
	char out[256];

	run_cmd(out, sizeof(out), "rm -rf '%s'", self->root);
}

/* Write ROOT/@rel with @text (@len bytes), making its directory. */
static int put_len(FIXTURE_DATA(rd) *self, const char *rel, const char *text,
		   size_t len)
{
	char path[256], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", self->root, rel);
	slash = strrchr(path, '/');
	*slash = '\0';
	if (mkdir(path, 0755) && errno != EEXIST)
		return -1;
	*slash = '/';
	f = fopen(path, "w");
	if (!f)
		return -1;
	if (fwrite(text, 1, len, f) != len) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

static int put(FIXTURE_DATA(rd) *self, const char *rel, const char *text)
{
	return put_len(self, rel, text, strlen(text));
}

/* A target directory as the module makes it. */
static int target(FIXTURE_DATA(rd) *self, int id, const char *name,
		  const char *path, const char *hist, const char *counters)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "%d/name", id);
	if (put(self, rel, name))
		return -1;
	snprintf(rel, sizeof(rel), "%d/path", id);
	if (put(self, rel, path))
		return -1;
	snprintf(rel, sizeof(rel), "%d/histogram", id);
	if (put(self, rel, hist))
		return -1;
	snprintf(rel, sizeof(rel), "%d/counters", id);
	return put(self, rel, counters);
}

/*
 * report_device() on the tree: its output in self->out, what it wrote
 * to stderr in self->err, its return in self->ret.
 */
static void report(FIXTURE_DATA(rd) *self, enum report_format fmt)
{
	char errpath[128];
	int saved, fd;
	FILE *out;

	snprintf(errpath, sizeof(errpath), "%s.err", self->root);
	fflush(stderr);
	saved = dup(2);
	fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fd, 2);
	close(fd);
	out = fmemopen(self->out, sizeof(self->out), "w");
	self->ret = report_device(self->root, fmt, out);
	fclose(out);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	read_file(errpath, self->err, sizeof(self->err));
	unlink(errpath);
}

/* The error line expected for ROOT/@rest. */
static const char *err_line(FIXTURE_DATA(rd) *self, const char *rest)
{
	static char line[512];

	snprintf(line, sizeof(line), "perf gpu report: %s/%s\n", self->root,
		 rest);
	return line;
}

static const char coverage_status[] =
	"mode: coverage\ninterval_ms: 100\ntargets: 2\ntimelines: 3\n"
	"dropped_jobs: 0\nunattributed_jobs: 5\noa_stream: none\n";
static const char timelines3[] =
	"0 vgem unbound\n1 i915 glx gears[12]\n2 fencegen ring 0\n";
static const char zero_counters[] =
	"gpu_time_ns 0\ngpu_clock_ticks 0\navg_gpu_freq_mhz 0\nreports 0\n"
	"a0 0\nb0 0\nc7 0\n";

/* cov_a: 20 jobs on vgem, 4 on i915; cov_b: 12 on vgem, 4 on ring 0. */
static void coverage_tree(struct __test_metadata *_metadata,
			  FIXTURE_DATA(rd) *self)
{
	ASSERT_EQ(0, put(self, "status", coverage_status));
	ASSERT_EQ(0, put(self, "timelines", timelines3));
	ASSERT_EQ(0, target(self, 1, "cov_a\n", "/usr/bin/cov_a\n",
			    "0 20\n1 4\n",
			    "gpu_time_ns 1000\ngpu_clock_ticks 900\n"
			    "avg_gpu_freq_mhz 900\nreports 3\na0 0\nb0 17\nc7 0\n"));
	ASSERT_EQ(0, target(self, 2, "cov_b\n", "", "0 12\n2 4\n",
			    zero_counters));
}

static const char coverage_text[] =
	"# ROOT: coverage profile, 40 jobs in 2 targets\n"
	"# unattributed_jobs: 5\n"
	"#\n"
	"#  share  jobs  target, key\n"
	"  60.00%    24  1 cov_a (/usr/bin/cov_a)\n"
	"  50.00%    20      vgem/unbound\n"
	"  10.00%     4      i915/glx gears[12]\n"
	"                    counters: gpu_time_ns=1000 gpu_clock_ticks=900 avg_gpu_freq_mhz=900 reports=3 b0=17\n"
	"  40.00%    16  2 cov_b\n"
	"  30.00%    12      vgem/unbound\n"
	"  10.00%     4      fencegen/ring 0\n"
	"                    counters: gpu_time_ns=0 gpu_clock_ticks=0 avg_gpu_freq_mhz=0 reports=0\n"
	" 100.00%    40  all targets\n"
	"  80.00%    32      vgem/unbound\n"
	"  10.00%     4      i915/glx gears[12]\n"
	"  10.00%     4      fencegen/ring 0\n";

/* @s with every "ROOT" replaced by the tree's directory. */
static const char *rooted(FIXTURE_DATA(rd) *self, const char *s)
{
	static char buf[OUT_SIZE];
	size_t len = 0;
	const char *p;

	while ((p = strstr(s, "ROOT"))) {
		len += snprintf(buf + len, sizeof(buf) - len, "%.*s%s",
				(int)(p - s), s, self->root);
		s = p + 4;
	}
	snprintf(buf + len, sizeof(buf) - len, "%s", s);
	return buf;
}

TEST_F(rd, coverage_shares_of_all_jobs_in_text)
{
	coverage_tree(_metadata, self);
	report(self, REPORT_TEXT);
	ASSERT_EQ(0, self->ret) TH_LOG("%s", self->err);
	EXPECT_STREQ("", self->err);
	EXPECT_STREQ(rooted(self, coverage_text), self->out);
}

TEST_F(rd, coverage_csv_has_a_row_per_target_and_key_with_counters)
{
	coverage_tree(_metadata, self);
	report(self, REPORT_CSV);
	ASSERT_EQ(0, self->ret) TH_LOG("%s", self->err);
	EXPECT_STREQ(rooted(self,
		"# source: ROOT\n# profile: coverage\n# unit: jobs\n# total: 40\n"
		"# mode: coverage\n# interval_ms: 100\n# targets: 2\n# timelines: 3\n"
		"# dropped_jobs: 0\n# unattributed_jobs: 5\n# oa_stream: none\n"
		"target,name,path,key,key_name,value,percent,gpu_time_ns,gpu_clock_ticks,avg_gpu_freq_mhz,reports,a0,b0,c7\n"
		"1,cov_a,/usr/bin/cov_a,0,vgem/unbound,20,50.00,1000,900,900,3,0,17,0\n"
		"1,cov_a,/usr/bin/cov_a,1,i915/glx gears[12],4,10.00,1000,900,900,3,0,17,0\n"
		"2,cov_b,,0,vgem/unbound,12,30.00,0,0,0,0,0,0,0\n"
		"2,cov_b,,2,fencegen/ring 0,4,10.00,0,0,0,0,0,0,0\n"), self->out);
}

/* Run @py with the JSON report in FILE (sys.argv[1]); its output. */
static int python_on_json(FIXTURE_DATA(rd) *self, const char *py, char *res,
			  size_t size)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s.json", self->root);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(self->out, f);
	fclose(f);
	return run_cmd(res, size, "python3 -c '%s' %s; r=$?; rm -f %s; exit $r",
		       py, path, path);
}

TEST_F(rd, coverage_json_parses_with_the_same_numbers)
{
	char res[4096];

	coverage_tree(_metadata, self);
	report(self, REPORT_JSON);
	ASSERT_EQ(0, self->ret) TH_LOG("%s", self->err);
	ASSERT_EQ(0, python_on_json(self,
		"import json, sys\n"
		"d = json.load(open(sys.argv[1]))\n"
		"print(d[\"profile\"], d[\"unit\"], d[\"total\"], d[\"status\"][\"unattributed_jobs\"], d[\"status\"][\"oa_stream\"])\n"
		"for k in d[\"keys\"]: print(k[\"key\"], k[\"name\"], k[\"value\"], k[\"percent\"])\n"
		"for t in d[\"targets\"]:\n"
		"  print(t[\"id\"], t[\"name\"], t[\"path\"], t[\"value\"], t[\"percent\"], t[\"counters\"][\"b0\"], len(t[\"counters\"]))\n"
		"  for k in t[\"histogram\"]: print(\" \", k[\"key\"], k[\"driver\"], k[\"timeline\"], k[\"value\"], k[\"percent\"])\n",
		res, sizeof(res))) TH_LOG("%s\n%s", res, self->out);
	EXPECT_STREQ("coverage jobs 40 5 none\n"
		     "0 vgem/unbound 32 80.0\n"
		     "1 i915/glx gears[12] 4 10.0\n"
		     "2 fencegen/ring 0 4 10.0\n"
		     "1 cov_a /usr/bin/cov_a 24 60.0 17 7\n"
		     "  0 vgem unbound 20 50.0\n"
		     "  1 i915 glx gears[12] 4 10.0\n"
		     "2 cov_b  16 40.0 0 7\n"
		     "  0 vgem unbound 12 30.0\n"
		     "  2 fencegen ring 0 4 10.0\n", res);
}

/*
 * Time profiling: samples, the OA unit's own timeline among them; 1 of
 * 3 samples is 33.33%, 2 of 3 66.67% (rounded half up).
 */
TEST_F(rd, time_shares_are_rounded_to_hundredths)
{
	ASSERT_EQ(0, put(self, "status", "mode: time\ninterval_ms: 10\n"));
	ASSERT_EQ(0, put(self, "timelines", "0 vgem unbound\n1 i915-oa RenderBasic\n"));
	ASSERT_EQ(0, target(self, 3, "glxgears\n", "", "1 2\n", zero_counters));
	ASSERT_EQ(0, target(self, 10, "vkcube\n", "", "0 1\n", zero_counters));
	report(self, REPORT_TEXT);
	ASSERT_EQ(0, self->ret) TH_LOG("%s", self->err);
	EXPECT_STREQ(rooted(self,
		"# ROOT: time profile, 3 samples in 2 targets\n"
		"#\n"
		"#  share  samples  target, key\n"
		"  66.67%        2  3 glxgears\n"
		"  66.67%        2      i915-oa/RenderBasic\n"
		"                       counters: gpu_time_ns=0 gpu_clock_ticks=0 avg_gpu_freq_mhz=0 reports=0\n"
		"  33.33%        1  10 vkcube\n"
		"  33.33%        1      vgem/unbound\n"
		"                       counters: gpu_time_ns=0 gpu_clock_ticks=0 avg_gpu_freq_mhz=0 reports=0\n"
		" 100.00%        3  all targets\n"
		"  33.33%        1      vgem/unbound\n"
		"  66.67%        2      i915-oa/RenderBasic\n"), self->out);
}

/* Memory profiling: size classes as ranges, shares of all bytes. */
TEST_F(rd, memory_keys_are_size_classes)
{
	char res[4096];

	ASSERT_EQ(0, put(self, "status", "mode: memory\n"));
	ASSERT_EQ(0, put(self, "timelines", ""));
	ASSERT_EQ(0, target(self, 1, "mem\n", "", "0 1\n12 4096\n20 1044479\n",
			    zero_counters));
	ASSERT_EQ(0, target(self, 2, "big\n", "", "63 3145728\n", zero_counters));
	report(self, REPORT_TEXT);
	ASSERT_EQ(0, self->ret) TH_LOG("%s", self->err);
	EXPECT_STREQ(rooted(self,
		"# ROOT: memory profile, 4194304 bytes in 2 targets\n"
		"#\n"
		"#  share    bytes  target, key\n"
		"  25.00%  1048576  1 mem\n"
		"   0.00%        1      <= 1 B\n"
		"   0.10%     4096      <= 4 KiB\n"
		"  24.90%  1044479      <= 1 MiB\n"
		"                       counters: gpu_time_ns=0 gpu_clock_ticks=0 avg_gpu_freq_mhz=0 reports=0\n"
		"  75.00%  3145728  2 big\n"
		"  75.00%  3145728      <= 8 EiB\n"
		"                       counters: gpu_time_ns=0 gpu_clock_ticks=0 avg_gpu_freq_mhz=0 reports=0\n"
		" 100.00%  4194304  all targets\n"
		"   0.00%        1      <= 1 B\n"
		"   0.10%     4096      <= 4 KiB\n"
		"  24.90%  1044479      <= 1 MiB\n"
		"  75.00%  3145728      <= 8 EiB\n"), self->out);

	report(self, REPORT_JSON);
	ASSERT_EQ(0, self->ret);
	ASSERT_EQ(0, python_on_json(self,
		"import json, sys\n"
		"d = json.load(open(sys.argv[1]))\n"
		"print(d[\"profile\"], d[\"unit\"], d[\"total\"])\n"
		"for k in d[\"keys\"]: print(k[\"key\"], k[\"max_bytes\"], k[\"value\"], k[\"percent\"])\n",
		res, sizeof(res))) TH_LOG("%s", res);
	EXPECT_STREQ("memory bytes 4194304\n"
		     "0 1 1 0.0\n"
		     "12 4096 4096 0.1\n"
		     "20 1048576 1044479 24.9\n"
		     "63 9223372036854775808 3145728 75.0\n", res);
}

/*
 * After "stop" the mode is idle while the histograms keep their keys:
 * a "histograms" line in status says what they hold; without one the
 * keys are printed bare.
 */
TEST_F(rd, idle_mode_uses_histograms_line_else_bare_keys)
{
	ASSERT_EQ(0, put(self, "timelines", "0 vgem unbound\n"));
	ASSERT_EQ(0, target(self, 1, "a\n", "", "0 3\n", ""));
	ASSERT_EQ(0, put(self, "status", "mode: idle\nhistograms: coverage\n"));
	report(self, REPORT_TEXT);
	ASSERT_EQ(0, self->ret) TH_LOG("%s", self->err);
	EXPECT_STREQ(rooted(self,
		"# ROOT: coverage profile, 3 jobs in 1 target\n"
		"#\n"
		"#  share  jobs  target, key\n"
		" 100.00%     3  1 a\n"
		" 100.00%     3      vgem/unbound\n"
		"                    counters: none\n"
		" 100.00%     3  all targets\n"
		" 100.00%     3      vgem/unbound\n"), self->out);

	ASSERT_EQ(0, put(self, "status", "mode: idle\n"));
	report(self, REPORT_TEXT);
	ASSERT_EQ(0, self->ret) TH_LOG("%s", self->err);
	EXPECT_STREQ(rooted(self,
		"# ROOT: unknown profile, 3 values in 1 target\n"
		"#\n"
		"#  share  values  target, key\n"
		" 100.00%       3  1 a\n"
		" 100.00%       3      0\n"
		"                      counters: none\n"
		" 100.00%       3  all targets\n"
		" 100.00%       3      0\n"), self->out);
}

TEST_F(rd, no_targets_is_an_empty_report)
{
	ASSERT_EQ(0, put(self, "status", "mode: idle\n"));
	ASSERT_EQ(0, put(self, "timelines", ""));
	report(self, REPORT_TEXT);
	ASSERT_EQ(0, self->ret) TH_LOG("%s", self->err);
	EXPECT_STREQ(rooted(self,
		"# ROOT: unknown profile, 0 values in 0 targets\n"
		"#\n"
		"#  share  values  target, key\n"), self->out);
	report(self, REPORT_CSV);
	ASSERT_EQ(0, self->ret);
	EXPECT_STREQ(rooted(self,
		"# source: ROOT\n# profile: unknown\n# unit: values\n# total: 0\n"
		"# mode: idle\ntarget,name,path,key,key_name,value,percent\n"),
		self->out);
	report(self, REPORT_JSON);
	ASSERT_EQ(0, self->ret);
	EXPECT_STREQ(rooted(self,
		"{\n  \"source\": \"ROOT\",\n  \"profile\": \"unknown\",\n"
		"  \"unit\": \"values\",\n  \"total\": 0,\n"
		"  \"status\": {\"mode\": \"idle\"},\n  \"keys\": [],\n"
		"  \"targets\": []\n}\n"), self->out);
}

/*
 * A key the timelines file lacks is kept with a made-up name (the share
 * is still right); names with quotes and control bytes stay valid JSON.
 */
TEST_F(rd, unnamed_timeline_and_odd_names)
{
	char res[1024];

	ASSERT_EQ(0, put(self, "status", "mode: coverage\n"));
	ASSERT_EQ(0, put(self, "timelines", "0 vgem unbound\n"));
	ASSERT_EQ(0, target(self, 1, "a\"b\\c\x01\n", "/x,y\n", "0 1\n9 3\n",
			    zero_counters));
	report(self, REPORT_JSON);
	ASSERT_EQ(0, self->ret) TH_LOG("%s", self->err);
	ASSERT_EQ(0, python_on_json(self,
		"import json, sys\n"
		"d = json.load(open(sys.argv[1]))\n"
		"t = d[\"targets\"][0]\n"
		"print(repr(t[\"name\"]), t[\"path\"], [(k[\"name\"], k[\"percent\"], \"driver\" in k) for k in t[\"histogram\"]])\n",
		res, sizeof(res))) TH_LOG("%s", res);
	EXPECT_STREQ("'a\"b\\\\c\\x01' /x,y [('vgem/unbound', 25.0, True), ('timeline 9 (unnamed)', 75.0, False)]\n",
		     res);

	report(self, REPORT_CSV);
	ASSERT_EQ(0, self->ret);
	EXPECT_NE(NULL, strstr(self->out, "\n1,\"a\"\"b\\c\x01\",\"/x,y\",9,timeline 9 (unnamed),3,75.00,"))
		TH_LOG("%s", self->out);
}

/* Values up to 2^64-1 are taken; their sum does not wrap. */
TEST_F(rd, huge_values_do_not_wrap)
{
	ASSERT_EQ(0, put(self, "status", "mode: coverage\n"));
	ASSERT_EQ(0, put(self, "timelines", "0 vgem unbound\n"));
	ASSERT_EQ(0, target(self, 1, "a\n", "", "0 18446744073709551615\n", ""));
	ASSERT_EQ(0, target(self, 2, "b\n", "", "0 18446744073709551615\n", ""));
	report(self, REPORT_TEXT);
	ASSERT_EQ(0, self->ret) TH_LOG("%s", self->err);
	EXPECT_STREQ(rooted(self,
		"# ROOT: coverage profile, 36893488147419103230 jobs in 2 targets\n"
		"#\n"
		"#  share                  jobs  target, key\n"
		"  50.00%  18446744073709551615  1 a\n"
		"  50.00%  18446744073709551615      vgem/unbound\n"
		"                                    counters: none\n"
		"  50.00%  18446744073709551615  2 b\n"
		"  50.00%  18446744073709551615      vgem/unbound\n"
		"                                    counters: none\n"
		" 100.00%  36893488147419103230  all targets\n"
		" 100.00%  36893488147419103230      vgem/unbound\n"), self->out);
}

/*
 * A target that ended while the tree was read (here: its entry is a
 * link to nothing, as a directory that vanished) is left out.
 */
TEST_F(rd, an_ended_target_is_left_out)
{
	char link[128];

	coverage_tree(_metadata, self);
	snprintf(link, sizeof(link), "%s/7", self->root);
	ASSERT_EQ(0, symlink("/nonexistent/gpuprof/7", link));
	report(self, REPORT_TEXT);
	ASSERT_EQ(0, self->ret) TH_LOG("%s", self->err);
	EXPECT_STREQ(rooted(self, coverage_text), self->out);
}

/* A broken tree: -1, nothing printed, one error line @want. */
static void expect_error(struct __test_metadata *_metadata,
			 FIXTURE_DATA(rd) *self, const char *want)
{
	report(self, REPORT_TEXT);
	EXPECT_EQ(-1, self->ret);
	EXPECT_STREQ("", self->out);
	EXPECT_STREQ(err_line(self, want), self->err);
}

TEST_F(rd, missing_files_are_errors)
{
	char path[128];

	expect_error(_metadata, self, "status: No such file or directory");
	coverage_tree(_metadata, self);
	snprintf(path, sizeof(path), "%s/2/counters", self->root);
	ASSERT_EQ(0, unlink(path));
	expect_error(_metadata, self, "2/counters: No such file or directory");
	ASSERT_EQ(0, put(self, "2/counters", ""));
	snprintf(path, sizeof(path), "%s/timelines", self->root);
	ASSERT_EQ(0, unlink(path));
	expect_error(_metadata, self, "timelines: No such file or directory");
	ASSERT_EQ(0, put(self, "timelines", ""));
	/* A directory where a file should be. */
	snprintf(path, sizeof(path), "%s/1/name", self->root);
	ASSERT_EQ(0, unlink(path));
	ASSERT_EQ(0, mkdir(path, 0755));
	expect_error(_metadata, self, "1/name: Is a directory");
}

TEST_F(rd, bad_numbers_name_the_file_and_line)
{
	coverage_tree(_metadata, self);
	ASSERT_EQ(0, put(self, "1/histogram", "0 20\n1 x4\n"));
	expect_error(_metadata, self,
		     "1/histogram: line 2: value 'x4' is not an unsigned decimal number");
	ASSERT_EQ(0, put(self, "1/histogram", "-1 20\n"));
	expect_error(_metadata, self,
		     "1/histogram: line 1: key '-1' is not an unsigned decimal number");
	ASSERT_EQ(0, put(self, "1/histogram", "0 18446744073709551616\n"));
	expect_error(_metadata, self,
		     "1/histogram: line 1: value '18446744073709551616' is above 2^64-1");
	ASSERT_EQ(0, put(self, "1/histogram", "0 20\n1\n"));
	expect_error(_metadata, self, "1/histogram: line 2: not 'KEY VALUE'");
	ASSERT_EQ(0, put(self, "1/histogram", "0 20 5\n"));
	expect_error(_metadata, self, "1/histogram: line 1: not 'KEY VALUE'");
	ASSERT_EQ(0, put(self, "1/histogram", "0 20\n\n"));
	expect_error(_metadata, self, "1/histogram: line 2: an empty line");
	ASSERT_EQ(0, put(self, "1/histogram", "1 20\n0 4\n"));
	expect_error(_metadata, self,
		     "1/histogram: line 2: key 0 not above the one before");
	ASSERT_EQ(0, put_len(self, "1/histogram", "0 20\n1 4\0\n", 10));
	expect_error(_metadata, self, "1/histogram: line 2: a NUL byte");
	ASSERT_EQ(0, put(self, "1/histogram", "0 20\n1 4\n"));

	ASSERT_EQ(0, put(self, "2/counters", "gpu_time_ns 1\nreports\n"));
	expect_error(_metadata, self, "2/counters: line 2: not 'name value'");
	ASSERT_EQ(0, put(self, "2/counters", "gpu_time_ns 1.5\n"));
	expect_error(_metadata, self,
		     "2/counters: line 1: value '1.5' is not an unsigned decimal number");
	ASSERT_EQ(0, put(self, "2/counters", ""));

	ASSERT_EQ(0, put(self, "timelines", "0 vgem unbound\nx i915 rcs0\n"));
	expect_error(_metadata, self,
		     "timelines: line 2: id 'x' is not an unsigned decimal number");
	ASSERT_EQ(0, put(self, "timelines", "0 vgem unbound\n0 i915 rcs0\n"));
	expect_error(_metadata, self,
		     "timelines: line 2: id 0 not above the one before");
	ASSERT_EQ(0, put(self, "timelines", "0\n"));
	expect_error(_metadata, self, "timelines: line 1: no driver name");
}

TEST_F(rd, malformed_status_names_and_keys)
{
	coverage_tree(_metadata, self);
	ASSERT_EQ(0, put(self, "status", "mode: coverage\ninterval_ms 100\n"));
	expect_error(_metadata, self, "status: line 2: not 'key: value'");
	ASSERT_EQ(0, put(self, "status", "interval_ms: 100\n"));
	expect_error(_metadata, self, "status: no 'mode' line");
	ASSERT_EQ(0, put(self, "status", "mode: bogus\n"));
	expect_error(_metadata, self, "status: unknown mode 'bogus'");
	ASSERT_EQ(0, put(self, "status", "mode: idle\nhistograms: weird\n"));
	expect_error(_metadata, self, "status: unknown histograms 'weird'");

	ASSERT_EQ(0, put(self, "status", "mode: coverage\n"));
	ASSERT_EQ(0, put(self, "1/name", "cov_a\nmore\n"));
	expect_error(_metadata, self, "1/name: line 2: more than one line");
	ASSERT_EQ(0, put(self, "1/name", "cov_a\n"));

	/* Size classes stop at 63: a key past it is not the module's. */
	ASSERT_EQ(0, put(self, "status", "mode: memory\n"));
	ASSERT_EQ(0, put(self, "1/histogram", "12 4096\n64 1\n"));
	expect_error(_metadata, self, "1/histogram: line 2: size class 64 above 63");
}

TEST_HARNESS_MAIN
