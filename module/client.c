// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: which target a process's GPU work belongs to, for the probes
 * of fence.c and gem.c.
 */

/**
 * DOC: Attribution of work to clients
 *
 * A job (a fence) or a buffer belongs to the process whose task made it,
 * a *client*; work made by a kernel thread or in interrupt context is no
 * process's and is counted as unattributed (design.rst 3.3).
 *
 * A process is matched once, the first time one of its threads submits
 * work while profiling, and the answer is cached in a table keyed by tgid,
 * the start time of the group leader (so a reused pid is a new client)
 * and its exec count (so is a process after execve()).  With names given
 * by "module", a NAME with a '/' matches the executable (the file the
 * path named when "module" ran: device and inode) and any other NAME the
 * process name; without names every process gets a target of its own.
 * The table is bounded: when full, the entries of processes that have
 * exited are swept out, and if none has, the answer is simply not cached
 * (counted as a dropped client).  An entry points at its target without
 * a reference: ending targets has the table forget them first
 * (gpuprof_clients_forget()).
 *
 * Probes look a process up under RCU, without a lock; entries are added
 * and removed under the data lock, which the probes take only for a
 * process not in the table, and freed after a grace period.
 */
#include <linux/cgroup.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/jiffies.h>
#include <linux/mm_types.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "compat.h"
#include "gpuprof.h"

struct gpuprof_client {
	struct hlist_node node;
	pid_t tgid;
	u64 start_time;
	u64 exec_id;
	struct gpuprof_target *target;	/* NULL: matches no target */
	struct rcu_head rcu;
};

static struct kmem_cache *gpuprof_client_cache;
static DEFINE_HASHTABLE(gpuprof_clients, 10);
static u32 gpuprof_nr_clients;
static unsigned long gpuprof_last_sweep;

/*
 * The process name: the group leader's comm, as a process renames its
 * threads at will.  Read without task_lock(): that lock is taken with
 * interrupts on elsewhere, and we hold the data lock, which interrupts
 * take.  A racing rename gives a mix of two names at worst.
 */
static void gpuprof_process_comm(struct task_struct *task, char *comm)
{
	memcpy(comm, task->group_leader->comm, TASK_COMM_LEN);
	comm[TASK_COMM_LEN - 1] = '\0';
}

/*
 * The identity of @task's executable, compared with that of a path NAME
 * resolved by "module".  Under RCU only: a path lookup (d_path()) takes
 * locks that must not nest in the data lock.  Return: false if none.
 */
static bool gpuprof_exe_id(struct task_struct *task, dev_t *dev,
			   unsigned long *ino)
{
	struct file *exe;
	struct inode *inode;
	bool found = false;

	if (!task->mm)
		return false;
	rcu_read_lock();
	exe = rcu_dereference(task->mm->exe_file);
	inode = exe ? READ_ONCE(exe->f_inode) : NULL;
	if (inode) {
		*dev = inode->i_sb->s_dev;
		*ino = inode->i_ino;
		found = true;
	}
	rcu_read_unlock();
	return found;
}

/*
 * Have @t learn its path from @task's executable: take a reference to
 * the file here, print its path later in process context (the target's
 * work).  Data lock held.
 */
static void gpuprof_learn_path(struct gpuprof_target *t,
			       struct task_struct *task)
{
	if (t->path_known || t->path_file || !task->mm)
		return;
	rcu_read_lock();
	t->path_file = gpuprof_get_exe_file(task->mm);
	rcu_read_unlock();
	if (t->path_file)
		gpuprof_target_kick(t);
}

/*
 * Have @t learn @task's cgroup for its cgroup file, once: a reference
 * here, the path printed by the target's work.  Data lock held.
 */
static void gpuprof_learn_cgroup(struct gpuprof_target *t,
				 struct task_struct *task)
{
	struct cgroup *cgrp;

	if (t->cgrp)
		return;
	rcu_read_lock();
	cgrp = task_dfl_cgroup(task);
	/* The task's css_set pins it: a plain get is enough. */
	cgroup_get(cgrp);
	rcu_read_unlock();
	t->cgrp = cgrp;
	gpuprof_target_kick(t);
}

