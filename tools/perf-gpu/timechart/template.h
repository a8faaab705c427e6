/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The page of perf gpu timechart (timechart/template.c): the writer puts
 * the title, HTML-escaped, in place of TIMECHART_TITLE_MARK and the JSON
 * data in place of TIMECHART_DATA_MARK.
 */
#ifndef PERF_GPU_TIMECHART_TEMPLATE_H
#define PERF_GPU_TIMECHART_TEMPLATE_H

#define TIMECHART_TITLE_MARK	"@@TITLE@@"
#define TIMECHART_DATA_MARK	"@@DATA@@"

extern const char timechart_template[];

#endif
