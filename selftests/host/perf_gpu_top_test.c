// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu top ($GPUPROF_PERF_GPU) on fake proc roots made here in a
 * temporary directory: PROC/PID/comm and PROC/PID/fdinfo/FD texts in the
 * drm-usage-stats form of i915, xe, amdgpu and msm.
 *
 * - --batch text: the exact rows (names, pids, memory), a client with two
 *   fds counted once, a process without DRM fds left out; sorting; -p.
 * - utilisation between two samples: exact for cycles over total cycles
 *   (xe); for busy ns (i915) it is over wall time, which the test only
 *   bounds (from its own clock around the two samples): SIGUSR1 takes the
 *   second sample when the test has changed the counters.
 * - --format=json: every line parsed by python3, keys as documented.
 * - cgroups: PROC/PID/cgroup's v2 line as the CGROUP column, JSON field
 *   and OpenMetrics label; --by cgroup sums a cgroup's clients.
 * - client names (drm-client-name): the CLIENT_NAME column, JSON field,
 *   OpenMetrics label and perf gpu list column, also over --connect.
 * - the terminal view under tmux: rows, sort keys, resizes, q and Ctrl-C,
 *   the terminal restored (stty, alternate screen, cursor).
 * - --openmetrics: the exact file, its grammar (a parser here, and
 *   promtool when there is one), rewrites a reader never sees half done.
 * - --listen and --connect: a second top shows the first one's clients.
 * - the gpuprof module's summary from --device-root.
 * - bad options and sources: one error line, a non-zero status, no crash.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/clock.h"
#include "../lib/files.h"
#include "../lib/run.h"
#include "../lib/setup_provides.h"

#define OUT_SIZE	(1 << 17)

FIXTURE(top) {
	char dir[64];
	char proc[96];
	char tmux_sock[64];
	char out[OUT_SIZE];
};

FIXTURE_SETUP(top)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/perf_gpu_top.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->proc, sizeof(self->proc), "%s/proc", self->dir);
	ASSERT_EQ(0, mkdir(self->proc, 0755));
	snprintf(self->tmux_sock, sizeof(self->tmux_sock), "perf-gpu-top-%d",
		 (int)getpid());
}

FIXTURE_TEARDOWN(top)
{
	char out[256];

	/* Our own tmux server only (its socket is named after this pid). */
	run_cmd(out, sizeof(out), "tmux -L %s kill-server 2>/dev/null",
		self->tmux_sock);
	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

/*
 * Write @path whole, through a rename: a running top must see the old
 * text or the new one, as it would from a real kernel.  Directories are
 * made as needed.
 */
static int put(const char *path, const char *text)
{
	char tmp[PATH_MAX], dir[PATH_MAX], *p;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", path);
	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	fputs(text, f);
	if (fclose(f))
		return -1;
	return rename(tmp, path);
}

/* PROC/@pid/comm (@comm, newline added) and PROC/@pid/fdinfo/@fd. */
static int proc_fd(FIXTURE_DATA(top) *self, int pid, const char *comm, int fd,
		   const char *text)
{
	char path[PATH_MAX], line[64];

	snprintf(path, sizeof(path), "%s/%d/comm", self->proc, pid);
	snprintf(line, sizeof(line), "%s\n", comm);
	if (put(path, line))
		return -1;
	snprintf(path, sizeof(path), "%s/%d/fdinfo/%d", self->proc, pid, fd);
	return put(path, text);
}

/* PROC/@pid/cgroup: @text as /proc/PID/cgroup gives it. */
static int proc_cgroup(FIXTURE_DATA(top) *self, int pid, const char *text)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%d/cgroup", self->proc, pid);
	return put(path, text);
}

/* An i915 client's fdinfo as i915_drm_client_fdinfo() prints it. */
static const char *i915(unsigned int id, uint64_t render_ns, uint64_t copy_ns,
			unsigned int resident_kib)
{
	static char buf[8][1024];
	static unsigned int n;
	char *b = buf[n++ % 8];

	snprintf(b, sizeof(buf[0]),
		 "pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t1061\n"
		 "drm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\n"
		 "drm-client-id:\t%u\n"
		 "drm-engine-render:\t%llu ns\ndrm-engine-copy:\t%llu ns\n"
		 "drm-total-system0:\t%u KiB\ndrm-resident-system0:\t%u KiB\n",
		 id, (unsigned long long)render_ns, (unsigned long long)copy_ns,
		 2 * resident_kib, resident_kib);
	return b;
}

/* The same with all five engine classes and a local memory region. */
static const char *i915_wide(unsigned int id, unsigned int resident_kib)
{
	static char buf[8][1024];
	static unsigned int n;
	char *b = buf[n++ % 8];

	snprintf(b, sizeof(buf[0]),
		 "drm-driver:\ti915\ndrm-pdev:\t0000:03:00.0\n"
		 "drm-client-id:\t%u\n"
		 "drm-engine-render:\t0 ns\ndrm-engine-copy:\t0 ns\n"
		 "drm-engine-video:\t0 ns\ndrm-engine-video-enhance:\t0 ns\n"
		 "drm-engine-compute:\t0 ns\n"
		 "drm-resident-system0:\t%u KiB\ndrm-resident-local0:\t1024 KiB\n",
		 id, resident_kib);
	return b;
}

/* An xe client: utilisation from cycles over total cycles. */
static const char *xe(unsigned int id, uint64_t cycles, uint64_t total)
{
	static char buf[4][512];
	static unsigned int n;
	char *b = buf[n++ % 4];

	snprintf(b, sizeof(buf[0]),
		 "drm-driver:\txe\ndrm-pdev:\t0000:04:00.0\ndrm-client-id:\t%u\n"
		 "drm-cycles-rcs:\t%llu\ndrm-total-cycles-rcs:\t%llu\n"
		 "drm-total-vram0:\t4 MiB\n",
		 id, (unsigned long long)cycles, (unsigned long long)total);
	return b;
}

/*
 * Three i915 clients (one with two fds of the same client) and a shell
 * with no DRM fd.  Utilisation 0 (counters still), memory 303 > 101 >
 * 202, comm Xorg < alacritty < glxgears: each sort gives its own order.
 * 101 and 202 in one cgroup (202's file as a machine with v1 controllers
 * mounted too gives it: the v2 line is not the first), 303 in none.
 */
static int basic_root(FIXTURE_DATA(top) *self)
{
	return proc_cgroup(self, 101, "0::/user.slice/session-2.scope\n") ||
	       proc_cgroup(self, 202, "12:cpu,cpuacct:/other\n1:name=systemd:/x\n"
			   "0::/user.slice/session-2.scope\n") ||
	       proc_fd(self, 101, "glxgears", 4, i915(7, 1000000, 0, 4096)) ||
	       proc_fd(self, 101, "glxgears", 5, i915(7, 1000000, 0, 4096)) ||
	       proc_fd(self, 202, "alacritty", 5, i915(8, 5000000, 200, 1024)) ||
	       proc_fd(self, 303, "Xorg", 6, i915(9, 0, 0, 16384)) ||
	       proc_fd(self, 404, "bash", 0,
		       "pos:\t0\nflags:\t02\nmnt_id:\t26\nino:\t5\n");
}

#define BASIC_DEVICES \
	"GPU PDEV             DRIVER   CLIENTS  render    copy     system0\n" \
	"  0 0000:00:02.0     i915           3   0.00%   0.00%   21.00 MiB\n" \
	"\n"
#define CLIENTS_HEADER \
	"    PID COMM             DRIVER   GPU  render    copy     system0 CGROUP\n"

static const char basic_first[] =
	"perf gpu top - local - 3 clients on 1 device - sort util - every 0.20s - sample 1\n"
	"\n" BASIC_DEVICES CLIENTS_HEADER
	"    101 glxgears         i915       0       -       -    4.00 MiB /user.slice/session-2.scope\n"
	"    202 alacritty        i915       0       -       -    1.00 MiB /user.slice/session-2.scope\n"
	"    303 Xorg             i915       0       -       -   16.00 MiB -\n"
	"\n";
static const char basic_second[] =
	"perf gpu top - local - 3 clients on 1 device - sort util - every 0.20s - sample 2\n"
	"\n" BASIC_DEVICES CLIENTS_HEADER
	"    101 glxgears         i915       0   0.00%   0.00%    4.00 MiB /user.slice/session-2.scope\n"
	"    202 alacritty        i915       0   0.00%   0.00%    1.00 MiB /user.slice/session-2.scope\n"
	"    303 Xorg             i915       0   0.00%   0.00%   16.00 MiB -\n"
	"\n";

