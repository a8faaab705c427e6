// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu timechart: a perf.data as one self-contained HTML page
 * (timechart/html.h): a track of job boxes per GPU timeline, vblank
 * ticks per CRTC, OA metrics as lines, and the ranges processes marked.
 *
 * Jobs follow design.rst 3.3: a timeline is the (driver, timeline) pair
 * of the fence events, not the fence context, and a job runs from
 * max(its dma_fence_init, the previous signal on its fence context) to
 * its dma_fence_signaled; it belongs to the process that inited it.
 * drm_sched's two fences of a job are paired as perf gpu report pairs
 * them (report/model.h): the scheduled half (c, s) is no job, and the
 * finished half (c + 1, s) is drawn queued from its init to the
 * scheduled half's signal, running from then to its own signal (by the
 * rule above when that signal is missing).  A job numbered at its
 * dma_fence_emit (virtio_gpu, perfdata/fence-number.h) is drawn queued
 * from its init to its emit, running from max(its emit, the previous
 * signal on its context).  A signal whose init is not in the recording (the job was submitted
 * before it started) has no known start and is not drawn; nor is an
 * init never signaled.  The page says how many of each.
 *
 * OA reports (gpu_oa:oa_report, format 10 as perf gpu record writes it)
 * become, per pair of consecutive reports and at the later one's time:
 * GPU busy % (A0, the busy GPU clocks, over the GPU clock ticks, as
 * IGT's RenderBasic GpuBusy), the GPU frequency (clock ticks over the
 * CPU time between the two), and up to four more lines: counters as
 * rates per second (--oa-counters), or counters of the recording's
 * metric set (--oa-metrics: oa/metrics.h computes them from the pair's
 * deltas as IGT does, and the line carries the counter's IGT unit).
 * Without either, a first pass over the file decides: GpuBusy and
 * EuActive when every report follows a gpu_oa:oa_device whose set has
 * both (a default that errs would be no default), else the two counters
 * (A0 aside) with the largest totals.
 *
 * A gpu_oa:oa_device in mid-recording (a new stream, maybe of another
 * set) starts a new set: the metrics of the reports after it come from
 * its set, under the same names, and no pair spans it.  A set that lacks
 * a chosen metric is an error rather than a line that stops in the
 * middle, which a reader could take for a metric gone to zero.
 *
 * Ranges are gpuprof:gpuprof_mark (or ftrace:print) texts "begin NAME"
 * and "end NAME" per writing process; "end NAME" closes the innermost
 * open range of that name, so ranges nest, and one not closed by the
 * end of the file is drawn to the end and shown as such.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/options.h"

#include "../../module/oa_decode.h"
#include "builtin.h"
#include "oa/metrics.h"
#include "perfdata/gpu-trace.h"
#include "timechart/html.h"
#include "util/map.h"
#include "util/array.h"
#include "util/debug.h"
#include "util/file.h"
#include "util/parse.h"

/* Counters of the flat numbering a0..a44, b0..b7, c0..c7. */
#define NR_COUNTERS (GPUPROF_OA_A_COUNTERS + GPUPROF_OA_B_COUNTERS + \
		     GPUPROF_OA_C_COUNTERS)
#define MAX_OA_COUNTERS 4
/* The metric lines when neither --oa-counters nor --oa-metrics is given. */
#define DEFAULT_METRICS "GpuBusy,EuActive"

struct timeline {
	char *driver, *timeline;
	int track;
};

struct open_range {
	char *name;
	uint64_t start;
	unsigned int depth;
};

/* The ranges of one process and those still open. */
struct marks {
	int32_t pid;
	int track;
	struct open_range *open;
	size_t nr_open, alloc_open;
};

struct oa_state {
	struct gpuprof_oa_layout layout;
	uint8_t last[GPUPROF_OA_REPORT_MAX];
	bool have_last;
	uint64_t last_time;
	int busy_track, freq_track;
	unsigned int counter[MAX_OA_COUNTERS];
	int counter_track[MAX_OA_COUNTERS];	/* of counters or metrics */
	unsigned int nr_counters;
	uint64_t reports, odd_size;
	struct gpuprof_oa_deltas total;	/* the first pass */

	/* Metric lines: the list asked for, NULL for counter lines. */
	const char *metrics_list;
	struct oa_metrics *metrics;	/* the set of the last oa_device */
	bool metrics_ready;		/* ... which the reports now read have */
	bool seen_device;
	/* The symbols drawn (the table's strings), their index in the set. */
	const char *metric_name[MAX_OA_COUNTERS];
	unsigned int metric_idx[MAX_OA_COUNTERS];
	unsigned int nr_metrics;
	char error[4096];		/* why the metrics cannot be drawn */
};

