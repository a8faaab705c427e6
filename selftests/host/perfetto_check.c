// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfetto_check FILE: read a Perfetto trace with a protobuf reader of
 * its own (not tools/perf-gpu/perfetto/, whose output it judges) and
 * check what the schema cannot say:
 *
 * - every track uuid an event or a descriptor's parent names is
 *   described, and no uuid is described twice;
 * - on each sequence, the first packet clears the incremental state,
 *   timestamps never go back, and every interned name id used was
 *   interned since the last clearing;
 * - slices on each track nest and are all closed at the end; counter
 *   values go on counter tracks only, slices and instants never do;
 * - event timestamps are on CLOCK_MONOTONIC (clock id 3), and a clock
 *   snapshot gives MONOTONIC and BOOTTIME.
 *
 * On success it prints "ok", the clock snapshot (the last of each
 * clock), and what the trace holds, for tests to
 * compare with perf gpu report's figures: per process its jobs (slices
 * at the top of its "GPU jobs" lanes), its busy time (the union of
 * their "run" children, or of the jobs themselves when they have no
 * children), its ranges (slices on its "marks" lanes), and how many
 * "dependency", "queue" and "run" children its jobs have and their
 * total length in ns;
 * per ring its slices; per counter track its values, their sum and the
 * last, and the integral of the step function they make (each value
 * times the ns to the next); per other track its instants.  Else one line "FAIL: ..." and
 * exit status 1.
 *
 * Field numbers, from Perfetto's trace_packet.proto and the files it
 * imports: Trace.packet 1; TracePacket timestamp 8, timestamp_clock_id
 * 58, trusted_packet_sequence_id 10, sequence_flags 13 (1: cleared),
 * clock_snapshot 6 (clocks 1: clock_id 1, timestamp 2), track_event 11
 * (type 9: 1 begin, 2 end, 3 instant, 4 counter; track_uuid 11,
 * name_iid 10, name 23, double_counter_value 44), interned_data 12
 * (event_names 2: iid 1, name 2), track_descriptor 60 (uuid 1, parent
 * 5, name 2, process 3: pid 1, process_name 6; counter 8).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct span {
	uint64_t b, e;
};

struct track {
	uint64_t uuid, parent;
	char name[128];
	bool defined, used, process, counter;
	int32_t pid;
	/* Slices open on it: their begin and name, whether they have children. */
	struct span *open;
	char (*open_name)[64];
	bool *open_children;
	size_t depth, alloc;
	uint64_t slices, instants, values;
	double sum, last;
	double integral;		/* of the step function, value * ns */
	uint64_t last_ts;
	/* A process's: jobs, run intervals, ranges. */
	uint64_t jobs, marks;
	/* Its jobs' "dependency", "queue" and "run" children: how many, ns. */
	uint64_t phases[3], phase_ns[3];
	struct span *runs;
	size_t nr_runs, alloc_runs;
};

struct sequence {
	uint32_t id;
	bool seen, cleared;
	uint64_t last_ts;
	char **names;			/* by iid */
	size_t nr_names;
};

static struct track *tracks;
static size_t nr_tracks, alloc_tracks;
static struct sequence seqs[64];
static size_t nr_seqs;
static uint64_t packets, slices, instants, values;
static bool have_mono, have_boot;
static uint64_t clock_at[7];		/* by builtin clock id, the snapshot's */

