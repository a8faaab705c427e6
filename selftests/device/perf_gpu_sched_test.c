// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu report on recordings of the kernel's real drm_sched (the
 * schedmock ring, one job at a time): queue time and run time apart, busy
 * time from running phases only, and exact job counts when two processes
 * submit at once.
 *
 * The run phases are taken from the recording itself, read by the
 * distribution's perf script: a drm_sched job is the pair of fences its
 * task initialised (scheduled on context c, finished on c + 1, one
 * seqno), queued until the scheduled one signals, running until the
 * finished one does.  The report's busy times must equal their sums
 * exactly; the nominal lengths (the mock ring's timers) are logged, as a
 * host that stalls the VM stretches them.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/gpuprof.h"
#include "../lib/kmod.h"
#include "../lib/run.h"

#define MS 1000000ull
#define MAX_JOBS 16

/* A process's drm_sched jobs, from perf script. */
struct sched_jobs {
	int n;
	struct {
		unsigned int context, seqno;	/* the scheduled fence's */
		/* The finished fence's init (the job's, as the report has it), signals. */
		uint64_t init, scheduled, finished;
	} job[MAX_JOBS];
};

FIXTURE(ps) {
	char dir[64], data[128], json[128];
	char out[1 << 20];
};

FIXTURE_SETUP(ps)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/perf_gpu_sched.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->data, sizeof(self->data), "%s/perf.data", self->dir);
	snprintf(self->json, sizeof(self->json), "%s/report.json", self->dir);
	ASSERT_EQ(0, schedmock_load("credits=1"));
}

FIXTURE_TEARDOWN(ps)
{
	char out[256];

	/* A test's process left running (a_named_client_shows_its_name). */
	run_cmd(out, sizeof(out), "[ -f '%s/named.pid' ] && kill $(cat '%s/named.pid'); rm -rf '%s'",
		self->dir, self->dir, self->dir);
}

/*
 * perf gpu record -a with @opts around @script (schedwork as $SW), then
 * the report.
 */
static int record_opts(FIXTURE_DATA(ps) *self, const char *opts,
		       const char *script)
{
	if (run_cmd(self->out, sizeof(self->out),
		    "%s record -a %s -o %s -- sh -c 'SW=%s; %s' 2>&1",
		    perf_gpu_path(), opts, self->data, schedwork_path(), script))
		return -1;
	return run_cmd(self->out, sizeof(self->out),
		       "%s report -i %s --format=json > %s", perf_gpu_path(),
		       self->data, self->json);
}

static int record(FIXTURE_DATA(ps) *self, const char *script)
{
	return record_opts(self, "", script);
}

/* A number from the report, by a python expression on its document d. */
static long long jq(FIXTURE_DATA(ps) *self, const char *fmt, const char *arg)
{
	char expr[512], out[256];

	snprintf(expr, sizeof(expr), fmt, arg);
	if (run_cmd(out, sizeof(out),
		    "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(int(%s))' %s",
		    expr, self->json))
		return -1;
	return atoll(out);
}

/* The pair of @comm on the ring, and its fields. */
#define PAIR "[p for p in d[\"pairs\"] if p[\"comm\"] == \"%s\" and p[\"driver\"] == \"drm_sched\"][0]"

static uint64_t ns_of(const char *secs)
{
	char *dot;
	uint64_t s = strtoull(secs, &dot, 10);

	return s * 1000000000ull + (*dot == '.' ? strtoull(dot + 1, NULL, 10) : 0);
}

/* When the drm_sched fence (@context, @seqno) signalled, in @script. */
static uint64_t signal_of(const char *script, unsigned int context,
			  unsigned int seqno)
{
	char want[96];
	const char *p;

	snprintf(want, sizeof(want), "driver=drm_sched timeline=schedmock-ring context=%u seqno=%u",
		 context, seqno);
	for (p = strstr(script, want); p; p = strstr(p + 1, want)) {
		const char *line = p, *ev;

		while (line > script && line[-1] != '\n')
			line--;
		ev = strstr(line, "dma_fence_signaled:");
		if (ev && ev < p) {
			char comm[32], secs[32];

			if (sscanf(line, "%31s %*d %31[0-9.]:", comm, secs) == 2)
				return ns_of(secs);
		}
	}
	return 0;
}

