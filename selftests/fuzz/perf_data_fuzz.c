// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: perf.data files as perf gpu script and perf gpu report
 * read them, the code of tools/perf-gpu: the reader (perfdata/read.c),
 * the tracing data into libtraceevent (perfdata/tracing-data-read.c),
 * the payload checks (perfdata/trace-print.c), the OA lines of script
 * (oa/print.c), the GPU-event layer (perfdata/gpu-trace.c) and the
 * report model (report/model.c with report/busy.c, report/sketch.c,
 * report/ranges.c) and its printers.
 *
 * Input: the file.  It is written to a memfd and opened by path
 * (/proc/self/fd/N) by the subcommands themselves, cmd_script() and
 * cmd_report() of perf-gpu, with the options a user gives:
 *
 *   perf gpu script -i FILE
 *   perf gpu report --format=json -i FILE
 *   perf gpu report --format=csv --sort=latency --range=R -i FILE
 *
 * (R: from each dma_fence_init to the next dma_fence_signaled), their
 * stdout caught in another memfd.  Checks: each exits 0 or 1 (an error
 * message, never a crash); report writes nothing when it fails, and
 * its JSON, when it succeeds, is one well-formed JSON document.
 * libtraceevent's own leaks on broken formats are suppressed for
 * LeakSanitizer as in perf-gpu (tools/perf-gpu/util/lsan-suppressions.c).
 */
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "../../tools/perf-gpu/builtin.h"

#define JSON_DEPTH_MAX	64

/* The input as a file, and a file for stdout: made once, reused. */
static int in_fd = -1, out_fd = -1;
static char in_path[64];

static void open_files(void)
{
	in_fd = memfd_create("perf.data", 0);
	out_fd = memfd_create("stdout", 0);
	FUZZ_CHECK(in_fd >= 0 && out_fd >= 0);
	snprintf(in_path, sizeof(in_path), "/proc/self/fd/%d", in_fd);
}

static void put_input(const uint8_t *data, size_t size)
{
	size_t off = 0;
	ssize_t n;

	FUZZ_CHECK(!ftruncate(in_fd, 0));
	while (off < size) {
		n = pwrite(in_fd, data + off, size - off, off);
		FUZZ_CHECK(n > 0);
		off += n;
	}
}

/*
 * Run a subcommand with its stdout in out_fd; its exit code, with what
 * it printed in a malloc'd buffer *@out of *@len bytes and a NUL.
 */
static int run(int (*cmd)(int, const char **), const char **argv, int argc,
	       char **out, size_t *len)
{
	int saved, ret;
	off_t end;

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	FUZZ_CHECK(saved >= 0 && !ftruncate(out_fd, 0));
	FUZZ_CHECK(lseek(out_fd, 0, SEEK_SET) == 0);
	FUZZ_CHECK(dup2(out_fd, STDOUT_FILENO) == STDOUT_FILENO);
	ret = cmd(argc, argv);
	fflush(stdout);
	FUZZ_CHECK(dup2(saved, STDOUT_FILENO) == STDOUT_FILENO);
	close(saved);

	end = lseek(out_fd, 0, SEEK_END);
	FUZZ_CHECK(end >= 0);
	*len = end;
	*out = malloc(*len + 1);
	FUZZ_CHECK(*out);
	FUZZ_CHECK(pread(out_fd, *out, *len, 0) == (ssize_t)*len);
	(*out)[*len] = '\0';
	FUZZ_CHECK(ret == 0 || ret == 1);
	return ret;
}

/* A JSON checker: enough to say whether a document is well formed. */
struct json {
	const char *p, *end;
	int depth;
};

static void json_blank(struct json *j)
{
	while (j->p < j->end && strchr(" \t\r\n", *j->p))
		j->p++;
}

static bool json_lit(struct json *j, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, lit, n))
		return false;
	j->p += n;
	return true;
}

static bool json_digits(struct json *j)
{
	const char *start = j->p;

	while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
		j->p++;
	return j->p > start;
}

