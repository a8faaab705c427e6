// SPDX-License-Identifier: GPL-2.0-only
/*
 * Systematic allocation failure, the way syzkaller does it: for each
 * system call into the module (every ctl and pctl command, open and read
 * of every file, marker and OA stream writes, the module's load), fail
 * its 1st allocation, then its 2nd, ... (/proc/thread-self/fail-nth)
 * until the call runs to its end without reaching the armed one.  Each
 * call a fault reached must fail with ENOMEM and change nothing (status,
 * every target's name, path, histogram and counters read the same), or,
 * where the kernel has a fallback (kvmalloc's vmalloc), succeed and leave
 * what a call without the fault leaves; and the same call without a
 * fault must work right after.  Leaks show in the kmemleak scan that
 * make check-debug runs after each program.
 *
 * Needs CONFIG_FAULT_INJECTION, FAILSLAB and FAIL_PAGE_ALLOC with their
 * debugfs knobs: the debug kernel (Documentation/testing.rst).  Debian's
 * kernels have none, and every test here skips on them.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/gpuprof.h"
#include "../lib/kmod.h"
#include "../lib/oa_build.h"

#define FAIL_NTH "/proc/thread-self/fail-nth"
#define DEBUGFS "/sys/kernel/debug"
/* More than any call here makes; a sweep that gets there has failed. */
#define MAX_POINTS 4000
#define STATE_SIZE (1 << 16)

/* Tallies of one interface, printed at the end of its test. */
struct tally {
	unsigned int calls;	/* calls swept */
	unsigned int points;	/* allocations failed */
	unsigned int errors;	/* of those, calls that failed cleanly */
	unsigned int absorbed;	/* calls that succeeded all the same */
};

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -errno;
}

/*
 * Make fail-nth count every allocation: the injectors' defaults skip
 * sleeping ones, order-0 pages and highmem.  No stack dumps: the kernel
 * log of make check-debug must hold nothing but real reports.  0, or -1
 * when this kernel has no fault injection.
 */
static int fault_setup(void)
{
	static const char *const knobs[][2] = {
		{ DEBUGFS "/failslab/ignore-gfp-wait", "N" },
		{ DEBUGFS "/failslab/verbose", "0" },
		{ DEBUGFS "/fail_page_alloc/ignore-gfp-wait", "N" },
		{ DEBUGFS "/fail_page_alloc/ignore-gfp-highmem", "N" },
		{ DEBUGFS "/fail_page_alloc/min-order", "0" },
		{ DEBUGFS "/fail_page_alloc/verbose", "0" },
	};
	unsigned int i;

	if (access(FAIL_NTH, W_OK))
		return -1;
	for (i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++)
		if (write_str(knobs[i][0], knobs[i][1]))
			return -1;
	return 0;
}

static int nth_fd = -1;

/* Fail the @n-th allocation of this thread's next system calls. */
static void fault_arm(unsigned int n)
{
	char s[16];
	int len = snprintf(s, sizeof(s), "%u", n);

	if (pwrite(nth_fd, s, len, 0) != len)
		abort();
}

/* Did the armed fault fire?  Disarms it either way. */
static int fault_fired(void)
{
	char s[16] = "";
	ssize_t n = pread(nth_fd, s, sizeof(s) - 1, 0);

	if (n <= 0 || pwrite(nth_fd, "0", 1, 0) != 1)
		abort();
	return atoi(s) == 0;
}

static int cmp_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Directories of /dev/gpuprof that stand for no target: devtmpfs removes
 * a node with allocations of its own (the path, its parents) and ignores
 * their failure, so an injected failure in a call that ends targets can
 * leave an entry behind.  That is the kernel's, not ours to undo; what is
 * ours is that such an entry never reaches another file (cyclic minors,
 * node.c): opening what is left fails.
 */
static int stale_entries;	/* distinct ones */
static int stale_alias;
static char stale_seen[1 << 16];	/* by target id */

/*
 * The device as a user sees it: status, then each target's name, path,
 * histogram and counters, targets in name order (ids are never reused,
 * so they differ from one round of a sweep to the next).
 */
