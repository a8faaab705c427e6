// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perf.data writer of tools/perf-gpu as its readers see it: the
 * distribution's perf script and perf report (a real peer, /usr/bin/perf
 * or $GPUPROF_PERF), libtraceevent parsing the tracing data in-process,
 * and the file layout read back by hand.  Expectations are written out
 * by hand from the values put in.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "../lib/harness.h"
#include "../lib/files.h"
#include "../lib/fence_format.h"
#include "../lib/run.h"
#include "../../tools/perf-gpu/perfdata/machine.h"
#include "../../tools/perf-gpu/perfdata/read.h"
#include "../../tools/perf-gpu/perfdata/write.h"
#include "../../tools/perf-gpu/perfdata/tracefs.h"
#include "../../tools/perf-gpu/perfdata/tracing-data.h"

#define OUT_SIZE (1 << 20)


/* The three events of the test files, in attr order. */
enum { EV_OA, EV_FDINFO, EV_FENCE, NR_EV };

FIXTURE(pd) {
	char dir[64];
	char path[128];
	struct gpu_synth_ids ids;
	void *tracing;
	size_t tracing_len;
	char out[OUT_SIZE];
};

FIXTURE_SETUP(pd)
{
	self->tracing = fence_tracing_data(&self->ids, &self->tracing_len);
	ASSERT_NE(NULL, self->tracing);
	/* Last: teardown does not run after a failed setup. */
	snprintf(self->dir, sizeof(self->dir), "/tmp/perf_data_test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
}

FIXTURE_TEARDOWN(pd)
{
	char out[256];

	free(self->tracing);
	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

static struct perf_data_writer *create_sampled(struct __test_metadata *_metadata,
					       FIXTURE_DATA(pd) *self,
					       uint64_t sample_type)
{
	const struct perf_data_event events[NR_EV] = {
		[EV_OA] = { "gpu_oa:oa_report", self->ids.oa_report },
		[EV_FDINFO] = { "gpu_client:fdinfo", self->ids.fdinfo },
		[EV_FENCE] = { "dma_fence:dma_fence_signaled", FENCE_ID },
	};
	struct perf_data_writer *w;

	w = perf_data_create_sampled(self->path, events, NR_EV, sample_type);
	EXPECT_NE(NULL, w) TH_LOG("%s: %s", self->path, strerror(errno));
	if (w)
		EXPECT_EQ(0, perf_data_set_tracing_data(w, self->tracing,
							self->tracing_len));
	return w;
}

static struct perf_data_writer *create(struct __test_metadata *_metadata,
				       FIXTURE_DATA(pd) *self)
{
	return create_sampled(_metadata, self, PERF_DATA_SAMPLE_TYPE);
}

static int sample(struct perf_data_writer *w, unsigned int ev, int32_t pid,
		  uint32_t cpu, uint64_t time, const void *raw, ssize_t len)
{
	/* Each process in a cgroup of its own: 0x1000 + pid. */
	struct perf_data_sample s = {
		.event = ev, .pid = pid, .tid = pid, .cpu = cpu, .time = time,
		.raw = raw, .raw_size = len, .cgroup = 0x1000 + pid,
	};

	return len < 0 ? (int)len : perf_data_write_sample(w, &s);
}

static int oa(struct perf_data_writer *w, FIXTURE_DATA(pd) *self,
	      int32_t pid, uint32_t cpu, uint64_t time, uint64_t gpu_time,
	      uint32_t ctx, uint32_t reason)
{
	uint8_t report[256], buf[512];
	int i;

	for (i = 0; i < 256; i++)
		report[i] = i;
	return sample(w, EV_OA, pid, cpu, time, buf,
		      gpu_oa_report_payload(buf, sizeof(buf), self->ids.oa_report,
					    pid, gpu_time, ctx, reason, report,
					    sizeof(report)));
}

static int fdinfo(struct perf_data_writer *w, FIXTURE_DATA(pd) *self,
		  int32_t pid, uint32_t cpu, uint64_t time, uint64_t client,
		  uint32_t fd, const char *stats)
{
	uint8_t buf[512];

	return sample(w, EV_FDINFO, pid, cpu, time, buf,
		      gpu_client_fdinfo_payload(buf, sizeof(buf), self->ids.fdinfo,
						pid, client, fd, "i915",
						"0000:00:02.0", stats));
}

/*
 * The recording most tests use: two processes, six samples of three
 * events in time order, the last two at the same time.
 */
/* Its names and first three samples. */
static int write_first_records(struct perf_data_writer *w,
			       FIXTURE_DATA(pd) *self)
{
	uint8_t buf[128];
	int err = 0;

	err = err ?: perf_data_write_comm(w, 1200, 1200, "glxgears", 1000000000);
	err = err ?: perf_data_write_comm(w, 1300, 1300, "vkcube", 1000000000);
	err = err ?: oa(w, self, 1200, 0, 1000100000, 19200000000ull, 0x2a, 0x1);
	err = err ?: sample(w, EV_FENCE, 1200, 1, 1000200000, buf,
			    fence_payload(buf, 1200, "i915", "gt0:rcs0", 7, 42));
	return err ?: fdinfo(w, self, 1300, 1, 1000300000, 12, 9,
			     "drm-engine-render=5000000 ns");
}

static int write_records(struct perf_data_writer *w, FIXTURE_DATA(pd) *self)
{
	int err = write_first_records(w, self);

	err = err ?: oa(w, self, 1300, 0, 1000400000, 19200019200ull, 0x2b, 0x9);
	err = err ?: oa(w, self, 1200, 0, 1000500000, 19200038400ull,
			0xffffffff, 0x20);
	err = err ?: fdinfo(w, self, 1200, 1, 1000500000, 11, 4,
			    "drm-engine-render=1000 ns drm-engine-copy=0 ns");
	return err;
}

static bool have_perf(void)
{
	return access(perf_bin(), X_OK) == 0;
}

/*
 * perf script's default fields for tracepoints: comm (%16s), tid (%5d),
 * [cpu], time (--ns: %5lu.%09llu), the event name right-aligned to the
 * longest (28, dma_fence:dma_fence_signaled), then the print fmt.  Any
 * warning would be an extra line in this output (stderr is joined).
 */
static const char expected_script[] =
	"        glxgears  1200 [000]     1.000100000:             gpu_oa:oa_report: gpu_time=19200000000 ctx_id=0x2a reason=timer report_size=256\n"
	"        glxgears  1200 [001]     1.000200000: dma_fence:dma_fence_signaled: driver=i915 timeline=gt0:rcs0 context=7 seqno=42\n"
	"          vkcube  1300 [001]     1.000300000:            gpu_client:fdinfo: driver=i915 pdev=0000:00:02.0 client_id=12 fd=9 drm-engine-render=5000000 ns\n"
	"          vkcube  1300 [000]     1.000400000:             gpu_oa:oa_report: gpu_time=19200019200 ctx_id=0x2b reason=timer|ctx_switch report_size=256\n"
	"        glxgears  1200 [000]     1.000500000:             gpu_oa:oa_report: gpu_time=19200038400 ctx_id=0xffffffff reason=clk_ratio report_size=256\n"
	"        glxgears  1200 [001]     1.000500000:            gpu_client:fdinfo: driver=i915 pdev=0000:00:02.0 client_id=11 fd=4 drm-engine-render=1000 ns drm-engine-copy=0 ns\n";

TEST_F(pd, perf_script_prints_every_sample_in_time_order)
{
	struct perf_data_writer *w;

	ASSERT_TRUE(have_perf()) TH_LOG("no %s: setup.sh installs linux-perf", perf_bin());
	w = create(_metadata, self);
	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, write_records(w, self));
	ASSERT_EQ(0, perf_data_close(w));

	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s script --ns -i %s",
			     perf_bin(), self->path)) TH_LOG("%s", self->out);
	EXPECT_STREQ(expected_script, self->out);
}

