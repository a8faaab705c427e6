// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: the OA record stream parser, shared by the module and the
 * tools.  Bytes arrive in pieces of any size; a record split between
 * pieces is assembled in the caller's buffer, one that arrives whole is
 * used where it lies, and either is checked before anyone sees it: its size
 * against the header and its type, a report against the format that
 * DEVICE_INFO declared.  The first bad record stops the stream: sizes
 * are what delimit records, so nothing after a bad one can be trusted.
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/string.h>
#else
#include <string.h>
#endif

#include "oa_decode.h"

#define HDR sizeof(struct gpuprof_oa_record_header)

void gpuprof_oa_stream_init(struct gpuprof_oa_stream *s, __u8 *buf)
{
	memset(s, 0, sizeof(*s));
	s->buf = buf;
}

const char *gpuprof_oa_error_name(enum gpuprof_oa_error e)
{
	switch (e) {
	case GPUPROF_OA_OK:
		return "ok";
	case GPUPROF_OA_ERR_SIZE:
		return "bad record size";
	case GPUPROF_OA_ERR_NO_INFO:
		return "report before DEVICE_INFO";
	case GPUPROF_OA_ERR_DEVICE:
		return "unknown device or report format";
	case GPUPROF_OA_ERR_VERSION:
		return "unknown stream version";
	case GPUPROF_OA_ERR_TRUNCATED:
		return "stream ends inside a record";
	}
	return "?";
}

static __u32 gpuprof_oa_le32(const __u8 *p)
{
	return p[0] | (p[1] << 8) | (p[2] << 16) | ((__u32)p[3] << 24);
}

/* The size a record of @type must have, 0 for "at least a header". */
static __u32 gpuprof_oa_record_size(const struct gpuprof_oa_stream *s,
				    __u32 type)
{
	switch (type) {
	case GPUPROF_OA_RECORD_SAMPLE:
		return HDR + s->layout.size;
	case GPUPROF_OA_RECORD_REPORT_LOST:
	case GPUPROF_OA_RECORD_BUFFER_LOST:
		return HDR;
	case GPUPROF_OA_RECORD_VERSION:
		return HDR + sizeof(struct gpuprof_oa_version);
	case GPUPROF_OA_RECORD_DEVICE_INFO:
		return HDR + sizeof(struct gpuprof_oa_device_info);
	case GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION:
		return HDR + sizeof(struct gpuprof_oa_correlation);
	case GPUPROF_OA_RECORD_CORRELATION_BOUND:
		return HDR + sizeof(struct gpuprof_oa_correlation_bound);
	}
	return 0;
}

/* Check the whole record at @rec and take what the stream needs of it. */
static enum gpuprof_oa_error gpuprof_oa_record(struct gpuprof_oa_stream *s,
					       const __u8 *rec, __u32 type,
					       __u32 size)
{
	const __u8 *payload = rec + HDR;
	__u32 want;

	if (type == GPUPROF_OA_RECORD_SAMPLE && !s->have_info)
		return GPUPROF_OA_ERR_NO_INFO;
	want = gpuprof_oa_record_size(s, type);
	if (want && size != want)
		return GPUPROF_OA_ERR_SIZE;

	switch (type) {
	case GPUPROF_OA_RECORD_SAMPLE:
		s->samples++;
		break;
	case GPUPROF_OA_RECORD_REPORT_LOST:
		s->report_lost++;
		break;
	case GPUPROF_OA_RECORD_BUFFER_LOST:
		s->buffer_lost++;
		break;
	case GPUPROF_OA_RECORD_VERSION:
		if (gpuprof_oa_le32(payload) != GPUPROF_OA_STREAM_VERSION)
			return GPUPROF_OA_ERR_VERSION;
		break;
	case GPUPROF_OA_RECORD_DEVICE_INFO:
		memcpy(&s->info, payload, sizeof(s->info));
		s->have_info = false;
		/* OA timestamps tick at MHz, not THz: refuse nonsense. */
		if (gpuprof_oa_layout(gpuprof_oa_gen_of_device(s->info.device_id),
				      s->info.oa_format, &s->layout) ||
		    !s->info.timestamp_frequency ||
		    s->info.timestamp_frequency > 10000000000ull)
			return GPUPROF_OA_ERR_DEVICE;
		s->info.metric_set_name[sizeof(s->info.metric_set_name) - 1] = 0;
		s->info.metric_set_uuid[sizeof(s->info.metric_set_uuid) - 1] = 0;
		s->have_info = true;
		break;
	case GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION:
	case GPUPROF_OA_RECORD_CORRELATION_BOUND:
		s->correlations++;
		break;
	case GPUPROF_OA_RECORD_DEVICE_TOPOLOGY:
		break;
	default:
		/* An extension we do not know: its size delimits it. */
		s->unknown++;
		break;
	}
	s->records++;
	return GPUPROF_OA_OK;
}

