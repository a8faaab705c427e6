// SPDX-License-Identifier: GPL-2.0-only
/*
 * Display events of a real KMS driver: vkms (built from the kernel's
 * source as a test module) flipped by flipper while perf gpu record
 * records system-wide; the distribution's perf script reads the file.
 * vkms's vblank is an hrtimer at the mode's refresh rate, so the
 * vblank timestamps are one period apart, every flip is delivered on
 * the vblank after the one before it, and each frame flipper skips
 * leaves exactly one vblank without a flip.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xf86drm.h>
#include <xf86drmMode.h>

#include "../lib/harness.h"
#include "../lib/gpuprof.h"
#include "../lib/kmod.h"
#include "../lib/run.h"
#include "../lib/trace.h"

#define FRAMES 300
/*
 * The frame rate flipper sets (-r): vkms's 60 Hz was not kept up with by
 * a busy 2-core machine under TCG (a flip shown a vblank late in each of
 * three runs), nor, once in two runs of three, was 20 Hz with the debug
 * suite's two VMs beside the test's.  10 Hz, a 100 ms frame; divided by
 * the time scale on a kernel declared slow (the debug kernels: 2 Hz),
 * where a commit took longer than a 60 Hz frame.
 */
#define FRAME_HZ 10
/* The frames flipper does not flip; as flipper's argument, a string. */
#define SKIP_FRAMES 50,100,150,200,250
#define NR_SKIPS 5
#define STR(...) #__VA_ARGS__
#define XSTR(...) STR(__VA_ARGS__)
#define MAX_EVENTS 4096

/* What flipper printed. */
struct flipper_result {
	long frames, flips, skipped;
	unsigned long refresh_mhz;
	unsigned int crtc_id;
};

/*
 * The display events of one pipe and the out-fences of its crtc; "at"
 * is when perf sampled the event, in microseconds.
 */
struct display_events {
	long long vblank_time[MAX_EVENTS];
	unsigned int vblank_seq[MAX_EVENTS];
	long long vblank_at[MAX_EVENTS];
	int nr_vblanks;
	int all_vblanks;	/* of the crtc index, every device's */
	unsigned int delivered_seq[MAX_EVENTS];
	int nr_delivered;
	long long fence_init_at[MAX_EVENTS];
	long fence_init, fence_signaled;
	/* When a commit armed its flip's event (the kprobe ARM_PROBE). */
	long long arm_at[MAX_EVENTS];
	int nr_arms;
};

/*
 * A flip is shown on the first vblank after its commit arms the event
 * (drm_crtc_arm_vblank_event(), from vkms's atomic_flush in the commit
 * worker), which no tracepoint shows: a kprobe on it does, in any crtc.
 */
#define ARM_PROBE "p:gpuprof_vkms/arm drm_crtc_arm_vblank_event\n"
#define ARM_PROBE_OFF "-:gpuprof_vkms/arm\n"

FIXTURE(vkms) {
	char dir[64];
	char data[128];
	char out[16384];
	struct flipper_result flip;
	struct display_events ev;
};

