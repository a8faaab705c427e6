// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu list: the GPU tracepoints this kernel has, the DRM devices
 * present, the DRM clients of one fdinfo scan and the OA metric sets i915
 * offers in sysfs (named from IGT's table for the card's GPU,
 * oa/metric-sets.h), i.e. what a recording here could capture.
 * --proc-root and --sysfs-root point at other trees (containers, tests).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "util/options.h"
#include <traceevent/event-parse.h>
#include <xf86drm.h>

#include "builtin.h"
#include "drm/clients.h"
#include "oa/i915.h"
#include "oa/metric-sets.h"
#include "perfdata/tracefs.h"
#include "util/debug.h"
#include "util/file.h"

static bool verbose;
static const char *proc_root = "/proc";
static const char *sysfs_root = "/sys";

/* With -v, the fields of the event as libtraceevent parses its format. */
static void print_fields(const char *system, const char *event)
{
	struct tep_handle *tep;
	struct tep_event *ev = NULL;
	struct tep_format_field **fields;
	size_t len;
	char *fmt;
	int i;

	fmt = tracefs_read_format(system, event, &len);
	if (!fmt) {
		printf("    (format unreadable: %s)\n", strerror(errno));
		return;
	}
	tep = tep_alloc();
	if (tep && tep_parse_format(tep, &ev, fmt, len, system) == 0 && ev) {
		fields = tep_event_fields(ev);
		for (i = 0; fields && fields[i]; i++)
			printf("    %s\n", fields[i]->name);
		free(fields);
	} else {
		printf("    (format not parsed)\n");
	}
	tep_free(tep);
	free(fmt);
}

static int print_event(const char *system, const char *event, void *arg)
{
	char name[256];

	(void)arg;
	snprintf(name, sizeof(name), "%s:%s", system, event);
	printf("  %-50s [Tracepoint event]\n", name);
	if (verbose)
		print_fields(system, event);
	return 0;
}

static void list_tracepoints(void)
{
	int i, found = 0;

	printf("GPU tracepoints:\n");
	/* Not fatal: the clients and metric sets need no tracefs. */
	if (!tracefs_dir()) {
		printf("  (tracefs is not mounted)\n");
		return;
	}
	for (i = 0; gpu_trace_systems[i]; i++) {
		int n = tracefs_for_each_event(gpu_trace_systems[i],
					       print_event, NULL);
		if (n > 0)
			found += n;
	}
	if (!found)
		printf("  (none)\n");
}

static int dri_node(const struct dirent *d)
{
	return !strncmp(d->d_name, "card", 4) ||
	       !strncmp(d->d_name, "renderD", 7);
}

/*
 * The device a DRM node belongs to, as drm-pdev names it in fdinfo: the
 * name of the node's parent device in sysfs ("0000:00:02.0", "vgem").
 */
static void node_pdev(const char *path, char *pdev, size_t size)
{
	char link[PATH_MAX], target[PATH_MAX];
	struct stat st;
	ssize_t n;
	char *base;

	snprintf(pdev, size, "-");
	if (stat(path, &st) || !S_ISCHR(st.st_mode))
		return;
	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u/device",
		 major(st.st_rdev), minor(st.st_rdev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	base = strrchr(target, '/');
	/* Cut to the caller's buffer, as fdinfo's drm-pdev would be. */
	snprintf(pdev, size, "%.*s", (int)size - 1, base ? base + 1 : target);
}

static void list_drm_devices(void)
{
	struct dirent **names;
	char path[300], pdev[64];
	int n, i, fd;

	printf("DRM devices (node, pdev, driver):\n");
	n = scandir("/dev/dri", &names, dri_node, versionsort);
	if (n <= 0) {
		printf("  (none)\n");
		if (n == 0)
			free(names);
		return;
	}
	for (i = 0; i < n; i++) {
		drmVersionPtr ver = NULL;

		snprintf(path, sizeof(path), "/dev/dri/%s", names[i]->d_name);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd >= 0)
			ver = drmGetVersion(fd);
		node_pdev(path, pdev, sizeof(pdev));
		if (ver)
			printf("  %-20s %-14s %s\n", path, pdev, ver->name);
		else
			printf("  %-20s %-14s (%s)\n", path, pdev, strerror(errno));
		drmFreeVersion(ver);
		if (fd >= 0)
			close(fd);
		free(names[i]);
	}
	free(names);
}

/* By pid, then driver, device and client id: what a reader looks for. */
static int cmp_client(const void *a, const void *b)
{
	const struct gpu_client *x = *(const struct gpu_client *const *)a;
	const struct gpu_client *y = *(const struct gpu_client *const *)b;
	int r;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	r = strcmp(x->fi.driver, y->fi.driver);
	if (!r)
		r = strcmp(x->fi.pdev, y->fi.pdev);
	if (!r && x->fi.client_id != y->fi.client_id)
		r = x->fi.client_id < y->fi.client_id ? -1 : 1;
	return r;
}