struct timechart_cmd {
	const char *input, *output, *time_str, *counters_str, *metrics_str;
	unsigned int max_items;
	int verbose;
	bool window;
	uint64_t win_start, win_end;

	struct gpu_trace *trace;
	struct timechart *tc;
	bool any_event;
	uint64_t first, last;

	struct u64_map init_time;	/* context << 32 | seqno: init time */
	struct u64_map init_client;	/* the same key: its client */
	struct u64_map sched_cand;	/* drm_sched inits that may be a scheduled half */
	struct u64_map finished_of;	/* scheduled half: its finished half */
	struct u64_map started;		/* finished half: its scheduled signal */
	struct u64_map emitted;		/* numbered at emit: the emit's time */
	struct u64_map last_signal;	/* context: its last signal */
	struct timeline *timelines;
	size_t nr_timelines, alloc_timelines;
	struct u64_map timeline_of_hash;
	struct u64_map vblank_track;	/* crtc: its track */
	struct marks *marks;
	size_t nr_marks, alloc_marks;
	struct u64_map marks_of_pid;
	struct oa_state oa;

	uint64_t jobs, no_init, bad_marks, unmatched_ends;
};

static const char *const timechart_usage[] = {
	"perf gpu timechart [<options>]",
	NULL
};

static bool in_window(const struct timechart_cmd *c, uint64_t t)
{
	return !c->window || (t >= c->win_start && t <= c->win_end);
}

/* Cut [*start, *end] to the window: false when nothing is left. */
static bool clip(const struct timechart_cmd *c, uint64_t *start, uint64_t *end)
{
	if (!c->window)
		return true;
	if (*end < c->win_start || *start > c->win_end)
		return false;
	if (*start < c->win_start)
		*start = c->win_start;
	if (*end > c->win_end)
		*end = c->win_end;
	return true;
}

/* The name a process goes by: its main thread's, else the event's. */
static const char *process_name(struct timechart_cmd *c,
				const struct gpu_event *ev, int32_t pid)
{
	const char *name = gpu_trace_comm(c->trace, pid);

	return name ? name : ev->pid == pid ? ev->comm : NULL;
}

/* ---- Jobs. ---- */

struct timeline_names {
	const struct timechart_cmd *c;
	const char *driver, *timeline;
};

/* Is timeline @idx the one wanted?  Two may hash alike. */
static bool timeline_is(uint64_t idx, const void *arg)
{
	const struct timeline_names *n = arg;

	return !strcmp(n->c->timelines[idx].driver, n->driver) &&
	       !strcmp(n->c->timelines[idx].timeline, n->timeline);
}

/* The track of the timeline (@driver, @timeline), made on first sight. */
static int timeline_track(struct timechart_cmd *c, const char *driver,
			  const char *timeline)
{
	uint64_t h = map_hash_str_pair(driver, timeline), idx;
	struct timeline_names want = { c, driver, timeline };
	struct timeline *tl;
	char *name;

	if (u64_map_find_hashed(&c->timeline_of_hash, &h, timeline_is, &want,
				&idx))
		return c->timelines[idx].track;
	if (ARRAY_RESERVE(c->timelines, c->alloc_timelines, c->nr_timelines + 1) ||
	    asprintf(&name, "%s %s", driver, timeline) < 0)
		return -ENOMEM;
	tl = &c->timelines[c->nr_timelines];
	tl->track = tc_track(c->tc, TC_JOBS, name, NULL);
	free(name);
	tl->driver = strdup(driver);
	tl->timeline = strdup(timeline);
	if (tl->track < 0 || !tl->driver || !tl->timeline) {
		free(tl->driver);
		free(tl->timeline);
		return -ENOMEM;
	}
	if (u64_map_put(&c->timeline_of_hash, h, c->nr_timelines))
		return -ENOMEM;
	c->nr_timelines++;
	return tl->track;
}

static uint64_t fence_key(const struct gpu_event *ev)
{
	return (uint64_t)ev->fence.context << 32 | ev->fence.seqno;
}

/*
 * drm_sched: the init of (c + 1, s) finishes the job whose scheduled
 * half (c, s), of the same client, is in flight and unpaired; that half
 * is then no job.  Any other drm_sched init may be a scheduled half.
 */
static int pair_sched_half(struct timechart_cmd *c, const struct gpu_event *ev,
			   int client)
{
	uint64_t key = fence_key(ev), half = key - (1ull << 32), cl;

	if (strcmp(ev->fence.driver, "drm_sched"))
		return 0;
	if (ev->fence.context && u64_map_get(&c->sched_cand, half, &cl) &&
	    cl == (uint64_t)client) {
		u64_map_del(&c->sched_cand, half, NULL);
		u64_map_del(&c->init_time, half, NULL);
		u64_map_del(&c->init_client, half, NULL);
		return u64_map_put(&c->finished_of, half, key);
	}
	return u64_map_put(&c->sched_cand, key, client);
}

