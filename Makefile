# SPDX-License-Identifier: GPL-2.0-only
#
# gpuprof: the kernel module (Kbuild) and the userspace tools.
#
#   make            build gpuprof.ko and the tools
#   make setup      install/build the dependencies (root, once; cached)
#   make check      all tests: host unit tests, then the module in a VM
#   make bench      benchmarks, "BENCH name value unit" lines
#   make check-debug  the device tests on the debug kernel (lockdep, KASAN,
#                   kmemleak, fault injection; DEBUG_SERIES="6.1 6.12 7.3")
#   make debug-kernel  build (once, cached) that kernel
#   make soak       the soak test per kernel under slub_debug=FZP
#                   (SOAK_SECONDS, default 600; KVERS narrows the kernels)
#   make fuzz       the fuzz targets, FUZZ_SECONDS each (default 60)
#   make lint       checkpatch.pl and kernel-doc -Wall over module/ and
#                   uapi/, and the layering of tools/perf-gpu (calls go
#                   downward only)
#   make demo       boot the VM, load the module, show /dev/gpuprof
#   make install    the module, tools, man pages, udev rule (PREFIX, DESTDIR;
#                   Documentation/install.rst); make uninstall undoes it
#   make dkms-source  the module's sources for DKMS in /usr/src/gpuprof-VERSION
#   make htmldocs   the documentation as HTML, Documentation/out/html (Sphinx,
#                   with the module's kernel-doc comments; warnings are errors)

# Kbuild reads ./Kbuild, never this file.

TOP := $(CURDIR)
export GPUPROF_CACHE ?= $(TOP)/.deps

# The kernel tests boot, and the headers to build against when no KDIR is
# given and the running kernel has none.
TEST_KVER := $(shell $(TOP)/selftests/scripts/kver.sh)
RUNNING_KDIR := /lib/modules/$(shell uname -r)/build
ifeq ($(KDIR),)
ifneq ($(wildcard $(RUNNING_KDIR)),)
KDIR := $(RUNNING_KDIR)
else ifneq ($(TEST_KVER),)
KDIR := /usr/src/linux-headers-$(TEST_KVER)
endif
endif

.PHONY: all module tools setup check check-all check-debug debug-kernel bench fuzz soak lint demo clean
.PHONY: man htmldocs install uninstall dkms-source

all: module tools

module:
	@test -d "$(KDIR)" || { echo "no kernel tree: run 'make setup' or give KDIR=" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOP) modules

tools:
	$(MAKE) -C tools/perf-gpu

setup:
	bash selftests/setup.sh

# make check boots the two ends, 6.1 and 7.3, and builds for 6.12; make
# check-all boots all three (Documentation/testing.rst, "Kernels").  KVERS
# or KVER choose others for either.
check: setup
	GPUPROF_CHECK_KERNELS="6.1 7.3" bash selftests/scripts/check.sh

check-all: setup
	bash selftests/scripts/check.sh

bench: setup
	bash selftests/scripts/bench.sh

# The debug kernel of each series in DEBUG_SERIES (default 6.1, 6.12, 7.3),
# cached outside the clone, and the device suite on it with the kernel's
# checkers watching (Documentation/testing.rst, "The debug kernel").
DEBUG_SERIES ?= 6.1 6.12 7.3
export DEBUG_SERIES
debug-kernel: setup
	@for s in $(DEBUG_SERIES); do \
		bash selftests/scripts/debug-kernel.sh $$s || exit 1; \
	done

check-debug: setup
	bash selftests/scripts/check-debug.sh

# The soak test of each kernel for SOAK_SECONDS (default 600), under
# slub_debug=FZP (Documentation/testing.rst, "Fault injection and soak").
soak: setup
	bash selftests/scripts/soak.sh

# The libFuzzer targets of selftests/fuzz/, FUZZ_SECONDS each, figures
# and crashes (Documentation/testing.rst, "Fuzzing").
FUZZ_SECONDS ?= 60
fuzz: setup
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_TARGETS="$(FUZZ_TARGETS)" \
		bash selftests/scripts/fuzz.sh

