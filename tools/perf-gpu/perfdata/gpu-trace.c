// SPDX-License-Identifier: GPL-2.0-only
/*
 * The GPU events of a perf.data, decoded (perfdata/gpu-trace.h).
 *
 * Each tracepoint attr is mapped once, at open, to a kind by its
 * "system:event" name, and the fields that kind needs are looked up in
 * its format then: a sample costs a few reads at known offsets, not a
 * search by name.  Payloads are checked against their format
 * (script_raw_check) before any field is read, so every offset and
 * __data_loc read below lies inside the payload.
 */
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "../../../uapi/gpuprof_oa.h"
#include "perfdata/comm-table.h"
#include "perfdata/fence-number.h"
#include "perfdata/gpu-trace.h"
#include "perfdata/trace-print.h"
#include "perfdata/tracing-data-read.h"
#include "util/array.h"

#define MAX_FIELDS		12
/*
 * A payload is at most 64 KiB, and an event reads at most MAX_FIELDS
 * strings from it (which may overlap): their copies, NULs added, fit.
 */
#define SCRATCH_SIZE		(MAX_FIELDS * (0x10000 + 1))

/* Where a kind keeps the fields it reads, in the order of its table. */
enum { F_NUMBER, F_STRING, F_BYTES, F_OPTIONAL_NUMBER };

struct field_want {
	const char *name;
	int type;
};

struct kind_desc {
	const char *name;	/* "system:event" */
	enum gpu_event_kind kind;
	struct field_want fields[MAX_FIELDS];
};

static const struct field_want fence_fields[MAX_FIELDS] = {
	{ "driver", F_STRING }, { "timeline", F_STRING },
	{ "context", F_NUMBER }, { "seqno", F_NUMBER },
};

/* The fields of drm_sched's stable job events and dependency events. */
#define SCHED_JOB \
	{ { "fence_context", F_NUMBER }, { "fence_seqno", F_NUMBER }, \
	  { "name", F_STRING }, { "dev", F_STRING }, \
	  { "client_id", F_NUMBER }, { "job_count", F_NUMBER }, \
	  { "hw_job_count", F_NUMBER } }
#define SCHED_DEP \
	{ { "fence_context", F_NUMBER }, { "fence_seqno", F_NUMBER }, \
	  { "ctx", F_NUMBER }, { "seqno", F_NUMBER } }

static const struct kind_desc kinds[] = {
	{ "dma_fence:dma_fence_init", GPU_EV_FENCE_INIT,
	  { { "driver", F_STRING }, { "timeline", F_STRING },
	    { "context", F_NUMBER }, { "seqno", F_NUMBER } } },
	{ "dma_fence:dma_fence_signaled", GPU_EV_FENCE_SIGNALED,
	  { { "driver", F_STRING }, { "timeline", F_STRING },
	    { "context", F_NUMBER }, { "seqno", F_NUMBER } } },
	{ "drm:drm_vblank_event", GPU_EV_VBLANK,
	  { { "crtc", F_NUMBER }, { "seq", F_NUMBER },
	    { "time", F_OPTIONAL_NUMBER } } },
	/* A vblank or page-flip event sent to a client's file. */
	{ "drm:drm_vblank_event_delivered", GPU_EV_VBLANK_DELIVERED,
	  { { "file", F_NUMBER }, { "crtc", F_NUMBER }, { "seq", F_NUMBER } } },
	{ "gpuprof:gpuprof_mark", GPU_EV_MARK,
	  { { "pid", F_NUMBER }, { "text", F_STRING } } },
	/* trace_marker's text: buf is a flexible char[] in 6.1. */
	{ "ftrace:print", GPU_EV_MARK, { { "buf", F_STRING } } },
	{ "gpu_oa:oa_report", GPU_EV_OA_REPORT,
	  { { "gpu_time", F_NUMBER }, { "ctx_id", F_NUMBER },
	    { "reason", F_NUMBER }, { "report", F_BYTES } } },
	{ "gpu_oa:oa_device", GPU_EV_OA_DEVICE,
	  { { "timestamp_frequency", F_NUMBER }, { "device_id", F_NUMBER },
	    { "revision", F_NUMBER }, { "gt_min_frequency", F_NUMBER },
	    { "gt_max_frequency", F_NUMBER }, { "oa_format", F_NUMBER },
	    { "kernel", F_NUMBER }, { "submission", F_NUMBER },
	    { "metric_set", F_STRING }, { "metric_set_uuid", F_STRING },
	    { "topology", F_BYTES },
	    /* Since xe: recordings before it are i915's. */
	    { "driver", F_OPTIONAL_NUMBER } } },
	{ "gpu_oa:oa_correlation", GPU_EV_OA_CORRELATION,
	  { { "cpu_time", F_NUMBER }, { "gpu_time", F_NUMBER },
	    { "bound_ns", F_NUMBER }, { "bounded", F_NUMBER } } },
	{ "gpu_client:fdinfo", GPU_EV_FDINFO,
	  { { "client_id", F_NUMBER }, { "fd", F_NUMBER },
	    { "driver", F_STRING }, { "pdev", F_STRING },
	    { "stats", F_STRING } } },
	/* gpu_scheduler_trace.h, "DOC: uAPI trace events" (6.17+). */
	{ "gpu_scheduler:drm_sched_job_queue", GPU_EV_SCHED_QUEUE, SCHED_JOB },
	{ "gpu_scheduler:drm_sched_job_run", GPU_EV_SCHED_RUN, SCHED_JOB },
	{ "gpu_scheduler:drm_sched_job_done", GPU_EV_SCHED_DONE,
	  { { "fence_context", F_NUMBER }, { "fence_seqno", F_NUMBER } } },
	{ "gpu_scheduler:drm_sched_job_add_dep", GPU_EV_SCHED_DEP, SCHED_DEP },
	{ "gpu_scheduler:drm_sched_job_unschedulable", GPU_EV_SCHED_BLOCKED,
	  SCHED_DEP },
};

