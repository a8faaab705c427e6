/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The records one read() of an i915-perf stream returns (design.rst
 * 4): each a drm_i915_perf_record_header, {u32 type; u16 pad;
 * u16 size}, size counting the header, then the payload; i915 returns
 * whole records only.  Pure, no I/O: gpuprof-oa --device and perf gpu
 * record's i915 source walk their reads with it, and so does the fuzz
 * target of selftests/fuzz/.
 */
#ifndef PERF_GPU_OA_I915_RECORDS_H
#define PERF_GPU_OA_I915_RECORDS_H

#include <stddef.h>
#include <stdint.h>

/* Called for each record in turn, with its @len bytes of payload. */
typedef void (*oa_i915_record_fn)(void *arg, uint32_t type,
				  const uint8_t *payload, size_t len);

/* Where and why a read's records stopped making sense. */
struct oa_i915_bad {
	size_t offset;		/* of the bad record in the buffer */
	size_t left;		/* bytes from there to the end */
	uint32_t type;		/* its header, when @left covers one */
	uint16_t size;
};

/*
 * Hand each record of the @n bytes at @p to @fn, in order.  A SAMPLE
 * must carry exactly @report_size bytes of report, unless @report_size
 * is 0.  Return: 0 when whole records fill the buffer; -1 at the first
 * record that is cut short, whose size is below its header or past the
 * buffer, or a SAMPLE of the wrong size: the records before it went to
 * @fn, and @bad says where it is and, if @bad->left is at least a
 * header, what its header says.
 */
int oa_i915_records(const uint8_t *p, size_t n, size_t report_size,
		    oa_i915_record_fn fn, void *arg, struct oa_i915_bad *bad);

#endif
