/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What perf gpu record keeps while recording: the samples (their raw
 * tracepoint payloads copied out of the ring buffers), the lost counts
 * and the names of the threads seen, until the end, when they are
 * sorted by time and written out as a perf.data.
 */
#ifndef PERF_GPU_RECORD_STORE_H
#define PERF_GPU_RECORD_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct record_store;

struct record_store *record_store_new(void);
/*
 * The sample_type of the file the store will be written to, for
 * record_store_bytes() (default PERF_DATA_SAMPLE_TYPE); before any
 * sample is added.
 */
void record_store_set_sample_type(struct record_store *st,
				  uint64_t sample_type);
void record_store_free(struct record_store *st);

/*
 * Keep a sample of event @event (an index into the events the file will
 * have), of a thread in cgroup @cgroup (an id, 0 when unknown).  The
 * first sample of a thread also reads its name from /proc, while it
 * most likely still runs.  0 or -ENOMEM.
 */
int record_store_add_sample(struct record_store *st, unsigned int event,
			    int32_t pid, int32_t tid, uint32_t cpu,
			    uint64_t time, uint64_t cgroup, const void *raw,
			    uint32_t raw_size);

/*
 * Cgroup @id is @path (a PERF_RECORD_CGROUP, from the kernel or made from
 * the cgroup tree at the start).  0, -EINVAL for an empty path or one
 * longer than PATH_MAX, or -ENOMEM.
 */
int record_store_add_cgroup(struct record_store *st, uint64_t id,
			    const char *path, uint64_t time);

/*
 * The kernel's name for a thread (a PERF_RECORD_COMM, at exec or
 * prctl): the latest before the thread's first sample is its name, so
 * a thread that has exited by the time that sample is read is named.
 * A later one, once a streamed round has named the thread, is a COMM
 * record of its own at its time.
 */
int record_store_set_comm(struct record_store *st, int32_t pid, int32_t tid,
			  const char *comm, uint64_t time);

/* @lost samples of event @event were lost at about @time.  0 or -ENOMEM. */
int record_store_add_lost(struct record_store *st, unsigned int event,
			  uint64_t lost, uint64_t time);

/*
 * What a recording keeps of what it read (record/command-filter.h):
 * @keep is asked about every sample, @task told of every fork (@fork)
 * and exit, all in time order, before anything is written.
 */
struct record_store_filter {
	bool (*keep)(void *arg, unsigned int event, int32_t pid, int32_t tid,
		     const void *raw, uint32_t raw_size);
	void (*task)(void *arg, bool fork, int32_t pid, int32_t ppid,
		     int32_t tid);
	void *arg;
};

void record_store_set_filter(struct record_store *st,
			     const struct record_store_filter *f);

/*
 * A thread made (@fork) or gone, a PERF_RECORD_FORK or _EXIT: kept for
 * the filter, in time order with the samples; without a filter, nothing.
 * 0 or -ENOMEM.
 */
int record_store_add_task(struct record_store *st, bool fork, int32_t pid,
			  int32_t ppid, int32_t tid, uint64_t time);

/*
 * Filter the records up to time @upto now, without writing them, so a
 * recording kept whole in memory holds only what it keeps.  0 or
 * -ENOMEM.
 */
int record_store_prune(struct record_store *st, uint64_t upto);

uint64_t record_store_samples(const struct record_store *st);
uint64_t record_store_lost(const struct record_store *st);
/*
 * The size of the data section record_store_write() would write now (a
 * thread's name counted at the longest a name can be).
 */
uint64_t record_store_bytes(const struct record_store *st);
/* The latest time of a record kept, 0 if none. */
uint64_t record_store_last_time(const struct record_store *st);

/*
 * Call @fn for every sample kept, in time order (as written), until it
 * returns non-zero, which is returned.  For what is made from the
 * recording after the fact (the OA simulator's busy intervals).
 */
int record_store_for_each_sample(struct record_store *st,
				 int (*fn)(void *arg, unsigned int event,
					   int32_t pid, uint64_t time,
					   const void *raw, uint32_t raw_size),
				 void *arg);

struct perf_data_writer;

/*
 * Write everything to @w in time order (stable: records of one time
 * stay in the order they were read), each thread's COMM before its
 * first sample.  0 or the writer's -errno.
 */
int record_store_write(struct record_store *st, struct perf_data_writer *w);

/*
 * Streaming: write, as record_store_write() does, the records up to time
 * @upto and keep only the rest (a round of a streamed file).  A record
 * read later that is older than one written is not written: it is
 * counted by record_store_late().  The number of records written, or
 * the writer's -errno.
 */
long record_store_flush(struct record_store *st, struct perf_data_writer *w,
			uint64_t upto);
uint64_t record_store_late(const struct record_store *st);

#endif
