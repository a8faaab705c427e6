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
 * _destroy fire as for a driver's job.  DRIVER "!drm_sched" makes a job
 * the way drm_sched does: two fences named "drm_sched" TIMELINE, sharing
 * a lock and a seqno, "scheduled" on context c and "finished" on c + 1.
 *
 * The file "hold" takes the same "DRIVER TIMELINE" writes but keeps each
 * fence unsignaled, as a driver holds a job that has not run, until the
 * file is closed ("!drm_sched" is refused there, EINVAL): then they are
 * signaled and dropped in the order they were made.  Unlike vgem's,
 * these fences have no timeout, so a test on a slow kernel can hold as
 * many as it needs for as long as it needs.
 */
#include <linux/debugfs.h>
#include <linux/dma-fence.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define FENCEGEN_NAME_MAX 256

struct fencegen_fence {
	struct dma_fence base;
	spinlock_t lock;	/* the fence's own, as dma_fence wants one */
	struct list_head held;	/* in a "hold" file's list */
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

/* drm_sched's pair of fences, in one allocation. */
struct fencegen_pair {
	struct dma_fence scheduled;
	struct dma_fence finished;
	spinlock_t lock;	/* the pair's, as drm_sched has one per job */
	atomic_t refs;		/* fences not yet released */
	struct rcu_head rcu;
	char timeline[FENCEGEN_NAME_MAX];
};

static const char *fencegen_pair_driver_name(struct dma_fence *f)
{
	return "drm_sched";
}

static const char *fencegen_pair_timeline_name(struct dma_fence *f)
{
	struct fencegen_pair *p = f->context & 1 ?
		container_of(f, struct fencegen_pair, finished) :
		container_of(f, struct fencegen_pair, scheduled);

	return p->timeline;
}

static void fencegen_pair_release(struct dma_fence *f)
{
	struct fencegen_pair *p = f->context & 1 ?
		container_of(f, struct fencegen_pair, finished) :
		container_of(f, struct fencegen_pair, scheduled);

	if (atomic_dec_and_test(&p->refs))
		kfree_rcu(p, rcu);
}

static const struct dma_fence_ops fencegen_pair_ops = {
	.get_driver_name = fencegen_pair_driver_name,
	.get_timeline_name = fencegen_pair_timeline_name,
	.release = fencegen_pair_release,
};

static int fencegen_pair(const char *timeline)
{
	struct fencegen_pair *p;
	u64 context;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	strscpy(p->timeline, timeline, sizeof(p->timeline));
	spin_lock_init(&p->lock);
	atomic_set(&p->refs, 2);
	/* An even context for "scheduled", so c + 1 tells the two apart. */
	context = dma_fence_context_alloc(3);
	context += context & 1;
	dma_fence_init(&p->scheduled, &fencegen_pair_ops, &p->lock, context, 1);
	dma_fence_init(&p->finished, &fencegen_pair_ops, &p->lock, context + 1, 1);
	dma_fence_signal(&p->scheduled);
	dma_fence_signal(&p->finished);
	dma_fence_put(&p->scheduled);
	dma_fence_put(&p->finished);
	return 0;
}

/*
 * A fence named by a write of "DRIVER TIMELINE" (a trailing newline
 * dropped), initialised on a new context in the writer's task and not
 * yet signaled; NULL with *err for a bad write.  "!drm_sched" makes and
 * signals a drm_sched pair instead, NULL with *err 0, unless @hold: a
 * pair cannot be held (EINVAL).
 */
static struct fencegen_fence *fencegen_make(const char __user *ubuf,
					    size_t len, bool hold, int *err)
{
	struct fencegen_fence *f;
	char *buf, *sp;
	size_t n = len;

	*err = -EINVAL;
	if (len == 0 || len >= FENCEGEN_NAME_MAX)
		return NULL;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf)) {
		*err = PTR_ERR(buf);
		return NULL;
	}
	if (buf[n - 1] == '\n')
		buf[--n] = '\0';
	sp = strchr(buf, ' ');
	if (!sp) {
		kfree(buf);
		return NULL;
	}
	*sp = '\0';
	if (!strcmp(buf, "!drm_sched")) {
		*err = hold ? -EINVAL : fencegen_pair(sp + 1);
		kfree(buf);
		return NULL;
	}
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f) {
		kfree(buf);
		*err = -ENOMEM;
		return NULL;
	}
	strscpy(f->driver, buf, sizeof(f->driver));
	memcpy(f->timeline, sp + 1, n - (sp + 1 - buf));
	kfree(buf);

	spin_lock_init(&f->lock);
	INIT_LIST_HEAD(&f->held);
	dma_fence_init(&f->base, &fencegen_ops, &f->lock,
		       dma_fence_context_alloc(1), 1);
	return f;
}

static ssize_t fencegen_write(struct file *filp, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	struct fencegen_fence *f;
	int err;

	f = fencegen_make(ubuf, len, false, &err);
	if (!f)
		return err ? err : len;
	dma_fence_signal(&f->base);
	dma_fence_put(&f->base);	/* freed by dma_fence_free() */
	return len;
}

/* The fences a "hold" file keeps, signaled when it is closed. */
struct fencegen_held {
	struct mutex lock;	/* writes of threads sharing the file */
	struct list_head fences;
};

static int fencegen_hold_open(struct inode *inode, struct file *filp)
{
	struct fencegen_held *h = kzalloc(sizeof(*h), GFP_KERNEL);

	if (!h)
		return -ENOMEM;
	mutex_init(&h->lock);
	INIT_LIST_HEAD(&h->fences);
	filp->private_data = h;
	return 0;
}

static ssize_t fencegen_hold_write(struct file *filp,
				   const char __user *ubuf, size_t len,
				   loff_t *ppos)
{
	struct fencegen_held *h = filp->private_data;
	struct fencegen_fence *f;
	int err;

	f = fencegen_make(ubuf, len, true, &err);
	if (!f)
		return err;
	mutex_lock(&h->lock);
	list_add_tail(&f->held, &h->fences);
	mutex_unlock(&h->lock);
	return len;
}

static int fencegen_hold_release(struct inode *inode, struct file *filp)
{
	struct fencegen_held *h = filp->private_data;
	struct fencegen_fence *f, *next;

	list_for_each_entry_safe(f, next, &h->fences, held) {
		list_del(&f->held);
		dma_fence_signal(&f->base);
		dma_fence_put(&f->base);
	}
	mutex_destroy(&h->lock);
	kfree(h);
	return 0;
}

static const struct file_operations fencegen_hold_fops = {
	.owner = THIS_MODULE,
	.open = fencegen_hold_open,
	.write = fencegen_hold_write,
	.release = fencegen_hold_release,
};

static const struct file_operations fencegen_fops = {
	.owner = THIS_MODULE,
	.write = fencegen_write,
};

static struct dentry *fencegen_dir;

static int __init fencegen_init(void)
{
	fencegen_dir = debugfs_create_dir("gpuprof_fencegen", NULL);
	debugfs_create_file("fence", 0200, fencegen_dir, NULL, &fencegen_fops);
	debugfs_create_file("hold", 0200, fencegen_dir, NULL,
			    &fencegen_hold_fops);
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
