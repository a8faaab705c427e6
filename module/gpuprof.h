/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gpuprof: internal interfaces between the files of the module.
 */

/**
 * DOC: Who calls whom
 *
 * The files of the module call one way only, downward in this list: a
 * file calls those of the items below its own, never one of its own item
 * or above.  Each item begins with its files (selftests/scripts/
 * module-layers.sh reads them, and checks the rule on the link).
 *
 * 1. main.c: loads the module, part by part, and unloads it, which runs
 *    "end" through ctl.c.
 * 2. target_files.c: the files of a target directory; a pctl write goes
 *    through ctl.c's write path, gpuprof_cmd_write().
 * 3. ctl.c: the commands, and the sequencing of everything that concerns
 *    several parts: start, stop, reset, and ending targets.
 * 4. status.c and marker.c: global files reading the parts below.
 * 5. oa.c and sched.c: /dev/gpuprof/oa, the OA stream and its
 *    attribution; drm_sched jobs from the scheduler's stable events,
 *    handed to fence.c, and the hardware fences run_job() makes.
 * 6. fence.c and gem.c: the probes, of jobs (and time sampling) and of
 *    buffers.
 * 7. client.c and timeline.c: which target a process works for; the
 *    timeline registry and its file.
 * 8. target.c: targets, their ids, histograms and lifetime, and the
 *    making of a target's nodes.
 * 9. node.c: the character devices and the common open.
 * 10. oa_decode.c: OA reports and the record stream, reading
 *     oa_platform.c's tables.
 * 11. ctl_parse.c, oa_helper.c, table.c and oa_platform.c: the ctl and
 *     pctl grammar, the usermode helper, the hash tables with a lock per
 *     bucket that fence.c and gem.c keep, the tables of OA platforms and
 *     report formats.
 *
 * ctl_parse.c, oa_decode.c and oa_platform.c hold no state, and are
 * compiled into the tools as well; oa_platform.c includes nothing of
 * the decoder.  compat.h holds every difference between kernel versions,
 * so the rest reads as if there were one kernel.
 *
 * Two links upward are data, not calls.  target.c makes a target's nodes
 * from the table of file kinds that target_files.c defines
 * (gpuprof_target_files), and node.c hands each open to the file
 * operations of the node's kind (&struct gpuprof_file), knowing the
 * node's owner only as a pointer and a kref.  The tables that point at
 * targets without holding a reference are told to let go of ended ones by
 * ctl.c (target.c, "Targets and their lifetime").
 */

/**
 * DOC: Locking
 *
 * Two locks order the commands.  gpuprof_lock, a mutex, serialises ctl
 * and pctl commands and every change of mode or of the target list made
 * from process context.  gpuprof_data_lock, a spinlock always taken with
 * interrupts off, guards the target list, changes to the client table,
 * the OA statistics and learned bindings, and what the commands change.
 * The mutex is taken before the spinlock, never inside it.  The probes
 * take the data lock on their cold path only: the first job or buffer of
 * a process not matched yet (client.c).
 *
 * The hot path of a probe takes no lock shared by the whole module: one
 * bucket lock of fence.c's contexts or gem.c's buffers (table.c), the
 * process's target and the fence's timeline looked up under RCU, the
 * histogram's value added with atomics, an ended job's run put in the
 * ring of its CPU.  Probes run with preemption off, possibly in interrupt
 * context.  Under a spinlock, and in a probe, nothing sleeps, and memory
 * comes only from GFP_ATOMIC allocations, bounded by the limits in
 * uapi/gpuprof.h, counting in gpuprof_drops what does not fit.
 *
 * Lock order: gpuprof_lock, the data lock, a bucket lock, a CPU's run
 * ring lock; a histogram's xarray lock nests in the data lock or a bucket
 * lock.  Narrower locks: the timeline registry's lock for
 * new names, each target's node_lock (creating and destroying its nodes),
 * the OA writer's mutex (one write at a time), and the node xarray's own
 * lock (an open against a node being destroyed).  A target is freed no
 * sooner than an RCU grace period after it left the tables a probe finds
 * targets in (target.c, "Targets and their lifetime"), which also waits
 * for probes, as they run with preemption off (Documentation/design.rst
 * 3.7).
 */
#ifndef _GPUPROF_H
#define _GPUPROF_H

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include "../uapi/gpuprof.h"
#include "ctl_parse.h"

struct cgroup;
#include "oa_decode.h"

struct gpuprof_target;

