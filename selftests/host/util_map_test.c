// SPDX-License-Identifier: GPL-2.0-only
/*
 * util/map, the one hash map of tools/perf-gpu: every key findable
 * through removals (backward shifts across the wrap), key 0 kept apart
 * from the slots whose free mark it is, walks and clears, and maps keyed
 * by a hash that two things share (u64_map_find_hashed()), and the
 * mixers' values, which output shows.  Each expected value is computed
 * here from the keys put, not from the map.
 */
#include <stdint.h>
#include <string.h>

#include "../lib/harness.h"
#include "../../tools/perf-gpu/util/map.h"

/* Removal keeps every other key findable, key 0 among them. */
TEST(map_keeps_keys_through_removals)
{
	struct u64_map m;
	uint64_t v, i, n = 100000;

	u64_map_init(&m);
	/* Braces: an ASSERT is two statements (the harness's own handler). */
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, u64_map_put(&m, i * 7919 << 32 | i, i + 1));
	}
	for (i = 1; i < n; i += 2) {
		ASSERT_TRUE(u64_map_del(&m, i * 7919 << 32 | i, &v));
	}
	EXPECT_EQ(n / 2, m.nr);
	for (i = 0; i < n; i++) {
		bool there = u64_map_get(&m, i * 7919 << 32 | i, &v);

		ASSERT_EQ(i % 2 == 0, there) TH_LOG("key %llu", (unsigned long long)i);
		if (there) {
			ASSERT_EQ(i + 1, v);
		}
	}
	EXPECT_FALSE(u64_map_del(&m, 1, NULL));
	u64_map_free(&m);
}

/* A walk sees each key once; a clear empties the map and keeps its slots. */
TEST(map_walks_and_clears)
{
	uint64_t k, v, seen = 0, sum = 0, i, n = 1000;
	struct u64_map m;
	size_t pos = 0, slots;

	u64_map_init(&m);
	EXPECT_FALSE(u64_map_next(&m, &pos, &k, &v));
	for (i = 1; i <= n; i++) {
		ASSERT_EQ(0, u64_map_put(&m, i << 32, i));
	}
	while (u64_map_next(&m, &pos, &k, &v)) {
		ASSERT_EQ(k >> 32, v);
		seen++;
		sum += v;
	}
	EXPECT_EQ(n, seen);
	EXPECT_EQ(n * (n + 1) / 2, sum);
	slots = m.mask + 1;
	u64_map_clear(&m);
	EXPECT_EQ(0, m.nr);
	EXPECT_EQ(slots, m.mask + 1);
	for (i = 1; i <= n; i++) {
		ASSERT_FALSE(u64_map_get(&m, i << 32, &v));
	}
	pos = 0;
	EXPECT_FALSE(u64_map_next(&m, &pos, NULL, NULL));
	ASSERT_EQ(0, u64_map_put(&m, 7, 8));
	EXPECT_TRUE(u64_map_get(&m, 7, &v));
	EXPECT_EQ(8, v);
	u64_map_free(&m);
}

/* Key 0 is a key like any other: put, found, walked, replaced, removed. */
TEST(key_zero_is_a_key)
{
	struct u64_map m;
	uint64_t k, v, seen = 0;
	size_t pos = 0;

	u64_map_init(&m);
	EXPECT_FALSE(u64_map_get(&m, 0, &v));
	EXPECT_FALSE(u64_map_del(&m, 0, NULL));
	ASSERT_EQ(0, u64_map_put(&m, 0, 5));
	ASSERT_EQ(0, u64_map_put(&m, 3, 6));
	EXPECT_EQ(2, m.nr);
	ASSERT_TRUE(u64_map_get(&m, 0, &v));
	EXPECT_EQ(5, v);
	ASSERT_EQ(0, u64_map_put(&m, 0, 7));
	EXPECT_EQ(2, m.nr);
	while (u64_map_next(&m, &pos, &k, &v))
		seen |= k == 0 && v == 7 ? 1 : k == 3 && v == 6 ? 2 : 4;
	EXPECT_EQ(3, seen);
	ASSERT_TRUE(u64_map_del(&m, 0, &v));
	EXPECT_EQ(7, v);
	EXPECT_FALSE(u64_map_get(&m, 0, &v));
	EXPECT_EQ(1, m.nr);
	ASSERT_EQ(0, u64_map_put(&m, 0, 1));
	u64_map_clear(&m);
	EXPECT_FALSE(u64_map_get(&m, 0, &v));
	EXPECT_EQ(0, m.nr);
	u64_map_free(&m);
}

