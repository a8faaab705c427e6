// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: GPU buffers for memory profiling.
 */

/**
 * DOC: Buffers
 *
 * Every GEM object, shmem-backed or not, passes through the exported
 * drm_gem_private_object_init(dev, obj, size) in the creating task, and
 * drm_gem_object_release(obj) when it goes (drm_gem_object_init() calls
 * the former, so probing it too would count shmem objects twice).  Kprobes
 * on the two keep a table of live objects, each accounted to the target of
 * the creating process under its size class.  The probes exist only while
 * memory profiling runs; stopping forgets the table, as releases that
 * follow could not be seen, and the histograms keep the live bytes of the
 * moment profiling stopped.  A buffer points at its target without a
 * reference: when targets end, ctl.c has the table let go of them
 * (gpuprof_gem_disown_ended()).  A buffer counted before a "reset" of
 * its target takes nothing off at its release from what is counted after
 * (target.c, "Histograms"; design.rst 3.3 and 3.4).  The table has a lock per bucket (table.c):
 * a probe takes only its object's.
 */
#include <linux/hashtable.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "gpuprof.h"

struct gpuprof_buf {
	struct hlist_node node;		/* in its bucket of gpuprof_bufs */
	const void *obj;		/* a key only, never dereferenced */
	struct gpuprof_target *owner;	/* NULL: no target's */
	u64 size;
	u32 gen;			/* the owner's resets when counted */
};

#define GPUPROF_BUF_BITS 12

static struct kmem_cache *gpuprof_buf_cache;
static struct gpuprof_table gpuprof_bufs;	/* by object */
static atomic_t gpuprof_nr_bufs = ATOMIC_INIT(0);

/* The size class of @size: the smallest k with size <= 2^k, at most 63. */
static u32 gpuprof_size_class(u64 size)
{
	if (size <= 1)
		return 0;
	return min_t(u32, fls64(size - 1), GPUPROF_MEM_CLASSES - 1);
}

static struct gpuprof_bucket *gpuprof_buf_bucket(const void *obj)
{
	return gpuprof_table_bucket(&gpuprof_bufs, (unsigned long)obj);
}

static struct gpuprof_buf *gpuprof_buf_find(struct gpuprof_bucket *b,
					    const void *obj)
{
	struct gpuprof_buf *buf;

	hlist_for_each_entry(buf, &b->head, node)
		if (buf->obj == obj)
			return buf;
	return NULL;
}

/* @buf of bucket @b goes, its bytes with it; @b's lock held. */
static void gpuprof_buf_free(struct gpuprof_bucket *b, struct gpuprof_buf *buf)
{
	if (buf->owner)
		gpuprof_target_mem_sub(buf->owner,
				       gpuprof_size_class(buf->size),
				       buf->size, buf->gen);
	hlist_del(&buf->node);
	gpuprof_table_update(&gpuprof_bufs, b);
	kmem_cache_free(gpuprof_buf_cache, buf);
	atomic_dec(&gpuprof_nr_bufs);
}

/* Forget @obj's buffer, if kept: @obj is gone or re-initialised. */
static void gpuprof_buf_forget_obj(struct gpuprof_bucket *b, const void *obj)
{
	struct gpuprof_buf *buf = gpuprof_buf_find(b, obj);

	if (buf)
		gpuprof_buf_free(b, buf);
}

/*
 * A buffer for the table, or NULL (counted) past GPUPROF_MAX_BUFFERS or
 * when the atomic allocation fails.
 */
static struct gpuprof_buf *gpuprof_buf_new(void)
{
	struct gpuprof_buf *buf = NULL;

	if (atomic_inc_return(&gpuprof_nr_bufs) <= GPUPROF_MAX_BUFFERS)
		buf = kmem_cache_alloc(gpuprof_buf_cache,
				       GFP_ATOMIC | __GFP_NOWARN);
	if (!buf) {
		atomic_dec(&gpuprof_nr_bufs);
		atomic64_inc(&gpuprof_drops.buffers);
	}
	return buf;
}

/*
 * The creating process's target is looked up, and the buffer allocated,
 * before the bucket lock is taken (a process not seen before takes the
 * data lock, client.c); then one hold of the lock forgets what an object
 * at this address was (freed without a release we saw) and adds the new
 * one.
 */
static int gpuprof_gem_init_probe(struct kprobe *p, struct pt_regs *regs)
{
	const void *obj = (const void *)regs_get_kernel_argument(regs, 1);
	u64 size = regs_get_kernel_argument(regs, 2);
	struct gpuprof_bucket *b = gpuprof_buf_bucket(obj);
	struct gpuprof_target *owner;
	struct gpuprof_buf *buf = NULL;
	unsigned long flags;

	if (READ_ONCE(gpuprof.mode) != GPUPROF_MEMORY)
		return 0;
	/* Only targets' buffers are tracked. */
	owner = gpuprof_current_target(&gpuprof_drops.unattributed_buffers);
	if (owner)
		buf = gpuprof_buf_new();
	spin_lock_irqsave(&b->lock, flags);
	gpuprof_buf_forget_obj(b, obj);
	if (buf) {
		buf->obj = obj;
		buf->owner = owner;
		buf->size = size;
		hlist_add_head(&buf->node, &b->head);
		buf->gen = gpuprof_target_mem_add(owner,
						  gpuprof_size_class(size),
						  size);
	}
	gpuprof_table_update(&gpuprof_bufs, b);
	spin_unlock_irqrestore(&b->lock, flags);
	return 0;
}

