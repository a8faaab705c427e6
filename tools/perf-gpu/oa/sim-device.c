// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's backend of the OA device (oa/device.h, oa_sim_ops):
 * gpuprof-oa --device --oa-source sim records a live stream of the OA
 * simulator (oa/sim.h) the way it records a GPU's, with no GPU and no
 * ioctl shim.  The stream fd is a timerfd that fires every
 * OA_SIM_DEV_WAKE_NS; each drain runs the simulated Tiger Lake GT2 up to
 * the present, its contexts taking turns after a schedule drawn a second
 * at a time from OA_SIM_DEV_SEED (oa_sim_schedule()), and passes on its
 * reports and losses.  The simulator's clock is CLOCK_MONOTONIC from the
 * stream's start, so a clock sample is exact (a window of 0 ns).  Its own
 * header and correlation records are dropped: the device writes those
 * (oa_device_write_header(), oa_device_correlate()), as for a GPU.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "../../../module/oa_decode.h"
#include "oa/device.h"
#include "oa/drm-node.h"
#include "oa/i915-records.h"
#include "oa/metric-sets.h"
#include "oa/sim.h"
#include "util/debug.h"

#define NSEC 1000000000ull
/* How often the stream wakes its reader: i915's own poll period. */
#define OA_SIM_DEV_WAKE_NS	5000000ull
/* The schedule, as gpuprof-oa --sim's defaults draw it. */
#define OA_SIM_DEV_SEED		1
#define OA_SIM_DEV_CONTEXTS	2
#define OA_SIM_DEV_CHUNK_NS	NSEC

struct oa_sim_dev {
	struct oa_sim sim;
	const struct oa_sim_platform *plat;
	/* The simulator writes its records here, through @f, into @q. */
	struct oa_writer w;
	FILE *f;
	uint8_t *q;
	size_t q_len, q_size;
	uint64_t t0;			/* CLOCK_MONOTONIC of stream time 0 */
	/* The schedule of second @chunk of stream time. */
	struct oa_sim_interval *iv;
	size_t n_iv;
	uint64_t chunk;
};

/* The simulator's FILE: its bytes appended to the queue. */
static ssize_t oa_sim_dev_write(void *cookie, const char *data, size_t size)
{
	struct oa_sim_dev *s = cookie;
	size_t want = s->q_size ? s->q_size : 65536;
	uint8_t *bigger;

	while (want - s->q_len < size)
		want *= 2;
	if (want != s->q_size) {
		bigger = realloc(s->q, want);
		if (!bigger) {
			errno = ENOMEM;
			return -1;
		}
		s->q = bigger;
		s->q_size = want;
	}
	memcpy(s->q + s->q_len, data, size);
	s->q_len += size;
	return size;
}

static int oa_sim_dev_open(struct oa_device *dev,
			   const struct oa_device_config *cfg)
{
	const struct gpuprof_oa_platform *gpu;
	struct oa_sim_dev *s;

	if (cfg->node) {
		pr_err("--node: the simulator has no render node\n");
		return -1;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		pr_err("%s\n", strerror(ENOMEM));
		return -1;
	}
	dev->priv = s;
	s->plat = oa_sim_platform_of_device(OA_SIM_DEVICE_ID);
	snprintf(dev->node, sizeof(dev->node), "sim");
	dev->device_id = OA_SIM_DEVICE_ID;
	dev->revision = OA_SIM_DEVICE_REV;
	dev->timestamp_hz = s->plat->timestamp_hz;
	dev->gt_min_hz = s->plat->gt_min_hz;
	dev->gt_max_hz = s->plat->gt_max_hz;
	dev->engine_class = 0;		/* render */
	dev->format = s->plat->format;
	/* A GPU only xe serves says so, as the simulator's recordings do. */
	gpu = gpuprof_oa_platform_of_device(dev->device_id);
	if (gpu && !gpu->oa_since && gpu->xe_since) {
		dev->drv = (struct gpuprof_oa_driver){
			.kernel = gpu->xe_since,
			.submission = GPUPROF_OA_SUBMISSION_GUC,
			.driver = GPUPROF_OA_DRIVER_XE,
		};
		dev->has_drv = true;
	}
	return 0;
}

/* Any set of the platform's table, or a uuid: the simulator plays it. */
static int oa_sim_dev_metric_set(struct oa_device *dev, const char *arg)
{
	const struct oa_sim_dev *s = dev->priv;
	const struct oa_metric_platform *metrics;
	const struct oa_metric_set *set;
	struct gpuprof_oa_layout l;

	if (oa_set_lookup(dev->device_id, arg, &dev->set, &metrics, &set)) {
		pr_err("metric set '%s' is not one of IGT's %s sets (device 0x%04x, which the simulator plays)\n",
		       arg, metrics ? metrics->name : "?", dev->device_id);
		return -1;
	}
	if (gpuprof_oa_layout(s->plat->ip / 100, dev->format, &l)) {
		pr_err("sim: report format %u is not one gpuprof decodes\n",
		       dev->format);
		return -1;
	}
	dev->report_size = l.size;
	return 0;
}

/* Draw the schedule of second @chunk of stream time. */
static int oa_sim_dev_schedule(struct oa_sim_dev *s, uint64_t chunk,
			       uint64_t period_ns)
{
	size_t i;

	free(s->iv);
	s->iv = NULL;
	s->n_iv = 0;
	if (oa_sim_schedule(OA_SIM_DEV_SEED + chunk, OA_SIM_DEV_CONTEXTS,
			    OA_SIM_DEV_CHUNK_NS, period_ns, &s->iv, &s->n_iv))
		return -1;
	for (i = 0; i < s->n_iv; i++) {
		s->iv[i].start_ns += chunk * OA_SIM_DEV_CHUNK_NS;
		s->iv[i].end_ns += chunk * OA_SIM_DEV_CHUNK_NS;
	}
	s->chunk = chunk;
	return 0;
}

