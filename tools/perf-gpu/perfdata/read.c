// SPDX-License-Identifier: GPL-2.0-only
/*
 * A perf.data reader for perf gpu script.  The layout is the one
 * perfdata/write.c writes and perf 6.1 reads (tools/perf/util/header.c):
 *
 *   header		"PERFILE2", its size, the attr entry size, the
 *			attrs, data and event_types sections, 256
 *			feature bits
 *   attrs		entries of perf_event_attr then an {offset,
 *			size} section of that attr's u64 ids
 *   data		records: perf_event_header, then the body
 *   feature table	one {offset, size} per feature bit set, in bit
 *			order, right after the data section
 *
 * Every value taken from the file is checked before it is used as an
 * offset or a size; all arithmetic is on u64 with the sums checked for
 * wrapping (pdr_in_file()).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata/read.h"
#include "perfdata/write.h"
#include "util/debug.h"

#define PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" */
#define PERF_MAGIC2_SWAPPED	0x50455246494c4532ULL
#define HEADER_SIZE		104	/* magic .. the 256 feature bits */
#define SECTION_SIZE		16
#define ATTR_MIN_SIZE		PERF_ATTR_SIZE_VER0

/*
 * The message quotes the file's own bytes (a name, a path): any byte that
 * is not printable ASCII is written \xNN, so that a crafted recording
 * cannot send escape sequences to the terminal that shows the error.
 */
int pdr_error(struct pdr_file *f, uint64_t offset, const char *fmt, ...)
{
	char raw[sizeof(f->err)];
	size_t i, n = 0;
	va_list ap;

	if (f->err[0])
		return -1;
	f->err_offset = offset;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	for (i = 0; raw[i] && n + 5 <= sizeof(f->err); i++) {
		unsigned char c = raw[i];

		if (c >= 0x20 && c < 0x7f)
			f->err[n++] = c;
		else
			n += snprintf(f->err + n, 5, "\\x%02x", c);
	}
	f->err[n] = 0;
	return -1;
}

bool pdr_in_file(const struct pdr_file *f, uint64_t off, uint64_t len)
{
	return off <= f->size && len <= f->size - off;
}

static uint64_t u64_at(const struct pdr_file *f, uint64_t off)
{
	uint64_t v;

	memcpy(&v, f->data + off, sizeof(v));
	return v;
}

static uint32_t u32_at(const struct pdr_file *f, uint64_t off)
{
	uint32_t v;

	memcpy(&v, f->data + off, sizeof(v));
	return v;
}

/*
 * The file, mapped whole (read-only, private): a recording of ten
 * million events is a gigabyte, so it is not copied in, and the pages of
 * the data section already walked are dropped as the walk goes on
 * (pdr_next_record()), which keeps a reader's memory flat in the size of
 * the file.  A dropped page read again simply comes back from the file.
 * An empty file gets a one-byte buffer, so f->data is never NULL.
 */
static int map_whole(struct pdr_file *f)
{
	struct stat st;
	void *p;
	int fd;

	fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pdr_error(f, 0, "%s", strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return pdr_error(f, 0, "not a regular file");
	}
	f->size = st.st_size;
	if (!f->size) {
		close(fd);
		f->data = calloc(1, 1);
		return f->data ? 0 : pdr_error(f, 0, "out of memory");
	}
	p = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return pdr_error(f, 0, "cannot map %llu bytes: %s",
				 (unsigned long long)f->size, strerror(errno));
	f->data = p;
	f->mapped = true;
	return 0;
}

