// SPDX-License-Identifier: GPL-2.0-only
/*
 * The live protocol's object table (see live/state.h): objects sorted by
 * (type, id) and found by binary search, each with its attributes in the
 * order they were first set, so that what is written for a state is
 * always the same text.
 *
 * IDs are unique across types, not only within one: DELETE ID
 * (design.rst 6.3) names no type, so live_state_set() refuses an id that an object of
 * another type holds.  CLIENT ids are gpu_client.id; ENGINE and HEAP ids
 * are FNV-1a 64 of "ENGINE <NAME>" or "HEAP <NAME>" (the type word, one
 * space, the NAME attribute), the same on every machine and in every
 * run; should that hash be taken already (odds of 2^-64 a pair), the
 * next free value is used.
 *
 * An attribute set to the empty value is removed: that is how a diff
 * says a key went away (KEY= on the wire), so a state never holds an
 * empty value.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "live/state.h"
#include "util/array.h"
#include "util/map.h"

static const char *const type_names[LIVE_NR_TYPES] = {
	[LIVE_CLIENT] = "CLIENT",
	[LIVE_ENGINE] = "ENGINE",
	[LIVE_HEAP] = "HEAP",
};

const char *live_type_name(enum live_type t)
{
	return (unsigned int)t < LIVE_NR_TYPES ? type_names[t] : "?";
}

int live_type_parse(const char *s, enum live_type *t)
{
	unsigned int i;

	for (i = 0; i < LIVE_NR_TYPES; i++) {
		if (!strcmp(s, type_names[i])) {
			*t = i;
			return 0;
		}
	}
	return -1;
}

static int cmp_key(enum live_type ta, uint64_t ia, enum live_type tb,
		   uint64_t ib)
{
	if (ta != tb)
		return ta < tb ? -1 : 1;
	if (ia != ib)
		return ia < ib ? -1 : 1;
	return 0;
}

/* The index of (t, id) if present (*found set), else where it would go. */
static unsigned int search(const struct live_state *st, enum live_type t,
			   uint64_t id, int *found)
{
	unsigned int lo = 0, hi = st->nr;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		int c = cmp_key(st->obj[mid].type, st->obj[mid].id, t, id);

		if (!c) {
			*found = 1;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = 0;
	return lo;
}

struct live_object *live_state_find(const struct live_state *st,
				    enum live_type t, uint64_t id)
{
	int found;
	unsigned int i = search(st, t, id, &found);

	return found ? &st->obj[i] : NULL;
}

struct live_object *live_state_find_id(const struct live_state *st,
				       uint64_t id)
{
	struct live_object *o;
	unsigned int t;

	for (t = 0; t < LIVE_NR_TYPES; t++) {
		o = live_state_find(st, t, id);
		if (o)
			return o;
	}
	return NULL;
}

const char *live_object_get(const struct live_object *o, const char *key)
{
	unsigned int i;

	for (i = 0; i < o->nr_attrs; i++)
		if (!strcmp(o->attrs[i].key, key))
			return o->attrs[i].value;
	return NULL;
}

/* A key is one word without '='; a value one word, maybe empty. */
static int valid_word(const char *s, size_t max, int is_key)
{
	size_t n = 0;

	for (; s[n]; n++) {
		unsigned char c = s[n];

		if (c <= ' ' || c == 0x7f || (is_key && c == '='))
			return 0;
	}
	return n < max && (!is_key || n > 0);
}

struct live_object *live_state_add(struct live_state *st, enum live_type t,
				   uint64_t id)
{
	struct live_object *o;
	int found;
	unsigned int i;

	if ((unsigned int)t >= LIVE_NR_TYPES) {
		errno = EINVAL;
		return NULL;
	}
	i = search(st, t, id, &found);
	if (found)
		return &st->obj[i];
	if (live_state_find_id(st, id)) {
		errno = EEXIST;
		return NULL;
	}
	if (ARRAY_RESERVE(st->obj, st->alloc, st->nr + 1)) {
		errno = ENOMEM;
		return NULL;
	}
	memmove(&st->obj[i + 1], &st->obj[i], (st->nr - i) * sizeof(*st->obj));
	st->nr++;
	o = &st->obj[i];
	memset(o, 0, sizeof(*o));
	o->type = t;
	o->id = id;
	return o;
}

static void remove_attr(struct live_object *o, unsigned int i)
{
	memmove(&o->attrs[i], &o->attrs[i + 1],
		(o->nr_attrs - i - 1) * sizeof(*o->attrs));
	o->nr_attrs--;
}

int live_state_set(struct live_state *st, enum live_type t, uint64_t id,
		   const char *key, const char *value)
{
	struct live_object *o;
	unsigned int i;

	if (!valid_word(key, LIVE_KEY_MAX, 1) ||
	    !valid_word(value, LIVE_VALUE_MAX, 0)) {
		errno = EINVAL;
		return -1;
	}
	o = live_state_add(st, t, id);
	if (!o)
		return -1;
	for (i = 0; i < o->nr_attrs; i++)
		if (!strcmp(o->attrs[i].key, key))
			break;
	if (!*value) {
		if (i < o->nr_attrs)
			remove_attr(o, i);
		return 0;
	}
	if (i == o->nr_attrs) {
		if (ARRAY_RESERVE(o->attrs, o->alloc_attrs, o->nr_attrs + 1)) {
			errno = ENOMEM;
			return -1;
		}
		strcpy(o->attrs[i].key, key);
		o->nr_attrs++;
	}
	strcpy(o->attrs[i].value, value);
	return 0;
}

void live_state_delete(struct live_state *st, enum live_type t, uint64_t id)
{
	int found;
	unsigned int i = search(st, t, id, &found);

	if (!found)
		return;
	free(st->obj[i].attrs);
	memmove(&st->obj[i], &st->obj[i + 1],
		(st->nr - i - 1) * sizeof(*st->obj));
	st->nr--;
}

void live_state_free(struct live_state *st)
{
	unsigned int i;

	for (i = 0; i < st->nr; i++)
		free(st->obj[i].attrs);
	free(st->obj);
	memset(st, 0, sizeof(*st));
}

int live_state_copy(struct live_state *dst, const struct live_state *src)
{
	struct live_state n = { .time_ns = src->time_ns };
	unsigned int i;

	if (src->nr) {
		n.obj = calloc(src->nr, sizeof(*n.obj));
		if (!n.obj)
			goto fail;
		n.alloc = src->nr;
	}
	for (i = 0; i < src->nr; i++) {
		const struct live_object *s = &src->obj[i];
		struct live_object *o = &n.obj[i];

		*o = *s;
		o->attrs = NULL;
		o->alloc_attrs = 0;
		n.nr = i + 1;
		if (!s->nr_attrs)
			continue;
		o->attrs = malloc(s->nr_attrs * sizeof(*o->attrs));
		if (!o->attrs) {
			o->nr_attrs = 0;
			goto fail;
		}
		memcpy(o->attrs, s->attrs, s->nr_attrs * sizeof(*o->attrs));
		o->alloc_attrs = s->nr_attrs;
	}
	live_state_free(dst);
	*dst = n;
	return 0;
fail:
	live_state_free(&n);
	live_state_free(dst);
	return -1;
}

/* Object lines: "TYPE ID", the attributes, "END TYPE". */
static int write_header(FILE *out, const struct live_object *o)
{
	return fprintf(out, "%s %" PRIx64 "\r\n", live_type_name(o->type), o->id);
}

static int write_footer(FILE *out, const struct live_object *o)
{
	return fprintf(out, "END %s\r\n", live_type_name(o->type));
}

static int write_attr(FILE *out, const char *key, const char *value)
{
	return fprintf(out, "%s=%s\r\n", key, value);
}

/* Bytes written, -1 on error; @sum collects. */
static int add(int *sum, int n)
{
	if (n < 0 || *sum < 0)
		return *sum = -1;
	return *sum += n;
}

static void write_whole(FILE *out, const struct live_object *o, int *sum)
{
	unsigned int i;

	add(sum, write_header(out, o));
	for (i = 0; i < o->nr_attrs; i++)
		add(sum, write_attr(out, o->attrs[i].key, o->attrs[i].value));
	add(sum, write_footer(out, o));
}

/*
 * What changed in @o since @was: new or changed values, then KEY= for
 * keys gone.  Nothing at all, not even the header, when nothing changed.
 */
static void write_changes(FILE *out, const struct live_object *was,
			  const struct live_object *o, int *sum)
{
	int header = 0;
	unsigned int i;

	for (i = 0; i < o->nr_attrs; i++) {
		const struct live_attr *a = &o->attrs[i];
		const char *v = live_object_get(was, a->key);

		if (v && !strcmp(v, a->value))
			continue;
		if (!header++)
			add(sum, write_header(out, o));
		add(sum, write_attr(out, a->key, a->value));
	}
	for (i = 0; i < was->nr_attrs; i++) {
		if (live_object_get(o, was->attrs[i].key))
			continue;
		if (!header++)
			add(sum, write_header(out, o));
		add(sum, write_attr(out, was->attrs[i].key, ""));
	}
	if (header)
		add(sum, write_footer(out, o));
}

int live_state_write(FILE *out, const struct live_state *old,
		     const struct live_state *now)
{
	int sum = 0;
	unsigned int i;

	for (i = 0; i < now->nr; i++) {
		const struct live_object *o = &now->obj[i];
		const struct live_object *was =
			old ? live_state_find(old, o->type, o->id) : NULL;

		if (was)
			write_changes(out, was, o, &sum);
		else
			write_whole(out, o, &sum);
	}
	/*
	 * An id gone from its type but now held by another (only after a
	 * hash collision moved one) is not deleted: the new object's block
	 * replaces it at the client.
	 */
	for (i = 0; old && i < old->nr; i++) {
		const struct live_object *o = &old->obj[i];

		if (!live_state_find_id(now, o->id))
			add(&sum, fprintf(out, "DELETE %" PRIx64 "\r\n", o->id));
	}
	return ferror(out) ? -1 : sum;
}

/* FNV-1a 64 of "TYPE NAME": an ENGINE's or HEAP's id, from its name. */
static uint64_t name_hash(enum live_type t, const char *name)
{
	uint64_t h = map_hash_str(MAP_HASH_SEED, live_type_name(t));

	return map_hash_str(map_hash_field(h, ' '), name);
}

/*
 * @len bytes of @s as one protocol word in @dst (of @size): spaces,
 * control bytes and, in a key, '=' become '_'; cut to fit.
 */
static void to_word(char *dst, size_t size, const char *s, size_t len,
		    int is_key)
{
	size_t i;

	for (i = 0; i < len && s[i] && i + 1 < size; i++) {
		unsigned char c = s[i];

		dst[i] = c <= ' ' || c == 0x7f || (is_key && c == '=') ? '_' : c;
	}
	dst[i] = '\0';
}

static int set_text(struct live_state *st, enum live_type t, uint64_t id,
		    const char *key, const char *s, size_t len)
{
	char v[LIVE_VALUE_MAX];

	to_word(v, sizeof(v), s, len, 0);
	return live_state_set(st, t, id, key, v);
}

static int set_u64(struct live_state *st, enum live_type t, uint64_t id,
		   const char *key, uint64_t n)
{
	char v[24];

	snprintf(v, sizeof(v), "%" PRIu64, n);
	return live_state_set(st, t, id, key, v);
}

/* "PREFIX.name" as a key, the name made a word and cut to fit. */
static const char *key_of(char *key, const char *prefix, const char *name)
{
	size_t n = strlen(prefix);

	/* The prefixes are short words: room is left for a name. */
	memcpy(key, prefix, n);
	key[n++] = '.';
	to_word(key + n, LIVE_KEY_MAX - n, name, strlen(name), 1);
	return key;
}

/* What a client holds in a region: resident, else total, else legacy. */
static int region_bytes(const struct drm_fdinfo_region *r, uint64_t *bytes)
{
	static const enum drm_fdinfo_mem order[] = {
		DRM_MEM_RESIDENT, DRM_MEM_TOTAL, DRM_MEM_LEGACY,
	};
	unsigned int i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (r->has[order[i]]) {
			*bytes = r->bytes[order[i]];
			return 1;
		}
	}
	return 0;
}