# Both checks run, whatever the first says.
lint: setup
	bash selftests/scripts/lint.sh; s=$$?; \
		bash selftests/scripts/layers.sh && exit $$s

demo: setup
	bash selftests/scripts/demo.sh

# ---- Installation (Documentation/install.rst says where and why) ----------

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/gpuprof
# udev and systemd-sysusers read both /usr/lib/... and /usr/local/lib/...
# (and /etc): right for PREFIX=/usr and PREFIX=/usr/local.
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
# So does systemd for units.  The example metrics unit writes into
# node_exporter's textfile directory (Debian's prometheus-node-exporter).
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
TEXTFILEDIR ?= /var/lib/prometheus/node-exporter

# The release of KDIR's kernel, from its utsrelease.h: the directory of
# /lib/modules the module goes to.  Kbuild gets it as KERNELRELEASE, so
# that install and uninstall agree on it whatever the tree's other files
# say (the kernel.release of Debian's 6.1 headers says 6.1.N).
INSTALL_KVER = $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"$$/\1/p' \
		 $(KDIR)/include/generated/utsrelease.h 2>/dev/null)
MODDIR = $(DESTDIR)/lib/modules/$(INSTALL_KVER)/extra

# One version for perf gpu --version and DKMS.
VERSION := $(shell sed -n 's/^\#define PERF_GPU_VERSION "\(.*\)"$$/\1/p' \
	     tools/perf-gpu/perf-gpu.c)

