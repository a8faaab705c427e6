// SPDX-License-Identifier: GPL-2.0-only
/*
 * A perf.data writer, after the reader of perf 6.1 (tools/perf/util/
 * header.c, session.c).  The layout:
 *
 *   file header		PERFILE2, sizes, the sections, feature bits
 *   ids			one u64 per event
 *   attrs			per event: perf_event_attr (128 bytes, the
 *				6.1 size), then its ids section
 *   data			the records, in time order
 *   feature sections	one {offset, size} per feature bit set
 *   feature bodies		in feature bit order
 *
 * The header is written last, over a zeroed placeholder, and the file
 * renamed into place after that.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "perfdata/machine.h"
#include "perfdata/write.h"
#include "util/file.h"

/*
 * perf 6.1 refuses attrs larger than its own struct ("file uses a more
 * recent and unsupported ABI"), so write that size whatever the headers
 * here say.
 */
#define ATTR_SIZE	PERF_ATTR_SIZE_VER7
_Static_assert(sizeof(struct perf_event_attr) >= ATTR_SIZE,
	       "linux/perf_event.h older than 5.13");

/* Feature bits, tools/perf/util/header.h. */
enum {
	FEAT_TRACING_DATA = 1,
	FEAT_HOSTNAME = 3,
	FEAT_OSRELEASE = 4,
	FEAT_VERSION = 5,
	FEAT_ARCH = 6,
	FEAT_NRCPUS = 7,
	FEAT_CPUDESC = 8,
	FEAT_CPUID = 9,
	FEAT_TOTAL_MEM = 10,
	FEAT_CMDLINE = 11,
	FEAT_EVENT_DESC = 12,
	FEAT_SAMPLE_TIME = 21,
	FEAT_CLOCKID = 23,
	FEAT_CLOCK_DATA = 29,
	FEAT_BITS = 256,
};

#define PERF_MAGIC2	0x32454c4946524550ULL	/* "PERFILE2" */
#define NAME_ALIGN	64	/* feature strings are padded to this */
#define BUF_SIZE	(64 * 1024)
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct file_section {
	uint64_t offset, size;
};

struct file_header {
	uint64_t magic;
	uint64_t size;		/* of this header */
	uint64_t attr_size;	/* of one attr with its ids section */
	struct file_section attrs, data, event_types;
	uint64_t features[FEAT_BITS / 64];
};

struct perf_data_writer {
	char *path, *tmp;
	int fd;
	int err;		/* the first write error, sticky */
	uint64_t pos;		/* file offset after what emit() took */
	char *buf;		/* BUF_SIZE bytes, len of them used */
	size_t len;

	unsigned int nr;	/* events */
	uint64_t sample_type;	/* every attr's: see perf_data_create_sampled() */
	char **names;
	uint64_t *configs;

	uint64_t data_offset;
	uint64_t last_time;
	uint64_t first_sample, last_sample;
	bool any_sample;
	void *tracing;
	size_t tracing_len;
	char **argv;
	int argc;
	char *version;
	struct timespec tod_ref, mono_ref;

	/*
	 * Streaming (perf_data_create_stream()): the features' bodies are
	 * written before the data, and each round ends with a seal, a
	 * FINISHED_ROUND record followed by the feature table, which the
	 * header is then pointed at.
	 */
	bool stream;
	bool in_place;		/* streamed, or a device or pipe: no rename */
	struct file_header stream_header;	/* its feature bits */
	struct file_section *stream_secs;
	unsigned int stream_nr;
};

static void flush(struct perf_data_writer *w)
{
	if (!w->err && w->len)
		w->err = file_write_all(w->fd, w->buf, w->len, -1);
	w->len = 0;
}

static void emit(struct perf_data_writer *w, const void *data, size_t len)
{
	const char *p = data;

	w->pos += len;
	while (len && !w->err) {
		size_t n = BUF_SIZE - w->len;

		if (n > len)
			n = len;
		memcpy(w->buf + w->len, p, n);
		w->len += n;
		p += n;
		len -= n;
		if (w->len == BUF_SIZE)
			flush(w);
	}
}

