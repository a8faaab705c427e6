// SPDX-License-Identifier: GPL-2.0-only
/*
 * doc_recording FILE: write the perf.data that the host examples of
 * Documentation/ read (selftests/scripts/doc_examples.py puts it in each
 * example's directory as perf.data).  Made with the perf.data writer of
 * tools/perf-gpu, so its content is known exactly and the examples can
 * show exact output:
 *
 * 100 ms from CLOCK_MONOTONIC 10 s, on i915: "glmark2" (pid 2001) draws
 * six frames 16.667 ms apart, each marked "begin frame" / "end frame" on
 * /dev/gpuprof/marker, with one 6 ms job on timeline "rcs0"; "kwin_wayland"
 * (pid 1500) composes each frame with a 2 ms job on "rcs0" too; vblanks
 * on CRTC 0 at 60 Hz with the fourth missing (one missed frame); an OA
 * report every millisecond (Tiger Lake timestamps at 19.2 MHz, GPU clock
 * at 1100 MHz, A0 counting the clock while a job runs) carrying the
 * context id of the job running, 0x10 for glmark2 and 0x20 for
 * kwin_wayland.  Samples carry cgroup ids, as perf gpu record's do:
 * glmark2 in /user.slice/bench.scope, kwin_wayland in
 * /user.slice/session-2.scope, the interrupt handler (pid 0) in the root;
 * CGROUP records name the three.
 *
 * doc_recording FILE --oa-device: the same with a gpu_oa:oa_device
 * sample before the first report (Tiger Lake GT2 0x9a49, its RenderBasic
 * set, one slice of six subslices), so that --oa-metrics can name the
 * reports' counters (host/perf_gpu_convert_test.c).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/gpu_formats.h"
#include "../lib/oa_topology.h"
#include "../../uapi/gpuprof_oa.h"
#include "../../tools/perf-gpu/perfdata/write.h"
#include "../../tools/perf-gpu/perfdata/tracing-data.h"

#define MS	1000000ull
#define T0	(10000 * MS)
#define FRAME	16666667ull
#define FRAMES	6

enum { EV_INIT, EV_SIG, EV_VBL, EV_MARK, EV_OA, EV_DEV, NR_EV };
enum { R_SAMPLE, R_COMM };

struct rec {
	uint64_t time;
	size_t seq;		/* order of addition: ties keep it */
	int type;
	unsigned int ev;
	int32_t pid;
	uint8_t payload[512];
	size_t len;
	char comm[16];
};

static struct rec recs[512];
static size_t nr_recs;
static struct gpu_synth_ids ids;

static struct rec *add(int type, unsigned int ev, int32_t pid, uint64_t time)
{
	struct rec *r;

	if (nr_recs == sizeof(recs) / sizeof(recs[0]))
		abort();
	r = &recs[nr_recs];
	memset(r, 0, sizeof(*r));
	r->seq = nr_recs++;
	r->type = type;
	r->ev = ev;
	r->pid = pid;
	r->time = time;
	return r;
}

static void comm(int32_t pid, const char *name)
{
	snprintf(add(R_COMM, 0, pid, T0)->comm, 16, "%s", name);
}

/* The cgroups of the processes, as a machine with systemd has them. */
static const struct {
	int32_t pid;
	uint64_t id;
	const char *path;
} cgroups[] = {
	{ 0, 1, "/" },
	{ 1500, 4141, "/user.slice/session-2.scope" },
	{ 2001, 4242, "/user.slice/bench.scope" },
};

static uint64_t cgroup_of(int32_t pid)
{
	size_t i;

	for (i = 0; i < sizeof(cgroups) / sizeof(cgroups[0]); i++)
		if (cgroups[i].pid == pid)
			return cgroups[i].id;
	return 0;
}

/* A job of @pid on i915/rcs0, context @ctx: init at @init, signal at @end. */
static void job(int32_t pid, uint32_t ctx, uint32_t seqno, uint64_t init,
		uint64_t end)
{
	struct rec *r = add(R_SAMPLE, EV_INIT, pid, init);

	r->len = fence_init_payload(r->payload, pid, "i915", "rcs0", ctx, seqno);
	/* Signals come from the interrupt handler: pid 0. */
	r = add(R_SAMPLE, EV_SIG, 0, end);
	r->len = fence_payload(r->payload, 0, "i915", "rcs0", ctx, seqno);
}

static void mark(int32_t pid, const char *text, uint64_t time)
{
	struct rec *r = add(R_SAMPLE, EV_MARK, pid, time);

	r->len = mark_payload(r->payload, pid, text);
}

static void vblank(uint32_t seq, uint64_t time)
{
	struct rec *r = add(R_SAMPLE, EV_VBL, 0, time);

	r->len = vblank_payload(r->payload, 0, 0, seq, time);
}

