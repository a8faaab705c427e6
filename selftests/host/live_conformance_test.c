// SPDX-License-Identifier: GPL-2.0-only
/*
 * Live protocol conformance (design.rst 6.3) from outside the server:
 * host/live_conformance.py, one case per test, against live_serve (the
 * server of perf gpu top --listen serving a known state, a process of
 * its own built with ASan and UBSan).  The script checks the grammar of
 * every reply line, ERROR then close on bad input, that the server
 * answers a new client after each abuse, exits cleanly, and stays
 * bounded in memory under a client that never reads.
 */
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/paths.h"
#include "../lib/run.h"
#include "../lib/setup_provides.h"

FIXTURE(conf) {
	char script[PATH_MAX], server[PATH_MAX];
	char out[65536];
};

FIXTURE_SETUP(conf)
{
	beside_exe(self->script, sizeof(self->script), NULL,
		   "../../host/live_conformance.py");
	beside_exe(self->server, sizeof(self->server), NULL, "live_serve");
	ASSERT_EQ(0, access(self->server, X_OK)) TH_LOG("no %s", self->server);
	SETUP_PROVIDES(!run_cmd(self->out, sizeof(self->out), "python3 --version"),
		       "python3 (package python3)");
}

FIXTURE_TEARDOWN(conf) {}

static int run_case(struct __test_metadata *_metadata, FIXTURE_DATA(conf) *self,
		    const char *name)
{
	char ok[64];
	int st = run_cmd(self->out, sizeof(self->out),
			 "python3 '%s' --server '%s' %s", self->script,
			 self->server, name);

	snprintf(ok, sizeof(ok), "ok %s\n", name);
	if (st || !strstr(self->out, ok))
		TH_LOG("%s", self->out);
	return st || !strstr(self->out, ok) ? -1 : 0;
}

#define CONFORMANCE(name, seconds)				\
	TEST_F_TIMEOUT(conf, name, seconds)			\
	{							\
		EXPECT_EQ(0, run_case(_metadata, self, #name));	\
	}

CONFORMANCE(hello, 60)
CONFORMANCE(update, 60)
CONFORMANCE(goodbye, 60)
CONFORMANCE(spacing, 60)
CONFORMANCE(half_lines, 60)
CONFORMANCE(long_lines, 60)
CONFORMANCE(junk, 120)
CONFORMANCE(no_reader, 120)
CONFORMANCE(connections, 60)

TEST_HARNESS_MAIN
