// SPDX-License-Identifier: GPL-2.0-only
/*
 * OA sources of perf gpu record (see record/oa.h): the output file, the
 * FILE copy and the live stream of an OA device (oa/device.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "record/oa.h"
#include "util/debug.h"

#define DEFAULT_PERIOD_NS	1000000ull	/* 1 ms, as gpuprof-oa */
/* A point every half second keeps "at least every second" with slack. */
#define CORR_EVERY_NS		500000000ull
/* The end of --oa-unit's refusal, whatever the source. */
#define NO_UNITS		"OA does not come from xe here"

uint64_t record_oa_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

void record_oa_set_source(struct record_oa *oa, const char *arg)
{
	oa->file = NULL;
	oa->driver = OA_DRIVER_ANY;
	/* "sim" is the simulator run over the recording, not live. */
	if (!strcmp(arg, "sim")) {
		oa->source = RECORD_OA_SIM;
	} else if (!strcmp(arg, "device") ||
		   !oa_parse_driver(arg, &oa->driver)) {
		oa->source = RECORD_OA_DEVICE;
	} else if (!strcmp(arg, "none")) {
		oa->source = RECORD_OA_NONE;
	} else {
		oa->source = RECORD_OA_FILE;
		oa->file = arg;
	}
}

static int copy_file(struct record_oa *oa)
{
	char buf[65536];
	size_t n;
	FILE *in = fopen(oa->file, "rb");

	if (!in) {
		pr_err("--oa-source %s: %s\n", oa->file,
		       strerror(errno));
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, oa->out) != n)
			break;
	if (ferror(in)) {
		pr_err("reading %s: %s\n", oa->file,
		       strerror(errno));
		fclose(in);
		return -1;
	}
	fclose(in);
	return 0;
}

static int device_correlate(struct record_oa *oa)
{
	if (oa_device_correlate(&oa->dev, &oa->w))
		return -1;
	oa->next_corr = record_oa_now() + CORR_EVERY_NS;
	return 0;
}

/* The device's stream, its first records and a correlation point. */
static int device_start(struct record_oa *oa)
{
	/* oa_device_open() said why it failed, in one line. */
	if (oa_device_open(&oa->dev))
		return -1;
	oa->period_ns = oa->dev.period_ns;
	oa_device_write_header(&oa->dev, &oa->w);
	return device_correlate(oa);
}

bool record_oa_live(const struct record_oa *oa)
{
	return oa->source == RECORD_OA_DEVICE;
}

int record_oa_start(struct record_oa *oa, const char *perf_output,
		    struct record_store *st)
{
	struct oa_device_config cfg = {
		.driver = oa->driver, .node = oa->node,
		.unit = oa->unit, .unit_given = oa->unit_given,
		.unit_refusal = NO_UNITS,
	};

	if (oa->source == RECORD_OA_NONE)
		return 0;
	if (!oa->period_ns)
		oa->period_ns = DEFAULT_PERIOD_NS;
	/* As gpuprof-oa's, and what the man page says. */
	if (!oa->metric_set)
		oa->metric_set = "RenderBasic";
	cfg.period_ns = oa->period_ns;
	cfg.metric_set = oa->metric_set;
	/* The driver, before any file is made: --oa needs a GPU. */
	if (oa->source == RECORD_OA_DEVICE) {
		if (oa_device_choose(&oa->dev, &cfg))
			return -1;
	} else if (oa->unit_given) {
		oa_device_refuse_unit(NO_UNITS);
		return -1;
	}
	if (oa->output_opt)
		oa->output = strdup(oa->output_opt);
	else if (asprintf(&oa->output, "%s.oa", perf_output) < 0)
		oa->output = NULL;
	if (!oa->output)
		return -1;
	oa->out = fopen(oa->output, "wb");
	if (!oa->out) {
		pr_err("%s: %s\n", oa->output, strerror(errno));
		return -1;
	}
	oa_writer_init(&oa->w, oa->out);
	oa->ingest = record_oa_ingest_new(oa, st);
	if (!oa->ingest)
		return -1;
	oa->start_ns = record_oa_now();
	if (oa->source == RECORD_OA_FILE)
		return copy_file(oa);
	if (oa->source == RECORD_OA_DEVICE)
		return device_start(oa);
	return 0;
}

static void device_record(void *arg, uint32_t type, const uint8_t *payload,
			size_t len)
{
	struct record_oa *oa = arg;

	oa_write_record(&oa->w, type, payload, len);
}

/* The read-back of the output (record_oa_ingest()) checks them again. */
static int device_drain(struct record_oa *oa)
{
	return oa_device_drain(&oa->dev, device_record, oa);
}

/*
 * A failing OA stream does not end the tracepoint recording: OA stops,
 * and what it gave is placed at once and kept (its errors are said at
 * the end).
 */
int record_oa_poll(struct record_oa *oa)
{
	if (oa->source != RECORD_OA_DEVICE || oa->failed)
		return 0;
	if (device_drain(oa) ||
	    (record_oa_now() >= oa->next_corr && device_correlate(oa)))
		oa->failed = true;
	if (oa_writer_flush(&oa->w))
		oa->failed = true;
	if (oa->failed) {
		oa->ingest_err = record_oa_ingest_end(oa->ingest);
		return 0;
	}
	return record_oa_ingest_feed(oa->ingest);
}

uint64_t record_oa_placed_upto(const struct record_oa *oa)
{
	if (!oa->ingest)
		return UINT64_MAX;
	return record_oa_ingest_upto(oa->ingest);
}

int record_oa_finish(struct record_oa *oa, struct record_store *st,
		     const struct record_events *evs)
{
	int err = 0;

	if (oa->source == RECORD_OA_NONE)
		return 0;
	oa->end_ns = record_oa_now();
	if (oa->source == RECORD_OA_DEVICE && !oa->failed) {
		if (device_drain(oa) == 0)
			device_correlate(oa);
	}
	if (oa->source == RECORD_OA_SIM)
		err = record_oa_run_sim(oa, st, evs);
	if (!err && oa_writer_flush(&oa->w)) {
		pr_err("writing %s: %s\n", oa->output,
		       strerror(oa_writer_error(&oa->w)));
		err = -1;
	}
	if (fclose(oa->out) && !err) {
		pr_err("writing %s: %s\n", oa->output,
		       strerror(errno));
		err = -1;
	}
	oa->out = NULL;
	if (err || oa->ingest_err)
		return -1;
	return record_oa_ingest_end(oa->ingest);
}

void record_oa_report(const struct record_oa *oa)
{
	if (oa->source == RECORD_OA_NONE)
		return;
	fprintf(stderr, "[ perf gpu record: OA: %llu reports, %llu correlation points, written to %s ]\n",
		(unsigned long long)oa->reports,
		(unsigned long long)oa->correlations, oa->output);
	if (oa->report_lost || oa->buffer_lost)
		pr_err("OA lost: %llu REPORT_LOST and %llu BUFFER_LOST records\n",
		       (unsigned long long)oa->report_lost,
		       (unsigned long long)oa->buffer_lost);
}

void record_oa_free(struct record_oa *oa)
{
	if (oa->out)
		fclose(oa->out);
	oa_device_close(&oa->dev);
	record_oa_ingest_free(oa->ingest);
	free(oa->output);
}
