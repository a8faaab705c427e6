# SPDX-License-Identifier: GPL-2.0-only
#
# The layers of tools/perf-gpu, one folder each, highest first; a layer
# calls only into the layers below it, never a folder of its own layer
# (Documentation/design.rst 1).  Above them all, the programs and the
# builtins at the top of tools/perf-gpu.  Read by its Makefile and by
# selftests/Makefile (to link the libraries), and by
# selftests/scripts/layers.sh (to check the includes).
PERF_GPU_LAYER_3 := record report top timechart
PERF_GPU_LAYER_2 := live oa
PERF_GPU_LAYER_1 := perfdata perfetto drm gpuprofdev
PERF_GPU_LAYER_0 := util

# Sources from outside tools/perf-gpu a folder's library holds, as the
# folder's own: PERF_GPU_EXTRA_DIR, paths from tools/perf-gpu.  liboa.a
# holds the OA decoder the module shares.
PERF_GPU_EXTRA_oa := ../../module/oa_decode.c ../../module/oa_platform.c

PERF_GPU_DIRS := $(PERF_GPU_LAYER_3) $(PERF_GPU_LAYER_2) $(PERF_GPU_LAYER_1) \
		 $(PERF_GPU_LAYER_0)

# The static libraries, in the order a linker wants them: libbuiltin.a
# (the builtin-*.c of the top), then one a folder, higher layers first.
PERF_GPU_LIBS := builtin $(PERF_GPU_DIRS)

# perf_gpu_libs DIR: the paths of the libraries in the flavour directory
# DIR (out, out/asan, ...), in that order.
perf_gpu_libs = $(foreach l,$(PERF_GPU_LIBS),$(1)/lib$(l).a)

# Not archived: the objects every program links whole.  libsubcmd, linked
# after the libraries, needs util/subcmd-deps.c's strlcpy(); the sanitizer
# runtime's weak defaults would keep util/lsan-suppressions.o out of any
# link that took it from an archive.
PERF_GPU_MAIN_OBJS := util/subcmd-deps.o util/lsan-suppressions.o

# What the libraries link against.
PERF_GPU_PKGS := libtraceevent libdrm libperf
