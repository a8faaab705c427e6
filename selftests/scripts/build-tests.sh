#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# build-tests.sh LOGDIR: build the tools (and their sanitizer build, which
# the tests run) and the test programs, for check.sh and check-debug.sh.
# A failure is a failed run, counted as such: LOGDIR/build.log gets one
# failed program, the "N passed, N failed" line is printed, exit 1.
repo=$(cd "$(dirname "$0")/../.." && pwd)
logs=$1

# Every build writes under its own out/ directory: all CPUs at once.
j=-j$(nproc)
if ! make -s $j -C "$repo" tools ||
   ! make -s $j -C "$repo/tools/perf-gpu" SANITIZE=1 ||
   ! make -s $j -C "$repo/selftests" tests; then
	printf '# program: build\n# exit: 1\n' >"$logs/build.log"
	"$repo/selftests/scripts/tap-summary.sh" "$logs/build.log"
	exit 1
fi
