// SPDX-License-Identifier: GPL-2.0-only
/*
 * OA decoding speed: the shared decoder parsing a recording in memory
 * and summing every pair of reports' deltas, on one core; the same on
 * the file mapped (as perf gpu report maps a recording, and as IGT's
 * i915-perf-reader maps its own) against i915-perf-reader on it (when
 * installed), and read 64 KiB a call (as perf gpu record reads an OA
 * file), with the floors under each way of reading; and, with --ingest,
 * the module taking the same stream through /dev/gpuprof/oa against the
 * userspace rate (run that in the test VM, where the module can be
 * loaded; the reader is not run there).  The module does then what it
 * does for a user: profiling on (time mode), a target bound to each of
 * the simulator's two contexts, so every report of a context is placed,
 * attributed and summed into its target (the idle ones are looked up
 * among running jobs and go to no one).
 *
 * The reader is a process of its own: --startup TINY times it on a
 * recording of a few reports, its start-up, and says which share of its
 * time on RECORDING that is; the ratio compares decoding only when the
 * share is small (the aim: under 5 %, so make bench's recording is
 * large).
 *
 *   oa_decode_bench RECORDING [--ingest] [--startup TINY]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/bench.h"
#include "../lib/gpuprof.h"
#include "../lib/kmod.h"
#include "../../module/oa_decode.h"
#include "../../tools/perf-gpu/oa/sim.h"

#define ROUNDS 5

struct sum {
	struct gpuprof_oa_deltas d;
	const void *prev;
	uint8_t prev_copy[GPUPROF_OA_REPORT_MAX];
	__u64 reports;
};

/*
 * Where @payload can be read later: in place, or, for a record assembled
 * in the parser's buffer (which the next one overwrites), in @copy.
 */
static const void *keep_report(const struct gpuprof_oa_stream *s,
			       const void *payload, uint8_t *copy)
{
	if ((const uint8_t *)payload >= s->buf &&
	    (const uint8_t *)payload < s->buf + GPUPROF_OA_RECORD_MAX) {
		memcpy(copy, payload, s->layout.size);
		return copy;
	}
	return payload;
}

/*
 * Files are read as perf gpu record's ingest reads them
 * (record/oa-ingest.c): CHUNK bytes a read(2), each fed to the stream,
 * so a report kept for the next pair must leave @chunk before it is
 * read over.
 */
#define CHUNK 65536

static void keep_out_of(const void **kept, uint8_t *copy,
			const uint8_t *chunk, size_t size)
{
	const uint8_t *p = *kept;

	if (p && p >= chunk && p < chunk + CHUNK) {
		memcpy(copy, p, size);
		*kept = copy;
	}
}

static void on_record(void *arg, const struct gpuprof_oa_stream *s,
		      const struct gpuprof_oa_record_header *h,
		      const void *payload)
{
	struct sum *sum = arg;
	struct gpuprof_oa_report r;

	if (h->type != GPUPROF_OA_RECORD_SAMPLE)
		return;
	gpuprof_oa_report_header(&s->layout, payload, &r);
	if (sum->prev)
		gpuprof_oa_accumulate(&s->layout, sum->prev, payload, &sum->d);
	sum->prev = keep_report(s, payload, sum->prev_copy);
	sum->reports++;
}

/* Seconds to decode @len bytes; the reports in *@reports, sums in *@d. */
static double decode(const uint8_t *data, size_t len, __u64 *reports,
		     struct gpuprof_oa_deltas *d)
{
	static uint8_t buf[GPUPROF_OA_RECORD_MAX];
	struct gpuprof_oa_stream s;
	struct sum *sum = calloc(1, sizeof(*sum));
	double t = now_us();

	gpuprof_oa_stream_init(&s, buf);
	if (gpuprof_oa_stream_feed(&s, data, len, on_record, sum))
		*reports = 0;
	else
		*reports = sum->reports;
	t = (now_us() - t) / 1e6;
	*d = sum->d;
	free(sum);
	return t;
}

/*
 * i915-perf-reader's job on a recording, done with our decoder: each
 * report's context id read, and the counters accumulated once per run of
 * one context (its first report to the next context's first), not for
 * every pair.  The peer for a ratio of equal work.
 */
struct segments {
	struct gpuprof_oa_deltas d;
	const void *first;
	uint8_t first_copy[GPUPROF_OA_REPORT_MAX];
	__u32 ctx_id;
	__u64 segments;
};

