/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * OA in perf gpu record.  Whatever the source, the OA stream first goes to
 * the --oa-output file in the format of design.rst 5, and that file is
 * read back (record/oa-ingest.c): each report becomes a gpu_oa:oa_report
 * sample at its CLOCK_MONOTONIC time (from the stream's correlation
 * points), merged with the tracepoints by the store.  A live stream is
 * read back as it is written, so the recording streams (bounded memory);
 * the simulator and a FILE are read back at the end.  One path turns
 * every source into samples, so what perf script shows is exactly what
 * the .oa file holds.
 *
 *  sim:  after recording, the simulator is stepped over the recorded time
 *        span, busy while a dma_fence job of the recording runs (from its
 *        dma_fence_init to its dma_fence_signaled), one context per
 *        process: the owner of each report is known.
 *  FILE: a section-5 recording, copied, its reports placed by its own
 *        correlation points.
 *  i915: a live i915-perf stream read while recording, with a
 *        correlation point every half second, through the OA device
 *        (oa/device.h).
 *  xe:   the same of an xe OA stream, on --oa-unit's unit.
 *  --oa: i915 if there is an i915 node (or --oa-node is one), else xe
 *        (oa_device_driver()).
 */
#ifndef PERF_GPU_RECORD_OA_H
#define PERF_GPU_RECORD_OA_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "oa/device.h"
#include "oa/sim.h"
#include "oa/writer.h"

/* The live sources (i915, xe, --oa) are RECORD_OA_DEVICE and a driver. */
enum record_oa_source { RECORD_OA_NONE, RECORD_OA_SIM, RECORD_OA_FILE,
			RECORD_OA_DEVICE };

struct record_store;
struct record_events;
struct record_oa_ingest;

struct record_oa {
	/* Options. */
	enum record_oa_source source;
	enum oa_driver driver;		/* RECORD_OA_DEVICE's; ANY for --oa */
	const char *file;		/* --oa-source=FILE */
	uint64_t period_ns;		/* --oa-period, 0: default */
	const char *metric_set;		/* --metric-set */
	const char *node;		/* --oa-node */
	uint32_t unit;			/* --oa-unit (xe) */
	bool unit_given;
	const char *output_opt;		/* --oa-output */
	char *output;			/* it, or <output>.oa */

	FILE *out;
	struct oa_writer w;
	uint64_t start_ns, end_ns;	/* CLOCK_MONOTONIC of the recording */

	/* The live device: i915 or xe. */
	struct oa_device dev;
	uint64_t next_corr;
	bool failed;

	/* The read-back of the output, and how it ended if early. */
	struct record_oa_ingest *ingest;
	int ingest_err;

	/* Owners of the simulated contexts: OA_SIM_CTX(i). */
	int32_t owner[OA_SIM_MAX_CONTEXTS];
	unsigned int nr_owners;

	/* The store's index and tracepoint id of gpu_oa:oa_report. */
	unsigned int event;
	uint16_t id;
	/* The same of gpu_oa:oa_device, and of gpu_oa:oa_correlation. */
	unsigned int device_event;
	uint16_t device_id;
	unsigned int corr_event;
	uint16_t corr_id;

	/* What was read back. */
	uint64_t reports, report_lost, buffer_lost, correlations, jobs;
};

/*
 * --oa-source's argument: "sim", "i915", "xe", "device" (--oa: either)
 * or a file name.
 */
void record_oa_set_source(struct record_oa *oa, const char *arg);

/* Whether the source's reports reach @st while recording (a device). */
bool record_oa_live(const struct record_oa *oa);

/*
 * Before the events are enabled: open the output (and the device's stream),
 * copy a FILE source; the reports go to @st.  0, or -1 with the message
 * out.
 */
int record_oa_start(struct record_oa *oa, const char *perf_output,
		    struct record_store *st);

/*
 * While recording (i915, xe): take what the stream has, and place in
 * the store the reports that can be placed.  0 or -1.
 */
int record_oa_poll(struct record_oa *oa);

/*
 * Every OA record older than this is in the store, or UINT64_MAX: no
 * more will come while recording (a streamed round may go up to it).
 */
uint64_t record_oa_placed_upto(const struct record_oa *oa);

/*
 * After recording: finish the OA stream (run the simulator over the
 * samples of @st, whose tracepoints are @evs) and add its reports and
 * losses to @st.  0, or -1 with the message out.
 */
int record_oa_finish(struct record_oa *oa, struct record_store *st,
		     const struct record_events *evs);

/* The end-of-recording line: reports, losses, the .oa file. */
void record_oa_report(const struct record_oa *oa);

void record_oa_free(struct record_oa *oa);

/* Helpers shared by record/oa*.c. */
uint64_t record_oa_now(void);
int record_oa_run_sim(struct record_oa *oa, struct record_store *st,
		      const struct record_events *evs);

/*
 * record/oa-ingest.c: the read-back of @oa's output into @st.  _feed()
 * takes what the file has grown by, _end() the rest and places every
 * report; each 0, or -1 with the message out.
 */
struct record_oa_ingest *record_oa_ingest_new(struct record_oa *oa,
					      struct record_store *st);
int record_oa_ingest_feed(struct record_oa_ingest *in);
int record_oa_ingest_end(struct record_oa_ingest *in);
uint64_t record_oa_ingest_upto(const struct record_oa_ingest *in);
void record_oa_ingest_free(struct record_oa_ingest *in);

#endif
