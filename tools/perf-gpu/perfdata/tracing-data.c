// SPDX-License-Identifier: GPL-2.0-only
/*
 * The HEADER_TRACING_DATA feature: event formats in the layout perf's
 * tracing_data_get() writes and trace_report() reads (tools/perf/util/
 * trace-event-{info,read}.c), with the formats of the synthetic events.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfdata/tracefs.h"
#include "perfdata/tracing-data.h"
#include "util/array.h"
#include "util/file.h"

struct td_event {
	char *system;
	char *format;
	size_t len;
	unsigned int id;
};

struct tracing_data {
	struct td_event *events;
	size_t nr, alloc;
};

struct tracing_data *tracing_data_new(void)
{
	return calloc(1, sizeof(struct tracing_data));
}

void tracing_data_free(struct tracing_data *td)
{
	size_t i;

	if (!td)
		return;
	for (i = 0; i < td->nr; i++) {
		free(td->events[i].system);
		free(td->events[i].format);
	}
	free(td->events);
	free(td);
}

/* The N of the "ID: N" line, or -1. */
static long format_id(const char *format, size_t len)
{
	const char *p = format, *end = format + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = (nl ? nl : end) - p;

		if (n > 4 && !memcmp(p, "ID: ", 4)) {
			char num[16];
			char *e;
			long id;

			if (n - 4 >= sizeof(num))
				return -1;
			memcpy(num, p + 4, n - 4);
			num[n - 4] = '\0';
			errno = 0;
			id = strtol(num, &e, 10);
			/* The id is common_type in every record: a u16. */
			if (errno || e == num || *e || id < 0 || id > 0xffff)
				return -1;
			return id;
		}
		p += n + 1;
	}
	return -1;
}

static bool id_taken(const struct tracing_data *td, long id)
{
	size_t i;

	for (i = 0; i < td->nr; i++)
		if (td->events[i].id == id)
			return true;
	return false;
}

int tracing_data_add_format(struct tracing_data *td, const char *system,
			    const char *format, size_t len)
{
	long id = format_id(format, len);
	struct td_event *ev;

	if (id < 0 || !*system)
		return -EINVAL;
	if (id_taken(td, id))
		return -EEXIST;
	if (ARRAY_RESERVE(td->events, td->alloc, td->nr + 1))
		return -ENOMEM;
	ev = &td->events[td->nr];
	ev->system = strdup(system);
	ev->format = malloc(len ? len : 1);
	if (!ev->system || !ev->format) {
		free(ev->system);
		free(ev->format);
		return -ENOMEM;
	}
	memcpy(ev->format, format, len);
	ev->len = len;
	ev->id = id;
	td->nr++;
	return id;
}

int tracing_data_add_tracefs_event(struct tracing_data *td,
				   const char *system, const char *event)
{
	char *format;
	size_t len;
	int ret;

	format = tracefs_read_format(system, event, &len);
	if (!format)
		return -errno;
	ret = tracing_data_add_format(td, system, format, len);
	free(format);
	return ret;
}

/*
 * The fields every tracepoint record starts with, as a 6.1 kernel's
 * tracefs prints them (struct trace_entry); the synthetic events start
 * with them too so that libtraceevent finds common_type and common_pid
 * where it finds them in real records.
 */
#define COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n" \
	"\n"
#define COMMON_SIZE 8

/*
 * gpu_oa:oa_report, one OA report.  gpu_time is the report's timestamp
 * unwrapped to 64 bits (the report has the low 32), the one figure the
 * sample time (CPU clock, from correlation) does not replace; ctx_id and
 * reason are decoded from the report header so that perf script shows
 * them and perf's filters can select on them without knowing the
 * report layout of each GPU generation.  The report itself follows
 * whole, as a dynamic array, for perf gpu report to decode counters,
 * but out of the printed text: 256 bytes of hex on every line of perf
 * script are no use.  report_size repeats its length as a plain number
 * that stock perf prints and filters on without decoding __data_loc.
 * The u64 comes first so that every field is naturally aligned.
 */