TEST_F(pd, perf_script_default_time_is_usec)
{
	struct perf_data_writer *w;
	char *nl;

	ASSERT_TRUE(have_perf()) TH_LOG("no %s: setup.sh installs linux-perf", perf_bin());
	w = create(_metadata, self);
	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, write_records(w, self));
	ASSERT_EQ(0, perf_data_close(w));

	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s script -i %s",
			     perf_bin(), self->path)) TH_LOG("%s", self->out);
	nl = strchr(self->out, '\n');
	ASSERT_NE(NULL, nl);
	*nl = '\0';
	EXPECT_STREQ("        glxgears  1200 [000]     1.000100:             gpu_oa:oa_report: gpu_time=19200000000 ctx_id=0x2a reason=timer report_size=256",
		     self->out);
}

/* Lines of @out that contain @s. */
static int count_lines(const char *out, const char *s)
{
	int n = 0;

	while ((out = strstr(out, s))) {
		n++;
		out += strlen(s);
	}
	return n;
}

TEST_F(pd, perf_report_counts_samples_per_event_and_comm)
{
	struct perf_data_writer *w;

	ASSERT_TRUE(have_perf()) TH_LOG("no %s: setup.sh installs linux-perf", perf_bin());
	w = create(_metadata, self);
	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, write_records(w, self));
	ASSERT_EQ(0, perf_data_close(w));

	/* Tracepoints only: perf report sorts by the trace output. */
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report --stdio -i %s",
			     perf_bin(), self->path)) TH_LOG("%s", self->out);
	EXPECT_EQ(0, count_lines(self->out, "arning")) TH_LOG("%s", self->out);
	EXPECT_EQ(1, count_lines(self->out, "# Total Lost Samples: 0\n"));
	EXPECT_EQ(1, count_lines(self->out, "# Samples: 3  of event 'gpu_oa:oa_report'\n"));
	EXPECT_EQ(1, count_lines(self->out, "# Samples: 2  of event 'gpu_client:fdinfo'\n"));
	EXPECT_EQ(1, count_lines(self->out, "# Samples: 1  of event 'dma_fence:dma_fence_signaled'\n"));
	EXPECT_EQ(1, count_lines(self->out, "# Event count (approx.): 3\n"));

	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s report --stdio --sort comm -i %s",
			     perf_bin(), self->path)) TH_LOG("%s", self->out);
	EXPECT_EQ(0, count_lines(self->out, "arning")) TH_LOG("%s", self->out);
	/* OA: glxgears 2 of 3, vkcube 1; fdinfo 1 and 1; fence 1. */
	EXPECT_EQ(1, count_lines(self->out, "    66.67%  glxgears\n")) TH_LOG("%s", self->out);
	EXPECT_EQ(1, count_lines(self->out, "    33.33%  vkcube  \n"));
	EXPECT_EQ(1, count_lines(self->out, "    50.00%  glxgears\n"));
	EXPECT_EQ(1, count_lines(self->out, "    50.00%  vkcube  \n"));
	EXPECT_EQ(1, count_lines(self->out, "   100.00%  glxgears\n"));
}

TEST_F(pd, perf_report_header_shows_events_clock_and_sample_times)
{
	struct perf_data_writer *w;
	const char *const argv[] = { "perf-gpu", "record", "-a" };

	ASSERT_TRUE(have_perf()) TH_LOG("no %s: setup.sh installs linux-perf", perf_bin());
	w = create(_metadata, self);
	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, perf_data_set_cmdline(w, 3, argv));
	ASSERT_EQ(0, perf_data_set_version(w, "perf-gpu 0.1"));
	ASSERT_EQ(0, write_records(w, self));
	ASSERT_EQ(0, perf_data_close(w));

	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report --header-only -i %s",
			     perf_bin(), self->path)) TH_LOG("%s", self->out);
	EXPECT_EQ(1, count_lines(self->out, "# perf version : perf-gpu 0.1\n")) TH_LOG("%s", self->out);
	EXPECT_EQ(1, count_lines(self->out, "# cmdline : perf-gpu record -a \n"));
	EXPECT_EQ(1, count_lines(self->out, "# event : name = gpu_oa:oa_report, "));
	EXPECT_EQ(1, count_lines(self->out, "# event : name = dma_fence:dma_fence_signaled, "));
	EXPECT_EQ(1, count_lines(self->out, "# time of first sample : 1.000100\n"));
	EXPECT_EQ(1, count_lines(self->out, "# time of last sample : 1.000500\n"));
	EXPECT_EQ(1, count_lines(self->out, "# clockid: monotonic (1)\n"));
	EXPECT_EQ(0, count_lines(self->out, "arning"));
}

TEST_F(pd, lost_records_are_shown_and_counted)
{
	struct perf_data_writer *w;

	ASSERT_TRUE(have_perf()) TH_LOG("no %s: setup.sh installs linux-perf", perf_bin());
	w = create(_metadata, self);
	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, perf_data_write_comm(w, 1200, 1200, "glxgears", 1000000000));
	ASSERT_EQ(0, oa(w, self, 1200, 0, 1000100000, 1, 0x2a, 0x1));
	ASSERT_EQ(0, perf_data_write_lost(w, EV_OA, 3, 1000200000));
	ASSERT_EQ(0, oa(w, self, 1200, 0, 1000300000, 2, 0x2a, 0x1));
	ASSERT_EQ(0, perf_data_close(w));

	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s script --ns --show-lost-events -i %s",
			     perf_bin(), self->path)) TH_LOG("%s", self->out);
	EXPECT_EQ(3, count_lines(self->out, "\n"));
	EXPECT_EQ(1, count_lines(self->out,
		  "             :-1    -1 [000]     1.000200000: PERF_RECORD_LOST lost 3\n"))
		TH_LOG("%s", self->out);
	/*
	 * perf's own warning about lost records is what reports them; its
	 * events are all four records, COMM included.
	 */
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report --stdio -i %s",
			     perf_bin(), self->path));
	EXPECT_EQ(1, count_lines(self->out, "Processed 4 events and lost 1 chunks!"))
		TH_LOG("%s", self->out);
}

TEST_F(pd, records_out_of_time_order_are_refused)
{
	struct perf_data_writer *w;

	ASSERT_TRUE(have_perf()) TH_LOG("no %s: setup.sh installs linux-perf", perf_bin());
	w = create(_metadata, self);
	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, perf_data_write_comm(w, 1200, 1200, "glxgears", 1000000000));
	ASSERT_EQ(0, oa(w, self, 1200, 0, 1000100000, 1, 0x2a, 0x1));
	EXPECT_EQ(-EINVAL, oa(w, self, 1200, 0, 1000099999, 2, 0x2a, 0x1));
	EXPECT_EQ(-EINVAL, perf_data_write_comm(w, 1300, 1300, "x", 999));
	EXPECT_EQ(-EINVAL, perf_data_write_lost(w, EV_OA, 1, 999));
	/* Refusals are not write errors: the file goes on. */
	ASSERT_EQ(0, oa(w, self, 1200, 0, 1000100000, 3, 0x2a, 0x1));
	ASSERT_EQ(0, perf_data_close(w));

	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s script --ns -i %s",
			     perf_bin(), self->path)) TH_LOG("%s", self->out);
	EXPECT_STREQ("        glxgears  1200 [000]     1.000100000:             gpu_oa:oa_report: gpu_time=1 ctx_id=0x2a reason=timer report_size=256\n"
		     "        glxgears  1200 [000]     1.000100000:             gpu_oa:oa_report: gpu_time=3 ctx_id=0x2a reason=timer report_size=256\n",
		     self->out);
}

