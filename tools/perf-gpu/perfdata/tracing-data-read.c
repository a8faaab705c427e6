// SPDX-License-Identifier: GPL-2.0-only
/*
 * HEADER_TRACING_DATA into libtraceevent.  The layout (perf's
 * tools/perf/util/trace-event-read.c reads the same):
 *
 *   "\027\010Dtracing", version string, endianness byte, long size
 *   byte, u32 page size;
 *   "header_page\0", u64 size, text;  "header_event\0", u64 size, text;
 *   u32 ftrace formats, each u64 size + text;
 *   u32 systems, each: name string, u32 events, each u64 size + text;
 *   u32 size + kallsyms;  u32 size + printk formats;
 *   from version 0.6: u64 size + saved cmdlines.
 *
 * Every length is checked against what is left of the feature section
 * before it is used.  libtraceevent gets copies: its parser may keep
 * pointers into what it is given only for the call.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perfdata/format-check.h"
#include "perfdata/tracing-data-read.h"

/*
 * In the trial child (see tracing_data_trial()): where the text handed to
 * libtraceevent last lies, shared with the parent.  NULL elsewhere.
 */
struct td_trial_spot {
	uint64_t at;
	char what[64];
};
static struct td_trial_spot *td_trial;

static void td_trial_mark(uint64_t at, const char *what, const char *system)
{
	if (!td_trial)
		return;
	td_trial->at = at;
	snprintf(td_trial->what, sizeof(td_trial->what), "%s%s%s", what,
		 system ? " of system " : "", system ? system : "");
}

/* The bytes of the feature section not read yet. */
struct td_cursor {
	struct pdr_file *f;
	uint64_t pos, end;	/* file offsets */
};

static bool td_take(struct td_cursor *c, void *out, uint64_t len,
		    const char *what)
{
	if (len > c->end - c->pos) {
		pdr_error(c->f, c->pos, "tracing data ends inside %s (%llu bytes, %llu left)",
			  what, (unsigned long long)len,
			  (unsigned long long)(c->end - c->pos));
		return false;
	}
	if (out)
		memcpy(out, c->f->data + c->pos, len);
	c->pos += len;
	return true;
}

/* A NUL-terminated string in place, or NULL with the error set. */
static const char *td_string(struct td_cursor *c, const char *what)
{
	const char *s = (const char *)c->f->data + c->pos;
	const char *nul = memchr(s, '\0', c->end - c->pos);

	if (!nul) {
		pdr_error(c->f, c->pos, "tracing data ends inside %s", what);
		return NULL;
	}
	c->pos += nul - s + 1;
	return s;
}

/* A u64 size and that many bytes; their file offset in *@at. */
static bool td_blob(struct td_cursor *c, uint64_t size_len, const char *what,
		    uint64_t *at, uint64_t *len)
{
	uint64_t n;
	uint32_t n32;

	/* kallsyms and printk formats have a u32 size, the rest a u64. */
	if (size_len == 4) {
		if (!td_take(c, &n32, 4, what))
			return false;
		n = n32;
	} else if (!td_take(c, &n, 8, what)) {
		return false;
	}
	*at = c->pos;
	*len = n;
	return td_take(c, NULL, n, what);
}

/*
 * tracefs formats are printable ASCII.  libtraceevent's parser (1.7)
 * dereferences NULL on some malformed print fmts (a field name with a
 * byte over 0x7f in it, for one), so a text that is not plain ASCII is
 * refused before it gets there.  Corruption that keeps the text ASCII
 * is left to the parser.
 */
static int check_text(struct td_cursor *c, uint64_t at, uint64_t len,
		      const char *what)
{
	const uint8_t *p = c->f->data + at;
	uint64_t i;

	for (i = 0; i < len; i++)
		if ((p[i] < 0x20 || p[i] > 0x7e) && p[i] != '\t' && p[i] != '\n')
			return pdr_error(c->f, at + i, "byte 0x%02x in %s is not printable ASCII",
					 p[i], what);
	return 0;
}

