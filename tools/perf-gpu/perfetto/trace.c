// SPDX-License-Identifier: GPL-2.0-only
/*
 * Perfetto trace packets (perfetto/trace.h).  The field numbers, from
 * Perfetto's published .proto files, are named once here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto/trace.h"

/* Trace */
#define TRACE_PACKET			1
/* TracePacket */
#define PACKET_CLOCK_SNAPSHOT		6
#define PACKET_TIMESTAMP		8
#define PACKET_SEQUENCE_ID		10
#define PACKET_TRACK_EVENT		11
#define PACKET_INTERNED_DATA		12
#define PACKET_SEQUENCE_FLAGS		13
#define PACKET_TIMESTAMP_CLOCK_ID	58
#define PACKET_TRACK_DESCRIPTOR		60
#define SEQ_INCREMENTAL_STATE_CLEARED	1
#define SEQ_NEEDS_INCREMENTAL_STATE	2
/* ClockSnapshot, ClockSnapshot.Clock */
#define SNAPSHOT_CLOCKS			1
#define SNAPSHOT_PRIMARY_CLOCK		2
#define CLOCK_ID			1
#define CLOCK_TIMESTAMP			2
/* TrackDescriptor */
#define TRACK_UUID			1
#define TRACK_NAME			2
#define TRACK_PROCESS			3
#define TRACK_PARENT_UUID		5
#define TRACK_COUNTER			8
/* ProcessDescriptor */
#define PROCESS_PID			1
#define PROCESS_CMDLINE			2
#define PROCESS_NAME			6
#define PROCESS_LABELS			8
/* CounterDescriptor */
#define COUNTER_UNIT			3
#define COUNTER_UNIT_NAME		6
/* TrackEvent */
#define EVENT_TYPE			9
#define EVENT_NAME_IID			10
#define EVENT_TRACK_UUID		11
#define EVENT_NAME			23
#define EVENT_DOUBLE_COUNTER_VALUE	44
#define TYPE_SLICE_BEGIN		1
#define TYPE_SLICE_END			2
#define TYPE_INSTANT			3
#define TYPE_COUNTER			4
/* InternedData, EventName */
#define INTERNED_EVENT_NAMES		2
#define EVENT_NAME_ID			1
#define EVENT_NAME_STRING		2

/* The sequence gpuprof's packets are on; any nonzero id would do. */
#define PFT_SEQUENCE			1

void pft_init_seq(struct pft_writer *w, FILE *f, uint32_t sequence)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->sequence = sequence;
	pb_init(&w->pkt);
	pb_init(&w->out);
	u64_map_init(&w->ids);
}

void pft_init(struct pft_writer *w, FILE *f)
{
	pft_init_seq(w, f, PFT_SEQUENCE);
}

int pft_error(const struct pft_writer *w)
{
	return w->err;
}

/* Forget the interned names, keeping the table's memory. */
static void forget_names(struct pft_writer *w)
{
	uint32_t i;

	for (i = 0; i < w->n_names; i++)
		free(w->names[i]);
	w->n_names = 0;
	memset(w->seen, 0, sizeof(w->seen));
	u64_map_free(&w->ids);
	u64_map_init(&w->ids);
}

int pft_flush(struct pft_writer *w)
{
	if (w->err)
		return -1;
	if (pb_write(&w->out, w->f)) {
		w->err = pb_error(&w->out);
		return -1;
	}
	return 0;
}

void pft_free(struct pft_writer *w)
{
	pft_flush(w);
	pb_free(&w->out);
	forget_names(w);
	free(w->names);
	u64_map_free(&w->ids);
	pb_free(&w->pkt);
}

/*
 * Before a packet is built: clear the incremental state when it is time
 * to (every PFT_RESET_PACKETS packets), so that the names it interns are
 * carried afresh.
 */
static void maybe_clear(struct pft_writer *w)
{
	if (w->cleared && w->since_clear >= PFT_RESET_PACKETS) {
		forget_names(w);
		w->cleared = false;
	}
}