FIXTURE_SETUP(vkms)
{
	ASSERT_EQ(0, vkms_load());
	snprintf(self->dir, sizeof(self->dir), "/tmp/vkms_test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->data, sizeof(self->data), "%s/perf.data", self->dir);
	memset(&self->flip, 0, sizeof(self->flip));
	memset(&self->ev, 0, sizeof(self->ev));
}

FIXTURE_TEARDOWN(vkms)
{
	char out[256];

	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
	EXPECT_EQ(0, vkms_unload());
}

static const char *flipper_path(void)
{
	static char path[PATH_MAX];
	const char *gw = gpuwork_path();
	const char *slash = strrchr(gw, '/');

	if (!slash)
		return "flipper";
	snprintf(path, sizeof(path), "%.*sflipper", (int)(slash - gw + 1), gw);
	return path;
}

/* The DRM card whose device is the vkms platform device, or -1. */
static int open_vkms_card(void)
{
	char link[PATH_MAX], path[64];
	ssize_t n;
	int i;

	for (i = 0; i < 16; i++) {
		snprintf(path, sizeof(path), "/sys/class/drm/card%d/device", i);
		n = readlink(path, link, sizeof(link) - 1);
		if (n < 0)
			continue;
		link[n] = '\0';
		if (strcmp(strrchr(link, '/') ? strrchr(link, '/') + 1 : link,
			   "vkms"))
			continue;
		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		return open(path, O_RDWR | O_CLOEXEC);
	}
	return -1;
}

/*
 * The vblank core's index of crtc @crtc_id (what the drm tracepoints
 * call "crtc"): its place in the card's list of crtcs; -1 if none.
 */
static int crtc_pipe(unsigned int crtc_id)
{
	int fd = open_vkms_card(), i, pipe = -1;
	drmModeResPtr res;

	if (fd < 0)
		return -1;
	res = drmModeGetResources(fd);
	for (i = 0; res && i < res->count_crtcs; i++)
		if (res->crtcs[i] == crtc_id)
			pipe = i;
	drmModeFreeResources(res);
	close(fd);
	return pipe;
}

/* perf script's lines: the drm events of @pipe, the fences of @crtc_id. */
static int read_events(FIXTURE_DATA(vkms) *self, int pipe)
{
	struct display_events *ev = &self->ev;
	char path[160], timeline[64], file[64], *line = NULL, *p;
	unsigned long long sec, usec;
	unsigned int seq;
	long long t, at;
	size_t cap = 0;
	int crtc;
	FILE *f;

	snprintf(path, sizeof(path), "%s/script.txt", self->dir);
	/* Its warnings (lost chunks) apart: they would cut into a line. */
	if (run_cmd(self->out, sizeof(self->out),
		    "{ perf script -i %s 2>%s.err; } > %s", self->data, path,
		    path))
		return -1;
	f = fopen(path, "r");
	if (!f)
		return -1;
	/* The crtc's fences: driver "vkms", timeline "CRTC:<id>-<name>". */
	snprintf(timeline, sizeof(timeline), "driver=vkms timeline=CRTC:%u-",
		 self->flip.crtc_id);
	while (getline(&line, &cap, f) > 0) {
		/* "COMM PID [CPU] SECS.USECS: EVENT: FIELDS" */
		p = strstr(line, "] ");
		if (!p || sscanf(p, "] %llu.%llu:", &sec, &usec) != 2)
			continue;
		at = sec * 1000000 + usec;
		if ((p = strstr(line, " drm:drm_vblank_event: ")) &&
		    sscanf(p, " drm:drm_vblank_event: crtc=%d, seq=%u, time=%lld",
			   &crtc, &seq, &t) == 3) {
			if (crtc == pipe && ev->nr_vblanks < MAX_EVENTS) {
				ev->vblank_time[ev->nr_vblanks] = t;
				ev->vblank_seq[ev->nr_vblanks] = seq;
				ev->vblank_at[ev->nr_vblanks++] = at;
			}
		} else if ((p = strstr(line, " drm:drm_vblank_event_delivered: ")) &&
			   (p = strstr(p, "file=")) &&
			   sscanf(p, "file=%63[^,], crtc=%d, seq=%u", file, &crtc,
				  &seq) == 3) {
			/*
			 * Commits that asked for no event get one of the
			 * kernel's own, of no file: the mode set, fbdev's.
			 */
			if (crtc == pipe && strtoull(file, NULL, 16) &&
			    ev->nr_delivered < MAX_EVENTS)
				ev->delivered_seq[ev->nr_delivered++] = seq;
		} else if (strstr(line, " gpuprof_vkms:arm:")) {
			if (ev->nr_arms < MAX_EVENTS)
				ev->arm_at[ev->nr_arms++] = at;
		} else if (strstr(line, timeline)) {
			if (strstr(line, " dma_fence:dma_fence_init: ") &&
			    ev->fence_init < MAX_EVENTS)
				ev->fence_init_at[ev->fence_init++] = at;
			else if (strstr(line, " dma_fence:dma_fence_signaled: "))
				ev->fence_signaled++;
		}
	}
	free(line);
	fclose(f);
	return 0;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* The recording's first vblank lines, to see what ticked beside vkms. */
static void log_vblanks(struct __test_metadata *_metadata,
			FIXTURE_DATA(vkms) *self)
{
	run_cmd(self->out, sizeof(self->out),
		"grep drm_vblank_event: %s/script.txt | head -40; ls /sys/class/drm",
		self->dir);
	TH_LOG("%s", self->out);
}

/* The median of the intervals between consecutive vblank timestamps. */
static long long median_interval(const struct display_events *ev)
{
	long long d[MAX_EVENTS];
	int i, n = ev->nr_vblanks - 1;

	if (n < 1)
		return -1;
	for (i = 0; i < n; i++)
		d[i] = ev->vblank_time[i + 1] - ev->vblank_time[i];
	qsort(d, n, sizeof(d[0]), cmp_ll);
	return d[n / 2];
}

/* How many times the delivered sequence numbers advance by @step. */
static int delivered_steps(const struct display_events *ev, long step)
{
	int i, n = 0;

	for (i = 1; i < ev->nr_delivered; i++)
		n += (long)(ev->delivered_seq[i] - ev->delivered_seq[i - 1]) == step;
	return n;
}

/*
 * How late, in ns, the vblank numbered @seq was handled: perf's sample
 * time against the vblank's own timestamp (vkms's timer expiry), both
 * CLOCK_MONOTONIC; -1 if it was not seen.
 */
static long long vblank_lateness(const struct display_events *ev,
				 unsigned int seq)
{
	int i;

	for (i = 0; i < ev->nr_vblanks; i++)
		if (ev->vblank_seq[i] == seq)
			return ev->vblank_at[i] * 1000 - ev->vblank_time[i];
	return -1;
}

/* When the vblank numbered @seq was handled; -1 if it was not seen. */
static long long vblank_at(const struct display_events *ev, unsigned int seq)
{
	int i;

	for (i = 0; i < ev->nr_vblanks; i++)
		if (ev->vblank_seq[i] == seq)
			return ev->vblank_at[i];
	return -1;
}

/* When the first event armed at or after @at was; -1 if none was. */
static long long armed_after(const struct display_events *ev, long long at)
{
	int i;

	for (i = 0; i < ev->nr_arms; i++)
		if (ev->arm_at[i] >= at)
			return ev->arm_at[i];
	return -1;
}

/* What the steps between delivered flips say of a run. */
struct steps {
	int late;		/* flips shown later than due */
	int early;		/* flips shown sooner than due */
	/*
	 * Late flips without a stall to show for it: the vblank due and
	 * the previous flip's were both handled, each within 5 % of a
	 * period of its own timestamp, and the commit armed its event more
	 * than 5 % of a period before the vblank due was handled.  A
	 * stalled VM handles a vblank late (vkms's timer fires late, and
	 * flipper hears of the previous flip late), or so late that the
	 * count jumps past the vblank due and it is never handled; or its
	 * commit worker arms the event after the vblank due (the 6.1 debug
	 * kernel under load did, commits made 50 to 450 ms before it); each
	 * is in the kernel's own events.
	 */
	int unexplained;
	int extra_missed;	/* vblanks the late flips missed, in all */
	/*
	 * Each flip shown late or early, for the log: "#FLIP:+STEP/DUE",
	 * then the microseconds from the previous flip's vblank to this
	 * flip's commit (its out-fence made), from the commit to the
	 * handling of the vblank due, and from that to the event's arming,
	 * "-" where that vblank or arming was not seen.
	 */
	char what[1024];
};

/*
 * Each step between delivered flips against what flipper did: a flip is
 * due on the vblank after the previous one, or on the one after that
 * when flipper skipped a frame in between.  @late_at[k] counts the runs
 * that showed flip k late.
 */
static struct steps check_steps(const struct display_events *ev,
				long long period_ns, int *late_at)
{
	static const long skips[NR_SKIPS] = { SKIP_FRAMES };
	struct steps r = { 0 };
	unsigned int due_seq;
	long frame = 0;
	int k, i, after_skip;
	long long due, prev, late_due, late_prev, armed;
	size_t len = 0;

	for (k = 0; k < ev->nr_delivered && k < ev->fence_init; k++) {
		after_skip = 0;
		for (frame++, i = 0; i < NR_SKIPS; i++)
			if (skips[i] == frame) {
				after_skip = 1;
				frame++;
			}
		if (!k)
			continue;
		due_seq = ev->delivered_seq[k - 1] + 1 + after_skip;
		if (ev->delivered_seq[k] == due_seq)
			continue;
		due = vblank_at(ev, due_seq);
		prev = vblank_at(ev, ev->delivered_seq[k - 1]);
		armed = armed_after(ev, ev->fence_init_at[k]);
		if ((int)(ev->delivered_seq[k] - due_seq) < 0) {
			r.early++;
		} else {
			r.late++;
			r.extra_missed += ev->delivered_seq[k] - due_seq;
			late_at[k]++;
			late_due = vblank_lateness(ev, due_seq);
			late_prev = vblank_lateness(ev, ev->delivered_seq[k - 1]);
			if (late_due >= 0 && late_prev >= 0 &&
			    late_due * 20 <= period_ns && late_prev * 20 <= period_ns &&
			    (armed < 0 || due < 0 ||
			     (due - armed) * 1000 * 20 > period_ns))
				r.unexplained++;
		}
		if (len > sizeof(r.what) - 64)
			continue;
		len += snprintf(r.what + len, sizeof(r.what) - len, " #%d:%+d/%d",
				k + 1, (int)(ev->delivered_seq[k] -
					     ev->delivered_seq[k - 1]),
				1 + after_skip);
		if (due < 0 || prev < 0)
			len += snprintf(r.what + len, sizeof(r.what) - len, ",-");
		else
			len += snprintf(r.what + len, sizeof(r.what) - len,
					",%lld,%lld", ev->fence_init_at[k] - prev,
					due - ev->fence_init_at[k]);
		if (due < 0 || armed < 0)
			len += snprintf(r.what + len, sizeof(r.what) - len, ",-");
		else
			len += snprintf(r.what + len, sizeof(r.what) - len,
					",%lld", armed - due);
	}
	return r;
}

/* flipper under perf gpu record; its output and its events in @self. */
#define MAX_COUNTERS 8

/*
 * drm_vblank_event names a crtc by its index on its device, not the
 * device: on 7.3 virtio_gpu ticks a vblank timer of its own on its crtc
 * 0 (at 75 Hz, seen going on after virtio_gpu_test's modesets), so the
 * recording can hold two devices' ticks under one crtc number.  Each
 * device counts its own: a tick continues the counter whose last seq is
 * below it by the least (at most 64, frames missed while vblank was
 * off), else starts one.  Keep the counter the flips delivered to
 * flipper were counted on; say how many ticks were someone else's.
 */
static void keep_vkms_counter(struct __test_metadata *_metadata,
			      struct display_events *ev)
{
	unsigned int last[MAX_COUNTERS], lo[MAX_COUNTERS], hi[MAX_COUNTERS];
	int of[MAX_EVENTS], n = 0, best = 0, hits[MAX_COUNTERS] = { 0 };
	int i, c, k, kept = 0;

	ev->all_vblanks = ev->nr_vblanks;
	for (i = 0; i < ev->nr_vblanks; i++) {
		unsigned int seq = ev->vblank_seq[i], gap = 65;

		of[i] = -1;
		for (c = 0; c < n; c++)
			if (seq > last[c] && seq - last[c] < gap) {
				gap = seq - last[c];
				of[i] = c;
			}
		if (of[i] < 0 && n < MAX_COUNTERS) {
			of[i] = n++;
			lo[of[i]] = seq;
		}
		if (of[i] >= 0)
			last[of[i]] = hi[of[i]] = seq;
	}
	for (c = 0; c < n; c++) {
		for (k = 0; k < ev->nr_delivered; k++)
			hits[c] += ev->delivered_seq[k] >= lo[c] &&
				   ev->delivered_seq[k] <= hi[c];
		if (hits[c] > hits[best])
			best = c;
	}
	for (i = 0; i < ev->nr_vblanks; i++) {
		if (of[i] != best)
			continue;
		ev->vblank_time[kept] = ev->vblank_time[i];
		ev->vblank_seq[kept] = ev->vblank_seq[i];
		ev->vblank_at[kept++] = ev->vblank_at[i];
	}
	if (kept < ev->nr_vblanks)
		TH_LOG("%d of the crtc's %d vblanks on %d other counters (another device's crtc of that index): not vkms's",
		       ev->nr_vblanks - kept, ev->nr_vblanks, n - 1);
	ev->nr_vblanks = kept;
}

static unsigned int frame_hz(void)
{
	unsigned int hz = FRAME_HZ / gpuprof_time_scale();

	return hz ? hz : 1;
}

static int record_flips(struct __test_metadata *_metadata,
			FIXTURE_DATA(vkms) *self)
{
	struct display_events *ev = &self->ev;
	int pipe, err;
	char *p;

	memset(&self->flip, 0, sizeof(self->flip));
	memset(ev, 0, sizeof(*ev));
	unlink(self->data);
	err = trace_kprobe(ARM_PROBE);
	if (err && err != -EEXIST) {
		TH_LOG("kprobe %s: %s", ARM_PROBE, strerror(-err));
		return -1;
	}
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s record -a -e drm:drm_vblank_event -e drm:drm_vblank_event_delivered -e gpuprof_vkms:arm -o %s -- %s -n flipper -r %u %d skip " XSTR(SKIP_FRAMES),
			     perf_gpu_path(), self->data, flipper_path(),
			     frame_hz(), FRAMES))
		TH_LOG("%s", self->out);
	EXPECT_EQ(0, trace_kprobe(ARM_PROBE_OFF));
	EXPECT_EQ(NULL, strstr(self->out, "lost")) TH_LOG("%s", self->out);
	p = strstr(self->out, "frames ");
	if (!p || sscanf(p, "frames %ld flips %ld skipped %ld refresh_mhz %lu crtc_id %u",
			 &self->flip.frames, &self->flip.flips,
			 &self->flip.skipped, &self->flip.refresh_mhz,
			 &self->flip.crtc_id) != 5) {
		TH_LOG("no result line from flipper: %s", self->out);
		return -1;
	}
	pipe = crtc_pipe(self->flip.crtc_id);
	if (pipe < 0) {
		TH_LOG("crtc %u not found", self->flip.crtc_id);
		return -1;
	}
	if (read_events(self, pipe)) {
		TH_LOG("perf script: %s", self->out);
		return -1;
	}
	keep_vkms_counter(_metadata, ev);
	TH_LOG("pipe %d: %d vblanks, %d flips delivered, out-fences %ld/%ld, %d events armed",
	       pipe, ev->nr_vblanks, ev->nr_delivered, ev->fence_init,
	       ev->fence_signaled, ev->nr_arms);
	return 0;
}

