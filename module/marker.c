// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: /dev/gpuprof/marker, and the module's own tracepoint
 * (trace.h).
 */

/**
 * DOC: Markers
 *
 * An application writes "begin NAME" or "end NAME" to /dev/gpuprof/marker
 * (one per write, at most GPUPROF_MARKER_MAX bytes, a trailing newline
 * allowed); each fires the gpuprof:gpuprof_mark tracepoint with the
 * writer's pid, so markers land in a perf recording beside the GPU events,
 * where perf gpu shows them.  Writes to ftrace's trace_marker do not reach
 * perf, hence a tracepoint of our own.  A marker touches no profiler
 * state: it takes no lock and calls nothing else of the module.
 */
#include <linux/fs.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "gpuprof.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

/* "begin NAME" or "end NAME": NAME printable ASCII, spaces allowed. */
static bool gpuprof_marker_ok(const char *s)
{
	const char *name;

	if (!strncmp(s, "begin ", 6))
		name = s + 6;
	else if (!strncmp(s, "end ", 4))
		name = s + 4;
	else
		return false;
	if (!*name || *name == ' ')
		return false;
	for (; *name; name++)
		if (*name < 0x20 || *name > 0x7e)
			return false;
	return true;
}

static ssize_t gpuprof_marker_write(struct file *filp, const char __user *ubuf,
				    size_t len, loff_t *ppos)
{
	size_t n = len;
	char *buf;
	ssize_t ret = len;

	if (len == 0 || len > GPUPROF_MARKER_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (buf[n - 1] == '\n')
		buf[--n] = '\0';
	/* An embedded NUL would hide the rest: refuse it. */
	if (strlen(buf) != n || !gpuprof_marker_ok(buf))
		ret = -EINVAL;
	else
		trace_gpuprof_mark(task_tgid_nr(current), buf);
	kfree(buf);
	return ret;
}

static const struct file_operations gpuprof_marker_fops = {
	.owner = THIS_MODULE,
	.write = gpuprof_marker_write,
	.llseek = noop_llseek,
};

const struct gpuprof_file gpuprof_marker_file = {
	.name = "marker",
	.mode = 0200,
	.fops = &gpuprof_marker_fops,
};
