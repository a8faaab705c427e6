/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf gpu top as plain text: what --batch prints for each refresh and
 * what the terminal view draws (cut to the window there).  ASCII only:
 * names from the kernel (comm, pdev) have their other bytes shown as '?',
 * so that a line's length in bytes is its width on the screen.
 *
 *   perf gpu top - SOURCE - N clients on N devices - sort KEY - every Ds - sample N
 *
 *   GPU PDEV             DRIVER   CLIENTS   render    copy      system0
 *     0 0000:00:02.0     i915           2   25.00%   0.00%     8.00 MiB
 *
 *       PID COMM             DRIVER   GPU   render    copy      system0 CGROUP
 *       101 glxgears         i915       0   12.50%   0.00%     4.00 MiB /user.slice
 *
 * With --by cgroup, a row per cgroup (top/view.h) in place of the
 * clients' rows:
 *
 *   CLIENTS   render    copy      system0 CGROUP
 *         2   25.00%   0.00%     8.00 MiB /system.slice/x.service
 *
 * Engines show utilisation since the previous sample, "-" where there is
 * none yet (a client's first sample) or the client has no such engine;
 * regions show bytes in binary units; CGROUP is "-" when unknown.  The device rows are the sums over
 * all of a device's clients, also with -p.
 *
 * When a client shown has named itself (drm-client-name, Linux 6.14 and
 * later), a CLIENT_NAME column before CGROUP, as wide as the longest
 * name, "-" for the clients without one; COMM stays the process's:
 *
 *       PID COMM             DRIVER   GPU  render    copy     system0 CLIENT_NAME CGROUP
 *       101 glxgears         i915       0   12.50%   0.00%    4.00 MiB gears-main  /user.slice
 */
#ifndef PERF_GPU_TOP_TEXT_H
#define PERF_GPU_TOP_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "top/view.h"

struct top_text_info {
	const char *source;	/* "local", or the HOST:PORT of --connect */
	enum top_sort sort;
	enum top_by by;
	double delay_s;
	unsigned long sample;	/* 1 for the first */
	const char *gpuprof;	/* the module's summary lines, or NULL */
	const char *status;	/* a message to show last, or NULL */
};

void top_text_write(FILE *out, const struct top_view *v,
		    const struct top_text_info *info);

/* @bytes as "512 B", "4.00 MiB"; @pct_x100 as "12.34%". */
void top_format_bytes(char *buf, size_t size, uint64_t bytes);
void top_format_percent(char *buf, size_t size, uint64_t pct_x100);

#endif
