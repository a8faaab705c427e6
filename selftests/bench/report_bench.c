// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu report on a synthetic recording, against stock perf report
 * on the same file (design.rst 9): events per second, the peak RSS (from
 * wait4's rusage) at N events and at N/10, whose ratio says whether
 * memory grows with the events (it should not: the report keeps
 * per-client and per-timeline state and latency sketches), and the time
 * against perf report --stdio.  Then perf gpu convert --to-perfetto on
 * the same files: its CPU time (user and system, from wait4: on a shared
 * machine, wall time says more of the others than of us) against
 * report's (aim at most 2), and its peak RSS at N and N/10 (flat: it
 * holds what lies between the oldest job in flight and the present,
 * perfetto/sorter.h).
 *
 * The recording is written with the perf.data writer of tools/perf-gpu:
 * 8 clients submitting jobs (dma_fence_init in the client, then
 * dma_fence_signaled from interrupt context, pid 0) round-robin on 4
 * timelines with 4 jobs in flight, a vblank every 16.7 ms, and a
 * gpu_oa:oa_report every 100 us carrying a format 10 report whose
 * counters move.  N (default 10,000,000, or $GPUPROF_REPORT_BENCH_EVENTS)
 * counts the samples.  No root, no VM.
 *
 *   report_bench PERF_GPU
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/bench.h"
#include "../lib/gpu_formats.h"
#include "../../tools/perf-gpu/perfdata/write.h"
#include "../../tools/perf-gpu/perfdata/tracing-data.h"

#define CLIENTS		8
#define TIMELINES	4
#define STEP_NS		5000		/* one job submitted every 5 us */
#define JOB_NS		17000		/* ... and signaled 17 us later */
#define OA_EVERY	20		/* steps: one OA report per 100 us */
#define VBLANK_NS	16666667	/* 60 Hz */
#define START_NS	1000000000ull

enum { EV_INIT, EV_SIGNAL, EV_VBLANK, EV_OA, NR_EV };

static const char *const timeline_names[TIMELINES] = {
	"gt0:rcs0", "gt0:bcs0", "gt0:vcs0", "gt0:vecs0",
};

struct gen {
	struct perf_data_writer *w;
	struct gpu_synth_ids ids;
	uint64_t written, target;
	uint8_t report[256];
	uint8_t buf[512];
};

static int sample(struct gen *g, unsigned int ev, int32_t pid, uint32_t cpu,
		  uint64_t time, size_t len)
{
	struct perf_data_sample s = {
		.event = ev, .pid = pid, .tid = pid, .cpu = cpu, .time = time,
		.raw = g->buf, .raw_size = len,
	};

	if (g->written == g->target)
		return 0;
	g->written++;
	return perf_data_write_sample(g->w, &s);
}

static void put32(uint8_t *r, unsigned int off, uint32_t v)
{
	memcpy(r + off, &v, 4);
}

/*
 * The @nth OA report, format 10 (A32u40_A4u32_B8_C8) as gen9 writes it:
 * reason TIMER and a valid context at dword 0, then the low 32 bits of
 * the 19.2 MHz timestamp, the context id, the GPU clock (1.2 GHz); A0..
 * A31 40 bits (low halves from byte 16, high bytes from 160), A32..A35
 * from 144, B from 192, C from 224, all moving by a few units a report.
 */
static void oa_report(uint8_t *r, uint64_t nth, uint64_t ts, uint32_t ctx)
{
	uint64_t a;
	int i;

	put32(r, 0, 1u << 19 | 1u << 16);
	put32(r, 4, (uint32_t)ts);
	put32(r, 8, ctx);
	put32(r, 12, (uint32_t)(nth * 120000));
	for (i = 0; i < 32; i++) {
		a = nth * (i + 1) * 37;
		put32(r, 16 + i * 4, (uint32_t)a);
		r[160 + i] = (uint8_t)(a >> 32);
	}
	for (i = 0; i < 4; i++)
		put32(r, 144 + i * 4, (uint32_t)(nth * (i + 3)));
	for (i = 0; i < 8; i++) {
		put32(r, 192 + i * 4, (uint32_t)(nth * (i + 5)));
		put32(r, 224 + i * 4, (uint32_t)(nth * (i + 7)));
	}
}

/* Job @k: on timeline k % 4, from client (k / 4) % 8. */
static int32_t job_pid(uint64_t k)
{
	return 1000 + (k / TIMELINES) % CLIENTS;
}

