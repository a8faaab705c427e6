// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof-oa: OA recordings in the i915-perf-recorder format.
 *
 *   gpuprof-oa --sim [--seed N] [--period NS] [--duration S]
 *              [--contexts N] [--loss-every N] [--buffer-loss-every N]
 *              [--start-ns NS] [-v] [-o FILE]
 *
 * --sim writes what the simulator (oa-sim.h) makes of a schedule drawn
 * from the seed; "cat FILE > /dev/gpuprof/oa" replays it into the module.
 * A --device mode reading a real i915-perf stream belongs beside
 * run_sim(), taking the same output handling.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <subcmd/exec-cmd.h>
#include "options.h"

#include "oa-sim.h"

#define PROG "gpuprof-oa"
#ifndef PERF_GPU_PREFIX
#define PERF_GPU_PREFIX "/usr/local"
#endif
#define NSEC 1000000000ull
/* A typo in --period or --duration should not fill the disk. */
#define MAX_REPORTS 100000000ull
#define MAX_DURATION_S 1000000ull

struct sim_opts {
	uint64_t seed;
	uint64_t period_ns;
	uint64_t duration_ns;
	unsigned int contexts;
	unsigned int loss_every;
	unsigned int buffer_loss_every;
	uint64_t start_ns;	/* CLOCK_MONOTONIC of the stream's start, 0: seed's */
	bool verbose;
};

/* A decimal number up to @max; prints the one-line error itself. */
static int parse_u64(const char *opt, const char *arg, uint64_t max,
		     uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end || errno || *v > max) {
		fprintf(stderr, PROG ": --%s: '%s' is not a number from 0 to %llu\n",
			opt, arg, (unsigned long long)max);
		return -1;
	}
	return 0;
}

static int parse_uint(const char *opt, const char *arg, unsigned int max,
		      unsigned int *v)
{
	uint64_t x;

	if (parse_u64(opt, arg, max, &x))
		return -1;
	*v = x;
	return 0;
}

/* Seconds with up to nine decimals ("2", "0.25") to ns, exactly. */
static int parse_seconds(const char *opt, const char *arg, uint64_t *ns)
{
	const char *p = arg;
	uint64_t whole = 0, frac = 0, scale = NSEC;

	if (*p < '0' || *p > '9')
		goto bad;
	for (; *p >= '0' && *p <= '9'; p++) {
		whole = whole * 10 + (*p - '0');
		if (whole > MAX_DURATION_S)
			goto bad;
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (scale == 1)
				goto bad;
			scale /= 10;
			frac += (*p - '0') * scale;
		}
	}
	if (*p || whole * NSEC + frac > MAX_DURATION_S * NSEC)
		goto bad;
	*ns = whole * NSEC + frac;
	return 0;
bad:
	fprintf(stderr, PROG ": --%s: '%s' is not a duration in seconds (0 to %llu, at most 9 decimals)\n",
		opt, arg, (unsigned long long)MAX_DURATION_S);
	return -1;
}

/* The whole simulated recording into @w. */
static int run_sim(const struct sim_opts *o, struct oa_writer *w)
{
	struct oa_sim_config cfg = {
		.seed = o->seed,
		.period_ns = o->period_ns,
		.report_lost_every = o->loss_every,
		.buffer_lost_every = o->buffer_loss_every,
		.start_cpu_ns = o->start_ns,
	};
	struct oa_sim_interval *iv;
	struct oa_sim *s;
	size_t n;
	int ret = -1;

	s = malloc(sizeof(*s));
	if (!s)
		return -1;
	if (!oa_sim_schedule(o->seed, o->contexts, o->duration_ns,
			     o->period_ns, &iv, &n)) {
		if (!oa_sim_init(s, &cfg, w) &&
		    !oa_sim_run(s, o->duration_ns, iv, n) && !oa_sim_finish(s))
			ret = 0;
		if (o->verbose)
			fprintf(stderr, PROG ": exponent %u (%llu ns): %llu reports (%llu context switches), %llu busy intervals, %llu correlation points, %llu+%llu losses\n",
				s->exponent,
				(unsigned long long)oa_sim_exponent_to_ns(s->exponent, OA_SIM_TIMESTAMP_HZ),
				(unsigned long long)s->reports,
				(unsigned long long)s->switch_reports,
				(unsigned long long)n,
				(unsigned long long)s->correlations,
				(unsigned long long)s->report_lost,
				(unsigned long long)s->buffer_lost);
		free(iv);
	}
	free(s);
	return ret;
}