static void emit_u32(struct perf_data_writer *w, uint32_t v)
{
	emit(w, &v, sizeof(v));
}

static void emit_u64(struct perf_data_writer *w, uint64_t v)
{
	emit(w, &v, sizeof(v));
}

static void emit_zeros(struct perf_data_writer *w, size_t len)
{
	static const char zeros[NAME_ALIGN];

	while (len) {
		size_t n = len < sizeof(zeros) ? len : sizeof(zeros);

		emit(w, zeros, n);
		len -= n;
	}
}

static uint64_t sample_id(unsigned int event)
{
	/* Any unique non-zero ids do; perf maps them back through the attrs. */
	return event + 1;
}

static void fill_attr(struct perf_event_attr *attr, uint64_t config,
		      uint64_t sample_type)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_TRACEPOINT;
	attr->size = ATTR_SIZE;
	attr->config = config;
	/* Every hit is a sample, as perf record sets for tracepoints. */
	attr->sample_period = 1;
	/*
	 * IDENTIFIER: the id first in samples and last in other records,
	 * where perf finds it without knowing the event, so several events
	 * can share the file.  No IP: a GPU event has no code address.
	 */
	attr->sample_type = sample_type;
	/*
	 * No kernel code addresses in this file, which has no kernel MMAP
	 * either: perf report warns that kernel maps "were restricted"
	 * unless every event excludes the kernel.
	 */
	attr->exclude_kernel = 1;
	/* COMM and LOST carry time and id too, so they sort with samples. */
	attr->sample_id_all = 1;
	attr->use_clockid = 1;
	attr->clockid = CLOCK_MONOTONIC;
}

static void free_writer(struct perf_data_writer *w)
{
	unsigned int i;
	int j;

	for (i = 0; w->names && i < w->nr; i++)
		free(w->names[i]);
	free(w->names);
	free(w->configs);
	free(w->buf);
	for (j = 0; j < w->argc; j++)
		free(w->argv[j]);
	free(w->argv);
	free(w->version);
	free(w->tracing);
	free(w->stream_secs);
	free(w->path);
	free(w->tmp);
	free(w);
}

static struct perf_data_writer *create(const char *path,
					const struct perf_data_event *events,
					unsigned int nr, uint64_t sample_type,
					bool stream)
{
	struct perf_data_writer *w;
	struct file_header zero = { 0 };
	struct perf_event_attr attr;
	struct file_section ids;
	uint64_t ids_offset;
	unsigned int i;

	if (!nr || (sample_type != PERF_DATA_SAMPLE_TYPE &&
		    sample_type != PERF_DATA_SAMPLE_TYPE_NO_CGROUP)) {
		errno = EINVAL;
		return NULL;
	}
	for (i = 0; i < nr; i++) {
		/* A tracepoint id is what common_type holds, a u16. */
		if (events[i].id > 0xffff) {
			errno = EINVAL;
			return NULL;
		}
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->fd = -1;
	w->nr = nr;
	w->sample_type = sample_type;
	w->buf = malloc(BUF_SIZE);
	w->names = calloc(nr, sizeof(*w->names));
	w->configs = calloc(nr, sizeof(*w->configs));
	w->path = strdup(path);
	w->stream = stream;
	/*
	 * A device (/dev/null) or a pipe is written in place: renaming a
	 * file over it would replace it (util/file.h, struct file_out).
	 */
	w->in_place = stream || file_is_special(path);
	if (!w->buf || !w->names || !w->configs || !w->path ||
	    (!w->in_place && asprintf(&w->tmp, "%s.XXXXXX", path) < 0)) {
		w->tmp = NULL;
		goto fail;
	}
	for (i = 0; i < nr; i++) {
		w->configs[i] = events[i].id;
		w->names[i] = strdup(events[i].name);
		if (!w->names[i])
			goto fail;
	}
	/* Mode 0600, as perf record's: a recording can show much. */
	if (w->in_place)
		w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			     0600);
	else
		w->fd = mkostemp(w->tmp, O_CLOEXEC);
	if (w->fd < 0)
		goto fail;
	/* The reference point of HEADER_CLOCK_DATA, as perf takes at start. */
	clock_gettime(CLOCK_REALTIME, &w->tod_ref);
	clock_gettime(CLOCK_MONOTONIC, &w->mono_ref);

	emit(w, &zero, sizeof(zero));
	ids_offset = w->pos;
	for (i = 0; i < nr; i++)
		emit_u64(w, sample_id(i));
	for (i = 0; i < nr; i++) {
		fill_attr(&attr, w->configs[i], sample_type);
		emit(w, &attr, ATTR_SIZE);
		ids.offset = ids_offset + i * sizeof(uint64_t);
		ids.size = sizeof(uint64_t);
		emit(w, &ids, sizeof(ids));
	}
	w->data_offset = w->pos;
	if (w->err) {
		errno = -w->err;
		goto fail;
	}
	return w;
fail:
	i = errno;
	if (w->fd >= 0) {
		close(w->fd);
		/* What this made: a temporary file, or a streamed one. */
		if (!w->in_place)
			unlink(w->tmp);
		else if (stream)
			unlink(w->path);
	}
	free_writer(w);
	errno = i;
	return NULL;
}