/* What a dma_fence event does to an init held for its number. */
enum fence_end { END_NONE, END_EMIT, END_SIGNAL, END_DESTROY };

/*
 * An init held until its emit numbers it (perfdata/fence-number.h), its
 * strings copied: the record's and the thread's name may be gone by then.
 */
struct held_init {
	struct gpu_event ev;
	char strings[];
};

/* One attr of the file. */
struct trace_attr {
	struct tep_event *tep;		/* NULL: not a tracepoint */
	const struct kind_desc *desc;	/* NULL: OTHER */
	bool has_fence;			/* an OTHER dma_fence event with the fields */
	enum fence_end end;		/* what it does to a fence held unnumbered */
	struct tep_format_field *f[MAX_FIELDS];
};

struct trace_cgroup {
	uint64_t id;
	char *path;
};

struct gpu_trace {
	struct pdr_file file;
	struct tep_handle *tep;
	struct trace_attr *attrs;
	struct gpu_trace_event_info *info;
	uint64_t pos;
	bool done;			/* at the end, or failed */
	bool opened;			/* header, attrs, features checked */
	uint64_t lost_unknown;
	struct comm_table comms;	/* thread names */
	/* Cgroup paths by id, in the order first named (a few hundred). */
	struct trace_cgroup *cgroups;
	size_t nr_cgroups, alloc_cgroups;
	char *scratch;
	size_t scratch_used;
	/* Fences numbered at emit. */
	struct fence_number *numbering;
	struct held_init *out;		/* given out last, freed at the next */
	uint64_t replay;		/* a record to read again, or NO_REPLAY */
	char err[200];
};

#define NO_REPLAY UINT64_MAX

/* Stop, and keep the error as gpu_trace_error() gives it. */
static int fail(struct gpu_trace *t)
{
	t->done = true;
	snprintf(t->err, sizeof(t->err), "offset %llu: %s",
		 (unsigned long long)t->file.err_offset,
		 t->file.err[0] ? t->file.err : "unknown error");
	return -1;
}

/* libtraceevent reads common_type where the first event has it. */
static bool is_number(const struct tep_format_field *f)
{
	return !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) &&
	       (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8);
}

/* A __data_loc char[] (6.1's __string) or a char array, fixed or flexible. */
static bool is_string(const struct tep_format_field *f)
{
	if (f->flags & TEP_FIELD_IS_DYNAMIC)
		return f->size >= 4;
	return (f->flags & TEP_FIELD_IS_ARRAY) && strstr(f->type, "char");
}

/*
 * Look up the fields of @want in @ev; 0 when all are there with the
 * right shape, else -1 with @note saying which is not.
 */
static int find_fields(struct tep_event *ev, const struct field_want *want,
		       struct tep_format_field **out, char *note, size_t size)
{
	struct tep_format_field *f;
	bool ok;
	int i;

