// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cgroup v2 paths: see util/cgroup.h.
 */
#include <string.h>

#include "util/cgroup.h"

int cgroup_path_from_proc(const char *text, size_t len, char *path,
			  size_t size)
{
	const char *line = text, *end = text + len, *nl;
	size_t n;

	if (size)
		path[0] = '\0';
	for (; line < end; line = nl + 1) {
		nl = memchr(line, '\n', end - line);
		if (!nl)
			nl = end;	/* a last line without its newline */
		if (nl - line < 4 || memcmp(line, "0::/", 4))
			continue;
		n = nl - line - 3;
		/* A path has no NUL; and it must fit whole. */
		if (memchr(line + 3, '\0', n) || n + 1 > size)
			return -1;
		memcpy(path, line + 3, n);
		path[n] = '\0';
		return 0;
	}
	return -1;
}

int cgroup_path_within(const char *path, const char *root)
{
	size_t n = strlen(root);

	while (n > 1 && root[n - 1] == '/')
		n--;
	if (n == 1 && root[0] == '/')
		return path[0] == '/';
	return !strncmp(path, root, n) && (path[n] == '\0' || path[n] == '/');
}
