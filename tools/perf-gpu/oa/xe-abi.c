// SPDX-License-Identifier: GPL-2.0-only
/*
 * What xe's replies and values mean (see oa/xe-abi.h).  Pure: no I/O.
 */
#include <stdio.h>
#include <string.h>

#include <i915_drm.h>

#include "../../../module/oa_decode.h"
#include "oa/xe-abi.h"

#define OA_XE_UNITS_HEAD	offsetof(struct oa_xe_query_oa_units, oa_units)
#define OA_XE_UNIT_HEAD		offsetof(struct oa_xe_oa_unit, eci)
#define OA_XE_ENGINE_SIZE	sizeof(struct oa_xe_engine_class_instance)

/* num_oa_units of a reply, 0 when it is shorter than its head. */
uint32_t oa_xe_unit_count(const void *reply, size_t size)
{
	struct oa_xe_query_oa_units h;

	if (size < OA_XE_UNITS_HEAD)
		return 0;
	memcpy(&h, reply, OA_XE_UNITS_HEAD);
	return h.num_oa_units;
}

/**
 * oa_xe_unit_find - the OA unit of id @id in a QUERY_OA_UNITS reply
 * @reply: the reply
 * @size: its bytes, as the kernel sized it
 * @id: the oa_unit_id wanted
 * @out: filled in when found
 *
 * Units are of variable size, 72 bytes and 8 per engine, one after the
 * other: each must be walked by its own num_engines.  The kernel sizes
 * the reply for every engine of a unit but lists only those not reserved,
 * so zeroes may follow the last unit.
 */
enum oa_xe_unit_result oa_xe_unit_find(const void *reply, size_t size,
				       uint32_t id, struct oa_xe_unit *out)
{
	const uint8_t *p = reply;
	uint32_t i, n = oa_xe_unit_count(reply, size);
	struct oa_xe_oa_unit u;
	size_t off = OA_XE_UNITS_HEAD, engines;

	for (i = 0; i < n; i++) {
		if (size - off < OA_XE_UNIT_HEAD)
			return OA_XE_UNIT_MALFORMED;
		memcpy(&u, p + off, OA_XE_UNIT_HEAD);
		if (u.num_engines > (size - off - OA_XE_UNIT_HEAD) /
				    OA_XE_ENGINE_SIZE)
			return OA_XE_UNIT_MALFORMED;
		engines = u.num_engines * OA_XE_ENGINE_SIZE;
		if (u.oa_unit_id == id) {
			memset(out, 0, sizeof(*out));
			out->id = u.oa_unit_id;
			out->type = u.oa_unit_type;
			out->capabilities = u.capabilities;
			out->timestamp_hz = u.oa_timestamp_freq;
			out->num_engines = u.num_engines;
			if (u.num_engines) {
				memcpy(&out->engine, p + off + OA_XE_UNIT_HEAD,
				       OA_XE_ENGINE_SIZE);
				out->gt_id = out->engine.gt_id;
				out->has_gt = true;
			}
			if (u.capabilities & OA_XE_OA_CAPS_OA_UNIT_GT_ID) {
				out->gt_id = u.gt_id;
				out->has_gt = true;
			}
			return OA_XE_UNIT_FOUND;
		}
		off += OA_XE_UNIT_HEAD + engines;
	}
	return OA_XE_UNIT_ABSENT;
}

/*
 * The name of an OA unit type as xe_drm.h spells it (DRM_XE_OA_UNIT_TYPE_
 * less), NULL for one not known here: OAG and OAM since 6.12, the media
 * GT's OAM_SAG and the SoC's MERT since 7.3.
 */
const char *oa_xe_unit_type_name(uint32_t type)
{
	switch (type) {
	case OA_XE_OA_UNIT_TYPE_OAG:
		return "OAG";
	case OA_XE_OA_UNIT_TYPE_OAM:
		return "OAM";
	case OA_XE_OA_UNIT_TYPE_OAM_SAG:
		return "OAM_SAG";
	case OA_XE_OA_UNIT_TYPE_MERT:
		return "MERT";
	}
	return NULL;
}

/*
 * The name of an OA stream property as xe_drm.h spells it
 * (DRM_XE_OA_PROPERTY_ less), NULL for one not known here: 1 to 11
 * since 6.12, OA_BUFFER_SIZE and WAIT_NUM_REPORTS since 7.3.
 */
