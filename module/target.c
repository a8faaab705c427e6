// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: targets, the numbered directories, and their histograms.
 * Below the probes and the commands, which call in; calls out only to
 * node.c (gpuprof.h, "Who calls whom").
 */

/**
 * DOC: Targets and their lifetime
 *
 * A target is what a numbered directory /dev/gpuprof/N stands for: a
 * name given to "module", or one process when no names are given.  It is
 * made either by "module NAME" (process context) or by a probe, the first
 * time a process submits GPU work while no names were given (atomic
 * context).  Either way it is put on gpuprof_targets at once, so the
 * probes can account to it; its files are created afterwards by a work
 * item, as creating a device node sleeps.
 *
 * Targets end only by command: "module" ends the named ones, "end" all
 * of them, and unloading the module does what "end" does (design.rst
 * 3.6).  Neither a process exiting nor the limit of GPUPROF_MAX_TARGETS
 * ends a target.  Ending concerns this file and tables kept by files
 * above it, so the command layer sequences it: ctl.c's
 * gpuprof_end_targets(), in one hold of gpuprof_lock, with profiling
 * possibly running, in three steps:
 *
 * 1. Under the data lock, gpuprof_targets_unlink() marks the targets
 *    ended and takes them off the list, the client table (client.c)
 *    forgets their processes and the names to match are cleared, so no
 *    probe finds them any more.
 * 2. After an RCU grace period (synchronize_rcu()), when no probe still
 *    holds a target it found there, the tables that point at targets
 *    without holding a reference let go of the ended ones: jobs and ended
 *    runs (fence.c), drm_sched's DRM clients (sched.c) and buffers
 *    (gem.c) are disowned, then the learned OA contexts (oa.c) are
 *    dropped, last because OA attribution learns them from jobs and
 *    runs.  No probe can reach an ended target after that.
 * 3. gpuprof_targets_release() destroys the targets' files and drops the
 *    list's references.  Files still open hold their own reference and
 *    return -ENODEV until closed; the last one closed frees the target.
 *
 * Ids are given when a target is published and never reused while the
 * module is loaded.
 */

/**
 * DOC: Histograms
 *
 * A histogram is an xarray indexed by key: sparse, as most targets use a
 * few timelines or size classes, quick to look up from a probe, and
 * walked in key order when printed.  Keys are allocated as they are first
 * used, with GFP_ATOMIC, up to GPUPROF_MAX_HIST_KEYS in all.  Probes look
 * keys up under RCU and add to them with atomics, so two CPUs counting
 * for one target wait for no lock; only a new key takes the xarray's own
 * lock, with interrupts off.  Keys that go ("reset", the start of another
 * mode) are freed after an RCU grace period, as a probe may be adding to
 * one.  Reads copy the values under RCU, without a lock (design.rst 3.7).
 *
 * Memory profiling counts live bytes, a level: a buffer counted before a
 * reset must not be taken off after it.  Each target counts its resets
 * (@mem_gen), each buffer keeps the count it was added under, and its
 * release takes its bytes off only if no reset came since; the target's
 * @mem_lock orders a reset against adding and taking off one buffer.
 */
#include <linux/cgroup.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/nsproxy.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include "gpuprof.h"

/**
 * struct gpuprof_hkey - one key of a histogram
 * @key: timeline id or size class
 * @value: samples, jobs or live bytes; keys whose value is 0 are not shown
 * @tick: time profiling: the newest sampling interval this key counted
 *	and whether the one before too (gpuprof_hkey_claim()), so a key
 *	gets at most one sample per interval
 * @rcu: frees the key once no probe can be adding to it
 */
struct gpuprof_hkey {
	u32 key;
	atomic64_t value;
	atomic64_t tick;
	struct rcu_head rcu;
};

static struct kmem_cache *gpuprof_target_cache;
static struct kmem_cache *gpuprof_hkey_cache;
static atomic_t gpuprof_nr_hkeys = ATOMIC_INIT(0);
static atomic_t gpuprof_last_id = ATOMIC_INIT(0);
static atomic_t gpuprof_nr_targets = ATOMIC_INIT(0);
/* Runs the targets' work items, which make their files. */
static struct workqueue_struct *gpuprof_target_wq;

LIST_HEAD(gpuprof_targets);

static void gpuprof_target_work(struct work_struct *work);

/**
 * gpuprof_target_new - allocate a target and give it an id
 * @name: its name; longer than GPUPROF_PATH_MAX bytes is cut
 * @gfp: GFP_KERNEL from a command, GFP_ATOMIC from a probe
 *
 * Return: the target, holding one reference (the list's); ERR_PTR(-ENOSPC)
 * when GPUPROF_MAX_TARGETS are alive, ERR_PTR(-ENOMEM) when memory is
 * short.  The caller publishes it with gpuprof_target_publish() or frees
 * it with gpuprof_target_put().
 */
