// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu list [SECTION...]: the GPU tracepoints this kernel has, the
 * DRM devices present, the DRM clients of one fdinfo scan and the OA
 * metric sets, i.e. what a recording here could capture.  The sets are,
 * for each card, those IGT's table knows for its GPU (oa/metric-sets.h),
 * each with the id the kernel offers it under in sysfs now or "-", then
 * those the card offers that the table does not know; --device-id lists
 * a GPU's known sets without a card.  SECTIONs (tracepoints, devices,
 * clients, sets) narrow the output, as perf list's event kinds do.
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
#include "oa/device.h"
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
 * The sets IGT's table @metrics knows, each with the id @o offers it
 * under or "-", then those of @o the table does not know; each line
 * starts with @label (the card, or the device id).  Return: the lines.
 */
static int print_sets(const char *label, const struct oa_metric_platform *metrics,
		      const struct oa_card_offer *o, int n)
{
	char uuid[OA_METRIC_UUID_LEN + 1], id[24];
	const struct oa_metric_set *s;
	unsigned int i;
	int k, lines = 0;

	for (i = 0; metrics && i < metrics->n_sets; i++, lines++) {
		s = oa_metric_platform_set(metrics, i);
		oa_metric_uuid_format(s->uuid, uuid);
		for (k = 0; k < n && o[k].set != s; k++)
			;
		if (k < n)
			snprintf(id, sizeof(id), "%llu",
				 (unsigned long long)o[k].id);
		else
			snprintf(id, sizeof(id), "-");
		printf("  %-8s %-24s %s %s\n", label, oa_metric_str(s->symbol),
		       uuid, id);
	}
	for (k = 0; k < n; k++) {
		if (o[k].set)
			continue;
		printf("  %-8s %-24s %s %llu\n", label, "-", o[k].uuid,
		       (unsigned long long)o[k].id);
		lines++;
	}
	return lines;
}

/* One card's sets, its offers read from SYSFS/class/drm/cardN/metrics. */
static int list_card_metrics(const char *card)
{
	const struct oa_metric_platform *metrics;
	struct oa_card_offer *o;
	char dir[4096];
	int n, lines;

	snprintf(dir, sizeof(dir), "%s/class/drm/%s", sysfs_root, card);
	metrics = oa_metrics_of(oa_card_device_id(dir));
	n = oa_card_offered(dir, metrics, &o);
	if (n < 0) {
		pr_err("out of memory\n");
		return 0;
	}
	/* A card with neither a table nor offers has no OA to speak of. */
	lines = n || metrics ? print_sets(card, metrics, o, n) : 0;
	free(o);
	return lines;
}

static void list_metric_sets(void)
{
	struct dirent **cards;
	char path[4096];
	int n, i, found = 0;

	printf("OA metric sets (card, name, uuid, id offered now or -):\n");
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

/* --device-id: the sets the table knows for that GPU, no card read. */
static int list_device_metric_sets(uint32_t device_id)
{
	const struct oa_metric_platform *metrics;
	char label[16];

	metrics = oa_metrics_of(device_id);
	if (!metrics) {
		pr_err("--device-id: IGT 1.27.1 has no metric sets for device 0x%04x\n",
		       device_id);
		return -1;
	}
	snprintf(label, sizeof(label), "0x%04x", device_id);
	printf("OA metric sets IGT knows for %s (device, name, uuid, -: no card read):\n",
	       metrics->name);
	print_sets(label, metrics, NULL, 0);
	return 0;
}

enum list_section {
	LIST_TRACEPOINTS = 1 << 0,
	LIST_DEVICES = 1 << 1,
	LIST_CLIENTS = 1 << 2,
	LIST_SETS = 1 << 3,
};

static const struct {
	const char *name;
	unsigned int bit;
} list_sections[] = {
	{ "tracepoints", LIST_TRACEPOINTS },
	{ "devices", LIST_DEVICES },
	{ "clients", LIST_CLIENTS },
	{ "sets", LIST_SETS },
};

/* The section named @name, or 0. */
static unsigned int list_section_of(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(list_sections) / sizeof(list_sections[0]); i++)
		if (!strcmp(list_sections[i].name, name))
			return list_sections[i].bit;
	return 0;
}

/* "0x9a49" or "39497": 0 when not a 16-bit number. */
static uint32_t parse_device_id(const char *s)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || !v || v > 0xffff)
		return 0;
	return v;
}

int cmd_list(int argc, const char **argv)
{
	const char *device_id_arg = NULL;
	const struct option options[] = {
		OPT_BOOLEAN('v', "verbose", &verbose,
			    "show the fields of each tracepoint"),
		OPT_STRING(0, "proc-root", &proc_root, "dir",
			   "read the DRM clients under this proc (default /proc)"),
		OPT_STRING(0, "sysfs-root", &sysfs_root, "dir",
			   "read the OA metric sets under this sysfs (default /sys)"),
		OPT_STRING(0, "device-id", &device_id_arg, "id",
			   "list the metric sets IGT's tables know for this PCI device id, not the cards'"),
		OPT_END()
	};
	const char *const usage[] = {
		"perf gpu list [<options>] [tracepoints|devices|clients|sets...]",
		NULL
	};
	unsigned int want = 0, bit;
	uint32_t device_id = 0;
	int i, ret = 0;

	argc = parse_options(argc, argv, options, usage, 0);
	for (i = 0; i < argc; i++) {
		bit = list_section_of(argv[i]);
		if (!bit) {
			pr_err("'%s' is not a section: tracepoints, devices, clients or sets\n",
			       argv[i]);
			usage_with_options(usage, options);
		}
		want |= bit;
	}
	if (device_id_arg) {
		device_id = parse_device_id(device_id_arg);
		if (!device_id) {
			pr_err("--device-id: '%s' is not a PCI device id (0x9a49)\n",
			       device_id_arg);
			return 1;
		}
	}
	if (!want)
		want = ~0u;
	if (want & LIST_TRACEPOINTS)
		list_tracepoints();
	if (want & LIST_DEVICES)
		list_drm_devices();
	if ((want & LIST_CLIENTS) && list_clients())
		ret = 1;
	if (want & LIST_SETS) {
		if (!device_id)
			list_metric_sets();
		else if (list_device_metric_sets(device_id))
			ret = 1;
	}
	return ret;
}