#define OA_GPU_TIME_OFF		8
#define OA_CTX_ID_OFF		16
#define OA_REASON_OFF		20
#define OA_REPORT_SIZE_OFF	24
#define OA_REPORT_LOC_OFF	28
#define OA_FIXED_SIZE		32

char *gpu_oa_report_format(uint16_t id)
{
	char *s;

	if (asprintf(&s,
		     "name: oa_report\n"
		     "ID: %u\n"
		     "format:\n"
		     COMMON_FIELDS
		     "\tfield:u64 gpu_time;\toffset:%d;\tsize:8;\tsigned:0;\n"
		     "\tfield:u32 ctx_id;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\tfield:u32 reason;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\tfield:u32 report_size;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\tfield:__data_loc u8[] report;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\n"
		     "print fmt: \"gpu_time=%%llu ctx_id=0x%%x reason=%%s report_size=%%u\","
		     " REC->gpu_time, REC->ctx_id,"
		     " __print_flags(REC->reason, \"|\", { 0x1, \"timer\" },"
		     " { 0x8, \"ctx_switch\" }, { 0x20, \"clk_ratio\" }),"
		     " REC->report_size\n",
		     id, OA_GPU_TIME_OFF, OA_CTX_ID_OFF, OA_REASON_OFF,
		     OA_REPORT_SIZE_OFF, OA_REPORT_LOC_OFF) < 0)
		return NULL;
	return s;
}

/*
 * gpu_oa:oa_device, what the OA reports that follow come from: the
 * stream's DEVICE_INFO (device, report format, timestamp frequency, GT
 * frequency range, metric set), its DRIVER record (kernel, back end and
 * driver, 0 when the stream had none) and its DEVICE_TOPOLOGY (a struct
 * drm_i915_query_topology_info with its masks, empty when none).  One
 * sample before the first report; perf gpu script and report decode
 * reports and compute metrics from it.
 */
#define DEV_FREQ_OFF		8
#define DEV_ID_OFF		16
#define DEV_REVISION_OFF	20
#define DEV_GT_MIN_OFF		24
#define DEV_GT_MAX_OFF		28
#define DEV_FORMAT_OFF		32
#define DEV_KERNEL_OFF		36
#define DEV_SUBMISSION_OFF	40
#define DEV_SET_LOC_OFF		44
#define DEV_UUID_LOC_OFF	48
#define DEV_TOPO_LOC_OFF	52
#define DEV_DRIVER_OFF		56
#define DEV_FIXED_SIZE		60

char *gpu_oa_device_format(uint16_t id)
{
	char *s;

	if (asprintf(&s,
		     "name: oa_device\n"
		     "ID: %u\n"
		     "format:\n"
		     COMMON_FIELDS
		     "\tfield:u64 timestamp_frequency;\toffset:%d;\tsize:8;\tsigned:0;\n"
		     "\tfield:u32 device_id;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\tfield:u32 revision;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\tfield:u32 gt_min_frequency;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\tfield:u32 gt_max_frequency;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\tfield:u32 oa_format;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\tfield:u32 kernel;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\tfield:u32 submission;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\tfield:__data_loc char[] metric_set;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\tfield:__data_loc char[] metric_set_uuid;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\tfield:__data_loc u8[] topology;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\tfield:u32 driver;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\n"
		     "print fmt: \"device_id=0x%%x oa_format=%%u timestamp_frequency=%%llu metric_set=%%s uuid=%%s\","
		     " REC->device_id, REC->oa_format, REC->timestamp_frequency,"
		     " __get_str(metric_set), __get_str(metric_set_uuid)\n",
		     id, DEV_FREQ_OFF, DEV_ID_OFF, DEV_REVISION_OFF,
		     DEV_GT_MIN_OFF, DEV_GT_MAX_OFF, DEV_FORMAT_OFF,
		     DEV_KERNEL_OFF, DEV_SUBMISSION_OFF, DEV_SET_LOC_OFF,
		     DEV_UUID_LOC_OFF, DEV_TOPO_LOC_OFF, DEV_DRIVER_OFF) < 0)
		return NULL;
	return s;
}

