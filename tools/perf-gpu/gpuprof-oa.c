// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof-oa: OA recordings in the i915-perf-recorder format.
 *
 *   gpuprof-oa --sim [--device-id ID] [--metric-set NAME] [--seed N]
 *                    [--period NS] [--duration S]
 *              [--contexts N] [--loss-every N] [--buffer-loss-every N]
 *              [--start-ns NS] [-v] [-o FILE]
 *   gpuprof-oa --device [--node PATH] [--oa-source i915|xe|sim]
 *              [--oa-unit N] [--metric-set NAME|UUID] [--period NS]
 *              [--duration S] [-v] [-o FILE]
 *
 * --sim writes what the simulator (oa/sim.h) makes of a schedule drawn
 * from the seed; "cat FILE > /dev/gpuprof/oa" replays it into the module.
 * --device records a live OA stream through the OA device (oa/device.h),
 * i915-perf's or xe's (the first i915 node is taken, else the first xe
 * one, unless --oa-source says which) or the simulator's, until
 * --duration has passed or SIGINT, SIGTERM or SIGHUP comes;
 * "-o /dev/gpuprof/oa" feeds the module live.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <subcmd/exec-cmd.h>
#include "util/options.h"

#include "../../module/oa_decode.h"
#include "oa/device.h"
#include "oa/metric-sets.h"
#include "oa/sim.h"
#include "util/debug.h"
#include "util/parse.h"

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
	uint32_t device_id;	/* the GPU played, OA_SIM_DEVICE_ID by default */
	const char *metric_set;	/* NULL: RenderBasic */
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
		pr_err("--%s: '%s' is not a number from 0 to %llu\n",
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

/* --start-ns: a CLOCK_MONOTONIC time in ns, or "now". */
static int parse_start(const char *arg, uint64_t *ns)
{
	struct timespec ts;

	if (strcmp(arg, "now"))
		return parse_u64("start-ns", arg, UINT64_MAX / 2, ns);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	*ns = ts.tv_sec * NSEC + ts.tv_nsec;
	return 0;
}

/* Seconds with up to nine decimals ("2", "0.25") to ns, exactly. */
static int parse_seconds(const char *opt, const char *arg, uint64_t *ns)
{
	if (!parse_seconds_ns(arg, MAX_DURATION_S, ns))
		return 0;
	pr_err("--%s: '%s' is not a duration in seconds (0 to %llu, at most 9 decimals)\n",
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
		.device_id = o->device_id,
		.metric_set = o->metric_set,
	};
	uint64_t hz = oa_sim_platform_of_device(o->device_id)->timestamp_hz;
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
			pr_err("exponent %u (%llu ns): %llu reports (%llu context switches), %llu busy intervals, %llu correlation points, %llu+%llu losses\n",
			       s->exponent,
			       (unsigned long long)oa_exponent_to_ns(s->exponent, hz),
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

/*
 * The GPU --sim plays: one whose OA the decoder knows (the module would
 * refuse any other), and a set of its metric file when one is named.
 */
static int parse_device_id(const char *arg, uint32_t *id)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 0);
	if (errno || end == arg || *end || v > 0xffff) {
		pr_err("--device-id: '%s' is not a PCI device id (0x9a49, say)\n",
		       arg);
		return -1;
	}
	if (!gpuprof_oa_platform_of_device(v)) {
		pr_err("--device-id: 0x%04lx is not an Intel GPU whose OA gpuprof knows\n",
		       v);
		return -1;
	}
	*id = v;
	return 0;
}

static int check_metric_set(const struct sim_opts *o)
{
	const struct gpuprof_oa_platform *g;
	const struct oa_metric_platform *p;

	g = gpuprof_oa_platform_of_device(o->device_id);
	p = g && g->metrics ? oa_metric_platform_find(g->metrics) : NULL;
	if (!p) {
		pr_err("--metric-set: IGT 1.27.1 has no metric sets for device 0x%04x\n",
		       o->device_id);
		return -1;
	}
	if (!oa_metric_set_find(p, o->metric_set)) {
		pr_err("--metric-set: %s is not a set of %s ('perf gpu list --device-id 0x%04x sets' names them)\n",
		       o->metric_set, p->name, o->device_id);
		return -1;
	}
	return 0;
}

/* Refuse what would make an empty, unreadable or absurd recording. */
static int check_sim(const struct sim_opts *o)
{
	uint64_t hz = oa_sim_platform_of_device(o->device_id)->timestamp_hz;
	unsigned int e = oa_exponent_for_period(o->period_ns, hz);
	uint64_t period = oa_exponent_to_ns(e, hz);

	if (!o->period_ns) {
		pr_err("--period must be above 0 ns\n");
		return -1;
	}
	/* IGT's reader crashes on a recording without reports. */
	if (o->duration_ns < period + 1) {
		pr_err("--duration is shorter than one report period (%llu ns): the recording would have no report\n",
		       (unsigned long long)period);
		return -1;
	}
	if (o->duration_ns / period > MAX_REPORTS) {
		pr_err("that is %llu reports, more than %llu: raise --period or lower --duration\n",
		       (unsigned long long)(o->duration_ns / period),
		       (unsigned long long)MAX_REPORTS);
		return -1;
	}
	return 0;
}

/*
 * --device: a live OA stream.  A correlation point comes at the
 * start, every half second (so never more than a second apart, whatever
 * the wake-up latency) and at the end, after the last read, so every
 * report lies between two points as IGT's reader wants.
 */
#define CORR_EVERY_NS (NSEC / 2)

struct dev_run {
	struct oa_device_config cfg;	/* --oa-source, --node, ... */
	uint64_t duration_ns;		/* 0: until a signal */
	bool verbose;
	struct oa_device dev;
	int sigfd;
	/* What was written. */
	uint64_t reports;
	uint64_t report_lost;
	uint64_t buffer_lost;
	uint64_t unknown;
	uint64_t correlations;
};

/* Setup failed with a message out, or writing failed (main says why). */
#define DEV_FAILED	-2

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

static void dev_teardown(struct dev_run *r)
{
	oa_device_close(&r->dev);
	if (r->sigfd >= 0)
		close(r->sigfd);
	r->sigfd = -1;
}

/*
 * The stop signals, blocked and read from a signalfd in the same poll()
 * as the stream, so one arriving between two checks is never missed.
 */
static int dev_signals(struct dev_run *r)
{
	sigset_t stop;

	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &stop, NULL) ||
	    (r->sigfd = signalfd(-1, &stop, SFD_CLOEXEC | SFD_NONBLOCK)) < 0) {
		pr_err("signalfd: %s\n", strerror(errno));
		return -1;
	}
	/* A closed reader shows as EPIPE from write(), not as a kill. */
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

