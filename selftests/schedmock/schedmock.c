// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedmock: a test module playing a GPU driver on the kernel's real
 * drm_sched (gpu-sched.ko), so tests see drm_sched's own fences, made the
 * way a driver makes them, without a GPU.
 *
 * It is a DRM driver, "schedmock", with a render node: its files are DRM
 * clients as the DRM core makes them, with their drm-client-id, the name
 * DRM_IOCTL_SET_CLIENT_NAME gives them and fdinfo (drm_show_fdinfo(), from
 * 6.5).  One ring, "schedmock-ring", is one drm_gpu_scheduler; every open
 * file is an entity on it.  A submit (schedmock_uapi.h) initialises, arms
 * and pushes a job in the caller's task, so drm_sched's scheduled and
 * finished fences are initialised there, as a driver's are; a deferred
 * submit arms and pushes it from a kernel worker instead, as a driver
 * that submits from a worker does.
 * drm_sched hands jobs to run_job, up to `credits` at a time; the mock
 * hardware then runs them one after another in ring order, each for its
 * duration, so with credits > 1 a job waits on the ring between being
 * scheduled and starting, as on a real ring.
 *
 * From 6.12 its jobs carry the file's DRM client id, given to
 * drm_sched_job_init() as a driver gives its drm_file's; 6.17's stable
 * trace events report it as client_id, and fdinfo as drm-client-id.
 */
#include <linux/atomic.h>
#include <linux/device.h>
#include <linux/dma-fence.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/sync_file.h>
#include <linux/uaccess.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_ioctl.h>

#include "schedmock_compat.h"
#include "schedmock_uapi.h"

static unsigned int credits = 1;
module_param(credits, uint, 0444);
MODULE_PARM_DESC(credits, "jobs on the ring at once (default 1)");

static unsigned int timeout_ms = 10000;
module_param(timeout_ms, uint, 0444);
MODULE_PARM_DESC(timeout_ms, "drm_sched job timeout in ms (default 10000)");

/* The hardware fence of one job, freed by dma_fence_free(). */
struct schedmock_hw {
	struct dma_fence base;		/* first: dma_fence_free() frees it */
	struct list_head link;		/* on the ring's queue until done */
	u64 duration_ns;
	ktime_t end;			/* when it completes; 0 until started */
};

struct schedmock_job {
	struct drm_sched_job base;
	struct schedmock_hw *hw;	/* allocated at submit */
	bool hw_initialised;		/* by run_job; else hw is plain memory */
};

/* One open file: its entity and the finished fence of each of its jobs. */
struct schedmock_file {
	struct drm_sched_entity entity;
	struct mutex lock;		/* submits are ordered per entity */
	struct xarray finished;		/* id -> finished fence reference */
	u32 next_id;
	u64 client_id;			/* its drm_file's drm-client-id */
};

static struct schedmock_ring {
	struct drm_gpu_scheduler sched;
	struct device *dev;		/* the scheduler's, for its events */
	struct drm_device *drm;		/* its DRM device, on dev */
	spinlock_t lock;		/* the hardware fences' lock; queue */
	struct list_head queue;		/* hardware fences, in ring order */
	struct hrtimer timer;		/* completes the queue's head */
	u64 context;
	u64 seqno;
	/*
	 * Jobs not yet freed and hardware fences not yet released, which
	 * unload waits for; woken through wake_up_var(), whose wait queue is
	 * not in this module's memory.
	 */
	atomic_t jobs;
	atomic_t hw_fences;
} ring;

static struct drm_gpu_scheduler *ring_scheds[] = { &ring.sched };

static const char *schedmock_hw_driver_name(struct dma_fence *f)
{
	return "schedmock";
}

static const char *schedmock_hw_timeline_name(struct dma_fence *f)
{
	return "schedmock-hw";
}

/*
 * A hardware fence can outlive every file (drm_sched's fences keep it as
 * their parent, and a sync_file keeps those), and its ops are this
 * module's: each one holds a module reference until it is released.
 */
static void schedmock_hw_release(struct dma_fence *f)
{
	dma_fence_free(f);
	if (atomic_dec_and_test(&ring.hw_fences))
		wake_up_var(&ring.hw_fences);
	module_put(THIS_MODULE);
}

static const struct dma_fence_ops schedmock_hw_ops = {
	.get_driver_name = schedmock_hw_driver_name,
	.get_timeline_name = schedmock_hw_timeline_name,
	.release = schedmock_hw_release,
};

static struct schedmock_hw *ring_head_locked(void)
{
	return list_first_entry_or_null(&ring.queue, struct schedmock_hw,
					link);
}