static void die(const char *fmt, ...)
{
	va_list ap;

	printf("FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(1);
}

static void *grow(void *p, size_t *alloc, size_t want, size_t size)
{
	if (want <= *alloc)
		return p;
	*alloc = want * 2 + 8;
	p = realloc(p, *alloc * size);
	if (!p)
		die("out of memory");
	return p;
}

/* ---- the wire format ---- */

struct msg {
	const uint8_t *p, *end;
};

struct field {
	uint32_t num;
	unsigned int wire;
	uint64_t v;			/* varint, fixed64 */
	struct msg sub;			/* length-delimited */
};

static uint64_t varint(struct msg *m)
{
	uint64_t v = 0;
	int shift;

	for (shift = 0; shift < 64; shift += 7) {
		if (m->p >= m->end)
			die("a varint runs past its message");
		v |= (uint64_t)(*m->p & 0x7f) << shift;
		if (!(*m->p++ & 0x80))
			return v;
	}
	die("a varint longer than ten bytes");
	return 0;
}

/* The next field of @m: false at its end. */
static bool next(struct msg *m, struct field *f)
{
	uint64_t tag, len;

	if (m->p >= m->end)
		return false;
	tag = varint(m);
	f->num = tag >> 3;
	f->wire = tag & 7;
	switch (f->wire) {
	case 0:
		f->v = varint(m);
		break;
	case 1:
		if (m->end - m->p < 8)
			die("a fixed64 runs past its message");
		memcpy(&f->v, m->p, 8);
		m->p += 8;
		break;
	case 2:
		len = varint(m);
		if (len > (uint64_t)(m->end - m->p))
			die("a length of %llu runs past its message",
			    (unsigned long long)len);
		f->sub = (struct msg){ m->p, m->p + len };
		m->p += len;
		break;
	case 5:
		if (m->end - m->p < 4)
			die("a fixed32 runs past its message");
		m->p += 4;
		break;
	default:
		die("wire type %u", f->wire);
	}
	return true;
}

static void copy_str(char *dst, size_t size, const struct msg *m)
{
	size_t n = m->end - m->p;

	if (n >= size)
		n = size - 1;
	memcpy(dst, m->p, n);
	dst[n] = '\0';
}

/* ---- tracks and sequences ---- */

static struct track *track(uint64_t uuid)
{
	size_t i;

	for (i = 0; i < nr_tracks; i++)
		if (tracks[i].uuid == uuid)
			return &tracks[i];
	tracks = grow(tracks, &alloc_tracks, nr_tracks + 1, sizeof(*tracks));
	memset(&tracks[nr_tracks], 0, sizeof(*tracks));
	tracks[nr_tracks].uuid = uuid;
	return &tracks[nr_tracks++];
}

static struct sequence *sequence(uint32_t id)
{
	size_t i;

	for (i = 0; i < nr_seqs; i++)
		if (seqs[i].id == id)
			return &seqs[i];
	if (nr_seqs == sizeof(seqs) / sizeof(seqs[0]))
		die("more than %zu sequences", nr_seqs);
	seqs[nr_seqs].id = id;
	return &seqs[nr_seqs++];
}

static void forget(struct sequence *s)
{
	size_t i;

	for (i = 0; i < s->nr_names; i++)
		free(s->names[i]);
	free(s->names);
	s->names = NULL;
	s->nr_names = 0;
}

static void intern(struct sequence *s, struct msg m)
{
	struct field f, g;
	uint64_t iid = 0;
	char name[256] = "";
	struct msg e;

	while (next(&m, &f)) {
		if (f.num != 2 || f.wire != 2)
			continue;
		e = f.sub;
		while (next(&e, &g)) {
			if (g.num == 1)
				iid = g.v;
			else if (g.num == 2 && g.wire == 2)
				copy_str(name, sizeof(name), &g.sub);
		}
		if (!iid || iid > 1000000)
			die("interned name id %llu", (unsigned long long)iid);
		if (iid > s->nr_names) {
			s->names = realloc(s->names, iid * sizeof(*s->names));
			if (!s->names)
				die("out of memory");
			memset(s->names + s->nr_names, 0,
			       (iid - s->nr_names) * sizeof(*s->names));
			s->nr_names = iid;
		}
		free(s->names[iid - 1]);
		s->names[iid - 1] = strdup(name);
	}
}

static void descriptor(struct msg m)
{
	struct field f, g;
	struct track t = { 0 }, *d;
	struct msg p;

	while (next(&m, &f)) {
		if (f.num == 1)
			t.uuid = f.v;
		else if (f.num == 5)
			t.parent = f.v;
		else if (f.num == 2 && f.wire == 2)
			copy_str(t.name, sizeof(t.name), &f.sub);
		else if (f.num == 8)
			t.counter = true;
		else if (f.num == 3 && f.wire == 2) {
			t.process = true;
			p = f.sub;
			while (next(&p, &g)) {
				if (g.num == 1)
					t.pid = (int32_t)g.v;
				else if (g.num == 6 && g.wire == 2)
					copy_str(t.name, sizeof(t.name), &g.sub);
			}
		}
	}
	if (!t.uuid)
		die("a track descriptor without a uuid");
	d = track(t.uuid);
	if (d->defined)
		die("track %llu described twice", (unsigned long long)t.uuid);
	d->defined = true;
	d->parent = t.parent;
	d->process = t.process;
	d->counter = t.counter;
	d->pid = t.pid;
	memcpy(d->name, t.name, sizeof(d->name));
	if (t.parent)
		track(t.parent)->used = true;
}

static void clocks(struct msg m)
{
	struct field f, g;
	struct msg c;
	uint64_t id, ts;

	while (next(&m, &f)) {
		if (f.num != 1 || f.wire != 2)
			continue;
		c = f.sub;
		id = ts = 0;
		while (next(&c, &g)) {
			if (g.num == 1)
				id = g.v;
			else if (g.num == 2)
				ts = g.v;
		}
		if (id < sizeof(clock_at) / sizeof(clock_at[0]))
			clock_at[id] = ts;
		have_mono |= id == 3;
		have_boot |= id == 6;
	}
}

/* ---- events ---- */

static void push_open(struct track *t, uint64_t ts, const char *name)
{
	t->open = grow(t->open, &t->alloc, t->depth + 1, sizeof(*t->open));
	t->open_name = realloc(t->open_name, t->alloc * sizeof(*t->open_name));
	t->open_children = realloc(t->open_children,
				   t->alloc * sizeof(*t->open_children));
	if (!t->open_name || !t->open_children)
		die("out of memory");
	if (t->depth)
		t->open_children[t->depth - 1] = true;
	t->open_children[t->depth] = false;
	t->open[t->depth].b = ts;
	strncpy(t->open_name[t->depth], name, sizeof(t->open_name[0]) - 1);
	t->open_name[t->depth][sizeof(t->open_name[0]) - 1] = '\0';
	t->depth++;
}

static const char *const phase_names[3] = { "dependency", "queue", "run" };

/* A slice of @t closed at @ts: count what it was. */
static void closed(struct track *t, uint64_t ts)
{
	unsigned int i;
	struct span s = t->open[--t->depth];
	const char *name = t->open_name[t->depth];
	bool children = t->open_children[t->depth];
	struct track *proc = t->parent ? track(t->parent) : NULL;

	slices++;
	t->slices++;
	if (!proc || !proc->process)
		return;
	if (!strcmp(t->name, "marks") && !t->depth) {
		proc->marks++;
	} else if (!strcmp(t->name, "GPU jobs")) {
		if (!t->depth)
			proc->jobs++;
		for (i = 0; t->depth && i < 3; i++)
			if (!strcmp(name, phase_names[i])) {
				proc->phases[i]++;
				proc->phase_ns[i] += ts - s.b;
			}
		/* A job without children ran all its life. */
		if ((!t->depth && !children) || (t->depth && !strcmp(name, "run"))) {
			proc->runs = grow(proc->runs, &proc->alloc_runs,
					  proc->nr_runs + 1, sizeof(*proc->runs));
			proc->runs[proc->nr_runs++] = (struct span){ s.b, ts };
		}
	}
}

static void event(struct sequence *s, uint64_t ts, bool has_ts,
		  uint32_t clock, struct msg m)
{
	struct field f;
	uint64_t type = 0, uuid = 0, iid = 0;
	char name[256] = "";
	bool has_value = false;
	double v = 0;
	struct track *t;

	while (next(&m, &f)) {
		if (f.num == 9)
			type = f.v;
		else if (f.num == 11)
			uuid = f.v;
		else if (f.num == 10)
			iid = f.v;
		else if (f.num == 23 && f.wire == 2)
			copy_str(name, sizeof(name), &f.sub);
		else if (f.num == 44 && f.wire == 1) {
			memcpy(&v, &f.v, sizeof(v));
			has_value = true;
		}
	}
	if (!has_ts || clock != 3)
		die("an event without a CLOCK_MONOTONIC timestamp");
	if (iid) {
		if (iid > s->nr_names || !s->names[iid - 1])
			die("sequence %u: name id %llu not interned since its state was cleared",
			    s->id, (unsigned long long)iid);
		snprintf(name, sizeof(name), "%s", s->names[iid - 1]);
	}
	if (!uuid)
		die("an event without a track");
	t = track(uuid);
	t->used = true;
	if ((type == 4) != t->counter && t->defined)
		die("track %llu \"%s\": %s", (unsigned long long)uuid, t->name,
		    t->counter ? "a slice or instant on a counter track" :
				 "a counter value on a track of slices");
	switch (type) {
	case 1:
		push_open(t, ts, name);
		break;
	case 2:
		if (!t->depth)
			die("track %llu: a slice ends at %llu that never began",
			    (unsigned long long)uuid, (unsigned long long)ts);
		closed(t, ts);
		break;
	case 3:
		t->instants++;
		instants++;
		break;
	case 4:
		if (!has_value)
			die("a counter event without a value");
		if (t->values)
			t->integral += t->last * (double)(ts - t->last_ts);
		t->values++;
		t->sum += v;
		t->last = v;
		t->last_ts = ts;
		values++;
		break;
	default:
		die("track event type %llu", (unsigned long long)type);
	}
}

static void packet(struct msg m)
{
	struct msg body = m, ev = { 0 }, in = { 0 };
	struct field f;
	uint64_t ts = 0, flags = 0;
	uint32_t seq = 0, clock = 0;
	bool has_ts = false, has_ev = false, has_in = false;
	struct sequence *s;

	while (next(&m, &f)) {
		if (f.num == 8) {
			ts = f.v;
			has_ts = true;
		} else if (f.num == 58) {
			clock = f.v;
		} else if (f.num == 10) {
			seq = f.v;
		} else if (f.num == 13) {
			flags = f.v;
		} else if (f.num == 11 && f.wire == 2) {
			ev = f.sub;
			has_ev = true;
		} else if (f.num == 12 && f.wire == 2) {
			in = f.sub;
			has_in = true;
		}
	}
	packets++;
	if (!seq)
		die("packet %llu has no sequence", (unsigned long long)packets);
	s = sequence(seq);
	if (flags & 1) {
		forget(s);
		s->cleared = true;
	}
	if (!s->cleared)
		die("sequence %u: a packet before its state was cleared", seq);
	if (has_ts) {
		if (ts < s->last_ts)
			die("sequence %u: time goes back from %llu to %llu", seq,
			    (unsigned long long)s->last_ts, (unsigned long long)ts);
		s->last_ts = ts;
	}
	if (has_in)
		intern(s, in);
	m = body;
	while (next(&m, &f)) {
		if (f.num == 60 && f.wire == 2)
			descriptor(f.sub);
		else if (f.num == 6 && f.wire == 2)
			clocks(f.sub);
	}
	if (has_ev)
		event(s, ts, has_ts, clock, ev);
}

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return x->b < y->b ? -1 : x->b > y->b;
}

