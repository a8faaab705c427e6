// SPDX-License-Identifier: GPL-2.0-only
/*
 * Outputs written whole or not at all (util/file.h, struct file_out),
 * as perf gpu convert, timechart and top's OpenMetrics file write them,
 * and the perf.data writer: a regular file takes its name only when
 * complete; a path that is a FIFO (or a device, /dev/null) is written in
 * place and stays what it was.  Renaming over it made a file of it: as
 * root, convert -o /dev/null replaced the machine's /dev/null.  The
 * bytes a FIFO gives are read by a child and compared with the bytes
 * written, and stat() says what the path is after.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/run.h"
#include "../../tools/perf-gpu/perfdata/tracing-data.h"
#include "../../tools/perf-gpu/perfdata/write.h"
#include "../../tools/perf-gpu/util/file.h"

FIXTURE(out) {
	char dir[64], path[128], fifo[128];
	char got[4096];
	pid_t reader;
	int pipe_fd;
};

FIXTURE_SETUP(out)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/util_file_test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->path, sizeof(self->path), "%s/out", self->dir);
	snprintf(self->fifo, sizeof(self->fifo), "%s/fifo", self->dir);
	ASSERT_EQ(0, mkfifo(self->fifo, 0600));
	self->reader = -1;
}

FIXTURE_TEARDOWN(out)
{
	char out[256];

	if (self->reader > 0) {
		kill(self->reader, SIGKILL);
		waitpid(self->reader, NULL, 0);
	}
	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

/* A child that copies what the FIFO gives to a pipe back to us. */
static int start_reader(FIXTURE_DATA(out) *self)
{
	int p[2];

	if (pipe(p))
		return -1;
	self->reader = fork();
	if (self->reader < 0)
		return -1;
	if (self->reader == 0) {
		char buf[4096];
		ssize_t n;
		int fd = open(self->fifo, O_RDONLY);

		close(p[0]);
		while (fd >= 0 && (n = read(fd, buf, sizeof(buf))) > 0)
			if (write(p[1], buf, n) != n)
				_exit(1);
		_exit(fd < 0);
	}
	close(p[1]);
	self->pipe_fd = p[0];
	return 0;
}

/* What the reader got, NUL-terminated in self->got: its length. */
static ssize_t reader_got(FIXTURE_DATA(out) *self)
{
	ssize_t n, len = 0;

	while ((n = read(self->pipe_fd, self->got + len,
			 sizeof(self->got) - 1 - len)) > 0)
		len += n;
	close(self->pipe_fd);
	self->got[len] = 0;
	waitpid(self->reader, NULL, 0);
	self->reader = -1;
	return len;
}

static bool is_fifo(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && S_ISFIFO(st.st_mode);
}

/* Nothing but @keep in the directory: no temporary file left behind. */
static int entries(FIXTURE_DATA(out) *self)
{
	char out[1024];

	run_cmd(out, sizeof(out), "ls -A '%s' | wc -l", self->dir);
	return atoi(out);
}

TEST_F(out, a_file_takes_its_name_when_complete)
{
	struct file_out o;
	char buf[64];

	ASSERT_EQ(0, file_out_open(&o, self->path));
	/* Not inherited by a command started meanwhile. */
	EXPECT_TRUE(fcntl(fileno(o.f), F_GETFD) & FD_CLOEXEC);
	fputs("whole\n", o.f);
	fflush(o.f);
	EXPECT_NE(0, access(self->path, F_OK));
	ASSERT_EQ(0, file_out_close(&o, true));
	ASSERT_EQ(6, file_read_small(AT_FDCWD, self->path, buf, sizeof(buf)));
	EXPECT_STREQ("whole\n", buf);
	EXPECT_EQ(2, entries(self));	/* out and fifo */
}

TEST_F(out, an_abandoned_file_leaves_nothing)
{
	struct file_out o;

	ASSERT_EQ(0, file_out_open(&o, self->path));
	fputs("half", o.f);
	file_out_abort(&o);
	EXPECT_NE(0, access(self->path, F_OK));
	EXPECT_EQ(1, entries(self));
}

TEST_F(out, a_fifo_is_written_in_place_and_stays_a_fifo)
{
	struct file_out o;

	ASSERT_EQ(0, start_reader(self));
	ASSERT_EQ(0, file_out_open(&o, self->fifo));
	fputs("through the pipe\n", o.f);
	ASSERT_EQ(0, file_out_close(&o, true));
	EXPECT_EQ(17, reader_got(self));
	EXPECT_STREQ("through the pipe\n", self->got);
	EXPECT_TRUE(is_fifo(self->fifo));
	EXPECT_EQ(1, entries(self));
}

TEST_F(out, an_unwritable_place_is_an_error_and_makes_nothing)
{
	struct file_out o;
	char path[160];

	snprintf(path, sizeof(path), "%s/no/such/dir", self->dir);
	EXPECT_EQ(-ENOENT, file_out_open(&o, path));
	EXPECT_EQ(1, entries(self));
}

/*
 * The perf.data writer: into a FIFO it writes in place (the header's
 * rewrite cannot seek a pipe: an error), and the FIFO stays one.
 */
TEST_F(out, a_recording_into_a_fifo_leaves_the_fifo)
{
	static const char fmt[] =
		"name: ev\nID: 7\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n"
		"print fmt: \"\"\n";
	static const struct perf_data_event ev = { "test:ev", 7 };
	struct tracing_data *td = tracing_data_new();
	struct perf_data_writer *w;
	void *blob = NULL;
	size_t len;

	ASSERT_NE(NULL, td);
	ASSERT_EQ(7, tracing_data_add_format(td, "test", fmt, strlen(fmt)));
	blob = tracing_data_build(td, &len);
	tracing_data_free(td);
	ASSERT_NE(NULL, blob);
	ASSERT_EQ(0, start_reader(self));
	w = perf_data_create(self->fifo, &ev, 1);
	ASSERT_NE(NULL, w);
	EXPECT_EQ(0, perf_data_set_tracing_data(w, blob, len));
	free(blob);
	EXPECT_EQ(-ESPIPE, perf_data_close(w));
	reader_got(self);
	EXPECT_TRUE(is_fifo(self->fifo));
	EXPECT_EQ(1, entries(self));
}

TEST_HARNESS_MAIN
