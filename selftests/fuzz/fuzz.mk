# SPDX-License-Identifier: GPL-2.0-only
#
# The fuzz targets, fuzz/NAME_fuzz.c, each built three ways (included by
# selftests/Makefile; paths are relative to it), each linking the
# libraries of tools/perf-gpu built the same way:
#
#   $(OUT)/fuzz/NAME-replay      cc, ASan and UBSan, linked with
#                                fuzz/replay.c: built by "all", run over
#                                the seeds and regressions by
#                                host/fuzz_replay_test in make check
#   $(OUT)/fuzz/NAME             clang with libFuzzer ("make fuzz" here,
#                                run by selftests/scripts/fuzz.sh); the
#                                libraries with -fsanitize=fuzzer-no-link
#   $(OUT)/fuzz/cov/NAME/replay  gcc --coverage with fuzz/replay.c, no
#                                sanitizers: the line figures of fuzz.sh
#
# Per target: FUZZ_COV_NAME, the objects of tools/perf-gpu it is about
# (paths in a flavour directory), whose line coverage fuzz.sh prints;
# FUZZ_SRCS_NAME, sources from outside tools/perf-gpu it is about,
# compiled into it (their coverage printed too); FUZZ_OBJS_NAME, objects
# of tools/perf-gpu linked whole; FUZZ_FLAGS_NAME and FUZZ_LIBS_NAME,
# compiler and linker extras.