struct gpuprof_target *gpuprof_target_new(const char *name, gfp_t gfp)
{
	struct gpuprof_target *t;
	int err = -ENOSPC;

	if (atomic_inc_return(&gpuprof_nr_targets) > GPUPROF_MAX_TARGETS)
		goto undo;
	err = -ENOMEM;
	t = kmem_cache_zalloc(gpuprof_target_cache, gfp | __GFP_NOWARN);
	if (!t)
		goto undo;
	kref_init(&t->ref);
	INIT_LIST_HEAD(&t->link);
	xa_init_flags(&t->hist, XA_FLAGS_LOCK_IRQ);
	spin_lock_init(&t->mem_lock);
	mutex_init(&t->node_lock);
	INIT_WORK(&t->work, gpuprof_target_work);
	strscpy(t->name, name, sizeof(t->name));
	t->uid = INVALID_UID;
	return t;

undo:
	atomic_dec(&gpuprof_nr_targets);
	return ERR_PTR(err);
}

static void gpuprof_hkey_free_rcu(struct rcu_head *rcu)
{
	kmem_cache_free(gpuprof_hkey_cache,
			container_of(rcu, struct gpuprof_hkey, rcu));
}

/* Empty @t's histogram; probes may still be adding to the keys. */
static void gpuprof_hist_free(struct gpuprof_target *t)
{
	struct gpuprof_hkey *k;
	unsigned long key, flags;

	xa_lock_irqsave(&t->hist, flags);
	xa_for_each(&t->hist, key, k) {
		__xa_erase(&t->hist, key);
		call_rcu(&k->rcu, gpuprof_hkey_free_rcu);
		atomic_dec(&gpuprof_nr_hkeys);
	}
	WRITE_ONCE(t->nr_keys, 0);
	xa_unlock_irqrestore(&t->hist, flags);
}

/* The last reference went: process context only. */
static void gpuprof_target_free(struct kref *ref)
{
	struct gpuprof_target *t = container_of(ref, struct gpuprof_target,
						ref);

	gpuprof_hist_free(t);
	if (t->path_file)
		fput(t->path_file);
	if (t->cgrp)
		cgroup_put(t->cgrp);
	mutex_destroy(&t->node_lock);
	kmem_cache_free(gpuprof_target_cache, t);
	atomic_dec(&gpuprof_nr_targets);
}

/* Process context only: the last put frees the target. */
void gpuprof_target_put(struct gpuprof_target *t)
{
	kref_put(&t->ref, gpuprof_target_free);
}

/**
 * gpuprof_target_publish - give a new target its id, put it on the list
 * @t: from gpuprof_target_new()
 *
 * Called with the data lock held.  Ids are given here, in list order, so
 * they only ever grow and a command that fails uses none.  The files are
 * made by the target's work item.
 */
void gpuprof_target_publish(struct gpuprof_target *t)
{
	lockdep_assert_held(&gpuprof_data_lock);
	t->id = atomic_inc_return(&gpuprof_last_id);
	list_add_tail(&t->link, &gpuprof_targets);
	gpuprof_target_kick(t);
}

/*
 * Have @t's work item run: it makes the files and prints a path learned
 * meanwhile.  Any context; the caller holds a reference (the list's).
 */
void gpuprof_target_kick(struct gpuprof_target *t)
{
	kref_get(&t->ref);
	/* Already queued: that run will do it, and holds its own reference. */
	if (!queue_work(gpuprof_target_wq, &t->work))
		kref_put(&t->ref, gpuprof_target_free);
}

/*
 * Wait until @t's files exist; the caller holds a reference (the list's,
 * under gpuprof_lock).  The work takes no lock a caller of this holds.
 */
void gpuprof_target_wait_nodes(struct gpuprof_target *t)
{
	flush_work(&t->work);
}

/*
 * Make the files of gpuprof_target_files[] that @t lacks.  Each node
 * keeps @t alive for its files: an open takes a reference, and the node
 * goes before the list's reference (gpuprof_target_remove_nodes()).
 */
