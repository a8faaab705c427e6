// SPDX-License-Identifier: GPL-2.0-only
/*
 * metric-sets-dump: print the register programming of every OA metric
 * set the installed IGT 1.27.1 library (libi915_perf.so.1.5) builds for
 * a device, for metric-sets-gen.py --regs-from.  Not part of perf-gpu:
 * built and run by hand when the table is regenerated (the generator's
 * docstring says how), for the platforms whose XML the IGT mirror lacks.
 *
 *	metric-sets-dump [-r REVISION] [-t SLICES:SUBSLICES:EUS]
 *			 STEM:DEVICE_ID...
 *
 * For each STEM:DEVICE_ID ("acmgt1:0x5693") it asks the library for the
 * device's sets with intel_perf_for_devinfo(), the device having PCI
 * revision REVISION (default 0) and a topology of SLICES slices of
 * SUBSLICES subslices of EUS EUs, all present (default 1:3:8, what
 * selftests/host/metric_sets_test.c gives it).  It prints, per set in
 * the library's order:
 *
 *	set STEM SYMBOL UUID
 *	mux ADDR VALUE		one line per register, in the library's
 *	boolean ADDR VALUE	order: its mux, boolean-counter and flex
 *	flex ADDR VALUE		lists, as i915's ADD_CONFIG takes them
 *
 * ADDR and VALUE as 0x and 8 hex digits.  Lines starting with '#' are
 * comments; the first says what was asked.
 *
 * The library is reached through dlopen(); only the members read here
 * are declared, at the places IGT 1.27.1's lib/i915/perf.h puts them on
 * x86-64 (the layout selftests/host/metric_sets_test.c declares too).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <i915_drm.h>

#include "igt-perf-abi.h"

/* The topology: @slices of @subslices of @eus, every one present. */
struct dump_topology {
	unsigned int slices, subslices, eus;
};

static void usage(void)
{
	fprintf(stderr,
		"usage: metric-sets-dump [-r REVISION] [-t SLICES:SUBSLICES:EUS] STEM:DEVICE_ID...\n");
	exit(2);
}

static int parse_topology(const char *arg, struct dump_topology *t)
{
	char end;

	if (sscanf(arg, "%u:%u:%u%c", &t->slices, &t->subslices, &t->eus,
		   &end) != 3)
		return -1;
	/* IGT 1.27.1 asserts beyond 6 slices of 8 subslices of 16 EUs. */
	if (!t->slices || !t->subslices || !t->eus || t->slices > 6 ||
	    t->subslices > 8 || t->eus > 16)
		return -1;
	return 0;
}

/* i915's topology record for @t, malloc'ed; NULL when out of memory. */
static struct drm_i915_query_topology_info *
make_topology(const struct dump_topology *t)
{
	unsigned int ss_stride = (t->subslices + 7) / 8;
	unsigned int eu_stride = (t->eus + 7) / 8;
	unsigned int slice_len = (t->slices + 7) / 8;
	unsigned int ss_len = t->slices * ss_stride;
	unsigned int eu_len = t->slices * t->subslices * eu_stride;
	struct drm_i915_query_topology_info *topo;
	unsigned int i;
	uint8_t *d;

	topo = calloc(1, sizeof(*topo) + slice_len + ss_len + eu_len);
	if (!topo)
		return NULL;
	topo->max_slices = t->slices;
	topo->max_subslices = t->subslices;
	topo->max_eus_per_subslice = t->eus;
	topo->subslice_offset = slice_len;
	topo->subslice_stride = ss_stride;
	topo->eu_offset = slice_len + ss_len;
	topo->eu_stride = eu_stride;
	d = topo->data;
	for (i = 0; i < t->slices; i++)
		d[i / 8] |= 1 << (i % 8);
	for (i = 0; i < t->slices * t->subslices; i++)
		d[slice_len + (i / t->subslices) * ss_stride +
		  (i % t->subslices) / 8] |= 1 << (i % t->subslices % 8);
	for (i = 0; i < t->slices * t->subslices * t->eus; i++)
		d[slice_len + ss_len + (i / t->eus) * eu_stride +
		  (i % t->eus) / 8] |= 1 << (i % t->eus % 8);
	return topo;
}