/**
 * struct gpuprof_file - one kind of file in /dev/gpuprof
 * @name: node name (below /dev/gpuprof, or below a target's directory)
 * @mode: permission bits of the node
 * @fops: the file operations that take over after the common open; a kind
 *	opens for reading only with a read method, for writing only with a
 *	write method.  For a per-target kind, ->private_data holds a target
 *	reference which the kind's release must drop (gpuprof_target_put()).
 * @may_open: when set, who may open it beyond @mode: called by the common
 *	open with the node's owner (a per-target kind's target) before @fops
 *	take over; 0 or -EACCES (Documentation/security.rst)
 *
 * The global kinds are defined by the files that serve them (ctl.c,
 * status.c, ...), the per-target ones in target_files.c.
 */
struct gpuprof_file {
	const char *name;
	umode_t mode;
	const struct file_operations *fops;
	int (*may_open)(const void *owner);
};

/**
 * struct gpuprof_node - one char device node
 * @file: what kind of file it is
 * @owner: what the node's files are about (a per-target node's target),
 *	handed to the kind's open in ->private_data; NULL for global nodes
 * @ref: @owner's reference count: every open file takes a reference
 * @release: @ref's release, for the reference of an open that fails
 * @dev: the device behind the node, registered with the gpuprof class
 */
struct gpuprof_node {
	const struct gpuprof_file *file;
	void *owner;
	struct kref *ref;
	void (*release)(struct kref *ref);
	struct device *dev;
};

enum gpuprof_mode {
	GPUPROF_IDLE,
	GPUPROF_TIME,		/* "start" */
	GPUPROF_COVERAGE,	/* "startcp" */
	GPUPROF_MEMORY,		/* "startmp" */
};

/* The kinds of file in a target directory: gpuprof_target_files[]. */
#define GPUPROF_TARGET_NR_FILES	6

/**
 * struct gpuprof_target - one numbered directory /dev/gpuprof/N
 * @ref: held by the target list and by each open file of the target
 * @link: in gpuprof_targets (data lock)
 * @id: N; ids are never reused while the module is loaded
 * @ended: set by "end": files of the target then return -ENODEV
 * @by_path: @name is matched against the executable path, not the comm
 * @tgid: the one process an automatic target stands for, else 0
 * @uid: that process's owner (its euid when the target was made), who may
 *	read the target's files besides CAP_PERFMON; INVALID_UID for a
 *	named target, which may gather several users' processes
 * @start_time: with @tgid and @exec_id, which process that is
 * @exec_id: its group leader's self_exec_id
 * @hist: histogram keys (struct gpuprof_hkey) by key: read under RCU,
 *	keys added and removed under its own lock (target.c)
 * @nr_keys: keys in @hist, under @hist's lock
 * @ctxid: the OA context id bound by pctl, valid when @ctxid_bound
 * @ctxid_bound: whether @ctxid is bound
 * @node_lock: serialises creating and destroying @nodes
 * @nodes: the target's files, one per gpuprof_target_files[] entry,
 *	created in process context by @work
 * @work: makes the files, prints @path_file into @path and @cgrp into
 *	@cgroup
 * @name: the name given to "module", or the comm of an automatic target
 * @exe_dev: with @exe_ino, the executable a path NAME resolved to
 * @exe_ino: see @exe_dev
 * @path: the executable path, "" if not known yet; written once, under the
 *	data lock, with @path_known
 * @path_known: whether @path is final
 * @path_file: the executable a probe saw, until @work prints its path
 * @cgrp: a cgroup target's cgroup (from "module", held), or the cgroup
 *	of the first process a probe matched (set once, data lock, held)
 * @by_cgroup: @name is "cgroup:PATH": it takes the processes in @cgrp
 *	and below at their first submission
 * @cgroup: @cgrp's path, "" if not known yet; written once, under the
 *	data lock, with @cgroup_known, and kept when the cgroup goes
 * @cgroup_known: whether @cgroup is final
 * @oa: OA counter deltas attributed to the target, data lock
 * @oa_reports: OA reports attributed to it
 * @oa_gen: the OA generation of the stream they came from
 * @mem_lock: makes a reset and the accounting of one buffer one after
 *	the other, not interleaved (target.c, "Histograms")
 * @mem_gen: memory profiling: resets so far; a buffer counted before the
 *	last one is not taken off at its release
 */