/*
 * The device (oa/device.h), its metric set, the stop signals and the
 * stream, before any output exists: a refusal leaves no file behind.
 */
static int dev_setup(struct dev_run *r)
{
	r->sigfd = -1;
	if (oa_device_choose(&r->dev, &r->cfg))
		return -1;
	if (dev_signals(r) || oa_device_open(&r->dev)) {
		dev_teardown(r);
		return -1;
	}
	return 0;
}

/* Where dev_record() passes records on to. */
struct dev_sink {
	struct dev_run *r;
	struct oa_writer *w;
};

static void dev_record(void *arg, uint32_t type, const uint8_t *payload,
		       size_t len)
{
	struct dev_sink *x = arg;

	switch (type) {
	case GPUPROF_OA_RECORD_SAMPLE:
		/* The backend checked @len against the report size. */
		oa_write_sample(x->w, payload, len);
		x->r->reports++;
		break;
	case GPUPROF_OA_RECORD_REPORT_LOST:
		oa_write_report_lost(x->w);
		x->r->report_lost++;
		break;
	case GPUPROF_OA_RECORD_BUFFER_LOST:
		oa_write_buffer_lost(x->w);
		x->r->buffer_lost++;
		break;
	default:
		/* A record type newer than this tool: its size
		 * delimits it, and no reader would know it. */
		x->r->unknown++;
		break;
	}
}

