// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ctl and pctl grammar (module/ctl_parse.c, the module's own source
 * built here) on every rule of design.rst 3.2 and 3.5 and its edges.  The
 * device tests check the same commands through /dev/gpuprof; these run
 * in microseconds, so the edges can be many.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/harness.h"
#include "../../module/ctl_parse.h"
#include "../../uapi/gpuprof_oa.h"

/* Parse a copy of exactly strlen(text) bytes, as a write would give. */
static int parse(const char *text, enum gpuprof_cmd_file file,
		 struct gpuprof_cmd *cmd, char **bufp)
{
	size_t len = strlen(text);
	char *buf = malloc(len + 1);

	memcpy(buf, text, len + 1);
	*bufp = buf;
	return gpuprof_cmd_parse(buf, len, file, cmd);
}

static int verdict(const char *text, enum gpuprof_cmd_file file)
{
	struct gpuprof_cmd cmd;
	char *buf;
	int err = parse(text, file, &cmd, &buf);

	free(buf);
	return err;
}

#define CTL(text)	verdict(text, GPUPROF_CMD_CTL)
#define PCTL(text)	verdict(text, GPUPROF_CMD_PCTL)

static char *repeat(char c, size_t n)
{
	char *s = malloc(n + 1);

	memset(s, c, n);
	s[n] = '\0';
	return s;
}

TEST(verbs_of_ctl)
{
	static const struct { const char *text; enum gpuprof_verb verb; } ok[] = {
		{ "start", GPUPROF_VERB_START },
		{ "startcp\n", GPUPROF_VERB_STARTCP },
		{ "startmp", GPUPROF_VERB_STARTMP },
		{ "stop", GPUPROF_VERB_STOP },
		{ "end\n", GPUPROF_VERB_END },
		{ "reset", GPUPROF_VERB_RESET },
		{ "module", GPUPROF_VERB_MODULE },
		{ " \tstart \t\n", GPUPROF_VERB_START },
	};
	struct gpuprof_cmd cmd;
	unsigned int i;
	char *buf;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		EXPECT_EQ(0, parse(ok[i].text, GPUPROF_CMD_CTL, &cmd, &buf));
		EXPECT_EQ(ok[i].verb, cmd.verb);
		EXPECT_EQ(1, cmd.nfields);
		free(buf);
	}
}

TEST(bad_commands_of_ctl)
{
	static const char *const bad[] = {
		"", "\n", " ", "\n\n", "start\n\n", "Start", "starts",
		"start now", "stop 1", "end x", "reset 0", "ctxid 1",
		"unbind", "interval", "interval 1 2", "sta\0rt",
		"start\r\n", "st\x01rt", "start\x7f", "\xc3\xa9", "módulo",
		/* Names too are printable ASCII only. */
		"module a\x7f", "module \x01", "module caf\xc3\xa9",
		"module a\vb", "module a\rb",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_EQ(-EINVAL, CTL(bad[i])) TH_LOG("case %u", i);
}

/* A NUL inside a write is an error, not the end of the command. */
TEST(nul_inside)
{
	struct gpuprof_cmd cmd;
	char buf[] = "start\0junk";

	EXPECT_EQ(-EINVAL, gpuprof_cmd_parse(buf, sizeof(buf) - 1,
					     GPUPROF_CMD_CTL, &cmd));
}

TEST(length_limit)
{
	struct gpuprof_cmd cmd;
	char *pad = repeat(' ', GPUPROF_CTL_MAX);

	/* 256 bytes: "start" and blanks is fine; 257 is never cut. */
	memcpy(pad + GPUPROF_CTL_MAX - 5, "start", 5);
	EXPECT_EQ(0, gpuprof_cmd_parse(pad, GPUPROF_CTL_MAX,
				       GPUPROF_CMD_CTL, &cmd));
	free(pad);
	pad = repeat(' ', GPUPROF_CTL_MAX + 1);
	memcpy(pad + GPUPROF_CTL_MAX - 4, "start", 5);
	EXPECT_EQ(-EINVAL, gpuprof_cmd_parse(pad, GPUPROF_CTL_MAX + 1,
					     GPUPROF_CMD_CTL, &cmd));
	free(pad);
	EXPECT_EQ(-EINVAL, gpuprof_cmd_parse(NULL, 0, GPUPROF_CMD_CTL, &cmd));
}

TEST(interval_edges)
{
	static const struct { const char *text; int err; unsigned int ms; } c[] = {
		{ "interval 1", 0, 1 },
		{ "interval 100\n", 0, 100 },
		{ "interval\t60000", 0, 60000 },
		{ "interval 000042", 0, 42 },
		{ "interval 0", -EINVAL, 0 },
		{ "interval 60001", -EINVAL, 0 },
		{ "interval 4294967297", -EINVAL, 0 },
		{ "interval 18446744073709551617", -EINVAL, 0 },
		{ "interval -1", -EINVAL, 0 },
		{ "interval +5", -EINVAL, 0 },
		{ "interval 0x10", -EINVAL, 0 },
		{ "interval 10ms", -EINVAL, 0 },
		{ "interval 1.5", -EINVAL, 0 },
	};
	struct gpuprof_cmd cmd;
	unsigned int i;
	char *buf;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		EXPECT_EQ(c[i].err, parse(c[i].text, GPUPROF_CMD_CTL, &cmd, &buf))
			TH_LOG("%s", c[i].text);
		if (!c[i].err) {
			EXPECT_EQ(GPUPROF_VERB_INTERVAL, cmd.verb);
			EXPECT_EQ(c[i].ms, cmd.interval_ms);
		}
		free(buf);
	}
}

