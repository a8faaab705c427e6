// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: hash tables with a lock per bucket, for what the probes keep
 * (fence.c's contexts, gem.c's buffers).
 */

/**
 * DOC: Tables with a lock per bucket
 *
 * A probe that runs for every fence or buffer in the system takes the lock
 * of the one bucket its key hashes to, with interrupts off, and no lock
 * shared by the whole table: two CPUs working on different contexts or
 * buffers do not wait for each other (design.rst 3.7).  A bitmap says
 * which buckets are not empty, so the walks the timer and OA attribution
 * make often (fence.c) look at the busy buckets only.  Walks take one
 * bucket lock at a time and never nest two.
 */
#include <linux/bitmap.h>
#include <linux/slab.h>

#include "gpuprof.h"

/**
 * gpuprof_table_init - allocate @tab's buckets, all empty
 * @tab: the table
 * @bits: log2 of the number of buckets
 *
 * Return: 0, or -ENOMEM.
 */
int gpuprof_table_init(struct gpuprof_table *tab, unsigned int bits)
{
	unsigned int i, n = 1U << bits;

	tab->bits = bits;
	tab->bucket = kvmalloc_array(n, sizeof(*tab->bucket), GFP_KERNEL);
	tab->busy = bitmap_zalloc(n, GFP_KERNEL);
	if (!tab->bucket || !tab->busy) {
		gpuprof_table_destroy(tab);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		spin_lock_init(&tab->bucket[i].lock);
		INIT_HLIST_HEAD(&tab->bucket[i].head);
	}
	return 0;
}

/* Free @tab's buckets, which its owner has emptied. */
void gpuprof_table_destroy(struct gpuprof_table *tab)
{
	kvfree(tab->bucket);
	bitmap_free(tab->busy);
	tab->bucket = NULL;
	tab->busy = NULL;
}

/* @b's list changed: keep its bit in the busy map; @b's lock held. */
void gpuprof_table_update(struct gpuprof_table *tab, struct gpuprof_bucket *b)
{
	unsigned long i = b - tab->bucket;
	bool busy = !hlist_empty(&b->head);

	lockdep_assert_held(&b->lock);
	if (busy != test_bit(i, tab->busy))
		assign_bit(i, tab->busy, busy);
}

/**
 * gpuprof_table_walk - call @fn on each busy bucket of @tab, under its lock
 * @tab: the table
 * @fn: called with the bucket's lock held and interrupts off; it may
 *	remove entries of that bucket (then calls gpuprof_table_update())
 * @arg: passed to @fn
 *
 * One bucket lock at a time, never two: an entry added to a bucket the
 * walk has passed is not seen.
 */
void gpuprof_table_walk(struct gpuprof_table *tab,
			void (*fn)(struct gpuprof_bucket *b, void *arg),
			void *arg)
{
	unsigned long i, flags;
	struct gpuprof_bucket *b;

	for_each_set_bit(i, tab->busy, 1UL << tab->bits) {
		b = &tab->bucket[i];
		spin_lock_irqsave(&b->lock, flags);
		fn(b, arg);
		spin_unlock_irqrestore(&b->lock, flags);
	}
}