/* Is @task in @ancestor or below, on the cgroup v2 hierarchy? */
static bool gpuprof_in_cgroup(struct task_struct *task,
			      struct cgroup *ancestor)
{
	bool in;

	rcu_read_lock();
	in = cgroup_is_descendant(task_dfl_cgroup(task), ancestor);
	rcu_read_unlock();
	return in;
}

static struct gpuprof_target *gpuprof_match(struct task_struct *task)
{
	struct gpuprof_target *t;
	char comm[TASK_COMM_LEN];
	unsigned long ino = 0;
	dev_t dev = 0;
	bool have_id;

	gpuprof_process_comm(task, comm);
	if (!gpuprof.names_given) {
		/* Its own directory, if it had one before names came and went. */
		list_for_each_entry(t, &gpuprof_targets, link)
			if (t->tgid == task->tgid &&
			    t->start_time == task->group_leader->start_time &&
			    t->exec_id == READ_ONCE(task->group_leader->self_exec_id))
				return t;
		t = gpuprof_target_new(comm, GFP_ATOMIC);
		if (IS_ERR(t)) {
			atomic64_inc(&gpuprof_drops.targets);
			return NULL;
		}
		t->tgid = task->tgid;
		t->uid = task_cred_xxx(task, euid);
		t->start_time = task->group_leader->start_time;
		t->exec_id = READ_ONCE(task->group_leader->self_exec_id);
		gpuprof_target_publish(t);
		gpuprof_learn_path(t, task);
		gpuprof_learn_cgroup(t, task);
		return t;
	}

	have_id = gpuprof_exe_id(task, &dev, &ino);
	list_for_each_entry(t, &gpuprof_targets, link) {
		if (t->tgid)
			continue;	/* automatic targets match no one else */
		if (t->by_cgroup) {
			if (gpuprof_in_cgroup(task, t->cgrp))
				return t;
		} else if (t->by_path) {
			if (have_id && t->exe_dev == dev && t->exe_ino == ino) {
				gpuprof_learn_cgroup(t, task);
				return t;
			}
		} else if (!strcmp(comm, t->name)) {
			gpuprof_learn_path(t, task);
			gpuprof_learn_cgroup(t, task);
			return t;
		}
	}
	return NULL;
}

static void gpuprof_client_free_rcu(struct rcu_head *rcu)
{
	kmem_cache_free(gpuprof_client_cache,
			container_of(rcu, struct gpuprof_client, rcu));
}

/* Data lock held; a probe may be reading @c, which goes after it. */
static void gpuprof_client_del(struct gpuprof_client *c)
{
	hash_del_rcu(&c->node);
	call_rcu(&c->rcu, gpuprof_client_free_rcu);
	gpuprof_nr_clients--;
}

static bool gpuprof_client_alive(const struct gpuprof_client *c)
{
	struct task_struct *leader;
	bool alive;

	rcu_read_lock();
	leader = pid_task(find_pid_ns(c->tgid, &init_pid_ns), PIDTYPE_TGID);
	alive = leader && leader->start_time == c->start_time;
	rcu_read_unlock();
	return alive;
}

/*
 * Drop the entries of processes that have exited; at most once a second,
 * as it walks the whole table with interrupts off.
 */
static void gpuprof_clients_sweep(void)
{
	struct gpuprof_client *c;
	struct hlist_node *tmp;
	int bkt;

	if (gpuprof_last_sweep && time_before(jiffies, gpuprof_last_sweep + HZ))
		return;
	gpuprof_last_sweep = jiffies;
	hash_for_each_safe(gpuprof_clients, bkt, tmp, c, node) {
		if (gpuprof_client_alive(c))
			continue;
		gpuprof_client_del(c);
	}
}

/* @task's entry, or NULL; under RCU or the data lock. */
static struct gpuprof_client *gpuprof_client_find(struct task_struct *task)
{
	u64 start = task->group_leader->start_time;
	u64 exec_id = READ_ONCE(task->group_leader->self_exec_id);
	struct gpuprof_client *c;

