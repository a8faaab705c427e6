// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu top's scan: gpu_clients_scan() over a fake proc root of 2000
 * processes with 4 DRM fds each (design.rst 9), the
 * drivers varied (i915, amdgpu, xe, msm, panfrost): two clients per
 * process, each open twice (dup'd), as a GL or Vulkan program holds its
 * render node.  The median of several scans, the first (which sizes the
 * buffers) left out.  The tree is on tmpfs (/dev/shm) when there is one,
 * as /proc is in memory, else in $TMPDIR.
 *
 * The figure is a ratio measured in the same run: the scan's time over
 * the floor, the same 10000 files (texts and comms) opened, read and
 * closed in a plain loop, which a scan that reads every text cannot beat
 * (top_scan_vs_syscall_floor).  Then, as comments: the absolute times,
 * and the tree made to look like a real /proc, three more fds per process
 * (stdin, stdout, stderr) and PID/fd links, so the links decide without
 * reading those texts.
 *
 * intel_gpu_top and nvtop scan /proc only with a GPU of theirs present:
 * none is here, so no ratio is printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/bench.h"
#include "../../tools/perf-gpu/drm/clients.h"

#define PROCS	2000
#define FDS	4
#define ROUNDS	9

static void die(const char *what)
{
	fprintf(stderr, "top_scan_bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t len = strlen(text);

	if (fd < 0 || write(fd, text, len) != (ssize_t)len)
		die(path);
	close(fd);
}

/* The text of client @c (0 or 1) of process @pid, as its driver prints. */
static void fdinfo_text(char *buf, size_t size, int pid, int c, int fd)
{
	unsigned long long id = pid * 2ull + c, t = pid * 1000ull + c;
	const char *gen = "pos:\t0\nflags:\t02100002\nmnt_id:\t25\n";

	switch (pid % 5) {
	case 0:
		snprintf(buf, size,
			 "%sino:\t%d\ndrm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\n"
			 "drm-client-id:\t%llu\ndrm-engine-render:\t%llu ns\n"
			 "drm-engine-copy:\t0 ns\ndrm-engine-video:\t%llu ns\n"
			 "drm-engine-capacity-video:\t2\n"
			 "drm-engine-video-enhance:\t0 ns\n"
			 "drm-total-system0:\t%llu KiB\ndrm-resident-system0:\t%llu KiB\n",
			 gen, fd, id, t, t / 2, t, t);
		break;
	case 1:
		snprintf(buf, size,
			 "%sino:\t%d\npasid:\t32770\ndrm-driver:\tamdgpu\n"
			 "drm-pdev:\t0000:03:00.0\ndrm-client-id:\t%llu\n"
			 "drm-memory-vram:\t%llu KiB\ndrm-memory-gtt: \t2048 KiB\n"
			 "drm-memory-cpu: \t0 KiB\ndrm-engine-gfx:\t%llu ns\n"
			 "drm-engine-compute:\t%llu ns\ndrm-engine-dma:\t17 ns\n",
			 gen, fd, id, t, t, t / 3);
		break;
	case 2:
		snprintf(buf, size,
			 "%sino:\t%d\ndrm-driver:\txe\ndrm-client-id:\t%llu\n"
			 "drm-pdev:\t0000:04:00.0\ndrm-total-system:\t0\n"
			 "drm-resident-system:\t0\ndrm-total-vram0:\t%llu KiB\n"
			 "drm-resident-vram0:\t%llu KiB\ndrm-cycles-rcs:\t%llu\n"
			 "drm-total-cycles-rcs:\t%llu\ndrm-cycles-bcs:\t0\n"
			 "drm-total-cycles-bcs:\t%llu\ndrm-cycles-ccs:\t%llu\n"
			 "drm-total-cycles-ccs:\t%llu\ndrm-engine-capacity-ccs:\t4\n",
			 gen, fd, id, t, t, t, t * 9, t * 9, t, t * 9);
		break;
	case 3:
		snprintf(buf, size,
			 "%sino:\t%d\ndrm-driver:\tmsm\ndrm-client-id:\t%llu\n"
			 "drm-engine-gpu:\t%llu ns\ndrm-cycles-gpu:\t%llu\n"
			 "drm-maxfreq-gpu:\t710000000 Hz\n"
			 "drm-total-memory:\t%llu KiB\ndrm-resident-memory:\t%llu KiB\n",
			 gen, fd, id, t, t * 7, t, t);
		break;
	default:
		snprintf(buf, size,
			 "%sino:\t%d\ndrm-driver:\tpanfrost\ndrm-client-id:\t%llu\n"
			 "drm-engine-fragment:\t%llu ns\ndrm-cycles-fragment:\t%llu\n"
			 "drm-maxfreq-fragment:\t800000000 Hz\n"
			 "drm-curfreq-fragment:\t800000000 Hz\n"
			 "drm-engine-vertex-tiler:\t%llu ns\n"
			 "drm-cycles-vertex-tiler:\t%llu\n"
			 "drm-maxfreq-vertex-tiler:\t800000000 Hz\n"
			 "drm-curfreq-vertex-tiler:\t800000000 Hz\n"
			 "drm-total-memory:\t%llu KiB\ndrm-shared-memory:\t0 MiB\n"
			 "drm-resident-memory:\t%llu KiB\n",
			 gen, fd, id, t, t, t / 4, t / 4, t, t);
		break;
	}
}

/* PROCS processes under @root; @real: std fds and PID/fd links too. */
static void make_tree(const char *root, int real)
{
	char path[512], text[2048];
	int pid, fd;

	for (pid = 1000; pid < 1000 + PROCS; pid++) {
		snprintf(path, sizeof(path), "%s/%d", root, pid);
		if (mkdir(path, 0755))
			die(path);
		snprintf(path, sizeof(path), "%s/%d/fdinfo", root, pid);
		if (mkdir(path, 0755))
			die(path);
		snprintf(path, sizeof(path), "%s/%d/comm", root, pid);
		snprintf(text, sizeof(text), "app%d\n", pid);
		put(path, text);
		if (real) {
			snprintf(path, sizeof(path), "%s/%d/fd", root, pid);
			if (mkdir(path, 0755))
				die(path);
		}
		for (fd = real ? 0 : 3; fd < 3 + FDS; fd++) {
			snprintf(path, sizeof(path), "%s/%d/fdinfo/%d", root,
				 pid, fd);
			if (fd < 3)
				snprintf(text, sizeof(text),
					 "pos:\t0\nflags:\t02\nmnt_id:\t26\nino:\t%d\n",
					 fd);
			else
				fdinfo_text(text, sizeof(text), pid,
					    (fd - 3) / 2, fd);
			put(path, text);
			if (!real)
				continue;
			snprintf(path, sizeof(path), "%s/%d/fd/%d", root, pid, fd);
			if (symlink(fd < 3 ? "/dev/pts/0" :
				    fd % 2 ? "/dev/dri/renderD128" :
					     "/dev/dri/card0", path))
				die(path);
		}
	}
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* The median ms of opening, reading and closing each file a scan reads. */
static double time_floor(const char *root)
{
	char path[64], buf[4096];
	double ms[ROUNDS], t;
	int dir, pid, fd, f, i;

	dir = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		die(root);
	for (i = 0; i < ROUNDS; i++) {
		t = now_us();
		for (pid = 1000; pid < 1000 + PROCS; pid++) {
			for (fd = 2; fd < 3 + FDS; fd++) {
				if (fd == 2)
					snprintf(path, sizeof(path), "%d/comm", pid);
				else
					snprintf(path, sizeof(path), "%d/fdinfo/%d",
						 pid, fd);
				f = openat(dir, path, O_RDONLY | O_CLOEXEC);
				if (f < 0 || read(f, buf, sizeof(buf)) <= 0)
					die(path);
				close(f);
			}
		}
		ms[i] = (now_us() - t) / 1e3;
	}
	close(dir);
	return median(ms, ROUNDS);
}

/* The median ms of ROUNDS scans after a first; checks what was found. */
static double time_scans(const char *root)
{
	struct gpu_clients s;
	double ms[ROUNDS], t;
	int i;

	if (gpu_clients_init(&s, root))
		die("gpu_clients_init");
	if (gpu_clients_scan(&s, 0))
		die("gpu_clients_scan");
	for (i = 0; i < ROUNDS; i++) {
		t = now_us();
		if (gpu_clients_scan(&s, 0))
			die("gpu_clients_scan");
		ms[i] = (now_us() - t) / 1e3;
	}
	if (s.nr_clients != PROCS * 2 || s.stats.drm_fds != PROCS * FDS ||
	    s.nr_devices != 5) {
		fprintf(stderr, "top_scan_bench: found %u clients, %llu DRM fds, "
			"%u devices\n", s.nr_clients,
			(unsigned long long)s.stats.drm_fds, s.nr_devices);
		exit(1);
	}
	gpu_clients_free(&s);
	return median(ms, ROUNDS);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	char fake[4096], real[4200];
	double ms, ms_floor, ms_real;
	struct rlimit rl;

	/* As perf gpu top does: the scan holds files open between scans. */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}

	if (!access("/dev/shm", W_OK))
		tmp = "/dev/shm";
	snprintf(fake, sizeof(fake), "%s/top_scan_bench.XXXXXX",
		 tmp ? tmp : "/tmp");
	if (!mkdtemp(fake))
		die("mkdtemp");
	snprintf(real, sizeof(real), "%s/real", fake);
	if (mkdir(real, 0755))
		die(real);
	make_tree(fake, 0);
	make_tree(real, 1);
	ms = time_scans(fake);
	ms_floor = time_floor(fake);
	ms_real = time_scans(real);
	nftw(fake, rm_one, 64, FTW_DEPTH | FTW_PHYS);
	printf("BENCH top_scan_vs_syscall_floor %.2f ratio (scan %.2f ms / "
	       "open, read, close of the same %d files %.2f ms, aim <= 1.2)\n",
	       ms / ms_floor, ms, PROCS * (FDS + 1), ms_floor);
	printf("# with 3 more fds per process and PID/fd links (as in /proc): "
	       "%.2f ms\n", ms_real);
	printf("# intel_gpu_top and nvtop scan only with a GPU of theirs: "
	       "none here, no ratio\n");
	return 0;
}
