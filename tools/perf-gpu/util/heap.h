/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A binary min-heap of entries keyed by two 64-bit numbers, the first
 * deciding and the second breaking ties (a time and an order of
 * arrival, say), each carrying a pointer of the caller's.
 */
#ifndef PERF_GPU_UTIL_HEAP_H
#define PERF_GPU_UTIL_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct heap_entry {
	uint64_t key, tie;
	void *p;
};

struct heap {
	struct heap_entry *e;
	size_t nr, alloc;
};

void heap_init(struct heap *h);
void heap_free(struct heap *h);
/* 0, or -1 out of memory (the heap unchanged). */
int heap_push(struct heap *h, uint64_t key, uint64_t tie, void *p);
/* The least entry, or NULL when empty. */
const struct heap_entry *heap_top(const struct heap *h);
/* Take the least entry away into *@out: false when empty. */
bool heap_pop(struct heap *h, struct heap_entry *out);
/* Put this in the least entry's place (the heap not empty): pop and push. */
void heap_replace_top(struct heap *h, uint64_t key, uint64_t tie, void *p);

#endif
