// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: /dev/gpuprof/ctl, the plain-text command file.
 *
 * One command per write: fields separated by spaces or tabs, one trailing
 * newline allowed.  A write is parsed whole before anything changes, so a
 * rejected command leaves the state as it was.
 */
#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "gpuprof.h"

#define GPUPROF_CTL_MAX_FIELDS	(GPUPROF_CTL_MAX / 2)

struct gpuprof_cmd {
	int nfields;
	char *field[GPUPROF_CTL_MAX_FIELDS];
};

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
	return 0;
}

static const struct {
	const char *name;
	int (*run)(struct gpuprof_cmd *cmd);
} gpuprof_cmds[] = {
	{ "interval", gpuprof_cmd_interval },
};

static int gpuprof_cmd_run(struct gpuprof_cmd *cmd)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(gpuprof_cmds); i++)
		if (!strcmp(cmd->field[0], gpuprof_cmds[i].name))
			return gpuprof_cmds[i].run(cmd);
	return -EINVAL;
}

static ssize_t gpuprof_ctl_write(struct file *filp, const char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	struct gpuprof_cmd *cmd;
	char *buf;
	int err;

	/* Never cut a command: too long is an error. */
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
		err = gpuprof_cmd_run(cmd);
		mutex_unlock(&gpuprof_lock);
	}
	kfree(cmd);
out:
	kfree(buf);
	return err ? err : len;
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
