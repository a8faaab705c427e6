// SPDX-License-Identifier: GPL-2.0-only
/*
 * Our metric evaluator (tools/perf-gpu/oa/metrics.c) against IGT
 * 1.27.1's i915-perf-reader, a real peer, on simulator recordings: for
 * every platform of the table with counters whose report format the
 * simulator writes (oa/sim-platform.c: Haswell's A45_B8_C8, format 10
 * on gen8 to gen12.10, format 12 on Meteor Lake; the reader 1.27.1
 * accumulates all three), every set of it, a short recording with two
 * contexts taking turns, read by "i915-perf-reader -c all -r" and by us.
 *
 * How the reader 1.27.1 prints (tools/i915-perf/i915_perf_reader.c and
 * lib/i915/perf_data_reader.c there): it splits the reports into
 * segments where the context id changes, the id being dword 2 as it
 * stands when the report says it is valid (always on gen12, bit 16 on
 * gen9 to 11, bit 25 on gen8, never on Haswell), else 0xffffffff.  A
 * segment runs from its first report to the first report of the next
 * context (so its deltas cross the switch); the last segment, to the
 * last report, is there only if it holds two reports or more.  Per
 * segment it prints "hw_id=", the counters of ONE accumulation from its
 * first to its last report (not a sum of the pairs'), then per report of
 * the segment but its last " reportN = reason" and the counters from
 * that report to the next.
 * We do the same with gpuprof_oa_accumulate() and compare every counter
 * of every report and segment: u64 exactly, doubles as printed ("%f")
 * or within 1e-6 relative.
 *
 * Then what a user sees: each platform's recordings, every set, go into
 * one perf.data (a gpu_oa:oa_device sample before each set's reports, as
 * perf gpu record writes them), and every counter "perf gpu script -F
 * trace,oa-metrics" prints on a report line must be the reader's for
 * that pair of reports, each of them once.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lib/harness.h"
#include "../lib/fence_format.h"
#include "../lib/run.h"
#include "../lib/setup_provides.h"
#include "../../tools/perf-gpu/perfdata/tracing-data.h"
#include "../../tools/perf-gpu/perfdata/write.h"
#include "../../module/oa_decode.h"
#include "../../tools/perf-gpu/oa/metrics.h"
#include "../../tools/perf-gpu/oa/sim.h"

#define MS 1000000ull
#define OUT_SIZE (8 << 20)

/* The reports of a recording, as our stream parser takes them. */
struct recording {
	uint8_t (*reports)[GPUPROF_OA_REPORT_MAX];
	size_t n, alloc;
	bool nomem;
	struct gpuprof_oa_layout layout;
	uint8_t topo[512];
	size_t topo_len;
	struct gpuprof_oa_device_info info;
	struct gpuprof_oa_driver drv;		/* the rules the stream took */
};

static void on_record(void *arg, const struct gpuprof_oa_stream *s,
		      const struct gpuprof_oa_record_header *h,
		      const void *payload)
{
	struct recording *r = arg;
	size_t len = h->size - sizeof(*h);

	if (h->type == GPUPROF_OA_RECORD_DEVICE_TOPOLOGY) {
		r->topo_len = len < sizeof(r->topo) ? len : sizeof(r->topo);
		memcpy(r->topo, payload, r->topo_len);
	}
	if (h->type != GPUPROF_OA_RECORD_SAMPLE)
		return;
	if (r->n == r->alloc) {
		void *p = realloc(r->reports, (r->alloc * 2 + 64) *
				  sizeof(*r->reports));

		if (!p) {
			r->nomem = true;
			return;
		}
		r->reports = p;
		r->alloc = r->alloc * 2 + 64;
	}
	memcpy(r->reports[r->n++], payload, s->layout.size);
	r->layout = s->layout;
	r->info = s->info;
	r->drv = s->drv;
}