/* A format text to libtraceevent, which wants a writable buffer. */
static int parse_format(struct td_cursor *c, struct tep_handle *tep,
			uint64_t at, uint64_t len, const char *system)
{
	char *copy;
	int ret;

	size_t bad;

	if (check_text(c, at, len, "an event format"))
		return -1;
	bad = format_check_fields((const char *)c->f->data + at, len);
	if (bad)
		return pdr_error(c->f, at + bad - 1,
				 "the print fmt of a format of system %s names no field of it",
				 system);
	bad = format_check_divisors((const char *)c->f->data + at, len);
	if (bad)
		return pdr_error(c->f, at + bad - 1,
				 "the print fmt of a format of system %s divides by zero",
				 system);
	bad = format_check_sizeof((const char *)c->f->data + at, len);
	if (bad)
		return pdr_error(c->f, at + bad - 1,
				 "the print fmt of a format of system %s takes a sizeof() libtraceevent 1.7.1 frees twice",
				 system);
	copy = malloc(len + 1);
	if (!copy)
		return pdr_error(c->f, at, "out of memory for a format");
	memcpy(copy, c->f->data + at, len);
	copy[len] = '\0';
	td_trial_mark(at, "the event format", system);
	ret = tep_parse_event(tep, copy, len, system);
	free(copy);
	if (ret)
		return pdr_error(c->f, at, "event format of system %s does not parse",
				 system);
	return 0;
}

static int read_formats(struct td_cursor *c, struct tep_handle *tep,
			const char *system)
{
	uint32_t count, i;
	uint64_t at, len;

	if (!td_take(c, &count, 4, "a format count"))
		return -1;
	for (i = 0; i < count; i++) {
		if (!td_blob(c, 8, "an event format", &at, &len) ||
		    parse_format(c, tep, at, len, system))
			return -1;
	}
	return 0;
}

static int read_header(struct td_cursor *c, struct tep_handle *tep)
{
	static const char magic[] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const uint16_t one = 1;
	uint8_t m[sizeof(magic)], big, long_size;
	uint32_t page_size;
	const char *version, *name;
	uint64_t at, len;
	char *copy;

	if (!td_take(c, m, sizeof(m), "the magic"))
		return -1;
	if (memcmp(m, magic, sizeof(m)))
		return pdr_error(c->f, c->pos - sizeof(m), "tracing data has a bad magic");
	version = td_string(c, "the version");
	if (!version || !td_take(c, &big, 1, "the endianness") ||
	    !td_take(c, &long_size, 1, "the long size") ||
	    !td_take(c, &page_size, 4, "the page size"))
		return -1;
	/* The samples are read in host order: the formats must be too. */
	if (big != (*(const uint8_t *)&one == 0))
		return pdr_error(c->f, c->pos - 6, "tracing data of the other endianness is not supported");
	if (long_size != 4 && long_size != 8)
		return pdr_error(c->f, c->pos - 5, "long size %u is not 4 or 8", long_size);
	tep_set_file_bigendian(tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, long_size);
	tep_set_page_size(tep, page_size);

	name = td_string(c, "the header_page name");
	if (!name)
		return -1;
	if (strcmp(name, "header_page"))
		return pdr_error(c->f, c->pos - strlen(name) - 1, "expected header_page");
	if (!td_blob(c, 8, "header_page", &at, &len) ||
	    check_text(c, at, len, "header_page"))
		return -1;
	copy = malloc(len + 1);
	if (!copy)
		return pdr_error(c->f, at, "out of memory for header_page");
	memcpy(copy, c->f->data + at, len);
	copy[len] = '\0';
	/* perf treats a header_page that does not parse as fatal too. */
	td_trial_mark(at, "header_page", NULL);
	if (tep_parse_header_page(tep, copy, len, long_size)) {
		free(copy);
		return pdr_error(c->f, at, "header_page does not parse");
	}
	free(copy);

	name = td_string(c, "the header_event name");
	if (!name)
		return -1;
	if (strcmp(name, "header_event"))
		return pdr_error(c->f, c->pos - strlen(name) - 1, "expected header_event");
	/* perf skips header_event: the ring buffer's, not the samples'. */
	if (!td_blob(c, 8, "header_event", &at, &len))
		return -1;
	return atof(version) >= 0.6 ? 1 : 0;
}

