// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: the files of a target directory /dev/gpuprof/N: name, path,
 * histogram, counters (read-only snapshots) and pctl (per-target
 * commands), and gpuprof_target_files[], the table target.c makes a
 * directory from.
 */

/**
 * DOC: Snapshot files
 *
 * A read-only file of a target is a text snapshot made when it is opened,
 * so every read of one open file description sees the same content,
 * whatever the buffer size or offsets used.  A read ends at the end of a
 * line whenever at least one whole line fits; only a buffer too small for
 * the line at the offset gets part of it (so byte-at-a-time readers such
 * as a shell's "read" still work).  Once the target is ended, reads
 * return -ENODEV (design.rst 3.1 and 3.4).
 */
#include <linux/build_bug.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "gpuprof.h"

struct gpuprof_snap {
	struct gpuprof_target *target;
	size_t len;
	char text[];
};

static struct gpuprof_snap *gpuprof_snap_alloc(size_t size)
{
	struct gpuprof_snap *snap;

	/* struct_size() only looks at the type; 6.1 has no struct_size_t(). */
	snap = kvmalloc(struct_size(snap, text, size), GFP_KERNEL);
	return snap;
}

static ssize_t gpuprof_snap_read(struct file *filp, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct gpuprof_snap *snap = filp->private_data;
	size_t pos, n;

	if (READ_ONCE(snap->target->ended))
		return -ENODEV;
	if (*ppos < 0)
		return -EINVAL;
	if (*ppos >= snap->len)
		return 0;
	pos = *ppos;
	n = min(count, snap->len - pos);
	if (pos + n < snap->len) {
		size_t whole = n;

		/* Back up to the end of the last line that fits. */
		while (whole && snap->text[pos + whole - 1] != '\n')
			whole--;
		if (whole)
			n = whole;
	}
	if (copy_to_user(ubuf, snap->text + pos, n))
		return -EFAULT;
	*ppos += n;
	return n;
}

static loff_t gpuprof_snap_llseek(struct file *filp, loff_t off, int whence)
{
	struct gpuprof_snap *snap = filp->private_data;

	return fixed_size_llseek(filp, off, whence, snap->len);
}

static int gpuprof_snap_release(struct inode *inode, struct file *filp)
{
	struct gpuprof_snap *snap = filp->private_data;

	gpuprof_target_put(snap->target);
	kvfree(snap);
	return 0;
}

/* Open a file whose content is one line of text, @s and a newline. */
static int gpuprof_snap_open_line(struct file *filp, const char *s)
{
	struct gpuprof_target *t = filp->private_data;
	struct gpuprof_snap *snap;
	size_t len = strlen(s);

	snap = gpuprof_snap_alloc(len + 1);
	if (!snap)
		return -ENOMEM;
	memcpy(snap->text, s, len);
	snap->text[len] = '\n';
	snap->len = len + 1;
	snap->target = t;
	filp->private_data = snap;
	return 0;
}

static int gpuprof_name_open(struct inode *inode, struct file *filp)
{
	struct gpuprof_target *t = filp->private_data;

	/* The name never changes once the target is made. */
	return gpuprof_snap_open_line(filp, t->name);
}

/*
 * A text a target learns after it is made (@known says when it is
 * final, both under the data lock): one line, or, while unknown, an
 * empty file rather than an empty line.
 */
static int gpuprof_snap_open_learned(struct file *filp, const bool *known,
				     const char *text)
{
	char copy[GPUPROF_PATH_MAX + 1] = "";
	int err;

	spin_lock_irq(&gpuprof_data_lock);
	if (*known)
		strscpy(copy, text, sizeof(copy));
	spin_unlock_irq(&gpuprof_data_lock);
	err = gpuprof_snap_open_line(filp, copy);
	if (!err && !copy[0])
		((struct gpuprof_snap *)filp->private_data)->len = 0;
	return err;
}

/* A comm target learns its path from the first process matched. */
static int gpuprof_path_open(struct inode *inode, struct file *filp)
{
	struct gpuprof_target *t = filp->private_data;

	return gpuprof_snap_open_learned(filp, &t->path_known, t->path);
}

/*
 * The cgroup of a cgroup target, or of the first process a target took;
 * empty until known.
 */
static int gpuprof_cgroup_open(struct inode *inode, struct file *filp)
{
	struct gpuprof_target *t = filp->private_data;

	return gpuprof_snap_open_learned(filp, &t->cgroup_known, t->cgroup);
}

/*
 * @v in decimal at @s, without a NUL; returns the length.  Histograms of
 * thousands of keys are printed at every open: vsnprintf() would cost
 * several times more.
 */