const char *oa_xe_prop_name(uint32_t prop)
{
	static const char *const names[] = {
		[OA_XE_PROP_OA_UNIT_ID] = "OA_UNIT_ID",
		[OA_XE_PROP_SAMPLE_OA] = "SAMPLE_OA",
		[OA_XE_PROP_OA_METRIC_SET] = "OA_METRIC_SET",
		[OA_XE_PROP_OA_FORMAT] = "OA_FORMAT",
		[OA_XE_PROP_OA_PERIOD_EXPONENT] = "OA_PERIOD_EXPONENT",
		[OA_XE_PROP_OA_DISABLED] = "OA_DISABLED",
		[OA_XE_PROP_EXEC_QUEUE_ID] = "EXEC_QUEUE_ID",
		[OA_XE_PROP_OA_ENGINE_INSTANCE] = "OA_ENGINE_INSTANCE",
		[OA_XE_PROP_NO_PREEMPT] = "NO_PREEMPT",
		[OA_XE_PROP_NUM_SYNCS] = "NUM_SYNCS",
		[OA_XE_PROP_SYNCS] = "SYNCS",
		[OA_XE_PROP_OA_BUFFER_SIZE] = "OA_BUFFER_SIZE",
		[OA_XE_PROP_WAIT_NUM_REPORTS] = "WAIT_NUM_REPORTS",
	};

	return prop < ARRAY_SIZE(names) ? names[prop] : NULL;
}

/**
 * oa_xe_caps_names - an OA unit's capabilities, by name
 * @caps: its capabilities (OA_XE_OA_CAPS_*)
 * @buf: filled with the names, space-separated, as xe_drm.h spells them
 *	(DRM_XE_OA_CAPS_ less); a bit not known here as its number, "bit 6"
 * @size: bytes of @buf; the names are cut short to fit
 *
 * BASE and SYNCS are 6.12's; OA_BUFFER_SIZE, WAIT_NUM_REPORTS (the two
 * properties of those names), OAM and OA_UNIT_GT_ID 7.3's.
 */
void oa_xe_caps_names(uint64_t caps, char *buf, size_t size)
{
	static const char *const names[] = {
		"BASE", "SYNCS", "OA_BUFFER_SIZE", "WAIT_NUM_REPORTS", "OAM",
		"OA_UNIT_GT_ID",
	};
	size_t off = 0;
	unsigned int b;
	int n;

	if (!size)
		return;
	buf[0] = 0;
	for (b = 0; b < 64 && off < size; b++) {
		if (!(caps >> b & 1))
			continue;
		if (b < ARRAY_SIZE(names))
			n = snprintf(buf + off, size - off, "%s%s",
				     off ? " " : "", names[b]);
		else
			n = snprintf(buf + off, size - off, "%sbit %u",
				     off ? " " : "", b);
		if (n < 0)
			break;
		off += n;
	}
}

/* Our numbers of xe's format types are xe's own. */
_Static_assert(GPUPROF_OA_XE_OAG == OA_XE_FMT_TYPE_OAG &&
	       GPUPROF_OA_XE_OAR == OA_XE_FMT_TYPE_OAR &&
	       GPUPROF_OA_XE_OAM == OA_XE_FMT_TYPE_OAM &&
	       GPUPROF_OA_XE_OAC == OA_XE_FMT_TYPE_OAC &&
	       GPUPROF_OA_XE_OAM_MPEC == OA_XE_FMT_TYPE_OAM_MPEC &&
	       GPUPROF_OA_XE_PEC == OA_XE_FMT_TYPE_PEC,
	       "enum gpuprof_oa_xe_type is not xe's drm_xe_oa_format_type");

/*
 * @format as xe on a GPU of graphics IP @ip (x100) takes it: its row of
 * the format table (module/oa_platform.c), or NULL when xe does not
 * offer it there.
 */
const struct gpuprof_oa_format *oa_xe_format_of(unsigned int ip,
						uint32_t format)
{
	const struct gpuprof_oa_format *f = gpuprof_oa_format(format);

	return f && gpuprof_oa_ips_hold(f->xe, ip) ? f : NULL;
}

