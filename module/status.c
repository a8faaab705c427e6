// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpuprof: /dev/gpuprof/status, "key: value" lines in the style of
 * drm-usage-stats: the mode, the settings, table sizes, and every counter
 * of what was dropped or could not be attributed.
 */
#include <linux/fs.h>
#include <linux/seq_file.h>

#include "gpuprof.h"

static const char *const gpuprof_mode_names[] = {
	[GPUPROF_IDLE] = "idle",
	[GPUPROF_TIME] = "time",
	[GPUPROF_COVERAGE] = "coverage",
	[GPUPROF_MEMORY] = "memory",
};

static void gpuprof_show_count(struct seq_file *m, const char *key,
			       atomic64_t *v)
{
	seq_printf(m, "%s: %lld\n", key, (long long)atomic64_read(v));
}

static const char *const gpuprof_oa_state_names[] = {
	[GPUPROF_OA_STREAM_NONE] = "none",
	[GPUPROF_OA_STREAM_OPEN] = "open",
	[GPUPROF_OA_STREAM_CLOSED] = "closed",
	[GPUPROF_OA_STREAM_REFUSED] = "refused",
};

static void gpuprof_show_oa(struct seq_file *m,
			    const struct gpuprof_oa_stats *s)
{
	seq_printf(m, "oa_stream: %s\n", gpuprof_oa_state_names[s->state]);
	if (s->state == GPUPROF_OA_STREAM_REFUSED)
		seq_printf(m, "oa_stream_error: %s\n",
			   gpuprof_oa_error_name(s->last_error));
	seq_printf(m, "oa_streams: %llu\n", s->streams);
	seq_printf(m, "oa_bytes: %llu\n", s->bytes);
	seq_printf(m, "oa_reports: %llu\n", s->reports);
	seq_printf(m, "oa_report_lost: %llu\n", s->report_lost);
	seq_printf(m, "oa_buffer_lost: %llu\n", s->buffer_lost);
	seq_printf(m, "oa_rejected_streams: %llu\n", s->rejected_streams);
	seq_printf(m, "oa_unattributed_reports: %llu\n", s->unattributed);
	seq_printf(m, "oa_unplaced_reports: %llu\n", s->unplaced);
	seq_printf(m, "oa_context_switch_deltas: %llu\n", s->switch_deltas);
	seq_printf(m, "oa_other_reasons: %llu\n", s->other_reasons);
	seq_printf(m, "oa_unknown_records: %llu\n", s->unknown);
	seq_printf(m, "oa_learned_contexts: %llu\n", s->learned);
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
	gpuprof_show_count(m, "dropped_targets", &gpuprof_drops.targets);
	gpuprof_show_count(m, "dropped_jobs", &gpuprof_drops.jobs);
	gpuprof_show_count(m, "dropped_clients", &gpuprof_drops.clients);
	gpuprof_show_count(m, "dropped_buffers", &gpuprof_drops.buffers);
	gpuprof_show_count(m, "dropped_timelines", &gpuprof_drops.timelines);
	gpuprof_show_count(m, "dropped_histogram_keys",
			   &gpuprof_drops.hist_keys);
	gpuprof_show_count(m, "unattributed_jobs",
			   &gpuprof_drops.unattributed_jobs);
	gpuprof_show_count(m, "unattributed_buffers",
			   &gpuprof_drops.unattributed_buffers);
	gpuprof_show_count(m, "timeline_names_cut",
			   &gpuprof_drops.timeline_names_cut);
	gpuprof_show_count(m, "unreadable_paths", &gpuprof_drops.paths);
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
