// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu script ($GPUPROF_PERF_GPU) on files made with the perf.data
 * writer of tools/perf-gpu: the exact lines for known input (expected
 * text written by hand from the values put in), the same events in the
 * same order as the distribution's perf script, and files cut short or
 * with bytes flipped giving exit 0 or one error line naming an offset,
 * never a crash or a hang.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <i915_drm.h>

#include "../lib/harness.h"
#include "../lib/files.h"
#include "../lib/fence_format.h"
#include "../lib/corrupt.h"
#include "../lib/oa_topology.h"
#include "../lib/run.h"
#include "../lib/setup_provides.h"
#include "../../tools/perf-gpu/perfdata/write.h"
#include "../../tools/perf-gpu/perfdata/tracing-data.h"

#define OUT_SIZE (1 << 20)


/*
 * A format 10 (A32u40_A4u32_B8_C8) report of gen9 by hand: dword 0 the
 * reason from bit 19 and bit 16 for a valid context, then timestamp,
 * context id, GPU ticks; A0..A31 low halves from byte 16, their high
 * bytes from 160, A32..A35 from 144, B from 192, C from 224.
 */
struct oa_vals {
	uint32_t reason, ts, ctx, clk;
	uint64_t a0, a1;
	uint32_t a32, b0, c7;
};

static void put32(uint8_t *r, unsigned int off, uint32_t v)
{
	memcpy(r + off, &v, 4);
}

static void make_report(uint8_t *r, const struct oa_vals *v)
{
	memset(r, 0, 256);
	put32(r, 0, v->reason << 19 | 1u << 16);
	put32(r, 4, v->ts);
	put32(r, 8, v->ctx);
	put32(r, 12, v->clk);
	put32(r, 16, (uint32_t)v->a0);
	r[160] = v->a0 >> 32;
	put32(r, 20, (uint32_t)v->a1);
	r[161] = v->a1 >> 32;
	put32(r, 144, v->a32);
	put32(r, 192, v->b0);
	put32(r, 224 + 7 * 4, v->c7);
}

enum { EV_OA, EV_FDINFO, EV_FENCE, NR_EV };

FIXTURE(script) {
	char dir[64];
	char path[128];
	struct gpu_synth_ids ids;
	void *tracing;
	size_t tracing_len;
	char out[OUT_SIZE];
	char ref[OUT_SIZE];
};