/* Start the head of the queue at @now unless it runs already. */
static void ring_start_head_locked(ktime_t now)
{
	struct schedmock_hw *head = ring_head_locked();

	if (!head)
		return;
	if (!head->end)
		head->end = ktime_add_ns(now, head->duration_ns);
	hrtimer_start(&ring.timer, head->end, HRTIMER_MODE_ABS);
}

/*
 * The head's time is up: signal it and start the next one, from the
 * moment the signal, and what it ran (drm_sched signals its finished
 * fence there), is done: a job's time never overlaps its predecessor's
 * signal, however slow the kernel.
 */
static enum hrtimer_restart ring_tick(struct hrtimer *timer)
{
	enum hrtimer_restart restart = HRTIMER_NORESTART;
	struct schedmock_hw *done, *next;
	unsigned long flags;

	spin_lock_irqsave(&ring.lock, flags);
	done = ring_head_locked();
	if (done) {
		list_del(&done->link);
		dma_fence_signal_locked(&done->base);
	}
	next = ring_head_locked();
	if (next) {
		if (!next->end)
			next->end = ktime_add_ns(ktime_get(), next->duration_ns);
		hrtimer_set_expires(timer, next->end);
		restart = HRTIMER_RESTART;
	}
	spin_unlock_irqrestore(&ring.lock, flags);
	if (done)
		dma_fence_put(&done->base);	/* the queue's reference */
	return restart;
}

/* Take @hw off the ring with @error, if it is still on it. */
static void ring_abort(struct schedmock_hw *hw, int error)
{
	unsigned long flags;
	bool taken = false;

	/* The timer may be running the head, which may be @hw. */
	hrtimer_cancel(&ring.timer);
	spin_lock_irqsave(&ring.lock, flags);
	if (!dma_fence_is_signaled_locked(&hw->base)) {
		list_del(&hw->link);
		dma_fence_set_error(&hw->base, error);
		dma_fence_signal_locked(&hw->base);
		taken = true;
	}
	ring_start_head_locked(ktime_get());
	spin_unlock_irqrestore(&ring.lock, flags);
	if (taken)
		dma_fence_put(&hw->base);
}

static struct schedmock_job *to_schedmock_job(struct drm_sched_job *job)
{
	return container_of(job, struct schedmock_job, base);
}

static struct dma_fence *schedmock_run_job(struct drm_sched_job *sched_job)
{
	struct schedmock_job *job = to_schedmock_job(sched_job);
	struct schedmock_hw *hw = job->hw;
	unsigned long flags;

	__module_get(THIS_MODULE);
	atomic_inc(&ring.hw_fences);
	spin_lock_irqsave(&ring.lock, flags);
	dma_fence_init(&hw->base, &schedmock_hw_ops, &ring.lock, ring.context,
		       ++ring.seqno);
	job->hw_initialised = true;
	dma_fence_get(&hw->base);		/* the queue's */
	list_add_tail(&hw->link, &ring.queue);
	if (list_is_singular(&ring.queue))
		ring_start_head_locked(ktime_get());
	spin_unlock_irqrestore(&ring.lock, flags);
	return dma_fence_get(&hw->base);	/* drm_sched's */
}

static enum drm_gpu_sched_stat
schedmock_timedout_job(struct drm_sched_job *sched_job)
{
	struct drm_gpu_scheduler *sched = sched_job->sched;

	pr_warn_once("schedmock: a job ran past timeout_ms, ended with -ETIMEDOUT\n");
	/*
	 * drm_sched took the job off its pending list for us; put it back,
	 * as drm_sched_stop() would, so drm_sched frees it once its finished
	 * fence signals, which ending the hardware fence makes it do.
	 */
	spin_lock(&sched->job_list_lock);
	list_add(&sched_job->list, &sched->pending_list);
	spin_unlock(&sched->job_list_lock);
	ring_abort(to_schedmock_job(sched_job)->hw, -ETIMEDOUT);
	return SCHEDMOCK_STAT_ENDED;
}

static void schedmock_free_job(struct drm_sched_job *sched_job)
{
	struct schedmock_job *job = to_schedmock_job(sched_job);

	drm_sched_job_cleanup(sched_job);
	if (job->hw_initialised)
		dma_fence_put(&job->hw->base);
	else
		kfree(job->hw);		/* its entity was killed first */
	kfree(job);
	if (atomic_dec_and_test(&ring.jobs))
		wake_up_var(&ring.jobs);
}

static const struct drm_sched_backend_ops schedmock_sched_ops = {
	.run_job = schedmock_run_job,
	.timedout_job = schedmock_timedout_job,
	.free_job = schedmock_free_job,
};