static int add_client(struct live_state *st, const struct gpu_client *c)
{
	const struct drm_fdinfo *fi = &c->fi;
	char key[LIVE_KEY_MAX];
	uint64_t bytes;
	unsigned int i;
	int err;

	/* An object even if every attribute is empty. */
	if (!live_state_add(st, LIVE_CLIENT, c->id))
		return -1;
	err = set_text(st, LIVE_CLIENT, c->id, "NAME", c->comm,
		       strnlen(c->comm, sizeof(c->comm)));
	err |= set_u64(st, LIVE_CLIENT, c->id, "PID", (uint32_t)c->pid);
	err |= set_text(st, LIVE_CLIENT, c->id, "DRIVER", fi->driver,
			strlen(fi->driver));
	err |= set_text(st, LIVE_CLIENT, c->id, "PDEV", fi->pdev,
			strlen(fi->pdev));
	/* Absent when unknown ("" removes a key). */
	err |= set_text(st, LIVE_CLIENT, c->id, "CGROUP", c->cgroup,
			strnlen(c->cgroup, sizeof(c->cgroup)));
	/* drm-client-name: absent when the client has none. */
	err |= set_text(st, LIVE_CLIENT, c->id, "CLIENT_NAME", fi->client_name,
			strlen(fi->client_name));
	for (i = 0; i < fi->nr_engines && !err; i++)
		if (fi->engine[i].has_busy)
			err = set_u64(st, LIVE_CLIENT, c->id,
				      key_of(key, "ENGINE", fi->engine[i].name),
				      fi->engine[i].busy_ns);
	for (i = 0; i < fi->nr_engines && c->has_util && !err; i++)
		err = set_u64(st, LIVE_CLIENT, c->id,
			      key_of(key, "UTIL", fi->engine[i].name),
			      c->util_x100[i]);
	for (i = 0; i < fi->nr_regions && !err; i++)
		if (region_bytes(&fi->region[i], &bytes))
			err = set_u64(st, LIVE_CLIENT, c->id,
				      key_of(key, "MEM", fi->region[i].name),
				      bytes);
	return err ? -1 : 0;
}