TEST_F(pd, bad_arguments)
{
	const struct perf_data_event ev = { "gpu_oa:oa_report", 0xff00 };
	uint8_t big[70000] = { 0 };
	struct perf_data_writer *w;

	errno = 0;
	EXPECT_EQ(NULL, perf_data_create(self->path, &ev, 0));
	EXPECT_EQ(EINVAL, errno);
	/* A tracepoint id is a u16, common_type. */
	errno = 0;
	EXPECT_EQ(NULL, perf_data_create(self->path, &(struct perf_data_event){ "a:b", 0x10000 }, 1));
	EXPECT_EQ(EINVAL, errno);
	w = create(_metadata, self);
	ASSERT_NE(NULL, w);
	EXPECT_EQ(-EINVAL, sample(w, NR_EV, 1, 0, 1, big, 8));
	EXPECT_EQ(-EINVAL, perf_data_write_lost(w, NR_EV, 1, 1));
	EXPECT_EQ(-EINVAL, perf_data_write_comm(w, 1, 1, NULL, 1));
	/* A payload of another event: perf would name one, print the other. */
	memcpy(big, &self->ids.oa_report, 2);
	EXPECT_EQ(-EINVAL, sample(w, EV_FDINFO, 1, 0, 1, big, 32));
	EXPECT_EQ(-EINVAL, sample(w, EV_OA, 1, 0, 1, big, 1));
	EXPECT_EQ(-EINVAL, sample(w, EV_OA, 1, 0, 1, NULL, 32));
	/*
	 * perf_event_header.size is 16 bits: 8 header + 44 fields + 65468
	 * raw bytes + 8 of cgroup is 65528, the largest multiple of 8 it
	 * holds; one raw byte more pads to 65536.
	 */
	EXPECT_EQ(0, sample(w, EV_OA, 1, 0, 1, big, 65468));
	EXPECT_EQ(-E2BIG, sample(w, EV_OA, 1, 0, 1, big, 65469));
	/* A cgroup needs a path. */
	EXPECT_EQ(-EINVAL, perf_data_write_cgroup(w, 7, "", 1));
	EXPECT_EQ(-EINVAL, perf_data_write_cgroup(w, 7, NULL, 1));
	EXPECT_EQ(0, perf_data_close(w));
	/* Without tracing data perf could not name the events: refused. */
	w = perf_data_create(self->path, &ev, 1);
	ASSERT_NE(NULL, w);
	EXPECT_EQ(-EINVAL, perf_data_close(w));
}

/* What is in @dir besides . and ..; names joined by spaces. */
static void list_dir(const char *dir, char *out, size_t size)
{
	struct dirent *d;
	DIR *dp = opendir(dir);

	out[0] = '\0';
	while (dp && (d = readdir(dp))) {
		size_t used = strlen(out);

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (used + strlen(d->d_name) + 2 > size)
			break;
		strcat(strcat(out, d->d_name), " ");
	}
	if (dp)
		closedir(dp);
}

/* Many samples, so that the 64 KiB buffer is written several times. */
static int write_many(struct perf_data_writer *w, FIXTURE_DATA(pd) *self)
{
	int i, err = write_records(w, self);

	for (i = 0; i < 400 && !err; i++)
		err = oa(w, self, 1200, 0, 2000000000ull + i, i, 1, 1);
	return err;
}

/*
 * Under a file size limit a write fails with EFBIG (SIGXFSZ ignored):
 * the error must come back from a record call or from close, and leave
 * neither a short file nor a temporary one; an older file at the path
 * stays as it was.  The limit is lifted before anything is printed.
 */
TEST_F(pd, write_errors_are_reported_and_leave_no_short_file)
{
	struct rlimit old, lim;
	struct perf_data_writer *w;
	struct stat st;
	off_t full, cuts[8];
	char names[256], old_data[8];
	int i, err, create_errno;

	w = create(_metadata, self);
	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, write_many(w, self));
	ASSERT_EQ(0, perf_data_close(w));
	ASSERT_EQ(0, stat(self->path, &st));
	full = st.st_size;
	ASSERT_GT(full, 128 * 1024);
	/* In the header, ids, attrs, data, past the first buffer, features. */
	cuts[0] = 0;
	cuts[1] = 50;
	cuts[2] = 104;
	cuts[3] = 700;
	cuts[4] = 64 * 1024 + 100;
	cuts[5] = full - 200;
	cuts[6] = full - 1;
	cuts[7] = full;		/* exactly enough: must work */

	ASSERT_EQ(0, getrlimit(RLIMIT_FSIZE, &old));
	signal(SIGXFSZ, SIG_IGN);
	for (i = 0; i < 8; i++) {
		unlink(self->path);
		{
			int fd = open(self->path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

			ASSERT_LE(0, fd);
			ASSERT_EQ(3, write(fd, "old", 3));
			close(fd);
		}
		lim = old;
		lim.rlim_cur = cuts[i];
		ASSERT_EQ(0, setrlimit(RLIMIT_FSIZE, &lim));
		w = create(_metadata, self);
		create_errno = errno;
		err = w ? write_many(w, self) : -create_errno;
		if (w && err)
			perf_data_abort(w);
		else if (w)
			err = perf_data_close(w);
		setrlimit(RLIMIT_FSIZE, &old);

		list_dir(self->dir, names, sizeof(names));
		EXPECT_STREQ("perf.data ", names) TH_LOG("cut at %ld", (long)cuts[i]);
		if (i == 7) {
			EXPECT_EQ(0, err);
			ASSERT_EQ(0, stat(self->path, &st));
			EXPECT_EQ(full, st.st_size);
			continue;
		}
		EXPECT_EQ(-EFBIG, err) TH_LOG("cut at %ld", (long)cuts[i]);
		EXPECT_EQ(3, read_file(self->path, old_data, sizeof(old_data)));
		EXPECT_STREQ("old", old_data) TH_LOG("cut at %ld", (long)cuts[i]);
	}
	signal(SIGXFSZ, SIG_DFL);
}

