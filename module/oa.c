// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: /dev/gpuprof/oa, which takes an i915-perf OA record stream
 * (design.rst 5), decoded by oa_decode.c, and attributes its reports to
 * targets, whose counters file (target_files.c) shows the sums.
 */

/**
 * DOC: OA attribution
 *
 * A report is a time sample at its timestamp, placed on CLOCK_MONOTONIC
 * through the stream's correlation points.  The counter deltas from the
 * previous report go to the target bound to the report's context id (pctl
 * ctxid, or learned: when exactly one target has a job running while that
 * id is seen), else are split evenly among the targets with a job running
 * at that time (fence.c keeps the runs of ended jobs for reports that come
 * late), else to no one (counted).  A delta across a change of context is
 * not accumulated for either side; one across lost reports is not taken
 * at all.  In time profiling, a timer report also adds a sample under the
 * OA unit's own timeline (driver "i915-oa", or "xe-oa" for a stream
 * whose DRIVER record names xe; the metric set).  See
 * design.rst 5.3 and 10.2.
 *
 * A learned binding points at its target without a reference: when
 * targets end, ctl.c has the bindings let go of them
 * (gpuprof_oa_disown_ended()).
 *
 * One stream at a time: a second writer gets -EBUSY.  A stream the parser
 * refuses stays refused (-EINVAL) until the file is closed.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "gpuprof.h"
#include "oa_decode.h"

#define GPUPROF_OA_CHUNK	16384
#define GPUPROF_OA_LEARNED	64
/* Reports placed under one hold of the data lock, at most. */
#define GPUPROF_OA_BATCH	32
/* The OA time a run may span: a share of a second (see "Runs"). */
#define GPUPROF_OA_RUN_SPAN	10000

/*
 * Consecutive pairs of reports that all go to one target, whose counter
 * deltas are taken once, from the first report to the last, when the run
 * ends (gpuprof_oa_run_end()).  Its last report is the stream's previous
 * one: every report either goes on with the run or ends it first.
 */
struct gpuprof_oa_run {
	struct gpuprof_target *target;	/* NULL: no run */
	const void *first;		/* in the chunk, or @first_report */
	u64 first_ts;			/* 64-bit OA timestamp of @first */
	u64 ns;				/* its pairs' OA time, each in ns */
	u32 pairs;
	u32 samples;			/* timer reports for the OA timeline */
	u8 first_report[GPUPROF_OA_REPORT_MAX];
};

struct gpuprof_oa_in {
	struct mutex lock;		/* one write at a time */
	struct gpuprof_oa_stream stream;
	/*
	 * The stream's layout as of its last DEVICE_INFO: the parser changes
	 * its own before handing the record over, and a run of the old
	 * layout is ended with the old one.
	 */
	struct gpuprof_oa_layout layout;
	u64 run_span;			/* OA ticks: frequency / RUN_SPAN */
	struct gpuprof_oa_run run;
	struct gpuprof_oa_clock clock;
	bool have_ts;
	u64 last_ts;			/* 64-bit OA timestamp of the last report */
	bool have_prev;
	/*
	 * The previous report: where it lies in @chunk, until the chunk's
	 * end copies it to @prev_report (gpuprof_oa_keep_prev()); or
	 * @prev_report already, when it was put together in @record.
	 */
	const void *prev_at;
	struct gpuprof_oa_report prev;
	u64 prev_ts;			/* its 64-bit OA timestamp */
	int timeline;			/* the OA timeline id, or -1 */
	/* The last context id looked up, and its bound target or NULL. */
	u32 bound_ctx;
	u32 bound_gen;			/* gpuprof_oa_bindings_gen then; 0: none */
	struct gpuprof_target *bound;
	struct gpuprof_oa_deltas d;	/* scratch, for one report */
	bool locked;			/* the data lock is held for a batch */
	unsigned int batched;		/* reports placed under that hold */
	u8 prev_report[GPUPROF_OA_REPORT_MAX];
	u8 chunk[GPUPROF_OA_CHUNK];
	u8 record[GPUPROF_OA_RECORD_MAX];
};

