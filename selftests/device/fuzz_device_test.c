// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzzing the device in the test VM: for a bounded time, worker threads
 * attack every file of /dev/gpuprof while real GPU work runs; then the
 * module must still work exactly, and the kernel must have logged no
 * warning, oops or corruption and set no new taint flag.
 *
 * Load, all the time: fence storms (processes submitting vgem fences in
 * bursts, several in flight at once, some held a few ms), process churn
 * (short-lived processes that submit a few fences and exit, some with a
 * fence still in flight, some after exec'ing gpuwork), and the module
 * cycled through start, startcp, startmp and stop by the fuzzer's own
 * commands.
 *
 * Attacks, each worker choosing them from its own PRNG:
 *  - random bytes to ctl and to pctl files (0 to 300 bytes, NULs, over
 *    GPUPROF_CTL_MAX, a buffer that faults);
 *  - commands of the grammar of Documentation/device.rst, valid and
 *    almost valid (names and paths of limit lengths and one over, too
 *    many names, paths that exist or not, interval and ctxid edges, tabs,
 *    newlines, NULs).  The test keeps a model of the module's state (the
 *    mode, the names given, the interval) under a lock that every command
 *    that may change it holds, and predicts each verdict exactly from its
 *    own reading of the grammar, not from the module's parser.  The one
 *    thing it cannot know is how many automatic targets exist while
 *    profiling runs with no names given (every process that submits work
 *    gets one): then a "module NAME" may also fail with EINVAL for the
 *    target limit, which is counted;
 *  - marker writes, predicted the same way;
 *  - OA record streams (lib/oa_build.h): valid ones, and ones with bytes
 *    flipped, cut, records spliced, sizes and types changed, huge
 *    records, written in pieces of random sizes, with concurrent opens.
 *    The verdict of each write is what the shared stream parser says of
 *    the same bytes, and at the end status must count exactly the
 *    streams opened and refused;
 *  - open, read, pread, lseek, poll, mmap, ioctl, fstat and close of
 *    every file, global and per target, including target directories
 *    that come and go: opens with the wrong access mode (EACCES), with
 *    O_NONBLOCK (no difference), reads at any offset and size.  Files
 *    held open across "end" must keep returning their one snapshot,
 *    byte for byte as the read rules give it, until they return ENODEV,
 *    and ENODEV from then on;
 *  - a target made, its files opened, and the target ended: every read
 *    and pctl write then fails with ENODEV, the directory is gone;
 *  - now and then, named targets up to the limit of 256, sometimes with
 *    a file of each held open across their end (ended targets count
 *    until closed), so that the probes meet the limit too.
 *
 * Afterwards: "end" leaves no target, a fresh "startcp" and 25 known
 * jobs give exactly 25 in the histogram, a known OA stream gives exactly
 * its deltas, and status's OA counters match what the test predicted.
 *
 * Environment:
 *   GPUPROF_DEVICE_FUZZ_SECONDS  seconds of attacks, default 20 (make
 *       check runs this test once per kernel).  A longer run, one kernel:
 *         GPUPROF_DEVICE_FUZZ_SECONDS=600 KVER=... selftests/scripts/vm/run.sh \
 *           --timeout 1500 -- selftests/scripts/vm-suite.sh KO \
 *           selftests/out/device/fuzz_device_test
 *       (the harness timeout grows with it).
 *   GPUPROF_FUZZ_SEED  the seed, decimal or 0x hex; every run prints the
 *       one it used.  Each attack draws from a seed of its own, taken in
 *       turn from its worker's stream, so with the same seed attack N of
 *       worker W (named in every failure) is the same attack again; what
 *       the other threads do meanwhile, and so the state it meets, may
 *       differ.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/gpuprof.h"
#include "../lib/kmod.h"
#include "../lib/kwatch.h"
#include "../lib/oa_build.h"
#include "../lib/vgem.h"
#include "../../module/oa_decode.h"
#include "../../uapi/gpuprof.h"

#define DEFAULT_SECONDS	20
#define WORKERS		4
#define STORMS		3
#define HELD		8		/* target files a worker keeps open */
#define BIG		(256 * 1024)	/* read buffer: a histogram fits */
#define NERR		134		/* errno values counted */
/*
 * Targets that may exist without the model knowing: ended ones still
 * held by open files or queued work.  A "module NAME" that could reach
 * the limit with them may fail with EINVAL for it.
 */
#define SLACK		(WORKERS * (HELD + 4) + 16)

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* splitmix64: small, fast, and good enough to choose attacks with. */
struct rng {
	uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t below(struct rng *r, uint32_t n)
{
	return n ? rnd(r) % n : 0;
}

static bool chance(struct rng *r, unsigned int percent)
{
	return below(r, 100) < percent;
}

/* What each kind of call returned: [0] accepted, [e] errno e. */
enum cls {
	C_CTL_RANDOM, C_PCTL_OPEN, C_PCTL_RANDOM, C_CTL_GRAMMAR,
	C_PCTL_GRAMMAR, C_MARKER, C_ENDED, C_OA_OPEN, C_OA_WRITE,
	C_FILE_OPEN, C_FILE_IO, C_HELD_IO, C_NR
};

static const char *const cls_names[C_NR] = {
	[C_CTL_RANDOM] = "ctl writes, random bytes",
	[C_PCTL_OPEN] = "pctl opens",
	[C_PCTL_RANDOM] = "pctl writes, random bytes",
	[C_CTL_GRAMMAR] = "ctl writes, grammar",
	[C_PCTL_GRAMMAR] = "pctl writes, grammar",
	[C_MARKER] = "marker writes",
	[C_ENDED] = "ended target: reads, writes, opens",
	[C_OA_OPEN] = "oa opens",
	[C_OA_WRITE] = "oa writes",
	[C_FILE_OPEN] = "file opens",
	[C_FILE_IO] = "file calls",
	[C_HELD_IO] = "held file calls",
};

enum attack {
	A_CTL_RANDOM, A_PCTL_RANDOM, A_CTL_GRAMMAR, A_PCTL_GRAMMAR, A_ENDED,
	A_OA, A_FILES, A_MARKER, A_NR
};

static const char *const attack_names[A_NR] = {
	"ctl-random", "pctl-random", "ctl-grammar", "pctl-grammar",
	"ended-target", "oa", "files", "marker",
};

static const unsigned int attack_weight[A_NR] = {
	[A_CTL_RANDOM] = 14, [A_PCTL_RANDOM] = 10, [A_CTL_GRAMMAR] = 20,
	[A_PCTL_GRAMMAR] = 8, [A_ENDED] = 3, [A_OA] = 12, [A_FILES] = 28,
	[A_MARKER] = 5,
};

static atomic_long results[C_NR][NERR];
static atomic_long attacks[A_NR];
static atomic_int failures;
static atomic_int stop_flag;

/* OA: what was written, and what status must count at the end. */
static atomic_long oa_opens, oa_refused, oa_mutated, oa_bytes, oa_taken;
/* Model figures. */
static atomic_long state_checks, limit_uncertain, recoveries, fills;

static uint64_t seed;
static void *bad_page;		/* PROT_NONE: writes from it fault */

/* Shared with the load processes. */
static struct load {
	atomic_int stop;
	atomic_long storm_fences, churn_fences, churned, execs, in_flight_exits;
	atomic_long errors;
} *load;

/* Paths for "module": made in a temporary directory, or fixed. */
static char tmpdir[64];
static char path_long_ok[GPUPROF_PATH_MAX + 1];	/* 200 bytes, a file */
static char path_long_missing[GPUPROF_PATH_MAX + 1];
static char path_long_over[GPUPROF_PATH_MAX + 2];	/* 201 bytes, a file */
static char path_file[128], path_link[128], path_dangling[128];
static char path_fifo[128];
static const char *paths[32];
static unsigned int npaths;

__attribute__((format(printf, 1, 2)))
static void fail(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (atomic_fetch_add(&failures, 1) < 40)
		fprintf(stderr, "# FAIL: %s\n", msg);
}

/* The @n bytes at @p as a C string literal, cut to fit @size. */
static const char *escape(char *out, size_t size, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t o = 0, i;

	for (i = 0; i < n && o + 8 < size; i++) {
		if (b[i] == '\n')
			o += snprintf(out + o, size - o, "\\n");
		else if (b[i] == '\t')
			o += snprintf(out + o, size - o, "\\t");
		else if (b[i] == '"' || b[i] == '\\')
			o += snprintf(out + o, size - o, "\\%c", b[i]);
		else if (b[i] < 0x20 || b[i] > 0x7e)
			o += snprintf(out + o, size - o, "\\x%02x", b[i]);
		else
			out[o++] = b[i];
	}
	if (i < n && o + 4 < size)
		o += snprintf(out + o, size - o, "...");
	out[o] = '\0';
	return out;
}

/* Allowed outcomes: bit 0 success, bit e errno e (all we use are < 64). */
#define OK	1ull
#define E(e)	(1ull << (e))

static bool allowed(uint64_t set, long got)
{
	if (got >= 0)
		return set & OK;
	return -got < 64 && (set & E(-got));
}

static const char *errname(long e)
{
	const char *s = e > 0 ? strerrorname_np((int)e) : NULL;

	return s ? s : "?";
}

static const char *set_str(char *out, size_t size, uint64_t set)
{
	size_t o = 0;
	int e;

	out[0] = '\0';
	if (set & OK)
		o += snprintf(out + o, size - o, "ok");
	for (e = 1; e < 64 && o < size; e++)
		if (set & E(e))
			o += snprintf(out + o, size - o, "%s%s", o ? "|" : "",
				      errname(e));
	return out;
}

static void note(enum cls c, long got)
{
	long e = got < 0 ? -got : 0;

	atomic_fetch_add(&results[c][e < NERR ? e : NERR - 1], 1);
}

struct worker {
	int idx;
	unsigned long op;
	struct rng stream;		/* one seed per attack */
	struct rng r;			/* this attack's choices */
	pthread_t thread;
	int ctl_fd;
	int ids[1024];
	int nids;
	int max_id;
	struct held {
		int fd;
		int id;
		int file;
		bool ended;		/* ENODEV seen: from now on always */
		bool have_snap;
		char *snap;
		size_t len;
		int64_t pos;
	} held[HELD];
	char *buf;			/* BIG bytes */
	uint8_t *oa_record;		/* the parser's record buffer */
};

/* Check one outcome; count it; name the call and bytes if it is wrong. */
static bool check(struct worker *w, enum cls c, long got, uint64_t set,
		  const char *what, const void *bytes, size_t len)
{
	char esc[200], want[160], was[32];

	note(c, got);
	if (allowed(set, got))
		return true;
	if (got > 0)
		snprintf(was, sizeof(was), "ok (%ld)", got);
	else
		snprintf(was, sizeof(was), "%s", got ? errname(-got) : "ok");
	fail("worker %d op %lu: %s: got %s, want %s; %zu bytes \"%s\"",
	     w ? w->idx : -1, w ? w->op : 0, what, was,
	     set_str(want, sizeof(want), set), len,
	     bytes ? escape(esc, sizeof(esc), bytes, len) : "");
	return false;
}

static long sys(long ret)
{
	return ret < 0 ? -errno : ret;
}

/* ---- The grammar, as Documentation/device.rst states it ---- */

enum verb {
	V_NONE, V_MODULE, V_START, V_STARTCP, V_STARTMP, V_STOP, V_END,
	V_INTERVAL, V_RESET, V_CTXID, V_UNBIND,
};

struct cmd {
	char text[GPUPROF_CTL_MAX + 1];
	char *f[GPUPROF_CTL_MAX];
	int n;
	enum verb verb;
	unsigned int interval;
};

/*
 * Fields of one write: at most GPUPROF_CTL_MAX bytes, one trailing
 * newline allowed, fields of printable ASCII separated by blanks (space,
 * tab); anything else, or no field at all, is EINVAL.
 */
static int fields(const void *bytes, size_t len, struct cmd *c)
{
	const unsigned char *b = bytes;
	bool in = false;
	size_t i;

	c->n = 0;
	c->verb = V_NONE;
	if (len == 0 || len > GPUPROF_CTL_MAX)
		return -EINVAL;
	if (b[len - 1] == '\n')
		len--;
	for (i = 0; i < len; i++) {
		if (b[i] == ' ' || b[i] == '\t') {
			c->text[i] = '\0';
			in = false;
			continue;
		}
		if (b[i] < 0x21 || b[i] > 0x7e)
			return -EINVAL;
		c->text[i] = b[i];
		if (!in)
			c->f[c->n++] = &c->text[i];
		in = true;
	}
	c->text[len] = '\0';
	return c->n ? 0 : -EINVAL;
}

/* Decimal digits only, of a value in [lo, hi]. */
static bool decimal_in(const char *s, uint64_t lo, uint64_t hi)
{
	uint64_t v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		if (v <= hi)		/* past hi it stays past: no overflow */
			v = v * 10 + (*s - '0');
	}
	return v >= lo && v <= hi;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* ctxid: hex digits, "0x" allowed, below GPUPROF_OA_NO_CONTEXT. */
static bool ctxid_ok(const char *s)
{
	uint64_t v = 0;
	int d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (!*s)
		return false;
	for (; *s; s++) {
		d = hex_digit(*s);
		if (d < 0)
			return false;
		if (v <= 0xffffffffull)
			v = v * 16 + d;
	}
	return v < GPUPROF_OA_NO_CONTEXT;
}

/*
 * A NAME "cgroup:" and an absolute path, or with a '/' a path, is of at
 * most 200 bytes; else a comm of 15.
 */
static bool name_ok(const char *name)
{
	size_t len = strlen(name);

	if (!strncmp(name, "cgroup:", 7))
		return name[7] == '/' && len <= GPUPROF_PATH_MAX;
	return strchr(name, '/') ? len <= GPUPROF_PATH_MAX :
				   len <= GPUPROF_COMM_MAX;
}

/* The syntax of a ctl command: 0 and c->verb, or -EINVAL. */
static int parse_ctl(const void *bytes, size_t len, struct cmd *c)
{
	const char *v;
	int i;

	if (fields(bytes, len, c))
		return -EINVAL;
	v = c->f[0];
	if (!strcmp(v, "module")) {
		if (c->n - 1 > GPUPROF_MODULE_MAX_NAMES)
			return -EINVAL;
		for (i = 1; i < c->n; i++)
			if (!name_ok(c->f[i]))
				return -EINVAL;
		c->verb = V_MODULE;
		return 0;
	}
	if (!strcmp(v, "interval")) {
		if (c->n != 2 || !decimal_in(c->f[1], GPUPROF_INTERVAL_MIN_MS,
					     GPUPROF_INTERVAL_MAX_MS))
			return -EINVAL;
		c->interval = atoi(c->f[1]);
		c->verb = V_INTERVAL;
		return 0;
	}
	if (c->n != 1)
		return -EINVAL;
	if (!strcmp(v, "start"))
		c->verb = V_START;
	else if (!strcmp(v, "startcp"))
		c->verb = V_STARTCP;
	else if (!strcmp(v, "startmp"))
		c->verb = V_STARTMP;
	else if (!strcmp(v, "stop"))
		c->verb = V_STOP;
	else if (!strcmp(v, "end"))
		c->verb = V_END;
	else if (!strcmp(v, "reset"))
		c->verb = V_RESET;
	else
		return -EINVAL;
	return 0;
}

/* The syntax of a pctl command. */
static int parse_pctl(const void *bytes, size_t len, struct cmd *c)
{
	if (fields(bytes, len, c))
		return -EINVAL;
	if (!strcmp(c->f[0], "ctxid") && c->n == 2 && ctxid_ok(c->f[1]))
		c->verb = V_CTXID;
	else if (!strcmp(c->f[0], "unbind") && c->n == 1)
		c->verb = V_UNBIND;
	else if (!strcmp(c->f[0], "reset") && c->n == 1)
		c->verb = V_RESET;
	else
		return -EINVAL;
	return 0;
}

/* marker: "begin NAME" or "end NAME", NAME printable, not blank-led. */
static int marker_verdict(const void *bytes, size_t len)
{
	const unsigned char *b = bytes, *name;
	size_t n = len, rest, i;

	if (len == 0 || len > GPUPROF_MARKER_MAX)
		return -EINVAL;
	if (b[n - 1] == '\n')
		n--;
	if (memchr(b, 0, n))
		return -EINVAL;
	if (n >= 6 && !memcmp(b, "begin ", 6))
		name = b + 6;
	else if (n >= 4 && !memcmp(b, "end ", 4))
		name = b + 4;
	else
		return -EINVAL;
	rest = n - (name - b);
	if (!rest || name[0] == ' ')
		return -EINVAL;
	for (i = 0; i < rest; i++)
		if (name[i] < 0x20 || name[i] > 0x7e)
			return -EINVAL;
	return 0;
}

/* ---- The model of the module's state ---- */

enum mode { M_IDLE, M_TIME, M_COVERAGE, M_MEMORY };

static const char *const mode_names[] = {
	[M_IDLE] = "idle", [M_TIME] = "time",
	[M_COVERAGE] = "coverage", [M_MEMORY] = "memory",
};

static struct {
	pthread_mutex_t lock;	/* held by every write that may change state */
	enum mode mode;
	unsigned int interval;
	bool names_given;
	/* Automatic targets may exist, in a number we cannot know. */
	bool auto_unknown;
	int nnamed;
	char named[GPUPROF_MAX_TARGETS][GPUPROF_PATH_MAX + 1];
	unsigned long writes;
} model = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.interval = GPUPROF_INTERVAL_DEF_MS,
};

