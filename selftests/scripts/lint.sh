#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make lint: checkpatch.pl --strict (from linux-source, extracted by
# setup.sh) over every kernel-side file, and the kernel's kernel-doc
# -none -Wall (Documentation/Makefile takes it from linux-source) over
# the kernel-doc comments of the module and uapi/.  Fails on any error or
# warning.
set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
cache=${GPUPROF_CACHE:-$repo/.deps}
checkpatch=$cache/src/scripts/checkpatch.pl

cd "$repo"
lint() {
	perl "$checkpatch" --no-tree --strict --terse --show-types \
		--ignore FILE_PATH_CHANGES "$@"
}

# Everything but the compat header, with every check on.
status=0
lint -f $(ls module/*.[ch] uapi/*.h selftests/fencegen/*.c \
	selftests/schedmock/*.[ch] |
	grep -v -e '^module/compat.h$' -e '_compat.h$') ||
	status=1
# The compat headers exist to test LINUX_VERSION_CODE, which an
# out-of-tree module must do; only those two checks are off for them.
lint --ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON \
	-f module/compat.h selftests/schedmock/schedmock_compat.h ||
	status=1
# The comments the documentation takes (Documentation/module.rst): every
# one must be one kernel-doc reads, with its return value described.
make -s -C Documentation kernel-doc-check GPUPROF_CACHE="$cache" || status=1
exit $status
