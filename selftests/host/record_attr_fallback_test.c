// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu record's search for the attr features a kernel refuses
 * (record/attr-fallback.c), against model kernels that refuse what a
 * real one of that kind refuses with EINVAL: 6.12 without
 * CONFIG_CGROUP_PERF (the cgroup sample), 5.15 (PERF_FORMAT_LOST, 6.0),
 * 5.4 (all three, the cgroup bits came in 5.7), and one that refuses
 * something else.  What each model refuses is written from the kernel's
 * perf_copy_attr() and perf_event_open(); the tests check which
 * features are dropped, that nothing else of the attr changes, and how
 * many opens it took.  The real kernel without CONFIG_CGROUP_PERF is
 * the 6.12 debug kernel (Documentation/testing.rst).
 */
#include <errno.h>
#include <string.h>

#include "../lib/harness.h"
#include "../../tools/perf-gpu/record/attr-fallback.h"

struct model {
	bool no_format_lost, no_sample_cgroup, no_cgroup_records;
	bool other_einval;	/* EINVAL for a reason of its own */
	int after;		/* what a taken attr gives: 0 or -EACCES */
	int opens;
};

static int model_open(const struct perf_event_attr *attr, void *arg)
{
	struct model *m = arg;

	m->opens++;
	if (m->no_format_lost && (attr->read_format & PERF_FORMAT_LOST))
		return -EINVAL;
	if (m->no_sample_cgroup && (attr->sample_type & PERF_SAMPLE_CGROUP))
		return -EINVAL;
	if (m->no_cgroup_records && attr->cgroup)
		return -EINVAL;
	if (m->other_einval)
		return -EINVAL;
	return m->after;
}

/* The recorder's attr (builtin-record.c base_attr(), the first event). */
static struct perf_event_attr recorder_attr(void)
{
	return (struct perf_event_attr){
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(struct perf_event_attr),
		.config = 1234,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			       PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW |
			       PERF_SAMPLE_CGROUP,
		.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST,
		.sample_id_all = 1,
		.use_clockid = 1,
		.clockid = 1,
		.comm = 1,
		.cgroup = 1,
	};
}

/* Bit i of the mask: attr_features[i], by name. */
static unsigned int bit(const char *name)
{
	unsigned int i;

	for (i = 0; i < nr_attr_features; i++)
		if (!strcmp(attr_features[i].name, name))
			return 1u << i;
	return 0;
}

#define LOST	bit("PERF_FORMAT_LOST")
#define SAMPLE	bit("PERF_SAMPLE_CGROUP")
#define RECORDS	bit("cgroup records (attr.cgroup)")

/* @attr is @want but for the features of @dropped, which it lacks. */
static void expect_dropped(struct __test_metadata *_metadata,
			   const struct perf_event_attr *attr,
			   unsigned int dropped)
{
	struct perf_event_attr want = recorder_attr();

	if (dropped & LOST)
		want.read_format &= ~(__u64)PERF_FORMAT_LOST;
	if (dropped & SAMPLE)
		want.sample_type &= ~(__u64)PERF_SAMPLE_CGROUP;
	if (dropped & RECORDS)
		want.cgroup = 0;
	EXPECT_EQ(0, memcmp(&want, attr, sizeof(want)));
}

TEST(the_feature_names_are_those_of_the_table)
{
	ASSERT_EQ(3, nr_attr_features);
	EXPECT_NE(0, LOST);
	EXPECT_NE(0, SAMPLE);
	EXPECT_NE(0, RECORDS);
}

TEST(a_kernel_that_takes_everything_loses_nothing_in_one_open)
{
	struct perf_event_attr attr = recorder_attr();
	struct model m = { 0 };

	EXPECT_EQ(0, attr_fallback(&attr, model_open, &m));
	EXPECT_EQ(1, m.opens);
	expect_dropped(_metadata, &attr, 0);
}

/*
 * 6.12 without CONFIG_CGROUP_PERF: the cgroup sample only.  PERF_FORMAT_LOST,
 * tried first and not the cause, is put back.
 */
TEST(without_cgroup_perf_only_the_cgroup_sample_goes)
{
	struct perf_event_attr attr = recorder_attr();
	struct model m = { .no_sample_cgroup = true };

	EXPECT_EQ(SAMPLE, attr_fallback(&attr, model_open, &m));
	expect_dropped(_metadata, &attr, SAMPLE);
	/* as given, without LOST, without LOST and the sample, LOST back */
	EXPECT_EQ(4, m.opens);
}

TEST(a_kernel_before_6_0_loses_the_lost_count_only)
{
	struct perf_event_attr attr = recorder_attr();
	struct model m = { .no_format_lost = true };

	EXPECT_EQ(LOST, attr_fallback(&attr, model_open, &m));
	expect_dropped(_metadata, &attr, LOST);
	EXPECT_EQ(2, m.opens);
}

TEST(a_kernel_before_5_7_loses_all_three)
{
	struct perf_event_attr attr = recorder_attr();
	struct model m = { .no_format_lost = true, .no_sample_cgroup = true,
			   .no_cgroup_records = true };

	EXPECT_EQ(LOST | SAMPLE | RECORDS, attr_fallback(&attr, model_open, &m));
	expect_dropped(_metadata, &attr, LOST | SAMPLE | RECORDS);
}

/* Two lacking, one in the middle kept: each put back is tried alone. */
TEST(features_lacking_together_go_together)
{
	struct perf_event_attr attr = recorder_attr();
	struct model m = { .no_format_lost = true, .no_cgroup_records = true };

	EXPECT_EQ(LOST | RECORDS, attr_fallback(&attr, model_open, &m));
	expect_dropped(_metadata, &attr, LOST | RECORDS);
}

/* An EINVAL no optional feature explains: the attr as it was. */
TEST(another_einval_changes_nothing)
{
	struct perf_event_attr attr = recorder_attr();
	struct model m = { .other_einval = true };

	EXPECT_EQ(0, attr_fallback(&attr, model_open, &m));
	expect_dropped(_metadata, &attr, 0);
	EXPECT_EQ(4, m.opens);
}

/* A permission error is the real open's to report, at once. */
TEST(a_permission_error_is_not_searched)
{
	struct perf_event_attr attr = recorder_attr();
	struct model m = { .after = -EACCES };

	EXPECT_EQ(0, attr_fallback(&attr, model_open, &m));
	EXPECT_EQ(1, m.opens);
	expect_dropped(_metadata, &attr, 0);
}

/*
 * The kernel checks the attr before the caller's rights: an unprivileged
 * user on a kernel without cgroup perf events gets EINVAL first, then
 * EACCES once the cgroup sample is gone.  The sample stays dropped.
 */
TEST(einval_before_a_permission_error_is_still_found)
{
	struct perf_event_attr attr = recorder_attr();
	struct model m = { .no_sample_cgroup = true, .after = -EACCES };

	EXPECT_EQ(SAMPLE, attr_fallback(&attr, model_open, &m));
	expect_dropped(_metadata, &attr, SAMPLE);
}

TEST_HARNESS_MAIN