static int on_fence_init(struct timechart_cmd *c, const struct gpu_event *ev)
{
	int client = tc_client(c->tc, ev->pid, process_name(c, ev, ev->pid));

	if (client < 0)
		return client;
	if (u64_map_put(&c->init_time, fence_key(ev), ev->fence.submitted) ||
	    u64_map_put(&c->init_client, fence_key(ev), client))
		return -ENOMEM;
	/* Numbered at emit: queued from its init to then. */
	if (ev->fence.submitted < ev->time &&
	    u64_map_put(&c->emitted, fence_key(ev), ev->time))
		return -ENOMEM;
	return pair_sched_half(c, ev, client);
}

static int on_fence_signaled(struct timechart_cmd *c, const struct gpu_event *ev)
{
	uint64_t key = fence_key(ev), start, client, prev, finished, init;
	uint64_t end = ev->time;
	bool had_prev, queued;
	int track;

	/* A scheduled half: its job goes from the queue to the ring. */
	if (u64_map_del(&c->finished_of, key, &finished))
		return u64_map_put(&c->started, finished, ev->time);
	u64_map_del(&c->sched_cand, key, NULL);
	had_prev = u64_map_get(&c->last_signal, ev->fence.context, &prev);
	if (u64_map_put(&c->last_signal, ev->fence.context, ev->time))
		return -ENOMEM;
	if (!u64_map_del(&c->init_time, key, &start)) {
		c->no_init++;
		return 0;
	}
	u64_map_del(&c->init_client, key, &client);
	init = start;
	queued = u64_map_del(&c->started, key, &start);
	/* Fences of one context signal in order: it waited for the last. */
	if (!queued) {
		queued = u64_map_del(&c->emitted, key, &start);
		if (had_prev && prev > start)
			start = prev;
	}
	if (start > end)
		start = end;
	if (init > start)
		init = start;
	c->jobs++;
	if (!clip(c, &start, &end))
		return 0;
	if (init < start && !clip(c, &init, &start))
		init = start;
	track = timeline_track(c, ev->fence.driver, ev->fence.timeline);
	if (track < 0)
		return track;
	return tc_add_queued_job(c->tc, track, queued ? init : start, start, end,
				 (int)client, ev->fence.context, ev->fence.seqno);
}

/* ---- vblank. ---- */

static int on_vblank(struct timechart_cmd *c, const struct gpu_event *ev)
{
	uint64_t track;
	char name[48];
	int t;

	if (!in_window(c, ev->vblank.stamp))
		return 0;
	if (!u64_map_get(&c->vblank_track, (uint32_t)ev->vblank.crtc, &track)) {
		snprintf(name, sizeof(name), "vblank crtc %d", ev->vblank.crtc);
		t = tc_track(c->tc, TC_VBLANK, name, NULL);
		if (t < 0 || u64_map_put(&c->vblank_track, (uint32_t)ev->vblank.crtc, t))
			return -ENOMEM;
		track = t;
	}
	return tc_add_tick(c->tc, (int)track, ev->vblank.stamp, ev->vblank.seq);
}

/* ---- Ranges. ---- */

static struct marks *marks_of(struct timechart_cmd *c, const struct gpu_event *ev)
{
	const char *comm = process_name(c, ev, ev->mark.pid);
	struct marks *m;
	uint64_t idx;
	char *name;

	if (u64_map_get(&c->marks_of_pid, (uint32_t)ev->mark.pid, &idx))
		return &c->marks[idx];
	if (ARRAY_RESERVE(c->marks, c->alloc_marks, c->nr_marks + 1) ||
	    asprintf(&name, "ranges of %s (pid %d)", comm ? comm : "?",
		     ev->mark.pid) < 0)
		return NULL;
	m = &c->marks[c->nr_marks];
	memset(m, 0, sizeof(*m));
	m->pid = ev->mark.pid;
	m->track = tc_track(c->tc, TC_RANGES, name, NULL);
	free(name);
	if (m->track < 0 || u64_map_put(&c->marks_of_pid, (uint32_t)m->pid, c->nr_marks))
		return NULL;
	c->nr_marks++;
	return m;
}

static int add_range(struct timechart_cmd *c, struct marks *m,
		     const struct open_range *r, uint64_t end, bool open)
{
	uint64_t start = r->start;

	if (!clip(c, &start, &end))
		return 0;
	return tc_add_range(c->tc, m->track, start, end, r->depth, r->name, open);
}

