# SPDX-License-Identifier: GPL-2.0-only
#
# The fuzz targets, fuzz/NAME_fuzz.c, each built three ways from the same
# sources (included by selftests/Makefile; paths are relative to it):
#
#   $(OUT)/fuzz/NAME-replay      cc, ASan and UBSan, linked with
#                                fuzz/replay.c: built by "all", run over
#                                the seeds and regressions by
#                                host/fuzz_replay_test in make check
#   $(OUT)/fuzz/NAME             clang with libFuzzer ("make fuzz" here,
#                                run by selftests/scripts/fuzz.sh)
#   $(OUT)/fuzz/cov/NAME/replay  gcc --coverage with fuzz/replay.c, no
#                                sanitizers: the line figures of fuzz.sh
#
# Per target: FUZZ_COV_NAME, the parser sources it is about (whose line
# coverage fuzz.sh prints); FUZZ_SRCS_NAME, everything else it links;
# FUZZ_FLAGS_NAME and FUZZ_LIBS_NAME, compiler and linker extras.

FUZZ_TARGETS := $(sort $(patsubst fuzz/%_fuzz.c,%,$(wildcard fuzz/*_fuzz.c)))
FUZZ_PG := ../tools/perf-gpu
FUZZ_PREFIX := $(GPUPROF_CACHE)/prefix
FUZZ_HDRS := $(wildcard fuzz/*.h ../module/*.h ../uapi/*.h $(FUZZ_PG)/*.h)

FUZZ_COV_oa_stream := ../module/oa_decode.c

FUZZ_COV_oa_i915 := $(FUZZ_PG)/oa-i915-records.c
FUZZ_SRCS_oa_i915 := $(FUZZ_PG)/oa-writer.c ../module/oa_decode.c
FUZZ_FLAGS_oa_i915 = $(shell pkg-config --cflags libdrm)

FUZZ_COV_perf_data := $(addprefix $(FUZZ_PG)/,perf-data-read.c \
		      tracing-data-read.c format-check.c script-raw.c \
		      script-oa.c gpu-trace.c report-model.c report-busy.c \
		      report-sketch.c report-ranges.c)
FUZZ_SRCS_perf_data := $(addprefix $(FUZZ_PG)/,builtin-script.c \
		       builtin-report.c report-format.c report-device.c \
		       lsan-suppressions.c subcmd-deps.c) ../module/oa_decode.c
FUZZ_FLAGS_perf_data = $(shell pkg-config --cflags libtraceevent) \
		       -I$(FUZZ_PREFIX)/include
FUZZ_LIBS_perf_data = $(shell pkg-config --libs libtraceevent) \
		      -L$(FUZZ_PREFIX)/lib -lsubcmd -lapi

FUZZ_COV_fdinfo := $(FUZZ_PG)/drm-fdinfo.c

FUZZ_COV_live_proto := $(addprefix $(FUZZ_PG)/,live-line.c live-server.c \
		       live-client.c live-state.c)
FUZZ_SRCS_live_proto := $(FUZZ_PG)/live-addr.c
FUZZ_LIBS_live_proto := -pthread

FUZZ_COV_ctl := ../module/ctl_parse.c

FUZZ_CC := clang
FUZZ_CFLAGS := -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror -g -O1 \
	       -fsanitize=fuzzer,address,undefined \
	       -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_COV_CC := gcc
FUZZ_COV_CFLAGS := -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror -g -O0 \
		   --coverage

FUZZ_REPLAYS := $(FUZZ_TARGETS:%=$(OUT)/fuzz/%-replay)

.PHONY: fuzz
all: $(FUZZ_REPLAYS)
fuzz: $(FUZZ_REPLAYS) $(FUZZ_TARGETS:%=$(OUT)/fuzz/%) \
      $(FUZZ_TARGETS:%=$(OUT)/fuzz/cov/%/replay)
$(OUT)/host/fuzz_replay_test: | $(FUZZ_REPLAYS)

# fuzz_rules NAME: its three programs.  The coverage build starts from a
# clean directory: notes and counts of an older build would not match.
define fuzz_rules
FUZZ_ALL_$(1) = $$(FUZZ_COV_$(1)) $$(FUZZ_SRCS_$(1))

$(OUT)/fuzz/$(1)-replay: fuzz/$(1)_fuzz.c fuzz/replay.c $$(FUZZ_ALL_$(1)) \
			 $(FUZZ_HDRS)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(CFLAGS) $$(FUZZ_FLAGS_$(1)) -o $$@ fuzz/$(1)_fuzz.c \
		fuzz/replay.c $$(FUZZ_ALL_$(1)) $$(LDFLAGS) $$(FUZZ_LIBS_$(1))

$(OUT)/fuzz/$(1): fuzz/$(1)_fuzz.c $$(FUZZ_ALL_$(1)) $(FUZZ_HDRS)
	@mkdir -p $$(dir $$@)
	$$(FUZZ_CC) $$(FUZZ_CFLAGS) $$(FUZZ_FLAGS_$(1)) -o $$@ \
		fuzz/$(1)_fuzz.c $$(FUZZ_ALL_$(1)) $$(FUZZ_LIBS_$(1))

$(OUT)/fuzz/cov/$(1)/replay: fuzz/$(1)_fuzz.c fuzz/replay.c \
			     $$(FUZZ_ALL_$(1)) $(FUZZ_HDRS)
	rm -rf $$(dir $$@)
	@mkdir -p $$(dir $$@)
	$$(FUZZ_COV_CC) $$(FUZZ_COV_CFLAGS) $$(FUZZ_FLAGS_$(1)) -o $$@ \
		fuzz/$(1)_fuzz.c fuzz/replay.c $$(FUZZ_ALL_$(1)) \
		$$(FUZZ_LIBS_$(1))
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call fuzz_rules,$(t))))

# The perf_data target's seeds are written by this program, with the
# perf.data writer (fuzz/make-seeds.sh runs it).
all: $(OUT)/fuzz/perf_data_seeds
$(OUT)/fuzz/perf_data_seeds: fuzz/perf_data_seeds.c $(wildcard lib/*.h) \
			     $(PERF_DATA_SRCS) $(PERF_DATA_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(PERF_DATA_SRCS) $(LDFLAGS)

# For fuzz.sh: the parser sources of a target, one a line.
.PHONY: fuzz-cov-sources
fuzz-cov-sources:
	@printf '%s\n' $(FUZZ_COV_$(FUZZ_TARGET))
