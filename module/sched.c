// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: drm_sched jobs from the GPU scheduler's stable trace events,
 * where the kernel has them, and their DRM clients; on every kernel, the
 * hardware fence a job's run_job makes.
 */

/**
 * DOC: drm_sched's stable events
 *
 * From Linux 6.17 the GPU scheduler's events drm_sched_job_queue,
 * drm_sched_job_run, drm_sched_job_add_dep, drm_sched_job_unschedulable
 * and drm_sched_job_done are a stable interface ("DOC: uAPI trace events"
 * in gpu_scheduler_trace.h).  Where they exist, a drm_sched job is taken
 * from them instead of being inferred from its two fences (fence.c, "drm_sched
 * jobs"): the job is queued at drm_sched_job_queue, which
 * drm_sched_entity_push_job() fires in the submitting task, runs from
 * drm_sched_job_run, fired as the scheduler hands it to the driver's
 * run_job, and ends at its finished fence's signal (the instant
 * drm_sched_job_done reports, and the fence's own timestamp), as any job
 * does.  Both fences of the job are then left alone by fence.c's init
 * probe.  The dependency events are perf gpu report's (its third phase):
 * the module samples a job only while it runs.
 *
 * A job is its DRM client's.  The events carry the client id the driver
 * gave drm_sched_job_init() (drm-client-id in the fdinfo of the client's
 * file).  A job queued by a process is that process's target, as with
 * fences, and the client id is noted with it; a job queued by a kernel
 * thread (a driver pushing from a worker) takes the target of the process
 * that last queued a job of the same client, and is unattributed only
 * when no process of that client has been seen.  The table of clients is
 * bounded (GPUPROF_SCHED_CLIENTS: when full, a new client is not noted
 * and counted as a dropped client) and emptied at stop; its entries let
 * go of ended targets as jobs do.
 *
 * gpu_scheduler is a module of its own (gpu-sched.ko), and its tracepoints
 * come and go with it: they are found through the tracepoint module
 * notifier, which also reports the modules already loaded.  While
 * profiling, a gpu-sched that loads gets the probes at once, and one that
 * unloads loses them before its tracepoints go.  Kernels before 6.17 have
 * no such events: there fence.c pairs fences, and this file probes only
 * the run event below.
 */

/**
 * DOC: The hardware fence of a drm_sched job
 *
 * The scheduler's worker calls the driver's run_job, which makes the
 * fence of the job on the hardware ring (amdgpu, panfrost, v3d, etnaviv,
 * msm, lima, nouveau, schedmock): initialised in a kernel thread, that
 * fence would be a job of no one, and an OA report while it runs would
 * never find its process alone (oa.c learns a context only then).  It is
 * no job of its own: the drm_sched job it runs for is already counted,
 * by its finished fence, from the moment drm_sched hands it over.  So the
 * run event, which the worker fires just before run_job on every kernel
 * (drm_run_job before 6.17, drm_sched_job_run after), notes the worker
 * as handing that job over, until the job's scheduled fence signals,
 * which the worker does just after run_job; a fence the worker
 * initialises meanwhile (not drm_sched's own) is left alone by fence.c.
 * At most GPUPROF_FENCE_HANDING workers are noted at once (one per
 * scheduler inside run_job; fence.c keeps them, as its probes read
 * them); past that a hardware fence is a job of no one, as before.  A
 * driver that initialises its hardware fence when the job is armed (xe)
 * is not covered: see design.rst 3.3.
 */
#include <linux/hashtable.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include <drm/gpu_scheduler.h>

#include "compat.h"
#include "gpuprof.h"

#if GPUPROF_HAVE_SCHED_EVENTS

#define GPUPROF_SCHED_CLIENTS	1024

/* A DRM client and the target of the process that last queued for it. */
struct gpuprof_sched_client {
	struct hlist_node node;
	u64 id;
	struct gpuprof_target *target;	/* NULL: a process of no target */
};

static DEFINE_HASHTABLE(gpuprof_sched_clients, 8);
static DEFINE_SPINLOCK(gpuprof_sched_clients_lock);
static u32 gpuprof_nr_sched_clients;

static struct gpuprof_sched_client *gpuprof_sched_client_find(u64 id)
{
	struct gpuprof_sched_client *c;

	hash_for_each_possible(gpuprof_sched_clients, c, node, id)
		if (c->id == id)
			return c;
	return NULL;
}

/* Client @id's jobs are @target's from now on. */
static void gpuprof_sched_client_note(u64 id, struct gpuprof_target *target)
{
	struct gpuprof_sched_client *c;
	unsigned long flags;

	spin_lock_irqsave(&gpuprof_sched_clients_lock, flags);
	c = gpuprof_sched_client_find(id);
	if (!c && gpuprof_nr_sched_clients < GPUPROF_SCHED_CLIENTS) {
		c = kzalloc(sizeof(*c), GFP_ATOMIC);
		if (c) {
			c->id = id;
			hash_add(gpuprof_sched_clients, &c->node, id);
			gpuprof_nr_sched_clients++;
		}
	}
	if (c)
		c->target = target;
	else
		atomic64_inc(&gpuprof_drops.clients);
	spin_unlock_irqrestore(&gpuprof_sched_clients_lock, flags);
}