/* Counters shown in status, and the learned bindings: data lock. */
struct gpuprof_oa_stats gpuprof_oa_stats;
static atomic_t gpuprof_oa_writers = ATOMIC_INIT(0);

static struct {
	u32 ctx_id;
	struct gpuprof_target *target;
} gpuprof_oa_learned[GPUPROF_OA_LEARNED];
static u32 gpuprof_oa_learned_next;

/*
 * Changes, under the data lock, whenever a context id may come to mean
 * another target: a pctl binding, a binding learned or forgotten, targets
 * leaving.  A stream keeps the answer for its last context id while this
 * stays the same (reports come in runs of one context); never 0.
 */
static u32 gpuprof_oa_bindings_gen = 1;

void gpuprof_oa_bindings_changed(void)
{
	lockdep_assert_held(&gpuprof_data_lock);
	if (!++gpuprof_oa_bindings_gen)
		gpuprof_oa_bindings_gen = 1;
}

/*
 * The target bound to @ctx_id, as the report's platform reads ids
 * (@mask): a bound id is compared through the same mask, so "ctxid" may
 * name the whole dword 2 or just its id bits (oa.rst).
 */
static struct gpuprof_target *gpuprof_oa_bound(u32 ctx_id, u32 mask)
{
	struct gpuprof_target *t;
	int i;

	list_for_each_entry(t, &gpuprof_targets, link)
		if (t->ctxid_bound && (t->ctxid & mask) == ctx_id)
			return t;
	for (i = 0; i < GPUPROF_OA_LEARNED; i++)
		if (gpuprof_oa_learned[i].target &&
		    gpuprof_oa_learned[i].ctx_id == ctx_id)
			return gpuprof_oa_learned[i].target;
	return NULL;
}

static void gpuprof_oa_learn(u32 ctx_id, struct gpuprof_target *t)
{
	u32 i = gpuprof_oa_learned_next;

	gpuprof_oa_learned[i].ctx_id = ctx_id;
	gpuprof_oa_learned[i].target = t;
	gpuprof_oa_learned_next = (i + 1) % GPUPROF_OA_LEARNED;
	gpuprof_oa_stats.learned++;
	gpuprof_oa_bindings_changed();
}

/*
 * Forget every learned binding: a new stream, a new device, a reset or a
 * stop may come with context ids that mean something else.  Data lock.
 */
void gpuprof_oa_forget_learned(void)
{
	lockdep_assert_held(&gpuprof_data_lock);
	memset(gpuprof_oa_learned, 0, sizeof(gpuprof_oa_learned));
	gpuprof_oa_bindings_changed();
}

/* Targets leaving: forget what was learned of them.  Data lock held. */
void gpuprof_oa_disown_ended(void)
{
	int i;

	lockdep_assert_held(&gpuprof_data_lock);
	for (i = 0; i < GPUPROF_OA_LEARNED; i++)
		if (gpuprof_oa_learned[i].target &&
		    READ_ONCE(gpuprof_oa_learned[i].target->ended))
			gpuprof_oa_learned[i].target = NULL;
	gpuprof_oa_bindings_changed();
}

/*
 * gpuprof_oa_bound() through @in's one-entry cache.  A target that ended
 * since is looked up again: its unlinking comes a lock hold before the
 * bindings are told (ctl.c).
 */
static struct gpuprof_target *gpuprof_oa_bound_cached(struct gpuprof_oa_in *in,
						      u32 ctx_id, u32 mask)
{
	if (in->bound_gen != gpuprof_oa_bindings_gen ||
	    in->bound_ctx != ctx_id ||
	    (in->bound && READ_ONCE(in->bound->ended))) {
		in->bound = gpuprof_oa_bound(ctx_id, mask);
		in->bound_ctx = ctx_id;
		in->bound_gen = gpuprof_oa_bindings_gen;
	}
	return in->bound;
}

/* Whom a report of @ctx_id at @t_ns belongs to; data lock held. */
static int gpuprof_oa_attribute(struct gpuprof_oa_in *in, u32 ctx_id,
				u32 mask, u64 t_ns,
				struct gpuprof_target **who, int max)
{
	bool alone;
	int n;