static bool named_has(const char *name)
{
	int i;

	for (i = 0; i < model.nnamed; i++)
		if (!strcmp(model.named[i], name))
			return true;
	return false;
}

static enum mode verb_mode(enum verb v)
{
	return v == V_START ? M_TIME : v == V_STARTCP ? M_COVERAGE : M_MEMORY;
}

/* What a path NAME resolves to, as the writer sees it. */
static int resolve(const char *name)
{
	struct stat st;

	/* The generator's cgroups (sb_name()) are the root and no others. */
	if (!strncmp(name, "cgroup:", 7))
		return strcmp(name + 7, "/") ? -ENOENT : 0;
	if (stat(name, &st))
		return -errno;
	return S_ISREG(st.st_mode) ? 0 : -EINVAL;
}

/*
 * The verdict of a syntactically valid ctl command in the model's state;
 * *limit set when EINVAL for the target limit is possible too.
 */
static int predict_ctl(const struct cmd *c, bool *limit)
{
	int i, j, added = 0, err;
	bool dup;

	*limit = false;
	switch (c->verb) {
	case V_START:
	case V_STARTCP:
	case V_STARTMP:
		if (model.mode == M_IDLE || model.mode == verb_mode(c->verb))
			return 0;
		return -EBUSY;
	case V_MODULE:
		/* In order, for each new name: the limit, then the path. */
		for (i = 1; i < c->n; i++) {
			dup = named_has(c->f[i]);
			for (j = 1; j < i && !dup; j++)
				dup = !strcmp(c->f[j], c->f[i]);
			if (dup)
				continue;
			added++;
			/* The named targets alone would be too many. */
			if (model.nnamed + added > GPUPROF_MAX_TARGETS)
				return -EINVAL;
			if (model.auto_unknown ||
			    model.nnamed + added + SLACK > GPUPROF_MAX_TARGETS)
				*limit = true;
			if (strchr(c->f[i], '/') ||
			    !strncmp(c->f[i], "cgroup:", 7)) {
				err = resolve(c->f[i]);
				if (err)
					return err;
			}
		}
		return 0;
	default:
		return 0;
	}
}

static void model_end(void)
{
	model.mode = M_IDLE;
	model.nnamed = 0;
	model.names_given = false;
	model.auto_unknown = false;
}

/* A command the module accepted: what it changed. */
static void apply_ctl(const struct cmd *c)
{
	int i;

	switch (c->verb) {
	case V_START:
	case V_STARTCP:
	case V_STARTMP:
		if (model.mode == M_IDLE)
			model.mode = verb_mode(c->verb);
		if (!model.names_given)
			model.auto_unknown = true;
		break;
	case V_STOP:
		model.mode = M_IDLE;
		break;
	case V_END:
		model_end();
		break;
	case V_INTERVAL:
		model.interval = c->interval;
		break;
	case V_MODULE:
		if (c->n == 1) {
			model.nnamed = 0;
			model.names_given = false;
			if (model.mode != M_IDLE)
				model.auto_unknown = true;
			break;
		}
		for (i = 1; i < c->n; i++)
			if (!named_has(c->f[i]) &&
			    model.nnamed < GPUPROF_MAX_TARGETS)
				strcpy(model.named[model.nnamed++], c->f[i]);
		model.names_given = true;
		break;
	default:
		break;
	}
}

/* One write to ctl, through the worker's own fd or a fresh one. */
static long write_ctl(struct worker *w, const void *bytes, size_t len)
{
	long ret;
	int fd = w->ctl_fd;

	if (fd < 0 || chance(&w->r, 50)) {
		fd = open(GP "/ctl", O_WRONLY | O_CLOEXEC);
		if (fd < 0) {
			fail("worker %d: open ctl: %s", w->idx,
			     strerror(errno));
			return -errno;
		}
		ret = sys(write(fd, bytes, len));
		close(fd);
		return ret;
	}
	return sys(write(fd, bytes, len));
}

/* "key: value" of a status text, as a number; -1 if absent. */
static long long kv_num(const char *status, const char *key)
{
	size_t klen = strlen(key);
	const char *p;

	for (p = status; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, klen) && p[klen] == ':')
			return strtoll(p + klen + 1, NULL, 10);
	return -1;
}

static bool kv_is(const char *status, const char *key, const char *want)
{
	size_t klen = strlen(key), wlen = strlen(want);
	const char *p;

	for (p = status; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, klen) && p[klen] == ':')
			return !strncmp(p + klen + 2, want, wlen) &&
			       p[klen + 2 + wlen] == '\n';
	return false;
}

/*
 * The device against the model, model lock held: the mode, the interval,
 * and, while no automatic target can exist, exactly the named targets.
 */
static void model_check(struct worker *w, bool names)
{
	char status[8192], name[GPUPROF_PATH_MAX + 8];
	int ids[1024], n, i, found = 0;

	atomic_fetch_add(&state_checks, 1);
	if (read_file(GP "/status", status, sizeof(status)) <= 0) {
		fail("worker %d: status unreadable", w->idx);
		return;
	}
	if (!kv_is(status, "mode", mode_names[model.mode]))
		fail("worker %d op %lu: status mode is not %s:\n%s", w->idx,
		     w->op, mode_names[model.mode], status);
	if (kv_num(status, "interval_ms") != model.interval)
		fail("worker %d op %lu: interval_ms %lld, want %u", w->idx,
		     w->op, kv_num(status, "interval_ms"), model.interval);
	if (model.auto_unknown)
		return;
	if (kv_num(status, "targets") != model.nnamed)
		fail("worker %d op %lu: %lld targets, want the %d named",
		     w->idx, w->op, kv_num(status, "targets"), model.nnamed);
	if (!names)
		return;
	n = target_ids(ids, 1024);
	for (i = 0; i < n; i++) {
		if (target_file(ids[i], "name", name, sizeof(name)) <= 0)
			continue;
		name[strcspn(name, "\n")] = '\0';
		if (named_has(name))
			found++;
		else
			fail("worker %d op %lu: target %d is \"%s\", not named",
			     w->idx, w->op, ids[i], name);
	}
	if (found != model.nnamed)
		fail("worker %d op %lu: %d directories of named targets,"
		     " want %d", w->idx, w->op, found, model.nnamed);
}

/* After a wrong verdict, model lock held: "end" makes the state known. */
static void resync(struct worker *w)
{
	atomic_fetch_add(&recoveries, 1);
	if (write_file(GP "/ctl", "end\n"))
		fail("worker %d: \"end\" after a wrong verdict failed", w->idx);
	model_end();
}

/*
 * Write a syntactically valid ctl command with the model lock held; check
 * the verdict exactly; follow the change.  After a wrong verdict the
 * model is put right with "end".
 */