static int read_recording(const char *path, struct recording *r)
{
	static uint8_t rbuf[GPUPROF_OA_RECORD_MAX];
	struct gpuprof_oa_stream s;
	uint8_t buf[4096];
	size_t k;
	FILE *f = fopen(path, "rb");

	if (!f)
		return -1;
	r->n = 0;
	r->topo_len = 0;
	gpuprof_oa_stream_init(&s, rbuf);
	while ((k = fread(buf, 1, sizeof(buf), f)))
		if (gpuprof_oa_stream_feed(&s, buf, k, on_record, r))
			break;
	fclose(f);
	return gpuprof_oa_stream_end(&s) || r->nomem ? -1 : 0;
}

static uint32_t u32_at(const uint8_t *report, unsigned int dword)
{
	uint32_t v;

	memcpy(&v, report + 4 * dword, 4);
	return v;
}

/* The context id as IGT's reader takes it. */
static uint32_t igt_ctx_id(unsigned int gen, const uint8_t *report)
{
	uint32_t d0 = u32_at(report, 0);
	bool valid = gen >= 12 || (gen == 8 ? d0 & (1u << 25) :
				   gen > 8 && d0 & (1u << 16));

	return valid ? u32_at(report, 2) : 0xffffffff;
}

/* A line of the reader's output: "hw_id=", " reportN", "   Sym: v". */
struct cursor {
	char *p;
	char *line;
};

static bool next_line(struct cursor *c)
{
	char *nl;

	while (*c->p) {
		c->line = c->p;
		nl = strchr(c->p, '\n');
		if (nl) {
			*nl = '\0';
			c->p = nl + 1;
		} else {
			c->p += strlen(c->p);
		}
		if (!strncmp(c->line, "hw_id=", 6) ||
		    !strncmp(c->line, " report", 7) ||
		    !strncmp(c->line, "   ", 3))
			return true;
	}
	c->line = NULL;
	return false;
}

/*
 * The reader's counters of each report pair of a set, "Sym=value" lines
 * in its order; pair[i] is reports i - 1 and i (pair[0] unused).
 */
struct reader_pairs {
	char **pair;
	size_t n;
};

struct compare {
	struct oa_metrics m;
	struct reader_pairs *keep;	/* where to keep the reader's pairs */
	bool per_report;		/* comparing a report, not a segment */
	unsigned long long values, zeros;
	bool moved[OA_METRICS_MAX_COUNTERS];	/* of the set: ever non-zero */
	char why[512];
};

static bool close_enough(const char *ours, const char *theirs)
{
	double a = strtod(ours, NULL), b = strtod(theirs, NULL);
	double diff = fabs(a - b), big = fmax(fabs(a), fabs(b));

	return !strcmp(ours, theirs) || diff <= 1.0000001e-6 || diff <= 1e-6 * big;
}

/* Our available counter @sym (@len bytes), or -1. */
static int counter_index(const struct oa_metrics *m, const char *sym,
			 size_t len)
{
	const char *name;
	unsigned int i;

	for (i = 0; i < m->n; i++) {
		name = oa_metric_str(oa_metrics_counter(m, i)->symbol);
		if (!strncmp(name, sym, len) && !name[len])
			return i;
	}
	return -1;
}

/* Counter @sym (@len bytes) of pair @i is @value: a line "Sym=value". */
static void keep_value(struct reader_pairs *p, size_t i, const char *sym,
		       size_t len, const char *value)
{
	size_t old = p->pair[i] ? strlen(p->pair[i]) : 0;
	size_t add = len + strlen(value) + 3;
	char *s = realloc(p->pair[i], old + add);

	if (!s)
		abort();
	snprintf(s + old, add, "%.*s=%s\n", (int)len, sym, value);
	p->pair[i] = s;
}

/*
 * The counters of the reports @r0 to @r1 against the reader's lines,
 * which it prints sorted by name: each of ours once, none else.
 */
