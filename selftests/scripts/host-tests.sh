#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# host-tests.sh: run the host test programs of selftests/out/host, as
# many at once as there are CPUs (GPUPROF_HOST_JOBS to choose), each
# under ASan and UBSan with its output kept apart, then print the
# outputs in the programs' order as "# program: NAME" ... "# exit: N"
# blocks for tap-summary.sh.  The programs make their own temporary
# directories and pick free ports, so they do not meet; two at a time
# halve what make check spends here on a 2-core machine.
sel=$(cd "$(dirname "$0")/.." && pwd)
# The harness's per-test timeout (30 s unless a test sets its own) is a
# hang catcher here, not a speed check: at a load of 12 on 2 cores two
# report and two timechart tests that pass alone took over 30 s and were
# failed (2026-12-07).  Four times as long, the tests' windows unchanged.
export GPUPROF_WATCHDOG_SCALE=${GPUPROF_WATCHDOG_SCALE:-4}
jobs=${GPUPROF_HOST_JOBS:-$(nproc)}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

i=0
for t in "$sel"/out/host/*_test; do
	[ -x "$t" ] || continue
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n
	done
	name=${t##*/}
	{
		echo "# program: $name"
		ASAN_OPTIONS=abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1 "$t"
		echo "# exit: $?"
	} >"$tmp/$(printf %03d $i)-$name.log" 2>&1 &
	i=$((i + 1))
done
wait
cat "$tmp"/*.log
