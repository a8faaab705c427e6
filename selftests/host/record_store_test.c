// SPDX-License-Identifier: GPL-2.0-only
/*
 * The names perf gpu record gives threads (record/store.c): a process
 * that renames itself right after exec (gpuwork -n NAME) has an exec
 * COMM and a prctl COMM, and its samples, in the rings of whichever CPUs
 * it ran on; the rings are read one after another, so the three reach
 * the store in any order.  In every order the file names the thread by
 * the newer COMM, once, before its first sample.  The thread's pid is
 * one no process has here, so /proc gives nothing and only the COMMs
 * decide.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../../tools/perf-gpu/perfdata/read.h"
#include "../../tools/perf-gpu/perfdata/write.h"
#include "../../tools/perf-gpu/record/store.h"

#define PID 2000000000		/* above any pid_max */
#define ID 42			/* the one event's tracepoint id */

enum step { EXEC_COMM, PRCTL_COMM, SAMPLE };

/* The COMM records of @path, as "tid:name,..."; the sample count too. */
static int comms(const char *path, char *out, size_t size, int *samples)
{
	struct pdr_file f;
	struct pdr_record r;
	uint64_t pos;
	const char *name;
	size_t len, used = 0;
	int32_t tid;
	int ret;

	*out = '\0';
	*samples = 0;
	if (pdr_open(&f, path))
		return -1;
	pos = f.data_offset;
	while ((ret = pdr_next_record(&f, &pos, &r)) == 1) {
		if (r.type == PERF_RECORD_SAMPLE) {
			/* A name must come before the first sample. */
			if (!used)
				used += snprintf(out, size, "sample-first,");
			(*samples)++;
		}
		if (r.type != PERF_RECORD_COMM)
			continue;
		if (pdr_parse_comm(&f, &r, &tid, &name, &len)) {
			ret = -1;
			break;
		}
		used += snprintf(out + used, size - used, "%d:%.*s,", tid,
				 (int)len, name);
	}
	pdr_close(&f);
	return ret;
}

/* Write @st to a perf.data at @path whose samples are of @sample_type. */
static int write_store(struct record_store *st, const char *path,
		       uint64_t sample_type)
{
	struct perf_data_event ev = { "test:event", ID };
	struct perf_data_writer *w;
	int err;

	w = perf_data_create_sampled(path, &ev, 1, sample_type);
	if (!w)
		return -1;
	err = perf_data_set_tracing_data(w, "formats", 7) ?:
	      record_store_write(st, w);
	if (err) {
		perf_data_abort(w);
		return err;
	}
	return perf_data_close(w);
}

/* Feed the three steps in @order and write the file; its COMMs. */
static int run_order(const enum step order[3], char *out, size_t size,
		     int *samples)
{
	/* exec at 100, prctl at 200, the sample at 300 (ns). */
	const uint8_t raw[8] = { ID, 0 };
	char path[] = "/tmp/record_store_test.XXXXXX";
	struct record_store *st;
	int fd, i, err = 0;

	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	st = record_store_new();
	if (!st)
		return -1;
	for (i = 0; i < 3 && !err; i++) {
		switch (order[i]) {
		case EXEC_COMM:
			err = record_store_set_comm(st, PID, PID, "gpuwork", 100);
			break;
		case PRCTL_COMM:
			err = record_store_set_comm(st, PID, PID, "gpuworkA", 200);
			break;
		case SAMPLE:
			err = record_store_add_sample(st, 0, PID, PID, 0, 300, 0,
						      raw, sizeof(raw));
			break;
		}
	}
	if (!err)
		err = write_store(st, path, PERF_DATA_SAMPLE_TYPE);
	record_store_free(st);
	if (!err)
		err = comms(path, out, size, samples);
	unlink(path);
	return err;
}

TEST(the_newer_comm_names_the_thread_in_every_order)
{
	static const enum step orders[6][3] = {
		{ EXEC_COMM, PRCTL_COMM, SAMPLE },
		{ EXEC_COMM, SAMPLE, PRCTL_COMM },
		{ PRCTL_COMM, EXEC_COMM, SAMPLE },
		{ PRCTL_COMM, SAMPLE, EXEC_COMM },
		{ SAMPLE, EXEC_COMM, PRCTL_COMM },
		{ SAMPLE, PRCTL_COMM, EXEC_COMM },
	};
	char want[64], got[256];
	int i, samples;

	snprintf(want, sizeof(want), "%d:gpuworkA,", PID);
	for (i = 0; i < 6; i++) {
		ASSERT_EQ(0, run_order(orders[i], got, sizeof(got), &samples))
			TH_LOG("order %d", i);
		EXPECT_STREQ(want, got) TH_LOG("order %d", i);
		EXPECT_EQ(1, samples) TH_LOG("order %d", i);
	}
}

