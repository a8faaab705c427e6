// SPDX-License-Identifier: GPL-2.0-only
/*
 * Build-time proof that oa/xe-uapi.h says what a real xe_drm.h says:
 * every size, offset, ioctl number and constant it declares.  The
 * Makefile compiles this file once for each xe_drm.h it finds (Linux
 * 6.12's, 7.3's), naming it in OA_XE_DRM_H; the file holds no code, only
 * assertions.  What 7.3 added is asserted when the header has it, known
 * by its macros (the enum values have none): DRM_XE_OA_CAPS_OA_UNIT_GT_ID
 * came with gt_id, DRM_XE_OA_CAPS_OA_BUFFER_SIZE and
 * DRM_XE_OA_CAPS_WAIT_NUM_REPORTS with their properties.  Against 6.12's
 * header the bytes 7.3 took are asserted to be its reserved[0].
 * The header includes "drm.h" by quotes, which resolves beside it: in
 * a kernel's header tree that is the drm.h headers_install has not
 * cleaned, whose __user must be defined away here.
 */
#include <stddef.h>

#ifndef __user
#define __user
#endif
#include OA_XE_DRM_H
#include "oa/xe-uapi.h"

#define SAME(ours, theirs) \
	_Static_assert((ours) == (theirs), #ours " != " #theirs)
#define SAME_SIZE(ours, theirs) SAME(sizeof(struct ours), sizeof(struct theirs))
#define SAME_FIELD(ours, theirs, f) \
	SAME(offsetof(struct ours, f), offsetof(struct theirs, f)); \
	SAME(sizeof(((struct ours *)0)->f), sizeof(((struct theirs *)0)->f))

SAME(OA_XE_DRM_IOCTL_TYPE, DRM_IOCTL_BASE);
SAME(OA_XE_DRM_COMMAND_BASE, DRM_COMMAND_BASE);

SAME(OA_XE_IOCTL_DEVICE_QUERY, DRM_IOCTL_XE_DEVICE_QUERY);
SAME_SIZE(oa_xe_device_query, drm_xe_device_query);
SAME_FIELD(oa_xe_device_query, drm_xe_device_query, extensions);
SAME_FIELD(oa_xe_device_query, drm_xe_device_query, query);
SAME_FIELD(oa_xe_device_query, drm_xe_device_query, size);
SAME_FIELD(oa_xe_device_query, drm_xe_device_query, data);
SAME_FIELD(oa_xe_device_query, drm_xe_device_query, reserved);
SAME(OA_XE_QUERY_CONFIG, DRM_XE_DEVICE_QUERY_CONFIG);
SAME(OA_XE_QUERY_GT_LIST, DRM_XE_DEVICE_QUERY_GT_LIST);
SAME(OA_XE_QUERY_GT_TOPOLOGY, DRM_XE_DEVICE_QUERY_GT_TOPOLOGY);
SAME(OA_XE_QUERY_ENGINE_CYCLES, DRM_XE_DEVICE_QUERY_ENGINE_CYCLES);
SAME(OA_XE_QUERY_OA_UNITS, DRM_XE_DEVICE_QUERY_OA_UNITS);

SAME_SIZE(oa_xe_query_config, drm_xe_query_config);
SAME_FIELD(oa_xe_query_config, drm_xe_query_config, num_params);
SAME_FIELD(oa_xe_query_config, drm_xe_query_config, pad);
SAME(offsetof(struct oa_xe_query_config, info),
     offsetof(struct drm_xe_query_config, info));
SAME(OA_XE_CONFIG_REV_AND_DEVICE_ID, DRM_XE_QUERY_CONFIG_REV_AND_DEVICE_ID);

SAME_SIZE(oa_xe_engine_class_instance, drm_xe_engine_class_instance);
SAME_FIELD(oa_xe_engine_class_instance, drm_xe_engine_class_instance,
	   engine_class);
SAME_FIELD(oa_xe_engine_class_instance, drm_xe_engine_class_instance,
	   engine_instance);
SAME_FIELD(oa_xe_engine_class_instance, drm_xe_engine_class_instance, gt_id);
SAME_FIELD(oa_xe_engine_class_instance, drm_xe_engine_class_instance, pad);
SAME(OA_XE_ENGINE_CLASS_RENDER, DRM_XE_ENGINE_CLASS_RENDER);
SAME(OA_XE_ENGINE_CLASS_COMPUTE, DRM_XE_ENGINE_CLASS_COMPUTE);

SAME_SIZE(oa_xe_gt, drm_xe_gt);
SAME_FIELD(oa_xe_gt, drm_xe_gt, type);
SAME_FIELD(oa_xe_gt, drm_xe_gt, tile_id);
SAME_FIELD(oa_xe_gt, drm_xe_gt, gt_id);
SAME_FIELD(oa_xe_gt, drm_xe_gt, pad);
SAME_FIELD(oa_xe_gt, drm_xe_gt, reference_clock);
SAME_FIELD(oa_xe_gt, drm_xe_gt, near_mem_regions);
SAME_FIELD(oa_xe_gt, drm_xe_gt, far_mem_regions);
SAME_FIELD(oa_xe_gt, drm_xe_gt, ip_ver_major);
SAME_FIELD(oa_xe_gt, drm_xe_gt, ip_ver_minor);
SAME_FIELD(oa_xe_gt, drm_xe_gt, ip_ver_rev);
SAME_FIELD(oa_xe_gt, drm_xe_gt, pad2);
SAME_FIELD(oa_xe_gt, drm_xe_gt, reserved);
SAME(OA_XE_GT_TYPE_MAIN, DRM_XE_QUERY_GT_TYPE_MAIN);
SAME(OA_XE_GT_TYPE_MEDIA, DRM_XE_QUERY_GT_TYPE_MEDIA);
SAME_SIZE(oa_xe_query_gt_list, drm_xe_query_gt_list);
SAME_FIELD(oa_xe_query_gt_list, drm_xe_query_gt_list, num_gt);
SAME_FIELD(oa_xe_query_gt_list, drm_xe_query_gt_list, pad);
SAME(offsetof(struct oa_xe_query_gt_list, gt_list),
     offsetof(struct drm_xe_query_gt_list, gt_list));

SAME_SIZE(oa_xe_topology_mask, drm_xe_query_topology_mask);
SAME_FIELD(oa_xe_topology_mask, drm_xe_query_topology_mask, gt_id);
SAME_FIELD(oa_xe_topology_mask, drm_xe_query_topology_mask, type);
SAME_FIELD(oa_xe_topology_mask, drm_xe_query_topology_mask, num_bytes);
SAME(offsetof(struct oa_xe_topology_mask, mask),
     offsetof(struct drm_xe_query_topology_mask, mask));
SAME(OA_XE_TOPO_DSS_GEOMETRY, DRM_XE_TOPO_DSS_GEOMETRY);
SAME(OA_XE_TOPO_DSS_COMPUTE, DRM_XE_TOPO_DSS_COMPUTE);
SAME(OA_XE_TOPO_L3_BANK, DRM_XE_TOPO_L3_BANK);
SAME(OA_XE_TOPO_EU_PER_DSS, DRM_XE_TOPO_EU_PER_DSS);
SAME(OA_XE_TOPO_SIMD16_EU_PER_DSS, DRM_XE_TOPO_SIMD16_EU_PER_DSS);

SAME_SIZE(oa_xe_query_engine_cycles, drm_xe_query_engine_cycles);
SAME_FIELD(oa_xe_query_engine_cycles, drm_xe_query_engine_cycles, eci);
SAME_FIELD(oa_xe_query_engine_cycles, drm_xe_query_engine_cycles, clockid);
SAME_FIELD(oa_xe_query_engine_cycles, drm_xe_query_engine_cycles, width);
SAME_FIELD(oa_xe_query_engine_cycles, drm_xe_query_engine_cycles,
	   engine_cycles);
SAME_FIELD(oa_xe_query_engine_cycles, drm_xe_query_engine_cycles,
	   cpu_timestamp);
SAME_FIELD(oa_xe_query_engine_cycles, drm_xe_query_engine_cycles, cpu_delta);

SAME_SIZE(oa_xe_oa_unit, drm_xe_oa_unit);
SAME_FIELD(oa_xe_oa_unit, drm_xe_oa_unit, extensions);
SAME_FIELD(oa_xe_oa_unit, drm_xe_oa_unit, oa_unit_id);
SAME_FIELD(oa_xe_oa_unit, drm_xe_oa_unit, oa_unit_type);
SAME_FIELD(oa_xe_oa_unit, drm_xe_oa_unit, capabilities);
SAME_FIELD(oa_xe_oa_unit, drm_xe_oa_unit, oa_timestamp_freq);
#ifdef DRM_XE_OA_CAPS_OA_UNIT_GT_ID
SAME_FIELD(oa_xe_oa_unit, drm_xe_oa_unit, gt_id);
SAME_FIELD(oa_xe_oa_unit, drm_xe_oa_unit, reserved1);
SAME_FIELD(oa_xe_oa_unit, drm_xe_oa_unit, reserved);
SAME(OA_XE_OA_CAPS_OA_UNIT_GT_ID, DRM_XE_OA_CAPS_OA_UNIT_GT_ID);
SAME(OA_XE_OA_CAPS_OAM, DRM_XE_OA_CAPS_OAM);
SAME(OA_XE_OA_UNIT_TYPE_OAM_SAG, DRM_XE_OA_UNIT_TYPE_OAM_SAG);
SAME(OA_XE_OA_UNIT_TYPE_MERT, DRM_XE_OA_UNIT_TYPE_MERT);
#else
/* 6.12: gt_id and reserved1 are its reserved[0], reserved its [1..3]. */
SAME(offsetof(struct oa_xe_oa_unit, gt_id),
     offsetof(struct drm_xe_oa_unit, reserved));
SAME(offsetof(struct oa_xe_oa_unit, reserved1) +
     sizeof(((struct oa_xe_oa_unit *)0)->reserved1),
     offsetof(struct drm_xe_oa_unit, reserved[1]));
SAME(offsetof(struct oa_xe_oa_unit, reserved),
     offsetof(struct drm_xe_oa_unit, reserved[1]));
SAME(sizeof(((struct oa_xe_oa_unit *)0)->reserved),
     sizeof(((struct drm_xe_oa_unit *)0)->reserved) - sizeof(__u64));
#endif
SAME_FIELD(oa_xe_oa_unit, drm_xe_oa_unit, num_engines);
SAME(offsetof(struct oa_xe_oa_unit, eci), offsetof(struct drm_xe_oa_unit, eci));
SAME(OA_XE_OA_UNIT_TYPE_OAG, DRM_XE_OA_UNIT_TYPE_OAG);
SAME(OA_XE_OA_UNIT_TYPE_OAM, DRM_XE_OA_UNIT_TYPE_OAM);
SAME(OA_XE_OA_CAPS_BASE, DRM_XE_OA_CAPS_BASE);
SAME(OA_XE_OA_CAPS_SYNCS, DRM_XE_OA_CAPS_SYNCS);
SAME_SIZE(oa_xe_query_oa_units, drm_xe_query_oa_units);
SAME_FIELD(oa_xe_query_oa_units, drm_xe_query_oa_units, extensions);
SAME_FIELD(oa_xe_query_oa_units, drm_xe_query_oa_units, num_oa_units);
SAME_FIELD(oa_xe_query_oa_units, drm_xe_query_oa_units, pad);
SAME(offsetof(struct oa_xe_query_oa_units, oa_units),
     offsetof(struct drm_xe_query_oa_units, oa_units));

SAME(OA_XE_IOCTL_OBSERVATION, DRM_IOCTL_XE_OBSERVATION);
SAME_SIZE(oa_xe_observation_param, drm_xe_observation_param);
SAME_FIELD(oa_xe_observation_param, drm_xe_observation_param, extensions);
SAME_FIELD(oa_xe_observation_param, drm_xe_observation_param,
	   observation_type);
SAME_FIELD(oa_xe_observation_param, drm_xe_observation_param,
	   observation_op);
SAME_FIELD(oa_xe_observation_param, drm_xe_observation_param, param);
SAME(OA_XE_OBSERVATION_TYPE_OA, DRM_XE_OBSERVATION_TYPE_OA);
SAME(OA_XE_OBSERVATION_OP_STREAM_OPEN, DRM_XE_OBSERVATION_OP_STREAM_OPEN);
SAME(OA_XE_OBSERVATION_OP_ADD_CONFIG, DRM_XE_OBSERVATION_OP_ADD_CONFIG);
SAME(OA_XE_OBSERVATION_OP_REMOVE_CONFIG, DRM_XE_OBSERVATION_OP_REMOVE_CONFIG);

SAME_SIZE(oa_xe_user_extension, drm_xe_user_extension);
SAME_FIELD(oa_xe_user_extension, drm_xe_user_extension, next_extension);
SAME_FIELD(oa_xe_user_extension, drm_xe_user_extension, name);
SAME_FIELD(oa_xe_user_extension, drm_xe_user_extension, pad);
SAME_SIZE(oa_xe_ext_set_property, drm_xe_ext_set_property);
SAME_FIELD(oa_xe_ext_set_property, drm_xe_ext_set_property, base);
SAME_FIELD(oa_xe_ext_set_property, drm_xe_ext_set_property, property);
SAME_FIELD(oa_xe_ext_set_property, drm_xe_ext_set_property, pad);
SAME_FIELD(oa_xe_ext_set_property, drm_xe_ext_set_property, value);
SAME_FIELD(oa_xe_ext_set_property, drm_xe_ext_set_property, reserved);
SAME(OA_XE_EXTENSION_SET_PROPERTY, DRM_XE_OA_EXTENSION_SET_PROPERTY);

SAME(OA_XE_PROP_OA_UNIT_ID, DRM_XE_OA_PROPERTY_OA_UNIT_ID);
SAME(OA_XE_PROP_SAMPLE_OA, DRM_XE_OA_PROPERTY_SAMPLE_OA);
SAME(OA_XE_PROP_OA_METRIC_SET, DRM_XE_OA_PROPERTY_OA_METRIC_SET);
SAME(OA_XE_PROP_OA_FORMAT, DRM_XE_OA_PROPERTY_OA_FORMAT);
SAME(OA_XE_PROP_OA_PERIOD_EXPONENT, DRM_XE_OA_PROPERTY_OA_PERIOD_EXPONENT);
SAME(OA_XE_PROP_OA_DISABLED, DRM_XE_OA_PROPERTY_OA_DISABLED);
SAME(OA_XE_PROP_EXEC_QUEUE_ID, DRM_XE_OA_PROPERTY_EXEC_QUEUE_ID);
SAME(OA_XE_PROP_OA_ENGINE_INSTANCE, DRM_XE_OA_PROPERTY_OA_ENGINE_INSTANCE);
SAME(OA_XE_PROP_NO_PREEMPT, DRM_XE_OA_PROPERTY_NO_PREEMPT);
SAME(OA_XE_PROP_NUM_SYNCS, DRM_XE_OA_PROPERTY_NUM_SYNCS);
SAME(OA_XE_PROP_SYNCS, DRM_XE_OA_PROPERTY_SYNCS);
SAME(OA_XE_PROP_LAST_6_12, DRM_XE_OA_PROPERTY_SYNCS);
#ifdef DRM_XE_OA_CAPS_OA_BUFFER_SIZE
SAME(OA_XE_OA_CAPS_OA_BUFFER_SIZE, DRM_XE_OA_CAPS_OA_BUFFER_SIZE);
SAME(OA_XE_PROP_OA_BUFFER_SIZE, DRM_XE_OA_PROPERTY_OA_BUFFER_SIZE);
#endif
#ifdef DRM_XE_OA_CAPS_WAIT_NUM_REPORTS
SAME(OA_XE_OA_CAPS_WAIT_NUM_REPORTS, DRM_XE_OA_CAPS_WAIT_NUM_REPORTS);
SAME(OA_XE_PROP_WAIT_NUM_REPORTS, DRM_XE_OA_PROPERTY_WAIT_NUM_REPORTS);
/* 7.3's last property: one past it would be the next kernel's. */
SAME(OA_XE_PROP_LAST_7_3, DRM_XE_OA_PROPERTY_WAIT_NUM_REPORTS);
#endif

SAME(OA_XE_FMT_TYPE_OAG, DRM_XE_OA_FMT_TYPE_OAG);
SAME(OA_XE_FMT_TYPE_OAR, DRM_XE_OA_FMT_TYPE_OAR);
SAME(OA_XE_FMT_TYPE_OAM, DRM_XE_OA_FMT_TYPE_OAM);
SAME(OA_XE_FMT_TYPE_OAC, DRM_XE_OA_FMT_TYPE_OAC);
SAME(OA_XE_FMT_TYPE_OAM_MPEC, DRM_XE_OA_FMT_TYPE_OAM_MPEC);
SAME(OA_XE_FMT_TYPE_PEC, DRM_XE_OA_FMT_TYPE_PEC);
SAME(OA_XE_FORMAT_MASK_FMT_TYPE, DRM_XE_OA_FORMAT_MASK_FMT_TYPE);
SAME(OA_XE_FORMAT_MASK_COUNTER_SEL, DRM_XE_OA_FORMAT_MASK_COUNTER_SEL);
SAME(OA_XE_FORMAT_MASK_COUNTER_SIZE, DRM_XE_OA_FORMAT_MASK_COUNTER_SIZE);
SAME(OA_XE_FORMAT_MASK_BC_REPORT, DRM_XE_OA_FORMAT_MASK_BC_REPORT);
/* Each field of OA_XE_FORMAT() lands in the kernel's mask for it. */
SAME(OA_XE_FORMAT(0xff, 0, 0, 0), DRM_XE_OA_FORMAT_MASK_FMT_TYPE);
SAME(OA_XE_FORMAT(0, 0xff, 0, 0), DRM_XE_OA_FORMAT_MASK_COUNTER_SEL);
SAME(OA_XE_FORMAT(0, 0, 0xff, 0), DRM_XE_OA_FORMAT_MASK_COUNTER_SIZE);
SAME(OA_XE_FORMAT(0, 0, 0, 0xff), DRM_XE_OA_FORMAT_MASK_BC_REPORT);

SAME_SIZE(oa_xe_oa_config, drm_xe_oa_config);
SAME_FIELD(oa_xe_oa_config, drm_xe_oa_config, extensions);
SAME_FIELD(oa_xe_oa_config, drm_xe_oa_config, uuid);
SAME_FIELD(oa_xe_oa_config, drm_xe_oa_config, n_regs);
SAME_FIELD(oa_xe_oa_config, drm_xe_oa_config, regs_ptr);
/* The kernel reads the registers as pairs of u32: address, value. */
SAME(sizeof(struct oa_xe_oa_reg), 2 * sizeof(__u32));
SAME(offsetof(struct oa_xe_oa_reg, value), sizeof(__u32));

SAME(OA_XE_STREAM_IOCTL_ENABLE, DRM_XE_OBSERVATION_IOCTL_ENABLE);
SAME(OA_XE_STREAM_IOCTL_DISABLE, DRM_XE_OBSERVATION_IOCTL_DISABLE);
SAME(OA_XE_STREAM_IOCTL_CONFIG, DRM_XE_OBSERVATION_IOCTL_CONFIG);
SAME(OA_XE_STREAM_IOCTL_STATUS, DRM_XE_OBSERVATION_IOCTL_STATUS);
SAME(OA_XE_STREAM_IOCTL_INFO, DRM_XE_OBSERVATION_IOCTL_INFO);

SAME_SIZE(oa_xe_oa_stream_status, drm_xe_oa_stream_status);
SAME_FIELD(oa_xe_oa_stream_status, drm_xe_oa_stream_status, extensions);
SAME_FIELD(oa_xe_oa_stream_status, drm_xe_oa_stream_status, oa_status);
SAME_FIELD(oa_xe_oa_stream_status, drm_xe_oa_stream_status, reserved);
SAME(OA_XE_OASTATUS_REPORT_LOST, DRM_XE_OASTATUS_REPORT_LOST);
SAME(OA_XE_OASTATUS_BUFFER_OVERFLOW, DRM_XE_OASTATUS_BUFFER_OVERFLOW);
SAME(OA_XE_OASTATUS_COUNTER_OVERFLOW, DRM_XE_OASTATUS_COUNTER_OVERFLOW);
SAME(OA_XE_OASTATUS_MMIO_TRG_Q_FULL, DRM_XE_OASTATUS_MMIO_TRG_Q_FULL);

SAME_SIZE(oa_xe_oa_stream_info, drm_xe_oa_stream_info);
SAME_FIELD(oa_xe_oa_stream_info, drm_xe_oa_stream_info, extensions);
SAME_FIELD(oa_xe_oa_stream_info, drm_xe_oa_stream_info, oa_buf_size);
SAME_FIELD(oa_xe_oa_stream_info, drm_xe_oa_stream_info, reserved);

/* The figures of the facts file, so a wrong copy of both sides shows. */
SAME(sizeof(struct oa_xe_device_query), 40);
SAME(OA_XE_IOCTL_DEVICE_QUERY, 0xc0286440u);
SAME(OA_XE_IOCTL_OBSERVATION, 0x4020644bu);
SAME(sizeof(struct oa_xe_oa_unit), 72);
SAME(sizeof(struct oa_xe_ext_set_property), 48);
SAME(sizeof(struct oa_xe_oa_config), 56);
SAME(sizeof(struct oa_xe_query_engine_cycles), 40);
