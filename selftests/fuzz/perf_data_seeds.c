// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf_data_seeds DIR: small perf.data files for the perf_data fuzz
 * target's seeds, written with the perf.data writer of tools/perf-gpu and
 * the formats of selftests/lib/gpu_formats.h, as the host tests make
 * theirs (host/doc_recording.c).  Small on purpose: the fuzzer mutates
 * every byte, and each pass over a file costs in proportion to its size.
 *
 *   jobs.data    two clients with COMM records, jobs on two timelines, a
 *                job never signaled, a signal without its init, a fence
 *                destroyed unsignaled, a LOST record of dma_fence_init
 *   frames.data  vblanks on two CRTCs (one missed), OA reports with a
 *                change of context and a LOST record of gpu_oa:oa_report,
 *                begin/end marks on gpuprof:gpuprof_mark and ftrace:print,
 *                fdinfo snapshots
 *   cgroups.data CGROUP records, and jobs of three processes whose
 *                samples carry cgroup ids: two in one named cgroup, one
 *                in an id no record names
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/gpu_formats.h"
#include "../../uapi/gpuprof_oa.h"
#include "../../tools/perf-gpu/perfdata/write.h"
#include "../../tools/perf-gpu/perfdata/tracing-data.h"

#define MS	1000000ull
#define T0	(5000 * MS)

enum { EV_INIT, EV_SIG, EV_DESTROY, EV_VBL, EV_MARK, EV_PRINT, EV_OA,
       EV_FDINFO, NR_EV };

static struct gpu_synth_ids ids;
static void *tracing;
static size_t tracing_len;

static int fence(struct perf_data_writer *w, unsigned int ev, int32_t pid,
		 const char *timeline, uint32_t ctx, uint32_t seqno,
		 uint64_t time)
{
	uint8_t p[256];
	size_t n;

	if (ev == EV_INIT)
		n = fence_init_payload(p, pid, "i915", timeline, ctx, seqno);
	else if (ev == EV_SIG)
		n = fence_payload(p, pid, "i915", timeline, ctx, seqno);
	else
		n = fence_class_payload(p, FENCE_DESTROY_ID, pid, "i915",
					timeline, ctx, seqno);
	return raw_sample(w, ev, pid, time, p, n);
}

/* A fence sample of a process in cgroup @cgroup. */
static int fence_in(struct perf_data_writer *w, unsigned int ev, int32_t pid,
		    uint64_t cgroup, uint32_t ctx, uint32_t seqno, uint64_t time)
{
	uint8_t p[256];
	struct perf_data_sample s = {
		.event = ev, .pid = pid, .tid = pid, .time = time,
		.cgroup = cgroup, .raw = p,
	};

	s.raw_size = ev == EV_INIT ?
		     fence_init_payload(p, pid, "i915", "rcs0", ctx, seqno) :
		     fence_payload(p, pid, "i915", "rcs0", ctx, seqno);
	return perf_data_write_sample(w, &s);
}

static int write_cgroups(struct perf_data_writer *w)
{
	int err = 0;

	err |= perf_data_write_cgroup(w, 1, "/", T0);
	err |= perf_data_write_cgroup(w, 10, "/system.slice/a.service", T0);
	err |= fence_in(w, EV_INIT, 300, 10, 1, 1, T0 + 1 * MS);
	err |= fence_in(w, EV_INIT, 301, 10, 2, 1, T0 + 2 * MS);
	err |= fence_in(w, EV_INIT, 400, 99, 3, 1, T0 + 2 * MS);
	err |= fence_in(w, EV_SIG, 0, 1, 1, 1, T0 + 3 * MS);
	err |= fence_in(w, EV_SIG, 0, 1, 2, 1, T0 + 4 * MS);
	err |= perf_data_write_cgroup(w, 11, "/system.slice/b.service", T0 + 4 * MS);
	err |= fence_in(w, EV_SIG, 0, 1, 3, 1, T0 + 5 * MS);
	return err;
}

static int write_jobs(struct perf_data_writer *w)
{
	int err = 0;

	err |= perf_data_write_comm(w, 300, 300, "glxgears", T0);
	err |= perf_data_write_comm(w, 400, 400, "vkcube", T0);
	err |= fence(w, EV_INIT, 300, "rcs0", 1, 1, T0 + 1 * MS);
	err |= fence(w, EV_INIT, 400, "bcs0", 2, 1, T0 + 2 * MS);
	err |= fence(w, EV_SIG, 0, "rcs0", 1, 1, T0 + 4 * MS);
	err |= fence(w, EV_INIT, 300, "rcs0", 1, 2, T0 + 5 * MS);
	err |= fence(w, EV_SIG, 0, "bcs0", 2, 1, T0 + 6 * MS);
	err |= perf_data_write_lost(w, EV_INIT, 2, T0 + 7 * MS);
	/* A signal whose init was lost, and a job freed unsignaled. */
	err |= fence(w, EV_SIG, 0, "bcs0", 2, 5, T0 + 8 * MS);
	err |= fence(w, EV_INIT, 400, "bcs0", 2, 6, T0 + 9 * MS);
	err |= fence(w, EV_DESTROY, 400, "bcs0", 2, 6, T0 + 10 * MS);
	err |= fence(w, EV_SIG, 0, "rcs0", 1, 2, T0 + 11 * MS);
	/* Never signaled. */
	err |= fence(w, EV_INIT, 300, "rcs0", 1, 3, T0 + 12 * MS);
	return err;
}