static int on_mark(struct timechart_cmd *c, const struct gpu_event *ev)
{
	const char *text = ev->mark.text;
	struct marks *m;
	size_t i;
	int err;

	if (strncmp(text, "begin ", 6) && strncmp(text, "end ", 4)) {
		c->bad_marks++;
		return 0;
	}
	m = marks_of(c, ev);
	if (!m)
		return -ENOMEM;
	if (!strncmp(text, "begin ", 6)) {
		if (ARRAY_RESERVE(m->open, m->alloc_open, m->nr_open + 1))
			return -ENOMEM;
		m->open[m->nr_open].name = strdup(text + 6);
		if (!m->open[m->nr_open].name)
			return -ENOMEM;
		m->open[m->nr_open].start = ev->time;
		m->open[m->nr_open].depth = m->nr_open;
		m->nr_open++;
		return 0;
	}
	for (i = m->nr_open; i-- > 0;)
		if (!strcmp(m->open[i].name, text + 4))
			break;
	if (i == (size_t)-1) {
		c->unmatched_ends++;
		return 0;
	}
	err = add_range(c, m, &m->open[i], ev->time, false);
	free(m->open[i].name);
	memmove(&m->open[i], &m->open[i + 1], (m->nr_open - i - 1) * sizeof(*m->open));
	m->nr_open--;
	return err;
}

/* Ranges never closed: drawn to the end of the recording. */
static int close_ranges(struct timechart_cmd *c)
{
	uint64_t open = 0;
	size_t i, j;
	int err = 0;

	for (i = 0; i < c->nr_marks; i++) {
		struct marks *m = &c->marks[i];

		for (j = 0; j < m->nr_open; j++) {
			if (!err)
				err = add_range(c, m, &m->open[j], c->last, true);
			free(m->open[j].name);
			open++;
		}
		m->nr_open = 0;
	}
	if (!err && open)
		err = tc_note(c->tc, "Ranges with no end in the recording, drawn to its end: %llu",
			      (unsigned long long)open);
	return err;
}

/* ---- OA. ---- */

static const char *counter_name(unsigned int i, char *buf, size_t size)
{
	if (i < GPUPROF_OA_A_COUNTERS)
		snprintf(buf, size, "a%u", i);
	else if (i < GPUPROF_OA_A_COUNTERS + GPUPROF_OA_B_COUNTERS)
		snprintf(buf, size, "b%u", i - GPUPROF_OA_A_COUNTERS);
	else
		snprintf(buf, size, "c%u", i - GPUPROF_OA_A_COUNTERS - GPUPROF_OA_B_COUNTERS);
	return buf;
}

static uint64_t counter_of(const struct gpuprof_oa_deltas *d, unsigned int i)
{
	if (i < GPUPROF_OA_A_COUNTERS)
		return d->a[i];
	if (i < GPUPROF_OA_A_COUNTERS + GPUPROF_OA_B_COUNTERS)
		return d->b[i - GPUPROF_OA_A_COUNTERS];
	return d->c[i - GPUPROF_OA_A_COUNTERS - GPUPROF_OA_B_COUNTERS];
}

/* "a1,b0": counters by name; -1 for a name that is none. */
static int parse_counters(struct oa_state *oa, const char *list)
{
	char name[16], *copy = strdup(list), *tok, *save = NULL;
	unsigned int i;
	int ret = 0;

	if (!copy)
		return -1;
	oa->nr_counters = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < NR_COUNTERS; i++)
			if (!strcmp(tok, counter_name(i, name, sizeof(name))))
				break;
		if (i == NR_COUNTERS || oa->nr_counters == MAX_OA_COUNTERS)
			ret = -1;
		else
			oa->counter[oa->nr_counters++] = i;
	}
	free(copy);
	return ret;
}

/* The two counters (A0 aside: it is the busy %) that moved the most. */
static void pick_counters(struct oa_state *oa)
{
	unsigned int i, j;

	oa->nr_counters = 0;
	for (j = 0; j < 2; j++) {
		int best = -1;

		for (i = 1; i < NR_COUNTERS; i++) {
			if (!counter_of(&oa->total, i) ||
			    (j && oa->counter[0] == i))
				continue;
			if (best < 0 || counter_of(&oa->total, i) >
					counter_of(&oa->total, best))
				best = i;
		}
		if (best < 0)
			return;
		oa->counter[oa->nr_counters++] = best;
	}
}

/* ---- OA metrics. ---- */

__attribute__((format(printf, 2, 3)))
static void metrics_error(struct oa_state *oa, const char *fmt, ...)
{
	static const char opt[] = "--oa-metrics: ";
	va_list ap;

	memcpy(oa->error, opt, sizeof(opt));
	va_start(ap, fmt);
	vsnprintf(oa->error + sizeof(opt) - 1, sizeof(oa->error) - sizeof(opt) + 1,
		  fmt, ap);
	va_end(ap);
}

