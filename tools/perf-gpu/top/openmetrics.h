/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf gpu top --openmetrics FILE: the clients of each sample as a text
 * exposition for node_exporter's textfile collector, which parses the
 * Prometheus text format (version 0.0.4) and refuses files with sample
 * timestamps.  So: no timestamps; "# TYPE" names a counter by its full
 * sample name ending in _total, as that format has it (OpenMetrics
 * proper would name the family without _total); "# EOF" ends the file,
 * which OpenMetrics requires and the Prometheus parser takes as a
 * comment.  Label values escape backslash, double quote and newline;
 * bytes that are not UTF-8 (a comm may hold any) become '?'.
 *
 * Families, each sample labelled pid, comm, cgroup, driver, pdev, client_id
 * (drm-client-id: one process may hold several clients of one device,
 * and series must differ), client_name (drm-client-name, "" when the
 * client has none: a client that names itself starts new series, as a
 * comm change does) and engine or region/kind:
 *   gpu_client_info                        gauge    1 per client: listed
 *                                                   even when its driver
 *                                                   gives no usage
 *   gpu_client_engine_busy_seconds_total   counter  drm-engine-<e>
 *   gpu_client_engine_capacity             gauge    drm-engine-capacity-<e>
 *                                                   (1 when not given)
 *   gpu_client_engine_cycles_total         counter  drm-cycles-<e>
 *   gpu_client_engine_elapsed_cycles_total counter  drm-total-cycles-<e>
 *   gpu_client_engine_max_frequency_hertz  gauge    drm-maxfreq-<e>
 *   gpu_client_memory_bytes                gauge    drm-<kind>-<region>,
 *       kind = total, shared, resident, purgeable, active, or memory
 *       for the older drm-memory-<region>
 * Cycle-counting drivers (msm, xe, panfrost) give no busy seconds: their
 * cycles are exported as they are, and utilisation is for the query to
 * compute: rate(cycles) / rate(elapsed_cycles), or rate(cycles) /
 * max_frequency_hertz.
 */
#ifndef PERF_GPU_TOP_OPENMETRICS_H
#define PERF_GPU_TOP_OPENMETRICS_H

#include <stdio.h>

#include "drm/clients.h"

/* The clients by pid, pdev and client id.  0, or -1 out of memory. */
int top_openmetrics_write(FILE *out, const struct gpu_clients *c);

/*
 * Replace @path with the exposition of @c: written to @path.tmp.PID in
 * the same directory, fsync()ed, then renamed over @path, so that a
 * reader sees the old file or the new one, never a part.  0, or -1 after
 * one line on stderr.
 */
int top_openmetrics_update(const char *path, const struct gpu_clients *c);

#endif