static uint64_t u64_at(const char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t u32_at(const char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/*
 * The layout read back by hand: header 104 bytes, 3 ids, attrs of
 * 128 + 16 bytes, the records, the feature table and bodies.
 */
TEST_F(pd, file_layout)
{
	static char file[64 * 1024];
	struct perf_data_writer *w;
	const char *p;
	ssize_t len;
	uint64_t data_off, data_size, feat_off, attrs;
	/*
	 * 1 tracing, 3-7 host, 8-10 CPU and memory (as far as this
	 * machine's /proc tells), 12 event desc, 21 sample time, 23, 29
	 * clock.
	 */
	uint64_t bits0 = 1ull << 1 | 1ull << 3 | 1ull << 4 | 1ull << 5 |
			 1ull << 6 | 1ull << 7 | 1ull << 12 | 1ull << 21 |
			 1ull << 23 | 1ull << 29;
	struct perf_machine mach;
	int i, n = 10, st;

	perf_machine_read(&mach, "/proc/cpuinfo", "/proc/meminfo");
	if (mach.cpudesc[0])
		bits0 |= 1ull << 8, n++;
	if (mach.cpuid[0])
		bits0 |= 1ull << 9, n++;
	if (mach.total_mem_kb)
		bits0 |= 1ull << 10, n++;
	st = n - 3;	/* sample time: third from the end */

	w = create(_metadata, self);
	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, write_records(w, self));
	ASSERT_EQ(0, perf_data_close(w));
	len = read_file(self->path, file, sizeof(file));
	ASSERT_LT(0, len);

	EXPECT_EQ(0, memcmp(file, "PERFILE2", 8));
	EXPECT_EQ(104, u64_at(file + 8));		/* header size */
	EXPECT_EQ(144, u64_at(file + 16));		/* attr + ids section */
	attrs = u64_at(file + 24);
	EXPECT_EQ(104 + 3 * 8, attrs);
	EXPECT_EQ(3 * 144, u64_at(file + 32));
	data_off = u64_at(file + 40);
	data_size = u64_at(file + 48);
	EXPECT_EQ(attrs + 3 * 144, data_off);
	/*
	 * COMMs 64 + 56; OA 352 x 3; fence: payload 24 + 5 + 9 = 38, raw
	 * 44 (4 + 44 = 48), record 8 + 40 + 4 + 44 + 8 (cgroup) = 104;
	 * fdinfo: 32 + 5 + 13 + 29 = 79, raw 84, record 144; the second:
	 * 32 + 5 + 13 + 47 = 97, raw 100, record 160.
	 */
	EXPECT_EQ(64 + 56 + 3 * 352 + 104 + 144 + 160, data_size);
	EXPECT_EQ(0, u64_at(file + 56));		/* event_types */
	EXPECT_EQ(0, u64_at(file + 64));
	EXPECT_EQ(bits0, u64_at(file + 72));
	EXPECT_EQ(0, u64_at(file + 80) | u64_at(file + 88) | u64_at(file + 96));

	/* Each attr: tracepoint, size 128, config the id, its one id. */
	for (i = 0; i < 3; i++) {
		const char *a = file + attrs + i * 144;
		const uint64_t config[] = { 0xff00, 0xff01, FENCE_ID };

		EXPECT_EQ(PERF_TYPE_TRACEPOINT, u32_at(a));
		EXPECT_EQ(128, u32_at(a + 4));
		EXPECT_EQ(config[i], u64_at(a + 8));
		EXPECT_EQ(1, u64_at(a + 16));		/* sample_period */
		EXPECT_EQ(PERF_DATA_SAMPLE_TYPE, u64_at(a + 24));
		EXPECT_EQ(104 + i * 8, u64_at(a + 128));
		EXPECT_EQ(8, u64_at(a + 136));
		EXPECT_EQ(i + 1, u64_at(file + 104 + i * 8));
	}

	/* The first record: COMM glxgears, then its trailer. */
	p = file + data_off;
	EXPECT_EQ(PERF_RECORD_COMM, u32_at(p));
	EXPECT_EQ(64, u32_at(p + 4) >> 16);
	EXPECT_EQ(1200, u32_at(p + 8));
	EXPECT_STREQ("glxgears", p + 16);
	EXPECT_EQ(1000000000, u64_at(p + 40));		/* trailer time */
	EXPECT_EQ(1, u64_at(p + 56));			/* trailer id */
	/* The third: the first OA sample. */
	p += 64 + 56;
	EXPECT_EQ(PERF_RECORD_SAMPLE, u32_at(p));
	EXPECT_EQ(352, u32_at(p + 4) >> 16);
	EXPECT_EQ(0x1000 + 1200, u64_at(p + 352 - 8));	/* cgroup, last */
	EXPECT_EQ(1, u64_at(p + 8));			/* id */
	EXPECT_EQ(1000100000, u64_at(p + 24));		/* time */
	EXPECT_EQ(292, u32_at(p + 48));			/* raw size */
	EXPECT_EQ(0xff00, u32_at(p + 52) & 0xffff);	/* common_type */
	EXPECT_EQ(19200000000ull, u64_at(p + 52 + 8));	/* gpu_time */
	EXPECT_EQ(256u << 16 | 32, u32_at(p + 52 + 28));	/* report loc */

	/* The feature table follows the data, N sections, in bit order. */
	feat_off = data_off + data_size;
	p = file + feat_off;
	EXPECT_EQ(feat_off + n * 16, u64_at(p));	/* tracing data */
	EXPECT_EQ(self->tracing_len, u64_at(p + 8));
	EXPECT_EQ(0, memcmp(file + u64_at(p), self->tracing, self->tracing_len));
	for (i = 1; i < n; i++)
		EXPECT_EQ(u64_at(p + 16 * (i - 1)) + u64_at(p + 16 * (i - 1) + 8),
			  u64_at(p + 16 * i));
	/* The last, clock data: version 1, CLOCK_MONOTONIC; the file's end. */
	EXPECT_EQ(24, u64_at(p + 16 * (n - 1) + 8));
	EXPECT_EQ(1, u32_at(file + u64_at(p + 16 * (n - 1))));
	EXPECT_EQ(1, u32_at(file + u64_at(p + 16 * (n - 1)) + 4));
	EXPECT_EQ(len, u64_at(p + 16 * (n - 1)) + 24);
	/* Sample time: first and last. */
	EXPECT_EQ(16, u64_at(p + 16 * st + 8));
	EXPECT_EQ(1000100000, u64_at(file + u64_at(p + 16 * st)));
	EXPECT_EQ(1000500000, u64_at(file + u64_at(p + 16 * st) + 8));
}

/* The event formats of a tracing data blob, walked by hand. */
struct blob_event {
	char system[32];
	const char *format;
	size_t len;
};

static int walk_tracing_data(const char *b, size_t len, const char **hp,
			     size_t *hp_len, struct blob_event *ev, int max)
{
	const char *p = b, *end = b + len;
	uint32_t systems, count, s, e;
	int n = 0;

	if (len < 20 || memcmp(p, "\027\010\104tracing", 10) ||
	    memcmp(p + 10, "0.6", 4) || p[14] != 0 || p[15] != sizeof(long) ||
	    u32_at(p + 16) != (uint32_t)sysconf(_SC_PAGESIZE))
		return -1;
	p += 20;
	if (memcmp(p, "header_page", 12))
		return -2;
	*hp_len = u64_at(p + 12);
	*hp = p + 20;
	p += 20 + *hp_len;
	if (memcmp(p, "header_event", 13))
		return -3;
	p += 21 + u64_at(p + 13);
	if (u32_at(p))			/* ftrace formats */
		return -4;
	systems = u32_at(p + 4);
	p += 8;
	for (s = 0; s < systems; s++) {
		const char *sys = p;

		p += strlen(p) + 1;
		count = u32_at(p);
		p += 4;
		for (e = 0; e < count && n < max; e++, n++) {
			snprintf(ev[n].system, sizeof(ev[n].system), "%s", sys);
			ev[n].len = u64_at(p);
			ev[n].format = p + 8;
			p += 8 + ev[n].len;
		}
	}
	/* kallsyms, printk formats (u32 sizes), saved cmdlines (u64). */
	if (p + 16 != end || u32_at(p) || u32_at(p + 4) || u64_at(p + 8))
		return -5;
	return n;
}

TEST_F(pd, libtraceevent_parses_every_format_and_payload)
{
	struct blob_event ev[8];
	struct tep_handle *tep;
	struct tep_event *e[5];
	struct tep_format_field *f;
	struct tep_record rec = { 0 };
	struct trace_seq seq;
	unsigned long long val;
	const char *hp;
	size_t hp_len;
	uint8_t buf[512], report[256];
	ssize_t len;
	char *raw;
	int i, n;

	n = walk_tracing_data(self->tracing, self->tracing_len, &hp, &hp_len,
			      ev, 8);
	ASSERT_EQ(5, n);
	/* Systems in the order first added, events within them too. */
	EXPECT_STREQ("dma_fence", ev[0].system);
	EXPECT_STREQ("gpu_oa", ev[1].system);
	EXPECT_STREQ("gpu_oa", ev[2].system);
	EXPECT_STREQ("gpu_oa", ev[3].system);
	EXPECT_STREQ("gpu_client", ev[4].system);
	tep = tep_alloc();
	ASSERT_NE(NULL, tep);
	tep_set_long_size(tep, sizeof(long));
	tep_set_page_size(tep, sysconf(_SC_PAGESIZE));
	EXPECT_EQ(0, tep_parse_header_page(tep, (char *)hp, hp_len, sizeof(long)));
	for (i = 0; i < n; i++) {
		e[i] = NULL;
		ASSERT_EQ(0, tep_parse_format(tep, &e[i], ev[i].format, ev[i].len,
					      ev[i].system)) TH_LOG("%.*s", (int)ev[i].len, ev[i].format);
		ASSERT_NE(NULL, e[i]);
	}
	EXPECT_STREQ("oa_report", e[1]->name);
	EXPECT_EQ(0xff00, e[1]->id);
	EXPECT_STREQ("oa_device", e[2]->name);
	EXPECT_EQ(0xff02, e[2]->id);
	EXPECT_STREQ("oa_correlation", e[3]->name);
	EXPECT_EQ(0xff03, e[3]->id);
	EXPECT_STREQ("fdinfo", e[4]->name);
	EXPECT_EQ(0xff01, e[4]->id);
	EXPECT_EQ(FENCE_ID, e[0]->id);
	/* gpu_oa:oa_device's fields. */
	{
		struct gpuprof_oa_device_info di = {
			.timestamp_frequency = 19200000, .device_id = 0x46a6,
			.device_revision = 4, .gt_min_frequency = 300000000,
			.gt_max_frequency = 1400000000, .oa_format = 10,
		};
		struct gpuprof_oa_driver drv = {
			.kernel = 0x060c00, .submission = 2,
			.driver = GPUPROF_OA_DRIVER_XE,
		};
		uint8_t topo[20] = { 1, 2, 3 };

		strcpy(di.metric_set_name, "RenderBasic");
		strcpy(di.metric_set_uuid, "0fc397c0-4833-492c-9ccd-4929d574d5b8");
		len = gpu_oa_device_payload(buf, sizeof(buf), 0xff02, &di, &drv,
					    topo, sizeof(topo));
		/* Fixed fields, then the strings and the topology. */
		ASSERT_EQ(60 + 12 + 37 + 20, len);
		rec.data = buf;
		rec.size = len;
		EXPECT_EQ(e[2], tep_find_event_by_record(tep, &rec));
		ASSERT_EQ(0, tep_get_field_val(NULL, e[2], "kernel", &rec,
					       &val, 0));
		EXPECT_EQ(0x060c00, val);
		ASSERT_EQ(0, tep_get_field_val(NULL, e[2], "driver", &rec,
					       &val, 0));
		EXPECT_EQ(GPUPROF_OA_DRIVER_XE, val);
		ASSERT_EQ(0, tep_get_field_val(NULL, e[2], "gt_max_frequency",
					       &rec, &val, 0));
		EXPECT_EQ(1400000000, val);
		raw = tep_get_field_raw(NULL, e[2], "topology", &rec, &i, 0);
		ASSERT_NE(NULL, raw);
		EXPECT_EQ(20, i);
		EXPECT_EQ(0, memcmp(raw, topo, 20));
		trace_seq_init(&seq);
		tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
		trace_seq_terminate(&seq);
		EXPECT_STREQ("device_id=0x46a6 oa_format=10 timestamp_frequency=19200000 metric_set=RenderBasic uuid=0fc397c0-4833-492c-9ccd-4929d574d5b8",
			     seq.buffer);
		trace_seq_destroy(&seq);
	}

	/* The fields where the payload builder puts them. */
	f = tep_find_field(e[1], "gpu_time");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(8, f->offset);
	EXPECT_EQ(8, f->size);
	f = tep_find_field(e[1], "report");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(28, f->offset);
	EXPECT_TRUE(f->flags & TEP_FIELD_IS_DYNAMIC);
	f = tep_find_field(e[4], "stats");
	ASSERT_NE(NULL, f);
	EXPECT_TRUE(f->flags & TEP_FIELD_IS_DYNAMIC);
	EXPECT_TRUE(f->flags & TEP_FIELD_IS_STRING);

	/* An OA payload read back by libtraceevent. */
	for (i = 0; i < 256; i++)
		report[i] = 255 - i;
	len = gpu_oa_report_payload(buf, sizeof(buf), 0xff00, 77, 1ull << 40,
				    0x2a, 0x9, report, sizeof(report));
	ASSERT_EQ(32 + 256, len);
	rec.data = buf;
	rec.size = len;
	EXPECT_EQ(e[1], tep_find_event_by_record(tep, &rec));
	EXPECT_EQ(77, tep_data_pid(tep, &rec));
	ASSERT_EQ(0, tep_get_field_val(NULL, e[1], "gpu_time", &rec, &val, 0));
	EXPECT_EQ(1ull << 40, val);
	ASSERT_EQ(0, tep_get_field_val(NULL, e[1], "ctx_id", &rec, &val, 0));
	EXPECT_EQ(0x2a, val);
	ASSERT_EQ(0, tep_get_field_val(NULL, e[1], "reason", &rec, &val, 0));
	EXPECT_EQ(0x9, val);
	raw = tep_get_field_raw(NULL, e[1], "report", &rec, &i, 0);
	ASSERT_NE(NULL, raw);
	EXPECT_EQ(256, i);
	EXPECT_EQ(0, memcmp(raw, report, 256));
	trace_seq_init(&seq);
	tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	EXPECT_STREQ("gpu_time=1099511627776 ctx_id=0x2a reason=timer|ctx_switch report_size=256",
		     seq.buffer);
	trace_seq_destroy(&seq);

	/* An fdinfo payload. */
	len = gpu_client_fdinfo_payload(buf, sizeof(buf), 0xff01, 88, 5, 3,
					"amdgpu", "0000:03:00.0",
					"drm-engine-gfx=10 ns");
	ASSERT_EQ(32 + 7 + 13 + 21, len);
	rec.data = buf;
	rec.size = len;
	EXPECT_EQ(e[4], tep_find_event_by_record(tep, &rec));
	trace_seq_init(&seq);
	tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	EXPECT_STREQ("driver=amdgpu pdev=0000:03:00.0 client_id=5 fd=3 drm-engine-gfx=10 ns",
		     seq.buffer);
	trace_seq_destroy(&seq);

	/* Correlation points, with a bound and without. */
	len = gpu_oa_correlation_payload(buf, sizeof(buf), 0xff03,
					 5000000123ull, 1ull << 33, 777, true);
	ASSERT_EQ(36, len);
	rec.data = buf;
	rec.size = len;
	EXPECT_EQ(e[3], tep_find_event_by_record(tep, &rec));
	ASSERT_EQ(0, tep_get_field_val(NULL, e[3], "bound_ns", &rec, &val, 0));
	EXPECT_EQ(777, val);
	trace_seq_init(&seq);
	tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	EXPECT_STREQ("cpu_time=5000000123 gpu_time=8589934592 bound_ns=777",
		     seq.buffer);
	trace_seq_destroy(&seq);
	len = gpu_oa_correlation_payload(buf, sizeof(buf), 0xff03, 7, 8, 777,
					 false);
	ASSERT_EQ(36, len);
	trace_seq_init(&seq);
	tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	EXPECT_STREQ("cpu_time=7 gpu_time=8 bound_ns=0 (no bound recorded)",
		     seq.buffer);
	trace_seq_destroy(&seq);
	tep_free(tep);
}

TEST(payloads_refuse_what_does_not_fit)
{
	uint8_t buf[64], big[70000];
	char s[70000];

	EXPECT_EQ(-E2BIG, gpu_oa_report_payload(buf, 31, 1, 0, 0, 0, 0, NULL, 0));
	EXPECT_EQ(32, gpu_oa_report_payload(buf, 32, 1, 0, 0, 0, 0, NULL, 0));
	EXPECT_EQ(-E2BIG, gpu_oa_report_payload(buf, sizeof(buf), 1, 0, 0, 0, 0,
						big, 33));
	/* __data_loc lengths are 16 bits. */
	memset(big, 0, sizeof(big));
	EXPECT_EQ(-E2BIG, gpu_oa_report_payload(big, sizeof(big), 1, 0, 0, 0, 0,
						big, 65536));
	memset(s, 'x', sizeof(s) - 1);
	s[sizeof(s) - 1] = '\0';
	EXPECT_EQ(-E2BIG, gpu_client_fdinfo_payload(big, sizeof(big), 1, 0, 0, 0,
						    "i915", "p", s));
	EXPECT_EQ(32 + 5 + 2 + 1, gpu_client_fdinfo_payload(buf, sizeof(buf), 1, 0,
							    0, 0, "i915", "p", ""));
	EXPECT_EQ(-E2BIG, gpu_oa_correlation_payload(buf, 35, 1, 0, 0, 0, true));
	EXPECT_EQ(36, gpu_oa_correlation_payload(buf, 36, 1, 0, 0, 0, true));
}

TEST(tracing_data_ids)
{
	struct tracing_data *td = tracing_data_new();
	struct gpu_synth_ids ids;
	char fmt[128];
	int n;

	ASSERT_NE(NULL, td);
	EXPECT_EQ(-EINVAL, tracing_data_add_format(td, "x", "name: a\n", 8));
	EXPECT_EQ(-EINVAL, tracing_data_add_format(td, "x", "ID: 70000\n", 10));
	EXPECT_EQ(-EINVAL, tracing_data_add_format(td, "", "ID: 7\n", 6));
	/* A real event on the first synthetic id: those move up. */
	n = snprintf(fmt, sizeof(fmt), "name: a\nID: %d\nformat:\n", 0xff00);
	EXPECT_EQ(0xff00, tracing_data_add_format(td, "x", fmt, n));
	EXPECT_EQ(-EEXIST, tracing_data_add_format(td, "y", fmt, n));
	ASSERT_EQ(0, tracing_data_add_synthetic(td, &ids));
	EXPECT_EQ(0xff01, ids.oa_report);
	EXPECT_EQ(0xff02, ids.fdinfo);
	/* And a real one added after them clashes. */
	n = snprintf(fmt, sizeof(fmt), "name: b\nID: %d\nformat:\n", 0xff02);
	EXPECT_EQ(-EEXIST, tracing_data_add_format(td, "x", fmt, n));
	tracing_data_free(td);
}

/* Two events of one system added apart are one system in the blob. */
TEST(tracing_data_groups_by_system)
{
	struct tracing_data *td = tracing_data_new();
	struct blob_event ev[4];
	const char *hp;
	size_t hp_len, len;
	void *blob;

	ASSERT_NE(NULL, td);
	ASSERT_EQ(1, tracing_data_add_format(td, "a", "ID: 1\n", 6));
	ASSERT_EQ(2, tracing_data_add_format(td, "b", "ID: 2\n", 6));
	ASSERT_EQ(3, tracing_data_add_format(td, "a", "ID: 3\n", 6));
	blob = tracing_data_build(td, &len);
	ASSERT_NE(NULL, blob);
	ASSERT_EQ(3, walk_tracing_data(blob, len, &hp, &hp_len, ev, 4));
	EXPECT_STREQ("a", ev[0].system);
	EXPECT_EQ(0, strncmp(ev[0].format, "ID: 1\n", ev[0].len));
	EXPECT_STREQ("a", ev[1].system);
	EXPECT_EQ(0, strncmp(ev[1].format, "ID: 3\n", ev[1].len));
	EXPECT_STREQ("b", ev[2].system);
	free(blob);
	tracing_data_free(td);
}

/*
 * A real tracepoint, format from this machine's tracefs, its payload
 * filled from what libtraceevent makes of the format.
 */
static ssize_t fill_payload(struct tep_event *e, uint8_t *buf, size_t size,
			    int32_t pid)
{
	struct tep_format_field **fields = tep_event_fields(e);
	size_t end = 0;
	uint16_t type = e->id;
	int i;

	if (!fields)
		return -1;
	for (i = 0; fields[i]; i++)
		if ((size_t)fields[i]->offset + fields[i]->size > end)
			end = fields[i]->offset + fields[i]->size;
	end = end < 8 ? 8 : end;
	memset(buf, 0, size);
	memcpy(buf, &type, 2);
	memcpy(buf + 4, &pid, 4);
	for (i = 0; fields[i]; i++) {
		struct tep_format_field *f = fields[i];
		uint64_t v = i + 1;

		if (f->flags & TEP_FIELD_IS_DYNAMIC) {
			uint32_t loc = 2u << 16 | end;

			if (end + 2 > size || f->size != 4)
				break;
			memcpy(buf + f->offset, &loc, 4);
			memcpy(buf + end, "x", 2);
			end += 2;
		} else if (!(f->flags & TEP_FIELD_IS_ARRAY) && f->size <= 8) {
			memcpy(buf + f->offset, &v, f->size);	/* little-endian */
		}
	}
	free(fields);
	return end;
}

TEST_F(pd, real_tracepoint_from_tracefs)
{
	static const char *const candidates[][2] = {
		{ "dma_fence", "dma_fence_signaled" },
		{ "sched", "sched_process_exec" },
		{ "syscalls", "sys_enter_getpid" },
	};
	struct perf_data_event events[2];
	struct perf_data_writer *w;
	struct tracing_data *td;
	struct tep_handle *tep;
	struct tep_event *e = NULL;
	uint8_t buf[4096];
	char name[128];
	size_t len, blob_len;
	void *blob;
	char *fmt = NULL;
	ssize_t n;
	unsigned int i;
	int id;

	/* selftests/setup.sh mounts it where the machine has not. */
	ASSERT_NE(NULL, tracefs_dir())
		TH_LOG("tracefs is not mounted: run selftests/setup.sh as root");
	for (i = 0; i < 3 && !fmt; i++)
		fmt = tracefs_read_format(candidates[i][0], candidates[i][1], &len);
	ASSERT_NE(NULL, fmt) TH_LOG("no readable format of %s:%s or the others (as root?)",
				    candidates[0][0], candidates[0][1]);
	i--;
	ASSERT_TRUE(have_perf()) TH_LOG("no %s: setup.sh installs linux-perf", perf_bin());
	tep = tep_alloc();
	ASSERT_NE(NULL, tep);
	ASSERT_EQ(0, tep_parse_format(tep, &e, fmt, len, candidates[i][0]));
	n = fill_payload(e, buf, sizeof(buf), 1200);
	ASSERT_LT(0, n);

	td = tracing_data_new();
	ASSERT_NE(NULL, td);
	id = tracing_data_add_tracefs_event(td, candidates[i][0], candidates[i][1]);
	ASSERT_EQ(e->id, id);
	ASSERT_EQ(0, tracing_data_add_synthetic(td, &self->ids));
	blob = tracing_data_build(td, &blob_len);
	ASSERT_NE(NULL, blob);
	tracing_data_free(td);

	snprintf(name, sizeof(name), "%s:%s", candidates[i][0], candidates[i][1]);
	events[EV_OA] = (struct perf_data_event){ "gpu_oa:oa_report", self->ids.oa_report };
	events[1] = (struct perf_data_event){ name, id };
	w = perf_data_create(self->path, events, 2);
	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, perf_data_set_tracing_data(w, blob, blob_len));
	free(blob);
	ASSERT_EQ(0, perf_data_write_comm(w, 1200, 1200, "glxgears", 1000000000));
	ASSERT_EQ(0, sample(w, 1, 1200, 0, 1000100000, buf, n));
	ASSERT_EQ(0, oa(w, self, 1200, 0, 1000200000, 5, 0x2a, 1));
	ASSERT_EQ(0, perf_data_close(w));

	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s script --ns -i %s",
			     perf_bin(), self->path)) TH_LOG("%s", self->out);
	EXPECT_EQ(2, count_lines(self->out, "\n")) TH_LOG("%s", self->out);
	EXPECT_EQ(0, count_lines(self->out, "arning"));
	EXPECT_EQ(1, count_lines(self->out, name));
	EXPECT_EQ(1, count_lines(self->out, "gpu_oa:oa_report: gpu_time=5 "));
	EXPECT_GT(strstr(self->out, "gpu_oa:oa_report"), strstr(self->out, name));
	tep_free(tep);
	free(fmt);
}