/*
 * OAG units take OAG, OAR, OAC and PEC reports; OAM ones OAM and MPEC, and
 * so do 7.3's OAM_SAG and MERT units (oa_unit_supports_oa_format()),
 * which gpuprof does not record from (oa/xe.c).
 */
bool oa_xe_format_fits_unit(const struct gpuprof_oa_format *f,
			    uint32_t unit_type)
{
	switch (unit_type) {
	case OA_XE_OA_UNIT_TYPE_OAG:
		return f->xe_fmt.type == OA_XE_FMT_TYPE_OAG ||
		       f->xe_fmt.type == OA_XE_FMT_TYPE_OAR ||
		       f->xe_fmt.type == OA_XE_FMT_TYPE_OAC ||
		       f->xe_fmt.type == OA_XE_FMT_TYPE_PEC;
	case OA_XE_OA_UNIT_TYPE_OAM:
	case OA_XE_OA_UNIT_TYPE_OAM_SAG:
	case OA_XE_OA_UNIT_TYPE_MERT:	/* Wa_14026746987: MPEC8u32 only */
		return f->xe_fmt.type == OA_XE_FMT_TYPE_OAM ||
		       f->xe_fmt.type == OA_XE_FMT_TYPE_OAM_MPEC;
	}
	return false;
}

/* The value of the OA_FORMAT property. */
uint32_t oa_xe_format_value(const struct gpuprof_oa_format *f)
{
	return OA_XE_FORMAT(f->xe_fmt.type, f->xe_fmt.sel,
			    f->xe_fmt.counter_size, f->xe_fmt.bc_report);
}

/*
 * The format recorded when the metric set names none: the one the
 * format table marks xe's default on @ip that the unit takes, the
 * richest the decoder reads: OAG, Xe2's 64 PEC counters; DG2 and MTL's
 * A24u40_A14u32_B8_C8, as i915 there; gen12's A32u40_A4u32_B8_C8.  OAM
 * (media, MTL on): MPEC8u32_B8_C8.  0 for a unit type not recorded.
 */
uint32_t oa_xe_default_format(unsigned int ip, uint32_t unit_type)
{
	const struct gpuprof_oa_format *f;
	uint32_t i;

	if (unit_type != OA_XE_OA_UNIT_TYPE_OAG &&
	    unit_type != OA_XE_OA_UNIT_TYPE_OAM)
		return 0;
	for (i = 0; i < GPUPROF_OA_FORMAT_MAX; i++) {
		f = gpuprof_oa_format(i);
		if (f && f->xe_default && gpuprof_oa_ips_hold(f->xe, ip) &&
		    oa_xe_format_fits_unit(f, unit_type))
			return i;
	}
	return 0;
}

/**
 * oa_xe_status_records - the records of the recording format that an OA
 * status stands for
 * @status: oa_status of DRM_XE_OBSERVATION_IOCTL_STATUS
 * @records: filled with GPUPROF_OA_RECORD_* types, in this order
 *
 * xe puts nothing in-band: where i915 wrote REPORT_LOST and BUFFER_LOST
 * records, its read() fails with EIO and STATUS says which.  Bit 0
 * (report lost) is REPORT_LOST, bit 1 (buffer overflow) BUFFER_LOST; the
 * others (OA_XE_STATUS_NOTED) have no record.
 *
 * Return: how many of @records were filled, 0 to 2.
 */
unsigned int oa_xe_status_records(uint64_t status, uint32_t records[2])
{
	unsigned int n = 0;

	if (status & OA_XE_OASTATUS_REPORT_LOST)
		records[n++] = GPUPROF_OA_RECORD_REPORT_LOST;
	if (status & OA_XE_OASTATUS_BUFFER_OVERFLOW)
		records[n++] = GPUPROF_OA_RECORD_BUFFER_LOST;
	return n;
}

/*
 * An engine_cycles reading of @width valid bits (36 before Xe2, 64 on
 * it), extended past the previous 64-bit value @last.
 */
uint64_t oa_xe_cycles_unwrap(uint64_t last, uint64_t raw, unsigned int width)
{
	if (width == 0 || width >= 64)
		return raw;
	return gpuprof_oa_unwrap(last, raw, width);
}

#define OA_XE_TOPO_HEAD		offsetof(struct oa_xe_topology_mask, mask)

/*
 * A mask of @n bytes as 64 bits: false if a bit past 64 is set, which no
 * i915 layout the metrics read (64 subslices at most) could hold.
 */