FIXTURE_SETUP(script)
{
	self->tracing = fence_tracing_data(&self->ids, &self->tracing_len);
	ASSERT_NE(NULL, self->tracing);
	snprintf(self->dir, sizeof(self->dir), "/tmp/perf_gpu_script.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
}

FIXTURE_TEARDOWN(script)
{
	char out[256];

	free(self->tracing);
	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

static int sample(struct perf_data_writer *w, unsigned int ev, int32_t pid,
		  uint32_t cpu, uint64_t time, const void *raw, ssize_t len)
{
	struct perf_data_sample s = {
		.event = ev, .pid = pid, .tid = pid, .cpu = cpu, .time = time,
		.raw = raw, .raw_size = len,
	};

	return len < 0 ? (int)len : perf_data_write_sample(w, &s);
}

static int oa(struct perf_data_writer *w, FIXTURE_DATA(script) *self,
	      int32_t pid, uint64_t time, uint64_t gpu_time,
	      const struct oa_vals *v)
{
	uint8_t report[256], buf[512];

	make_report(report, v);
	return sample(w, EV_OA, pid, 0, time, buf,
		      gpu_oa_report_payload(buf, sizeof(buf), self->ids.oa_report,
					    pid, gpu_time, v->ctx, v->reason,
					    report, sizeof(report)));
}

static int fdinfo(struct perf_data_writer *w, FIXTURE_DATA(script) *self,
		  int32_t pid, uint64_t time, uint64_t client, uint32_t fd,
		  const char *stats)
{
	uint8_t buf[512];

	return sample(w, EV_FDINFO, pid, 1, time, buf,
		      gpu_client_fdinfo_payload(buf, sizeof(buf), self->ids.fdinfo,
						pid, client, fd, "i915",
						"0000:00:02.0", stats));
}

/*
 * Three OA reports of one stream: from the first to the second the
 * timestamp moves 19200, the clock 1000, A0 5, A32 7, B0 2; from the
 * second to the third A1 goes from 0x0ffffffff to 0x100000003 (4, over
 * the 32-bit low half into the high byte) and C7 wraps from 0xfffffff0
 * to 0x54 (100).  A LOST record of 3 OA reports between.
 */
static const struct oa_vals r1 = { 0x1, 1000, 0x2a, 500, 10, 0xffffffff, 0, 1, 0xfffffff0 };
static const struct oa_vals r2 = { 0x9, 20200, 0x2b, 1500, 15, 0xffffffff, 7, 3, 0xfffffff0 };
static const struct oa_vals r3 = { 0x20, 39400, 0x2a, 2500, 15, 0x100000003ull, 7, 3, 0x54 };

static void make_file(struct __test_metadata *_metadata,
		       FIXTURE_DATA(script) *self, int many)
{
	const struct perf_data_event events[NR_EV] = {
		[EV_OA] = { "gpu_oa:oa_report", self->ids.oa_report },
		[EV_FDINFO] = { "gpu_client:fdinfo", self->ids.fdinfo },
		[EV_FENCE] = { "dma_fence:dma_fence_signaled", FENCE_ID },
	};
	struct perf_data_writer *w = perf_data_create(self->path, events, NR_EV);
	uint8_t buf[128];
	int err = 0, i;

	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, perf_data_set_tracing_data(w, self->tracing, self->tracing_len));
	err = err ?: perf_data_write_comm(w, 1200, 1200, "glxgears", 1000000000);
	err = err ?: perf_data_write_comm(w, 1300, 1300, "vkcube", 1000000000);
	err = err ?: oa(w, self, 1200, 1000100000, 19200000000ull, &r1);
	err = err ?: sample(w, EV_FENCE, 1200, 1, 1000200000, buf,
			    fence_payload(buf, 1200, "i915", "gt0:rcs0", 7, 42));
	err = err ?: fdinfo(w, self, 1300, 1000300000, 12, 9,
			    "drm-engine-render=5000000 ns");
	err = err ?: oa(w, self, 1300, 1000400000, 19200019200ull, &r2);
	err = err ?: perf_data_write_lost(w, EV_OA, 3, 1000450000);
	err = err ?: oa(w, self, 1200, 1000500000, 19200038400ull, &r3);
	err = err ?: fdinfo(w, self, 1400, 1000500000, 11, 4,
			    "drm-engine-render=1000 ns drm-engine-copy=0 ns");
	for (i = 0; i < many && !err; i++)
		err = sample(w, EV_FENCE, 1200 + i % 3 * 100, i % 4,
			     2000000000ull + i * 1000, buf,
			     fence_payload(buf, 1200, "i915", "gt0:bcs0", 8, i));
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, perf_data_close(w));
}

/*
 * The lines: perf script's layout (comm %16s, tid %5d, [cpu], time, the
 * event name right-aligned to the longest), pid 1400 without COMM shown
 * as ":1400"; OA lines end in the deltas, none for the first report.
 */
static const char expected[] =
	"        glxgears  1200 [000]     1.000100000:             gpu_oa:oa_report: gpu_time=19200000000 ctx_id=0x2a reason=timer report_size=256\n"
	"        glxgears  1200 [001]     1.000200000: dma_fence:dma_fence_signaled: driver=i915 timeline=gt0:rcs0 context=7 seqno=42\n"
	"          vkcube  1300 [001]     1.000300000:            gpu_client:fdinfo: driver=i915 pdev=0000:00:02.0 client_id=12 fd=9 drm-engine-render=5000000 ns\n"
	"          vkcube  1300 [000]     1.000400000:             gpu_oa:oa_report: gpu_time=19200019200 ctx_id=0x2b reason=timer|ctx_switch report_size=256 d_ts=19200 d_clk=1000 a0=5 a32=7 b0=2\n"
	"        glxgears  1200 [000]     1.000500000:             gpu_oa:oa_report: gpu_time=19200038400 ctx_id=0x2a reason=clk_ratio report_size=256 d_ts=19200 d_clk=1000 a1=4 c7=100\n"
	"           :1400  1400 [001]     1.000500000:            gpu_client:fdinfo: driver=i915 pdev=0000:00:02.0 client_id=11 fd=4 drm-engine-render=1000 ns drm-engine-copy=0 ns\n"
	"lost 3 events\n"
	"lost 3 OA reports (gpu_oa:oa_report)\n";