/* perf gpu top --proc-root PROC @args..., stderr joined: its status. */
__attribute__((format(printf, 2, 3)))
static int top(FIXTURE_DATA(top) *self, const char *fmt, ...)
{
	char args[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	return run_cmd(self->out, sizeof(self->out), "%s top --proc-root %s %s",
		       perf_gpu_path(), self->proc, args);
}

/* The pids of the client rows of the first refresh in self->out. */
static const char *pid_order(FIXTURE_DATA(top) *self)
{
	static char order[256];
	const char *p = strstr(self->out, "    PID COMM");
	size_t len = 0;
	int pid;

	order[0] = '\0';
	if (!p)
		return order;
	for (p = strchr(p, '\n') + 1; sscanf(p, "%d", &pid) == 1 && *p != '\n';
	     p = strchr(p, '\n') + 1)
		len += snprintf(order + len, sizeof(order) - len, "%s%d",
				len ? " " : "", pid);
	return order;
}

TEST_F(top, batch_prints_each_refresh_with_exact_rows)
{
	char expected[4096];

	ASSERT_EQ(0, basic_root(self));
	ASSERT_EQ(0, top(self, "--batch -n 2 -d 0.2")) TH_LOG("%s", self->out);
	snprintf(expected, sizeof(expected), "%s%s", basic_first, basic_second);
	EXPECT_STREQ(expected, self->out);
}

TEST_F(top, sort_keys_order_the_rows)
{
	ASSERT_EQ(0, basic_root(self));
	ASSERT_EQ(0, top(self, "-b -n 1 -s mem")) TH_LOG("%s", self->out);
	EXPECT_STREQ("303 101 202", pid_order(self));
	EXPECT_NE(NULL, strstr(self->out, " - sort mem - "));
	ASSERT_EQ(0, top(self, "-b -n 1 --sort comm"));
	EXPECT_STREQ("303 202 101", pid_order(self));
	ASSERT_EQ(0, top(self, "-b -n 1 -s pid"));
	EXPECT_STREQ("101 202 303", pid_order(self));
	/* Utilisation all 0: ties go by pid. */
	ASSERT_EQ(0, top(self, "-b -n 1 -s util"));
	EXPECT_STREQ("101 202 303", pid_order(self));
}

TEST_F(top, pid_filter_keeps_one_process_and_device_totals)
{
	ASSERT_EQ(0, basic_root(self));
	ASSERT_EQ(0, top(self, "-b -n 1 -p 202")) TH_LOG("%s", self->out);
	EXPECT_STREQ("perf gpu top - local - 1 of 3 clients on 1 device - sort util - every 1.00s - sample 1\n"
		     "\n" BASIC_DEVICES CLIENTS_HEADER
		     "    202 alacritty        i915       0       -       -    1.00 MiB /user.slice/session-2.scope\n"
		     "\n", self->out);
	ASSERT_EQ(0, top(self, "-b -n 1 -p 999"));
	EXPECT_STREQ("", pid_order(self));
}

/*
 * --by cgroup: a row per cgroup, its clients' values summed (4 + 1 MiB,
 * render 1 + 5 ms of busy time), the process outside any cgroup a row
 * of its own; in JSON as "cgroups", each client keeping its "cgroup".
 */
TEST_F(top, by_cgroup_sums_the_clients_of_each_cgroup)
{
	char path[256];

	ASSERT_EQ(0, basic_root(self));
	ASSERT_EQ(0, top(self, "-b -n 1 --by cgroup -s mem")) TH_LOG("%s", self->out);
	EXPECT_STREQ("perf gpu top - local - 3 clients on 1 device in 2 cgroups - sort mem - every 1.00s - sample 1\n"
		     "\n" BASIC_DEVICES
		     "CLIENTS  render    copy     system0 CGROUP\n"
		     "      1       -       -   16.00 MiB -\n"
		     "      2       -       -    5.00 MiB /user.slice/session-2.scope\n"
		     "\n", self->out);
	/* By path when sorted by pid or comm; -p first narrows the clients. */
	ASSERT_EQ(0, top(self, "-b -n 1 --by cgroup -s comm -p 202"));
	EXPECT_NE(NULL, strstr(self->out, "in 1 cgroup - sort comm"));
	EXPECT_NE(NULL, strstr(self->out, "\n      1       -       -    1.00 MiB /user.slice/session-2.scope\n\n"))
		TH_LOG("%s", self->out);
	snprintf(path, sizeof(path), "%s/by.json", self->dir);
	ASSERT_EQ(0, top(self, "-b -n 1 --by cgroup --format=json -s pid >%s", path));
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "python3 -c 'import json,sys\n"
			     "d = json.loads(open(sys.argv[1]).read())\n"
			     "print([(c[\"pid\"], c[\"cgroup\"]) for c in d[\"clients\"]])\n"
			     "for g in d[\"cgroups\"]:\n"
			     "    print(g[\"cgroup\"], g[\"clients\"], g[\"engines\"][\"render\"][\"busy_ns\"], g[\"memory\"][\"system0\"])' %s",
			     path)) TH_LOG("%s", self->out);
	EXPECT_STREQ("[(101, '/user.slice/session-2.scope'), (202, '/user.slice/session-2.scope'), (303, None)]\n"
		     "None 1 0 16777216\n"
		     "/user.slice/session-2.scope 2 6000000 5242880\n", self->out);
	/* A word that is not a grouping: one line, nothing else. */
	EXPECT_NE(0, top(self, "-b -n 1 --by pod"));
	EXPECT_STREQ("perf gpu top: unknown grouping 'pod' (client,cgroup)\n", self->out);
}

/* Wait until @path holds @needle: true, or false after @ms. */
static bool wait_file(const char *path, const char *needle, unsigned int ms)
{
	static char buf[OUT_SIZE];
	uint64_t end = mono_ns() + ms * 1000000ull;

	do {
		if (read_file(path, buf, sizeof(buf)) >= 0 && strstr(buf, needle))
			return true;
		sleep_ms(10);
	} while (mono_ns() < end);
	return false;
}

/* Run @cmd (a shell command) in the background. */
static pid_t spawn(const char *cmd)
{
	pid_t pid = fork();

	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* @pid's exit status; -1 after @ms, the process then killed. */
static int wait_exit(pid_t pid, unsigned int ms)
{
	uint64_t end = mono_ns() + ms * 1000000ull;
	int st;

	do {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		sleep_ms(10);
	} while (mono_ns() < end);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return -1;
}

/* Column @col (0-based, after PID COMM DRIVER GPU) of @pid's row in @text. */
static const char *cell(const char *text, int pid, int col)
{
	static char word[64];
	char prefix[32];
	const char *p;
	int i, n;

	snprintf(prefix, sizeof(prefix), "\n%7d ", pid);
	p = strstr(text, prefix);
	if (!p)
		return "";
	p += strlen(prefix);
	for (i = 0; i < col + 4; i++) {
		if (sscanf(p, "%63s%n", word, &n) != 1)
			return "";
		if (i < col + 3)
			p += n;
	}
	/* Memory cells are two words ("4.00 MiB"); engines are one. */
	return word;
}

TEST_F_TIMEOUT(top, utilisation_between_two_samples, 90)
{
	char cmd[1024], path[256], *second;
	uint64_t t0, t1, t2, t3, lo, hi;
	unsigned int whole, frac;
	pid_t pid;

	ASSERT_EQ(0, proc_fd(self, 101, "glxgears", 4, i915(7, 1000000, 0, 4096)));
	ASSERT_EQ(0, proc_fd(self, 606, "xe_app", 5, xe(3, 300, 1000)));
	snprintf(path, sizeof(path), "%s/out", self->dir);
	/* A long delay: only SIGUSR1 takes the second sample. */
	snprintf(cmd, sizeof(cmd), "exec %s top --proc-root %s --batch -n 2 -d 600 >%s 2>&1",
		 perf_gpu_path(), self->proc, path);
	t0 = mono_ns();
	pid = spawn(cmd);
	ASSERT_LT(0, pid);
	ASSERT_TRUE(wait_file(path, "    606 xe_app", 20000));
	t1 = mono_ns();
	/* 250 ms of render; 300 of 1000 cycles. */
	ASSERT_EQ(0, proc_fd(self, 101, "glxgears", 4, i915(7, 251000000, 0, 4096)));
	ASSERT_EQ(0, proc_fd(self, 606, "xe_app", 5, xe(3, 600, 2000)));
	sleep_ms(500);
	t2 = mono_ns();
	ASSERT_EQ(0, kill(pid, SIGUSR1));
	ASSERT_TRUE(wait_file(path, "sample 2", 20000));
	t3 = mono_ns();
	ASSERT_EQ(0, wait_exit(pid, 20000));
	ASSERT_LE(0, read_file(path, self->out, sizeof(self->out)));
	second = strstr(self->out, "sample 2");
	ASSERT_NE(NULL, second);
	/* Columns: render copy rcs (engines), system0 vram0 (regions). */
	EXPECT_NE(NULL, strstr(self->out,
		"perf gpu top - local - 2 clients on 2 devices - sort util - every 600.00s - sample 2\n"
		"\n"
		"GPU PDEV             DRIVER   CLIENTS  render    copy     rcs     system0       vram0\n"))
		TH_LOG("%s", self->out);
	/* Sorted by utilisation: about 50% (i915) before 30% (xe). */
	EXPECT_NE(NULL, strstr(second, "\n    101 glxgears         i915       0  "))
		TH_LOG("%s", second);
	EXPECT_NE(NULL, strstr(second,
			       "\n    606 xe_app           xe         1       -       -  30.00%           -    4.00 MiB -\n\n"))
		TH_LOG("%s", second);
	EXPECT_NE(NULL, strstr(second,
			       "\n  1 0000:04:00.0     xe             1       -       -  30.00%           -    4.00 MiB\n"))
		TH_LOG("%s", second);
	/*
	 * 250 ms busy over the interval between the two scans, which lies
	 * within [t2 - t1, t3 - t0]: the bounds of the utilisation, in
	 * hundredths of a percent, with 1 for rounding.
	 */
	ASSERT_EQ(2, sscanf(cell(second, 101, 0), "%u.%u%%", &whole, &frac))
		TH_LOG("%s", second);
	lo = 250000000ull * 10000 / (t3 - t0) - 1;
	hi = 250000000ull * 10000 / (t2 - t1) + 1;
	EXPECT_LE(lo, whole * 100 + frac) TH_LOG("%u.%02u%% < %llu", whole, frac,
						  (unsigned long long)lo);
	EXPECT_GE(hi, whole * 100 + frac) TH_LOG("%u.%02u%% > %llu", whole, frac,
						  (unsigned long long)hi);
	EXPECT_STREQ("0.00%", cell(second, 101, 1));
}

/* python3 on @file, running the script @py: status, output in self->out. */
static int python(FIXTURE_DATA(top) *self, const char *py, const char *file)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/check.py", self->dir);
	if (put(path, py))
		return -1;
	return run_cmd(self->out, sizeof(self->out), "python3 %s %s", path, file);
}

