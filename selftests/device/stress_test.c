// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stress: threads writing ctl and pctl commands and threads reading every
 * file, while two processes storm vgem with fences and a third churns
 * buffers; then "end" and unload.  Every answer must be one the contract
 * allows, every histogram read well-formed, and the unload clean (the VM
 * run fails on any kernel warning or leaked object).
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/gpuprof.h"
#include "../lib/kmod.h"

#define SECONDS 4

static atomic_int stop_flag;
static atomic_int bad_answers;
static atomic_long ctl_ops, read_ops;

static void bad(const char *what, int err)
{
	fprintf(stderr, "# unexpected: %s -> %d\n", what, err);
	atomic_fetch_add(&bad_answers, 1);
}

static void *ctl_writer(void *arg)
{
	static const char *const cmds[] = {
		"start\n", "startcp\n", "startmp\n", "stop\n", "reset\n",
		"end\n", "module st_a st_b\n", "module\n", "interval 1\n",
		"interval 3\n", "module st_a\n",
	};
	unsigned int seed = (uintptr_t)arg;
	char path[64];
	int err;

	while (!atomic_load(&stop_flag)) {
		const char *cmd = cmds[rand_r(&seed) % 11];

		err = ctl(cmd);
		if (err && err != -EBUSY)
			bad(cmd, err);
		snprintf(path, sizeof(path), GP "/%d/pctl", 1 + rand_r(&seed) % 8);
		err = write_file(path, rand_r(&seed) % 2 ? "reset\n" : "ctxid 2a\n");
		if (err && err != -ENOENT && err != -ENODEV)
			bad(path, err);
		atomic_fetch_add(&ctl_ops, 2);
	}
	return NULL;
}

static void *reader(void *arg)
{
	static const char *const files[] = { "name", "path", "histogram" };
	char *buf = malloc(1 << 17);
	char path[64];
	ssize_t n;
	int id, i;

	(void)arg;
	while (!atomic_load(&stop_flag)) {
		if (read_file(GP "/status", buf, 1 << 17) <= 0)
			bad("status", -1);
		if (read_file(GP "/timelines", buf, 1 << 17) < 0)
			bad("timelines", -1);
		for (id = 1; id <= 40; id++) {
			for (i = 0; i < 3; i++) {
				snprintf(path, sizeof(path), GP "/%d/%s", id, files[i]);
				n = read_file(path, buf, 1 << 17);
				if (n < 0 && n != -ENOENT && n != -ENODEV)
					bad(path, n);
				if (n >= 0 && i == 2 && !histogram_ok(buf))
					bad("histogram format", 0);
			}
		}
		atomic_fetch_add(&read_ops, 1);
	}
	free(buf);
	return NULL;
}

static pid_t spawn(const char *args)
{
	char cmd[PATH_MAX + 64];
	pid_t pid = fork();

	if (pid == 0) {
		snprintf(cmd, sizeof(cmd), "exec %s %s", gpuwork_path(), args);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	return pid;
}

TEST(ctl_and_readers_during_fence_storms)
{
	pthread_t threads[4];
	pid_t kids[3];
	time_t end;
	int i, st;

	ASSERT_EQ(0, gpuprof_load(NULL));
	ASSERT_EQ(0, ctl("startcp\n"));
	kids[0] = spawn("-n st_a fences 100000");
	kids[1] = spawn("-n st_b fences 100000");
	/* Buffers come and go with each short-lived process. */
	kids[2] = spawn("-n st_c fences 100000 0");
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&threads[i], NULL, ctl_writer,
					    (void *)(uintptr_t)(i + 1)));
	for (i = 2; i < 4; i++)
		ASSERT_EQ(0, pthread_create(&threads[i], NULL, reader, NULL));

	end = time(NULL) + SECONDS;
	while (time(NULL) < end)
		sleep_ms(100);
	atomic_store(&stop_flag, 1);
	for (i = 0; i < 4; i++)
		pthread_join(threads[i], NULL);
	for (i = 0; i < 3; i++) {
		kill(kids[i], SIGTERM);
		waitpid(kids[i], &st, 0);
	}
	TH_LOG("%ld ctl/pctl writes, %ld rounds of reads in %d s",
	       atomic_load(&ctl_ops), atomic_load(&read_ops), SECONDS);
	EXPECT_EQ(0, atomic_load(&bad_answers));
	EXPECT_EQ(0, ctl("end\n"));
	EXPECT_EQ(0, status_num("targets"));
	EXPECT_EQ(0, gpuprof_unload());
}

TEST_HARNESS_MAIN
