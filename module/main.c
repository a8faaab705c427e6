// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: a GPU profiler serving an Inferno prof(3) style hierarchy
 * under /dev/gpuprof.  This file loads and unloads the module.
 */
#include <linux/module.h>
#include <linux/workqueue.h>

#include "gpuprof.h"

/* Serialises ctl commands and every change of mode or target list. */
DEFINE_MUTEX(gpuprof_lock);
/* Everything the probes touch; see gpuprof.h. */
DEFINE_SPINLOCK(gpuprof_data_lock);
struct gpuprof_state gpuprof = {
	.interval_ms = GPUPROF_INTERVAL_DEF_MS,
};

struct gpuprof_drops gpuprof_drops;
/* Makes the files of new targets; flushed before unload. */
struct workqueue_struct *gpuprof_wq;

static const struct gpuprof_file *const gpuprof_global_files[] = {
	&gpuprof_ctl_file,
	&gpuprof_status_file,
	&gpuprof_timelines_file,
	&gpuprof_marker_file,
	&gpuprof_oa_file,
};

static struct gpuprof_node *gpuprof_global_nodes[ARRAY_SIZE(gpuprof_global_files)];

static void gpuprof_global_nodes_destroy(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(gpuprof_global_nodes); i++) {
		gpuprof_node_destroy(gpuprof_global_nodes[i]);
		gpuprof_global_nodes[i] = NULL;
	}
}

static int gpuprof_global_nodes_create(void)
{
	const struct gpuprof_file *f;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(gpuprof_global_files); i++) {
		f = gpuprof_global_files[i];
		gpuprof_global_nodes[i] = gpuprof_node_create(f, NULL, f->name);
		if (IS_ERR(gpuprof_global_nodes[i])) {
			int err = PTR_ERR(gpuprof_global_nodes[i]);

			gpuprof_global_nodes[i] = NULL;
			gpuprof_global_nodes_destroy();
			return err;
		}
	}
	return 0;
}

static int __init gpuprof_init(void)
{
	int err;

	gpuprof_wq = alloc_workqueue("gpuprof", 0, 0);
	if (!gpuprof_wq)
		return -ENOMEM;
	err = gpuprof_target_caches_init();
	if (err)
		goto destroy_wq;
	err = gpuprof_clients_init();
	if (err)
		goto target_exit;
	err = gpuprof_timelines_init();
	if (err)
		goto clients_exit;
	err = gpuprof_fence_init();
	if (err)
		goto timelines_exit;
	err = gpuprof_gem_init();
	if (err)
		goto fence_exit;
	err = gpuprof_nodes_init();
	if (err)
		goto gem_exit;
	err = gpuprof_global_nodes_create();
	if (err)
		goto nodes_exit;
	return 0;

nodes_exit:
	gpuprof_nodes_exit();
gem_exit:
	gpuprof_gem_exit();
fence_exit:
	gpuprof_fence_exit();
timelines_exit:
	gpuprof_timelines_exit();
clients_exit:
	gpuprof_clients_exit();
target_exit:
	gpuprof_target_caches_exit();
destroy_wq:
	destroy_workqueue(gpuprof_wq);
	return err;
}

static void __exit gpuprof_exit(void)
{
	/* No file is open (each holds a module reference): end everything. */
	gpuprof_ctl_exit();
	/* Node work of ended targets finds them ended and makes nothing. */
	flush_workqueue(gpuprof_wq);
	gpuprof_global_nodes_destroy();
	gpuprof_nodes_exit();
	gpuprof_gem_exit();
	gpuprof_fence_exit();
	gpuprof_timelines_exit();
	spin_lock_irq(&gpuprof_data_lock);
	gpuprof_clients_forget(true);
	spin_unlock_irq(&gpuprof_data_lock);
	gpuprof_clients_exit();
	destroy_workqueue(gpuprof_wq);
	gpuprof_target_caches_exit();
}

module_init(gpuprof_init);
module_exit(gpuprof_exit);

MODULE_DESCRIPTION("GPU profiler with an Inferno prof(3) style device");
MODULE_LICENSE("GPL");
