// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: which target a process's GPU work belongs to.
 *
 * A process is matched once, the first time one of its threads submits
 * work while profiling, and the answer is cached in a table keyed by tgid
 * and the start time of the group leader (so a reused pid is a new
 * client).  With names given by "module", a NAME with a '/' matches the
 * executable's path and any other NAME the comm; without names every
 * process gets a target of its own.  The table is bounded: when full, the
 * entries of processes that have exited are swept out, and if none has,
 * the answer is simply not cached (counted as a dropped client).
 */
#include <linux/dcache.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/mm_types.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "gpuprof.h"

struct gpuprof_client {
	struct hlist_node node;
	pid_t tgid;
	u64 start_time;
	struct gpuprof_target *target;	/* NULL: matches no target */
};

static struct kmem_cache *gpuprof_client_cache;
static DEFINE_HASHTABLE(gpuprof_clients, 10);
static u32 gpuprof_nr_clients;

/* d_path() output, used under the data lock only. */
static char gpuprof_path_buf[GPUPROF_PATH_MAX + 1];

/*
 * The executable path of @task, in gpuprof_path_buf; NULL when it has
 * none or it is longer than GPUPROF_PATH_MAX (no NAME can be that long).
 */
static const char *gpuprof_exe_path(struct task_struct *task)
{
	struct file *exe = NULL;
	const char *path = NULL;
	struct mm_struct *mm = task->mm;

	if (!mm)
		return NULL;
	rcu_read_lock();
	exe = rcu_dereference(mm->exe_file);
	if (exe && !get_file_rcu(exe))
		exe = NULL;
	rcu_read_unlock();
	if (!exe)
		return NULL;
	path = d_path(&exe->f_path, gpuprof_path_buf, sizeof(gpuprof_path_buf));
	fput(exe);
	if (IS_ERR(path)) {
		atomic64_inc(&gpuprof_drops.paths);
		return NULL;
	}
	return path;
}

static void gpuprof_set_path(struct gpuprof_target *t, const char *path)
{
	if (t->path_known || !path)
		return;
	strscpy(t->path, path, sizeof(t->path));
	t->path_known = true;
}

static struct gpuprof_target *gpuprof_match(struct task_struct *task)
{
	struct gpuprof_target *t;
	const char *path = NULL;
	bool path_done = false;
	char comm[TASK_COMM_LEN];

	get_task_comm(comm, task);
	if (!gpuprof.names_given) {
		t = gpuprof_target_new(comm, GFP_ATOMIC);
		if (!t) {
			atomic64_inc(&gpuprof_drops.targets);
			return NULL;
		}
		t->tgid = task->tgid;
		gpuprof_set_path(t, gpuprof_exe_path(task));
		gpuprof_target_publish(t);
		return t;
	}

	list_for_each_entry(t, &gpuprof_targets, link) {
		if (t->tgid)
			continue;	/* automatic targets match no one else */
		if (t->by_path) {
			if (!path_done) {
				path = gpuprof_exe_path(task);
				path_done = true;
			}
			if (path && !strcmp(path, t->name))
				return t;
		} else if (!strcmp(comm, t->name)) {
			if (!path_done) {
				path = gpuprof_exe_path(task);
				path_done = true;
			}
			gpuprof_set_path(t, path);
			return t;
		}
	}
	return NULL;
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

static void gpuprof_clients_sweep(void)
{
	struct gpuprof_client *c;
	struct hlist_node *tmp;
	int bkt;

	hash_for_each_safe(gpuprof_clients, bkt, tmp, c, node) {
		if (gpuprof_client_alive(c))
			continue;
		hash_del(&c->node);
		kmem_cache_free(gpuprof_client_cache, c);
		gpuprof_nr_clients--;
	}
}

/**
 * gpuprof_client_target - the target @task's GPU work is accounted to
 * @task: the submitting task (current, in a probe)
 *
 * Called with the data lock held.  Return: the target, or NULL.
 */
struct gpuprof_target *gpuprof_client_target(struct task_struct *task)
{
	u64 start = task->group_leader->start_time;
	struct gpuprof_target *target;
	struct gpuprof_client *c;

	lockdep_assert_held(&gpuprof_data_lock);
	hash_for_each_possible(gpuprof_clients, c, node, task->tgid)
		if (c->tgid == task->tgid && c->start_time == start)
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
	c->target = target;
	hash_add(gpuprof_clients, &c->node, c->tgid);
	gpuprof_nr_clients++;
	return target;
}

/*
 * Forget every client: their targets may be about to go, or the names to
 * match against have changed.  Called with the data lock held.
 */
void gpuprof_clients_flush(void)
{
	struct gpuprof_client *c;
	struct hlist_node *tmp;
	int bkt;

	lockdep_assert_held(&gpuprof_data_lock);
	hash_for_each_safe(gpuprof_clients, bkt, tmp, c, node) {
		hash_del(&c->node);
		kmem_cache_free(gpuprof_client_cache, c);
	}
	gpuprof_nr_clients = 0;
}

int gpuprof_clients_init(void)
{
	gpuprof_client_cache = KMEM_CACHE(gpuprof_client, 0);
	return gpuprof_client_cache ? 0 : -ENOMEM;
}

void gpuprof_clients_exit(void)
{
	kmem_cache_destroy(gpuprof_client_cache);
}