/*
 * Streamed in rounds (record_store_flush()): a rename after the round
 * that named the thread is a COMM record of its own at its time, and a
 * record older than one written is left out and counted.
 */
TEST(rounds_keep_renames_and_count_what_came_late)
{
	const uint8_t raw[8] = { ID, 0 };
	struct perf_data_event ev = { "test:event", ID };
	char path[] = "/tmp/record_store_test.XXXXXX", got[256], want[128];
	static const char *const argv[] = { "test" };
	struct perf_data_writer *w;
	struct record_store *st;
	int fd, samples;

	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	close(fd);
	st = record_store_new();
	ASSERT_NE(NULL, st);
	w = perf_data_create_stream(path, &ev, 1, "formats", 7,
				    PERF_DATA_SAMPLE_TYPE, 1, argv);
	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, record_store_set_comm(st, PID, PID, "gpuworkA", 200));
	ASSERT_EQ(0, record_store_add_sample(st, 0, PID, PID, 0, 300, 0, raw,
					     sizeof(raw)));
	ASSERT_EQ(0, record_store_add_sample(st, 0, PID, PID, 0, 1500, 0, raw,
					     sizeof(raw)));
	/* Round 1 up to 1000: one sample written, one kept. */
	EXPECT_EQ(1, record_store_flush(st, w, 1000));
	ASSERT_EQ(0, perf_data_round(w));
	ASSERT_EQ(0, record_store_set_comm(st, PID, PID, "renamed", 1200));
	/* Read after round 1, older than what it wrote: left out. */
	ASSERT_EQ(0, record_store_add_sample(st, 0, PID, PID, 0, 250, 0, raw,
					     sizeof(raw)));
	EXPECT_EQ(0, record_store_write(st, w));
	EXPECT_EQ(1, record_store_late(st));
	EXPECT_EQ(0, perf_data_close(w));
	record_store_free(st);
	ASSERT_EQ(0, comms(path, got, sizeof(got), &samples));
	unlink(path);
	snprintf(want, sizeof(want), "%d:gpuworkA,%d:renamed,", PID, PID);
	EXPECT_STREQ(want, got);
	EXPECT_EQ(2, samples);
}

/*
 * record_store_bytes() is what --max-size is held to: the data section
 * as it will be written.  Its estimate keeps room for a name as long as
 * any, so it is not the size itself; but that room is the same whether
 * the file's samples carry a cgroup id or not (a kernel without cgroup
 * perf): the 8 bytes of the id are counted exactly when written.
 */
static int store_bytes_and_data_size(uint64_t sample_type, uint64_t *bytes,
				     uint64_t *data_size)
{
	static const uint32_t sizes[] = { 8, 13, 20, 4 };
	const uint8_t raw[24] = { ID, 0 };
	char path[] = "/tmp/record_store_test.XXXXXX";
	struct record_store *st;
	struct pdr_file f;
	int fd, err = 0;
	size_t i;

	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	st = record_store_new();
	if (!st)
		return -1;
	record_store_set_sample_type(st, sample_type);
	err = record_store_set_comm(st, PID, PID, "gpuworkA", 100);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]) && !err; i++)
		err = record_store_add_sample(st, 0, PID, PID, 0, 200 + i, 7,
					      raw, sizes[i]);
	*bytes = record_store_bytes(st);
	if (!err)
		err = write_store(st, path, sample_type);
	record_store_free(st);
	if (!err && !pdr_open(&f, path)) {
		*data_size = f.data_size;
		pdr_close(&f);
	} else {
		err = -1;
	}
	unlink(path);
	return err;
}

TEST(the_size_estimate_counts_a_cgroup_id_only_when_written)
{
	uint64_t bytes, size, bytes_nocg, size_nocg;

	ASSERT_EQ(0, store_bytes_and_data_size(PERF_DATA_SAMPLE_TYPE, &bytes, &size));
	ASSERT_EQ(0, store_bytes_and_data_size(PERF_DATA_SAMPLE_TYPE_NO_CGROUP,
					       &bytes_nocg, &size_nocg));
	/* Four samples, 8 bytes of id each. */
	EXPECT_EQ(size, size_nocg + 4 * 8);
	EXPECT_LE(size, bytes);
	EXPECT_EQ(bytes - size, bytes_nocg - size_nocg);
}

TEST_HARNESS_MAIN
