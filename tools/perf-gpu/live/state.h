/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The objects of the live protocol (design.rst 6.3) and the state they
 * make: what perf gpu top serves with --listen, shows from --connect,
 * and draws locally, so that all three go through one representation.
 *
 * An object is a TYPE, a 64-bit ID and KEY=VALUE attributes, values as
 * text.  Types and their keys:
 *   CLIENT  NAME (comm), PID, DRIVER, PDEV, CGROUP (the process's cgroup
 *           v2 path, absent when unknown), CLIENT_NAME (the client's
 *           drm-client-name, absent when it has none), ENGINE.<e> (busy
 *           ns, when the driver gives ns), UTIL.<e> (utilisation since the previous
 *           sample, hundredths of a percent), MEM.<region> (bytes)
 *   ENGINE  NAME (<pdev>/<e>), UTIL (summed over clients, x100)
 *   HEAP    NAME (<pdev>/<region>), SIZE (bytes held by all clients)
 * Keys and values have no spaces or '=' in keys; a value is one word
 * (spaces in a comm or a cgroup path are sent as '_').  The state is sorted by (type, id).
 */
#ifndef PERF_GPU_LIVE_STATE_H
#define PERF_GPU_LIVE_STATE_H

#include <stdint.h>
#include <stdio.h>

#include "drm/clients.h"

enum live_type { LIVE_CLIENT, LIVE_ENGINE, LIVE_HEAP, LIVE_NR_TYPES };

#define LIVE_KEY_MAX	64
#define LIVE_VALUE_MAX	256

struct live_attr {
	char key[LIVE_KEY_MAX];
	char value[LIVE_VALUE_MAX];
};

struct live_object {
	enum live_type type;
	uint64_t id;
	struct live_attr *attrs;
	unsigned int nr_attrs;
	size_t alloc_attrs;
};

struct live_state {
	struct live_object *obj;	/* sorted by (type, id) */
	unsigned int nr;
	size_t alloc;
	uint64_t time_ns;		/* CLOCK_MONOTONIC of the sample */
};

/* "CLIENT", "ENGINE", "HEAP"; and back: 0, or -1 for another word. */
const char *live_type_name(enum live_type t);
int live_type_parse(const char *s, enum live_type *t);

/* Rebuild @st from a scan.  0, or -1 out of memory. */
int live_state_from_clients(struct live_state *st, const struct gpu_clients *c);

/* Find, add or update; 0 or -1 out of memory. */
struct live_object *live_state_find(const struct live_state *st,
				    enum live_type t, uint64_t id);
/* The object of any type with @id, or NULL: ids are unique across types. */
struct live_object *live_state_find_id(const struct live_state *st,
				       uint64_t id);
int live_state_set(struct live_state *st, enum live_type t, uint64_t id,
		   const char *key, const char *value);
/*
 * The object (t, id), added without attributes if absent; NULL out of
 * memory, or errno EEXIST when another type holds @id (ids are unique
 * across types: DELETE ID names no type).  live_state_set() adds the
 * same way, and removes @key when @value is "" (a diff's KEY=); EINVAL
 * for a key or value that is not one word (see live/state.c).
 */
struct live_object *live_state_add(struct live_state *st, enum live_type t,
				   uint64_t id);
void live_state_delete(struct live_state *st, enum live_type t, uint64_t id);
/* The value of @key in @o, or NULL. */
const char *live_object_get(const struct live_object *o, const char *key);

/* @dst's old contents are freed; on failure (-1) it is left empty. */
int live_state_copy(struct live_state *dst, const struct live_state *src);
void live_state_free(struct live_state *st);

/*
 * The protocol's object lines, each ending in \r\n: the whole of @now
 * (@old NULL: what HELLO sends), or what changed from @old to @now (the
 * changed attributes of changed or new objects, KEY= for a key gone from
 * an object, then DELETE ID for the gone ones: what UPDATE sends).
 * Returns bytes written or -1.
 */
int live_state_write(FILE *out, const struct live_state *old,
		     const struct live_state *now);

#endif
