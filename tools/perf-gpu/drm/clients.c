// SPDX-License-Identifier: GPL-2.0-only
/*
 * The GPU clients of a machine from DRM fdinfo (see drm/clients.h).
 *
 * A scan walks PROC_ROOT/PID/fdinfo with getdents64 and reads each text
 * into a buffer kept between scans: at 2000 processes of 4 DRM fds each
 * the system calls are the cost, not the parsing.  So the fdinfo files
 * of DRM clients, and the comm of their processes, stay open from one
 * scan to the next (util/fdcache.c): read again with one pread() at
 * offset 0, which a seq_file answers with a new text, where opening,
 * reading and closing took three system calls.  A held file is used
 * while the listing shows its name on the same inode; the fdinfo
 * directory itself is opened anew each scan, so that its access check
 * (ptrace read access to the process) is made each time, as it was
 * without the cache.  Each held file keeps a seq_file buffer (a page)
 * in the kernel: util/fdcache.c bounds how many.  On a
 * real /proc the fd's link (PID/fd/N) tells a DRM fd not yet held
 * without reading its fdinfo; a fake proc root of tests has only fdinfo
 * texts and comm, and there the text decides (it has drm-driver).
 *
 * Each text is parsed straight into the next free slot of the clients
 * array; a util/map of the clients by id finds the one it may belong to, and
 * a text of a client already seen only adds to its fd count.  At the end
 * the clients are sorted by id, matched with the previous scan's by
 * binary search for utilisation, and summed per device.  The two arrays
 * swap roles at each scan, so nothing is allocated once sizes settle.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "drm/clients.h"
#include "util/array.h"
#include "util/fdcache.h"
#include "util/file.h"
#include "util/map.h"

#define DENTS_SIZE	(32 << 10)
#define UTIL_FULL	10000u

struct gpu_client_ref {
	uint64_t id;
	unsigned int idx;
};

int gpu_clients_init(struct gpu_clients *s, const char *proc_root)
{
	memset(s, 0, sizeof(*s));
	s->proc_root = strdup(proc_root ? proc_root : "/proc");
	s->text = malloc(GPU_CLIENTS_TEXT_MAX);
	s->dents = malloc(DENTS_SIZE);
	if (!s->proc_root || !s->text || !s->dents) {
		gpu_clients_free(s);
		return -1;
	}
	s->text_size = GPU_CLIENTS_TEXT_MAX;
	fdcache_init(&s->held, fdcache_max_files());
	return 0;
}

void gpu_clients_free(struct gpu_clients *s)
{
	free(s->proc_root);
	free(s->clients);
	free(s->prev);
	free(s->devices);
	free(s->text);
	free(s->dents);
	u64_map_free(&s->by_id);
	free(s->order);
	fdcache_free(&s->held);
	memset(s, 0, sizeof(*s));
}

static uint64_t scan_time(const struct gpu_clients *s)
{
	struct timespec ts;

	if (s->now_ns)
		return s->now_ns;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* FNV-1a of @str and its NUL, which keeps "ab","c" from "a","bc". */
static uint64_t hash_str(uint64_t h, const char *str)
{
	return map_hash_field(map_hash_str(h, str), 0);
}

/*
 * The client's id.  For one device the mixer is a bijection of
 * drm-client-id, so ids only collide across devices, at odds of 2^-64;
 * were it to happen the two stay distinct clients (grouping compares the
 * whole key) and gpu_clients_find() returns one of them.  An fd without
 * drm-client-id is a client of its own, named by pid and fd.
 */
static uint64_t client_id(const struct drm_fdinfo *fi, int32_t pid, int fd)
{
	uint64_t dev = hash_str(hash_str(MAP_HASH_SEED, fi->driver),
				fi->pdev);

	if (fi->has_client_id)
		return map_hash_u64(dev ^ fi->client_id);
	return map_hash_u64(dev ^ map_hash_u64(((uint64_t)(uint32_t)pid << 32 |
					       (uint32_t)fd) ^
					      0x5a5a5a5a5a5a5a5aull));
}

/* Two fds of one client in a scan: only with drm-client-id. */
static bool same_client(const struct gpu_client *a, const struct gpu_client *b)
{
	return a->id == b->id && drm_fdinfo_same_client(&a->fi, &b->fi);
}