static size_t gpuprof_put_u64(char *s, u64 v)
{
	char tmp[20];
	size_t n = 0, i;

	do {
		tmp[n++] = '0' + do_div(v, 10);
	} while (v);
	for (i = 0; i < n; i++)
		s[i] = tmp[n - 1 - i];
	return n;
}

static size_t gpuprof_u64_len(u64 v)
{
	size_t n = 1;

	while (v >= 10) {
		v = div_u64(v, 10);
		n++;
	}
	return n;
}

static int gpuprof_histogram_open(struct inode *inode, struct file *filp)
{
	struct gpuprof_target *t = filp->private_data;
	struct gpuprof_pair *pairs;
	struct gpuprof_snap *snap;
	size_t len = 0;
	u64 max_value = 0;
	u32 i, n;

	/*
	 * In key order already.  The text is sized from the widest key (the
	 * last) and the largest value, not line by line: a bound a few bytes
	 * a line over, for one pass over the pairs less.
	 */
	pairs = gpuprof_target_hist_snapshot(t, &n);
	if (!pairs)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		max_value = max(max_value, pairs[i].value);
	if (n)
		len = (size_t)n * (gpuprof_u64_len(pairs[n - 1].key) +
				   gpuprof_u64_len(max_value) + 2);
	snap = gpuprof_snap_alloc(len);
	if (!snap) {
		kvfree(pairs);
		return -ENOMEM;
	}
	len = 0;
	for (i = 0; i < n; i++) {
		len += gpuprof_put_u64(snap->text + len, pairs[i].key);
		snap->text[len++] = ' ';
		len += gpuprof_put_u64(snap->text + len, pairs[i].value);
		snap->text[len++] = '\n';
	}
	kvfree(pairs);
	snap->len = len;
	snap->target = t;
	filp->private_data = snap;
	return 0;
}

/* "name value" lines of the OA counters (design.rst 5.4). */
static int gpuprof_counters_open(struct inode *inode, struct file *filp)
{
	struct gpuprof_target *t = filp->private_data;
	struct gpuprof_oa_deltas *oa;
	struct gpuprof_snap *snap;
	unsigned int i, n_a;
	u64 reports, mhz;
	size_t len = 0, size = 4096;

	oa = kmalloc(sizeof(*oa), GFP_KERNEL);
	snap = gpuprof_snap_alloc(size);
	if (!oa || !snap) {
		kfree(oa);
		kvfree(snap);
		return -ENOMEM;
	}
	spin_lock_irq(&gpuprof_data_lock);
	*oa = t->oa;
	reports = t->oa_reports;
	/*
	 * Haswell's A45 format has A counters past A35, Xe2's PEC formats
	 * 64 (its A0..A63 are PEC0..PEC63).
	 */
	if (t->oa_gen == GPUPROF_OA_GEN_HSW)
		n_a = 45;
	else if (t->oa_gen >= 20)
		n_a = GPUPROF_OA_A_COUNTERS;
	else
		n_a = 36;
	spin_unlock_irq(&gpuprof_data_lock);

	/* oa->timestamp holds ns here (see gpuprof_oa_add()). */
	mhz = oa->timestamp ? div64_u64(oa->gpu_ticks * 1000, oa->timestamp) : 0;
	len += scnprintf(snap->text + len, size - len,
			 "gpu_time_ns %llu\ngpu_clock_ticks %llu\n"
			 "avg_gpu_freq_mhz %llu\nreports %llu\n",
			 oa->timestamp, oa->gpu_ticks, mhz, reports);
	for (i = 0; i < n_a; i++)
		len += scnprintf(snap->text + len, size - len, "a%u %llu\n",
				 i, oa->a[i]);
	for (i = 0; i < GPUPROF_OA_B_COUNTERS; i++)
		len += scnprintf(snap->text + len, size - len, "b%u %llu\n",
				 i, oa->b[i]);
	for (i = 0; i < GPUPROF_OA_C_COUNTERS; i++)
		len += scnprintf(snap->text + len, size - len, "c%u %llu\n",
				 i, oa->c[i]);
	kfree(oa);
	snap->len = len;
	snap->target = t;
	filp->private_data = snap;
	return 0;
}

#define GPUPROF_SNAP_FOPS(open_fn) {		\
	.owner = THIS_MODULE,			\
	.open = open_fn,			\
	.read = gpuprof_snap_read,		\
	.llseek = gpuprof_snap_llseek,		\
	.release = gpuprof_snap_release,	\
}

static const struct file_operations gpuprof_name_fops =
	GPUPROF_SNAP_FOPS(gpuprof_name_open);