/* OA report @i at T0 + @i ms; @ctx the context running, or none. */
static void oa(uint32_t i, uint32_t ctx, int32_t pid, uint64_t *busy)
{
	const uint64_t ts = 192000000ull + i * 19200ull;
	uint32_t rep[64] = {};
	struct rec *r = add(R_SAMPLE, EV_OA, pid, T0 + i * MS);
	ssize_t n;

	if (ctx != GPUPROF_OA_NO_CONTEXT)
		*busy += 1100000;
	rep[0] = GPUPROF_OA_REASON_TIMER << 19 |
		 (ctx != GPUPROF_OA_NO_CONTEXT ? 1u << 16 : 0);
	rep[1] = (uint32_t)ts;
	rep[2] = ctx != GPUPROF_OA_NO_CONTEXT ? ctx : 0;
	rep[3] = 1100000u * i;		/* GPU clock ticks, 1100 MHz */
	rep[4] = (uint32_t)*busy;	/* A0: ticks while a job runs */
	n = gpu_oa_report_payload(r->payload, sizeof(r->payload), ids.oa_report,
				  pid, ts, ctx, GPUPROF_OA_REASON_TIMER, rep,
				  sizeof(rep));
	if (n < 0)
		abort();
	r->len = n;
}

/* The OA unit of the reports: a Tiger Lake GT2 running RenderBasic. */
static void oa_device(void)
{
	struct gpuprof_oa_device_info info = {
		.timestamp_frequency = 19200000, .device_id = 0x9a49,
		.oa_format = GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8,
		.gt_min_frequency = 100000000, .gt_max_frequency = 1300000000,
		.metric_set_name = "RenderBasic",
	};
	struct gpuprof_oa_driver driver = { .kernel = 0x060c00 };
	struct rec *r = add(R_SAMPLE, EV_DEV, 0, T0);
	union oa_topology topo;
	size_t topo_len = tgl_topology(&topo, 0x3f);
	ssize_t n;

	n = gpu_oa_device_payload(r->payload, sizeof(r->payload), ids.oa_device,
				  &info, &driver, &topo, topo_len);
	if (n < 0)
		abort();
	r->len = n;
}

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int main(int argc, char **argv)
{
	struct perf_data_event events[NR_EV] = {
		[EV_INIT] = { "dma_fence:dma_fence_init", FENCE_INIT_ID },
		[EV_SIG] = { "dma_fence:dma_fence_signaled", FENCE_ID },
		[EV_VBL] = { "drm:drm_vblank_event", VBLANK_ID },
		[EV_MARK] = { "gpuprof:gpuprof_mark", MARK_ID },
	};
	struct perf_data_writer *w;
	uint64_t busy = 0, t;
	size_t tracing_len, i;
	void *tracing;
	bool with_device = argc == 3 && !strcmp(argv[2], "--oa-device");
	int err = 0, f, nr_ev = with_device ? NR_EV : EV_DEV;

	if (argc != 2 && !with_device) {
		fprintf(stderr, "usage: doc_recording FILE [--oa-device]\n");
		return 2;
	}
	tracing = gpu_tracing_data(&ids, &tracing_len);
	if (!tracing)
		return perror("tracing data"), 1;
	events[EV_OA] = (struct perf_data_event){ "gpu_oa:oa_report", ids.oa_report };
	events[EV_DEV] = (struct perf_data_event){ "gpu_oa:oa_device", ids.oa_device };

	comm(1500, "kwin_wayland");
	comm(2001, "glmark2");
	for (f = 0; f < FRAMES; f++) {
		t = T0 + f * FRAME;
		mark(2001, "begin frame", t + MS / 2);
		job(2001, 1, f + 1, t + 1 * MS, t + 7 * MS);
		mark(2001, "end frame", t + 8 * MS);
		job(1500, 2, f + 1, t + 10 * MS, t + 12 * MS);
		if (f != 3)
			vblank(f + 1, t + FRAME);
	}
	if (with_device)
		oa_device();
	/* Reports at whole ms: glmark2 runs in [1, 7), kwin in [10, 12). */
	for (i = 0; i <= 100; i++) {
		uint64_t in = (i * MS) % FRAME;

		if (i * MS >= FRAMES * FRAME)
			oa(i, GPUPROF_OA_NO_CONTEXT, 0, &busy);
		else if (in > 1 * MS && in <= 7 * MS)
			oa(i, 0x10, 2001, &busy);
		else if (in > 10 * MS && in <= 12 * MS)
			oa(i, 0x20, 1500, &busy);
		else
			oa(i, GPUPROF_OA_NO_CONTEXT, 0, &busy);
	}

	qsort(recs, nr_recs, sizeof(recs[0]), cmp_rec);
	w = perf_data_create(argv[1], events, nr_ev);
	if (!w)
		return perror(argv[1]), 1;
	err = perf_data_set_tracing_data(w, tracing, tracing_len);
	for (i = 0; i < sizeof(cgroups) / sizeof(cgroups[0]) && !err; i++)
		err = perf_data_write_cgroup(w, cgroups[i].id, cgroups[i].path, T0);
	for (i = 0; i < nr_recs && !err; i++) {
		struct rec *r = &recs[i];
		struct perf_data_sample s = {
			.event = r->ev, .pid = r->pid, .tid = r->pid,
			.time = r->time, .raw = r->payload, .raw_size = r->len,
			.cgroup = cgroup_of(r->pid),
		};

		if (r->type == R_SAMPLE)
			err = perf_data_write_sample(w, &s);
		else
			err = perf_data_write_comm(w, r->pid, r->pid, r->comm,
						   r->time);
	}
	free(tracing);
	if (err) {
		perf_data_abort(w);
		fprintf(stderr, "%s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	err = perf_data_close(w);
	if (err)
		return fprintf(stderr, "%s: %s\n", argv[1], strerror(-err)), 1;
	return 0;
}