int tracing_data_read(struct pdr_file *f, uint64_t offset, uint64_t size,
		      struct tep_handle *tep)
{
	struct td_cursor c = { f, offset, offset + size };
	uint32_t systems, i;
	uint64_t at, len;
	int v06;

	v06 = read_header(&c, tep);
	if (v06 < 0 || read_formats(&c, tep, "ftrace"))
		return -1;
	if (!td_take(&c, &systems, 4, "the system count"))
		return -1;
	for (i = 0; i < systems; i++) {
		const char *system = td_string(&c, "a system name");

		if (!system || read_formats(&c, tep, system))
			return -1;
	}
	/*
	 * No symbols or printk formats are needed to print the events
	 * perf gpu records: skipped, their sizes checked.
	 */
	if (!td_blob(&c, 4, "kallsyms", &at, &len) ||
	    !td_blob(&c, 4, "printk formats", &at, &len))
		return -1;
	/* COMM records name the processes; the saved cmdlines are skipped. */
	if (v06 && !td_blob(&c, 8, "saved cmdlines", &at, &len))
		return -1;
	return 0;
}

/*
 * libtraceevent's parser (1.7.1, Debian 12's) dereferences NULL, frees
 * twice or divides by zero on formats a crafted or corrupt file can
 * carry; format-check.h names three kinds, and a fuzzer finds more.  A
 * file is something people send each other, so rather than chase each
 * one, the tracing data is parsed first by a trial process, and when
 * that dies it takes the file with it, not the reader.
 *
 * The trial process is forked once, at the first file, and serves every
 * file after it over a socket (a fork per file costs a fuzzer most of
 * its speed): it takes the section's bytes, parses them into a fresh
 * handle and answers whether they parsed.  Before each text it hands to
 * libtraceevent it notes where that lies, in a page shared with the
 * reader, so that the error names it.  It dies by the signal itself (a
 * sanitizer's handler would report the reader's crash), with no core
 * and no standard files; the next file forks another.  An answer, whether the
 * data parsed or not, clears the file for the real parse, which says
 * what is wrong.
 *
 * libtraceevent keeps some state between parses in statics (1.7.1's
 * is_flag_field, which a failed parse can leave set for the next
 * event), so a trial must start from the reader's: the trial process
 * is a fork of the reader and parses every file the reader parses, and
 * one that died is replaced by a fresh fork.
 */
#define TD_TRIAL_PARSED		'0'
#define TD_TRIAL_NO_PARSE	'3'

static struct {
	pid_t pid;			/* 0: none */
	int sock;
	struct td_trial_spot *spot;	/* shared */
} td_trial_proc;

static bool td_trial_io(int fd, void *buf, size_t len, bool out)
{
	uint8_t *p = buf;
	ssize_t n;

	while (len) {
		n = out ? send(fd, p, len, MSG_NOSIGNAL) : read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= n;
	}
	return true;
}

static void td_trial_serve(int sock, struct td_trial_spot *spot)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
				     SIGTRAP, SIGSYS };
	struct rlimit no_core = { 0, 0 };
	size_t i;
	int null;

	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		signal(fatal[i], SIG_DFL);
	setrlimit(RLIMIT_CORE, &no_core);
	/*
	 * Nothing of the reader's standard files: a pipe the reader writes
	 * to must see its end when the reader exits, not when this does.
	 */
	null = open("/dev/null", O_RDWR);
	for (i = 0; null >= 0 && i <= STDERR_FILENO; i++)
		dup2(null, i);
	td_trial = spot;
	for (;;) {
		struct pdr_file f = { .path = "" };
		struct tep_handle *tep;
		uint64_t len;
		char answer;

		if (!td_trial_io(sock, &len, sizeof(len), false))
			_exit(0);
		f.data = malloc(len ? len : 1);
		if (!f.data || !td_trial_io(sock, f.data, len, false))
			_exit(0);
		f.size = len;
		tep = tep_alloc();
		answer = tep && !tracing_data_read(&f, 0, len, tep) ?
			 TD_TRIAL_PARSED : TD_TRIAL_NO_PARSE;
		tep_free(tep);
		free(f.data);
		if (!td_trial_io(sock, &answer, 1, true))
			_exit(0);
	}
}