static int check_header(struct pdr_file *f)
{
	uint64_t magic, hsize;

	if (f->size < 8)
		return pdr_error(f, f->size, "file of %llu bytes is shorter than the magic",
				 (unsigned long long)f->size);
	magic = u64_at(f, 0);
	if (magic == PERF_MAGIC2_SWAPPED)
		return pdr_error(f, 0, "file of the other endianness is not supported");
	if (magic != PERF_MAGIC2)
		return pdr_error(f, 0, "not a perf.data file (bad magic)");
	if (f->size < 16)
		return pdr_error(f, f->size, "file ends inside the header");
	hsize = u64_at(f, 8);
	/* A pipe-mode file has a 16-byte header and no sections. */
	if (hsize == 16)
		return pdr_error(f, 8, "pipe-mode perf.data is not supported");
	if (hsize < HEADER_SIZE)
		return pdr_error(f, 8, "header size %llu is below %d",
				 (unsigned long long)hsize, HEADER_SIZE);
	if (!pdr_in_file(f, 0, hsize))
		return pdr_error(f, f->size, "file ends inside the header of %llu bytes",
				 (unsigned long long)hsize);
	f->data_offset = u64_at(f, 40);
	f->data_size = u64_at(f, 48);
	memcpy(f->features, f->data + 72, sizeof(f->features));
	if (f->data_offset < hsize || !pdr_in_file(f, f->data_offset, f->data_size))
		return pdr_error(f, 40, "data section %llu+%llu is outside the file of %llu bytes",
				 (unsigned long long)f->data_offset,
				 (unsigned long long)f->data_size,
				 (unsigned long long)f->size);
	return 0;
}

static int read_attrs(struct pdr_file *f)
{
	uint64_t esize = u64_at(f, 16), off = u64_at(f, 24), size = u64_at(f, 32);
	size_t i, j;

	if (esize < ATTR_MIN_SIZE + SECTION_SIZE || esize > 4096)
		return pdr_error(f, 16, "attr entry size %llu is not in %d..4096",
				 (unsigned long long)esize,
				 ATTR_MIN_SIZE + SECTION_SIZE);
	if (!pdr_in_file(f, off, size))
		return pdr_error(f, 24, "attrs section %llu+%llu is outside the file",
				 (unsigned long long)off, (unsigned long long)size);
	if (!size || size % esize)
		return pdr_error(f, 32, "attrs section size %llu is not a non-zero multiple of %llu",
				 (unsigned long long)size, (unsigned long long)esize);
	f->nr_attrs = size / esize;
	f->attrs = calloc(f->nr_attrs, sizeof(*f->attrs));
	if (!f->attrs)
		return pdr_error(f, 24, "out of memory for %zu attrs", f->nr_attrs);
	for (i = 0; i < f->nr_attrs; i++) {
		uint64_t a = off + i * esize;
		uint64_t ids_off = u64_at(f, a + esize - SECTION_SIZE);
		uint64_t ids_size = u64_at(f, a + esize - 8);
		uint32_t asize = u32_at(f, a + 4);
		struct pdr_attr *at = &f->attrs[i];
		uint64_t *ids;

		/* The attr's own size may be smaller than the entry, not larger. */
		if (asize < ATTR_MIN_SIZE || asize > esize - SECTION_SIZE)
			return pdr_error(f, a + 4, "attr size %u is not in %d..%llu",
					 asize, ATTR_MIN_SIZE,
					 (unsigned long long)(esize - SECTION_SIZE));
		at->offset = a;
		at->type = u32_at(f, a);
		at->config = u64_at(f, a + 8);
		at->sample_type = u64_at(f, a + 24);
		/* The bit fields at byte 40: sample_id_all is bit 18. */
		at->sample_id_all = u64_at(f, a + 40) >> 18 & 1;
		if (!pdr_in_file(f, ids_off, ids_size) || ids_size % 8)
			return pdr_error(f, a + esize - SECTION_SIZE,
					 "ids section %llu+%llu of attr %zu is outside the file or not of u64s",
					 (unsigned long long)ids_off,
					 (unsigned long long)ids_size, i);
		at->nr_ids = ids_size / 8;
		ids = malloc(ids_size ? ids_size : 1);
		if (!ids)
			return pdr_error(f, ids_off, "out of memory for ids");
		memcpy(ids, f->data + ids_off, ids_size);
		at->ids = ids;
		for (j = 0; j < i; j++)
			if (f->attrs[j].sample_type != at->sample_type &&
			    !(at->sample_type & f->attrs[j].sample_type &
			      PERF_SAMPLE_IDENTIFIER))
				return pdr_error(f, a + 24,
						 "attrs of different sample_type without IDENTIFIER");
	}
	return 0;
}

static unsigned int popcount_below(const uint64_t *bits, unsigned int n)
{
	unsigned int i, c = 0;

	for (i = 0; i < n; i++)
		c += bits[i / 64] >> (i % 64) & 1;
	return c;
}

