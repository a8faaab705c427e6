/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The work a shim's simulated GPU runs: the kernel's fences in flight,
 * system-wide, from the dma_fence:dma_fence_init, _signaled and _destroy
 * tracepoints (perf_event_open, a ring per CPU, times on CLOCK_MONOTONIC
 * like the simulator's).  The GPU is busy while any fence is in flight;
 * it runs the context of the oldest one, the k-th fence context seen
 * being the simulator's OA_SIM_CTX(k) (mod OA_SIM_MAX_CONTEXTS), so the
 * reports of two timelines carry two context ids.  A fence destroyed
 * unsignaled ends as if signaled.
 *
 * A test shim's model, not a driver's: a real OA unit counts what the
 * GPU's engines do, whatever fence says so.  Used only when the test
 * asks ($GPUPROF_SHIM_JOBS); without it the simulated GPU stays idle, as
 * before.  Included by the shim's one source file, after oa/sim.h.
 */
#ifndef GPUPROF_TEST_SHIM_JOBS_H
#define GPUPROF_TEST_SHIM_JOBS_H

#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define SHIM_JOBS_CPUS		64
#define SHIM_JOBS_RING_PAGES	64	/* a power of two */
#define SHIM_JOBS_IN_FLIGHT	4096
#define SHIM_JOBS_CONTEXTS	256

enum { SHIM_JOB_INIT, SHIM_JOB_SIGNALED, SHIM_JOB_DESTROY, SHIM_JOB_EVENTS };

static const char *const shim_job_event_names[SHIM_JOB_EVENTS] = {
	"dma_fence_init", "dma_fence_signaled", "dma_fence_destroy",
};

struct shim_job_event {
	uint64_t time;
	uint8_t kind;
	uint32_t context, seqno;
};

struct shim_jobs {
	int ncpus;
	int fd[SHIM_JOBS_CPUS];		/* the init event's; the others output to it */
	int other_fd[SHIM_JOBS_CPUS][SHIM_JOB_EVENTS - 1];
	void *ring[SHIM_JOBS_CPUS];
	size_t page;
	uint16_t type[SHIM_JOB_EVENTS];	/* tracepoint ids: common_type */
	unsigned int context_off, seqno_off;	/* in the raw record */
	/* Fences in flight, oldest first. */
	struct { uint32_t context, seqno; } flight[SHIM_JOBS_IN_FLIGHT];
	unsigned int n_flight;
	uint32_t contexts[SHIM_JOBS_CONTEXTS];	/* fence context of OA_SIM_CTX(k) */
	unsigned int n_contexts;
	struct shim_job_event *ev;	/* read, not yet applied */
	size_t n_ev, cap_ev;
};

/* A tracefs file's first line of text into @buf; 0 or -errno. */
static int shim_jobs_read(const char *event, const char *file, char *buf,
			  size_t size)
{
	static const char *const roots[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	char path[256];
	size_t n = 0;
	unsigned int i;
	FILE *f = NULL;

	for (i = 0; i < 2 && !f; i++) {
		snprintf(path, sizeof(path), "%s/events/dma_fence/%s/%s",
			 roots[i], event, file);
		f = fopen(path, "r");
	}
	if (!f)
		return -errno;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n ? 0 : -EIO;
}

/* The offset of field @name ("unsigned int context;") in @format, or -1. */
static int shim_jobs_field(const char *format, const char *name)
{
	const char *p = strstr(format, name), *off;

	if (!p)
		return -1;
	off = strstr(p, "offset:");
	return off ? atoi(off + 7) : -1;
}

static int shim_jobs_ids(struct shim_jobs *j)
{
	char buf[4096];
	int i, err, c, s;

	for (i = 0; i < SHIM_JOB_EVENTS; i++) {
		err = shim_jobs_read(shim_job_event_names[i], "id", buf,
				     sizeof(buf));
		if (err)
			return err;
		j->type[i] = atoi(buf);
	}
	err = shim_jobs_read(shim_job_event_names[0], "format", buf,
			     sizeof(buf));
	if (err)
		return err;
	c = shim_jobs_field(buf, "int context;");
	s = shim_jobs_field(buf, "int seqno;");
	if (c < 0 || s < 0)
		return -EPROTO;
	j->context_off = c;
	j->seqno_off = s;
	return 0;
}

/* Tracepoint @type on @cpu, every process, disabled until enabled. */
static int shim_jobs_event_open(uint16_t type, int cpu)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_TRACEPOINT, .size = sizeof(a),
		.config = type, .sample_period = 1,
		.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_RAW,
		.use_clockid = 1, .clockid = CLOCK_MONOTONIC,
		.disabled = 1,
	};

	return syscall(SYS_perf_event_open, &a, -1, cpu, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

/*
 * Open the feed: 0, or -errno (no tracefs, or not allowed to trace the
 * whole system); shim_jobs_close() in either case.  The stream that
 * uses it opens it.
 */
static int shim_jobs_open(struct shim_jobs *j)
{
	size_t len;
	int cpu, i, err;

	memset(j, 0, sizeof(*j));
	err = shim_jobs_ids(j);
	if (err)
		return err;
	j->page = sysconf(_SC_PAGESIZE);
	j->ncpus = sysconf(_SC_NPROCESSORS_CONF);
	if (j->ncpus > SHIM_JOBS_CPUS)
		j->ncpus = SHIM_JOBS_CPUS;
	len = (SHIM_JOBS_RING_PAGES + 1) * j->page;
	for (cpu = 0; cpu < j->ncpus; cpu++) {
		j->fd[cpu] = shim_jobs_event_open(j->type[0], cpu);
		if (j->fd[cpu] < 0)
			return -errno;
		j->ring[cpu] = mmap(NULL, len, PROT_READ | PROT_WRITE,
				    MAP_SHARED, j->fd[cpu], 0);
		if (j->ring[cpu] == MAP_FAILED)
			return -errno;
		for (i = 1; i < SHIM_JOB_EVENTS; i++) {
			int fd = shim_jobs_event_open(j->type[i], cpu);

			if (fd < 0 ||
			    ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, j->fd[cpu]) ||
			    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
				return -errno;
			j->other_fd[cpu][i - 1] = fd;
		}
		if (ioctl(j->fd[cpu], PERF_EVENT_IOC_ENABLE, 0))
			return -errno;
	}
	return 0;
}

static void shim_jobs_push(struct shim_jobs *j, const struct shim_job_event *e)
{
	struct shim_job_event *n;

	if (j->n_ev == j->cap_ev) {
		n = realloc(j->ev, (j->cap_ev * 2 + 64) * sizeof(*n));
		if (!n)
			return;
		j->ev = n;
		j->cap_ev = j->cap_ev * 2 + 64;
	}
	j->ev[j->n_ev++] = *e;
}

/* One sample: u64 time, u32 raw size, raw (common_type first). */
static void shim_jobs_sample(struct shim_jobs *j, const uint8_t *p,
			     size_t size)
{
	struct shim_job_event e = { 0 };
	uint32_t raw_size;
	uint16_t type;
	int k;

	if (size < 12)
		return;
	memcpy(&e.time, p, 8);
	memcpy(&raw_size, p + 8, 4);
	p += 12;
	if (raw_size > size - 12 || raw_size < 2 ||
	    raw_size < j->context_off + 4 || raw_size < j->seqno_off + 4)
		return;
	memcpy(&type, p, 2);
	for (k = 0; k < SHIM_JOB_EVENTS && j->type[k] != type; k++)
		;
	if (k == SHIM_JOB_EVENTS)
		return;
	e.kind = k;
	memcpy(&e.context, p + j->context_off, 4);
	memcpy(&e.seqno, p + j->seqno_off, 4);
	shim_jobs_push(j, &e);
}

/* Everything in the rings now, into j->ev. */
static void shim_jobs_drain(struct shim_jobs *j)
{
	size_t mask = SHIM_JOBS_RING_PAGES * j->page - 1;
	uint8_t rec[512];
	int cpu;

	for (cpu = 0; cpu < j->ncpus; cpu++) {
		struct perf_event_mmap_page *m = j->ring[cpu];
		const uint8_t *data = (const uint8_t *)m + j->page;
		uint64_t head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE);
		uint64_t tail = m->data_tail;

		while (tail < head) {
			struct perf_event_header h;
			size_t i;

			for (i = 0; i < sizeof(h); i++)
				((uint8_t *)&h)[i] = data[(tail + i) & mask];
			if (h.size < sizeof(h) || h.size > sizeof(rec))
				break;
			for (i = 0; i < h.size; i++)
				rec[i] = data[(tail + i) & mask];
			if (h.type == PERF_RECORD_SAMPLE)
				shim_jobs_sample(j, rec + sizeof(h),
						 h.size - sizeof(h));
			tail += h.size;
		}
		__atomic_store_n(&m->data_tail, head, __ATOMIC_RELEASE);
	}
}

static int shim_jobs_by_time(const void *a, const void *b)
{
	const struct shim_job_event *x = a, *y = b;

	return x->time < y->time ? -1 : x->time > y->time;
}

/* OA_SIM_CTX() of fence context @context, seen first now or before. */
static uint32_t shim_jobs_ctx(struct shim_jobs *j, uint32_t context)
{
	unsigned int k;

	for (k = 0; k < j->n_contexts; k++)
		if (j->contexts[k] == context)
			break;
	if (k == j->n_contexts && j->n_contexts < SHIM_JOBS_CONTEXTS)
		j->contexts[j->n_contexts++] = context;
	return OA_SIM_CTX(k % OA_SIM_MAX_CONTEXTS);
}

static void shim_jobs_apply(struct shim_jobs *j, const struct shim_job_event *e)
{
	unsigned int i;

	for (i = 0; i < j->n_flight; i++)
		if (j->flight[i].context == e->context &&
		    j->flight[i].seqno == e->seqno)
			break;
	if (e->kind == SHIM_JOB_INIT) {
		if (i == j->n_flight && j->n_flight < SHIM_JOBS_IN_FLIGHT) {
			j->flight[j->n_flight].context = e->context;
			j->flight[j->n_flight++].seqno = e->seqno;
			shim_jobs_ctx(j, e->context);
		}
		return;
	}
	if (i == j->n_flight)
		return;
	memmove(&j->flight[i], &j->flight[i + 1],
		(j->n_flight - i - 1) * sizeof(j->flight[0]));
	j->n_flight--;
}

/*
 * Run @sim, whose stream time 0 is CLOCK_MONOTONIC @t0, up to @now as
 * the fences ran: idle while none is in flight, else the context of the
 * oldest.  Returns oa_sim_step()'s 0 or -1.
 */
static int shim_jobs_run(struct shim_jobs *j, struct oa_sim *sim, uint64_t t0,
			 uint64_t now)
{
	size_t i, kept = 0;
	uint64_t at;
	int err = 0;

	shim_jobs_drain(j);
	qsort(j->ev, j->n_ev, sizeof(*j->ev), shim_jobs_by_time);
	for (i = 0; i < j->n_ev && !err; i++) {
		if (j->ev[i].time > now) {
			j->ev[kept++] = j->ev[i];
			continue;
		}
		at = j->ev[i].time > t0 ? j->ev[i].time - t0 : 0;
		if (at > sim->elapsed_ns)
			err = oa_sim_step(sim, at - sim->elapsed_ns,
					  j->n_flight > 0, j->n_flight ?
					  shim_jobs_ctx(j, j->flight[0].context) :
					  0);
		shim_jobs_apply(j, &j->ev[i]);
	}
	for (; i < j->n_ev; i++)
		j->ev[kept++] = j->ev[i];
	j->n_ev = kept;
	if (!err && now - t0 > sim->elapsed_ns)
		err = oa_sim_step(sim, now - t0 - sim->elapsed_ns,
				  j->n_flight > 0, j->n_flight ?
				  shim_jobs_ctx(j, j->flight[0].context) : 0);
	return err;
}

static void shim_jobs_close(struct shim_jobs *j)
{
	size_t len = (SHIM_JOBS_RING_PAGES + 1) * j->page;
	int cpu, i;

	for (cpu = 0; cpu < j->ncpus; cpu++) {
		for (i = 0; i < SHIM_JOB_EVENTS - 1; i++)
			if (j->other_fd[cpu][i] > 0)
				close(j->other_fd[cpu][i]);
		if (j->ring[cpu] && j->ring[cpu] != MAP_FAILED)
			munmap(j->ring[cpu], len);
		if (j->fd[cpu] > 0)
			close(j->fd[cpu]);
	}
	free(j->ev);
	memset(j, 0, sizeof(*j));
}

#endif