static void ctl_locked(struct worker *w, enum cls cls, const void *bytes,
		       size_t len, struct cmd *c)
{
	bool limit;
	long got;
	int want;

	want = predict_ctl(c, &limit);
	got = write_ctl(w, bytes, len);
	if (got == (long)len)
		got = 0;
	else if (got >= 0)
		got = -EIO;	/* a short count: never allowed */
	if (limit && got == -EINVAL && want != -EINVAL) {
		atomic_fetch_add(&limit_uncertain, 1);
		note(cls, got);
		return;
	}
	if (!check(w, cls, got, want ? E(-want) : OK, "ctl", bytes, len)) {
		resync(w);
		return;
	}
	if (!got)
		apply_ctl(c);
	if (++model.writes % 4 == 0)
		model_check(w, model.writes % 32 == 0);
}

/* ---- Generators ---- */

struct sbuf {
	char d[1024];
	size_t n;
};

static void sb_put(struct sbuf *s, const void *p, size_t n)
{
	if (n > sizeof(s->d) - s->n)
		n = sizeof(s->d) - s->n;
	memcpy(s->d + s->n, p, n);
	s->n += n;
}

static void sb_str(struct sbuf *s, const char *p)
{
	sb_put(s, p, strlen(p));
}

static void sb_char(struct sbuf *s, char c)
{
	sb_put(s, &c, 1);
}

static void sb_blank(struct rng *r, struct sbuf *s)
{
	static const char *const blanks[] = {
		" ", " ", " ", "\t", "  ", " \t ", "\t\t",
	};

	sb_str(s, blanks[below(r, ARRAY_SIZE(blanks))]);
}

static void sb_random_word(struct rng *r, struct sbuf *s, size_t len)
{
	static const char set[] =
		"abcdefghijklmnopqrstuvwxyz0123456789_-.:+=#@~%^&*()[]{}";

	while (len--)
		sb_char(s, set[below(r, sizeof(set) - 1)]);
}

static const char *const comm_names[] = {
	"fz_n0", "fz_n1", "fz_n2", "fz_n3", "fz_storm0", "fz_storm1",
	"fz_storm2", "fz_churn", "fz_c1", "fz_exec", "gpuwork", "x",
};

static void sb_name(struct rng *r, struct sbuf *s)
{
	switch (below(r, 12)) {
	case 0: case 1: case 2: case 3:
		sb_str(s, comm_names[below(r, ARRAY_SIZE(comm_names))]);
		break;
	case 4:		/* the longest comm there is */
		sb_str(s, "fz_");
		sb_random_word(r, s, GPUPROF_COMM_MAX - 3);
		break;
	case 5:		/* one more */
		sb_str(s, "fz_");
		sb_random_word(r, s, GPUPROF_COMM_MAX - 2);
		break;
	case 6:
		sb_random_word(r, s, 1 + below(r, 18));
		break;
	case 11:
		sb_char(s, '/');
		sb_random_word(r, s, below(r, 12));
		break;
	case 10:	/* cgroups that are not there, or no cgroup NAME */
		sb_str(s, below(r, 2) ? "cgroup:/fz_" : "cgroup:fz_");
		sb_random_word(r, s, below(r, 8));
		break;
	default:
		sb_str(s, paths[below(r, npaths)]);
		break;
	}
}

static const char *const interval_args[] = {
	"0", "1", "2", "100", "0052", "59999", "60000", "60001", "65536",
	"4294967295", "4294967296", "4294967297", "18446744073709551616",
	"99999999999999999999999", "-1", "-0", "+5", "0x10", "1e3", "5ms",
	"1.5", "00000000000000000000000000000000001", "060000", "0060001",
};

static void sb_interval_arg(struct rng *r, struct sbuf *s)
{
	char num[32];

	if (chance(r, 70)) {
		sb_str(s, interval_args[below(r, ARRAY_SIZE(interval_args))]);
		return;
	}
	snprintf(num, sizeof(num), "%u",
		 chance(r, 50) ? below(r, 70000) : (uint32_t)rnd(r));
	sb_str(s, num);
}

static const char *const ctxid_args[] = {
	"0", "1", "42", "0x42", "0X42", "0x", "x42", "fffffffe", "FFFFFFFE",
	"0xfffffffe", "ffffffff", "0xffffffff", "100000000",
	"ffffffffffffffff", "10000000000000000", "-1", "g", "0x0x1", "7",
	"00000000000000000000000000000003", "0x00000000000000000000000042",
	"3 ", "+3",
};

static void sb_ctxid_arg(struct rng *r, struct sbuf *s)
{
	char num[32];

	if (chance(r, 60)) {
		sb_str(s, ctxid_args[below(r, ARRAY_SIZE(ctxid_args))]);
		return;
	}
	snprintf(num, sizeof(num), chance(r, 30) ? "0x%" PRIx64 : "%" PRIx64,
		 chance(r, 70) ? rnd(r) >> 32 : rnd(r) >> below(r, 64));
	sb_str(s, num);
}

/* Near misses of a command: one small change, of the kind users make. */
static void mutate(struct rng *r, struct sbuf *s)
{
	size_t at = s->n ? below(r, s->n) : 0, i;
	bool nl = s->n && s->d[s->n - 1] == '\n';
	unsigned int k = below(r, 11);

	switch (k) {
	case 0:		/* a second newline */
		sb_char(s, '\n');
		break;
	case 1:		/* CRLF */
		if (nl)
			s->n--;
		sb_str(s, "\r\n");
		break;
	case 2:		/* a NUL inside */
	case 7:		/* any byte inside */
		if (s->n < sizeof(s->d)) {
			memmove(s->d + at + 1, s->d + at, s->n - at);
			s->d[at] = k == 2 ? '\0' : (char)rnd(r);
			s->n++;
		}
		break;
	case 3:		/* a byte above 0x7e */
		if (s->n)
			s->d[at] = (char)(0x80 + below(r, 128));
		break;
	case 4:		/* a capital */
		for (i = at; i < s->n; i++)
			if (s->d[i] >= 'a' && s->d[i] <= 'z') {
				s->d[i] -= 'a' - 'A';
				break;
			}
		break;
	case 5:		/* a byte less */
		if (s->n) {
			memmove(s->d + at, s->d + at + 1, s->n - at - 1);
			s->n--;
		}
		break;
	case 6:		/* a byte twice */
		if (s->n && s->n < sizeof(s->d)) {
			memmove(s->d + at + 1, s->d + at, s->n - at);
			s->n++;
		}
		break;
	case 8:		/* blanks up to exactly the limit, or one over */
	case 9:
		if (nl)
			s->n--;
		while (s->n < (size_t)GPUPROF_CTL_MAX - nl + (k == 9))
			sb_char(s, chance(r, 80) ? ' ' : '\t');
		if (nl)
			sb_char(s, '\n');
		break;
	case 10:	/* cut short */
		s->n = at;
		break;
	}
}

static void gen_ctl(struct rng *r, struct sbuf *s)
{
	static const char *const starts[] = { "start", "startcp", "startmp" };
	static const char *const misses[] = {
		"modul", "modules", "START", "Stop", "interval", "start now",
		"startcp 1", "stop 1", "end all", "reset 1", "ctxid 5",
		"unbind", "st art", "startmpx", "\n", "", "module\n\nx",
		"interval 5 6", "end\tend",
	};
	int k = below(r, 100), i, n;

	s->n = 0;
	if (chance(r, 10))
		sb_blank(r, s);
	if (k < 26) {
		sb_str(s, starts[below(r, 3)]);
	} else if (k < 38) {
		sb_str(s, "stop");
	} else if (k < 41) {
		sb_str(s, "end");
	} else if (k < 45) {
		sb_str(s, "reset");
	} else if (k < 60) {
		sb_str(s, "interval");
		sb_blank(r, s);
		sb_interval_arg(r, s);
	} else if (k < 67) {
		sb_str(s, "module");
	} else if (k < 92) {
		sb_str(s, "module");
		n = chance(r, 80) ? 1 + below(r, 3) : 14 + below(r, 6);
		for (i = 0; i < n; i++) {
			sb_blank(r, s);
			sb_name(r, s);
		}
	} else {
		sb_str(s, misses[below(r, ARRAY_SIZE(misses))]);
	}
	if (chance(r, 8))
		sb_blank(r, s);
	if (chance(r, 70))
		sb_char(s, '\n');
	if (chance(r, 20))
		mutate(r, s);
}

static void gen_pctl(struct rng *r, struct sbuf *s)
{
	static const char *const misses[] = {
		"ctxid", "ctxid 1 2", "CTXID 1", "bind 5", "reset 1",
		"unbind 1", "module x", "start", "end", "ctxid\t\t", "",
		"resetx", "ctx id 5",
	};
	int k = below(r, 100);

	s->n = 0;
	if (chance(r, 10))
		sb_blank(r, s);
	if (k < 20) {
		sb_str(s, "reset");
	} else if (k < 35) {
		sb_str(s, "unbind");
	} else if (k < 90) {
		sb_str(s, "ctxid");
		sb_blank(r, s);
		sb_ctxid_arg(r, s);
	} else {
		sb_str(s, misses[below(r, ARRAY_SIZE(misses))]);
	}
	if (chance(r, 8))
		sb_blank(r, s);
	if (chance(r, 70))
		sb_char(s, '\n');
	if (chance(r, 20))
		mutate(r, s);
}

static void gen_marker(struct rng *r, struct sbuf *s)
{
	s->n = 0;
	switch (below(r, 8)) {
	case 0:
		sb_str(s, "begin ");
		break;
	case 1:
		sb_str(s, "end ");
		break;
	case 2:
		sb_str(s, chance(r, 50) ? "begin  " : "end\t");
		break;
	case 3:
		sb_str(s, chance(r, 50) ? "BEGIN " : "ending ");
		break;
	default:
		sb_str(s, chance(r, 50) ? "begin fz_" : "end fz_");
		break;
	}
	sb_random_word(r, s, below(r, 20));
	if (chance(r, 20))
		sb_str(s, " with spaces");
	if (chance(r, 5))
		while (s->n < GPUPROF_MARKER_MAX - 1 + below(r, 3))
			sb_char(s, 'm');
	if (chance(r, 60))
		sb_char(s, '\n');
	if (chance(r, 15))
		mutate(r, s);
}

/* Random bytes: sizes around the limits, NULs, printable runs. */
static size_t gen_random(struct rng *r, uint8_t *b)
{
	static const char words[] = " \t\nmodule start stop end interval "
				    "ctxid reset unbind 0x42 1 /bin/sh ";
	size_t len, i;
	int style = below(r, 4);

	switch (below(r, 10)) {
	case 0:
		len = 0;
		break;
	case 1:
		len = GPUPROF_CTL_MAX;
		break;
	case 2:
		len = GPUPROF_CTL_MAX + 1;
		break;
	case 3:
	case 4:
		len = below(r, 17);
		break;
	default:
		len = below(r, 301);
		break;
	}
	for (i = 0; i < len; i++) {
		switch (style) {
		case 0:
			b[i] = rnd(r);
			break;
		case 1:
			b[i] = chance(r, 3) ? 0 : 0x20 + below(r, 95);
			break;
		case 2:
			b[i] = chance(r, 70) ? 0 : rnd(r);
			break;
		default:
			b[i] = chance(r, 2) ? (uint8_t)rnd(r) :
			       (uint8_t)words[below(r, sizeof(words) - 1)];
			break;
		}
	}
	return len;
}

/* ---- Attacks on ctl, pctl and marker ---- */

static void attack_ctl_random(struct worker *w)
{
	uint8_t b[512];
	struct cmd c;
	size_t len = gen_random(&w->r, b);
	long got;

	if (chance(&w->r, 4)) {
		/* A buffer that faults: EFAULT, or EINVAL for the length. */
		len = below(&w->r, 300);
		got = write_ctl(w, bad_page, len);
		check(w, C_CTL_RANDOM, got,
		      len && len <= GPUPROF_CTL_MAX ? E(EFAULT) :
						      E(EINVAL) | E(EFAULT),
		      "ctl, faulting buffer", NULL, len);
		return;
	}
	if (parse_ctl(b, len, &c)) {
		/* Refused whatever the state: no lock needed. */
		got = write_ctl(w, b, len);
		if (!check(w, C_CTL_RANDOM, got, E(EINVAL), "ctl, random bytes",
			   b, len) && got >= 0) {
			pthread_mutex_lock(&model.lock);
			resync(w);
			pthread_mutex_unlock(&model.lock);
		}
		return;
	}
	/* Random bytes that make a command: as the grammar attack. */
	pthread_mutex_lock(&model.lock);
	ctl_locked(w, C_CTL_RANDOM, b, len, &c);
	pthread_mutex_unlock(&model.lock);
}