int pdr_feature(struct pdr_file *f, unsigned int feat, uint64_t *offset,
		uint64_t *size)
{
	uint64_t ent;

	if (feat >= 256 || !(f->features[feat / 64] >> (feat % 64) & 1))
		return 1;
	ent = f->feat_table + (uint64_t)popcount_below(f->features, feat) * SECTION_SIZE;
	/* The whole table was checked to be in the file by pdr_open(). */
	*offset = u64_at(f, ent);
	*size = u64_at(f, ent + 8);
	if (!pdr_in_file(f, *offset, *size))
		return pdr_error(f, ent, "feature %u section %llu+%llu is outside the file of %llu bytes",
				 feat, (unsigned long long)*offset,
				 (unsigned long long)*size,
				 (unsigned long long)f->size);
	return 0;
}

/*
 * Whether the record at @pos is the seal of a streamed file's last round
 * (perfdata/write.h): a FINISHED_ROUND whose header ends the data and
 * whose body, the feature table, lies after it.  A closed file's data
 * hold every record whole.
 */
static bool ends_in_a_seal(const struct pdr_file *f, uint64_t pos)
{
	uint64_t end = f->data_offset + f->data_size;
	struct perf_event_header h;

	if (pos < f->data_offset || end - pos != sizeof(h))
		return false;
	memcpy(&h, f->data + pos, sizeof(h));
	return h.type == PERF_DATA_FINISHED_ROUND &&
	       h.size == sizeof(h) + popcount_below(f->features, 256) *
			 (uint64_t)SECTION_SIZE;
}

int pdr_open(struct pdr_file *f, const char *path)
{
	unsigned int n, feat;
	uint64_t off, size;

	memset(f, 0, sizeof(*f));
	f->path = path;
	if (map_whole(f) || check_header(f) || read_attrs(f))
		return -1;
	/* perf finds the feature table right after the data. */
	f->feat_table = f->data_offset + f->data_size;
	n = popcount_below(f->features, 256);
	if (!pdr_in_file(f, f->feat_table, (uint64_t)n * SECTION_SIZE))
		return pdr_error(f, f->feat_table,
				 "feature table of %u entries is outside the file of %llu bytes",
				 n, (unsigned long long)f->size);
	/* Every feature section, used here or not, must be in the file. */
	for (feat = 0; feat < 256; feat++)
		if (pdr_feature(f, feat, &off, &size) < 0)
			return -1;
	f->unfinished = ends_in_a_seal(f, f->data_offset + f->data_size -
				       sizeof(struct perf_event_header));
	if (f->unfinished)
		pr_err("warning: %s was not closed (perf gpu record stopped before its end): read up to its last complete round\n",
		       path);
	return 0;
}

void pdr_close(struct pdr_file *f)
{
	size_t i;

	for (i = 0; f->attrs && i < f->nr_attrs; i++)
		free((void *)f->attrs[i].ids);
	free(f->attrs);
	if (f->mapped)
		munmap(f->data, f->size);
	else
		free(f->data);
	f->mapped = false;
	f->attrs = NULL;
	f->data = NULL;
}

/*
 * Give the pages of the data section before @pos back, a window at a
 * time; the record at @pos (which callers are still reading) stays.
 */
#define PDR_DROP_WINDOW		(16ull << 20)

static void drop_behind(struct pdr_file *f, uint64_t pos)
{
	uint64_t page, upto;

	/* At every record: the cheap test first. */
	if (!f->mapped || pos < f->dropped + 2 * PDR_DROP_WINDOW)
		return;
	page = (uint64_t)sysconf(_SC_PAGESIZE);
	upto = (pos - PDR_DROP_WINDOW) & ~(page - 1);
	if (upto <= f->dropped)
		return;
	madvise(f->data + f->dropped, upto - f->dropped, MADV_DONTNEED);
	f->dropped = upto;
}