static int gpuprof_gem_release_probe(struct kprobe *p, struct pt_regs *regs)
{
	const void *obj = (const void *)regs_get_kernel_argument(regs, 0);
	struct gpuprof_bucket *b = gpuprof_buf_bucket(obj);
	unsigned long flags;

	spin_lock_irqsave(&b->lock, flags);
	gpuprof_buf_forget_obj(b, obj);
	spin_unlock_irqrestore(&b->lock, flags);
	return 0;
}

static struct kprobe gpuprof_gem_kprobes[] = {
	{
		.symbol_name = "drm_gem_private_object_init",
		.pre_handler = gpuprof_gem_init_probe,
	},
	{
		.symbol_name = "drm_gem_object_release",
		.pre_handler = gpuprof_gem_release_probe,
	},
};

static struct kprobe *gpuprof_gem_kprobe_ptrs[] = {
	&gpuprof_gem_kprobes[0], &gpuprof_gem_kprobes[1],
};

struct gpuprof_bufs_walk {
	void (*fn)(struct gpuprof_bucket *b, struct gpuprof_buf *buf);
};

static void gpuprof_bufs_walk_bucket(struct gpuprof_bucket *b, void *arg)
{
	struct gpuprof_bufs_walk *w = arg;
	struct gpuprof_buf *buf;
	struct hlist_node *tmp;

	hlist_for_each_entry_safe(buf, tmp, &b->head, node)
		w->fn(b, buf);
}

/* Call @fn on every buffer, under its bucket's lock; @fn may free it. */
static void gpuprof_bufs_walk(void (*fn)(struct gpuprof_bucket *b,
					 struct gpuprof_buf *buf))
{
	struct gpuprof_bufs_walk w = { .fn = fn };

	gpuprof_table_walk(&gpuprof_bufs, gpuprof_bufs_walk_bucket, &w);
}

static void gpuprof_buf_forget(struct gpuprof_bucket *b,
			       struct gpuprof_buf *buf)
{
	buf->owner = NULL;
	gpuprof_buf_free(b, buf);
}

/*
 * Forget every buffer without touching the histograms: they keep the
 * live bytes of the moment.
 */
static void gpuprof_bufs_forget(void)
{
	gpuprof_bufs_walk(gpuprof_buf_forget);
}

/**
 * gpuprof_gem_start - attach the kprobes
 *
 * Called under gpuprof_lock after the mode is set.
 *
 * Return: 0; -ENOENT when drm.ko is not loaded (no GPU driver, nothing
 * to profile), or another -errno when a kprobe cannot be attached.
 */
int gpuprof_gem_start(void)
{
	size_t i;

	/* A kprobe is registered afresh each time: clear what the last set. */
	for (i = 0; i < ARRAY_SIZE(gpuprof_gem_kprobes); i++) {
		gpuprof_gem_kprobes[i].addr = NULL;
		gpuprof_gem_kprobes[i].flags = 0;
	}
	return register_kprobes(gpuprof_gem_kprobe_ptrs,
				ARRAY_SIZE(gpuprof_gem_kprobe_ptrs));
}

/* Called under gpuprof_lock, after the mode went back to idle. */
void gpuprof_gem_stop(void)
{
	/* Waits for running handlers. */
	unregister_kprobes(gpuprof_gem_kprobe_ptrs,
			   ARRAY_SIZE(gpuprof_gem_kprobe_ptrs));
	gpuprof_bufs_forget();
}

static void gpuprof_buf_disown_ended(struct gpuprof_bucket *b,
				     struct gpuprof_buf *buf)
{
	if (buf->owner && READ_ONCE(buf->owner->ended))
		buf->owner = NULL;
}

/*
 * Buffers of ended targets are no one's.  Called after the RCU grace
 * period that follows the targets' unlinking, like fence.c's.
 */
void gpuprof_gem_disown_ended(void)
{
	gpuprof_bufs_walk(gpuprof_buf_disown_ended);
}

u32 gpuprof_buffers_live(void)
{
	return atomic_read(&gpuprof_nr_bufs);
}

int gpuprof_gem_init(void)
{
	gpuprof_buf_cache = KMEM_CACHE(gpuprof_buf, 0);
	if (gpuprof_buf_cache &&
	    !gpuprof_table_init(&gpuprof_bufs, GPUPROF_BUF_BITS))
		return 0;
	gpuprof_gem_exit();
	return -ENOMEM;
}

void gpuprof_gem_exit(void)
{
	gpuprof_table_destroy(&gpuprof_bufs);
	kmem_cache_destroy(gpuprof_buf_cache);
}