struct perf_data_writer *perf_data_create(const char *path,
					  const struct perf_data_event *events,
					  unsigned int nr)
{
	return create(path, events, nr, PERF_DATA_SAMPLE_TYPE, false);
}

struct perf_data_writer *
perf_data_create_sampled(const char *path, const struct perf_data_event *events,
			 unsigned int nr, uint64_t sample_type)
{
	return create(path, events, nr, sample_type, false);
}

int perf_data_set_tracing_data(struct perf_data_writer *w, const void *data,
			       size_t len)
{
	void *copy = malloc(len ? len : 1);

	if (!copy)
		return -ENOMEM;
	memcpy(copy, data, len);
	free(w->tracing);
	w->tracing = copy;
	w->tracing_len = len;
	return 0;
}

int perf_data_set_cmdline(struct perf_data_writer *w, int argc,
			  const char *const *argv)
{
	char **copy;
	int i;

	copy = calloc(argc + 1, sizeof(*copy));
	if (!copy)
		return -ENOMEM;
	for (i = 0; i < argc; i++) {
		copy[i] = strdup(argv[i]);
		if (!copy[i]) {
			while (i--)
				free(copy[i]);
			free(copy);
			return -ENOMEM;
		}
	}
	for (i = 0; i < w->argc; i++)
		free(w->argv[i]);
	free(w->argv);
	w->argv = copy;
	w->argc = argc;
	return 0;
}

int perf_data_set_version(struct perf_data_writer *w, const char *version)
{
	char *copy = strdup(version);

	if (!copy)
		return -ENOMEM;
	free(w->version);
	w->version = copy;
	return 0;
}

/* Checks shared by all records; 0 when the record may be written. */
static int check_record(struct perf_data_writer *w, uint64_t time,
			size_t size)
{
	if (w->err)
		return w->err;
	if (time < w->last_time)
		return -EINVAL;
	/* perf_event_header.size is a u16. */
	if (size > 0xffff)
		return -E2BIG;
	return 0;
}

static void emit_header(struct perf_data_writer *w, uint32_t type,
			uint16_t misc, size_t size)
{
	struct perf_event_header h = {
		.type = type, .misc = misc, .size = size,
	};

	emit(w, &h, sizeof(h));
}

/* The sample_id_all trailer: TID, TIME, CPU, IDENTIFIER. */
#define ID_TRAILER_SIZE 32

