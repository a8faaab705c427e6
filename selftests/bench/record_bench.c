// SPDX-License-Identifier: GPL-2.0-only
/*
 * Recording and printing costs against the distribution's perf, in the
 * same VM run on the same fence storm (gpuwork: N vgem attach + signal
 * pairs):
 *  - perf gpu record -a and perf record -a -e dma_fence:*, one after the
 *    other; the recorder's own CPU time (wait4's rusage: a system-wide
 *    recorder has no children) per event it wrote, as a ratio, start-up
 *    included (stock perf's reading of /proc and kallsyms weighs on short
 *    storms); our events per second over the storm; events lost by each;
 *    each recorder's peak resident set (wait4's ru_maxrss);
 *  - perf gpu script and perf script on the file perf gpu record wrote.
 *
 *   record_bench PERF_GPU GPUWORK [N]
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/bench.h"
#include "../lib/run.h"

struct result {
	double cpu_s;
	double rss_mb;		/* the recorder's peak resident set */
	double wall_s;
	long events;
	long lost;
};

static int record(char *const rec[], const char *gpuwork, const char *n,
		  const char *file, struct result *r)
{
	char out[256];
	struct rusage ru;
	pid_t pid;
	double t;
	int st;

	pid = bench_spawn_quiet(rec);
	bench_wait_perf_ready(pid);
	t = now_us();
	if (run_cmd(out, sizeof(out), "%s fences %s", gpuwork, n))
		return -1;
	r->wall_s = (now_us() - t) / 1e6;
	sleep(1);			/* the recorder drains what is left */
	kill(pid, SIGINT);
	if (wait4(pid, &st, 0, &ru) != pid)
		return -1;
	r->cpu_s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		   ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	r->rss_mb = ru.ru_maxrss / 1024.0;
	if (run_cmd(out, sizeof(out),
		    "perf script -i %s 2>/dev/null | grep -c ' dma_fence:'", file) > 1)
		return -1;
	r->events = atol(out);
	run_cmd(out, sizeof(out),
		"perf report --stdio -i %s 2>/dev/null | sed -n 's/.*Total Lost Samples: \\([0-9]*\\).*/\\1/p' | head -1",
		file);
	r->lost = atol(out);
	if (r->events <= 0)
		fprintf(stderr, "%s: no event recorded (recorder status %d)\n",
			file, st);
	return r->events > 0 ? 0 : -1;
}

/* Median seconds of three runs of a shell command. */
static double timed(const char *cmd)
{
	char out[64];
	double v[3], t;
	int i;

	for (i = 0; i < 3; i++) {
		t = now_us();
		if (run_cmd(out, sizeof(out), "%s", cmd))
			return -1;
		v[i] = (now_us() - t) / 1e6;
	}
	return median(v, 3);
}

int main(int argc, char **argv)
{
	const char *n = argc > 3 ? argv[3] : "10000";
	char *ours[] = { argv[1], "record", "-a", "-o", "/tmp/bench-gpu.data", NULL };
	char *theirs[] = { "perf", "record", "-a", "-q", "-e", "dma_fence:*",
			   "-o", "/tmp/bench-perf.data", NULL };
	char cmd[4096];
	struct result a, b;
	double sa, sb;

	if (argc < 3)
		return fprintf(stderr, "usage: record_bench PERF_GPU GPUWORK [N]\n"), 1;
	if (record(ours, argv[2], n, "/tmp/bench-gpu.data", &a) ||
	    record(theirs, argv[2], n, "/tmp/bench-perf.data", &b))
		return fprintf(stderr, "a recording failed\n"), 1;
	printf("BENCH record_events_per_s %.0f events/s (%ld events in a %.2f s storm)\n",
	       a.events / a.wall_s, a.events, a.wall_s);
	printf("BENCH record_lost_events %ld events (stock perf record: %ld)\n",
	       a.lost, b.lost);
	printf("BENCH record_peak_rss_mb %.1f MB at %ld events (stock perf record: %.1f MB)\n",
	       a.rss_mb, a.events, b.rss_mb);
	printf("BENCH record_cpu_per_event_vs_perf_record %.3f ratio (%.2f us / %.2f us per event, aim <= 1.0)\n",
	       (a.cpu_s / a.events) / (b.cpu_s / b.events),
	       a.cpu_s / a.events * 1e6, b.cpu_s / b.events * 1e6);

	snprintf(cmd, sizeof(cmd), "%s script -i /tmp/bench-gpu.data > /dev/null",
		 argv[1]);
	sa = timed(cmd);
	sb = timed("perf script -i /tmp/bench-gpu.data > /dev/null 2>&1");
	if (sa > 0 && sb > 0)
		printf("BENCH script_time_vs_perf_script %.3f ratio (%.3f s / %.3f s on %ld events, aim <= 1.0)\n",
		       sa / sb, sa, sb, a.events);
	return 0;
}