TEST_F(script, prints_the_expected_lines)
{
	make_file(_metadata, self, 0);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s script --ns -i %s",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_STREQ(expected, self->out);

	/* Default microseconds, truncated as perf does; -F picks fields. */
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "cd %s && %s script -F comm,pid,time,event | head -2",
			     self->dir, perf_gpu_path())) TH_LOG("%s", self->out);
	EXPECT_STREQ("        glxgears  1200     1.000100:             gpu_oa:oa_report:\n"
		     "        glxgears  1200     1.000200: dma_fence:dma_fence_signaled:\n",
		     self->out);
}

/* Lines of @s, cut in place; their number. */
static int split_lines(char *s, char **lines, int max)
{
	int n = 0;

	while (*s && n < max) {
		char *nl = strchr(s, '\n');

		lines[n++] = s;
		if (!nl)
			break;
		*nl = '\0';
		s = nl + 1;
	}
	return n;
}

TEST_F(script, same_events_in_the_same_order_as_perf_script)
{
	static char *ours[4096], *theirs[4096];
	int n_ours, n_theirs, i;

	SETUP_PROVIDES(!access(perf_bin(), X_OK), "%s (package linux-perf)", perf_bin());
	make_file(_metadata, self, 1000);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s script --ns -i %s",
			     perf_gpu_path(), self->path));
	/* perf warns about the LOST record on stderr: not an event. */
	ASSERT_EQ(0, run_cmd(self->ref, sizeof(self->ref),
			     "{ %s script --ns -i %s 2>/dev/null; }",
			     perf_bin(), self->path)) TH_LOG("%s", self->ref);
	n_ours = split_lines(self->out, ours, 4096);
	n_theirs = split_lines(self->ref, theirs, 4096);
	/* Ours ends in the two lines about lost records. */
	ASSERT_EQ(1006 + 2, n_ours);
	ASSERT_EQ(1006, n_theirs);
	/*
	 * comm, pid, cpu, time, event and the payload's text are perf's
	 * whole line; OA lines add the deltas after it.
	 */
	for (i = 0; i < n_theirs; i++)
		ASSERT_EQ(0, strncmp(ours[i], theirs[i], strlen(theirs[i])))
			TH_LOG("line %d:\n%s\n%s", i, ours[i], theirs[i]);
}

/* perf gpu script on @path: see one_error_line(). */
static int check_one(FIXTURE_DATA(script) *self, const char *path, char *why,
		     size_t why_size)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "{ timeout 10 %s script -i %s 2>&1 >/dev/null; }",
		 perf_gpu_path(), path);
	return one_error_line("script", path, cmd, self->out, sizeof(self->out),
			      why, why_size);
}

/* The header, ids, attrs and the first records: every byte. */
#define DENSE 1400

static int check_cb(void *self, const char *path, char *why, size_t why_size)
{
	return check_one(self, path, why, why_size);
}

/* Some 1500 runs of the sanitizer build, 20 to 40 ms each. */
TEST_F_TIMEOUT(script, cut_files_give_one_error_line, 1200)
{
	struct corrupt_run r;
	char cut[160], why[256];
	uint8_t *file;
	size_t len;

	make_file(_metadata, self, 20);
	file = slurp(self->path, &len);
	ASSERT_NE(NULL, file);
	ASSERT_LT(DENSE, len);
	snprintf(cut, sizeof(cut), "%s/cut.data", self->dir);
	EXPECT_EQ(0, corrupt_cuts(file, len, DENSE, cut, check_cb, self, &r))
		TH_LOG("cut at %zu: %s", r.at, r.why);
	/* Cut short, a file is never whole: every cut is an error. */
	EXPECT_EQ(r.runs, r.errors);
	EXPECT_EQ(0, check_one(self, self->path, why, sizeof(why))) TH_LOG("%s", why);
	TH_LOG("%d cuts, %d errors (dense part: every %zu from %zu)",
	       r.runs, r.errors, r.stride, r.first);
	free(file);
}

