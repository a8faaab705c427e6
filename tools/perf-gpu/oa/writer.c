// SPDX-License-Identifier: GPL-2.0-only
/*
 * The OA record stream writer.  Every record is an 8-byte header
 * {type, pad, size} and a payload; size counts both and is a u16, so a
 * record never exceeds 65535 bytes.
 */
#include <errno.h>
#include <string.h>

#include "oa/writer.h"

#define HDR sizeof(struct gpuprof_oa_record_header)
#define RECORD_MAX 0xffff	/* size is a u16 */

void oa_writer_init(struct oa_writer *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	if (!f)
		w->error = EBADF;
}

/* 0, or the errno of the first failure. */
int oa_writer_error(const struct oa_writer *w)
{
	return w->error;
}

static int oa_fail(struct oa_writer *w, int err)
{
	if (!w->error)
		w->error = err ? err : EIO;
	return -1;
}

/* Push buffered records out: a full disk shows here at the latest. */
int oa_writer_flush(struct oa_writer *w)
{
	if (w->error)
		return -1;
	errno = 0;
	if (fflush(w->f))
		return oa_fail(w, errno);
	return 0;
}

/* Write a header and @len bytes of payload, then zeros up to @padded. */
static int oa_write_padded(struct oa_writer *w, uint32_t type,
			   const void *payload, size_t len, size_t padded)
{
	static const uint8_t zeros[8];
	struct gpuprof_oa_record_header h = { .type = type };

	if (w->error)
		return -1;
	if (padded < len || padded - len > sizeof(zeros) ||
	    padded > RECORD_MAX - HDR || (len && !payload))
		return oa_fail(w, EINVAL);
	h.size = HDR + padded;
	errno = 0;
	if (fwrite(&h, HDR, 1, w->f) != 1 ||
	    (len && fwrite(payload, len, 1, w->f) != 1) ||
	    (padded > len && fwrite(zeros, padded - len, 1, w->f) != 1))
		return oa_fail(w, errno);
	w->records++;
	w->bytes += h.size;
	return 0;
}

/* One record of type @type with @len bytes of payload, unpadded. */
int oa_write_record(struct oa_writer *w, uint32_t type, const void *payload,
		    size_t len)
{
	return oa_write_padded(w, type, payload, len, len);
}

int oa_write_version(struct oa_writer *w)
{
	struct gpuprof_oa_version v = { .version = GPUPROF_OA_STREAM_VERSION };

	return oa_write_record(w, GPUPROF_OA_RECORD_VERSION, &v, sizeof(v));
}

int oa_write_device_info(struct oa_writer *w,
			 const struct gpuprof_oa_device_info *info)
{
	return oa_write_record(w, GPUPROF_OA_RECORD_DEVICE_INFO, info,
			       sizeof(*info));
}

size_t oa_topology_size(const struct drm_i915_query_topology_info *topo)
{
	/* Masks follow the header: slices, subslices, then EUs, last. */
	return sizeof(*topo) + topo->eu_offset +
	       (size_t)topo->max_slices * topo->max_subslices * topo->eu_stride;
}

/*
 * @len bytes of @topo, header and masks.  Readers take the record's
 * payload as the struct, so the masks must all be there; the record is
 * padded to 8 bytes as the recorder does, which keeps the records after
 * it aligned for readers that mmap the file.
 */
int oa_write_topology(struct oa_writer *w,
		      const struct drm_i915_query_topology_info *topo,
		      size_t len)
{
	if (!topo || len < oa_topology_size(topo))
		return oa_fail(w, EINVAL);
	return oa_write_padded(w, GPUPROF_OA_RECORD_DEVICE_TOPOLOGY, topo, len,
			       (len + 7) & ~(size_t)7);
}

/*
 * A correlation point, then our CORRELATION_BOUND with the same point and
 * its error bound: readers that do not know the bound still get the point.
 */
int oa_write_correlation(struct oa_writer *w, uint64_t cpu_ns,
			 uint64_t gpu_ts, uint64_t window_ns)
{
	struct gpuprof_oa_correlation c = {
		.cpu_timestamp = cpu_ns, .gpu_timestamp = gpu_ts,
	};
	struct gpuprof_oa_correlation_bound b = {
		.cpu_timestamp = cpu_ns, .gpu_timestamp = gpu_ts,
		.window_ns = window_ns,
	};

	if (oa_write_record(w, GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION, &c,
			    sizeof(c)))
		return -1;
	return oa_write_record(w, GPUPROF_OA_RECORD_CORRELATION_BOUND, &b,
			       sizeof(b));
}

int oa_write_sample(struct oa_writer *w, const void *report, size_t size)
{
	/* i915's OA formats are 64, 128 or 256 bytes; xe's also 192 and
	 * 320 (OAC, MPEC, PEC), 576 and 640 (PEC64u64, with B and C). */
	if (size != 64 && size != 128 && size != 192 && size != 256 &&
	    size != 320 && size != 576 && size != GPUPROF_OA_REPORT_MAX)
		return oa_fail(w, EINVAL);
	return oa_write_record(w, GPUPROF_OA_RECORD_SAMPLE, report, size);
}

int oa_write_report_lost(struct oa_writer *w)
{
	return oa_write_record(w, GPUPROF_OA_RECORD_REPORT_LOST, NULL, 0);
}

int oa_write_buffer_lost(struct oa_writer *w)
{
	return oa_write_record(w, GPUPROF_OA_RECORD_BUFFER_LOST, NULL, 0);
}