static void attack_ctl_grammar(struct worker *w)
{
	struct sbuf s;
	struct cmd c;

	gen_ctl(&w->r, &s);
	pthread_mutex_lock(&model.lock);
	if (parse_ctl(s.d, s.n, &c)) {
		if (!check(w, C_CTL_GRAMMAR, write_ctl(w, s.d, s.n), E(EINVAL),
			   "ctl", s.d, s.n))
			resync(w);
	} else {
		ctl_locked(w, C_CTL_GRAMMAR, s.d, s.n, &c);
	}
	pthread_mutex_unlock(&model.lock);
}

static void refresh_ids(struct worker *w)
{
	int i, n = target_ids(w->ids, ARRAY_SIZE(w->ids));

	w->nids = n > 0 ? n : 0;
	for (i = 0; i < w->nids; i++)
		if (w->ids[i] > w->max_id)
			w->max_id = w->ids[i];
}

/* A target id: mostly one that exists, else one gone or not yet made. */
static int pick_id(struct worker *w)
{
	if (w->op % 8 == 0 || !w->nids)
		refresh_ids(w);
	if (w->nids && chance(&w->r, 75))
		return w->ids[below(&w->r, w->nids)];
	if (chance(&w->r, 60))
		return w->max_id + 1 + below(&w->r, 3);
	return below(&w->r, w->max_id + 2);
}

static int open_target(int id, const char *file, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), GP "/%d/%s", id, file);
	return open(path, flags | O_CLOEXEC);
}

static void attack_pctl_random(struct worker *w)
{
	uint8_t b[512];
	struct cmd c;
	size_t len;
	long got;
	int fd;

	fd = open_target(pick_id(w), "pctl", O_WRONLY);
	if (!check(w, C_PCTL_OPEN, sys(fd), OK | E(ENOENT) | E(ENODEV),
		   "open pctl", NULL, 0) || fd < 0)
		return;
	if (chance(&w->r, 4)) {
		len = below(&w->r, 300);
		got = sys(write(fd, bad_page, len));
		check(w, C_PCTL_RANDOM, got,
		      E(ENODEV) | (len && len <= GPUPROF_CTL_MAX ? E(EFAULT) :
					  E(EINVAL) | E(EFAULT)),
		      "pctl, faulting buffer", NULL, len);
	} else {
		len = gen_random(&w->r, b);
		got = sys(write(fd, b, len));
		/* The target may end at any time: then ENODEV. */
		check(w, C_PCTL_RANDOM, got,
		      (parse_pctl(b, len, &c) ? E(EINVAL) : OK) | E(ENODEV),
		      "pctl, random bytes", b, len);
	}
	close(fd);
}

/*
 * A grammar command to the pctl of a live target.  With the model lock
 * held no target can end (only ctl commands end targets, and every one
 * that may is written under the lock), so the verdict is exact.
 */
static void attack_pctl_grammar(struct worker *w)
{
	struct sbuf s;
	struct cmd c;
	long got;
	int fd, id;

	gen_pctl(&w->r, &s);
	pthread_mutex_lock(&model.lock);
	refresh_ids(w);
	id = w->nids ? w->ids[below(&w->r, w->nids)] : 1;
	fd = open_target(id, "pctl",
			 O_WRONLY | (chance(&w->r, 20) ? O_NONBLOCK : 0));
	/* A directory listed may still be making its files. */
	if (check(w, C_PCTL_OPEN, sys(fd), OK | E(ENOENT), "open pctl",
		  NULL, 0) && fd >= 0) {
		got = sys(write(fd, s.d, s.n));
		if (got == (long)s.n)
			got = 0;
		check(w, C_PCTL_GRAMMAR, got,
		      parse_pctl(s.d, s.n, &c) ? E(EINVAL) : OK, "pctl", s.d,
		      s.n);
		close(fd);
	}
	pthread_mutex_unlock(&model.lock);
}

static void attack_marker(struct worker *w)
{
	struct sbuf s;
	long got;
	int fd;

	gen_marker(&w->r, &s);
	fd = open(GP "/marker", O_WRONLY | O_CLOEXEC);
	if (!check(w, C_MARKER, sys(fd), OK, "open marker", NULL, 0) || fd < 0)
		return;
	if (chance(&w->r, 5)) {
		s.n = below(&w->r, 300);
		got = sys(write(fd, bad_page, s.n));
		check(w, C_MARKER, got,
		      s.n && s.n <= GPUPROF_MARKER_MAX ? E(EFAULT) :
							 E(EINVAL) | E(EFAULT),
		      "marker, faulting buffer", NULL, s.n);
	} else {
		got = sys(write(fd, s.d, s.n));
		if (got == (long)s.n)
			got = 0;
		check(w, C_MARKER, got,
		      marker_verdict(s.d, s.n) ? E(EINVAL) : OK, "marker", s.d,
		      s.n);
	}
	close(fd);
}

/* Open the name file of every target there is; the fds opened. */
static int hold_all(int *fds, int max)
{
	int ids[1024], n, i, held = 0;

	n = target_ids(ids, 1024);
	for (i = 0; i < n && held < max; i++) {
		fds[held] = open_target(ids[i], "name", O_RDONLY);
		if (fds[held] >= 0)
			held++;
	}
	return held;
}

/*
 * Named targets up to the limit, 16 a command, while the other workers
 * go on: the command that reaches it fails whole, and the module keeps
 * exactly the targets the model has.  Then "module" ends them all.
 */
static void fill_targets(struct worker *w)
{
	static atomic_uint serial;
	char cmd[GPUPROF_CTL_MAX + 1];
	unsigned int k = atomic_fetch_add(&serial, 1);
	int before, i, j, o, fds[GPUPROF_MAX_TARGETS], held;
	struct cmd parsed;

	atomic_fetch_add(&fills, 1);
	for (i = 0; i < GPUPROF_MAX_TARGETS / 16 + 2; i++) {
		o = snprintf(cmd, sizeof(cmd), "module");
		for (j = 0; j < 16; j++)
			o += snprintf(cmd + o, sizeof(cmd) - o, " f%u_%d_%d",
				      k % 1000, i, j);
		cmd[o++] = '\n';
		cmd[o] = '\0';
		if (parse_ctl(cmd, o, &parsed)) {
			fail("\"%s\" does not parse", cmd);
			return;
		}
		before = model.nnamed;
		ctl_locked(w, C_CTL_GRAMMAR, cmd, o, &parsed);
		if (model.nnamed == before)
			break;		/* at the limit (or put right) */
	}
	model_check(w, true);
	/*
	 * Sometimes with a file of each held open: ended, they still count
	 * against the limit until closed, so the processes that submit work
	 * meanwhile meet it in the probes (dropped_targets).
	 */
	held = chance(&w->r, 30) ? hold_all(fds, ARRAY_SIZE(fds)) : 0;
	if (parse_ctl("module\n", 7, &parsed) == 0)
		ctl_locked(w, C_CTL_GRAMMAR, "module\n", 7, &parsed);
	if (held && model.mode != M_MEMORY) {
		parse_ctl("startcp\n", 8, &parsed);
		ctl_locked(w, C_CTL_GRAMMAR, "startcp\n", 8, &parsed);
		sleep_ms(1000);
	}
	while (held--)
		close(fds[held]);
}

/*
 * Make a target, open its files, end it: then every read and pctl write
 * fails with ENODEV and the directory is gone.  All under the model lock.
 */
static void attack_ended(struct worker *w)
{
	static const char *const files[] = {
		"name", "path", "histogram", "counters",
	};
	static atomic_uint serial;
	char cmd[64], name[32], path[64], got_name[64], c1;
	const char *end_cmd;
	struct cmd parsed;
	int fds[4], pctl, ids[1024], n, i, id = -1;
	uint8_t b[512];
	size_t len;

	snprintf(name, sizeof(name), "fz_e%u", atomic_fetch_add(&serial, 1));
	snprintf(cmd, sizeof(cmd), "module %s\n", name);
	pthread_mutex_lock(&model.lock);
	if (chance(&w->r, 3)) {
		fill_targets(w);
		goto out;
	}
	if (parse_ctl(cmd, strlen(cmd), &parsed)) {
		fail("\"%s\" does not parse", cmd);
		goto out;
	}
	ctl_locked(w, C_ENDED, cmd, strlen(cmd), &parsed);
	if (!named_has(name))	/* the target limit, while uncertain */
		goto out;
	n = target_ids(ids, 1024);
	for (i = n - 1; i >= 0 && id < 0; i--) {
		if (target_file(ids[i], "name", got_name,
				sizeof(got_name)) <= 0)
			continue;
		if (!strncmp(got_name, name, strlen(name)) &&
		    got_name[strlen(name)] == '\n')
			id = ids[i];
	}
	if (id < 0) {
		fail("worker %d op %lu: no directory for %s", w->idx, w->op,
		     name);
		goto out;
	}
	for (i = 0; i < 4; i++) {
		fds[i] = open_target(id, files[i], O_RDONLY);
		check(w, C_ENDED, sys(fds[i]), OK, files[i], NULL, 0);
	}
	pctl = open_target(id, "pctl", O_WRONLY);
	check(w, C_ENDED, sys(pctl), OK, "pctl", NULL, 0);
	if (fds[0] >= 0)
		check(w, C_ENDED, sys(read(fds[0], &c1, 1)), OK, "name, 1 byte",
		      NULL, 0);

	/* "module" ends the named targets, "end" all of them. */
	end_cmd = chance(&w->r, 70) ? "module\n" : "end\n";
	parse_ctl(end_cmd, strlen(end_cmd), &parsed);
	ctl_locked(w, C_ENDED, end_cmd, strlen(end_cmd), &parsed);

	for (i = 0; i < 4; i++) {
		if (fds[i] < 0)
			continue;
		check(w, C_ENDED, sys(read(fds[i], w->buf, BIG)), E(ENODEV),
		      "read of an ended target", files[i], strlen(files[i]));
		check(w, C_ENDED, sys(pread(fds[i], w->buf, 1, 0)), E(ENODEV),
		      "pread of an ended target", files[i], strlen(files[i]));
		check(w, C_ENDED, sys(lseek(fds[i], 0, SEEK_SET)), OK,
		      "lseek of an ended target", files[i], strlen(files[i]));
		close(fds[i]);
	}
	if (pctl >= 0) {
		check(w, C_ENDED, sys(write(pctl, "reset\n", 6)), E(ENODEV),
		      "pctl of an ended target", "reset\n", 6);
		len = gen_random(&w->r, b);
		check(w, C_ENDED, sys(write(pctl, b, len)),
		      E(ENODEV) | E(EINVAL), "pctl of an ended target", b, len);
		close(pctl);
	}
	snprintf(path, sizeof(path), GP "/%d/name", id);
	check(w, C_ENDED, sys(open(path, O_RDONLY)), E(ENOENT),
	      "open after end", path, strlen(path));
out:
	pthread_mutex_unlock(&model.lock);
}

/* ---- OA streams ---- */

struct oa_dev {
	uint32_t id;
	uint32_t format;
};

static const struct oa_dev oa_devs[] = {
	{ 0x9a49, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8 },
	{ 0x9a49, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8 },
	{ 0x9a49, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8 },
	{ 0x9a49, GPUPROF_OA_FORMAT_A12 },
	{ 0x1912, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8 },
	{ 0x1616, GPUPROF_OA_FORMAT_A12_B8_C8 },
	{ 0x22b0, GPUPROF_OA_FORMAT_C4_B8 },
	{ 0x0412, GPUPROF_OA_FORMAT_A45_B8_C8 },
	{ 0x0412, GPUPROF_OA_FORMAT_B4_C8_A16 },
	{ 0x1234, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8 },	/* unknown */
	{ 0x9a49, GPUPROF_OA_FORMAT_A45_B8_C8 },	/* not on gen12 */
	{ 0x9a49, 99 },
};

static const char *const metric_sets[] = {
	"RenderBasic", "ComputeBasic", "fz_metric_a", "fz_metric_b", "",
};