/* A number from perf gpu report's JSON of the recording, by a python
 * expression on its document d; -1 if there is none. */
static long long report_num(FIXTURE_DATA(vkms) *self, const char *expr)
{
	char out[256];

	if (run_cmd(out, sizeof(out),
		    "%s report -i %s --format=json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(int(%s))'",
		    perf_gpu_path(), self->data, expr))
		return -1;
	return atoll(out);
}

/*
 * What perf gpu report makes of the same recording: per crtc, as many
 * vblanks and client flips as perf script showed, the out-fences jobs
 * of their own timeline; and, when the flips were on time, the flips'
 * median interval one period and exactly the skipped frames missed.
 */
/* Field @field of crtc @pipe in the report's frames. */
static long long crtc_num(FIXTURE_DATA(vkms) *self, int pipe, const char *field)
{
	char expr[160];

	/* vkms's counter: the row of that crtc index the flips are on. */
	snprintf(expr, sizeof(expr),
		 "[c for c in d[\"frames\"] if c[\"crtc\"] == %d and c[\"flips\"]][0][\"%s\"]",
		 pipe, field);
	return report_num(self, expr);
}

static void report_counts_agree(struct __test_metadata *_metadata,
				FIXTURE_DATA(vkms) *self, int pipe)
{
	/* The report splits the crtc index's ticks by counter too. */
	EXPECT_EQ(self->ev.nr_vblanks, crtc_num(self, pipe, "vblanks"));
	EXPECT_EQ(self->ev.all_vblanks,
		  report_num(self, "sum(c[\"vblanks\"] for c in d[\"frames\"])"));
	EXPECT_EQ(self->ev.nr_delivered, crtc_num(self, pipe, "flips"));
	EXPECT_EQ(self->flip.flips,
		  report_num(self, "sum(t[\"jobs\"] for t in d[\"timelines\"] if t[\"driver\"] == \"vkms\" and t[\"timeline\"].startswith(\"CRTC:\"))"));
}