	for (i = 0; i < MAX_FIELDS && want[i].name; i++) {
		f = tep_find_field(ev, want[i].name);
		out[i] = f;
		if (!f && want[i].type == F_OPTIONAL_NUMBER)
			continue;
		if (!f) {
			snprintf(note, size, "format has no field %s", want[i].name);
			return -1;
		}
		switch (want[i].type) {
		case F_STRING:
			ok = is_string(f);
			break;
		case F_BYTES:
			ok = (f->flags & TEP_FIELD_IS_DYNAMIC) && f->size >= 4;
			break;
		default:
			ok = is_number(f);
		}
		if (!ok) {
			snprintf(note, size, "field %s is not a %s", want[i].name,
				 want[i].type == F_STRING ? "string" :
				 want[i].type == F_BYTES ? "dynamic array" : "number");
			return -1;
		}
	}
	return 0;
}

static void map_attr(struct gpu_trace *t, size_t i)
{
	struct gpu_trace_event_info *info = &t->info[i];
	struct trace_attr *a = &t->attrs[i];
	struct tep_format_field *f[MAX_FIELDS];
	size_t k;

	snprintf(info->name, sizeof(info->name), "%s:%s", a->tep->system,
		 a->tep->name);
	info->kind = GPU_EV_OTHER;
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		if (strcmp(info->name, kinds[k].name))
			continue;
		if (find_fields(a->tep, kinds[k].fields, a->f, info->note,
				sizeof(info->note)))
			return;
		a->desc = &kinds[k];
		info->kind = kinds[k].kind;
		if (info->kind == GPU_EV_FENCE_SIGNALED)
			a->end = END_SIGNAL;
		return;
	}
	/* dma_fence_destroy and the others of the class: fence fields too. */
	if (!strcmp(a->tep->system, "dma_fence") &&
	    !find_fields(a->tep, fence_fields, f, info->note, sizeof(info->note))) {
		memcpy(a->f, f, sizeof(f));
		a->has_fence = true;
		if (!strcmp(a->tep->name, "dma_fence_emit"))
			a->end = END_EMIT;
		else if (!strcmp(a->tep->name, "dma_fence_destroy"))
			a->end = END_DESTROY;
	}
	info->note[0] = '\0';
}

static int load_events(struct gpu_trace *t)
{
	struct pdr_file *f = &t->file;
	struct tep_event **evs;
	size_t i;
	int ret;

	t->attrs = calloc(f->nr_attrs ? f->nr_attrs : 1, sizeof(*t->attrs));
	t->info = calloc(f->nr_attrs ? f->nr_attrs : 1, sizeof(*t->info));
	evs = calloc(f->nr_attrs ? f->nr_attrs : 1, sizeof(*evs));
	t->tep = tep_alloc();
	if (!t->attrs || !t->info || !evs || !t->tep) {
		free(evs);
		return pdr_error(f, 0, "out of memory");
	}
	ret = tracing_data_events(f, t->tep, evs);
	for (i = 0; !ret && i < f->nr_attrs; i++) {
		const struct pdr_attr *pa = &f->attrs[i];

		t->attrs[i].tep = evs[i];
		if (evs[i])
			map_attr(t, i);
		else
			snprintf(t->info[i].name, sizeof(t->info[i].name),
				 "type %u config %llu", pa->type,
				 (unsigned long long)pa->config);
	}
	free(evs);
	return ret;
}

struct gpu_trace *gpu_trace_open(const char *path)
{
	struct gpu_trace *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->scratch = malloc(SCRATCH_SIZE);
	t->numbering = fence_number_new();
	if (!t->scratch || !t->numbering) {
		free(t->scratch);
		fence_number_free(t->numbering, NULL);
		free(t);
		return NULL;
	}
	if (pdr_open(&t->file, path) || load_events(t))
		fail(t);
	else
		t->opened = true;
	t->pos = t->file.data_offset;
	t->replay = NO_REPLAY;
	return t;
}

const char *gpu_trace_comm(const struct gpu_trace *t, int32_t tid)
{
	return comm_table_get(&t->comms, tid);
}

static int on_comm(struct gpu_trace *t, const struct pdr_record *r)
{
	const char *name;
	int32_t tid;
	size_t len;

	if (pdr_parse_comm(&t->file, r, &tid, &name, &len))
		return -1;
	if (comm_table_set(&t->comms, tid, name, len))
		return pdr_error(&t->file, r->offset, "out of memory");
	return 0;
}