int pdr_next_record(struct pdr_file *f, uint64_t *pos, struct pdr_record *r)
{
	uint64_t end = f->data_offset + f->data_size;
	struct perf_event_header h;

	if (*pos >= end)
		return 0;
	if (end - *pos < sizeof(h))
		return pdr_error(f, *pos, "data section ends inside a record header");
	memcpy(&h, f->data + *pos, sizeof(h));
	/* A size below the header would never move on: an endless loop. */
	if (h.size < sizeof(h))
		return pdr_error(f, *pos, "record size %u is below the header", h.size);
	/* The last round's seal: its body is the table after the data. */
	if (ends_in_a_seal(f, *pos))
		h.size = sizeof(h);
	if (h.size > end - *pos)
		return pdr_error(f, *pos, "record of %u bytes runs past the data section end at %llu",
				 h.size, (unsigned long long)end);
	r->offset = *pos;
	r->type = h.type;
	r->misc = h.misc;
	r->size = h.size;
	r->body = f->data + *pos + sizeof(h);
	*pos += h.size;
	drop_behind(f, r->offset);
	return 1;
}

const struct pdr_attr *pdr_attr_of_id(const struct pdr_file *f, uint64_t id)
{
	size_t i, j;

	for (i = 0; i < f->nr_attrs; i++)
		for (j = 0; j < f->attrs[i].nr_ids; j++)
			if (f->attrs[i].ids[j] == id)
				return &f->attrs[i];
	return NULL;
}

/* A cursor over a record's body; reads past its end fail. */
struct cursor {
	const uint8_t *p;
	uint64_t left, offset;
};

static bool take(struct cursor *c, void *out, uint64_t len)
{
	if (len > c->left)
		return false;
	if (out)
		memcpy(out, c->p, len);
	c->p += len;
	c->left -= len;
	c->offset += len;
	return true;
}

/*
 * The fields between RAW and CGROUP in a sample: they are not read, so
 * with any of them the cgroup's place is unknown and it is not read.
 */
#define BETWEEN_RAW_AND_CGROUP \
	(PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER | \
	 PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC | \
	 PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR | \
	 PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_WEIGHT_STRUCT)

/* Which attr a sample is of, before its sample_type is known. */
static const struct pdr_attr *sample_attr(struct pdr_file *f,
					  const struct pdr_record *r)
{
	uint64_t t = f->attrs[0].sample_type, id, pos = 0;

	if (f->nr_attrs == 1 && !(t & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID)))
		return &f->attrs[0];
	/* read_attrs() made all sample_types equal without IDENTIFIER. */
	if (!(t & PERF_SAMPLE_IDENTIFIER)) {
		if (!(t & PERF_SAMPLE_ID)) {
			pdr_error(f, r->offset, "several attrs and samples without an id");
			return NULL;
		}
		pos = 8 * (!!(t & PERF_SAMPLE_IP) + !!(t & PERF_SAMPLE_TID) +
			   !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ADDR));
	}
	if (pos + 8 > (uint64_t)r->size - 8) {
		pdr_error(f, r->offset, "sample of %u bytes has no room for its id", r->size);
		return NULL;
	}
	memcpy(&id, r->body + pos, 8);
	if (!pdr_attr_of_id(f, id))
		pdr_error(f, r->offset + 8 + pos, "sample id %llu names no attr",
			  (unsigned long long)id);
	return pdr_attr_of_id(f, id);
}

int pdr_parse_sample(struct pdr_file *f, const struct pdr_record *r,
		     struct pdr_sample *s)
{
	struct cursor c = { r->body, r->size - 8u, r->offset + 8 };
	uint64_t t, nr = 0;	/* clang cannot see FIELD() set it */
	uint32_t u[2];