static bool json_number(struct json *j)
{
	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p < j->end && *j->p == '0')
		j->p++;
	else if (!json_digits(j))
		return false;
	if (j->p < j->end && *j->p == '.' && (j->p++, !json_digits(j)))
		return false;
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		return json_digits(j);
	}
	return true;
}

/*
 * The bytes of one UTF-8 character at @p (before @end), 0 when they are
 * not one.  Written from RFC 3629's table of well-formed sequences (the
 * second byte's range depends on the first), not from the writer's code.
 */
static int utf8_char(const unsigned char *p, const unsigned char *end)
{
	unsigned char lo = 0x80, hi = 0xbf;
	int n, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (end - p < n || p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

/*
 * A string: no raw control bytes, known escapes only, and UTF-8: names
 * are any bytes a process chose, util/output.c makes them text.
 */
static bool json_string(struct json *j)
{
	int i, n;

	if (!json_lit(j, "\""))
		return false;
	while (j->p < j->end && *j->p != '"') {
		if ((unsigned char)*j->p < 0x20)
			return false;
		if ((unsigned char)*j->p >= 0x80) {
			n = utf8_char((const unsigned char *)j->p,
				      (const unsigned char *)j->end);
			if (!n)
				return false;
			j->p += n;
			continue;
		}
		if (*j->p++ != '\\')
			continue;
		if (j->p >= j->end)
			return false;
		if (*j->p == 'u') {
			for (i = 1; i <= 4; i++)
				if (j->p + i >= j->end ||
				    !strchr("0123456789abcdefABCDEF", j->p[i]) ||
				    !j->p[i])
					return false;
			j->p += 5;
		} else if (strchr("\"\\/bfnrt", *j->p) && *j->p) {
			j->p++;
		} else {
			return false;
		}
	}
	return json_lit(j, "\"");
}

static bool json_value(struct json *j);

/* An object (@close '}') or an array (']'), after its opening bracket. */
static bool json_members(struct json *j, char close)
{
	json_blank(j);
	if (json_lit(j, close == '}' ? "}" : "]"))
		return true;
	for (;;) {
		json_blank(j);
		if (close == '}') {
			if (!json_string(j))
				return false;
			json_blank(j);
			if (!json_lit(j, ":"))
				return false;
		}
		if (!json_value(j))
			return false;
		json_blank(j);
		if (json_lit(j, close == '}' ? "}" : "]"))
			return true;
		if (!json_lit(j, ","))
			return false;
	}
}

static bool json_value(struct json *j)
{
	bool ok;

	json_blank(j);
	if (j->p >= j->end)
		return false;
	switch (*j->p) {
	case '{':
	case '[':
		if (++j->depth > JSON_DEPTH_MAX)
			return false;
		ok = json_members(j, *j->p++ == '{' ? '}' : ']');
		j->depth--;
		return ok;
	case '"':
		return json_string(j);
	case 't':
		return json_lit(j, "true");
	case 'f':
		return json_lit(j, "false");
	case 'n':
		return json_lit(j, "null");
	default:
		return json_number(j);
	}
}

static void check_json(const char *text, size_t len)
{
	struct json j = { .p = text, .end = text + len };

	FUZZ_CHECK(json_value(&j));
	json_blank(&j);
	FUZZ_CHECK(j.p == j.end);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *script[] = { "script", "-i", in_path, NULL };
	const char *json[] = { "report", "--format=json", "-i", in_path, NULL };
	const char *csv[] = {
		"report", "--format=csv", "--sort=latency",
		"--range=dma_fence:dma_fence_init,dma_fence:dma_fence_signaled",
		"-i", in_path, NULL
	};
	size_t len;
	char *out;

	if (in_fd < 0)
		open_files();
	put_input(data, size);

	run(cmd_script, script, 3, &out, &len);
	free(out);

	if (run(cmd_report, json, 4, &out, &len))
		FUZZ_CHECK(len == 0);
	else
		check_json(out, len);
	free(out);

	if (run(cmd_report, csv, 6, &out, &len))
		FUZZ_CHECK(len == 0);
	free(out);
	return 0;
}