static struct trace_cgroup *cgroup_find(const struct gpu_trace *t, uint64_t id)
{
	size_t i;

	for (i = 0; i < t->nr_cgroups; i++)
		if (t->cgroups[i].id == id)
			return &t->cgroups[i];
	return NULL;
}

/* A cgroup named again (at the start, then by the kernel) takes the new path. */
static int on_cgroup(struct gpu_trace *t, const struct pdr_record *r)
{
	struct trace_cgroup *cg;
	const char *path;
	uint64_t id;
	size_t len;
	char *copy;

	if (pdr_parse_cgroup(&t->file, r, &id, &path, &len))
		return -1;
	copy = strndup(path, len);
	cg = cgroup_find(t, id);
	if (!cg && copy &&
	    !ARRAY_RESERVE(t->cgroups, t->alloc_cgroups, t->nr_cgroups + 1)) {
		cg = &t->cgroups[t->nr_cgroups++];
		cg->id = id;
		cg->path = NULL;
	}
	if (!cg || !copy) {
		free(copy);
		return pdr_error(&t->file, r->offset, "out of memory");
	}
	free(cg->path);
	cg->path = copy;
	return 0;
}

const char *gpu_trace_cgroup_path(const struct gpu_trace *t, uint64_t id)
{
	const struct trace_cgroup *cg = cgroup_find(t, id);

	return cg ? cg->path : NULL;
}

static int on_lost(struct gpu_trace *t, const struct pdr_record *r)
{
	const struct pdr_attr *a;
	uint64_t id, n;

	if (pdr_parse_lost(&t->file, r, &id, &n))
		return -1;
	a = pdr_attr_of_id(&t->file, id);
	if (!a) {
		t->lost_unknown += n;
		return 0;
	}
	t->info[a - t->file.attrs].lost += n;
	return 0;
}

static uint64_t number(const struct pdr_sample *s, struct tep_format_field *f)
{
	unsigned long long v = 0;

	tep_read_number_field(f, s->raw, &v);
	return v;
}

/* Where a checked string field's bytes are: __data_loc, or in place. */
static void string_extent(const struct pdr_sample *s,
			  const struct tep_format_field *f, uint32_t *off,
			  uint32_t *len)
{
	uint32_t loc;

	if (!(f->flags & TEP_FIELD_IS_DYNAMIC)) {
		*off = f->offset;
		/* A flexible array (size 0) runs to the payload's end. */
		*len = f->size ? (uint32_t)f->size : s->raw_size - f->offset;
		return;
	}
	memcpy(&loc, s->raw + f->offset, 4);
	*off = loc & 0xffff;
	*len = loc >> 16;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		*off += f->offset + f->size;
}

/* The field's text, up to its first NUL, copied into the scratch. */
static const char *string(struct gpu_trace *t, const struct pdr_sample *s,
			  struct tep_format_field *f)
{
	char *out = t->scratch + t->scratch_used;
	uint32_t off, len;
	size_t n;

	string_extent(s, f, &off, &len);
	n = strnlen((const char *)s->raw + off, len);
	/* Strings lie within the payload: together they fit. */
	memcpy(out, s->raw + off, n);
	out[n] = '\0';
	t->scratch_used += n + 1;
	return out;
}

static void read_fence(struct gpu_trace *t, const struct pdr_sample *s,
		       struct trace_attr *a, struct gpu_event *ev)
{
	ev->fence.driver = string(t, s, a->f[0]);
	ev->fence.timeline = string(t, s, a->f[1]);
	ev->fence.context = number(s, a->f[2]);
	ev->fence.seqno = number(s, a->f[3]);
	ev->fence.submitted = s->time;
}

static void read_mark(struct gpu_trace *t, const struct pdr_sample *s,
		      struct trace_attr *a, struct gpu_event *ev)
{
	char *text;
	size_t n;

	if (a->f[1]) {
		ev->mark.pid = number(s, a->f[0]);
		text = (char *)string(t, s, a->f[1]);
	} else {
		/* ftrace:print: the writer is the sample's process. */
		ev->mark.pid = s->pid;
		text = (char *)string(t, s, a->f[0]);
	}
	n = strlen(text);
	if (n && text[n - 1] == '\n')
		text[n - 1] = '\0';
	ev->mark.text = text;
}