static void state(char *out)
{
	static char buf[STATE_SIZE];
	char *lines[256], *p;
	const char *files[] = { "name", "path", "histogram", "counters" };
	int ids[256], n, i, f, live = 0, opened;
	size_t len;

	if (read_file(GP "/status", out, STATE_SIZE) < 0)
		strcpy(out, "no status\n");
	n = target_ids(ids, 256);
	for (i = 0; i < n; i++) {
		len = 0;
		buf[0] = 0;
		opened = 0;
		for (f = 0; f < 4; f++) {
			char one[8192] = "";

			if (target_file(ids[i], files[f], one, sizeof(one)) >= 0)
				opened++;
			len += snprintf(buf + len, sizeof(buf) - len, "%s: %s|",
					files[f], one);
		}
		if (!opened) {
			if (ids[i] >= 0 && ids[i] < (int)sizeof(stale_seen) &&
			    !stale_seen[ids[i]]++)
				stale_entries++;
			continue;
		}
		/* A stale entry whose name reads: it reached a live file. */
		if (opened < 4)
			stale_alias++;
		lines[live++] = strdup(buf);
	}
	qsort(lines, live, sizeof(lines[0]), cmp_lines);
	for (i = 0; i < live; i++) {
		len = strlen(out);
		snprintf(out + len, STATE_SIZE - len, "%s\n", lines[i]);
		free(lines[i]);
	}
	/* The node directory too: a failed call must not leave one. */
	p = out + strlen(out);
	snprintf(p, STATE_SIZE - (p - out), "targets listed: %d\n", live);
}

/*
 * Cut status' "oa_streams" line from @s: each successful open of oa counts
 * one, so it tells how many calls came before, which a comparison with the
 * state of the first call must not see.
 */
static void cut_stream_count(char *s)
{
	char *p = strstr(s, "oa_streams: "), *nl;

	nl = p ? strchr(p, '\n') : NULL;
	if (nl)
		memmove(p, nl + 1, strlen(nl + 1) + 1);
}

/* One call under test: its set-up (not faulted) and the call itself. */
struct call {
	const char *what;
	int (*prep)(const struct call *c);	/* 0 or -errno */
	int (*op)(const struct call *c);	/* 0 or -errno */
	const char *arg;
	int fd;					/* opened by prep */
	char path[64];				/* found by prep */
};

/*
 * Sweep @c: the n-th allocation of its op failed, n = 1, 2, ... until op
 * runs through without reaching it.
 */
static void sweep(struct __test_metadata *_metadata, struct call *c,
		  struct tally *t)
{
	static char before[STATE_SIZE], after[STATE_SIZE], clean[STATE_SIZE];
	unsigned int n;
	int ret, fired;

	/* What the call leaves when nothing fails. */
	ASSERT_EQ(0, c->prep(c)) TH_LOG("%s: set-up", c->what);
	ASSERT_EQ(0, c->op(c)) TH_LOG("%s without a fault", c->what);
	state(clean);
	cut_stream_count(clean);

	t->calls++;
	for (n = 1; n <= MAX_POINTS; n++) {
		ASSERT_EQ(0, c->prep(c)) TH_LOG("%s: set-up", c->what);
		state(before);
		fault_arm(n);
		ret = c->op(c);
		fired = fault_fired();
		if (!fired) {
			EXPECT_EQ(0, ret) TH_LOG("%s: no fault, yet %s",
						 c->what, strerror(-ret));
			return;
		}
		t->points++;
		if (t->points % 100 == 0)
			printf("# %s: %u fault points so far\n", c->what, t->points);
		state(after);
		if (!ret) {
			/* A fallback took over: as if nothing had failed. */
			t->absorbed++;
			cut_stream_count(after);
			EXPECT_STREQ(clean, after)
				TH_LOG("%s, allocation %u failed, the call succeeded but left another state",
				       c->what, n);
			continue;
		}
		EXPECT_EQ(-ENOMEM, ret)
			TH_LOG("%s, allocation %u failed: %s, not ENOMEM",
			       c->what, n, strerror(-ret));
		EXPECT_STREQ(before, after)
			TH_LOG("%s, allocation %u failed: the state changed",
			       c->what, n);
		if (ret == -ENOMEM && !strcmp(before, after))
			t->errors++;
		/* From the same state, the same call works. */
		EXPECT_EQ(0, c->op(c))
			TH_LOG("%s after a failed allocation %u", c->what, n);
		if (!_metadata->passed)
			return;
	}
	ASSERT_LT(n, MAX_POINTS) TH_LOG("%s: never ran to its end", c->what);
}