/* The metrics of @list in the set of the first oa_device, each once. */
static int select_metrics(struct oa_state *oa, const char *list)
{
	const struct oa_metrics *m = oa->metrics;
	unsigned int idx[MAX_OA_COUNTERS], i, j;
	char why[sizeof(oa->error) - 32];
	int n;

	n = oa_metrics_select(m, list, idx, MAX_OA_COUNTERS, why, sizeof(why));
	if (n < 0) {
		metrics_error(oa, "%s", why);
		return -1;
	}
	/* One track per name: two of one name would share it. */
	oa->nr_metrics = 0;
	for (i = 0; i < (unsigned int)n; i++) {
		for (j = 0; j < oa->nr_metrics && oa->metric_idx[j] != idx[i]; j++)
			;
		if (j < oa->nr_metrics)
			continue;
		oa->metric_idx[oa->nr_metrics] = idx[i];
		oa->metric_name[oa->nr_metrics++] =
			oa_metric_str(oa_metrics_counter(m, idx[i])->symbol);
	}
	return 0;
}

/* The metrics drawn so far, found again in a set that replaced theirs. */
static int reselect_metrics(struct oa_state *oa, uint64_t time)
{
	char why[sizeof(oa->error) - 96];
	unsigned int i;

	for (i = 0; i < oa->nr_metrics; i++)
		if (oa_metrics_select(oa->metrics, oa->metric_name[i],
				      &oa->metric_idx[i], 1, why, sizeof(why)) != 1) {
			metrics_error(oa, "the recording changes metric set at %llu.%09llu s: %s",
				      (unsigned long long)(time / 1000000000),
				      (unsigned long long)(time % 1000000000), why);
			return -1;
		}
	return 0;
}

/* The set of the reports after gpu_oa:oa_device @ev, for metric lines. */
static int oa_metrics_device(struct oa_state *oa, const struct gpu_event *ev)
{
	oa->metrics_ready = false;
	oa->seen_device = true;
	if (!oa->metrics) {
		oa->metrics = malloc(sizeof(*oa->metrics));
		if (!oa->metrics)
			return -ENOMEM;
	}
	if (oa_metrics_init_event(oa->metrics, ev)) {
		char set[128];
		size_t i;

		/* The recording's text, kept on one line of the terminal's. */
		snprintf(set, sizeof(set), "%s", ev->oa_device.metric_set);
		for (i = 0; set[i]; i++)
			if ((unsigned char)set[i] < ' ' || set[i] == 0x7f)
				set[i] = '?';
		metrics_error(oa, "no counters known for metric set '%s' on device 0x%04x (the table holds IGT 1.27.1's sets)",
			      set, ev->oa_device.device_id);
		return -EINVAL;
	}
	if (oa->nr_metrics ? reselect_metrics(oa, ev->time) :
	    select_metrics(oa, oa->metrics_list))
		return -EINVAL;
	oa->metrics_ready = true;
	return 0;
}

/* Whether the reports after @ev can have the default metric lines. */
static bool default_metrics_fit(struct oa_metrics *m, const struct gpu_event *ev)
{
	unsigned int idx[MAX_OA_COUNTERS];
	char why[256];

	return !oa_metrics_init_event(m, ev) &&
	       oa_metrics_select(m, DEFAULT_METRICS, idx, MAX_OA_COUNTERS, why,
				 sizeof(why)) == 2;
}

static int add_metric_samples(struct timechart_cmd *c,
			      const struct gpuprof_oa_deltas *d, uint64_t time)
{
	struct oa_state *oa = &c->oa;
	const struct oa_metric_value *v;
	unsigned int i;
	double x;
	int err = 0;

	oa_metrics_compute(oa->metrics, d);
	for (i = 0; i < oa->nr_metrics && !err; i++) {
		v = oa_metrics_value(oa->metrics, oa->metric_idx[i]);
		x = v->is_double ? v->d : (double)v->u;
		/* A corrupt report can make a double equation infinite. */
		if (isfinite(x))
			err = tc_add_sample(c->tc, oa->counter_track[i], time, x);
	}
	return err;
}

/* The reports after a gpu_oa:oa_device have its device's layout. */
static void oa_device(struct oa_state *oa, const struct gpu_event *ev)
{
	struct gpuprof_oa_driver drv = {
		.kernel = ev->oa_device.kernel,
		.submission = ev->oa_device.submission,
		.driver = ev->oa_device.driver,
	};

	if (!gpuprof_oa_layout_of(ev->oa_device.device_id,
				  ev->oa_device.format, &drv, &oa->layout))
		oa->layout.size = 1;	/* no report has this size */
	oa->have_last = false;
}

/* Whether @ev's report has the layout this command decodes. */
static bool oa_report_ok(struct oa_state *oa, const struct gpu_event *ev)
{
	/* Without a gpu_oa:oa_device: format 10, as gen8 to gen12.10. */
	if (!oa->layout.size &&
	    gpuprof_oa_layout(9, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8, &oa->layout))
		return false;
	if (ev->oa.size != oa->layout.size) {
		oa->odd_size++;
		oa->have_last = false;
		return false;
	}
	return true;
}