static void gpuprof_target_create_nodes(struct gpuprof_target *t)
{
	const struct gpuprof_file *file;
	char name[32];
	int i;

	mutex_lock(&t->node_lock);
	/* "end" may have come first: then the target has no files at all. */
	for (i = 0; i < GPUPROF_TARGET_NR_FILES && !READ_ONCE(t->ended); i++) {
		if (t->nodes[i])
			continue;
		file = &gpuprof_target_files[i];
		snprintf(name, sizeof(name), "%u/%s", t->id, file->name);
		t->nodes[i] = gpuprof_node_create(file, name, t, &t->ref,
						  gpuprof_target_free);
		if (IS_ERR(t->nodes[i]))
			pr_warn_ratelimited("gpuprof: no node %s: %ld\n", name,
					    PTR_ERR(t->nodes[i]));
	}
	mutex_unlock(&t->node_lock);
}

/* Print the path of the executable a probe took a reference to. */
static void gpuprof_target_print_path(struct gpuprof_target *t)
{
	struct file *exe;
	char *buf, *path;

	spin_lock_irq(&gpuprof_data_lock);
	exe = t->path_file;
	t->path_file = NULL;
	spin_unlock_irq(&gpuprof_data_lock);
	if (!exe)
		return;
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	path = buf ? d_path(&exe->f_path, buf, PATH_MAX) : ERR_PTR(-ENOMEM);
	spin_lock_irq(&gpuprof_data_lock);
	if (IS_ERR(path) || strlen(path) > GPUPROF_PATH_MAX) {
		atomic64_inc(&gpuprof_drops.paths);
	} else if (!t->path_known) {
		strscpy(t->path, path, sizeof(t->path));
		t->path_known = true;
	}
	spin_unlock_irq(&gpuprof_data_lock);
	kfree(buf);
	fput(exe);
}

/**
 * gpuprof_target_cgroup_path - print @cgrp's path into @t's cgroup file
 * @t: the target
 * @cgrp: its cgroup, which the caller keeps alive
 *
 * In process context: cgroup_path_ns() takes a lock with interrupts on.
 * The path is as the caller's cgroup namespace sees it: the writer's for
 * a cgroup NAME, the root's in the work item.
 *
 * Return: 0, or -errno.
 */
int gpuprof_target_cgroup_path(struct gpuprof_target *t, struct cgroup *cgrp)
{
	char *buf = kmalloc(PATH_MAX, GFP_KERNEL);
	int len;

	if (!buf)
		return -ENOMEM;
	len = cgroup_path_ns(cgrp, buf, PATH_MAX, current->nsproxy->cgroup_ns);
	if (len >= 0 && len <= GPUPROF_PATH_MAX) {
		spin_lock_irq(&gpuprof_data_lock);
		if (!t->cgroup_known) {
			strscpy(t->cgroup, buf, sizeof(t->cgroup));
			t->cgroup_known = true;
		}
		spin_unlock_irq(&gpuprof_data_lock);
	}
	kfree(buf);
	if (len < 0)
		return len;
	return len > GPUPROF_PATH_MAX ? -ENAMETOOLONG : 0;
}

/* Print the cgroup of the process a probe matched first. */
static void gpuprof_target_print_cgroup(struct gpuprof_target *t)
{
	struct cgroup *cgrp;

	spin_lock_irq(&gpuprof_data_lock);
	cgrp = t->cgroup_known ? NULL : t->cgrp;
	spin_unlock_irq(&gpuprof_data_lock);
	/* Set once and held until @t goes, and the work holds @t. */
	if (cgrp && gpuprof_target_cgroup_path(t, cgrp))
		atomic64_inc(&gpuprof_drops.paths);
}

static void gpuprof_target_work(struct work_struct *work)
{
	struct gpuprof_target *t = container_of(work, struct gpuprof_target,
						work);

	gpuprof_target_create_nodes(t);
	gpuprof_target_print_path(t);
	gpuprof_target_print_cgroup(t);
	gpuprof_target_put(t);
}

static void gpuprof_target_remove_nodes(struct gpuprof_target *t)
{
	int i;

	mutex_lock(&t->node_lock);
	for (i = 0; i < GPUPROF_TARGET_NR_FILES; i++) {
		gpuprof_node_destroy(t->nodes[i]);
		t->nodes[i] = NULL;
	}
	mutex_unlock(&t->node_lock);
}

/**
 * gpuprof_targets_unlink - mark targets ended and take them off the list
 * @named_only: only those made by "module NAME" ("module"), else all
 *	("end")
 * @ended: where the targets go, with the list's reference
 *
 * Step 1 of ending targets ("Targets and their lifetime"), with
 * gpuprof_lock and the data lock held.
 */
void gpuprof_targets_unlink(bool named_only, struct list_head *ended)
{
	struct gpuprof_target *t, *tmp;

	lockdep_assert_held(&gpuprof_lock);
	lockdep_assert_held(&gpuprof_data_lock);
	list_for_each_entry_safe(t, tmp, &gpuprof_targets, link) {
		if (named_only && t->tgid)
			continue;
		/* Also tells a pending work item not to make the files. */
		WRITE_ONCE(t->ended, true);
		list_move_tail(&t->link, ended);
	}
}