static int schedmock_open(struct drm_device *drm, struct drm_file *file)
{
	struct schedmock_file *sf;
	int err;

	sf = kzalloc(sizeof(*sf), GFP_KERNEL);
	if (!sf)
		return -ENOMEM;
	err = drm_sched_entity_init(&sf->entity, DRM_SCHED_PRIORITY_NORMAL,
				    ring_scheds, ARRAY_SIZE(ring_scheds), NULL);
	if (err) {
		kfree(sf);
		return err;
	}
	mutex_init(&sf->lock);
	xa_init(&sf->finished);
	sf->next_id = 1;
	sf->client_id = schedmock_client_id(file);
	file->driver_priv = sf;
	return 0;
}

static void schedmock_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct schedmock_file *sf = file->driver_priv;
	struct dma_fence *f;
	unsigned long id;

	drm_sched_entity_destroy(&sf->entity);
	xa_for_each(&sf->finished, id, f)
		dma_fence_put(f);
	xa_destroy(&sf->finished);
	mutex_destroy(&sf->lock);
	kfree(sf);
}

/* Refuse bad input before anything changes; the fences a job waits on. */
static int submit_check(struct schedmock_file *sf,
			const struct schedmock_submit *args,
			struct dma_fence **in, struct dma_fence **prev)
{
	if (!args->duration_ns ||
	    args->duration_ns > SCHEDMOCK_MAX_DURATION_NS ||
	    args->id || args->out_fence_fd || args->after >= sf->next_id ||
	    (args->flags & ~SCHEDMOCK_SUBMIT_DEFERRED) || args->pad)
		return -EINVAL;
	if (sf->next_id > SCHEDMOCK_MAX_JOBS)
		return -ENOSPC;
	if (args->in_fence_fd != -1) {
		*in = sync_file_get_fence(args->in_fence_fd);
		if (!*in)
			return -EBADF;
	}
	if (args->after)
		*prev = dma_fence_get(xa_load(&sf->finished, args->after));
	return 0;
}

/* A job armed and pushed by a kernel worker, for a deferred submit. */
struct schedmock_push {
	struct work_struct work;
	struct schedmock_job *job;
	struct dma_fence *finished;
};

static void schedmock_arm_push(struct schedmock_job *job,
			       struct dma_fence **finished)
{
	drm_sched_job_arm(&job->base);
	*finished = dma_fence_get(&job->base.s_fence->finished);
	atomic_inc(&ring.jobs);
	drm_sched_entity_push_job(&job->base);
}

static void schedmock_push_work(struct work_struct *work)
{
	struct schedmock_push *push = container_of(work, struct schedmock_push,
						   work);

	schedmock_arm_push(push->job, &push->finished);
}

/*
 * Make and push the job, in the caller's task or, deferred, in a worker
 * the caller waits for (the file's lock held: its jobs stay in order);
 * once armed it cannot be taken back, so everything that can fail comes
 * before.  Returns the job's finished fence, referenced, or an ERR_PTR.
 */
static struct dma_fence *submit_job(struct schedmock_file *sf,
				    const struct schedmock_submit *args,
				    struct dma_fence *in,
				    struct dma_fence *prev)
{
	struct schedmock_job *job;
	struct dma_fence *finished;
	int err = -ENOMEM;

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job)
		goto put_deps;
	job->hw = kzalloc(sizeof(*job->hw), GFP_KERNEL);
	if (!job->hw)
		goto free_job;
	job->hw->duration_ns = args->duration_ns;
	err = schedmock_job_init(&job->base, &sf->entity, sf, sf->client_id);
	if (err)
		goto free_job;
	/* drm_sched_job_add_dependency() takes the reference, even failing. */
	if (in) {
		err = drm_sched_job_add_dependency(&job->base, in);
		in = NULL;
		if (err)
			goto cleanup;
	}
	if (prev) {
		err = drm_sched_job_add_dependency(&job->base, prev);
		prev = NULL;
		if (err)
			goto cleanup;
	}
	if (args->flags & SCHEDMOCK_SUBMIT_DEFERRED) {
		struct schedmock_push push = { .job = job };

		INIT_WORK_ONSTACK(&push.work, schedmock_push_work);
		queue_work(system_unbound_wq, &push.work);
		flush_work(&push.work);
		destroy_work_on_stack(&push.work);
		return push.finished;
	}
	schedmock_arm_push(job, &finished);
	return finished;

cleanup:
	drm_sched_job_cleanup(&job->base);
free_job:
	kfree(job->hw);
	kfree(job);
put_deps:
	dma_fence_put(in);
	dma_fence_put(prev);
	return ERR_PTR(err);
}

/*
 * drm_ioctl() copied the arguments in and copies them out on success; a
 * fault there loses the installed fd to the caller, as with any DRM
 * driver's out-fence.
 */
