// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu top [-d SECS] [-n N] [-p PID] [-s util|mem|pid|comm]
 *		[--by client|cgroup] [-b [--format=text|json]] [--proc-root DIR] [--device-root DIR]
 *		[--listen [ADDR:]PORT] [--openmetrics FILE] | [--connect HOST:PORT]
 *
 * The GPU clients of this machine (DRM fdinfo, drm/clients.h) or of
 * another one (--connect, the live protocol), refreshed every -d
 * seconds: in the terminal (top/term.h), or as text or JSON lines with
 * --batch.  Each local sample becomes a live_state, and everything is
 * drawn from a live_state, so a remote machine looks exactly like this
 * one.  --listen serves the samples to --connect; --openmetrics
 * rewrites a file for node_exporter's textfile collector.  Either one
 * without a terminal (a service: systemd, a container) runs headless,
 * drawing nothing; with one, the view shows as well.
 *
 * -p narrows what is shown; the device totals, --listen and
 * --openmetrics still cover every client.  --by cgroup shows a row per
 * cgroup (v2, of each client's process) summing its clients.  The gpuprof module's summary
 * (top/device.h) is this machine's, so --connect does not show one.
 * Keys: q quits, u/m/p/c sort, g groups by cgroup or not, space samples
 * now (so does SIGUSR1).
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "util/options.h"

#include "builtin.h"
#include "drm/clients.h"
#include "live/proto.h"
#include "live/state.h"
#include "report/print-device.h"
#include "top/device.h"
#include "top/json.h"
#include "top/openmetrics.h"
#include "top/signals.h"
#include "top/term.h"
#include "top/text.h"
#include "top/view.h"
#include "util/debug.h"

/* Lines of the module's report shown: the view is about the clients. */
#define GPUPROF_LINES	12
#define KEYS_HINT	"keys: q quit, u util, m mem, p pid, c comm, g cgroups, space refresh"

struct top_opts {
	const char *delay, *sort, *by, *format, *proc_root, *device_root;
	const char *connect, *listen, *openmetrics;
	int iterations, pid;
	bool batch;
};

struct top {
	struct top_opts o;
	double delay_s;
	enum top_sort sort;
	enum top_by by;
	bool json;
	struct gpu_clients clients;
	bool have_clients;
	struct live_client *remote;
	struct live_server *server;
	struct live_state state;
	struct top_view view;
	char *gpuprof;		/* the module's summary, or NULL */
	unsigned long sample;
	bool tty;
	bool headless;		/* an exporter or server with no terminal */
	struct top_term term;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int parse_delay(const char *s, double *d)
{
	char *end;

	errno = 0;
	*d = strtod(s, &end);
	/* Up to a day: longer is a mistake, and it keeps ns in range. */
	if (errno || end == s || *end || !isfinite(*d) || *d <= 0 || *d > 86400)
		return -1;
	return 0;
}

/* Options that cannot go together or that name bad values: one line. */
static int check_opts(struct top *t)
{
	const struct top_opts *o = &t->o;

	if (parse_delay(o->delay ? o->delay : "1", &t->delay_s)) {
		pr_err("bad delay '%s' (seconds, more than 0, at most 86400)\n",
		       o->delay);
		return -1;
	}
	if (o->sort && top_sort_parse(o->sort, &t->sort)) {
		pr_err("unknown sort key '%s' (util,mem,pid,comm)\n",
		       o->sort);
		return -1;
	}
	if (o->by && top_by_parse(o->by, &t->by)) {
		pr_err("unknown grouping '%s' (client,cgroup)\n", o->by);
		return -1;
	}
	if (o->format && strcmp(o->format, "text") && strcmp(o->format, "json")) {
		pr_err("unknown format '%s' (text,json)\n",
		       o->format);
		return -1;
	}
	t->json = o->format && !strcmp(o->format, "json");
	if (t->json && !o->batch) {
		pr_err("--format=json is for --batch\n");
		return -1;
	}
	if (o->iterations < 0) {
		pr_err("bad number of refreshes %d\n",
		       o->iterations);
		return -1;
	}
	if (o->pid < 0) {
		pr_err("bad pid %d\n", o->pid);
		return -1;
	}
	if (o->connect && (o->listen || o->openmetrics || o->proc_root ||
			   o->device_root)) {
		pr_err("--connect shows another machine; --%s is about this one\n",
		       o->listen ? "listen" : o->openmetrics ? "openmetrics" :
		       o->proc_root ? "proc-root" : "device-root");
		return -1;
	}
	return 0;
}

/*
 * The scans hold the fdinfo of every DRM client open between samples
 * (drm/clients.c): the soft limit of open files goes up to the hard one
 * (top polls, it never calls select(), which stops at fd 1023).  Left as
 * it is when that fails: fewer files are held, the scan costs more.
 */
static void raise_open_files(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int open_sources(struct top *t)
{
	char host[256] = "perf-gpu";
	unsigned int port;
	const char *colon;

	gethostname(host, sizeof(host) - 1);
	host[sizeof(host) - 1] = '\0';
	if (t->o.connect) {
		t->remote = live_client_connect(t->o.connect, host);
		return t->remote ? 0 : -1;
	}
	raise_open_files();
	if (gpu_clients_init(&t->clients, t->o.proc_root)) {
		pr_err("out of memory\n");
		return -1;
	}
	t->have_clients = true;
	if (t->o.device_root && access(t->o.device_root, F_OK)) {
		pr_err("%s: %s\n", t->o.device_root,
		       strerror(errno));
		return -1;
	}
	if (t->o.listen) {
		t->server = live_server_start(t->o.listen, host, &port);
		if (!t->server)
			return -1;
		colon = strrchr(t->o.listen, ':');
		/* Scripts read the port from this line (port 0 picks one). */
		if (colon)
			pr_err("listening on %.*s:%u\n",
			       (int)(colon - t->o.listen), t->o.listen, port);
		else
			pr_err("listening on 127.0.0.1:%u\n",
			       port);
		fflush(stderr);
	}
	return 0;
}

/* A new sample from the source, exported, and the view rebuilt. */
static int take_sample(struct top *t)
{
	if (t->remote) {
		if (live_client_poll(t->remote, &t->state))
			return -1;
	} else {
		if (gpu_clients_scan(&t->clients, 0)) {
			pr_err("%s: %s\n",
			       t->o.proc_root ? t->o.proc_root : "/proc",
			       strerror(errno));
			return -1;
		}
		if (live_state_from_clients(&t->state, &t->clients) ||
		    (t->server && live_server_publish(t->server, &t->state))) {
			pr_err("out of memory\n");
			return -1;
		}
		/* A bad path is fatal at the start; later, the last good
		 * file stays (its mtime tells how old it is). */
		if (t->o.openmetrics &&
		    top_openmetrics_update(t->o.openmetrics, &t->clients) &&
		    !t->sample)
			return -1;
		free(t->gpuprof);
		t->gpuprof = top_device_summary(t->o.device_root ? t->o.device_root :
						GPUPROFDEV_ROOT, t->json,
						GPUPROF_LINES,
						report_device_print);
	}
	t->sample++;
	top_view_free(&t->view);
	if (top_view_build(&t->view, &t->state, t->o.pid, t->sort) ||
	    (t->by == TOP_BY_CGROUP && top_view_group(&t->view, t->sort))) {
		pr_err("out of memory\n");
		return -1;
	}
	return 0;
}

static void fill_info(const struct top *t, struct top_text_info *info,
		      const char *status)
{
	info->source = t->o.connect ? t->o.connect : "local";
	info->sort = t->sort;
	info->by = t->by;
	info->delay_s = t->delay_s;
	info->sample = t->sample;
	info->gpuprof = t->gpuprof;
	info->status = status;
}

/* A refresh in the terminal. */
static void draw(struct top *t)
{
	struct top_text_info info;
	char msg[512], *text = NULL;
	size_t len = 0;
	FILE *f;

	top_term_message(&t->term, msg, sizeof(msg));
	fill_info(t, &info, *msg ? msg : KEYS_HINT);
	f = open_memstream(&text, &len);
	if (!f)
		return;
	top_text_write(f, &t->view, &info);
	if (!fclose(f))
		top_term_draw(&t->term, text, len);
	free(text);
}

/* A refresh on stdout: 0, 1 when the reader has gone, -1 on an error. */
static int print_batch(struct top *t)
{
	struct top_text_info info;
	struct timespec ts;

	fill_info(t, &info, NULL);
	if (t->json) {
		clock_gettime(CLOCK_REALTIME, &ts);
		top_json_write(stdout, &t->view, &info,
			       ts.tv_sec + ts.tv_nsec / 1e9);
	} else {
		top_text_write(stdout, &t->view, &info);
		putchar('\n');
	}
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	if (errno == EPIPE)
		return 1;
	pr_err("stdout: %s\n", strerror(errno));
	return -1;
}

/* -1 error, 1 stop, 0 go on. */
static int show(struct top *t)
{
	if (t->headless)
		return 0;
	if (t->tty) {
		draw(t);
		return 0;
	}
	return print_batch(t);
}

/* A key of the view: 1 to quit, 2 to sample now, 0 otherwise. */
static int key(struct top *t, int k)
{
	if (k < 0 || k == 'q' || k == 'Q')
		return 1;
	if (k == ' ')
		return 2;
	if (k == 'g') {
		t->by = t->by == TOP_BY_CGROUP ? TOP_BY_CLIENT : TOP_BY_CGROUP;
		if (t->by == TOP_BY_CGROUP && top_view_group(&t->view, t->sort))
			t->by = TOP_BY_CLIENT;	/* out of memory: stay put */
		draw(t);
		return 0;
	}
	if (!top_sort_key(k, &t->sort)) {
		top_view_sort(&t->view, t->sort);
		draw(t);
	}
	return 0;
}

/* Signals pending: 1 to quit, 2 to sample now, 0 otherwise. */
static int signals(struct top *t)
{
	int sig, ret = 0;

	while ((sig = top_signal_next())) {
		if (sig == SIGWINCH && t->tty) {
			top_term_resize(&t->term);
			draw(t);
		} else if (sig == SIGUSR1) {
			ret = ret ?: 2;
		} else if (sig != SIGWINCH) {
			ret = 1;
		}
	}
	return ret;
}

static int loop(struct top *t)
{
	uint64_t delay_ns = (uint64_t)(t->delay_s * 1e9), next;
	struct pollfd pfd[2];
	int sigfd, r, ev;

	sigfd = top_signal_init();
	if (sigfd < 0)
		return -1;
	/* The first sample before the terminal changes: its errors read
	 * plainly. */
	if (take_sample(t))
		return -1;
	if (!t->o.batch && (t->o.listen || t->o.openmetrics) &&
	    !(isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))) {
		t->headless = true;
	} else if (!t->o.batch) {
		if (top_term_enter(&t->term))
			return -1;
		t->tty = true;
	}
	r = show(t);
	next = now_ns() + delay_ns;
	while (r == 0 && !(t->o.iterations && t->sample >= (unsigned long)t->o.iterations)) {
		uint64_t now = now_ns();
		int timeout = now >= next ? 0 : (int)((next - now + 999999) / 1000000);

		pfd[0] = (struct pollfd){ .fd = sigfd, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
		if (poll(pfd, t->tty ? 2 : 1, timeout) < 0 && errno != EINTR) {
			pr_err("poll: %s\n", strerror(errno));
			r = -1;
			break;
		}
		ev = signals(t);
		if (!ev && t->tty && (pfd[1].revents & (POLLIN | POLLHUP | POLLERR)))
			ev = key(t, top_term_key(&t->term));
		if (ev == 1)
			break;
		if (ev != 2 && now_ns() < next)
			continue;
		if (take_sample(t)) {
			r = -1;
			break;
		}
		r = show(t);
		next = now_ns() + delay_ns;
	}
	if (t->tty)
		top_term_leave(&t->term);
	return r < 0 ? -1 : 0;
}

static void cleanup(struct top *t)
{
	if (t->remote)
		live_client_close(t->remote);
	if (t->server)
		live_server_stop(t->server);
	if (t->have_clients)
		gpu_clients_free(&t->clients);
	top_view_free(&t->view);
	live_state_free(&t->state);
	free(t->gpuprof);
}

int cmd_top(int argc, const char **argv)
{
	struct top t;
	const struct option options[] = {
		OPT_STRING('d', "delay", &t.o.delay, "secs",
			   "seconds between refreshes (default 1, fractions allowed)"),
		OPT_INTEGER('n', "iterations", &t.o.iterations,
			    "stop after this many refreshes (default: never)"),
		OPT_INTEGER('p', "pid", &t.o.pid, "show only the clients of this process"),
		OPT_STRING('s', "sort", &t.o.sort, "key",
			   "sort clients by util, mem, pid or comm (default util)"),
		OPT_STRING(0, "by", &t.o.by, "client|cgroup",
			   "a row per client (default), or per cgroup summing its clients"),
		OPT_BOOLEAN('b', "batch", &t.o.batch,
			    "print each refresh to stdout instead of the terminal view"),
		OPT_STRING(0, "format", &t.o.format, "text|json",
			   "--batch output: text, or one JSON document per line"),
		OPT_STRING(0, "proc-root", &t.o.proc_root, "dir",
			   "read processes from here instead of /proc"),
		OPT_STRING(0, "device-root", &t.o.device_root, "dir",
			   "the gpuprof module's files (default /dev/gpuprof)"),
		OPT_STRING(0, "listen", &t.o.listen, "[addr:]port",
			   "serve the samples over the live protocol (loopback unless addr; port 0 picks one)"),
		OPT_STRING(0, "connect", &t.o.connect, "host:port",
			   "show the clients of a perf gpu top --listen"),
		OPT_STRING(0, "openmetrics", &t.o.openmetrics, "file",
			   "rewrite this file each refresh for node_exporter's textfile collector"),
		OPT_END()
	};
	const char *const usage[] = { "perf gpu top [<options>]", NULL };
	int err;

	memset(&t, 0, sizeof(t));
	argc = parse_options(argc, argv, options, usage, 0);
	if (argc)
		usage_with_options(usage, options);
	if (check_opts(&t))
		return 1;
	err = open_sources(&t);
	if (!err)
		err = loop(&t);
	cleanup(&t);
	return err ? 1 : 0;
}