/*
 * The target of client @id's process, for a job queued by a kernel
 * thread.  @known: whether a process of the client was seen at all.
 */
static struct gpuprof_target *gpuprof_sched_client_target(u64 id, bool *known)
{
	struct gpuprof_target *target = NULL;
	struct gpuprof_sched_client *c;
	unsigned long flags;

	spin_lock_irqsave(&gpuprof_sched_clients_lock, flags);
	c = id ? gpuprof_sched_client_find(id) : NULL;
	*known = c;
	if (c)
		target = c->target;
	spin_unlock_irqrestore(&gpuprof_sched_clients_lock, flags);
	return target;
}

static void gpuprof_sched_clients_free(void)
{
	struct gpuprof_sched_client *c;
	struct hlist_node *tmp;
	int bkt;

	spin_lock_irq(&gpuprof_sched_clients_lock);
	hash_for_each_safe(gpuprof_sched_clients, bkt, tmp, c, node) {
		hash_del(&c->node);
		kfree(c);
	}
	gpuprof_nr_sched_clients = 0;
	spin_unlock_irq(&gpuprof_sched_clients_lock);
}

/**
 * gpuprof_sched_disown_ended - clients of ended targets are no one's now
 *
 * Called where fence.c's jobs let go of ended targets (ctl.c).
 */
void gpuprof_sched_disown_ended(void)
{
	struct gpuprof_sched_client *c;
	int bkt;

	spin_lock_irq(&gpuprof_sched_clients_lock);
	hash_for_each(gpuprof_sched_clients, bkt, c, node)
		if (c->target && READ_ONCE(c->target->ended))
			c->target = NULL;
	spin_unlock_irq(&gpuprof_sched_clients_lock);
}

/* drm_sched_entity_push_job(): @job, armed, joins its entity's queue. */
static void gpuprof_sched_queue_probe(void *data, struct drm_sched_job *job,
				      struct drm_sched_entity *entity)
{
	enum gpuprof_mode mode = READ_ONCE(gpuprof.mode);
	struct dma_fence *fence = &job->s_fence->finished;
	u64 client = job->s_fence->drm_client_id;
	struct gpuprof_target *owner;
	bool known;

	if (mode != GPUPROF_TIME && mode != GPUPROF_COVERAGE)
		return;
	if (in_task() && !(current->flags & PF_KTHREAD)) {
		owner = gpuprof_current_target(&gpuprof_drops.unattributed_jobs);
		if (client)
			gpuprof_sched_client_note(client, owner);
	} else {
		owner = gpuprof_sched_client_target(client, &known);
		if (!known)
			atomic64_inc(&gpuprof_drops.unattributed_jobs);
	}
	gpuprof_fence_sched_queued(fence, owner);
}

#define GPUPROF_SCHED_RUN_EVENT	"drm_sched_job_run"

#else /* !GPUPROF_HAVE_SCHED_EVENTS: fence.c pairs drm_sched's fences */

#define GPUPROF_SCHED_RUN_EVENT	"drm_run_job"

void gpuprof_sched_disown_ended(void)
{
}

static void gpuprof_sched_clients_free(void)
{
}

#endif

/* The scheduler hands @job to the driver's run_job. */
static void gpuprof_sched_run_probe(void *data, struct drm_sched_job *job,
				    struct drm_sched_entity *entity)
{
	enum gpuprof_mode mode = READ_ONCE(gpuprof.mode);

	if (mode != GPUPROF_TIME && mode != GPUPROF_COVERAGE)
		return;
	if (GPUPROF_HAVE_SCHED_EVENTS)
		gpuprof_fence_sched_runs(&job->s_fence->finished);
	gpuprof_fence_handing_begin(&job->s_fence->finished);
}

struct gpuprof_sched_probe {
	const char *name;
	void *func;
	struct tracepoint *tp;
};

/* The end before the beginning, as fence.c attaches its probes. */
static struct gpuprof_sched_probe gpuprof_sched_probes[] = {
	{ GPUPROF_SCHED_RUN_EVENT, gpuprof_sched_run_probe },
#if GPUPROF_HAVE_SCHED_EVENTS
	{ "drm_sched_job_queue", gpuprof_sched_queue_probe },
#endif
};

/*
 * gpuprof_sched_lock: the tracepoints found, whether profiling wants the
 * probes, and whether they are attached.  Taken by the notifier (inside
 * the tracepoint module list's mutex) and by start and stop (inside
 * gpuprof_lock); tracepoint_probe_register() takes its own mutex inside.
 */
static DEFINE_MUTEX(gpuprof_sched_lock);
static struct module *gpuprof_sched_mod;	/* whose tracepoints */
static bool gpuprof_sched_wanted;
static bool gpuprof_sched_attached;

static void gpuprof_sched_detach(size_t n)
{
	while (n--)
		tracepoint_probe_unregister(gpuprof_sched_probes[n].tp,
					    gpuprof_sched_probes[n].func, NULL);
	tracepoint_synchronize_unregister();
}

