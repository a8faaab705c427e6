// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the records of i915-perf read()s
 * (tools/perf-gpu/oa/i915-records.c), as gpuprof-oa --device and perf
 * gpu record's i915 source walk them.
 *
 * Input: byte 0 chooses the report size the records are held to (bits
 * 0-1: none, as perf gpu record; or 64, 128 or 256 bytes, as gpuprof-oa
 * with the A12, A12_B8_C8 or A32u40_A4u32_B8_C8 format of a Tiger Lake)
 * and how the rest is cut into read()s (the other bits, fuzz_pieces);
 * the rest is what the stream gave.  Each read is walked as the tools
 * walk it, a bad read stopping the walk: with a report size, as
 * gpuprof-oa --device (SAMPLE and loss records written with the OA
 * writer after a VERSION and a DEVICE_INFO of that format), without, as
 * perf gpu record (every record written as it is, but for the pad).
 *
 * Checks: records handed over lie inside the read, in order, and with
 * the bad one (if any) cover it exactly; a SAMPLE is of the report size
 * when one is set.  With a report size, the recording written is one the
 * stream parser of module/oa_decode.c takes whole, with as many samples
 * and losses as were passed; without, it is the records of the reads
 * byte for byte.  Each read is a buffer of exactly its size, so ASan
 * catches a record read past it.
 */
#include <string.h>

#include "fuzz.h"
#include "../../module/oa_decode.h"
#include "../../tools/perf-gpu/oa/i915-records.h"
#include "../../tools/perf-gpu/oa/writer.h"

#define HDR sizeof(struct gpuprof_oa_record_header)
#define TGL_DEVICE_ID	0x9a49

static const struct {
	size_t report_size;
	uint32_t format;
} sizes[4] = {
	{ 0, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8 },
	{ 64, GPUPROF_OA_FORMAT_A12 },
	{ 128, GPUPROF_OA_FORMAT_A12_B8_C8 },
	{ 256, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8 },
};

struct walk {
	const uint8_t *read;		/* the read being walked */
	size_t size, report_size;
	size_t next;			/* where the next record must start */
	struct oa_writer w;
	FILE *raw;			/* the records as read, without a size */
	uint64_t samples, lost, unknown;
};

static void on_record(void *arg, uint32_t type, const uint8_t *payload,
		      size_t len)
{
	struct walk *k = arg;

	/* In order, one after the other, inside the read. */
	FUZZ_CHECK(payload == k->read + k->next + HDR);
	FUZZ_CHECK(len <= k->size - k->next - HDR);
	if (!k->report_size) {
		struct gpuprof_oa_record_header h;

		/* perf gpu record's i915_record(): through whole, but for
		 * the header's pad, which the writer zeroes. */
		memcpy(&h, payload - HDR, HDR);
		h.pad = 0;
		FUZZ_CHECK(fwrite(&h, HDR, 1, k->raw) == 1);
		FUZZ_CHECK(!len || fwrite(payload, len, 1, k->raw) == 1);
		oa_write_record(&k->w, type, payload, len);
	}
	k->next += HDR + len;
	if (!k->report_size)
		return;
	switch (type) {
	case GPUPROF_OA_RECORD_SAMPLE:
		FUZZ_CHECK(!k->report_size || len == k->report_size);
		oa_write_sample(&k->w, payload, len);
		k->samples++;
		break;
	case GPUPROF_OA_RECORD_REPORT_LOST:
		oa_write_report_lost(&k->w);
		k->lost++;
		break;
	case GPUPROF_OA_RECORD_BUFFER_LOST:
		oa_write_buffer_lost(&k->w);
		k->lost++;
		break;
	default:
		k->unknown++;
		break;
	}
}

/* One read(): its own buffer of its size.  0, or -1 where it went bad. */
static int walk_read(struct walk *k, const uint8_t *data, size_t n)
{
	struct oa_i915_bad bad;
	uint8_t *read = malloc(n ? n : 1);
	int ret;

	FUZZ_CHECK(read);
	memcpy(read, data, n);
	k->read = read;
	k->size = n;
	k->next = 0;
	memset(&bad, 0xa5, sizeof(bad));
	ret = oa_i915_records(read, n, k->report_size, on_record, k, &bad);
	if (ret) {
		FUZZ_CHECK(ret == -1);
		/* The bad record starts where the good ones ended. */
		FUZZ_CHECK(bad.offset == k->next && bad.left == n - k->next);
		FUZZ_CHECK(bad.left > 0);
		if (bad.left >= HDR) {
			struct gpuprof_oa_record_header h;

			memcpy(&h, read + bad.offset, HDR);
			FUZZ_CHECK(bad.type == h.type && bad.size == h.size);
			FUZZ_CHECK(h.size < HDR || h.size > bad.left ||
				   (k->report_size &&
				    h.type == GPUPROF_OA_RECORD_SAMPLE &&
				    h.size != HDR + k->report_size));
		}
	} else {
		FUZZ_CHECK(k->next == n);
	}
	free(read);
	return ret;
}

static void write_header(struct walk *k, uint32_t format)
{
	struct gpuprof_oa_device_info info = {
		.timestamp_frequency = 19200000,
		.device_id = TGL_DEVICE_ID,
		.oa_format = format,
		.metric_set_name = "RenderBasic",
	};

	oa_write_version(&k->w);
	oa_write_device_info(&k->w, &info);
}

/* The recording written must be one the stream parser takes whole. */
static void check_recording(const struct walk *k, const char *rec, size_t len)
{
	struct gpuprof_oa_stream s;
	__u8 *buf = malloc(GPUPROF_OA_RECORD_MAX);

	FUZZ_CHECK(buf);
	gpuprof_oa_stream_init(&s, buf);
	FUZZ_CHECK(gpuprof_oa_stream_feed(&s, rec, len, NULL, NULL) == 0);
	FUZZ_CHECK(gpuprof_oa_stream_end(&s) == 0);
	FUZZ_CHECK(s.samples == k->samples);
	FUZZ_CHECK(s.report_lost + s.buffer_lost == k->lost);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_pieces pieces;
	struct walk k = { 0 };
	char *rec = NULL, *raw = NULL;
	size_t len = 0, raw_len = 0, hdr_len, off = 0, n;
	FILE *f;

	if (!size)
		return 0;
	k.report_size = sizes[data[0] & 3].report_size;
	fuzz_pieces_init(&pieces, data[0] >> 2);
	f = open_memstream(&rec, &len);
	k.raw = open_memstream(&raw, &raw_len);
	FUZZ_CHECK(f && k.raw);
	oa_writer_init(&k.w, f);
	write_header(&k, sizes[data[0] & 3].format);
	FUZZ_CHECK(oa_writer_flush(&k.w) == 0);
	hdr_len = len;
	for (data++, size--; off < size; off += n) {
		n = fuzz_piece(&pieces, size - off);
		if (walk_read(&k, data + off, n))
			break;
	}
	FUZZ_CHECK(oa_writer_flush(&k.w) == 0);
	FUZZ_CHECK(fclose(f) == 0 && fclose(k.raw) == 0);
	if (k.report_size)
		check_recording(&k, rec, len);
	else
		FUZZ_CHECK(len - hdr_len == raw_len &&
			   !memcmp(rec + hdr_len, raw, raw_len));
	free(rec);
	free(raw);
	return 0;
}
