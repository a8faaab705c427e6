// SPDX-License-Identifier: GPL-2.0-only
/*
 * A long perf gpu record -a of a fence storm (gpuwork: vgem attach +
 * signal pairs, as fast as it can): the recorder's resident set read
 * from /proc every second must stay flat once the first minute is over,
 * since the file is streamed round by round.  Then (--check, run where
 * it is fast: make bench runs it on the host, the file being on a
 * directory the VM shares) stock perf script reads the file, whose
 * records must come in time order, and perf gpu report must count as
 * many jobs as perf script shows fences signalled.
 *
 *   record_soak_bench PERF_GPU GPUWORK SECONDS FILE	(in the VM)
 *   record_soak_bench --check PERF_GPU FILE
 *
 * A storm of 600 s writes some 2 GB: in the test VM, whose /tmp is in
 * its 2 GB of RAM, FILE must be on a shared host directory.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/bench.h"
#include "../lib/run.h"


/* VmRSS of @pid in MB, or -1 once it is gone. */
static double rss_mb(pid_t pid)
{
	char path[64], line[128];
	double kb = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %lf kB", &kb) == 1)
			break;
	fclose(f);
	return kb < 0 ? -1 : kb / 1024;
}

/* Until the recorder has written its file's start: its events are open. */
static int wait_started(pid_t pid, const char *data)
{
	struct stat st;
	int i;

	for (i = 0; i < 1200; i++) {
		if (!stat(data, &st) && st.st_size > 0)
			return 0;
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return -1;
		usleep(100000);
	}
	return -1;
}

/* Stock perf script and perf gpu report over the file. */
static int check(const char *perf_gpu, const char *data)
{
	long signals = 0, back = 0, lines = 0, jobs;
	char out[4096];
	struct stat st;

	/* The signals, and any record older than the one before it. */
	if (run_cmd(out, sizeof(out),
		    "perf script -i %s -F time,event 2>/dev/null | awk '{ t = $1 + 0; if (t < last) back++; last = t; n++ } / dma_fence:dma_fence_signaled:/ { s++ } END { print n + 0, s + 0, back + 0 }'",
		    data) ||
	    sscanf(out, "%ld %ld %ld", &lines, &signals, &back) != 3)
		return fprintf(stderr, "perf script: %s\n", out), 1;
	if (run_cmd(out, sizeof(out),
		    "%s report -i %s --format=json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"totals\"][\"jobs\"])'",
		    perf_gpu, data))
		return fprintf(stderr, "perf gpu report: %s\n", out), 1;
	jobs = atol(out);
	if (stat(data, &st))
		return fprintf(stderr, "%s: gone\n", data), 1;
	printf("BENCH record_soak_events %ld events (%.0f MB written)\n",
	       lines, st.st_size / 1e6);
	printf("BENCH record_soak_out_of_order %ld records (stock perf script, aim 0)\n",
	       back);
	printf("BENCH record_soak_jobs_vs_perf_script_signals %.4f ratio (perf gpu report %ld jobs / perf script %ld dma_fence_signaled, aim 1)\n",
	       signals ? (double)jobs / signals : 0, jobs, signals);
	unlink(data);
	return 0;
}

int main(int argc, char **argv)
{
	long seconds = argc > 3 ? atol(argv[3]) : 0, i;
	char *rec[] = { argv[1], "record", "-a", "-o", argv[4], NULL };
	char *storm[] = { argv[2], "-n", "storm", "fences", "1000000000", NULL };
	double *rss, at_minute, max_after = 0, peak = 0;
	const char *data = argv[4];
	pid_t r, s;
	int status;

	if (argc == 4 && !strcmp(argv[1], "--check"))
		return check(argv[2], argv[3]);
	if (argc != 5 || seconds < 120)
		return fprintf(stderr, "usage: record_soak_bench PERF_GPU GPUWORK SECONDS(>= 120) FILE\n"
				       "       record_soak_bench --check PERF_GPU FILE\n"), 1;
	rss = calloc(seconds + 1, sizeof(*rss));
	unlink(data);
	r = bench_spawn_quiet(rec);
	if (!rss || r < 0 || wait_started(r, data))
		return fprintf(stderr, "perf gpu record did not start\n"), 1;
	s = bench_spawn_quiet(storm);
	for (i = 0; i <= seconds; i++) {
		rss[i] = rss_mb(r);
		if (rss[i] < 0)
			return fprintf(stderr, "perf gpu record ended after %ld s\n", i), 1;
		if (rss[i] > peak)
			peak = rss[i];
		if (i > 60 && rss[i] > max_after)
			max_after = rss[i];
		if (i < seconds)
			sleep(1);
	}
	kill(s, SIGKILL);
	waitpid(s, NULL, 0);
	sleep(1);		/* the recorder drains what is left */
	kill(r, SIGINT);
	if (waitpid(r, &status, 0) != r || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return fprintf(stderr, "perf gpu record failed (status %d)\n", status), 1;

	at_minute = rss[60];
	printf("# %ld s of perf gpu record -a of a fence storm\n", seconds);
	printf("BENCH record_soak_peak_rss_mb %.1f MB (aim <= 64)\n", peak);
	printf("BENCH record_soak_rss_growth_ratio %.3f ratio (largest resident set after the first minute %.1f MB / at 1 min %.1f MB, aim <= 1.1)\n",
	       max_after / at_minute, max_after, at_minute);
	printf("# resident set, MB, every 60 s:");
	for (i = 0; i <= seconds; i += 60)
		printf(" %.1f", rss[i]);
	printf("\n");
	free(rss);
	return 0;
}
