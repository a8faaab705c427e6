// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: /dev/gpuprof/status, "key: value" lines in the style of
 * drm-usage-stats.
 */
#include <linux/fs.h>
#include <linux/seq_file.h>

#include "gpuprof.h"

static int gpuprof_status_show(struct seq_file *m, void *v)
{
	mutex_lock(&gpuprof_lock);
	seq_puts(m, "mode: idle\n");
	seq_printf(m, "interval_ms: %u\n", gpuprof.interval_ms);
	mutex_unlock(&gpuprof_lock);
	return 0;
}

static int gpuprof_status_open(struct inode *inode, struct file *filp)
{
	/* seq_open() wants ->private_data clear; the node is not needed. */
	filp->private_data = NULL;
	return single_open(filp, gpuprof_status_show, NULL);
}

static const struct file_operations gpuprof_status_fops = {
	.owner = THIS_MODULE,
	.open = gpuprof_status_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

const struct gpuprof_file gpuprof_status_file = {
	.name = "status",
	.mode = 0444,
	.fops = &gpuprof_status_fops,
};