/*
 * The file at self->path with the first CGROUP record's path overwritten
 * with @n bytes of @c from its start: what the reader says of that
 * record, in @err.  The reader does not know whether a record has a
 * sample_id trailer, so a path is unterminated only when no NUL comes
 * before the record's end (64 bytes here: path and trailer).  0 when
 * it refused it, -1 when it took it or the file has no CGROUP record.
 */
static int cgroup_record_error(FIXTURE_DATA(pd) *self, char c, size_t n,
			       char *err, size_t size)
{
	static char file[64 * 1024];
	struct pdr_record r;
	struct pdr_file f;
	const char *path;
	uint64_t pos, id;
	ssize_t len;
	size_t plen;
	int ret = -1;

	len = read_file(self->path, file, sizeof(file));
	if (len <= 0 || pdr_open(&f, self->path))
		return -1;
	pos = f.data_offset;
	while (pdr_next_record(&f, &pos, &r) == 1 && r.type != PERF_RECORD_CGROUP)
		;
	if (r.type == PERF_RECORD_CGROUP) {
		memset(file + r.offset + 16, c, n);
		if (write_file_len(self->path, file, len))
			ret = -1;
		ret = 0;
	}
	pdr_close(&f);
	if (ret || pdr_open(&f, self->path))
		return -1;
	pos = f.data_offset;
	if (pdr_next_record(&f, &pos, &r) != 1 ||
	    !pdr_parse_cgroup(&f, &r, &id, &path, &plen))
		ret = -1;
	snprintf(err, size, "%s", f.err);
	pdr_close(&f);
	return ret;
}