TEST_F_TIMEOUT(script, flipped_bytes_never_crash, 1200)
{
	struct corrupt_run r;
	char bad[160];
	uint8_t *file;
	size_t len;

	make_file(_metadata, self, 20);
	file = slurp(self->path, &len);
	ASSERT_NE(NULL, file);
	snprintf(bad, sizeof(bad), "%s/bad.data", self->dir);
	/*
	 * Every byte of the start; then every 3rd, which goes through the
	 * records and the tracing data (format texts, sizes) at the end.
	 */
	EXPECT_EQ(0, corrupt_flips(file, len, DENSE, 3, bad, check_cb, self, &r))
		TH_LOG("flip at %zu: %s", r.at, r.why);
	TH_LOG("%d flips, %d errors (dense part: every %zu from %zu)",
	       r.runs, r.errors, r.stride, r.first);
	free(file);
}

/*
 * What make_device_file() writes: a gpu_oa:oa_device sample, then two
 * reports: zeros, then @second.  Slice 0 of the topology has subslice
 * mask @ss and 16 EUs each; no topology when @ss is 0.
 */
struct device_file {
	uint32_t device, format;
	const char *set, *uuid;
	uint8_t ss;
	uint8_t second[256];
};

static void make_device_file(struct __test_metadata *_metadata,
			     FIXTURE_DATA(script) *self,
			     const struct device_file *f)
{
	const struct perf_data_event events[] = {
		{ "gpu_oa:oa_report", self->ids.oa_report },
		{ "gpu_oa:oa_device", self->ids.oa_device },
	};
	struct perf_data_writer *w = perf_data_create(self->path, events, 2);
	struct gpuprof_oa_device_info di = {
		.timestamp_frequency = 19200000, .device_id = f->device,
		.oa_format = f->format, .gt_min_frequency = 100000000,
		.gt_max_frequency = 1300000000,
	};
	union oa_topology topo;
	size_t topo_len = tgl_topology(&topo, f->ss);
	struct gpuprof_oa_driver drv = { .kernel = 0x060c00 };
	const uint8_t zeros[256] = { 0 };
	const uint8_t *r[2] = { zeros, f->second };
	uint8_t buf[1024];
	int err = 0, i;

	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, perf_data_set_tracing_data(w, self->tracing, self->tracing_len));
	snprintf(di.metric_set_name, sizeof(di.metric_set_name), "%s",
		 f->set ? f->set : "RenderBasic");
	snprintf(di.metric_set_uuid, sizeof(di.metric_set_uuid), "%s",
		 f->uuid ? f->uuid : "");
	err = sample(w, 1, 0, 0, 1000000000, buf,
		     gpu_oa_device_payload(buf, sizeof(buf), self->ids.oa_device,
					   &di, &drv, f->ss ? &topo : NULL,
					   f->ss ? topo_len : 0));
	for (i = 0; i < 2 && !err; i++)
		err = sample(w, 0, 0, 0, 1000000001 + i, buf,
			     gpu_oa_report_payload(buf, sizeof(buf),
						   self->ids.oa_report, 0,
						   19200 * i, 0x100, 1, r[i],
						   256));
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, perf_data_close(w));
}

/*
 * The second report's line of a file of two reports of format @fmt on
 * @device, in self->out: A4 and A37 move (format 12 puts A4's 40 bits
 * at dword 8 and high byte 164, A37 at dword 46).
 */
static int second_report(struct __test_metadata *_metadata,
			 FIXTURE_DATA(script) *self, uint32_t device,
			 uint32_t fmt)
{
	struct device_file f = { .device = device, .format = fmt };

	put32(f.second, 4, 19200);
	put32(f.second, 32, 5);
	f.second[164] = 1;
	put32(f.second, 184, 9);
	make_device_file(_metadata, self, &f);
	return run_cmd(self->out, sizeof(self->out), "%s script -i %s | tail -1",
		       perf_gpu_path(), self->path);
}