static void emit_id_trailer(struct perf_data_writer *w, int32_t pid,
			    int32_t tid, uint64_t time, uint32_t cpu,
			    unsigned int event)
{
	emit_u32(w, pid);
	emit_u32(w, tid);
	emit_u64(w, time);
	emit_u32(w, cpu);
	emit_u32(w, 0);
	emit_u64(w, sample_id(event));
}

/* RAW is a u32 size and the data, padded so the record ends 8-aligned. */
static size_t padded_raw(uint32_t raw_size)
{
	return ((size_t)raw_size + 4 + 7) / 8 * 8 - 4;
}

size_t perf_data_sample_bytes(uint32_t raw_size, uint64_t sample_type)
{
	return sizeof(struct perf_event_header) + 5 * 8 + 4 +
	       padded_raw(raw_size) +
	       (sample_type & PERF_SAMPLE_CGROUP ? 8 : 0);
}

/* The kernel's comm is at most 15 characters (TASK_COMM_LEN). */
static size_t comm_len(const char *comm)
{
	return strnlen(comm, 15);
}

size_t perf_data_comm_bytes(const char *comm)
{
	return sizeof(struct perf_event_header) + 8 +
	       (comm_len(comm) + 1 + 7) / 8 * 8 + ID_TRAILER_SIZE;
}

size_t perf_data_lost_bytes(void)
{
	return sizeof(struct perf_event_header) + 16 + ID_TRAILER_SIZE;
}

/* The path with its NUL, padded to 8, as the kernel writes it. */
static size_t cgroup_path_padded(const char *path)
{
	return (strlen(path) + 1 + 7) / 8 * 8;
}

size_t perf_data_cgroup_bytes(const char *path)
{
	return sizeof(struct perf_event_header) + 8 +
	       cgroup_path_padded(path) + ID_TRAILER_SIZE;
}

int perf_data_write_sample(struct perf_data_writer *w,
			   const struct perf_data_sample *s)
{
	size_t raw_size = padded_raw(s->raw_size);
	size_t size = perf_data_sample_bytes(s->raw_size, w->sample_type);
	bool cgroup = w->sample_type & PERF_SAMPLE_CGROUP;
	uint16_t type;
	int err;

	if (s->event >= w->nr || !s->raw || s->raw_size < 2)
		return -EINVAL;
	/*
	 * perf names a sample after its attr but prints it by its payload's
	 * common_type: the two must agree.
	 */
	memcpy(&type, s->raw, 2);
	if (type != w->configs[s->event])
		return -EINVAL;
	err = check_record(w, s->time, size);
	if (err)
		return err;
	/*
	 * cpumode unknown: there is no code address to resolve (KERNEL,
	 * what the kernel gives tracepoint samples, would have perf report
	 * count hits in a kernel map the file does not have).
	 */
	emit_header(w, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_CPUMODE_UNKNOWN,
		    size);
	emit_u64(w, sample_id(s->event));
	emit_u32(w, s->pid);
	emit_u32(w, s->tid);
	emit_u64(w, s->time);
	emit_u32(w, s->cpu);
	emit_u32(w, 0);
	emit_u64(w, 1);		/* period */
	emit_u32(w, raw_size);
	emit(w, s->raw, s->raw_size);
	emit_zeros(w, raw_size - s->raw_size);
	if (cgroup)
		emit_u64(w, s->cgroup);

	w->last_time = s->time;
	if (!w->any_sample)
		w->first_sample = s->time;
	w->last_sample = s->time;
	w->any_sample = true;
	return w->err;
}