# Man pages: Documentation/Makefile builds each Documentation/man/NAME.rst
# with rst2man (python3-docutils) into Documentation/out/man/NAME.S, S
# being the page's ":Manual section:" field, 1 if it has none.
MAN_OUT := Documentation/out/man
man_section = $(or $(shell sed -n 's/^:Manual section: *\([1-9]\) *$$/\1/p' $(1)),1)
MAN_PAGES := $(foreach f,$(wildcard Documentation/man/*.rst),\
	       $(MAN_OUT)/$(basename $(notdir $(f))).$(call man_section,$(f)))

man:
	$(MAKE) -C Documentation man

# Documentation/Makefile says how: Sphinx (python3-sphinx), the
# kernel-doc directive of Documentation/sphinx/kerneldoc.py, and the
# kernel's scripts/kernel-doc, taken once into $(GPUPROF_CACHE).
htmldocs:
	$(MAKE) -C Documentation html

# What install puts besides the module, as DESTDIR-relative paths; the
# module is gpuprof.ko, or gpuprof.ko.xz (.gz, .zst) where KDIR's kernel
# compresses its modules.
INSTALLED := $(BINDIR)/perf-gpu $(BINDIR)/gpuprof-oa \
	     $(UDEVRULESDIR)/70-gpuprof.rules $(SYSUSERSDIR)/gpuprof.conf \
	     $(DOCDIR)/gpuprof.conf.example \
	     $(SYSTEMDUNITDIR)/gpuprof-metrics.service \
	     $(foreach p,$(MAN_PAGES),$(MANDIR)/man$(subst .,,$(suffix $(p)))/$(notdir $(p)))
MODULE_FILES = $(MODDIR)/gpuprof.ko $(addprefix $(MODDIR)/gpuprof.ko,.gz .xz .zst)
# modules_install signs with the tree's key and certs/signing_key.x509;
# distribution headers have neither (the module goes unsigned anyway, and
# sign-file would only print SSL errors), so it is not asked to there.
NO_SIGN = $(if $(wildcard $(KDIR)/certs/signing_key.x509),,CONFIG_MODULE_SIG_ALL=)

# perf-gpu goes to BINDIR: perf runs "perf-gpu" for "perf gpu" from its
# exec path (Debian's: /usr/lib/perf-core, the linux-perf package's, not
# under PREFIX), then from the directory of the perf binary, then from
# $PATH, where BINDIR is.  Without DESTDIR, that is on the live system,
# install also updates the module index and creates the udev rule's group.
install: module tools man
	@test -n "$(INSTALL_KVER)" || { echo "no utsrelease.h under KDIR=$(KDIR)" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOP) modules_install INSTALL_MOD_PATH=$(DESTDIR) \
		INSTALL_MOD_DIR=extra KERNELRELEASE=$(INSTALL_KVER) $(NO_SIGN)
	install -D -m 755 tools/perf-gpu/out/perf-gpu $(DESTDIR)$(BINDIR)/perf-gpu
	install -D -m 755 tools/perf-gpu/out/gpuprof-oa $(DESTDIR)$(BINDIR)/gpuprof-oa
	install -D -m 644 module/udev/70-gpuprof.rules \
		$(DESTDIR)$(UDEVRULESDIR)/70-gpuprof.rules
	install -D -m 644 module/sysusers/gpuprof.conf \
		$(DESTDIR)$(SYSUSERSDIR)/gpuprof.conf
	install -d $(DESTDIR)$(DOCDIR)
	sed 's|@BINDIR@|$(BINDIR)|' module/modprobe/gpuprof.conf.example \
		>$(DESTDIR)$(DOCDIR)/gpuprof.conf.example
	chmod 644 $(DESTDIR)$(DOCDIR)/gpuprof.conf.example
	install -d $(DESTDIR)$(SYSTEMDUNITDIR)
	sed 's|@BINDIR@|$(BINDIR)|; s|@TEXTFILEDIR@|$(TEXTFILEDIR)|' \
		tools/perf-gpu/systemd/gpuprof-metrics.service.in \
		>$(DESTDIR)$(SYSTEMDUNITDIR)/gpuprof-metrics.service
	chmod 644 $(DESTDIR)$(SYSTEMDUNITDIR)/gpuprof-metrics.service
	for p in $(MAN_PAGES); do \
		s=$${p##*.}; \
		install -D -m 644 $$p $(DESTDIR)$(MANDIR)/man$$s/$${p##*/} || exit 1; \
	done
	if [ -z "$(DESTDIR)" ]; then \
		depmod -a $(INSTALL_KVER) && \
		systemd-sysusers $(SYSUSERSDIR)/gpuprof.conf; \
	fi

# Removes what install put, then the directories of ours it leaves empty.
uninstall:
	@test -n "$(INSTALL_KVER)" || { echo "no utsrelease.h under KDIR=$(KDIR)" >&2; exit 1; }
	rm -f $(MODULE_FILES) $(addprefix $(DESTDIR),$(INSTALLED))
	if [ -d $(DESTDIR)$(DOCDIR) ]; then rmdir $(DESTDIR)$(DOCDIR); fi
	if [ -z "$(DESTDIR)" ]; then depmod -a $(INSTALL_KVER); fi

# DKMS reads dkms.conf at the top of /usr/src/NAME-VERSION: a copy of the
# module's sources (Kbuild, module/, uapi/, LICENSE) with it.  Not part of
# install: DKMS installs the module itself, for every kernel.
DKMS_SRC = $(DESTDIR)/usr/src/gpuprof-$(VERSION)

dkms-source:
	rm -rf $(DKMS_SRC)
	install -d $(DKMS_SRC)/module $(DKMS_SRC)/uapi
	install -m 644 Kbuild LICENSE $(DKMS_SRC)/
	install -m 644 module/*.[ch] $(DKMS_SRC)/module/
	install -m 644 uapi/*.h $(DKMS_SRC)/uapi/
	sed 's/@VERSION@/$(VERSION)/' module/dkms.conf >$(DKMS_SRC)/dkms.conf
	chmod 644 $(DKMS_SRC)/dkms.conf

# Not Kbuild's "clean M=$(TOP)": it deletes every *.a below, .deps too.
clean:
	rm -f *.ko *.mod *.mod.c *.o .*.cmd modules.order Module.symvers
	find module uapi -name '*.o' -o -name '.*.cmd' -o -name '*.mod*' | xargs rm -f
	$(MAKE) -C tools/perf-gpu clean
	$(MAKE) -C selftests clean
	$(MAKE) -C Documentation clean