static int oa_tracks(struct timechart_cmd *c)
{
	struct oa_state *oa = &c->oa;
	const struct oa_metric_counter *k;
	char name[96], unit[16];
	unsigned int i;

	oa->busy_track = tc_track(c->tc, TC_LINE, "OA GPU busy", "%");
	oa->freq_track = tc_track(c->tc, TC_LINE, "OA GPU frequency", "MHz");
	if (oa->busy_track < 0 || oa->freq_track < 0)
		return -ENOMEM;
	for (i = 0; oa->metrics_list && i < oa->nr_metrics; i++) {
		k = oa_metrics_counter(oa->metrics, oa->metric_idx[i]);
		snprintf(name, sizeof(name), "OA %s", oa->metric_name[i]);
		oa->counter_track[i] = tc_track(c->tc, TC_LINE, name,
						oa_metric_str(k->units));
		if (oa->counter_track[i] < 0)
			return -ENOMEM;
	}
	for (i = 0; !oa->metrics_list && i < oa->nr_counters; i++) {
		snprintf(name, sizeof(name), "OA %s",
			 counter_name(oa->counter[i], unit, sizeof(unit)));
		oa->counter_track[i] = tc_track(c->tc, TC_LINE, name, "/s");
		if (oa->counter_track[i] < 0)
			return -ENOMEM;
	}
	return 0;
}

static int on_oa(struct timechart_cmd *c, const struct gpu_event *ev)
{
	struct oa_state *oa = &c->oa;
	struct gpuprof_oa_deltas d;
	uint64_t dns;
	unsigned int i;
	int err = 0;

	if (!oa_report_ok(oa, ev))
		return 0;
	if (oa->metrics_list && !oa->metrics_ready) {
		metrics_error(oa, "OA reports with no gpu_oa:oa_device before them (recorded by an older perf gpu record?): no metric set to compute");
		return -EINVAL;
	}
	if (!oa->reports++ && (err = oa_tracks(c)))
		return err;
	if (oa->have_last && ev->time > oa->last_time && in_window(c, ev->time)) {
		memset(&d, 0, sizeof(d));
		gpuprof_oa_accumulate(&oa->layout, oa->last, ev->oa.report, &d);
		dns = ev->time - oa->last_time;
		if (d.gpu_ticks)
			err = tc_add_sample(c->tc, oa->busy_track, ev->time,
					    100.0 * (double)d.a[0] / (double)d.gpu_ticks);
		if (!err)
			err = tc_add_sample(c->tc, oa->freq_track, ev->time,
					    (double)d.gpu_ticks * 1e3 / (double)dns);
		if (!err && oa->metrics_list)
			err = add_metric_samples(c, &d, ev->time);
		for (i = 0; !oa->metrics_list && i < oa->nr_counters && !err; i++)
			err = tc_add_sample(c->tc, oa->counter_track[i], ev->time,
					    (double)counter_of(&d, oa->counter[i]) *
					    1e9 / (double)dns);
	}
	memcpy(oa->last, ev->oa.report, ev->oa.size);
	oa->last_time = ev->time;
	oa->have_last = true;
	return err;
}

/*
 * The first pass: whether every report has a set with the default
 * metrics, else each counter's total over the recording.  A file that
 * goes bad stops it quietly: the main pass meets the same error and
 * reports it.
 */
static int oa_totals(struct timechart_cmd *c)
{
	struct gpu_trace *t = gpu_trace_open(c->input);
	struct oa_state *oa = &c->oa;
	bool fit = false, all_fit = true, any = false;
	struct gpu_event ev;

	oa->metrics = malloc(sizeof(*oa->metrics));
	if (!t || !oa->metrics) {
		gpu_trace_close(t);
		return -ENOMEM;
	}
	while (gpu_trace_next(t, &ev) > 0) {
		if (ev.kind == GPU_EV_OA_DEVICE) {
			oa_device(oa, &ev);
			fit = default_metrics_fit(oa->metrics, &ev);
		}
		if (ev.kind != GPU_EV_OA_REPORT || !oa_report_ok(oa, &ev))
			continue;
		any = true;
		all_fit = all_fit && fit;
		if (oa->have_last && in_window(c, ev.time))
			gpuprof_oa_accumulate(&oa->layout, oa->last, ev.oa.report,
					      &oa->total);
		memcpy(oa->last, ev.oa.report, ev.oa.size);
		oa->have_last = true;
	}
	gpu_trace_close(t);
	/* The main pass starts as this one did: no device seen. */
	memset(&oa->layout, 0, sizeof(oa->layout));
	oa->have_last = false;
	oa->odd_size = 0;
	if (any && all_fit)
		oa->metrics_list = DEFAULT_METRICS;
	else
		pick_counters(oa);
	return 0;
}

