// SPDX-License-Identifier: GPL-2.0-only
/*
 * The OA clock's correlation points where users read them: a recording
 * made here with the perf.data writer holds three gpu_oa:oa_correlation
 * samples, bounds of 900 ns and 2500 ns and one point without a bound,
 * around one job.  perf gpu script prints each point with its bound (so
 * does the distribution's perf script, from the same format), and perf
 * gpu report gives the worst bound in its header, in text, CSV and JSON.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/fence_format.h"
#include "../lib/gpu_formats.h"
#include "../lib/run.h"
#include "../lib/setup_provides.h"
#include "../../tools/perf-gpu/perfdata/write.h"
#include "../../tools/perf-gpu/perfdata/tracing-data.h"

#define T0	2000000000ull	/* 2 s of CLOCK_MONOTONIC */
#define MS	1000000ull

enum { EV_INIT, EV_SIG, EV_CORR, NR_EV };

FIXTURE(clk) {
	char dir[64];
	char path[128];
	void *tracing;
	size_t tracing_len;
	struct gpu_synth_ids ids;
	char out[65536];
};

FIXTURE_SETUP(clk)
{
	self->tracing = gpu_tracing_data(&self->ids, &self->tracing_len);
	ASSERT_NE(NULL, self->tracing);
	snprintf(self->dir, sizeof(self->dir), "/tmp/perf_gpu_oa_clock.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
}

FIXTURE_TEARDOWN(clk)
{
	char out[256];

	free(self->tracing);
	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

/* Points at 0, 10 and 20 ms; the job runs from 5 to 15 ms. */
static void make_file(struct __test_metadata *_metadata,
		      FIXTURE_DATA(clk) *self)
{
	const struct perf_data_event events[NR_EV] = {
		[EV_INIT] = { "dma_fence:dma_fence_init", FENCE_INIT_ID },
		[EV_SIG] = { "dma_fence:dma_fence_signaled", FENCE_ID },
		[EV_CORR] = { "gpu_oa:oa_correlation", self->ids.oa_correlation },
	};
	struct perf_data_writer *w = perf_data_create(self->path, events, NR_EV);
	uint16_t id = self->ids.oa_correlation;
	uint8_t buf[256];
	int err;

	ASSERT_NE(NULL, w);
	err = perf_data_set_tracing_data(w, self->tracing, self->tracing_len);
	err = err ?: perf_data_write_comm(w, 100, 100, "zeta", T0);
	err = err ?: raw_sample(w, EV_CORR, 0, T0, buf,
			    gpu_oa_correlation_payload(buf, sizeof(buf), id, T0,
						       1000, 900, true));
	err = err ?: raw_sample(w, EV_INIT, 100, T0 + 5 * MS, buf,
			    fence_init_payload(buf, 100, "i915", "rcs0", 1, 1));
	err = err ?: raw_sample(w, EV_CORR, 0, T0 + 10 * MS, buf,
			    gpu_oa_correlation_payload(buf, sizeof(buf), id,
						       T0 + 10 * MS, 193000,
						       0, false));
	err = err ?: raw_sample(w, EV_SIG, 0, T0 + 15 * MS, buf,
			    fence_payload(buf, 0, "i915", "rcs0", 1, 1));
	err = err ?: raw_sample(w, EV_CORR, 0, T0 + 20 * MS, buf,
			    gpu_oa_correlation_payload(buf, sizeof(buf), id,
						       T0 + 20 * MS, 385000,
						       2500, true));
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, perf_data_close(w));
}

/* The lines of @out that contain @what, each ending in a newline. */
static void grep(const char *out, const char *what, char *dst, size_t size)
{
	const char *line = out, *nl;
	size_t len = 0, n;

	dst[0] = '\0';
	for (; *line; line = nl + 1) {
		nl = strchrnul(line, '\n');
		n = nl - line;
		if (memmem(line, n, what, strlen(what)) && len + n + 2 <= size) {
			memcpy(dst + len, line, n);
			len += n;
			dst[len++] = '\n';
			dst[len] = '\0';
		}
		if (!*nl)
			break;
	}
}

/* What each point's line ends in, in perf script's and ours. */
static const char want_points[] =
	"cpu_time=2000000000 gpu_time=1000 bound_ns=900\n"
	"cpu_time=2010000000 gpu_time=193000 bound_ns=0 (no bound recorded)\n"
	"cpu_time=2020000000 gpu_time=385000 bound_ns=2500\n";

/* The oa_correlation lines of a script's output, from "cpu_time=" on. */
static void points_of(const char *out, char *dst, size_t size)
{
	char lines[4096], *line, *save = NULL, *at;
	size_t len = 0;

	grep(out, "oa_correlation:", lines, sizeof(lines));
	dst[0] = '\0';
	for (line = strtok_r(lines, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		at = strstr(line, "cpu_time=");
		if (at)
			len += snprintf(dst + len, size - len, "%s\n", at);
	}
}

TEST_F(clk, script_prints_each_point_with_its_bound)
{
	char got[4096];

	make_file(_metadata, self);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s script -i %s",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	points_of(self->out, got, sizeof(got));
	EXPECT_STREQ(want_points, got) TH_LOG("%s", self->out);
}

TEST_F(clk, stock_perf_script_prints_the_same)
{
	char got[4096];

	SETUP_PROVIDES(!access(perf_bin(), X_OK), "%s (package linux-perf)", perf_bin());
	make_file(_metadata, self);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "{ %s script -i %s 2>/dev/null; }", perf_bin(),
			     self->path)) TH_LOG("%s", self->out);
	points_of(self->out, got, sizeof(got));
	EXPECT_STREQ(want_points, got) TH_LOG("%s", self->out);
}

TEST_F(clk, report_header_gives_the_worst_bound)
{
	static const char want[] =
		"# OA clock: 3 correlation points, worst bound 2500 ns, 1 without a bound\n";
	char got[1024];

	make_file(_metadata, self);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report -i %s",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	grep(self->out, "# OA clock:", got, sizeof(got));
	EXPECT_STREQ(want, got) TH_LOG("%s", self->out);

	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s report --format=csv -i %s", perf_gpu_path(),
			     self->path)) TH_LOG("%s", self->out);
	grep(self->out, "# OA clock:", got, sizeof(got));
	EXPECT_STREQ(want, got) TH_LOG("%s", self->out);

	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s report --format=json -i %s | python3 -c '"
			     "import json, sys; o = json.load(sys.stdin)[\"oa\"]; "
			     "print(o[\"correlation_points\"], o[\"correlation_bounded\"], "
			     "o[\"correlation_worst_bound_ns\"])'",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_STREQ("3 2 2500\n", self->out);
}

/* A recording without OA says nothing of its clock. */
TEST_F(clk, no_points_no_line)
{
	const struct perf_data_event events[1] = {
		{ "dma_fence:dma_fence_signaled", FENCE_ID },
	};
	struct perf_data_writer *w = perf_data_create(self->path, events, 1);
	uint8_t buf[256];

	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, perf_data_set_tracing_data(w, self->tracing,
						self->tracing_len));
	ASSERT_EQ(0, raw_sample(w, 0, 0, T0, buf,
			    fence_payload(buf, 0, "i915", "rcs0", 1, 1)));
	ASSERT_EQ(0, perf_data_close(w));
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report -i %s",
			     perf_gpu_path(), self->path)) TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strstr(self->out, "OA clock")) TH_LOG("%s", self->out);
}

TEST_HARNESS_MAIN
