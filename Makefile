# SPDX-License-Identifier: GPL-2.0-only
#
# gpuprof: the kernel module (Kbuild) and the userspace tools.
#
#   make            build gpuprof.ko and the tools
#   make setup      install/build the dependencies (root, once; cached)
#   make check      all tests: host unit tests, then the module in a VM
#   make bench      benchmarks, "BENCH name value unit" lines
#   make lint       checkpatch.pl over module/ and uapi/
#   make demo       boot the VM, load the module, show /dev/gpuprof

# Kbuild reads ./Kbuild, never this file.

TOP := $(CURDIR)
export GPUPROF_CACHE ?= $(TOP)/.deps

# The kernel tests boot, and the headers to build against when no KDIR is
# given and the running kernel has none.
TEST_KVER := $(shell $(TOP)/selftests/kver.sh)
RUNNING_KDIR := /lib/modules/$(shell uname -r)/build
ifeq ($(KDIR),)
ifneq ($(wildcard $(RUNNING_KDIR)),)
KDIR := $(RUNNING_KDIR)
else ifneq ($(TEST_KVER),)
KDIR := /usr/src/linux-headers-$(TEST_KVER)
endif
endif

.PHONY: all module tools setup check bench lint demo clean

all: module tools

module:
	@test -d "$(KDIR)" || { echo "no kernel tree: run 'make setup' or give KDIR=" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOP) modules

tools:
	$(MAKE) -C tools/perf-gpu

setup:
	bash selftests/setup.sh

check: setup
	bash selftests/check.sh

bench: setup
	bash selftests/bench.sh

lint: setup
	bash selftests/lint.sh

demo: setup
	bash selftests/demo.sh

# Not Kbuild's "clean M=$(TOP)": it deletes every *.a below, .deps too.
clean:
	rm -f *.ko *.mod *.mod.c *.o .*.cmd modules.order Module.symvers
	find module uapi -name '*.o' -o -name '.*.cmd' -o -name '*.mod*' | xargs rm -f
	$(MAKE) -C tools/perf-gpu clean
	$(MAKE) -C selftests clean
