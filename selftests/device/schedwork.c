// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedwork: jobs on the schedmock test module's drm_sched ring for the
 * device tests, run as a process of its own so it can be named.
 *
 *   schedwork [-n COMM] STEP...
 *
 * Steps run in order:
 *   fd N                    later jobs go to open file N (0 to 15; 0 at
 *                           first), opened at its first job: one
 *                           drm_sched entity per file
 *   job MS                  a job of MS milliseconds
 *   job MS after K          ... waiting for job K of the current file
 *   job MS afterfd F K      ... waiting for job K of file F, through that
 *                           job's out fence as the in fence
 *   sleep MS
 *   wait                    until every job so far has signalled
 *   vgem                    a vgem fence, not signalled yet (one at a time)
 *   job MS aftervgem        a job waiting for that vgem fence
 *   vgemsignal              signal it; its time is printed at the end
 *   deferred                later jobs are armed and pushed by a kernel
 *                           worker (SCHEDMOCK_SUBMIT_DEFERRED)
 *   name NAME               DRM_IOCTL_SET_CLIENT_NAME on the current file;
 *                           prints "name ok" or "name refused ERRNO"
 *   mark PATH               create the file PATH (another process awaits)
 *   await PATH              until the file PATH exists (at most 10 s)
 *   stream MS JOB_MS        for MS milliseconds, jobs of JOB_MS on the
 *                           current file, at most 8 in flight; prints
 *                           "stream N" (the jobs submitted, all waited
 *                           for) before the job lines
 *
 * At the end, one line per job in submission order:
 *   job ID fd N submitted_ns SUBMIT signaled_ns SIGNAL
 * on CLOCK_MONOTONIC: SUBMIT read just before the submit ioctl, SIGNAL the
 * finished fence's own timestamp, 0 for a job no "wait" saw signalled;
 * then one line per vgemsignal step, in order:
 *   vgemsignal returned_ns NS
 * NS read just after the signal ioctl returned.
 * -n sets the process name first.  Exit 0, or 1 with one line on stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/sync_file.h>

#include "../lib/vgem.h"
#include "../lib/schedmock.h"

#define MAX_FILES 16
#define MAX_JOBS 512

struct job {
	int file;
	unsigned int id;
	int fence_fd;
	uint64_t submitted_ns, signaled_ns;
};

static int files[MAX_FILES];
static struct job jobs[MAX_JOBS];
static int njobs;

__attribute__((format(printf, 1, 2), noreturn))
static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("schedwork: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* A whole non-negative number, or die naming @what. */
static unsigned long number(const char *s, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s ? s : "", &end, 10);
	if (!s || !*s || *end || errno || *s == '-')
		die("%s: not a number: '%s'", what, s ? s : "");
	return v;
}

static int file_fd(int file)
{
	if (files[file] < 0) {
		files[file] = schedmock_open(O_RDWR | O_CLOEXEC);
		if (files[file] < 0)
			die("open schedmock's render node: %s", strerror(errno));
	}
	return files[file];
}

static struct job *find_job(int file, unsigned long id)
{
	for (int i = 0; i < njobs; i++)
		if (jobs[i].file == file && jobs[i].id == id)
			return &jobs[i];
	die("fd %d has no job %lu", file, id);
}

static unsigned int submit_flags;

static void submit(int file, unsigned long ms, unsigned long after,
		   int in_fence_fd)
{
	struct schedmock_submit s = {
		.duration_ns = ms * 1000000ull,
		.in_fence_fd = in_fence_fd,
		.after = after,
		.flags = submit_flags,
	};
	struct job *j;
	int fd = file_fd(file);

	if (njobs == MAX_JOBS)
		die("more than %d jobs", MAX_JOBS);
	j = &jobs[njobs];
	j->submitted_ns = now_ns();
	if (ioctl(fd, SCHEDMOCK_IOCTL_SUBMIT, &s))
		die("submit on fd %d: %s", file, strerror(errno));
	j->file = file;
	j->id = s.id;
	j->fence_fd = s.out_fence_fd;
	j->signaled_ns = 0;
	njobs++;
}

/*
 * DRM_IOCTL_SET_CLIENT_NAME (DRM_IOWR(0xD1, struct drm_set_client_name)
 * in the kernel's drm.h, from 6.14; Debian's 6.12 refuses it): the name
 * the current file's client goes by in fdinfo's drm-client-name.
 */
