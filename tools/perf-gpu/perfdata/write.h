/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Writing a perf.data file (PERFILE2, the file mode, not the pipe mode)
 * of tracepoint events that stock perf script and perf report read: one
 * attr per event, samples with the raw tracepoint payload and the cgroup
 * id, COMM, CGROUP and LOST records, and at the end the features,
 * HEADER_TRACING_DATA among them.
 *
 * The file is written under a temporary name beside @path and renamed to
 * @path by perf_data_close() once complete, so @path never holds a short
 * or half-written file: on any error it is left as it was.  Or it is
 * streamed (perf_data_create_stream()), whole after every round.
 */
#ifndef PERF_GPU_PERFDATA_WRITE_H
#define PERF_GPU_PERFDATA_WRITE_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

/* One event of the file: a tracepoint, real or synthetic. */
struct perf_data_event {
	const char *name;	/* "system:event", shown by perf */
	uint64_t id;		/* its id in the tracing data, a u16 */
};

struct perf_data_writer;

/*
 * Start writing @path with the @nr events of @events (names copied).
 * NULL with errno on failure: EINVAL for no events or an id over 16 bits.
 * The samples carry PERF_DATA_SAMPLE_TYPE's fields.
 */
struct perf_data_writer *perf_data_create(const char *path,
					  const struct perf_data_event *events,
					  unsigned int nr);

/*
 * The same with the samples' layout chosen: @sample_type is
 * PERF_DATA_SAMPLE_TYPE or PERF_DATA_SAMPLE_TYPE_NO_CGROUP (a recording
 * from a kernel that refused the cgroup sample: the samples' cgroup ids
 * are not written, and readers see from the attrs that there are none).
 * EINVAL for any other.
 */
struct perf_data_writer *
perf_data_create_sampled(const char *path, const struct perf_data_event *events,
			 unsigned int nr, uint64_t sample_type);

/*
 * Streaming, for a recording of any length: @path itself is written (no
 * temporary name), the features known at the start (the tracing data and
 * the command line given here, the machine's) before the data, and the
 * file is whole after each perf_data_round(): a reader of a recording
 * cut short (SIGKILL) sees every record up to the last round.  Stock
 * perf reads the rounds as FINISHED_ROUND records, their bodies the
 * feature table of the moment.  perf_data_close() adds
 * HEADER_SAMPLE_TIME; on an error, and on perf_data_abort(), the file
 * keeps its sealed rounds.  @sample_type as for perf_data_create_sampled().
 * NULL with errno on failure, @path removed.
 */
struct perf_data_writer *
perf_data_create_stream(const char *path, const struct perf_data_event *events,
			unsigned int nr, const void *tracing, size_t tracing_len,
			uint64_t sample_type, int argc, const char *const *argv);

/*
 * Make everything written so far part of the file on disk.  0, the
 * first write error, or -EINVAL for a writer not made by
 * perf_data_create_stream().
 */
int perf_data_round(struct perf_data_writer *w);

/*
 * The HEADER_TRACING_DATA feature (perfdata/tracing-data.h builds it; copied).
 * Required: perf refuses tracepoint events without their formats.
 */
int perf_data_set_tracing_data(struct perf_data_writer *w, const void *data,
			       size_t len);

/* Optional: HEADER_CMDLINE, and the tool version in HEADER_VERSION. */
int perf_data_set_cmdline(struct perf_data_writer *w, int argc,
			  const char *const *argv);
int perf_data_set_version(struct perf_data_writer *w, const char *version);

/*
 * A sample of event @event (an index into the events given to
 * perf_data_create()).  @time is CLOCK_MONOTONIC in ns, as the kernel
 * stamps perf samples with use_clockid; @raw the tracepoint payload, its
 * first u16 the event's id (common_type); @cgroup the id of the cgroup
 * (v2) the thread was in, as the kernel's PERF_SAMPLE_CGROUP gives it, 0
 * when unknown (a sample made in userspace).
 */
struct perf_data_sample {
	unsigned int event;
	int32_t pid, tid;
	uint32_t cpu;
	uint64_t time;
	uint64_t cgroup;
	const void *raw;
	uint32_t raw_size;
};

/*
 * The records.  Their times must not decrease (perf sorts samples only
 * within rounds, and this file has none): -EINVAL, nothing written, for
 * an earlier time, an unknown event, a payload whose common_type is not
 * the event's id, or a NULL comm; -E2BIG for a record
 * over 64 KiB.  Write errors are kept: every later call and
 * perf_data_close() return the first one (-errno).
 */
int perf_data_write_sample(struct perf_data_writer *w,
			   const struct perf_data_sample *s);
/* Names a process (perf script shows the comm); @comm is cut to 15. */
int perf_data_write_comm(struct perf_data_writer *w, int32_t pid,
			 int32_t tid, const char *comm, uint64_t time);
/* @lost records of event @event were lost (PERF_RECORD_LOST). */
int perf_data_write_lost(struct perf_data_writer *w, unsigned int event,
			 uint64_t lost, uint64_t time);
/*
 * Cgroup @id is @path (PERF_RECORD_CGROUP: what perf report --sort
 * cgroup shows for samples of that id); -EINVAL for a NULL or empty
 * path or one of PATH_MAX bytes or more.
 */
int perf_data_write_cgroup(struct perf_data_writer *w, uint64_t id,
			   const char *path, uint64_t time);

/*
 * The bytes each of the writes above adds to the data section, for a
 * payload of @raw_size in a file of @sample_type (its cgroup id, when
 * PERF_SAMPLE_CGROUP, is 8 of them), a name @comm and a cgroup @path.
 */
size_t perf_data_sample_bytes(uint32_t raw_size, uint64_t sample_type);
size_t perf_data_comm_bytes(const char *comm);
size_t perf_data_lost_bytes(void);
size_t perf_data_cgroup_bytes(const char *path);

/*
 * Write the features and the file header and rename the file to its
 * path.  0, or the first error (-errno), in which case the temporary
 * file is removed.  Frees @w either way.
 */
int perf_data_close(struct perf_data_writer *w);

/* Give up: remove the temporary file, free @w. */
void perf_data_abort(struct perf_data_writer *w);

/*
 * What the file's attrs carry, for readers and the tests: the sample
 * layout is id, pid, tid, time, cpu, reserved, period, raw size, raw,
 * cgroup; COMM, CGROUP and LOST end with pid, tid, time, cpu, reserved,
 * id.  Files of perf gpu before the cgroup, and recordings from a kernel
 * without cgroup perf events (PERF_DATA_SAMPLE_TYPE_NO_CGROUP), have no
 * cgroup in samples: readers go by each attr's sample_type.
 */
#define PERF_DATA_SAMPLE_TYPE_NO_CGROUP \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW)
#define PERF_DATA_SAMPLE_TYPE \
	(PERF_DATA_SAMPLE_TYPE_NO_CGROUP | PERF_SAMPLE_CGROUP)

/* perf's own record type ending a round (PERF_RECORD_FINISHED_ROUND). */
#define PERF_DATA_FINISHED_ROUND 68

#endif