static const char json_check_py[] =
	"import json, sys\n"
	"top = {'time', 'sample', 'source', 'sort', 'devices', 'clients', 'gpuprof'}\n"
	"dev = {'gpu', 'pdev', 'driver', 'clients', 'engines', 'memory'}\n"
	"cli = {'id', 'pid', 'comm', 'driver', 'pdev', 'gpu', 'cgroup', 'client_name', 'engines', 'memory'}\n"
	"for line in open(sys.argv[1]):\n"
	"    d = json.loads(line)\n"
	"    assert set(d) == top, sorted(d)\n"
	"    assert isinstance(d['time'], float) and d['time'] > 1e9\n"
	"    print('sample', d['sample'], d['source'], d['sort'], d['gpuprof'])\n"
	"    for x in d['devices']:\n"
	"        assert set(x) == dev, sorted(x)\n"
	"        print('device', x['gpu'], x['pdev'], x['driver'], x['clients'],\n"
	"              list(x['engines'].items()), list(x['memory'].items()))\n"
	"    for c in d['clients']:\n"
	"        assert set(c) == cli, sorted(c)\n"
	"        assert int(c['id'], 16) >= 0\n"
	"        assert c['client_name'] is None\n"
	"        for e in c['engines'].values():\n"
	"            assert set(e) == {'busy_ns', 'util'}\n"
	"        print('client', c['pid'], c['comm'], c['driver'], c['pdev'], c['gpu'], c['cgroup'],\n"
	"              [(k, v['busy_ns'], v['util']) for k, v in c['engines'].items()],\n"
	"              list(c['memory'].items()))\n";

TEST_F(top, json_lines_parse_with_the_documented_keys)
{
	char path[256];

	ASSERT_EQ(0, basic_root(self));
	snprintf(path, sizeof(path), "%s/top.json", self->dir);
	ASSERT_EQ(0, top(self, "--batch -n 2 -d 0.2 --format=json -s pid >%s", path))
		TH_LOG("%s", self->out);
	ASSERT_EQ(0, python(self, json_check_py, path)) TH_LOG("%s", self->out);
	EXPECT_STREQ(
		"sample 1 local pid None\n"
		"device 0 0000:00:02.0 i915 3 [('render', 0.0), ('copy', 0.0)] [('system0', 22020096)]\n"
		"client 101 glxgears i915 0000:00:02.0 0 /user.slice/session-2.scope [('render', 1000000, None), ('copy', 0, None)] [('system0', 4194304)]\n"
		"client 202 alacritty i915 0000:00:02.0 0 /user.slice/session-2.scope [('render', 5000000, None), ('copy', 200, None)] [('system0', 1048576)]\n"
		"client 303 Xorg i915 0000:00:02.0 0 None [('render', 0, None), ('copy', 0, None)] [('system0', 16777216)]\n"
		"sample 2 local pid None\n"
		"device 0 0000:00:02.0 i915 3 [('render', 0.0), ('copy', 0.0)] [('system0', 22020096)]\n"
		"client 101 glxgears i915 0000:00:02.0 0 /user.slice/session-2.scope [('render', 1000000, 0.0), ('copy', 0, 0.0)] [('system0', 4194304)]\n"
		"client 202 alacritty i915 0000:00:02.0 0 /user.slice/session-2.scope [('render', 5000000, 0.0), ('copy', 200, 0.0)] [('system0', 1048576)]\n"
		"client 303 Xorg i915 0000:00:02.0 0 None [('render', 0, 0.0), ('copy', 0, 0.0)] [('system0', 16777216)]\n",
		self->out);
}

/* A copy of the gpuprof module's tree (design.rst 3): two targets. */
static int device_tree(FIXTURE_DATA(top) *self, char *root, size_t size)
{
	static const char *const files[][2] = {
		{ "status", "mode: coverage\ninterval_ms: 100\ntargets: 2\ntimelines: 3\n"
			    "dropped_jobs: 0\nunattributed_jobs: 5\noa_stream: none\n" },
		{ "timelines", "0 vgem unbound\n1 i915 glx gears[12]\n2 fencegen ring 0\n" },
		{ "1/name", "cov_a\n" },
		{ "1/path", "/usr/bin/cov_a\n" },
		{ "1/histogram", "0 20\n1 4\n" },
		{ "1/counters", "gpu_time_ns 1000\ngpu_clock_ticks 900\navg_gpu_freq_mhz 900\n"
				"reports 3\na0 0\nb0 17\nc7 0\n" },
		{ "2/name", "cov_b\n" },
		{ "2/path", "" },
		{ "2/histogram", "0 12\n2 4\n" },
		{ "2/counters", "gpu_time_ns 0\ngpu_clock_ticks 0\navg_gpu_freq_mhz 0\n"
				"reports 0\na0 0\nb0 0\nc7 0\n" },
	};
	char path[PATH_MAX];
	unsigned int i;

	snprintf(root, size, "%s/gpuprof", self->dir);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, files[i][0]);
		if (put(path, files[i][1]))
			return -1;
	}
	return 0;
}

TEST_F(top, gpuprof_summary_from_the_device_root)
{
	char root[128], expected[4096], path[256];
	const char *p;

	ASSERT_EQ(0, basic_root(self));
	ASSERT_EQ(0, device_tree(self, root, sizeof(root)));
	ASSERT_EQ(0, top(self, "-b -n 1 --device-root %s", root)) TH_LOG("%s", self->out);
	/* perf gpu report --device's text, cut after 12 lines. */
	snprintf(expected, sizeof(expected),
		 "    303 Xorg             i915       0       -       -   16.00 MiB -\n"
		 "\n"
		 "# %s: coverage profile, 40 jobs in 2 targets\n"
		 "# unattributed_jobs: 5\n"
		 "#\n"
		 "#  share  jobs  target, key\n"
		 "  60.00%%    24  1 cov_a (/usr/bin/cov_a)\n"
		 "  50.00%%    20      vgem/unbound\n"
		 "  10.00%%     4      i915/glx gears[12]\n"
		 "                    counters: gpu_time_ns=1000 gpu_clock_ticks=900 avg_gpu_freq_mhz=900 reports=3 b0=17\n"
		 "  40.00%%    16  2 cov_b\n"
		 "  30.00%%    12      vgem/unbound\n"
		 "  10.00%%     4      fencegen/ring 0\n"
		 "                    counters: gpu_time_ns=0 gpu_clock_ticks=0 avg_gpu_freq_mhz=0 reports=0\n"
		 "# ... 4 more lines: perf gpu report --device\n"
		 "\n", root);
	p = strstr(self->out, "    303 Xorg");
	ASSERT_NE(NULL, p) TH_LOG("%s", self->out);
	EXPECT_STREQ(expected, p);

	/* In JSON, the report's own document. */
	snprintf(path, sizeof(path), "%s/top.json", self->dir);
	ASSERT_EQ(0, top(self, "-b -n 1 --format=json --device-root %s >%s", root, path));
	ASSERT_EQ(0, python(self,
		"import json, sys\n"
		"for line in open(sys.argv[1]):\n"
		"    g = json.loads(line)['gpuprof']\n"
		"    print(g['profile'], g['total'], [t['name'] for t in g['targets']])\n",
		path)) TH_LOG("%s", self->out);
	EXPECT_STREQ("coverage 40 ['cov_a', 'cov_b']\n", self->out);
}

/* Four drivers' ways: ns (i915), ns with capacity and the older
 * drm-memory- keys (amdgpu), cycles with total cycles (xe), cycles with
 * maxfreq and no pdev (msm).  A comm that needs escaping. */