/*
 * Keys a context in the high half and a seqno in the low, 4096 contexts
 * of 64 fences each, removed in a shuffled order: each removal leaves
 * exactly the keys not removed yet.
 */
TEST(fence_keys_removed_in_any_order)
{
	enum { N = 4096 * 64 };
	static uint64_t keys[N];
	struct u64_map m;
	uint64_t v, r = 12345;
	size_t i, j;

	u64_map_init(&m);
	for (i = 0; i < N; i++) {
		keys[i] = (uint64_t)(i / 64) << 32 | (i % 64);
		ASSERT_EQ(0, u64_map_put(&m, keys[i], i));
	}
	for (i = N - 1; i > 0; i--) {
		uint64_t t;

		r = r * 6364136223846793005ull + 1442695040888963407ull;
		j = (r >> 33) % (i + 1);
		t = keys[i];
		keys[i] = keys[j];
		keys[j] = t;
	}
	for (i = 0; i < N; i++) {
		ASSERT_TRUE(u64_map_del(&m, keys[i], &v));
		ASSERT_EQ(keys[i], (uint64_t)(v / 64) << 32 | (v % 64));
		if (i % 4099 == 0) {
			for (j = 0; j < N; j++) {
				ASSERT_EQ(j > i, u64_map_get(&m, keys[j], &v));
			}
		}
	}
	EXPECT_EQ(0, m.nr);
	u64_map_free(&m);
}

static const char *const names[] = { "rcs0", "bcs0", "vcs0", "vecs0" };

static bool name_is(uint64_t v, const void *arg)
{
	return !strcmp(names[v], arg);
}

/*
 * Four names under one hash (as a crafted recording could make them
 * with FNV-1a): each gets a key of its own and is found again, and a
 * fifth name is absent, with the free key to put it at.
 */
TEST(names_sharing_a_hash_keep_their_own_keys)
{
	const uint64_t h = 0x1234;
	struct u64_map m;
	uint64_t key, v, i;

	u64_map_init(&m);
	for (i = 0; i < 4; i++) {
		key = h;
		ASSERT_FALSE(u64_map_find_hashed(&m, &key, name_is, names[i], &v));
		EXPECT_EQ(h + i, key);
		ASSERT_EQ(0, u64_map_put(&m, key, i));
	}
	for (i = 0; i < 4; i++) {
		key = h;
		ASSERT_TRUE(u64_map_find_hashed(&m, &key, name_is, names[i], &v));
		EXPECT_EQ(i, v);
		EXPECT_EQ(h + i, key);
	}
	key = h;
	EXPECT_FALSE(u64_map_find_hashed(&m, &key, name_is, "ccs0", &v));
	EXPECT_EQ(h + 4, key);
	u64_map_free(&m);
}

/* FNV-1a 64 of @s, written out here. */
static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

/*
 * The mixers' values are in output (timeline colours, client and live
 * ids): FNV-1a's published vectors, splitmix64's finalizer.
 */
TEST(map_hashes_keep_their_values)
{
	EXPECT_EQ(0xaf63dc4c8601ec8cull, map_hash_str(MAP_HASH_SEED, "a"));
	EXPECT_EQ(0x85944171f73967e8ull, map_hash_str(MAP_HASH_SEED, "foobar"));
	EXPECT_EQ(map_hash_str(MAP_HASH_SEED, "foobar"),
		  map_hash_str(map_hash_str(MAP_HASH_SEED, "foo"), "bar"));
	EXPECT_EQ(map_hash_str(MAP_HASH_SEED, "a"),
		  map_hash_field(MAP_HASH_SEED, 'a'));
	EXPECT_EQ(fnv1a("ab\xff" "c"), map_hash_str_pair("ab", "c"));
	EXPECT_NE(map_hash_str_pair("ab", "c"), map_hash_str_pair("a", "bc"));
	EXPECT_EQ(0, map_hash_u64(0));
	EXPECT_EQ(0x5692161d100b05e5ull, map_hash_u64(1));
	EXPECT_EQ(0xf2c6924e7dfed23eull, map_hash_u64(0x100000002ull));
}

TEST_HARNESS_MAIN