/*
 * CGROUP records name the ids samples carry: the project's reader gives
 * each sample its id and each record its path, and stock perf report
 * --sort cgroup sums the samples under the paths.
 */
TEST_F(pd, cgroup_records_name_the_samples_cgroups)
{
	char err[160];
	struct perf_data_writer *w;
	struct pdr_record r;
	struct pdr_sample smp;
	struct pdr_file f;
	const char *path;
	uint64_t pos, id;
	size_t len;
	int n = 0;

	w = create(_metadata, self);
	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, perf_data_write_cgroup(w, 0x1000 + 1200, "/system.slice/gl.service",
					    1000000000));
	ASSERT_EQ(0, perf_data_write_cgroup(w, 0x1000 + 1300, "/user.slice", 1000000000));
	ASSERT_EQ(0, write_records(w, self));
	ASSERT_EQ(0, perf_data_close(w));

	ASSERT_EQ(0, pdr_open(&f, self->path)) TH_LOG("%s", f.err);
	pos = f.data_offset;
	ASSERT_EQ(1, pdr_next_record(&f, &pos, &r));
	ASSERT_EQ(PERF_RECORD_CGROUP, r.type);
	ASSERT_EQ(0, pdr_parse_cgroup(&f, &r, &id, &path, &len));
	EXPECT_EQ(0x1000 + 1200, id);
	EXPECT_EQ(strlen("/system.slice/gl.service"), len);
	EXPECT_EQ(0, strncmp(path, "/system.slice/gl.service", len));
	while (pdr_next_record(&f, &pos, &r) == 1) {
		if (r.type != PERF_RECORD_SAMPLE)
			continue;
		ASSERT_EQ(0, pdr_parse_sample(&f, &r, &smp));
		EXPECT_TRUE(smp.has_cgroup);
		EXPECT_EQ(0x1000 + (uint64_t)smp.pid, smp.cgroup);
		n++;
	}
	EXPECT_EQ(6, n);
	pdr_close(&f);


	/* Stock perf sums the samples per path. */
	ASSERT_TRUE(have_perf()) TH_LOG("no %s: setup.sh installs linux-perf", perf_bin());
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s report --stdio --sort cgroup -i %s 2>&1 | grep '%%'",
			     perf_bin(), self->path)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "%  /system.slice/gl.service\n"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "%  /user.slice\n")) TH_LOG("%s", self->out);

	/* A path not from the root, then one without its NUL: each named. */
	EXPECT_EQ(0, cgroup_record_error(self, 'x', 1, err, sizeof(err)));
	EXPECT_STREQ("CGROUP path 'xsystem.slice/gl.service' does not start with /", err);
	EXPECT_EQ(0, cgroup_record_error(self, 'x', 64, err, sizeof(err)));
	EXPECT_STREQ("CGROUP path is not terminated", err);
}

