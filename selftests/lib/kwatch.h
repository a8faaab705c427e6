/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Watching the kernel from a device test: the kernel log since a point
 * (read from /dev/kmsg, which hands out whole records and keeps its own
 * position per open file) for lines that tell of a warning, an oops, a
 * corrupted list or slab object, a hung task; and the taint mask, which
 * the kernel sets on the same events and never clears.
 */
#ifndef GPUPROF_TEST_KWATCH_H
#define GPUPROF_TEST_KWATCH_H

#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * What a clean run never prints.  "slab" catches SLUB's reports
 * ("Slab cache still has objects", "BUG kmalloc-64 (...): ..."), Poison,
 * Redzone and "Object padding" those of slub_debug=FZP.
 */
#define KWATCH_BAD "WARNING|BUG[: ]|Oops|general protection|refcount_t|" \
	"list_add corruption|list_del corruption|INFO: task|[Ss]lab|" \
	"Poison|Redzone|Object padding|Call Trace|still has objects|" \
	"KASAN|UBSAN|lockdep"

/*
 * Taint flags set by loading gpuprof.ko and the fencegen test module
 * themselves: O (out-of-tree module, bit 12) and E (unsigned module, bit
 * 13).  Any other new flag (W: a warning, D: an oops, ...) is a failure.
 */
#define KWATCH_TAINT_OURS ((1ul << 12) | (1ul << 13))

struct kwatch {
	int fd;			/* /dev/kmsg, positioned at the start point */
	unsigned long taint;	/* /proc/sys/kernel/tainted then */
	long lines;		/* records read since, bad or not */
};

static inline unsigned long kernel_taint(void)
{
	char buf[32] = "";
	int fd = open("/proc/sys/kernel/tainted", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (read(fd, buf, sizeof(buf) - 1) < 0)
			buf[0] = '\0';
		close(fd);
	}
	return strtoul(buf, NULL, 10);
}

/* From now on; 0 or -errno. */
static inline int kwatch_start(struct kwatch *w)
{
	w->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (w->fd < 0)
		return -errno;
	if (lseek(w->fd, 0, SEEK_END) < 0) {
		close(w->fd);
		w->fd = -1;
		return -errno;
	}
	w->taint = kernel_taint();
	w->lines = 0;
	return 0;
}

/*
 * The kernel log lines matching KWATCH_BAD since the start (or the last
 * call), each printed to @out as "# dmesg: TEXT"; their number.  A record
 * is "PRIO,SEQ,TIME,FLAGS;TEXT" with continuation lines after it.
 */
static inline int kwatch_bad_lines(struct kwatch *w, FILE *out)
{
	char rec[8192], *text, *nl;
	regex_t re;
	int bad = 0;
	ssize_t n;

	if (w->fd < 0 || regcomp(&re, KWATCH_BAD, REG_EXTENDED | REG_NOSUB))
		return -1;
	for (;;) {
		n = read(w->fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten meanwhile: go on */
		if (n <= 0)
			break;
		rec[n] = '\0';
		text = strchr(rec, ';');
		if (!text)
			continue;
		text++;
		nl = strchr(text, '\n');
		if (nl)
			*nl = '\0';
		w->lines++;
		if (!regexec(&re, text, 0, NULL, 0)) {
			bad++;
			if (out)
				fprintf(out, "# dmesg: %s\n", text);
		}
	}
	regfree(&re);
	return bad;
}

/* Taint flags set since the start, other than those of our modules. */
static inline unsigned long kwatch_new_taint(const struct kwatch *w)
{
	return (kernel_taint() & ~w->taint) & ~KWATCH_TAINT_OURS;
}

/* Is module @name loaded? */
static inline int module_loaded(const char *name)
{
	char line[256];
	size_t len = strlen(name);
	int found = 0;
	FILE *f = fopen("/proc/modules", "r");

	while (f && !found && fgets(line, sizeof(line), f))
		found = !strncmp(line, name, len) && line[len] == ' ';
	if (f)
		fclose(f);
	return found;
}

/*
 * In a test (kselftest_harness.h included first): expect no bad kernel
 * log line and no new taint since kwatch_start(@w).
 */
#define EXPECT_KERNEL_QUIET(w) do {					\
		int bad_ = kwatch_bad_lines((w), stdout);		\
									\
		fflush(stdout);						\
		EXPECT_EQ(0, bad_);					\
		EXPECT_EQ(0, kwatch_new_taint(w))			\
			TH_LOG("taint was %lu, is %lu", (w)->taint,	\
			       kernel_taint());				\
	} while (0)

static inline void kwatch_stop(struct kwatch *w)
{
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
}

#endif
