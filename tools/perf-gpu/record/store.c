// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recording in memory.  Records are small fixed entries pointing
 * into one growing buffer of raw payloads, so a storm of samples costs
 * two amortised reallocs rather than a malloc each.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfdata/write.h"
#include "record/store.h"
#include "util/array.h"
#include "util/file.h"
#include "util/map.h"

/* REC_TASK: a fork or an exit, for the filter only, never written. */
enum { REC_SAMPLE, REC_LOST, REC_COMM, REC_CGROUP, REC_TASK };

struct rec {
	uint64_t time;
	uint64_t seq;		/* read order: ties keep it */
	uint64_t cgroup;	/* REC_SAMPLE, REC_CGROUP: the cgroup id */
	/*
	 * REC_SAMPLE: in st->raw; REC_LOST: count; REC_COMM, REC_CGROUP:
	 * the name, the path, NUL-terminated, in st->raw
	 */
	uint64_t raw_off;
	uint32_t raw_size;
	uint32_t cpu;
	int32_t pid, tid;
	unsigned int event;	/* REC_TASK: 1 for a fork, 0 an exit */
	int kind;
	bool filtered;		/* the filter kept it already */
};

struct thread_name {
	int32_t pid, tid;
	uint64_t comm_time;	/* of the kernel's COMM that named it, or 0 */
	bool counted;		/* its COMM in record_store_bytes() */
	bool written;
	char comm[16];
};

struct record_store {
	struct rec *recs;
	size_t nr, alloc;
	uint8_t *raw;
	size_t raw_len, raw_alloc;
	uint8_t *spare;		/* what a round keeps of st->raw goes here */
	size_t spare_alloc;
	uint64_t samples, lost;
	uint64_t bytes;		/* of the data section, as it will be written */
	uint64_t sample_type;	/* of the file it will be written to */
	uint64_t max_time;	/* of any record kept or written */
	uint64_t seq;		/* the next record's read order */
	uint64_t late;		/* records older than what was written */
	uint64_t written_time;	/* of the last record written */
	struct u64_map threads;	/* tid: its struct thread_name */
	struct record_store_filter filter;	/* .keep NULL: keep all */
	size_t raw_dropped;	/* bytes of st->raw no record uses */
};

struct record_store *record_store_new(void)
{
	struct record_store *st = calloc(1, sizeof(struct record_store));

	if (st)
		st->sample_type = PERF_DATA_SAMPLE_TYPE;
	return st;
}

void record_store_set_sample_type(struct record_store *st,
				  uint64_t sample_type)
{
	st->sample_type = sample_type;
}

void record_store_free(struct record_store *st)
{
	size_t pos = 0;
	uint64_t v;

	if (!st)
		return;
	while (u64_map_next(&st->threads, &pos, NULL, &v))
		free((struct thread_name *)(uintptr_t)v);
	u64_map_free(&st->threads);
	free(st->recs);
	free(st->raw);
	free(st->spare);
	free(st);
}

static struct thread_name *find_thread(struct record_store *st, int32_t tid)
{
	uint64_t v;

	if (!u64_map_get(&st->threads, (uint32_t)tid, &v))
		return NULL;
	return (struct thread_name *)(uintptr_t)v;
}

/* A new thread's name in @st: 0, or -ENOMEM (@t then freed). */
static int add_thread(struct record_store *st, struct thread_name *t)
{
	if (!u64_map_put(&st->threads, (uint32_t)t->tid, (uintptr_t)t))
		return 0;
	free(t);
	return -ENOMEM;
}

static bool read_comm(const char *path, char *comm, size_t size)
{
	if (file_read_small(AT_FDCWD, path, comm, size) <= 0)
		return false;
	comm[strcspn(comm, "\n")] = '\0';
	return true;
}

/*
 * A thread's name is the newest the kernel reported (PERF_RECORD_COMM, by
 * its time: rings are read one CPU after another, so a later rename can
 * be read first), or else the one in /proc when its first sample is seen.
 * A process naming itself right after exec is shown by that name for all
 * its GPU work.  Idle-context events carry pid 0, which has no /proc
 * entry; a thread already gone gets "<pid>", a placeholder that cannot be
 * mistaken for a real name.
 */