/*
 * A recording from a kernel without cgroup perf events: the samples have
 * no cgroup id (8 bytes fewer each), stock perf script prints the same
 * lines as from the file with them, the project's reader finds no
 * cgroup, and perf gpu report says the recording lacks cgroups and
 * refuses --cgroup, which could only choose nothing.  The file with
 * cgroups says neither.  Any other layout is refused.
 */
TEST_F(pd, samples_without_cgroup_read_alike_and_say_so)
{
	const struct perf_data_event ev = { "dma_fence:dma_fence_signaled",
					    FENCE_ID };
	/* write_records()' samples. */
	static const int32_t pids[] = { 1200, 1200, 1300, 1300, 1200, 1200 };
	static const uint64_t times[] = { 1000100000, 1000200000, 1000300000,
					  1000400000, 1000500000, 1000500000 };
	struct perf_data_writer *w;
	struct pdr_record r;
	struct pdr_sample smp;
	struct pdr_file f;
	uint64_t pos;
	int n = 0;

	ASSERT_TRUE(have_perf()) TH_LOG("no %s: setup.sh installs linux-perf", perf_bin());
	errno = 0;
	EXPECT_EQ(NULL, perf_data_create_sampled(self->path, &ev, 1,
						 PERF_DATA_SAMPLE_TYPE & ~PERF_SAMPLE_TID));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_NE(0, access(self->path, F_OK));

	w = create_sampled(_metadata, self, PERF_DATA_SAMPLE_TYPE_NO_CGROUP);
	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, write_records(w, self));
	ASSERT_EQ(0, perf_data_close(w));
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s script --ns -i %s 2>&1",
			     perf_bin(), self->path)) TH_LOG("%s", self->out);
	EXPECT_STREQ(expected_script, self->out);

	ASSERT_EQ(0, pdr_open(&f, self->path)) TH_LOG("%s", f.err);
	pos = f.data_offset;
	while (pdr_next_record(&f, &pos, &r) == 1) {
		if (r.type != PERF_RECORD_SAMPLE)
			continue;
		ASSERT_EQ(0, pdr_parse_sample(&f, &r, &smp));
		EXPECT_FALSE(smp.has_cgroup);
		ASSERT_LT(n, 6);
		EXPECT_EQ(pids[n], smp.pid);
		EXPECT_EQ(times[n], smp.time);
		n++;
	}
	EXPECT_EQ(6, n);
	pdr_close(&f);

	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report -i %s 2>&1",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "\n# lacks: cgroups: the samples carry no cgroup ids"))
		TH_LOG("%s", self->out);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report --format json -i %s 2>&1",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "\"lacks\": [\"cgroups\"]")) TH_LOG("%s", self->out);
	EXPECT_EQ(1, run_cmd(self->out, sizeof(self->out), "%s report --cgroup / -i %s 2>&1",
			     perf_gpu_path(), self->path));
	EXPECT_NE(NULL, strstr(self->out, "--cgroup: ")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, " has no cgroups: its samples carry no cgroup ids"))
		TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strchr(strchr(self->out, '\n') + 1, '\n')) TH_LOG("%s", self->out);

	/* The same records with cgroups: nothing lacking, --cgroup works. */
	w = create(_metadata, self);
	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, write_records(w, self));
	ASSERT_EQ(0, perf_data_close(w));
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report -i %s 2>&1",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strstr(self->out, "# lacks")) TH_LOG("%s", self->out);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report --format json -i %s 2>&1",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "\"lacks\": []")) TH_LOG("%s", self->out);
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report --cgroup / -i %s 2>&1",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
}

