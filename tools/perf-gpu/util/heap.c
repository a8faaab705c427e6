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

static void swap(struct heap_entry *a, struct heap_entry *b)
{
	struct heap_entry t = *a;

	*a = *b;
	*b = t;
}

int heap_push(struct heap *h, uint64_t key, uint64_t tie, void *p)
{
	size_t i;

	if (ARRAY_RESERVE(h->e, h->alloc, h->nr + 1))
		return -1;
	i = h->nr++;
	h->e[i] = (struct heap_entry){ key, tie, p };
	while (i && before(&h->e[i], &h->e[(i - 1) / 2])) {
		swap(&h->e[i], &h->e[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	return 0;
}

const struct heap_entry *heap_top(const struct heap *h)
{
	return h->nr ? &h->e[0] : NULL;
}

static void sift_down(struct heap *h)
{
	size_t i = 0, l, m;

	for (;;) {
		l = 2 * i + 1;
		m = i;
		if (l < h->nr && before(&h->e[l], &h->e[m]))
			m = l;
		if (l + 1 < h->nr && before(&h->e[l + 1], &h->e[m]))
			m = l + 1;
		if (m == i)
			return;
		swap(&h->e[i], &h->e[m]);
		i = m;
	}
}

bool heap_pop(struct heap *h, struct heap_entry *out)
{
	if (!h->nr)
		return false;
	*out = h->e[0];
	h->e[0] = h->e[--h->nr];
	sift_down(h);
	return true;
}

void heap_replace_top(struct heap *h, uint64_t key, uint64_t tie, void *p)
{
	h->e[0] = (struct heap_entry){ key, tie, p };
	sift_down(h);
}