static void print_tally(const char *iface, const struct tally *t)
{
	printf("# %s: %u calls, %u fault points, %u clean errors, %u absorbed by a fallback\n",
	       iface, t->calls, t->points, t->errors, t->absorbed);
}

/* After a sweep that ended targets: what devtmpfs left reaches nothing. */
static void check_stale(struct __test_metadata *_metadata, const char *iface)
{
	if (stale_entries)
		printf("# %s: %d /dev/gpuprof entries devtmpfs failed to remove, none opens\n",
		       iface, stale_entries);
	EXPECT_EQ(0, stale_alias)
		TH_LOG("%s: a stale /dev entry opened a live target's file", iface);
}

/* ---- The states calls start from ---- */

/*
 * @jobs jobs on fencegen's timeline "fnth @timeline", submitted by a child
 * process named @comm (a process of its own, and no exec to wait for).
 */
static int submit(const char *comm, const char *timeline, int jobs)
{
	char names[64];
	int status, i, fd;
	pid_t pid;

	snprintf(names, sizeof(names), "fnth %s", timeline);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		prctl(PR_SET_NAME, comm);
		fd = open(FENCEGEN, O_WRONLY);
		for (i = 0; fd >= 0 && i < jobs; i++)
			if (write(fd, names, strlen(names)) != (ssize_t)strlen(names))
				_exit(1);
		_exit(fd < 0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -EIO;
}

/* A target with a coverage histogram, stopped; interval 42. */
static int base_state(void)
{
	int err;

	err = ctl("end\n") ?: ctl("module fnth_w\n") ?: ctl("interval 42\n") ?:
	      ctl("startcp\n");
	if (err)
		return err;
	err = submit("fnth_w", "a", 3) ?: submit("fnth_w", "b", 2);
	return err ?: ctl("stop\n");
}

static int close_fd(const struct call *c)
{
	if (c->fd >= 0)
		close(c->fd);
	((struct call *)c)->fd = -1;
	return 0;
}

/* Sweep each of @calls in turn, until one fails. */
static void sweep_all(struct __test_metadata *_metadata, struct call *calls,
		      unsigned int n, struct tally *t)
{
	unsigned int i;

	for (i = 0; i < n && _metadata->passed; i++) {
		calls[i].fd = -1;
		sweep(_metadata, &calls[i], t);
		close_fd(&calls[i]);
	}
}

/* The base state, kept once made: for calls that change nothing. */
static int prep_keep(const struct call *c)
{
	close_fd(c);
	if (find_target("fnth_w") < 0)
		return base_state();
	return 0;
}

/* The base state, made again: for calls that change it. */
static int prep_base(const struct call *c)
{
	close_fd(c);
	return base_state();
}

/* The base state, running coverage: for "stop" and "end". */
static int prep_running(const struct call *c)
{
	close_fd(c);
	return base_state() ?: ctl("startcp\n");
}

static int op_ctl(const struct call *c)
{
	return ctl(c->arg);
}

/* ---- Tests ---- */

FIXTURE(fnth) {
	struct tally t;
};

#define NO_FAULTS "no fault injection here (the debug kernel of make check-debug has it)"

/*
 * This harness runs the test after a skipped set-up: skip it again.
 * (GPUPROF_TEST_ONLY, lib/harness.h, runs one test alone.)
 */
#define NEED_FAULTS() do {						\
	if (nth_fd < 0)							\
		SKIP(return, NO_FAULTS);				\
} while (0)

FIXTURE_SETUP(fnth)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (fault_setup())
		SKIP(return, NO_FAULTS);
	nth_fd = open(FAIL_NTH, O_RDWR);
	ASSERT_LE(0, nth_fd);
	ASSERT_EQ(0, fencegen_load());
	ASSERT_EQ(0, gpuprof_load(NULL));
	memset(&self->t, 0, sizeof(self->t));
}

FIXTURE_TEARDOWN(fnth)
{
	if (nth_fd < 0)
		return;
	close(nth_fd);
	nth_fd = -1;
	EXPECT_EQ(0, gpuprof_unload());
}

