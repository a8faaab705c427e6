// SPDX-License-Identifier: GPL-2.0-only
/*
 * What profiling costs GPU clients: the rate of vgem fence attach +
 * signal loops, one process per CPU at once, with gpuprof loaded but
 * idle, with coverage profiling and with time profiling running (every
 * process then being a target of its own, so every job is accounted),
 * and under the peer, the distribution's perf record -a -e 'dma_fence:*'
 * tracing the same events into a file.  Rounds alternate idle, profiled
 * and traced so drift on a noisy machine hits all alike; medians of the
 * rounds are compared.  Runs in the test VM.
 */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/bench.h"
#include "../lib/gpuprof.h"
#include "../lib/kmod.h"
#include "../lib/vgem.h"

#define ROUNDS 11
#define JOBS 10000
#define MAX_PROCS 8

/* One client on @cpu: JOBS attach + signal pairs once @go opens. */
static int client(int cpu, int ready, int go)
{
	uint32_t handle = 0;
	uint64_t size;
	cpu_set_t set;
	char c = 0;
	int fd, i, f;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	fd = vgem_open();
	if (fd < 0 || vgem_bo_create(fd, 64, 64, &handle, &size))
		return 1;
	if (write(ready, &c, 1) != 1 || read(go, &c, 1) != 0)
		return 1;
	for (i = 0; i < JOBS; i++) {
		f = vgem_fence_attach(fd, handle);
		if (f < 0 || vgem_fence_signal(fd, f))
			return 1;
	}
	return 0;
}

/*
 * What one CLOCK_MONOTONIC read costs here, in ns: the probes read the
 * clock once per job, and a VM whose clocksource is the HPET (TCG marks
 * the TSC unstable) pays an emulated device read for each.
 */
static double clock_read_ns(void)
{
	struct timespec ts;
	double t = now_us();
	int i;

	for (i = 0; i < 100000; i++)
		clock_gettime(CLOCK_MONOTONIC, &ts);
	return (now_us() - t) * 1e3 / 100000;
}

/* Jobs per second of @n clients at once, or -1. */
static double fence_rate(int n)
{
	int ready[2], go[2], i, status, bad = 0;
	pid_t pid[MAX_PROCS];
	double t;
	char c;

	if (pipe(ready) || pipe(go))
		return -1;
	for (i = 0; i < n; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			close(ready[0]);
			close(go[1]);
			_exit(client(i, ready[1], go[0]));
		}
	}
	close(ready[1]);
	close(go[0]);
	for (i = 0; i < n; i++)
		if (read(ready[0], &c, 1) != 1)
			bad = 1;
	t = now_us();
	close(go[1]);		/* all start */
	for (i = 0; i < n; i++)
		if (pid[i] < 0 || waitpid(pid[i], &status, 0) < 0 ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			bad = 1;
	t = now_us() - t;
	close(ready[0]);
	return bad ? -1 : (double)n * JOBS / (t / 1e6);
}

#define PERF_DATA "/tmp/probe_overhead_bench.data"

/*
 * Stock perf recording every dma_fence event system-wide, started and
 * given time to open its events.  Its pid, or -1.
 */
static pid_t perf_record_start(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		execlp("perf", "perf", "record", "-q", "-a", "-e", "dma_fence:*",
		       "-o", PERF_DATA, NULL);
		_exit(127);
	}
	if (pid > 0)
		bench_wait_perf_ready(pid);
	return pid;
}

/*
 * Stop it as Ctrl-C would: 0 when it ended as perf record does then,
 * raising SIGINT again once its file is written.
 */
static int perf_record_stop(pid_t pid)
{
	int status;

	if (pid <= 0 || kill(pid, SIGINT) || waitpid(pid, &status, 0) != pid)
		return -1;
	unlink(PERF_DATA);
	if ((WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) ||
	    (WIFEXITED(status) && !WEXITSTATUS(status)))
		return 0;
	fprintf(stderr, "perf record: status %#x\n", status);
	return -1;
}

int main(void)
{
	static const char *const modes[] = { "startcp\n", "start\n" };
	double idle[2][ROUNDS], prof[2][ROUNDS], perf[ROUNDS], mi, mp;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	pid_t pid;
	int r, m;

	if (n < 1 || n > MAX_PROCS)
		n = n < 1 ? 1 : MAX_PROCS;
	if (gpuprof_load(NULL))
		return fprintf(stderr, "cannot load gpuprof\n"), 1;
	if (fence_rate(n) < 0)	/* warm up, and is vgem there? */
		return fprintf(stderr, "no vgem\n"), 1;
	for (r = 0; r < ROUNDS; r++) {
		for (m = 0; m < 2; m++) {
			idle[m][r] = fence_rate(n);
			if (ctl(modes[m]))
				return fprintf(stderr, "%s failed\n", modes[m]), 1;
			prof[m][r] = fence_rate(n);
			ctl("stop\n");
			/* The targets of this round's clients go. */
			ctl("end\n");
			if (idle[m][r] < 0 || prof[m][r] < 0)
				return fprintf(stderr, "a client failed\n"), 1;
		}
		pid = perf_record_start();
		perf[r] = fence_rate(n);
		if (perf_record_stop(pid) || perf[r] < 0)
			return fprintf(stderr, "perf record -a -e 'dma_fence:*' failed\n"), 1;
	}
	gpuprof_unload();
	printf("# one clock_gettime(CLOCK_MONOTONIC): %.0f ns\n",
	       clock_read_ns());
	for (m = 0; m < 2; m++) {
		const char *name = m ? "start" : "startcp";

		mi = median(idle[m], ROUNDS);
		mp = median(prof[m], ROUNDS);
		printf("BENCH vgem_jobs_per_s_idle_%s %.0f jobs/s (%ld clients)\n",
		       name, mi, n);
		printf("BENCH vgem_jobs_per_s_%s %.0f jobs/s (%ld clients)\n",
		       name, mp, n);
		printf("BENCH probe_overhead_ratio_%s %.3f ratio (%s / idle, aim >= 0.95)\n",
		       name, mp / mi, name);
	}
	mp = median(prof[1], ROUNDS);
	printf("BENCH vgem_jobs_per_s_perf_record %.0f jobs/s (%ld clients, perf record -a -e 'dma_fence:*')\n",
	       median(perf, ROUNDS), n);
	printf("BENCH probe_overhead_vs_perf_record %.3f ratio (start / perf record, aim >= 1.0)\n",
	       mp / median(perf, ROUNDS));
	return 0;
}
