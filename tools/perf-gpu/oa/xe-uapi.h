/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The part of the xe uAPI (include/uapi/drm/xe_drm.h) that gpuprof's xe
 * OA source uses, under names of our own so that this file compiles
 * beside the real header: Linux 6.12's, and what 7.3's added to its OA
 * part.  Debian ships that header only in the kernel headers, not in
 * /usr/include, and libdrm's copy may be older; declaring the subset
 * here lets the tools build everywhere.  oa/xe-uapi-check.c proves at
 * build time, against each real xe_drm.h found (6.12's and 7.3's), that
 * every size, offset, ioctl number and constant below is the kernel's;
 * what only 7.3 has is checked against 7.3's header alone.
 */
#ifndef PERF_GPU_OA_XE_UAPI_H
#define PERF_GPU_OA_XE_UAPI_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* DRM's ioctl type and the first driver-private number. */
#define OA_XE_DRM_IOCTL_TYPE		'd'
#define OA_XE_DRM_COMMAND_BASE		0x40

/* --- DRM_IOCTL_XE_DEVICE_QUERY ---------------------------------------- */

struct oa_xe_device_query {
	__u64 extensions;
	__u32 query;
	__u32 size;			/* 0 asks the kernel for the size */
	__u64 data;			/* user pointer to the reply */
	__u64 reserved[2];
};

#define OA_XE_IOCTL_DEVICE_QUERY \
	_IOWR(OA_XE_DRM_IOCTL_TYPE, OA_XE_DRM_COMMAND_BASE + 0x00, \
	      struct oa_xe_device_query)

#define OA_XE_QUERY_CONFIG		2
#define OA_XE_QUERY_GT_LIST		3
#define OA_XE_QUERY_GT_TOPOLOGY		5
#define OA_XE_QUERY_ENGINE_CYCLES	6
#define OA_XE_QUERY_OA_UNITS		8

/* QUERY_CONFIG: info[] indexed by these slots. */
struct oa_xe_query_config {
	__u32 num_params;
	__u32 pad;
	__u64 info[];
};

/* Device id in bits 15:0, revision in bits 23:16. */
#define OA_XE_CONFIG_REV_AND_DEVICE_ID	0

struct oa_xe_engine_class_instance {
	__u16 engine_class;
	__u16 engine_instance;
	__u16 gt_id;
	__u16 pad;
};

#define OA_XE_ENGINE_CLASS_RENDER	0
#define OA_XE_ENGINE_CLASS_COMPUTE	4

/* QUERY_GT_LIST */
struct oa_xe_gt {
	__u16 type;
	__u16 tile_id;
	__u16 gt_id;
	__u16 pad[3];
	__u32 reference_clock;		/* Hz: RING_TIMESTAMP's rate */
	__u64 near_mem_regions;
	__u64 far_mem_regions;
	__u16 ip_ver_major;
	__u16 ip_ver_minor;
	__u16 ip_ver_rev;
	__u16 pad2;
	__u64 reserved[7];
};

#define OA_XE_GT_TYPE_MAIN		0
#define OA_XE_GT_TYPE_MEDIA		1

struct oa_xe_query_gt_list {
	__u32 num_gt;
	__u32 pad;
	struct oa_xe_gt gt_list[];
};

/*
 * QUERY_GT_TOPOLOGY: masks of every GT, one after the other, each 8
 * bytes and its num_bytes of mask (6.12 sizes them by its bitmaps: 16
 * bytes of DSS, 8 of EUs or L3 banks; a media GT has empty DSS masks).
 */
struct oa_xe_topology_mask {
	__u16 gt_id;
	__u16 type;			/* OA_XE_TOPO_* */
	__u32 num_bytes;
	__u8 mask[];
};

#define OA_XE_TOPO_DSS_GEOMETRY		1
#define OA_XE_TOPO_DSS_COMPUTE		2
#define OA_XE_TOPO_L3_BANK		3
#define OA_XE_TOPO_EU_PER_DSS		4
#define OA_XE_TOPO_SIMD16_EU_PER_DSS	5	/* Xe2 and 12.60: one bit, one EU */

