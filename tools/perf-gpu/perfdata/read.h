/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading a perf.data file (PERFILE2, file mode, host endianness): the
 * header, the attrs with their ids, the feature table, and the records
 * of the data section one by one.  The file is mapped whole (one
 * changed on disk while it is read is not supported: perf gpu record
 * renames complete files into place) and every offset and size is
 * checked against what was read before it is used, so a truncated or
 * corrupted file gives an error naming the byte offset of the problem,
 * never a read out of bounds.
 */
#ifndef PERF_GPU_PERFDATA_READ_H
#define PERF_GPU_PERFDATA_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

/* One attr of the file and the sample ids that name it. */
struct pdr_attr {
	uint64_t offset;	/* of its entry in the file */
	uint32_t type;
	uint64_t config;
	uint64_t sample_type;
	bool sample_id_all;
	const uint64_t *ids;	/* a copy: the file's may be unaligned */
	size_t nr_ids;
};

struct pdr_file {
	const char *path;
	uint8_t *data;		/* the whole file, mapped */
	uint64_t size;
	bool mapped;		/* else a one-byte buffer: an empty file */
	uint64_t dropped;	/* pages before this offset given back */
	struct pdr_attr *attrs;
	size_t nr_attrs;
	uint64_t data_offset, data_size;
	uint64_t features[4];	/* the 256 feature bits */
	uint64_t feat_table;	/* offset of the feature table */
	/*
	 * A streamed recording never closed (killed): its data end with the
	 * last round's seal.  pdr_open() says so in one warning line.
	 */
	bool unfinished;

	/* The first error: its offset and text ("" when none). */
	uint64_t err_offset;
	char err[160];
};

/* A sample decoded per its attr's sample_type. */
struct pdr_sample {
	const struct pdr_attr *attr;
	uint64_t id;
	int32_t pid, tid;
	uint32_t cpu;
	uint64_t time;
	uint64_t period;
	const uint8_t *raw;
	uint32_t raw_size;
	uint64_t raw_offset;	/* in the file, for error messages */
	uint64_t cgroup;	/* PERF_SAMPLE_CGROUP, when has_cgroup */
	bool has_cgroup;
};

/* One record of the data section. */
struct pdr_record {
	uint64_t offset;	/* in the file */
	uint32_t type;
	uint16_t misc;
	uint16_t size;
	const uint8_t *body;	/* after the 8-byte header */
};

/*
 * Read @path whole and check the header, the attrs and their ids, the
 * data section and the feature table.  0, or -1 with f->err set (an
 * open or read failure names offset 0).  pdr_close() either way.
 */
int pdr_open(struct pdr_file *f, const char *path);
void pdr_close(struct pdr_file *f);

/* Set the error, unless one is set already; returns -1. */
__attribute__((format(printf, 3, 4)))
int pdr_error(struct pdr_file *f, uint64_t offset, const char *fmt, ...);

/* True when @off and @len lie within the file. */
bool pdr_in_file(const struct pdr_file *f, uint64_t off, uint64_t len);

/*
 * Feature @feat's section: 0 with its offset and size (checked against
 * the file), 1 when the file does not have the feature, -1 on error.
 */
int pdr_feature(struct pdr_file *f, unsigned int feat, uint64_t *offset,
		uint64_t *size);

/*
 * The record at *@pos (start with f->data_offset): 1 with @r filled and
 * *@pos moved past it, 0 at the end of the data section, -1 on error.
 */
int pdr_next_record(struct pdr_file *f, uint64_t *pos, struct pdr_record *r);

/* The attr of sample id @id, or NULL. */
const struct pdr_attr *pdr_attr_of_id(const struct pdr_file *f, uint64_t id);

/* Decode a PERF_RECORD_SAMPLE.  0, or -1 with the error set. */
int pdr_parse_sample(struct pdr_file *f, const struct pdr_record *r,
		     struct pdr_sample *s);

/*
 * Decode a PERF_RECORD_COMM: the thread's id, and its name, *@len bytes
 * at *@name (not NUL-terminated).  0, or -1 with the error set.
 */
int pdr_parse_comm(struct pdr_file *f, const struct pdr_record *r,
		   int32_t *tid, const char **name, size_t *len);

/*
 * Decode a PERF_RECORD_CGROUP: the cgroup's id, and its path, *@len
 * bytes at *@path (not NUL-terminated; it starts with '/').  0, or -1
 * with the error set.
 */
int pdr_parse_cgroup(struct pdr_file *f, const struct pdr_record *r,
		     uint64_t *id, const char **path, size_t *len);

/*
 * Decode a PERF_RECORD_LOST: the sample id of the events lost and how
 * many.  0, or -1 with the error set.
 */
int pdr_parse_lost(struct pdr_file *f, const struct pdr_record *r,
		   uint64_t *id, uint64_t *lost);

/*
 * The attr of a non-sample record from its sample_id_all trailer (the
 * id is its last u64), or NULL when it has none that names one.
 */
const struct pdr_attr *pdr_attr_of_record(const struct pdr_file *f,
					  const struct pdr_record *r);

#endif