static int metrics_root(FIXTURE_DATA(top) *self)
{
	return proc_cgroup(self, 101, "0::/user.slice\n") ||
	       proc_cgroup(self, 606, "0::/system.slice/a \"b\".service\n") ||
	       proc_fd(self, 101, "glxgears", 4, i915(7, 1500000000, 7, 4096)) ||
	       proc_fd(self, 505, "q\"b\\s\nx", 3,
		       "drm-driver:\tamdgpu\ndrm-pdev:\t0000:03:00.0\ndrm-client-id:\t12\n"
		       "drm-engine-gfx:\t2000 ns\ndrm-engine-capacity-gfx:\t2\n"
		       "drm-memory-vram:\t1024 KiB\ndrm-memory-gtt:\t16 KiB\n") ||
	       proc_fd(self, 606, "xe_app", 5, xe(3, 300, 1000)) ||
	       proc_fd(self, 707, "msm_app", 6,
		       "drm-driver:\tmsm\ndrm-client-id:\t5\ndrm-cycles-gpu:\t123456\n"
		       "drm-maxfreq-gpu:\t800000000 Hz\ndrm-resident-memory:\t256 KiB\n");
}

#define L101 "{pid=\"101\",comm=\"glxgears\",cgroup=\"/user.slice\",driver=\"i915\",pdev=\"0000:00:02.0\",client_id=\"7\",client_name=\"\","
#define L505 "{pid=\"505\",comm=\"q\\\"b\\\\s\\nx\",cgroup=\"\",driver=\"amdgpu\",pdev=\"0000:03:00.0\",client_id=\"12\",client_name=\"\","
#define L606 "{pid=\"606\",comm=\"xe_app\",cgroup=\"/system.slice/a \\\"b\\\".service\",driver=\"xe\",pdev=\"0000:04:00.0\",client_id=\"3\",client_name=\"\","
#define L707 "{pid=\"707\",comm=\"msm_app\",cgroup=\"\",driver=\"msm\",pdev=\"\",client_id=\"5\",client_name=\"\","

#define L101I "{pid=\"101\",comm=\"glxgears\",cgroup=\"/user.slice\",driver=\"i915\",pdev=\"0000:00:02.0\",client_id=\"7\",client_name=\"\""
#define L505I "{pid=\"505\",comm=\"q\\\"b\\\\s\\nx\",cgroup=\"\",driver=\"amdgpu\",pdev=\"0000:03:00.0\",client_id=\"12\",client_name=\"\""
#define L606I "{pid=\"606\",comm=\"xe_app\",cgroup=\"/system.slice/a \\\"b\\\".service\",driver=\"xe\",pdev=\"0000:04:00.0\",client_id=\"3\",client_name=\"\""
#define L707I "{pid=\"707\",comm=\"msm_app\",cgroup=\"\",driver=\"msm\",pdev=\"\",client_id=\"5\",client_name=\"\""

static const char metrics_expected[] =
	"# HELP gpu_client_info A DRM client in fdinfo, its identity as labels (value 1).\n"
	"# TYPE gpu_client_info gauge\n"
	"gpu_client_info" L101I "} 1\n"
	"gpu_client_info" L505I "} 1\n"
	"gpu_client_info" L606I "} 1\n"
	"gpu_client_info" L707I "} 1\n"
	"# HELP gpu_client_engine_busy_seconds_total Time the engine spent on the client's work (DRM fdinfo drm-engine-<engine>).\n"
	"# TYPE gpu_client_engine_busy_seconds_total counter\n"
	"gpu_client_engine_busy_seconds_total" L101 "engine=\"render\"} 1.500000000\n"
	"gpu_client_engine_busy_seconds_total" L101 "engine=\"copy\"} 0.000000007\n"
	"gpu_client_engine_busy_seconds_total" L505 "engine=\"gfx\"} 0.000002000\n"
	"# HELP gpu_client_engine_capacity Instances of the engine the busy time is spread over (drm-engine-capacity-<engine>, 1 when not given).\n"
	"# TYPE gpu_client_engine_capacity gauge\n"
	"gpu_client_engine_capacity" L101 "engine=\"render\"} 1\n"
	"gpu_client_engine_capacity" L101 "engine=\"copy\"} 1\n"
	"gpu_client_engine_capacity" L505 "engine=\"gfx\"} 2\n"
	"# HELP gpu_client_engine_cycles_total Engine cycles spent on the client's work (drm-cycles-<engine>).\n"
	"# TYPE gpu_client_engine_cycles_total counter\n"
	"gpu_client_engine_cycles_total" L606 "engine=\"rcs\"} 300\n"
	"gpu_client_engine_cycles_total" L707 "engine=\"gpu\"} 123456\n"
	"# HELP gpu_client_engine_elapsed_cycles_total Engine cycles elapsed, busy or not, for utilisation from cycles (drm-total-cycles-<engine>).\n"
	"# TYPE gpu_client_engine_elapsed_cycles_total counter\n"
	"gpu_client_engine_elapsed_cycles_total" L606 "engine=\"rcs\"} 1000\n"
	"# HELP gpu_client_engine_max_frequency_hertz Maximum engine frequency, for utilisation from cycles (drm-maxfreq-<engine>).\n"
	"# TYPE gpu_client_engine_max_frequency_hertz gauge\n"
	"gpu_client_engine_max_frequency_hertz" L707 "engine=\"gpu\"} 800000000\n"
	"# HELP gpu_client_memory_bytes Memory of the client's buffers by region and kind (drm-<kind>-<region>).\n"
	"# TYPE gpu_client_memory_bytes gauge\n"
	"gpu_client_memory_bytes" L101 "region=\"system0\",kind=\"total\"} 8388608\n"
	"gpu_client_memory_bytes" L101 "region=\"system0\",kind=\"resident\"} 4194304\n"
	"gpu_client_memory_bytes" L505 "region=\"vram\",kind=\"memory\"} 1048576\n"
	"gpu_client_memory_bytes" L505 "region=\"gtt\",kind=\"memory\"} 16384\n"
	"gpu_client_memory_bytes" L606 "region=\"vram0\",kind=\"total\"} 4194304\n"
	"gpu_client_memory_bytes" L707 "region=\"memory\",kind=\"resident\"} 262144\n"
	"# EOF\n";

/*
 * The text exposition format's grammar, as node_exporter's textfile
 * collector (the Prometheus text parser) and OpenMetrics read it:
 * HELP and TYPE before a family's samples, each family once, sample
 * names of the family typed, label values with only \\ \" \n escapes,
 * no timestamps (the collector refuses them), no duplicate series,
 * counters ending in _total, "# EOF" last and a newline at the end.
 */
static const char metrics_check_py[] =
	"import re, sys\n"
	"text = open(sys.argv[1], encoding='utf-8').read()\n"
	"assert text.endswith('\\n# EOF\\n'), 'no # EOF at the end'\n"
	"name = r'[a-zA-Z_:][a-zA-Z0-9_:]*'\n"
	"value = r'\"(?:[^\"\\\\\\n]|\\\\[\\\\\"n])*\"'\n"
	"label = r'[a-zA-Z_][a-zA-Z0-9_]*=' + value\n"
	"sample = re.compile(r'(%s)(?:\\{(%s(?:,%s)*)?\\})? (\\S+)$' % (name, label, label))\n"
	"families, helped, current, series, n = {}, set(), None, set(), 0\n"
	"for i, line in enumerate(text.split('\\n')[:-1], 1):\n"
	"    if line == '# EOF':\n"
	"        assert i == text.count('\\n'), 'lines after # EOF'\n"
	"        continue\n"
	"    m = re.match(r'# (HELP|TYPE) (%s) (.*)$' % name, line)\n"
	"    if m:\n"
	"        kind, fam, rest = m.groups()\n"
	"        if kind == 'HELP':\n"
	"            assert fam not in helped, 'HELP twice: ' + fam\n"
	"            assert re.fullmatch(r'(?:[^\\\\\\n]|\\\\[\\\\n])*', rest), line\n"
	"            helped.add(fam)\n"
	"        else:\n"
	"            assert fam not in families, 'TYPE twice: ' + fam\n"
	"            assert rest in ('counter', 'gauge'), line\n"
	"            assert rest != 'counter' or fam.endswith('_total'), line\n"
	"            families[fam] = rest\n"
	"        current = fam\n"
	"        continue\n"
	"    assert not line.startswith('#'), 'stray comment %d: %s' % (i, line)\n"
	"    m = sample.match(line)\n"
	"    assert m, 'line %d is not a sample: %s' % (i, line)\n"
	"    assert m.group(1) == current and current in families and current in helped, line\n"
	"    float(m.group(3))\n"
	"    labels = re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)=(' + value + ')', m.group(2) or '')\n"
	"    keys = [k for k, v in labels]\n"
	"    assert len(keys) == len(set(keys)), 'label twice: ' + line\n"
	"    key = (m.group(1), tuple(sorted(labels)))\n"
	"    assert key not in series, 'duplicate series: ' + line\n"
	"    series.add(key)\n"
	"    n += 1\n"
	"print(len(families), 'families', n, 'samples')\n";