static int oa(struct perf_data_writer *w, unsigned int i, uint32_t ctx)
{
	uint64_t ts = 96000000ull + i * 19200ull;
	uint32_t rep[64] = { 0 };
	uint8_t p[512];

	rep[0] = GPUPROF_OA_REASON_TIMER << 19 |
		 (ctx != GPUPROF_OA_NO_CONTEXT ? 1u << 16 : 0);
	rep[1] = (uint32_t)ts;
	rep[2] = ctx != GPUPROF_OA_NO_CONTEXT ? ctx : 0;
	rep[3] = 1000000u * i;
	rep[4] = 700000u * i;		/* A0 */
	rep[48] = 3u * i;		/* B0 */
	return raw_sample(w, EV_OA, 300, T0 + i * MS, p,
		      gpu_oa_report_payload(p, sizeof(p), ids.oa_report, 300,
					    ts, ctx, GPUPROF_OA_REASON_TIMER,
					    rep, sizeof(rep)));
}

static int write_frames(struct perf_data_writer *w)
{
	uint8_t p[512];
	int err = 0;

	err |= perf_data_write_comm(w, 300, 300, "glxgears", T0);
	err |= raw_sample(w, EV_MARK, 300, T0, p, mark_payload(p, 300, "begin frame"));
	err |= oa(w, 0, 0x10);
	err |= fence(w, EV_INIT, 300, "rcs0", 1, 1, T0 + MS / 2);
	err |= oa(w, 1, 0x10);
	err |= raw_sample(w, EV_VBL, 0, T0 + 1 * MS + 1, p,
		      vblank_payload(p, 0, 0, 10, T0 + 1 * MS));
	err |= oa(w, 2, 0x20);
	err |= fence(w, EV_SIG, 0, "rcs0", 1, 1, T0 + 2 * MS + 1);
	err |= raw_sample(w, EV_PRINT, 300, T0 + 2 * MS + 2, p,
		      print_payload(p, 300, "end frame\n"));
	err |= perf_data_write_lost(w, EV_OA, 1, T0 + 2 * MS + 3);
	err |= oa(w, 3, GPUPROF_OA_NO_CONTEXT);
	err |= raw_sample(w, EV_VBL, 0, T0 + 3 * MS, p,
		      vblank_payload(p, 0, 0, 11, T0 + 3 * MS));
	err |= raw_sample(w, EV_FDINFO, 300, T0 + 3 * MS + 1, p,
		      gpu_client_fdinfo_payload(p, sizeof(p), ids.fdinfo, 300,
						7, 5, "i915", "0000:00:02.0",
						"drm-engine-render=2000000 ns drm-total-system0=4 KiB"));
	err |= oa(w, 4, 0x20);
	err |= raw_sample(w, EV_VBL, 0, T0 + 4 * MS, p,
		      vblank_payload(p, 0, 1, 3, T0 + 4 * MS));
	/* CRTC 0 misses one. */
	err |= raw_sample(w, EV_VBL, 0, T0 + 7 * MS, p,
		      vblank_payload(p, 0, 0, 13, T0 + 7 * MS));
	err |= oa(w, 7, 0x20);
	return err;
}

static int write_file(const char *dir, const char *name,
		      int (*fill)(struct perf_data_writer *w))
{
	static const struct perf_data_event events[NR_EV] = {
		[EV_INIT] = { "dma_fence:dma_fence_init", FENCE_INIT_ID },
		[EV_SIG] = { "dma_fence:dma_fence_signaled", FENCE_ID },
		[EV_DESTROY] = { "dma_fence:dma_fence_destroy", FENCE_DESTROY_ID },
		[EV_VBL] = { "drm:drm_vblank_event", VBLANK_ID },
		[EV_MARK] = { "gpuprof:gpuprof_mark", MARK_ID },
		[EV_PRINT] = { "ftrace:print", PRINT_ID },
		[EV_OA] = { "gpu_oa:oa_report", 0 },
		[EV_FDINFO] = { "gpu_client:fdinfo", 0 },
	};
	struct perf_data_event ev[NR_EV];
	struct perf_data_writer *w;
	char path[4096];
	int err;

	memcpy(ev, events, sizeof(ev));
	ev[EV_OA].id = ids.oa_report;
	ev[EV_FDINFO].id = ids.fdinfo;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	w = perf_data_create(path, ev, NR_EV);
	if (!w)
		return perror(path), -1;
	err = perf_data_set_tracing_data(w, tracing, tracing_len);
	if (!err)
		err = fill(w) ? -EINVAL : 0;
	if (err) {
		perf_data_abort(w);
		fprintf(stderr, "%s: %s\n", path, strerror(-err));
		return -1;
	}
	err = perf_data_close(w);
	if (err)
		return fprintf(stderr, "%s: %s\n", path, strerror(-err)), -1;
	return 0;
}

int main(int argc, char **argv)
{
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: perf_data_seeds DIR\n");
		return 2;
	}
	tracing = gpu_tracing_data(&ids, &tracing_len);
	if (!tracing)
		return perror("tracing data"), 1;
	err = write_file(argv[1], "jobs.data", write_jobs) ||
	      write_file(argv[1], "frames.data", write_frames) ||
	      write_file(argv[1], "cgroups.data", write_cgroups);
	free(tracing);
	return err ? 1 : 0;
}