static bool has_oa(const struct gpu_trace *t)
{
	unsigned int i;

	for (i = 0; i < gpu_trace_nr_events(t); i++)
		if (gpu_trace_event(t, i)->kind == GPU_EV_OA_REPORT)
			return true;
	return false;
}

/* ---- The pass. ---- */

static int on_event(struct timechart_cmd *c, const struct gpu_event *ev)
{
	if (!c->any_event)
		c->first = ev->time;
	c->any_event = true;
	if (ev->time > c->last)
		c->last = ev->time;
	switch (ev->kind) {
	case GPU_EV_FENCE_INIT:
		return on_fence_init(c, ev);
	case GPU_EV_FENCE_SIGNALED:
		return on_fence_signaled(c, ev);
	case GPU_EV_VBLANK:
		return on_vblank(c, ev);
	case GPU_EV_MARK:
		return on_mark(c, ev);
	case GPU_EV_OA_DEVICE:
		oa_device(&c->oa, ev);
		return c->oa.metrics_list ? oa_metrics_device(&c->oa, ev) : 0;
	case GPU_EV_OA_REPORT:
		return on_oa(c, ev);
	default:
		return 0;
	}
}

/* What the page should say about what it does not show. */
static int notes(struct timechart_cmd *c)
{
	unsigned int i;
	int err = 0;

	for (i = 0; i < gpu_trace_nr_events(c->trace) && !err; i++) {
		const struct gpu_trace_event_info *e = gpu_trace_event(c->trace, i);

		if (e->lost)
			err = tc_note(c->tc, "Events of %s lost while recording, missing here: %llu",
				      e->name, (unsigned long long)e->lost);
	}
	if (!err && gpu_trace_lost_unknown(c->trace))
		err = tc_note(c->tc, "Events of no known kind lost while recording: %llu",
			      (unsigned long long)gpu_trace_lost_unknown(c->trace));
	if (!err && c->no_init)
		err = tc_note(c->tc, "Jobs signaled whose dma_fence_init is not in the recording (submitted before it started), not drawn: %llu",
			      (unsigned long long)c->no_init);
	if (!err && c->init_time.nr)
		err = tc_note(c->tc, "Jobs not signaled by the end of the recording, not drawn: %zu",
			      c->init_time.nr);
	if (!err && c->unmatched_ends)
		err = tc_note(c->tc, "Markers \"end NAME\" with no open range of that name: %llu",
			      (unsigned long long)c->unmatched_ends);
	if (!err && c->bad_marks)
		err = tc_note(c->tc, "Markers neither \"begin NAME\" nor \"end NAME\": %llu",
			      (unsigned long long)c->bad_marks);
	if (!err && c->oa.odd_size)
		err = tc_note(c->tc, "OA reports not of 256 bytes (format 10), not decoded: %llu",
			      (unsigned long long)c->oa.odd_size);
	if (!err && c->window)
		err = tc_note(c->tc, "Only %s is shown; jobs and ranges crossing its edges are cut there",
			      c->time_str);
	return err;
}

static int read_trace(struct timechart_cmd *c)
{
	struct gpu_event ev;
	int ret;

	c->trace = gpu_trace_open(c->input);
	if (!c->trace)
		return -ENOMEM;
	if (gpu_trace_error(c->trace))
		return -EINVAL;
	if (has_oa(c->trace) && !c->counters_str && !c->metrics_str) {
		ret = oa_totals(c);
		if (ret)
			return ret;
	}
	while ((ret = gpu_trace_next(c->trace, &ev)) > 0) {
		ret = on_event(c, &ev);
		if (ret)
			return ret;
	}
	if (ret < 0 || gpu_trace_error(c->trace))
		return -EINVAL;
	if (c->metrics_str && !c->oa.seen_device) {
		metrics_error(&c->oa, "the recording has no gpu_oa:oa_device (no OA, or an older perf gpu record): no metric set to compute");
		return -EINVAL;
	}
	ret = close_ranges(c);
	if (!ret && c->any_event) {
		uint64_t first = c->first, last = c->last;

		if (clip(c, &first, &last))
			tc_set_span(c->tc, first, last);
	}
	return ret ?: notes(c);
}

/* The page, whole or not at all (file_out). */
static int write_page(struct timechart_cmd *c, struct tc_write_stats *st)
{
	struct file_out out;
	int err;

	err = file_out_open(&out, c->output);
	if (err)
		return err;
	err = tc_write_html(c->tc, out.f, c->max_items, st);
	if (err) {
		file_out_abort(&out);
		return err;
	}
	return file_out_close(&out, false);
}