int perf_data_write_comm(struct perf_data_writer *w, int32_t pid,
			 int32_t tid, const char *comm, uint64_t time)
{
	size_t len, padded, size;
	int err;

	if (!comm)
		return -EINVAL;
	len = comm_len(comm);
	padded = (len + 1 + 7) / 8 * 8;
	size = perf_data_comm_bytes(comm);
	err = check_record(w, time, size);
	if (err)
		return err;
	emit_header(w, PERF_RECORD_COMM, 0, size);
	emit_u32(w, pid);
	emit_u32(w, tid);
	emit(w, comm, len);
	emit_zeros(w, padded - len);
	/* Which event does not matter: they all have the same sample_type. */
	emit_id_trailer(w, pid, tid, time, 0, 0);
	w->last_time = time;
	return w->err;
}

int perf_data_write_lost(struct perf_data_writer *w, unsigned int event,
			 uint64_t lost, uint64_t time)
{
	size_t size = perf_data_lost_bytes();
	int err;

	if (event >= w->nr)
		return -EINVAL;
	err = check_record(w, time, size);
	if (err)
		return err;
	emit_header(w, PERF_RECORD_LOST, 0, size);
	emit_u64(w, sample_id(event));
	emit_u64(w, lost);
	emit_id_trailer(w, -1, -1, time, 0, event);
	w->last_time = time;
	return w->err;
}

int perf_data_write_cgroup(struct perf_data_writer *w, uint64_t id,
			   const char *path, uint64_t time)
{
	size_t len, size;
	int err;

	if (!path || !*path || strnlen(path, PATH_MAX) >= PATH_MAX)
		return -EINVAL;
	len = strlen(path);
	size = perf_data_cgroup_bytes(path);
	err = check_record(w, time, size);
	if (err)
		return err;
	emit_header(w, PERF_RECORD_CGROUP, 0, size);
	emit_u64(w, id);
	emit(w, path, len);
	emit_zeros(w, cgroup_path_padded(path) - len);
	emit_id_trailer(w, -1, -1, time, 0, 0);
	w->last_time = time;
	return w->err;
}

/* A feature string: u32 length (with NUL, padded), the string, zeros. */
static void emit_string(struct perf_data_writer *w, const char *s)
{
	size_t len = strlen(s) + 1;
	size_t padded = (len + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;

	emit_u32(w, padded);
	emit(w, s, len);
	emit_zeros(w, padded - len);
}

static uint64_t ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ull + ts->tv_nsec;
}

/* The body of feature @feat. */
static void emit_feature(struct perf_data_writer *w, int feat,
			 const struct utsname *uts,
			 const struct perf_machine *mach)
{
	struct perf_event_attr attr;
	struct timespec res;
	unsigned int i;
	int j;

	switch (feat) {
	case FEAT_TRACING_DATA:
		emit(w, w->tracing, w->tracing_len);
		break;
	case FEAT_HOSTNAME:
		emit_string(w, uts->nodename);
		break;
	case FEAT_OSRELEASE:
		emit_string(w, uts->release);
		break;
	case FEAT_VERSION:
		emit_string(w, w->version ? w->version : "perf-gpu");
		break;
	case FEAT_ARCH:
		emit_string(w, uts->machine);
		break;
	case FEAT_NRCPUS:
		/* Available (highest present + 1), then online. */
		emit_u32(w, sysconf(_SC_NPROCESSORS_CONF));
		emit_u32(w, sysconf(_SC_NPROCESSORS_ONLN));
		break;
	case FEAT_CPUDESC:
		emit_string(w, mach->cpudesc);
		break;
	case FEAT_CPUID:
		emit_string(w, mach->cpuid);
		break;
	case FEAT_TOTAL_MEM:
		emit_u64(w, mach->total_mem_kb);
		break;
	case FEAT_CMDLINE:
		emit_u32(w, w->argc);
		for (j = 0; j < w->argc; j++)
			emit_string(w, w->argv[j]);
		break;
	case FEAT_EVENT_DESC:
		/* The names perf report --header and perf evlist show. */
		emit_u32(w, w->nr);
		emit_u32(w, ATTR_SIZE);
		for (i = 0; i < w->nr; i++) {
			fill_attr(&attr, w->configs[i], w->sample_type);
			emit(w, &attr, ATTR_SIZE);
			emit_u32(w, 1);
			emit_string(w, w->names[i]);
			emit_u64(w, sample_id(i));
		}
		break;
	case FEAT_SAMPLE_TIME:
		emit_u64(w, w->first_sample);
		emit_u64(w, w->last_sample);
		break;
	case FEAT_CLOCKID:
		/* The resolution of the clock, in ns. */
		if (clock_getres(CLOCK_MONOTONIC, &res))
			res = (struct timespec){ 0, 1 };
		emit_u64(w, ns(&res));
		break;
	case FEAT_CLOCK_DATA:
		/* Version 1, clockid, time of day and clock at one moment. */
		emit_u32(w, 1);
		emit_u32(w, CLOCK_MONOTONIC);
		emit_u64(w, ns(&w->tod_ref));
		emit_u64(w, ns(&w->mono_ref));
		break;
	}
}