	if (ctx_id != GPUPROF_OA_NO_CONTEXT) {
		who[0] = gpuprof_oa_bound_cached(in, ctx_id, mask);
		if (who[0])
			return 1;
	}
	n = gpuprof_targets_running_at(t_ns, who, max, &alone);
	/* Learned only when that target's job was the only one running. */
	if (n == 1 && alone && ctx_id != GPUPROF_OA_NO_CONTEXT)
		gpuprof_oa_learn(ctx_id, who[0]);
	return n;
}

/**
 * DOC: Runs of reports to one target
 *
 * Most reports go to the target their context is bound to, report after
 * report of the same context.  The deltas of such a run are the counters
 * of its last report less those of its first: the accumulation, the most
 * of a report's cost, is done once a run (as IGT's reader does once per
 * context), while each pair's OA time is still turned into ns on its own,
 * so a target's sums are those of its pairs taken one by one.
 *
 * That holds while no counter rises by 2^32 or more within the run, so a
 * run spans at most 1/GPUPROF_OA_RUN_SPAN s (0.1 ms) of OA time.  The
 * fastest counters, the aggregate ones, rise by at most one a clock for
 * each EU thread: on DG2's 512 EUs of 8 threads at 2.4 GHz, 0.98 x 10^9
 * in 0.1 ms, under a quarter of 2^32 (and some formats keep aggregates
 * in 32 bits).  Reports further apart than that are taken pair by pair.
 *
 * A run ends with the data lock's hold: at a batch, any other record and
 * each chunk's end.  Whoever takes the lock, a reader of counters or a
 * reset, sees every report placed until then.
 */

/* Add to @t a share, 1/@n, of the deltas @d of @time_ns; data lock held. */
static void gpuprof_oa_add_share(struct gpuprof_target *t,
				 const struct gpuprof_oa_deltas *d,
				 u64 time_ns, unsigned int gen, unsigned int n)
{
	struct gpuprof_oa_deltas *acc = &t->oa;
	int i;

	acc->deltas++;
	acc->timestamp += div_u64(time_ns, n);
	acc->gpu_ticks += div_u64(d->gpu_ticks, n);
	for (i = 0; i < GPUPROF_OA_A_COUNTERS; i++)
		acc->a[i] += div_u64(d->a[i], n);
	for (i = 0; i < GPUPROF_OA_B_COUNTERS; i++)
		acc->b[i] += div_u64(d->b[i], n);
	for (i = 0; i < GPUPROF_OA_C_COUNTERS; i++)
		acc->c[i] += div_u64(d->c[i], n);
	t->oa_gen = gen;
}

/*
 * The deltas of @report over the previous one, split among the @n
 * targets in @who.  Data lock held.
 */
static void gpuprof_oa_share(struct gpuprof_oa_in *in, const void *report,
			     struct gpuprof_target **who, int n)
{
	u64 freq = in->stream.info.timestamp_frequency;
	struct gpuprof_oa_deltas *d = &in->d;
	u64 time_ns;
	int i;

	memset(d, 0, sizeof(*d));
	gpuprof_oa_accumulate(&in->layout, in->prev_at, report, d);
	time_ns = gpuprof_oa_ticks_to_ns(d->timestamp, freq);
	for (i = 0; i < n; i++)
		gpuprof_oa_add_share(who[i], d, time_ns, in->layout.gen, n);
}

/*
 * Give the run's deltas to its target, and its timer reports to the OA
 * timeline: the accumulation adds one pair and its ticks, which are put
 * right.  Data lock held.
 */
static void gpuprof_oa_run_end(struct gpuprof_oa_in *in)
{
	struct gpuprof_oa_run *run = &in->run;
	struct gpuprof_target *t = run->target;
	struct gpuprof_oa_deltas *acc;
	u64 ns, pairs;

	if (!t)
		return;
	acc = &t->oa;
	ns = acc->timestamp;
	pairs = acc->deltas;
	gpuprof_oa_accumulate(&in->layout, run->first, in->prev_at, acc);
	acc->timestamp = ns + run->ns;
	acc->deltas = pairs + run->pairs;
	t->oa_gen = in->layout.gen;
	if (run->samples)
		gpuprof_target_hist_add(t, in->timeline, run->samples, 0);
	run->target = NULL;
}

