// SPDX-License-Identifier: GPL-2.0-only
/*
 * A payload against its format.  A __data_loc word is a u32, the length
 * in the high 16 bits and the offset from the payload start in the low;
 * a __rel_loc's offset counts from the end of the word itself.
 */
#include <stdlib.h>
#include <string.h>

#include "perfdata/trace-print.h"

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

/*
 * Is @a, a divisor, surely not 0 for @s?  Constants and fields are
 * read as libtraceevent reads them (strtoull; tep_read_number(), 0 for
 * a size it does not read); a typecast keeps at least the low byte, so
 * a value whose low byte is not 0 stays non-zero through any.  Anything
 * else is not worked out here: maybe 0.
 */
static bool divisor_nonzero(const struct pdr_sample *s,
			    struct tep_event *event, struct tep_print_arg *a,
			    bool cast)
{
	struct tep_format_field *fl;
	unsigned long long v;

	switch (a->type) {
	case TEP_PRINT_ATOM:
		v = strtoull(a->atom.atom, NULL, 0);
		break;
	case TEP_PRINT_FIELD:
		fl = a->field.field ? a->field.field :
		     tep_find_any_field(event, a->field.name);
		if (!fl)
			return false;
		/* script_raw_check() put the field inside the payload. */
		v = tep_read_number(event->tep, s->raw + fl->offset, fl->size);
		break;
	case TEP_PRINT_TYPE:
		return a->typecast.item &&
		       divisor_nonzero(s, event, a->typecast.item, true);
	default:
		return false;
	}
	return cast ? (v & 0xff) != 0 : v != 0;
}

static bool divides_by_zero(const struct pdr_sample *s,
			    struct tep_event *event, struct tep_print_arg *a)
{
	for (; a; a = a->next) {
		switch (a->type) {
		case TEP_PRINT_OP:
			if (a->op.op && (!strcmp(a->op.op, "/") ||
					 !strcmp(a->op.op, "%")) &&
			    (!a->op.right ||
			     !divisor_nonzero(s, event, a->op.right, false)))
				return true;
			if (divides_by_zero(s, event, a->op.left) ||
			    divides_by_zero(s, event, a->op.right))
				return true;
			break;
		case TEP_PRINT_TYPE:
			if (divides_by_zero(s, event, a->typecast.item))
				return true;
			break;
		case TEP_PRINT_FLAGS:
			if (divides_by_zero(s, event, a->flags.field))
				return true;
			break;
		case TEP_PRINT_SYMBOL:
			if (divides_by_zero(s, event, a->symbol.field))
				return true;
			break;
		case TEP_PRINT_HEX:
		case TEP_PRINT_HEX_STR:
			if (divides_by_zero(s, event, a->hex.field) ||
			    divides_by_zero(s, event, a->hex.size))
				return true;
			break;
		case TEP_PRINT_INT_ARRAY:
			if (divides_by_zero(s, event, a->int_array.field) ||
			    divides_by_zero(s, event, a->int_array.count) ||
			    divides_by_zero(s, event, a->int_array.el_size))
				return true;
			break;
		case TEP_PRINT_FUNC:
			if (divides_by_zero(s, event, a->func.args))
				return true;
			break;
		case TEP_PRINT_DYNAMIC_ARRAY:
			if (divides_by_zero(s, event, a->dynarray.index))
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}

bool script_raw_divides_by_zero(const struct pdr_sample *s,
				struct tep_event *event)
{
	return divides_by_zero(s, event, event->print_fmt.args);
}
