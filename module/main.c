// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: a GPU profiler serving an Inferno prof(3) style hierarchy
 * under /dev/gpuprof.  This file loads and unloads the module, and holds
 * the state every part shares (gpuprof.h).
 */
#include <linux/module.h>

#include "gpuprof.h"

/* Serialises ctl commands and every change of mode or target list. */
DEFINE_MUTEX(gpuprof_lock);
/* Everything the probes touch; see gpuprof.h. */
DEFINE_SPINLOCK(gpuprof_data_lock);
struct gpuprof_state gpuprof = {
	.interval_ms = GPUPROF_INTERVAL_DEF_MS,
};

struct gpuprof_drops gpuprof_drops;

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
		gpuprof_global_nodes[i] = gpuprof_node_create(f, f->name, NULL,
							      NULL, NULL);
		if (IS_ERR(gpuprof_global_nodes[i])) {
			int err = PTR_ERR(gpuprof_global_nodes[i]);

			gpuprof_global_nodes[i] = NULL;
			gpuprof_global_nodes_destroy();
			return err;
		}
	}
	return 0;
}

/*
 * The parts of the module, each made ready before the ones after it and
 * taken down after them.  The global nodes come last: once they exist,
 * commands can arrive.
 */
static const struct {
	int (*init)(void);
	void (*exit)(void);
} gpuprof_parts[] = {
	{ gpuprof_targets_init, gpuprof_targets_exit },
	{ gpuprof_clients_init, gpuprof_clients_exit },
	{ gpuprof_timelines_init, gpuprof_timelines_exit },
	{ gpuprof_fence_init, gpuprof_fence_exit },
	{ gpuprof_sched_init, gpuprof_sched_exit },
	{ gpuprof_gem_init, gpuprof_gem_exit },
	{ gpuprof_nodes_init, gpuprof_nodes_exit },
	{ gpuprof_global_nodes_create, gpuprof_global_nodes_destroy },
};

/* Take down the first @n parts, the last first. */
static void gpuprof_parts_exit(size_t n)
{
	while (n--)
		gpuprof_parts[n].exit();
}

static int __init gpuprof_init(void)
{
	size_t i;
	int err;

	for (i = 0; i < ARRAY_SIZE(gpuprof_parts); i++) {
		err = gpuprof_parts[i].init();
		if (err) {
			gpuprof_parts_exit(i);
			return err;
		}
	}
	return 0;
}

static void __exit gpuprof_exit(void)
{
	/*
	 * No file is open (each holds a module reference): stop and end
	 * every target as "end" does, then take the parts down.
	 */
	gpuprof_ctl_exit();
	gpuprof_parts_exit(ARRAY_SIZE(gpuprof_parts));
}

module_init(gpuprof_init);
module_exit(gpuprof_exit);

MODULE_DESCRIPTION("GPU profiler with an Inferno prof(3) style device");
MODULE_LICENSE("GPL");