/*
 * gpu_oa:oa_correlation, one reading of the OA clock against
 * CLOCK_MONOTONIC (a correlation point of the OA stream, design.rst 5),
 * by which the reports are placed in time.  cpu_time is the sample time
 * to the nanosecond (perf script prints the sample time in
 * microseconds), gpu_time the OA timestamp unwrapped to 64 bits, and
 * bound_ns the width of the clock_gettime() window around the register
 * read: the most cpu_time can be off for that gpu_time.  bounded is 0
 * for a point whose stream carried no bound (bound_ns is then 0).
 */
#define CORR_CPU_OFF		8
#define CORR_GPU_OFF		16
#define CORR_BOUND_OFF		24
#define CORR_BOUNDED_OFF	32
#define CORR_SIZE		36

char *gpu_oa_correlation_format(uint16_t id)
{
	char *s;

	if (asprintf(&s,
		     "name: oa_correlation\n"
		     "ID: %u\n"
		     "format:\n"
		     COMMON_FIELDS
		     "\tfield:u64 cpu_time;\toffset:%d;\tsize:8;\tsigned:0;\n"
		     "\tfield:u64 gpu_time;\toffset:%d;\tsize:8;\tsigned:0;\n"
		     "\tfield:u64 bound_ns;\toffset:%d;\tsize:8;\tsigned:0;\n"
		     "\tfield:u32 bounded;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\n"
		     "print fmt: \"cpu_time=%%llu gpu_time=%%llu bound_ns=%%llu%%s\","
		     " REC->cpu_time, REC->gpu_time, REC->bound_ns,"
		     " REC->bounded ? \"\" : \" (no bound recorded)\"\n",
		     id, CORR_CPU_OFF, CORR_GPU_OFF, CORR_BOUND_OFF,
		     CORR_BOUNDED_OFF) < 0)
		return NULL;
	return s;
}

/*
 * gpu_client:fdinfo, one snapshot of one DRM client (the pid is
 * common_pid).  The keys of drm-usage-stats differ by driver (engine
 * names, memory regions, driver-prefixed keys), so no fixed field list
 * holds them: the snapshot goes in one string of key=value pairs
 * separated by spaces, values as the fdinfo file has them, unit after a
 * space ("drm-engine-render=5000000 ns drm-memory-vram=4096 KiB": a word
 * without '=' belongs to the value before it), minus the identity keys
 * that have fields of their own.  client_id and pdev identify the client
 * (several fds with the same pair are one client); fd says which file
 * was read; driver names the prefix of the driver's own keys.
 */
#define FD_CLIENT_ID_OFF	8
#define FD_FD_OFF		16
#define FD_DRIVER_LOC_OFF	20
#define FD_PDEV_LOC_OFF		24
#define FD_STATS_LOC_OFF	28
#define FD_FIXED_SIZE		32

char *gpu_client_fdinfo_format(uint16_t id)
{
	char *s;

	if (asprintf(&s,
		     "name: fdinfo\n"
		     "ID: %u\n"
		     "format:\n"
		     COMMON_FIELDS
		     "\tfield:u64 client_id;\toffset:%d;\tsize:8;\tsigned:0;\n"
		     "\tfield:u32 fd;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\tfield:__data_loc char[] driver;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\tfield:__data_loc char[] pdev;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\tfield:__data_loc char[] stats;\toffset:%d;\tsize:4;\tsigned:0;\n"
		     "\n"
		     "print fmt: \"driver=%%s pdev=%%s client_id=%%llu fd=%%u %%s\","
		     " __get_str(driver), __get_str(pdev), REC->client_id,"
		     " REC->fd, __get_str(stats)\n",
		     id, FD_CLIENT_ID_OFF, FD_FD_OFF, FD_DRIVER_LOC_OFF,
		     FD_PDEV_LOC_OFF, FD_STATS_LOC_OFF) < 0)
		return NULL;
	return s;
}

