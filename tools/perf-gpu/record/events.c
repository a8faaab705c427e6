// SPDX-License-Identifier: GPL-2.0-only
/*
 * Choosing the tracepoints of a recording from what tracefs has.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfdata/tracefs.h"
#include "record/events.h"
#include "util/array.h"
#include "util/debug.h"
#include "util/file.h"

/* The id the kernel gave the tracepoint: what perf_event_attr.config takes. */
static int read_event_id(const char *system, const char *event, uint64_t *id)
{
	const char *dir = tracefs_dir();
	char path[PATH_MAX];

	if (!dir)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, system, event);
	return file_read_u64(path, id);
}

static bool have_event(const struct record_events *evs, const char *system,
		       const char *event)
{
	unsigned int i;

	for (i = 0; i < evs->nr; i++)
		if (!strcmp(evs->ev[i].system, system) &&
		    !strcmp(evs->ev[i].event, event))
			return true;
	return false;
}

static int add_one(struct record_events *evs, const char *system,
		   const char *event)
{
	struct record_event *e;
	uint64_t id;
	int err;

	if (have_event(evs, system, event))
		return 0;
	err = read_event_id(system, event, &id);
	if (err)
		return err;
	if (ARRAY_RESERVE(evs->ev, evs->alloc, evs->nr + 1))
		return -ENOMEM;
	e = &evs->ev[evs->nr];
	e->system = strdup(system);
	e->event = strdup(event);
	if (asprintf(&e->name, "%s:%s", system, event) < 0)
		e->name = NULL;
	if (!e->system || !e->event || !e->name) {
		free(e->system);
		free(e->event);
		free(e->name);
		return -ENOMEM;
	}
	e->id = id;
	evs->nr++;
	return 0;
}

struct match {
	struct record_events *evs;
	const char *pattern;	/* NULL: every event */
	int added;
};

static int add_matching(const char *system, const char *event, void *arg)
{
	struct match *m = arg;
	int err;

	if (m->pattern && fnmatch(m->pattern, event, 0))
		return 0;
	err = add_one(m->evs, system, event);
	if (err)
		return err;
	m->added++;
	return 0;
}

int record_events_add_defaults(struct record_events *evs, bool verbose)
{
	int i, n;

	for (i = 0; gpu_trace_systems[i]; i++) {
		const char *sys = gpu_trace_systems[i];
		/*
		 * Of drm's events only the vblank ones say anything about the
		 * GPU: the ticks, and the flip events queued and delivered.
		 */
		struct match m = {
			evs, strcmp(sys, "drm") ? NULL : "drm_vblank_event*", 0,
		};

		n = tracefs_for_each_event(sys, add_matching, &m);
		if (n == -ENOENT || (n >= 0 && !m.added)) {
			if (verbose)
				pr_err("no %s tracepoints here, skipped\n",
				       m.pattern ? m.pattern : sys);
			continue;
		}
		if (n < 0)
			return n;
	}
	return 0;
}

int record_events_add(struct record_events *evs, const char *spec)
{
	const char *colon = strchr(spec, ':');
	struct match m = { evs, NULL, 0 };
	char system[256];
	int n;

	if (!colon || colon == spec || !colon[1] || strchr(colon + 1, ':') ||
	    strchr(spec, '/') || (size_t)(colon - spec) >= sizeof(system))
		return -EINVAL;
	snprintf(system, sizeof(system), "%.*s", (int)(colon - spec), spec);
	m.pattern = colon + 1;
	n = tracefs_for_each_event(system, add_matching, &m);
	if (n < 0)
		return n;
	/* m.added counts matches, ones already present included. */
	return m.added ? 0 : -ENOENT;
}

void record_events_free(struct record_events *evs)
{
	unsigned int i;

	for (i = 0; i < evs->nr; i++) {
		free(evs->ev[i].system);
		free(evs->ev[i].event);
		free(evs->ev[i].name);
	}
	free(evs->ev);
	evs->ev = NULL;
	evs->nr = evs->alloc = 0;
}
