/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf gpu top --batch --format=json: each refresh as one JSON document
 * on one line, so a script reads the output line by line:
 *
 *   {"time": UNIX seconds, "sample": N, "source": "local"|"HOST:PORT",
 *    "sort": "util"|"mem"|"pid"|"comm",
 *    "devices": [{"gpu": N, "pdev": S, "driver": S, "clients": N,
 *                 "engines": {E: UTIL|null}, "memory": {R: BYTES|null}}],
 *    "clients": [{"id": "HEX", "pid": N|null, "comm": S, "driver": S,
 *                 "pdev": S, "gpu": N|null, "cgroup": PATH|null,
 *                 "client_name": S|null (drm-client-name; null: none),
 *                 "engines": {E: {"busy_ns": N|null, "util": UTIL|null}},
 *                 "memory": {R: BYTES|null}}],
 *    "cgroups": [{"clients": N, "cgroup": PATH|null, "engines": ...,
 *                 "memory": ...}]       (with --by cgroup only: sums)
 *    "gpuprof": perf gpu report --device's JSON document, or null}
 *
 * UTIL is a percentage with two decimals (100 = one engine instance busy
 * all along); null where there is none yet (a client's first sample) or
 * the engine counts cycles instead of ns (busy_ns).  Every engine and
 * region of the view is a key of every object, null where absent.  ids
 * are hex strings: 64 bits do not fit a JSON number exactly.
 */
#ifndef PERF_GPU_TOP_JSON_H
#define PERF_GPU_TOP_JSON_H

#include <stdio.h>

#include "top/text.h"
#include "top/view.h"

/* @info as for text; its gpuprof, when set, is a JSON document. */
void top_json_write(FILE *out, const struct top_view *v,
		    const struct top_text_info *info, double unix_time);

#endif