/*
 * Start a packet: its sequence, and on the first the cleared state.
 * @ts: a CLOCK_MONOTONIC time, or 0 for a packet without one.  A packet
 * that names an interned id needs the sequence's incremental state and
 * says so (@needs_state); one that does not (a track descriptor, a slice
 * end, a counter value) carries no flags, so a reader that lost the
 * state still takes it (the first packet carries the clearing anyway).
 */
static void packet_begin(struct pft_writer *w, uint64_t ts, bool needs_state)
{
	pb_reset(&w->pkt);
	if (ts) {
		pb_uint(&w->pkt, PACKET_TIMESTAMP, ts);
		pb_uint(&w->pkt, PACKET_TIMESTAMP_CLOCK_ID, PFT_CLOCK_MONOTONIC);
	}
	pb_uint(&w->pkt, PACKET_SEQUENCE_ID, w->sequence);
	if (!w->cleared)
		pb_uint(&w->pkt, PACKET_SEQUENCE_FLAGS,
			SEQ_INCREMENTAL_STATE_CLEARED | SEQ_NEEDS_INCREMENTAL_STATE);
	else if (needs_state)
		pb_uint(&w->pkt, PACKET_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
	if (!w->cleared)
		w->since_clear = 0;
	w->cleared = true;
	w->since_clear++;
}

static int packet_end(struct pft_writer *w)
{
	if (w->err)
		return -1;
	pb_append_as(&w->out, TRACE_PACKET, &w->pkt);
	if (pb_error(&w->out)) {
		w->err = pb_error(&w->out);
		return -1;
	}
	w->packets++;
	return w->out.len >= PFT_BLOCK ? pft_flush(w) : 0;
}

int pft_clock_snapshot(struct pft_writer *w, uint64_t monotonic,
		       uint64_t boottime, uint64_t realtime)
{
	const struct { uint32_t id; uint64_t ts; } clocks[] = {
		{ PFT_CLOCK_MONOTONIC, monotonic },
		{ PFT_CLOCK_BOOTTIME, boottime },
		{ PFT_CLOCK_REALTIME, realtime },
	};
	size_t snap, c;
	unsigned int i;

	packet_begin(w, 0, false);
	snap = pb_begin(&w->pkt, PACKET_CLOCK_SNAPSHOT);
	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		if (!clocks[i].ts)
			continue;
		c = pb_begin(&w->pkt, SNAPSHOT_CLOCKS);
		pb_uint(&w->pkt, CLOCK_ID, clocks[i].id);
		pb_uint(&w->pkt, CLOCK_TIMESTAMP, clocks[i].ts);
		pb_end(&w->pkt, c);
	}
	pb_uint(&w->pkt, SNAPSHOT_PRIMARY_CLOCK, PFT_CLOCK_BOOTTIME);
	pb_end(&w->pkt, snap);
	return packet_end(w);
}

/* A track descriptor's common fields; its mark, to be ended. */
static size_t track_begin(struct pft_writer *w, uint64_t uuid, uint64_t parent,
			  const char *name)
{
	size_t t;

	packet_begin(w, 0, false);
	t = pb_begin(&w->pkt, PACKET_TRACK_DESCRIPTOR);
	pb_uint(&w->pkt, TRACK_UUID, uuid);
	if (parent)
		pb_uint(&w->pkt, TRACK_PARENT_UUID, parent);
	if (name)
		pb_string(&w->pkt, TRACK_NAME, name);
	return t;
}

int pft_process_track(struct pft_writer *w, uint64_t uuid, int32_t pid,
		      const char *name, const char *cmdline, const char *label)
{
	size_t t = track_begin(w, uuid, 0, NULL), p;

	p = pb_begin(&w->pkt, TRACK_PROCESS);
	pb_int(&w->pkt, PROCESS_PID, pid);
	if (cmdline)
		pb_string(&w->pkt, PROCESS_CMDLINE, cmdline);
	if (name)
		pb_string(&w->pkt, PROCESS_NAME, name);
	if (label)
		pb_string(&w->pkt, PROCESS_LABELS, label);
	pb_end(&w->pkt, p);
	pb_end(&w->pkt, t);
	return packet_end(w);
}

