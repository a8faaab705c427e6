/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What perf gpu top shows of a live_state (live/state.h), whether the
 * state was sampled here or came from another machine over the live
 * protocol: one row per CLIENT object, one per device (the ENGINE and
 * HEAP objects of one pdev, which carry the sums over its clients), and
 * the columns: the engines and the memory regions seen in any of them;
 * and, grouped by cgroup, one row per cgroup summing its clients.
 * The text, terminal and JSON writers all draw from this, so the three
 * cannot disagree.
 *
 * The view points into the state's strings: it is valid until the
 * state changes, and is rebuilt after each sample.
 */
#ifndef PERF_GPU_TOP_VIEW_H
#define PERF_GPU_TOP_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "live/state.h"

enum top_sort { TOP_SORT_UTIL, TOP_SORT_MEM, TOP_SORT_PID, TOP_SORT_COMM };

/* "util", "mem", "pid", "comm": 0, or -1 for another word. */
int top_sort_parse(const char *s, enum top_sort *sort);
const char *top_sort_name(enum top_sort sort);
/* The interactive keys u, m, p, c: 0, or -1 for another key. */
int top_sort_key(int key, enum top_sort *sort);

/* "client", "cgroup": what a row of the clients' table stands for. */
enum top_by { TOP_BY_CLIENT, TOP_BY_CGROUP };

int top_by_parse(const char *s, enum top_by *by);

/* A number the state may not have (a cycles-only engine has no busy ns). */
struct top_value {
	uint64_t v;
	bool has;
};

struct top_row {
	uint64_t id;		/* the CLIENT's id; devices: their index */
	int64_t pid;		/* -1 when the client has none; devices -1 */
	const char *comm;	/* "" when absent */
	const char *driver;
	const char *pdev;
	const char *cgroup;	/* "" when unknown; devices "" */
	const char *client_name;	/* drm-client-name, "" when none */
	int gpu;		/* index in top_view.devices, -1 for none */
	unsigned int nr_clients;	/* devices, cgroups: clients in it */
	uint64_t util_sum;	/* over the engines, hundredths of a percent */
	uint64_t mem_sum;	/* over the regions, bytes */
	/* Per column of the view: engines' utilisation and busy ns, regions. */
	struct top_value *util, *busy_ns, *mem;
};

struct top_view {
	const char **engines;	/* column names */
	unsigned int nr_engines;
	const char **regions;
	unsigned int nr_regions;
	struct top_row *clients;	/* filtered and sorted */
	unsigned int nr_clients;
	unsigned int nr_all_clients;	/* before the -p filter */
	struct top_row *devices;	/* sorted by pdev */
	unsigned int nr_devices;
	/*
	 * Built by top_view_group(): a row per cgroup of the clients shown
	 * (after -p), the sums of their values (an engine's utilisation
	 * over several devices can pass 100%); pid -1, comm "", id the
	 * row's first place.  Sorted as clients are, by path where clients
	 * go by pid or comm.
	 */
	struct top_row *cgroups;
	unsigned int nr_cgroups;
	struct top_value *values;	/* what the rows' arrays point into */
};

/*
 * Build @v from @st: clients of process @pid only when @pid > 0, in the
 * order of @sort.  0, or -1 out of memory (@v is then empty).
 */
int top_view_build(struct top_view *v, const struct live_state *st,
		   int64_t pid, enum top_sort sort);
/*
 * Group the clients shown by cgroup into v->cgroups (replacing any
 * earlier grouping), in the order of @sort.  0, or -1 out of memory.
 */
int top_view_group(struct top_view *v, enum top_sort sort);
/* Sort again after a key press: no new sample needed. */
void top_view_sort(struct top_view *v, enum top_sort sort);
void top_view_free(struct top_view *v);

#endif