TEST(module_names)
{
	char text[GPUPROF_CTL_MAX + 1];
	struct gpuprof_cmd cmd;
	char *comm = repeat('c', GPUPROF_COMM_MAX);
	char *path = repeat('p', GPUPROF_PATH_MAX);
	char *buf;
	int i;

	EXPECT_EQ(0, parse("module glxgears /usr/bin/vkcube", GPUPROF_CMD_CTL,
			   &cmd, &buf));
	EXPECT_EQ(GPUPROF_VERB_MODULE, cmd.verb);
	ASSERT_EQ(3, cmd.nfields);
	EXPECT_STREQ("glxgears", cmd.field[1]);
	EXPECT_STREQ("/usr/bin/vkcube", cmd.field[2]);
	free(buf);

	/* A comm of 15 bytes, not 16; a path of 200 bytes, not 201. */
	snprintf(text, sizeof(text), "module %s", comm);
	EXPECT_EQ(0, CTL(text));
	snprintf(text, sizeof(text), "module %sc", comm);
	EXPECT_EQ(-EINVAL, CTL(text));
	path[0] = '/';
	snprintf(text, sizeof(text), "module %s", path);
	EXPECT_EQ(0, CTL(text));
	snprintf(text, sizeof(text), "module %sp", path);
	EXPECT_EQ(-EINVAL, CTL(text));

	/*
	 * A cgroup: "cgroup:" and an absolute path, 200 bytes in all at
	 * most; "cgroup:" alone or with a relative path is no name (though
	 * short enough for a comm).
	 */
	EXPECT_EQ(0, CTL("module cgroup:/ cgroup:/system.slice/x.service"));
	EXPECT_EQ(-EINVAL, CTL("module cgroup:"));
	EXPECT_EQ(-EINVAL, CTL("module cgroup:a/b"));
	EXPECT_EQ(-EINVAL, CTL("module cgroup:abc"));
	memcpy(path, "cgroup:/", 8);
	snprintf(text, sizeof(text), "module %s", path);
	EXPECT_EQ(0, CTL(text));
	snprintf(text, sizeof(text), "module %sp", path);
	EXPECT_EQ(-EINVAL, CTL(text));

	/* 16 names in one command, not 17. */
	strcpy(text, "module");
	for (i = 0; i < GPUPROF_MODULE_MAX_NAMES; i++)
		strcat(text, " a");
	EXPECT_EQ(0, CTL(text));
	strcat(text, " a");
	EXPECT_EQ(-EINVAL, CTL(text));
	free(comm);
	free(path);
}

/* More blanks than fields: the field table never overflows. */
TEST(many_fields)
{
	char text[GPUPROF_CTL_MAX + 1];
	int i;

	text[0] = '\0';
	for (i = 0; i < GPUPROF_CTL_MAX / 2; i++)
		strcat(text, "a ");
	EXPECT_EQ(-EINVAL, CTL(text));
	EXPECT_EQ(-EINVAL, PCTL(text));
}

TEST(pctl)
{
	static const struct { const char *text; int err; __u64 ctxid; } c[] = {
		{ "ctxid 0", 0, 0 },
		{ "ctxid 1f\n", 0, 0x1f },
		{ "ctxid 0x1F", 0, 0x1f },
		{ "ctxid 0Xabc", 0, 0xabc },
		{ "ctxid fffffffe", 0, 0xfffffffe },
		{ "ctxid 00000000fffffffe", 0, 0xfffffffe },
		{ "ctxid ffffffff", -EINVAL, 0 },
		{ "ctxid 100000000", -EINVAL, 0 },
		{ "ctxid 0x", -EINVAL, 0 },
		{ "ctxid x1", -EINVAL, 0 },
		{ "ctxid 0x0x1", -EINVAL, 0 },
		{ "ctxid -1", -EINVAL, 0 },
		{ "ctxid 1g", -EINVAL, 0 },
		{ "ctxid", -EINVAL, 0 },
		{ "ctxid 1 2", -EINVAL, 0 },
		{ "ctxid ffffffffffffffffffffffff", -EINVAL, 0 },
	};
	struct gpuprof_cmd cmd;
	unsigned int i;
	char *buf;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		EXPECT_EQ(c[i].err, parse(c[i].text, GPUPROF_CMD_PCTL, &cmd, &buf))
			TH_LOG("%s", c[i].text);
		if (!c[i].err) {
			EXPECT_EQ(GPUPROF_VERB_CTXID, cmd.verb);
			EXPECT_EQ(c[i].ctxid, cmd.ctxid);
		}
		free(buf);
	}
	EXPECT_EQ(0, PCTL("reset"));
	EXPECT_EQ(0, PCTL("unbind\n"));
	EXPECT_EQ(-EINVAL, PCTL("unbind 1"));
	/* Each file has its own verbs. */
	EXPECT_EQ(-EINVAL, PCTL("start"));
	EXPECT_EQ(-EINVAL, PCTL("module a"));
	EXPECT_EQ(-EINVAL, PCTL("interval 5"));
	EXPECT_EQ(-EINVAL, CTL("ctxid 1"));
}

TEST_HARNESS_MAIN