TEST_F_TIMEOUT(fnth, ctl_commands, 3600)
{
	struct call calls[] = {
		{ "module NAME NAME", prep_base, op_ctl, "module fnth_a fnth_b\n", -1, "" },
		{ "module PATH", prep_base, op_ctl, "module /usr/bin/true\n", -1, "" },
		{ "module", prep_base, op_ctl, "module\n", -1, "" },
		{ "start", prep_base, op_ctl, "start\n", -1, "" },
		{ "startcp", prep_base, op_ctl, "startcp\n", -1, "" },
		{ "startmp", prep_base, op_ctl, "startmp\n", -1, "" },
		{ "stop", prep_running, op_ctl, "stop\n", -1, "" },
		{ "end", prep_running, op_ctl, "end\n", -1, "" },
		{ "interval", prep_base, op_ctl, "interval 50\n", -1, "" },
		{ "reset", prep_base, op_ctl, "reset\n", -1, "" },
	};

	NEED_FAULTS();

	sweep_all(_metadata, calls, sizeof(calls) / sizeof(calls[0]), &self->t);
	print_tally("ctl", &self->t);
	check_stale(_metadata, "ctl");
}

/* pctl of the base target, opened by the set-up. */
static int prep_pctl(const struct call *c)
{
	char path[64];
	int id, err;

	err = prep_base(c);
	if (err)
		return err;
	id = find_target("fnth_w");
	if (id < 0)
		return -ENOENT;
	snprintf(path, sizeof(path), GP "/%d/pctl", id);
	((struct call *)c)->fd = open(path, O_WRONLY);
	return c->fd < 0 ? -errno : 0;
}

static int op_write_fd(const struct call *c)
{
	ssize_t n = write(c->fd, c->arg, strlen(c->arg));

	return n == (ssize_t)strlen(c->arg) ? 0 : n < 0 ? -errno : -EIO;
}

TEST_F_TIMEOUT(fnth, pctl_commands, 1200)
{
	struct call calls[] = {
		{ "pctl reset", prep_pctl, op_write_fd, "reset\n", -1, "" },
		{ "pctl ctxid", prep_pctl, op_write_fd, "ctxid 0x10\n", -1, "" },
		{ "pctl unbind", prep_pctl, op_write_fd, "unbind\n", -1, "" },
	};

	NEED_FAULTS();

	sweep_all(_metadata, calls, sizeof(calls) / sizeof(calls[0]), &self->t);
	print_tally("pctl", &self->t);
	check_stale(_metadata, "pctl");
}

/*
 * c->arg: a path below /dev/gpuprof, "T/" for the base target's; looked
 * up here, before the fault is armed: the op makes no other call.
 */
static int prep_path(const struct call *c)
{
	struct call *w = (struct call *)c;
	int err = prep_keep(c);

	if (err)
		return err;
	if (!strncmp(c->arg, "T/", 2))
		snprintf(w->path, sizeof(w->path), GP "/%d/%s",
			 find_target("fnth_w"), c->arg + 2);
	else
		snprintf(w->path, sizeof(w->path), GP "/%s", c->arg);
	return 0;
}

