/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gpuprof: internal interfaces between the files of the module.
 */
#ifndef _GPUPROF_H
#define _GPUPROF_H

#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "../uapi/gpuprof.h"

/**
 * struct gpuprof_file - one kind of file in /dev/gpuprof
 * @name: node name below /dev/gpuprof (a per-target kind gets "N/" prepended)
 * @mode: permission bits of the node
 * @fops: the file operations that take over after the common open; a kind
 *	opens for reading only with a read method, for writing only with a
 *	write method
 */
struct gpuprof_file {
	const char *name;
	umode_t mode;
	const struct file_operations *fops;
};

/**
 * struct gpuprof_node - one char device node
 * @file: what kind of file it is
 * @dev: the device behind the node, registered with the gpuprof class
 */
struct gpuprof_node {
	const struct gpuprof_file *file;
	struct device *dev;
};

/* Global profiler state; gpuprof_lock serialises every change to it. */
struct gpuprof_state {
	unsigned int interval_ms;
};

extern struct mutex gpuprof_lock;
extern struct gpuprof_state gpuprof;

extern const struct gpuprof_file gpuprof_ctl_file;
extern const struct gpuprof_file gpuprof_status_file;

int gpuprof_nodes_init(void);
void gpuprof_nodes_exit(void);
struct gpuprof_node *gpuprof_node_create(const struct gpuprof_file *file,
					 const char *name);
void gpuprof_node_destroy(struct gpuprof_node *node);

#endif /* _GPUPROF_H */
