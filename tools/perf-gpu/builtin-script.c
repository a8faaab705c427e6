// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu script: the events of a perf.data in file order (perf gpu
 * record writes them in time order), one line each as perf script
 * prints tracepoints:
 *
 *   comm tid [cpu] secs.usecs: system:event: <print fmt of the payload>
 *
 * the payload printed by libtraceevent from the formats in the file's
 * HEADER_TRACING_DATA, gpu_oa:oa_report lines followed by the counter
 * deltas from the previous report (oa/print.c) and, with -F ...,oa-metrics,
 * the counters of the recording's metric set.  On bad input one line
 * on stderr names the file, the byte offset and the problem.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "util/options.h"

#include "builtin.h"
#include "oa/print.h"
#include "perfdata/comm-table.h"
#include "perfdata/read.h"
#include "perfdata/trace-print.h"
#include "perfdata/tracing-data-read.h"
#include "util/debug.h"

/* Zeros after each payload copy, where a string without NUL stops. */
#define RAW_PAD			64

/* The fields -F can choose, perf script's names. */
enum {
	F_COMM = 1 << 0,
	F_TID = 1 << 1,
	F_PID = 1 << 2,
	F_CPU = 1 << 3,
	F_TIME = 1 << 4,
	F_EVENT = 1 << 5,
	F_TRACE = 1 << 6,
	F_OA_METRICS = 1 << 7,
};
#define F_DEFAULT (F_COMM | F_TID | F_CPU | F_TIME | F_EVENT | F_TRACE)

/* Per attr: its event, and for oa_report the stream's last report. */
struct script_event {
	struct tep_event *tep;
	bool is_oa, is_oa_device;
};

struct script {
	const char *input;
	bool ns;
	const char *fields_str;
	unsigned int fields;
	int verbose;

	struct pdr_file file;
	struct tep_handle *tep;
	struct script_event *events;	/* one per attr */
	int name_width;
	struct comm_table comms;
	uint8_t *scratch;		/* a payload copy, RAW_PAD zeros after */
	struct trace_seq seq;
	uint64_t samples, lost, oa_lost;
	struct script_oa oa;		/* the OA reports' stream */
};

/* A COMM record: pid, tid, the name; the trailer after it is not used. */
static int on_comm(struct script *sc, const struct pdr_record *r)
{
	const char *name;
	int32_t tid;
	size_t len;

	if (pdr_parse_comm(&sc->file, r, &tid, &name, &len))
		return -1;
	/* perf shows at most 15 characters, the kernel's TASK_COMM_LEN. */
	if (comm_table_set(&sc->comms, tid, name, len))
		return pdr_error(&sc->file, r->offset, "out of memory");
	return 0;
}

static int on_lost(struct script *sc, const struct pdr_record *r)
{
	const struct pdr_attr *a;
	uint64_t id, n;

	if (pdr_parse_lost(&sc->file, r, &id, &n))
		return -1;
	sc->lost += n;
	a = pdr_attr_of_id(&sc->file, id);
	if (a && sc->events[a - sc->file.attrs].is_oa)
		sc->oa_lost += n;
	return 0;
}

static void print_prefix(struct script *sc, const struct pdr_sample *s,
			 const struct script_event *ev)
{
	uint64_t secs = s->time / 1000000000ull, ns = s->time % 1000000000ull;
	const char *comm;

	if (sc->fields & F_COMM) {
		comm = comm_table_get(&sc->comms, s->tid);
		if (comm) {
			printf("%16s", comm);
		} else {
			char unknown[16];

			/* perf names a thread without COMM ":tid". */
			snprintf(unknown, sizeof(unknown), ":%d", s->tid);
			printf("%16s", unknown);
		}
	}
	if (sc->fields & F_PID)
		printf(" %5d", s->pid);
	if (sc->fields & F_TID)
		printf(" %5d", s->tid);
	if (sc->fields & F_CPU)
		printf(" [%03u]", s->cpu);
	if (sc->fields & F_TIME) {
		if (sc->ns)
			printf(" %5llu.%09llu:", (unsigned long long)secs,
			       (unsigned long long)ns);
		else
			printf(" %5llu.%06llu:", (unsigned long long)secs,
			       (unsigned long long)(ns / 1000));
	}
	if (sc->fields & F_EVENT) {
		char name[256];

		snprintf(name, sizeof(name), "%s:%s", ev->tep->system, ev->tep->name);
		printf(" %*s:", sc->name_width, name);
	}
}

/* String field @name of @s into @buf, "" when it has none. */
static void oa_device_str(const struct script_event *ev,
			  const struct pdr_sample *s, const char *name,
			  char *buf, size_t size)
{
	uint32_t off, len;

	buf[0] = '\0';
	if (!script_raw_dynamic(s, ev->tep, name, &off, &len))
		snprintf(buf, size, "%.*s", (int)len, (const char *)s->raw + off);
}

