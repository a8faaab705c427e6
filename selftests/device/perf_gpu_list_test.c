// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu list in the test VM: the kernel's dma_fence tracepoints (with
 * their fields, parsed by libtraceevent from the kernel's own formats)
 * and the vgem device.
 */
#include <string.h>

#include "../lib/harness.h"
#include "../lib/run.h"

FIXTURE(list) {
	char out[65536];
};

FIXTURE_SETUP(list) {}
FIXTURE_TEARDOWN(list) {}

TEST_F(list, shows_dma_fence_tracepoints)
{
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s list",
			     perf_gpu_path())) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "  dma_fence:dma_fence_init "));
	EXPECT_NE(NULL, strstr(self->out, "  dma_fence:dma_fence_signaled "));
}

TEST_F(list, verbose_shows_fields_from_the_kernel_format)
{
	char *init, *next;

	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s list -v",
			     perf_gpu_path())) TH_LOG("%s", self->out);
	init = strstr(self->out, "  dma_fence:dma_fence_init ");
	ASSERT_NE(NULL, init);
	next = strstr(init + 1, "  dma_fence:");
	ASSERT_NE(NULL, next);
	*next = '\0';
	/* TP_STRUCT__entry of dma_fence: driver, timeline, context, seqno. */
	EXPECT_NE(NULL, strstr(init, "\n    driver\n")) TH_LOG("%s", init);
	EXPECT_NE(NULL, strstr(init, "\n    timeline\n"));
	EXPECT_NE(NULL, strstr(init, "\n    context\n"));
	EXPECT_NE(NULL, strstr(init, "\n    seqno\n"));
}

TEST_F(list, shows_the_vgem_device)
{
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s list",
			     perf_gpu_path()));
	EXPECT_NE(NULL, strstr(self->out, "/dev/dri/card0")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, " vgem\n"));
	/* Its pdev, the platform device vgem registers, as fdinfo names it. */
	EXPECT_NE(NULL, strstr(self->out, "/dev/dri/card0       vgem           vgem\n"))
		TH_LOG("%s", self->out);
}

TEST_HARNESS_MAIN
