/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the OA device (oa/device.c) and its i915 and xe backends need of
 * a DRM render node and of the machine: the driver's name of a node, the first
 * render node a given driver drives, the sysfs directory of its card, the
 * GT frequency files there and the metric set ids it offers, the running
 * kernel's version, and the command streamer's clock in OA ticks.  None of these
 * prints anything: the callers word their own messages.
 *
 * Test hook: $GPUPROF_SYSFS_ROOT replaces "/sys" (oa_node_sysfs_root()).
 */
#ifndef PERF_GPU_OA_DRM_NODE_H
#define PERF_GPU_OA_DRM_NODE_H

#include <stddef.h>
#include <stdint.h>

int oa_node_ioctl(int fd, unsigned long req, void *arg);
uint64_t oa_node_mono_ns(void);
const char *oa_node_sysfs_root(void);
uint32_t oa_node_running_kernel(void);
void oa_node_driver_name(int fd, char *name, size_t size);
long oa_node_lowest_entry(const char *dir, const char *prefix);
int oa_node_find(const char *driver, char *node, size_t size);
void oa_node_card(const char *node, char *card, size_t size);
uint32_t oa_node_gt_freq(const char *card, const char *file);
int oa_node_set_id(const char *card, const char *uuid, uint64_t *id);
uint64_t oa_node_ticks_to_oa(uint64_t ticks, uint64_t hz, uint64_t oa_hz);

#endif