struct gpuprof_target {
	struct kref ref;
	struct list_head link;
	u32 id;
	bool ended;
	bool by_path;
	pid_t tgid;
	kuid_t uid;
	u64 start_time;
	u64 exec_id;
	struct xarray hist;
	u32 nr_keys;
	u64 ctxid;
	bool ctxid_bound;
	struct mutex node_lock;		/* see @node_lock above */
	struct gpuprof_node *nodes[GPUPROF_TARGET_NR_FILES];
	struct work_struct work;
	char name[GPUPROF_PATH_MAX + 1];
	dev_t exe_dev;
	unsigned long exe_ino;
	char path[GPUPROF_PATH_MAX + 1];
	bool path_known;
	struct file *path_file;
	struct cgroup *cgrp;
	bool by_cgroup;
	bool cgroup_known;
	char cgroup[GPUPROF_PATH_MAX + 1];
	struct gpuprof_oa_deltas oa;
	u64 oa_reports;
	unsigned int oa_gen;
	spinlock_t mem_lock;		/* see @mem_lock above */
	u32 mem_gen;
};

enum gpuprof_oa_state {
	GPUPROF_OA_STREAM_NONE,
	GPUPROF_OA_STREAM_OPEN,
	GPUPROF_OA_STREAM_CLOSED,
	GPUPROF_OA_STREAM_REFUSED,
};

/* What /dev/gpuprof/oa took and could not; data lock. */
struct gpuprof_oa_stats {
	enum gpuprof_oa_state state;
	enum gpuprof_oa_error last_error;
	u64 streams;
	u64 bytes;
	u64 reports;
	u64 report_lost;
	u64 buffer_lost;
	u64 rejected_streams;
	u64 unattributed;
	u64 unplaced;
	u64 switch_deltas;
	u64 other_reasons;
	u64 unknown;
	u64 learned;
};

/* Counters of what the bounded tables could not take, shown in status. */
struct gpuprof_drops {
	atomic64_t targets;
	atomic64_t jobs;
	atomic64_t clients;
	atomic64_t buffers;
	atomic64_t timelines;
	atomic64_t timeline_names_cut;
	atomic64_t hist_keys;
	atomic64_t paths;
	atomic64_t unattributed_jobs;
	atomic64_t unattributed_buffers;
};

/* Global profiler state; gpuprof_lock serialises every change to it. */
struct gpuprof_state {
	enum gpuprof_mode mode;		/* written under both locks */
	enum gpuprof_mode hist_mode;	/* what the histograms hold */
	unsigned int interval_ms;
	bool names_given;		/* "module NAME" given: data lock */
};

/**
 * struct gpuprof_bucket - one bucket of a struct gpuprof_table
 * @lock: protects @head and what its entries hold; interrupts off
 * @head: the entries whose key hashes here
 */
struct gpuprof_bucket {
	spinlock_t lock;		/* see @lock above */
	struct hlist_head head;
};

/**
 * struct gpuprof_table - a hash table with a lock per bucket (table.c)
 * @bucket: 1 << @bits buckets
 * @busy: which buckets are not empty
 * @bits: log2 of the number of buckets
 */
struct gpuprof_table {
	struct gpuprof_bucket *bucket;
	unsigned long *busy;
	unsigned int bits;
};

/* The bucket of @key in @tab. */
static inline struct gpuprof_bucket *
gpuprof_table_bucket(const struct gpuprof_table *tab, u64 key)
{
	return &tab->bucket[hash_64(key, tab->bits)];
}

extern struct mutex gpuprof_lock;
extern spinlock_t gpuprof_data_lock;
extern struct gpuprof_state gpuprof;
extern struct gpuprof_drops gpuprof_drops;
extern struct list_head gpuprof_targets;

extern const struct gpuprof_file gpuprof_ctl_file;
extern const struct gpuprof_file gpuprof_status_file;
extern const struct gpuprof_file gpuprof_timelines_file;
extern const struct gpuprof_file gpuprof_marker_file;
extern const struct gpuprof_file gpuprof_oa_file;
extern struct gpuprof_oa_stats gpuprof_oa_stats;

/* node.c */
int gpuprof_nodes_init(void);
void gpuprof_nodes_exit(void);
struct gpuprof_node *gpuprof_node_create(const struct gpuprof_file *file,
					 const char *name, void *owner,
					 struct kref *ref,
					 void (*release)(struct kref *ref));
void gpuprof_node_destroy(struct gpuprof_node *node);

/* target.c */
int gpuprof_targets_init(void);
void gpuprof_targets_exit(void);
struct gpuprof_target *gpuprof_target_new(const char *name, gfp_t gfp);
void gpuprof_target_publish(struct gpuprof_target *t);
void gpuprof_target_wait_nodes(struct gpuprof_target *t);
void gpuprof_target_kick(struct gpuprof_target *t);
int gpuprof_target_cgroup_path(struct gpuprof_target *t, struct cgroup *cgrp);
void gpuprof_target_put(struct gpuprof_target *t);
void gpuprof_targets_unlink(bool named_only, struct list_head *ended);
void gpuprof_targets_release(struct list_head *ended);
void gpuprof_target_hist_add(struct gpuprof_target *t, u32 key, s64 delta,
			     u64 tick);