static struct thread_name *note_thread(struct record_store *st, int32_t pid,
				       int32_t tid)
{
	struct thread_name *t = find_thread(st, tid);
	char path[64];

	if (t)
		return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	if (tid == 0)
		snprintf(t->comm, sizeof(t->comm), "swapper");
	else if (!read_comm(path, t->comm, sizeof(t->comm)))
		snprintf(t->comm, sizeof(t->comm), "<%d>", pid);
	return add_thread(st, t) ? NULL : t;
}

static struct rec *new_rec(struct record_store *st);

/* A record's time, noted as the latest if it is. */
static void note_time(struct record_store *st, uint64_t time)
{
	if (time > st->max_time)
		st->max_time = time;
}

/*
 * A record whose payload is @size bytes at @data (a sample's raw data, a
 * name, a path), copied into st->raw; NULL out of memory.
 */
static struct rec *new_payload_rec(struct record_store *st, int kind,
				   uint64_t time, const void *data, size_t size)
{
	struct rec *r;

	if (ARRAY_RESERVE(st->raw, st->raw_alloc, st->raw_len + size))
		return NULL;
	r = new_rec(st);
	if (!r)
		return NULL;
	r->kind = kind;
	r->time = time;
	r->raw_off = st->raw_len;
	r->raw_size = size;
	memcpy(st->raw + st->raw_len, data, size);
	st->raw_len += size;
	note_time(st, time);
	return r;
}

/*
 * A rename of a thread the file names already (a streamed recording
 * wrote its first samples): a COMM record of its own, at its time, as
 * perf record writes one, so samples before it keep the old name.
 */
static int add_rename(struct record_store *st, struct thread_name *t,
		      const char *comm, uint64_t time)
{
	char name[16] = "";
	struct rec *r;

	strncpy(name, comm, 15);
	r = new_payload_rec(st, REC_COMM, time, name, sizeof(name));
	if (!r)
		return -ENOMEM;
	r->pid = t->pid;
	r->tid = t->tid;
	st->bytes += perf_data_comm_bytes(comm);
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->comm_time = time;
	return 0;
}

int record_store_set_comm(struct record_store *st, int32_t pid, int32_t tid,
			  const char *comm, uint64_t time)
{
	struct thread_name *t = find_thread(st, tid);

	if (t && t->comm_time > time)
		return 0;
	if (t && t->written)
		return add_rename(st, t, comm, time);
	if (!t) {
		t = calloc(1, sizeof(*t));
		if (!t)
			return -ENOMEM;
		t->pid = pid;
		t->tid = tid;
		if (add_thread(st, t))
			return -ENOMEM;
	}
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->comm_time = time;
	return 0;
}

static struct rec *new_rec(struct record_store *st)
{
	if (ARRAY_RESERVE(st->recs, st->alloc, st->nr + 1))
		return NULL;
	memset(&st->recs[st->nr], 0, sizeof(struct rec));
	st->recs[st->nr].seq = st->seq++;
	return &st->recs[st->nr++];
}

int record_store_add_sample(struct record_store *st, unsigned int event,
			    int32_t pid, int32_t tid, uint32_t cpu,
			    uint64_t time, uint64_t cgroup, const void *raw,
			    uint32_t raw_size)
{
	struct thread_name *t = note_thread(st, pid, tid);
	struct rec *r;

	if (!t)
		return -ENOMEM;
	r = new_payload_rec(st, REC_SAMPLE, time, raw, raw_size);
	if (!r)
		return -ENOMEM;
	r->event = event;
	r->pid = pid;
	r->tid = tid;
	r->cpu = cpu;
	r->cgroup = cgroup;
	st->samples++;
	st->bytes += perf_data_sample_bytes(raw_size, st->sample_type);
	/* Its name, written before its first sample: as long as any. */
	if (!t->counted)
		st->bytes += perf_data_comm_bytes("longest-allowed");
	t->counted = true;
	return 0;
}