/* Take what the stream has now; -1 when it failed (message out). */
static int dev_drain(struct dev_run *r, struct oa_writer *w)
{
	struct dev_sink x = { .r = r, .w = w };

	return oa_device_drain(&r->dev, dev_record, &x);
}

/* A write failure sticks in @w: the caller checks w->error. */
static int dev_correlate(struct dev_run *r, struct oa_writer *w)
{
	if (oa_device_correlate(&r->dev, w))
		return -1;
	r->correlations++;
	return 0;
}

/*
 * Record until the duration is over or a stop signal comes.  Return: 0;
 * -1 when writing failed (w->error says why); DEV_FAILED when the stream
 * or the clock failed, with the message out.  On a stream failure the
 * recording still gets its closing correlation point.
 */
static int run_device(struct dev_run *r, struct oa_writer *w)
{
	const struct oa_device *d = &r->dev;
	struct pollfd pfd[2] = {
		{ .fd = d->stream, .events = POLLIN },
		{ .fd = r->sigfd, .events = POLLIN },
	};
	uint64_t now, end, next_corr, wake;
	struct signalfd_siginfo si;
	bool stream_failed = false, clock_failed = false;
	int timeout, ret;

	oa_device_write_header(&r->dev, w);
	if (oa_writer_flush(w))
		goto out;
	if (dev_correlate(r, w)) {
		clock_failed = true;
		goto out;
	}
	now = mono_ns();
	end = r->duration_ns ? now + r->duration_ns : UINT64_MAX;
	next_corr = now + CORR_EVERY_NS;
	while (!w->error) {
		now = mono_ns();
		if (now >= end)
			break;
		if (now >= next_corr) {
			if (dev_correlate(r, w)) {
				clock_failed = true;
				break;
			}
			oa_writer_flush(w);
			next_corr = now + CORR_EVERY_NS;
		}
		wake = next_corr < end ? next_corr : end;
		timeout = (wake - now + 999999) / 1000000;
		ret = poll(pfd, 2, timeout);
		if (ret < 0 && errno != EINTR) {
			pr_err("poll: %s\n", strerror(errno));
			stream_failed = true;
			break;
		}
		if (ret > 0 && pfd[1].revents &&
		    read(r->sigfd, &si, sizeof(si)) == sizeof(si)) {
			if (r->verbose)
				pr_err("%s: stopping\n",
				       strsignal(si.ssi_signo));
			break;
		}
		if (ret > 0 && pfd[0].revents) {
			if (dev_drain(r, w)) {
				stream_failed = true;
				break;
			}
			oa_writer_flush(w);
		}
	}
	/* What is left, then the closing point after all of it. */
	if (!w->error && !stream_failed && dev_drain(r, w))
		stream_failed = true;
	if (!w->error && !clock_failed && dev_correlate(r, w))
		clock_failed = true;
	oa_writer_flush(w);
out:
	if (r->verbose)
		pr_err("%s: 0x%04x, %s (%s, id %llu), format %u, exponent %u (%llu ns): %llu reports, %llu correlation points, %llu REPORT_LOST and %llu BUFFER_LOST records, %llu records of unknown type\n",
		       d->node, d->device_id, d->set.name, d->set.uuid,
		       (unsigned long long)d->set.id, d->format, d->exponent,
		       (unsigned long long)d->period_ns,
		       (unsigned long long)r->reports,
		       (unsigned long long)r->correlations,
		       (unsigned long long)r->report_lost,
		       (unsigned long long)r->buffer_lost,
		       (unsigned long long)r->unknown);
	else if (r->report_lost || r->buffer_lost)
		pr_err("warning: %s lost reports: %llu REPORT_LOST and %llu BUFFER_LOST records (kept in the recording)\n",
		       d->ops->name, (unsigned long long)r->report_lost,
		       (unsigned long long)r->buffer_lost);
	if (w->error)
		return -1;
	return stream_failed || clock_failed ? DEV_FAILED : 0;
}