static bool has_feat(const struct file_header *h, int feat)
{
	return h->features[feat / 64] & (1ull << (feat % 64));
}

static const int feats[] = {
	FEAT_TRACING_DATA, FEAT_HOSTNAME, FEAT_OSRELEASE, FEAT_VERSION,
	FEAT_ARCH, FEAT_NRCPUS, FEAT_CPUDESC, FEAT_CPUID,
	FEAT_TOTAL_MEM, FEAT_CMDLINE, FEAT_EVENT_DESC,
	FEAT_SAMPLE_TIME, FEAT_CLOCKID, FEAT_CLOCK_DATA,
};

/*
 * The features there is something to write for, as @h's bits; their
 * count.  HEADER_SAMPLE_TIME only with @sample_time: a streamed file's
 * rounds do not know the last sample yet.
 */
static unsigned int choose_features(const struct perf_data_writer *w,
				    const struct perf_machine *mach,
				    bool sample_time, struct file_header *h)
{
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(feats); i++) {
		if ((feats[i] == FEAT_CMDLINE && !w->argv) ||
		    (feats[i] == FEAT_CPUDESC && !mach->cpudesc[0]) ||
		    (feats[i] == FEAT_CPUID && !mach->cpuid[0]) ||
		    (feats[i] == FEAT_TOTAL_MEM && !mach->total_mem_kb) ||
		    (feats[i] == FEAT_SAMPLE_TIME && !sample_time))
			continue;
		h->features[feats[i] / 64] |= 1ull << (feats[i] % 64);
		n++;
	}
	return n;
}

/* The bodies of @h's features, here, in bit order; where each went. */
static void emit_features(struct perf_data_writer *w,
			  const struct file_header *h,
			  const struct utsname *uts,
			  const struct perf_machine *mach,
			  struct file_section *secs)
{
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(feats); i++) {
		if (!has_feat(h, feats[i]))
			continue;
		secs[n].offset = w->pos;
		emit_feature(w, feats[i], uts, mach);
		secs[n].size = w->pos - secs[n].offset;
		n++;
	}
}

/* The file header, for data ending at @data_end; the feature bits kept. */
static void fill_header(const struct perf_data_writer *w,
			struct file_header *h, uint64_t data_end)
{
	h->magic = PERF_MAGIC2;
	h->size = sizeof(*h);
	h->attr_size = ATTR_SIZE + sizeof(struct file_section);
	h->attrs.offset = sizeof(*h) + w->nr * sizeof(uint64_t);
	h->attrs.size = w->nr * h->attr_size;
	h->data.offset = w->data_offset;
	/* perf looks for the feature table right after the data. */
	h->data.size = data_end - w->data_offset;
}