/* An ENGINE or HEAP named "<pdev>/<name>"; its id in *@id. */
static int add_named(struct live_state *st, enum live_type t,
		     const char *pdev, const char *name, uint64_t *id)
{
	char full[LIVE_VALUE_MAX];

	snprintf(full, sizeof(full), "%s/%s", pdev, name);
	to_word(full, sizeof(full), full, strlen(full), 0);
	*id = name_hash(t, full);
	while (live_state_find_id(st, *id))
		(*id)++;
	return live_state_set(st, t, *id, "NAME", full);
}

static int add_device(struct live_state *st, const struct gpu_device *d)
{
	unsigned int i;
	uint64_t id;

	for (i = 0; i < d->nr_engines; i++)
		if (add_named(st, LIVE_ENGINE, d->pdev, d->engine[i], &id) ||
		    set_u64(st, LIVE_ENGINE, id, "UTIL", d->util_x100[i]))
			return -1;
	for (i = 0; i < d->nr_regions; i++)
		if (add_named(st, LIVE_HEAP, d->pdev, d->region[i], &id) ||
		    set_u64(st, LIVE_HEAP, id, "SIZE", d->bytes[i]))
			return -1;
	return 0;
}

int live_state_from_clients(struct live_state *st, const struct gpu_clients *c)
{
	unsigned int i;

	live_state_free(st);
	st->time_ns = c->scan_ns;
	/* Clients first: their ids are given, the hashed ones step aside. */
	for (i = 0; i < c->nr_clients; i++)
		if (add_client(st, &c->clients[i]))
			return -1;
	for (i = 0; i < c->nr_devices; i++)
		if (add_device(st, &c->devices[i]))
			return -1;
	return 0;
}