static bool compare_counters(struct compare *c, const struct recording *r,
			     size_t r0, size_t r1, struct cursor *cur)
{
	bool seen[OA_METRICS_MAX_COUNTERS] = { false };
	struct gpuprof_oa_deltas d;
	const char *sym, *colon;
	char ours[384];
	unsigned int i;
	int k;

	memset(&d, 0, sizeof(d));
	gpuprof_oa_accumulate(&r->layout, r->reports[r0], r->reports[r1], &d);
	oa_metrics_compute(&c->m, &d);
	for (i = 0; i < c->m.n; i++) {
		if (!next_line(cur) || strncmp(cur->line, "   ", 3) ||
		    !(colon = strstr(cur->line, ": "))) {
			snprintf(c->why, sizeof(c->why),
				 "reports %zu..%zu: want %u counters, reader: '%.100s'",
				 r0, r1, c->m.n, cur->line ? cur->line : "(end)");
			return false;
		}
		sym = cur->line + 3;
		k = counter_index(&c->m, sym, colon - sym);
		if (k < 0 || seen[k]) {
			snprintf(c->why, sizeof(c->why),
				 "reports %zu..%zu: the reader's counter '%.100s' is not ours%s",
				 r0, r1, cur->line, k < 0 ? "" : " (twice)");
			return false;
		}
		seen[k] = true;
		if (c->keep && c->per_report)
			keep_value(c->keep, r1, sym, colon - sym, colon + 2);
		oa_metrics_format(&c->m, k, ours, sizeof(ours));
		if (oa_metrics_value(&c->m, k)->is_double ?
		    !close_enough(ours, colon + 2) : strcmp(ours, colon + 2)) {
			snprintf(c->why, sizeof(c->why),
				 "reports %zu..%zu: %.*s: ours %.60s, reader %.60s",
				 r0, r1, (int)(colon - sym), sym, ours, colon + 2);
			return false;
		}
		c->values++;
		if (!strcmp(ours, "0") || !strcmp(ours, "0.000000"))
			c->zeros++;
		else
			c->moved[k] = true;
	}
	return true;
}

/*
 * The reader's segments and reports against ours.  Return: true when
 * every line agrees; *segments: how many segments.
 */
static bool compare_output(struct compare *c, const struct recording *r,
			   unsigned int gen, char *out, unsigned int *segments)
{
	struct cursor cur = { .p = out };
	size_t i, start = 0, k;
	uint32_t ctx0, ctx;
	char want[64];

	*segments = 0;
	for (i = 1; i <= r->n; i++) {
		ctx0 = igt_ctx_id(gen, r->reports[start]);
		if (i < r->n) {
			ctx = igt_ctx_id(gen, r->reports[i]);
			if (ctx == ctx0)
				continue;
			k = i;
		} else {
			/* The last segment, if it has two reports. */
			if (start == r->n - 1)
				break;
			k = r->n - 1;
		}
		snprintf(want, sizeof(want), "hw_id=0x%x ", ctx0);
		if (!next_line(&cur) || strncmp(cur.line, want, strlen(want))) {
			snprintf(c->why, sizeof(c->why), "segment at report %zu: want '%s', reader: '%.100s'",
				 start, want, cur.line ? cur.line : "(end)");
			return false;
		}
		(*segments)++;
		if (!compare_counters(c, r, start, k, &cur))
			return false;
		for (; start < k; start++) {
			if (!next_line(&cur) || strncmp(cur.line, " report", 7)) {
				snprintf(c->why, sizeof(c->why), "report %zu: reader: '%.100s'",
					 start, cur.line ? cur.line : "(end)");
				return false;
			}
			c->per_report = true;
			if (!compare_counters(c, r, start, start + 1, &cur))
				return false;
			c->per_report = false;
		}
	}
	if (next_line(&cur)) {
		snprintf(c->why, sizeof(c->why), "the reader has more: '%.100s'",
			 cur.line);
		return false;
	}
	return true;
}

/* A device id whose IGT metric file is @p's; 0 if none. */
static uint32_t device_of(const struct oa_metric_platform *p)
{
	const struct gpuprof_oa_platform *g;
	uint32_t id;

	for (id = 1; id < 0x10000; id++) {
		g = gpuprof_oa_platform_of_device(id);
		if (g && g->metrics && !strcmp(g->metrics, p->name))
			return id;
	}
	return 0;
}

