// SPDX-License-Identifier: GPL-2.0-only
/*
 * The filter of a command's recording (command-filter.h): the command's
 * processes and its fences in flight, each a set of u64 keys on
 * util/map, and the inits it left unnumbered (perfdata/fence-number.h).
 */
#include <stdlib.h>
#include <string.h>

#include "perfdata/fence-number.h"
#include "perfdata/tracefs.h"
#include "record/command-filter.h"
#include "record/events.h"
#include "record/proc.h"
#include "record/store.h"
#include "util/map.h"

/* Fences in flight tracked at most; more are not followed (counted). */
#define FENCES_MAX (1u << 20)

/* Sets, on util/map: a key is in the set when it is in the map. */
static bool set_has(const struct u64_map *s, uint64_t key)
{
	uint64_t v;

	return u64_map_get(s, key, &v);
}

static int set_add(struct u64_map *s, uint64_t key)
{
	return u64_map_put(s, key, 1);
}

static bool set_del(struct u64_map *s, uint64_t key)
{
	return u64_map_del(s, key, NULL);
}

/* What a recorded event is to the filter. */
enum role { ROLE_OTHER, ROLE_INIT, ROLE_EMIT, ROLE_SIGNAL, ROLE_DESTROY };

/* The dma_fence class's fields the filter reads, the same in each event. */
struct fence_fields {
	unsigned int driver, context, seqno;	/* offsets in the raw data */
};

struct command_filter {
	pid_t root;
	enum role *role;		/* by event index */
	unsigned int nr_events;
	struct fence_fields f;
	struct u64_map procs;		/* the command's processes (tgids) */
	struct u64_map fences;		/* (context, seqno) in flight */
	struct fence_number *unnumbered;
	uint64_t dropped, untracked;
};

static uint64_t fence_key(uint32_t context, uint32_t seqno)
{
	return (uint64_t)context << 32 | seqno;
}

static uint64_t proc_key(int32_t pid)
{
	return (uint32_t)pid;
}

static int read_fields(struct fence_fields *f)
{
	static const char *const names[] = { "driver", "context", "seqno" };
	unsigned int *out[] = { &f->driver, &f->context, &f->seqno };
	unsigned int size, i;

	for (i = 0; i < 3; i++)
		if (tracefs_field("dma_fence", "dma_fence_init", names[i],
				  out[i], &size) || size != 4)
			return -1;
	return 0;
}

static enum role event_role(const struct record_event *ev)
{
	if (strcmp(ev->system, "dma_fence"))
		return ROLE_OTHER;
	if (!strcmp(ev->event, "dma_fence_init"))
		return ROLE_INIT;
	if (!strcmp(ev->event, "dma_fence_emit"))
		return ROLE_EMIT;
	if (!strcmp(ev->event, "dma_fence_signaled"))
		return ROLE_SIGNAL;
	if (!strcmp(ev->event, "dma_fence_destroy"))
		return ROLE_DESTROY;
	return ROLE_OTHER;
}

struct command_filter *command_filter_new(pid_t root,
					  const struct record_events *evs)
{
	struct command_filter *cf = calloc(1, sizeof(*cf));
	unsigned int i;

	if (!cf)
		return NULL;
	cf->root = root;
	cf->nr_events = evs->nr;
	cf->role = calloc(evs->nr ? evs->nr : 1, sizeof(*cf->role));
	cf->unnumbered = fence_number_new();
	if (!cf->role || !cf->unnumbered || set_add(&cf->procs, proc_key(root)))
		goto fail;
	for (i = 0; i < evs->nr; i++)
		cf->role[i] = event_role(&evs->ev[i]);
	/* Without the fields, only the command's own samples are kept. */
	if (read_fields(&cf->f))
		memset(cf->role, 0, evs->nr * sizeof(*cf->role));
	return cf;
fail:
	command_filter_free(cf);
	return NULL;
}

void command_filter_free(struct command_filter *cf)
{
	if (!cf)
		return;
	free(cf->role);
	u64_map_free(&cf->procs);
	u64_map_free(&cf->fences);
	fence_number_free(cf->unnumbered, NULL);
	free(cf);
}

