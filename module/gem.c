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
 * (gpuprof_gem_disown_ended()), and "reset" disowns the buffers counted
 * so far, so their release takes nothing from what is counted after
 * (design.rst 3.3 and 3.4).
 */
#include <linux/hashtable.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "gpuprof.h"

struct gpuprof_buf {
	struct gpuprof_obj_key key;	/* in gpuprof_buf_hash, by object */
	struct gpuprof_target *owner;	/* NULL: no target's */
	u64 size;
};

static struct kmem_cache *gpuprof_buf_cache;
static DEFINE_HASHTABLE(gpuprof_buf_hash, 12);
static u32 gpuprof_nr_bufs;

/* The size class of @size: the smallest k with size <= 2^k, at most 63. */
static u32 gpuprof_size_class(u64 size)
{
	if (size <= 1)
		return 0;
	return min_t(u32, fls64(size - 1), GPUPROF_MEM_CLASSES - 1);
}

static struct gpuprof_buf *gpuprof_buf_find(const void *obj)
{
	struct gpuprof_obj_key *key;

	key = gpuprof_obj_find(gpuprof_buf_hash, HASH_BITS(gpuprof_buf_hash),
			       obj);
	return key ? container_of(key, struct gpuprof_buf, key) : NULL;
}

static void gpuprof_buf_free(struct gpuprof_buf *buf)
{
	if (buf->owner)
		gpuprof_target_hist_add(buf->owner,
					gpuprof_size_class(buf->size),
					-(s64)buf->size, 0);
	hash_del(&buf->key.node);
	kmem_cache_free(gpuprof_buf_cache, buf);
	gpuprof_nr_bufs--;
}

static int gpuprof_gem_init_probe(struct kprobe *p, struct pt_regs *regs)
{
	const void *obj = (const void *)regs_get_kernel_argument(regs, 1);
	u64 size = regs_get_kernel_argument(regs, 2);
	struct gpuprof_target *owner;
	struct gpuprof_buf *buf;
	unsigned long flags;

	spin_lock_irqsave(&gpuprof_data_lock, flags);
	if (gpuprof.mode != GPUPROF_MEMORY)
		goto out;
	/* An object re-initialised without a release we saw. */
	buf = gpuprof_buf_find(obj);
	if (buf)
		gpuprof_buf_free(buf);
	owner = gpuprof_current_target(&gpuprof_drops.unattributed_buffers);
	if (!owner)
		goto out;	/* only target's buffers are tracked */

	buf = NULL;
	if (gpuprof_nr_bufs < GPUPROF_MAX_BUFFERS)
		buf = kmem_cache_alloc(gpuprof_buf_cache,
				       GFP_ATOMIC | __GFP_NOWARN);
	if (!buf) {
		atomic64_inc(&gpuprof_drops.buffers);
		goto out;
	}
	buf->owner = owner;
	buf->size = size;
	gpuprof_obj_add(gpuprof_buf_hash, HASH_BITS(gpuprof_buf_hash),
			&buf->key, obj);
	gpuprof_nr_bufs++;
	gpuprof_target_hist_add(owner, gpuprof_size_class(size), size, 0);
out:
	spin_unlock_irqrestore(&gpuprof_data_lock, flags);
	return 0;
}

static int gpuprof_gem_release_probe(struct kprobe *p, struct pt_regs *regs)
{
	const void *obj = (const void *)regs_get_kernel_argument(regs, 0);
	struct gpuprof_buf *buf;
	unsigned long flags;

	spin_lock_irqsave(&gpuprof_data_lock, flags);
	buf = gpuprof_buf_find(obj);
	if (buf)
		gpuprof_buf_free(buf);
	spin_unlock_irqrestore(&gpuprof_data_lock, flags);
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

/*
 * Forget every buffer without touching the histograms: they keep the
 * live bytes of the moment.
 */
static void gpuprof_bufs_forget(void)
{
	struct gpuprof_buf *buf;
	struct hlist_node *tmp;
	int bkt;

	spin_lock_irq(&gpuprof_data_lock);
	hash_for_each_safe(gpuprof_buf_hash, bkt, tmp, buf, key.node) {
		hash_del(&buf->key.node);
		kmem_cache_free(gpuprof_buf_cache, buf);
	}
	gpuprof_nr_bufs = 0;
	spin_unlock_irq(&gpuprof_data_lock);
}

/**
 * gpuprof_gem_start - attach the kprobes
 *
 * Called under gpuprof_lock after the mode is set.  Fails with -ENOENT
 * when drm.ko is not loaded (no GPU driver, nothing to profile).
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

/* Buffers of ended targets are no one's; called with the data lock held. */
void gpuprof_gem_disown_ended(void)
{
	struct gpuprof_buf *buf;
	int bkt;

	lockdep_assert_held(&gpuprof_data_lock);
	hash_for_each(gpuprof_buf_hash, bkt, buf, key.node)
		if (buf->owner && READ_ONCE(buf->owner->ended))
			buf->owner = NULL;
}

/*
 * "reset": the buffers of @t (NULL: of every target) count no more, so
 * their release does not take from what is counted after.  Data lock.
 */
void gpuprof_gem_disown(struct gpuprof_target *t)
{
	struct gpuprof_buf *buf;
	int bkt;

	lockdep_assert_held(&gpuprof_data_lock);
	hash_for_each(gpuprof_buf_hash, bkt, buf, key.node)
		if (!t || buf->owner == t)
			buf->owner = NULL;
}

u32 gpuprof_buffers_live(void)
{
	return READ_ONCE(gpuprof_nr_bufs);
}

int gpuprof_gem_init(void)
{
	gpuprof_buf_cache = KMEM_CACHE(gpuprof_buf, 0);
	return gpuprof_buf_cache ? 0 : -ENOMEM;
}

void gpuprof_gem_exit(void)
{
	kmem_cache_destroy(gpuprof_buf_cache);
}
