// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: the OA pump as a usermode helper, started and stopped by
 * ctl.c with profiling.
 */

/**
 * DOC: The OA helper
 *
 * i915-perf data leaves i915 only through read() on its stream fd, which
 * the kernel cannot call (the fd has no read_iter), so a userspace
 * program, gpuprof-oa, reads it and writes /dev/gpuprof/oa.  With
 * oa_helper=PATH the module starts "PATH --device -o -" when profiling
 * starts and stops it, with SIGTERM and then SIGKILL, when profiling
 * stops.  With oa_metric_set=NAME as well, the helper is started as
 * "PATH --device --metric-set NAME -o -"; NAME, a set's name or uuid, is
 * checked at load (letters, digits, '_' and '-', a letter or digit
 * first, at most 64), since it goes into the helper's argv.  A helper
 * that cannot be started does not stop profiling: status says why.
 *
 * PATH may be a wrapper that runs the pump as its child.  Killing the
 * wrapper alone would leave the pump running, holding the oa node (the
 * next start's pump is refused it, and the module cannot be unloaded), so
 * PATH is exec'd through setsid(1), found on the helper's PATH, and heads
 * a process group of its own.  Stop signals the helper and that group,
 * and returns once the helper is gone and every process of the group has
 * exited, its files closed.  A child that leaves the group itself is not
 * followed.
 *
 * The helper runs with the least it needs, not as the kernel's usermode
 * helpers do (uid 0, every capability).  Before its exec, still with the
 * kernel's credentials, it is given /dev/gpuprof/oa open for writing as
 * its stdout and /dev/null as stdin and stderr, so it needs no right to
 * the node.  What is exec'd is setpriv(1) (oa_helper_setpriv=), with no
 * capability beyond the four it needs to drop the rest (CAP_SETUID,
 * CAP_SETGID, CAP_SETPCAP and CAP_PERFMON, in every set and the bounding
 * set) and no_new_privs; it becomes oa_helper_uid and oa_helper_gid
 * (default 65534, nobody and nogroup; the gid should be the render
 * nodes' group, "render" on Debian) with no supplementary group and
 * CAP_PERFMON alone, ambient so that it survives the exec of the
 * unprivileged pump, which i915's and xe's perf_stream_paranoid need.
 * The uid is not switched here: only setresuid() moves the process's
 * RLIMIT_NPROC count to its new user, which no exported call does, and
 * the exit of a process whose cred changed user without it warns in
 * kernel/ucount.c.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/ctype.h>
#include <linux/delay.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/moduleparam.h>
#include <linux/namei.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/umh.h>

#include "gpuprof.h"

static char *oa_helper;
module_param(oa_helper, charp, 0444);
MODULE_PARM_DESC(oa_helper,
		 "program started with profiling to feed /dev/gpuprof/oa (gpuprof-oa)");

/* The longest oa_metric_set= (IGT's names are shorter; a uuid is 36). */
#define GPUPROF_METRIC_SET_MAX	64

static char *oa_metric_set;

/* Only what a metric set's name or uuid is made of: it goes into argv. */
static int gpuprof_metric_set_param(const char *val,
				    const struct kernel_param *kp)
{
	size_t i, n = strlen(val);

	if (n > GPUPROF_METRIC_SET_MAX || (n && !isalnum(val[0])))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!isalnum(val[i]) && val[i] != '_' && val[i] != '-')
			return -EINVAL;
	return param_set_charp(val, kp);
}

static const struct kernel_param_ops gpuprof_metric_set_ops = {
	.set = gpuprof_metric_set_param,
	.get = param_get_charp,
	.free = param_free_charp,
};

module_param_cb(oa_metric_set, &gpuprof_metric_set_ops, &oa_metric_set,
		0444);
__MODULE_PARM_TYPE(oa_metric_set, "charp");
MODULE_PARM_DESC(oa_metric_set,
		 "OA metric set the helper records, a name or uuid (--metric-set; default the helper's, RenderBasic)");

/* Who the helper runs as: an id of the initial namespace, not -1. */
static int gpuprof_helper_id_param(const char *val,
				   const struct kernel_param *kp)
{
	unsigned int id;
	int err = kstrtouint(val, 0, &id);

	if (err)
		return err;
	if (id == (unsigned int)-1)
		return -EINVAL;
	*(unsigned int *)kp->arg = id;
	return 0;
}

static const struct kernel_param_ops gpuprof_helper_id_ops = {
	.set = gpuprof_helper_id_param,
	.get = param_get_uint,
};