/* promtool from $GPUPROF_PROMTOOL or $PATH, "" when there is none. */
static const char *promtool(void)
{
	static char path[PATH_MAX];
	const char *env = getenv("GPUPROF_PROMTOOL");
	char out[PATH_MAX];

	/* make check names the one setup.sh unpacks, there or not. */
	if (env && *env && !access(env, X_OK))
		return env;
	if (run_cmd(out, sizeof(out), "command -v promtool") != 0)
		return "";
	out[strcspn(out, "\n")] = '\0';
	snprintf(path, sizeof(path), "%s", out);
	return path;
}

TEST_F(top, openmetrics_file_exact_and_well_formed)
{
	char path[256], text[8192];

	ASSERT_EQ(0, metrics_root(self));
	snprintf(path, sizeof(path), "%s/gpu.prom", self->dir);
	ASSERT_EQ(0, top(self, "-b -n 1 --openmetrics %s >/dev/null", path))
		TH_LOG("%s", self->out);
	ASSERT_LE(0, read_file(path, text, sizeof(text)));
	EXPECT_STREQ(metrics_expected, text);
	ASSERT_EQ(0, python(self, metrics_check_py, path)) TH_LOG("%s", self->out);
	EXPECT_STREQ("7 families 20 samples\n", self->out);
}

/*
 * An exporter is a service: without a terminal, --openmetrics (and
 * --listen) run headless, the file written, nothing on stdout; the view
 * alone still needs a terminal.
 */
TEST_F(top, openmetrics_runs_headless_without_a_terminal)
{
	char path[256], text[8192];

	ASSERT_EQ(0, metrics_root(self));
	snprintf(path, sizeof(path), "%s/gpu.prom", self->dir);
	ASSERT_EQ(0, top(self, "-n 1 --openmetrics %s </dev/null", path))
		TH_LOG("%s", self->out);
	EXPECT_STREQ("", self->out);
	ASSERT_LE(0, read_file(path, text, sizeof(text)));
	EXPECT_STREQ(metrics_expected, text);
	EXPECT_EQ(1, top(self, "-n 1 </dev/null"));
	EXPECT_STREQ("perf gpu top: the view needs a terminal on stdin and stdout (use --batch)\n",
		     self->out);
}

TEST_F(top, openmetrics_grammar_check_refuses_bad_files)
{
	static const char *const bad[] = {
		/* no # EOF */
		"# HELP a_total x\n# TYPE a_total counter\na_total 1\n",
		/* an escape the format does not have */
		"# HELP a x\n# TYPE a gauge\na{l=\"\\t\"} 1\n# EOF\n",
		/* a timestamp */
		"# HELP a x\n# TYPE a gauge\na 1 1700000000000\n# EOF\n",
		/* the same series twice */
		"# HELP a x\n# TYPE a gauge\na{l=\"1\"} 1\na{l=\"1\"} 2\n# EOF\n",
		/* a sample before its TYPE */
		"a 1\n# HELP a x\n# TYPE a gauge\n# EOF\n",
		/* a raw quote in a label value */
		"# HELP a x\n# TYPE a gauge\na{l=\"\"\"} 1\n# EOF\n",
	};
	char path[256];
	unsigned int i;

	/* The checker of the test above rejects each of these. */
	snprintf(path, sizeof(path), "%s/bad.prom", self->dir);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ASSERT_EQ(0, put(path, bad[i]));
		EXPECT_NE(0, python(self, metrics_check_py, path)) TH_LOG("case %u", i);
	}
}

TEST_F(top, openmetrics_file_passes_promtool)
{
	char path[256];
	const char *tool = promtool();

	SETUP_PROVIDES(*tool, "promtool (selftests/setup.sh unpacks Debian's; or set GPUPROF_PROMTOOL)");
	ASSERT_EQ(0, metrics_root(self));
	snprintf(path, sizeof(path), "%s/gpu.prom", self->dir);
	ASSERT_EQ(0, top(self, "-b -n 1 --openmetrics %s >/dev/null", path))
		TH_LOG("%s", self->out);
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s check metrics < %s", tool, path));
	EXPECT_STREQ("", self->out);
	/* And promtool does catch what is wrong. */
	ASSERT_EQ(0, put(path, "# HELP a x\n# TYPE a counter\na{l=\"1\"} 1\na{l=\"1\"} 2\n"));
	EXPECT_NE(0, run_cmd(self->out, sizeof(self->out),
			     "%s check metrics < %s", tool, path));
}

TEST_F_TIMEOUT(top, openmetrics_rewrites_are_atomic, 90)
{
	static char text[1 << 19], final[1 << 19];
	char cmd[1024], path[256], dir_list[256];
	unsigned int i, reads = 0, partial = 0, inodes = 0;
	ino_t last = 0;
	struct stat st;
	pid_t pid;
	int status;

	/* 300 clients: each rewrite is many writes, a reader could see a part. */
	for (i = 0; i < 300; i++)
		ASSERT_EQ(0, proc_fd(self, 1000 + i, "worker", 4,
				     i915(i, i * 1000ull, 0, 4 * i)));
	snprintf(path, sizeof(path), "%s/gpu.prom", self->dir);
	snprintf(cmd, sizeof(cmd), "exec %s top --proc-root %s -b -n 60 -d 0.02 --openmetrics %s >/dev/null",
		 perf_gpu_path(), self->proc, path);
	pid = spawn(cmd);
	ASSERT_LT(0, pid);
	/* Read while it writes; every read must be a whole file. */
	while (waitpid(pid, &status, WNOHANG) == 0) {
		ssize_t n = read_file(path, text, sizeof(text));

		if (n < 0)
			continue;
		reads++;
		if (n < 7 || strcmp(text + n - 6, "# EOF\n"))
			partial++;
		if (!stat(path, &st) && st.st_ino != last) {
			last = st.st_ino;
			inodes++;
		}
	}
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_LT(0, read_file(path, final, sizeof(final)));
	EXPECT_EQ(0, partial) TH_LOG("%u of %u reads saw a partial file", partial, reads);
	EXPECT_LT(10, reads);
	/* A new file each period (rename), not the old one rewritten. */
	EXPECT_LT(5, inodes);
	/* 300 clients x (1 info + 2 busy + 2 capacity + 2 memory) samples. */
	ASSERT_EQ(0, python(self, metrics_check_py, path)) TH_LOG("%s", self->out);
	EXPECT_STREQ("7 families 2100 samples\n", self->out);
	/* No temporary file left beside it. */
	snprintf(dir_list, sizeof(dir_list), "ls %s", self->dir);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s", dir_list));
	EXPECT_STREQ("check.py\ngpu.prom\nproc\n", self->out);
}

/* @text with each @from replaced by @to, into @dst (may be @text). */
static void replace(char *dst, size_t size, const char *text, const char *from,
		    const char *to)
{
	char buf[8192];
	const char *p, *s = text;
	size_t len = 0;

	while ((p = strstr(s, from))) {
		len += snprintf(buf + len, sizeof(buf) - len, "%.*s%s",
				(int)(p - s), s, to);
		s = p + strlen(from);
	}
	snprintf(buf + len, sizeof(buf) - len, "%s", s);
	snprintf(dst, size, "%s", buf);
}

TEST_F_TIMEOUT(top, listen_and_connect_show_the_same_clients, 90)
{
	char cmd[1024], out[256], err[256], expected[4096], src[64];
	char first[2048], second[2048];
	const char *p;
	unsigned int port;
	pid_t server;

	ASSERT_EQ(0, basic_root(self));
	snprintf(out, sizeof(out), "%s/server.out", self->dir);
	snprintf(err, sizeof(err), "%s/server.err", self->dir);
	/* A headless server: --batch, its output not looked at. */
	snprintf(cmd, sizeof(cmd), "exec %s top --proc-root %s --listen 0 --batch -d 0.2 >%s 2>%s",
		 perf_gpu_path(), self->proc, out, err);
	server = spawn(cmd);
	ASSERT_LT(0, server);
	ASSERT_TRUE(wait_file(err, "perf gpu top: listening on 127.0.0.1:", 20000));
	ASSERT_LE(0, read_file(err, self->out, sizeof(self->out)));
	p = strstr(self->out, "listening on 127.0.0.1:");
	ASSERT_EQ(1, sscanf(p, "listening on 127.0.0.1:%u", &port));
	ASSERT_LT(0u, port);
	/* Its second sample done: utilisation is in the state it serves. */
	ASSERT_TRUE(wait_file(out, "sample 2", 20000));

	snprintf(src, sizeof(src), " - 127.0.0.1:%u - ", port);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s top --connect 127.0.0.1:%u --batch -n 2 -d 0.2",
			     perf_gpu_path(), port)) TH_LOG("%s", self->out);
	/* The local view's second refresh, twice, from the server. */
	replace(first, sizeof(first), basic_second, "sample 2", "sample 1");
	replace(first, sizeof(first), first, " - local - ", src);
	replace(second, sizeof(second), basic_second, " - local - ", src);
	snprintf(expected, sizeof(expected), "%s%s", first, second);
	EXPECT_STREQ(expected, self->out);

	/* SIGTERM stops the server cleanly. */
	ASSERT_EQ(0, kill(server, SIGTERM));
	EXPECT_EQ(0, wait_exit(server, 20000));
}