static int fence(struct gen *g, unsigned int ev, int32_t pid, uint64_t k,
		 uint64_t time)
{
	unsigned int tl = k % TIMELINES;
	size_t len;

	if (ev == EV_INIT)
		len = fence_init_payload(g->buf, pid, "i915", timeline_names[tl],
					 tl + 1, k / TIMELINES + 1);
	else
		len = fence_payload(g->buf, pid, "i915", timeline_names[tl],
				    tl + 1, k / TIMELINES + 1);
	return sample(g, ev, pid, tl % 2, time, len);
}

/* One step: job k submitted, job k-3 signaled, maybe OA and a vblank. */
static int step(struct gen *g, uint64_t k, uint64_t *next_vblank,
		uint32_t *vblank_seq)
{
	uint64_t t = START_NS + k * STEP_NS;
	int err;

	err = fence(g, EV_INIT, job_pid(k), k, t);
	if (!err && k >= 3)
		err = fence(g, EV_SIGNAL, 0, k - 3, t - 3 * STEP_NS + JOB_NS);
	if (!err && k % OA_EVERY == 0) {
		uint64_t ts = (t + 3000) * 12 / 625;	/* 19.2 MHz ticks */
		ssize_t len;

		oa_report(g->report, k / OA_EVERY, ts, 0x100 + (k / 4) % 8);
		len = gpu_oa_report_payload(g->buf, sizeof(g->buf),
					    g->ids.oa_report, job_pid(k), ts,
					    0x100 + (k / 4) % 8, 1, g->report,
					    sizeof(g->report));
		err = len < 0 ? (int)len : sample(g, EV_OA, job_pid(k), 0,
						    t + 3000, len);
	}
	if (!err && t + 4000 >= *next_vblank) {
		err = sample(g, EV_VBLANK, 0, 1, t + 4000,
			     vblank_payload(g->buf, 0, 0, (*vblank_seq)++,
					    t + 4000));
		*next_vblank += VBLANK_NS;
	}
	return err;
}

/* A recording of @n samples at @path. */
static int generate(const char *path, uint64_t n)
{
	struct gen *g = calloc(1, sizeof(*g));
	struct perf_data_event events[NR_EV];
	uint64_t k, next_vblank = START_NS;
	uint32_t vblank_seq = 1;
	void *tracing;
	size_t len;
	int err = 0, c;

	if (!g)
		return -ENOMEM;
	tracing = gpu_tracing_data(&g->ids, &len);
	if (!tracing) {
		free(g);
		return -ENOMEM;
	}
	events[EV_INIT] = (struct perf_data_event){ "dma_fence:dma_fence_init", FENCE_INIT_ID };
	events[EV_SIGNAL] = (struct perf_data_event){ "dma_fence:dma_fence_signaled", FENCE_ID };
	events[EV_VBLANK] = (struct perf_data_event){ "drm:drm_vblank_event", VBLANK_ID };
	events[EV_OA] = (struct perf_data_event){ "gpu_oa:oa_report", g->ids.oa_report };
	g->w = perf_data_create(path, events, NR_EV);
	if (!g->w) {
		err = -errno;
		goto out;
	}
	err = perf_data_set_tracing_data(g->w, tracing, len);
	for (c = 0; c < CLIENTS && !err; c++) {
		char comm[16];

		snprintf(comm, sizeof(comm), "client%d", c);
		err = perf_data_write_comm(g->w, 1000 + c, 1000 + c, comm,
					   START_NS);
	}
	g->target = n;
	for (k = 0; !err && g->written < n; k++)
		err = step(g, k, &next_vblank, &vblank_seq);
	if (err)
		perf_data_abort(g->w);
	else
		err = perf_data_close(g->w);
out:
	free(tracing);
	free(g);
	return err;
}

struct run {
	double secs;
	double cpu_secs;	/* user and system */
	double rss_mb;
};

/* Run @argv, output to /dev/null; its wall time and peak RSS. */
static int measure(char *const argv[], struct run *r)
{
	struct rusage ru;
	double t = now_us();
	pid_t pid;
	int st;

	pid = bench_spawn_quiet(argv);
	if (pid < 0)
		return -1;
	if (wait4(pid, &st, 0, &ru) != pid)
		return -1;
	r->secs = (now_us() - t) / 1e6;
	r->cpu_secs = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
		      (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	r->rss_mb = ru.ru_maxrss / 1024.0;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "# %s %s: exit status %d\n", argv[0], argv[1],
			WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
		return -1;
	}
	return 0;
}

