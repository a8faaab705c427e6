// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu convert --to-perfetto: a recording as a Perfetto trace
 * (perfetto/trace.h), as perf data convert makes other formats of a
 * perf.data.  The figures are perf gpu report's own: the recording is
 * read once through report's model (report/model.h), whose hooks hand
 * over each job at its signal, each OA report's parts and every event.
 *
 * What the trace holds (Documentation/perf-gpu.rst, "perf gpu convert"):
 *
 * - a process track per client (pid, name, its cgroup as a process
 *   label), its jobs as slices named driver/timeline from init to signal,
 *   with a "queue" child (drm_sched's and emit-numbered jobs') and a
 *   "run" child (the running interval report's BUSY is the union of),
 *   after a "dependency" child where drm_sched's stable events showed
 *   the job waiting for its dependencies (report_job_run's dep_end),
 *   none when the job ran from its init: it is its own run;
 * - a track per timeline ("ring driver/timeline"), each client's running
 *   intervals on it, named by the client;
 * - jobs that overlap on one track go on lanes, child tracks of one name
 *   (perfetto/sorter.h), so slices always nest;
 * - per client, a counter of its GPU busy share (%) in each window of
 *   --window (10 ms by default) from the recording's first event: the
 *   union of its running intervals within the window over the window;
 * - with --oa-metrics, per client and metric a counter whose value at a
 *   window's start is the metric over the OA deltas the client got in
 *   that window, computed as report --oa-metrics computes a row;
 * - vblanks and page flips (those delivered to a file) as instants on a
 *   track per CRTC index, at their sample time;
 * - marked ranges (report/ranges.h) as slices on a "marks" track of
 *   their process.
 *
 * Packets go on four sequences, each in time order: 1 the slices and
 * instants (held in a sorter until no job can start before them), 2 the
 * busy counters, 3 the OA counters, 4 the ranges (known at the end).
 * Memory: the sorter holds what lies between the oldest job in flight
 * (at most --horizon old) and the present, the rest is per client,
 * timeline or CRTC, and the ranges are report's (65536 at most).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include "util/options.h"

#include "builtin.h"
#include "perfdata/gpu-trace.h"
#include "perfetto/sorter.h"
#include "perfetto/trace.h"
#include "report/model.h"
#include "report/oa-metrics.h"
#include "report/ranges.h"
#include "util/array.h"
#include "util/debug.h"
#include "util/file.h"
#include "util/heap.h"
#include "util/map.h"
#include "util/parse.h"

/* The sequences of the trace. */
enum { SEQ_SLICES, SEQ_BUSY, SEQ_OA, SEQ_MARKS, NR_SEQ };

/*
 * Track uuids: a kind in the low three bits, a number above, so that
 * the uuids every event carries are short varints; lanes are numbered
 * by the sorters, a uuid every UUID_KINDS from their kind up.
 */
enum { UUID_PROCESS = 1, UUID_RING, UUID_CRTC, UUID_BUSY, UUID_OA, UUID_LANES,
       UUID_MARK_LANES, UUID_KINDS };

static uint64_t uuid(unsigned int kind, uint64_t n)
{
	return n * UUID_KINDS + kind;
}

#define WINDOW_DEFAULT_NS	10000000ull	/* 10 ms */
#define HORIZON_DEFAULT_NS	10000000000ull	/* 10 s */
#define CLOCK_SLACK_NS		1000000000ll	/* 1 s */
/* Events between two looks at what the sorter may let go. */
#define DRAIN_EVERY		32
/* 11.5 days of 10 ms windows: each is a step while a client is busy. */
#define BUSY_WINDOWS_MAX	100000000ull

struct client {
	int32_t pid;
	uint64_t uuid;
	char label[48];			/* "comm (pid)" on ring slices */
	bool selected;
	uint64_t jobs;
	/* Busy: covered up to here; in the open window so far. */
	uint64_t covered, acc;
	double shown;			/* the last busy value written */
	/* OA: the deltas of the open window, its parts. */
	struct gpuprof_oa_deltas oa;
	uint64_t oa_parts;
	bool oa_tracks;
};

struct timeline {
	uint64_t uuid;
	char *name;			/* driver/timeline */
};

struct convert {
	const char *input, *output, *pid_str, *comm_str, *time_str;
	const char *metrics_str, *window_str, *horizon_str;
	bool to_perfetto;
	int verbose;
	struct name_list pids, comms;
	uint64_t t_start, t_end, window, horizon;

	struct gpu_trace *trace;
	struct report_model m;
	struct report_ranges ranges;
	struct report_hooks ranges_hooks;
	struct report_oa_metrics om;
	bool metrics_ready;

	FILE *f;
	struct pft_writer w[NR_SEQ];
	struct pft_sorter *sorter;

	struct u64_map client_of;	/* pid: index + 1 */
	struct client **clients;
	size_t nr_clients, alloc_clients;
	struct u64_map timeline_of;	/* report's id: index + 1 */
	struct timeline *tls;
	size_t nr_tls, alloc_tls;
	struct u64_map crtc_seen;

	/* Fences in flight: key context << 32 | seqno, their init time. */
	struct u64_map inflight;
	/*
	 * Their (time, key) in order of init: a queue while times go up
	 * (they do but for fences numbered at emit, whose init came before
	 * the emit they come out at), a heap for those that come out of
	 * order.  Both forget lazily what is no longer in flight.
	 */
	struct heap_entry *queue;
	size_t q_head, q_tail, q_alloc;
	struct heap inflight_heap;
	uint64_t now, origin, seen;
	uint64_t at;			/* the offset of the event being read */
	bool started;

	uint64_t busy_w;		/* the open busy window */
	uint64_t oa_w;			/* the open OA window */
	bool oa_open;

	uint64_t jobs, late, stale, instants, counters, ranges_written;
	int err;			/* -ENOMEM, -EIO, -EINVAL */
	char why[1024];			/* the message of -EINVAL */
};

static void fail(struct convert *c, int err)
{
	if (!c->err)
		c->err = err;
}

static uint64_t fence_key(const struct gpu_event *ev)
{
	return (uint64_t)ev->fence.context << 32 | ev->fence.seqno;
}

/* ---- the clock ---- */

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/*
 * BOOTTIME - CLOCK_MONOTONIC when the recording began: the time the
 * machine had been suspended.  The recording holds REALTIME beside
 * MONOTONIC at its start (HEADER_CLOCK_DATA); a suspend moves REALTIME
 * and BOOTTIME on against MONOTONIC alike, so on the machine and boot it
 * was made on, the suspend since then is the growth of REALTIME -
 * MONOTONIC, and the offset then is today's less that.  Elsewhere (other
 * host, or MONOTONIC now before the recording's start: another boot) the
 * offset is taken as 0, exact if the machine had never been suspended.
 * The time of day may have been stepped since (settimeofday, an NTP
 * step), which moves REALTIME - MONOTONIC as a suspend would: a step of
 * up to CLOCK_SLACK_NS is taken for one (and off by that much), a larger
 * one for another boot.
 */
static uint64_t boot_offset(struct convert *c, uint64_t tod, uint64_t mono)
{
	const char *host = gpu_trace_header_string(c->trace, HEADER_HOSTNAME);
	uint64_t m_now = clock_ns(CLOCK_MONOTONIC);
	int64_t b_now = clock_ns(CLOCK_BOOTTIME) - m_now;
	int64_t r_now = clock_ns(CLOCK_REALTIME) - m_now;
	int64_t suspended = r_now - (int64_t)(tod - mono);
	char here[256] = "";

	gethostname(here, sizeof(here) - 1);
	if (host && !strcmp(host, here) && mono <= m_now &&
	    suspended >= -CLOCK_SLACK_NS && suspended <= b_now + CLOCK_SLACK_NS) {
		if (suspended < 0)
			suspended = 0;
		return suspended > b_now ? 0 : b_now - suspended;
	}
	pr_err("%s was not recorded in this boot of this machine: BOOTTIME taken as CLOCK_MONOTONIC (exact if it had never been suspended)\n",
	       c->input);
	return 0;
}

static int write_clock(struct convert *c)
{
	uint64_t tod, mono, off;
	uint32_t clockid;

	if (gpu_trace_header_clock(c->trace, &clockid, &tod, &mono) ||
	    clockid != CLOCK_MONOTONIC || tod < mono) {
		pr_err("%s has no CLOCK_MONOTONIC clock data: BOOTTIME taken as CLOCK_MONOTONIC\n",
		       c->input);
		mono = 1000000000ull;
		return pft_clock_snapshot(&c->w[SEQ_SLICES], mono, mono, 0);
	}
	off = boot_offset(c, tod, mono);
	if (c->verbose)
		pr_err("BOOTTIME = CLOCK_MONOTONIC + %llu ns\n",
		       (unsigned long long)off);
	return pft_clock_snapshot(&c->w[SEQ_SLICES], mono, mono + off, tod);
}

/* ---- tracks ---- */

static bool client_selected(const struct convert *c, int32_t pid,
			    const char *comm)
{
	char s[16];

	snprintf(s, sizeof(s), "%d", pid);
	return (!c->pids.nr || name_list_has(&c->pids, s)) &&
	       (!c->comms.nr || (comm && name_list_has(&c->comms, comm)));
}

/* The process track of @pid, described at its first sight. */
static struct client *client_get(struct convert *c, int32_t pid,
				 uint64_t cgroup)
{
	const char *path, *comm;
	uint64_t idx;
	struct client *cl;
	char *label = NULL;
	int err;

	if (u64_map_get(&c->client_of, (uint32_t)pid, &idx))
		return c->clients[idx - 1];
	/* Its name and cgroup at its first sight. */
	comm = gpu_trace_comm(c->trace, pid);
	path = cgroup ? gpu_trace_cgroup_path(c->trace, cgroup) : NULL;
	cl = calloc(1, sizeof(*cl));
	if (!cl || ARRAY_RESERVE(c->clients, c->alloc_clients, c->nr_clients + 1) ||
	    u64_map_put(&c->client_of, (uint32_t)pid, c->nr_clients + 1)) {
		free(cl);
		fail(c, -ENOMEM);
		return NULL;
	}
	c->clients[c->nr_clients++] = cl;
	cl->pid = pid;
	cl->uuid = uuid(UUID_PROCESS, (uint32_t)pid);
	cl->selected = client_selected(c, pid, comm);
	snprintf(cl->label, sizeof(cl->label), "%s (%d)", comm ? comm : "?", pid);
	if (!cl->selected)
		return cl;
	if (path && asprintf(&label, "cgroup=%s", path) < 0) {
		fail(c, -ENOMEM);
		return cl;
	}
	err = pft_process_track(&c->w[SEQ_SLICES], cl->uuid, pid, comm, NULL,
				label) ||
	      pft_counter_track(&c->w[SEQ_SLICES], uuid(UUID_BUSY, (uint32_t)pid),
				cl->uuid, "GPU busy %", PFT_UNIT_NONE, "%");
	free(label);
	if (err)
		fail(c, -EIO);
	return cl;
}

static struct timeline *timeline_get(struct convert *c,
				     const struct report_timeline *rt)
{
	struct timeline *tl;
	uint64_t idx;
	char *ring;

	if (u64_map_get(&c->timeline_of, rt->id, &idx))
		return &c->tls[idx - 1];
	if (ARRAY_RESERVE(c->tls, c->alloc_tls, c->nr_tls + 1) ||
	    u64_map_put(&c->timeline_of, rt->id, c->nr_tls + 1)) {
		fail(c, -ENOMEM);
		return NULL;
	}
	tl = &c->tls[c->nr_tls++];
	tl->uuid = uuid(UUID_RING, rt->id);
	if (asprintf(&tl->name, "%s/%s", rt->driver, rt->name) < 0) {
		tl->name = NULL;
		fail(c, -ENOMEM);
		return NULL;
	}
	if (asprintf(&ring, "ring %s", tl->name) < 0) {
		fail(c, -ENOMEM);
		return NULL;
	}
	if (pft_track(&c->w[SEQ_SLICES], tl->uuid, 0, ring))
		fail(c, -EIO);
	free(ring);
	return tl;
}

/* ---- counters ---- */

static void counter(struct convert *c, int seq, uint64_t ts, uint64_t track,
		    double v)
{
	if (pft_counter(&c->w[seq], ts, track, v))
		fail(c, -EIO);
	c->counters++;
}

static uint64_t window_start(const struct convert *c, uint64_t w)
{
	return c->origin + w * c->window;
}

/* Close busy window c->busy_w: each client's share, when it changed. */
static void busy_close(struct convert *c)
{
	uint64_t ws = window_start(c, c->busy_w), we = ws + c->window;
	size_t i;

	for (i = 0; i < c->nr_clients; i++) {
		struct client *cl = c->clients[i];
		double v = 100.0 * cl->acc / c->window;

		if (cl->selected && v != cl->shown) {
			counter(c, SEQ_BUSY, ws, uuid(UUID_BUSY, (uint32_t)cl->pid), v);
			cl->shown = v;
		}
		/* What is covered beyond the window: [we, covered). */
		cl->acc = cl->covered > we ?
			  (cl->covered - we < c->window ? cl->covered - we : c->window) : 0;
	}
	c->busy_w++;
}

/* Close the busy windows that end at or before @t. */
static void busy_advance(struct convert *c, uint64_t t)
{
	bool pending;
	size_t i;

	while (window_start(c, c->busy_w + 1) <= t) {
		busy_close(c);
		pending = false;
		for (i = 0; i < c->nr_clients; i++)
			pending |= c->clients[i]->acc || c->clients[i]->shown != 0;
		/* Nothing to say until @t's window: jump there. */
		if (!pending && window_start(c, c->busy_w + 1) <= t)
			c->busy_w = (t - c->origin) / c->window;
	}
}

/* A running interval of @cl, begun at @s (in order of s), ending at @e. */
static void busy_add(struct convert *c, struct client *cl, uint64_t s,
		     uint64_t e)
{
	uint64_t we;

	busy_advance(c, s);
	we = window_start(c, c->busy_w + 1);
	if (s < cl->covered)
		s = cl->covered;
	if (e <= s)
		return;
	cl->acc += (e < we ? e : we) - s;
	cl->covered = e;
}

static void busy_finish(struct convert *c)
{
	bool pending = true;
	size_t i;

	while (pending) {
		busy_close(c);
		pending = false;
		for (i = 0; i < c->nr_clients; i++)
			pending |= c->clients[i]->acc || c->clients[i]->shown != 0;
	}
}

static uint64_t oa_uuid(const struct client *cl, unsigned int i)
{
	return uuid(UUID_OA, (uint64_t)(uint32_t)cl->pid << 16 | i);
}

/* The OA counter tracks of @cl, at its first window. */
static void oa_tracks(struct convert *c, struct client *cl)
{
	unsigned int i;
	char name[160];

	for (i = 0; i < c->om.n; i++) {
		snprintf(name, sizeof(name), "OA %s",
			 report_oa_metrics_name(&c->om, i));
		if (pft_counter_track(&c->w[SEQ_SLICES],
				      oa_uuid(cl, i),
				      cl->uuid, name, PFT_UNIT_NONE, NULL))
			fail(c, -EIO);
	}
	cl->oa_tracks = true;
}

/* Close OA window c->oa_w: each metric of each client that had reports. */
static void oa_close(struct convert *c)
{
	uint64_t ws = window_start(c, c->oa_w);
	const struct oa_metric_value *v;
	unsigned int i;
	size_t k;

	for (k = 0; k < c->nr_clients; k++) {
		struct client *cl = c->clients[k];

		if (!cl->oa_parts)
			continue;
		if (!cl->oa_tracks)
			oa_tracks(c, cl);
		report_oa_metrics_compute(&c->om, &cl->oa);
		for (i = 0; i < c->om.n; i++) {
			v = report_oa_metrics_value(&c->om, i);
			if (!v->is_double)
				counter(c, SEQ_OA, ws, oa_uuid(cl, i), v->u);
			else if (isfinite(v->d))
				counter(c, SEQ_OA, ws, oa_uuid(cl, i), v->d);
		}
		memset(&cl->oa, 0, sizeof(cl->oa));
		cl->oa_parts = 0;
	}
}

/*
 * The metric set, as soon as the first report shows it (report's
 * --oa-metrics decides at the end; a second set after this one is an
 * error there as here, seen at the end).
 */
static bool metrics_ready(struct convert *c)
{
	if (c->metrics_ready)
		return true;
	if (c->err)
		return false;
	if (report_oa_metrics_finish(&c->om, c->why, sizeof(c->why))) {
		fail(c, -EINVAL);
		return false;
	}
	c->metrics_ready = true;
	return true;
}

static void oa_part(void *arg, const struct report_oa_part *part)
{
	struct convert *c = arg;
	struct client *cl;
	uint64_t w;

	if (c->ranges_hooks.oa)
		c->ranges_hooks.oa(c->ranges_hooks.arg, part);
	if (!c->metrics_str || !part->client || !part->d ||
	    part->time < c->t_start || part->time > c->t_end ||
	    !metrics_ready(c))
		return;
	cl = client_get(c, part->client->pid,
			part->client->cgroup ? part->client->cgroup->id : 0);
	if (!cl || !cl->selected)
		return;
	w = (part->time - c->origin) / c->window;
	if (c->oa_open && w != c->oa_w)
		oa_close(c);
	c->oa_w = w;
	c->oa_open = true;
	report_oa_deltas_add(&cl->oa, part->d);
	cl->oa_parts++;
}

/* ---- slices ---- */

/* The name of a job's running phase, known by its address. */
static const char phase_run[] = "run";

/* Write the events the sorter holds up to @upto. */
static void drain(struct convert *c, uint64_t upto)
{
	struct pft_writer *w = &c->w[SEQ_SLICES];
	struct pft_event ev;
	int ret, err = 0;

	while (!c->err && (ret = pft_sorter_pop(c->sorter, upto, &ev))) {
		if (ret < 0) {
			fail(c, -ENOMEM);
			return;
		}
		switch (ev.kind) {
		case PFT_EV_BEGIN:
			if (ev.new_lane)
				err |= pft_track(w, ev.track, ev.group, ev.lane_name);
			err |= pft_slice_begin(w, ev.ts, ev.track, ev.name);
			/* The run phase of a client's job: its busy time. */
			if (ev.tag && (ev.phase ? ev.name == phase_run : !ev.nr_phases))
				busy_add(c, (struct client *)(uintptr_t)ev.tag,
					 ev.ts, ev.end);
			break;
		case PFT_EV_END:
			err |= pft_slice_end(w, ev.ts, ev.track);
			break;
		case PFT_EV_INSTANT:
			err |= pft_instant(w, ev.ts, ev.track, ev.name);
			break;
		}
		if (err)
			fail(c, -EIO);
	}
}

/*
 * Whether @e is still a fence in flight to wait for: else it is let go
 * (signaled, destroyed, or older than --horizon: taken as never to
 * signal, and forgotten).
 */
static bool still_waited(struct convert *c, const struct heap_entry *e)
{
	uint64_t t;

	if (!u64_map_get(&c->inflight, e->tie, &t) || t != e->key)
		return false;
	if (c->now - e->key <= c->horizon)
		return true;
	u64_map_del(&c->inflight, e->tie, NULL);
	c->stale++;
	return false;
}

/*
 * The time before which no job can begin any more: the oldest init of a
 * fence in flight, or held by the reader for its number, at most
 * --horizon before now.
 */
static uint64_t watermark(struct convert *c)
{
	const struct heap_entry *top;
	struct heap_entry e;
	uint64_t w = c->now, held;

	while (c->q_head < c->q_tail && !still_waited(c, &c->queue[c->q_head]))
		c->q_head++;
	if (c->q_head < c->q_tail && c->queue[c->q_head].key < w)
		w = c->queue[c->q_head].key;
	while ((top = heap_top(&c->inflight_heap)) && !still_waited(c, top))
		heap_pop(&c->inflight_heap, &e);
	if (top && top->key < w)
		w = top->key;
	/* An init the reader holds until its emit numbers it. */
	if (gpu_trace_held_init(c->trace, &held) && held < w &&
	    c->now - held <= c->horizon)
		w = held;
	return w;
}

/* Wait for fence @key inited at @t. */
static int wait_for(struct convert *c, uint64_t key, uint64_t t)
{
	size_t n = c->q_tail - c->q_head;

	if (u64_map_put(&c->inflight, key, t))
		return -1;
	if (n && t < c->queue[c->q_tail - 1].key)
		return heap_push(&c->inflight_heap, t, key, NULL);
	/* Move what is waited for down when the dead half is larger. */
	if (c->q_head > n) {
		memmove(c->queue, c->queue + c->q_head, n * sizeof(*c->queue));
		c->q_head = 0;
		c->q_tail = n;
	}
	if (ARRAY_RESERVE(c->queue, c->q_alloc, c->q_tail + 1))
		return -1;
	c->queue[c->q_tail++] = (struct heap_entry){ t, key, NULL };
	return 0;
}

/*
 * When the job that @ev starts begins: a fence init's submission, which
 * comes before the event's time when the reader held the init until its
 * emit (perfdata/fence-number.h); the event's time for any other.
 */
static uint64_t job_begin(const struct gpu_event *ev)
{
	if (ev->kind == GPU_EV_FENCE_INIT && ev->fence.submitted < ev->time)
		return ev->fence.submitted;
	return ev->time;
}

static void track_inflight(struct convert *c, const struct gpu_event *ev)
{
	switch (ev->kind) {
	case GPU_EV_FENCE_INIT:
		if (wait_for(c, fence_key(ev), job_begin(ev)))
			fail(c, -ENOMEM);
		break;
	case GPU_EV_FENCE_SIGNALED:
		u64_map_del(&c->inflight, fence_key(ev), NULL);
		break;
	case GPU_EV_OTHER:
		if (ev->name && !strcmp(ev->name, "dma_fence:dma_fence_destroy"))
			u64_map_del(&c->inflight, fence_key(ev), NULL);
		break;
	default:
		break;
	}
}

static uint64_t crtc_uuid(struct convert *c, int32_t crtc)
{
	uint64_t id = uuid(UUID_CRTC, (uint32_t)crtc), seen;
	char name[32];

	if (u64_map_get(&c->crtc_seen, id, &seen))
		return id;
	snprintf(name, sizeof(name), "CRTC %d", crtc);
	if (u64_map_put(&c->crtc_seen, id, 1))
		fail(c, -ENOMEM);
	else if (pft_track(&c->w[SEQ_SLICES], id, 0, name))
		fail(c, -EIO);
	return id;
}

static void instant(struct convert *c, const struct gpu_event *ev,
		    int32_t crtc, const char *name)
{
	int ret;

	if (ev->time < c->t_start || ev->time > c->t_end)
		return;
	ret = pft_sorter_instant(c->sorter, ev->time, crtc_uuid(c, crtc), name, 0);
	if (ret < 0)
		fail(c, -ENOMEM);
	else if (ret)
		c->late++;
	else
		c->instants++;
}

/* Every event, before the model takes it. */
static void on_event(void *arg, const struct gpu_event *ev)
{
	struct convert *c = arg;

	if (c->ranges_hooks.event)
		c->ranges_hooks.event(c->ranges_hooks.arg, ev);
	if (c->metrics_str)
		report_oa_metrics_event(&c->om, ev);
	c->at = ev->offset;
	if (c->err)
		return;
	/*
	 * What the events before this one settled, now and then; not past
	 * where this one's job would begin: an init the reader held until
	 * its emit comes only now, its job beginning at its submission.
	 */
	if (c->started && !(++c->seen % DRAIN_EVERY)) {
		uint64_t w = watermark(c), b = job_begin(ev);

		drain(c, w < b ? w : b);
	}
	if (!c->started) {
		c->origin = ev->time;
		c->started = true;
	}
	if (ev->time > c->now)
		c->now = ev->time;
	track_inflight(c, ev);
	if (ev->kind == GPU_EV_VBLANK)
		instant(c, ev, ev->vblank.crtc, "vblank");
	else if (ev->kind == GPU_EV_VBLANK_DELIVERED && ev->delivered.file)
		instant(c, ev, ev->delivered.crtc, "flip");
}

/* A job of no phases yet on the lanes of @group named @lane. */
static void job_init(struct pft_job *job, uint64_t group, const char *lane,
		     const char *name, uint64_t begin, uint64_t end)
{
	memset(job, 0, sizeof(*job));
	job->group = group;
	job->lane_name = lane;
	job->name = name;
	job->begin = begin;
	job->end = end;
}

static void push(struct convert *c, const struct pft_job *job)
{
	int ret = pft_sorter_push(c->sorter, job);

	if (ret < 0)
		fail(c, -ENOMEM);
	else if (ret)
		c->late++;
}

/* A job that signaled: on its process and on its ring. */
/*
 * The busy counter walks its windows one by one while someone is busy: a
 * job that ends BUSY_WINDOWS_MAX windows or more after the first event
 * (a crafted recording put one 584 years on) is refused, not walked,
 * naming the record the model was taking when the job ended.
 */
static bool too_late(struct convert *c, uint64_t end)
{
	if (end <= c->origin || (end - c->origin) / c->window < BUSY_WINDOWS_MAX)
		return false;
	snprintf(c->why, sizeof(c->why),
		 "%s: offset %llu: a job ends %.0f s after the recording's first event: over %llu windows of --window; choose a larger --window, or --time",
		 c->input, (unsigned long long)c->at, (end - c->origin) / 1e9,
		 (unsigned long long)BUSY_WINDOWS_MAX);
	fail(c, -EINVAL);
	return true;
}

static void on_job(void *arg, const struct report_job_run *run)
{
	struct convert *c = arg;
	const struct report_client *rc = run->pair->client;
	struct client *cl;
	struct timeline *tl;
	struct pft_job job;

	if (c->ranges_hooks.job)
		c->ranges_hooks.job(c->ranges_hooks.arg, run);
	if (c->err || run->end < c->t_start || run->init > c->t_end)
		return;
	cl = client_get(c, rc->pid, rc->cgroup ? rc->cgroup->id : 0);
	tl = timeline_get(c, run->pair->timeline);
	if (!cl || !tl || !cl->selected || too_late(c, run->end))
		return;
	job_init(&job, cl->uuid, "GPU jobs", tl->name, run->init, run->end);
	/*
	 * A job that ran all its life is its own run: no children.  One
	 * that drm_sched's events showed waiting for its dependencies
	 * first has that phase, from its init (its push) to their end.
	 */
	if (run->start > run->init) {
		uint64_t queue = run->init;

		if (run->queued && run->dep_end > run->init) {
			queue = run->dep_end < run->start ? run->dep_end :
							    run->start;
			job.phase[job.nr_phases++] = (struct pft_phase){
				"dependency", run->init, queue };
		}
		job.phase[job.nr_phases++] = (struct pft_phase){
			"queue", queue, run->queued ? run->start : queue };
		job.phase[job.nr_phases++] = (struct pft_phase){
			phase_run, run->start, run->end };
	}
	job.tag = (uintptr_t)cl;
	push(c, &job);
	job_init(&job, tl->uuid, tl->name, cl->label, run->start, run->end);
	push(c, &job);
	cl->jobs++;
	c->jobs++;
}

/* ---- ranges, at the end ---- */

static int write_ranges(struct convert *c)
{
	const struct report_ranges *rr = &c->ranges;
	struct pft_writer *w = &c->w[SEQ_MARKS];
	struct pft_sorter *s = pft_sorter_new(UUID_MARK_LANES, UUID_KINDS);
	struct pft_event ev;
	struct pft_job job;
	struct client *cl;
	uint32_t i;
	int ret, err = 0;

	if (!s)
		return -ENOMEM;
	for (i = 0; i < rr->nr && !c->err; i++) {
		const struct report_range *r = &rr->r[i];
		uint64_t end = r->closed ? r->end : c->m.last_time;

		if (end < c->t_start || r->begin > c->t_end)
			continue;
		cl = client_get(c, r->pid, 0);
		if (!cl || !cl->selected)
			continue;
		job_init(&job, cl->uuid, "marks", r->name, r->begin, end);
		if (pft_sorter_push(s, &job))
			fail(c, -ENOMEM);
		c->ranges_written++;
	}
	while (!c->err && (ret = pft_sorter_pop(s, UINT64_MAX, &ev))) {
		if (ret < 0) {
			fail(c, -ENOMEM);
			break;
		}
		if (ev.new_lane)
			err |= pft_track(w, ev.track, ev.group, ev.lane_name);
		if (ev.kind == PFT_EV_BEGIN)
			err |= pft_slice_begin(w, ev.ts, ev.track, ev.name);
		else
			err |= pft_slice_end(w, ev.ts, ev.track);
		if (err)
			fail(c, -EIO);
	}
	pft_sorter_free(s);
	return c->err;
}

/* ---- the command ---- */

static int read_recording(struct convert *c)
{
	struct report_hooks hooks;
	int ret;

	report_ranges_hooks(&c->ranges, &c->ranges_hooks);
	hooks = (struct report_hooks){
		.arg = c, .event = on_event, .job = on_job, .oa = oa_part,
	};
	c->trace = gpu_trace_open(c->input);
	c->sorter = pft_sorter_new(UUID_LANES, UUID_KINDS);
	if (!c->trace || !c->sorter || report_model_init(&c->m, &hooks))
		return -ENOMEM;
	if (gpu_trace_error(c->trace)) {
		snprintf(c->why, sizeof(c->why), "%s: %s", c->input,
			 gpu_trace_error(c->trace));
		return -EINVAL;
	}
	if (write_clock(c))
		return -EIO;
	ret = report_model_read(&c->m, c->trace);
	if (ret == -1) {
		snprintf(c->why, sizeof(c->why), "%s: %s", c->input,
			 gpu_trace_error(c->trace));
		return -EINVAL;
	}
	if (ret)
		return -ENOMEM;
	if (c->err)
		return c->err;
	drain(c, UINT64_MAX);
	if (c->err)
		return c->err;
	if (c->started)
		busy_finish(c);
	if (c->oa_open)
		oa_close(c);
	if (c->metrics_str && !c->metrics_ready && !metrics_ready(c))
		return c->err;
	/* A second metric set after the first report: report refuses it. */
	if (c->metrics_str && (c->om.mixed || c->om.report_without_device)) {
		report_oa_metrics_free(&c->om);
		c->om.list = c->metrics_str;
		report_oa_metrics_finish(&c->om, c->why, sizeof(c->why));
		return -EINVAL;
	}
	if (report_model_finish(&c->m) || report_ranges_finish(&c->ranges, &c->m))
		return -ENOMEM;
	return c->err ?: write_ranges(c);
}

/* The trace, whole or not at all (file_out). */
static int convert(struct convert *c)
{
	struct file_out out;
	int err, i;

	err = file_out_open(&out, c->output);
	if (err) {
		snprintf(c->why, sizeof(c->why), "%s: %s", c->output, strerror(-err));
		return err;
	}
	c->f = out.f;
	for (i = 0; i < NR_SEQ; i++)
		pft_init_seq(&c->w[i], c->f, i + 1);
	err = read_recording(c);
	for (i = 0; i < NR_SEQ; i++)
		if (pft_flush(&c->w[i]) && !err)
			err = -EIO;
	c->f = NULL;
	if (err) {
		file_out_abort(&out);
	} else {
		err = file_out_close(&out, false);
		if (err)
			snprintf(c->why, sizeof(c->why), "%s: %s", c->output,
				 strerror(-err));
	}
	if (err == -EIO)
		snprintf(c->why, sizeof(c->why), "%s: write error", c->output);
	return err;
}

static void cleanup(struct convert *c)
{
	size_t i;

	for (i = 0; i < NR_SEQ; i++)
		pft_free(&c->w[i]);
	for (i = 0; i < c->nr_clients; i++)
		free(c->clients[i]);
	for (i = 0; i < c->nr_tls; i++)
		free(c->tls[i].name);
	free(c->clients);
	free(c->tls);
	u64_map_free(&c->client_of);
	u64_map_free(&c->timeline_of);
	u64_map_free(&c->crtc_seen);
	u64_map_free(&c->inflight);
	free(c->queue);
	heap_free(&c->inflight_heap);
	pft_sorter_free(c->sorter);
	report_model_free(&c->m);
	report_ranges_free(&c->ranges);
	report_oa_metrics_free(&c->om);
	gpu_trace_close(c->trace);
	name_list_free(&c->pids);
	name_list_free(&c->comms);
}

static int parse_args(struct convert *c)
{
	const char *bad;

	if (!c->to_perfetto) {
		pr_err("no output format: --to-perfetto is the one there is\n");
		return -1;
	}
	if (c->time_str && parse_time_window(c->time_str, &c->t_start, &c->t_end)) {
		pr_err("bad --time '%s': want START,END in seconds\n", c->time_str);
		return -1;
	}
	if (c->window_str && (parse_seconds_ns(c->window_str, 1000000, &c->window) ||
			      !c->window)) {
		pr_err("bad --window '%s': want seconds, more than 0\n", c->window_str);
		return -1;
	}
	if (c->horizon_str && parse_seconds_ns(c->horizon_str, 1000000, &c->horizon)) {
		pr_err("bad --horizon '%s': want seconds\n", c->horizon_str);
		return -1;
	}
	if (name_list_split(c->pid_str, &c->pids) ||
	    name_list_split(c->comm_str, &c->comms)) {
		pr_err("out of memory\n");
		return -1;
	}
	bad = name_list_not_pid(&c->pids);
	if (bad) {
		pr_err("--pid: '%s' is not a pid\n", bad);
		return -1;
	}
	return 0;
}

int cmd_convert(int argc, const char **argv)
{
	struct convert c = {
		.input = "perf.data", .output = "trace.pftrace",
		.t_end = UINT64_MAX, .window = WINDOW_DEFAULT_NS,
		.horizon = HORIZON_DEFAULT_NS,
	};
	const struct option options[] = {
		OPT_BOOLEAN(0, "to-perfetto", &c.to_perfetto,
			    "write a Perfetto trace (protobuf)"),
		OPT_STRING('i', "input", &c.input, "file", "input file name"),
		OPT_STRING('o', "output", &c.output, "file", "output file name"),
		OPT_STRING(0, "pid", &c.pid_str, "pid[,pid...]", "only these processes"),
		OPT_STRING(0, "time", &c.time_str, "str",
			   "Time span: start,end in seconds as perf script prints them"),
		OPT_STRING(0, "comm", &c.comm_str, "comm[,comm...]", "only these process names"),
		OPT_INCR('v', "verbose", &c.verbose, "be more verbose"),
		OPT_STRING(0, "oa-metrics", &c.metrics_str, "name,...|all",
			   "the recording's metric set's counters (GpuBusy, ...) as counter tracks"),
		OPT_STRING(0, "window", &c.window_str, "secs",
			   "the window of the busy and OA counters (default 0.01)"),
		OPT_STRING(0, "horizon", &c.horizon_str, "secs",
			   "a fence in flight longer is taken as never signaled (default 10)"),
		OPT_END()
	};
	const char *const usage[] = {
		"perf gpu convert --to-perfetto [-i perf.data] [-o trace.pftrace] [<options>]",
		NULL
	};
	int err, ret = 1;

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc)
		usage_with_options(usage, options);
	if (parse_args(&c))
		goto out;
	c.om.list = c.metrics_str;
	tep_set_loglevel(c.verbose ? TEP_LOG_WARNING : TEP_LOG_NONE);
	err = convert(&c);
	if (err) {
		pr_err("%s\n", err == -ENOMEM ? "out of memory" :
		       c.why[0] ? c.why : strerror(-err));
		goto out;
	}
	if (c.late)
		pr_err("%llu events older than what was written already left out (a fence in flight longer than --horizon)\n",
		       (unsigned long long)c.late);
	if (c.verbose)
		pr_err("%llu fences taken as never signaled; at most %u lanes on a track\n",
		       (unsigned long long)c.stale,
		       pft_sorter_max_lanes(c.sorter));
	printf("Written %llu jobs of %zu processes, %llu instants, %llu counter values and %llu ranges to %s.\n",
	       (unsigned long long)c.jobs, c.nr_clients,
	       (unsigned long long)c.instants, (unsigned long long)c.counters,
	       (unsigned long long)c.ranges_written, c.output);
	ret = 0;
out:
	cleanup(&c);
	return ret;
}