/* An i915 client's fdinfo as 7.3 prints it with drm-client-name @name. */
static const char *i915_named(unsigned int id, const char *name)
{
	static char buf[8][1024];
	static unsigned int n;
	char *b = buf[n++ % 8];

	snprintf(b, sizeof(buf[0]),
		 "pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t1061\n"
		 "drm-driver:\ti915\ndrm-client-id:\t%u\ndrm-pdev:\t0000:00:02.0\n"
		 "drm-client-name:\t%s\n"
		 "drm-engine-render:\t%u000 ns\ndrm-resident-system0:\t%u KiB\n",
		 id, name, id, id);
	return b;
}

/*
 * Clients that named themselves (DRM_IOCTL_SET_CLIENT_NAME, Linux 6.14
 * and later) beside one that did not and one whose name the parser
 * refuses (a blank inside: the kernel would not have taken it), which
 * is then shown as none.  glxgears's client has two fds; q's name needs
 * escaping in JSON and OpenMetrics.
 */
static int names_root(FIXTURE_DATA(top) *self)
{
	return proc_fd(self, 101, "glxgears", 4, i915_named(7, "gears-main")) ||
	       proc_fd(self, 101, "glxgears", 5, i915_named(7, "gears-main")) ||
	       proc_fd(self, 202, "alacritty", 5,
		       "drm-driver:\ti915\ndrm-client-id:\t8\ndrm-pdev:\t0000:00:02.0\n"
		       "drm-engine-render:\t8000 ns\ndrm-resident-system0:\t8 KiB\n") ||
	       proc_fd(self, 303, "Xorg", 6, i915_named(9, "x org")) ||
	       proc_fd(self, 404, "q", 3, i915_named(10, "q\"b\\s"));
}

#define NAMES_CLIENTS \
	"    PID COMM             DRIVER   GPU  render     system0 CLIENT_NAME CGROUP\n" \
	"    101 glxgears         i915       0       -    7.00 KiB gears-main  -\n" \
	"    202 alacritty        i915       0       -    8.00 KiB -           -\n" \
	"    303 Xorg             i915       0       -    9.00 KiB -           -\n" \
	"    404 q                i915       0       -   10.00 KiB q\"b\\s       -\n"

/*
 * The name where the client is shown: a CLIENT_NAME column (COMM stays
 * the process's), JSON's client_name (null: none), OpenMetrics'
 * client_name label on every sample ("": none), perf gpu list's column.
 */
TEST_F(top, client_names_in_text_json_openmetrics_and_list)
{
	char path[256], text[8192];
	const char *tool = promtool();

	ASSERT_EQ(0, names_root(self));
	ASSERT_EQ(0, top(self, "-b -n 1 -s pid")) TH_LOG("%s", self->out);
	EXPECT_STREQ("perf gpu top - local - 4 clients on 1 device - sort pid - every 1.00s - sample 1\n"
		     "\n"
		     "GPU PDEV             DRIVER   CLIENTS  render     system0\n"
		     "  0 0000:00:02.0     i915           4   0.00%   34.00 KiB\n"
		     "\n" NAMES_CLIENTS "\n", self->out);
	/* Without a named client among those shown, no column. */
	ASSERT_EQ(0, top(self, "-b -n 1 -p 202"));
	EXPECT_NE(NULL, strstr(self->out, "\n    PID COMM             DRIVER   GPU  render     system0 CGROUP\n"
			       "    202 alacritty        i915       0       -    8.00 KiB -\n"))
		TH_LOG("%s", self->out);

	snprintf(path, sizeof(path), "%s/top.json", self->dir);
	ASSERT_EQ(0, top(self, "-b -n 1 --format=json -s pid >%s", path));
	ASSERT_EQ(0, python(self,
		"import json, sys\n"
		"for line in open(sys.argv[1]):\n"
		"    for c in json.loads(line)['clients']:\n"
		"        print(c['pid'], c['comm'], c['client_name'])\n",
		path)) TH_LOG("%s", self->out);
	EXPECT_STREQ("101 glxgears gears-main\n202 alacritty None\n303 Xorg None\n"
		     "404 q q\"b\\s\n", self->out);

	snprintf(path, sizeof(path), "%s/gpu.prom", self->dir);
	ASSERT_EQ(0, top(self, "-b -n 1 --openmetrics %s >/dev/null", path));
	ASSERT_LE(0, read_file(path, text, sizeof(text)));
	EXPECT_NE(NULL, strstr(text,
		"# TYPE gpu_client_engine_busy_seconds_total counter\n"
		"gpu_client_engine_busy_seconds_total{pid=\"101\",comm=\"glxgears\",cgroup=\"\",driver=\"i915\",pdev=\"0000:00:02.0\",client_id=\"7\",client_name=\"gears-main\",engine=\"render\"} 0.000007000\n"
		"gpu_client_engine_busy_seconds_total{pid=\"202\",comm=\"alacritty\",cgroup=\"\",driver=\"i915\",pdev=\"0000:00:02.0\",client_id=\"8\",client_name=\"\",engine=\"render\"} 0.000008000\n"
		"gpu_client_engine_busy_seconds_total{pid=\"303\",comm=\"Xorg\",cgroup=\"\",driver=\"i915\",pdev=\"0000:00:02.0\",client_id=\"9\",client_name=\"\",engine=\"render\"} 0.000009000\n"
		"gpu_client_engine_busy_seconds_total{pid=\"404\",comm=\"q\",cgroup=\"\",driver=\"i915\",pdev=\"0000:00:02.0\",client_id=\"10\",client_name=\"q\\\"b\\\\s\",engine=\"render\"} 0.000010000\n"))
		TH_LOG("%s", text);
	/* The info sample lists the client with its name. */
	EXPECT_NE(NULL, strstr(text,
		"gpu_client_info{pid=\"101\",comm=\"glxgears\",cgroup=\"\",driver=\"i915\",pdev=\"0000:00:02.0\",client_id=\"7\",client_name=\"gears-main\"} 1\n"))
		TH_LOG("%s", text);
	/* Every sample has the label, memory's too. */
	EXPECT_NE(NULL, strstr(text,
		"gpu_client_memory_bytes{pid=\"101\",comm=\"glxgears\",cgroup=\"\",driver=\"i915\",pdev=\"0000:00:02.0\",client_id=\"7\",client_name=\"gears-main\",region=\"system0\",kind=\"resident\"} 7168\n"))
		TH_LOG("%s", text);
	ASSERT_EQ(0, python(self, metrics_check_py, path)) TH_LOG("%s", self->out);
	EXPECT_STREQ("7 families 16 samples\n", self->out);
	if (*tool) {
		EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out),
				     "%s check metrics < %s", tool, path));
		EXPECT_STREQ("", self->out);
	} else {
		TH_LOG("no promtool: its check left out");
	}

	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s list --proc-root %s",
			     perf_gpu_path(), self->proc)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out,
		"DRM clients:\n"
		"      PID COMM             DRIVER     PDEV              CLIENT  FDS CLIENT_NAME\n"
		"      101 glxgears         i915       0000:00:02.0           7    2 gears-main\n"
		"      202 alacritty        i915       0000:00:02.0           8    1 -\n"
		"      303 Xorg             i915       0000:00:02.0           9    1 -\n"
		"      404 q                i915       0000:00:02.0          10    1 q\"b\\s\n"))
		TH_LOG("%s", self->out);
}

/* --connect shows the names --listen serves (the CLIENT_NAME key). */
TEST_F_TIMEOUT(top, client_names_over_listen_and_connect, 90)
{
	char cmd[1024], out[256], err[256];
	const char *p;
	unsigned int port;
	pid_t server;

	ASSERT_EQ(0, names_root(self));
	snprintf(out, sizeof(out), "%s/server.out", self->dir);
	snprintf(err, sizeof(err), "%s/server.err", self->dir);
	snprintf(cmd, sizeof(cmd), "exec %s top --proc-root %s --listen 0 --batch -d 0.2 >%s 2>%s",
		 perf_gpu_path(), self->proc, out, err);
	server = spawn(cmd);
	ASSERT_LT(0, server);
	ASSERT_TRUE(wait_file(err, "perf gpu top: listening on 127.0.0.1:", 20000));
	ASSERT_LE(0, read_file(err, self->out, sizeof(self->out)));
	p = strstr(self->out, "listening on 127.0.0.1:");
	ASSERT_EQ(1, sscanf(p, "listening on 127.0.0.1:%u", &port));
	ASSERT_TRUE(wait_file(out, "sample 1", 20000));
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%s top --connect 127.0.0.1:%u --batch -n 1 -s pid",
			     perf_gpu_path(), port)) TH_LOG("%s", self->out);
	/*
	 * The names, whichever sample the server is at: the utilisation is
	 * "-" in its first and 0.00% after (seen in a clean-clone run).
	 */
	EXPECT_NE(NULL, strstr(self->out, " system0 CLIENT_NAME CGROUP\n")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, " 7.00 KiB gears-main  -\n")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, " 8.00 KiB -           -\n")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, " 10.00 KiB q\"b\\s       -\n")) TH_LOG("%s", self->out);
	ASSERT_EQ(0, kill(server, SIGTERM));
	EXPECT_EQ(0, wait_exit(server, 20000));
}

