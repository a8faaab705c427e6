/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A real tracepoint for the perf.data tests: dma_fence:dma_fence_signaled
 * as a 6.1 kernel's tracefs prints its format, and payloads for it built
 * by hand, so every reader is exercised even where tracefs is not
 * mounted; and which perf binary to compare with.
 */
#ifndef GPUPROF_TEST_FENCE_FORMAT_H
#define GPUPROF_TEST_FENCE_FORMAT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/perf-gpu/perfdata/tracing-data.h"

static inline const char *perf_bin(void)
{
	const char *p = getenv("GPUPROF_PERF");

	return p ? p : "/usr/bin/perf";
}

/*
 * A real format, as a 6.1 kernel's tracefs prints it for
 * dma_fence:dma_fence_signaled (include/trace/events/dma_fence.h), so
 * that a system other than ours goes through every reader here even
 * where tracefs is not mounted.  Its id is this file's to choose.
 */
#define FENCE_ID 589
static const char fence_format[] =
	"name: dma_fence_signaled\n"
	"ID: 589\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:__data_loc char[] driver;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] timeline;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int context;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int seqno;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"driver=%s timeline=%s context=%u seqno=%u\", "
	"__get_str(driver), __get_str(timeline), REC->context, REC->seqno\n";

/* A dma_fence_signaled payload by hand: 24 fixed bytes, two strings. */
static inline size_t fence_payload(uint8_t *p, int32_t pid, const char *driver,
			    const char *timeline, uint32_t context,
			    uint32_t seqno)
{
	uint16_t type = FENCE_ID;
	size_t dl = strlen(driver) + 1, tl = strlen(timeline) + 1;
	uint32_t loc;

	memset(p, 0, 24);
	memcpy(p, &type, 2);
	memcpy(p + 4, &pid, 4);
	loc = dl << 16 | 24;
	memcpy(p + 8, &loc, 4);
	loc = tl << 16 | (24 + dl);
	memcpy(p + 12, &loc, 4);
	memcpy(p + 16, &context, 4);
	memcpy(p + 20, &seqno, 4);
	memcpy(p + 24, driver, dl);
	memcpy(p + 24 + dl, timeline, tl);
	return 24 + dl + tl;
}

/*
 * The tracing data of the perf.data tests: the fence format and the
 * synthetic events; their ids in @ids.  NULL on failure.
 */
static inline void *fence_tracing_data(struct gpu_synth_ids *ids, size_t *len)
{
	struct tracing_data *td = tracing_data_new();
	void *blob = NULL;

	if (td && tracing_data_add_format(td, "dma_fence", fence_format,
					  strlen(fence_format)) == FENCE_ID &&
	    !tracing_data_add_synthetic(td, ids))
		blob = tracing_data_build(td, len);
	tracing_data_free(td);
	return blob;
}

#endif