static uint64_t union_ns(struct span *s, size_t n)
{
	uint64_t sum = 0, end = 0;
	size_t i;

	if (n)
		qsort(s, n, sizeof(*s), cmp_span);
	for (i = 0; i < n; i++) {
		uint64_t b = s[i].b > end ? s[i].b : end;

		if (s[i].e > b)
			sum += s[i].e - b;
		if (s[i].e > end)
			end = s[i].e;
	}
	return sum;
}

/* The lanes named @name of track @uuid. */
static unsigned int lanes(uint64_t uuid, const char *name)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < nr_tracks; i++)
		n += tracks[i].parent == uuid && !strcmp(tracks[i].name, name);
	return n;
}

/* The slices on the lanes of track @uuid. */
static uint64_t children_slices(uint64_t uuid)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < nr_tracks; i++)
		if (tracks[i].parent == uuid)
			n += tracks[i].slices;
	return n;
}

static void summary(void)
{
	size_t i;

	for (i = 0; i < nr_tracks; i++) {
		struct track *t = &tracks[i];

		if (!t->defined)
			die("track %llu is used but never described",
			    (unsigned long long)t->uuid);
		if (t->depth)
			die("track %llu \"%s\": %zu slices never end",
			    (unsigned long long)t->uuid, t->name, t->depth);
	}
	if (!have_mono || !have_boot)
		die("no clock snapshot of CLOCK_MONOTONIC and BOOTTIME");
	printf("ok: %llu packets, %zu sequences, %zu tracks, %llu slices, %llu instants, %llu counter values\n",
	       (unsigned long long)packets, nr_seqs, nr_tracks,
	       (unsigned long long)slices, (unsigned long long)instants,
	       (unsigned long long)values);
	printf("clock monotonic %llu boottime %llu realtime %llu\n",
	       (unsigned long long)clock_at[3], (unsigned long long)clock_at[6],
	       (unsigned long long)clock_at[1]);
	for (i = 0; i < nr_tracks; i++) {
		struct track *t = &tracks[i];
		struct track *p = t->parent ? track(t->parent) : NULL;

		if (t->process)
			printf("process %d %s jobs %llu busy_ns %llu ranges %llu lanes %u"
			       " dependency %llu %llu queue %llu %llu run %llu %llu\n",
			       t->pid, t->name, (unsigned long long)t->jobs,
			       (unsigned long long)union_ns(t->runs, t->nr_runs),
			       (unsigned long long)t->marks,
			       lanes(t->uuid, "GPU jobs"),
			       (unsigned long long)t->phases[0],
			       (unsigned long long)t->phase_ns[0],
			       (unsigned long long)t->phases[1],
			       (unsigned long long)t->phase_ns[1],
			       (unsigned long long)t->phases[2],
			       (unsigned long long)t->phase_ns[2]);
		else if (t->counter)
			printf("counter %d %s: values %llu sum %.17g last %.17g integral %.17g\n",
			       p && p->process ? p->pid : -1, t->name,
			       (unsigned long long)t->values, t->sum, t->last,
			       t->integral);
		else if (!strncmp(t->name, "ring ", 5))
			printf("%s slices %llu\n", t->name,
			       (unsigned long long)children_slices(t->uuid));
		else if (t->instants)
			printf("instants %s: %llu\n", t->name,
			       (unsigned long long)t->instants);
	}
}

int main(int argc, char **argv)
{
	struct msg trace;
	struct field f;
	uint8_t *buf;
	long size;
	FILE *in;

	if (argc != 2) {
		fprintf(stderr, "usage: perfetto_check FILE\n");
		return 2;
	}
	in = fopen(argv[1], "rb");
	if (!in || fseek(in, 0, SEEK_END) || (size = ftell(in)) < 0 ||
	    fseek(in, 0, SEEK_SET))
		die("%s: %s", argv[1], strerror(errno));
	buf = malloc(size + 1);
	if (!buf || fread(buf, 1, size, in) != (size_t)size)
		die("%s: cannot read it", argv[1]);
	fclose(in);
	trace = (struct msg){ buf, buf + size };
	while (next(&trace, &f)) {
		if (f.num != 1 || f.wire != 2)
			die("a Trace field %u of wire type %u", f.num, f.wire);
		packet(f.sub);
	}
	summary();
	free(buf);
	return 0;
}