/*
 * The pair of the previous report and @r (at 64-bit OA time @ts), going
 * to @t alone: the run takes it, or ends and a new one begins with it.
 * @sample: @r is a timer report for the OA timeline.  Data lock held.
 */
static void gpuprof_oa_run_add(struct gpuprof_oa_in *in,
			       struct gpuprof_target *t,
			       const struct gpuprof_oa_report *r, u64 ts,
			       bool sample)
{
	const struct gpuprof_oa_layout *l = &in->layout;
	struct gpuprof_oa_run *run = &in->run;
	u64 ticks = (r->timestamp - in->prev.timestamp) &
		    ((1ull << l->ts_bits) - 1);

	if (run->target != t || ts - run->first_ts > in->run_span) {
		gpuprof_oa_run_end(in);
		run->target = t;
		run->first = in->prev_at;
		/* The previous report's place is reused within the hold. */
		if (in->prev_at == in->prev_report) {
			memcpy(run->first_report, in->prev_report, l->size);
			run->first = run->first_report;
		}
		run->first_ts = in->prev_ts;
		run->ns = 0;
		run->pairs = 0;
		run->samples = 0;
	}
	run->ns += gpuprof_oa_ticks_to_ns(ticks,
					  in->stream.info.timestamp_frequency);
	run->pairs++;
	run->samples += sample;
}

/*
 * Copy the previous report out of the chunk buffer, which the next chunk
 * overwrites; at the end of each chunk.
 */
static void gpuprof_oa_keep_prev(struct gpuprof_oa_in *in)
{
	if (!in->have_prev || in->prev_at == in->prev_report)
		return;
	memcpy(in->prev_report, in->prev_at, in->layout.size);
	in->prev_at = in->prev_report;
}

/*
 * DOC: The data lock, taken a batch at a time
 *
 * Each report placed updates the stream's counters and a target's under
 * the data lock, which the fence probes take in interrupt context.
 * Taking it (irqs off and on) for every report was a measurable part of
 * the write path, so reports are placed under one hold for up to
 * GPUPROF_OA_BATCH of them: a probe on another CPU waits for a batch at
 * most, not a whole chunk.  Any other record, and the end of each chunk
 * (before cond_resched()), lets the lock go.  A run of reports ends
 * before it does.
 */
static void gpuprof_oa_lock(struct gpuprof_oa_in *in)
{
	if (in->locked)
		return;
	spin_lock_irq(&gpuprof_data_lock);
	in->locked = true;
	in->batched = 0;
}

static void gpuprof_oa_unlock(struct gpuprof_oa_in *in)
{
	if (!in->locked)
		return;
	gpuprof_oa_run_end(in);
	in->locked = false;
	spin_unlock_irq(&gpuprof_data_lock);
}

/* One more report placed under the hold: let it go after a batch. */
static void gpuprof_oa_batch_done(struct gpuprof_oa_in *in)
{
	if (++in->batched >= GPUPROF_OA_BATCH)
		gpuprof_oa_unlock(in);
}

