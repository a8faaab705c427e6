// SPDX-License-Identifier: GPL-2.0-only
/*
 * OA metric set counters from report deltas (see oa/metrics.h).
 *
 * An equation compiles to tokens once: numbers and device variables to
 * constants, An/Bn/Cn (and xe's PECn, MPECn, kept as An) and
 * GPU_TIME/GPU_CLOCK to reads of the deltas, $Name
 * of an earlier counter to its index, operators to codes.  Evaluation
 * is a walk over the tokens with a fixed stack of values that keep their
 * C type (u64 or double), each operator applying C's usual conversions
 * as IGT's generated expressions do (metric-sets.h, EQUATIONS).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <i915_drm.h>

#include "oa/metrics.h"
#include "perfdata/gpu-trace.h"

enum {
	OA_TOK_NUM,		/* num */
	OA_TOK_A,		/* the delta of A<idx> */
	OA_TOK_B,
	OA_TOK_C,
	OA_TOK_TIME,
	OA_TOK_CLOCK,
	OA_TOK_COUNTER,		/* the value of set counter idx */
	OA_TOK_OP,		/* op */
};

enum {
	OP_UADD, OP_USUB, OP_UMUL, OP_UDIV, OP_UMIN,
	OP_FADD, OP_FSUB, OP_FMUL, OP_FDIV, OP_FMAX,
	OP_AND, OP_SHL, OP_SHR, OP_UGT, OP_UGTE, OP_ULT, OP_ULTE, OP_LAND,
};

static const char *const op_names[] = {
	[OP_UADD] = "UADD", [OP_USUB] = "USUB", [OP_UMUL] = "UMUL",
	[OP_UDIV] = "UDIV", [OP_UMIN] = "UMIN", [OP_FADD] = "FADD",
	[OP_FSUB] = "FSUB", [OP_FMUL] = "FMUL", [OP_FDIV] = "FDIV",
	[OP_FMAX] = "FMAX", [OP_AND] = "AND", [OP_SHL] = "<<",
	[OP_SHR] = ">>", [OP_UGT] = "UGT", [OP_UGTE] = "UGTE",
	[OP_ULT] = "ULT", [OP_ULTE] = "ULTE", [OP_LAND] = "&&",
};

/*
 * (uint64_t)d as gcc compiles it for x86-64, where IGT's reader runs:
 * below 2^63 cvttsd2si, from 2^63 on cvttsd2si of d - 2^63 with the
 * top bit flipped; cvttsd2si gives 2^63 for what it cannot convert (NaN
 * and out of range).  C leaves those cases undefined.
 */
uint64_t oa_metrics_d2u(double d)
{
	const uint64_t bad = 1ull << 63;
	double e;

	if (d >= 0x1p63) {
		e = d - 0x1p63;
		return (e < 0x1p63 ? (uint64_t)(int64_t)e : bad) ^ bad;
	}
	if (d >= -0x1p63)
		return (uint64_t)(int64_t)d;
	return bad;
}

static uint64_t to_u(const struct oa_metric_value *v)
{
	return v->is_double ? oa_metrics_d2u(v->d) : v->u;
}

static double to_d(const struct oa_metric_value *v)
{
	return v->is_double ? v->d : (double)v->u;
}

static struct oa_metric_value val_u(uint64_t u)
{
	return (struct oa_metric_value){ .u = u };
}

static struct oa_metric_value val_d(double d)
{
	return (struct oa_metric_value){ .is_double = true, .d = d };
}

/* UADD USUB UMUL FADD FSUB FMUL: u64 when both are, else double. */
static struct oa_metric_value arith(int op, const struct oa_metric_value *x,
				    const struct oa_metric_value *y)
{
	bool dbl = x->is_double || y->is_double;
	uint64_t u = 0;
	double d = 0;

	switch (op) {
	case OP_UADD:
	case OP_FADD:
		u = x->u + y->u;
		d = to_d(x) + to_d(y);
		break;
	case OP_USUB:
	case OP_FSUB:
		u = x->u - y->u;
		d = to_d(x) - to_d(y);
		break;
	default:
		u = x->u * y->u;
		d = to_d(x) * to_d(y);
		break;
	}
	if (op == OP_UADD || op == OP_USUB || op == OP_UMUL)
		return val_u(dbl ? oa_metrics_d2u(d) : u);
	return val_d(dbl ? d : (double)u);
}

