/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a recording of one command (perf gpu record -- CMD, -p PID) keeps
 * (design.rst 6.1, "A command's recording").  Its events are opened on
 * every CPU, as for -a, because a job's end is rarely the command's own
 * doing: real drivers signal from an interrupt, a kworker or drm_sched's
 * thread, virtio_gpu emits a page flip's fence from the commit's worker.
 * The filter then keeps, in time order (record_store_filter):
 *
 *   - every sample of the command's processes: the command and all it
 *     forks, or PID and all it forks (PERF_RECORD_FORK and _EXIT, which
 *     the events report system-wide, keep the set);
 *   - of the other samples, the dma_fence events that end or number a
 *     fence the command initialised: dma_fence_emit, _signaled and
 *     _destroy of that (context, seqno), and the emit that numbers an
 *     init the command left unnumbered (perfdata/fence-number.h).  An
 *     emit by another process never numbers the command's fence; one by
 *     a kernel thread may (a page flip's);
 *   - the samples perf gpu record makes itself (OA reports, fdinfo
 *     snapshots of the command's clients), which follow its own rules;
 *   - nothing else: the file holds no other process's work but the ends
 *     of the command's fences.
 *
 * Memory: the command's fences in flight, and what it left unnumbered.
 */
#ifndef PERF_GPU_RECORD_COMMAND_FILTER_H
#define PERF_GPU_RECORD_COMMAND_FILTER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct record_events;
struct record_store_filter;

struct command_filter;

/*
 * A filter for process @root and its descendants, the recording's events
 * being @evs (their fields read from tracefs).  NULL out of memory.  When
 * the dma_fence formats lack a field the filter reads, it keeps the
 * command's own samples only.
 */
struct command_filter *command_filter_new(pid_t root,
					  const struct record_events *evs);
void command_filter_free(struct command_filter *cf);

/* The store's view of @cf (record/store.h). */
void command_filter_store(struct command_filter *cf,
			  struct record_store_filter *f);

/*
 * The other processes' samples left out so far, and the command's fences
 * not followed (more than FENCES_MAX in flight, or out of memory).
 */
void command_filter_counts(const struct command_filter *cf,
			   uint64_t *dropped, uint64_t *untracked);

#endif