/* The jobs process @comm submitted, from "perf script --ns -F comm,pid,time,event,trace". */
static int jobs_of(const char *script, const char *comm, struct sched_jobs *j)
{
	const char *line;
	bool half = false;

	j->n = 0;
	for (line = script; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		char who[32], secs[32];
		unsigned int c, s;
		const char *init = strstr(line, "dma_fence_init: driver=drm_sched ");
		const char *nl = strchr(line, '\n');

		if (!init || (nl && init > nl) ||
		    sscanf(line, "%31s %*d %31[0-9.]:", who, secs) != 2 ||
		    strcmp(who, comm) ||
		    sscanf(strstr(init, "context="), "context=%u seqno=%u", &c, &s) != 2)
			continue;
		if (!half) {
			if (j->n == MAX_JOBS)
				return -1;
			j->job[j->n].context = c;
			j->job[j->n].seqno = s;
			half = true;
		} else {
			if (c != j->job[j->n].context + 1 || s != j->job[j->n].seqno)
				return -1;
			j->job[j->n].init = ns_of(secs);
			j->n++;
			half = false;
		}
	}
	for (int i = 0; i < j->n; i++) {
		j->job[i].scheduled = signal_of(script, j->job[i].context,
						j->job[i].seqno);
		j->job[i].finished = signal_of(script, j->job[i].context + 1,
					       j->job[i].seqno);
		if (!j->job[i].scheduled || !j->job[i].finished)
			return -1;
	}
	return half ? -1 : 0;
}

/* Running phases one after another (one ring slot): their sum. */
static uint64_t run_sum(const struct sched_jobs *j)
{
	uint64_t sum = 0;

	for (int i = 0; i < j->n; i++)
		sum += j->job[i].finished - j->job[i].scheduled;
	return sum;
}

static int script_of(FIXTURE_DATA(ps) *self)
{
	return run_cmd(self->out, sizeof(self->out),
		       "perf script --ns -F comm,pid,time,event,trace -i %s 2>/dev/null", self->data);
}

/*
 * The queued parts perf gpu timechart draws apart from the running ones
 * (its page's "q" arrays: start, length, lane, client each): how many,
 * and the longest, in *@longest.
 */
static int queued_parts(FIXTURE_DATA(ps) *self, uint64_t *longest)
{
	char page[192];
	const char *p;
	int n = 0;

	snprintf(page, sizeof(page), "%s/page.html", self->dir);
	if (run_cmd(self->out, sizeof(self->out), "%s timechart -i %s -o %s",
		    perf_gpu_path(), self->data, page) ||
	    read_file(page, self->out, sizeof(self->out)) <= 0)
		return -1;
	*longest = 0;
	for (p = strstr(self->out, "\"q\":["); p; p = strstr(p, "\"q\":[")) {
		char *end;

		p += 5;
		for (int field = 0; *p != ']'; field = (field + 1) % 4) {
			uint64_t v = strtoull(p, &end, 10);

			if (end == p)
				return -1;
			if (field == 1 && v > *longest)
				*longest = v;
			n += field == 0;
			p = *end == ',' ? end + 1 : end;
		}
	}
	return n;
}

/*
 * P1's 400 ms job (times the time scale: it must outlast P2's waking),
 * P2's four 25 ms jobs 10 ms later, queued behind it: counted from
 * submission P2 would be busy ~490 ms.
 */