/* @names: a last column, the client's drm-client-name ("-": none). */
static void print_client(const struct gpu_client *c, bool names)
{
	char id[24] = "-";

	/* Without drm-client-id an fd is a client of its own, unnamed. */
	if (c->fi.has_client_id)
		snprintf(id, sizeof(id), "%llu",
			 (unsigned long long)c->fi.client_id);
	printf("  %7d %-16s %-10s %-13s %10s %4u", (int)c->pid,
	       c->comm[0] ? c->comm : "-", c->fi.driver,
	       c->fi.pdev[0] ? c->fi.pdev : "-", id, c->nr_fds);
	if (names)
		printf(" %s", c->fi.has_client_name ? c->fi.client_name : "-");
	putchar('\n');
}

/* Whether a client named itself (Linux 6.14 and later): the column shows. */
static bool any_client_name(const struct gpu_clients *s)
{
	unsigned int i;

	for (i = 0; i < s->nr_clients; i++)
		if (s->clients[i].fi.has_client_name)
			return true;
	return false;
}

/* The clients of one scan of PROC_ROOT/PID/fdinfo (design.rst 6.2). */
static int list_clients(void)
{
	const struct gpu_client **order;
	struct gpu_clients s;
	unsigned int i;
	bool names;

	if (gpu_clients_init(&s, proc_root)) {
		pr_err("out of memory\n");
		return -1;
	}
	if (gpu_clients_scan(&s, 0)) {
		pr_err("%s: %s\n", proc_root,
		       strerror(errno));
		gpu_clients_free(&s);
		return -1;
	}
	printf("DRM clients:\n");
	if (!s.nr_clients)
		printf("  (none)\n");
	order = calloc(s.nr_clients ? s.nr_clients : 1, sizeof(*order));
	if (!order) {
		pr_err("out of memory\n");
		gpu_clients_free(&s);
		return -1;
	}
	for (i = 0; i < s.nr_clients; i++)
		order[i] = &s.clients[i];
	qsort(order, s.nr_clients, sizeof(*order), cmp_client);
	names = any_client_name(&s);
	if (s.nr_clients)
		printf("  %7s %-16s %-10s %-13s %10s %4s%s\n", "PID", "COMM",
		       "DRIVER", "PDEV", "CLIENT", "FDS",
		       names ? " CLIENT_NAME" : "");
	for (i = 0; i < s.nr_clients; i++)
		print_client(order[i], names);
	free(order);
	gpu_clients_free(&s);
	return 0;
}

/* card0, card1: the devices, not their connectors (card0-DP-1). */
static int card_dir(const struct dirent *d)
{
	const char *p;

	if (strncmp(d->d_name, "card", 4) || !d->d_name[4])
		return 0;
	for (p = d->d_name + 4; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

/*
 * One card's metric sets, SYSFS/class/drm/cardN/metrics/UUID/id: name
 * (when IGT's table for the card's GPU knows the uuid, else "-"), uuid
 * and id; known sets first in the table's order, the others by uuid.
 */
static int list_card_metrics(const char *card)
{
	const struct oa_metric_platform *metrics;
	struct oa_i915_offer *o;
	char dir[4096];
	int n, i;

	snprintf(dir, sizeof(dir), "%s/class/drm/%s", sysfs_root, card);
	metrics = oa_i915_metrics_of(oa_i915_card_device_id(dir));
	n = oa_i915_offered(dir, metrics, &o);
	if (n < 0) {
		pr_err("out of memory\n");
		return 0;
	}
	for (i = 0; i < n; i++)
		printf("  %-8s %-24s %s %llu\n", card,
		       o[i].set ? oa_metric_str(o[i].set->symbol) : "-",
		       o[i].uuid, (unsigned long long)o[i].id);
	free(o);
	return n;
}

static void list_metric_sets(void)
{
	struct dirent **cards;
	char path[4096];
	int n, i, found = 0;

	printf("OA metric sets (card, name, uuid, id):\n");
	snprintf(path, sizeof(path), "%s/class/drm", sysfs_root);
	n = scandir(path, &cards, card_dir, versionsort);
	for (i = 0; i < n; i++) {
		found += list_card_metrics(cards[i]->d_name);
		free(cards[i]);
	}
	if (n >= 0)
		free(cards);
	if (!found)
		printf("  (none)\n");
}

int cmd_list(int argc, const char **argv)
{
	const struct option options[] = {
		OPT_BOOLEAN('v', "verbose", &verbose,
			    "show the fields of each tracepoint"),
		OPT_STRING(0, "proc-root", &proc_root, "dir",
			   "read the DRM clients under this proc (default /proc)"),
		OPT_STRING(0, "sysfs-root", &sysfs_root, "dir",
			   "read the OA metric sets under this sysfs (default /sys)"),
		OPT_END()
	};
	const char *const usage[] = { "perf gpu list [<options>]", NULL };
	int ret = 0;

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc)
		usage_with_options(usage, options);
	list_tracepoints();
	list_drm_devices();
	if (list_clients())
		ret = 1;
	list_metric_sets();
	return ret;
}
