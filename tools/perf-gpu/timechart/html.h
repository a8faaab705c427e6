/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf gpu timechart's model of a recording and the page made from it,
 * independent of perf.data so that it can be tested by itself.
 *
 * The model is a list of tracks, each of one kind:
 *
 *   jobs     GPU jobs of one timeline as boxes [start, end), coloured by
 *            client (a pid and its comm), with the fence context and
 *            seqno; overlapping jobs (several contexts on one timeline)
 *            go to lanes stacked in the track; a job that waited in a
 *            queue first (drm_sched) has its queued part drawn lighter
 *            before its box, in its lane
 *   vblank   ticks of one CRTC, with the vblank sequence number
 *   line     a metric sampled over time (OA: GPU busy %, frequency, ...)
 *   ranges   named ranges of one process, nested ranges one lane deeper
 *
 * Times are CLOCK_MONOTONIC nanoseconds.
 *
 * The page is one HTML file with everything inline (timechart/template.c)
 * and the data as a JSON object in a <script type="application/json">.
 * How much data goes into it is bounded, so that the page of a long
 * recording still loads and draws in a browser:
 *
 *   When the model holds more items than @max_items, the writer picks the
 *   smallest power-of-two width W (in ns) for which the following fits:
 *   a job or range at least W long is kept as it is; shorter ones, and
 *   every vblank tick and metric sample, are merged per track, lane and
 *   bucket of width W counted from the start of the recording into one
 *   summary (count, busy time, the client with the most busy time; for a
 *   metric the mean, min and max).  A bucket that holds a single item
 *   keeps that item as it is.  So long jobs stay exact, and dense short
 *   work becomes one box per bucket, which the page draws lighter and
 *   describes as merged on hover.  Detail for a part of a long recording
 *   is had by writing that part alone (perf gpu timechart --time).
 *
 * The JSON object (times relative to t0; each array's first field is
 * delta-coded from the previous entry's, the first from 0, which keeps
 * the numbers short):
 *
 *   t0_sec, t0_nsec   the start of the recording, CLOCK_MONOTONIC
 *   span              its length, ns
 *   bucket_ns         W, 0 when nothing was merged
 *   items, detail, merged   counts in the model and in the page
 *   title, notes[]    text shown above the chart
 *   clients[]         [pid, comm]; jobs refer to them by index
 *   names[]           range names; ranges refer to them by index
 *   tracks[]          { kind, name, unit, lanes, d[], m[], p[] }:
 *     jobs   d: start, dur, lane, client, context, seqno
 *            q: start, dur, lane, client: the queued parts of the jobs
 *               of d that have one, sorted by start (no key if none)
 *     ranges d: start, dur, lane, name, open (1: no end recorded), -1
 *     both   m: start, dur, lane, count, busy, client (-1 for ranges)
 *     vblank d: time, seq              m: start, dur, count
 *     line   p: time, count, mean, min, max
 */
#ifndef PERF_GPU_TIMECHART_HTML_H
#define PERF_GPU_TIMECHART_HTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum tc_kind {
	TC_JOBS,
	TC_VBLANK,
	TC_LINE,
	TC_RANGES,
};

/* The default bound on the items of a page. */
#define TC_MAX_ITEMS_DEFAULT	200000

struct timechart;

/* An empty model titled @title (copied), or NULL when out of memory. */
struct timechart *tc_new(const char *title);
void tc_free(struct timechart *tc);

/*
 * The index of the client @pid, added when new; a @comm (copied, may be
 * NULL) names it if it has no name yet.  -ENOMEM.
 */
int tc_client(struct timechart *tc, int32_t pid, const char *comm);

/*
 * The index of the track of @kind named @name, added when new, in the
 * page after the tracks of lower kinds and after those of its kind added
 * before it.  @unit (copied, may be NULL) labels a line track's values.
 * -ENOMEM.
 */
int tc_track(struct timechart *tc, enum tc_kind kind, const char *name,
	     const char *unit);

/*
 * Add to track @track (of the matching kind).  0, or -EINVAL for a track
 * of another kind, an end before its start, an unknown client, a value
 * that is not finite; -ENOMEM.
 */
int tc_add_job(struct timechart *tc, int track, uint64_t start, uint64_t end,
	       int client, uint32_t context, uint32_t seqno);
/* A job queued from @queued (<= @start) before it ran [@start, @end]. */
int tc_add_queued_job(struct timechart *tc, int track, uint64_t queued,
		      uint64_t start, uint64_t end, int client,
		      uint32_t context, uint32_t seqno);
int tc_add_tick(struct timechart *tc, int track, uint64_t time, uint32_t seq);
int tc_add_sample(struct timechart *tc, int track, uint64_t time,
		  double value);
/* @open: the range had no end in the recording; @end is where it stopped. */
int tc_add_range(struct timechart *tc, int track, uint64_t start,
		 uint64_t end, unsigned int depth, const char *name, bool open);

/* Widen the time span shown to cover [@first, @last]. */
void tc_set_span(struct timechart *tc, uint64_t first, uint64_t last);

/* A line of text shown above the chart (lost events, skipped jobs). */
__attribute__((format(printf, 2, 3)))
int tc_note(struct timechart *tc, const char *fmt, ...);

/* Items in the model, of all tracks. */
size_t tc_nr_items(const struct timechart *tc);

struct tc_write_stats {
	uint64_t bucket_ns;	/* W above; 0 when nothing was merged */
	size_t detail;		/* items written as they are */
	size_t merged;		/* summaries written */
};

/*
 * Write the page to @f with at most @max_items entries of data (see
 * above; 0 means TC_MAX_ITEMS_DEFAULT), or one per track and lane when
 * those are more.  Sorts the model's items and gives jobs their lanes.
 * 0, or -errno of a failed write or allocation.  @stats may be NULL.
 */
int tc_write_html(struct timechart *tc, FILE *f, size_t max_items,
		  struct tc_write_stats *stats);

#endif
