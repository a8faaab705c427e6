/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fixture most device tests share: gpuprof.ko loaded before each
 * test, and unloaded after it, which must succeed (a leaked reference
 * would make it fail; leaked objects show in dmesg at kmem_cache_destroy).
 */
#ifndef GPUPROF_TEST_FIXTURE_H
#define GPUPROF_TEST_FIXTURE_H

#include "gpuprof.h"
#include "kmod.h"

FIXTURE(gp) {
	char buf[1 << 16];
};

FIXTURE_SETUP(gp)
{
	ASSERT_EQ(0, gpuprof_load(NULL));
}

FIXTURE_TEARDOWN(gp)
{
	EXPECT_EQ(0, gpuprof_unload());
}

#endif