/* --time START,END, either side may be empty, as perf report's. */
static int parse_window(struct timechart_cmd *c)
{
	if (parse_time_window(c->time_str, &c->win_start, &c->win_end))
		return -1;
	c->window = true;
	return 0;
}

static void cleanup(struct timechart_cmd *c)
{
	size_t i, j;

	for (i = 0; i < c->nr_timelines; i++) {
		free(c->timelines[i].driver);
		free(c->timelines[i].timeline);
	}
	for (i = 0; i < c->nr_marks; i++) {
		for (j = 0; j < c->marks[i].nr_open; j++)
			free(c->marks[i].open[j].name);
		free(c->marks[i].open);
	}
	free(c->timelines);
	free(c->marks);
	u64_map_free(&c->init_time);
	u64_map_free(&c->init_client);
	u64_map_free(&c->sched_cand);
	u64_map_free(&c->finished_of);
	u64_map_free(&c->started);
	u64_map_free(&c->emitted);
	u64_map_free(&c->last_signal);
	u64_map_free(&c->timeline_of_hash);
	u64_map_free(&c->vblank_track);
	u64_map_free(&c->marks_of_pid);
	gpu_trace_close(c->trace);
	tc_free(c->tc);
	free(c->oa.metrics);
}

int cmd_timechart(int argc, const char **argv)
{
	struct timechart_cmd c = {
		.input = "perf.data", .output = "timechart.html",
		.max_items = TC_MAX_ITEMS_DEFAULT,
	};
	const struct option options[] = {
		OPT_STRING('i', "input", &c.input, "file", "input file name"),
		OPT_STRING('o', "output", &c.output, "file", "output file name"),
		OPT_STRING(0, "time", &c.time_str, "str",
			   "Time span to show: start,end in seconds as perf script prints them"),
		OPT_STRING(0, "oa-counters", &c.counters_str, "list",
			   "OA counters to draw as rates, e.g. a1,b0 (up to 4; default: see --oa-metrics)"),
		OPT_STRING(0, "oa-metrics", &c.metrics_str, "list",
			   "Counters of the recording's OA metric set to draw, e.g. GpuBusy,EuActive (up to 4; default: those two if the set has them, else the two raw counters that count most)"),
		OPT_UINTEGER(0, "max-items", &c.max_items,
			     "Items in the page at most; shorter ones are merged beyond"),
		OPT_INCR('v', "verbose", &c.verbose, "be more verbose"),
		OPT_END()
	};
	struct tc_write_stats st;
	const char *err_text;
	struct stat sb;
	int err;

	argc = parse_options(argc, argv, options, timechart_usage, 0);
	if (argc)
		usage_with_options(timechart_usage, options);
	if (c.time_str && parse_window(&c)) {
		pr_err("bad --time '%s': want START,END in seconds\n",
		       c.time_str);
		return 1;
	}
	if (c.counters_str && c.metrics_str) {
		pr_err("--oa-counters and --oa-metrics exclude each other: draw raw counters or metrics\n");
		return 1;
	}
	c.oa.metrics_list = c.metrics_str;
	if (c.counters_str && parse_counters(&c.oa, c.counters_str)) {
		pr_err("bad --oa-counters '%s': want up to %d of a0..a44, b0..b7, c0..c7\n",
		       c.counters_str, MAX_OA_COUNTERS);
		return 1;
	}
	c.tc = tc_new(c.input);
	if (!c.tc) {
		pr_err("out of memory\n");
		return 1;
	}
	err = read_trace(&c);
	if (err) {
		err_text = c.trace ? gpu_trace_error(c.trace) : NULL;
		if (c.oa.error[0])
			pr_err("%s: %s\n", c.input, c.oa.error);
		else if (err_text)
			pr_err("%s: %s\n", c.input, err_text);
		else if (err != -EINVAL)
			pr_err("%s: %s\n", c.input, strerror(-err));
		cleanup(&c);
		return 1;
	}
	err = write_page(&c, &st);
	if (err) {
		pr_err("%s: %s\n", c.output, strerror(-err));
		cleanup(&c);
		return 1;
	}
	if (!stat(c.output, &sb))
		printf("Written %.6f s of trace (%llu jobs, %zu items: %zu as they are, %zu merged) to %s, %lld bytes.\n",
		       c.any_event ? (double)(c.last - c.first) / 1e9 : 0.0,
		       (unsigned long long)c.jobs, tc_nr_items(c.tc), st.detail,
		       st.merged, c.output, (long long)sb.st_size);
	if (c.verbose && st.bucket_ns)
		pr_err("items under %llu ns merged per %llu ns\n",
		       (unsigned long long)st.bucket_ns,
		       (unsigned long long)st.bucket_ns);
	cleanup(&c);
	return 0;
}