int pft_track(struct pft_writer *w, uint64_t uuid, uint64_t parent,
	      const char *name)
{
	pb_end(&w->pkt, track_begin(w, uuid, parent, name));
	return packet_end(w);
}

int pft_counter_track(struct pft_writer *w, uint64_t uuid, uint64_t parent,
		      const char *name, int unit, const char *unit_name)
{
	size_t t = track_begin(w, uuid, parent, name), c;

	c = pb_begin(&w->pkt, TRACK_COUNTER);
	if (unit)
		pb_uint(&w->pkt, COUNTER_UNIT, unit);
	if (unit_name)
		pb_string(&w->pkt, COUNTER_UNIT_NAME, unit_name);
	pb_end(&w->pkt, c);
	pb_end(&w->pkt, t);
	return packet_end(w);
}

/*
 * The iid of @name, interning it now (*@fresh true: the packet must
 * carry it) when it is new; 0 when it cannot be interned (out of
 * memory, or a hash taken by another name): the event then names it
 * itself.
 */
struct iid_name {
	const struct pft_writer *w;
	const char *name;
};

/* Is @iid the name's?  Two names may hash alike: one key each. */
static bool iid_is(uint64_t iid, const void *arg)
{
	const struct iid_name *n = arg;

	return !strcmp(n->w->names[iid - 1], n->name);
}

static uint64_t name_iid(struct pft_writer *w, const char *name, bool *fresh)
{
	unsigned int slot = ((uintptr_t)name >> 3) & (PFT_SEEN - 1);
	uint64_t key, iid;
	char **names, *copy;
	uint32_t cap;

	*fresh = false;
	if (w->seen[slot].at == name && !strcmp(w->names[w->seen[slot].iid - 1], name))
		return w->seen[slot].iid;
	key = map_hash_str(MAP_HASH_SEED, name);
	if (u64_map_find_hashed(&w->ids, &key, iid_is, &(struct iid_name){
					w, name }, &iid)) {
		w->seen[slot].at = name;
		w->seen[slot].iid = iid;
		return iid;
	}
	if (w->n_names == w->cap_names) {
		cap = w->cap_names ? 2 * w->cap_names : 64;
		names = realloc(w->names, cap * sizeof(*names));
		if (!names)
			return 0;
		w->names = names;
		w->cap_names = cap;
	}
	copy = strdup(name);
	if (!copy || u64_map_put(&w->ids, key, w->n_names + 1)) {
		free(copy);
		return 0;
	}
	w->names[w->n_names++] = copy;
	*fresh = true;
	return w->n_names;
}

/* A field's tag, for fields 1 to 15 (one byte). */
#define TAG1(field, wire)	((uint8_t)((field) << 3 | (wire)))

/* A varint field of number 1 to 15 at @out; its length. */
static size_t uint_at(uint8_t *out, uint8_t tag, uint64_t v)
{
	out[0] = tag;
	return 1 + pb_varint_at(out + 1, v);
}

/*
 * The bytes of a TrackEvent packet that interns nothing and follows
 * the clearing of the state: at most 80 (a timestamp, the clock, the
 * sequence, the flags, and an event of type, track, name id and value),
 * so both lengths take one byte.
 */
#define SHORT_EVENT_MAX		80

/*
 * Such a packet, the commonest by far (every slice begin, end and
 * counter value after the first few), encoded straight into the block,
 * its two lengths patched in place, rather than built field by field in
 * the packet buffer with four-byte lengths and copied: the same fields,
 * in the same order, a smaller and quicker packet.
 */