/* -F ...,oa-metrics: the metric set of the reports after @s. */
static int oa_device_metrics(struct script *sc, const struct script_event *ev,
			     const struct pdr_sample *s,
			     const unsigned long long *v)
{
	struct oa_metrics_device dev = {
		.device_id = v[0], .timestamp_frequency = v[5],
		.revision = v[6], .gt_min_hz = v[7], .gt_max_hz = v[8],
	};
	char set[128], uuid[64];
	uint32_t off, len;

	oa_device_str(ev, s, "metric_set", set, sizeof(set));
	oa_device_str(ev, s, "metric_set_uuid", uuid, sizeof(uuid));
	if (!script_raw_dynamic(s, ev->tep, "topology", &off, &len)) {
		dev.topology = s->raw + off;
		dev.topology_len = len;
	}
	return script_oa_set_metrics(&sc->oa, &dev, set, uuid);
}

/* A gpu_oa:oa_device sample: how the reports after it are decoded. */
static int oa_device(struct script *sc, const struct script_event *ev,
		     const struct pdr_sample *s)
{
	static const char *const names[] = {
		"device_id", "oa_format", "kernel", "submission", "driver",
		"timestamp_frequency", "revision", "gt_min_frequency",
		"gt_max_frequency",
	};
	struct tep_record rec = { .data = sc->scratch, .size = s->raw_size };
	size_t i, n = sc->fields & F_OA_METRICS ? 9 : 5;
	unsigned long long v[9];
	struct gpuprof_oa_driver drv;

	/* A field a recording lacks is 0: "driver" before xe is i915. */
	for (i = 0; i < n; i++)
		if (tep_get_field_val(NULL, ev->tep, names[i], &rec, &v[i], 0))
			v[i] = 0;
	drv = (struct gpuprof_oa_driver){ .kernel = v[2], .submission = v[3],
					  .driver = v[4] };
	script_oa_set_device(&sc->oa, v[0], v[1], &drv);
	if (sc->fields & F_OA_METRICS)
		return oa_device_metrics(sc, ev, s, v);
	return 0;
}

static int on_sample(struct script *sc, const struct pdr_record *r)
{
	struct tep_record rec = { 0 };
	struct script_event *ev;
	struct pdr_sample s;
	uint32_t off, len;

	if (pdr_parse_sample(&sc->file, r, &s))
		return -1;
	ev = &sc->events[s.attr - sc->file.attrs];
	/* Only tracepoints have a payload to print. */
	if (!ev->tep)
		return 0;
	if (!s.raw)
		return pdr_error(&sc->file, r->offset, "tracepoint sample without RAW");
	if (script_raw_check(&sc->file, &s, ev->tep))
		return -1;
	memcpy(sc->scratch, s.raw, s.raw_size);
	memset(sc->scratch + s.raw_size, 0, RAW_PAD);
	sc->samples++;

	print_prefix(sc, &s, ev);
	if (sc->fields & F_TRACE) {
		rec.ts = s.time;
		rec.cpu = s.cpu;
		rec.size = s.raw_size;
		rec.data = sc->scratch;
		trace_seq_reset(&sc->seq);
		/* Where the print fmt would divide by zero: the fields. */
		tep_print_event(sc->tep, &sc->seq, &rec, "%s",
				script_raw_divides_by_zero(&s, ev->tep) ?
				TEP_PRINT_INFO_RAW : TEP_PRINT_INFO);
		trace_seq_terminate(&sc->seq);
		printf(" %s", sc->seq.buffer);
	}
	if (ev->is_oa_device && oa_device(sc, ev, &s))
		return pdr_error(&sc->file, r->offset, "out of memory");
	if (ev->is_oa && !script_raw_dynamic(&s, ev->tep, "report", &off, &len))
		script_oa_print(&sc->oa, s.raw + off, len, stdout);
	putchar('\n');
	return 0;
}