	hash_for_each_possible_rcu(gpuprof_clients, c, node, task->tgid,
				   lockdep_is_held(&gpuprof_data_lock))
		if (c->tgid == task->tgid && c->start_time == start &&
		    c->exec_id == exec_id)
			return c;
	return NULL;
}

/* The target @task's GPU work is accounted to, or NULL; data lock held. */
static struct gpuprof_target *gpuprof_client_target(struct task_struct *task)
{
	u64 start = task->group_leader->start_time;
	u64 exec_id = READ_ONCE(task->group_leader->self_exec_id);
	struct gpuprof_target *target;
	struct gpuprof_client *c;

	lockdep_assert_held(&gpuprof_data_lock);
	/* Another CPU may have added it since the caller looked. */
	c = gpuprof_client_find(task);
	if (c)
		return c->target;

	if (gpuprof_nr_clients >= GPUPROF_MAX_CLIENTS)
		gpuprof_clients_sweep();
	c = NULL;
	if (gpuprof_nr_clients < GPUPROF_MAX_CLIENTS)
		c = kmem_cache_alloc(gpuprof_client_cache,
				     GFP_ATOMIC | __GFP_NOWARN);
	if (!c) {
		atomic64_inc(&gpuprof_drops.clients);
		/*
		 * Uncached, an automatic target would be made anew for every
		 * job: account the work to no one instead.
		 */
		return gpuprof.names_given ? gpuprof_match(task) : NULL;
	}
	target = gpuprof_match(task);
	c->tgid = task->tgid;
	c->start_time = start;
	c->exec_id = exec_id;
	c->target = target;
	hash_add_rcu(gpuprof_clients, &c->node, c->tgid);
	gpuprof_nr_clients++;
	return target;
}

/**
 * gpuprof_current_target - the target of the work current submits
 * @unattributed: counted when current is no process: a kernel thread,
 *	or an interrupt
 *
 * Called from a probe, with preemption off and no bucket lock held: a
 * process not seen before takes the data lock.  The target stays until
 * the probe returns (gpuprof.h, "Locking").
 *
 * Return: the target, or NULL.
 */
struct gpuprof_target *gpuprof_current_target(atomic64_t *unattributed)
{
	struct gpuprof_target *target;
	struct gpuprof_client *c;
	unsigned long flags;

	/* Work made by the kernel itself is no process's. */
	if (!in_task() || (current->flags & PF_KTHREAD)) {
		atomic64_inc(unattributed);
		return NULL;
	}
	rcu_read_lock();
	c = gpuprof_client_find(current);
	target = c ? READ_ONCE(c->target) : NULL;
	rcu_read_unlock();
	if (c)
		return target;
	spin_lock_irqsave(&gpuprof_data_lock, flags);
	target = gpuprof_client_target(current);
	spin_unlock_irqrestore(&gpuprof_data_lock, flags);
	return target;
}

/**
 * gpuprof_clients_forget - forget clients, so they are matched again
 * @all: every client (the names to match against changed); else only
 *	those of ended targets and those that matched nothing (targets
 *	went, the names may have), keeping automatic targets' processes
 *
 * Called with the data lock held.
 */
void gpuprof_clients_forget(bool all)
{
	struct gpuprof_client *c;
	struct hlist_node *tmp;
	int bkt;

	lockdep_assert_held(&gpuprof_data_lock);
	hash_for_each_safe(gpuprof_clients, bkt, tmp, c, node) {
		if (!all && c->target && !READ_ONCE(c->target->ended))
			continue;
		gpuprof_client_del(c);
	}
}

int gpuprof_clients_init(void)
{
	gpuprof_client_cache = KMEM_CACHE(gpuprof_client, 0);
	return gpuprof_client_cache ? 0 : -ENOMEM;
}

void gpuprof_clients_exit(void)
{
	spin_lock_irq(&gpuprof_data_lock);
	gpuprof_clients_forget(true);
	spin_unlock_irq(&gpuprof_data_lock);
	rcu_barrier();	/* the entries' frees */
	kmem_cache_destroy(gpuprof_client_cache);
}