static void read_fields(struct gpu_trace *t, const struct pdr_sample *s,
			struct trace_attr *a, struct gpu_event *ev)
{
	uint32_t off, len;

	t->scratch_used = 0;
	switch (ev->kind) {
	case GPU_EV_FENCE_INIT:
	case GPU_EV_FENCE_SIGNALED:
		read_fence(t, s, a, ev);
		break;
	case GPU_EV_VBLANK:
		ev->vblank.crtc = number(s, a->f[0]);
		ev->vblank.seq = number(s, a->f[1]);
		ev->vblank.stamp = a->f[2] ? number(s, a->f[2]) : s->time;
		break;
	case GPU_EV_VBLANK_DELIVERED:
		ev->delivered.file = number(s, a->f[0]);
		ev->delivered.crtc = number(s, a->f[1]);
		ev->delivered.seq = number(s, a->f[2]);
		break;
	case GPU_EV_MARK:
		read_mark(t, s, a, ev);
		break;
	case GPU_EV_OA_REPORT:
		ev->oa.gpu_time = number(s, a->f[0]);
		ev->oa.ctx_id = number(s, a->f[1]);
		ev->oa.reason = number(s, a->f[2]);
		string_extent(s, a->f[3], &off, &len);
		ev->oa.report = s->raw + off;
		ev->oa.size = len;
		break;
	case GPU_EV_OA_DEVICE:
		ev->oa_device.timestamp_frequency = number(s, a->f[0]);
		ev->oa_device.device_id = number(s, a->f[1]);
		ev->oa_device.revision = number(s, a->f[2]);
		ev->oa_device.gt_min_hz = number(s, a->f[3]);
		ev->oa_device.gt_max_hz = number(s, a->f[4]);
		ev->oa_device.format = number(s, a->f[5]);
		ev->oa_device.kernel = number(s, a->f[6]);
		ev->oa_device.submission = number(s, a->f[7]);
		ev->oa_device.metric_set = string(t, s, a->f[8]);
		ev->oa_device.metric_uuid = string(t, s, a->f[9]);
		string_extent(s, a->f[10], &off, &len);
		ev->oa_device.topology = s->raw + off;
		ev->oa_device.topology_size = len;
		ev->oa_device.driver = a->f[11] ? number(s, a->f[11]) :
				       GPUPROF_OA_DRIVER_I915;
		break;
	case GPU_EV_OA_CORRELATION:
		ev->oa_corr.cpu_time = number(s, a->f[0]);
		ev->oa_corr.gpu_time = number(s, a->f[1]);
		ev->oa_corr.bounded = number(s, a->f[3]) != 0;
		ev->oa_corr.bound_ns = ev->oa_corr.bounded ?
				       number(s, a->f[2]) : 0;
		break;
	case GPU_EV_FDINFO:
		ev->fdinfo.client_id = number(s, a->f[0]);
		ev->fdinfo.fd = number(s, a->f[1]);
		ev->fdinfo.driver = string(t, s, a->f[2]);
		ev->fdinfo.pdev = string(t, s, a->f[3]);
		ev->fdinfo.stats = string(t, s, a->f[4]);
		break;
	case GPU_EV_SCHED_QUEUE:
	case GPU_EV_SCHED_RUN:
		ev->sched.ring = string(t, s, a->f[2]);
		ev->sched.dev = string(t, s, a->f[3]);
		ev->sched.client_id = number(s, a->f[4]);
		ev->sched.job_count = number(s, a->f[5]);
		ev->sched.hw_job_count = number(s, a->f[6]);
		/* fall through */
	case GPU_EV_SCHED_DONE:
		ev->sched.context = number(s, a->f[0]);
		ev->sched.seqno = number(s, a->f[1]);
		break;
	case GPU_EV_SCHED_DEP:
	case GPU_EV_SCHED_BLOCKED:
		ev->sched.context = number(s, a->f[0]);
		ev->sched.seqno = number(s, a->f[1]);
		ev->sched.dep_context = number(s, a->f[2]);
		ev->sched.dep_seqno = number(s, a->f[3]);
		break;
	case GPU_EV_OTHER:
		if (a->has_fence)
			read_fence(t, s, a, ev);
		break;
	}
}

/* 1 with @ev filled, 0 for a sample that is no tracepoint's, -1. */
static int on_sample(struct gpu_trace *t, const struct pdr_record *r,
		     struct gpu_event *ev)
{
	struct pdr_sample s;
	struct trace_attr *a;
	size_t i;