/* @missed: the vblanks without a flip perf script's events show. */
static void report_timing_agrees(struct __test_metadata *_metadata,
				 FIXTURE_DATA(vkms) *self, int pipe,
				 long long period_ns, int missed)
{
	long long median = crtc_num(self, pipe, "median_flip_interval_ns");

	EXPECT_EQ(missed, crtc_num(self, pipe, "missed_flips"));
	TH_LOG("report: median flip interval %lld ns, period %lld ns",
	       median, period_ns);
	EXPECT_LE(period_ns * 99 / 100, median);
	EXPECT_GE(period_ns * 101 / 100, median);
}

/*
 * The steps between flips hold only when the VM runs on time, which TCG
 * on a busy host does not promise: stalled for more than a frame, the VM
 * shows a flip on a later vblank than due (vkms's timer fires late and
 * the count jumps, or the commit worker arms the flip's event after its
 * vblank).  Nothing shows one sooner.  So the frame is long (FRAME_HZ),
 * a flip shown sooner fails, and so does a flip shown late without a
 * stall in the kernel's vblank events or its arming (struct steps): on
 * the 6.1 debug kernel under load, late flips had been committed 150 to
 * 350 ms before their vblank and armed 65 to 130 ms after it.  The
 * exact steps are counted on the first run without late flips.  When
 * every run had some (three VMs on two cores did that even at 10 Hz,
 * each late flip with its timer a period or more late), the report's
 * missed flips are checked against the late ones perf script shows
 * instead.
 */