TEST_F_TIMEOUT(ps, queue_and_run_apart, 180)
{
	struct sched_jobs p1, p2;
	long long busy1, busy2, p50;
	uint64_t q_first, q_last, q_min, q_max;
	char script[512];

	snprintf(script, sizeof(script),
		 "rm -f /tmp/ps_ready /tmp/ps_go; "
		 "$SW -n sched_p2 mark /tmp/ps_ready await /tmp/ps_go sleep 10 "
		 "job 25 job 25 job 25 job 25 wait >/dev/null & "
		 "$SW -n sched_p1 await /tmp/ps_ready job %u mark /tmp/ps_go wait "
		 ">/dev/null && wait $!", 400 * gpuprof_time_scale());
	ASSERT_EQ(0, record(self, script)) TH_LOG("%s", self->out);
	ASSERT_EQ(0, script_of(self));
	ASSERT_EQ(0, jobs_of(self->out, "sched_p1", &p1));
	ASSERT_EQ(0, jobs_of(self->out, "sched_p2", &p2));
	ASSERT_EQ(1, p1.n);
	ASSERT_EQ(4, p2.n);
	/* P2 really waited: its first job went to the ring after P1's ended. */
	ASSERT_LE(p1.job[0].finished, p2.job[0].scheduled);

	EXPECT_EQ(1, jq(self, PAIR "[\"jobs\"]", "sched_p1"));
	EXPECT_EQ(4, jq(self, PAIR "[\"jobs\"]", "sched_p2"));
	busy1 = jq(self, PAIR "[\"busy_ns\"]", "sched_p1");
	busy2 = jq(self, PAIR "[\"busy_ns\"]", "sched_p2");
	TH_LOG("busy: P1 %lld ns (nominal %u ms), P2 %lld ns (nominal 100 ms); P2 queue p50 %lld ns",
	       busy1, 400 * gpuprof_time_scale(), busy2,
	       jq(self, PAIR "[\"queue_ns\"][\"p50\"]", "sched_p2"));
	EXPECT_EQ((long long)run_sum(&p1), busy1);
	EXPECT_EQ((long long)run_sum(&p2), busy2);
	/*
	 * P2's first job was queued while P1's ran and went to the ring
	 * when it ended (how long it queued depends on how fast P2 woke
	 * after P1's mark: about 245 ms of the 400 on the 6.1 debug kernel), and
	 * the report's median queue lies among P2's own queue times.
	 */
	q_first = p2.job[0].scheduled - p2.job[0].init;
	q_last = p2.job[3].scheduled - p2.job[3].init;
	/*
	 * Busy from the first handover to the last signal at most, where a
	 * submission-to-signal rule gives the whole span (~490 ms).
	 */
	EXPECT_GE((long long)(p2.job[3].finished - p2.job[0].scheduled), busy2);
	EXPECT_LT(p2.job[0].init, p1.job[0].finished);
	q_min = q_max = q_first;
	for (int i = 1; i < 4; i++) {
		uint64_t q = p2.job[i].scheduled - p2.job[i].init;

		q_min = q < q_min ? q : q_min;
		q_max = q > q_max ? q : q_max;
	}
	p50 = jq(self, PAIR "[\"queue_ns\"][\"p50\"]", "sched_p2");
	EXPECT_LE((long long)(q_min - q_min / 128), p50);
	EXPECT_GE((long long)(q_max + q_max / 128), p50);
	/* Sketches are within 1/128; P2's runs are 25 ms unless stalled. */
	EXPECT_LE(24 * MS, jq(self, PAIR "[\"run_ns\"][\"p50\"]", "sched_p2"));
	/* The timechart draws the five queued parts, P2's last ~465 ms. */
	{
		uint64_t longest;

		EXPECT_EQ(5, queued_parts(self, &longest)) TH_LOG("%.300s", self->out);
		EXPECT_LE(q_last - q_last / 128, longest);
	}
	/*
	 * P1 found the ring idle: queued only until drm_sched's worker ran,
	 * which is the guest's scheduling (14 ms seen under TCG on a busy
	 * host, 103 ms on the debug kernel), so it is logged; the report's
	 * figure is the one stock perf script's times give.
	 */
	q_first = p1.job[0].scheduled - p1.job[0].init;
	p50 = jq(self, PAIR "[\"queue_ns\"][\"p50\"]", "sched_p1");
	TH_LOG("P1 queued %llu ns by perf script, %lld ns by the report",
	       (unsigned long long)q_first, p50);
	EXPECT_GE((long long)(q_first / 128 + 1), llabs(p50 - (long long)q_first));
}

/*
 * A 50 ms job waiting for a vgem fence signalled 300 ms later: queued
 * that long, then running its own length.
 */