static const struct file_operations gpuprof_path_fops =
	GPUPROF_SNAP_FOPS(gpuprof_path_open);
static const struct file_operations gpuprof_histogram_fops =
	GPUPROF_SNAP_FOPS(gpuprof_histogram_open);
static const struct file_operations gpuprof_counters_fops =
	GPUPROF_SNAP_FOPS(gpuprof_counters_open);
static const struct file_operations gpuprof_cgroup_fops =
	GPUPROF_SNAP_FOPS(gpuprof_cgroup_open);

/* pctl: "reset", "ctxid HEX", "unbind" (ctl_parse.c). */
static int gpuprof_pctl_run(struct gpuprof_cmd *cmd, void *arg)
{
	struct gpuprof_target *t = arg;
	bool bind = cmd->verb == GPUPROF_VERB_CTXID;

	if (READ_ONCE(t->ended))
		return -ENODEV;
	spin_lock_irq(&gpuprof_data_lock);
	if (cmd->verb == GPUPROF_VERB_RESET) {
		gpuprof_target_reset(t);
	} else {
		t->ctxid = bind ? cmd->ctxid : 0;
		t->ctxid_bound = bind;
		gpuprof_oa_bindings_changed();
	}
	spin_unlock_irq(&gpuprof_data_lock);
	return 0;
}

static ssize_t gpuprof_pctl_write(struct file *filp, const char __user *ubuf,
				  size_t len, loff_t *ppos)
{
	struct gpuprof_target *t = filp->private_data;

	/* A target that has ended takes no command, good or bad. */
	if (READ_ONCE(t->ended))
		return -ENODEV;
	return gpuprof_cmd_write(ubuf, len, GPUPROF_CMD_PCTL, gpuprof_pctl_run,
				 t);
}

static int gpuprof_pctl_release(struct inode *inode, struct file *filp)
{
	gpuprof_target_put(filp->private_data);
	return 0;
}

static const struct file_operations gpuprof_pctl_fops = {
	.owner = THIS_MODULE,
	.write = gpuprof_pctl_write,
	.release = gpuprof_pctl_release,
	.llseek = noop_llseek,
};

/**
 * DOC: Who may open a target's files
 *
 * What a target's files show, the executable, the cgroup and the GPU work
 * of a process, is what /proc shows of a process only to those who may
 * ptrace-read it (its DRM fdinfo, its exe link), and what perf shows of
 * other users' processes only with CAP_PERFMON.  So the nodes stay 0444
 * and the open asks: CAP_PERFMON (or CAP_SYS_ADMIN) in the initial user
 * namespace reads every target, and the owner of the one process an
 * automatic target stands for (its euid when the target was made, taken
 * against the reader's fsuid, as /proc does) reads that target's files.
 * A named target gathers any user's processes: CAP_PERFMON only.  pctl
 * changes what a target counts, as ctl's start does: CAP_PERFMON.  The
 * model, row by row, is in Documentation/security.rst.
 */
static int gpuprof_target_may_read(const void *owner)
{
	const struct gpuprof_target *t = owner;

	if (perfmon_capable())
		return 0;
	if (uid_valid(t->uid) && uid_eq(current_fsuid(), t->uid))
		return 0;
	return -EACCES;
}

static int gpuprof_target_may_control(const void *owner)
{
	return perfmon_capable() ? 0 : -EACCES;
}

/*
 * The files of a target directory, in the order they are made: all that
 * target.c knows of them.  Each open gets a reference to the target in
 * ->private_data, which the kind's release drops.
 */
const struct gpuprof_file gpuprof_target_files[] = {
	{ .name = "name", .mode = 0444, .fops = &gpuprof_name_fops,
	  .may_open = gpuprof_target_may_read },
	{ .name = "path", .mode = 0444, .fops = &gpuprof_path_fops,
	  .may_open = gpuprof_target_may_read },
	{ .name = "histogram", .mode = 0444, .fops = &gpuprof_histogram_fops,
	  .may_open = gpuprof_target_may_read },
	{ .name = "pctl", .mode = 0200, .fops = &gpuprof_pctl_fops,
	  .may_open = gpuprof_target_may_control },
	{ .name = "counters", .mode = 0444, .fops = &gpuprof_counters_fops,
	  .may_open = gpuprof_target_may_read },
	{ .name = "cgroup", .mode = 0444, .fops = &gpuprof_cgroup_fops,
	  .may_open = gpuprof_target_may_read },
};

/* struct gpuprof_target has room for this many nodes. */
static_assert(ARRAY_SIZE(gpuprof_target_files) == GPUPROF_TARGET_NR_FILES);
