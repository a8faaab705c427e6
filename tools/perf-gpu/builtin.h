/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf-gpu subcommands.  Each takes the arguments after its own name,
 * argv[0] being that name, as perf's builtins do.
 */
#ifndef PERF_GPU_BUILTIN_H
#define PERF_GPU_BUILTIN_H

int cmd_convert(int argc, const char **argv);
int cmd_list(int argc, const char **argv);
int cmd_record(int argc, const char **argv);
int cmd_script(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_stat(int argc, const char **argv);
int cmd_timechart(int argc, const char **argv);
int cmd_top(int argc, const char **argv);

#endif