/* One client in two scans: also an fd without drm-client-id (by its id). */
static bool same_key(const struct gpu_client *a, const struct gpu_client *b)
{
	return a->id == b->id && a->fi.has_client_id == b->fi.has_client_id &&
	       a->fi.client_id == b->fi.client_id &&
	       !strcmp(a->fi.driver, b->fi.driver) &&
	       !strcmp(a->fi.pdev, b->fi.pdev);
}

/* Room for @n clients plus the slot the next text is parsed into. */
static int reserve_clients(struct gpu_clients *s, unsigned int n)
{
	return ARRAY_RESERVE(s->clients, s->alloc, (size_t)n + 1) ? -1 : 0;
}

/*
 * The client of this scan that @c is one more fd of, or NULL.  The map
 * holds the first client of an id; another of the same id (ids of two
 * devices colliding) is found by looking, *@keyed then true.
 */
static struct gpu_client *find_client(struct gpu_clients *s,
				      const struct gpu_client *c, bool *keyed)
{
	unsigned int i;
	uint64_t idx;

	*keyed = u64_map_get(&s->by_id, c->id, &idx);
	if (!*keyed)
		return NULL;
	if (same_client(&s->clients[idx], c))
		return &s->clients[idx];
	for (i = 0; i < s->nr_clients; i++)
		if (same_client(&s->clients[i], c))
			return &s->clients[i];
	return NULL;
}

/*
 * What one pread(2) at offset 0 of @fd gives: an fdinfo or comm file is
 * a seq_file of one record, which builds its text anew at offset 0 and
 * gives all of it up to the count asked, as a regular file of a fake
 * root does; not reading again until 0 saves a system call per file.
 */
static ssize_t pread_small(int fd, char *buf, size_t size)
{
	ssize_t len;

	do
		len = pread(fd, buf, size, 0);
	while (len < 0 && errno == EINTR);
	return len;
}

/* The text of @fd into s->text: its length, or -1. */
static ssize_t read_text(struct gpu_clients *s, int fd)
{
	ssize_t len = pread_small(fd, s->text, s->text_size);
	char *nl;

	if ((size_t)len == s->text_size) {
		/* Cut: drop the partial last line rather than misread it. */
		nl = memrchr(s->text, '\n', len);
		len = nl ? nl - s->text + 1 : 0;
	}
	return len;
}

/* The keys of a process's files held open: its comm, its fds' fdinfo. */
static uint64_t comm_key(int32_t pid)
{
	return (uint64_t)(uint32_t)pid << 32;
}

static uint64_t fdinfo_key(int32_t pid, int fd)
{
	return (uint64_t)(uint32_t)pid << 32 | ((uint32_t)fd + 1);
}

/*
 * Whether the fd's link names a DRM node: 1 yes, 0 no, -1 it vanished or
 * access was denied.  /dev/accel/ nodes are DRM's compute accelerators
 * and print the same keys.
 */
static int drm_link(int fd_dir, const char *name)
{
	char link[64];
	ssize_t n;

	n = readlinkat(fd_dir, name, link, sizeof(link) - 1);
	if (n < 0)
		return -1;
	link[n] = '\0';
	return !strncmp(link, "/dev/dri/", 9) || !strncmp(link, "/dev/accel/", 11);
}

/*
 * PID/comm, its newline dropped; "" when unreadable (it may be gone).
 * Held open while the process has clients, and known by the inode of
 * its PID directory (@dir_ino, 0 when not listed: not held).
 */
static void read_comm(struct gpu_clients *s, int root, const char *pid,
		      int32_t pid_nr, uint64_t dir_ino, char comm[16])
{
	uint64_t key = comm_key(pid_nr);
	char path[32], buf[32];
	ssize_t n;
	int fd;

	comm[0] = '\0';
	fd = dir_ino ? fdcache_get(&s->held, key, dir_ino) : -1;
	if (fd < 0) {
		snprintf(path, sizeof(path), "%s/comm", pid);
		fd = openat(root, path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0)
			return;
		if (!dir_ino || !fdcache_put(&s->held, key, dir_ino, fd)) {
			n = pread_small(fd, buf, sizeof(buf));
			close(fd);
			goto got;
		}
	}
	n = pread_small(fd, buf, sizeof(buf));
	if (n <= 0)
		fdcache_drop(&s->held, key);
got:
	if (n <= 0)
		return;
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\0'))
		n--;
	if (n > 15)
		n = 15;
	memcpy(comm, buf, n);
	comm[n] = '\0';
}