	if (pdr_parse_sample(&t->file, r, &s))
		return -1;
	i = s.attr - t->file.attrs;
	a = &t->attrs[i];
	if (r->offset != t->replay)
		t->info[i].samples++;
	if (!a->tep)
		return 0;
	if (!s.raw)
		return pdr_error(&t->file, r->offset, "tracepoint sample without RAW");
	if (script_raw_check(&t->file, &s, a->tep))
		return -1;
	memset(ev, 0, sizeof(*ev));
	ev->kind = t->info[i].kind;
	ev->attr = i;
	ev->name = t->info[i].name;
	ev->time = s.time;
	ev->pid = s.pid;
	ev->tid = s.tid;
	ev->cpu = s.cpu;
	ev->cgroup = s.has_cgroup ? s.cgroup : 0;
	ev->comm = gpu_trace_comm(t, s.tid);
	ev->offset = r->offset;
	read_fields(t, &s, a, ev);
	return 1;
}

/* ---- Fences numbered at emit (perfdata/fence-number.h). ---- */

/* A copy of @ev whose strings live as long as it does; NULL, no memory. */
static struct held_init *held_new(const struct gpu_event *ev)
{
	size_t ld = strlen(ev->fence.driver) + 1;
	size_t lt = strlen(ev->fence.timeline) + 1;
	size_t lc = ev->comm ? strlen(ev->comm) + 1 : 0;
	struct held_init *h = malloc(sizeof(*h) + ld + lt + lc);

	if (!h)
		return NULL;
	h->ev = *ev;
	h->ev.fence.driver = memcpy(h->strings, ev->fence.driver, ld);
	h->ev.fence.timeline = memcpy(h->strings + ld, ev->fence.timeline, lt);
	h->ev.comm = lc ? memcpy(h->strings + ld + lt, ev->comm, lc) : NULL;
	return h;
}

/* Give out @h as the event, until the next call. */
static int give_held(struct gpu_trace *t, struct held_init *h,
		     struct gpu_event *ev)
{
	t->out = h;
	*ev = h->ev;
	return 1;
}

/*
 * What the reader gives out for the sample @ev read at @at: 1 with @ev
 * (the sample, or an init it numbered, the sample read again next), 0
 * when the sample is an init held for its number, -1 out of memory.
 */
static int number_fence(struct gpu_trace *t, const struct trace_attr *a,
			struct gpu_event *ev, uint64_t at)
{
	struct held_init *h;
	void *evicted;

	if (at == t->replay) {
		t->replay = NO_REPLAY;
		return 1;
	}
	if (ev->kind == GPU_EV_FENCE_INIT && !ev->fence.seqno &&
	    !fence_driver_is_container(ev->fence.driver)) {
		h = held_new(ev);
		if (!h || fence_number_hold(t->numbering, ev->fence.context,
					    ev->tid, h, &evicted)) {
			free(h);
			return pdr_error(&t->file, ev->offset, "out of memory");
		}
		return evicted ? give_held(t, evicted, ev) : 0;
	}
	if (a->end == END_NONE || (a->end != END_EMIT && ev->fence.seqno))
		return 1;
	h = fence_number_take(t->numbering, ev->fence.context, ev->tid);
	if (!h)
		return 1;
	if (a->end == END_DESTROY) {
		/* Never emitted, never ran: no job. */
		free(h);
		return 1;
	}
	if (a->end == END_EMIT) {
		/* Its number, and its start: it reached the GPU's queue. */
		h->ev.fence.seqno = ev->fence.seqno;
		h->ev.time = ev->time;
	}
	/* The sample itself comes next. */
	t->replay = at;
	t->pos = at;
	return give_held(t, h, ev);
}

bool gpu_trace_held_init(const struct gpu_trace *t, uint64_t *time)
{
	const struct held_init *h = fence_number_oldest(t->numbering);

	if (h)
		*time = h->ev.time;
	return h;
}