/* Each mode's own options, refused in the other. */
static int only_in(const char *mode, const char *const *names,
		   const char *const *vals, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (vals[i]) {
			pr_err("--%s is an option of %s only\n",
			       names[i], mode);
			return -1;
		}
	return 0;
}

int main(int argc, const char **argv)
{
	const char *seed = NULL, *period = NULL, *duration = NULL;
	const char *contexts = NULL, *loss = NULL, *bloss = NULL, *start = NULL;
	const char *node = NULL, *metric_set = NULL, *device_id = NULL;
	const char *source = NULL, *unit = NULL;
	const char *out = "-";
	bool sim = false, device = false, verbose = false;
	struct sim_opts o = {
		.seed = 1, .period_ns = 1000000, .duration_ns = NSEC,
		.contexts = 2, .device_id = OA_SIM_DEVICE_ID,
	};
	struct dev_run r = { .cfg.period_ns = 1000000, .sigfd = -1 };
	const struct option options[] = {
		OPT_BOOLEAN(0, "sim", &sim,
			    "write a simulated recording (a Tiger Lake GT2 unless --device-id)"),
		OPT_BOOLEAN(0, "device", &device,
			    "record the OA stream of an Intel GPU (i915-perf or xe)"),
		OPT_STRING(0, "node", &node, "PATH",
			   "--device: the render node (default: the first i915 one, else the first xe one)"),
		OPT_STRING(0, "oa-source", &source, "i915|xe|sim",
			   "--device: record from this driver only (sim: the simulator, live)"),
		OPT_STRING(0, "oa-unit", &unit, "N",
			   "--device, xe: the OA unit (default 0, the main GT's)"),
		OPT_STRING(0, "metric-set", &metric_set, "NAME|UUID",
			   "the metric set (default RenderBasic; --sim: a name)"),
		OPT_STRING(0, "device-id", &device_id, "ID",
			   "--sim: the PCI device id of the GPU played (default 0x9a49)"),
		OPT_STRING(0, "seed", &seed, "N", "simulator seed (default 1)"),
		OPT_STRING(0, "period", &period, "NS",
			   "report period, rounded to an OA exponent (default 1000000)"),
		OPT_STRING(0, "duration", &duration, "S",
			   "seconds of stream time (--sim default 1; --device: until a signal)"),
		OPT_STRING(0, "contexts", &contexts, "N",
			   "contexts taking turns on the GPU, 0 for idle (default 2)"),
		OPT_STRING(0, "loss-every", &loss, "N",
			   "a REPORT_LOST record after every Nth report"),
		OPT_STRING(0, "buffer-loss-every", &bloss, "N",
			   "a BUFFER_LOST record after every Nth report"),
		OPT_STRING(0, "start-ns", &start, "NS",
			   "CLOCK_MONOTONIC ns at which the stream starts, or now: a replay then lines up with this machine's jobs"),
		OPT_STRING('o', "output", &out, "FILE",
			   "where the recording goes, - for stdout (default); /dev/gpuprof/oa feeds the module"),
		OPT_BOOLEAN('v', "verbose", &verbose,
			    "say what was written, and the losses, on stderr"),
		OPT_END()
	};
	const char *const usage[] = {
		"gpuprof-oa --sim [--device-id ID] [--metric-set NAME] [--seed N] [--period NS] [--duration S] [--contexts N] [--loss-every N] [-o FILE]",
		"gpuprof-oa --device [--node PATH] [--oa-source i915|xe|sim] [--oa-unit N] [--metric-set NAME|UUID] [--period NS] [--duration S] [-v] [-o FILE]",
		NULL
	};
	static const char *const sim_names[] = {
		"seed", "contexts", "loss-every", "buffer-loss-every", "start-ns",
		"device-id",
	};
	static const char *const dev_names[] = { "node", "oa-source", "oa-unit" };
	const char *sim_vals[6], *dev_vals[3];	/* given, after parsing */
	struct oa_writer w;
	bool to_stdout, regular;
	struct stat st;
	FILE *f;
	int ret, err;

	debug_set_prog(PROG);
	exec_cmd_init(PROG, PERF_GPU_PREFIX, NULL, NULL);
	argc = parse_options(argc, argv, options, usage, 0);
	if (argc)
		usage_with_options(usage, options);
	sim_vals[0] = seed;
	sim_vals[1] = contexts;
	sim_vals[2] = loss;
	sim_vals[3] = bloss;
	sim_vals[4] = start;
	sim_vals[5] = device_id;
	dev_vals[0] = node;
	dev_vals[1] = source;
	dev_vals[2] = unit;
	if (sim == device) {
		pr_err(sim ? "--sim and --device are two modes: give one\n" :
		       "no mode given: --sim or --device\n");
		return 1;
	}
	o.verbose = r.verbose = verbose;
	o.metric_set = metric_set;
	if (sim &&
	    (only_in("--device", dev_names, dev_vals, 3) ||
	     (device_id && parse_device_id(device_id, &o.device_id)) ||
	     (metric_set && check_metric_set(&o)) ||
	     (seed && parse_u64("seed", seed, UINT64_MAX, &o.seed)) ||
	     (period && parse_u64("period", period, UINT64_MAX, &o.period_ns)) ||
	     (duration && parse_seconds("duration", duration, &o.duration_ns)) ||
	     (contexts && parse_uint("contexts", contexts, OA_SIM_MAX_CONTEXTS,
				     &o.contexts)) ||
	     (loss && parse_uint("loss-every", loss, UINT32_MAX, &o.loss_every)) ||
	     (bloss && parse_uint("buffer-loss-every", bloss, UINT32_MAX,
				  &o.buffer_loss_every)) ||
	     (start && parse_start(start, &o.start_ns)) ||
	     check_sim(&o)))
		return 1;
	if (device &&
	    (only_in("--sim", sim_names, sim_vals, 6) ||
	     (period && parse_u64("period", period, UINT64_MAX,
				  &r.cfg.period_ns)) ||
	     (duration && parse_seconds("duration", duration, &r.duration_ns)) ||
	     (unit && parse_uint("oa-unit", unit, UINT32_MAX, &r.cfg.unit))))
		return 1;
	if (device && source && oa_parse_driver(source, &r.cfg.driver)) {
		pr_err("--oa-source: '%s' is not a source of OA: i915, xe or sim (the simulator)\n",
		       source);
		return 1;
	}
	r.cfg.unit_given = unit;
	if (device && !r.cfg.period_ns) {
		pr_err("--period must be above 0 ns\n");
		return 1;
	}
	r.cfg.node = node;
	r.cfg.metric_set = metric_set;
	r.cfg.verbose = verbose;

	to_stdout = !strcmp(out, "-");
	if (to_stdout && isatty(STDOUT_FILENO)) {
		pr_err("not writing a binary recording to a terminal: give -o FILE or redirect\n");
		return 1;
	}
	if (device && dev_setup(&r))
		return 1;
	f = to_stdout ? stdout : fopen(out, "wb");
	if (!f) {
		pr_err("%s: %s\n", out, strerror(errno));
		if (device)
			dev_teardown(&r);
		return 1;
	}
	/* A failed recording is removed, but only from a regular file:
	 * -o /dev/full must not unlink the device. */
	regular = !to_stdout && !fstat(fileno(f), &st) && S_ISREG(st.st_mode);
	oa_writer_init(&w, f);
	errno = 0;
	ret = sim ? run_sim(&o, &w) : run_device(&r, &w);
	err = w.error ? w.error : errno ? errno : EIO;
	if (device)
		dev_teardown(&r);
	if (!to_stdout && fclose(f) && !ret) {
		ret = -1;
		err = errno;
	}
	/* A device stream that failed keeps what it recorded: the message
	 * is out, and the recording ends with a correlation point. */
	if (ret == DEV_FAILED)
		return 1;
	if (ret) {
		pr_err("writing %s: %s\n",
		       to_stdout ? "stdout" : out, strerror(err));
		if (regular)
			unlink(out);
		return 1;
	}
	return 0;
}
