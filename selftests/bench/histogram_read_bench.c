// SPDX-License-Identifier: GPL-2.0-only
/*
 * One full read of a 4096-key histogram: open (which takes the snapshot),
 * read to the end with a 4 KiB buffer, close.  The keys come from 4096
 * fencegen timelines, one job each, in this process's own target.  Also
 * the same for a 1-key histogram, as a peer for the fixed costs.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/bench.h"
#include "../lib/gpuprof.h"
#include "../lib/kmod.h"

#define READS 101

static double read_us(const char *path, size_t *bytes)
{
	char buf[4096];
	double t = now_us();
	ssize_t n;
	int fd = open(path, O_RDONLY);

	*bytes = 0;
	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		*bytes += n;
	close(fd);
	return now_us() - t;
}

static double median_read_us(int id, size_t *bytes)
{
	double v[READS];
	char path[64];
	int i;

	snprintf(path, sizeof(path), GP "/%d/histogram", id);
	for (i = 0; i < READS; i++)
		v[i] = read_us(path, bytes);
	return median(v, READS);
}

int main(void)
{
	char names[64];
	size_t bytes_big, bytes_one;
	double big, one;
	int i;

	pid_t pid;
	int st;

	if (gpuprof_load(NULL) || fencegen_load())
		return fprintf(stderr, "cannot load the modules\n"), 1;
	prctl(PR_SET_NAME, "hist_bench");
	if (ctl("module hist_bench\n") || ctl("module hist_one\n") ||
	    ctl("startcp\n"))
		return fprintf(stderr, "ctl failed\n"), 1;
	for (i = 0; i < 4096; i++) {
		snprintf(names, sizeof(names), "bench t%d\n", i);
		if (write_file(FENCEGEN, names))
			return fprintf(stderr, "fencegen failed\n"), 1;
	}
	/* The peer: one job from a process of another name. */
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_NAME, "hist_one");
		_exit(write_file(FENCEGEN, "bench t0\n") ? 1 : 0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return fprintf(stderr, "fencegen failed\n"), 1;
	ctl("stop\n");
	big = median_read_us(1, &bytes_big);
	one = median_read_us(2, &bytes_one);
	gpuprof_unload();
	printf("BENCH histogram_read_us_4096 %.1f us (%zu bytes, aim < 500)\n",
	       big, bytes_big);
	printf("BENCH histogram_read_us_1 %.1f us (%zu bytes)\n", one, bytes_one);
	return 0;
}