static void print_regs(const char *kind, const struct igt_reg *r,
		       uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		printf("%s 0x%08x 0x%08x\n", kind, r[i].addr, r[i].value);
}

/* Return: the number of sets printed, or -1. */
static int dump_device(igt_perf_for_devinfo_fn for_devinfo,
		       igt_perf_free_fn perf_free, const char *arg, uint32_t revision,
		       const struct drm_i915_query_topology_info *topo)
{
	const struct igt_set *s;
	struct igt_perf *perf;
	struct igt_list *node;
	char stem[64], *end;
	unsigned long id;
	const char *colon = strchr(arg, ':');
	int n = 0;

	if (!colon || colon == arg || colon - arg >= (long)sizeof(stem)) {
		fprintf(stderr, "metric-sets-dump: '%s' is not STEM:DEVICE_ID\n",
			arg);
		return -1;
	}
	errno = 0;
	id = strtoul(colon + 1, &end, 0);
	if (errno || *end || end == colon + 1 || id > 0xffff) {
		fprintf(stderr, "metric-sets-dump: bad device id in '%s'\n", arg);
		return -1;
	}
	memcpy(stem, arg, colon - arg);
	stem[colon - arg] = '\0';
	perf = for_devinfo(id, revision, 19200000, 300000000, 1100000000, topo);
	if (!perf) {
		fprintf(stderr, "metric-sets-dump: %s does not know device 0x%04lx\n",
			IGT_PERF_LIBRARY, id);
		return -1;
	}
	for (node = perf->sets.next; node != &perf->sets; node = node->next) {
		s = igt_set_of(node);
		printf("set %s %s %s\n", stem, s->symbol_name,
		       s->hw_config_guid);
		print_regs("mux", s->mux_regs, s->n_mux_regs);
		print_regs("boolean", s->b_counter_regs, s->n_b_counter_regs);
		print_regs("flex", s->flex_regs, s->n_flex_regs);
		n++;
	}
	perf_free(perf);
	return n;
}

int main(int argc, char **argv)
{
	struct dump_topology t = { 1, 3, 8 };
	struct drm_i915_query_topology_info *topo;
	igt_perf_for_devinfo_fn for_devinfo;
	igt_perf_free_fn perf_free;
	unsigned long revision = 0;
	int c, i, n, status = 0;
	char *end;
	void *lib;

	while ((c = getopt(argc, argv, "r:t:")) != -1) {
		switch (c) {
		case 'r':
			errno = 0;
			revision = strtoul(optarg, &end, 0);
			if (errno || *end || revision > 0xffff)
				usage();
			break;
		case 't':
			if (parse_topology(optarg, &t))
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind == argc)
		usage();
	lib = dlopen(IGT_PERF_LIBRARY, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "metric-sets-dump: %s\n", dlerror());
		return 1;
	}
	for_devinfo = (igt_perf_for_devinfo_fn)dlsym(lib, "intel_perf_for_devinfo");
	perf_free = (igt_perf_free_fn)dlsym(lib, "intel_perf_free");
	topo = make_topology(&t);
	if (!for_devinfo || !perf_free || !topo) {
		fprintf(stderr, "metric-sets-dump: %s\n",
			topo ? "the library lacks intel_perf_for_devinfo() or intel_perf_free()" :
			strerror(ENOMEM));
		return 1;
	}
	printf("# metric-sets-dump of %s: revision %lu, %u slice(s) of %u subslice(s) of %u EUs\n",
	       IGT_PERF_LIBRARY, revision, t.slices, t.subslices, t.eus);
	for (i = optind; i < argc; i++) {
		n = dump_device(for_devinfo, perf_free, argv[i], revision, topo);
		if (n < 0)
			status = 1;
		else
			fprintf(stderr, "%s: %d sets\n", argv[i], n);
	}
	free(topo);
	dlclose(lib);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "metric-sets-dump: writing: %s\n", strerror(errno));
		status = 1;
	}
	return status;
}
