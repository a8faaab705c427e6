/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The optional parts of the recorder's perf_event_attr, and finding the
 * ones a kernel refuses, as perf's own evsel open fallbacks do: a kernel
 * that lacks one answers EINVAL for the whole attr, and the recording is
 * still worth making without it.
 */
#ifndef PERF_GPU_RECORD_ATTR_FALLBACK_H
#define PERF_GPU_RECORD_ATTR_FALLBACK_H

#include <stdbool.h>
#include <linux/perf_event.h>

struct attr_feature {
	const char *name;	/* as the warning names it */
	const char *needs;	/* what a kernel needs for it */
	const char *lacks;	/* what a recording without it lacks */
	bool (*has)(const struct perf_event_attr *attr);
	/* Set the feature's bits of @to as they are in @from. */
	void (*copy)(struct perf_event_attr *to,
		     const struct perf_event_attr *from);
};

/* The optional features, newest first; bit i of a mask is feature i. */
extern const struct attr_feature attr_features[];
extern const unsigned int nr_attr_features;

/*
 * Open @attr with @try_open (0, or -errno); on EINVAL, find the
 * optional features without which the kernel takes it (opens it, or
 * fails for another reason such as a permission) and remove them from
 * @attr, none that is not needed.  Returns the mask of features removed:
 * 0 when @attr was taken as it was, failed for another reason, or fails
 * with EINVAL even without every optional feature (then @attr is left
 * as it was, for the caller's own open to report the error).
 */
unsigned int attr_fallback(struct perf_event_attr *attr,
			   int (*try_open)(const struct perf_event_attr *attr,
					   void *arg),
			   void *arg);

#endif