static int ours(const char *perf_gpu, char *path, struct run *r)
{
	char *argv[] = { (char *)perf_gpu, "report", "-i", path,
			 "--format=json", NULL };

	return measure(argv, r);
}

static int convert(const char *perf_gpu, char *path, struct run *r)
{
	char out[300];
	char *argv[] = { (char *)perf_gpu, "convert", "--to-perfetto", "-i",
			 path, "-o", out, NULL };
	int ret;

	snprintf(out, sizeof(out), "%s.pftrace", path);
	ret = measure(argv, r);
	unlink(out);
	return ret;
}

static int theirs(char *path, struct run *r)
{
	const char *perf = getenv("GPUPROF_PERF");
	char *argv[] = { (char *)(perf ? perf : "/usr/bin/perf"), "report",
			 "--stdio", "-i", path, NULL };

	return measure(argv, r);
}

static int bench(const char *perf_gpu, const char *dir, uint64_t n)
{
	char big[256], small[256];
	struct run a, a10, b, cv, cv10;
	double t;
	int err;

	snprintf(big, sizeof(big), "%s/n.data", dir);
	snprintf(small, sizeof(small), "%s/n10.data", dir);
	t = now_us();
	err = generate(big, n) ?: generate(small, n / 10);
	if (err) {
		fprintf(stderr, "report_bench: writing %s: %s\n", dir,
			strerror(-err));
		return 1;
	}
	printf("# %llu and %llu events written in %.1f s\n",
	       (unsigned long long)n, (unsigned long long)(n / 10),
	       (now_us() - t) / 1e6);
	if (ours(perf_gpu, big, &a) || ours(perf_gpu, small, &a10))
		return 1;
	printf("BENCH report_events_per_s %.0f events/s (%llu events in %.2f s, aim > 5e6)\n",
	       n / a.secs, (unsigned long long)n, a.secs);
	printf("BENCH report_peak_rss_mb %.1f MB (%llu events)\n", a.rss_mb,
	       (unsigned long long)n);
	printf("BENCH report_peak_rss_mb_n10 %.1f MB (%llu events)\n",
	       a10.rss_mb, (unsigned long long)(n / 10));
	printf("BENCH report_peak_rss_ratio_n_vs_n10 %.2f ratio (aim: about 1, flat in the event count)\n",
	       a.rss_mb / a10.rss_mb);
	if (convert(perf_gpu, big, &cv) || convert(perf_gpu, small, &cv10))
		return 1;
	printf("BENCH convert_time_vs_report %.3f ratio (CPU %.2f s / %.2f s; wall %.2f s / %.2f s; aim <= 2)\n",
	       cv.cpu_secs / a.cpu_secs, cv.cpu_secs, a.cpu_secs, cv.secs,
	       a.secs);
	printf("BENCH convert_peak_rss_mb %.1f MB (%llu events; %.1f MB at %llu)\n",
	       cv.rss_mb, (unsigned long long)n, cv10.rss_mb,
	       (unsigned long long)(n / 10));
	printf("BENCH convert_peak_rss_ratio_n_vs_n10 %.2f ratio (aim: about 1, flat in the event count)\n",
	       cv.rss_mb / cv10.rss_mb);
	if (theirs(big, &b))
		return 1;
	printf("BENCH report_time_vs_perf_report %.3f ratio (%.2f s / %.2f s; perf report peak RSS %.1f MB)\n",
	       a.secs / b.secs, a.secs, b.secs, b.rss_mb);
	return 0;
}

int main(int argc, char **argv)
{
	const char *env = getenv("GPUPROF_REPORT_BENCH_EVENTS");
	uint64_t n = env ? strtoull(env, NULL, 0) : 10000000;
	char dir[] = "/tmp/report_bench.XXXXXX", cmd[64];
	int ret;

	if (argc != 2)
		return fprintf(stderr, "usage: report_bench PERF_GPU\n"), 1;
	if (n < 100)
		return fprintf(stderr, "report_bench: at least 100 events\n"), 1;
	if (!mkdtemp(dir))
		return perror("report_bench: mkdtemp"), 1;
	ret = bench(argv[1], dir, n);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "report_bench: could not remove %s\n", dir);
	return ret;
}
