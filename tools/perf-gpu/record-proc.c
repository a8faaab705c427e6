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

#include "record-proc.h"

int proc_threads(pid_t pid, pid_t **tids)
{
	char path[64];
	struct dirent *d;
	pid_t *t = NULL, *bigger;
	int n = 0, alloc = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? -ESRCH : -errno;
	while ((d = readdir(dir))) {
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		if (n == alloc) {
			alloc = alloc ? alloc * 2 : 16;
			bigger = realloc(t, alloc * sizeof(*t));
			if (!bigger) {
				free(t);
				closedir(dir);
				return -ENOMEM;
			}
			t = bigger;
		}
		t[n++] = atoi(d->d_name);
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
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return false;
	buf[len] = '\0';
	/* "pid (comm) S ...": the comm may hold spaces and parentheses. */
	paren = strrchr(buf, ')');
	return !paren || (paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X');
}