/* The first id from GPU_SYNTH_ID_BASE up that no event has yet. */
static long free_id(const struct tracing_data *td)
{
	long id;

	for (id = GPU_SYNTH_ID_BASE; id <= 0xfffe; id++)
		if (!id_taken(td, id))
			return id;
	return -1;
}

static int add_synthetic(struct tracing_data *td, const char *system,
			 char *(*format)(uint16_t id), uint16_t *out)
{
	long id = free_id(td);
	char *text;
	int ret;

	if (id < 0)
		return -ENOSPC;
	text = format(id);
	if (!text)
		return -ENOMEM;
	ret = tracing_data_add_format(td, system, text, strlen(text));
	free(text);
	if (ret < 0)
		return ret;
	*out = id;
	return 0;
}

int tracing_data_add_synthetic(struct tracing_data *td,
			       struct gpu_synth_ids *ids)
{
	int ret;

	ret = add_synthetic(td, "gpu_oa", gpu_oa_report_format,
			    &ids->oa_report);
	if (!ret)
		ret = add_synthetic(td, "gpu_client", gpu_client_fdinfo_format,
				    &ids->fdinfo);
	if (!ret)
		ret = add_synthetic(td, "gpu_oa", gpu_oa_device_format,
				    &ids->oa_device);
	if (!ret)
		ret = add_synthetic(td, "gpu_oa", gpu_oa_correlation_format,
				    &ids->oa_correlation);
	return ret;
}

/* The blob grows in one buffer; an allocation failure sticks. */
struct blob {
	char *buf;
	size_t len, size;
	bool failed;
};

static void put(struct blob *b, const void *data, size_t len)
{
	if (b->failed)
		return;
	if (ARRAY_RESERVE(b->buf, b->size, b->len + len)) {
		b->failed = true;
		return;
	}
	memcpy(b->buf + b->len, data, len);
	b->len += len;
}

static void put_u32(struct blob *b, uint32_t v)
{
	put(b, &v, sizeof(v));
}

static void put_u64(struct blob *b, uint64_t v)
{
	put(b, &v, sizeof(v));
}