TEST_F_TIMEOUT(ps, a_dependency_is_queue_time, 120)
{
	struct sched_jobs b;
	long long queue;

	ASSERT_EQ(0, record(self, "$SW -n sched_b vgem job 50 aftervgem sleep 300 vgemsignal wait >/dev/null"))
		TH_LOG("%s", self->out);
	ASSERT_EQ(0, script_of(self));
	ASSERT_EQ(0, jobs_of(self->out, "sched_b", &b));
	ASSERT_EQ(1, b.n);
	EXPECT_EQ(1, jq(self, PAIR "[\"jobs\"]", "sched_b"));
	EXPECT_EQ((long long)run_sum(&b), jq(self, PAIR "[\"busy_ns\"]", "sched_b"));
	queue = jq(self, PAIR "[\"queue_ns\"][\"p50\"]", "sched_b");
	TH_LOG("queued %lld ns, ran %llu ns (nominal 50 ms)", queue,
	       (unsigned long long)run_sum(&b));
	EXPECT_LE(300 * MS * 127 / 128, queue);
}

/* Two processes streaming jobs for 10 s: each one's own count, exactly. */
TEST_F_TIMEOUT(ps, parallel_submitters_are_counted_exactly, 240)
{
	long n1 = -1, n2 = -1;
	char *p;

	ASSERT_EQ(0, record(self,
		"$SW -n sched_p1 stream 10000 1 > /tmp/ps_p1.out & "
		"$SW -n sched_p2 stream 10000 1 > /tmp/ps_p2.out; s=$?; wait $! && exit $s"))
		TH_LOG("%s", self->out);
	if (read_file("/tmp/ps_p1.out", self->out, sizeof(self->out)) > 0 &&
	    (p = strstr(self->out, "stream ")))
		n1 = strtol(p + 7, NULL, 10);
	if (read_file("/tmp/ps_p2.out", self->out, sizeof(self->out)) > 0 &&
	    (p = strstr(self->out, "stream ")))
		n2 = strtol(p + 7, NULL, 10);
	TH_LOG("submitted %ld and %ld", n1, n2);
	ASSERT_LT(100, n1);
	ASSERT_LT(100, n2);
	EXPECT_EQ(n1, jq(self, PAIR "[\"jobs\"]", "sched_p1"));
	EXPECT_EQ(n2, jq(self, PAIR "[\"jobs\"]", "sched_p2"));
}

/* selftests/device/sched_events.py, from the test's own place. */
static const char *sched_events_py(void)
{
	static char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 64);
	char *slash;

	if (n < 0)
		return "sched_events.py";
	path[n] = '\0';
	slash = strrchr(path, '/');
	strcpy(slash + 1, "../../device/sched_events.py");
	return path;
}

/* The running kernel is @major.@minor or newer. */
static bool kernel_at_least(int major, int minor)
{
	struct utsname u;
	int a = 0, b = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &a, &b) != 2)
		return false;
	return a > major || (a == major && b >= minor);
}

/* A row of the report's scheduler table, by client id. */
#define SROW "[r for r in d[\"sched\"][\"rows\"] if r[\"client_id\"] == %s][0]"

/*
 * drm_sched's stable events (6.17+; 7.3 here): B pushes a 50 ms job
 * waiting for a vgem fence it signals 300 ms later; then P1 a 400 ms
 * job, which the ring takes while B's waits, and P2 four 25 ms jobs
 * behind it.  Stock perf script shows the five events (B's dependency
 * at its push, and found unsignaled), every job with a client id of its
 * file; the report's scheduler rows give per client the process, the
 * jobs, those that waited for a dependency and the p50 of each phase
 * that sched_events.py computes from the same lines, each within the
 * sketch's 1/128.  B's dependency phase, push to the vgem signal, is at
 * least its 300 ms sleep and at most the span B's own clock measures
 * from before its submit to after its signal ioctl.
 *
 * Fence pairing finds every one of the jobs, each with its three
 * boundaries in the order the kernel fires them (fences inited at arm
 * before the push, the run event before the scheduled fence signals,
 * done before the finished fence signals) and each less than 20 ms from
 * the event's, shorter than P2's jobs, so a job paired with its
 * neighbour would show.  How close they are is logged, not judged: arm
 * to push is schedmock's ioctl, and a TCG guest has stalled 2.65 ms in
 * it.  On a kernel without the events (before 6.17) the report has no
 * scheduler rows at all.
 */
