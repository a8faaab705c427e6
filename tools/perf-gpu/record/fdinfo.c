// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM fdinfo snapshots for perf gpu record (see record/fdinfo.h).  A DRM
 * fd is one whose /proc/PID/fd link names /dev/dri/; what the driver
 * prints is then parsed by drm/fdinfo.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drm/fdinfo.h"
#include "perfdata/tracing-data.h"
#include "record/fdinfo.h"
#include "record/store.h"
#include "util/file.h"

#define FDINFO_MAX	(64 << 10)	/* far above what any driver prints */
#define MAX_CLIENTS	256		/* per snapshot */

/* All of @path, or NULL. */
static char *read_file(const char *path, size_t *len)
{
	char *buf;

	return file_read_all(path, FDINFO_MAX, &buf, len) ? NULL : buf;
}

char *record_fdinfo_read(pid_t pid, int fd, size_t *len)
{
	char path[64], link[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return NULL;
	link[n] = '\0';
	if (strncmp(link, "/dev/dri/", 9))
		return NULL;
	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", pid, fd);
	return read_file(path, len);
}

/* The parent of @pid from /proc/PID/stat ("pid (comm) S ppid ..."). */
static pid_t parent_of(pid_t pid)
{
	char path[64], *text, *rp;
	size_t len;
	int ppid = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	text = read_file(path, &len);
	if (!text)
		return 0;
	/* The comm may hold ')' and spaces: the last ')' ends it. */
	rp = strrchr(text, ')');
	if (!rp || sscanf(rp + 1, " %*c %d", &ppid) != 1)
		ppid = 0;
	free(text);
	return ppid;
}

static bool traced(const struct record_fdinfo *f, pid_t pid)
{
	int depth;

	if (!f->root)
		return true;
	/* Bounded: a pid-reuse loop must not hang the recording. */
	for (depth = 0; pid > 1 && depth < 64; depth++) {
		if (pid == f->root)
			return true;
		pid = parent_of(pid);
	}
	return false;
}

/* A client's identity; the parse result itself is some 10 KiB. */
struct client_key {
	char driver[DRM_FDINFO_NAME], pdev[DRM_FDINFO_NAME];
	uint64_t id;
};

struct snapshot {
	struct client_key *seen;	/* the clients of this snapshot */
	unsigned int nr;
};

/* Fds without drm-client-id cannot be matched: each is its own client. */
static bool seen_before(struct snapshot *s, const struct drm_fdinfo *fi)
{
	struct client_key *k;
	unsigned int i;

	if (!fi->has_client_id)
		return false;
	for (i = 0; i < s->nr; i++) {
		k = &s->seen[i];
		if (k->id == fi->client_id && !strcmp(k->pdev, fi->pdev) &&
		    !strcmp(k->driver, fi->driver))
			return true;
	}
	if (s->nr < MAX_CLIENTS) {
		k = &s->seen[s->nr++];
		memcpy(k->driver, fi->driver, sizeof(k->driver));
		memcpy(k->pdev, fi->pdev, sizeof(k->pdev));
		k->id = fi->client_id;
	}
	return false;
}

static int emit(struct record_fdinfo *f, struct record_store *st, pid_t pid,
		int fd, const struct drm_fdinfo *fi, uint64_t now)
{
	/* Identity fields plus stats: well under 4 KiB. */
	uint8_t buf[4096];
	ssize_t n;

	n = gpu_client_fdinfo_payload(buf, sizeof(buf), f->id, pid,
				      fi->client_id, fd, fi->driver, fi->pdev,
				      fi->stats);
	if (n < 0)
		return 0;	/* cannot happen with the sizes above */
	f->samples++;
	return record_store_add_sample(st, f->event, pid, pid, 0, now, 0, buf,
				       n);
}

static int scan_pid(struct record_fdinfo *f, struct record_store *st,
		    struct snapshot *s, pid_t pid, uint64_t now)
{
	struct drm_fdinfo *fi;
	struct dirent *de;
	char path[64];
	int err = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	d = opendir(path);
	if (!d)
		return 0;
	fi = malloc(sizeof(*fi));
	if (!fi) {
		closedir(d);
		return -ENOMEM;
	}
	while (!err && (de = readdir(d))) {
		char *text, *end;
		size_t len;
		long fd = strtol(de->d_name, &end, 10);

		if (*end || end == de->d_name || fd < 0)
			continue;
		text = record_fdinfo_read(pid, fd, &len);
		if (!text)
			continue;
		f->fds++;
		drm_fdinfo_parse(text, len, fi);
		free(text);
		if (!drm_fdinfo_is_client(fi) || seen_before(s, fi))
			continue;
		err = emit(f, st, pid, fd, fi, now);
	}
	free(fi);
	closedir(d);
	return err;
}

int record_fdinfo_tick(struct record_fdinfo *f, struct record_store *st,
		       uint64_t now, int force)
{
	struct snapshot s = { 0 };
	struct dirent *de;
	int err = 0;
	DIR *d;

	if (!f->interval_ns || (!force && now < f->next))
		return 0;
	f->next = now + f->interval_ns;
	s.seen = calloc(MAX_CLIENTS, sizeof(*s.seen));
	if (!s.seen)
		return -ENOMEM;
	d = opendir("/proc");
	if (!d) {
		free(s.seen);
		return 0;
	}
	f->snapshots++;
	while (!err && (de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || end == de->d_name || pid <= 0 || !traced(f, pid))
			continue;
		err = scan_pid(f, st, &s, pid, now);
	}
	closedir(d);
	free(s.seen);
	return err;
}
