// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu record: the GPU tracepoints, system-wide, of a process or of
 * a command, opened with libperf into per-CPU ring buffers and written,
 * sorted by time, as a perf.data that stock perf script and perf report
 * read: streamed a round at a time, or, with OA from the simulator or a
 * file, kept in memory and written at the end (open_output()).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>
#include <perf/core.h>
#include <perf/cpumap.h>
#include <perf/event.h>
#include <perf/evlist.h>
#include <perf/evsel.h>
#include <perf/mmap.h>
#include <perf/threadmap.h>

#include "util/options.h"

#include "builtin.h"
#include "perfdata/tracefs.h"
#include "perfdata/tracing-data.h"
#include "perfdata/write.h"
#include "record/attr-fallback.h"
#include "record/cgroups.h"
#include "record/command-filter.h"
#include "record/events.h"
#include "record/fdinfo.h"
#include "record/oa.h"
#include "record/proc.h"
#include "record/ring.h"
#include "record/store.h"
#include "record/workload.h"
#include "util/array.h"
#include "util/debug.h"
#include "util/parse.h"

/*
 * Per-CPU ring size in pages.  A vgem fence makes about 4 dma_fence
 * samples of some 100 bytes; at 100k fences/s on one CPU that is 40 MB/s,
 * and 512 pages (2 MiB with 4 KiB pages) hold 50 ms of it, well over the
 * time the reader, woken at a quarter full, takes to be scheduled.
 */
#define DEFAULT_MMAP_PAGES	512
/* How long to sleep in poll between checks of the command and signals. */
#define POLL_MS			100
/* --duration: a day at most, a typo should not record for a year. */
#define MAX_DURATION_S		86400u

static const char *const record_usage[] = {
	"perf gpu record [<options>] [<command>]",
	"perf gpu record [<options>] -- <command> [<options>]",
	NULL
};

struct record {
	struct record_events events;
	const char **extra_events;
	unsigned int nr_extra;
	size_t alloc_extra;
	bool system_wide;
	const char *pid_str;
	const char *output;
	unsigned int mmap_pages;
	int verbose;

	pid_t pid;			/* -p */
	struct workload workload;	/* -- CMD; pid -1 when none */
	/* -p or a command without -a: what of all CPUs' events is theirs */
	struct command_filter *filter;
	bool child_done;
	int child_status;

	/* Every event's attr but config and the first's side-band bits. */
	struct perf_event_attr attr;
	unsigned int dropped;		/* attr_features[] the kernel refused */
	struct perf_evlist *evlist;
	struct perf_cpu_map *cpus;
	struct perf_thread_map *threads;
	struct sample_id *ids;		/* sorted by id */
	size_t nr_ids;
	struct record_store *store;
	struct perf_data_writer *writer;	/* created before recording */
	bool streaming;		/* written as it goes (see open_output) */
	bool output_empty;	/* streaming: -o made, start_stream() not yet */
	uint64_t unknown;		/* samples of no event of ours */

	/* OA and fdinfo: synthetic events after the tracepoints. */
	struct record_oa oa;
	struct record_fdinfo fdinfo;
	int fdinfo_ms;			/* --fdinfo-interval, -1: not given */
	const char *oa_period;
	const char *oa_unit;
	/* --duration and --max-size: 0 when not given. */
	const char *duration_str, *max_size_str;
	uint64_t duration_ns, max_bytes;
	const char *limit;	/* the option that ended the recording */
	struct gpu_synth_ids synth;
	bool have_synth;
};

struct sample_id {
	uint64_t id;
	unsigned int event;
};

/*
 * libperf 6.1's perf_evlist__delete() frees neither an evsel's ids
 * (allocated by perf_evlist__mmap() for PERF_FORMAT_ID) nor its
 * references to the CPU and thread maps; perf frees them in its own
 * evsel code.  This one is in libperf.a but not in its public headers.
 */
void perf_evsel__free_id(struct perf_evsel *evsel);

static volatile sig_atomic_t done, child_exited;

static void on_signal(int sig)
{
	(void)sig;
	done = 1;
}

static void on_sigchld(int sig)
{
	(void)sig;
	child_exited = 1;
}

static int verbosity;

