// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: /dev/gpuprof/status, "key: value" lines in the style of
 * drm-usage-stats: the mode, the settings, table sizes, and every counter
 * of what was dropped or could not be attributed.
 */
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/stddef.h>

#include "gpuprof.h"

static const char *const gpuprof_mode_names[] = {
	[GPUPROF_IDLE] = "idle",
	[GPUPROF_TIME] = "time",
	[GPUPROF_COVERAGE] = "coverage",
	[GPUPROF_MEMORY] = "memory",
};

/* A "key: value" line of status: the value's place in its struct. */
struct gpuprof_status_line {
	const char *key;
	size_t off;
};

#define GPUPROF_DROP_LINE(key, field) \
	{ key, offsetof(struct gpuprof_drops, field) }

/* The atomic64_t counters of struct gpuprof_drops, in status order. */
static const struct gpuprof_status_line gpuprof_drop_lines[] = {
	GPUPROF_DROP_LINE("dropped_targets", targets),
	GPUPROF_DROP_LINE("dropped_jobs", jobs),
	GPUPROF_DROP_LINE("dropped_clients", clients),
	GPUPROF_DROP_LINE("dropped_buffers", buffers),
	GPUPROF_DROP_LINE("dropped_timelines", timelines),
	GPUPROF_DROP_LINE("dropped_histogram_keys", hist_keys),
	GPUPROF_DROP_LINE("unattributed_jobs", unattributed_jobs),
	GPUPROF_DROP_LINE("unattributed_buffers", unattributed_buffers),
	GPUPROF_DROP_LINE("timeline_names_cut", timeline_names_cut),
	GPUPROF_DROP_LINE("unreadable_paths", paths),
};

#define GPUPROF_OA_LINE(key, field) \
	{ key, offsetof(struct gpuprof_oa_stats, field) }

/* The u64 counters of struct gpuprof_oa_stats, in status order. */
static const struct gpuprof_status_line gpuprof_oa_lines[] = {
	GPUPROF_OA_LINE("oa_streams", streams),
	GPUPROF_OA_LINE("oa_bytes", bytes),
	GPUPROF_OA_LINE("oa_reports", reports),
	GPUPROF_OA_LINE("oa_report_lost", report_lost),
	GPUPROF_OA_LINE("oa_buffer_lost", buffer_lost),
	GPUPROF_OA_LINE("oa_rejected_streams", rejected_streams),
	GPUPROF_OA_LINE("oa_unattributed_reports", unattributed),
	GPUPROF_OA_LINE("oa_unplaced_reports", unplaced),
	GPUPROF_OA_LINE("oa_context_switch_deltas", switch_deltas),
	GPUPROF_OA_LINE("oa_other_reasons", other_reasons),
	GPUPROF_OA_LINE("oa_unknown_records", unknown),
	GPUPROF_OA_LINE("oa_learned_contexts", learned),
};

static const char *const gpuprof_oa_state_names[] = {
	[GPUPROF_OA_STREAM_NONE] = "none",
	[GPUPROF_OA_STREAM_OPEN] = "open",
	[GPUPROF_OA_STREAM_CLOSED] = "closed",
	[GPUPROF_OA_STREAM_REFUSED] = "refused",
};

static void gpuprof_show_oa(struct seq_file *m,
			    const struct gpuprof_oa_stats *s)
{
	const struct gpuprof_status_line *l;
	size_t i;

	seq_printf(m, "oa_stream: %s\n", gpuprof_oa_state_names[s->state]);
	if (s->state == GPUPROF_OA_STREAM_REFUSED)
		seq_printf(m, "oa_stream_error: %s\n",
			   gpuprof_oa_error_name(s->last_error));
	for (i = 0; i < ARRAY_SIZE(gpuprof_oa_lines); i++) {
		l = &gpuprof_oa_lines[i];
		seq_printf(m, "%s: %llu\n", l->key,
			   *(const u64 *)((const char *)s + l->off));
	}
}

static void gpuprof_show_drops(struct seq_file *m)
{
	const struct gpuprof_status_line *l;
	atomic64_t *v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(gpuprof_drop_lines); i++) {
		l = &gpuprof_drop_lines[i];
		v = (atomic64_t *)((char *)&gpuprof_drops + l->off);
		seq_printf(m, "%s: %lld\n", l->key,
			   (long long)atomic64_read(v));
	}
}

static int gpuprof_status_show(struct seq_file *m, void *v)
{
	struct gpuprof_oa_stats oa;
	struct gpuprof_target *t;
	u32 targets = 0;

	spin_lock_irq(&gpuprof_data_lock);
	list_for_each_entry(t, &gpuprof_targets, link)
		targets++;
	oa = gpuprof_oa_stats;
	spin_unlock_irq(&gpuprof_data_lock);

	mutex_lock(&gpuprof_lock);
	seq_printf(m, "mode: %s\n", gpuprof_mode_names[gpuprof.mode]);
	/* What the kept histograms hold: after stop, mode is idle. */
	seq_printf(m, "histograms: %s\n", gpuprof.hist_mode == GPUPROF_IDLE ?
		   "none" : gpuprof_mode_names[gpuprof.hist_mode]);
	seq_printf(m, "interval_ms: %u\n", gpuprof.interval_ms);
	gpuprof_oa_helper_show(m);
	mutex_unlock(&gpuprof_lock);
	seq_printf(m, "targets: %u\n", targets);
	seq_printf(m, "timelines: %u\n", gpuprof_timelines_count());
	seq_printf(m, "jobs_in_flight: %u\n", gpuprof_jobs_in_flight());
	seq_printf(m, "buffers_live: %u\n", gpuprof_buffers_live());
	gpuprof_show_drops(m);
	seq_printf(m, "drm_sched_jobs: %s\n", gpuprof_sched_source());
	gpuprof_show_oa(m, &oa);
	return 0;
}

static int gpuprof_status_open(struct inode *inode, struct file *filp)
{
	/* seq_open() wants ->private_data clear; the node is not needed. */
	filp->private_data = NULL;
	return single_open(filp, gpuprof_status_show, NULL);
}

static const struct file_operations gpuprof_status_fops = {
	.owner = THIS_MODULE,
	.open = gpuprof_status_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

const struct gpuprof_file gpuprof_status_file = {
	.name = "status",
	.mode = 0444,
	.fops = &gpuprof_status_fops,
};
