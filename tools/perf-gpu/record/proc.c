// SPDX-License-Identifier: GPL-2.0-only
/*
 * Processes and threads from /proc, for perf gpu record -p and the
 * filter of a command's recording.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/proc.h"
#include "util/file.h"

bool proc_alive(pid_t pid)
{
	char path[64], buf[256], *paren;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (file_read_small(AT_FDCWD, path, buf, sizeof(buf)) <= 0)
		return false;
	/* "pid (comm) S ...": the comm may hold spaces and parentheses. */
	paren = strrchr(buf, ')');
	return !paren || (paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X');
}

bool proc_is_kernel_thread(pid_t tid)
{
	char path[64], stat[512], *p;
	unsigned long flags = 0;

	if (tid <= 0)
		return true;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	if (file_read_small(AT_FDCWD, path, stat, sizeof(stat)) <= 0)
		return false;
	/* After the comm, which may hold anything: state, then 5 numbers. */
	p = strrchr(stat, ')');
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %lu", &flags) != 1)
		return false;
	return flags & 0x00200000;	/* PF_KTHREAD */
}