static int oa_sim_dev_stream_open(struct oa_device *dev)
{
	static const cookie_io_functions_t io = { .write = oa_sim_dev_write };
	struct oa_sim_dev *s = dev->priv;
	struct itimerspec it = {
		.it_interval.tv_nsec = OA_SIM_DEV_WAKE_NS,
		.it_value.tv_nsec = OA_SIM_DEV_WAKE_NS,
	};
	struct oa_sim_config cfg = {
		.seed = OA_SIM_DEV_SEED,
		.period_ns = dev->period_ns,
		.device_id = dev->device_id,
		.metric_set = dev->set.name,
		.metric_set_uuid = dev->set.uuid,
	};
	int fd;

	s->f = fopencookie(s, "w", io);
	if (!s->f) {
		pr_err("sim: %s\n", strerror(errno));
		return -1;
	}
	oa_writer_init(&s->w, s->f);
	s->t0 = oa_node_mono_ns();
	cfg.start_cpu_ns = s->t0;
	if (oa_sim_init(&s->sim, &cfg, &s->w) || oa_writer_flush(&s->w) ||
	    oa_sim_dev_schedule(s, 0, dev->period_ns)) {
		pr_err("sim: starting the simulator: %s\n", strerror(errno));
		return -1;
	}
	s->q_len = 0;	/* its header: the device writes its own */
	fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (fd < 0 || timerfd_settime(fd, 0, &it, NULL)) {
		pr_err("sim: timerfd: %s\n", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Run the simulator to stream time @upto, a second's schedule at a time. */
static int oa_sim_dev_run(struct oa_sim_dev *s, uint64_t upto,
			  uint64_t period_ns)
{
	uint64_t end;

	while (s->sim.elapsed_ns < upto) {
		end = (s->chunk + 1) * OA_SIM_DEV_CHUNK_NS;
		if (oa_sim_run(&s->sim, upto < end ? upto : end, s->iv,
			       s->n_iv))
			return -1;
		if (s->sim.elapsed_ns < end)
			break;
		if (oa_sim_dev_schedule(s, s->chunk + 1, period_ns))
			return -1;
	}
	return oa_writer_flush(&s->w);
}

/* Where the simulator's records go: reports and losses only. */
struct oa_sim_dev_pass {
	oa_i915_record_fn fn;
	void *arg;
};

static void oa_sim_dev_pass(void *arg, uint32_t type, const uint8_t *payload,
			    size_t len)
{
	const struct oa_sim_dev_pass *p = arg;

	if (type == GPUPROF_OA_RECORD_SAMPLE ||
	    type == GPUPROF_OA_RECORD_REPORT_LOST ||
	    type == GPUPROF_OA_RECORD_BUFFER_LOST)
		p->fn(p->arg, type, payload, len);
}

static int oa_sim_dev_drain(struct oa_device *dev, oa_i915_record_fn fn,
			    void *arg)
{
	struct oa_sim_dev *s = dev->priv;
	struct oa_sim_dev_pass p = { .fn = fn, .arg = arg };
	struct oa_i915_bad bad;
	uint64_t ticks;
	int ret;

	if (read(dev->stream, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN) {
		pr_err("sim: timerfd: %s\n", strerror(errno));
		return -1;
	}
	if (oa_sim_dev_run(s, oa_node_mono_ns() - s->t0, dev->period_ns)) {
		pr_err("sim: running the simulator: %s\n", strerror(errno));
		return -1;
	}
	/* The simulator writes whole records only. */
	ret = oa_i915_records(s->q, s->q_len, dev->report_size,
			      oa_sim_dev_pass, &p, &bad);
	s->q_len = 0;
	if (ret)
		pr_err("sim: the simulator wrote a record of type %u and %u bytes at %zu: stopping\n",
		       bad.type, bad.size, bad.offset);
	return ret;
}

/* The simulator's clock is CLOCK_MONOTONIC from the stream's start. */
static int oa_sim_dev_correlate(struct oa_device *dev,
				struct oa_clock_sample *c)
{
	const struct oa_sim_dev *s = dev->priv;

	c->cpu_ns = oa_node_mono_ns();
	c->gpu_ts = oa_sim_ts_at(&s->sim, c->cpu_ns - s->t0);
	c->window_ns = 0;
	return 0;
}

static size_t oa_sim_dev_topology(struct oa_device *dev, void *buf,
				  size_t size)
{
	const struct oa_sim_dev *s = dev->priv;

	return oa_sim_platform_topology(s->plat, buf, size);
}

static void oa_sim_dev_close(struct oa_device *dev)
{
	struct oa_sim_dev *s = dev->priv;

	if (!s)
		return;
	if (s->f)
		fclose(s->f);
	free(s->q);
	free(s->iv);
	free(s);
}

const struct oa_device_ops oa_sim_ops = {
	.name = "sim",
	.stream_name = "simulator's stream",
	.no_units = "OA comes from the simulator",
	.open = oa_sim_dev_open,
	.metric_set = oa_sim_dev_metric_set,
	.stream_open = oa_sim_dev_stream_open,
	.drain = oa_sim_dev_drain,
	.correlate = oa_sim_dev_correlate,
	.topology = oa_sim_dev_topology,
	/* No .remove_set: the simulator plays any set, and adds none. */
	.close = oa_sim_dev_close,
};