static int op_open(const struct call *c)
{
	int fd, wr = !strcmp(c->arg, "ctl") || !strcmp(c->arg, "marker") ||
		     !strcmp(c->arg, "oa") || !strcmp(c->arg, "T/pctl");

	fd = open(c->path, wr ? O_WRONLY : O_RDONLY);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int prep_open_read(const struct call *c)
{
	int err = prep_path(c);

	if (err)
		return err;
	((struct call *)c)->fd = open(c->path, O_RDONLY);
	return c->fd < 0 ? -errno : 0;
}

static int op_read(const struct call *c)
{
	static char buf[1 << 16];

	return read(c->fd, buf, sizeof(buf)) < 0 ? -errno : 0;
}

TEST_F_TIMEOUT(fnth, files, 2400)
{
	static const char *const readable[] = {
		"status", "timelines", "T/name", "T/path", "T/histogram",
		"T/counters",
	};
	static const char *const writable[] = {
		"ctl", "marker", "oa", "T/pctl",
	};
	struct tally reads = { 0 };
	struct call c = { .fd = -1 };
	unsigned int i;

	NEED_FAULTS();

	for (i = 0; i < 6 && _metadata->passed; i++) {
		c = (struct call){ readable[i], prep_path, op_open, readable[i], -1, "" };
		sweep(_metadata, &c, &self->t);
		c = (struct call){ readable[i], prep_open_read, op_read, readable[i], -1, "" };
		sweep(_metadata, &c, &reads);
		close_fd(&c);
	}
	for (i = 0; i < 4 && _metadata->passed; i++) {
		c = (struct call){ writable[i], prep_path, op_open, writable[i], -1, "" };
		sweep(_metadata, &c, &self->t);
	}
	print_tally("open", &self->t);
	print_tally("read", &reads);
}

static int prep_marker(const struct call *c)
{
	int err = prep_keep(c);

	if (err)
		return err;
	((struct call *)c)->fd = open(GP "/marker", O_WRONLY);
	return c->fd < 0 ? -errno : 0;
}

TEST_F_TIMEOUT(fnth, marker_writes, 600)
{
	struct call calls[] = {
		{ "marker begin", prep_marker, op_write_fd, "begin fnth_range\n", -1, "" },
		{ "marker end", prep_marker, op_write_fd, "end fnth_range\n", -1, "" },
	};

	NEED_FAULTS();

	sweep_all(_metadata, calls, 2, &self->t);
	print_tally("marker", &self->t);
}

/* An OA stream of 8 timer reports, the whole of it in one write. */
static struct oa_buf oa_stream;

static int prep_oa(const struct call *c)
{
	int err = prep_keep(c);

	if (err)
		return err;
	((struct call *)c)->fd = open(GP "/oa", O_WRONLY);
	return c->fd < 0 ? -errno : 0;
}

static int op_oa_write(const struct call *c)
{
	ssize_t n = write(c->fd, oa_stream.data, oa_stream.len);

	return n == (ssize_t)oa_stream.len ? 0 : n < 0 ? -errno : -EIO;
}

TEST_F_TIMEOUT(fnth, oa_writes, 600)
{
	struct call c = { "oa write", prep_oa, op_oa_write, NULL, -1, "" };
	uint64_t t0 = mono_ns();
	unsigned int i;

	NEED_FAULTS();

	oa_header(&oa_stream, 0x9a49, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8);
	oa_correlation(&oa_stream, t0, 1000000000ull);
	for (i = 0; i < 8; i++)
		oa_report(&oa_stream, i, 1000000000u + i * 19200u,
			  GPUPROF_OA_NO_CONTEXT, GPUPROF_OA_REASON_TIMER);
	sweep(_metadata, &c, &self->t);
	close_fd(&c);
	free(oa_stream.data);
	print_tally("oa", &self->t);
}

/* ---- Probe context: failslab, filtered to gpuprof's code ---- */

#define FAILSLAB DEBUGFS "/failslab/"
#define TIMES_START 1000000

/*
 * The sum of the counters of status that count an allocation given up:
 * the dropped_* ones, and unreadable_paths (a target's path is read into
 * an allocated page by its work item).
 */
static long long drops(void)
{
	static const char *const keys[] = {
		"dropped_targets", "dropped_jobs", "dropped_clients",
		"dropped_buffers", "dropped_timelines",
		"dropped_histogram_keys", "unreadable_paths",
	};
	long long sum = 0;
	unsigned int i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		sum += status_num(keys[i]);
	return sum;
}

/*
 * The address range of gpuprof's code, from /proc/kallsyms: the first
 * text symbol, and the page after the last one (its text allocation
 * ends on a page, and a guard page follows).
 */
static int module_text(unsigned long *start, unsigned long *end)
{
	char line[512], type, name[256], mod[64];
	unsigned long a;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return -errno;
	*start = ~0ul;
	*end = 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx %c %255s [%63[^]]]", &a, &type, name, mod) == 4 &&
		    !strcmp(mod, "gpuprof") && (type == 't' || type == 'T') && a) {
			if (a < *start)
				*start = a;
			if (a > *end)
				*end = a;
		}
	fclose(f);
	if (*start == ~0ul)
		return -ENOENT;
	*end = (*end | 4095) + 1;
	return 0;
}

/* Fail every slab allocation made from gpuprof's code, or stop. */
static int probe_faults(int on)
{
	unsigned long start, end;
	char s[32];
	int err;

	if (!on)
		return write_str(FAILSLAB "probability", "0");
	err = module_text(&start, &end);
	if (err)
		return err;
	snprintf(s, sizeof(s), "%#lx", start);
	err = write_str(FAILSLAB "require-start", s);
	snprintf(s, sizeof(s), "%#lx", end);
	err = err ?: write_str(FAILSLAB "require-end", s) ?:
	      write_str(FAILSLAB "stacktrace-depth", "32") ?:
	      write_str(FAILSLAB "task-filter", "N") ?:
	      write_str(FAILSLAB "interval", "1") ?:
	      write_str(FAILSLAB "space", "0");
	snprintf(s, sizeof(s), "%d", TIMES_START);
	return err ?: write_str(FAILSLAB "times", s) ?:
	       write_str(FAILSLAB "probability", "100");
}