static int libperf_print(enum libperf_print_level level, const char *fmt,
			 va_list ap)
{
	/* libperf's warnings, and with -vv its debug messages. */
	if ((int)level > LIBPERF_ERR + verbosity)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static int parse_event(const struct option *opt, const char *arg, int unset)
{
	struct record *rec = opt->value;

	if (unset)
		return 0;
	return ARRAY_PUSH(rec->extra_events, rec->nr_extra, rec->alloc_extra,
			  arg) ? -1 : 0;
}

static int choose_events(struct record *rec)
{
	unsigned int i;
	int err;

	err = record_events_add_defaults(&rec->events, rec->verbose);
	if (err) {
		pr_err("reading tracefs: %s\n", strerror(-err));
		return -1;
	}
	for (i = 0; i < rec->nr_extra; i++) {
		err = record_events_add(&rec->events, rec->extra_events[i]);
		if (err == -EINVAL) {
			pr_err("bad event '%s': want SYSTEM:EVENT\n",
			       rec->extra_events[i]);
			return -1;
		}
		if (err) {
			pr_err("unknown tracepoint '%s' (see 'perf gpu list')%s%s\n",
			       rec->extra_events[i],
			       err == -ENOENT ? "" : ": ",
			       err == -ENOENT ? "" : strerror(-err));
			return -1;
		}
	}
	if (!rec->events.nr) {
		pr_err("no GPU tracepoints in tracefs (and none given with -e)\n");
		return -1;
	}
	if (rec->verbose)
		for (i = 0; i < rec->events.nr; i++)
			pr_err("event %s (id %llu)\n",
			       rec->events.ev[i].name,
			       (unsigned long long)rec->events.ev[i].id);
	return 0;
}

/* --oa: OA from the GPU, i915-perf's stream if i915 drives it, else xe's. */
static int parse_oa(const struct option *opt, const char *arg, int unset)
{
	struct record *rec = opt->value;

	(void)arg;
	if (unset)
		rec->oa.source = RECORD_OA_NONE;
	else
		record_oa_set_source(&rec->oa, "device");
	return 0;
}

static int parse_oa_source(const struct option *opt, const char *arg,
			   int unset)
{
	struct record *rec = opt->value;

	if (unset)
		rec->oa.source = RECORD_OA_NONE;
	else
		record_oa_set_source(&rec->oa, arg);
	return 0;
}

/*
 * The synthetic events' ids, wanted in the payloads while recording: the
 * first free ones after the real events, so write_output() finds the same.
 */
static int add_formats(const struct record *rec, struct tracing_data *td,
		       struct gpu_synth_ids *ids)
{
	unsigned int i;
	int err = 0;

	for (i = 0; i < rec->events.nr && !err; i++) {
		const struct record_event *e = &rec->events.ev[i];
		int id = tracing_data_add_tracefs_event(td, e->system, e->event);

		if (id < 0)
			err = id;
		else if ((uint64_t)id != e->id)
			err = -ESTALE;	/* re-registered while recording */
	}
	if (!err && rec->have_synth)
		err = tracing_data_add_synthetic(td, ids);
	return err;
}

static int setup_synthetic(struct record *rec)
{
	struct tracing_data *td;
	int err;

	if (rec->fdinfo_ms < 0)	/* per process by default, not system-wide */
		rec->fdinfo_ms = rec->system_wide ? 0 : 1000;
	rec->have_synth = rec->oa.source != RECORD_OA_NONE || rec->fdinfo_ms;
	if (!rec->have_synth)
		return 0;
	td = tracing_data_new();
	if (!td)
		return -1;
	err = add_formats(rec, td, &rec->synth);
	tracing_data_free(td);
	if (err) {
		pr_err("reading the tracepoint formats: %s\n", strerror(-err));
		return -1;
	}
	rec->oa.event = rec->events.nr;
	rec->oa.id = rec->synth.oa_report;
	rec->fdinfo.event = rec->events.nr + 1;
	rec->fdinfo.id = rec->synth.fdinfo;
	rec->oa.device_event = rec->events.nr + 2;
	rec->oa.device_id = rec->synth.oa_device;
	rec->oa.corr_event = rec->events.nr + 3;
	rec->oa.corr_id = rec->synth.oa_correlation;
	rec->fdinfo.interval_ns = (uint64_t)rec->fdinfo_ms * 1000000;
	return 0;
}

/*
 * The attr of every event: the tracepoint samples with the thread's
 * cgroup (PERF_DATA_SAMPLE_TYPE), ids and loss counts to read back.  The
 * first event also has the side-band records (create_evlist()).
 */
static void base_attr(struct record *rec)
{
	rec->attr = (struct perf_event_attr){
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(rec->attr),
		.sample_period = 1,
		.sample_type = PERF_DATA_SAMPLE_TYPE,
		/*
		 * The ids map samples and LOST records to events; the lost
		 * count catches a loss whose LOST record the kernel had not
		 * written yet when recording stopped.
		 */
		.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST,
		.sample_id_all = 1,
		.use_clockid = 1,
		.clockid = CLOCK_MONOTONIC,
		.watermark = 1,
		.wakeup_watermark = rec->mmap_pages * getpagesize() / 4,
		.cgroup = 1,
	};
}

/* A trial open of the first event on this thread, closed at once. */
static int try_open(const struct perf_event_attr *attr, void *arg)
{
	struct perf_event_attr a = *attr;
	int fd;

	(void)arg;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/*
 * The optional features the kernel refuses (record/attr-fallback.c),
 * dropped before anything is opened or written: the file's attrs are
 * those of the events.
 */
static void probe_attr(struct record *rec)
{
	struct perf_event_attr attr;
	unsigned int i;

	base_attr(rec);
	attr = rec->attr;
	attr.config = rec->events.ev[0].id;
	attr.comm = 1;
	rec->dropped = attr_fallback(&attr, try_open, NULL);
	for (i = 0; i < nr_attr_features; i++)
		if (rec->dropped & (1u << i))
			attr_features[i].copy(&rec->attr, &attr);
}

/*
 * One warning for each feature dropped, saying what the recording will
 * lack (perf gpu report says it again from the file), once recording
 * starts: an error before that stays the one line it is.
 */
static void warn_dropped(const struct record *rec)
{
	unsigned int i;

	for (i = 0; i < nr_attr_features; i++)
		if (rec->dropped & (1u << i))
			pr_err("warning: this kernel refuses %s (it needs %s): recording without it; %s\n",
			       attr_features[i].name, attr_features[i].needs,
			       attr_features[i].lacks);
}

static int create_evlist(struct record *rec)
{
	unsigned int i;

	rec->evlist = perf_evlist__new();
	if (!rec->evlist)
		return -ENOMEM;
	for (i = 0; i < rec->events.nr; i++) {
		struct perf_event_attr attr = rec->attr;
		struct perf_evsel *evsel;

		attr.config = rec->events.ev[i].id;
		/*
		 * One event also reports the kernel's thread names, so that
		 * a thread gone before its samples are read is named, and
		 * the cgroups made while recording (those made before are
		 * read from the cgroup tree: record/cgroups.h).
		 */
		attr.comm = i == 0;
		attr.cgroup = i == 0 && rec->attr.cgroup;
		/* A command's processes: its forks, wherever they run. */
		attr.task = i == 0 && rec->filter;
		evsel = perf_evsel__new(&attr);
		if (!evsel)
			return -ENOMEM;
		perf_evlist__add(rec->evlist, evsel);
	}
	perf_evlist__set_maps(rec->evlist, rec->cpus, rec->threads);
	return 0;
}

static void open_error(const struct record *rec, const char *name, int err)
{
	switch (err) {
	case EACCES:
	case EPERM:
		pr_err("no permission to open %s: %s (needs root, CAP_PERFMON, or a lower /proc/sys/kernel/perf_event_paranoid)\n",
		       name, strerror(err));
		break;
	case ESRCH:
		pr_err("no process with pid %d\n", rec->pid > 0 ? rec->pid :
		       rec->workload.pid);
		break;
	default:
		pr_err("opening %s: %s\n", name, strerror(err));
	}
}

static int open_events(struct record *rec)
{
	struct perf_evsel *evsel;
	unsigned int i = 0;
	int err;

	/* One by one rather than perf_evlist__open(), to name a failure. */
	perf_evlist__for_each_evsel(rec->evlist, evsel) {
		err = perf_evsel__open(evsel, perf_evsel__cpus(evsel),
				       perf_evsel__threads(evsel));
		if (err) {
			open_error(rec, rec->events.ev[i].name, -err);
			return -1;
		}
		i++;
	}
	err = perf_evlist__mmap(rec->evlist, rec->mmap_pages);
	if (err) {
		err = errno;
		if (err == EPERM)
			pr_err("cannot map %u pages per CPU: over perf_event_mlock_kb, try a smaller -m\n",
			       rec->mmap_pages);
		else
			pr_err("mapping the ring buffers: %s\n", strerror(err));
		return -1;
	}
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	const struct sample_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* The kernel's id of every fd of every event, to map samples back. */
static int read_ids(struct record *rec)
{
	int nr_cpus = perf_cpu_map__nr(rec->cpus);
	int nr_threads = perf_thread_map__nr(rec->threads);
	struct perf_evsel *evsel;
	unsigned int ev = 0;
	int c, t;

	rec->ids = calloc((size_t)rec->events.nr * nr_cpus * nr_threads,
			  sizeof(*rec->ids));
	if (!rec->ids)
		return -ENOMEM;
	perf_evlist__for_each_evsel(rec->evlist, evsel) {
		for (c = 0; c < nr_cpus; c++)
			for (t = 0; t < nr_threads; t++) {
				struct perf_counts_values v;

				if (perf_evsel__read(evsel, c, t, &v))
					continue;
				rec->ids[rec->nr_ids].id = v.id;
				rec->ids[rec->nr_ids++].event = ev;
			}
		ev++;
	}
	qsort(rec->ids, rec->nr_ids, sizeof(*rec->ids), cmp_id);
	return 0;
}

/*
 * The event of a sample id.  Ids of inherited events (in the command's
 * children) are not ours, so fall back to the tracepoint id the raw
 * payload starts with, its common_type.
 */
static int event_of(const struct record *rec, uint64_t id, const void *raw,
		    uint32_t raw_size)
{
	struct sample_id key = { .id = id }, *found;
	uint16_t type;
	unsigned int i;

	found = bsearch(&key, rec->ids, rec->nr_ids, sizeof(key), cmp_id);
	if (found)
		return found->event;
	if (!raw || raw_size < sizeof(type))
		return -1;
	memcpy(&type, raw, sizeof(type));
	for (i = 0; i < rec->events.nr; i++)
		if (rec->events.ev[i].id == type)
			return i;
	return -1;
}

/* Records too short for what they say are skipped. */
static int process_sample(struct record *rec, const union perf_event *event)
{
	struct ring_sample s;
	int ev;

	if (ring_parse_sample(event, rec->attr.sample_type & PERF_SAMPLE_CGROUP,
			      &s))
		return 0;
	ev = event_of(rec, s.id, s.raw, s.raw_size);
	if (ev < 0) {
		rec->unknown++;
		return 0;
	}
	return record_store_add_sample(rec->store, ev, s.pid, s.tid, s.cpu,
				       s.time, s.cgroup, s.raw, s.raw_size);
}

/* A cgroup made while recording (the kernel's, on the event with comm). */
static int process_cgroup(struct record *rec, const union perf_event *event)
{
	struct ring_cgroup c;

	if (ring_parse_cgroup(event, &c)) {
		if (rec->verbose)
			pr_err("a CGROUP record of %u bytes that does not parse\n",
			       event->header.size);
		return 0;
	}
	return record_store_add_cgroup(rec->store, c.id, c.path, c.time);
}

/* A thread made or gone, for the filter of a command's recording. */
static int process_task(struct record *rec, const union perf_event *event)
{
	struct ring_task t;

	if (ring_parse_task(event, &t))
		return 0;
	return record_store_add_task(rec->store,
				     event->header.type == PERF_RECORD_FORK,
				     t.pid, t.ppid, t.tid, t.time);
}

static int process_lost(struct record *rec, const union perf_event *event)
{
	struct ring_lost l;
	int ev;

	if (ring_parse_lost(event, &l))
		return 0;
	ev = event_of(rec, l.id, NULL, 0);
	/* An inherited event's loss still counts: give it the first one. */
	return record_store_add_lost(rec->store, ev < 0 ? 0 : ev, l.lost,
				     l.time);
}

/* The time orders renames read from different rings. */
static int process_comm(struct record *rec, const union perf_event *event)
{
	struct ring_comm c;

	if (ring_parse_comm(event, &c)) {
		if (rec->verbose)
			pr_err("a COMM record of %u bytes that does not parse\n",
			       event->header.size);
		return 0;
	}
	/* -v: every name the kernel reported, to follow a thread's. */
	if (rec->verbose)
		pr_err("comm %d/%d %s at %llu%s\n", c.pid, c.tid, c.comm,
		       (unsigned long long)c.time,
		       event->header.misc & PERF_RECORD_MISC_COMM_EXEC ?
		       " (exec)" : "");
	return record_store_set_comm(rec->store, c.pid, c.tid, c.comm, c.time);
}

/*
 * The kernel writes a LOST record only with the next sample that fits;
 * samples lost at the very end have none.  Its own count of each
 * event's lost samples tells: add what the LOST records do not cover.
 */
static int add_pending_lost(struct record *rec)
{
	int nr_cpus = perf_cpu_map__nr(rec->cpus);
	int nr_threads = perf_thread_map__nr(rec->threads);
	struct perf_evsel *evsel;
	uint64_t lost = 0;
	int c, t;

	perf_evlist__for_each_evsel(rec->evlist, evsel)
		for (c = 0; c < nr_cpus; c++)
			for (t = 0; t < nr_threads; t++) {
				struct perf_counts_values v;

				if (!perf_evsel__read(evsel, c, t, &v))
					lost += v.lost;
			}
	if (lost <= record_store_lost(rec->store))
		return 0;
	return record_store_add_lost(rec->store, 0,
				     lost - record_store_lost(rec->store),
				     record_store_last_time(rec->store));
}

static int drain(struct record *rec)
{
	struct perf_mmap *map;
	union perf_event *event;
	int err = 0;

	perf_evlist__for_each_mmap(rec->evlist, map, false) {
		if (perf_mmap__read_init(map) < 0)
			continue;
		while ((event = perf_mmap__read_event(map))) {
			switch (event->header.type) {
			case PERF_RECORD_SAMPLE:
				err = err ?: process_sample(rec, event);
				break;
			case PERF_RECORD_LOST:
				err = err ?: process_lost(rec, event);
				break;
			case PERF_RECORD_COMM:
				err = err ?: process_comm(rec, event);
				break;
			case PERF_RECORD_CGROUP:
				err = err ?: process_cgroup(rec, event);
				break;
			case PERF_RECORD_FORK:
			case PERF_RECORD_EXIT:
				err = err ?: process_task(rec, event);
				break;
			}
			perf_mmap__consume(map);
		}
		/*
		 * No perf_mmap__read_done(): it moves the read position to
		 * the head of now, past whatever the kernel wrote since the
		 * last read_event, which then would be lost unseen.
		 */
	}
	return err;
}

/* Has the command exited?  Left a zombie, so its /proc stays readable. */
static bool child_gone(struct record *rec)
{
	siginfo_t si = { 0 };

	if (rec->workload.pid <= 0)
		return false;
	if (waitid(P_PID, rec->workload.pid, &si, WEXITED | WNOHANG | WNOWAIT))
		return errno != EINTR;
	return si.si_pid == rec->workload.pid;
}

static void reap_child(struct record *rec)
{
	int status;

	if (rec->workload.pid <= 0)
		return;
	while (waitpid(rec->workload.pid, &status, 0) < 0)
		if (errno != EINTR)
			return;
	rec->child_done = true;
	rec->child_status = status;
}

/* Has --duration passed or the data reached --max-size? */
static bool limit_reached(struct record *rec, uint64_t start_ns)
{
	if (rec->duration_ns && record_oa_now() - start_ns >= rec->duration_ns)
		rec->limit = "--duration";
	else if (rec->max_bytes &&
		 record_store_bytes(rec->store) >= rec->max_bytes)
		rec->limit = "--max-size";
	return rec->limit;
}

/* The poll's timeout: POLL_MS, or less to stop on time for --duration. */
static int poll_timeout(const struct record *rec, uint64_t start_ns)
{
	uint64_t spent = record_oa_now() - start_ns, left_ms;

	if (!rec->duration_ns)
		return POLL_MS;
	if (spent >= rec->duration_ns)
		return 0;
	left_ms = (rec->duration_ns - spent + 999999) / 1000000;
	return left_ms < POLL_MS ? (int)left_ms : POLL_MS;
}

/*
 * A round of a streamed recording: what is older than the start of the
 * pass before this one is written, the rest kept.  Every ring was read
 * whole since that moment, so nothing older can still come (a record is
 * in its ring microseconds after its time).  OA reports come later than
 * that: the round stops where they are all placed.
 */
static int stream_round(struct record *rec, uint64_t upto)
{
	uint64_t oa_upto = record_oa_placed_upto(&rec->oa);
	long n;
	int err;

	if (!rec->streaming)
		return 0;
	if (oa_upto < upto)
		upto = oa_upto;
	n = record_store_flush(rec->store, rec->writer, upto);
	err = n < 0 ? (int)n : n ? perf_data_round(rec->writer) : 0;
	if (err)
		pr_err("writing %s: %s\n", rec->output, strerror(-err));
	return err;
}

static int record_loop(struct record *rec)
{
	uint64_t start_ns = record_oa_now(), pass_ns = 0, prev_pass_ns;
	int err;

	for (;;) {
		child_exited = 0;
		prev_pass_ns = pass_ns;
		pass_ns = record_oa_now();
		err = drain(rec);
		err = err ?: stream_round(rec, prev_pass_ns);
		/* Kept whole: only what the command's filter keeps. */
		if (!err && !rec->streaming)
			err = record_store_prune(rec->store, prev_pass_ns);
		err = err ?: record_oa_poll(&rec->oa);
		err = err ?: record_fdinfo_tick(&rec->fdinfo, rec->store,
						record_oa_now(), 0);
		if (err)
			return err;
		if (done || child_gone(rec) ||
		    (rec->pid > 0 && !proc_alive(rec->pid)) ||
		    limit_reached(rec, start_ns))
			break;
		/* SIGCHLD cuts the sleep short: the command has exited. */
		if (!child_exited)
			perf_evlist__poll(rec->evlist,
					  poll_timeout(rec, start_ns));
	}
	/* Whatever the last moments put in the rings. */
	perf_evlist__disable(rec->evlist);
	err = drain(rec);
	err = err ?: add_pending_lost(rec);
	/* Before the OA simulator reads the jobs: only the command's. */
	return err ?: record_store_prune(rec->store, UINT64_MAX);
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	/* No SA_RESTART: a signal ends the poll at once. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_sigchld;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
}

/*
 * The tracing data of the file: the formats of the events recorded, read
 * from tracefs now, and the synthetic ones, which must have kept the ids
 * the payloads carry.  NULL after saying why.
 */
static void *build_tracing_data(const struct record *rec, size_t *len)
{
	struct gpu_synth_ids synth = { 0 };
	struct tracing_data *td = tracing_data_new();
	void *blob = NULL;
	int err;

	if (!td) {
		pr_err("out of memory\n");
		return NULL;
	}
	err = add_formats(rec, td, &synth);
	if (!err && rec->have_synth &&
	    (synth.oa_report != rec->synth.oa_report ||
	     synth.fdinfo != rec->synth.fdinfo ||
	     synth.oa_device != rec->synth.oa_device ||
	     synth.oa_correlation != rec->synth.oa_correlation))
		err = -ESTALE;
	if (!err) {
		blob = tracing_data_build(td, len);
		if (!blob)
			err = -errno;
	}
	tracing_data_free(td);
	if (err)
		pr_err("reading the tracepoint formats: %s\n", strerror(-err));
	return blob;
}

/* The events of the file, the real ones and the synthetic ones. */
static struct perf_data_event *output_events(const struct record *rec,
					     unsigned int *nr)
{
	struct perf_data_event *events;
	unsigned int i;

	*nr = rec->events.nr + (rec->have_synth ? 4 : 0);
	events = calloc(*nr, sizeof(*events));
	if (!events)
		return NULL;
	for (i = 0; i < rec->events.nr; i++) {
		events[i].name = rec->events.ev[i].name;
		events[i].id = rec->events.ev[i].id;
	}
	if (rec->have_synth) {
		events[i].name = "gpu_oa:oa_report";
		events[i++].id = rec->synth.oa_report;
		events[i].name = "gpu_client:fdinfo";
		events[i++].id = rec->synth.fdinfo;
		events[i].name = "gpu_oa:oa_device";
		events[i++].id = rec->synth.oa_device;
		events[i].name = "gpu_oa:oa_correlation";
		events[i].id = rec->synth.oa_correlation;
	}
	return events;
}

/*
 * The output, created before anything is recorded: a directory that is
 * missing or read-only is reported at once, not after the recording.
 * The file is streamed, written round by round as the rings are read,
 * in memory bounded by a round (perf-gpu.rst): here it is only made,
 * and start_stream() writes its start once the events are open, so that
 * reading the tracepoint formats does not delay attaching.  A live OA
 * stream (i915, xe) is placed as it comes.  The simulator's reports are
 * made from the whole recording, and a FILE's can fall anywhere in it:
 * with those the records are kept to the end and the file written then.
 */
static int open_output(struct record *rec)
{
	struct perf_data_event *events;
	unsigned int nr;
	int fd;

	rec->streaming = rec->oa.source == RECORD_OA_NONE ||
			 record_oa_live(&rec->oa);
	if (rec->streaming) {
		fd = open(rec->output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			  0600);
		if (fd < 0) {
			pr_err("%s: %s\n", rec->output, strerror(errno));
			return -1;
		}
		close(fd);
		rec->output_empty = true;
		return 0;
	}
	events = output_events(rec, &nr);
	if (!events)
		return -1;
	rec->writer = perf_data_create_sampled(rec->output, events, nr,
					       rec->attr.sample_type);
	free(events);
	if (!rec->writer) {
		pr_err("%s: %s\n", rec->output, strerror(errno));
		return -1;
	}
	return 0;
}

/* A streamed file's header, attrs and features, before any record. */
static int start_stream(struct record *rec, int argc, const char **argv)
{
	struct perf_data_event *events;
	unsigned int nr;
	void *blob;
	size_t len = 0;

	if (!rec->streaming)
		return 0;
	blob = build_tracing_data(rec, &len);
	if (!blob)
		return -1;
	events = output_events(rec, &nr);
	if (events)
		rec->writer = perf_data_create_stream(rec->output, events, nr,
						      blob, len,
						      rec->attr.sample_type,
						      argc, argv);
	else
		errno = ENOMEM;
	free(events);
	free(blob);
	if (!rec->writer) {
		pr_err("%s: %s\n", rec->output, strerror(errno));
		return -1;
	}
	rec->output_empty = false;	/* the writer has it now */
	return 0;
}

static int add_cgroup(void *arg, uint64_t id, const char *path)
{
	return record_store_add_cgroup(arg, id, path, 0);
}

/*
 * The cgroups of now, named in the file before any sample (time 0):
 * read after the events are open, so that one made in between is named
 * by the kernel if not here.  No cgroup2 mount: nothing to name, and the
 * samples' ids stay unnamed (perf report shows them as unknown).
 */
static int name_cgroups(struct record *rec)
{
	int err = cgroups_for_each(add_cgroup, rec->store);

	if (err)
		pr_err("cgroups: %s\n", strerror(-err));
	return err ? -1 : 0;
}

/* The rest of the records, and the file closed. */
static int write_output(struct record *rec, int argc, const char **argv)
{
	struct perf_data_writer *w = rec->writer;
	void *blob = NULL;
	size_t len = 0;
	int err = 0;

	rec->writer = NULL;	/* closed or aborted below */
	if (!rec->streaming) {
		blob = build_tracing_data(rec, &len);
		if (!blob) {
			perf_data_abort(w);
			return -1;
		}
		err = perf_data_set_tracing_data(w, blob, len);
		free(blob);
		err = err ?: perf_data_set_cmdline(w, argc, argv);
	}
	err = err ?: record_store_write(rec->store, w);
	if (err) {
		perf_data_abort(w);
	} else {
		err = perf_data_close(w);
	}
	if (err)
		pr_err("writing %s: %s\n", rec->output, strerror(-err));
	if (record_store_late(rec->store))
		pr_err("%llu records came after their round was written, left out\n",
		       (unsigned long long)record_store_late(rec->store));
	return err;
}

static void report(const struct record *rec)
{
	struct stat st;
	double mb = 0;

	if (!stat(rec->output, &st))
		mb = st.st_size / 1024.0 / 1024.0;
	fprintf(stderr, "[ perf gpu record: Captured and wrote %.3f MB %s (%llu samples) ]\n",
		mb, rec->output,
		(unsigned long long)record_store_samples(rec->store));
	if (record_store_lost(rec->store))
		pr_err("lost %llu events\n",
		       (unsigned long long)record_store_lost(rec->store));
	if (rec->fdinfo.interval_ns)
		fprintf(stderr, "[ perf gpu record: fdinfo: %llu snapshots, %llu DRM fds read, %llu client samples ]\n",
			(unsigned long long)rec->fdinfo.snapshots,
			(unsigned long long)rec->fdinfo.fds,
			(unsigned long long)rec->fdinfo.samples);
	record_oa_report(&rec->oa);
	if (rec->unknown && rec->verbose)
		pr_err("%llu samples of unknown events dropped\n",
		       (unsigned long long)rec->unknown);
	if (rec->filter && rec->verbose) {
		uint64_t dropped, untracked;

		command_filter_counts(rec->filter, &dropped, &untracked);
		pr_err("%llu samples of other processes left out, %llu of the command's fences not followed\n",
		       (unsigned long long)dropped,
		       (unsigned long long)untracked);
	}
}

/*
 * The target: the events are opened on every CPU for any task, -p and
 * a command too: their jobs end in interrupts, kworkers and drm_sched's
 * thread.  For those, the command filter keeps what is theirs
 * (record/command-filter.h).
 */
static int setup_target(struct record *rec, int argc, const char **argv)
{
	pid_t root = -1;
	int err;

	rec->cpus = perf_cpu_map__new(NULL);
	rec->threads = perf_thread_map__new_dummy();
	if (!rec->cpus || !rec->threads)
		return -ENOMEM;
	if (rec->pid > 0) {
		if (!proc_alive(rec->pid)) {
			pr_err("no process with pid %d\n", rec->pid);
			return -1;
		}
		root = rec->pid;
	} else if (argc && !rec->system_wide) {
		err = workload_prepare(&rec->workload, argv);
		if (err) {
			pr_err("cannot start %s: %s\n", argv[0], strerror(-err));
			return -1;
		}
		root = rec->workload.pid;
	}
	if (root > 0) {
		struct record_store_filter f;

		rec->filter = command_filter_new(root, &rec->events);
		if (!rec->filter)
			return -ENOMEM;
		command_filter_store(rec->filter, &f);
		record_store_set_filter(rec->store, &f);
	}
	return 0;
}

static int parse_args(struct record *rec, int *argcp, const char ***argvp)
{
	const struct option options[] = {
		OPT_CALLBACK('e', "event", rec, "SYSTEM:EVENT",
			     "a tracepoint to record besides the GPU ones (repeatable; EVENT may be a glob)",
			     parse_event),
		OPT_BOOLEAN('a', "all-cpus", &rec->system_wide,
			    "system-wide collection from all CPUs"),
		OPT_STRING('p', "pid", &rec->pid_str, "pid",
			   "record events of an existing process"),
		OPT_STRING('o', "output", &rec->output, "file",
			   "output file name (default: perf.data)"),
		OPT_UINTEGER('m', "mmap-pages", &rec->mmap_pages,
			     "ring buffer pages per CPU, a power of two (default: 512)"),
		OPT_INCR('v', "verbose", &rec->verbose,
			 "say which tracepoints are skipped and opened"),
		OPT_CALLBACK_NOOPT(0, "oa", rec, NULL,
				   "OA reports from the GPU: i915-perf, or xe when no i915 drives one",
				   parse_oa),
		OPT_CALLBACK(0, "oa-source", rec, "sim|FILE|i915|xe",
			     "OA reports from the simulator, a recording, i915-perf or xe",
			     parse_oa_source),
		OPT_STRING(0, "oa-period", &rec->oa_period, "NS",
			   "OA report period in ns, rounded to an OA exponent (default 1000000)"),
		OPT_STRING(0, "metric-set", &rec->oa.metric_set, "NAME|UUID",
			   "i915, xe: the OA metric set (default RenderBasic)"),
		OPT_STRING(0, "oa-node", &rec->oa.node, "PATH",
			   "i915, xe: the render node (default: the first i915 one, else xe)"),
		OPT_STRING(0, "oa-unit", &rec->oa_unit, "N",
			   "xe: the OA unit (default 0, the main GT's)"),
		OPT_STRING(0, "oa-output", &rec->oa.output_opt, "file",
			   "the OA stream as recorded (default: <output>.oa)"),
		OPT_STRING(0, "duration", &rec->duration_str, "SECONDS",
			   "stop recording after this long (a command still running is sent SIGTERM)"),
		OPT_STRING(0, "max-size", &rec->max_size_str, "SIZE",
			   "stop recording once the data reach SIZE bytes (B, K, M, G)"),
		OPT_INTEGER(0, "fdinfo-interval", &rec->fdinfo_ms,
			    "DRM fdinfo snapshot every MS ms, 0 off (default 1000 for a command or -p, off system-wide)"),
		OPT_END()
	};
	char *end;
	long pid;

	*argcp = parse_options(*argcp, *argvp, options, record_usage,
			       PARSE_OPT_STOP_AT_NON_OPTION);
	if (rec->pid_str) {
		errno = 0;
		pid = strtol(rec->pid_str, &end, 10);
		if (errno || *end || end == rec->pid_str || pid <= 0 ||
		    pid > INT_MAX) {
			pr_err("bad pid '%s'\n", rec->pid_str);
			return -1;
		}
		rec->pid = pid;
		if (*argcp || rec->system_wide) {
			pr_err("-p cannot go with -a or a command\n");
			return -1;
		}
	}
	if (!rec->mmap_pages || (rec->mmap_pages & (rec->mmap_pages - 1)) ||
	    rec->mmap_pages > (1u << 20)) {
		pr_err("-m wants a power of two number of pages, not %u\n",
		       rec->mmap_pages);
		return -1;
	}
	if (!rec->pid && !*argcp)
		rec->system_wide = true;
	if (rec->fdinfo_ms < -1) {
		pr_err("--fdinfo-interval wants 0 (off) or a number of ms\n");
		return -1;
	}
	if (rec->oa_period) {
		unsigned long long v;

		errno = 0;
		v = strtoull(rec->oa_period, &end, 10);
		/* Below 1 us the OA unit cannot go (exponent 0 is 104 ns,
		 * but i915 caps the rate far lower). */
		if (errno || *end || end == rec->oa_period || v < 1000) {
			pr_err("bad --oa-period '%s': want ns, at least 1000\n",
			       rec->oa_period);
			return -1;
		}
		rec->oa.period_ns = v;
	}
	if (rec->duration_str &&
	    (parse_seconds_ns(rec->duration_str, MAX_DURATION_S,
			      &rec->duration_ns) || !rec->duration_ns)) {
		pr_err("bad --duration '%s': want seconds, more than 0, at most %u\n",
		       rec->duration_str, MAX_DURATION_S);
		return -1;
	}
	if (rec->max_size_str &&
	    parse_size_bytes(rec->max_size_str, &rec->max_bytes)) {
		pr_err("bad --max-size '%s': want bytes, more than 0, with B, K, M or G\n",
		       rec->max_size_str);
		return -1;
	}
	if (rec->oa_unit) {
		unsigned long v;

		errno = 0;
		v = strtoul(rec->oa_unit, &end, 10);
		if (errno || *end || end == rec->oa_unit ||
		    *rec->oa_unit < '0' || *rec->oa_unit > '9' ||
		    v > UINT32_MAX) {
			pr_err("bad --oa-unit '%s': want an OA unit id, 0 or more\n",
			       rec->oa_unit);
			return -1;
		}
		rec->oa.unit = v;
		rec->oa.unit_given = true;
	}
	return 0;
}

static void cleanup(struct record *rec)
{
	if (rec->workload.pid > 0) {
		if (rec->workload.go_fd >= 0) {
			workload_abort(&rec->workload);
		} else if (!rec->child_done) {
			kill(rec->workload.pid, SIGTERM);
			reap_child(rec);
		}
	}
	if (rec->evlist) {
		struct perf_evsel *evsel;

		perf_evlist__munmap(rec->evlist);
		perf_evlist__close(rec->evlist);
		perf_evlist__for_each_evsel(rec->evlist, evsel) {
			perf_evsel__free_id(evsel);
			perf_cpu_map__put(perf_evsel__cpus(evsel));
			perf_thread_map__put(perf_evsel__threads(evsel));
		}
		perf_evlist__delete(rec->evlist);	/* and its evsels */
	}
	perf_cpu_map__put(rec->cpus);
	perf_thread_map__put(rec->threads);
	command_filter_free(rec->filter);
	record_events_free(&rec->events);
	record_store_free(rec->store);
	if (rec->writer)
		perf_data_abort(rec->writer);
	/* A stream that never started leaves no empty file behind. */
	else if (rec->output_empty)
		unlink(rec->output);
	record_oa_free(&rec->oa);
	free(rec->extra_events);
	free(rec->ids);
}

int cmd_record(int argc, const char **argv)
{
	struct record rec = {
		.output = "perf.data",
		.mmap_pages = DEFAULT_MMAP_PAGES,
		.workload = { .pid = -1, .go_fd = -1, .err_fd = -1 },
		.fdinfo_ms = -1,
	};
	const char **full_argv;
	int full_argc = argc, ret = 1, err;

	/* The command line as given, for the file's HEADER_CMDLINE. */
	full_argv = calloc(argc + 1, sizeof(*full_argv));
	if (!full_argv)
		return 1;
	memcpy(full_argv, argv, argc * sizeof(*argv));

	if (parse_args(&rec, &argc, &argv))
		goto out;
	verbosity = rec.verbose;
	libperf_init(libperf_print);
	/*
	 * The store's buffers only grow (record/store.c), but glibc's
	 * qsort() takes a buffer as large as the array each pass.  glibc
	 * raises its mmap threshold to the largest block freed, after which
	 * such blocks come from the heap and its high-water mark stays in
	 * the resident set: a fixed threshold gives them back every time.
	 */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	if (!tracefs_dir()) {
		pr_err("tracefs is not mounted or not readable (try as root)\n");
		goto out;
	}
	rec.store = record_store_new();
	if (!rec.store || choose_events(&rec) || setup_synthetic(&rec))
		goto out;
	probe_attr(&rec);
	record_store_set_sample_type(rec.store, rec.attr.sample_type);
	if (open_output(&rec))
		goto out;
	/* Signals first: the command may exit as soon as it is started. */
	install_signals();
	if (setup_target(&rec, argc, argv) || create_evlist(&rec) ||
	    open_events(&rec) || read_ids(&rec) || name_cgroups(&rec) ||
	    start_stream(&rec, full_argc, full_argv) ||
	    record_oa_start(&rec.oa, rec.output, rec.store))
		goto out;
	if (argc && rec.system_wide) {
		/* -a -- CMD: system-wide for as long as the command runs. */
		err = workload_prepare(&rec.workload, argv);
		if (err) {
			pr_err("cannot start %s: %s\n", argv[0], strerror(-err));
			goto out;
		}
	}
	if (rec.workload.pid > 0) {
		err = workload_start(&rec.workload);
		if (err) {
			pr_err("%s: %s\n", argv[0], err == -ENOENT ?
			       "command not found" : strerror(-err));
			/* As a shell says it: 127 not found, 126 not run. */
			ret = err == -ENOENT ? 127 : 126;
			goto out;
		}
	}
	warn_dropped(&rec);
	/* fdinfo of the process and its children, or all system-wide. */
	rec.fdinfo.root = !rec.system_wide && rec.pid > 0 ? rec.pid :
			  !rec.system_wide ? rec.workload.pid : 0;
	err = record_loop(&rec);
	if (err) {
		/* A write error of a round said what it was. */
		if (err == -ENOMEM)
			pr_err("out of memory while recording\n");
		goto out;
	}
	/* A limit ends the command too, as perf record's Ctrl-C would. */
	if (rec.limit && rec.workload.pid > 0 && !child_gone(&rec))
		kill(rec.workload.pid, SIGTERM);
	reap_child(&rec);
	if (record_oa_finish(&rec.oa, rec.store, &rec.events))
		goto out;
	if (write_output(&rec, full_argc, full_argv))
		goto out;
	report(&rec);
	if (rec.limit)
		fprintf(stderr, "[ perf gpu record: stopped by %s %s%s ]\n",
			rec.limit, !strcmp(rec.limit, "--duration") ?
			rec.duration_str : rec.max_size_str,
			!strcmp(rec.limit, "--duration") ? " s" : "");
	/*
	 * A command's status is ours, as with perf record -- CMD, unless a
	 * limit stopped it: then the recording is what was asked for.
	 */
	ret = rec.child_done && !rec.limit ?
	      workload_exit_code(rec.child_status) : 0;
out:
	cleanup(&rec);
	free(full_argv);
	return ret;
}