/* QUERY_ENGINE_CYCLES: eci and clockid in, the rest out. */
struct oa_xe_query_engine_cycles {
	struct oa_xe_engine_class_instance eci;
	__s32 clockid;
	__u32 width;			/* valid bits of engine_cycles */
	__u64 engine_cycles;
	__u64 cpu_timestamp;		/* ns in clockid, before the read */
	__u64 cpu_delta;		/* ns the read took */
};

/*
 * QUERY_OA_UNITS: units of variable size, 72 + 8 * num_engines bytes.
 * 7.3's layout: it took the first 8 bytes of 6.12's reserved[4] for
 * gt_id and reserved1[3].  6.12 zeroes them, so gt_id means something
 * only when capabilities has OA_XE_OA_CAPS_OA_UNIT_GT_ID.
 */
struct oa_xe_oa_unit {
	__u64 extensions;
	__u32 oa_unit_id;
	__u32 oa_unit_type;
	__u64 capabilities;
	__u64 oa_timestamp_freq;	/* Hz of the reports' timestamps */
	__u16 gt_id;			/* 7.3: the unit's GT */
	__u16 reserved1[3];
	__u64 reserved[3];
	__u64 num_engines;
	struct oa_xe_engine_class_instance eci[];
};

#define OA_XE_OA_UNIT_TYPE_OAG		0
#define OA_XE_OA_UNIT_TYPE_OAM		1
/*
 * 7.3: the media GT's SAG unit (Xe2 on; listed with no engine) and the
 * SoC's MERT unit.  gpuprof records from neither (oa/xe.c says why).
 */
#define OA_XE_OA_UNIT_TYPE_OAM_SAG	2
#define OA_XE_OA_UNIT_TYPE_MERT		3
#define OA_XE_OA_CAPS_BASE		(1 << 0)
#define OA_XE_OA_CAPS_SYNCS		(1 << 1)
/* 7.3's: the two properties below, media units, and gt_id above. */
#define OA_XE_OA_CAPS_OA_BUFFER_SIZE	(1 << 2)
#define OA_XE_OA_CAPS_WAIT_NUM_REPORTS	(1 << 3)
#define OA_XE_OA_CAPS_OAM		(1 << 4)
#define OA_XE_OA_CAPS_OA_UNIT_GT_ID	(1 << 5)

struct oa_xe_query_oa_units {
	__u64 extensions;
	__u32 num_oa_units;
	__u32 pad;
	__u64 oa_units[];		/* the first struct oa_xe_oa_unit */
};

/* --- DRM_IOCTL_XE_OBSERVATION ----------------------------------------- */

struct oa_xe_observation_param {
	__u64 extensions;		/* MBZ */
	__u64 observation_type;
	__u64 observation_op;
	__u64 param;			/* user pointer, per op */
};

#define OA_XE_IOCTL_OBSERVATION \
	_IOW(OA_XE_DRM_IOCTL_TYPE, OA_XE_DRM_COMMAND_BASE + 0x0b, \
	     struct oa_xe_observation_param)

#define OA_XE_OBSERVATION_TYPE_OA		0
/* param: the first oa_xe_ext_set_property; returns the stream fd. */
#define OA_XE_OBSERVATION_OP_STREAM_OPEN	0
/* param: struct oa_xe_oa_config; returns the config id. */
#define OA_XE_OBSERVATION_OP_ADD_CONFIG		1
/* param: a __u64 config id. */
#define OA_XE_OBSERVATION_OP_REMOVE_CONFIG	2

struct oa_xe_user_extension {
	__u64 next_extension;		/* user pointer, 0 ends the chain */
	__u32 name;
	__u32 pad;
};

struct oa_xe_ext_set_property {
	struct oa_xe_user_extension base;
	__u32 property;
	__u32 pad;
	__u64 value;
	__u64 reserved[2];
};

#define OA_XE_EXTENSION_SET_PROPERTY	0
/* The kernel walks at most this many links of a chain (E2BIG beyond). */
#define OA_XE_MAX_CHAIN			16