static void gpuprof_oa_sample(struct gpuprof_oa_in *in, const void *report)
{
	const struct gpuprof_oa_layout *l = &in->layout;
	struct gpuprof_target *who[16];
	struct gpuprof_oa_report r;
	bool same, sample;
	u64 ts, t_ns;
	int n, i;

	gpuprof_oa_report_header(l, report, &r);
	if (!in->have_ts) {
		/* No correlation point yet: it cannot be placed in time. */
		gpuprof_oa_lock(in);
		gpuprof_oa_stats.unplaced++;
		gpuprof_oa_batch_done(in);
		return;
	}
	/* A later correlation point is a nearer base than the last report. */
	if (in->clock.gpu[in->clock.n - 1] > in->last_ts)
		in->last_ts = in->clock.gpu[in->clock.n - 1];
	ts = gpuprof_oa_unwrap(in->last_ts, r.timestamp, l->ts_bits);
	in->last_ts = ts;
	gpuprof_oa_clock_to_cpu(&in->clock, ts, &t_ns);
	/* Deltas from the previous report of the same context only. */
	same = in->have_prev && in->prev.ctx_id == r.ctx_id;
	sample = gpuprof.mode == GPUPROF_TIME && in->timeline >= 0 &&
		 (r.reason & GPUPROF_OA_REASON_TIMER);

	gpuprof_oa_lock(in);
	gpuprof_oa_stats.reports++;
	if (in->have_prev && !same)
		gpuprof_oa_stats.switch_deltas++;
	if (r.reason & ~(GPUPROF_OA_REASON_TIMER | GPUPROF_OA_REASON_CTX_SWITCH))
		gpuprof_oa_stats.other_reasons++;
	n = gpuprof_oa_attribute(in, r.ctx_id, l->ctx_mask, t_ns, who,
				 ARRAY_SIZE(who));
	if (same && n == 1) {
		/* Its timeline sample goes with the run. */
		gpuprof_oa_run_add(in, who[0], &r, ts, sample);
		who[0]->oa_reports++;
	} else {
		/* A run goes on only from its last report. */
		gpuprof_oa_run_end(in);
		if (!n)
			gpuprof_oa_stats.unattributed++;
		else if (same)
			gpuprof_oa_share(in, report, who, n);
		for (i = 0; i < n; i++) {
			who[i]->oa_reports++;
			if (sample)
				gpuprof_target_hist_add(who[i], in->timeline,
							1, 0);
		}
	}

	/*
	 * A report assembled in the record buffer is copied now: the next
	 * record's first bytes go there before this chunk ends.  One in the
	 * chunk stays where it is until then.
	 */
	if ((const u8 *)report >= in->record &&
	    (const u8 *)report < in->record + sizeof(in->record)) {
		memcpy(in->prev_report, report, l->size);
		in->prev_at = in->prev_report;
	} else {
		in->prev_at = report;
	}
	in->prev = r;
	in->prev_ts = ts;
	in->have_prev = true;
	gpuprof_oa_batch_done(in);
}

/* Use one record of the stream, which oa_decode.c has checked. */
static void gpuprof_oa_on_record(void *arg, const struct gpuprof_oa_stream *s,
				 const struct gpuprof_oa_record_header *h,
				 const void *payload)
{
	struct gpuprof_oa_in *in = arg;
	struct gpuprof_oa_correlation c;
	u32 type;
	int tl;

	/* Records lie where they arrived: at any alignment. */
	memcpy(&type, &h->type, sizeof(type));
	if (type != GPUPROF_OA_RECORD_SAMPLE)
		gpuprof_oa_unlock(in);
	switch (type) {
	case GPUPROF_OA_RECORD_SAMPLE:
		gpuprof_oa_sample(in, payload);
		break;
	case GPUPROF_OA_RECORD_REPORT_LOST:
	case GPUPROF_OA_RECORD_BUFFER_LOST:
		/* A delta across the gap would count what was lost. */
		in->have_prev = false;
		spin_lock_irq(&gpuprof_data_lock);
		if (type == GPUPROF_OA_RECORD_REPORT_LOST)
			gpuprof_oa_stats.report_lost++;
		else
			gpuprof_oa_stats.buffer_lost++;
		spin_unlock_irq(&gpuprof_data_lock);
		break;
	case GPUPROF_OA_RECORD_DEVICE_INFO:
		in->layout = s->layout;
		in->run_span = div_u64(s->info.timestamp_frequency,
				       GPUPROF_OA_RUN_SPAN);
		gpuprof_oa_clock_init(&in->clock, s->info.timestamp_frequency);
		in->have_ts = false;
		in->have_prev = false;
		spin_lock_irq(&gpuprof_data_lock);
		tl = gpuprof_timeline_id(s->drv.driver == GPUPROF_OA_DRIVER_XE ?
					 "xe-oa" : "i915-oa",
					 s->info.metric_set_name);
		gpuprof_oa_forget_learned();
		spin_unlock_irq(&gpuprof_data_lock);
		if (tl >= 0)
			gpuprof_timeline_share(tl);
		in->timeline = tl;
		break;
	case GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION:
		/* A point that goes backwards is ignored, not fatal. */
		memcpy(&c, payload, sizeof(c));
		if (gpuprof_oa_clock_add(&in->clock, c.cpu_timestamp,
					 c.gpu_timestamp) == 0 && !in->have_ts) {
			in->last_ts = c.gpu_timestamp;
			in->have_ts = true;
		}
		break;
	}
}