static void on_record_segments(void *arg, const struct gpuprof_oa_stream *s,
			       const struct gpuprof_oa_record_header *h,
			       const void *payload)
{
	struct segments *g = arg;
	struct gpuprof_oa_report r;

	if (h->type != GPUPROF_OA_RECORD_SAMPLE)
		return;
	gpuprof_oa_report_header(&s->layout, payload, &r);
	if (g->first && r.ctx_id == g->ctx_id)
		return;
	if (g->first) {
		memset(&g->d, 0, sizeof(g->d));
		gpuprof_oa_accumulate(&s->layout, g->first, payload, &g->d);
		g->segments++;
	}
	g->ctx_id = r.ctx_id;
	g->first = keep_report(s, payload, g->first_copy);
}

/*
 * @path mapped read-only, as perfdata/read.c maps a recording; its size
 * in *@len.  NULL on failure (or for an empty file).
 */
static uint8_t *map_file(const char *path, size_t *len)
{
	struct stat st;
	void *map;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !st.st_size) {
		close(fd);
		return NULL;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return NULL;
	*len = st.st_size;
	return map;
}

/* Map @path and feed it whole to a stream that calls @fn.  0, or -1. */
static int feed_mapped(const char *path, gpuprof_oa_record_fn fn, void *arg)
{
	static uint8_t buf[GPUPROF_OA_RECORD_MAX];
	struct gpuprof_oa_stream s;
	uint8_t *map;
	size_t len;
	int err;

	map = map_file(path, &len);
	if (!map)
		return -1;
	gpuprof_oa_stream_init(&s, buf);
	err = gpuprof_oa_stream_feed(&s, map, len, fn, arg);
	munmap(map, len);
	return err;
}

/* Seconds to map @path and do the reader's job; the segments in *@n. */
static double segments_from_file(const char *path, __u64 *n)
{
	struct segments *g = calloc(1, sizeof(*g));
	double t = now_us();

	if (!g)
		return -1;
	*n = feed_mapped(path, on_record_segments, g) ? 0 : g->segments;
	free(g);
	return (now_us() - t) / 1e6;
}

/*
 * Seconds to map @path and read one word of every 256 bytes (a report's
 * worth), without decoding: the floor under any reader that maps the
 * file, as i915-perf-reader does.
 */
static double touch_file(const char *path)
{
	double t = now_us();
	volatile uint32_t sink = 0;
	uint8_t *map;
	size_t len, off;

	map = map_file(path, &len);
	if (!map)
		return -1;
	for (off = 0; off + 4 <= len; off += 256)
		sink += *(const uint32_t *)(map + off);
	munmap(map, len);
	(void)sink;
	return (now_us() - t) / 1e6;
}

/* The same for a reader of CHUNK bytes a read(2), as ours is. */
static double touch_read(const char *path)
{
	static uint8_t chunk[CHUNK];
	double t = now_us();
	volatile uint32_t sink = 0;
	ssize_t got, off;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while ((got = read(fd, chunk, CHUNK)) > 0)
		for (off = 0; off + 4 <= got; off += 256)
			sink += *(const uint32_t *)(chunk + off);
	close(fd);
	(void)sink;
	return (now_us() - t) / 1e6;
}

/*
 * Seconds to map @path and decode it, records used where they lie, as
 * perf gpu report reads a recording; the reports in *@reports and the
 * sums in *@d.
 */
static double mapped_file(const char *path, __u64 *reports,
			  struct gpuprof_oa_deltas *d)
{
	struct sum *sum = calloc(1, sizeof(*sum));
	double t = now_us();

	if (!sum)
		return -1;
	*reports = feed_mapped(path, on_record, sum) ? 0 : sum->reports;
	t = (now_us() - t) / 1e6;
	*d = sum->d;
	free(sum);
	return t;
}

/*
 * Seconds to read @path and decode it, as perf gpu record's ingest
 * reads an OA file; the reports in *@reports and the sums in *@d.
 */
static double chunked_file(const char *path, __u64 *reports,
			struct gpuprof_oa_deltas *d)
{
	static uint8_t buf[GPUPROF_OA_RECORD_MAX], chunk[CHUNK];
	struct gpuprof_oa_stream s;
	struct sum *sum = calloc(1, sizeof(*sum));
	double t = now_us();
	int fd = open(path, O_RDONLY);
	ssize_t got;
	int err = 0;

	if (!sum || fd < 0)
		return -1;
	gpuprof_oa_stream_init(&s, buf);
	while (!err && (got = read(fd, chunk, CHUNK)) > 0) {
		err = gpuprof_oa_stream_feed(&s, chunk, got, on_record, sum);
		keep_out_of(&sum->prev, sum->prev_copy, chunk, s.layout.size);
	}
	close(fd);
	t = (now_us() - t) / 1e6;
	*reports = err ? 0 : sum->reports;
	*d = sum->d;
	free(sum);
	return t;
}

/*
 * Profiling on, with one target bound to each simulated context; their
 * ids in @ids.  0, or -1.
 */
