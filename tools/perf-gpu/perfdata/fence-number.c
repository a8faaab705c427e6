// SPDX-License-Identifier: GPL-2.0-only
/*
 * The inits held until their emit numbers them (fence-number.h).  An
 * array in hold order, searched whole: a handful are held at a time, so
 * a scan beats any index.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/fence-number.h"
#include "util/array.h"

struct held {
	uint64_t context;
	int32_t tid;
	void *data;
};

struct fence_number {
	struct held *h;		/* oldest first */
	size_t nr, alloc;
};

struct fence_number *fence_number_new(void)
{
	return calloc(1, sizeof(struct fence_number));
}

void fence_number_free(struct fence_number *fn, void (*free_data)(void *))
{
	size_t i;

	if (!fn)
		return;
	for (i = 0; free_data && i < fn->nr; i++)
		free_data(fn->h[i].data);
	free(fn->h);
	free(fn);
}

static void *take_at(struct fence_number *fn, size_t i)
{
	void *data = fn->h[i].data;

	memmove(fn->h + i, fn->h + i + 1, (fn->nr - i - 1) * sizeof(*fn->h));
	fn->nr--;
	return data;
}

int fence_number_hold(struct fence_number *fn, uint64_t context, int32_t tid,
		      void *data, void **evicted)
{
	*evicted = fn->nr >= FENCE_NUMBER_MAX ? take_at(fn, 0) : NULL;
	if (ARRAY_RESERVE(fn->h, fn->alloc, fn->nr + 1))
		return -ENOMEM;
	fn->h[fn->nr].context = context;
	fn->h[fn->nr].tid = tid;
	fn->h[fn->nr++].data = data;
	return 0;
}

void *fence_number_take(struct fence_number *fn, uint64_t context,
			int32_t tid)
{
	size_t i, oldest = fn->nr;

	/* The newest of the thread first, so walk from the newest. */
	for (i = fn->nr; i-- > 0;) {
		if (fn->h[i].context != context)
			continue;
		if (fn->h[i].tid == tid)
			return take_at(fn, i);
		oldest = i;
	}
	return oldest < fn->nr ? take_at(fn, oldest) : NULL;
}

bool fence_number_holds(const struct fence_number *fn, uint64_t context)
{
	size_t i;

	for (i = 0; i < fn->nr; i++)
		if (fn->h[i].context == context)
			return true;
	return false;
}

void *fence_number_oldest(const struct fence_number *fn)
{
	return fn->nr ? fn->h[0].data : NULL;
}

void *fence_number_take_oldest(struct fence_number *fn)
{
	return fn->nr ? take_at(fn, 0) : NULL;
}

bool fence_driver_is_container(const char *driver)
{
	return !strcmp(driver, "dma_fence_chain") ||
	       !strcmp(driver, "dma_fence_array") || !strcmp(driver, "stub");
}
