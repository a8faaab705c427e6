// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: /dev/gpuprof/ctl, the plain-text command file, and the write
 * path it shares with each target's pctl.
 */

/**
 * DOC: Commands
 *
 * One command per write: fields separated by spaces or tabs, one trailing
 * newline allowed (design.rst 3.2).  A write is parsed and checked whole
 * (ctl_parse.c) before anything changes, so a rejected command leaves the
 * state as it was; then it runs under gpuprof_lock.
 *
 * The commands are where the parts of the module meet, so this file
 * sequences every change that concerns more than one of them: starting
 * (probes first, then the mode, then sampling and the OA helper),
 * stopping (the reverse), "reset", and ending targets
 * (gpuprof_end_targets(), in the steps target.c's "Targets and their
 * lifetime" lists).  The files below need not call up into one another
 * for these (gpuprof.h, "Who calls whom").
 */
#include <linux/cgroup.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "gpuprof.h"

/**
 * gpuprof_cmd_write - take one command written to ctl or pctl
 * @ubuf: the bytes written
 * @len: their number; more than GPUPROF_CTL_MAX is an error, never cut
 * @file: which of the two, for the grammar
 * @run: runs the parsed command, under gpuprof_lock
 * @arg: passed to @run
 *
 * Return: @len, or a negative errno from the parser or from @run.
 */