/*
 * Hand a checked record to @fn with its header copied out: records lie
 * where they arrived, at any alignment.  The payload is bytes.
 */
static void gpuprof_oa_deliver(const struct gpuprof_oa_stream *s,
			       const __u8 *rec, gpuprof_oa_record_fn fn,
			       void *arg)
{
	struct gpuprof_oa_record_header h;

	memcpy(&h, rec, sizeof(h));
	fn(arg, s, &h, rec + HDR);
}

/**
 * gpuprof_oa_stream_feed - take the next @len bytes of the stream
 * @s: the stream
 * @data: the bytes
 * @len: their number
 * @fn: called for each valid record, may be NULL
 * @arg: passed to @fn
 *
 * Return: 0, or -1 when a record was bad (s->error says why; records
 * before it were taken).  A refused stream takes nothing more.
 */
int gpuprof_oa_stream_feed(struct gpuprof_oa_stream *s, const void *data,
			   size_t len, gpuprof_oa_record_fn fn, void *arg)
{
	const __u8 *p = data;
	__u32 need, take;

	if (s->error)
		return -1;
	while (len) {
		/* A whole record in the input is checked where it lies. */
		if (!s->have && len >= HDR) {
			__u32 size = p[6] | (p[7] << 8);

			if (size < HDR) {
				s->error = GPUPROF_OA_ERR_SIZE;
				return -1;
			}
			if (size <= len) {
				s->error = gpuprof_oa_record(s, p, gpuprof_oa_le32(p),
							     size);
				if (s->error)
					return -1;
				if (fn)
					gpuprof_oa_deliver(s, p, fn, arg);
				p += size;
				len -= size;
				continue;
			}
		}
		/* Else it is assembled: the header first, then the rest. */
		need = s->have < HDR ? HDR : s->size;
		take = need - s->have;
		if (take > len)
			take = len;
		memcpy(s->buf + s->have, p, take);
		s->have += take;
		p += take;
		len -= take;
		if (s->have < HDR)
			continue;
		if (need == HDR) {
			s->size = s->buf[6] | (s->buf[7] << 8);
			if (s->size < HDR) {
				s->error = GPUPROF_OA_ERR_SIZE;
				return -1;
			}
		}
		if (s->have < s->size)
			continue;

		s->error = gpuprof_oa_record(s, s->buf, gpuprof_oa_le32(s->buf),
					     s->size);
		if (s->error)
			return -1;
		if (fn)
			gpuprof_oa_deliver(s, s->buf, fn, arg);
		s->have = 0;
	}
	return 0;
}

/* The stream is over: a record cut short is an error.  Return: 0 or -1. */
int gpuprof_oa_stream_end(struct gpuprof_oa_stream *s)
{
	if (!s->error && s->have)
		s->error = GPUPROF_OA_ERR_TRUNCATED;
	return s->error ? -1 : 0;
}
