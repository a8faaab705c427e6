// SPDX-License-Identifier: GPL-2.0-only
/*
 * Two helpers libsubcmd calls that perf takes from the kernel's
 * tools/lib; these are ours.  glibc 2.36 (Debian 12) has no strlcpy().
 */
#include <string.h>

char *str_error_r(int errnum, char *buf, size_t buflen);
size_t strlcpy(char *dst, const char *src, size_t size);

char *str_error_r(int errnum, char *buf, size_t buflen)
{
	/* The GNU strerror_r() already returns the string to print. */
	return strerror_r(errnum, buf, buflen);
}

/* Copy with truncation, always NUL-terminated; returns strlen(src). */
size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}