/* Refuse what would make an empty, unreadable or absurd recording. */
static int check_sim(const struct sim_opts *o)
{
	unsigned int e = oa_sim_exponent_for_period(o->period_ns,
						    OA_SIM_TIMESTAMP_HZ);
	uint64_t period = oa_sim_exponent_to_ns(e, OA_SIM_TIMESTAMP_HZ);

	if (!o->period_ns) {
		fprintf(stderr, PROG ": --period must be above 0 ns\n");
		return -1;
	}
	/* IGT's reader crashes on a recording without reports. */
	if (o->duration_ns < period + 1) {
		fprintf(stderr, PROG ": --duration is shorter than one report period (%llu ns): the recording would have no report\n",
			(unsigned long long)period);
		return -1;
	}
	if (o->duration_ns / period > MAX_REPORTS) {
		fprintf(stderr, PROG ": that is %llu reports, more than %llu: raise --period or lower --duration\n",
			(unsigned long long)(o->duration_ns / period),
			(unsigned long long)MAX_REPORTS);
		return -1;
	}
	return 0;
}

int main(int argc, const char **argv)
{
	const char *seed = NULL, *period = NULL, *duration = NULL;
	const char *contexts = NULL, *loss = NULL, *bloss = NULL, *start = NULL;
	const char *out = "-";
	bool sim = false;
	struct sim_opts o = {
		.seed = 1, .period_ns = 1000000, .duration_ns = NSEC,
		.contexts = 2,
	};
	const struct option options[] = {
		OPT_BOOLEAN(0, "sim", &sim, "write a simulated Tiger Lake recording"),
		OPT_STRING(0, "seed", &seed, "N", "simulator seed (default 1)"),
		OPT_STRING(0, "period", &period, "NS",
			   "report period, rounded to an OA exponent (default 1000000)"),
		OPT_STRING(0, "duration", &duration, "S",
			   "seconds of stream time (default 1)"),
		OPT_STRING(0, "contexts", &contexts, "N",
			   "contexts taking turns on the GPU, 0 for idle (default 2)"),
		OPT_STRING(0, "loss-every", &loss, "N",
			   "a REPORT_LOST record after every Nth report"),
		OPT_STRING(0, "buffer-loss-every", &bloss, "N",
			   "a BUFFER_LOST record after every Nth report"),
		OPT_STRING(0, "start-ns", &start, "NS",
			   "CLOCK_MONOTONIC ns at which the stream starts, so a replay lines up with this machine's jobs"),
		OPT_STRING('o', "output", &out, "FILE",
			   "where the recording goes, - for stdout (default)"),
		OPT_BOOLEAN('v', "verbose", &o.verbose,
			    "say what was written, on stderr"),
		OPT_END()
	};
	const char *const usage[] = {
		"gpuprof-oa --sim [--seed N] [--period NS] [--duration S] [--contexts N] [--loss-every N] [-o FILE]",
		NULL
	};
	struct oa_writer w;
	bool to_stdout, regular;
	struct stat st;
	FILE *f;
	int ret, err;

	exec_cmd_init(PROG, PERF_GPU_PREFIX, NULL, NULL);
	argc = parse_options(argc, argv, options, usage, 0);
	if (argc)
		usage_with_options(usage, options);
	/* A --device mode will open the i915-perf stream here instead and
	 * hand its records to the same writer: a run_device() beside
	 * run_sim(). */
	if (!sim) {
		fprintf(stderr, PROG ": no mode given: --sim is the only one so far\n");
		return 1;
	}
	if ((seed && parse_u64("seed", seed, UINT64_MAX, &o.seed)) ||
	    (period && parse_u64("period", period, UINT64_MAX, &o.period_ns)) ||
	    (duration && parse_seconds("duration", duration, &o.duration_ns)) ||
	    (contexts && parse_uint("contexts", contexts, OA_SIM_MAX_CONTEXTS,
				    &o.contexts)) ||
	    (loss && parse_uint("loss-every", loss, UINT32_MAX, &o.loss_every)) ||
	    (bloss && parse_uint("buffer-loss-every", bloss, UINT32_MAX,
				 &o.buffer_loss_every)) ||
	    (start && parse_u64("start-ns", start, UINT64_MAX / 2,
				&o.start_ns)) ||
	    check_sim(&o))
		return 1;

	to_stdout = !strcmp(out, "-");
	if (to_stdout && isatty(STDOUT_FILENO)) {
		fprintf(stderr, PROG ": not writing a binary recording to a terminal: give -o FILE or redirect\n");
		return 1;
	}
	f = to_stdout ? stdout : fopen(out, "wb");
	if (!f) {
		fprintf(stderr, PROG ": %s: %s\n", out, strerror(errno));
		return 1;
	}
	/* A failed recording is removed, but only from a regular file:
	 * -o /dev/full must not unlink the device. */
	regular = !to_stdout && !fstat(fileno(f), &st) && S_ISREG(st.st_mode);
	oa_writer_init(&w, f);
	errno = 0;
	ret = run_sim(&o, &w);
	err = w.error ? w.error : errno ? errno : EIO;
	if (!to_stdout && fclose(f) && !ret) {
		ret = -1;
		err = errno;
	}
	if (ret) {
		fprintf(stderr, PROG ": writing %s: %s\n",
			to_stdout ? "stdout" : out, strerror(err));
		if (regular)
			unlink(out);
		return 1;
	}
	return 0;
}
