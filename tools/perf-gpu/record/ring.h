/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The records perf gpu record reads from the kernel's ring buffers, as
 * the kernel lays them out for events opened with PERF_DATA_SAMPLE_TYPE
 * and sample_id_all: a sample, and the side-band COMM, CGROUP and LOST
 * records with their sample_id trailer (pid/tid, time, cpu, identifier; the
 * last 32 bytes of the record).
 */
#ifndef PERF_GPU_RECORD_RING_H
#define PERF_GPU_RECORD_RING_H

#include <stdbool.h>
#include <stdint.h>

#include <perf/event.h>

struct ring_sample {
	uint64_t id;
	int32_t pid, tid;
	uint64_t time;
	uint32_t cpu;
	const void *raw;	/* inside the record */
	uint32_t raw_size;
	uint64_t cgroup;	/* the thread's cgroup (v2) id; 0: none */
};

/* A cgroup made while recording: its id and path (kernel's namespace). */
struct ring_cgroup {
	uint64_t id;
	const char *path;	/* NUL-terminated, inside the record */
	uint64_t time;
};

struct ring_comm {
	int32_t pid, tid;
	const char *comm;	/* NUL-terminated, inside the record */
	uint64_t time;
};

/* A PERF_RECORD_FORK or PERF_RECORD_EXIT: a thread made or gone. */
struct ring_task {
	int32_t pid, ppid, tid;
	uint64_t time;
};

struct ring_lost {
	uint64_t id, lost;
	uint64_t time;
};

/*
 * Each: 0, or -1 when the record is too short for what it says.  A
 * sample ends with its cgroup id when @cgroup (events opened with
 * PERF_DATA_SAMPLE_TYPE; not with PERF_DATA_SAMPLE_TYPE_NO_CGROUP).
 */
int ring_parse_sample(const union perf_event *event, bool cgroup,
		      struct ring_sample *s);
int ring_parse_comm(const union perf_event *event, struct ring_comm *c);
int ring_parse_lost(const union perf_event *event, struct ring_lost *l);
int ring_parse_task(const union perf_event *event, struct ring_task *t);
int ring_parse_cgroup(const union perf_event *event, struct ring_cgroup *c);

#endif