static int ingest_targets(int ids[2])
{
	char path[64], bind[32];
	int k;

	if (ctl("module oa_bench_a oa_bench_b\n") || ctl("start\n"))
		return -1;
	for (k = 0; k < 2; k++) {
		ids[k] = find_target(k ? "oa_bench_b" : "oa_bench_a");
		if (ids[k] < 0)
			return -1;
		snprintf(path, sizeof(path), GP "/%d/pctl", ids[k]);
		snprintf(bind, sizeof(bind), "ctxid %x\n", OA_SIM_CTX(k));
		if (write_file(path, bind))
			return -1;
	}
	return 0;
}

/* Seconds for the module to take @len bytes through /dev/gpuprof/oa. */
static double ingest(const uint8_t *data, size_t len)
{
	double t = now_us();
	size_t off = 0;
	ssize_t n;
	int fd = open("/dev/gpuprof/oa", O_WRONLY);

	if (fd < 0)
		return -1;
	while (off < len && (n = write(fd, data + off, len - off)) > 0)
		off += n;
	close(fd);
	return off == len ? (now_us() - t) / 1e6 : -1;
}

/* Seconds i915-perf-reader takes over @path, or -1. */
static double igt_reader(const char *path)
{
	double t;
	pid_t pid;
	int st;

	if (access("/usr/bin/i915-perf-reader", X_OK))
		return -1;
	t = now_us();
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execl("/usr/bin/i915-perf-reader", "i915-perf-reader", path,
		      (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return -1;
	return (now_us() - t) / 1e6;
}

int main(int argc, char **argv)
{
	double decoded[ROUNDS], ours[ROUNDS], theirs[ROUNDS], mod[ROUNDS], rate;
	double startup[ROUNDS], seg[ROUNDS], touch[ROUNDS], touch_r[ROUNDS];
	double ours_r[ROUNDS];
	struct gpuprof_oa_deltas in_memory, from_map, from_read;
	__u64 map_reports = 0, read_reports = 0;
	__u64 nr_segments = 0;
	long long placed = 0;
	int ids[2];
	const char *tiny = NULL;
	bool with_ingest = false;
	__u64 reports = 0;
	struct stat st;
	uint8_t *data;
	off_t off;
	ssize_t got = 0;
	int fd, r, n_igt = 0, n_startup = 0;

	for (r = 2; r < argc; r++) {
		if (!strcmp(argv[r], "--ingest"))
			with_ingest = true;
		else if (!strcmp(argv[r], "--startup") && r + 1 < argc)
			tiny = argv[++r];
		else
			argc = 0;	/* usage */
	}
	if (argc < 2 || (fd = open(argv[1], O_RDONLY)) < 0 || fstat(fd, &st))
		return fprintf(stderr, "usage: oa_decode_bench RECORDING [--ingest] [--startup TINY]\n"), 1;
	/*
	 * The recording as a reader finds it once it was read from disk:
	 * its pages written back, dropped, and read back below.  Just
	 * written by the simulator's 4 KiB writes, the page cache holds it
	 * in pages of 4 KiB, and mapping it (ours, i915-perf-reader's)
	 * cost up to eight times as much as once read back in large ones:
	 * which state the file was in made the ratio (design.rst 9).
	 */
	if (fdatasync(fd) || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))
		return fprintf(stderr, "cannot drop %s from the page cache: %s\n",
			       argv[1], strerror(errno)), 1;
	/*
	 * In memory: a copy, in anonymous memory kept out of the reader's
	 * fork (MADV_DONTFORK): copying its page tables for each fork was
	 * a tenth of a second, counted as the reader's start-up.
	 */
	data = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (data == MAP_FAILED || madvise(data, st.st_size, MADV_DONTFORK))
		return fprintf(stderr, "cannot map %lld bytes\n",
			       (long long)st.st_size), 1;
	/* One read(2) gives at most 2 GiB. */
	for (off = 0; off < st.st_size; off += got)
		if ((got = read(fd, data + off, st.st_size - off)) <= 0)
			break;
	if (off != st.st_size)
		return fprintf(stderr, "cannot read %s\n", argv[1]), 1;
	close(fd);

	for (r = 0; r < ROUNDS; r++) {
		/* Decoding alone: the stream in memory. */
		decoded[r] = decode(data, st.st_size, &reports, &in_memory);
		/* The whole job from the file, mapped as the reader maps it. */
		ours[r] = mapped_file(argv[1], &map_reports, &from_map);
		ours_r[r] = chunked_file(argv[1], &read_reports, &from_read);
		seg[r] = segments_from_file(argv[1], &nr_segments);
		touch[r] = touch_file(argv[1]);
		touch_r[r] = touch_read(argv[1]);
		/*
		 * Not beside --ingest, run in the test VM: an emulated CPU
		 * without AVX2 says nothing of the host's decoding against
		 * the reader, and its figures would bear the host's names.
		 */
		theirs[r] = with_ingest ? -1 : igt_reader(argv[1]);
		if (theirs[r] > 0)
			n_igt++;
		if (tiny && !with_ingest) {
			startup[r] = igt_reader(tiny);
			if (startup[r] > 0)
				n_startup++;
		}
		if (with_ingest) {
			if (gpuprof_load(NULL) && errno != EEXIST)
				return fprintf(stderr, "cannot load gpuprof\n"), 1;
			if (ingest_targets(ids))
				return fprintf(stderr, "cannot make the targets\n"), 1;
			mod[r] = ingest(data, st.st_size);
			placed = oa_counter(ids[0], "reports") +
				 oa_counter(ids[1], "reports");
			ctl("stop\n");
			gpuprof_unload();
		}
	}
	if (!reports)
		return fprintf(stderr, "%s does not decode\n", argv[1]), 1;
	/* Mapped, or read a chunk at a time, it must sum as it does whole. */
	if (map_reports != reports ||
	    memcmp(&in_memory, &from_map, sizeof(in_memory)))
		return fprintf(stderr, "%s mapped: %llu reports, other sums than the %llu in memory\n",
			       argv[1], (unsigned long long)map_reports,
			       (unsigned long long)reports), 1;
	if (read_reports != reports ||
	    memcmp(&in_memory, &from_read, sizeof(in_memory)))
		return fprintf(stderr, "%s read a chunk at a time: %llu reports, other sums than the %llu in memory\n",
			       argv[1], (unsigned long long)read_reports,
			       (unsigned long long)reports), 1;
	rate = reports / median(decoded, ROUNDS);
	printf("BENCH oa_decode_reports_per_s %.0f reports/s (%llu reports, aim > 10e6)\n",
	       rate, (unsigned long long)reports);
	if (n_igt == ROUNDS) {
		printf("BENCH oa_decode_time_vs_igt_reader %.3f ratio (the file mapped, every pair summed: ours %.4f s / i915-perf-reader %.4f s on %.0f MB, aim <= 0.5)\n",
		       median(ours, ROUNDS) / median(theirs, ROUNDS),
		       median(ours, ROUNDS), median(theirs, ROUNDS),
		       st.st_size / 1e6);
		printf("BENCH oa_decode_read_time_vs_igt_reader %.3f ratio (the same read %d KiB a call: ours %.4f s / i915-perf-reader %.4f s)\n",
		       median(ours_r, ROUNDS) / median(theirs, ROUNDS),
		       CHUNK / 1024, median(ours_r, ROUNDS),
		       median(theirs, ROUNDS));
		printf("BENCH oa_segments_time_vs_igt_reader %.3f ratio (the reader's own job, %llu context runs accumulated: ours %.4f s / i915-perf-reader %.4f s)\n",
		       median(seg, ROUNDS) / median(theirs, ROUNDS),
		       (unsigned long long)nr_segments, median(seg, ROUNDS),
		       median(theirs, ROUNDS));
		printf("# the floors, a word of each report read: the file mapped %.4f s, %.3f of i915-perf-reader's time; read %d KiB a call %.4f s, %.3f\n",
		       median(touch, ROUNDS),
		       median(touch, ROUNDS) / median(theirs, ROUNDS),
		       CHUNK / 1024, median(touch_r, ROUNDS),
		       median(touch_r, ROUNDS) / median(theirs, ROUNDS));
		if (n_startup == ROUNDS)
			printf("# i915-perf-reader start-up (on %s) %.4f s: %.1f %% of its time here (%s 5 %%)\n",
			       tiny, median(startup, ROUNDS),
			       100 * median(startup, ROUNDS) /
			       median(theirs, ROUNDS),
			       median(startup, ROUNDS) <
			       0.05 * median(theirs, ROUNDS) ?
			       "under" : "NOT under: the ratio counts start-up; over");
	} else
		printf("# i915-perf-reader not run (%s)\n",
		       with_ingest ? "beside --ingest" : "not installed, or it failed");
	if (with_ingest) {
		printf("BENCH oa_module_ingest_vs_userspace %.3f ratio (module %.0f reports/s / userspace %.0f, aim > 0.5)\n",
		       reports / median(mod, ROUNDS) / rate,
		       reports / median(mod, ROUNDS), rate);
		printf("# the module gave %lld of the %llu reports to the two bound targets (the rest idle)\n",
		       placed, (unsigned long long)reports);
	}
	munmap(data, st.st_size);
	return 0;
}