/**
 * gpuprof_targets_release - remove ended targets' files and let them go
 * @ended: from gpuprof_targets_unlink(), with the list's references;
 *	empty on return
 *
 * Step 3 of ending targets ("Targets and their lifetime"), under
 * gpuprof_lock, without the data lock: removing a node sleeps.
 */
void gpuprof_targets_release(struct list_head *ended)
{
	struct gpuprof_target *t, *tmp;

	lockdep_assert_held(&gpuprof_lock);
	list_for_each_entry_safe(t, tmp, ended, link) {
		list_del_init(&t->link);
		gpuprof_target_remove_nodes(t);
		gpuprof_target_put(t);
	}
}

/* A new key @key of @t, or the one that came meanwhile; NULL if none. */
static struct gpuprof_hkey *gpuprof_hkey_new(struct gpuprof_target *t, u32 key)
{
	struct gpuprof_hkey *k, *old;
	unsigned long flags;

	if (atomic_inc_return(&gpuprof_nr_hkeys) > GPUPROF_MAX_HIST_KEYS)
		goto drop;
	k = kmem_cache_zalloc(gpuprof_hkey_cache, GFP_ATOMIC | __GFP_NOWARN);
	if (!k)
		goto drop;
	k->key = key;
	xa_lock_irqsave(&t->hist, flags);
	old = __xa_cmpxchg(&t->hist, key, NULL, k, GFP_ATOMIC | __GFP_NOWARN);
	if (!old)
		WRITE_ONCE(t->nr_keys, t->nr_keys + 1);
	xa_unlock_irqrestore(&t->hist, flags);
	if (!old)
		return k;
	kmem_cache_free(gpuprof_hkey_cache, k);
	if (!xa_is_err(old)) {
		atomic_dec(&gpuprof_nr_hkeys);
		return old;	/* another CPU made it first */
	}
drop:
	atomic_dec(&gpuprof_nr_hkeys);
	atomic64_inc(&gpuprof_drops.hist_keys);
	return NULL;
}

/*
 * Claim interval @tick for @k: false if it already has a sample of it.
 * @k->tick holds the newest interval claimed, shifted left by one, and in
 * bit 0 whether the one before it was claimed too.  The timer's walk of
 * interval T can come after a signal claimed T + 1 (design.rst 3.7), so
 * the interval before the newest can still be claimed; older ones are
 * not asked for.
 */
static bool gpuprof_hkey_claim(struct gpuprof_hkey *k, u64 tick)
{
	s64 old = atomic64_read(&k->tick), new;
	u64 newest;

	do {
		newest = (u64)old >> 1;
		if (tick > newest)
			new = tick << 1 | (tick == newest + 1 && newest);
		else if (tick + 1 == newest && !(old & 1))
			new = old | 1;
		else
			return false;
	} while (!atomic64_try_cmpxchg(&k->tick, &old, new));
	return true;
}

/**
 * gpuprof_target_hist_add - add @delta to key @key of @t's histogram
 * @t: the target
 * @key: timeline id or size class
 * @delta: what to add; the value never goes below 0
 * @tick: when non-zero, the sampling interval this is a sample of: a key
 *	already sampled in that interval or a later one is left alone
 *
 * Any context; @t must stay, which a probe's caller sees to (gpuprof.h,
 * "Locking").
 */
void gpuprof_target_hist_add(struct gpuprof_target *t, u32 key, s64 delta,
			     u64 tick)
{
	struct gpuprof_hkey *k;
	s64 old, new;

	rcu_read_lock();
	k = xa_load(&t->hist, key);
	if (!k && delta > 0)
		k = gpuprof_hkey_new(t, key);
	if (!k || (tick && !gpuprof_hkey_claim(k, tick)))
		goto out;
	if (delta >= 0) {
		atomic64_add(delta, &k->value);
		goto out;
	}
	/* Never below 0: bytes freed that were counted before a reset. */
	old = atomic64_read(&k->value);
	do {
		new = max_t(s64, old + delta, 0);
	} while (!atomic64_try_cmpxchg(&k->value, &old, new));
out:
	rcu_read_unlock();
}

/**
 * gpuprof_target_mem_add - count a new buffer of @size bytes
 * @t: its owner
 * @key: its size class
 * @size: its size
 *
 * Any context.
 *
 * Return: the reset count to give gpuprof_target_mem_sub() at the
 * buffer's release.
 */