static void oa_put_info(struct rng *r, struct oa_buf *b, const struct oa_dev *d)
{
	static const uint64_t freqs[] = {
		OA_TGL_FREQ, OA_TGL_FREQ, OA_TGL_FREQ, 12000000, 1, 0,
		10000000000ull, 10000000001ull, ~0ull,
	};
	struct gpuprof_oa_device_info di = {
		.timestamp_frequency = chance(r, 85) ? OA_TGL_FREQ :
				       freqs[below(r, ARRAY_SIZE(freqs))],
		.device_id = d->id,
		.oa_format = d->format,
		.gt_min_frequency = 300,
		.gt_max_frequency = 1300,
	};
	size_t i;

	if (chance(r, 2)) {
		/* A name of any bytes, not even terminated. */
		for (i = 0; i < sizeof(di.metric_set_name); i++)
			di.metric_set_name[i] = (char)(1 + below(r, 255));
	} else {
		strcpy(di.metric_set_name,
		       metric_sets[below(r, ARRAY_SIZE(metric_sets))]);
	}
	oa_record(b, GPUPROF_OA_RECORD_DEVICE_INFO, &di, sizeof(di));
}

static const uint32_t oa_ctxs[] = {
	GPUPROF_OA_NO_CONTEXT, GPUPROF_OA_NO_CONTEXT, 0x42, 0x7, 3, 0,
	0xfffffffe,
};

static void oa_put_report(struct rng *r, struct oa_buf *b,
			  const struct gpuprof_oa_layout *l, uint32_t i,
			  uint32_t ts)
{
	static const uint32_t reasons[] = {
		GPUPROF_OA_REASON_TIMER, GPUPROF_OA_REASON_TIMER,
		GPUPROF_OA_REASON_TIMER, GPUPROF_OA_REASON_CTX_SWITCH,
		GPUPROF_OA_REASON_CLK_RATIO, 0x40, 0,
	};
	uint32_t rep[GPUPROF_OA_REPORT_MAX / 4] = { 0 };
	uint32_t ctx = oa_ctxs[below(r, ARRAY_SIZE(oa_ctxs))];
	uint32_t valid = l->gen == 8 ? 1u << 25 : 1u << 16;
	unsigned int k;

	rep[0] = reasons[below(r, ARRAY_SIZE(reasons))] << 19 |
		 (ctx != GPUPROF_OA_NO_CONTEXT ? valid : 0);
	rep[1] = ts;
	rep[2] = ctx;
	rep[3] = 1000 * i;
	for (k = 4; k < l->size / 4u; k++)
		rep[k] = chance(r, 3) ? (uint32_t)rnd(r) : (k + 1) * i;
	oa_record(b, GPUPROF_OA_RECORD_SAMPLE, rep, l->size);
}

/* A stream of records, valid but for what the choices make invalid. */
static void oa_gen(struct rng *r, struct oa_buf *b, bool huge)
{
	const struct oa_dev *d = &oa_devs[below(r, ARRAY_SIZE(oa_devs))];
	struct gpuprof_oa_version v = { .version = 1 };
	struct gpuprof_oa_correlation_bound cb;
	struct gpuprof_oa_layout l = { .size = 256, .gen = 12 };
	uint8_t payload[1024];
	uint64_t cpu0 = mono_ns() - below(r, 50000000), gpu0, gpu;
	unsigned int i, n, k;
	size_t j, len;

	if (huge)
		d = &oa_devs[0];
	gpuprof_oa_layout(gpuprof_oa_gen_of_device(d->id), d->format, &l);
	if (chance(r, 3))
		v.version = chance(r, 50) ? 2 : (uint32_t)rnd(r);
	oa_record(b, GPUPROF_OA_RECORD_VERSION, &v, sizeof(v));
	oa_put_info(r, b, d);
	if (chance(r, 20)) {
		n = 8 * below(r, 32);
		for (k = 0; k < n; k++)
			payload[k] = rnd(r);
		oa_record(b, GPUPROF_OA_RECORD_DEVICE_TOPOLOGY, payload, n);
	}
	gpu0 = chance(r, 80) ? 1000000000ull : rnd(r) >> below(r, 64);
	gpu = gpu0;
	oa_correlation(b, cpu0, gpu0);
	n = huge ? 4000 : below(r, 200);
	for (i = 0; i < n; i++) {
		k = below(r, 100);
		if (k < 88 || huge) {
			gpu += below(r, 2 * 19200);
			oa_put_report(r, b, &l, i, (uint32_t)gpu);
		} else if (k < 90) {
			oa_record(b, chance(r, 50) ?
				  GPUPROF_OA_RECORD_REPORT_LOST :
				  GPUPROF_OA_RECORD_BUFFER_LOST, NULL, 0);
		} else if (k < 95) {
			/* Some go backwards, which is ignored. */
			oa_correlation(b, chance(r, 80) ?
				       cpu0 + (gpu - gpu0) * 52 : rnd(r),
				       chance(r, 90) ? gpu : rnd(r));
		} else if (k < 97) {
			cb.cpu_timestamp = cpu0 + (gpu - gpu0) * 52;
			cb.gpu_timestamp = gpu;
			cb.window_ns = below(r, 100000);
			oa_record(b, GPUPROF_OA_RECORD_CORRELATION_BOUND, &cb,
				  sizeof(cb));
		} else if (k < 99) {
			/* An extension the reader skips by its size. */
			len = below(r, sizeof(payload));
			for (j = 0; j < len; j++)
				payload[j] = rnd(r);
			oa_record(b, 0x10200 + below(r, 16), payload, len);
		} else {
			oa_put_info(r, b, chance(r, 80) ? d :
				    &oa_devs[below(r, ARRAY_SIZE(oa_devs))]);
		}
	}
	oa_correlation(b, cpu0 + (gpu - gpu0) * 52 + 1000000, gpu + 19200);
}

static void oa_insert(struct oa_buf *b, size_t at, const void *p, size_t n)
{
	size_t tail = b->len - at;

	oa_put(b, p, n);	/* makes room (and appends, overwritten here) */
	memmove(b->data + at + n, b->data + at, tail);
	memcpy(b->data + at, p, n);
}

/* Offsets of the records as their sizes lay them out, while they do. */
static unsigned int oa_records(const struct oa_buf *b, size_t *offs,
			       unsigned int max)
{
	size_t off = 0, size;
	unsigned int n = 0;

	while (n < max && off + 8 <= b->len) {
		offs[n++] = off;
		size = b->data[off + 6] | b->data[off + 7] << 8;
		if (size < 8)
			break;
		off += size;
	}
	return n;
}

static void oa_mutate(struct rng *r, struct oa_buf *b)
{
	static const uint16_t sizes[] = { 0, 4, 7, 8, 9, 0xffff, 264, 336 };
	static const uint32_t types[] = {
		GPUPROF_OA_RECORD_SAMPLE, GPUPROF_OA_RECORD_REPORT_LOST,
		GPUPROF_OA_RECORD_VERSION, GPUPROF_OA_RECORD_DEVICE_INFO,
		GPUPROF_OA_RECORD_TIMESTAMP_CORRELATION,
		GPUPROF_OA_RECORD_CORRELATION_BOUND, 0x10200, 0,
	};
	uint8_t tmp[4096];
	size_t offs[256], at, n, i;
	unsigned int nrec = oa_records(b, offs, ARRAY_SIZE(offs));
	size_t o = nrec ? offs[below(r, nrec)] : 0;
	uint16_t size;
	uint32_t type;

	if (!b->len)
		return;
	switch (below(r, 9)) {
	case 0:		/* flipped bits and bytes */
		for (n = 1 + below(r, 8); n--; ) {
			at = below(r, b->len);
			if (chance(r, 50))
				b->data[at] ^= 1 << below(r, 8);
			else
				b->data[at] = rnd(r);
		}
		break;
	case 1:		/* cut */
		b->len = below(r, b->len);
		break;
	case 2:		/* a piece of the stream again, anywhere */
		at = below(r, b->len);
		n = b->len - at < sizeof(tmp) ? b->len - at : sizeof(tmp);
		n = below(r, n);
		memcpy(tmp, b->data + at, n);
		oa_insert(b, chance(r, 50) && nrec ? o : below(r, b->len + 1),
			  tmp, n);
		break;
	case 3:		/* a record's size */
		if (!nrec)
			break;
		memcpy(&size, b->data + o + 6, 2);
		size = chance(r, 30) ? size + (chance(r, 50) ? 1 : -1) :
		       chance(r, 80) ? sizes[below(r, ARRAY_SIZE(sizes))] :
				       (uint16_t)rnd(r);
		memcpy(b->data + o + 6, &size, 2);
		break;
	case 4:		/* a record's type */
		if (!nrec)
			break;
		type = chance(r, 80) ? types[below(r, ARRAY_SIZE(types))] :
				       (uint32_t)rnd(r);
		memcpy(b->data + o, &type, 4);
		break;
	case 5:		/* the header records again, mid-stream */
		if (nrec > 2) {
			n = offs[2];
			memcpy(tmp, b->data, n < sizeof(tmp) ? n : sizeof(tmp));
			oa_insert(b, o, tmp, n < sizeof(tmp) ? n : sizeof(tmp));
		}
		break;
	case 6:		/* garbage at the end */
		for (i = 0, n = 1 + below(r, 300); i < n; i++)
			tmp[i] = rnd(r);
		oa_put(b, tmp, n);
		break;
	case 7:		/* a huge record of a type the reader skips */
		if (nrec) {
			uint8_t *big = calloc(1, 0xffff);
			struct gpuprof_oa_record_header h = {
				.type = 0x10300, .size = 0xffff,
			};

			memcpy(big, &h, sizeof(h));
			/* Whole, or claimed and cut short. */
			oa_insert(b, o, big, chance(r, 70) ? 0xffff :
				  below(r, 0xffff));
			free(big);
		}
		break;
	case 8:		/* VERSION, or the whole header, left out */
		if (nrec > 2) {
			n = offs[chance(r, 50) ? 1 : 2];
			memmove(b->data, b->data + n, b->len - n);
			b->len -= n;
		}
		break;
	}
}

static void attack_oa(struct worker *w)
{
	struct rng *r = &w->r;
	struct gpuprof_oa_stream s;
	struct oa_buf b = { 0 };
	size_t off = 0, n, chunk;
	bool huge = chance(r, 2);
	int fd, fd2, strategy;
	long got, want;

	oa_gen(r, &b, huge);
	if (!huge && chance(r, 55)) {
		oa_mutate(r, &b);
		if (chance(r, 30))
			oa_mutate(r, &b);
		atomic_fetch_add(&oa_mutated, 1);
	}
	fd = open(GP "/oa", O_WRONLY | O_CLOEXEC |
		  (chance(r, 20) ? O_NONBLOCK : 0));
	/* Another worker may be writing a stream: one writer at a time. */
	if (!check(w, C_OA_OPEN, sys(fd), OK | E(EBUSY), "open oa", NULL, 0) ||
	    fd < 0)
		goto out;
	atomic_fetch_add(&oa_opens, 1);
	if (chance(r, 10)) {
		fd2 = open(GP "/oa", O_WRONLY | O_CLOEXEC);
		check(w, C_OA_OPEN, sys(fd2), E(EBUSY),
		      "open oa while this worker has it open", NULL, 0);
		if (fd2 >= 0) {
			atomic_fetch_add(&oa_opens, 1);
			close(fd2);
		}
	}
	gpuprof_oa_stream_init(&s, w->oa_record);
	strategy = below(r, 6);
	chunk = strategy == 1 ? 1 + below(r, 16) : 17 + below(r, 4096);
	if (strategy == 1 && b.len > 8192)
		chunk = 7 + below(r, 64);
	while (off < b.len) {
		switch (strategy) {
		case 0:
			n = b.len - off;
			break;
		case 3:
			n = 1 + below(r, 2 * chunk);
			break;
		case 5:
			n = 65536;
			break;
		default:
			n = chunk;
			break;
		}
		if (n > b.len - off)
			n = b.len - off;
		if (chance(r, 2)) {
			/* Nothing can be read from there: nothing is taken. */
			got = sys(write(fd, bad_page, n));
			check(w, C_OA_WRITE, got,
			      s.error ? E(EINVAL) : n ? E(EFAULT) : OK,
			      "oa, faulting buffer", NULL, n);
			continue;
		}
		want = gpuprof_oa_stream_feed(&s, b.data + off, n, NULL, NULL) ?
		       -EINVAL : 0;
		got = sys(write(fd, b.data + off, n));
		if (got == (long)n)
			got = 0;
		else if (got >= 0)
			got = -EIO;	/* a short count: never allowed */
		check(w, C_OA_WRITE, got, want ? E(EINVAL) : OK, "oa write",
		      b.data + off, n);
		atomic_fetch_add(&oa_bytes, n);
		if (!got)
			atomic_fetch_add(&oa_taken, n);
		off += n;
		/* A refused stream stays refused; sometimes go on to see. */
		if (want && !chance(r, 30))
			break;
		/* Or stop in the middle: a record cut by the close. */
		if (chance(r, 1))
			break;
	}
	if (gpuprof_oa_stream_end(&s))
		atomic_fetch_add(&oa_refused, 1);
	close(fd);
out:
	free(b.data);
}