static bool oa_xe_mask64(const uint8_t *mask, uint32_t n, uint64_t *out)
{
	uint32_t i;

	*out = 0;
	for (i = 0; i < n; i++) {
		if (i >= 8 && mask[i])
			return false;
		if (i < 8)
			*out |= (uint64_t)mask[i] << (8 * i);
	}
	return true;
}

/* Bits of a layout holding @mask: at least @least, whole bytes. */
static unsigned int oa_xe_layout_bits(uint64_t mask, unsigned int least)
{
	unsigned int bits = mask ? 64 - __builtin_clzll(mask) : 0;

	bits = (bits + 7) / 8 * 8;
	return bits > least ? bits : least;
}

/**
 * oa_xe_topology - GT @gt_id of a GT_TOPOLOGY reply in i915's layout
 * @reply: the reply
 * @size: its bytes, as the kernel sized it
 * @gt_id: the OA unit's GT; the other GTs' masks are skipped
 * @buf: room for struct drm_i915_query_topology_info and its masks,
 *	aligned for the struct
 * @buf_size: bytes of @buf
 *
 * Xe has no slices: its DSS (Xe cores on Xe2) become the subslices of
 * one slice, present if in the geometry or the compute mask (IGT's
 * reading), each with the one EU mask the GT gives for all of them.  The
 * widths are those of i915 from 12.55 and of the simulator's Xe2 rows,
 * 32 subslice bits and 16 EU bits, widened only for a mask that needs
 * more; a subslice absent has no EU bits, as in the simulator's.
 *
 * Return: the bytes written to @buf, or 0 if a mask runs past the reply,
 * the GT has no DSS or no EU mask, or @buf is too small.
 */
size_t oa_xe_topology(const void *reply, size_t size, uint16_t gt_id,
		      void *buf, size_t buf_size)
{
	struct drm_i915_query_topology_info t;
	struct oa_xe_topology_mask m;
	const uint8_t *p = reply;
	uint64_t dss = 0, eu = 0, bits;
	bool have_eu = false;
	size_t off = 0, len;
	uint8_t *data;
	unsigned int ss, e;

	while (off < size) {
		if (size - off < OA_XE_TOPO_HEAD)
			return 0;
		memcpy(&m, p + off, OA_XE_TOPO_HEAD);
		off += OA_XE_TOPO_HEAD;
		if (m.num_bytes > size - off)
			return 0;
		if (m.gt_id == gt_id) {
			if (!oa_xe_mask64(p + off, m.num_bytes, &bits))
				return 0;
			switch (m.type) {
			case OA_XE_TOPO_DSS_GEOMETRY:
			case OA_XE_TOPO_DSS_COMPUTE:
				dss |= bits;
				break;
			case OA_XE_TOPO_EU_PER_DSS:
			case OA_XE_TOPO_SIMD16_EU_PER_DSS:
				eu = bits;
				have_eu = true;
				break;
			}
		}
		off += m.num_bytes;
	}
	if (!dss || !have_eu)
		return 0;

	memset(&t, 0, sizeof(t));
	t.max_slices = 1;
	t.max_subslices = oa_xe_layout_bits(dss, 32);
	t.max_eus_per_subslice = oa_xe_layout_bits(eu, 16);
	t.subslice_offset = 1;
	t.subslice_stride = t.max_subslices / 8;
	t.eu_offset = t.subslice_offset + t.subslice_stride;
	t.eu_stride = t.max_eus_per_subslice / 8;
	len = sizeof(t) + t.eu_offset +
	      (size_t)t.max_subslices * t.eu_stride;
	if (buf_size < len)
		return 0;

	memset(buf, 0, len);
	memcpy(buf, &t, sizeof(t));
	data = (uint8_t *)buf + sizeof(t);
	data[0] = 1;
	for (ss = 0; ss < t.max_subslices; ss++) {
		if (!((dss >> ss) & 1))
			continue;
		data[t.subslice_offset + ss / 8] |= 1u << (ss % 8);
		for (e = 0; e < t.max_eus_per_subslice; e++)
			if ((eu >> e) & 1)
				data[t.eu_offset + ss * t.eu_stride + e / 8] |=
					1u << (e % 8);
	}
	return len;
}