void command_filter_counts(const struct command_filter *cf,
			   uint64_t *dropped, uint64_t *untracked)
{
	*dropped = cf->dropped;
	*untracked = cf->untracked;
}

/* A u32 field of @raw at @off, 0 when the sample is too short. */
static uint32_t raw_u32(const void *raw, uint32_t size, unsigned int off)
{
	uint32_t v = 0;

	if (off + 4 <= size)
		memcpy(&v, (const char *)raw + off, 4);
	return v;
}

/* Is the driver, the __data_loc string at @off of @raw, a container? */
static bool is_container(const void *raw, uint32_t size, unsigned int off)
{
	uint32_t loc = raw_u32(raw, size, off);
	uint32_t at = loc & 0xffff, len = loc >> 16;
	const char *s = (const char *)raw + at;

	/* A string the payload holds whole, terminated. */
	return len && at + len <= size && !s[len - 1] &&
	       fence_driver_is_container(s);
}

static void note_init(struct command_filter *cf, int32_t tid, const void *raw,
		      uint32_t size)
{
	uint32_t context = raw_u32(raw, size, cf->f.context);
	uint32_t seqno = raw_u32(raw, size, cf->f.seqno);
	void *evicted;

	if (is_container(raw, size, cf->f.driver))
		return;
	if (!seqno) {
		/* The data is a mark only; one evicted is forgotten. */
		if (fence_number_hold(cf->unnumbered, context, tid, cf, &evicted))
			cf->untracked++;
		return;
	}
	if (cf->fences.nr >= FENCES_MAX ||
	    set_add(&cf->fences, fence_key(context, seqno)))
		cf->untracked++;
}

/*
 * Is the emit, signal or destroy @role of (context, seqno) in @raw, by
 * thread @tid (of the command when @own), one of the command's fences?
 */
static bool fence_end(struct command_filter *cf, enum role role, bool own,
		      int32_t tid, const void *raw, uint32_t size)
{
	uint32_t context = raw_u32(raw, size, cf->f.context);
	uint32_t seqno = raw_u32(raw, size, cf->f.seqno);
	uint64_t key = fence_key(context, seqno);

	if (role == ROLE_EMIT ? set_has(&cf->fences, key) :
	    set_del(&cf->fences, key))
		return true;
	/*
	 * An end of (c, 0), or an emit: of a fence held unnumbered?  By
	 * another process only from a kernel thread (a page flip's), and
	 * /proc is read only when the command holds one on @context.
	 */
	if ((role != ROLE_EMIT && seqno) ||
	    !fence_number_holds(cf->unnumbered, context) ||
	    (!own && !proc_is_kernel_thread(tid)) ||
	    !fence_number_take(cf->unnumbered, context, tid))
		return false;
	if (role == ROLE_EMIT &&
	    (cf->fences.nr >= FENCES_MAX || set_add(&cf->fences, key)))
		cf->untracked++;
	return true;
}

static bool keep_sample(void *arg, unsigned int event, int32_t pid,
			int32_t tid, const void *raw, uint32_t raw_size)
{
	struct command_filter *cf = arg;
	enum role role;
	bool own;

	/* Past the tracepoints: record's own, made for the command (OA). */
	if (event >= cf->nr_events)
		return true;
	role = cf->role[event];
	own = set_has(&cf->procs, proc_key(pid));

	if (role == ROLE_INIT && own)
		note_init(cf, tid, raw, raw_size);
	else if (role > ROLE_INIT && fence_end(cf, role, own, tid, raw, raw_size))
		return true;
	if (!own)
		cf->dropped++;
	return own;
}

/* A fork by one of the command's processes adds the child; exits go. */
static void on_task(void *arg, bool fork, int32_t pid, int32_t ppid,
		    int32_t tid)
{
	struct command_filter *cf = arg;

	if (fork && pid != ppid && set_has(&cf->procs, proc_key(ppid)))
		set_add(&cf->procs, proc_key(pid));
	/* A process is gone when its leader is, but for the command. */
	else if (!fork && pid == tid && pid != cf->root)
		set_del(&cf->procs, proc_key(pid));
}

void command_filter_store(struct command_filter *cf,
			  struct record_store_filter *f)
{
	f->keep = keep_sample;
	f->task = on_task;
	f->arg = cf;
}