struct set_client_name {
	uint64_t name_len;
	uint64_t name;
};

static void set_client_name(int file, const char *name)
{
	struct set_client_name arg = {
		.name_len = strlen(name),
		.name = (uintptr_t)name,
	};

	if (ioctl(file_fd(file), _IOWR('d', 0xD1, struct set_client_name), &arg))
		printf("name refused %d\n", errno);
	else
		printf("name ok\n");
	fflush(stdout);
}

/* The finished fence's signal time, or 0 if it has not signalled. */
static uint64_t signal_time(int fence_fd)
{
	struct sync_fence_info fence = {};
	struct sync_file_info info = {
		.num_fences = 1,
		.sync_fence_info = (uintptr_t)&fence,
	};

	if (ioctl(fence_fd, SYNC_IOC_FILE_INFO, &info))
		die("sync file info: %s", strerror(errno));
	if (fence.status < 0)
		die("a job ended with error %d", fence.status);
	return fence.status ? fence.timestamp_ns : 0;
}

static void wait_all(void)
{
	struct pollfd pfd[MAX_JOBS];
	int idx[MAX_JOBS], n, i;

	for (;;) {
		n = 0;
		for (i = 0; i < njobs; i++) {
			if (jobs[i].signaled_ns)
				continue;
			pfd[n] = (struct pollfd){ jobs[i].fence_fd, POLLIN, 0 };
			idx[n++] = i;
		}
		if (!n)
			return;
		if (poll(pfd, n, -1) < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		for (i = 0; i < n; i++)
			if (pfd[i].revents & POLLIN)
				jobs[idx[i]].signaled_ns =
					signal_time(jobs[idx[i]].fence_fd);
	}
}

static void sleep_ms(unsigned long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

/* The vgem fence of "vgem" steps: its card, buffer, id and sync_file. */
static struct {
	int card;
	uint32_t handle;
	int fence;
	int sync_fd;
	unsigned int nsignals;
	uint64_t returned_ns[MAX_JOBS];	/* after each signal ioctl */
} vgem = { .card = -1, .fence = -1, .sync_fd = -1 };

static void vgem_fence_new(void)
{
	uint64_t size;
	int err;

	if (vgem.sync_fd >= 0)
		die("vgem: one vgem fence at a time");
	if (vgem.card < 0) {
		vgem.card = vgem_open();
		if (vgem.card < 0)
			die("vgem: %s", strerror(-vgem.card));
		err = vgem_bo_create(vgem.card, 64, 64, &vgem.handle, &size);
		if (err)
			die("vgem: create: %s", strerror(-err));
	}
	vgem.fence = vgem_fence_attach(vgem.card, vgem.handle);
	if (vgem.fence < 0)
		die("vgem: attach: %s", strerror(-vgem.fence));
	vgem.sync_fd = vgem_sync_file(vgem.card, vgem.handle);
	if (vgem.sync_fd < 0)
		die("vgem: sync_file: %s", strerror(-vgem.sync_fd));
}

static void vgem_fence_end(void)
{
	int err;

	if (vgem.sync_fd < 0)
		die("vgemsignal: no vgem fence");
	err = vgem_fence_signal(vgem.card, vgem.fence);
	if (err)
		die("vgemsignal: %s", strerror(-err));
	if (vgem.nsignals < MAX_JOBS)
		vgem.returned_ns[vgem.nsignals++] = now_ns();
	close(vgem.sync_fd);
	vgem.sync_fd = -1;
}

static void mark(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		die("mark %s: %s", path, strerror(errno));
	close(fd);
}

static void await(const char *path)
{
	for (int ms = 0; access(path, F_OK); ms++) {
		if (ms == 10000)
			die("await %s: not there after 10 s", path);
		sleep_ms(1);
	}
}

static void wait_fence(int fence_fd)
{
	struct pollfd pfd = { fence_fd, POLLIN, 0 };

	while (poll(&pfd, 1, -1) < 0)
		if (errno != EINTR)
			die("poll: %s", strerror(errno));
	signal_time(fence_fd);	/* dies on a job ended in error */
	close(fence_fd);
}

/*
 * Jobs back to back for @ms, none kept in jobs[]: a stream of thousands
 * needs no table, only its count.
 */
static unsigned long stream(int file, unsigned long ms, unsigned long job_ms)
{
	int inflight[8], head = 0, n = 0;
	uint64_t end = now_ns() + ms * 1000000ull;
	unsigned long count = 0;
	int fd = file_fd(file);

	while (now_ns() < end) {
		struct schedmock_submit s = {
			.duration_ns = job_ms * 1000000ull,
			.in_fence_fd = -1,
		};

		if (n == 8) {
			wait_fence(inflight[head]);
			head = (head + 1) % 8;
			n--;
		}
		if (ioctl(fd, SCHEDMOCK_IOCTL_SUBMIT, &s))
			die("submit on fd %d: %s", file, strerror(errno));
		inflight[(head + n++) % 8] = s.out_fence_fd;
		count++;
	}
	for (; n; n--, head = (head + 1) % 8)
		wait_fence(inflight[head]);
	return count;
}

int main(int argc, char **argv)
{
	unsigned long streamed = 0;
	bool streaming = false;
	int file = 0, i = 1;

	if (argc > 2 && !strcmp(argv[1], "-n")) {
		prctl(PR_SET_NAME, argv[2]);
		i = 3;
	}
	if (i == argc)
		die("usage: schedwork [-n COMM] STEP... (fd N, job MS [after K | afterfd F K | aftervgem], vgem, vgemsignal, sleep MS, wait, mark PATH, await PATH, stream MS JOB_MS)");
	for (int f = 0; f < MAX_FILES; f++)
		files[f] = -1;

	while (i < argc) {
		const char *step = argv[i++];

		if (!strcmp(step, "fd")) {
			file = number(argv[i++], "fd");
			if (file >= MAX_FILES)
				die("fd %d: at most %d files", file, MAX_FILES);
		} else if (!strcmp(step, "job")) {
			unsigned long ms = number(argv[i++], "job");

			if (i < argc && !strcmp(argv[i], "after")) {
				submit(file, ms, number(argv[i + 1], "after"), -1);
				i += 2;
			} else if (i < argc && !strcmp(argv[i], "afterfd")) {
				unsigned long f = number(argv[i + 1], "afterfd");
				unsigned long k = number(i + 2 < argc ? argv[i + 2] : NULL,
							 "afterfd");

				if (f >= MAX_FILES)
					die("afterfd %lu: at most %d files", f, MAX_FILES);
				submit(file, ms, 0, find_job(f, k)->fence_fd);
				i += 3;
			} else if (i < argc && !strcmp(argv[i], "aftervgem")) {
				if (vgem.sync_fd < 0)
					die("aftervgem: no vgem fence");
				submit(file, ms, 0, vgem.sync_fd);
				i++;
			} else {
				submit(file, ms, 0, -1);
			}
		} else if (!strcmp(step, "deferred")) {
			submit_flags |= SCHEDMOCK_SUBMIT_DEFERRED;
		} else if (!strcmp(step, "name") && i < argc) {
			set_client_name(file, argv[i++]);
		} else if (!strcmp(step, "sleep")) {
			sleep_ms(number(argv[i++], "sleep"));
		} else if (!strcmp(step, "wait")) {
			wait_all();
		} else if (!strcmp(step, "vgem")) {
			vgem_fence_new();
		} else if (!strcmp(step, "vgemsignal")) {
			vgem_fence_end();
		} else if (!strcmp(step, "mark") && i < argc) {
			mark(argv[i++]);
		} else if (!strcmp(step, "await") && i < argc) {
			await(argv[i++]);
		} else if (!strcmp(step, "stream") && i + 1 < argc) {
			unsigned long ms = number(argv[i++], "stream");

			streamed += stream(file, ms, number(argv[i++], "stream"));
			streaming = true;
		} else {
			die("unknown step '%s'", step);
		}
	}

	if (streaming)
		printf("stream %lu\n", streamed);
	for (i = 0; i < njobs; i++)
		printf("job %u fd %d submitted_ns %llu signaled_ns %llu\n",
		       jobs[i].id, jobs[i].file,
		       (unsigned long long)jobs[i].submitted_ns,
		       (unsigned long long)jobs[i].signaled_ns);
	for (i = 0; i < (int)vgem.nsignals; i++)
		printf("vgemsignal returned_ns %llu\n",
		       (unsigned long long)vgem.returned_ns[i]);
	return fflush(stdout) ? 1 : 0;
}