#define OA_XE_PROP_OA_UNIT_ID		1
#define OA_XE_PROP_SAMPLE_OA		2
#define OA_XE_PROP_OA_METRIC_SET	3
#define OA_XE_PROP_OA_FORMAT		4
#define OA_XE_PROP_OA_PERIOD_EXPONENT	5
#define OA_XE_PROP_OA_DISABLED		6
#define OA_XE_PROP_EXEC_QUEUE_ID	7
#define OA_XE_PROP_OA_ENGINE_INSTANCE	8
#define OA_XE_PROP_NO_PREEMPT		9
#define OA_XE_PROP_NUM_SYNCS		10
#define OA_XE_PROP_SYNCS		11
/*
 * 7.3's (6.12 refuses both with EINVAL): the OA buffer's size, a power
 * of two from 128 KiB to 128 MiB (16 MiB when not given), and how many
 * reports poll() and a blocking read() wait for (1 when not given, 0
 * refused).  gpuprof-oa sends neither: it reads without blocking every
 * few milliseconds, and xe's default buffer holds seconds of reports
 * at its fastest period.
 */
#define OA_XE_PROP_OA_BUFFER_SIZE	12
#define OA_XE_PROP_WAIT_NUM_REPORTS	13
/* The last property id of each kernel: xe refuses any above it. */
#define OA_XE_PROP_LAST_6_12		OA_XE_PROP_SYNCS
#define OA_XE_PROP_LAST_7_3		OA_XE_PROP_WAIT_NUM_REPORTS

/* OA_FORMAT's value: four byte fields. */
#define OA_XE_FMT_TYPE_OAG		0
#define OA_XE_FMT_TYPE_OAR		1
#define OA_XE_FMT_TYPE_OAM		2
#define OA_XE_FMT_TYPE_OAC		3
#define OA_XE_FMT_TYPE_OAM_MPEC		4
#define OA_XE_FMT_TYPE_PEC		5
#define OA_XE_FORMAT_MASK_FMT_TYPE	(0xffu << 0)
#define OA_XE_FORMAT_MASK_COUNTER_SEL	(0xffu << 8)
#define OA_XE_FORMAT_MASK_COUNTER_SIZE	(0xffu << 16)
#define OA_XE_FORMAT_MASK_BC_REPORT	(0xffu << 24)
#define OA_XE_FORMAT(type, sel, size, bc) \
	((__u32)(type) | (__u32)(sel) << 8 | (__u32)(size) << 16 | \
	 (__u32)(bc) << 24)

/* A register of a metric set: address and value. */
struct oa_xe_oa_reg {
	__u32 addr;
	__u32 value;
};

struct oa_xe_oa_config {
	__u64 extensions;		/* MBZ */
	char uuid[36];			/* no NUL */
	__u32 n_regs;
	__u64 regs_ptr;			/* user pointer to n_regs pairs */
};

/* --- Ioctls of the stream fd ------------------------------------------ */

#define OA_XE_STREAM_IOCTL_ENABLE	_IO('i', 0x0)
#define OA_XE_STREAM_IOCTL_DISABLE	_IO('i', 0x1)
#define OA_XE_STREAM_IOCTL_CONFIG	_IO('i', 0x2)
#define OA_XE_STREAM_IOCTL_STATUS	_IO('i', 0x3)
#define OA_XE_STREAM_IOCTL_INFO		_IO('i', 0x4)

struct oa_xe_oa_stream_status {
	__u64 extensions;
	__u64 oa_status;
	__u64 reserved[3];
};

#define OA_XE_OASTATUS_REPORT_LOST	(1 << 0)
#define OA_XE_OASTATUS_BUFFER_OVERFLOW	(1 << 1)
#define OA_XE_OASTATUS_COUNTER_OVERFLOW	(1 << 2)
#define OA_XE_OASTATUS_MMIO_TRG_Q_FULL	(1 << 3)

struct oa_xe_oa_stream_info {
	__u64 extensions;
	__u64 oa_buf_size;
	__u64 reserved[3];
};

/* The name DRM_IOCTL_VERSION gives for an xe device. */
#define OA_XE_DRIVER_NAME		"xe"

#endif
