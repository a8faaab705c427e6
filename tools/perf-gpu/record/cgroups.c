// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cgroups of the cgroup v2 tree at the start of a recording: see
 * record/cgroups.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/cgroups.h"
#include "util/file.h"

/* A field of mountinfo: octal escapes (\040 for a space) undone. */
static int unescape(const char *s, size_t len, char *out, size_t size)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		char c = s[i];

		if (c == '\\' && i + 3 < len &&
		    s[i + 1] >= '0' && s[i + 1] <= '3' &&
		    s[i + 2] >= '0' && s[i + 2] <= '7' &&
		    s[i + 3] >= '0' && s[i + 3] <= '7') {
			c = (s[i + 1] - '0') << 6 | (s[i + 2] - '0') << 3 |
			    (s[i + 3] - '0');
			i += 3;
		}
		if (n + 1 >= size)
			return -1;
		out[n++] = c;
	}
	out[n] = '\0';
	return 0;
}

/* The @n-th space-separated field of @line (from 0): its start and length. */
static const char *field(const char *line, const char *end, unsigned int n,
			 size_t *len)
{
	const char *p = line, *q;

	for (;;) {
		while (p < end && *p == ' ')
			p++;
		q = p;
		while (q < end && *q != ' ')
			q++;
		if (p == q)
			return NULL;
		if (!n--) {
			*len = q - p;
			return p;
		}
		p = q;
	}
}

/*
 * "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE ...":
 * the filesystem type follows the lone "-".
 */
int cgroups_find_mount(const char *mountinfo, size_t len, char *mount,
		       char *root, size_t size)
{
	const char *line = mountinfo, *end = mountinfo + len, *nl, *f, *sep;
	size_t n, rlen, mlen;
	const char *r, *m;

	for (; line < end; line = nl + 1) {
		nl = memchr(line, '\n', end - line);
		if (!nl)
			nl = end;
		sep = NULL;
		for (f = line; f + 3 <= nl; f++)
			if (!memcmp(f, " - ", 3)) {
				sep = f + 3;
				break;
			}
		if (!sep || nl - sep < 8 || memcmp(sep, "cgroup2 ", 8))
			continue;
		r = field(line, sep, 3, &rlen);
		m = field(line, sep, 4, &mlen);
		if (!r || !m || unescape(r, rlen, root, size) ||
		    unescape(m, mlen, mount, size))
			continue;
		n = strlen(root);
		if (root[0] != '/' || mount[0] != '/')
			continue;
		/* A root of "/" stands for the hierarchy's; no trailing '/'. */
		while (n > 1 && root[n - 1] == '/')
			root[--n] = '\0';
		return 0;
	}
	return -1;
}

/* The cgroup id of directory @name of @dirfd: its file handle, 8 bytes. */
static int cgroup_id(int dirfd, const char *name, uint64_t *id)
{
	struct {
		struct file_handle fh;
		uint64_t id;
	} h = { .fh.handle_bytes = sizeof(uint64_t) };
	int mount_id;

	if (name_to_handle_at(dirfd, name, &h.fh, &mount_id, 0) ||
	    h.fh.handle_bytes != sizeof(uint64_t))
		return -1;
	memcpy(id, h.fh.f_handle, sizeof(*id));
	return 0;
}

/* @path (its hierarchy path) is directory @name of @at. */
static int walk(int at, const char *name, char *path, size_t len,
		cgroups_fn fn, void *arg, unsigned int depth)
{
	struct dirent *d;
	uint64_t id;
	size_t n;
	DIR *dir;
	int fd, ret;

	if (cgroup_id(at, name, &id))
		return 0;		/* gone, or not a cgroup */
	ret = fn(arg, id, len ? path : "/");
	/* The kernel's own limit on depth is far below this. */
	if (ret || depth > 256)
		return ret;
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return 0;
	}
	while (!ret && (d = readdir(dir))) {
		if (d->d_type != DT_DIR || !strcmp(d->d_name, ".") ||
		    !strcmp(d->d_name, ".."))
			continue;
		n = strlen(d->d_name);
		if (len + 1 + n >= PATH_MAX)
			continue;
		path[len] = '/';
		memcpy(path + len + 1, d->d_name, n + 1);
		ret = walk(dirfd(dir), d->d_name, path, len + 1 + n, fn, arg,
			   depth + 1);
		path[len] = '\0';
	}
	closedir(dir);
	return ret;
}

int cgroups_walk(const char *mount, const char *root, cgroups_fn fn,
		 void *arg)
{
	char *path = malloc(PATH_MAX);
	size_t len = strcmp(root, "/") ? strlen(root) : 0;
	int ret;

	if (!path)
		return -ENOMEM;
	if (len >= PATH_MAX) {
		free(path);
		return 0;
	}
	memcpy(path, root, len + 1);
	if (!len)
		path[0] = '\0';
	ret = walk(AT_FDCWD, mount, path, len, fn, arg, 0);
	free(path);
	return ret;
}

int cgroups_for_each(cgroups_fn fn, void *arg)
{
	char mount[PATH_MAX], root[PATH_MAX];
	size_t len;
	char *text;
	int ret;

	ret = file_read_all("/proc/self/mountinfo", 0, &text, &len);
	if (ret)
		return 0;		/* no /proc: no cgroups to name */
	ret = cgroups_find_mount(text, len, mount, root, sizeof(mount));
	free(text);
	if (ret)
		return 0;
	return cgroups_walk(mount, root, fn, arg);
}