void gpuprof_targets_hist_clear(void);
void gpuprof_target_reset(struct gpuprof_target *t);
u32 gpuprof_target_mem_add(struct gpuprof_target *t, u32 key, u64 size);
void gpuprof_target_mem_sub(struct gpuprof_target *t, u32 key, u64 size,
			    u32 gen);
void gpuprof_targets_reset(void);

struct gpuprof_pair {
	u32 key;
	u64 value;
};

struct gpuprof_pair *gpuprof_target_hist_snapshot(struct gpuprof_target *t,
						  u32 *npairs);

/* client.c: which target a process's GPU work belongs to */
int gpuprof_clients_init(void);
void gpuprof_clients_exit(void);
struct gpuprof_target *gpuprof_current_target(atomic64_t *unattributed);
void gpuprof_clients_forget(bool all);

/* table.c */
int gpuprof_table_init(struct gpuprof_table *tab, unsigned int bits);
void gpuprof_table_destroy(struct gpuprof_table *tab);
void gpuprof_table_update(struct gpuprof_table *tab, struct gpuprof_bucket *b);
void gpuprof_table_walk(struct gpuprof_table *tab,
			void (*fn)(struct gpuprof_bucket *b, void *arg),
			void *arg);

/* timeline.c */

/* When a timeline's fences get their seqno: "Fences numbered at emit". */
enum gpuprof_numbering {
	GPUPROF_NUMBERED_UNKNOWN,	/* no fence of it has ended yet */
	GPUPROF_NUMBERED_AT_INIT,	/* one signaled without an emit */
	GPUPROF_NUMBERED_AT_EMIT,	/* one was emitted */
};

int gpuprof_timelines_init(void);
void gpuprof_timelines_exit(void);
int gpuprof_timeline_id(const char *driver, const char *timeline);
u32 gpuprof_timelines_count(void);
void gpuprof_timeline_used(int id);
void gpuprof_timeline_share(int id);
enum gpuprof_numbering gpuprof_timeline_numbering(int id);
void gpuprof_timeline_numbered(int id, enum gpuprof_numbering how);

/* fence.c: jobs from dma_fence tracepoints, and time sampling */
int gpuprof_fence_init(void);
void gpuprof_fence_exit(void);
int gpuprof_fence_start(void);
void gpuprof_fence_run(void);
void gpuprof_fence_stop(void);
void gpuprof_fence_set_interval(unsigned int ms);
u32 gpuprof_jobs_in_flight(void);
void gpuprof_fence_disown_ended(void);
int gpuprof_targets_running_at(u64 t_ns, struct gpuprof_target **out,
			       int max, bool *alone);
struct dma_fence;
void gpuprof_fence_take_sched(bool events);
void gpuprof_fence_sched_queued(struct dma_fence *fence,
				struct gpuprof_target *owner);
void gpuprof_fence_sched_runs(struct dma_fence *fence);
void gpuprof_fence_handing_begin(const struct dma_fence *finished);
void gpuprof_fence_handing_clear(void);

/*
 * sched.c: drm_sched jobs from the scheduler's stable events (6.17), and
 * the hardware fences that run_job makes (every kernel)
 */
int gpuprof_sched_init(void);
void gpuprof_sched_exit(void);
void gpuprof_sched_start(void);
void gpuprof_sched_stop(void);
void gpuprof_sched_disown_ended(void);
const char *gpuprof_sched_source(void);

/* oa.c */
void gpuprof_oa_disown_ended(void);
void gpuprof_oa_bindings_changed(void);
void gpuprof_oa_forget_learned(void);

/* oa_helper.c */
struct seq_file;
void gpuprof_oa_helper_start(void);
void gpuprof_oa_helper_stop(void);
void gpuprof_oa_helper_show(struct seq_file *m);

/* gem.c: GEM buffers from kprobes, for memory profiling */
int gpuprof_gem_init(void);
void gpuprof_gem_exit(void);
int gpuprof_gem_start(void);
void gpuprof_gem_stop(void);
u32 gpuprof_buffers_live(void);
void gpuprof_gem_disown_ended(void);

/* target_files.c: the files of a target directory, in the order made */
extern const struct gpuprof_file gpuprof_target_files[];

/* ctl.c: the commands of ctl and pctl, parsed by ctl_parse.c */
void gpuprof_ctl_exit(void);
ssize_t gpuprof_cmd_write(const char __user *ubuf, size_t len,
			  enum gpuprof_cmd_file file,
			  int (*run)(struct gpuprof_cmd *cmd, void *arg),
			  void *arg);

#endif /* _GPUPROF_H */
