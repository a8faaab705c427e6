// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: the grammar of ctl and pctl, shared by the module and the
 * tests (ctl_parse.h).
 */

/**
 * DOC: The ctl grammar
 *
 * A command is one write of at most GPUPROF_CTL_MAX bytes: fields of
 * printable ASCII separated by spaces or tabs, the first the verb, and
 * one trailing newline allowed.  Each verb belongs to one file, ctl or
 * pctl ("reset" to both), and takes a fixed range of fields
 * (gpuprof_verbs[]).  Numbers are digits only, without sign or blank:
 * decimal for "interval", hex for "ctxid" (a "0x" before it allowed).
 * See design.rst 3.2 and 3.5.
 *
 * A command is split and every field checked here, before the module
 * takes any lock or changes anything: what is left to ctl.c is what
 * depends on the state (a path that must exist, a name already given, a
 * mode already running).  Numbers are parsed by hand rather than with
 * kstrto*(), so that the userspace build is the same code, not an
 * imitation of it.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#else
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#endif

#include "../uapi/gpuprof_oa.h"
#include "ctl_parse.h"

struct gpuprof_verb_desc {
	const char *name;
	enum gpuprof_cmd_file file;
	enum gpuprof_verb verb;
	int min_fields;		/* the verb included */
	int max_fields;
};

static const struct gpuprof_verb_desc gpuprof_verbs[] = {
	{ "module", GPUPROF_CMD_CTL, GPUPROF_VERB_MODULE,
	  1, 1 + GPUPROF_MODULE_MAX_NAMES },
	{ "start", GPUPROF_CMD_CTL, GPUPROF_VERB_START, 1, 1 },
	{ "startcp", GPUPROF_CMD_CTL, GPUPROF_VERB_STARTCP, 1, 1 },
	{ "startmp", GPUPROF_CMD_CTL, GPUPROF_VERB_STARTMP, 1, 1 },
	{ "stop", GPUPROF_CMD_CTL, GPUPROF_VERB_STOP, 1, 1 },
	{ "end", GPUPROF_CMD_CTL, GPUPROF_VERB_END, 1, 1 },
	{ "interval", GPUPROF_CMD_CTL, GPUPROF_VERB_INTERVAL, 2, 2 },
	{ "reset", GPUPROF_CMD_CTL, GPUPROF_VERB_RESET, 1, 1 },
	{ "reset", GPUPROF_CMD_PCTL, GPUPROF_VERB_RESET, 1, 1 },
	{ "ctxid", GPUPROF_CMD_PCTL, GPUPROF_VERB_CTXID, 2, 2 },
	{ "unbind", GPUPROF_CMD_PCTL, GPUPROF_VERB_UNBIND, 1, 1 },
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

static int gpuprof_digit(char c, unsigned int base)
{
	int d;

	if (c >= '0' && c <= '9')
		d = c - '0';
	else if (c >= 'a' && c <= 'f')
		d = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		d = c - 'A' + 10;
	else
		return -1;
	return d < (int)base ? d : -1;
}

/*
 * A number of digits in @base only: no sign, no blank, not empty, and
 * not above @max (which also rules out overflow).
 */
static int gpuprof_parse_number(const char *s, unsigned int base, __u64 max,
				__u64 *val)
{
	__u64 v = 0;
	int d;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		d = gpuprof_digit(*s, base);
		if (d < 0 || v > (max - d) / base)
			return -EINVAL;
		v = v * base + d;
	}
	*val = v;
	return 0;
}

/*
 * Is @name one a target can match: a cgroup ("cgroup:" and an absolute
 * path), a comm, or a path?
 */
static bool gpuprof_name_ok(const char *name)
{
	const char *cgroup = gpuprof_name_cgroup(name);
	size_t len = strlen(name);

	if (cgroup)
		return cgroup[0] == '/' && len <= GPUPROF_PATH_MAX;
	if (strchr(name, '/'))
		return len <= GPUPROF_PATH_MAX;
	return len <= GPUPROF_COMM_MAX;
}

/* The arguments of a verb whose field count is already right. */
static int gpuprof_cmd_args(struct gpuprof_cmd *cmd)
{
	const char *arg = cmd->field[1];
	__u64 v;
	int i;

	switch (cmd->verb) {
	case GPUPROF_VERB_MODULE:
		for (i = 1; i < cmd->nfields; i++)
			if (!gpuprof_name_ok(cmd->field[i]))
				return -EINVAL;
		return 0;
	case GPUPROF_VERB_INTERVAL:
		if (gpuprof_parse_number(arg, 10, GPUPROF_INTERVAL_MAX_MS, &v) ||
		    v < GPUPROF_INTERVAL_MIN_MS)
			return -EINVAL;
		cmd->interval_ms = v;
		return 0;
	case GPUPROF_VERB_CTXID:
		/* Report context ids are 32 bits; all ones means "none". */
		if (arg[0] == '0' && (arg[1] == 'x' || arg[1] == 'X'))
			arg += 2;
		if (gpuprof_parse_number(arg, 16, GPUPROF_OA_NO_CONTEXT - 1,
					 &v))
			return -EINVAL;
		cmd->ctxid = v;
		return 0;
	default:
		return 0;
	}
}

/**
 * gpuprof_cmd_parse - split and check one command written to ctl or pctl
 * @buf: the bytes written, NUL-terminated at @len; split in place
 * @len: their number; 0 or more than GPUPROF_CTL_MAX is an error, the
 *	command is never cut
 * @file: the file written to, which decides the verbs allowed
 * @cmd: filled in on success; its fields point into @buf
 *
 * Return: 0, or -EINVAL when the command is not in the grammar.
 */
int gpuprof_cmd_parse(char *buf, size_t len, enum gpuprof_cmd_file file,
		      struct gpuprof_cmd *cmd)
{
	const struct gpuprof_verb_desc *d;
	size_t i;
	int err;

	if (len == 0 || len > GPUPROF_CTL_MAX)
		return -EINVAL;
	memset(cmd, 0, sizeof(*cmd));
	err = gpuprof_cmd_split(buf, len, cmd);
	if (err)
		return err;
	for (i = 0; i < ARRAY_SIZE(gpuprof_verbs); i++) {
		d = &gpuprof_verbs[i];
		if (d->file != file || strcmp(d->name, cmd->field[0]))
			continue;
		if (cmd->nfields < d->min_fields ||
		    cmd->nfields > d->max_fields)
			return -EINVAL;
		cmd->verb = d->verb;
		return gpuprof_cmd_args(cmd);
	}
	return -EINVAL;
}
