// SPDX-License-Identifier: GPL-2.0-only
/*
 * OA counter deltas on perf gpu script's oa_report lines.
 *
 * The payload has no format number, only the report's size.  256 bytes
 * is A32u40_A4u32_B8_C8 (format 10), the one perf gpu record takes on
 * gen8 and later, and its counter layout is the same on every such
 * generation; the smaller sizes are ambiguous (64 bytes is A12 or C4_B8,
 * 128 bytes a Haswell or a gen8 format), so they get no deltas rather
 * than wrong ones.  The header fields (reason, context, gpu_time) are
 * the payload's own, printed by its format.
 *
 * The line: " d_ts=N d_clk=N" (OA timestamp and GPU clock ticks between
 * the two reports, what every rate is relative to), then only the
 * counters that moved, as aN= bN= cN=.  A metric set leaves most of
 * its 52 counters at zero, and 52 numbers per line would bury the few
 * that matter; name=value pairs stay greppable and awk-able whichever
 * counters appear.
 */
#include <string.h>

#include "../../../module/oa_decode.h"
#include "oa/print.h"

static void print_nonzero(FILE *out, char name, const __u64 *v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (v[i])
			fprintf(out, " %c%u=%llu", name, i, (unsigned long long)v[i]);
}

void script_oa_print(struct script_oa *st, const uint8_t *report,
		     uint32_t size, FILE *out)
{
	struct gpuprof_oa_deltas d;
	struct gpuprof_oa_layout l;

	/* Gen 9 stands for all gen8+: only Haswell differs in deltas. */
	if (gpuprof_oa_layout(9, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8, &l) ||
	    size != l.size) {
		st->have_last = false;
		return;
	}
	if (st->have_last) {
		memset(&d, 0, sizeof(d));
		gpuprof_oa_accumulate(&l, st->last, report, &d);
		fprintf(out, " d_ts=%llu d_clk=%llu",
			(unsigned long long)d.timestamp,
			(unsigned long long)d.gpu_ticks);
		print_nonzero(out, 'a', d.a, GPUPROF_OA_A_COUNTERS);
		print_nonzero(out, 'b', d.b, GPUPROF_OA_B_COUNTERS);
		print_nonzero(out, 'c', d.c, GPUPROF_OA_C_COUNTERS);
	}
	memcpy(st->last, report, size);
	st->have_last = true;
}
