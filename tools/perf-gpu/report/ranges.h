/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Ranges for perf gpu report, in the spirit of GL timer queries: spans of
 * a process's time that it marks itself, by writing "begin NAME" and
 * "end NAME" to /dev/gpuprof/marker (the gpuprof:gpuprof_mark event) or
 * to ftrace's trace_marker (ftrace:print, when the recording has it;
 * NAME is the rest of the line, spaces and all), or
 * that --range=EVENT1,EVENT2 makes from each EVENT1 sample to the next
 * EVENT2 sample of the same process.  Ranges nest: "end NAME" closes the
 * innermost open range of that name of that process.
 *
 * For each range: the elapsed CPU time (end - begin, CLOCK_MONOTONIC),
 * the GPU time the OA unit's timestamps measured across it (from the
 * first to the last OA report inside it), the GPU busy time of the
 * process's jobs inside it (the union of their running intervals, cut to
 * the range), and the OA deltas attributed to the process inside it.
 *
 * Built on the model's hooks (report/model.h): a job or an OA delta is
 * known when the model has it, which for a job is its signal, possibly
 * after the range has ended; so ranges are kept until the end of the
 * recording, at most REPORT_RANGES_MAX of them (more are counted as
 * dropped), and summed per name at the end.  All sums saturate.
 */
#ifndef PERF_GPU_REPORT_RANGES_H
#define PERF_GPU_REPORT_RANGES_H

#include <stdbool.h>
#include <stdint.h>

#include "report/model.h"
#include "util/map.h"

#define REPORT_RANGES_MAX	65536
#define REPORT_RANGE_NAME_MAX	64

/* One range as it was marked. */
struct report_range {
	char name[REPORT_RANGE_NAME_MAX];
	int32_t pid;
	uint64_t begin, end;
	bool closed;
	uint64_t busy_ns;		/* set by report_ranges_finish() */
	uint64_t gpu_first, gpu_last;	/* OA timestamps inside, ticks */
	bool have_gpu;
	uint64_t oa_reports;		/* reports (or parts) of the process */
	struct gpuprof_oa_deltas oa;	/* their deltas */
	uint64_t oa_last;		/* OA timestamp of the last one counted */
	bool oa_counted;
	/* Internal: the union of running intervals so far, in order. */
	struct report_segment *seg;
	uint32_t nr_seg;
	size_t alloc_seg;
	int32_t outer;			/* while open: the open range around it */
};

/* The ranges of one name, summed. */
struct report_range_sum {
	char name[REPORT_RANGE_NAME_MAX];
	uint64_t count;			/* closed ranges */
	uint64_t unclosed;		/* begun, never ended */
	uint64_t elapsed_ns, elapsed_min_ns, elapsed_max_ns;
	uint64_t gpu_ns;		/* from OA timestamps */
	uint64_t busy_ns;
	uint64_t oa_reports;
	struct gpuprof_oa_deltas oa;
};

struct report_ranges_proc;

struct report_ranges {
	/* --range=EVENT1,EVENT2 pairs, "sys:event" names; "EV1,EV2" names */
	char **pair_begin, **pair_end, **pair_name;
	unsigned int nr_pairs;

	struct report_range *r;		/* in order of their begin */
	uint32_t nr;
	size_t alloc;
	struct report_ranges_proc *procs;
	uint32_t nr_procs;
	size_t alloc_procs;
	struct u64_map proc_of;		/* pid: index in procs */

	uint64_t dropped;		/* over REPORT_RANGES_MAX */
	uint64_t unmatched_ends;	/* "end NAME" with no open NAME */
	uint64_t bad_marks;		/* neither "begin NAME" nor "end NAME" */
	uint64_t long_names;		/* names cut to REPORT_RANGE_NAME_MAX - 1 */

	/* Set by report_ranges_finish(), in order of first sight */
	struct report_range_sum *sums;
	uint32_t nr_sums;

	bool oom;
};

/*
 * @pairs: the --range value or NULL, "EV1,EV2[;EV3,EV4...]".  0, or -1
 * with a message on stderr for a malformed value.
 */
int report_ranges_init(struct report_ranges *rr, const char *pairs);

/* The hooks to give report_model_init(); @rr their argument. */
void report_ranges_hooks(struct report_ranges *rr, struct report_hooks *h);

/* After the model's finish: OA ticks to ns, sums per name.  0 or -1 (oom). */
int report_ranges_finish(struct report_ranges *rr, const struct report_model *m);

/* GPU time of one range from the OA timestamps, ns (0 without two reports). */
uint64_t report_range_gpu_ns(const struct report_range *r,
			     const struct report_model *m);

void report_ranges_free(struct report_ranges *rr);

#endif
