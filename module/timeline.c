// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: timelines, the key space of time and coverage histograms, and
 * /dev/gpuprof/timelines, which lists them as "id driver timeline" lines.
 */

/**
 * DOC: Timelines
 *
 * A timeline is the pair of names a fence's get_driver_name() and
 * get_timeline_name() return, not its context number: some drivers (vgem)
 * take a new context for every fence.  Ids are given in order of first
 * sight and kept until the module is unloaded, so an id always means the
 * same timeline.  Probes look names up under RCU; a name not seen before
 * is added under gpuprof_timeline_lock.  Entries are written once, never
 * freed before unload, and published by the count (release/acquire), so
 * the file is read without a lock.  The
 * probes of fence.c name the timelines of jobs, oa.c the OA unit's own
 * (design.rst 3.3 and 3.4).
 */

/**
 * DOC: Whose timeline
 *
 * A timeline's name can be a process's: i915 names a GEM context's
 * timeline COMM[PID] of its creator.  So each timeline remembers the euid
 * of the task that made its jobs, and the file shows a timeline to a
 * reader without CAP_PERFMON only if that is the reader's fsuid at open,
 * or if the timeline is shared: used by tasks of two uids, by the kernel
 * (a kernel thread, or no task: an interrupt), or the OA unit's.  Rings,
 * CRTCs and the like are shared as soon as two users or the kernel use
 * them; a context one user made stays that user's (security.rst).  Ids
 * are unchanged: a reader sees gaps where lines are not its own.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "gpuprof.h"

struct gpuprof_timeline {
	struct hlist_node node;
	u32 id;
	u32 hash;
	u32 uid;	/* the euid of its jobs' tasks, GPUPROF_NO_UID before */
	bool shared;	/* shown to all: see "Whose timeline" */
	u32 numbering;	/* enum gpuprof_numbering, learned from its fences */
	char driver[GPUPROF_TIMELINE_NAME_MAX + 1];
	char timeline[GPUPROF_TIMELINE_NAME_MAX + 1];
};

#define GPUPROF_NO_UID	((u32)-1)

static struct kmem_cache *gpuprof_timeline_cache;
static DEFINE_HASHTABLE(gpuprof_timeline_hash, 8);
static struct gpuprof_timeline *gpuprof_timeline_by_id[GPUPROF_MAX_TIMELINES];
static u32 gpuprof_nr_timelines;
static DEFINE_SPINLOCK(gpuprof_timeline_lock);	/* adding timelines */
/* The timeline each CPU found last, tried first; they live until unload. */
static DEFINE_PER_CPU(struct gpuprof_timeline *, gpuprof_timeline_hint);

/*
 * Copy a name, cut to the limit, with bytes that would break the line
 * format replaced: the driver is one word, the timeline the rest of the
 * line.  Returns true when the name was cut.
 */
static bool gpuprof_copy_name(char *dst, const char *src, bool one_word)
{
	size_t i;

	for (i = 0; src[i] && i < GPUPROF_TIMELINE_NAME_MAX; i++) {
		unsigned char c = src[i];

		if (c < 0x20 || c == 0x7f || (one_word && c == ' '))
			c = '_';
		dst[i] = c;
	}
	dst[i] = '\0';
	return src[i] != '\0';
}

static struct gpuprof_timeline *gpuprof_timeline_find(const char *d,
						      const char *t, u32 hash)
{
	struct gpuprof_timeline *tl;

	hash_for_each_possible_rcu(gpuprof_timeline_hash, tl, node, hash,
				   lockdep_is_held(&gpuprof_timeline_lock))
		if (tl->hash == hash && !strcmp(tl->driver, d) &&
		    !strcmp(tl->timeline, t))
			return tl;
	return NULL;
}

