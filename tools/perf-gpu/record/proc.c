// SPDX-License-Identifier: GPL-2.0-only
/*
 * Processes and threads from /proc, for perf gpu record -p.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/proc.h"
#include "util/array.h"
#include "util/file.h"

int proc_threads(pid_t pid, pid_t **tids)
{
	char path[64];
	struct dirent *d;
	pid_t *t = NULL;
	size_t alloc = 0;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? -ESRCH : -errno;
	while ((d = readdir(dir))) {
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		if (ARRAY_PUSH(t, n, alloc, atoi(d->d_name))) {
			free(t);
			closedir(dir);
			return -ENOMEM;
		}
	}
	closedir(dir);
	if (!n) {
		free(t);
		return -ESRCH;
	}
	*tids = t;
	return n;
}

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
