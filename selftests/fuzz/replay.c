// SPDX-License-Identifier: GPL-2.0-only
/*
 * The replay driver of the fuzz targets: the same target file linked with
 * this main() instead of libFuzzer, built by the normal cc with ASan and
 * UBSan (make check needs no clang), or with gcc --coverage for the line
 * figures of make fuzz.
 *
 *   NAME-replay [-q] PATH...
 *
 * Runs LLVMFuzzerTestOneInput() once on each file named, and on every
 * regular file of each directory named (not below it; dot files skipped),
 * in name order so that runs repeat.  Each input is read into a buffer of
 * exactly its size, as libFuzzer gives it, so a read past its end is
 * caught.  The name of each input goes to stderr before it runs (unless
 * -q), so a crash names its input; at the end "replay: N inputs" goes to
 * stdout.  Exit status 0, or 1 when a path cannot be read; a target that
 * crashes ends the program with the sanitizer's report.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

static bool quiet;
static unsigned long inputs;

/* The whole file, in a buffer of its size (1 byte for an empty file). */
static uint8_t *slurp(const char *path, size_t *size)
{
	struct stat st;
	uint8_t *buf;
	size_t got = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	buf = malloc(st.st_size ? st.st_size : 1);
	while (buf && got < (size_t)st.st_size) {
		n = read(fd, buf + got, st.st_size - got);
		if (n <= 0) {
			fprintf(stderr, "replay: %s: %s\n", path,
				n ? strerror(errno) : "shorter than it was");
			free(buf);
			buf = NULL;
			break;
		}
		got += n;
	}
	close(fd);
	*size = got;
	return buf;
}

static int run_file(const char *path)
{
	size_t size;
	uint8_t *data = slurp(path, &size);

	if (!data)
		return -1;
	if (!quiet)
		fprintf(stderr, "replay: %s (%zu bytes)\n", path, size);
	LLVMFuzzerTestOneInput(data, size);
	free(data);
	inputs++;
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int run_dir(const char *dir)
{
	struct dirent **ents;
	char path[4096];
	struct stat st;
	int n, i, err = 0;

	n = scandir(dir, &ents, NULL, by_name);
	if (n < 0) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.' &&
		    snprintf(path, sizeof(path), "%s/%s", dir,
			     ents[i]->d_name) < (int)sizeof(path) &&
		    !stat(path, &st) && S_ISREG(st.st_mode) && run_file(path))
			err = -1;
		free(ents[i]);
	}
	free(ents);
	return err;
}

int main(int argc, char **argv)
{
	struct stat st;
	int i, err = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-q")) {
			quiet = true;
			continue;
		}
		if (stat(argv[i], &st)) {
			fprintf(stderr, "replay: %s: %s\n", argv[i],
				strerror(errno));
			err = 1;
		} else if (S_ISDIR(st.st_mode) ? run_dir(argv[i]) :
			   run_file(argv[i])) {
			err = 1;
		}
	}
	printf("replay: %lu inputs\n", inputs);
	return err;
}
