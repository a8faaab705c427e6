// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: a GPU profiler serving an Inferno prof(3) style hierarchy
 * under /dev/gpuprof.  This file loads and unloads the module.
 */
#include <linux/module.h>

#include "gpuprof.h"

/* Serialises ctl commands and every change to the profiler state. */
DEFINE_MUTEX(gpuprof_lock);
struct gpuprof_state gpuprof = {
	.interval_ms = GPUPROF_INTERVAL_DEF_MS,
};

static struct gpuprof_node *gpuprof_ctl_node;
static struct gpuprof_node *gpuprof_status_node;

static int __init gpuprof_init(void)
{
	int err;

	err = gpuprof_nodes_init();
	if (err)
		return err;

	gpuprof_ctl_node = gpuprof_node_create(&gpuprof_ctl_file, "ctl");
	if (IS_ERR(gpuprof_ctl_node)) {
		err = PTR_ERR(gpuprof_ctl_node);
		goto nodes_exit;
	}
	gpuprof_status_node = gpuprof_node_create(&gpuprof_status_file,
						  "status");
	if (IS_ERR(gpuprof_status_node)) {
		err = PTR_ERR(gpuprof_status_node);
		goto destroy_ctl;
	}
	return 0;

destroy_ctl:
	gpuprof_node_destroy(gpuprof_ctl_node);
nodes_exit:
	gpuprof_nodes_exit();
	return err;
}

static void __exit gpuprof_exit(void)
{
	gpuprof_node_destroy(gpuprof_status_node);
	gpuprof_node_destroy(gpuprof_ctl_node);
	gpuprof_nodes_exit();
}

module_init(gpuprof_init);
module_exit(gpuprof_exit);

MODULE_DESCRIPTION("GPU profiler with an Inferno prof(3) style device");
MODULE_LICENSE("GPL");