static int short_event(struct pft_writer *w, uint64_t ts, uint64_t track,
		       int type, uint64_t iid, const double *value)
{
	uint8_t *pkt = pb_reserve(&w->out, SHORT_EVENT_MAX), *ev;
	size_t np = 2, ne = 0;
	uint64_t u;
	int i;

	if (!pkt) {
		w->err = pb_error(&w->out);
		return -1;
	}
	np += uint_at(pkt + np, TAG1(PACKET_TIMESTAMP, PB_VARINT), ts);
	/* The clock's field number is 58: a two-byte tag. */
	np += pb_varint_at(pkt + np, PACKET_TIMESTAMP_CLOCK_ID << 3 | PB_VARINT);
	pkt[np++] = PFT_CLOCK_MONOTONIC;
	np += uint_at(pkt + np, TAG1(PACKET_SEQUENCE_ID, PB_VARINT), w->sequence);
	if (iid)
		np += uint_at(pkt + np, TAG1(PACKET_SEQUENCE_FLAGS, PB_VARINT),
			      SEQ_NEEDS_INCREMENTAL_STATE);
	pkt[np++] = TAG1(PACKET_TRACK_EVENT, PB_LEN);
	ev = pkt + ++np;
	ne += uint_at(ev + ne, TAG1(EVENT_TYPE, PB_VARINT), type);
	ne += uint_at(ev + ne, TAG1(EVENT_TRACK_UUID, PB_VARINT), track);
	if (iid)
		ne += uint_at(ev + ne, TAG1(EVENT_NAME_IID, PB_VARINT), iid);
	if (value) {
		memcpy(&u, value, sizeof(u));
		ne += pb_varint_at(ev + ne, EVENT_DOUBLE_COUNTER_VALUE << 3 |
				   PB_FIXED64);
		for (i = 0; i < 8; i++)
			ev[ne++] = u >> (8 * i);
	}
	ev[-1] = ne;
	np += ne;
	pkt[0] = TAG1(TRACE_PACKET, PB_LEN);
	pkt[1] = np - 2;
	pb_commit(&w->out, np);
	w->since_clear++;
	w->packets++;
	return w->out.len >= PFT_BLOCK ? pft_flush(w) : 0;
}

/* A TrackEvent of @type on @track at @ts, named @name unless NULL. */
static int track_event(struct pft_writer *w, uint64_t ts, uint64_t track,
		       int type, const char *name, const double *value)
{
	bool fresh = false;
	uint64_t iid;
	size_t e, in, n;

	if (w->err)
		return -1;
	maybe_clear(w);
	iid = name ? name_iid(w, name, &fresh) : 0;
	if (w->cleared && !fresh && ts && (iid || !name))
		return short_event(w, ts, track, type, iid, value);
	packet_begin(w, ts, iid != 0);
	if (fresh) {
		in = pb_begin(&w->pkt, PACKET_INTERNED_DATA);
		n = pb_begin(&w->pkt, INTERNED_EVENT_NAMES);
		pb_uint(&w->pkt, EVENT_NAME_ID, iid);
		pb_string(&w->pkt, EVENT_NAME_STRING, name);
		pb_end(&w->pkt, n);
		pb_end(&w->pkt, in);
	}
	e = pb_begin(&w->pkt, PACKET_TRACK_EVENT);
	pb_uint(&w->pkt, EVENT_TYPE, type);
	pb_uint(&w->pkt, EVENT_TRACK_UUID, track);
	if (iid)
		pb_uint(&w->pkt, EVENT_NAME_IID, iid);
	else if (name)
		pb_string(&w->pkt, EVENT_NAME, name);
	if (value)
		pb_double(&w->pkt, EVENT_DOUBLE_COUNTER_VALUE, *value);
	pb_end(&w->pkt, e);
	return packet_end(w);
}

int pft_slice_begin(struct pft_writer *w, uint64_t ts, uint64_t track,
		    const char *name)
{
	return track_event(w, ts, track, TYPE_SLICE_BEGIN, name, NULL);
}

int pft_slice_end(struct pft_writer *w, uint64_t ts, uint64_t track)
{
	return track_event(w, ts, track, TYPE_SLICE_END, NULL, NULL);
}

int pft_instant(struct pft_writer *w, uint64_t ts, uint64_t track,
		const char *name)
{
	return track_event(w, ts, track, TYPE_INSTANT, name, NULL);
}

int pft_counter(struct pft_writer *w, uint64_t ts, uint64_t track,
		double value)
{
	return track_event(w, ts, track, TYPE_COUNTER, NULL, &value);
}
