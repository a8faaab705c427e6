// SPDX-License-Identifier: GPL-2.0-only
/*
 * DOC: Optional attr features
 *
 * The kernel checks an attr as a whole: a bit it does not know, or a
 * sample field its configuration cannot give, makes perf_event_open()
 * fail with EINVAL before any permission check, and nothing says which
 * bit.  perf record drops its optional bits one by one until the open
 * succeeds (perf's evsel__detect_missing_features()); so does perf gpu
 * record, with one difference: a bit dropped on the way is put back when
 * the open succeeds with it, so that a kernel which lacks one feature
 * (CONFIG_CGROUP_PERF off) loses only that one, not every newer one
 * tried before it.  The features are tried newest first, the order in
 * which kernels gained them, so an old kernel takes the fewest opens.
 */
#include <errno.h>

#include "record/attr-fallback.h"

static bool has_format_lost(const struct perf_event_attr *attr)
{
	return attr->read_format & PERF_FORMAT_LOST;
}

static void copy_format_lost(struct perf_event_attr *to,
			     const struct perf_event_attr *from)
{
	to->read_format = (to->read_format & ~(__u64)PERF_FORMAT_LOST) |
			  (from->read_format & PERF_FORMAT_LOST);
}

static bool has_sample_cgroup(const struct perf_event_attr *attr)
{
	return attr->sample_type & PERF_SAMPLE_CGROUP;
}

static void copy_sample_cgroup(struct perf_event_attr *to,
			       const struct perf_event_attr *from)
{
	to->sample_type = (to->sample_type & ~(__u64)PERF_SAMPLE_CGROUP) |
			  (from->sample_type & PERF_SAMPLE_CGROUP);
}

static bool has_cgroup_records(const struct perf_event_attr *attr)
{
	return attr->cgroup;
}

static void copy_cgroup_records(struct perf_event_attr *to,
				const struct perf_event_attr *from)
{
	to->cgroup = from->cgroup;
}

const struct attr_feature attr_features[] = {
	{
		.name = "PERF_FORMAT_LOST",
		.needs = "Linux 6.0",
		.lacks = "samples lost after the last LOST record the kernel wrote are not counted",
		.has = has_format_lost,
		.copy = copy_format_lost,
	}, {
		.name = "PERF_SAMPLE_CGROUP",
		.needs = "Linux 5.7 with CONFIG_CGROUP_PERF",
		.lacks = "the samples carry no cgroup ids: the report has no cgroups",
		.has = has_sample_cgroup,
		.copy = copy_sample_cgroup,
	}, {
		.name = "cgroup records (attr.cgroup)",
		.needs = "Linux 5.7",
		.lacks = "cgroups made while recording are not named",
		.has = has_cgroup_records,
		.copy = copy_cgroup_records,
	},
};

const unsigned int nr_attr_features =
	sizeof(attr_features) / sizeof(attr_features[0]);

unsigned int attr_fallback(struct perf_event_attr *attr,
			   int (*try_open)(const struct perf_event_attr *attr,
					   void *arg),
			   void *arg)
{
	const struct perf_event_attr orig = *attr, none = { 0 };
	unsigned int i, dropped = 0, last = 0;
	int err = try_open(attr, arg);

	if (err != -EINVAL)
		return 0;
	/*
	 * Newest first, each on top of the ones before, until the kernel
	 * takes the attr (an error other than EINVAL, a permission one, is
	 * the caller's own open to report).
	 */
	for (i = 0; i < nr_attr_features && err == -EINVAL; i++) {
		if (!attr_features[i].has(attr))
			continue;
		attr_features[i].copy(attr, &none);
		dropped |= 1u << i;
		last = i;
		err = try_open(attr, arg);
	}
	if (err == -EINVAL) {
		*attr = orig;
		return 0;
	}
	/* The last one was needed; each before it may not have been. */
	for (i = 0; i < last; i++) {
		if (!(dropped & (1u << i)))
			continue;
		attr_features[i].copy(attr, &orig);
		if (try_open(attr, arg) == -EINVAL)
			attr_features[i].copy(attr, &none);
		else
			dropped &= ~(1u << i);
	}
	return dropped;
}
