/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Build OA record streams byte by byte in the device tests: good ones
 * with reports whose counters rise by known steps, and broken ones.
 */
#ifndef GPUPROF_TEST_OA_BUILD_H
#define GPUPROF_TEST_OA_BUILD_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../uapi/gpuprof_oa.h"
#include "clock.h"

struct oa_buf {
	uint8_t *data;
	size_t len;
	size_t size;
};

static inline void oa_put(struct oa_buf *b, const void *p, size_t n)
{
	if (b->len + n > b->size) {
		b->size = (b->len + n) * 2;
		b->data = realloc(b->data, b->size);
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

/* A record with a header claiming @size bytes and @n bytes of payload. */
static inline void oa_record_raw(struct oa_buf *b, uint32_t type,
				 uint16_t size, const void *payload, size_t n)
{
	struct gpuprof_oa_record_header h = { .type = type, .size = size };

	oa_put(b, &h, sizeof(h));
	if (n)
		oa_put(b, payload, n);
}

static inline void oa_record(struct oa_buf *b, uint32_t type,
			     const void *payload, size_t n)
{
	oa_record_raw(b, type, sizeof(struct gpuprof_oa_record_header) + n,
		      payload, n);
}

#define OA_TGL_FREQ 19200000ull	/* Tiger Lake OA timestamp, Hz */

/* VERSION and DEVICE_INFO of a Tiger Lake GT2 with RenderBasic. */
static inline void oa_header(struct oa_buf *b, uint32_t device_id,
			     uint32_t format)
{
	struct gpuprof_oa_version v = { .version = 1 };
	struct gpuprof_oa_device_info di = {
		.timestamp_frequency = OA_TGL_FREQ,
		.device_id = device_id,
		.oa_format = format,
		.gt_min_frequency = 300,
		.gt_max_frequency = 1300,
	};

	strcpy(di.metric_set_name, "RenderBasic");
	oa_record(b, GPUPROF_OA_RECORD_VERSION, &v, sizeof(v));
	oa_record(b, GPUPROF_OA_RECORD_DEVICE_INFO, &di, sizeof(di));
}

/*
 * VERSION, DRIVER (xe, 6.12, GuC) and DEVICE_INFO of an xe GPU: a Lunar
 * Lake (0x6420) with PEC64u64 reports.
 */
static inline void oa_header_xe(struct oa_buf *b, uint32_t device_id,
				uint32_t format)
{
	struct gpuprof_oa_version v = { .version = 1 };
	struct gpuprof_oa_driver drv = {
		.kernel = 6 << 16 | 12 << 8,
		.submission = GPUPROF_OA_SUBMISSION_GUC,
		.driver = GPUPROF_OA_DRIVER_XE,
	};
	struct gpuprof_oa_device_info di = {
		.timestamp_frequency = OA_TGL_FREQ,
		.device_id = device_id,
		.oa_format = format,
		.gt_min_frequency = 400,
		.gt_max_frequency = 1950,
	};

	strcpy(di.metric_set_name, "RenderBasic");
	oa_record(b, GPUPROF_OA_RECORD_VERSION, &v, sizeof(v));
	oa_record(b, GPUPROF_OA_RECORD_DRIVER, &drv, sizeof(drv));
	oa_record(b, GPUPROF_OA_RECORD_DEVICE_INFO, &di, sizeof(di));
}

static inline void oa_correlation(struct oa_buf *b, uint64_t cpu_ns,
				  uint64_t gpu)
{
	struct gpuprof_oa_correlation c = { cpu_ns, gpu };

	oa_record(b, GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION, &c, sizeof(c));
}

/*
 * Report @i of a gen12 format-10 stream: timestamp @ts, context @ctx
 * (GPUPROF_OA_NO_CONTEXT for none, as i915 squashes an id it does not
 * trust), bit 16 set when @valid, reason @reason; A0 rises 100, A33 7,
 * C2 3 and the clock 1000 ticks per report, B1 is @b1.
 */
static inline void oa_report_b1(struct oa_buf *b, uint32_t i, uint32_t ts,
				uint32_t ctx, uint32_t reason, int valid,
				uint32_t b1)
{
	uint32_t r[64] = {};

	r[0] = reason << 19 | (valid ? 1u << 16 : 0);
	r[1] = ts;
	r[2] = ctx;
	r[3] = 1000 * i;
	r[4] = 100 * i;			/* A0, low 32 of 40 bits */
	r[36 + 1] = 7 * i;		/* A33 */
	r[48 + 1] = b1;			/* B1 */
	r[56 + 2] = 3 * i;		/* C2 */
	oa_record(b, GPUPROF_OA_RECORD_SAMPLE, r, sizeof(r));
}

/* The same, B1 rising 5 a report. */
static inline void oa_report_valid(struct oa_buf *b, uint32_t i, uint32_t ts,
				   uint32_t ctx, uint32_t reason, int valid)
{
	oa_report_b1(b, i, ts, ctx, reason, valid, 5 * i);
}

static inline void oa_report(struct oa_buf *b, uint32_t i, uint32_t ts,
			     uint32_t ctx, uint32_t reason)
{
	oa_report_valid(b, i, ts, ctx, reason, ctx != GPUPROF_OA_NO_CONTEXT);
}

/*
 * Report @i of an Xe2 PEC64u64 stream (576 bytes, 64-bit header): the
 * low 56 bits of @ts, context @ctx with bit 16 when it is one, reason
 * @reason; PEC0 rises 100, PEC32 7 and PEC63 2^33 per report from
 * 2^40, the 64-bit clock 1000 ticks from 2^32.
 */
static inline void oa_report_pec(struct oa_buf *b, uint32_t i, uint64_t ts,
				 uint32_t ctx, uint32_t reason)
{
	uint64_t r[72] = {};

	r[0] = reason << 19 | (ctx != GPUPROF_OA_NO_CONTEXT ? 1u << 16 : 0);
	r[1] = ts & ((1ull << 56) - 1);
	r[2] = ctx;			/* dword 4 */
	r[3] = (1ull << 32) + 1000ull * i;
	r[4 + 0] = (1ull << 40) + 100ull * i;
	r[4 + 32] = 7ull * i;
	r[4 + 63] = (1ull << 33) * i;
	oa_record(b, GPUPROF_OA_RECORD_SAMPLE, r, sizeof(r));
}

#endif