	memset(s, 0, sizeof(*s));
	s->pid = s->tid = -1;
	s->attr = sample_attr(f, r);
	if (!s->attr)
		return -1;
	t = s->attr->sample_type;
	if (t & PERF_SAMPLE_READ)
		return pdr_error(f, r->offset, "sample_type READ is not supported");
#define FIELD(bit, out, len)						\
	do {								\
		if ((t & (bit)) && !take(&c, out, len))			\
			return pdr_error(f, c.offset,			\
					 "sample of %u bytes ends inside " #bit, \
					 r->size);			\
	} while (0)
	FIELD(PERF_SAMPLE_IDENTIFIER, &s->id, 8);
	FIELD(PERF_SAMPLE_IP, NULL, 8);
	if (t & PERF_SAMPLE_TID) {
		FIELD(PERF_SAMPLE_TID, u, 8);
		s->pid = u[0];
		s->tid = u[1];
	}
	FIELD(PERF_SAMPLE_TIME, &s->time, 8);
	FIELD(PERF_SAMPLE_ADDR, NULL, 8);
	FIELD(PERF_SAMPLE_ID, &s->id, 8);
	FIELD(PERF_SAMPLE_STREAM_ID, NULL, 8);
	if (t & PERF_SAMPLE_CPU) {
		FIELD(PERF_SAMPLE_CPU, u, 8);
		s->cpu = u[0];
	}
	FIELD(PERF_SAMPLE_PERIOD, &s->period, 8);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		FIELD(PERF_SAMPLE_CALLCHAIN, &nr, 8);
		/* nr * 8 must not wrap: compare against what is left. */
		if (nr > c.left / 8)
			return pdr_error(f, c.offset - 8, "callchain of %llu entries runs past the sample",
					 (unsigned long long)nr);
		take(&c, NULL, nr * 8);
	}
	if (t & PERF_SAMPLE_RAW) {
		FIELD(PERF_SAMPLE_RAW, u, 4);
		if (u[0] > c.left)
			return pdr_error(f, c.offset - 4, "raw size %u runs past the sample's end (%llu left)",
					 u[0], (unsigned long long)c.left);
		s->raw = c.p;
		s->raw_size = u[0];
		s->raw_offset = c.offset;
		take(&c, NULL, u[0]);
	}
	if (!(t & BETWEEN_RAW_AND_CGROUP)) {
		FIELD(PERF_SAMPLE_CGROUP, &s->cgroup, 8);
		s->has_cgroup = !!(t & PERF_SAMPLE_CGROUP);
	}
#undef FIELD
	return 0;
}

/*
 * The NUL-terminated string (@what) at byte 8 of the body of a COMM or
 * CGROUP record (@type) (after pid and tid, or the id), the sample_id trailer
 * after it: its start and length, or -1 with the error set.
 */
static int record_string(struct pdr_file *f, const struct pdr_record *r,
			 const char *type, const char *what, const char **s,
			 size_t *len)
{
	size_t room = r->size - 8u;

	*s = (const char *)r->body + 8;
	if (room < 9)
		return pdr_error(f, r->offset, "%s record of %u bytes has no %s",
				 type, r->size, what);
	*len = strnlen(*s, room - 8);
	if (*len == room - 8)
		return pdr_error(f, r->offset + 16, "%s %s is not terminated",
				 type, what);
	return 0;
}

int pdr_parse_comm(struct pdr_file *f, const struct pdr_record *r,
		   int32_t *tid, const char **name, size_t *len)
{
	if (record_string(f, r, "COMM", "name", name, len))
		return -1;
	memcpy(tid, r->body + 4, 4);
	return 0;
}

int pdr_parse_cgroup(struct pdr_file *f, const struct pdr_record *r,
		     uint64_t *id, const char **path, size_t *len)
{
	if (record_string(f, r, "CGROUP", "path", path, len))
		return -1;
	if (!*len || **path != '/')
		return pdr_error(f, r->offset + 16, "CGROUP path '%.*s' does not start with /",
				 (int)(*len > 64 ? 64 : *len), *path);
	memcpy(id, r->body, 8);
	return 0;
}

int pdr_parse_lost(struct pdr_file *f, const struct pdr_record *r,
		   uint64_t *id, uint64_t *lost)
{
	if (r->size < 24)
		return pdr_error(f, r->offset, "LOST record of %u bytes is below 24",
				 r->size);
	memcpy(id, r->body, 8);
	memcpy(lost, r->body + 8, 8);
	return 0;
}

const struct pdr_attr *pdr_attr_of_record(const struct pdr_file *f,
					  const struct pdr_record *r)
{
	uint64_t id;

	if (!(f->attrs[0].sample_type & PERF_SAMPLE_IDENTIFIER) ||
	    !f->attrs[0].sample_id_all || r->size < 16)
		return f->nr_attrs == 1 ? &f->attrs[0] : NULL;
	memcpy(&id, r->body + r->size - 16, 8);
	return pdr_attr_of_id(f, id);
}