/* Samples in @path by the project's reader; -1 if it refuses the file. */
static int pdr_samples(const char *path, bool *unfinished)
{
	struct pdr_file f;
	struct pdr_record r;
	uint64_t pos;
	int n = 0, ret;

	if (pdr_open(&f, path)) {
		pdr_close(&f);
		return -1;
	}
	*unfinished = f.unfinished;
	pos = f.data_offset;
	while ((ret = pdr_next_record(&f, &pos, &r)) == 1)
		n += r.type == PERF_RECORD_SAMPLE;
	pdr_close(&f);
	return ret ? -1 : n;
}

/* Lines perf script prints for @path, or -1 if it fails. */
static int script_lines(FIXTURE_DATA(pd) *self, const char *path)
{
	char *p;
	int n = 0;

	if (run_cmd(self->out, sizeof(self->out), "%s script --ns -i %s",
		    perf_bin(), path))
		return -1;
	for (p = self->out; (p = strchr(p, '\n')); p++)
		n++;
	return n;
}

/*
 * A streamed file, copied as perf gpu record would leave it if killed:
 * before any round, after the first round (three samples), and in the
 * middle of the second with over 100 KB of it already on disk.  Each
 * copy reads whole, up to its last round, in stock perf script and in
 * the project's reader, which says it was not closed; the closed file
 * reads whole and does not.
 */
TEST_F(pd, streamed_file_reads_up_to_its_last_round)
{
	const struct perf_data_event events[NR_EV] = {
		[EV_OA] = { "gpu_oa:oa_report", self->ids.oa_report },
		[EV_FDINFO] = { "gpu_client:fdinfo", self->ids.fdinfo },
		[EV_FENCE] = { "dma_fence:dma_fence_signaled", FENCE_ID },
	};
	static const char *const argv[] = { "perf", "gpu", "record" };
	char snap[3][160], first3[1024], *cut;
	struct perf_data_writer *w;
	uint8_t buf[128];
	bool unfinished;
	int i, err = 0;

	ASSERT_TRUE(have_perf()) TH_LOG("no %s: setup.sh installs linux-perf", perf_bin());
	for (i = 0; i < 3; i++)
		snprintf(snap[i], sizeof(snap[i]), "%s/snap%d.data", self->dir, i);
	w = perf_data_create_stream(self->path, events, NR_EV, self->tracing,
				    self->tracing_len, PERF_DATA_SAMPLE_TYPE, 3,
				    argv);
	ASSERT_NE(NULL, w) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "cp %s %s",
			     self->path, snap[0]));

	/* Round 1: write_records()' first three samples. */
	ASSERT_EQ(0, write_first_records(w, self));
	ASSERT_EQ(0, perf_data_round(w));
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "cp %s %s",
			     self->path, snap[1]));

	/* Round 2, unsealed: 2000 more fences, past the writer's buffer. */
	for (i = 0; i < 2000 && !err; i++)
		err = sample(w, EV_FENCE, 1200, 1, 1000400000 + i, buf,
			     fence_payload(buf, 1200, "i915", "gt0:rcs0", 7, i));
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "cp %s %s && stat -c %%s %s", self->path, snap[2],
			     snap[2]));
	EXPECT_LT(100000, atol(self->out)) TH_LOG("%s", self->out);
	ASSERT_EQ(0, perf_data_close(w));

	/* The first three lines of the usual script, as round 1 holds. */
	snprintf(first3, sizeof(first3), "%s", expected_script);
	cut = strchr(strchr(strchr(first3, '\n') + 1, '\n') + 1, '\n');
	cut[1] = '\0';

	EXPECT_EQ(0, script_lines(self, snap[0])) TH_LOG("%s", self->out);
	EXPECT_EQ(0, pdr_samples(snap[0], &unfinished));
	EXPECT_TRUE(unfinished);
	for (i = 1; i < 3; i++) {
		EXPECT_EQ(3, script_lines(self, snap[i])) TH_LOG("%s", self->out);
		EXPECT_STREQ(first3, self->out);
		EXPECT_EQ(3, pdr_samples(snap[i], &unfinished));
		EXPECT_TRUE(unfinished);
	}
	EXPECT_EQ(2003, script_lines(self, self->path)) TH_LOG("%.2000s", self->out);
	EXPECT_EQ(0, strncmp(first3, self->out, strlen(first3)));
	EXPECT_EQ(2003, pdr_samples(self->path, &unfinished));
	EXPECT_FALSE(unfinished);
	/* Closed, it has what the rounds could not: the sample times. */
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s report --header-only -i %s | grep 'time of '",
			     perf_bin(), self->path)) TH_LOG("%s", self->out);
}

TEST_HARNESS_MAIN