u32 gpuprof_target_mem_add(struct gpuprof_target *t, u32 key, u64 size)
{
	unsigned long flags;
	u32 gen;

	spin_lock_irqsave(&t->mem_lock, flags);
	gen = t->mem_gen;
	gpuprof_target_hist_add(t, key, size, 0);
	spin_unlock_irqrestore(&t->mem_lock, flags);
	return gen;
}

/* A buffer goes: take its bytes off, unless @t was reset since @gen. */
void gpuprof_target_mem_sub(struct gpuprof_target *t, u32 key, u64 size,
			    u32 gen)
{
	unsigned long flags;

	spin_lock_irqsave(&t->mem_lock, flags);
	if (gen == t->mem_gen)
		gpuprof_target_hist_add(t, key, -(s64)size, 0);
	spin_unlock_irqrestore(&t->mem_lock, flags);
}

/* "reset": zero @t's histogram and OA counters; data lock held. */
void gpuprof_target_reset(struct gpuprof_target *t)
{
	lockdep_assert_held(&gpuprof_data_lock);
	spin_lock(&t->mem_lock);
	t->mem_gen++;
	gpuprof_hist_free(t);
	spin_unlock(&t->mem_lock);
	memset(&t->oa, 0, sizeof(t->oa));
	t->oa_reports = 0;
}

void gpuprof_targets_reset(void)
{
	struct gpuprof_target *t;

	spin_lock_irq(&gpuprof_data_lock);
	list_for_each_entry(t, &gpuprof_targets, link)
		gpuprof_target_reset(t);
	spin_unlock_irq(&gpuprof_data_lock);
}

void gpuprof_targets_hist_clear(void)
{
	struct gpuprof_target *t;

	spin_lock_irq(&gpuprof_data_lock);
	list_for_each_entry(t, &gpuprof_targets, link)
		gpuprof_hist_free(t);
	spin_unlock_irq(&gpuprof_data_lock);
}

/**
 * gpuprof_target_hist_snapshot - copy @t's non-zero keys, in key order
 * @t: the target
 * @npairs: set to the number of pairs
 *
 * Return: the pairs (kvfree() them), or NULL when memory is short.
 */
struct gpuprof_pair *gpuprof_target_hist_snapshot(struct gpuprof_target *t,
						  u32 *npairs)
{
	XA_STATE(xas, &t->hist, 0);
	struct gpuprof_pair *pairs;
	struct gpuprof_hkey *k;
	u32 cap, n;
	u64 v;

	for (;;) {
		cap = READ_ONCE(t->nr_keys) + 1;
		pairs = kvmalloc_array(cap, sizeof(*pairs), GFP_KERNEL);
		if (!pairs)
			return NULL;
		n = 0;
		/* One walk of the tree, not a lookup from the root per key. */
		xas_set(&xas, 0);
		rcu_read_lock();
		xas_for_each(&xas, k, ULONG_MAX) {
			if (xas_retry(&xas, k))
				continue;
			v = atomic64_read(&k->value);
			if (!v)
				continue;
			if (n == cap)
				break;
			pairs[n].key = xas.xa_index;
			pairs[n].value = v;
			n++;
		}
		rcu_read_unlock();
		if (n < cap)
			break;
		/* Keys came meanwhile: all of them, or it is no snapshot. */
		kvfree(pairs);
	}
	*npairs = n;
	return pairs;
}

int gpuprof_targets_init(void)
{
	/*
	 * Unbound: making a target's nodes sleeps and wants no particular
	 * CPU.  7.x warns at a queue that says neither WQ_UNBOUND nor
	 * WQ_PERCPU.
	 */
	gpuprof_target_wq = alloc_workqueue("gpuprof", WQ_UNBOUND, 0);
	gpuprof_target_cache = KMEM_CACHE(gpuprof_target, 0);
	gpuprof_hkey_cache = KMEM_CACHE(gpuprof_hkey, 0);
	if (gpuprof_target_wq && gpuprof_target_cache && gpuprof_hkey_cache)
		return 0;
	gpuprof_targets_exit();
	return -ENOMEM;
}

/*
 * Unload, after every target ended.  The work items still queued find
 * their targets ended, make no file and drop the last references, which
 * frees them: the queue is drained before the caches go, and so are the
 * RCU callbacks that free histogram keys.
 */
void gpuprof_targets_exit(void)
{
	if (gpuprof_target_wq)
		destroy_workqueue(gpuprof_target_wq);
	rcu_barrier();
	kmem_cache_destroy(gpuprof_hkey_cache);
	kmem_cache_destroy(gpuprof_target_cache);
}
