// SPDX-License-Identifier: GPL-2.0-only
/*
 * Thread names by tid (perfdata/comm-table.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "perfdata/comm-table.h"
#include "util/array.h"

/* The kernel's TASK_COMM_LEN. */
#define COMM_LEN	16

struct comm_table_entry {
	char name[COMM_LEN];
};

void comm_table_init(struct comm_table *t)
{
	t->comms = NULL;
	t->nr = t->alloc = 0;
	u64_map_init(&t->of_tid);
}

void comm_table_free(struct comm_table *t)
{
	free(t->comms);
	u64_map_free(&t->of_tid);
	comm_table_init(t);
}

const char *comm_table_get(const struct comm_table *t, int32_t tid)
{
	uint64_t idx;

	if (!u64_map_get(&t->of_tid, (uint32_t)tid, &idx))
		return NULL;
	return t->comms[idx].name;
}

int comm_table_set(struct comm_table *t, int32_t tid, const char *name,
		   size_t len)
{
	uint64_t idx;

	if (!u64_map_get(&t->of_tid, (uint32_t)tid, &idx)) {
		if (ARRAY_RESERVE(t->comms, t->alloc, t->nr + 1) ||
		    u64_map_put(&t->of_tid, (uint32_t)tid, t->nr))
			return -ENOMEM;
		idx = t->nr++;
	}
	snprintf(t->comms[idx].name, COMM_LEN, "%.*s", (int)len, name);
	return 0;
}