#define ATTEMPTS 3

TEST_F_TIMEOUT(vkms, flips_and_vblanks_recorded, 300)
{
	struct display_events *ev = &self->ev;
	long long period_ns, median;
	int attempt, k, pipe, always_late = 0;
	static int late_at[MAX_EVENTS];
	struct steps steps;

	for (attempt = 1; attempt <= ATTEMPTS; attempt++) {
		ASSERT_EQ(0, record_flips(_metadata, self));
		ASSERT_EQ(FRAMES, self->flip.frames);
		ASSERT_EQ(FRAMES - NR_SKIPS, self->flip.flips);
		ASSERT_EQ(NR_SKIPS, self->flip.skipped);
		ASSERT_LT(0, self->flip.refresh_mhz);

		/* Every frame waits for at least one vblank. */
		ASSERT_LE(FRAMES, ev->nr_vblanks);

		/* One period, 10^12 / mHz ns, within 1 %. */
		period_ns = 1000000000000LL / self->flip.refresh_mhz;
		median = median_interval(ev);
		TH_LOG("median vblank interval %lld ns, period %lld ns",
		       median, period_ns);
		if (median < period_ns * 99 / 100 || median > period_ns * 101 / 100)
			log_vblanks(_metadata, self);
		ASSERT_LE(period_ns * 99 / 100, median);
		ASSERT_GE(period_ns * 101 / 100, median);

		/* Each flip's out-fence, made by the crtc, signalled once. */
		ASSERT_EQ(self->flip.flips, ev->fence_init);
		ASSERT_EQ(self->flip.flips, ev->fence_signaled);
		pipe = crtc_pipe(self->flip.crtc_id);
		report_counts_agree(_metadata, self, pipe);

		steps = check_steps(ev, period_ns, late_at);
		TH_LOG("flips not on the vblank due:%s", steps.what);
		ASSERT_EQ(0, steps.early);
		ASSERT_EQ(0, steps.unexplained);
		if (steps.late && attempt < ATTEMPTS) {
			TH_LOG("run %d of %d: %d flips late, each after a late vblank or a late arming: the VM stalled; again",
			       attempt, ATTEMPTS, steps.late);
			continue;
		}
		if (steps.late) {
			for (k = 0; k < MAX_EVENTS; k++)
				always_late += late_at[k] == ATTEMPTS;
			TH_LOG("late flips in each of %d runs at %u Hz (%d at the same flip in every run), each after a stall; steps checked against them",
			       ATTEMPTS, frame_hz(), always_late);
		} else {
			/* Back to back, but for the skipped frames. */
			EXPECT_EQ(self->flip.flips - 1 - NR_SKIPS,
				  delivered_steps(ev, 1));
			EXPECT_EQ(NR_SKIPS, delivered_steps(ev, 2));
		}
		report_timing_agrees(_metadata, self, pipe, period_ns,
				     NR_SKIPS + steps.extra_missed);
		return;
	}
}

TEST_HARNESS_MAIN
