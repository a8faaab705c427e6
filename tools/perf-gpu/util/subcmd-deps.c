// SPDX-License-Identifier: GPL-2.0-only
/*
 * strlcpy(), which libsubcmd calls and perf takes from the kernel's
 * tools/lib; this one is ours, as glibc 2.36 (Debian 12) has none.
 * str_error_r(), its other need, comes with libapi (linked after it).
 */
#include <string.h>

size_t strlcpy(char *dst, const char *src, size_t size);

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
