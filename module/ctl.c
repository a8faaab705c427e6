// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: /dev/gpuprof/ctl, the plain-text command file, and the parser
 * it shares with each target's pctl.
 *
 * One command per write: fields separated by spaces or tabs, one trailing
 * newline allowed.  A write is parsed and checked whole before anything
 * changes, so a rejected command leaves the state as it was.
 */
#include <linux/capability.h>
#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "gpuprof.h"

/*
 * Split @buf in place.  Only printable ASCII is accepted: a NUL or other
 * control byte inside a command is an error, not a terminator.
 */
static int gpuprof_cmd_split(char *buf, size_t len, struct gpuprof_cmd *cmd)
{
	size_t i;

	if (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	cmd->nfields = 0;
	for (i = 0; i < len; i++) {
		char c = buf[i];

		if (c == ' ' || c == '\t') {
			buf[i] = '\0';
			continue;
		}
		if (c < 0x21 || c > 0x7e)
			return -EINVAL;
		if (i == 0 || buf[i - 1] == '\0') {
			if (cmd->nfields == GPUPROF_CTL_MAX_FIELDS)
				return -EINVAL;
			cmd->field[cmd->nfields++] = &buf[i];
		}
	}
	return cmd->nfields ? 0 : -EINVAL;
}

/**
 * gpuprof_cmd_write - take one command written to ctl or pctl
 * @ubuf: the bytes written
 * @len: their number; more than GPUPROF_CTL_MAX is an error, never cut
 * @run: runs the split command, under gpuprof_lock
 * @arg: passed to @run
 *
 * Return: @len, or a negative errno from the parser or from @run.
 */
ssize_t gpuprof_cmd_write(const char __user *ubuf, size_t len,
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
	err = gpuprof_cmd_split(buf, len, cmd);
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

/* A decimal number without sign, in [min, max]. */
static int gpuprof_parse_uint(const char *s, unsigned int min,
			      unsigned int max, unsigned int *val)
{
	if (!isdigit(*s))
		return -EINVAL;
	if (kstrtouint(s, 10, val) || *val < min || *val > max)
		return -EINVAL;
	return 0;
}

/* Is @name one a target can match: a comm, or an absolute-ish path? */
static bool gpuprof_name_ok(const char *name)
{
	size_t len = strlen(name);

	if (strchr(name, '/'))
		return len <= GPUPROF_PATH_MAX;
	return len <= GPUPROF_COMM_MAX;
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

/* "module NAME...": add targets; "module": remove the named ones. */
static int gpuprof_cmd_module(struct gpuprof_cmd *cmd)
{
	struct gpuprof_target *new[GPUPROF_MODULE_MAX_NAMES];
	int i, j, n = 0, err;

	if (cmd->nfields == 1) {
		gpuprof_targets_remove(true);
		return 0;
	}
	if (cmd->nfields - 1 > GPUPROF_MODULE_MAX_NAMES)
		return -EINVAL;
	for (i = 1; i < cmd->nfields; i++)
		if (!gpuprof_name_ok(cmd->field[i]))
			return -EINVAL;

	for (i = 1; i < cmd->nfields; i++) {
		const char *name = cmd->field[i];
		bool dup = gpuprof_have_name(name);

		for (j = 1; j < i && !dup; j++)
			dup = !strcmp(cmd->field[j], name);
		if (dup)
			continue;
		new[n] = gpuprof_target_new(name, GFP_KERNEL);
		if (!new[n]) {
			while (n--)
				gpuprof_target_put(new[n]);
			return -EINVAL;
		}
		new[n]->by_path = strchr(name, '/');
		if (new[n]->by_path) {
			err = gpuprof_resolve_exe(new[n], name);
			if (err) {
				gpuprof_target_put(new[n]);
				while (n--)
					gpuprof_target_put(new[n]);
				return err;
			}
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
	gpuprof.mode = mode;
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
	if (mode == GPUPROF_MEMORY)
		gpuprof_gem_stop();
	else
		gpuprof_fence_stop();
}

/* The commands that take no argument. */
static int gpuprof_cmd_simple(const char *verb)
{
	if (!strcmp(verb, "start"))
		return gpuprof_start(GPUPROF_TIME);
	if (!strcmp(verb, "startcp"))
		return gpuprof_start(GPUPROF_COVERAGE);
	if (!strcmp(verb, "startmp"))
		return gpuprof_start(GPUPROF_MEMORY);
	if (!strcmp(verb, "stop")) {
		gpuprof_stop();
		return 0;
	}
	if (!strcmp(verb, "end")) {
		gpuprof_stop();
		gpuprof_targets_remove(false);
		return 0;
	}
	if (!strcmp(verb, "reset")) {
		gpuprof_targets_reset();
		/* Buffers already counted must not be taken off again. */
		spin_lock_irq(&gpuprof_data_lock);
		gpuprof_gem_disown(NULL);
		gpuprof_oa_forget_learned();
		spin_unlock_irq(&gpuprof_data_lock);
		return 0;
	}
	return -EINVAL;
}

static int gpuprof_cmd_interval(struct gpuprof_cmd *cmd)
{
	unsigned int ms;
	int err;

	if (cmd->nfields != 2)
		return -EINVAL;
	err = gpuprof_parse_uint(cmd->field[1], GPUPROF_INTERVAL_MIN_MS,
				 GPUPROF_INTERVAL_MAX_MS, &ms);
	if (err)
		return err;
	gpuprof.interval_ms = ms;
	gpuprof_fence_set_interval(ms);
	return 0;
}

static int gpuprof_ctl_run(struct gpuprof_cmd *cmd, void *arg)
{
	const char *verb = cmd->field[0];

	if (!strcmp(verb, "module"))
		return gpuprof_cmd_module(cmd);
	if (!strcmp(verb, "interval"))
		return gpuprof_cmd_interval(cmd);
	if (cmd->nfields != 1)
		return -EINVAL;
	return gpuprof_cmd_simple(verb);
}

static ssize_t gpuprof_ctl_write(struct file *filp, const char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	return gpuprof_cmd_write(ubuf, len, gpuprof_ctl_run, NULL);
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
	gpuprof_targets_remove(false);
	mutex_unlock(&gpuprof_lock);
}