/* A new timeline, or NULL; gpuprof_timeline_lock held. */
static struct gpuprof_timeline *gpuprof_timeline_add(const char *d,
						     const char *t, u32 hash,
						     bool cut)
{
	struct gpuprof_timeline *tl;

	if (gpuprof_nr_timelines == GPUPROF_MAX_TIMELINES)
		goto drop;
	tl = kmem_cache_alloc(gpuprof_timeline_cache, GFP_ATOMIC | __GFP_NOWARN);
	if (!tl)
		goto drop;
	if (cut)
		atomic64_inc(&gpuprof_drops.timeline_names_cut);
	tl->id = gpuprof_nr_timelines;
	tl->hash = hash;
	tl->uid = GPUPROF_NO_UID;
	tl->shared = false;
	tl->numbering = GPUPROF_NUMBERED_UNKNOWN;
	strscpy(tl->driver, d, sizeof(tl->driver));
	strscpy(tl->timeline, t, sizeof(tl->timeline));
	gpuprof_timeline_by_id[tl->id] = tl;
	hash_add_rcu(gpuprof_timeline_hash, &tl->node, hash);
	/* Readers of the file take the count without the lock. */
	smp_store_release(&gpuprof_nr_timelines, tl->id + 1);
	return tl;

drop:
	atomic64_inc(&gpuprof_drops.timelines);
	return NULL;
}

/**
 * gpuprof_timeline_id - the id of timeline (@driver, @timeline)
 * @driver: the fence's driver name
 * @timeline: the fence's timeline name
 *
 * Any context.
 *
 * Return: the id, or -ENOSPC when the key space is full or memory is
 * short (counted as a dropped timeline).
 */
int gpuprof_timeline_id(const char *driver, const char *timeline)
{
	char d[GPUPROF_TIMELINE_NAME_MAX + 1], t[GPUPROF_TIMELINE_NAME_MAX + 1];
	struct gpuprof_timeline *tl;
	unsigned long flags;
	bool cut;
	u32 hash;

	/*
	 * A fence's names are most often those of the fence before: names
	 * equal to a timeline's stored ones are that timeline, as a stored
	 * name is already clean and whole (design.rst 3.7).
	 */
	tl = this_cpu_read(gpuprof_timeline_hint);
	if (tl && !strcmp(driver, tl->driver) && !strcmp(timeline, tl->timeline))
		return tl->id;

	cut = gpuprof_copy_name(d, driver, true);
	cut |= gpuprof_copy_name(t, timeline, false);
	hash = jhash(t, strlen(t), jhash(d, strlen(d), 0));

	rcu_read_lock();
	tl = gpuprof_timeline_find(d, t, hash);
	rcu_read_unlock();
	if (!tl) {
		spin_lock_irqsave(&gpuprof_timeline_lock, flags);
		/* Another CPU may have added it meanwhile. */
		tl = gpuprof_timeline_find(d, t, hash);
		if (!tl)
			tl = gpuprof_timeline_add(d, t, hash, cut);
		spin_unlock_irqrestore(&gpuprof_timeline_lock, flags);
	}
	if (!tl)
		return -ENOSPC;
	this_cpu_write(gpuprof_timeline_hint, tl);
	return tl->id;
}

/**
 * gpuprof_timeline_used - the current task makes a job on timeline @id
 * @id: an id from gpuprof_timeline_id()
 *
 * Any context: outside a user task the timeline is the kernel's, shared.
 */
void gpuprof_timeline_used(int id)
{
	struct gpuprof_timeline *tl = gpuprof_timeline_by_id[id];
	u32 uid, old;

	if (READ_ONCE(tl->shared))
		return;
	if (!in_task() || (current->flags & PF_KTHREAD)) {
		WRITE_ONCE(tl->shared, true);
		return;
	}
	uid = from_kuid(&init_user_ns, current_euid());
	/* A plain read for the usual case: its own timeline, again. */
	old = READ_ONCE(tl->uid);
	if (old == GPUPROF_NO_UID)
		old = cmpxchg(&tl->uid, GPUPROF_NO_UID, uid);
	if (old != GPUPROF_NO_UID && old != uid)
		WRITE_ONCE(tl->shared, true);
}

/* Timeline @id is no task's (the OA unit's): shown to every reader. */
void gpuprof_timeline_share(int id)
{
	WRITE_ONCE(gpuprof_timeline_by_id[id]->shared, true);
}

