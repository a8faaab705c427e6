// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM client names from fdinfo snapshots (report/names.h).  A recording
 * holds a few clients: the lists are searched from their start.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/names.h"
#include "util/array.h"

void report_names_init(struct report_names *n)
{
	memset(n, 0, sizeof(*n));
}

static bool same_client(const struct report_drm_client *c, const char *pdev,
			uint64_t client_id)
{
	return c->client_id == client_id &&
	       !strncmp(c->pdev, pdev, sizeof(c->pdev) - 1);
}

/* The entry of (@pid, @pdev, @client_id), added if new; NULL: memory. */
static struct report_drm_client *entry(struct report_names *n, int32_t pid,
				       const char *pdev, uint64_t client_id)
{
	struct report_drm_client *c;
	uint32_t i;

	for (i = 0; i < n->nr; i++) {
		c = &n->v[i];
		if (c->pid == pid && same_client(c, pdev, client_id))
			return c;
	}
	if (ARRAY_RESERVE(n->v, n->alloc, n->nr + 1))
		return NULL;
	c = &n->v[n->nr++];
	memset(c, 0, sizeof(*c));
	snprintf(c->pdev, sizeof(c->pdev), "%s", pdev);
	c->client_id = client_id;
	c->pid = pid;
	return c;
}

int report_names_add(struct report_names *n, const struct gpu_event *ev)
{
	char name[DRM_FDINFO_CLIENT_NAME + 1];
	const char *pdev = ev->fdinfo.pdev ? ev->fdinfo.pdev : "";
	uint64_t id = ev->fdinfo.client_id;
	struct report_drm_client *c;
	uint32_t i;

	if (ev->kind != GPU_EV_FDINFO)
		return 0;
	c = entry(n, ev->pid, pdev, id);
	if (!c)
		return -1;
	if (!drm_fdinfo_stats_client_name(ev->fdinfo.stats, name))
		return 0;
	if (!id) {
		memcpy(c->name, name, sizeof(name));
		return 0;
	}
	/* The drm_file's name, whoever holds it. */
	for (i = 0; i < n->nr; i++)
		if (same_client(&n->v[i], pdev, id))
			memcpy(n->v[i].name, name, sizeof(name));
	return 0;
}

const struct report_drm_client *
report_names_client(const struct report_names *n, const char *pdev,
		    uint64_t client_id)
{
	uint32_t i;

	if (!client_id)
		return NULL;
	for (i = 0; i < n->nr; i++)
		if (same_client(&n->v[i], pdev, client_id))
			return &n->v[i];
	return NULL;
}

/* Whether an entry of @pid before @end has the name @name. */
static bool named_before(const struct report_names *n, int32_t pid,
			 const char *name, uint32_t end)
{
	uint32_t i;

	for (i = 0; i < end; i++)
		if (n->v[i].pid == pid && !strcmp(n->v[i].name, name))
			return true;
	return false;
}

const char *report_names_next(const struct report_names *n, int32_t pid,
			      uint32_t *pos)
{
	const struct report_drm_client *c;

	for (; *pos < n->nr; (*pos)++) {
		c = &n->v[*pos];
		if (c->pid != pid || !c->name[0] ||
		    named_before(n, pid, c->name, *pos))
			continue;
		return n->v[(*pos)++].name;
	}
	return NULL;
}

void report_names_free(struct report_names *n)
{
	free(n->v);
	memset(n, 0, sizeof(*n));
}