static unsigned int count_lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Exactly one line, and the status of a handled error (no signal). */
static void one_error_line(struct __test_metadata *_metadata,
			   FIXTURE_DATA(top) *self, int status, int expected)
{
	EXPECT_EQ(expected, status) TH_LOG("%s", self->out);
	EXPECT_EQ(1u, count_lines(self->out)) TH_LOG("not one line: %s", self->out);
}

TEST_F(top, bad_options_give_one_line_and_fail)
{
	static const struct {
		const char *args, *line;
	} cases[] = {
		{ "-b -n 1 -d 0", "perf gpu top: bad delay '0' (seconds, more than 0, at most 86400)\n" },
		{ "-b -n 1 -d 1x", "perf gpu top: bad delay '1x' (seconds, more than 0, at most 86400)\n" },
		{ "-b -n 1 -d nan", "perf gpu top: bad delay 'nan' (seconds, more than 0, at most 86400)\n" },
		{ "-b -n 1 -s size", "perf gpu top: unknown sort key 'size' (util,mem,pid,comm)\n" },
		{ "-b -n 1 --format=xml", "perf gpu top: unknown format 'xml' (text,json)\n" },
		{ "-n 1 --format=json", "perf gpu top: --format=json is for --batch\n" },
		{ "-b -n -1", "perf gpu top: bad number of refreshes -1\n" },
		{ "-b -n 1 -p -5", "perf gpu top: bad pid -5\n" },
		{ "-b --listen 0 --connect 127.0.0.1:1",
		  "perf gpu top: --connect shows another machine; --listen is about this one\n" },
		{ "-n 1 </dev/null",
		  "perf gpu top: the view needs a terminal on stdin and stdout (use --batch)\n" },
	};
	unsigned int i;
	int st;

	ASSERT_EQ(0, basic_root(self));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		st = top(self, "%s", cases[i].args);
		EXPECT_EQ(1, st) TH_LOG("%s: %s", cases[i].args, self->out);
		EXPECT_STREQ(cases[i].line, self->out) TH_LOG("%s", cases[i].args);
	}
	/* libsubcmd's usage errors, as perf's. */
	EXPECT_EQ(129, top(self, "--frob"));
	EXPECT_NE(NULL, strstr(self->out, "Error: unknown option `frob'")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "Usage: perf gpu top [<options>]"));
	EXPECT_EQ(129, top(self, "-b extra"));
	EXPECT_EQ(129, top(self, "-b -n x"));
}

TEST_F(top, bad_sources_give_one_line_and_fail)
{
	char expected[512], file[256];

	/* A proc root that is not there, or not a directory. */
	snprintf(expected, sizeof(expected),
		 "perf gpu top: %s/none: No such file or directory\n", self->dir);
	one_error_line(_metadata, self,
		       run_cmd(self->out, sizeof(self->out), "%s top -b -n 1 --proc-root %s/none",
			       perf_gpu_path(), self->dir), 1);
	EXPECT_STREQ(expected, self->out);
	snprintf(file, sizeof(file), "%s/file", self->dir);
	ASSERT_EQ(0, put(file, "x\n"));
	one_error_line(_metadata, self,
		       run_cmd(self->out, sizeof(self->out), "%s top -b -n 1 --proc-root %s",
			       perf_gpu_path(), file), 1);
	snprintf(expected, sizeof(expected), "perf gpu top: %s: Not a directory\n", file);
	EXPECT_STREQ(expected, self->out);

	/* A device root that is not there. */
	one_error_line(_metadata, self, top(self, "-b -n 1 --device-root %s/none", self->dir), 1);
	snprintf(expected, sizeof(expected),
		 "perf gpu top: %s/none: No such file or directory\n", self->dir);
	EXPECT_STREQ(expected, self->out);

	/* An --openmetrics file in a directory that is not there. */
	one_error_line(_metadata, self,
		       top(self, "-b -n 1 --openmetrics %s/none/gpu.prom", self->dir), 1);
	snprintf(expected, sizeof(expected),
		 "perf gpu top: %s/none/gpu.prom: No such file or directory\n",
		 self->dir);
	EXPECT_STREQ(expected, self->out);

	/* Nobody listening: port 1 on loopback is refused. */
	one_error_line(_metadata, self,
		       run_cmd(self->out, sizeof(self->out), "%s top -b -n 1 --connect 127.0.0.1:1",
			       perf_gpu_path()), 1);
	EXPECT_NE(NULL, strstr(self->out, "127.0.0.1:1")) TH_LOG("%s", self->out);
	/* Nor a name that does not resolve, nor no port. */
	one_error_line(_metadata, self,
		       run_cmd(self->out, sizeof(self->out), "%s top -b -n 1 --connect nosuchhost.invalid:1",
			       perf_gpu_path()), 1);
	one_error_line(_metadata, self,
		       run_cmd(self->out, sizeof(self->out), "%s top -b -n 1 --connect 127.0.0.1",
			       perf_gpu_path()), 1);
}

/* tmux on a server of our own, with no configuration: its status. */
__attribute__((format(printf, 3, 4)))
static int tmux(FIXTURE_DATA(top) *self, char *out, const char *fmt, ...)
{
	char args[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	return run_cmd(out, OUT_SIZE, "tmux -L %s -f /dev/null %s",
		       self->tmux_sock, args);
}

/* The pane's text into self->out until it holds @needle: true, or false
 * after @ms. */
static bool wait_pane(FIXTURE_DATA(top) *self, const char *needle,
		      unsigned int ms)
{
	uint64_t end = mono_ns() + ms * 1000000ull;

	do {
		if (tmux(self, self->out, "capture-pane -p -t top") == 0 &&
		    strstr(self->out, needle))
			return true;
		sleep_ms(20);
	} while (mono_ns() < end);
	return false;
}

/* A session running top on a wide fake root, stty saved before and after. */
static int start_session(FIXTURE_DATA(top) *self, const char *delay)
{
	char script[PATH_MAX], text[4096], out[OUT_SIZE];
	unsigned int i;
	static const char *const comms[] = { "glxgears", "alacritty", "Xorg" };

	for (i = 0; i < 3; i++)
		if (proc_fd(self, 101 * (i + 1), comms[i], 4,
			    i915_wide(i + 1, (i == 2 ? 16384 : 4096 >> (2 * i)))))
			return -1;
	snprintf(script, sizeof(script), "%s/session.sh", self->dir);
	snprintf(text, sizeof(text),
		 "trap '' INT\n"	/* Ctrl-C is for top, not this script */
		 "stty -a >%s/stty.before\n"
		 "echo BEFORE-TOP\n"
		 "ASAN_OPTIONS=abort_on_error=1:log_path=%s/asan %s top --proc-root %s -d %s\n"
		 "echo AFTER-TOP rc=$?\n"
		 "stty -a >%s/stty.after\n"
		 "exec sleep 600\n",
		 self->dir, self->dir, perf_gpu_path(), self->proc, delay, self->dir);
	if (put(script, text))
		return -1;
	return tmux(self, out, "new-session -d -s top -x 120 -y 30 'sh %s'", script);
}

/* The first @width columns of @line as capture-pane gives them back:
 * trailing spaces dropped. */
static const char *cut(const char *line, unsigned int width)
{
	static char buf[4][256];
	static unsigned int n;
	char *b = buf[n++ % 4];
	size_t len;

	snprintf(b, sizeof(buf[0]), "%.*s", (int)width, line);
	len = strlen(b);
	while (len && b[len - 1] == ' ')
		b[--len] = '\0';
	return b;
}

/* What tmux says of the pane: "ALTERNATE CURSOR" flags. */
static const char *pane_flags(FIXTURE_DATA(top) *self)
{
	static char out[OUT_SIZE];

	tmux(self, out, "display-message -p -t top '#{alternate_on} #{cursor_flag}'");
	return out;
}

/* The line of self->out starting with @start, cut at its newline. */
static const char *line_of(FIXTURE_DATA(top) *self, const char *start)
{
	static char line[512];
	char needle[64];
	const char *p;

	snprintf(needle, sizeof(needle), "\n%s", start);
	if (!strncmp(self->out, start, strlen(start)))
		p = self->out;
	else if ((p = strstr(self->out, needle)))
		p++;
	else
		return "";
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(p, "\n"), p);
	return line;
}

