/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * DOC: perfetto/trace - the packets of a Perfetto trace gpuprof writes
 *
 * A writer is one packet sequence, written front to back: a
 * ClockSnapshot first (the recording's CLOCK_MONOTONIC beside BOOTTIME
 * and REALTIME, taken by the caller), then track descriptors and track
 * events.  Several writers may share one file, each with a sequence id
 * of its own (pft_init_seq()); timestamps must go up within each.  Timestamps
 * are CLOCK_MONOTONIC nanoseconds, the clock gpuprof records on; every
 * event packet says so (timestamp_clock_id 3) and the snapshot lets
 * Perfetto put them on its BOOTTIME.  Event names are interned: the
 * first packet clears the sequence's incremental state, a name's first
 * use carries it in the packet's InternedData, later uses only its id.
 * Each packet is built in memory and written with others a block at a
 * time (PFT_BLOCK), so a trace of any length takes the memory of one
 * block and the interned names; pft_flush() writes what is held.  Field numbers are those of Perfetto's published
 * trace_packet.proto, track_descriptor.proto, track_event.proto,
 * counter_descriptor.proto, process_descriptor.proto,
 * clock_snapshot.proto and interned_data.proto.
 */
#ifndef PERF_GPU_PERFETTO_TRACE_H
#define PERF_GPU_PERFETTO_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "perfetto/pb.h"
#include "util/map.h"

/* ClockSnapshot.Clock.BuiltinClocks */
#define PFT_CLOCK_REALTIME	1
#define PFT_CLOCK_MONOTONIC	3
#define PFT_CLOCK_BOOTTIME	6

/* CounterDescriptor.Unit */
#define PFT_UNIT_NONE		0
#define PFT_UNIT_TIME_NS	1
#define PFT_UNIT_COUNT		2

/* Packets between two clearings of a sequence's incremental state. */
#define PFT_RESET_PACKETS	65536

/* Names remembered by address (a power of two). */
#define PFT_SEEN		16

/* Packets are written to the file a block of this many bytes at a time. */
#define PFT_BLOCK		65536

struct pft_writer {
	FILE *f;
	struct pb_buf pkt;
	struct pb_buf out;		/* packets not yet written */
	uint32_t sequence;		/* trusted_packet_sequence_id */
	bool cleared;			/* the state was cleared, names valid */
	uint64_t since_clear;		/* packets since */
	/* Interned event names: iid k + 1 is names[k]; ids by name hash. */
	struct u64_map ids;
	char **names;
	uint32_t n_names, cap_names;
	/*
	 * The iids of names last seen at a few addresses: callers name
	 * events from the same strings again and again; a hit still
	 * compares the text, so a string changed in place is no hit.
	 * Not util/map: a direct-mapped cache of 16 on every event, no
	 * hashing of the text, no growth.
	 */
	struct { const char *at; uint64_t iid; } seen[PFT_SEEN];
	uint64_t packets;
	int err;			/* the first errno */
};

void pft_init(struct pft_writer *w, FILE *f);
/* A writer of sequence @sequence (not 0) of @f. */
void pft_init_seq(struct pft_writer *w, FILE *f, uint32_t sequence);
/* The writer's first error (an errno), 0 if none. */
int pft_error(const struct pft_writer *w);
/* Write the packets held (PFT_BLOCK bytes at most): 0, or -1. */
int pft_flush(struct pft_writer *w);
/* pft_flush(), then free it. */
void pft_free(struct pft_writer *w);

/* The clocks at one instant, in ns; a zero is left out. */
int pft_clock_snapshot(struct pft_writer *w, uint64_t monotonic,
		       uint64_t boottime, uint64_t realtime);

/* A process's track: @cmdline and @label (a process label) may be NULL. */
int pft_process_track(struct pft_writer *w, uint64_t uuid, int32_t pid,
		      const char *name, const char *cmdline, const char *label);
/* A named track, under @parent (0: at the top). */
int pft_track(struct pft_writer *w, uint64_t uuid, uint64_t parent,
	      const char *name);
/* A counter track of @unit (PFT_UNIT_*), @unit_name if not NULL. */
int pft_counter_track(struct pft_writer *w, uint64_t uuid, uint64_t parent,
		      const char *name, int unit, const char *unit_name);

/* Slices nest per track: each begin is closed by an end on its track. */
int pft_slice_begin(struct pft_writer *w, uint64_t ts, uint64_t track,
		    const char *name);
int pft_slice_end(struct pft_writer *w, uint64_t ts, uint64_t track);
int pft_instant(struct pft_writer *w, uint64_t ts, uint64_t track,
		const char *name);
int pft_counter(struct pft_writer *w, uint64_t ts, uint64_t track,
		double value);

#endif
