// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu list: the GPU tracepoints this kernel has and the DRM devices
 * present, i.e. what a recording here could capture.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include <traceevent/event-parse.h>
#include <xf86drm.h>

#include "builtin.h"
#include "tracefs.h"

static bool verbose;

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

static int list_tracepoints(void)
{
	int i, found = 0;

	if (!tracefs_dir()) {
		fprintf(stderr, "perf gpu list: tracefs is not mounted\n");
		return -1;
	}
	printf("GPU tracepoints:\n");
	for (i = 0; gpu_trace_systems[i]; i++) {
		int n = tracefs_for_each_event(gpu_trace_systems[i],
					       print_event, NULL);
		if (n > 0)
			found += n;
	}
	if (!found)
		printf("  (none)\n");
	return 0;
}

static int dri_node(const struct dirent *d)
{
	return !strncmp(d->d_name, "card", 4) ||
	       !strncmp(d->d_name, "renderD", 7);
}

static void list_drm_devices(void)
{
	struct dirent **names;
	char path[300];
	int n, i, fd;

	printf("DRM devices:\n");
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
		if (ver)
			printf("  %-20s %s\n", path, ver->name);
		else
			printf("  %-20s (%s)\n", path, strerror(errno));
		drmFreeVersion(ver);
		if (fd >= 0)
			close(fd);
		free(names[i]);
	}
	free(names);
}

int cmd_list(int argc, const char **argv)
{
	const struct option options[] = {
		OPT_BOOLEAN('v', "verbose", &verbose,
			    "show the fields of each tracepoint"),
		OPT_END()
	};
	const char *const usage[] = { "perf gpu list [<options>]", NULL };

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc)
		usage_with_options(usage, options);
	if (list_tracepoints())
		return 1;
	list_drm_devices();
	return 0;
}