/* Comparisons: as doubles if either is one. */
static bool compare(int op, const struct oa_metric_value *x,
		    const struct oa_metric_value *y)
{
	bool dbl = x->is_double || y->is_double;
	double dx = to_d(x), dy = to_d(y);

	switch (op) {
	case OP_UGT:
		return dbl ? dx > dy : x->u > y->u;
	case OP_UGTE:
		return dbl ? dx >= dy : x->u >= y->u;
	case OP_ULT:
		return dbl ? dx < dy : x->u < y->u;
	default:
		return dbl ? dx <= dy : x->u <= y->u;
	}
}

/* "x y OP": @x was pushed first. */
static struct oa_metric_value apply(int op, const struct oa_metric_value *x,
				    const struct oa_metric_value *y)
{
	uint64_t ux = to_u(x), uy = to_u(y);
	double dx = to_d(x), dy = to_d(y);

	switch (op) {
	case OP_UDIV:
		return val_u(uy ? ux / uy : 0);
	case OP_UMIN:
		if (x->is_double || y->is_double)
			return val_u(oa_metrics_d2u(dx < dy ? dx : dy));
		return val_u(ux < uy ? ux : uy);
	case OP_FDIV:
		return val_d(dy != 0 ? dx / dy : 0);
	case OP_FMAX:
		return val_d(dx > dy ? dx : dy);
	case OP_AND:
		return val_u(ux & uy);
	case OP_SHL:
		return val_u(uy < 64 ? ux << uy : 0);
	case OP_SHR:
		return val_u(uy < 64 ? ux >> uy : 0);
	case OP_UGT:
	case OP_UGTE:
	case OP_ULT:
	case OP_ULTE:
		return val_u(compare(op, x, y));
	case OP_LAND:
		return val_u((x->is_double ? dx != 0 : ux != 0) &&
			     (y->is_double ? dy != 0 : uy != 0));
	default:
		return arith(op, x, y);
	}
}

static bool bit(const uint8_t *b, size_t len, size_t byte, unsigned int n)
{
	return byte < len && ((b[byte] >> n) & 1);
}

void oa_metrics_device_vars(const struct oa_metrics_device *dev,
			    struct oa_metrics_vars *v)
{
	const struct gpuprof_oa_platform *p;
	struct drm_i915_query_topology_info t;
	const uint8_t *data;
	unsigned int s, ss, eu, w, half;
	size_t len, n;