static int schedmock_submit(struct drm_device *drm, void *data,
			    struct drm_file *file)
{
	struct dma_fence *in = NULL, *prev = NULL, *finished;
	struct schedmock_file *sf = file->driver_priv;
	struct schedmock_submit *args = data;
	struct sync_file *sync;
	int fd, err;
	u32 id;

	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0)
		return fd;

	mutex_lock(&sf->lock);
	err = submit_check(sf, args, &in, &prev);
	id = sf->next_id;
	if (!err)
		err = xa_reserve(&sf->finished, id, GFP_KERNEL);
	if (err) {
		mutex_unlock(&sf->lock);
		dma_fence_put(in);
		dma_fence_put(prev);
		put_unused_fd(fd);
		return err;
	}
	finished = submit_job(sf, args, in, prev);
	if (IS_ERR(finished)) {
		xa_release(&sf->finished, id);
		mutex_unlock(&sf->lock);
		put_unused_fd(fd);
		return PTR_ERR(finished);
	}
	sf->next_id++;
	/* Into the reserved slot, which needs no memory. */
	xa_store(&sf->finished, id, dma_fence_get(finished), GFP_KERNEL);
	mutex_unlock(&sf->lock);

	/* The job is on its way: a failure from here on loses only the fd. */
	sync = sync_file_create(finished);
	dma_fence_put(finished);
	if (!sync) {
		put_unused_fd(fd);
		return -ENOMEM;
	}
	args->id = id;
	args->out_fence_fd = fd;
	fd_install(fd, sync->file);
	return 0;
}

static const struct drm_ioctl_desc schedmock_ioctls[] = {
	DRM_IOCTL_DEF_DRV(SCHEDMOCK_SUBMIT, schedmock_submit, DRM_RENDER_ALLOW),
};

static const struct file_operations schedmock_fops = {
	.owner = THIS_MODULE,
	.open = drm_open,
	.release = drm_release,
	.unlocked_ioctl = drm_ioctl,
	.compat_ioctl = drm_compat_ioctl,
	.poll = drm_poll,
	.read = drm_read,
	.llseek = noop_llseek,
	SCHEDMOCK_SHOW_FDINFO
	SCHEDMOCK_FOP_FLAGS
};

static const struct drm_driver schedmock_drm_driver = {
	.driver_features = DRIVER_RENDER,
	.open = schedmock_open,
	.postclose = schedmock_postclose,
	.ioctls = schedmock_ioctls,
	.num_ioctls = ARRAY_SIZE(schedmock_ioctls),
	.fops = &schedmock_fops,
	.name = "schedmock",
	.desc = "gpuprof test: a mock GPU ring on drm_sched",
	SCHEDMOCK_DRIVER_DATE
};

static int __init schedmock_init(void)
{
	int err;

	if (!credits || !timeout_ms)
		return -EINVAL;
	spin_lock_init(&ring.lock);
	INIT_LIST_HEAD(&ring.queue);
	schedmock_hrtimer_setup(&ring.timer, ring_tick, CLOCK_MONOTONIC,
				HRTIMER_MODE_ABS);
	ring.context = dma_fence_context_alloc(1);
	/*
	 * The scheduler's device: 6.17's stable trace events print its
	 * name, and dereference it, for every job (7.3 oopses on NULL).
	 */
	ring.dev = root_device_register("gpuprof_schedmock");
	if (IS_ERR(ring.dev))
		return PTR_ERR(ring.dev);
	err = schedmock_sched_init(&ring.sched, &schedmock_sched_ops, credits,
				   msecs_to_jiffies(timeout_ms),
				   "schedmock-ring", ring.dev);
	if (err)
		goto unregister_dev;
	ring.drm = drm_dev_alloc(&schedmock_drm_driver, ring.dev);
	if (IS_ERR(ring.drm)) {
		err = PTR_ERR(ring.drm);
		goto fini_sched;
	}
	err = drm_dev_register(ring.drm, 0);
	if (err)
		goto put_drm;
	return 0;

put_drm:
	drm_dev_put(ring.drm);
fini_sched:
	drm_sched_fini(&ring.sched);
unregister_dev:
	root_device_unregister(ring.dev);
	return err;
}

static void __exit schedmock_exit(void)
{
	drm_dev_unregister(ring.drm);
	/*
	 * Every file is closed, but jobs of a killed entity may still be
	 * on their way to free_job, and a job handed to run_job as its file
	 * closed may still be on the ring: drm_sched must run them out.
	 */
	wait_var_event(&ring.jobs, !atomic_read(&ring.jobs));
	wait_var_event(&ring.hw_fences, !atomic_read(&ring.hw_fences));
	drm_sched_fini(&ring.sched);
	hrtimer_cancel(&ring.timer);
	drm_dev_put(ring.drm);
	root_device_unregister(ring.dev);
}

module_init(schedmock_init);
module_exit(schedmock_exit);
MODULE_DESCRIPTION("gpuprof test module: a mock GPU ring on drm_sched");
MODULE_LICENSE("GPL");