int perf_data_close(struct perf_data_writer *w)
{
	struct perf_machine mach;
	struct file_section secs[ARRAY_SIZE(feats)];
	struct file_header h = { 0 };
	struct utsname uts;
	unsigned int n;
	uint64_t table;
	int err;

	/* Without the formats perf cannot name a tracepoint: refuse. */
	if (!w->tracing && !w->err)
		w->err = -EINVAL;
	if (uname(&uts) && !w->err)
		w->err = -errno;
	perf_machine_read(&mach, "/proc/cpuinfo", "/proc/meminfo");

	fill_header(w, &h, w->pos);
	n = choose_features(w, &mach, true, &h);
	/* The table, zeros until the bodies after it are placed. */
	table = w->pos;
	emit_zeros(w, n * sizeof(struct file_section));
	emit_features(w, &h, &uts, &mach, secs);
	flush(w);
	if (!w->err)
		w->err = file_write_all(w->fd, secs, n * sizeof(secs[0]), table);
	if (!w->err)
		w->err = file_write_all(w->fd, &h, sizeof(h), 0);
	if (close(w->fd) && !w->err)
		w->err = -errno;
	w->fd = -1;
	/*
	 * Only now, complete, does the file take its name.  A streamed
	 * file has it already, and keeps its sealed rounds on an error.
	 */
	if (!w->err && !w->in_place && rename(w->tmp, w->path))
		w->err = -errno;
	err = w->err;
	if (err && !w->in_place)
		unlink(w->tmp);
	free_writer(w);
	return err;
}

/*
 * The end of a round: a FINISHED_ROUND record whose body is the feature
 * table, and the header pointed at it, its data ending after the record
 * header.  The table stays where it is, under the next rounds: it is
 * the body of that record.  So the header names a whole file after
 * every write to it, however it is stopped.
 */
static int seal(struct perf_data_writer *w)
{
	size_t table = w->stream_nr * sizeof(struct file_section);
	struct file_header h = w->stream_header;
	uint64_t data_end;

	if (w->err)
		return w->err;
	emit_header(w, PERF_DATA_FINISHED_ROUND, 0,
		    sizeof(struct perf_event_header) + table);
	data_end = w->pos;
	emit(w, w->stream_secs, table);
	flush(w);
	fill_header(w, &h, data_end);
	if (!w->err)
		w->err = file_write_all(w->fd, &h, sizeof(h), 0);
	return w->err;
}

struct perf_data_writer *
perf_data_create_stream(const char *path, const struct perf_data_event *events,
			unsigned int nr, const void *tracing, size_t tracing_len,
			uint64_t sample_type, int argc, const char *const *argv)
{
	struct perf_data_writer *w = create(path, events, nr, sample_type,
					    true);
	struct perf_machine mach;
	struct utsname uts;
	int err;

	if (!w)
		return NULL;
	err = perf_data_set_tracing_data(w, tracing, tracing_len);
	if (!err && argv)
		err = perf_data_set_cmdline(w, argc, argv);
	if (!err && uname(&uts))
		err = -errno;
	if (err)
		goto fail;
	perf_machine_read(&mach, "/proc/cpuinfo", "/proc/meminfo");
	w->stream_nr = choose_features(w, &mach, false, &w->stream_header);
	w->stream_secs = calloc(w->stream_nr, sizeof(*w->stream_secs));
	if (!w->stream_secs) {
		err = -ENOMEM;
		goto fail;
	}
	/* The bodies first, then the data: the rounds' tables point here. */
	emit_features(w, &w->stream_header, &uts, &mach, w->stream_secs);
	w->data_offset = w->pos;
	err = seal(w);
	if (!err)
		return w;
fail:
	close(w->fd);
	unlink(w->path);
	free_writer(w);
	errno = -err;
	return NULL;
}

int perf_data_round(struct perf_data_writer *w)
{
	return w->stream ? seal(w) : -EINVAL;
}

void perf_data_abort(struct perf_data_writer *w)
{
	if (!w)
		return;
	if (w->fd >= 0)
		close(w->fd);
	if (!w->in_place)
		unlink(w->tmp);
	free_writer(w);
}