static int write_recording(const char *path, uint32_t device_id,
			   const struct oa_metric_set *s, uint64_t seed)
{
	char uuid[OA_METRIC_UUID_LEN + 1];
	struct oa_sim_config cfg = {
		.seed = seed, .period_ns = 5 * MS, .device_id = device_id,
		.metric_set = oa_metric_str(s->symbol),
		.metric_set_uuid = oa_metric_uuid_format(s->uuid, uuid),
	};
	struct oa_sim_interval *iv = NULL;
	struct oa_writer w;
	struct oa_sim sim;
	size_t n = 0;
	int ret;
	FILE *f = fopen(path, "wb");

	if (!f)
		return -1;
	oa_writer_init(&w, f);
	ret = oa_sim_schedule(seed, 2, 60 * MS, cfg.period_ns, &iv, &n) ||
	      oa_sim_init(&sim, &cfg, &w) || oa_sim_run(&sim, 60 * MS, iv, n) ||
	      oa_sim_finish(&sim);
	free(iv);
	return fclose(f) || ret ? -1 : 0;
}

/* One platform's perf.data: each set's device sample, then its reports. */
struct script_file {
	struct perf_data_writer *w;
	struct gpu_synth_ids ids;
	void *tracing;
	size_t tracing_len;
	uint64_t time;
};

static int script_file_open(struct script_file *f, const char *path)
{
	struct perf_data_event events[2];

	f->time = 1000000000;
	f->tracing = fence_tracing_data(&f->ids, &f->tracing_len);
	if (!f->tracing)
		return -1;
	events[0] = (struct perf_data_event){ "gpu_oa:oa_report", f->ids.oa_report };
	events[1] = (struct perf_data_event){ "gpu_oa:oa_device", f->ids.oa_device };
	f->w = perf_data_create(path, events, 2);
	if (!f->w)
		return -1;
	return perf_data_set_tracing_data(f->w, f->tracing, f->tracing_len);
}

static int script_sample(struct script_file *f, unsigned int event,
			 const void *raw, ssize_t len)
{
	struct perf_data_sample s = {
		.event = event, .pid = 1, .tid = 1, .time = f->time += 1000,
		.raw = raw, .raw_size = len,
	};

	return len < 0 ? -1 : perf_data_write_sample(f->w, &s);
}

/* The recording of one set, as perf gpu record writes a stream. */
static int script_file_add(struct script_file *f, const struct recording *r)
{
	uint8_t buf[2048];
	size_t i;
	int err;

	err = script_sample(f, 1, buf,
			    gpu_oa_device_payload(buf, sizeof(buf), f->ids.oa_device,
						  &r->info, &r->drv,
						  r->topo_len ? r->topo : NULL,
						  r->topo_len));
	for (i = 0; i < r->n && !err; i++)
		err = script_sample(f, 0, buf,
				    gpu_oa_report_payload(buf, sizeof(buf),
							  f->ids.oa_report, 1,
							  i, 0, 0, r->reports[i],
							  r->layout.size));
	return err;
}