/* How timeline @id's fences are numbered, as far as seen; any context. */
enum gpuprof_numbering gpuprof_timeline_numbering(int id)
{
	return READ_ONCE(gpuprof_timeline_by_id[id]->numbering);
}

/**
 * gpuprof_timeline_numbered - a fence of timeline @id ended as @how says
 * @id: an id from gpuprof_timeline_id()
 * @how: GPUPROF_NUMBERED_AT_EMIT (it was emitted) or _AT_INIT (it
 *	 signaled without an emit)
 *
 * Any context.  An emit settles it: a driver that numbers fences at emit
 * may still signal one it never emitted (a cancelled command), but one
 * that numbers them at init never emits.
 */
void gpuprof_timeline_numbered(int id, enum gpuprof_numbering how)
{
	struct gpuprof_timeline *tl = gpuprof_timeline_by_id[id];

	if (how == GPUPROF_NUMBERED_AT_EMIT)
		WRITE_ONCE(tl->numbering, how);
	else if (READ_ONCE(tl->numbering) == GPUPROF_NUMBERED_UNKNOWN)
		cmpxchg(&tl->numbering, GPUPROF_NUMBERED_UNKNOWN, how);
}

u32 gpuprof_timelines_count(void)
{
	/* Pairs with the release in gpuprof_timeline_add(). */
	return smp_load_acquire(&gpuprof_nr_timelines);
}

static void *gpuprof_timelines_start(struct seq_file *m, loff_t *pos)
{
	return *pos < gpuprof_timelines_count() ?
		gpuprof_timeline_by_id[*pos] : NULL;
}

static void *gpuprof_timelines_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return gpuprof_timelines_start(m, pos);
}

static void gpuprof_timelines_stop(struct seq_file *m, void *v)
{
}

/* What the opener may see: every line, or the shared and its own. */
struct gpuprof_timelines_reader {
	bool all;
	u32 fsuid;
};

static int gpuprof_timelines_show(struct seq_file *m, void *v)
{
	const struct gpuprof_timelines_reader *r = m->private;
	const struct gpuprof_timeline *tl = v;

	if (!r->all && !READ_ONCE(tl->shared) && READ_ONCE(tl->uid) != r->fsuid)
		return 0;
	seq_printf(m, "%u %s %s\n", tl->id, tl->driver, tl->timeline);
	return 0;
}

static const struct seq_operations gpuprof_timelines_seq_ops = {
	.start = gpuprof_timelines_start,
	.next = gpuprof_timelines_next,
	.stop = gpuprof_timelines_stop,
	.show = gpuprof_timelines_show,
};

/* The reader is the opener, as for a target's files (security.rst). */
static int gpuprof_timelines_open(struct inode *inode, struct file *filp)
{
	struct gpuprof_timelines_reader *r;

	filp->private_data = NULL;	/* seq_open() insists */
	r = __seq_open_private(filp, &gpuprof_timelines_seq_ops, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->all = perfmon_capable();
	r->fsuid = from_kuid(&init_user_ns, current_fsuid());
	return 0;
}

static const struct file_operations gpuprof_timelines_fops = {
	.owner = THIS_MODULE,
	.open = gpuprof_timelines_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release_private,
};

const struct gpuprof_file gpuprof_timelines_file = {
	.name = "timelines",
	.mode = 0444,
	.fops = &gpuprof_timelines_fops,
};

int gpuprof_timelines_init(void)
{
	gpuprof_timeline_cache = KMEM_CACHE(gpuprof_timeline, 0);
	return gpuprof_timeline_cache ? 0 : -ENOMEM;
}

void gpuprof_timelines_exit(void)
{
	u32 i;

	for (i = 0; i < gpuprof_nr_timelines; i++)
		kmem_cache_free(gpuprof_timeline_cache,
				gpuprof_timeline_by_id[i]);
	gpuprof_nr_timelines = 0;
	hash_init(gpuprof_timeline_hash);
	kmem_cache_destroy(gpuprof_timeline_cache);
}