/* Failures injected since probe_faults(1). */
static long injected(void)
{
	char s[32];

	if (read_file(FAILSLAB "times", s, sizeof(s)) < 0)
		return -1;
	return TIMES_START - atol(s);
}

/*
 * Every allocation of gpuprof's failing while @what runs: a shell
 * command, or with a @timeline @jobs fencegen jobs of a process named
 * @what.  Each failure must be one more dropped_* count, and nothing
 * may break (the kernel log and kmemleak are read after the program).
 */
static long probe_round(struct __test_metadata *_metadata, const char *mode,
			const char *what, const char *timeline, int jobs)
{
	long long d0 = drops();
	long n;

	EXPECT_EQ(0, probe_faults(1));
	if (timeline) {
		EXPECT_EQ(0, submit(what, timeline, jobs));
	} else {
		EXPECT_EQ(0, system(what)) TH_LOG("%s", what);
	}
	EXPECT_EQ(0, probe_faults(0));
	n = injected();
	EXPECT_LT(0, n) TH_LOG("%s, %s: no allocation failed", mode, what);
	EXPECT_EQ(n, drops() - d0)
		TH_LOG("%s, %s: %ld allocations failed, dropped_* rose by %lld",
		       mode, what, n, drops() - d0);
	return n;
}

TEST_F_TIMEOUT(fnth, probe_allocations, 600)
{
	char cmd[PATH_MAX + 64], timelines[4096];
	long n = 0;

	NEED_FAULTS();
	if (access(FAILSLAB "require-start", W_OK))
		SKIP(return, "no stack trace filter for failslab (6.1 has none on x86-64)");

	/* Coverage, a target per process, nothing known yet: every job's
	 * timeline is new, and each one's allocation fails. */
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, probe_faults(1));
	ASSERT_EQ(0, submit("fnth_p", "p", 5));
	ASSERT_EQ(0, probe_faults(0));
	EXPECT_EQ(5, injected());
	EXPECT_EQ(5, status_num("dropped_timelines"));
	EXPECT_EQ(5, drops());
	EXPECT_EQ(0, status_num("targets"));
	EXPECT_EQ(0, status_num("timelines"));
	EXPECT_EQ(0, status_num("jobs_in_flight"));
	ASSERT_LE(0, read_file(GP "/timelines", timelines, sizeof(timelines)));
	EXPECT_STREQ("", timelines);
	n += 5;

	/* The timeline known (a job with nothing failing), then a new
	 * process: its client, target, job and keys fail. */
	ASSERT_EQ(0, submit("fnth_q", "p", 1));
	EXPECT_EQ(1, status_num("timelines"));
	EXPECT_EQ(1, status_num("targets"));
	n += probe_round(_metadata, "coverage", "fnth_r", "p", 5);
	EXPECT_EQ(1, status_num("targets"));

	/* Named targets, time profiling: vgem jobs held 20 ms, sampled
	 * every 1 ms from the timer, whose keys fail. */
	ASSERT_EQ(0, ctl("end\n"));
	ASSERT_EQ(0, ctl("module fnth_s\n"));
	ASSERT_EQ(0, ctl("interval 1\n"));
	ASSERT_EQ(0, ctl("start\n"));
	snprintf(cmd, sizeof(cmd), "%s -n fnth_s fences 5 20", gpuwork_path());
	n += probe_round(_metadata, "time", cmd, NULL, 0);

	/* Memory profiling: the buffers. */
	ASSERT_EQ(0, ctl("stop\n"));
	ASSERT_EQ(0, ctl("startmp\n"));
	snprintf(cmd, sizeof(cmd), "echo | %s -n fnth_s buffer 65536 >/dev/null",
		 gpuwork_path());
	n += probe_round(_metadata, "memory", cmd, NULL, 0);
	EXPECT_EQ(0, ctl("stop\n"));
	printf("# probes: 4 profiles, %ld allocations failed, each one a dropped_* count\n",
	       n);
}

/* ---- The module's load: its own fixture, the module not loaded ---- */

static int module_gone(void)
{
	char buf[1 << 15];

	if (read_file("/proc/modules", buf, sizeof(buf)) < 0)
		return 0;
	return !strstr(buf, "gpuprof ") && access(GP "/ctl", F_OK) &&
	       access("/sys/class/gpuprof", F_OK) &&
	       read_file("/proc/devices", buf, sizeof(buf)) > 0 &&
	       !strstr(buf, " gpuprof\n");
}