	memset(v, 0, sizeof(*v));
	v->timestamp_frequency = dev->timestamp_frequency;
	v->gt_min_hz = dev->gt_min_hz;
	v->gt_max_hz = dev->gt_max_hz;
	v->revision = dev->revision;
	p = gpuprof_oa_platform_of_device(dev->device_id);
	v->eu_threads = 7;
	if (p && p->metrics && (!strcmp(p->metrics, "bxt") ||
				!strcmp(p->metrics, "glk")))
		v->eu_threads = 6;
	if (p && p->metrics && !strncmp(p->metrics, "acm", 3))
		v->eu_threads = 8;
	if (!dev->topology || dev->topology_len < sizeof(t))
		return;
	memcpy(&t, dev->topology, sizeof(t));
	/* Far past any GPU's (and IGT's, which asserts): a bad record. */
	if (t.max_slices > 64 || t.max_subslices > 64 ||
	    t.max_eus_per_subslice > 256)
		return;
	data = (const uint8_t *)dev->topology + sizeof(t);
	len = dev->topology_len - sizeof(t);
	w = p && p->ip >= 1100 ? 8 : 3;
	for (s = 0; s < t.max_slices; s++) {
		if (!bit(data, len, s / 8, s % 8))
			continue;
		v->slice_mask |= 1ull << s;
		for (ss = 0; ss < t.max_subslices; ss++) {
			if (!bit(data, len, t.subslice_offset +
				 (size_t)s * t.subslice_stride + ss / 8, ss % 8))
				continue;
			if (s * w + ss < 64)
				v->subslice_mask |= 1ull << (s * w + ss);
			for (eu = 0; eu < t.max_eus_per_subslice; eu++)
				v->n_eus += bit(data, len, t.eu_offset +
						((size_t)s * t.max_subslices + ss) *
						t.eu_stride + eu / 8, eu % 8);
		}
	}
	v->n_slices = __builtin_popcountll(v->slice_mask);
	v->n_subslices = __builtin_popcountll(v->subslice_mask);
	half = t.max_subslices / 2;
	v->n_subslices_half = __builtin_popcountll(v->subslice_mask &
			(half < 64 ? (1ull << half) - 1 : ~0ull));
	/* IGT keeps max_slices * subslice_stride bytes of subslice masks. */
	n = (size_t)t.max_slices * t.subslice_stride;
	v->ss0_len = n < sizeof(v->ss0) ? n : sizeof(v->ss0);
	for (s = 0; s < v->ss0_len; s++)
		v->ss0[s] = t.subslice_offset + s < len ?
			    data[t.subslice_offset + s] : 0;
}

/* A device variable's value; false if @name is none. */
static bool device_var(const struct oa_metrics_vars *v, const char *name,
		       uint64_t *out)
{
	static const struct { const char *name; size_t off; } vars[] = {
#define V(n, f) { n, offsetof(struct oa_metrics_vars, f) }
		V("EuCoresTotalCount", n_eus), V("VectorEngineTotalCount", n_eus),
		V("EuSlicesTotalCount", n_slices), V("SliceTotalCount", n_slices),
		V("EuSubslicesTotalCount", n_subslices),
		V("EuDualSubslicesTotalCount", n_subslices),
		V("XeCoreTotalCount", n_subslices),
		V("VectorEnginePerXeCoreCount", n_subslices),
		V("EuDualSubslicesSlice0123Count", n_subslices_half),
		V("EuThreadsCount", eu_threads),
		V("VectorEngineThreadsCount", eu_threads),
		V("SliceMask", slice_mask), V("GtSliceMask", slice_mask),
		V("XeCoreMask", slice_mask), V("GtXeCoreMask", slice_mask),
		V("SubsliceMask", subslice_mask),
		V("DualSubsliceMask", subslice_mask),
		V("GtSubsliceMask", subslice_mask),
		V("GtDualSubsliceMask", subslice_mask),
		/* IGT's xe library counts EUs for both. */
		V("ComputeEngineTotalCount", n_eus),
		V("CopyEngineTotalCount", n_eus),
		V("GpuTimestampFrequency", timestamp_frequency),
		V("GpuMinFrequency", gt_min_hz), V("GpuMaxFrequency", gt_max_hz),
		V("SkuRevisionId", revision),
#undef V
	};
	/*
	 * 0: QueryMode, as OA streams are not query-mode snapshots; the
	 * others because IGT's xe library has fields for them but fills
	 * none, on any platform, and no recording carries them.
	 */
	static const char *const zero[] = {
		"QueryMode", "SqidiTotalCount", "L3BankTotalCount",
		"L3NodeTotalCount", "GeometryPipeTotalCount",
		"DepthPipeTotalCount", "ColorPipeTotalCount",
	};
	unsigned int i, s, t;
	int end = 0;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (!strcmp(name, vars[i].name)) {
			memcpy(out, (const char *)v + vars[i].off, sizeof(*out));
			return true;
		}
	for (i = 0; i < sizeof(zero) / sizeof(zero[0]); i++)
		if (!strcmp(name, zero[i])) {
			*out = 0;
			return true;
		}
	/* IGT 1.27.1 never fills the slice mask these two read. */
	if ((sscanf(name, "GtSlice%u%n", &s, &end) == 1 && !name[end])) {
		*out = 0;
		return true;
	}
	if ((sscanf(name, "GtSlice%uDualSubslice%u%n", &s, &t, &end) == 2 ||
	     sscanf(name, "GtSlice%uXeCore%u%n", &s, &t, &end) == 2) && !name[end]) {
		*out = t / 8 < v->ss0_len && ((v->ss0[t / 8] >> (t % 8)) & 1);
		return true;
	}
	/*
	 * IGT's xe library reads this as subslice 0 of slice t, through the
	 * same stride it never sets: subslice 0 of slice 0, for every t.
	 */
	if (sscanf(name, "GtXeCore%u%n", &t, &end) == 1 && !name[end]) {
		*out = v->ss0_len && (v->ss0[0] & 1);
		return true;
	}
	return false;
}

