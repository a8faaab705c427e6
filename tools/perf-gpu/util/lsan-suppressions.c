// SPDX-License-Identifier: GPL-2.0-only
/*
 * Leaks LeakSanitizer should not count in the SANITIZE=1 build: those
 * inside libtraceevent.  Its parser (1.7) drops small allocations when a
 * corrupted event format fails to parse midway, and perf gpu script
 * feeds it formats from files; the process exits right after the error
 * anyway.  Read by the sanitizer runtime, ignored in a normal build.
 */
const char *__lsan_default_suppressions(void);

const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

/* Without the table of suppressions used: the error stays one line. */
const char *__lsan_default_options(void);

const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}