/* The terminal as it was, top gone, the shell's next line shown. */
static void check_restored(struct __test_metadata *_metadata,
			   FIXTURE_DATA(top) *self)
{
	char before[8192], after[8192], path[256];

	ASSERT_TRUE(wait_pane(self, "AFTER-TOP rc=0", 20000)) TH_LOG("%s", self->out);
	/* Back on the main screen: what the shell printed before top. */
	EXPECT_NE(NULL, strstr(self->out, "BEFORE-TOP\nAFTER-TOP rc=0\n")) TH_LOG("%s", self->out);
	EXPECT_EQ(NULL, strstr(self->out, "PID COMM"));
	EXPECT_STREQ("0 1\n", pane_flags(self));
	snprintf(path, sizeof(path), "%s/stty.before", self->dir);
	ASSERT_LT(0, read_file(path, before, sizeof(before)));
	snprintf(path, sizeof(path), "%s/stty.after", self->dir);
	ASSERT_TRUE(wait_file(path, "speed", 5000));
	ASSERT_LT(0, read_file(path, after, sizeof(after)));
	/* All the settings; the first line has the window's size, which the
	 * test changed. */
	ASSERT_NE(NULL, strchr(before, '\n'));
	ASSERT_NE(NULL, strchr(after, '\n'));
	EXPECT_STREQ(strchr(before, '\n'), strchr(after, '\n'));
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "ls %s | grep -c '^asan' || true",
			     self->dir));
	EXPECT_STREQ("0\n", self->out);
}

static bool have_tmux(void)
{
	char out[256];

	return run_cmd(out, sizeof(out), "tmux -V") == 0;
}

/* The rows at 120 columns: five engines, two regions and the cgroup. */
#define WIDE_HEADER "    PID COMM             DRIVER   GPU  render    copy   video video-enhance compute     system0      local0 CGROUP"
#define WIDE_101 "    101 glxgears         i915       0   0.00%   0.00%   0.00%         0.00%   0.00%    4.00 MiB    1.00 MiB -"
#define WIDE_202 "    202 alacritty        i915       0   0.00%   0.00%   0.00%         0.00%   0.00%    1.00 MiB    1.00 MiB -"
#define WIDE_303 "    303 Xorg             i915       0   0.00%   0.00%   0.00%         0.00%   0.00%   16.00 MiB    1.00 MiB -"
/* In the first sample, no utilisation yet. */
#define FIRST_101 "    101 glxgears         i915       0       -       -       -             -       -    4.00 MiB    1.00 MiB -"
#define FIRST_202 "    202 alacritty        i915       0       -       -       -             -       -    1.00 MiB    1.00 MiB -"
#define WIDE_DEVICES "GPU PDEV             DRIVER   CLIENTS  render    copy   video video-enhance compute     system0      local0"
#define WIDE_DEVICE0 "  0 0000:03:00.0     i915           3   0.00%   0.00%   0.00%         0.00%   0.00%   21.00 MiB    3.00 MiB"

/*
 * The pane shows exactly @lines (NULL-ended), each cut to @width
 * columns, and nothing below: the frame was drawn for the window's
 * size, not cropped by tmux from an earlier one.  true, or false after
 * @ms.
 */
static bool wait_screen(FIXTURE_DATA(top) *self, const char *const *lines,
			unsigned int width, unsigned int ms)
{
	char expected[4096] = "";
	size_t len = 0;

	for (; *lines; lines++)
		len += snprintf(expected + len, sizeof(expected) - len, "%s\n",
				cut(*lines, width));
	if (!wait_pane(self, expected, ms))
		return false;
	return !strncmp(self->out, expected, len) && !strcmp(self->out + len, "");
}

TEST_F_TIMEOUT(top, tmux_view_sorts_resizes_and_quits, 120)
{
	char rows[1024];

	SETUP_PROVIDES(have_tmux(), "tmux (package tmux)");
	ASSERT_EQ(0, start_session(self, "0.2"));
	ASSERT_TRUE(wait_pane(self, "sample 2", 20000)) TH_LOG("%s", self->out);
	EXPECT_STREQ("1 0\n", pane_flags(self));
	/* Sorted by utilisation, all 0: by pid. */
	snprintf(rows, sizeof(rows), "\n%s\n%s\n%s\n%s\n", WIDE_HEADER, WIDE_101,
		 WIDE_202, WIDE_303);
	EXPECT_NE(NULL, strstr(self->out, rows)) TH_LOG("%s", self->out);

	/* m: by memory; c: by comm. */
	ASSERT_EQ(0, tmux(self, self->out, "send-keys -t top m"));
	ASSERT_TRUE(wait_pane(self, " - sort mem - ", 5000)) TH_LOG("%s", self->out);
	snprintf(rows, sizeof(rows), "\n%s\n%s\n%s\n", WIDE_303, WIDE_101, WIDE_202);
	EXPECT_NE(NULL, strstr(self->out, rows)) TH_LOG("%s", self->out);
	ASSERT_EQ(0, tmux(self, self->out, "send-keys -t top c"));
	ASSERT_TRUE(wait_pane(self, " - sort comm - ", 5000)) TH_LOG("%s", self->out);
	snprintf(rows, sizeof(rows), "\n%s\n%s\n%s\n", WIDE_303, WIDE_202, WIDE_101);
	EXPECT_NE(NULL, strstr(self->out, rows)) TH_LOG("%s", self->out);

	/* 80 columns: each line cut there, none wrapped onto the next. */
	ASSERT_EQ(0, tmux(self, self->out, "resize-window -t top -x 80 -y 20"));
	snprintf(rows, sizeof(rows), "\n%s\n%s\n%s\n%s\n", cut(WIDE_HEADER, 80),
		 cut(WIDE_303, 80), cut(WIDE_202, 80), cut(WIDE_101, 80));
	EXPECT_TRUE(wait_pane(self, rows, 5000)) TH_LOG("%s", self->out);
	EXPECT_STREQ("perf gpu top - local - 3 clients on 1 device - sort comm - every 0.20s - sample",
		     line_of(self, "perf gpu top")) TH_LOG("%s", self->out);

	/* 9 rows: the frame's first 9 lines, the last client row last. */
	ASSERT_EQ(0, tmux(self, self->out, "resize-window -t top -x 80 -y 9"));
	{
		const char *const lines[] = {
			"perf gpu top - local - 3 clients on 1 device - sort comm - every 0.20s - sample",
			"", WIDE_DEVICES, WIDE_DEVICE0, "", WIDE_HEADER, WIDE_303,
			WIDE_202, WIDE_101, NULL
		};

		EXPECT_TRUE(wait_screen(self, lines, 80, 5000)) TH_LOG("%s", self->out);
	}

	ASSERT_EQ(0, tmux(self, self->out, "send-keys -t top q"));
	check_restored(_metadata, self);
}

TEST_F_TIMEOUT(top, tmux_keys_and_resizes_redraw_at_once, 120)
{
	char rows[1024];

	SETUP_PROVIDES(have_tmux(), "tmux (package tmux)");
	/* No second sample in this test: every redraw is a key's or a resize's. */
	ASSERT_EQ(0, start_session(self, "600"));
	ASSERT_TRUE(wait_pane(self, "- sample 1", 20000)) TH_LOG("%s", self->out);
	ASSERT_EQ(0, tmux(self, self->out, "send-keys -t top p"));
	ASSERT_TRUE(wait_pane(self, " - sort pid - every 600.00s - sample 1", 5000))
		TH_LOG("%s", self->out);

	/* Smaller: the frame drawn again for 60x8 (tmux alone would keep
	 * the cursor's rows, not the top ones); then the full frame back. */
	ASSERT_EQ(0, tmux(self, self->out, "resize-window -t top -x 60 -y 8"));
	{
		const char *const small[] = {
			"perf gpu top - local - 3 clients on 1 device - sort pid - every 600.00s - sample 1",
			"", WIDE_DEVICES, WIDE_DEVICE0, "", WIDE_HEADER, FIRST_101,
			FIRST_202, NULL
		};

		EXPECT_TRUE(wait_screen(self, small, 60, 5000)) TH_LOG("%s", self->out);
	}
	ASSERT_EQ(0, tmux(self, self->out, "resize-window -t top -x 120 -y 30"));
	snprintf(rows, sizeof(rows), "\n%s\n%s\n", FIRST_101, FIRST_202);
	EXPECT_TRUE(wait_pane(self, rows, 5000)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "- sample 1\n"));

	/* g: the clients grouped by cgroup (none known: one row), g again back. */
	ASSERT_EQ(0, tmux(self, self->out, "send-keys -t top g"));
	EXPECT_TRUE(wait_pane(self, "\nCLIENTS  render    copy   video video-enhance compute     system0      local0 CGROUP\n"
			      "      3       -       -       -             -       -   21.00 MiB    3.00 MiB -\n", 5000))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "3 clients on 1 device in 1 cgroup - sort pid"));
	ASSERT_EQ(0, tmux(self, self->out, "send-keys -t top g"));
	EXPECT_TRUE(wait_pane(self, rows, 5000)) TH_LOG("%s", self->out);

	/* Ctrl-C: SIGINT, and the terminal put back all the same. */
	ASSERT_EQ(0, tmux(self, self->out, "send-keys -t top C-c"));
	check_restored(_metadata, self);
}

TEST_HARNESS_MAIN