struct process {
	int root;
	const char *name;	/* the pid as /proc names it */
	int32_t pid;
	uint64_t dir_ino;	/* of PID/, as listed; 0 if not */
	int info_dir;		/* PID/fdinfo */
	int fd_dir;		/* PID/fd (O_PATH) once needed; -1 none */
	bool fd_dir_tried;
	char comm[16];
	bool have_comm;
};

/*
 * The identity of the text in s->text is in the spare slot: one more fd
 * of a client seen, or a new client, then parsed in full there.
 */
static int add_fd(struct gpu_clients *s, struct process *p, int fd,
		  size_t len)
{
	struct gpu_client *c = &s->clients[s->nr_clients], *old;
	bool keyed;

	c->id = client_id(&c->fi, p->pid, fd);
	if (!p->have_comm) {
		read_comm(s, p->root, p->name, p->pid, p->dir_ino, p->comm);
		p->have_comm = true;
	}
	old = find_client(s, c, &keyed);
	if (old) {
		/* Counted once; its values are those of the first fd read. */
		old->nr_fds++;
		if (p->pid < old->pid) {
			old->pid = p->pid;
			memcpy(old->comm, p->comm, sizeof(old->comm));
		}
		return 0;
	}
	drm_fdinfo_parse(s->text, len, &c->fi);
	s->stats.malformed_lines += c->fi.malformed;
	c->pid = p->pid;
	memcpy(c->comm, p->comm, sizeof(c->comm));
	c->nr_fds = 1;
	memset(c->util_x100, 0, sizeof(c->util_x100));
	c->has_util = false;
	if (!keyed && u64_map_put(&s->by_id, c->id, s->nr_clients))
		return -1;
	s->nr_clients++;
	return reserve_clients(s, s->nr_clients);
}

/* Parse-worthy at all: every driver that prints stats prints drm-driver. */
static bool has_driver_key(const char *text, size_t len)
{
	return memmem(text, len, "drm-driver:", 11) != NULL;
}

/*
 * Hold @fd under @key by the inode it is open on, not the one the
 * listing gave: the name may have been renamed over in between, and the
 * listed inode, held by no one, can come back under a later file of the
 * name (filesystems reuse freed numbers), which would then pass for the
 * held one.  An inode held open is never reused.
 */
static bool hold(struct gpu_clients *s, uint64_t key, int fd)
{
	struct stat st;

	return !fstat(fd, &st) && fdcache_put(&s->held, key, st.st_ino, fd);
}

/*
 * PID/fd, opened when a first fd not held needs its link read: a fake
 * proc root has none (the fdinfo texts then decide alone).
 */
static int fd_dir_of(struct process *p)
{
	char path[32];

	if (!p->fd_dir_tried) {
		snprintf(path, sizeof(path), "%s/fd", p->name);
		p->fd_dir = openat(p->root, path,
				   O_PATH | O_DIRECTORY | O_CLOEXEC);
		p->fd_dir_tried = true;
	}
	return p->fd_dir;
}

/*
 * One fd of the process, as its fdinfo directory lists it (@d).  The
 * fdinfo of a DRM client is held open for the next scans while the
 * listing shows it on the same inode, and on a real /proc its link is
 * then not read again.  What keeps a held text right there is the
 * kernel: each read at offset 0 looks fd N up anew, so an fd closed and
 * opened again under the same number (which /proc lists on the same
 * inode) gives the new file's text, a client or not.  The inode tells a
 * fake root's file renamed over, and a reused pid's new directory.
 */
