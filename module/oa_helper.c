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
 * oa_helper=PATH the module starts "PATH --device -o /dev/gpuprof/oa"
 * when profiling starts and stops it, with SIGTERM and then SIGKILL, when
 * profiling stops.  With oa_metric_set=NAME as well, the helper is
 * started as "PATH --device --metric-set NAME -o /dev/gpuprof/oa"; NAME,
 * a set's name or uuid, is checked at load (letters, digits, '_' and
 * '-', a letter or digit first, at most 64), since it goes into the
 * helper's argv.  A helper that cannot be started does not stop
 * profiling: status says why.
 */
#include <linux/ctype.h>
#include <linux/delay.h>
#include <linux/moduleparam.h>
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

/* The running helper, and how the last start went; gpuprof_lock. */
static struct pid *gpuprof_helper;
static int gpuprof_helper_err;

static int gpuprof_helper_init(struct subprocess_info *info, struct cred *new)
{
	struct pid **pid = info->data;

	/* Runs in the new process, before the exec. */
	*pid = get_pid(task_pid(current));
	return 0;
}

/* Called under gpuprof_lock when profiling starts. */
void gpuprof_oa_helper_start(void)
{
	struct subprocess_info *info;
	struct pid *pid = NULL;
	char *argv[7], *envp[3];
	int n = 0;

	lockdep_assert_held(&gpuprof_lock);
	/* One that would not die last time is still ours to stop. */
	if (!oa_helper || !*oa_helper || gpuprof_helper)
		return;
	/* The helper's exec copies these; they need not outlive the call. */
	argv[n++] = oa_helper;
	argv[n++] = "--device";
	if (oa_metric_set && *oa_metric_set) {
		argv[n++] = "--metric-set";
		argv[n++] = oa_metric_set;
	}
	argv[n++] = "-o";
	argv[n++] = "/dev/" GPUPROF_DEV_DIR "/oa";
	argv[n] = NULL;
	envp[0] = "HOME=/";
	envp[1] = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
	envp[2] = NULL;
	info = call_usermodehelper_setup(oa_helper, argv, envp, GFP_KERNEL,
					 gpuprof_helper_init, NULL, &pid);
	if (!info) {
		gpuprof_helper_err = -ENOMEM;
		return;
	}
	gpuprof_helper_err = call_usermodehelper_exec(info, UMH_WAIT_EXEC);
	if (gpuprof_helper_err) {
		put_pid(pid);
		pr_warn_ratelimited("gpuprof: cannot start oa_helper %s: %d\n",
				    oa_helper, gpuprof_helper_err);
		return;
	}
	gpuprof_helper = pid;
}

static bool gpuprof_helper_gone(struct pid *pid, unsigned int ms)
{
	bool gone;

	for (;;) {
		rcu_read_lock();
		gone = !pid_task(pid, PIDTYPE_PID);
		rcu_read_unlock();
		if (gone || !ms)
			return gone;
		msleep(20);
		ms = ms > 20 ? ms - 20 : 0;
	}
}

/* Called under gpuprof_lock when profiling stops: no orphan is left. */
void gpuprof_oa_helper_stop(void)
{
	struct pid *pid = gpuprof_helper;

	lockdep_assert_held(&gpuprof_lock);
	gpuprof_helper_err = 0;
	if (!pid)
		return;
	kill_pid(pid, SIGTERM, 1);
	if (!gpuprof_helper_gone(pid, 3000)) {
		kill_pid(pid, SIGKILL, 1);
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
	else if (gpuprof_helper && !gpuprof_helper_gone(gpuprof_helper, 0))
		seq_printf(m, "oa_helper: running %d\n", pid_nr(gpuprof_helper));
	else if (gpuprof_helper_err)
		seq_printf(m, "oa_helper: failed %d\n", gpuprof_helper_err);
	else if (gpuprof_helper)
		seq_puts(m, "oa_helper: exited\n");
	else
		seq_puts(m, "oa_helper: stopped\n");
}
