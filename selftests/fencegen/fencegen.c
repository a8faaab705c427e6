// SPDX-License-Identifier: GPL-2.0-only
/*
 * fencegen: a test module that makes dma_fences with any driver and
 * timeline names, so tests and benchmarks can fill gpuprof's timeline key
 * space, which vgem alone cannot (all its fences are "vgem" "unbound").
 *
 * Writing "DRIVER TIMELINE" to /sys/kernel/debug/gpuprof_fencegen/fence
 * makes one fence on a new context in the writer's task, with those names
 * (TIMELINE is the rest of the write, bytes as given, a trailing newline
 * dropped), signals it and drops it: dma_fence_init, _signaled and
 * _destroy fire as for a driver's job.
 */
#include <linux/debugfs.h>
#include <linux/dma-fence.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define FENCEGEN_NAME_MAX 256

struct fencegen_fence {
	struct dma_fence base;
	spinlock_t lock;	/* the fence's own, as dma_fence wants one */
	char driver[FENCEGEN_NAME_MAX];
	char timeline[FENCEGEN_NAME_MAX];
};

static const char *fencegen_driver_name(struct dma_fence *f)
{
	return container_of(f, struct fencegen_fence, base)->driver;
}

static const char *fencegen_timeline_name(struct dma_fence *f)
{
	return container_of(f, struct fencegen_fence, base)->timeline;
}

static const struct dma_fence_ops fencegen_ops = {
	.get_driver_name = fencegen_driver_name,
	.get_timeline_name = fencegen_timeline_name,
};

static ssize_t fencegen_write(struct file *filp, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	struct fencegen_fence *f;
	char *buf, *sp;
	size_t n = len;

	if (len == 0 || len >= FENCEGEN_NAME_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (buf[n - 1] == '\n')
		buf[--n] = '\0';
	sp = strchr(buf, ' ');
	if (!sp) {
		kfree(buf);
		return -EINVAL;
	}
	*sp = '\0';
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f) {
		kfree(buf);
		return -ENOMEM;
	}
	strscpy(f->driver, buf, sizeof(f->driver));
	memcpy(f->timeline, sp + 1, n - (sp + 1 - buf));
	kfree(buf);

	spin_lock_init(&f->lock);
	dma_fence_init(&f->base, &fencegen_ops, &f->lock,
		       dma_fence_context_alloc(1), 1);
	dma_fence_signal(&f->base);
	dma_fence_put(&f->base);	/* freed by dma_fence_free() */
	return len;
}

static const struct file_operations fencegen_fops = {
	.owner = THIS_MODULE,
	.write = fencegen_write,
};

static struct dentry *fencegen_dir;

static int __init fencegen_init(void)
{
	fencegen_dir = debugfs_create_dir("gpuprof_fencegen", NULL);
	debugfs_create_file("fence", 0200, fencegen_dir, NULL, &fencegen_fops);
	return 0;
}

static void __exit fencegen_exit(void)
{
	debugfs_remove_recursive(fencegen_dir);
}

module_init(fencegen_init);
module_exit(fencegen_exit);
MODULE_DESCRIPTION("gpuprof test module: dma_fences with chosen names");
MODULE_LICENSE("GPL");
