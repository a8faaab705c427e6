// SPDX-License-Identifier: GPL-2.0-only
/* A binary min-heap (util/heap.h). */
#include <string.h>

#include "util/array.h"
#include "util/heap.h"

void heap_init(struct heap *h)
{
	memset(h, 0, sizeof(*h));
}

void heap_free(struct heap *h)
{
	free(h->e);
	heap_init(h);
}

static bool before(const struct heap_entry *a, const struct heap_entry *b)
{
	return a->key < b->key || (a->key == b->key && a->tie < b->tie);
}

/*
 * Entries move along a path by a hole, each copied once, rather than
 * swapped pairwise: @x goes where the hole stops.
 */
int heap_push(struct heap *h, uint64_t key, uint64_t tie, void *p)
{
	struct heap_entry x = { key, tie, p };
	size_t i, parent;

	if (ARRAY_RESERVE(h->e, h->alloc, h->nr + 1))
		return -1;
	for (i = h->nr++; i; i = parent) {
		parent = (i - 1) / 2;
		if (!before(&x, &h->e[parent]))
			break;
		h->e[i] = h->e[parent];
	}
	h->e[i] = x;
	return 0;
}

const struct heap_entry *heap_top(const struct heap *h)
{
	return h->nr ? &h->e[0] : NULL;
}

/* Put @x at the top, then down to its place. */
static void sift_down(struct heap *h, const struct heap_entry *x)
{
	size_t i = 0, c;

	while ((c = 2 * i + 1) < h->nr) {
		if (c + 1 < h->nr && before(&h->e[c + 1], &h->e[c]))
			c++;
		if (!before(&h->e[c], x))
			break;
		h->e[i] = h->e[c];
		i = c;
	}
	h->e[i] = *x;
}

bool heap_pop(struct heap *h, struct heap_entry *out)
{
	struct heap_entry last;

	if (!h->nr)
		return false;
	*out = h->e[0];
	last = h->e[--h->nr];
	if (h->nr)
		sift_down(h, &last);
	return true;
}

void heap_replace_top(struct heap *h, uint64_t key, uint64_t tie, void *p)
{
	struct heap_entry x = { key, tie, p };

	sift_down(h, &x);
}