int record_store_add_lost(struct record_store *st, unsigned int event,
			  uint64_t lost, uint64_t time)
{
	struct rec *r = new_rec(st);

	if (!r)
		return -ENOMEM;
	r->kind = REC_LOST;
	r->event = event;
	r->time = time;
	r->raw_off = lost;
	st->lost += lost;
	note_time(st, time);
	st->bytes += perf_data_lost_bytes();
	return 0;
}

int record_store_add_task(struct record_store *st, bool fork, int32_t pid,
			  int32_t ppid, int32_t tid, uint64_t time)
{
	struct rec *r;

	if (!st->filter.keep)
		return 0;
	r = new_rec(st);
	if (!r)
		return -ENOMEM;
	r->kind = REC_TASK;
	r->event = fork;
	r->pid = pid;
	r->tid = tid;
	/* The parent, in the field no task record uses otherwise. */
	r->raw_off = (uint32_t)ppid;
	r->time = time;
	note_time(st, time);
	return 0;
}

void record_store_set_filter(struct record_store *st,
			     const struct record_store_filter *f)
{
	st->filter = *f;
}

int record_store_add_cgroup(struct record_store *st, uint64_t id,
			    const char *path, uint64_t time)
{
	size_t len = strlen(path) + 1;
	struct rec *r;

	if (len == 1 || len > PATH_MAX)
		return -EINVAL;
	r = new_payload_rec(st, REC_CGROUP, time, path, len);
	if (!r)
		return -ENOMEM;
	r->cgroup = id;
	st->bytes += perf_data_cgroup_bytes(path);
	return 0;
}

uint64_t record_store_samples(const struct record_store *st)
{
	return st->samples;
}

uint64_t record_store_lost(const struct record_store *st)
{
	return st->lost;
}

uint64_t record_store_bytes(const struct record_store *st)
{
	return st->bytes;
}

uint64_t record_store_last_time(const struct record_store *st)
{
	return st->max_time;
}

uint64_t record_store_late(const struct record_store *st)
{
	return st->late;
}