FUZZ_TARGETS := $(sort $(patsubst fuzz/%_fuzz.c,%,$(wildcard fuzz/*_fuzz.c)))
FUZZ_HDRS := $(wildcard fuzz/*.h) $(TOOLS_HDRS)

FUZZ_COV_oa_stream := oa/oa_decode.o oa/oa_platform.o

FUZZ_COV_oa_i915 := oa/i915-records.o

FUZZ_COV_oa_xe := oa/xe-abi.o

# perf gpu script and report whole (cmd_script(), cmd_report()).
FUZZ_COV_perf_data := $(addprefix perfdata/,read.o tracing-data-read.o \
		      format-check.o trace-print.o gpu-trace.o) oa/print.o \
		      $(addprefix report/,model.o busy.o sketch.o ranges.o)
FUZZ_OBJS_perf_data := $(PERF_GPU_MAIN_OBJS)

FUZZ_COV_fdinfo := drm/fdinfo.o util/cgroup.o record/cgroups.o

FUZZ_COV_live_proto := $(addprefix live/,line.o server.o client.o state.o)

FUZZ_SRCS_ctl := ../module/ctl_parse.c

FUZZ_CC := clang
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	    -fno-omit-frame-pointer
FUZZ_CFLAGS := -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror -g -O1 \
	       -fsanitize=fuzzer $(FUZZ_SAN)
FUZZ_COV_CC := gcc
FUZZ_COV_CFLAGS := -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror -g -O0 \
		   --coverage

# The libraries of the libFuzzer and coverage builds, in flavour
# directories of tools/perf-gpu of their own.
FUZZ_DIR := $(TOOLS)/out/fuzz
FUZZ_COV_DIR := $(TOOLS)/out/cov
FUZZ_TOOLS_LIBS := $(call perf_gpu_libs,$(FUZZ_DIR))
FUZZ_COV_TOOLS_LIBS := $(call perf_gpu_libs,$(FUZZ_COV_DIR))
$(FUZZ_TOOLS_LIBS) &: FORCE
	$(MAKE) -C $(TOOLS) OUT=out/fuzz CC=$(FUZZ_CC) \
		EXTRA_CFLAGS="-O1 -fsanitize=fuzzer-no-link $(FUZZ_SAN)" libs
$(FUZZ_COV_TOOLS_LIBS) &: FORCE
	$(MAKE) -C $(TOOLS) OUT=out/cov CC=$(FUZZ_COV_CC) \
		EXTRA_CFLAGS="-O0 --coverage" libs

FUZZ_REPLAYS := $(FUZZ_TARGETS:%=$(OUT)/fuzz/%-replay)

.PHONY: fuzz
tests: $(FUZZ_REPLAYS)
fuzz: $(FUZZ_REPLAYS) $(FUZZ_TARGETS:%=$(OUT)/fuzz/%) \
      $(FUZZ_TARGETS:%=$(OUT)/fuzz/cov/%/replay)
$(OUT)/host/fuzz_replay_test: | $(FUZZ_REPLAYS)

# fuzz_rules NAME: its three programs.  The coverage build starts from a
# clean directory: notes and counts of an older build would not match.
define fuzz_rules
$(OUT)/fuzz/$(1)-replay: fuzz/$(1)_fuzz.c fuzz/replay.c $$(FUZZ_SRCS_$(1)) \
			 $(FUZZ_HDRS) $(ASAN_LIBS)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(CFLAGS) $(TOOLS_CFLAGS) $$(FUZZ_FLAGS_$(1)) -o $$@ \
		fuzz/$(1)_fuzz.c fuzz/replay.c $$(FUZZ_SRCS_$(1)) \
		$$(addprefix $(TOOLS)/out/asan/,$$(FUZZ_OBJS_$(1))) $(ASAN_LIBS) \
		$$(LDFLAGS) $(TOOLS_LDLIBS) $$(FUZZ_LIBS_$(1))

$(OUT)/fuzz/$(1): fuzz/$(1)_fuzz.c $$(FUZZ_SRCS_$(1)) $(FUZZ_HDRS) \
		  $(FUZZ_TOOLS_LIBS)
	@mkdir -p $$(dir $$@)
	$$(FUZZ_CC) $$(FUZZ_CFLAGS) $(TOOLS_CFLAGS) $$(FUZZ_FLAGS_$(1)) -o $$@ \
		fuzz/$(1)_fuzz.c $$(FUZZ_SRCS_$(1)) \
		$$(addprefix $(FUZZ_DIR)/,$$(FUZZ_OBJS_$(1))) \
		$(FUZZ_TOOLS_LIBS) $(TOOLS_LDLIBS) $$(FUZZ_LIBS_$(1))

$(OUT)/fuzz/cov/$(1)/replay: fuzz/$(1)_fuzz.c fuzz/replay.c \
			     $$(FUZZ_SRCS_$(1)) $(FUZZ_HDRS) \
			     $(FUZZ_COV_TOOLS_LIBS)
	rm -rf $$(dir $$@)
	@mkdir -p $$(dir $$@)
	$$(FUZZ_COV_CC) $$(FUZZ_COV_CFLAGS) $(TOOLS_CFLAGS) \
		$$(FUZZ_FLAGS_$(1)) -o $$@ fuzz/$(1)_fuzz.c fuzz/replay.c \
		$$(FUZZ_SRCS_$(1)) \
		$$(addprefix $(FUZZ_COV_DIR)/,$$(FUZZ_OBJS_$(1))) \
		$(FUZZ_COV_TOOLS_LIBS) $(TOOLS_LDLIBS) $$(FUZZ_LIBS_$(1))
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call fuzz_rules,$(t))))

# The perf_data target's seeds are written by this program, with the
# perf.data writer (fuzz/make-seeds.sh runs it).
all: $(OUT)/fuzz/perf_data_seeds

# For fuzz.sh: what a target's line coverage counts, one "DIR BASE" a
# line: DIR/BASE.gcno and DIR/BASE.gcda are the notes and counts of one
# source, DIR absolute.
.PHONY: fuzz-cov-sources
fuzz-cov-sources:
	@printf '%s\n' $(foreach o,$(FUZZ_COV_$(FUZZ_TARGET)),\
		"$(abspath $(FUZZ_COV_DIR)/$(dir $(o))) $(basename $(notdir $(o)))") \
		$(foreach s,$(FUZZ_SRCS_$(FUZZ_TARGET)),\
		"$(abspath $(OUT)/fuzz/cov/$(FUZZ_TARGET)) replay-$(basename $(notdir $(s)))")