static int scan_fd(struct gpu_clients *s, struct process *p,
		   const struct dirent64 *d)
{
	struct drm_fdinfo *fi = &s->clients[s->nr_clients].fi;
	const char *q;
	uint64_t key;
	bool held = true;
	ssize_t len;
	int fd = 0, f;

	for (q = d->d_name; *q; q++) {
		if (*q < '0' || *q > '9' || fd > 100000000)
			return 0;	/* ".", "..", or not an fd */
		fd = fd * 10 + (*q - '0');
	}
	key = fdinfo_key(p->pid, fd);
	f = fdcache_get(&s->held, key, d->d_ino);
	if (f < 0 && fd_dir_of(p) >= 0) {
		switch (drm_link(p->fd_dir, d->d_name)) {
		case 0:
			return 0;
		case -1:
			s->stats.unreadable++;
			return 0;
		}
	}
	if (f < 0) {
		f = openat(p->info_dir, d->d_name,
			   O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
		if (f < 0) {
			s->stats.unreadable++;
			return 0;
		}
		held = hold(s, key, f);
	}
	len = read_text(s, f);
	if (!held)
		close(f);
	if (len < 0) {
		fdcache_drop(&s->held, key);
		s->stats.unreadable++;
		return 0;
	}
	s->stats.fds++;
	if (!has_driver_key(s->text, len))
		goto not_client;
	drm_fdinfo_parse_identity(s->text, len, fi);
	if (!drm_fdinfo_is_client(fi))
		goto not_client;
	s->stats.drm_fds++;
	return add_fd(s, p, fd, len);

not_client:
	/* Not a client (now): not worth holding. */
	fdcache_drop(&s->held, key);
	return 0;
}

/* 0, or -1 out of memory.  A process gone or denied only counts. */
static int scan_process(struct gpu_clients *s, int root, const char *name,
			int32_t pid, uint64_t dir_ino)
{
	struct process p = {
		.root = root, .name = name, .pid = pid, .dir_ino = dir_ino,
		.fd_dir = -1,
	};
	char path[32];
	long n, off;
	int ret = 0;

	s->stats.processes++;
	snprintf(path, sizeof(path), "%s/fdinfo", name);
	p.info_dir = openat(root, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (p.info_dir < 0) {
		s->stats.unreadable++;
		return 0;
	}
	while (!ret && (n = getdents64(p.info_dir, s->dents, DENTS_SIZE)) > 0) {
		for (off = 0; !ret && off < n;) {
			struct dirent64 *d = (struct dirent64 *)(s->dents + off);

			off += d->d_reclen;
			ret = scan_fd(s, &p, d);
		}
	}
	if (p.fd_dir >= 0)
		close(p.fd_dir);
	close(p.info_dir);
	return ret;
}

/* A /proc entry naming a process: all digits, a positive int32. */
static int32_t pid_of(const char *name)
{
	int64_t pid = 0;

	if (!*name || strlen(name) > 10)
		return 0;
	for (; *name; name++) {
		if (*name < '0' || *name > '9')
			return 0;
		pid = pid * 10 + (*name - '0');
		if (pid > INT32_MAX)
			return 0;
	}
	return pid;
}

/* A process as /proc lists it. */
struct proc_entry {
	char name[12];		/* <= 10 digits */
	uint64_t ino;
};

/* The processes are copied out: scan_process reuses s->dents. */
static int scan_all(struct gpu_clients *s, int root)
{
	struct proc_entry *procs = NULL;
	size_t nr = 0, alloc = 0, i;
	long n, off;
	int ret = 0;

	while ((n = getdents64(root, s->dents, DENTS_SIZE)) > 0) {
		for (off = 0; off < n;) {
			struct dirent64 *d = (struct dirent64 *)(s->dents + off);

			off += d->d_reclen;
			if (!pid_of(d->d_name))
				continue;
			if (ARRAY_RESERVE(procs, alloc, nr + 1)) {
				free(procs);
				return -1;
			}
			strcpy(procs[nr].name, d->d_name);
			procs[nr++].ino = d->d_ino;
		}
	}
	for (i = 0; !ret && i < nr; i++)
		ret = scan_process(s, root, procs[i].name,
				   pid_of(procs[i].name), procs[i].ino);
	free(procs);
	return ret;
}

static int cmp_ref(const void *a, const void *b)
{
	const struct gpu_client_ref *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/*
 * A client, less what its counts say is unused (drm_fdinfo_parse leaves
 * those entries as they were): a client is some 10 KiB, of which a
 * driver's five engines and three regions use one or two.  Every field
 * outside the three arrays is copied, whatever is added later.
 */
static void copy_client(struct gpu_client *dst, const struct gpu_client *src)
{
#define SPAN(from, to)	memcpy((char *)dst + offsetof(struct gpu_client, from), \
			       (const char *)src + offsetof(struct gpu_client, from), \
			       offsetof(struct gpu_client, to) - \
			       offsetof(struct gpu_client, from))
	SPAN(id, fi.engine);
	memcpy(dst->fi.engine, src->fi.engine,
	       src->fi.nr_engines * sizeof(src->fi.engine[0]));
	SPAN(fi.nr_engines, fi.region);
	memcpy(dst->fi.region, src->fi.region,
	       src->fi.nr_regions * sizeof(src->fi.region[0]));
	SPAN(fi.nr_regions, fi.stats);
	memcpy(dst->fi.stats, src->fi.stats, strlen(src->fi.stats) + 1);
	memcpy((char *)dst + offsetof(struct gpu_client, fi) + sizeof(dst->fi),
	       (const char *)src + offsetof(struct gpu_client, fi) + sizeof(src->fi),
	       sizeof(*dst) - offsetof(struct gpu_client, fi) - sizeof(dst->fi));
#undef SPAN
}

/*
 * Sort by id: the ids are sorted, then the clients permuted in place
 * along the cycles of the permutation, each moved once, through the spare
 * slot.
 */
static int sort_clients(struct gpu_clients *s)
{
	struct gpu_client_ref *o;
	struct gpu_client *a = s->clients, *tmp = &a[s->nr_clients];
	unsigned int n = s->nr_clients, i, j, src;

	if (n < 2)
		return 0;
	o = realloc(s->order, (size_t)n * sizeof(*o));
	if (!o)
		return -1;
	s->order = o;
	for (i = 0; i < n; i++) {
		o[i].id = a[i].id;
		o[i].idx = i;
	}
	qsort(o, n, sizeof(*o), cmp_ref);
	/* o[i].idx: where the client that belongs at i is now. */
	for (i = 0; i < n; i++) {
		if (o[i].idx == i)
			continue;
		copy_client(tmp, &a[i]);
		for (j = i;; j = src) {
			src = o[j].idx;
			o[j].idx = j;
			if (src == i) {
				copy_client(&a[j], tmp);
				break;
			}
			copy_client(&a[j], &a[src]);
		}
	}
	return 0;
}

static const struct gpu_client *find_in(const struct gpu_client *c,
					unsigned int n, uint64_t id)
{
	unsigned int lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (c[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && c[lo].id == id ? &c[lo] : NULL;
}

const struct gpu_client *gpu_clients_find(const struct gpu_clients *s,
					  uint64_t id)
{
	return find_in(s->clients, s->nr_clients, id);
}

/*
 * @num * @scale / (@a * @b * @c), rounded down and clamped to 10000, in
 * 128 bits: num * scale stays under 2^108 (scale <= 10^13); a
 * denominator past 2^128 makes the quotient 0 anyway.
 */
static uint32_t util_of(uint64_t num, uint64_t scale, uint64_t a, uint64_t b,
			uint64_t c)
{
	unsigned __int128 den = (unsigned __int128)a * b, q;

	if (!den || !c)
		return 0;
	if (den > ~(unsigned __int128)0 / c)
		return 0;
	den *= c;
	q = (unsigned __int128)num * scale / den;
	return q > UTIL_FULL ? UTIL_FULL : (uint32_t)q;
}

/*
 * @cur minus @prev in *d; false when the counter went back, *cur then
 * held at @prev (drm-usage-stats: stay with the larger value).
 */
static bool advance(uint64_t *cur, uint64_t prev, uint64_t *d)
{
	if (*cur < prev) {
		*cur = prev;
		*d = 0;
		return false;
	}
	*d = *cur - prev;
	return true;
}

static uint32_t engine_util(struct drm_fdinfo_engine *e,
			    const struct drm_fdinfo_engine *p, uint64_t dt)
{
	uint64_t busy = 0, cycles = 0, total = 0;
	bool ok_busy = true, ok_cycles = true, ok_total = true;

	if (e->has_busy && p->has_busy)
		ok_busy = advance(&e->busy_ns, p->busy_ns, &busy);
	if (e->has_cycles && p->has_cycles)
		ok_cycles = advance(&e->cycles, p->cycles, &cycles);
	if (e->has_total_cycles && p->has_total_cycles)
		ok_total = advance(&e->total_cycles, p->total_cycles, &total);

	if (e->has_busy && p->has_busy)
		return ok_busy ? util_of(busy, UTIL_FULL, dt, e->capacity, 1) : 0;
	if (!e->has_cycles || !p->has_cycles || !ok_cycles)
		return 0;
	if (e->has_total_cycles && p->has_total_cycles)
		return ok_total ? util_of(cycles, UTIL_FULL, total,
					  e->capacity, 1) : 0;
	if (e->maxfreq_hz)
		return util_of(cycles, UTIL_FULL * 1000000000ull,
			       e->maxfreq_hz, dt, e->capacity);
	return 0;
}

static void client_util(struct gpu_client *c, const struct gpu_client *p,
			uint64_t dt)
{
	const struct drm_fdinfo_engine *pe;
	unsigned int i;

	for (i = 0; i < c->fi.nr_engines; i++) {
		struct drm_fdinfo_engine *e = &c->fi.engine[i];

		/* Drivers print their engines in a fixed order: try i first. */
		pe = i < p->fi.nr_engines && !strcmp(p->fi.engine[i].name, e->name) ?
		     &p->fi.engine[i] : drm_fdinfo_engine(&p->fi, e->name);
		c->util_x100[i] = pe ? engine_util(e, pe, dt) : 0;
	}
	c->has_util = true;
}

static void compute_util(struct gpu_clients *s)
{
	uint64_t dt = s->scan_ns > s->prev_scan_ns ?
		      s->scan_ns - s->prev_scan_ns : 0;
	const struct gpu_client *p;
	unsigned int i;

	if (!dt || !s->nr_prev)
		return;
	for (i = 0; i < s->nr_clients; i++) {
		struct gpu_client *c = &s->clients[i];

		p = find_in(s->prev, s->nr_prev, c->id);
		if (p && same_key(c, p))
			client_util(c, p, dt);
	}
}

/* PID/cgroup's v2 path into c->cgroup; "" when unreadable or none. */
static void read_cgroup(int root, struct gpu_client *c)
{
	char path[32], buf[4096];
	ssize_t n;

	c->cgroup[0] = '\0';
	snprintf(path, sizeof(path), "%d/cgroup", (int)c->pid);
	n = file_read_small(root, path, buf, sizeof(buf));
	if (n > 0)
		cgroup_path_from_proc(buf, n, c->cgroup, sizeof(c->cgroup));
}

/*
 * Each client's cgroup: the previous scan's when the client was there
 * with the same process, else read (one small file per new client, not
 * per client and scan: the scan's cost is its system calls).
 */
static void resolve_cgroups(struct gpu_clients *s, int root)
{
	const struct gpu_client *p;
	unsigned int i;

	for (i = 0; i < s->nr_clients; i++) {
		struct gpu_client *c = &s->clients[i];

		p = find_in(s->prev, s->nr_prev, c->id);
		if (p && p->pid == c->pid && same_key(c, p))
			memcpy(c->cgroup, p->cgroup, sizeof(c->cgroup));
		else
			read_cgroup(root, c);
	}
}

static struct gpu_device *device_of(struct gpu_clients *s,
				    const struct drm_fdinfo *fi)
{
	struct gpu_device *d;
	unsigned int i;

	for (i = 0; i < s->nr_devices; i++) {
		d = &s->devices[i];
		if (!strcmp(d->pdev, fi->pdev) && !strcmp(d->driver, fi->driver))
			return d;
	}
	if (ARRAY_RESERVE(s->devices, s->alloc_devices, s->nr_devices + 1))
		return NULL;
	d = &s->devices[s->nr_devices++];
	memset(d, 0, sizeof(*d));
	memcpy(d->driver, fi->driver, sizeof(d->driver));
	memcpy(d->pdev, fi->pdev, sizeof(d->pdev));
	return d;
}

/* The index of @name in @names, added if room; -1 when full. */
static int name_index(char (*names)[DRM_FDINFO_NAME], unsigned int *nr,
		      const char *name)
{
	unsigned int i;

	for (i = 0; i < *nr; i++)
		if (!strcmp(names[i], name))
			return i;
	if (*nr == DRM_FDINFO_MAX)
		return -1;
	memcpy(names[i], name, DRM_FDINFO_NAME);
	return (*nr)++;
}

static void add_client(struct gpu_device *d, const struct gpu_client *c)
{
	const struct drm_fdinfo_region *r;
	unsigned int i;
	uint64_t v;
	int k;

	d->nr_clients++;
	for (i = 0; i < c->fi.nr_engines; i++) {
		k = name_index(d->engine, &d->nr_engines, c->fi.engine[i].name);
		if (k < 0 || !c->has_util)
			continue;
		d->util_x100[k] += c->util_x100[i];
		if (d->util_x100[k] > UTIL_FULL)
			d->util_x100[k] = UTIL_FULL;
	}
	for (i = 0; i < c->fi.nr_regions; i++) {
		r = &c->fi.region[i];
		if (r->has[DRM_MEM_RESIDENT])
			v = r->bytes[DRM_MEM_RESIDENT];
		else if (r->has[DRM_MEM_TOTAL])
			v = r->bytes[DRM_MEM_TOTAL];
		else if (r->has[DRM_MEM_LEGACY])
			v = r->bytes[DRM_MEM_LEGACY];
		else
			continue;
		k = name_index(d->region, &d->nr_regions, r->name);
		if (k < 0)
			continue;
		if (__builtin_add_overflow(d->bytes[k], v, &d->bytes[k]))
			d->bytes[k] = UINT64_MAX;
	}
}

static int cmp_device(const void *a, const void *b)
{
	const struct gpu_device *x = a, *y = b;
	int r = strcmp(x->driver, y->driver);

	return r ? r : strcmp(x->pdev, y->pdev);
}

static int sum_devices(struct gpu_clients *s)
{
	struct gpu_device *d;
	unsigned int i;

	s->nr_devices = 0;
	for (i = 0; i < s->nr_clients; i++) {
		d = device_of(s, &s->clients[i].fi);
		if (!d)
			return -1;
		add_client(d, &s->clients[i]);
	}
	if (s->nr_devices > 1)
		qsort(s->devices, s->nr_devices, sizeof(*s->devices),
		      cmp_device);
	return 0;
}

static void swap_scans(struct gpu_clients *s)
{
	struct gpu_client *c = s->clients;
	size_t a = s->alloc;

	s->clients = s->prev;
	s->prev = c;
	s->alloc = s->alloc_prev;
	s->alloc_prev = a;
	a = s->nr_clients;
	s->nr_clients = s->nr_prev;
	s->nr_prev = a;
}

static int scan(struct gpu_clients *s, int root, int32_t pid)
{
	char name[12];

	u64_map_clear(&s->by_id);
	if (reserve_clients(s, 0))
		return -1;
	if (pid <= 0)
		return scan_all(s, root);
	snprintf(name, sizeof(name), "%d", pid);
	return scan_process(s, root, name, pid, 0);
}

int gpu_clients_scan(struct gpu_clients *s, int32_t pid)
{
	uint64_t prev_ns = s->prev_scan_ns;
	int root, ret;

	root = open(s->proc_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0 && (errno == EMFILE || errno == ENFILE) && s->held.nr) {
		/* Out of files: give back those held, hold half as many. */
		unsigned int max = s->held.nr / 2;

		fdcache_free(&s->held);
		fdcache_init(&s->held, max);
		root = open(s->proc_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	if (root < 0)
		return -1;
	/* The last scan becomes the previous one; undone on failure. */
	swap_scans(s);
	s->nr_clients = 0;
	s->prev_scan_ns = s->scan_ns;
	s->scan_ns = scan_time(s);
	memset(&s->stats, 0, sizeof(s->stats));
	fdcache_begin(&s->held);
	ret = scan(s, root, pid);
	/* The files of clients and processes gone are closed. */
	fdcache_end(&s->held);
	if (!ret)
		ret = sort_clients(s);
	if (!ret)
		resolve_cgroups(s, root);
	close(root);
	if (ret) {
		s->scan_ns = s->prev_scan_ns;
		s->prev_scan_ns = prev_ns;
		swap_scans(s);
		s->nr_prev = 0;		/* overwritten by the failed scan */
		errno = ENOMEM;
		return -1;
	}
	compute_util(s);
	if (sum_devices(s)) {
		s->nr_devices = 0;
		errno = ENOMEM;
		return -1;
	}
	return 0;
}
