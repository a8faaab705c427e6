// SPDX-License-Identifier: GPL-2.0-only
/*
 * The helpers perf gpu report's printers share: see report/print-common.h.
 */
#include <stdio.h>
#include <string.h>

#include "perfdata/gpu-trace.h"
#include "report/print-common.h"
#include "util/cgroup.h"
#include "util/parse.h"

/* The path of a cgroup, NULL when the file does not name it. */
const char *report_cgroup_path(const struct report *r,
			       const struct report_cgroup *cg)
{
	return cg ? gpu_trace_cgroup_path(r->trace, cg->id) : NULL;
}

/*
 * The names the DRM clients of process @pid gave themselves, as the
 * recording's fdinfo snapshots show them (report/names.h), separated by
 * spaces (a name has none), cut at a whole name: "" when none.
 */
const char *report_client_names(const struct report *r, int32_t pid,
				char *buf, size_t size)
{
	const char *name;
	uint32_t pos = 0;
	size_t len = 0, n;

	buf[0] = '\0';
	while ((name = report_names_next(&r->m.names, pid, &pos))) {
		n = strlen(name) + (len ? 1 : 0);
		if (len + n >= size)
			break;
		len += snprintf(buf + len, size - len, "%s%s", len ? " " : "",
				name);
	}
	return buf;
}

/* --pid, --comm or --cgroup: some clients' rows only. */
bool report_has_client_filter(const struct report *r)
{
	return r->pids.nr || r->comms.nr || r->cgroup_str;
}

/* A scheduler row by its process (no cgroup filter: rows carry ids only). */
bool report_sched_row_selected(const struct report *r,
			       const struct report_sched_row *row)
{
	char pid[16];

	snprintf(pid, sizeof(pid), "%d", row->pid);
	return (!r->pids.nr || name_list_has(&r->pids, pid)) &&
	       (!r->comms.nr || name_list_has(&r->comms, row->comm)) &&
	       !r->cgroup_str;
}

/* Share of the span in hundredths of a percent. */
uint64_t report_share_x100(const struct report *r, uint64_t busy)
{
	uint64_t span = report_model_span(&r->m);

	if (!span)
		return 0;
	return (uint64_t)((unsigned __int128)busy * 10000 / span);
}

uint64_t report_lost_total(const struct report *r)
{
	uint64_t n = gpu_trace_lost_unknown(r->trace);
	unsigned int i;

	for (i = 0; i < gpu_trace_nr_events(r->trace); i++)
		n = report_sat_add(n, gpu_trace_event(r->trace, i)->lost);
	return n;
}

/* A crtc row's name: its index, "/N" for another device's (report/model.h). */
const char *report_crtc_name(char *buf, size_t size, const struct report_crtc *c)
{
	if (c->counter)
		snprintf(buf, size, "%d/%u", c->crtc, c->counter);
	else
		snprintf(buf, size, "%d", c->crtc);
	return buf;
}

/*
 * The OA clock's correlation points and the widest error bound among
 * them: how far off, at most, an OA report's CPU time can be.
 */
void report_oa_clock_line(struct report *r)
{
	const struct report_model *m = &r->m;
	uint64_t unbounded = m->oa_corr_points - m->oa_corr_bounded;

	if (!m->oa_corr_points)
		return;
	fprintf(r->out, "# OA clock: %llu correlation points, ",
		(unsigned long long)m->oa_corr_points);
	if (m->oa_corr_bounded)
		fprintf(r->out, "worst bound %llu ns",
			(unsigned long long)m->oa_corr_worst_ns);
	if (m->oa_corr_bounded && unbounded)
		fprintf(r->out, ", ");
	if (unbounded)
		fprintf(r->out, "%llu without a bound",
			(unsigned long long)unbounded);
	fputc('\n', r->out);
}

/*
 * What the recording lacks that a report would otherwise show: the
 * cgroups, when the samples carry no cgroup ids.  NULL when nothing.
 */
const char *report_recording_lacks(const struct report *r)
{
	if (!gpu_trace_has_cgroups(r->trace))
		return "cgroups: the samples carry no cgroup ids (PERF_SAMPLE_CGROUP, which a kernel without CONFIG_CGROUP_PERF refuses)";
	return NULL;
}

/* A cgroup's path for text, "-" when none, "#ID" when unnamed. */
const char *report_cgroup_name(char *buf, size_t size, const struct report *r,
			       const struct report_cgroup *cg)
{
	const char *path = report_cgroup_path(r, cg);

	if (path)
		return path;
	if (!cg)
		return "-";
	snprintf(buf, size, "#%llu", (unsigned long long)cg->id);
	return buf;
}

/* Every delta taken, as a row: the OA total of the recording. */
void report_oa_total(const struct report *r, struct report_oa *all)
{
	const struct report_model *m = &r->m;

	memset(all, 0, sizeof(*all));
	all->reports = m->oa_reports;
	all->d = m->oa_all;
	all->gpu_time_ns = report_model_oa_ns(m, all->d.timestamp);
	all->avg_gpu_freq_mhz = all->gpu_time_ns ?
		(uint64_t)((unsigned __int128)all->d.gpu_ticks * 1000 / all->gpu_time_ns) : 0;
}

/* A range's OA deltas as a row. */
void report_range_oa(const struct report *r, uint64_t reports,
		     const struct gpuprof_oa_deltas *d, struct report_oa *o)
{
	memset(o, 0, sizeof(*o));
	o->reports = reports;
	o->d = *d;
	o->gpu_time_ns = report_model_oa_ns(&r->m, d->timestamp);
	o->avg_gpu_freq_mhz = o->gpu_time_ns ?
		(uint64_t)((unsigned __int128)d->gpu_ticks * 1000 / o->gpu_time_ns) : 0;
}
