/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Growable arrays: a T *array, its length kept by its user and its
 * capacity in a size_t, grown by doubling so that n appends copy O(n)
 * elements in all, whatever n (a recording's jobs, a machine's clients,
 * a page's items).  Header only: every layer has arrays.
 *
 *	if (ARRAY_PUSH(v->items, v->nr, v->alloc, item))
 *		return -ENOMEM;
 */
#ifndef PERF_GPU_UTIL_ARRAY_H
#define PERF_GPU_UTIL_ARRAY_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* The capacity of an array's first allocation, in elements. */
#define ARRAY_FIRST 16

/*
 * array_reserve - room for @want elements of @size bytes in *@arr
 * @arr: the array, NULL while it has none
 * @alloc: its capacity in elements
 *
 * Returns 0, or -ENOMEM (also when the size would overflow) with *@arr
 * and *@alloc as they were, the array still valid.
 */
static inline int array_reserve(void **arr, size_t *alloc, size_t want,
				size_t size)
{
	size_t n = *alloc ? *alloc : ARRAY_FIRST;
	void *bigger;

	if (want <= *alloc)
		return 0;
	while (n < want) {
		if (n > SIZE_MAX / 2)
			return -ENOMEM;
		n *= 2;
	}
	bigger = reallocarray(*arr, n, size);
	if (!bigger)
		return -ENOMEM;
	*arr = bigger;
	*alloc = n;
	return 0;
}

/* array_reserve() on the array @a (any T *) of capacity @alloc. */
#define ARRAY_RESERVE(a, alloc, want) ({				\
	void *array_p_ = (a);						\
	int array_err_ = array_reserve(&array_p_, &(alloc), (want),	\
				       sizeof(*(a)));			\
	(a) = array_p_;							\
	array_err_;							\
})

/* @val appended to the array @a of @nr elements: 0 or -ENOMEM. */
#define ARRAY_PUSH(a, nr, alloc, val)					\
	(ARRAY_RESERVE(a, alloc, (size_t)(nr) + 1) ? -ENOMEM :		\
	 ((a)[(nr)++] = (val), 0))

#endif