/*
 * From B's own output: its job's submission to its vgemsignal's return,
 * on CLOCK_MONOTONIC, or -1.
 */
static long long sched_b_span(void)
{
	unsigned long long submitted = 0, returned = 0;
	char buf[1024], *p;

	if (read_file("/tmp/ps_b.out", buf, sizeof(buf)) <= 0)
		return -1;
	p = strstr(buf, " submitted_ns ");
	if (!p || sscanf(p, " submitted_ns %llu", &submitted) != 1)
		return -1;
	p = strstr(buf, "vgemsignal returned_ns ");
	if (!p || sscanf(p, "vgemsignal returned_ns %llu", &returned) != 1)
		return -1;
	return returned > submitted ? (long long)(returned - submitted) : -1;
}

TEST_F_TIMEOUT(ps, stable_events_agree_with_fence_pairing, 180)
{
	char line[256], comm[32], cid[24], *save = NULL, *l;
	unsigned long long q, r, dn, ad, un;
	long long client, pid, jobs, waited, dep, queue, run, ds, dh, de;
	long long b_span;
	int clients = 0, have = 0;

	ASSERT_EQ(0, record(self,
		"rm -f /tmp/ps_b; "
		"$SW -n sched_b vgem job 50 aftervgem mark /tmp/ps_b sleep 300 vgemsignal wait >/tmp/ps_b.out & "
		"$SW -n sched_p1 await /tmp/ps_b job 400 wait >/dev/null & "
		"$SW -n sched_p2 await /tmp/ps_b sleep 20 job 25 job 25 job 25 job 25 wait >/dev/null; "
		"s=$?; wait && exit $s"))
		TH_LOG("%s", self->out);
	b_span = sched_b_span();
	have = !access("/sys/kernel/tracing/events/gpu_scheduler/drm_sched_job_queue", F_OK);
	TH_LOG("stable gpu_scheduler events: %s", have ? "yes" : "no");
	ASSERT_EQ(kernel_at_least(6, 17), have);
	if (!have) {
		EXPECT_EQ(0, jq(self, "len(d[\"sched\"][\"rows\"]) + d[\"sched\"][\"events\"]", ""));
		return;
	}
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "perf script --ns -F comm,pid,time,event,trace -i %s 2>/dev/null | /usr/bin/python3 %s",
			     self->data, sched_events_py()))
		TH_LOG("%s", self->out);
	TH_LOG("from perf script:\n%s", self->out);
	ASSERT_EQ(5, sscanf(self->out, "events %llu %llu %llu %llu %llu",
			    &q, &r, &dn, &ad, &un));
	/* Six jobs; B's dependency named at its push and found unsignaled. */
	EXPECT_EQ(6, q);
	EXPECT_EQ(6, r);
	EXPECT_EQ(6, dn);
	EXPECT_LE(1, ad);
	EXPECT_LE(1, un);
	strtok_r(self->out, "\n", &save);
	while ((l = strtok_r(NULL, "\n", &save))) {
		snprintf(line, sizeof(line), "%s", l);
		ASSERT_EQ(8, sscanf(line, "%lld %lld %31s %lld %lld %lld %lld %lld",
				    &client, &pid, comm, &jobs, &waited, &dep,
				    &queue, &run)) TH_LOG("%s", line);
		clients++;
		EXPECT_LT(0, client) TH_LOG("%s: no client id", comm);
		snprintf(cid, sizeof(cid), "%lld", client);
		EXPECT_EQ(pid, jq(self, SROW "[\"pid\"]", cid)) TH_LOG("%s", line);
		EXPECT_EQ(jobs, jq(self, SROW "[\"jobs\"]", cid)) TH_LOG("%s", line);
		EXPECT_EQ(waited, jq(self, SROW "[\"waited\"]", cid)) TH_LOG("%s", line);
		EXPECT_GE(dep / 128 + 1, llabs(dep - jq(self, SROW "[\"dep_ns\"][\"p50\"]", cid)));
		EXPECT_GE(queue / 128 + 1, llabs(queue - jq(self, SROW "[\"queue_ns\"][\"p50\"]", cid)));
		EXPECT_GE(run / 128 + 1, llabs(run - jq(self, SROW "[\"run_ns\"][\"p50\"]", cid)));
		if (!strcmp(comm, "sched_b")) {
			EXPECT_EQ(1, jobs);
			EXPECT_EQ(1, waited);
			TH_LOG("sched_b: dependency %lld ns, queue %lld ns, run %lld ns; "
			       "its own clock: %lld ns from submit to the signal's return",
			       dep, queue, run, b_span);
			EXPECT_LE(300 * MS, dep);
			EXPECT_GE(b_span, dep);
		} else if (!strcmp(comm, "sched_p2")) {
			EXPECT_EQ(4, jobs);
		} else {
			EXPECT_STREQ("sched_p1", comm);
			EXPECT_EQ(1, jobs);
		}
	}
	EXPECT_EQ(3, clients);
	EXPECT_EQ(3, jq(self, "len(d[\"sched\"][\"rows\"])", ""));
	/* Job for job against the pairing of drm_sched's two fences. */
	EXPECT_EQ(6, jq(self, "d[\"sched\"][\"compare\"][\"jobs\"]", ""));
	EXPECT_EQ(6, jq(self, "d[\"sched\"][\"compare\"][\"ordered\"]", ""));
	EXPECT_EQ(0, jq(self, "d[\"sched\"][\"compare\"][\"sched_only\"]", ""));
	ds = jq(self, "d[\"sched\"][\"compare\"][\"max_submit_ns\"]", "");
	dh = jq(self, "d[\"sched\"][\"compare\"][\"max_handover_ns\"]", "");
	de = jq(self, "d[\"sched\"][\"compare\"][\"max_end_ns\"]", "");
	TH_LOG("largest differences: submission %lld ns, handover %lld ns, end %lld ns; %lld of 6 within 1 ms",
	       ds, dh, de, jq(self, "d[\"sched\"][\"compare\"][\"agree\"]", ""));
	EXPECT_LE(0, ds);
	EXPECT_GT(20 * MS, ds);
	EXPECT_LE(0, dh);
	EXPECT_GT(20 * MS, dh);
	EXPECT_LE(0, de);
	EXPECT_GT(20 * MS, de);
	/* Both accounts in the text report. */
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s report -i %s",
			     perf_gpu_path(), self->data));
	TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "\nClients x timelines\n"));
	EXPECT_NE(NULL, strstr(self->out, "\nScheduler (gpu_scheduler events)\n"));
	EXPECT_NE(NULL, strstr(self->out, "# against fence pairing: 6 jobs in both, 6 in the kernel's order, "));
}