/* "A12" and the like: the number after @prefix, or -1. */
static long indexed(const char *tok, const char *prefix, long max)
{
	size_t n = strlen(prefix);
	char *end;
	long i;

	if (strncmp(tok, prefix, n) || tok[n] < '0' || tok[n] > '9')
		return -1;
	i = strtol(tok + n, &end, 10);
	return *end || i >= max ? -1 : i;
}

/* One token (NUL-terminated) of counter @k's equation into @t. */
static int compile_tok(const struct oa_metrics *m, unsigned int k,
		       const char *tok, struct oa_metrics_tok *t)
{
	unsigned int i;
	char *end;
	long n;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < sizeof(op_names) / sizeof(op_names[0]); i++)
		if (!strcmp(tok, op_names[i])) {
			t->kind = OA_TOK_OP;
			t->op = i;
			return 0;
		}
	if (!strcmp(tok, "GPU_TIME") || !strcmp(tok, "GPU_CLOCK")) {
		t->kind = tok[4] == 'T' ? OA_TOK_TIME : OA_TOK_CLOCK;
		return 0;
	}
	if ((n = indexed(tok, "A", GPUPROF_OA_A_COUNTERS)) >= 0 ||
	    (n = indexed(tok, "B", GPUPROF_OA_B_COUNTERS)) >= 0 ||
	    (n = indexed(tok, "C", GPUPROF_OA_C_COUNTERS)) >= 0) {
		t->kind = tok[0] == 'A' ? OA_TOK_A : tok[0] == 'B' ? OA_TOK_B : OA_TOK_C;
		t->idx = n;
		return 0;
	}
	/* The decoder keeps Xe2's PEC and the media unit's MPEC as A. */
	if ((n = indexed(tok, "PEC", GPUPROF_OA_A_COUNTERS)) >= 0 ||
	    (n = indexed(tok, "MPEC", GPUPROF_OA_A_COUNTERS)) >= 0) {
		t->kind = OA_TOK_A;
		t->idx = n;
		return 0;
	}
	if (indexed(tok, "PERFCNT", 1000) >= 0)
		return 0;	/* OA_TOK_NUM 0 */
	if (tok[0] >= '0' && tok[0] <= '9') {
		t->num = strtoull(tok, &end, 0);
		return *end ? -1 : 0;
	}
	if (tok[0] != '$')
		return -1;
	if (device_var(&m->vars, tok + 1, &t->num))
		return 0;
	for (i = 0; i < k; i++)
		if (!strcmp(oa_metric_str(oa_metric_set_counter(m->set, i)->symbol),
			    tok + 1)) {
			t->kind = OA_TOK_COUNTER;
			t->idx = i;
			return 0;
		}
	return -1;
}

/* @rpn into m->tok from @*at; the count in @*n. */
static int compile(struct oa_metrics *m, unsigned int k, const char *rpn,
		   unsigned int *at, uint16_t *n)
{
	char tok[64];
	size_t len;
	int depth = 0;

	*n = 0;
	while (*rpn) {
		len = strcspn(rpn, " ");
		if (len && (len >= sizeof(tok) || *at >= OA_METRICS_MAX_TOKENS))
			return -1;
		if (len) {
			memcpy(tok, rpn, len);
			tok[len] = '\0';
			if (compile_tok(m, k, tok, &m->tok[*at]))
				return -1;
			depth += m->tok[*at].kind == OA_TOK_OP ? -1 : 1;
			if (depth < 1 || depth > OA_METRICS_STACK)
				return -1;
			(*at)++;
			(*n)++;
		}
		rpn += len + (rpn[len] == ' ');
	}
	return depth == 1 ? 0 : -1;
}