static int load_events(struct script *sc)
{
	struct pdr_file *f = &sc->file;
	struct tep_event **evs;
	size_t i;
	int ret;

	sc->events = calloc(f->nr_attrs, sizeof(*sc->events));
	evs = calloc(f->nr_attrs ? f->nr_attrs : 1, sizeof(*evs));
	sc->tep = tep_alloc();
	if (!sc->events || !evs || !sc->tep) {
		free(evs);
		return pdr_error(f, 0, "out of memory");
	}
	ret = tracing_data_events(f, sc->tep, evs);
	for (i = 0; !ret && i < f->nr_attrs; i++) {
		struct script_event *ev = &sc->events[i];
		int n;

		ev->tep = evs[i];
		if (!ev->tep)
			continue;
		ev->is_oa = !strcmp(ev->tep->system, "gpu_oa") &&
			    !strcmp(ev->tep->name, "oa_report");
		ev->is_oa_device = !strcmp(ev->tep->system, "gpu_oa") &&
				   !strcmp(ev->tep->name, "oa_device");
		/* perf aligns the names to the longest of the file. */
		n = strlen(ev->tep->system) + 1 + strlen(ev->tep->name);
		if (n > sc->name_width)
			sc->name_width = n < 255 ? n : 255;
	}
	free(evs);
	return ret;
}

static int run(struct script *sc)
{
	struct pdr_file *f = &sc->file;
	struct pdr_record r;
	uint64_t pos;
	int ret;

	if (pdr_open(f, sc->input) || load_events(sc))
		return -1;
	sc->scratch = malloc(0xffff + RAW_PAD);
	if (!sc->scratch)
		return pdr_error(f, 0, "out of memory");
	pos = f->data_offset;
	while ((ret = pdr_next_record(f, &pos, &r)) > 0) {
		switch (r.type) {
		case PERF_RECORD_SAMPLE:
			ret = on_sample(sc, &r);
			break;
		case PERF_RECORD_COMM:
			ret = on_comm(sc, &r);
			break;
		case PERF_RECORD_LOST:
			ret = on_lost(sc, &r);
			break;
		default:
			/* MMAP, FORK, FINISHED_ROUND, ...: nothing to print. */
			ret = 0;
			break;
		}
		if (ret)
			return -1;
	}
	if (ret < 0)
		return -1;
	if (sc->lost)
		printf("lost %llu events\n", (unsigned long long)sc->lost);
	if (sc->oa_lost)
		printf("lost %llu OA reports (gpu_oa:oa_report)\n",
		       (unsigned long long)sc->oa_lost);
	return 0;
}

static int parse_fields(struct script *sc)
{
	static const struct { const char *name; unsigned int bit; } names[] = {
		{ "comm", F_COMM }, { "tid", F_TID }, { "pid", F_PID },
		{ "cpu", F_CPU }, { "time", F_TIME }, { "event", F_EVENT },
		{ "trace", F_TRACE }, { "oa-metrics", F_OA_METRICS },
	};
	char *copy, *tok, *save;
	size_t i;

	if (!sc->fields_str) {
		sc->fields = F_DEFAULT;
		return 0;
	}
	copy = strdup(sc->fields_str);
	if (!copy)
		return -1;
	sc->fields = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strcmp(tok, names[i].name))
				break;
		if (i == sizeof(names) / sizeof(names[0])) {
			pr_err("unknown field '%s' (comm,tid,pid,cpu,time,event,trace,oa-metrics)\n",
			       tok);
			free(copy);
			return -1;
		}
		sc->fields |= names[i].bit;
	}
	free(copy);
	return 0;
}

static void cleanup(struct script *sc)
{
	if (sc->tep)
		tep_free(sc->tep);
	free(sc->events);
	comm_table_free(&sc->comms);
	free(sc->scratch);
	trace_seq_destroy(&sc->seq);
	script_oa_exit(&sc->oa);
	pdr_close(&sc->file);
}

int cmd_script(int argc, const char **argv)
{
	struct script sc = { .input = "perf.data" };
	const struct option options[] = {
		OPT_STRING('i', "input", &sc.input, "file", "input file name"),
		OPT_BOOLEAN(0, "ns", &sc.ns, "Use 9 decimal places when displaying time"),
		OPT_STRING('F', "fields", &sc.fields_str, "str",
			   "comma separated output fields: comm,tid,pid,cpu,time,event,trace,oa-metrics"),
		OPT_INCR('v', "verbose", &sc.verbose, "be more verbose"),
		OPT_END()
	};
	const char *const usage[] = { "perf gpu script [<options>]", NULL };
	int ret;

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc)
		usage_with_options(usage, options);
	if (parse_fields(&sc))
		return 1;
	/* libtraceevent's warnings would be lines beside the one error. */
	tep_set_loglevel(sc.verbose ? TEP_LOG_WARNING : TEP_LOG_NONE);
	trace_seq_init(&sc.seq);
	ret = run(&sc);
	fflush(stdout);
	if (ret)
		pr_err("%s: offset %llu: %s\n", sc.input,
		       (unsigned long long)sc.file.err_offset, sc.file.err);
	if (sc.verbose && !ret)
		pr_err("%llu samples\n",
		       (unsigned long long)sc.samples);
	cleanup(&sc);
	return ret ? 1 : 0;
}