static int gpuprof_oa_open(struct inode *inode, struct file *filp)
{
	struct gpuprof_oa_in *in;

	if (atomic_cmpxchg(&gpuprof_oa_writers, 0, 1))
		return -EBUSY;
	in = kvzalloc(sizeof(*in), GFP_KERNEL);
	if (!in) {
		atomic_set(&gpuprof_oa_writers, 0);
		return -ENOMEM;
	}
	mutex_init(&in->lock);
	gpuprof_oa_stream_init(&in->stream, in->record);
	in->timeline = -1;
	filp->private_data = in;
	spin_lock_irq(&gpuprof_data_lock);
	gpuprof_oa_forget_learned();
	gpuprof_oa_stats.streams++;
	gpuprof_oa_stats.state = GPUPROF_OA_STREAM_OPEN;
	spin_unlock_irq(&gpuprof_data_lock);
	return 0;
}

static void gpuprof_oa_refused(struct gpuprof_oa_in *in)
{
	spin_lock_irq(&gpuprof_data_lock);
	gpuprof_oa_stats.rejected_streams++;
	gpuprof_oa_stats.last_error = in->stream.error;
	gpuprof_oa_stats.state = GPUPROF_OA_STREAM_REFUSED;
	spin_unlock_irq(&gpuprof_data_lock);
}

static ssize_t gpuprof_oa_write(struct file *filp, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	struct gpuprof_oa_in *in = filp->private_data;
	size_t done = 0, n;
	ssize_t ret = 0;
	int err;

	mutex_lock(&in->lock);
	if (in->stream.error) {
		ret = -EINVAL;
		goto out;
	}
	while (done < len) {
		/* A long replay must not hog the CPU, and may be killed. */
		cond_resched();
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		n = min_t(size_t, len - done, GPUPROF_OA_CHUNK);
		if (copy_from_user(in->chunk, ubuf + done, n)) {
			ret = -EFAULT;
			break;
		}
		err = gpuprof_oa_stream_feed(&in->stream, in->chunk, n,
					     gpuprof_oa_on_record, in);
		gpuprof_oa_unlock(in);
		if (err) {
			gpuprof_oa_refused(in);
			ret = -EINVAL;
			break;
		}
		gpuprof_oa_keep_prev(in);
		done += n;
	}
	spin_lock_irq(&gpuprof_data_lock);
	gpuprof_oa_stats.bytes += done;
	spin_unlock_irq(&gpuprof_data_lock);
out:
	mutex_unlock(&in->lock);
	/* Bytes taken are taken: a later fault or a kill ends the write there. */
	if (done && ret != -EINVAL)
		return done;
	return ret ? ret : done;
}

static int gpuprof_oa_release(struct inode *inode, struct file *filp)
{
	struct gpuprof_oa_in *in = filp->private_data;
	bool refused = in->stream.error;

	/* A record cut short by the writer going away is refused too. */
	if (!refused && gpuprof_oa_stream_end(&in->stream))
		gpuprof_oa_refused(in);
	spin_lock_irq(&gpuprof_data_lock);
	gpuprof_oa_stats.unknown += in->stream.unknown;
	if (gpuprof_oa_stats.state == GPUPROF_OA_STREAM_OPEN)
		gpuprof_oa_stats.state = GPUPROF_OA_STREAM_CLOSED;
	spin_unlock_irq(&gpuprof_data_lock);
	mutex_destroy(&in->lock);
	kvfree(in);
	atomic_set(&gpuprof_oa_writers, 0);
	return 0;
}

static const struct file_operations gpuprof_oa_fops = {
	.owner = THIS_MODULE,
	.open = gpuprof_oa_open,
	.write = gpuprof_oa_write,
	.release = gpuprof_oa_release,
	.llseek = noop_llseek,
};

const struct gpuprof_file gpuprof_oa_file = {
	.name = "oa",
	.mode = 0600,
	.fops = &gpuprof_oa_fops,
};