static struct oa_metric_value eval(const struct oa_metrics *m,
				   const struct oa_metrics_tok *t,
				   unsigned int n, const struct gpuprof_oa_deltas *d)
{
	struct oa_metric_value st[OA_METRICS_STACK];
	unsigned int i, sp = 0;

	for (i = 0; i < n; i++, t++) {
		switch (t->kind) {
		case OA_TOK_NUM:
			st[sp++] = val_u(t->num);
			break;
		case OA_TOK_A:
			st[sp++] = val_u(d->a[t->idx]);
			break;
		case OA_TOK_B:
			st[sp++] = val_u(d->b[t->idx]);
			break;
		case OA_TOK_C:
			st[sp++] = val_u(d->c[t->idx]);
			break;
		case OA_TOK_TIME:
			st[sp++] = val_u(d->timestamp);
			break;
		case OA_TOK_CLOCK:
			st[sp++] = val_u(d->gpu_ticks);
			break;
		case OA_TOK_COUNTER:
			st[sp++] = m->value[t->idx];
			break;
		default:
			sp--;
			st[sp - 1] = apply(t->op, &st[sp - 1], &st[sp]);
			break;
		}
	}
	return st[0];
}

/* The counter's final value in its own type. */
static struct oa_metric_value as_type(const struct oa_metric_counter *c,
				      struct oa_metric_value v)
{
	if (c->type == OA_METRIC_FLOAT || c->type == OA_METRIC_DOUBLE)
		return val_d(to_d(&v));
	return val_u(to_u(&v));
}

int oa_metrics_init(struct oa_metrics *m, const struct oa_metric_set *set,
		    const struct oa_metrics_device *dev)
{
	static const struct gpuprof_oa_deltas zero;
	const struct oa_metric_counter *c;
	unsigned int k, at = 0, cond_at;
	struct oa_metric_value v;
	uint16_t n;

	memset(m, 0, sizeof(*m));
	m->set = set;
	oa_metrics_device_vars(dev, &m->vars);
	if (set->n_counters > OA_METRICS_MAX_COUNTERS)
		return -1;
	for (k = 0; k < set->n_counters; k++) {
		c = oa_metric_set_counter(set, k);
		m->first[k] = at;
		if (compile(m, k, oa_metric_str(c->equation), &at, &m->ntok[k]))
			return -1;
		if (oa_metric_str(c->avail)[0]) {
			/* Compiled after the equations, then dropped. */
			cond_at = at;
			if (compile(m, k, oa_metric_str(c->avail), &cond_at, &n))
				return -1;
			v = eval(m, &m->tok[at], n, &zero);
			if (!to_u(&v))
				continue;
		}
		m->avail[m->n++] = k;
	}
	return 0;
}

void oa_metrics_compute(struct oa_metrics *m, const struct gpuprof_oa_deltas *d)
{
	unsigned int k;

	for (k = 0; k < m->set->n_counters; k++)
		m->value[k] = as_type(oa_metric_set_counter(m->set, k),
				      eval(m, &m->tok[m->first[k]], m->ntok[k], d));
}

const struct oa_metric_counter *oa_metrics_counter(const struct oa_metrics *m,
						   unsigned int i)
{
	return oa_metric_set_counter(m->set, m->avail[i]);
}

const struct oa_metric_value *oa_metrics_value(const struct oa_metrics *m,
					       unsigned int i)
{
	return &m->value[m->avail[i]];
}

int oa_metrics_format(const struct oa_metrics *m, unsigned int i, char *buf,
		      size_t size)
{
	const struct oa_metric_value *v = oa_metrics_value(m, i);

	if (v->is_double)
		return snprintf(buf, size, "%f", v->d);
	return snprintf(buf, size, "%" PRIu64, v->u);
}