/* ---- Attacks on every file ---- */

enum fk {
	FK_CTL, FK_STATUS, FK_TIMELINES, FK_OA, FK_MARKER,
	FK_NAME, FK_PATH, FK_HISTOGRAM, FK_COUNTERS, FK_PCTL, FK_NR
};

enum seek_kind { SK_NOOP, SK_SEQ, SK_SNAP };

static const struct {
	const char *name;
	bool per_target;
	bool readable;
	enum seek_kind seek;
} finfo[FK_NR] = {
	[FK_CTL] = { "ctl", false, false, SK_NOOP },
	[FK_STATUS] = { "status", false, true, SK_SEQ },
	[FK_TIMELINES] = { "timelines", false, true, SK_SEQ },
	[FK_OA] = { "oa", false, false, SK_NOOP },
	[FK_MARKER] = { "marker", false, false, SK_NOOP },
	[FK_NAME] = { "name", true, true, SK_SNAP },
	[FK_PATH] = { "path", true, true, SK_SNAP },
	[FK_HISTOGRAM] = { "histogram", true, true, SK_SNAP },
	[FK_COUNTERS] = { "counters", true, true, SK_SNAP },
	[FK_PCTL] = { "pctl", true, false, SK_NOOP },
};

/* Whether a whole snapshot reads as its kind must. */
static bool content_ok(int file, const char *s, size_t len)
{
	const char *nl;

	if (strlen(s) != len)
		return false;	/* a NUL in it */
	switch (file) {
	case FK_NAME:
		nl = strchr(s, '\n');
		return nl && (size_t)(nl - s) == len - 1;
	case FK_PATH:
		nl = strchr(s, '\n');
		return !len ||
		       (s[0] == '/' && nl && (size_t)(nl - s) == len - 1);
	case FK_HISTOGRAM:
		return histogram_ok(s);
	case FK_COUNTERS:
		return !strncmp(s, "gpu_time_ns ", 12) && s[len - 1] == '\n' &&
		       strstr(s, "\nc7 ");
	case FK_STATUS:
		return !strncmp(s, "mode: ", 6) && s[len - 1] == '\n' &&
		       strstr(s, "\ntargets: ");
	default:
		return true;
	}
}

/* The bytes a read of @count at @pos gets from a snapshot of @len. */
static size_t snap_read_len(const char *text, size_t len, int64_t pos,
			    size_t count)
{
	size_t n, whole;

	if (pos < 0 || (uint64_t)pos >= len)
		return 0;
	n = len - pos < count ? len - pos : count;
	if (pos + n < len) {
		/* Whole lines when at least one fits. */
		for (whole = n; whole && text[pos + whole - 1] != '\n'; whole--)
			;
		if (whole)
			n = whole;
	}
	return n;
}

/* The file position lseek gives a snapshot file (fixed_size_llseek). */
static int64_t snap_seek(int64_t cur, int64_t off, int whence, int64_t len)
{
	int64_t to;

	switch (whence) {
	case SEEK_SET:
		to = off;
		break;
	case SEEK_CUR:
		if (!off)
			return cur;
		to = (int64_t)((uint64_t)cur + (uint64_t)off);
		break;
	case SEEK_END:
		to = (int64_t)((uint64_t)len + (uint64_t)off);
		break;
	default:
		return -EINVAL;
	}
	return to < 0 || to > len ? -EINVAL : to;
}

static int64_t pick_offset(struct rng *r, int64_t len)
{
	static const int64_t edges[] = {
		0, 1, -1, INT64_MAX, INT64_MAX - 10, INT64_MIN, 1ll << 40,
		4096, 65536,
	};

	switch (below(r, 4)) {
	case 0:
		return edges[below(r, ARRAY_SIZE(edges))];
	case 1:
		return len + below(r, 3) - 1;
	default:
		return below(r, len + 2);
	}
}

static size_t pick_count(struct rng *r)
{
	static const size_t counts[] = { 0, 1, 2, 7, 64, 4096, BIG };

	return chance(r, 50) ? counts[below(r, ARRAY_SIZE(counts))] :
			       below(r, BIG + 1);
}

/* pread's verdict before the file is asked: the VFS checks offsets. */
static bool pread_einval(int64_t off, size_t count)
{
	return off < 0 || (uint64_t)off + count > (uint64_t)INT64_MAX;
}

static void held_close(struct held *h)
{
	if (h->fd >= 0)
		close(h->fd);
	free(h->snap);
	memset(h, 0, sizeof(*h));
	h->fd = -1;
}

/*
 * One call on a held target file.  Until the target ends every read
 * gets exactly what the snapshot and the read rules give, after that
 * ENODEV, and never anything else again.
 */
static void held_op(struct worker *w, struct held *h)
{
	struct rng *r = &w->r;
	size_t count = pick_count(r), want_n;
	int64_t off, want_pos;
	char what[64];
	long got;
	int whence;

	snprintf(what, sizeof(what), "held %d/%s", h->id, finfo[h->file].name);
	if (!h->have_snap && !h->ended) {
		/* The first whole read: the snapshot every later read is of. */
		got = sys(pread(h->fd, w->buf, BIG - 1, 0));
		if (!check(w, C_HELD_IO, got, OK | E(ENODEV), what, NULL, 0))
			return;
		if (got < 0) {
			h->ended = true;
			return;
		}
		w->buf[got] = '\0';
		if (!content_ok(h->file, w->buf, got))
			fail("worker %d: %s reads \"%.200s\"", w->idx, what,
			     w->buf);
		h->snap = malloc(got + 1);
		memcpy(h->snap, w->buf, got + 1);
		h->len = got;
		h->have_snap = true;
		return;
	}
	switch (below(r, 3)) {
	case 0:		/* read at the file position */
		got = sys(read(h->fd, w->buf, count));
		if (h->ended) {
			check(w, C_HELD_IO, got, E(ENODEV), what, NULL, 0);
			break;
		}
		if (got == -ENODEV) {
			note(C_HELD_IO, got);
			h->ended = true;
			break;
		}
		want_n = snap_read_len(h->snap, h->len, h->pos, count);
		if (got != (long)want_n ||
		    memcmp(w->buf, h->snap + h->pos, want_n)) {
			fail("worker %d: %s: read of %zu at %" PRId64
			     " got %ld, want %zu bytes of the snapshot",
			     w->idx, what, count, h->pos, got, want_n);
			note(C_HELD_IO, got);
			break;
		}
		note(C_HELD_IO, got);
		h->pos += got;
		break;
	case 1:		/* pread at any offset */
		off = pick_offset(r, h->len);
		got = sys(pread(h->fd, w->buf, count, off));
		if (pread_einval(off, count)) {
			check(w, C_HELD_IO, got, E(EINVAL), what, NULL, 0);
			break;
		}
		if (h->ended) {
			check(w, C_HELD_IO, got, E(ENODEV), what, NULL, 0);
			break;
		}
		if (got == -ENODEV) {
			note(C_HELD_IO, got);
			h->ended = true;
			break;
		}
		want_n = snap_read_len(h->snap, h->len, off, count);
		note(C_HELD_IO, got);
		if (got != (long)want_n ||
		    (want_n && memcmp(w->buf, h->snap + off, want_n)))
			fail("worker %d: %s: pread of %zu at %" PRId64
			     " got %ld, want %zu bytes of the snapshot",
			     w->idx, what, count, off, got, want_n);
		break;
	case 2:		/* lseek: the file stays seekable after the end */
		whence = chance(r, 10) ? (int)below(r, 8) : (int)below(r, 3);
		/* Relative to the position half the time; INT64_MIN wraps. */
		off = pick_offset(r, h->len);
		if (chance(r, 50))
			off = (int64_t)((uint64_t)off - (uint64_t)h->pos);
		got = sys(lseek(h->fd, off, whence));
		if (!h->have_snap) {
			check(w, C_HELD_IO, got, OK | E(EINVAL), what, NULL, 0);
			break;
		}
		want_pos = snap_seek(h->pos, off, whence, h->len);
		note(C_HELD_IO, got);
		if (got != want_pos)
			fail("worker %d: %s: lseek(%" PRId64 ", %d) at %" PRId64
			     " of %zu got %ld, want %" PRId64, w->idx, what,
			     off, whence, h->pos, h->len, got, want_pos);
		else if (got >= 0)
			h->pos = got;
		break;
	}
}

/* Calls on a file opened just now: each verdict from the file's kind. */
static void transient_ops(struct worker *w, int fd, int file, int id)
{
	struct rng *r = &w->r;
	bool rd = finfo[file].readable, tgt = finfo[file].per_target;
	uint64_t read_ok = rd ? OK | (tgt ? E(ENODEV) : 0) : E(EBADF);
	struct pollfd pfd;
	int64_t pos = 0, off;
	struct stat st;
	char what[64], call[160];
	int i, n, whence;
	unsigned long cmd;
	size_t count;
	long got;
	void *map;

	snprintf(what, sizeof(what), "%d/%s", tgt ? id : 0, finfo[file].name);
	for (i = 0, n = 1 + below(r, 6); i < n; i++) {
		switch (below(r, 9)) {
		case 0:
		case 1:
			count = pick_count(r);
			got = sys(read(fd, w->buf, count));
			snprintf(call, sizeof(call), "%s: read(%zu) at %"
				 PRId64, what, count, pos);
			/* A seq_file may be far out: the VFS checks the end. */
			check(w, C_FILE_IO, got,
			      rd && pread_einval(pos, count) ? E(EINVAL) :
			      read_ok, call, NULL, 0);
			if (got > 0)
				pos += got;
			/* A whole file in one read from the start. */
			if (got >= 0 && got < BIG && count == BIG &&
			    pos == got) {
				w->buf[got] = '\0';
				if (!content_ok(file, w->buf, got))
					fail("worker %d: %s reads \"%.200s\"",
					     w->idx, what, w->buf);
			}
			break;
		case 2:
			off = pick_offset(r, 4096);
			count = pick_count(r);
			got = sys(pread(fd, w->buf, count, off));
			snprintf(call, sizeof(call), "%s: pread(%zu, %"
				 PRId64 ")", what, count, off);
			check(w, C_FILE_IO, got,
			      off < 0 ? E(EINVAL) : !rd ? E(EBADF) :
			      pread_einval(off, count) ? E(EINVAL) : read_ok,
			      call, NULL, 0);
			break;
		case 3:
			whence = below(r, chance(r, 20) ? 8 : 3);
			off = pick_offset(r, 4096);
			got = sys(lseek(fd, off, whence));
			snprintf(call, sizeof(call), "%s: lseek(%" PRId64
				 ", %d) at %" PRId64, what, off, whence, pos);
			if (whence > SEEK_HOLE) {
				check(w, C_FILE_IO, got, E(EINVAL), call,
				      NULL, 0);
			} else if (finfo[file].seek == SK_NOOP) {
				check(w, C_FILE_IO, got, OK, call, NULL, 0);
				if (got)
					fail("worker %d: %s: lseek gave %ld,"
					     " want 0", w->idx, what, got);
			} else if (finfo[file].seek == SK_SEQ) {
				/* seq_file: SEEK_SET and SEEK_CUR only. */
				off = whence == SEEK_CUR ?
				      (int64_t)((uint64_t)pos + off) : off;
				if (whence != SEEK_SET && whence != SEEK_CUR)
					off = -1;
				check(w, C_FILE_IO, got,
				      off < 0 ? E(EINVAL) : OK, call, NULL, 0);
				if (off >= 0 && got != off)
					fail("worker %d: %s: lseek gave %ld,"
					     " want %" PRId64, w->idx, what,
					     got, off);
				if (got >= 0)
					pos = got;
			} else {
				/* Where the end is: unknown here. */
				check(w, C_FILE_IO, got, whence > SEEK_END ?
				      E(EINVAL) : OK | E(EINVAL), call, NULL,
				      0);
				if (got >= 0)
					pos = got;
			}
			break;
		case 4:		/* no poll method: always ready */
			pfd.fd = fd;
			pfd.events = POLLIN | POLLOUT;
			pfd.revents = 0;
			got = sys(poll(&pfd, 1, 0));
			check(w, C_FILE_IO, got, OK, what, NULL, 0);
			if (got != 1 || pfd.revents != (POLLIN | POLLOUT))
				fail("worker %d: %s: poll gave %ld, revents"
				     " %#x", w->idx, what, got, pfd.revents);
			break;
		case 5:		/* no ioctls at all */
			cmd = _IOC(below(r, 4), 'G', below(r, 256),
				   below(r, 64));
			got = sys(ioctl(fd, cmd, w->buf));
			check(w, C_FILE_IO, got, E(ENOTTY), what, NULL, 0);
			break;
		case 6:		/* nothing to map */
			map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
			got = map == MAP_FAILED ? -errno : 0;
			if (map != MAP_FAILED)
				munmap(map, 4096);
			check(w, C_FILE_IO, got, rd ? E(ENODEV) : E(EACCES),
			      what, NULL, 0);
			break;
		case 7:
			got = sys(fstat(fd, &st));
			check(w, C_FILE_IO, got, OK, what, NULL, 0);
			if (!got && !S_ISCHR(st.st_mode))
				fail("worker %d: %s is no char device",
				     w->idx, what);
			break;
		case 8:		/* writes belong to the other attacks */
			if (rd) {
				got = sys(write(fd, "reset\n", 6));
				check(w, C_FILE_IO, got, E(EBADF), what,
				      NULL, 0);
			}
			break;
		}
	}
}

