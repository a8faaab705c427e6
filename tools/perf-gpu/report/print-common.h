/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the text, CSV and JSON printers of perf gpu report share
 * (report/print.h): a client's cgroup and DRM client names, the rows a
 * filter keeps that the printers themselves walk (the scheduler's), the
 * figures more than one format prints (a share of the span, the events
 * lost, the OA total and a range's OA row) and the header lines text and
 * CSV both write.  One place each, so that the formats cannot disagree.
 */
#ifndef PERF_GPU_REPORT_PRINT_COMMON_H
#define PERF_GPU_REPORT_PRINT_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/print.h"

/* A process's client names in one field: a few names of up to 64 bytes. */
#define CLIENT_NAMES_MAX	512

/* The path of a cgroup, NULL when the file does not name it. */
const char *report_cgroup_path(const struct report *r,
			       const struct report_cgroup *cg);

/*
 * The names the DRM clients of process @pid gave themselves, as the
 * recording's fdinfo snapshots show them (report/names.h), separated by
 * spaces (a name has none), cut at a whole name: "" when none.
 */
const char *report_client_names(const struct report *r, int32_t pid,
				char *buf, size_t size);

/* --pid, --comm or --cgroup: some clients' rows only. */
bool report_has_client_filter(const struct report *r);

/* A scheduler row by its process (no cgroup filter: rows carry ids only). */
bool report_sched_row_selected(const struct report *r,
			       const struct report_sched_row *row);

/* Share of the span in hundredths of a percent. */
uint64_t report_share_x100(const struct report *r, uint64_t busy);

/* The events lost, of every kind and of none known, saturated. */
uint64_t report_lost_total(const struct report *r);

/* A crtc row's name: its index, "/N" for another device's (report/model.h). */
const char *report_crtc_name(char *buf, size_t size, const struct report_crtc *c);

/*
 * The OA clock's correlation points and the widest error bound among
 * them: how far off, at most, an OA report's CPU time can be.
 */
void report_oa_clock_line(struct report *r);

/*
 * What the recording lacks that a report would otherwise show: the
 * cgroups, when the samples carry no cgroup ids.  NULL when nothing.
 */
const char *report_recording_lacks(const struct report *r);

/* A cgroup's path for text, "-" when none, "#ID" when unnamed. */
const char *report_cgroup_name(char *buf, size_t size, const struct report *r,
			       const struct report_cgroup *cg);

/* Every delta taken, as a row: the OA total of the recording. */
void report_oa_total(const struct report *r, struct report_oa *all);

/* A range's OA deltas as a row. */
void report_range_oa(const struct report *r, uint64_t reports,
		     const struct gpuprof_oa_deltas *d, struct report_oa *o);

#endif
