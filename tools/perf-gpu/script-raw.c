// SPDX-License-Identifier: GPL-2.0-only
/*
 * A payload against its format.  A __data_loc word is a u32, the length
 * in the high 16 bits and the offset from the payload start in the low;
 * a __rel_loc's offset counts from the end of the word itself.
 */
#include <string.h>

#include "script-raw.h"

/* The extent of dynamic field @fl in @s's payload (fields checked). */
static void dyn_extent(const struct pdr_sample *s,
		       const struct tep_format_field *fl, uint32_t *off,
		       uint32_t *len)
{
	uint32_t loc;

	memcpy(&loc, s->raw + fl->offset, 4);
	*off = loc & 0xffff;
	*len = loc >> 16;
	if (fl->flags & TEP_FIELD_IS_RELATIVE)
		*off += fl->offset + fl->size;
}

static int check_fields(struct pdr_file *f, const struct pdr_sample *s,
			struct tep_event *event, struct tep_format_field *fl)
{
	uint32_t off, len;

	for (; fl; fl = fl->next) {
		/* Offsets and sizes come from the file's format text. */
		if (fl->offset < 0 || fl->size < 0 ||
		    (uint64_t)fl->offset + (uint64_t)fl->size > s->raw_size)
			return pdr_error(f, s->raw_offset,
					 "raw data of %u bytes is shorter than field %s of %s:%s (%d+%d)",
					 s->raw_size, fl->name, event->system,
					 event->name, fl->offset, fl->size);
		if (!(fl->flags & TEP_FIELD_IS_DYNAMIC))
			continue;
		if (fl->size < 4)
			return pdr_error(f, s->raw_offset,
					 "dynamic field %s of %s:%s is not a u32",
					 fl->name, event->system, event->name);
		dyn_extent(s, fl, &off, &len);
		if ((uint64_t)off + len > s->raw_size)
			return pdr_error(f, s->raw_offset + fl->offset,
					 "__data_loc %s (%u+%u) runs past the raw data of %u bytes",
					 fl->name, off, len, s->raw_size);
	}
	return 0;
}

int script_raw_check(struct pdr_file *f, const struct pdr_sample *s,
		     struct tep_event *event)
{
	uint16_t type;

	if (s->raw_size < 2)
		return pdr_error(f, s->raw_offset, "raw data of %u bytes has no common_type",
				 s->raw_size);
	memcpy(&type, s->raw, 2);
	/* libtraceevent prints by common_type; perf names by the attr. */
	if (type != event->id)
		return pdr_error(f, s->raw_offset,
				 "common_type %u is not the id %d of its event %s:%s",
				 type, event->id, event->system, event->name);
	if (check_fields(f, s, event, event->format.common_fields) ||
	    check_fields(f, s, event, event->format.fields))
		return -1;
	return 0;
}

int script_raw_dynamic(const struct pdr_sample *s, struct tep_event *event,
		       const char *name, uint32_t *off, uint32_t *len)
{
	struct tep_format_field *fl = tep_find_field(event, name);

	if (!fl || !(fl->flags & TEP_FIELD_IS_DYNAMIC))
		return -1;
	dyn_extent(s, fl, off, len);
	return 0;
}
