/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * DOC: perfetto/pb - the protocol buffer wire format, written by hand
 *
 * A Perfetto trace is a protobuf message (Trace) whose one repeated
 * field (1) holds the TracePackets.  Nothing here knows a schema: the
 * callers (perfetto/trace.c) name field numbers and wire types from
 * Perfetto's published .proto files.  A message is built in a struct
 * pb_buf; a nested message gets a fixed four-byte length, written as a
 * varint with redundant continuation bytes and patched at its end, as
 * Perfetto's own protozero does, so nothing is built twice.  Four bytes
 * bound a nested message to 2^28 - 1 bytes: a longer one sets the
 * buffer's error (EMSGSIZE) rather than write a wrong length.  Every
 * write after an error is ignored; pb_error() says what went wrong.
 */
#ifndef PERF_GPU_PERFETTO_PB_H
#define PERF_GPU_PERFETTO_PB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The wire types this writer uses. */
#define PB_VARINT	0
#define PB_FIXED64	1
#define PB_LEN		2

/* The largest nested message a four-byte length holds. */
#define PB_NESTED_MAX	((1u << 28) - 1)

struct pb_buf {
	uint8_t *p;
	size_t len, cap;
	int err;		/* an errno: ENOMEM, EMSGSIZE */
};

void pb_init(struct pb_buf *b);
void pb_free(struct pb_buf *b);
/* Empty it, keeping the memory (and clearing no error). */
void pb_reset(struct pb_buf *b);
int pb_error(const struct pb_buf *b);

/* The most bytes a varint takes. */
#define PB_VARINT_MAX	10

/* @v's varint at @out (room for PB_VARINT_MAX bytes); its length. */
static inline size_t pb_varint_at(uint8_t *out, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		out[n++] = (v & 0x7f) | 0x80;
		v >>= 7;
	}
	out[n++] = v;
	return n;
}

/*
 * Room for @n bytes at the end, for the caller to encode into: where
 * they go, or NULL (the buffer's error set).  pb_commit() then adds the
 * @n bytes written there.
 */
uint8_t *pb_reserve(struct pb_buf *b, size_t n);

static inline void pb_commit(struct pb_buf *b, size_t n)
{
	b->len += n;
}

void pb_varint(struct pb_buf *b, uint64_t v);
void pb_tag(struct pb_buf *b, uint32_t field, unsigned int wire);

/* Fields: uint32/uint64/int32/int64/bool/enum as varints (a negative
 * int64 as its two's complement, ten bytes), sint64 zigzagged, double
 * as fixed64, string and bytes length-delimited. */
void pb_uint(struct pb_buf *b, uint32_t field, uint64_t v);
void pb_int(struct pb_buf *b, uint32_t field, int64_t v);
void pb_sint(struct pb_buf *b, uint32_t field, int64_t v);
void pb_double(struct pb_buf *b, uint32_t field, double v);
void pb_bytes(struct pb_buf *b, uint32_t field, const void *p, size_t n);
void pb_string(struct pb_buf *b, uint32_t field, const char *s);

/* A nested message: pb_begin() returns its mark, pb_end() closes it. */
size_t pb_begin(struct pb_buf *b, uint32_t field);
void pb_end(struct pb_buf *b, size_t mark);

/*
 * Write @b to @f as field @field of the enclosing message (Trace's
 * packet, 1), then empty it.  0, or -1 with the error in b->err (an
 * errno of the write, or the buffer's own).
 */
int pb_flush_as(struct pb_buf *b, uint32_t field, FILE *f);

/*
 * The same into @out instead of a file (an error of @b's becomes
 * @out's), for writing many messages at once: then pb_write() writes
 * @out to @f and empties it (0, or -1 with the error in out->err).
 */
void pb_append_as(struct pb_buf *out, uint32_t field, struct pb_buf *b);
int pb_write(struct pb_buf *b, FILE *f);

#endif