/* A target directory lists its files and nothing else, or is gone. */
static void list_dir(struct worker *w, int id)
{
	static const char *const names[] = {
		".", "..", "name", "path", "histogram", "pctl", "counters",
		"cgroup",
	};
	char path[64];
	struct dirent *d;
	size_t i;
	DIR *dir;

	snprintf(path, sizeof(path), GP "/%d", id);
	dir = opendir(path);
	if (!check(w, C_FILE_OPEN, dir ? 0 : -errno, OK | E(ENOENT), path,
		   NULL, 0) || !dir)
		return;
	while ((d = readdir(dir))) {
		for (i = 0; i < ARRAY_SIZE(names); i++)
			if (!strcmp(d->d_name, names[i]))
				break;
		if (i == ARRAY_SIZE(names))
			fail("worker %d: %s holds \"%s\"", w->idx, path,
			     d->d_name);
	}
	closedir(dir);
}

static void attack_files(struct worker *w)
{
	static const int accs[] = { O_RDONLY, O_RDONLY, O_WRONLY, O_RDWR };
	struct rng *r = &w->r;
	struct held *h = &w->held[below(r, HELD)];
	int file, acc, flags, fd, id = 0;
	char path[64];
	uint64_t set;
	long got;

	if (chance(r, 5)) {
		list_dir(w, pick_id(w));
		return;
	}
	/* Half the time, a file held open across whatever happens. */
	if (chance(r, 50)) {
		if (h->fd < 0) {
			h->id = pick_id(w);
			h->file = FK_NAME + below(r, 4);
			flags = O_RDONLY | (chance(r, 30) ? O_NONBLOCK : 0);
			fd = open_target(h->id, finfo[h->file].name, flags);
			if (check(w, C_FILE_OPEN, sys(fd),
				  OK | E(ENOENT) | E(ENODEV), "held open",
				  NULL, 0) && fd >= 0)
				h->fd = fd;
		} else if (chance(r, 10)) {
			held_close(h);
		} else {
			held_op(w, h);
		}
		return;
	}

	file = below(r, FK_NR);
	acc = accs[below(r, ARRAY_SIZE(accs))];
	flags = acc | O_CLOEXEC | (chance(r, 30) ? O_NONBLOCK : 0) |
		(chance(r, 10) ? O_NOCTTY : 0);
	if (finfo[file].per_target) {
		id = pick_id(w);
		fd = open_target(id, finfo[file].name, flags);
	} else {
		snprintf(path, sizeof(path), GP "/%s", finfo[file].name);
		fd = open(path, flags);
	}
	/* Opened for reading only if readable, for writing only if writable. */
	if (finfo[file].readable)
		set = acc == O_RDONLY ? OK : E(EACCES);
	else
		set = acc == O_WRONLY ? OK : E(EACCES);
	if (file == FK_OA && acc == O_WRONLY)
		set |= E(EBUSY);
	if (finfo[file].per_target)
		set |= E(ENOENT) | E(ENODEV);
	got = sys(fd);
	if (!check(w, C_FILE_OPEN, got, set, finfo[file].name, NULL, 0) ||
	    fd < 0)
		return;
	if (file == FK_OA)
		atomic_fetch_add(&oa_opens, 1);
	transient_ops(w, fd, file, id);
	close(fd);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned int total = 0, k, a;
	int i;

	for (a = 0; a < A_NR; a++)
		total += attack_weight[a];
	while (!atomic_load(&stop_flag)) {
		/*
		 * Each attack draws from a seed of its own: what one attack
		 * met (a busy file, a target gone) changes none after it.
		 */
		w->r.s = rnd(&w->stream);
		k = below(&w->r, total);
		for (a = 0; k >= attack_weight[a]; a++)
			k -= attack_weight[a];
		atomic_fetch_add(&attacks[a], 1);
		w->op++;
		switch (a) {
		case A_CTL_RANDOM:
			attack_ctl_random(w);
			break;
		case A_PCTL_RANDOM:
			attack_pctl_random(w);
			break;
		case A_CTL_GRAMMAR:
			attack_ctl_grammar(w);
			break;
		case A_PCTL_GRAMMAR:
			attack_pctl_grammar(w);
			break;
		case A_ENDED:
			attack_ended(w);
			break;
		case A_OA:
			attack_oa(w);
			break;
		case A_FILES:
			attack_files(w);
			break;
		case A_MARKER:
			attack_marker(w);
			break;
		}
	}
	for (i = 0; i < HELD; i++)
		held_close(&w->held[i]);
	return NULL;
}

/* ---- Load: fence storms and process churn ---- */

static void storm(int i, uint64_t s)
{
	struct rng r = { s };
	uint32_t bo[4];
	int pending[4] = { -1, -1, -1, -1 };
	char name[16];
	uint64_t size;
	int fd, b, j, n, f;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	snprintf(name, sizeof(name), "fz_storm%d", i);
	prctl(PR_SET_NAME, name);
	fd = vgem_open();
	if (fd < 0)
		_exit(1);
	for (b = 0; b < 4; b++)
		if (vgem_bo_create(fd, 64, 64, &bo[b], &size))
			_exit(1);
	while (!atomic_load(&load->stop)) {
		for (j = 0, n = 1 + below(&r, 16); j < n; j++) {
			/* One fence in flight per buffer: vgem's rule. */
			b = below(&r, 4);
			if (pending[b] >= 0)
				vgem_fence_signal(fd, pending[b]);
			pending[b] = f = vgem_fence_attach(fd, bo[b]);
			if (f < 0) {
				atomic_fetch_add(&load->errors, 1);
				continue;
			}
			atomic_fetch_add(&load->storm_fences, 1);
			if (chance(&r, 30)) {
				b = below(&r, 4);
				if (pending[b] >= 0)
					vgem_fence_signal(fd, pending[b]);
				pending[b] = -1;
			}
		}
		/* Sometimes with fences in flight for a while. */
		sleep_ms(chance(&r, 10) ? 1 + below(&r, 3) : 0);
		/* Bursts, not a flood: under TCG the workers need the CPUs. */
		usleep(1000 + below(&r, 4000));
	}
	for (b = 0; b < 4; b++)
		if (pending[b] >= 0)
			vgem_fence_signal(fd, pending[b]);
	_exit(0);
}

/* One short-lived process: a buffer, a few fences, maybe one left. */
static void churn_one(uint64_t s)
{
	static const char *const names[] = {
		"fz_churn", "fz_churn", "fz_c1", "fz_n1",
	};
	struct rng r = { s };
	uint32_t bo;
	uint64_t size;
	int fd, k, n, f;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	prctl(PR_SET_NAME, names[below(&r, ARRAY_SIZE(names))]);
	/* Rarely: starting a sanitized program costs much under TCG. */
	if (chance(&r, 1)) {
		atomic_fetch_add(&load->execs, 1);
		execl(gpuwork_path(), "gpuwork", "-n", "fz_exec", "fences", "2",
		      (char *)NULL);
		_exit(127);
	}
	fd = vgem_open();
	if (fd < 0 || vgem_bo_create(fd, 64 << below(&r, 5),
				     1 + below(&r, 256), &bo, &size))
		_exit(1);
	for (k = 0, n = 1 + below(&r, 5); k < n; k++) {
		f = vgem_fence_attach(fd, bo);
		if (f < 0)
			_exit(1);
		atomic_fetch_add(&load->churn_fences, 1);
		/* The last one may go with the process, still in flight. */
		if (k == n - 1 && chance(&r, 20)) {
			atomic_fetch_add(&load->in_flight_exits, 1);
			_exit(0);
		}
		vgem_fence_signal(fd, f);
	}
	_exit(0);
}

static void churner(uint64_t s)
{
	struct rng r = { s };
	int alive = 0, st;
	pid_t pid;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	prctl(PR_SET_NAME, "fz_churner");
	while (!atomic_load(&load->stop)) {
		while (alive >= 4 && wait(&st) > 0)
			alive--;
		pid = fork();
		if (pid == 0)
			churn_one(rnd(&r));
		if (pid > 0) {
			alive++;
			atomic_fetch_add(&load->churned, 1);
		} else {
			rnd(&r);
			atomic_fetch_add(&load->errors, 1);
		}
		while (waitpid(-1, &st, WNOHANG) > 0)
			alive--;
		/* A fork of this (sanitized) program is dear under TCG. */
		usleep(30000 + below(&r, 60000));
	}
	while (wait(&st) > 0)
		;
	_exit(0);
}

/* ---- Set-up, figures, and the kernel's log ---- */

static unsigned int fuzz_seconds(void)
{
	const char *s = getenv("GPUPROF_DEVICE_FUZZ_SECONDS");
	long v = s ? strtol(s, NULL, 10) : 0;

	return v > 0 ? v : DEFAULT_SECONDS;
}

static uint64_t fuzz_seed(void)
{
	const char *s = getenv("GPUPROF_FUZZ_SEED");
	struct timespec ts;

	if (s && *s)
		return strtoull(s, NULL, 0);
	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000000007ull ^ ts.tv_nsec ^
	       (uint64_t)getpid() << 32;
}

static void touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);

	if (fd >= 0)
		close(fd);
}