static int by_time(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int record_store_for_each_sample(struct record_store *st,
				 int (*fn)(void *arg, unsigned int event,
					   int32_t pid, uint64_t time,
					   const void *raw, uint32_t raw_size),
				 void *arg)
{
	size_t i;
	int ret = 0;

	if (st->nr)
		qsort(st->recs, st->nr, sizeof(*st->recs), by_time);
	for (i = 0; i < st->nr && !ret; i++) {
		const struct rec *r = &st->recs[i];

		if (r->kind == REC_SAMPLE)
			ret = fn(arg, r->event, r->pid, r->time,
				 st->raw + r->raw_off, r->raw_size);
	}
	return ret;
}

/* One record to @w; a sample's thread named before its first sample. */
static int write_rec(struct record_store *st, struct perf_data_writer *w,
		     const struct rec *r)
{
	struct perf_data_sample smp = {
		.event = r->event, .pid = r->pid, .tid = r->tid,
		.cpu = r->cpu, .time = r->time, .cgroup = r->cgroup,
		.raw = st->raw + r->raw_off, .raw_size = r->raw_size,
	};
	struct thread_name *t;
	int err;

	switch (r->kind) {
	case REC_LOST:
		return perf_data_write_lost(w, r->event, r->raw_off, r->time);
	case REC_COMM:
		return perf_data_write_comm(w, r->pid, r->tid,
					    (const char *)st->raw + r->raw_off,
					    r->time);
	case REC_CGROUP:
		return perf_data_write_cgroup(w, r->cgroup,
					      (const char *)st->raw + r->raw_off,
					      r->time);
	}
	t = find_thread(st, r->tid);
	if (t && !t->written) {
		err = perf_data_write_comm(w, t->pid, t->tid, t->comm, r->time);
		t->written = true;
		if (err)
			return err;
	}
	return perf_data_write_sample(w, &smp);
}

/* Whether record @r holds bytes of st->raw. */
static bool has_payload(const struct rec *r)
{
	return r->kind != REC_LOST && r->kind != REC_TASK;
}

/*
 * Keep only the records from @from on, their payloads moved to the start
 * of the spare buffer, which then takes st->raw's place.  Both buffers and
 * the record array keep what they grew to: a pass holds at most what the
 * rings hold, so they stop growing once the largest pass the rings allow
 * has come (early in a storm), and the resident set stays there instead
 * of following each pass up and down (record_soak_rss_growth_ratio).
 */
static int keep_from(struct record_store *st, size_t from)
{
	size_t i, n = st->nr - from, len = 0;
	uint8_t *raw;

	for (i = from; i < st->nr; i++)
		if (has_payload(&st->recs[i]))
			len += st->recs[i].raw_size;
	if (ARRAY_RESERVE(st->spare, st->spare_alloc, len ? len : 1))
		return -ENOMEM;
	for (i = from, len = 0; i < st->nr; i++) {
		struct rec *r = &st->recs[i];

		if (!has_payload(r))
			continue;
		memcpy(st->spare + len, st->raw + r->raw_off, r->raw_size);
		r->raw_off = len;
		len += r->raw_size;
	}
	if (n)
		memmove(st->recs, st->recs + from, n * sizeof(*st->recs));
	st->nr = n;
	raw = st->raw;
	st->raw = st->spare;
	st->spare = raw;
	i = st->raw_alloc;
	st->raw_alloc = st->spare_alloc;
	st->spare_alloc = i;
	st->raw_len = len;
	st->raw_dropped = 0;
	return 0;
}

/*
 * Run the filter over the records up to @upto it has not seen, in time
 * order (st->recs sorted): task records go to it and away, samples it
 * refuses go away.
 */
static void filter_upto(struct record_store *st, uint64_t upto)
{
	const struct record_store_filter *f = &st->filter;
	size_t i, kept = 0;

	for (i = 0; i < st->nr && st->recs[i].time <= upto; i++) {
		struct rec *r = &st->recs[i];
		bool keep = true;

		if (f->keep && !r->filtered && r->kind == REC_TASK) {
			f->task(f->arg, r->event, r->pid, (int32_t)r->raw_off,
				r->tid);
			keep = false;
		} else if (f->keep && !r->filtered && r->kind == REC_SAMPLE) {
			keep = f->keep(f->arg, r->event, r->pid, r->tid,
				       st->raw + r->raw_off, r->raw_size);
			if (!keep) {
				st->samples--;
				st->bytes -= perf_data_sample_bytes(r->raw_size,
								    st->sample_type);
				st->raw_dropped += r->raw_size;
			}
		}
		r->filtered = true;
		if (keep)
			st->recs[kept++] = *r;
	}
	if (kept < i) {
		memmove(st->recs + kept, st->recs + i,
			(st->nr - i) * sizeof(*st->recs));
		st->nr -= i - kept;
	}
}

int record_store_prune(struct record_store *st, uint64_t upto)
{
	if (!st->filter.keep)
		return 0;
	if (st->nr)
		qsort(st->recs, st->nr, sizeof(*st->recs), by_time);
	filter_upto(st, upto);
	/* The payloads refused, once they are most of the buffer. */
	if (st->raw_dropped > st->raw_len / 2)
		return keep_from(st, 0);
	return 0;
}

long record_store_flush(struct record_store *st, struct perf_data_writer *w,
			uint64_t upto)
{
	long written = 0;
	size_t i;
	int err = 0;

	/* Each CPU's ring is in time order, the rings among them are not. */
	if (st->nr)
		qsort(st->recs, st->nr, sizeof(*st->recs), by_time);
	filter_upto(st, upto);
	for (i = 0; i < st->nr && st->recs[i].time <= upto && !err; i++) {
		/* Older than a round written already: it cannot go in. */
		if (st->recs[i].time < st->written_time) {
			st->late++;
			continue;
		}
		err = write_rec(st, w, &st->recs[i]);
		st->written_time = st->recs[i].time;
		written++;
	}
	err = err ?: keep_from(st, i);
	return err ? err : written;
}

int record_store_write(struct record_store *st, struct perf_data_writer *w)
{
	long ret = record_store_flush(st, w, UINT64_MAX);

	return ret < 0 ? (int)ret : 0;
}