TEST_F(script, reports_follow_their_device_layout)
{
	/* DG2 on 6.12: format 12's layout. */
	ASSERT_EQ(0, second_report(_metadata, self, 0x56a0, 12));
	EXPECT_NE(NULL, strstr(self->out, " d_ts=19200 d_clk=0 a4=4294967301 a37=9\n"))
		TH_LOG("%s", self->out);
	/* A device the decoder does not know: no deltas, not wrong ones. */
	ASSERT_EQ(0, second_report(_metadata, self, 0x1234, 12));
	EXPECT_EQ(NULL, strstr(self->out, "d_ts=")) TH_LOG("%s", self->out);
	/* Tiger Lake's format 10 reads byte 184 as A24's high byte. */
	ASSERT_EQ(0, second_report(_metadata, self, 0x9a49, 10));
	EXPECT_NE(NULL, strstr(self->out, " d_ts=19200 d_clk=0 a4=4294967301 a24=38654705664\n"))
		TH_LOG("%s", self->out);
}

/*
 * Tiger Lake GT2 with the set named @set and @uuid, slice 0's subslice
 * mask @ss, and two format 10 reports 1 ms apart: 1100000 GPU clocks,
 * A0 (busy) 550000.
 */
static void make_metrics_file(struct __test_metadata *_metadata,
			      FIXTURE_DATA(script) *self, uint32_t device,
			      const char *set, const char *uuid, uint8_t ss)
{
	struct device_file f = {
		.device = device, .format = 10, .set = set, .uuid = uuid,
		.ss = ss,
	};

	put32(f.second, 4, 19200);
	put32(f.second, 12, 1100000);
	put32(f.second, 16, 550000);
	make_device_file(_metadata, self, &f);
}

static int count_lines(const char *out, const char *what)
{
	int n = 0;

	for (; (out = strstr(out, what)); out++)
		n++;
	return n;
}

#define RENDER_BASIC_UUID "0fc397c0-4833-492c-9ccd-4929d574d5b8"

TEST_F(script, oa_metrics_field)
{
	const char *want = " d_ts=19200 d_clk=1100000 a0=550000 GpuTime=1000000"
			   " GpuCoreClocks=1100000 AvgGpuCoreFrequency=1100000000"
			   " VsThreads=0 HsThreads=0 DsThreads=0 GsThreads=0"
			   " PsThreads=0 CsThreads=0 GpuBusy=50.000000"
			   " EuActive=0.000000 EuStall=0.000000"
			   " EuThreadOccupancy=0.000000 Sampler00Busy=0.000000";

	make_metrics_file(_metadata, self, 0x9a49, "RenderBasic", "", 0x3f);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s script -i %s -F event,trace,oa-metrics",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, want)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, " GtiWriteThroughput=0\n"))
		TH_LOG("%s", self->out);
	/* Not on the first report, and not without the field. */
	EXPECT_EQ(1, count_lines(self->out, "GpuTime=")) TH_LOG("%s", self->out);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s script -i %s",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strstr(self->out, "GpuTime=")) TH_LOG("%s", self->out);
	/* By uuid before name; no topology: no sampler on subslice 0. */
	make_metrics_file(_metadata, self, 0x9a49, "ComputeBasic",
			  RENDER_BASIC_UUID, 0);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s script -i %s -F trace,oa-metrics",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, " GpuBusy=50.000000 EuActive=0.000000"))
		TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strstr(self->out, "Sampler00Busy=")) TH_LOG("%s", self->out);
	/* A set or device the table lacks: no metrics, no error. */
	make_metrics_file(_metadata, self, 0x9a49, "NoSuchSet", "", 0x3f);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s script -i %s -F trace,oa-metrics",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, " a0=550000\n")) TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strstr(self->out, "GpuTime=")) TH_LOG("%s", self->out);
	make_metrics_file(_metadata, self, 0x56a0, "RenderBasic", "", 0x3f);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s script -i %s -F trace,oa-metrics",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strstr(self->out, "GpuTime=")) TH_LOG("%s", self->out);
}

TEST_F(script, not_a_file)
{
	char why[256];

	EXPECT_EQ(1, check_one(self, "/nonexistent/perf.data", why, sizeof(why)))
		TH_LOG("%s", why);
	EXPECT_EQ(1, check_one(self, "/dev/null", why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(1, check_one(self, self->dir, why, sizeof(why))) TH_LOG("%s", why);
}

TEST_HARNESS_MAIN