/* Paths of every kind a "module" NAME can be, some in a directory of ours. */
static int make_paths(void)
{
	static char gw[PATH_MAX];
	size_t base;

	strcpy(tmpdir, "/tmp/fzXXXXXX");
	if (!mkdtemp(tmpdir))
		return -errno;
	base = strlen(tmpdir) + 1;
	snprintf(path_long_ok, sizeof(path_long_ok), "%s/%0*d", tmpdir,
		 (int)(GPUPROF_PATH_MAX - base), 0);
	memset(path_long_ok + base, 'l', GPUPROF_PATH_MAX - base);
	snprintf(path_long_missing, sizeof(path_long_missing), "%s",
		 path_long_ok);
	memset(path_long_missing + base, 'n', GPUPROF_PATH_MAX - base);
	snprintf(path_long_over, sizeof(path_long_over), "%s/%0*d", tmpdir,
		 (int)(GPUPROF_PATH_MAX + 1 - base), 0);
	memset(path_long_over + base, 'o', GPUPROF_PATH_MAX + 1 - base);
	touch(path_long_ok);
	touch(path_long_over);
	snprintf(path_file, sizeof(path_file), "%s/file", tmpdir);
	touch(path_file);
	snprintf(path_link, sizeof(path_link), "%s/link", tmpdir);
	snprintf(gw, sizeof(gw), "%s", gpuwork_path());
	if (symlink(gw, path_link))
		return -errno;
	snprintf(path_dangling, sizeof(path_dangling), "%s/dangling", tmpdir);
	if (symlink("/no/such/target", path_dangling))
		return -errno;
	snprintf(path_fifo, sizeof(path_fifo), "%s/fifo", tmpdir);
	if (mkfifo(path_fifo, 0600))
		return -errno;
	if (strlen(path_long_ok) != GPUPROF_PATH_MAX ||
	    strlen(path_long_over) != GPUPROF_PATH_MAX + 1)
		return -EINVAL;

	npaths = 0;
	paths[npaths++] = "/proc/self/exe";	/* this program, the load's */
	paths[npaths++] = gw;
	paths[npaths++] = "/bin/sh";
	paths[npaths++] = "/usr/bin/env";
	paths[npaths++] = path_long_ok;
	paths[npaths++] = path_long_missing;
	paths[npaths++] = path_long_over;
	paths[npaths++] = path_file;
	paths[npaths++] = path_link;
	paths[npaths++] = path_dangling;
	paths[npaths++] = path_fifo;
	paths[npaths++] = tmpdir;
	paths[npaths++] = "/dev/null";
	paths[npaths++] = "/dev/gpuprof/ctl";
	paths[npaths++] = "/etc";
	paths[npaths++] = "/";
	paths[npaths++] = "//bin//sh";
	paths[npaths++] = "/no/such/program";
	paths[npaths++] = "/etc/passwd/x";
	paths[npaths++] = "/bin/sh/";
	paths[npaths++] = "rel/x";
	paths[npaths++] = "/proc/self/fd/0";
	return 0;
}

static void remove_paths(void)
{
	unlink(path_long_ok);
	unlink(path_long_over);
	unlink(path_file);
	unlink(path_link);
	unlink(path_dangling);
	unlink(path_fifo);
	rmdir(tmpdir);
}

static void print_results(void)
{
	char line[1024];
	size_t o;
	long v;
	int c, e;

	o = snprintf(line, sizeof(line), "# fuzz: attacks:");
	for (c = 0; c < A_NR; c++)
		o += snprintf(line + o, sizeof(line) - o, " %s %ld",
			      attack_names[c], atomic_load(&attacks[c]));
	printf("%s\n", line);
	for (c = 0; c < C_NR; c++) {
		o = snprintf(line, sizeof(line), "# fuzz: %s:", cls_names[c]);
		for (e = 0; e < NERR; e++) {
			v = atomic_load(&results[c][e]);
			if (v)
				o += snprintf(line + o, sizeof(line) - o,
					      " %s %ld",
					      e ? errname(e) : "ok", v);
		}
		printf("%s\n", line);
	}
}

static pid_t spawn(void (*fn)(int, uint64_t), int i, uint64_t s)
{
	pid_t pid = fork();

	if (pid == 0)
		fn(i, s);
	return pid;
}

static void churner_main(int i, uint64_t s)
{
	(void)i;
	churner(s);
}

/* Run gpuwork as "fz_final": K jobs. */
static int final_jobs(int k)
{
	char args[64];

	snprintf(args, sizeof(args), "-n fz_final fences %d", k);
	return gpuwork(args);
}

FIXTURE(fuzz) {};
FIXTURE_SETUP(fuzz) {}
FIXTURE_TEARDOWN(fuzz) {}

TEST_F_TIMEOUT(fuzz, attack_under_load, 300)
{
	static struct worker workers[WORKERS];
	static const char *const drops[] = {
		"targets", "timelines", "jobs_in_flight", "buffers_live",
		"dropped_targets", "dropped_jobs", "dropped_clients",
		"dropped_buffers", "dropped_timelines",
		"dropped_histogram_keys",
		"unattributed_jobs", "unattributed_buffers",
		"timeline_names_cut", "unreadable_paths", "oa_streams",
		"oa_bytes", "oa_reports", "oa_report_lost", "oa_buffer_lost",
		"oa_rejected_streams", "oa_unattributed_reports",
		"oa_unplaced_reports", "oa_context_switch_deltas",
		"oa_other_reasons", "oa_unknown_records", "oa_learned_contexts",
	};
	unsigned int seconds = fuzz_seconds();
	pid_t kids[STORMS + 1];
	struct rng master;
	char status[8192], want[64], line[2048];
	struct oa_buf b = { 0 };
	struct kwatch watch;
	int i, st, id, tl, bad;
	size_t o;
	time_t t0;

	if (!getenv("GPUPROF_IN_VM"))
		SKIP(return, "loads gpuprof.ko: runs in the test VM only");
	seed = fuzz_seed();
	master.s = seed;
	printf("# fuzz: seed 0x%" PRIx64 " (GPUPROF_FUZZ_SEED=0x%" PRIx64
	       " repeats it), %u s (GPUPROF_DEVICE_FUZZ_SECONDS)\n",
	       seed, seed, seconds);
	fflush(stdout);

	ASSERT_EQ(0, gpuprof_load(NULL));
	/* After the load: loading an out-of-tree module taints by itself. */
	ASSERT_EQ(0, kwatch_start(&watch)) TH_LOG("/dev/kmsg: %s", strerror(errno));
	ASSERT_EQ(0, make_paths()) TH_LOG("paths in /tmp: %s", strerror(errno));
	bad_page = mmap(NULL, 8192, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);
	ASSERT_NE(MAP_FAILED, bad_page);
	load = mmap(NULL, sizeof(*load), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, load);
	memset(load, 0, sizeof(*load));

	/* The load first: forks of a process without threads yet. */
	fflush(NULL);
	for (i = 0; i < STORMS; i++) {
		kids[i] = spawn(storm, i, rnd(&master));
		ASSERT_LT(0, kids[i]);
	}
	kids[STORMS] = spawn(churner_main, 0, rnd(&master));
	ASSERT_LT(0, kids[STORMS]);

	for (i = 0; i < WORKERS; i++) {
		workers[i].idx = i;
		workers[i].stream.s = rnd(&master);
		workers[i].ctl_fd = open(GP "/ctl", O_WRONLY | O_CLOEXEC);
		workers[i].buf = malloc(BIG);
		workers[i].oa_record = malloc(GPUPROF_OA_RECORD_MAX);
		for (st = 0; st < HELD; st++)
			workers[i].held[st].fd = -1;
		ASSERT_TRUE(workers[i].buf && workers[i].oa_record);
		ASSERT_EQ(0, pthread_create(&workers[i].thread, NULL,
					    worker_main, &workers[i]));
	}
	t0 = time(NULL);
	while (time(NULL) < t0 + (time_t)seconds && !atomic_load(&failures))
		sleep_ms(200);
	atomic_store(&stop_flag, 1);
	for (i = 0; i < WORKERS; i++) {
		pthread_join(workers[i].thread, NULL);
		if (workers[i].ctl_fd >= 0)
			close(workers[i].ctl_fd);
		free(workers[i].buf);
		free(workers[i].oa_record);
	}
	atomic_store(&load->stop, 1);
	for (i = 0; i <= STORMS; i++) {
		waitpid(kids[i], &st, 0);
		EXPECT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st))
			TH_LOG("load process %d: status %#x", i, st);
	}

	printf("# fuzz: %ld s of attacks by %d workers against %d fence storms"
	       " and a churner\n", (long)(time(NULL) - t0), WORKERS, STORMS);
	print_results();
	printf("# fuzz: oa: %ld streams opened, %ld of them mutated, %ld"
	       " refused (as predicted, checked below), %ld bytes written,"
	       " %ld taken\n",
	       atomic_load(&oa_opens), atomic_load(&oa_mutated),
	       atomic_load(&oa_refused), atomic_load(&oa_bytes),
	       atomic_load(&oa_taken));
	printf("# fuzz: load: %ld fences submitted (storms %ld, churn %ld),"
	       " %ld processes churned (%ld exec'd gpuwork, %ld exited with a"
	       " fence in flight), %ld load errors\n",
	       atomic_load(&load->storm_fences) +
	       atomic_load(&load->churn_fences),
	       atomic_load(&load->storm_fences),
	       atomic_load(&load->churn_fences),
	       atomic_load(&load->churned), atomic_load(&load->execs),
	       atomic_load(&load->in_flight_exits), atomic_load(&load->errors));
	printf("# fuzz: model: %ld state checks, %ld fills to the target limit,"
	       " %ld module commands that may have met the limit, %ld"
	       " recoveries\n", atomic_load(&state_checks), atomic_load(&fills),
	       atomic_load(&limit_uncertain), atomic_load(&recoveries));
	fflush(stdout);
	EXPECT_EQ(0, atomic_load(&load->errors));
	EXPECT_LT(0, atomic_load(&load->storm_fences));

	/* The module must still work, exactly. */
	ASSERT_EQ(0, ctl("stop\n"));
	ASSERT_EQ(0, ctl("end\n"));
	EXPECT_EQ(0, status_num("targets"));
	EXPECT_EQ(0, status_num("jobs_in_flight"));
	ASSERT_EQ(0, read_file(GP "/status", status, sizeof(status)) <= 0);
	EXPECT_TRUE(kv_is(status, "mode", "idle"));
	EXPECT_EQ(atomic_load(&oa_opens), kv_num(status, "oa_streams"));
	EXPECT_EQ(atomic_load(&oa_refused),
		  kv_num(status, "oa_rejected_streams"));

	ASSERT_EQ(0, ctl("interval 100\n"));
	ASSERT_EQ(0, ctl("module fz_final\n"));
	id = find_target("fz_final");
	ASSERT_LT(0, id);
	ASSERT_EQ(0, ctl("startcp\n"));
	ASSERT_EQ(0, final_jobs(25));
	ASSERT_EQ(0, ctl("stop\n"));
	tl = timeline_id("vgem", "unbound");
	ASSERT_LE(0, tl);
	snprintf(want, sizeof(want), "%d 25\n", tl);
	ASSERT_LT(0, target_file(id, "histogram", line, sizeof(line)));
	EXPECT_STREQ(want, line);
	/* A known OA stream bound to it: exactly its deltas. */
	snprintf(line, sizeof(line), GP "/%d/pctl", id);
	ASSERT_EQ(0, write_file(line, "ctxid 42\n"));
	oa_header(&b, 0x9a49, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8);
	oa_correlation(&b, mono_ns(), 1000000000ull);
	for (i = 0; i < 10; i++)
		oa_report(&b, i, 1000000000u + i * 19200u, 0x42,
			  GPUPROF_OA_REASON_TIMER);
	ASSERT_EQ(0, write_file_len(GP "/oa", b.data, b.len));
	free(b.data);
	EXPECT_EQ(10, oa_counter(id, "reports"));
	EXPECT_EQ(900, oa_counter(id, "a0"));
	EXPECT_EQ(63, oa_counter(id, "a33"));

	/* The module's own figures. */
	ASSERT_LT(0, read_file(GP "/status", status, sizeof(status)));
	o = snprintf(line, sizeof(line), "# fuzz: status:");
	for (i = 0; i < (int)ARRAY_SIZE(drops); i++)
		o += snprintf(line + o, sizeof(line) - o, " %s %lld", drops[i],
			      kv_num(status, drops[i]));
	printf("%s\n", line);
	EXPECT_EQ(atomic_load(&oa_opens) + 1, kv_num(status, "oa_streams"));
	ASSERT_EQ(0, ctl("end\n"));
	EXPECT_EQ(0, status_num("targets"));
	EXPECT_EQ(0, gpuprof_unload());

	/* And the kernel said nothing bad, and set no new taint. */
	bad = kwatch_bad_lines(&watch, stdout);
	printf("# fuzz: kernel log: %ld lines since the start, %d bad; taint"
	       " %#lx, then %#lx\n", watch.lines, bad, watch.taint,
	       kernel_taint());
	fflush(stdout);
	EXPECT_EQ(0, bad);
	EXPECT_EQ(0, kwatch_new_taint(&watch));
	kwatch_stop(&watch);
	remove_paths();
	munmap(bad_page, 8192);
	EXPECT_EQ(0, atomic_load(&failures))
		TH_LOG("seed 0x%" PRIx64 ": see the FAIL lines", seed);
}

/* The harness's timeout, for the duration asked for. */
static void __attribute__((constructor)) fuzz_timeout(void)
{
	_fuzz_attack_under_load_object.timeout = 2 * fuzz_seconds() + 240;
}

TEST_HARNESS_MAIN
