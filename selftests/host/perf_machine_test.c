// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf.data's machine description: perf_machine_read() on made-up
 * cpuinfo and meminfo files (two CPUs, blanks to squeeze, a file that
 * lacks a line or has a bad number), then a file written by the perf.data
 * writer, whose header the distribution's perf report --header-only
 * shows with this machine's hostname, CPU description, CPU id, memory
 * and command line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/fence_format.h"
#include "../lib/gpu_formats.h"
#include "../lib/run.h"
#include "../lib/setup_provides.h"
#include "../../tools/perf-gpu/perfdata/machine.h"
#include "../../tools/perf-gpu/perfdata/write.h"

FIXTURE(mach) {
	char dir[64], cpuinfo[128], meminfo[128], data[128];
	struct perf_machine m;
	char out[65536];
};

FIXTURE_SETUP(mach)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/perf_machine.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->cpuinfo, sizeof(self->cpuinfo), "%s/cpuinfo", self->dir);
	snprintf(self->meminfo, sizeof(self->meminfo), "%s/meminfo", self->dir);
	snprintf(self->data, sizeof(self->data), "%s/perf.data", self->dir);
}

FIXTURE_TEARDOWN(mach)
{
	char out[256];

	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

static int put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static const char two_cpus[] =
	"processor\t: 0\n"
	"vendor_id\t: GenuineIntel\n"
	"cpu family\t: 6\n"
	"model\t\t: 140\n"
	"model name\t: 11th Gen Intel(R) Core(TM)   i7-1185G7 @ 3.00GHz  \n"
	"stepping\t: 1\n"
	"\n"
	"processor\t: 1\n"
	"vendor_id\t: OtherVendor\n"
	"cpu family\t: 7\n"
	"model\t\t: 1\n"
	"model name\t: not CPU 0\n"
	"stepping\t: 2\n"
	"\n";

TEST_F(mach, cpu_zero_and_memtotal)
{
	ASSERT_EQ(0, put(self->cpuinfo, two_cpus));
	ASSERT_EQ(0, put(self->meminfo, "MemFree:  100 kB\nMemTotal:       16154824 kB\n"));
	perf_machine_read(&self->m, self->cpuinfo, self->meminfo);
	EXPECT_STREQ("11th Gen Intel(R) Core(TM) i7-1185G7 @ 3.00GHz",
		     self->m.cpudesc);
	EXPECT_STREQ("GenuineIntel,6,140,1", self->m.cpuid);
	EXPECT_EQ(16154824, self->m.total_mem_kb);
}

/* What cannot be read stays unknown, and nothing else is lost. */
TEST_F(mach, missing_and_bad_lines_are_unknown)
{
	ASSERT_EQ(0, put(self->cpuinfo,
			 "vendor_id\t: GenuineIntel\ncpu family\t: 6\n"
			 "model\t\t: 8c\nmodel name\t: Some CPU\nstepping : 1\n"));
	ASSERT_EQ(0, put(self->meminfo, "MemTotal:  12 MB\n"));
	perf_machine_read(&self->m, self->cpuinfo, self->meminfo);
	EXPECT_STREQ("Some CPU", self->m.cpudesc);
	EXPECT_STREQ("", self->m.cpuid);
	EXPECT_EQ(0, self->m.total_mem_kb);

	perf_machine_read(&self->m, "/nonexistent", "/nonexistent");
	EXPECT_STREQ("", self->m.cpudesc);
	EXPECT_STREQ("", self->m.cpuid);
	EXPECT_EQ(0, self->m.total_mem_kb);
}

/* The value of "# KEY : value" in perf's header text, or "". */
static const char *header_value(const char *out, const char *key, char *v,
				size_t size)
{
	char want[64];
	const char *at, *nl;
	size_t n;

	snprintf(want, sizeof(want), "# %s : ", key);
	v[0] = '\0';
	at = strstr(out, want);
	if (!at)
		return v;
	at += strlen(want);
	nl = strchrnul(at, '\n');
	n = nl - at < (long)size - 1 ? (size_t)(nl - at) : size - 1;
	memcpy(v, at, n);
	v[n] = '\0';
	return v;
}

TEST_F(mach, stock_perf_shows_the_header)
{
	const struct perf_data_event events[1] = {
		{ "dma_fence:dma_fence_signaled", FENCE_ID },
	};
	const char *const argv[] = { "perf-gpu", "record", "--", "true" };
	struct gpu_synth_ids ids;
	struct perf_data_writer *w;
	struct utsname uts;
	char v[256], want[256];
	size_t len;
	void *td;

	SETUP_PROVIDES(!access(perf_bin(), X_OK), "%s (package linux-perf)", perf_bin());
	perf_machine_read(&self->m, "/proc/cpuinfo", "/proc/meminfo");
	ASSERT_NE(0, self->m.cpudesc[0]);
	ASSERT_NE(0, self->m.total_mem_kb);
	ASSERT_EQ(0, uname(&uts));
	td = gpu_tracing_data(&ids, &len);
	ASSERT_NE(NULL, td);
	w = perf_data_create(self->data, events, 1);
	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, perf_data_set_tracing_data(w, td, len));
	free(td);
	ASSERT_EQ(0, perf_data_set_cmdline(w, 4, argv));
	ASSERT_EQ(0, perf_data_close(w));

	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s report --header-only -i %s", perf_bin(),
			     self->data)) TH_LOG("%s", self->out);
	EXPECT_STREQ(uts.nodename, header_value(self->out, "hostname", v, sizeof(v)));
	EXPECT_STREQ(self->m.cpudesc, header_value(self->out, "cpudesc", v, sizeof(v)))
		TH_LOG("%s", self->out);
	if (self->m.cpuid[0])
		EXPECT_STREQ(self->m.cpuid, header_value(self->out, "cpuid", v, sizeof(v)))
			TH_LOG("%s", self->out);
	snprintf(want, sizeof(want), "%llu kB",
		 (unsigned long long)self->m.total_mem_kb);
	EXPECT_STREQ(want, header_value(self->out, "total memory", v, sizeof(v)))
		TH_LOG("%s", self->out);
	/* perf prints a blank after each word. */
	EXPECT_STREQ("perf-gpu record -- true ",
		     header_value(self->out, "cmdline", v, sizeof(v)))
		TH_LOG("%s", self->out);
}

TEST_HARNESS_MAIN