const struct oa_metric_set *oa_metrics_set_of(uint32_t device_id,
					      const char *name,
					      const char *uuid)
{
	const struct gpuprof_oa_platform *dev;
	const struct oa_metric_platform *p;
	const struct oa_metric_set *s = NULL;

	dev = gpuprof_oa_platform_of_device(device_id);
	p = dev ? oa_metric_platform_find(dev->metrics) : NULL;
	if (!p || !p->has_counters)
		return NULL;
	if (uuid && uuid[0])
		s = oa_metric_set_by_uuid(p, uuid);
	if (!s && name && name[0])
		s = oa_metric_set_find(p, name);
	return s && s->n_counters ? s : NULL;
}

void oa_metrics_device_of_event(struct oa_metrics_device *dev,
				const struct gpu_event *ev)
{
	*dev = (struct oa_metrics_device) {
		.device_id = ev->oa_device.device_id,
		.revision = ev->oa_device.revision,
		.timestamp_frequency = ev->oa_device.timestamp_frequency,
		.gt_min_hz = ev->oa_device.gt_min_hz,
		.gt_max_hz = ev->oa_device.gt_max_hz,
		.topology = ev->oa_device.topology,
		.topology_len = ev->oa_device.topology_size,
	};
}

int oa_metrics_init_event(struct oa_metrics *m, const struct gpu_event *ev)
{
	struct oa_metrics_device dev;
	const struct oa_metric_set *s;

	oa_metrics_device_of_event(&dev, ev);

	s = oa_metrics_set_of(dev.device_id, ev->oa_device.metric_set,
			      ev->oa_device.metric_uuid);
	if (!s)
		return -1;
	return oa_metrics_init(m, s, &dev);
}

/* The available counter named @name (@len bytes), or -1. */
static int counter_named(const struct oa_metrics *m, const char *name,
			 size_t len)
{
	const char *sym;
	unsigned int i;

	for (i = 0; i < m->n; i++) {
		sym = oa_metric_str(oa_metrics_counter(m, i)->symbol);
		if (strlen(sym) == len && !strncasecmp(sym, name, len))
			return i;
	}
	return -1;
}

static void list_counters(const struct oa_metrics *m, char *err, size_t size,
			  size_t at)
{
	unsigned int i;
	int k;

	for (i = 0; i < m->n && at < size; i++) {
		k = snprintf(err + at, size - at, "%s%s", i ? ", " : "",
			     oa_metric_str(oa_metrics_counter(m, i)->symbol));
		if (k < 0)
			return;
		at += k;
	}
}

int oa_metrics_select(const struct oa_metrics *m, const char *list,
		      unsigned int *idx, unsigned int max, char *err,
		      size_t err_size)
{
	const char *p = list, *end;
	unsigned int n = 0;
	size_t len;
	int k;

	if (!strcasecmp(list, "all")) {
		/* The set's first @max would pass for all of it. */
		if (m->n > max) {
			snprintf(err, err_size,
				 "metric set %s has %u counters, more than the %u that fit: name them",
				 oa_metric_str(m->set->symbol), m->n, max);
			return -1;
		}
		for (n = 0; n < m->n; n++)
			idx[n] = n;
		return n;
	}
	while (*p) {
		end = strchr(p, ',');
		len = end ? (size_t)(end - p) : strlen(p);
		k = counter_named(m, p, len);
		if (n == max) {
			snprintf(err, err_size, "more than %u metrics named", max);
			return -1;
		}
		if (k < 0) {
			k = snprintf(err, err_size,
				     "metric set %s has no counter '%.*s'; it has: ",
				     oa_metric_str(m->set->symbol), (int)len, p);
			if (k > 0 && (size_t)k < err_size)
				list_counters(m, err, err_size, k);
			return -1;
		}
		idx[n++] = k;
		p += len;
		if (*p)
			p++;
	}
	if (!n) {
		snprintf(err, err_size, "no metric named in '%s'", list);
		return -1;
	}
	return n;
}