static int script_file_close(struct script_file *f)
{
	int err = perf_data_close(f->w);

	free(f->tracing);
	return err;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The "Sym=value" items of @s, split at @sep (in place), sorted; only
 * those of a counter (a symbol starts with a capital) when @counters.
 */
static size_t items(char *s, char sep, bool counters, char **v, size_t max)
{
	char seps[2] = { sep, '\0' }, *save, *t;
	size_t n = 0;

	for (t = strtok_r(s, seps, &save); t && n < max;
	     t = strtok_r(NULL, seps, &save))
		if (strchr(t, '=') && (!counters || (*t >= 'A' && *t <= 'Z')))
			v[n++] = t;
	qsort(v, n, sizeof(*v), by_name);
	return n;
}

/* perf gpu script's counters on a report line against the reader's. */
static bool same_counters(char *line, char *reader, char *why, size_t size)
{
	char *a[OA_METRICS_MAX_COUNTERS + 1], *b[OA_METRICS_MAX_COUNTERS + 1];
	size_t na, nb, i, len;

	na = items(line, ' ', true, a, OA_METRICS_MAX_COUNTERS + 1);
	nb = items(reader, '\n', false, b, OA_METRICS_MAX_COUNTERS + 1);
	if (na != nb) {
		snprintf(why, size, "script prints %zu counters, the reader %zu",
			 na, nb);
		return false;
	}
	for (i = 0; i < na; i++) {
		len = strchr(b[i], '=') - b[i] + 1;
		if (strncmp(a[i], b[i], len) ||
		    (strcmp(a[i], b[i]) && (!strchr(b[i], '.') ||
		     !close_enough(a[i] + len, b[i] + len)))) {
			snprintf(why, size, "script %.80s, reader %.80s", a[i], b[i]);
			return false;
		}
	}
	return true;
}

/*
 * perf gpu script's output @out of a platform's file against the
 * reader's pairs of its @n sets.  Return: report lines compared, or -1.
 */
static long compare_script(char *out, struct reader_pairs *sets, size_t n,
			   char *why, size_t size)
{
	size_t set = (size_t)-1, report = 0;
	char *line, *save, *end, msg[400];
	long lines = 0;

	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strstr(line, "gpu_oa:oa_device:")) {
			if (set + 1 && report != sets[set].n)
				break;
			set++;
			report = 0;
			continue;
		}
		if (!strstr(line, "gpu_oa:oa_report:"))
			continue;
		if (set >= n || report >= sets[set].n) {
			snprintf(why, size, "more report lines than reports: '%.100s'",
				 line);
			return -1;
		}
		/* Past the trace text: what oa/print.c adds. */
		end = strstr(line, " d_ts=");
		if (report && (!end || !sets[set].pair[report])) {
			snprintf(why, size, "set %zu report %zu: no counters: '%.100s'",
				 set, report, line);
			return -1;
		}
		if (report && !same_counters(end, sets[set].pair[report], msg,
					     sizeof(msg))) {
			snprintf(why, size, "set %zu report %zu: %s", set, report, msg);
			return -1;
		}
		lines += report > 0;
		report++;
	}
	if (set + 1 != n || report != sets[set].n) {
		snprintf(why, size, "script printed %zu sets, the last with %zu reports; want %zu",
			 set + 1, report, n);
		return -1;
	}
	return lines;
}

FIXTURE(igt) {
	int unused;
};

FIXTURE_SETUP(igt)
{
}

FIXTURE_TEARDOWN(igt)
{
}