int gpu_trace_next(struct gpu_trace *t, struct gpu_event *ev)
{
	struct held_init *h;
	struct pdr_record r;
	uint64_t at;
	int ret;

	free(t->out);
	t->out = NULL;
	if (t->done && !t->err[0] &&
	    (h = fence_number_take_oldest(t->numbering)))
		/* Held to the end: initialised, never emitted nor ended. */
		return give_held(t, h, ev);
	if (t->done)
		return t->err[0] ? -1 : 0;
	for (;;) {
		at = t->pos;
		ret = pdr_next_record(&t->file, &t->pos, &r);
		if (ret <= 0)
			break;
		switch (r.type) {
		case PERF_RECORD_SAMPLE:
			ret = on_sample(t, &r, ev);
			if (ret > 0)
				ret = number_fence(t, &t->attrs[ev->attr], ev, at);
			if (ret)
				return ret < 0 ? fail(t) : 1;
			break;
		case PERF_RECORD_COMM:
			if (on_comm(t, &r))
				return fail(t);
			break;
		case PERF_RECORD_LOST:
			if (on_lost(t, &r))
				return fail(t);
			break;
		case PERF_RECORD_CGROUP:
			if (on_cgroup(t, &r))
				return fail(t);
			break;
		default:
			/* MMAP, FORK, EXIT, FINISHED_ROUND: no GPU event. */
			break;
		}
	}
	if (ret < 0)
		return fail(t);
	/* At the end: later calls give what is held, then 0. */
	t->done = true;
	return gpu_trace_next(t, ev);
}


const char *gpu_trace_error(const struct gpu_trace *t)
{
	return t->err[0] ? t->err : NULL;
}

unsigned int gpu_trace_nr_events(const struct gpu_trace *t)
{
	return t->info ? t->file.nr_attrs : 0;
}

const struct gpu_trace_event_info *gpu_trace_event(const struct gpu_trace *t,
						  unsigned int attr)
{
	return attr < gpu_trace_nr_events(t) ? &t->info[attr] : NULL;
}

uint64_t gpu_trace_lost_unknown(const struct gpu_trace *t)
{
	return t->lost_unknown;
}

bool gpu_trace_has_cgroups(const struct gpu_trace *t)
{
	size_t i;

	for (i = 0; i < t->file.nr_attrs; i++)
		if (t->file.attrs[i].sample_type & PERF_SAMPLE_CGROUP)
			return true;
	return false;
}

const char *gpu_trace_header_string(const struct gpu_trace *t,
				    unsigned int feat)
{
	struct pdr_file *f = (struct pdr_file *)&t->file;
	uint64_t off, size;
	uint32_t len;
	const char *s;

	/* pdr_open() checked every section: this cannot set an error. */
	if (!t->opened || pdr_feature(f, feat, &off, &size) || size < 4)
		return NULL;
	memcpy(&len, f->data + off, 4);
	if (len > size - 4)
		return NULL;
	s = (const char *)f->data + off + 4;
	return strnlen(s, len) < len ? s : NULL;
}

int gpu_trace_header_clock(const struct gpu_trace *t, uint32_t *clockid,
			   uint64_t *tod_ns, uint64_t *clock_ns)
{
	struct pdr_file *f = (struct pdr_file *)&t->file;
	uint64_t off, size;
	uint32_t version;

	if (!t->opened || pdr_feature(f, HEADER_CLOCK_DATA, &off, &size) ||
	    size < 24)
		return -1;
	memcpy(&version, f->data + off, 4);
	if (version != 1)
		return -1;
	memcpy(clockid, f->data + off + 4, 4);
	memcpy(tod_ns, f->data + off + 8, 8);
	memcpy(clock_ns, f->data + off + 16, 8);
	return 0;
}

int gpu_trace_header_nrcpus(const struct gpu_trace *t, uint32_t *avail,
			    uint32_t *online)
{
	struct pdr_file *f = (struct pdr_file *)&t->file;
	uint64_t off, size;

	if (!t->opened || pdr_feature(f, HEADER_NRCPUS, &off, &size) || size < 8)
		return -1;
	memcpy(avail, f->data + off, 4);
	memcpy(online, f->data + off + 4, 4);
	return 0;
}

const struct pdr_file *gpu_trace_file(const struct gpu_trace *t)
{
	return &t->file;
}

void gpu_trace_close(struct gpu_trace *t)
{
	if (!t)
		return;
	if (t->tep)
		tep_free(t->tep);
	free(t->attrs);
	free(t->info);
	comm_table_free(&t->comms);
	while (t->nr_cgroups)
		free(t->cgroups[--t->nr_cgroups].path);
	free(t->cgroups);
	free(t->scratch);
	free(t->out);
	fence_number_free(t->numbering, free);
	pdr_close(&t->file);
	free(t);
}