/* A tracefs file under events/, or NULL (also when empty). */
static char *read_events_file(const char *name, size_t *len)
{
	const char *dir = tracefs_dir();
	char path[PATH_MAX], *buf;

	if (!dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/events/%s", dir, name);
	if (file_read_all(path, 0, &buf, len))
		return NULL;
	if (!*len) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * header_page and header_event: perf parses the first (it must not be
 * empty) and skips the second.  Without tracefs, the texts the kernel's
 * ring buffer prints (ring_buffer_print_page_header(), _entry_header())
 * for this host's long and page size.
 */
static void put_header_files(struct blob *b)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len;
	char *text;

	put(b, "header_page", 12);
	text = read_events_file("header_page", &len);
	if (!text) {
		int n = asprintf(&text,
			"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
			"\tfield: local_t commit;\toffset:8;\tsize:%zu;\tsigned:1;\n"
			"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
			"\tfield: char data;\toffset:%zu;\tsize:%zu;\tsigned:1;\n",
			sizeof(long), 8 + sizeof(long),
			(size_t)page - 8 - sizeof(long));

		if (n < 0) {
			b->failed = true;
			return;
		}
		len = n;
	}
	put_u64(b, len);
	put(b, text, len);
	free(text);

	put(b, "header_event", 13);
	text = read_events_file("header_event", &len);
	if (!text) {
		static const char fallback[] =
			"# compressed entry header\n"
			"\ttype_len    :    5 bits\n"
			"\ttime_delta  :   27 bits\n"
			"\tarray       :   32 bits\n"
			"\n"
			"\tpadding     : type == 29\n"
			"\ttime_extend : type == 30\n"
			"\ttime_stamp : type == 31\n"
			"\tdata max type_len  == 28\n";

		put_u64(b, sizeof(fallback) - 1);
		put(b, fallback, sizeof(fallback) - 1);
		return;
	}
	put_u64(b, len);
	put(b, text, len);
	free(text);
}

static void put_events(struct blob *b, const struct tracing_data *td)
{
	uint32_t systems = 0, count;
	size_t i, j, k;

	/* A system is counted and written where it first appears. */
	for (i = 0; i < td->nr; i++) {
		for (k = 0; k < i; k++)
			if (!strcmp(td->events[k].system, td->events[i].system))
				break;
		systems += k == i;
	}
	put_u32(b, systems);
	for (i = 0; i < td->nr; i++) {
		const char *sys = td->events[i].system;

		for (k = 0; k < i; k++)
			if (!strcmp(td->events[k].system, sys))
				break;
		if (k < i)
			continue;
		put(b, sys, strlen(sys) + 1);
		count = 0;
		for (j = i; j < td->nr; j++)
			count += !strcmp(td->events[j].system, sys);
		put_u32(b, count);
		for (j = i; j < td->nr; j++) {
			if (strcmp(td->events[j].system, sys))
				continue;
			put_u64(b, td->events[j].len);
			put(b, td->events[j].format, td->events[j].len);
		}
	}
}

void *tracing_data_build(const struct tracing_data *td, size_t *len)
{
	static const char magic[] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const uint16_t one = 1;
	struct blob b = { 0 };
	uint8_t byte;

	put(&b, magic, sizeof(magic));
	/* Version 0.6: the saved cmdlines section at the end is read. */
	put(&b, "0.6", 4);
	byte = *(const uint8_t *)&one == 0;	/* 1: big-endian */
	put(&b, &byte, 1);
	byte = sizeof(long);
	put(&b, &byte, 1);
	put_u32(&b, sysconf(_SC_PAGESIZE));
	put_header_files(&b);
	put_u32(&b, 0);		/* ftrace formats: none */
	put_events(&b, td);
	put_u32(&b, 0);		/* kallsyms: none, perf resolves itself */
	put_u32(&b, 0);		/* printk formats: none */
	put_u64(&b, 0);		/* saved cmdlines: none, COMM records instead */
	if (b.failed) {
		free(b.buf);
		errno = ENOMEM;
		return NULL;
	}
	*len = b.len;
	return b.buf;
}

/* A __data_loc word: length in the high 16 bits, offset in the low. */
static int put_loc(char *buf, size_t size, size_t *end, size_t loc_off,
		   const void *data, size_t len)
{
	uint32_t loc;

	if (*end > 0xffff || len > 0xffff || *end + len > size)
		return -E2BIG;
	loc = (uint32_t)len << 16 | *end;
	memcpy(buf + loc_off, &loc, sizeof(loc));
	if (len)
		memcpy(buf + *end, data, len);
	*end += len;
	return 0;
}

static void put_common(char *buf, uint16_t id, int32_t pid)
{
	memset(buf, 0, COMMON_SIZE);
	memcpy(buf, &id, sizeof(id));
	memcpy(buf + 4, &pid, sizeof(pid));
}

ssize_t gpu_oa_report_payload(void *buf, size_t size, uint16_t id,
			      int32_t pid, uint64_t gpu_time, uint32_t ctx_id,
			      uint32_t reason, const void *report,
			      uint32_t report_size)
{
	size_t end = OA_FIXED_SIZE;
	char *p = buf;

	if (size < OA_FIXED_SIZE)
		return -E2BIG;
	put_common(p, id, pid);
	memcpy(p + OA_GPU_TIME_OFF, &gpu_time, 8);
	memcpy(p + OA_CTX_ID_OFF, &ctx_id, 4);
	memcpy(p + OA_REASON_OFF, &reason, 4);
	memcpy(p + OA_REPORT_SIZE_OFF, &report_size, 4);
	if (put_loc(p, size, &end, OA_REPORT_LOC_OFF, report, report_size))
		return -E2BIG;
	return end;
}

ssize_t gpu_oa_device_payload(void *buf, size_t size, uint16_t id,
			      const struct gpuprof_oa_device_info *info,
			      const struct gpuprof_oa_driver *drv,
			      const void *topology, uint32_t topology_size)
{
	size_t end = DEV_FIXED_SIZE;
	char *p = buf;

	if (size < DEV_FIXED_SIZE)
		return -E2BIG;
	put_common(p, id, 0);
	memcpy(p + DEV_FREQ_OFF, &info->timestamp_frequency, 8);
	memcpy(p + DEV_ID_OFF, &info->device_id, 4);
	memcpy(p + DEV_REVISION_OFF, &info->device_revision, 4);
	memcpy(p + DEV_GT_MIN_OFF, &info->gt_min_frequency, 4);
	memcpy(p + DEV_GT_MAX_OFF, &info->gt_max_frequency, 4);
	memcpy(p + DEV_FORMAT_OFF, &info->oa_format, 4);
	memcpy(p + DEV_KERNEL_OFF, &drv->kernel, 4);
	memcpy(p + DEV_SUBMISSION_OFF, &drv->submission, 4);
	memcpy(p + DEV_DRIVER_OFF, &drv->driver, 4);
	if (put_loc(p, size, &end, DEV_SET_LOC_OFF, info->metric_set_name,
		    strnlen(info->metric_set_name,
			    sizeof(info->metric_set_name) - 1) + 1) ||
	    put_loc(p, size, &end, DEV_UUID_LOC_OFF, info->metric_set_uuid,
		    strnlen(info->metric_set_uuid,
			    sizeof(info->metric_set_uuid) - 1) + 1) ||
	    put_loc(p, size, &end, DEV_TOPO_LOC_OFF, topology, topology_size))
		return -E2BIG;
	return end;
}

ssize_t gpu_oa_correlation_payload(void *buf, size_t size, uint16_t id,
				   uint64_t cpu_time, uint64_t gpu_time,
				   uint64_t bound_ns, bool bounded)
{
	uint32_t b = bounded;
	char *p = buf;

	if (size < CORR_SIZE)
		return -E2BIG;
	if (!bounded)
		bound_ns = 0;
	put_common(p, id, 0);
	memcpy(p + CORR_CPU_OFF, &cpu_time, 8);
	memcpy(p + CORR_GPU_OFF, &gpu_time, 8);
	memcpy(p + CORR_BOUND_OFF, &bound_ns, 8);
	memcpy(p + CORR_BOUNDED_OFF, &b, 4);
	return CORR_SIZE;
}

/* Strings are stored with their NUL, as the kernel's __string() does. */
ssize_t gpu_client_fdinfo_payload(void *buf, size_t size, uint16_t id,
				  int32_t pid, uint64_t client_id, uint32_t fd,
				  const char *driver, const char *pdev,
				  const char *stats)
{
	size_t end = FD_FIXED_SIZE;
	char *p = buf;

	if (size < FD_FIXED_SIZE)
		return -E2BIG;
	put_common(p, id, pid);
	memcpy(p + FD_CLIENT_ID_OFF, &client_id, 8);
	memcpy(p + FD_FD_OFF, &fd, 4);
	if (put_loc(p, size, &end, FD_DRIVER_LOC_OFF, driver, strlen(driver) + 1) ||
	    put_loc(p, size, &end, FD_PDEV_LOC_OFF, pdev, strlen(pdev) + 1) ||
	    put_loc(p, size, &end, FD_STATS_LOC_OFF, stats, strlen(stats) + 1))
		return -E2BIG;
	return end;
}