/* Some 15 s alone; more beside other tests. */
TEST_F_TIMEOUT(igt, reader_computes_the_same_metrics, 300)
{
	char dir[] = "/tmp/oa_metrics_igt_test.XXXXXX", path[64], want[256];
	char data[64], why[512];
	struct reader_pairs *pairs;
	struct script_file sf;
	unsigned long long script_lines = 0;
	unsigned int script_failed = 0;
	long lines;
	static struct compare c;
	struct recording r = { 0 };
	struct oa_metrics_device dev;
	struct gpuprof_oa_layout l;
	const struct gpuprof_oa_platform *g;
	const struct oa_metric_platform *p;
	const struct oa_metric_set *s;
	unsigned int i, j, gen, segs, platforms = 0, sets = 0, failed = 0;
	unsigned long long counters = 0, segments = 0, reports = 0, still = 0;
	unsigned long long p_values, p_zeros, p_still;
	unsigned int k;
	struct timespec t0, t1;
	uint32_t id;
	char *out = malloc(OUT_SIZE);

	ASSERT_NE(NULL, out);
	if (run_cmd(out, OUT_SIZE, "dpkg-query -W -f '${Version}' intel-gpu-tools") ||
	    strncmp(out, "1.27.1-", 7) ||
	    run_cmd(out, OUT_SIZE, "command -v i915-perf-reader")) {
		free(out);
		SETUP_PROVIDES(0, "i915-perf-reader of IGT 1.27.1 (intel-gpu-tools)");
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/rec", dir);
	snprintf(data, sizeof(data), "%s/perf.data", dir);
	for (i = 0; i < oa_metric_n_platforms; i++) {
		p = &oa_metric_platforms[i];
		id = device_of(p);
		g = id ? gpuprof_oa_platform_of_device(id) : NULL;
		gen = id ? gpuprof_oa_gen_of_device(id) : 0;
		if (!p->has_counters || !g ||
		    !gpuprof_oa_layout_of(id, oa_sim_platform_of_device(id)->format,
					  NULL, &l)) {
			TH_LOG("%s: not compared (%s)", p->name,
			       !p->has_counters ? "no counters" :
			       "no i915 of ours serves its OA: our decoder refuses it");
			continue;
		}
		platforms++;
		p_values = c.values;
		p_zeros = c.zeros;
		p_still = 0;
		pairs = calloc(p->n_sets, sizeof(*pairs));
		ASSERT_NE(NULL, pairs);
		ASSERT_EQ(0, script_file_open(&sf, data));
		for (j = 0; j < p->n_sets; j++) {
			s = oa_metric_platform_set(p, j);
			ASSERT_EQ(0, write_recording(path, id, s, i * 1000 + j));
			ASSERT_EQ(0, read_recording(path, &r));
			dev = (struct oa_metrics_device){
				.device_id = id,
				.revision = r.info.device_revision,
				.timestamp_frequency = r.info.timestamp_frequency,
				.gt_min_hz = r.info.gt_min_frequency,
				.gt_max_hz = r.info.gt_max_frequency,
				.topology = r.topo, .topology_len = r.topo_len,
			};
			ASSERT_EQ(0, oa_metrics_init(&c.m, s, &dev));
			memset(c.moved, 0, sizeof(c.moved));
			pairs[j].n = r.n;
			pairs[j].pair = calloc(r.n, sizeof(char *));
			ASSERT_NE(NULL, pairs[j].pair);
			c.keep = &pairs[j];
			ASSERT_EQ(0, script_file_add(&sf, &r));
			ASSERT_EQ(0, run_cmd(out, OUT_SIZE,
					     "i915-perf-reader -c all -r '%s'", path))
				TH_LOG("%.300s", out);
			/* The reader took the set we named. */
			snprintf(want, sizeof(want), "\nMetric used : %s (",
				 oa_metric_str(s->symbol));
			EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%.300s", out);
			if (!compare_output(&c, &r, gen, out, &segs)) {
				if (failed++ < 10)
					TH_LOG("%s %s (0x%04x): %s", p->name,
					       oa_metric_str(s->symbol), id, c.why);
			}
			sets++;
			counters += c.m.n;
			for (k = 0; k < c.m.n; k++)
				p_still += !c.moved[k];
			segments += segs;
			reports += r.n;
		}
		/* What perf gpu script prints of the same reports. */
		ASSERT_EQ(0, script_file_close(&sf));
		ASSERT_EQ(0, run_cmd(out, OUT_SIZE, "%s script -i %s -F event,trace,oa-metrics",
				     perf_gpu_path(), data)) TH_LOG("%.300s", out);
		lines = compare_script(out, pairs, p->n_sets, why, sizeof(why));
		if (lines < 0 && script_failed++ < 10)
			TH_LOG("%s (0x%04x): perf gpu script: %s", p->name, id, why);
		script_lines += lines > 0 ? lines : 0;
		for (j = 0; j < p->n_sets; j++) {
			for (k = 0; k < pairs[j].n; k++)
				free(pairs[j].pair[k]);
			free(pairs[j].pair);
		}
		free(pairs);
		c.keep = NULL;
		/* Zeros are mostly pairs within idle gaps of the schedule. */
		TH_LOG("%s (0x%04x): %u sets, %llu values, %llu of them 0, %llu counters 0 throughout",
		       p->name, id, p->n_sets, c.values - p_values,
		       c.zeros - p_zeros, p_still);
		still += p_still;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	TH_LOG("%u platforms, %u sets, %llu counters, %llu reports in %llu segments, "
	       "%llu values compared (%llu of them 0; %llu counters 0 throughout), "
	       "%u sets differ, %.1f s",
	       platforms, sets, counters, reports, segments, c.values, c.zeros,
	       still, failed,
	       t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	TH_LOG("perf gpu script: %llu report lines of %u platforms, %u platforms differ",
	       script_lines, platforms, script_failed);
	EXPECT_EQ(0, failed);
	EXPECT_EQ(0, script_failed);
	EXPECT_LT(0, platforms);
	run_cmd(out, OUT_SIZE, "rm -rf '%s'", dir);
	free(r.reports);
	free(out);
}

TEST_HARNESS_MAIN
