// SPDX-License-Identifier: GPL-2.0-only
/*
 * The protocol buffer wire format (perfetto/pb.h): varints, fixed64,
 * length-delimited fields and nested messages with patched lengths.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto/pb.h"

/* A nested message's length: four bytes, the first three continued. */
#define PB_LEN_BYTES	4

void pb_init(struct pb_buf *b)
{
	memset(b, 0, sizeof(*b));
}

void pb_free(struct pb_buf *b)
{
	free(b->p);
	pb_init(b);
}

void pb_reset(struct pb_buf *b)
{
	b->len = 0;
}

int pb_error(const struct pb_buf *b)
{
	return b->err;
}

/* Room for @n more bytes; false (and the error set) when there is none. */
static int pb_room(struct pb_buf *b, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (b->err)
		return 0;
	if (b->cap - b->len >= n)
		return 1;
	cap = b->cap ? b->cap : 256;
	while (cap - b->len < n) {
		if (cap > SIZE_MAX / 2) {
			b->err = ENOMEM;
			return 0;
		}
		cap *= 2;
	}
	p = realloc(b->p, cap);
	if (!p) {
		b->err = ENOMEM;
		return 0;
	}
	b->p = p;
	b->cap = cap;
	return 1;
}

uint8_t *pb_reserve(struct pb_buf *b, size_t n)
{
	return pb_room(b, n) ? b->p + b->len : NULL;
}

static void pb_put(struct pb_buf *b, const void *p, size_t n)
{
	if (!pb_room(b, n))
		return;
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

void pb_varint(struct pb_buf *b, uint64_t v)
{
	if (pb_room(b, PB_VARINT_MAX))
		b->len += pb_varint_at(b->p + b->len, v);
}

void pb_tag(struct pb_buf *b, uint32_t field, unsigned int wire)
{
	pb_varint(b, (uint64_t)field << 3 | wire);
}

void pb_uint(struct pb_buf *b, uint32_t field, uint64_t v)
{
	if (!pb_room(b, 2 * PB_VARINT_MAX))
		return;
	b->len += pb_varint_at(b->p + b->len, (uint64_t)field << 3 | PB_VARINT);
	b->len += pb_varint_at(b->p + b->len, v);
}

void pb_int(struct pb_buf *b, uint32_t field, int64_t v)
{
	pb_uint(b, field, (uint64_t)v);
}

void pb_sint(struct pb_buf *b, uint32_t field, int64_t v)
{
	pb_uint(b, field, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

void pb_double(struct pb_buf *b, uint32_t field, double v)
{
	uint8_t out[8];
	uint64_t u;
	int i;

	memcpy(&u, &v, sizeof(u));
	for (i = 0; i < 8; i++)
		out[i] = u >> (8 * i);
	pb_tag(b, field, PB_FIXED64);
	pb_put(b, out, sizeof(out));
}

void pb_bytes(struct pb_buf *b, uint32_t field, const void *p, size_t n)
{
	pb_tag(b, field, PB_LEN);
	pb_varint(b, n);
	pb_put(b, p, n);
}

void pb_string(struct pb_buf *b, uint32_t field, const char *s)
{
	pb_bytes(b, field, s, strlen(s));
}

size_t pb_begin(struct pb_buf *b, uint32_t field)
{
	static const uint8_t zero[PB_LEN_BYTES];
	size_t mark;

	pb_tag(b, field, PB_LEN);
	mark = b->len;
	pb_put(b, zero, sizeof(zero));
	return mark;
}

void pb_end(struct pb_buf *b, size_t mark)
{
	size_t n;
	int i;

	if (b->err)
		return;
	n = b->len - mark - PB_LEN_BYTES;
	if (n > PB_NESTED_MAX) {
		b->err = EMSGSIZE;
		return;
	}
	for (i = 0; i < PB_LEN_BYTES; i++)
		b->p[mark + i] = ((n >> (7 * i)) & 0x7f) |
				 (i < PB_LEN_BYTES - 1 ? 0x80 : 0);
}

void pb_append_as(struct pb_buf *out, uint32_t field, struct pb_buf *b)
{
	if (b->err && !out->err)
		out->err = b->err;
	if (b->err || !pb_room(out, 20 + b->len)) {
		pb_reset(b);
		return;
	}
	out->len += pb_varint_at(out->p + out->len, (uint64_t)field << 3 | PB_LEN);
	out->len += pb_varint_at(out->p + out->len, b->len);
	memcpy(out->p + out->len, b->p, b->len);
	out->len += b->len;
	pb_reset(b);
}

int pb_write(struct pb_buf *b, FILE *f)
{
	int ret = 0;

	if (b->err)
		return -1;
	if (b->len && fwrite(b->p, 1, b->len, f) != b->len) {
		b->err = errno ? errno : EIO;
		ret = -1;
	}
	pb_reset(b);
	return ret;
}

int pb_flush_as(struct pb_buf *b, uint32_t field, FILE *f)
{
	struct pb_buf out;
	int ret;

	pb_init(&out);
	pb_append_as(&out, field, b);
	ret = pb_write(&out, f);
	if (ret)
		b->err = out.err;
	pb_free(&out);
	return ret;
}