static int td_trial_start(struct pdr_file *f, uint64_t offset)
{
	int sv[2];
	pid_t pid;

	if (!td_trial_proc.spot) {
		td_trial_proc.spot = mmap(NULL, sizeof(*td_trial_proc.spot),
					  PROT_READ | PROT_WRITE,
					  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (td_trial_proc.spot == MAP_FAILED) {
			td_trial_proc.spot = NULL;
			return pdr_error(f, offset, "no memory to try the tracing data: %s",
					 strerror(errno));
		}
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return pdr_error(f, offset, "cannot try the tracing data: %s",
				 strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return pdr_error(f, offset, "cannot fork to try the tracing data: %s",
				 strerror(errno));
	}
	if (pid == 0) {
		close(sv[0]);
		td_trial_serve(sv[1], td_trial_proc.spot);
	}
	close(sv[1]);
	td_trial_proc.pid = pid;
	td_trial_proc.sock = sv[0];
	return 0;
}

/* The trial process is gone: why, as an error at @offset and on. */
static int td_trial_died(struct pdr_file *f, uint64_t offset)
{
	struct td_trial_spot *spot = td_trial_proc.spot;
	int status = 0;

	close(td_trial_proc.sock);
	while (waitpid(td_trial_proc.pid, &status, 0) < 0 && errno == EINTR)
		;
	td_trial_proc.pid = 0;
	if (WIFSIGNALED(status))
		return pdr_error(f, offset + spot->at, "%s crashes libtraceevent (%s in a trial parse): not read",
				 spot->what, strsignal(WTERMSIG(status)));
	return pdr_error(f, offset + spot->at, "%s crashes libtraceevent (exit status %d in a trial parse): not read",
			 spot->what, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static int tracing_data_trial(struct pdr_file *f, uint64_t offset,
			      uint64_t size)
{
	char answer;

	if (!td_trial_proc.pid && td_trial_start(f, offset))
		return -1;
	td_trial_proc.spot->at = 0;
	snprintf(td_trial_proc.spot->what, sizeof(td_trial_proc.spot->what),
		 "the tracing data");
	if (!td_trial_io(td_trial_proc.sock, &size, sizeof(size), true) ||
	    !td_trial_io(td_trial_proc.sock, f->data + offset, size, true) ||
	    !td_trial_io(td_trial_proc.sock, &answer, 1, false))
		return td_trial_died(f, offset);
	if (answer != TD_TRIAL_PARSED && answer != TD_TRIAL_NO_PARSE)
		return td_trial_died(f, offset);
	return 0;
}

/* The feature of perf.data files that holds the tracing data. */
#define FEAT_TRACING_DATA	1

static int check_common_type(struct pdr_file *f, struct tep_handle *tep,
			     uint64_t td_offset)
{
	struct tep_event **all = tep_list_events(tep, TEP_EVENT_SORT_ID);
	struct tep_format_field *fl;

	for (; all && *all; all++) {
		fl = tep_find_common_field(*all, "common_type");
		if (!fl || fl->offset != 0 || fl->size != 2)
			return pdr_error(f, td_offset,
					 "event %s:%s has no u16 common_type at offset 0",
					 (*all)->system, (*all)->name);
	}
	return 0;
}

int tracing_data_events(struct pdr_file *f, struct tep_handle *tep,
			struct tep_event **events)
{
	uint64_t off = 0, size = 0;
	size_t i;
	int ret;

	ret = pdr_feature(f, FEAT_TRACING_DATA, &off, &size);
	if (ret < 0)
		return -1;
	if (ret == 0 && (tracing_data_trial(f, off, size) ||
			 tracing_data_read(f, off, size, tep) ||
			 check_common_type(f, tep, off)))
		return -1;
	for (i = 0; i < f->nr_attrs; i++) {
		const struct pdr_attr *pa = &f->attrs[i];

		events[i] = NULL;
		if (pa->type != PERF_TYPE_TRACEPOINT)
			continue;
		if (ret)
			return pdr_error(f, 72, "tracepoint events without the HEADER_TRACING_DATA feature");
		events[i] = tep_find_event(tep, pa->config);
		if (!events[i])
			return pdr_error(f, pa->offset + 8,
					 "tracepoint id %llu has no format in the tracing data",
					 (unsigned long long)pa->config);
	}
	return 0;
}
