// SPDX-License-Identifier: GPL-2.0-only
/*
 * Walking the records of one i915-perf read() (see oa/i915-records.h).
 * Every header is copied out before use: a record lies wherever the
 * previous one ended, at any alignment.
 */
#include <string.h>

#include "../../../uapi/gpuprof_oa.h"
#include "oa/i915-records.h"

int oa_i915_records(const uint8_t *p, size_t n, size_t report_size,
		    oa_i915_record_fn fn, void *arg, struct oa_i915_bad *bad)
{
	struct gpuprof_oa_record_header h = { 0 };
	size_t off = 0;

	while (n - off >= sizeof(h)) {
		memcpy(&h, p + off, sizeof(h));
		if (h.size < sizeof(h) || h.size > n - off ||
		    (report_size && h.type == GPUPROF_OA_RECORD_SAMPLE &&
		     h.size != sizeof(h) + report_size))
			break;
		fn(arg, h.type, p + off + sizeof(h), h.size - sizeof(h));
		off += h.size;
	}
	if (off == n)
		return 0;
	/* A header cut short has no fields to report. */
	if (n - off < sizeof(h))
		h.type = h.size = 0;
	bad->offset = off;
	bad->left = n - off;
	bad->type = h.type;
	bad->size = h.size;
	return -1;
}
