/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fences numbered at emit (design.rst 3.3).  Most drivers give a fence
 * its seqno at dma_fence_init; virtio_gpu initialises every fence with
 * seqno 0 and numbers it when it queues the command that signals it, at
 * dma_fence_emit.  The tracepoints carry no fence address, so an emit is
 * tied to the unnumbered init it numbers by what the events say:
 *
 *   an emit on context C numbers, of the inits held unnumbered on C, the
 *   newest of the emitting thread (an ioctl that initialises and emits
 *   in one go, virtio_gpu's EXECBUFFER), else the oldest (an emit
 *   deferred to a worker: the fence of a page flip, initialised in the
 *   committing task and emitted by the commit's kworker).
 *
 * A signal or a destroy of (C, 0) ends a held init by the same rule: the
 * fence was numbered 0 after all, or never emitted (a cursor update's).
 *
 * This is the table of held inits, each with the caller's data; perf gpu
 * report's reader (perfdata/gpu-trace.c) and perf gpu record's filter of
 * a command's fences (record/fence-filter.c) both number fences with it.
 * Few are held at once (an init and its emit are microseconds apart, a
 * flip's a frame); at most FENCE_NUMBER_MAX, the oldest given back when
 * more come.
 */
#ifndef PERF_GPU_PERFDATA_FENCE_NUMBER_H
#define PERF_GPU_PERFDATA_FENCE_NUMBER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FENCE_NUMBER_MAX 1024

struct fence_number;

struct fence_number *fence_number_new(void);

/* Free the table; @free_data, if not NULL, on the data still held. */
void fence_number_free(struct fence_number *fn, void (*free_data)(void *));

/*
 * Hold @data, an unnumbered init on @context by thread @tid.  0, or
 * -ENOMEM.  When FENCE_NUMBER_MAX are held already, the oldest is taken
 * out and its data put in *@evicted (NULL otherwise): the caller gives
 * it up as unnumbered.
 */
int fence_number_hold(struct fence_number *fn, uint64_t context, int32_t tid,
		      void *data, void **evicted);

/*
 * The held init that an emit, signal or destroy on @context by thread
 * @tid ends, taken out of the table; NULL when none is held on @context.
 */
void *fence_number_take(struct fence_number *fn, uint64_t context,
			int32_t tid);

/* Is any init held on @context? */
bool fence_number_holds(const struct fence_number *fn, uint64_t context);

/* The oldest held init of any context, left held; NULL when none. */
void *fence_number_oldest(const struct fence_number *fn);

/* The oldest held init of any context, taken out; NULL when none. */
void *fence_number_take_oldest(struct fence_number *fn);

/*
 * Fences of @driver gather others (dma_fence_chain, dma_fence_array, the
 * stub): no job, never numbered.
 */
bool fence_driver_is_container(const char *driver);

#endif