/* A value of the client of @pid in top's JSON, by a python expression c. */
static int top_client(int pid, const char *expr, char *out, size_t size)
{
	return run_cmd(out, size,
		       "%s top -b -n 1 --format=json -p %d | /usr/bin/python3 -c '"
		       "import json,sys; d=json.loads(sys.stdin.readline()); "
		       "c=[c for c in d[\"clients\"] if c[\"comm\"] == \"sched_named\"]; "
		       "print(len(c), (%s) if c else \"-\")'",
		       perf_gpu_path(), pid, expr);
}

/*
 * DRM_IOCTL_SET_CLIENT_NAME (6.14 on; 7.3 here; 6.12 refuses it): a
 * process names its schedmock client, a DRM file.  The truth is the
 * kernel's own fdinfo of that file, read by the test: drm-client-name
 * (and drm-client-id, which fdinfo has from 6.5).  perf gpu top shows
 * the name (JSON, the text's CLIENT_NAME column, the OpenMetrics label)
 * and so does the report of a recording made while the client lived
 * (the clients' client_names, the scheduler row's client_name).  Where
 * the kernel refuses the name, the client is shown by its comm, with no
 * name; before 6.5 it has no fdinfo, and top shows no client.
 */
TEST_F_TIMEOUT(ps, a_named_client_shows_its_name, 180)
{
	static const char name[] = "gpuprof-named-client";
	char want[128], fdinfo[4096], prom[160];
	bool named, has_fdinfo;
	int pid;

	/*
	 * The process: names its file, runs a job, and another once the
	 * recording below has started; then lives until the test (or its
	 * teardown) kills it.  It lived 20 s more once, which the 7.3 debug
	 * kernel's recording and two runs of top outlasted.
	 */
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
		"cd %s && rm -f /tmp/ps_named_go && "
		"{ %s -n sched_named name %s job 5 wait await /tmp/ps_named_go "
		"job 5 wait sleep 3600000 > named.out 2>&1 & echo $! > named.pid; } && "
		"for i in $(seq 200); do grep -q '^name ' named.out && break; "
		"sleep 0.1; done; cat named.pid named.out",
		self->dir, schedwork_path(), name));
	TH_LOG("%s", self->out);
	ASSERT_EQ(1, sscanf(self->out, "%d", &pid));
	named = strstr(self->out, "\nname ok\n");
	EXPECT_EQ(kernel_at_least(6, 14), named);

	/* The kernel's fdinfo of the process's schedmock file. */
	run_cmd(fdinfo, sizeof(fdinfo),
		"for f in /proc/%d/fdinfo/*; do grep -q '^drm-driver:.schedmock$' $f "
		"&& cat $f && break; done", pid);
	TH_LOG("fdinfo:\n%s", fdinfo);
	has_fdinfo = strstr(fdinfo, "drm-client-id:");
	EXPECT_EQ(kernel_at_least(6, 5), has_fdinfo);
	snprintf(want, sizeof(want), "\ndrm-client-name:\t%s\n", name);
	EXPECT_EQ(named, strstr(fdinfo, want) != NULL);

	/*
	 * A recording while it lives, the process's second job in it: the
	 * recording's fdinfo snapshots (every 500 ms; system-wide recording
	 * takes none unless asked) have the name.
	 */
	ASSERT_EQ(0, record_opts(self, "--fdinfo-interval 500",
				 "touch /tmp/ps_named_go; sleep 2"))
		TH_LOG("%s", self->out);

	ASSERT_EQ(0, top_client(pid, "c[0][\"client_name\"]",
				self->out, sizeof(self->out)));
	TH_LOG("top: %s", self->out);
	if (!has_fdinfo) {
		EXPECT_STREQ("0 -\n", self->out);
	} else {
		snprintf(want, sizeof(want), "1 %s\n", named ? name : "None");
		EXPECT_STREQ(want, self->out);
		ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
				     "%s top -b -n 1 -p %d", perf_gpu_path(), pid));
		TH_LOG("%s", self->out);
		EXPECT_EQ(named, strstr(self->out, "CLIENT_NAME") &&
				 strstr(self->out, name));
		ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
				     "%s top -b -n 1 -p %d --openmetrics %s/om.txt "
				     ">/dev/null && cat %s/om.txt",
				     perf_gpu_path(), pid, self->dir, self->dir));
		snprintf(prom, sizeof(prom), "client_name=\"%s\"", named ? name : "");
		EXPECT_NE(NULL, strstr(self->out, prom)) TH_LOG("%s", self->out);
	}

	/* The report of this recording, at the end. */
	snprintf(want, sizeof(want), "[\"%s\"]", name);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
		"/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
		"print(json.dumps([c[\"client_names\"] for c in d[\"clients\"] "
		"if c[\"pid\"] == %d]))' %s", pid, self->json));
	TH_LOG("report's client_names of %d: %s", pid, self->out);
	if (has_fdinfo) {
		char line[160];

		snprintf(line, sizeof(line), "[%s]\n", named ? want : "[]");
		EXPECT_STREQ(line, self->out);
	}
	run_cmd(self->out, sizeof(self->out), "kill %d", pid);
}

TEST_HARNESS_MAIN