/* Attach the probes if they are wanted and found; tell fence.c. */
static void gpuprof_sched_attach(void)
{
	size_t i;
	int err;

	lockdep_assert_held(&gpuprof_sched_lock);
	if (!gpuprof_sched_wanted || gpuprof_sched_attached ||
	    !gpuprof_sched_mod)
		return;
	for (i = 0; i < ARRAY_SIZE(gpuprof_sched_probes); i++) {
		err = tracepoint_probe_register(gpuprof_sched_probes[i].tp,
						gpuprof_sched_probes[i].func,
						NULL);
		if (err) {
			/* Profiling goes on without them: said, not fatal. */
			pr_warn("gpuprof: %s: %d, %s\n",
				gpuprof_sched_probes[i].name, err,
				GPUPROF_HAVE_SCHED_EVENTS ?
				"drm_sched jobs from fences" :
				"hardware fences of drm_sched jobs are no one's");
			gpuprof_sched_detach(i);
			return;
		}
	}
	gpuprof_sched_attached = true;
	gpuprof_fence_take_sched(GPUPROF_HAVE_SCHED_EVENTS);
}

static void gpuprof_sched_unattach(void)
{
	lockdep_assert_held(&gpuprof_sched_lock);
	if (!gpuprof_sched_attached)
		return;
	gpuprof_fence_take_sched(false);
	gpuprof_sched_detach(ARRAY_SIZE(gpuprof_sched_probes));
	gpuprof_fence_handing_clear();
	gpuprof_sched_attached = false;
}

/* Whether @mod has all the tracepoints; if so they are noted. */
static bool gpuprof_sched_find(struct module *mod)
{
	struct tracepoint *tp[ARRAY_SIZE(gpuprof_sched_probes)] = { };
	struct tracepoint *t;
	unsigned int i;
	size_t k;

	for (i = 0; i < mod->num_tracepoints; i++) {
		t = tracepoint_ptr_deref(&mod->tracepoints_ptrs[i]);
		for (k = 0; k < ARRAY_SIZE(gpuprof_sched_probes); k++)
			if (!strcmp(t->name, gpuprof_sched_probes[k].name))
				tp[k] = t;
	}
	for (k = 0; k < ARRAY_SIZE(gpuprof_sched_probes); k++)
		if (!tp[k])
			return false;
	for (k = 0; k < ARRAY_SIZE(gpuprof_sched_probes); k++)
		gpuprof_sched_probes[k].tp = tp[k];
	return true;
}

static int gpuprof_sched_notify(struct notifier_block *nb, unsigned long val,
				void *data)
{
	struct tp_module *tp_mod = data;

	mutex_lock(&gpuprof_sched_lock);
	if (val == MODULE_STATE_COMING && !gpuprof_sched_mod &&
	    gpuprof_sched_find(tp_mod->mod)) {
		gpuprof_sched_mod = tp_mod->mod;
		gpuprof_sched_attach();
	} else if (val == MODULE_STATE_GOING &&
		   tp_mod->mod == gpuprof_sched_mod) {
		gpuprof_sched_unattach();
		gpuprof_sched_mod = NULL;
	}
	mutex_unlock(&gpuprof_sched_lock);
	return NOTIFY_OK;
}

static struct notifier_block gpuprof_sched_nb = {
	.notifier_call = gpuprof_sched_notify,
};

/**
 * gpuprof_sched_start - take drm_sched jobs from the stable events
 *
 * Called under gpuprof_lock after gpuprof_fence_start(), the mode still
 * idle.  Without the events (gpu-sched not loaded yet) nothing is
 * attached until it loads.
 */
void gpuprof_sched_start(void)
{
	mutex_lock(&gpuprof_sched_lock);
	gpuprof_sched_wanted = true;
	gpuprof_sched_attach();
	mutex_unlock(&gpuprof_sched_lock);
}

/* Called under gpuprof_lock, the mode idle, before gpuprof_fence_stop(). */
void gpuprof_sched_stop(void)
{
	mutex_lock(&gpuprof_sched_lock);
	gpuprof_sched_wanted = false;
	gpuprof_sched_unattach();
	mutex_unlock(&gpuprof_sched_lock);
	gpuprof_sched_clients_free();
}

/*
 * For status: where drm_sched jobs come from, "events" or "fences".
 * While idle, where a start would take them from.
 */
const char *gpuprof_sched_source(void)
{
	bool events;

	if (!GPUPROF_HAVE_SCHED_EVENTS)
		return "fences";
	mutex_lock(&gpuprof_sched_lock);
	events = gpuprof_sched_attached ||
		 (gpuprof_sched_mod && !gpuprof_sched_wanted);
	mutex_unlock(&gpuprof_sched_lock);
	return events ? "events" : "fences";
}

int gpuprof_sched_init(void)
{
	return register_tracepoint_module_notifier(&gpuprof_sched_nb);
}

void gpuprof_sched_exit(void)
{
	unregister_tracepoint_module_notifier(&gpuprof_sched_nb);
}