static int prep_unloaded(const struct call *c)
{
	int i;

	(void)c;
	if (module_gone())
		return 0;
	gpuprof_unload();
	for (i = 0; i < 100 && !module_gone(); i++)
		sleep_ms(10);
	return module_gone() ? 0 : -EBUSY;
}

static int op_load(const struct call *c)
{
	(void)c;
	return gpuprof_load(NULL);
}

/*
 * What "state" means for a load: is any of the module still there?  A
 * load makes over a thousand allocations on the debug kernel (the
 * loader's, sysfs, trace events, the module's caches and nodes) at a
 * second or more each under TCG, so the sweep takes every
 * $GPUPROF_FAILNTH_LOAD_STRIDE-th (default 7, a prime, so that no
 * period of the loader's aligns with it; 1 for all of them).
 */
static void load_sweep(struct __test_metadata *_metadata, struct tally *t)
{
	struct call c = { "load", prep_unloaded, op_load, NULL, -1, "" };
	const char *env = getenv("GPUPROF_FAILNTH_LOAD_STRIDE");
	unsigned int n, stride = env && atoi(env) > 0 ? atoi(env) : 7;
	/*
	 * The module file is read from the guest's tmpfs: read over 9p,
	 * a failed allocation inside the 9p client's read left the whole
	 * root unreadable ("cannot open shared object file: Invalid
	 * argument" for every program after, 6.1.192).  That is the 9p
	 * client's, and the VM's root, not what is tested here.
	 */
	const char *ko = "/tmp/failnth-gpuprof.ko";
	char cmd[PATH_MAX + 64];
	int ret;

	snprintf(cmd, sizeof(cmd), "cp '%s' %s", getenv("GPUPROF_KO") ?: "", ko);
	ASSERT_EQ(0, system(cmd));

	t->calls++;
	for (n = 1; n <= MAX_POINTS; n += stride) {
		ASSERT_EQ(0, c.prep(&c)) TH_LOG("cannot unload before point %u", n);
		/* Open the file first: the sweep is of finit_module alone. */
		{
			int fd = open(ko, O_RDONLY | O_CLOEXEC);

			ASSERT_LE(0, fd) TH_LOG("open %s: %s", ko, strerror(errno));
			fault_arm(n);
			ret = syscall(SYS_finit_module, fd, "", 0) ? -errno : 0;
			close(fd);
		}
		if (!fault_fired()) {
			EXPECT_EQ(0, ret);
			return;
		}
		t->points++;
		if (t->points % 100 == 0)
			printf("# load: %u fault points so far\n", t->points);
		if (!ret) {
			t->absorbed++;
			continue;
		}
		EXPECT_EQ(-ENOMEM, ret)
			TH_LOG("load, allocation %u failed: %s, not ENOMEM",
			       n, strerror(-ret));
		EXPECT_TRUE(module_gone())
			TH_LOG("load, allocation %u failed: something of the module stayed",
			       n);
		if (ret == -ENOMEM && module_gone())
			t->errors++;
		{
			int fd = open(ko, O_RDONLY | O_CLOEXEC);

			EXPECT_EQ(0, syscall(SYS_finit_module, fd, "", 0))
				TH_LOG("load after a failed allocation %u: %s",
				       n, strerror(errno));
			close(fd);
		}
		if (!_metadata->passed)
			return;
	}
	ASSERT_LT(n, MAX_POINTS);
}

FIXTURE(load) {
};

FIXTURE_SETUP(load)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (fault_setup())
		SKIP(return, NO_FAULTS);
	nth_fd = open(FAIL_NTH, O_RDWR);
	ASSERT_LE(0, nth_fd);
}

FIXTURE_TEARDOWN(load)
{
	if (nth_fd >= 0)
		close(nth_fd);
}

TEST_F_TIMEOUT(load, module_load, 3600)
{
	struct tally t = { 0 };

	NEED_FAULTS();
	load_sweep(_metadata, &t);
	printf("# module load: every %s-th allocation\n",
	       getenv("GPUPROF_FAILNTH_LOAD_STRIDE") ?: "7");
	print_tally("module load", &t);
	EXPECT_EQ(0, prep_unloaded(NULL));
}

TEST_HARNESS_MAIN