ssize_t gpuprof_cmd_write(const char __user *ubuf, size_t len,
			  enum gpuprof_cmd_file file,
			  int (*run)(struct gpuprof_cmd *cmd, void *arg),
			  void *arg)
{
	struct gpuprof_cmd *cmd;
	char *buf;
	int err;

	if (len == 0 || len > GPUPROF_CTL_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	cmd = kmalloc(sizeof(*cmd), GFP_KERNEL);
	if (!cmd) {
		err = -ENOMEM;
		goto out;
	}
	err = gpuprof_cmd_parse(buf, len, file, cmd);
	if (!err) {
		mutex_lock(&gpuprof_lock);
		err = run(cmd, arg);
		mutex_unlock(&gpuprof_lock);
	}
	kfree(cmd);
out:
	kfree(buf);
	return err ? err : len;
}

static bool gpuprof_have_name(const char *name)
{
	struct gpuprof_target *t;
	bool found = false;

	spin_lock_irq(&gpuprof_data_lock);
	list_for_each_entry(t, &gpuprof_targets, link)
		if (!t->tgid && !strcmp(t->name, name))
			found = true;
	spin_unlock_irq(&gpuprof_data_lock);
	return found;
}

/*
 * A path NAME names a file: match processes whose executable is that
 * file (device and inode), which needs no path lookup in a probe.
 */
static int gpuprof_resolve_exe(struct gpuprof_target *t, const char *name)
{
	struct inode *inode;
	struct path path;
	int err;

	err = kern_path(name, LOOKUP_FOLLOW, &path);
	if (err)
		return err;
	inode = d_backing_inode(path.dentry);
	if (!S_ISREG(inode->i_mode)) {
		path_put(&path);
		return -EINVAL;
	}
	t->exe_dev = inode->i_sb->s_dev;
	t->exe_ino = inode->i_ino;
	path_put(&path);
	strscpy(t->path, name, sizeof(t->path));
	t->path_known = true;
	return 0;
}

/*
 * A cgroup NAME names a cgroup v2 directory, from the root the writer's
 * cgroup namespace sees: keep a reference for matching and print its
 * path now, so the target's cgroup file keeps it when the cgroup goes.
 */
static int gpuprof_resolve_cgroup(struct gpuprof_target *t, const char *path)
{
	struct cgroup *cgrp = cgroup_get_from_path(path);

	if (IS_ERR(cgrp))
		return PTR_ERR(cgrp);
	t->cgrp = cgrp;		/* put with the target */
	t->by_cgroup = true;
	return gpuprof_target_cgroup_path(t, cgrp);
}

/**
 * gpuprof_end_targets - end targets (target.c, "Targets and their lifetime")
 * @named_only: only those made by "module NAME" ("module"), else all
 *	("end", unload)
 *
 * Called under gpuprof_lock; profiling may be running.  The three steps,
 * and why in this order, are those of target.c's "Targets and their
 * lifetime".
 */
static void gpuprof_end_targets(bool named_only)
{
	LIST_HEAD(ended);

	lockdep_assert_held(&gpuprof_lock);
	spin_lock_irq(&gpuprof_data_lock);
	gpuprof_targets_unlink(named_only, &ended);
	gpuprof.names_given = false;
	gpuprof_clients_forget(false);
	spin_unlock_irq(&gpuprof_data_lock);
	synchronize_rcu();
	gpuprof_fence_disown_ended();
	gpuprof_sched_disown_ended();
	gpuprof_gem_disown_ended();
	spin_lock_irq(&gpuprof_data_lock);
	gpuprof_oa_disown_ended();
	spin_unlock_irq(&gpuprof_data_lock);
	gpuprof_targets_release(&ended);
}

/*
 * "module NAME...": add targets; "module": remove the named ones.  The
 * names are in the grammar already (ctl_parse.c).
 */
static int gpuprof_cmd_module(struct gpuprof_cmd *cmd)
{
	struct gpuprof_target *new[GPUPROF_MODULE_MAX_NAMES];
	int i, j, n = 0, err;

	if (cmd->nfields == 1) {
		gpuprof_end_targets(true);
		return 0;
	}

	for (i = 1; i < cmd->nfields; i++) {
		const char *name = cmd->field[i];
		bool dup = gpuprof_have_name(name);

		for (j = 1; j < i && !dup; j++)
			dup = !strcmp(cmd->field[j], name);
		if (dup)
			continue;
		new[n] = gpuprof_target_new(name, GFP_KERNEL);
		if (IS_ERR(new[n])) {
			err = PTR_ERR(new[n]);
			while (n--)
				gpuprof_target_put(new[n]);
			/* A full table is a bad command (device.rst). */
			return err == -ENOSPC ? -EINVAL : err;
		}
		if (gpuprof_name_cgroup(name)) {
			err = gpuprof_resolve_cgroup(new[n],
						     gpuprof_name_cgroup(name));
		} else {
			new[n]->by_path = strchr(name, '/');
			err = new[n]->by_path ?
			      gpuprof_resolve_exe(new[n], name) : 0;
		}
		if (err) {
			gpuprof_target_put(new[n]);
			while (n--)
				gpuprof_target_put(new[n]);
			return err;
		}
		n++;
	}

	spin_lock_irq(&gpuprof_data_lock);
	for (i = 0; i < n; i++)
		gpuprof_target_publish(new[i]);
	gpuprof.names_given = true;
	/* Processes seen so far are matched again, against the new list. */
	gpuprof_clients_forget(true);
	spin_unlock_irq(&gpuprof_data_lock);
	/* The directories exist when the write returns. */
	for (i = 0; i < n; i++)
		gpuprof_target_wait_nodes(new[i]);
	return 0;
}

static void gpuprof_set_mode(enum gpuprof_mode mode)
{
	spin_lock_irq(&gpuprof_data_lock);
	WRITE_ONCE(gpuprof.mode, mode);	/* probes read it locklessly */
	spin_unlock_irq(&gpuprof_data_lock);
}

static int gpuprof_start(enum gpuprof_mode mode)
{
	int err;

	/* Profiles reveal other processes' activity. */
	if (!perfmon_capable())
		return -EPERM;
	if (gpuprof.mode == mode)
		return 0;
	if (gpuprof.mode != GPUPROF_IDLE)
		return -EBUSY;

	/* Probes first, while idle they do nothing: a failure changes nothing. */
	if (mode == GPUPROF_MEMORY)
		err = gpuprof_gem_start();
	else
		err = gpuprof_fence_start();
	if (err)
		return err;
	if (mode != GPUPROF_MEMORY)
		gpuprof_sched_start();

	/*
	 * Histograms hold one mode's keys; another mode starts afresh.  So
	 * does memory profiling always: live bytes are a level, and buffers
	 * released while stopped were not seen going.
	 */
	if (gpuprof.hist_mode != mode || mode == GPUPROF_MEMORY)
		gpuprof_targets_hist_clear();
	gpuprof.hist_mode = mode;
	gpuprof_set_mode(mode);
	if (mode != GPUPROF_MEMORY)
		gpuprof_fence_run();
	gpuprof_oa_helper_start();
	return 0;
}

static void gpuprof_stop(void)
{
	enum gpuprof_mode mode = gpuprof.mode;

	if (mode == GPUPROF_IDLE)
		return;
	gpuprof_oa_helper_stop();
	gpuprof_set_mode(GPUPROF_IDLE);
	spin_lock_irq(&gpuprof_data_lock);
	gpuprof_oa_forget_learned();
	spin_unlock_irq(&gpuprof_data_lock);
	if (mode == GPUPROF_MEMORY) {
		gpuprof_gem_stop();
	} else {
		gpuprof_sched_stop();
		gpuprof_fence_stop();
	}
}

static int gpuprof_ctl_run(struct gpuprof_cmd *cmd, void *arg)
{
	switch (cmd->verb) {
	case GPUPROF_VERB_MODULE:
		return gpuprof_cmd_module(cmd);
	case GPUPROF_VERB_START:
		return gpuprof_start(GPUPROF_TIME);
	case GPUPROF_VERB_STARTCP:
		return gpuprof_start(GPUPROF_COVERAGE);
	case GPUPROF_VERB_STARTMP:
		return gpuprof_start(GPUPROF_MEMORY);
	case GPUPROF_VERB_STOP:
		gpuprof_stop();
		return 0;
	case GPUPROF_VERB_END:
		gpuprof_stop();
		gpuprof_end_targets(false);
		return 0;
	case GPUPROF_VERB_RESET:
		gpuprof_targets_reset();
		spin_lock_irq(&gpuprof_data_lock);
		gpuprof_oa_forget_learned();
		spin_unlock_irq(&gpuprof_data_lock);
		return 0;
	case GPUPROF_VERB_INTERVAL:
		gpuprof.interval_ms = cmd->interval_ms;
		gpuprof_fence_set_interval(cmd->interval_ms);
		return 0;
	default:
		return -EINVAL;
	}
}

static ssize_t gpuprof_ctl_write(struct file *filp, const char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	return gpuprof_cmd_write(ubuf, len, GPUPROF_CMD_CTL, gpuprof_ctl_run,
				 NULL);
}

static const struct file_operations gpuprof_ctl_fops = {
	.owner = THIS_MODULE,
	.write = gpuprof_ctl_write,
	.llseek = noop_llseek,
};

const struct gpuprof_file gpuprof_ctl_file = {
	.name = "ctl",
	.mode = 0600,
	.fops = &gpuprof_ctl_fops,
};

/* Module unload: as "end". */
void gpuprof_ctl_exit(void)
{
	mutex_lock(&gpuprof_lock);
	gpuprof_stop();
	gpuprof_end_targets(false);
	mutex_unlock(&gpuprof_lock);
}
