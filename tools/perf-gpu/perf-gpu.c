// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf-gpu: the "perf gpu" command.  Stock perf runs perf-<cmd> from
 * its exec path or $PATH for a command it does not know, with the
 * remaining arguments, so this binary gets "perf-gpu SUBCOMMAND ...".
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <subcmd/exec-cmd.h>
#include "util/options.h"

#include "builtin.h"
#include "util/debug.h"

#define PERF_GPU_VERSION "0.1"
#ifndef PERF_GPU_PREFIX
#define PERF_GPU_PREFIX "/usr/local"
#endif

struct subcommand {
	const char *name;
	const char *help;
	int (*fn)(int argc, const char **argv);
};

static const struct subcommand subcommands[] = {
	{ "convert", "Convert a perf.data to a Perfetto trace", cmd_convert },
	{ "list", "List GPU tracepoints and DRM devices", cmd_list },
	{ "record", "Record GPU tracepoints into perf.data", cmd_record },
	{ "script", "Print the events of a perf.data, OA decoded", cmd_script },
	{ "report", "Jobs, busy time, latency, frames and OA per client and timeline", cmd_report },
	{ "stat", "Run a command and print its GPU totals", cmd_stat },
	{ "timechart", "Write a perf.data as an HTML timeline", cmd_timechart },
	{ "top", "Live view of GPU clients, here or on another machine", cmd_top },
};

#define NR_SUBCOMMANDS (sizeof(subcommands) / sizeof(subcommands[0]))

static void print_usage(FILE *f)
{
	size_t i;

	fprintf(f, "\n usage: perf gpu [--version] [--help] COMMAND [ARGS]\n\n");
	fprintf(f, " The perf gpu commands are:\n");
	for (i = 0; i < NR_SUBCOMMANDS; i++)
		fprintf(f, "   %-10s %s\n", subcommands[i].name,
			subcommands[i].help);
	fprintf(f, "\n");
}

/*
 * The reader of our output went away (`perf gpu script | head`): stop,
 * with the status a shell gives a process SIGPIPE killed.  Dying of the
 * signal itself would make stock perf, which runs us, report "FATAL:
 * unable to run 'perf-gpu'".  Subcommands that write to sockets ignore
 * SIGPIPE instead (top/signals.c).
 */
static void perf_gpu_sigpipe(int sig)
{
	_exit(128 + sig);
}

int main(int argc, const char **argv)
{
	static char prog[32];
	size_t i;

	signal(SIGPIPE, perf_gpu_sigpipe);
	debug_set_prog("perf gpu");

	/* The name libsubcmd's usage messages give, as perf's do. */
	exec_cmd_init("perf gpu", PERF_GPU_PREFIX, NULL, NULL);
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		print_usage(stdout);
		return argc < 2;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("perf gpu version %s\n", PERF_GPU_VERSION);
		return 0;
	}
	for (i = 0; i < NR_SUBCOMMANDS; i++) {
		if (strcmp(argv[1], subcommands[i].name))
			continue;
		/* The name of every message, whichever layer prints it. */
		snprintf(prog, sizeof(prog), "perf gpu %s", subcommands[i].name);
		debug_set_prog(prog);
		return subcommands[i].fn(argc - 1, argv + 1);
	}

	pr_err("'%s' is not a perf gpu command. See 'perf gpu --help'.\n",
	       argv[1]);
	return 1;
}
