// SPDX-License-Identifier: GPL-2.0-only
/*
 * Decoding the kernel's ring records (see ring.h).  Every length comes
 * from the record's header and is checked before a field is read.
 */
#include <stddef.h>
#include <string.h>

#include "perfdata/write.h"
#include "record/ring.h"

_Static_assert(PERF_DATA_SAMPLE_TYPE_NO_CGROUP ==
	       (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW) &&
	       PERF_DATA_SAMPLE_TYPE ==
	       (PERF_DATA_SAMPLE_TYPE_NO_CGROUP | PERF_SAMPLE_CGROUP),
	       "the layouts below are those of PERF_DATA_SAMPLE_TYPE");

/*
 * A sample's fixed fields, in PERF_DATA_SAMPLE_TYPE's order; after the
 * raw data (padded so that size and data end 8-aligned), the cgroup id
 * when the event has PERF_SAMPLE_CGROUP.
 */
struct sample_head {
	uint64_t id;
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu, res;
	uint64_t period;
	uint32_t raw_size;
} __attribute__((packed));

/*
 * The sample_id trailer of a non-sample record, in the kernel's order for
 * PERF_DATA_SAMPLE_TYPE: TID, TIME, CPU, IDENTIFIER.
 */
struct sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu, res;
	uint64_t id;
};

static const uint8_t *record_bytes(const union perf_event *event)
{
	return (const uint8_t *)event;
}

/* The trailer of a record whose body is @body bytes; -1 if none fits. */
static int sample_id_of(const union perf_event *event, size_t body,
			struct sample_id *sid)
{
	size_t size = event->header.size;

	if (size < body + sizeof(*sid))
		return -1;
	memcpy(sid, record_bytes(event) + size - sizeof(*sid), sizeof(*sid));
	return 0;
}

int ring_parse_sample(const union perf_event *event, bool cgroup,
		      struct ring_sample *s)
{
	const size_t head = sizeof(struct perf_event_header);
	const size_t tail = cgroup ? 8 : 0;
	struct sample_head h;

	if (event->header.size < head + sizeof(h) + tail)
		return -1;
	memcpy(&h, record_bytes(event) + head, sizeof(h));
	if (h.raw_size > event->header.size - head - sizeof(h) - tail)
		return -1;
	/* The padding is the kernel's: the cgroup is the record's last u64. */
	s->cgroup = 0;
	if (cgroup)
		memcpy(&s->cgroup, record_bytes(event) + event->header.size - 8,
		       8);
	s->id = h.id;
	s->pid = h.pid;
	s->tid = h.tid;
	s->time = h.time;
	s->cpu = h.cpu;
	s->raw = record_bytes(event) + head + sizeof(h);
	s->raw_size = h.raw_size;
	return 0;
}

/*
 * The NUL-terminated string from byte @at of @event up to its sample_id
 * trailer, which goes in *@sid: 0, or -1 when the record is too short
 * or the string not terminated.  A COMM's name starts at
 * perf_record_comm's comm member, but its length is the record's:
 * libperf's struct declares 16 bytes, the kernel writes the name padded
 * to 8 (so 8 bytes for a name of up to 7 characters); a CGROUP's path
 * likewise.
 */
static int record_string(const union perf_event *event, size_t at,
			 struct sample_id *sid)
{
	size_t max;

	if (sample_id_of(event, at, sid))
		return -1;
	max = event->header.size - at - sizeof(*sid);
	return max && memchr(record_bytes(event) + at, '\0', max) ? 0 : -1;
}

int ring_parse_comm(const union perf_event *event, struct ring_comm *c)
{
	struct sample_id sid;

	if (record_string(event, offsetof(struct perf_record_comm, comm), &sid))
		return -1;
	c->pid = event->comm.pid;
	c->tid = event->comm.tid;
	c->comm = event->comm.comm;
	c->time = sid.time;
	return 0;
}

int ring_parse_cgroup(const union perf_event *event, struct ring_cgroup *c)
{
	struct sample_id sid;

	/* A path from the hierarchy's root: "/" at least. */
	if (record_string(event, offsetof(struct perf_record_cgroup, path), &sid) ||
	    event->cgroup.path[0] != '/')
		return -1;
	c->id = event->cgroup.id;
	c->path = event->cgroup.path;
	c->time = sid.time;
	return 0;
}

int ring_parse_lost(const union perf_event *event, struct ring_lost *l)
{
	struct sample_id sid;

	if (sample_id_of(event, sizeof(struct perf_record_lost), &sid))
		return -1;
	l->id = event->lost.id;
	l->lost = event->lost.lost;
	l->time = sid.time;
	return 0;
}

int ring_parse_task(const union perf_event *event, struct ring_task *t)
{
	struct sample_id sid;

	if (sample_id_of(event, sizeof(struct perf_record_fork), &sid))
		return -1;
	t->pid = event->fork.pid;
	t->ppid = event->fork.ppid;
	t->tid = event->fork.tid;
	t->time = event->fork.time;
	return 0;
}
