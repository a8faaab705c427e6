/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gpuprof: the grammar of ctl and pctl commands (design.rst 3.2 and 3.5).
 * Plain C, compiled into the module and, unchanged, into the tests and
 * the fuzz target of selftests/: whatever the parser accepts there is
 * what the module accepts.  What a command does is in ctl.c and
 * target_files.c; nothing here looks at the module's state.
 */
#ifndef _GPUPROF_CTL_PARSE_H
#define _GPUPROF_CTL_PARSE_H

#ifdef __KERNEL__
#include <linux/string.h>
#include <linux/types.h>
#else
#include <stddef.h>
#include <string.h>
#include <linux/types.h>
#endif

#include "../uapi/gpuprof.h"

/* Fields are separated by at least one blank, so at most this many. */
#define GPUPROF_CTL_MAX_FIELDS	(GPUPROF_CTL_MAX / 2)

/* Which file a command was written to: each has its own verbs. */
enum gpuprof_cmd_file {
	GPUPROF_CMD_CTL,
	GPUPROF_CMD_PCTL,
};

enum gpuprof_verb {
	/* ctl */
	GPUPROF_VERB_MODULE,	/* names in field[1..nfields-1], may be none */
	GPUPROF_VERB_START,
	GPUPROF_VERB_STARTCP,
	GPUPROF_VERB_STARTMP,
	GPUPROF_VERB_STOP,
	GPUPROF_VERB_END,
	GPUPROF_VERB_INTERVAL,	/* @interval_ms */
	GPUPROF_VERB_RESET,	/* ctl: all targets; pctl: this one */
	/* pctl */
	GPUPROF_VERB_CTXID,	/* @ctxid */
	GPUPROF_VERB_UNBIND,
};

/**
 * struct gpuprof_cmd - one command, split and checked
 * @verb: what to do
 * @nfields: fields, the verb included
 * @field: the fields, NUL-terminated in the caller's buffer
 * @interval_ms: for "interval", in [GPUPROF_INTERVAL_MIN_MS, _MAX_MS]
 * @ctxid: for "ctxid", below GPUPROF_OA_NO_CONTEXT
 */
struct gpuprof_cmd {
	enum gpuprof_verb verb;
	int nfields;
	char *field[GPUPROF_CTL_MAX_FIELDS];
	unsigned int interval_ms;
	__u64 ctxid;
};

/*
 * A NAME of "module" naming a cgroup v2 directory: "cgroup:" and an
 * absolute path (design.rst 3.2).
 */
#define GPUPROF_CGROUP_PREFIX	"cgroup:"
#define GPUPROF_CGROUP_PREFIX_LEN	(sizeof(GPUPROF_CGROUP_PREFIX) - 1)

static inline const char *gpuprof_name_cgroup(const char *name)
{
	if (strncmp(name, GPUPROF_CGROUP_PREFIX, GPUPROF_CGROUP_PREFIX_LEN))
		return NULL;
	return name + GPUPROF_CGROUP_PREFIX_LEN;
}

int gpuprof_cmd_parse(char *buf, size_t len, enum gpuprof_cmd_file file,
		      struct gpuprof_cmd *cmd);

#endif /* _GPUPROF_CTL_PARSE_H */