static unsigned int oa_helper_uid = 65534;
module_param_cb(oa_helper_uid, &gpuprof_helper_id_ops, &oa_helper_uid, 0444);
__MODULE_PARM_TYPE(oa_helper_uid, "uint");
MODULE_PARM_DESC(oa_helper_uid,
		 "uid the OA helper runs as (default 65534, nobody)");

static unsigned int oa_helper_gid = 65534;
module_param_cb(oa_helper_gid, &gpuprof_helper_id_ops, &oa_helper_gid, 0444);
__MODULE_PARM_TYPE(oa_helper_gid, "uint");
MODULE_PARM_DESC(oa_helper_gid,
		 "gid the OA helper runs as, the render nodes' group (default 65534, nogroup)");

static char *oa_helper_setpriv = "/usr/bin/setpriv";
module_param(oa_helper_setpriv, charp, 0444);
MODULE_PARM_DESC(oa_helper_setpriv,
		 "setpriv(1), which starts the OA helper as oa_helper_uid with CAP_PERFMON alone");

/* The running helper, and how the last start went; gpuprof_lock. */
static struct pid *gpuprof_helper;
static int gpuprof_helper_err;

/* Opens @path with the kernel's credentials as the helper's next fd. */
static int gpuprof_helper_fd(const char *path, int flags, int want)
{
	struct file *file;
	int fd;

	file = filp_open(path, flags, 0);
	if (IS_ERR(file))
		return PTR_ERR(file);
	fd = get_unused_fd_flags(0);
	if (fd < 0) {
		fput(file);
		return fd;
	}
	fd_install(fd, file);
	/* A usermode helper starts with no fd open: 0, 1, 2 in turn. */
	return fd == want ? 0 : -EBADF;
}

/* Runs in the new process, before the exec, with the kernel's cred. */
static int gpuprof_helper_init(struct subprocess_info *info, struct cred *new)
{
	struct pid **pid = info->data;
	kernel_cap_t keep = CAP_EMPTY_SET;
	int err;

	/* What fails here fails the exec; the fds go with the process. */
	err = gpuprof_helper_fd("/dev/null", O_RDONLY, 0);
	if (!err)
		err = gpuprof_helper_fd("/dev/" GPUPROF_DEV_DIR "/oa", O_WRONLY, 1);
	if (!err)
		err = gpuprof_helper_fd("/dev/null", O_WRONLY, 2);
	if (err)
		return err;

	/* What setpriv needs to leave only CAP_PERFMON, as another uid. */
	cap_raise(keep, CAP_SETUID);
	cap_raise(keep, CAP_SETGID);
	cap_raise(keep, CAP_SETPCAP);
	cap_raise(keep, CAP_PERFMON);
	new->cap_inheritable = cap_intersect(new->cap_inheritable, keep);
	new->cap_permitted = cap_intersect(new->cap_permitted, keep);
	new->cap_effective = cap_intersect(new->cap_effective, keep);
	new->cap_bset = cap_intersect(new->cap_bset, keep);
	new->cap_ambient = CAP_EMPTY_SET;
	task_set_no_new_privs(current);

	*pid = get_pid(task_pid(current));
	return 0;
}

