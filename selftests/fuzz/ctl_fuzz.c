// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the ctl and pctl grammar (design.rst 3.2, 3.5), the
 * module's own parser module/ctl_parse.c compiled unchanged.
 *
 * An input is one write().  It is parsed as the module parses it: copied
 * into a buffer of its own size plus the NUL that memdup_user_nul() adds
 * (ASan catches a read past that), once as written to ctl and once as
 * written to pctl.  What the parser accepts must be in the grammar:
 * fields of printable ASCII without blanks, inside the buffer, a verb of
 * that file with its field count, numbers in range, module names that
 * fit a comm or a path.  And the parser must agree with itself: the
 * fields joined by single spaces parse to the same command.
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"
#include "../../module/ctl_parse.h"
#include "../../uapi/gpuprof_oa.h"

static const char *const verb_names[] = {
	[GPUPROF_VERB_MODULE] = "module",
	[GPUPROF_VERB_START] = "start",
	[GPUPROF_VERB_STARTCP] = "startcp",
	[GPUPROF_VERB_STARTMP] = "startmp",
	[GPUPROF_VERB_STOP] = "stop",
	[GPUPROF_VERB_END] = "end",
	[GPUPROF_VERB_INTERVAL] = "interval",
	[GPUPROF_VERB_RESET] = "reset",
	[GPUPROF_VERB_CTXID] = "ctxid",
	[GPUPROF_VERB_UNBIND] = "unbind",
};

static void check_field(const char *f, const char *buf, size_t size)
{
	size_t len = strlen(f), i;

	FUZZ_CHECK(f >= buf && f + len <= buf + size);
	FUZZ_CHECK(len > 0);
	for (i = 0; i < len; i++)
		FUZZ_CHECK(f[i] > 0x20 && f[i] < 0x7f);
}

/* The verb's own rules, with the file it belongs to. */
static void check_verb(const struct gpuprof_cmd *cmd,
		       enum gpuprof_cmd_file file)
{
	int i;

	switch (cmd->verb) {
	case GPUPROF_VERB_MODULE:
		FUZZ_CHECK(file == GPUPROF_CMD_CTL);
		FUZZ_CHECK(cmd->nfields <= 1 + GPUPROF_MODULE_MAX_NAMES);
		for (i = 1; i < cmd->nfields; i++)
			FUZZ_CHECK(strchr(cmd->field[i], '/') ?
				   strlen(cmd->field[i]) <= GPUPROF_PATH_MAX :
				   strlen(cmd->field[i]) <= GPUPROF_COMM_MAX);
		break;
	case GPUPROF_VERB_INTERVAL:
		FUZZ_CHECK(file == GPUPROF_CMD_CTL && cmd->nfields == 2);
		FUZZ_CHECK(cmd->interval_ms >= GPUPROF_INTERVAL_MIN_MS &&
			   cmd->interval_ms <= GPUPROF_INTERVAL_MAX_MS);
		break;
	case GPUPROF_VERB_CTXID:
		FUZZ_CHECK(file == GPUPROF_CMD_PCTL && cmd->nfields == 2);
		FUZZ_CHECK(cmd->ctxid < GPUPROF_OA_NO_CONTEXT);
		break;
	case GPUPROF_VERB_UNBIND:
		FUZZ_CHECK(file == GPUPROF_CMD_PCTL && cmd->nfields == 1);
		break;
	case GPUPROF_VERB_RESET:
		FUZZ_CHECK(cmd->nfields == 1);
		break;
	case GPUPROF_VERB_START:
	case GPUPROF_VERB_STARTCP:
	case GPUPROF_VERB_STARTMP:
	case GPUPROF_VERB_STOP:
	case GPUPROF_VERB_END:
		FUZZ_CHECK(file == GPUPROF_CMD_CTL && cmd->nfields == 1);
		break;
	default:
		FUZZ_CHECK(!"a verb outside the enum");
	}
	FUZZ_CHECK(!strcmp(cmd->field[0], verb_names[cmd->verb]));
}

/* Parse @size bytes as the module does: a copy, NUL after it. */
static int parse(const uint8_t *data, size_t size, enum gpuprof_cmd_file file,
		 char **buf, struct gpuprof_cmd *cmd)
{
	int err;

	*buf = malloc(size + 1);
	FUZZ_CHECK(*buf);
	memcpy(*buf, data, size);
	(*buf)[size] = '\0';
	/* Garbage in @cmd must not matter: the parser fills it. */
	memset(cmd, 0xa5, sizeof(*cmd));
	err = gpuprof_cmd_parse(*buf, size, file, cmd);
	FUZZ_CHECK(err == 0 || err == -EINVAL);
	return err;
}

/*
 * The fields joined by single spaces, no newline: never longer than what
 * was written, so the same command.
 */
static void check_canonical(const struct gpuprof_cmd *cmd,
			    enum gpuprof_cmd_file file, size_t size)
{
	char line[GPUPROF_CTL_MAX], *buf;
	struct gpuprof_cmd again;
	size_t len = 0, n;
	int i;

	for (i = 0; i < cmd->nfields; i++) {
		n = strlen(cmd->field[i]);
		FUZZ_CHECK(len + n + !!i <= size);
		if (i)
			line[len++] = ' ';
		memcpy(line + len, cmd->field[i], n);
		len += n;
	}
	FUZZ_CHECK(parse((const uint8_t *)line, len, file, &buf, &again) == 0);
	FUZZ_CHECK(again.verb == cmd->verb && again.nfields == cmd->nfields);
	for (i = 0; i < cmd->nfields; i++)
		FUZZ_CHECK(!strcmp(again.field[i], cmd->field[i]));
	if (cmd->verb == GPUPROF_VERB_INTERVAL)
		FUZZ_CHECK(again.interval_ms == cmd->interval_ms);
	if (cmd->verb == GPUPROF_VERB_CTXID)
		FUZZ_CHECK(again.ctxid == cmd->ctxid);
	free(buf);
}

static void one_file(const uint8_t *data, size_t size,
		     enum gpuprof_cmd_file file)
{
	struct gpuprof_cmd cmd;
	char *buf;
	int i;

	if (!parse(data, size, file, &buf, &cmd)) {
		/* Never cut: longer writes are refused whole. */
		FUZZ_CHECK(size > 0 && size <= GPUPROF_CTL_MAX);
		FUZZ_CHECK(cmd.nfields >= 1 &&
			   cmd.nfields <= GPUPROF_CTL_MAX_FIELDS);
		for (i = 0; i < cmd.nfields; i++)
			check_field(cmd.field[i], buf, size);
		check_verb(&cmd, file);
		check_canonical(&cmd, file, size);
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one_file(data, size, GPUPROF_CMD_CTL);
	one_file(data, size, GPUPROF_CMD_PCTL);
	return 0;
}
