/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Checking a tracepoint payload against its event's format before
 * libtraceevent reads it: libtraceevent trusts field offsets, sizes and
 * __data_loc words, so a corrupted record would have it read out of
 * bounds.
 */
#ifndef PERF_GPU_PERFDATA_TRACE_PRINT_H
#define PERF_GPU_PERFDATA_TRACE_PRINT_H

#include <stdbool.h>
#include <stdint.h>

#include <traceevent/event-parse.h>

#include "perfdata/read.h"

/*
 * 0 when every field of @event lies within the @s->raw_size bytes of
 * @s->raw, every __data_loc/__rel_loc points inside them, and the
 * payload's common_type is the event's id; else -1 with @f's error set
 * at the offset of the offending bytes.
 */
int script_raw_check(struct pdr_file *f, const struct pdr_sample *s,
		     struct tep_event *event);

/*
 * Whether printing the checked payload @s by @event's print fmt could
 * have libtraceevent divide by zero: it divides (/ and %) without
 * looking at the divisor, and SIGFPE ends the program.  True when a
 * divisor in the print fmt is a field that is 0 in @s, or anything this
 * check does not work out (an expression); the thermal and devfreq
 * events of the kernel divide by a field.
 */
bool script_raw_divides_by_zero(const struct pdr_sample *s,
				struct tep_event *event);

/*
 * The extent of dynamic field @name of a checked payload: 0 with its
 * offset and length, -1 when the event has no such field.
 */
int script_raw_dynamic(const struct pdr_sample *s, struct tep_event *event,
		       const char *name, uint32_t *off, uint32_t *len);

#endif