/* Called under gpuprof_lock when profiling starts. */
void gpuprof_oa_helper_start(void)
{
	/* 17 arguments at most, with a metric set, and the NULL. */
	char reuid[24], regid[24], *argv[18], *envp[3];
	struct subprocess_info *info;
	struct pid *pid = NULL;
	struct path path;
	int n = 0;

	lockdep_assert_held(&gpuprof_lock);
	/* One that would not die last time is still ours to stop. */
	if (!oa_helper || !*oa_helper || gpuprof_helper)
		return;
	/* setpriv would find no pump only once it runs: say so now. */
	gpuprof_helper_err = kern_path(oa_helper, LOOKUP_FOLLOW, &path);
	if (gpuprof_helper_err) {
		pr_warn_ratelimited("gpuprof: no oa_helper %s: %d\n",
				    oa_helper, gpuprof_helper_err);
		return;
	}
	path_put(&path);
	snprintf(reuid, sizeof(reuid), "--reuid=%u", oa_helper_uid);
	snprintf(regid, sizeof(regid), "--regid=%u", oa_helper_gid);
	/* The helper's exec copies these; they need not outlive the call. */
	argv[n++] = oa_helper_setpriv;
	argv[n++] = reuid;
	argv[n++] = regid;
	argv[n++] = "--clear-groups";
	argv[n++] = "--inh-caps=-all,+perfmon";
	argv[n++] = "--ambient-caps=+perfmon";
	argv[n++] = "--bounding-set=-all,+perfmon";
	argv[n++] = "--no-new-privs";
	argv[n++] = "--";
	/* Its own process group, so that stop reaches its children too. */
	argv[n++] = "setsid";
	argv[n++] = "--";
	argv[n++] = oa_helper;
	argv[n++] = "--device";
	if (oa_metric_set && *oa_metric_set) {
		argv[n++] = "--metric-set";
		argv[n++] = oa_metric_set;
	}
	argv[n++] = "-o";
	argv[n++] = "-";
	argv[n] = NULL;
	envp[0] = "HOME=/";
	envp[1] = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
	envp[2] = NULL;
	info = call_usermodehelper_setup(oa_helper_setpriv, argv, envp,
					 GFP_KERNEL, gpuprof_helper_init, NULL,
					 &pid);
	if (!info) {
		gpuprof_helper_err = -ENOMEM;
		return;
	}
	gpuprof_helper_err = call_usermodehelper_exec(info, UMH_WAIT_EXEC);
	if (gpuprof_helper_err) {
		put_pid(pid);
		pr_warn_ratelimited("gpuprof: cannot start oa_helper %s with %s: %d\n",
				    oa_helper, oa_helper_setpriv,
				    gpuprof_helper_err);
		return;
	}
	gpuprof_helper = pid;
}

/* The helper's own process, whatever its children do. */
static bool gpuprof_helper_running(struct pid *pid)
{
	bool running;

	rcu_read_lock();
	running = pid_task(pid, PIDTYPE_PID);
	rcu_read_unlock();
	return running;
}

/*
 * The helper is gone when its own task is, and every process of its group
 * has exited (a child that setsid left behind may wait for init to reap
 * it, but its files, the oa node among them, are closed by then).  A
 * leader that exited before its other threads has not: they share its
 * files.
 */
static bool gpuprof_helper_alive(struct pid *pid)
{
	struct task_struct *p;
	bool alive;

	alive = gpuprof_helper_running(pid);
	rcu_read_lock();
	do_each_pid_task(pid, PIDTYPE_PGID, p) {
		if (!p->exit_state || delay_group_leader(p))
			alive = true;
	} while_each_pid_task(pid, PIDTYPE_PGID, p);
	rcu_read_unlock();
	return alive;
}

static bool gpuprof_helper_gone(struct pid *pid, unsigned int ms)
{
	for (;;) {
		if (!gpuprof_helper_alive(pid))
			return true;
		if (!ms)
			return false;
		msleep(20);
		ms = ms > 20 ? ms - 20 : 0;
	}
}

/* The helper and its group: before setsid has run, the group is empty. */
static void gpuprof_helper_kill(struct pid *pid, int sig)
{
	kill_pid(pid, sig, 1);
	kill_pgrp(pid, sig, 1);
}

/* Called under gpuprof_lock when profiling stops: no orphan is left. */
void gpuprof_oa_helper_stop(void)
{
	struct pid *pid = gpuprof_helper;

	lockdep_assert_held(&gpuprof_lock);
	gpuprof_helper_err = 0;
	if (!pid)
		return;
	gpuprof_helper_kill(pid, SIGTERM);
	if (!gpuprof_helper_gone(pid, 3000)) {
		gpuprof_helper_kill(pid, SIGKILL);
		if (!gpuprof_helper_gone(pid, 3000)) {
			/* Stuck in the kernel: kept, killed again next time. */
			pr_warn_ratelimited("gpuprof: oa_helper %d does not exit\n",
					    pid_nr(pid));
			return;
		}
	}
	gpuprof_helper = NULL;
	put_pid(pid);
}

/* The "oa_helper:" line of status; gpuprof_lock held. */
void gpuprof_oa_helper_show(struct seq_file *m)
{
	lockdep_assert_held(&gpuprof_lock);
	if (!oa_helper || !*oa_helper)
		seq_puts(m, "oa_helper: none\n");
	else if (gpuprof_helper && gpuprof_helper_running(gpuprof_helper))
		seq_printf(m, "oa_helper: running %d\n", pid_nr(gpuprof_helper));
	else if (gpuprof_helper_err)
		seq_printf(m, "oa_helper: failed %d\n", gpuprof_helper_err);
	else if (gpuprof_helper)
		seq_puts(m, "oa_helper: exited\n");
	else
		seq_puts(m, "oa_helper: stopped\n");
}
