#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make check-debug [DEBUG_SERIES="6.1 6.12 7.3"]: the device suite on the debug
# kernel (debug-kernel.sh: lockdep, KASAN, kmemleak, fault injection,
# UBSAN) of each series, built if it is not in the cache yet.  Every device
# test runs, a short soak among them, in one VM per CPU (GPUPROF_VM_JOBS)
# sharing the programs, with every harness timeout 4 times as long
# (GPUPROF_TIMEOUT_SCALE, see selftests/lib/harness.h), each followed by
# the kernel checks of vm-suite.sh (GPUPROF_KCHECK=1): any lockdep,
# KASAN, UBSAN, BUG or WARNING report in the kernel log fails the run, and
# so does a kmemleak leak whose backtrace is in gpuprof.  failnth_test injects its
# allocation failures.  Ends with "N passed, N failed, N skipped" and, per
# kernel, the count of each kind of report.  Not part of make check: the
# suite takes far longer on this kernel (see Documentation/testing.rst).
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
sel=$repo/selftests
logs=$sel/out/logs-debug
series=${DEBUG_SERIES:-6.1 6.12 7.3}

rm -rf "$logs"
mkdir -p "$logs"

"$sel/scripts/build-tests.sh" "$logs" || exit 1
export GPUPROF_PERF_GPU=$repo/tools/perf-gpu/out/asan/perf-gpu
prom=${GPUPROF_CACHE:-$repo/.deps}/prometheus/usr/bin
export GPUPROF_PROMTOOL=$prom/promtool
export GPUPROF_PROMETHEUS=$prom/prometheus
export GPUPROF_NODE_EXPORTER=$prom/prometheus-node-exporter

t_all=$SECONDS
reports=()
for s in $series; do
	log=$logs/vm-debug-$s.log
	: >"$log"
	if ! dir=$("$sel/scripts/debug-kernel.sh" "$s"); then
		printf '# program: debug-kernel-%s\n# exit: 1\n' "$s" >>"$log"
		continue
	fi
	kver=$(cat "$dir/kver")
	t0=$SECONDS
	GPUPROF_KDIR=$dir/build GPUPROF_VM_ROOT=$dir/root \
	GPUPROF_KCHECK=1 GPUPROF_SOAK_SECONDS=${SOAK_SECONDS:-60} \
	GPUPROF_VM_TIMEOUT=${GPUPROF_VM_TIMEOUT:-7200} \
	GPUPROF_VM_JOBS=${GPUPROF_VM_JOBS:-$(nproc)} \
	GPUPROF_TIMEOUT_SCALE=${GPUPROF_TIMEOUT_SCALE:-4} \
		"$sel/scripts/device-suite.sh" "$kver" "$log"
	rc=$?
	if [ "$rc" -gt 2 ]; then
		printf '# program: vm-runner-%s\n# exit: %d\n' "$kver" "$rc" >>"$log"
	fi
	# The kinds of report, by the first line the kernel prints for each,
	# over the kernel-after-* programs' dmesg lines and run.sh's.
	count() {
		grep -E '^(# dmesg|vm: dmesg): ' "$log" | grep -E "$1" |
			grep -cvE "${2:-^$}"
	}
	lockdep='WARNING: .*(lock|RCU)|BUG: (MAX_LOCKDEP|looking up invalid subclass)'
	reports+=("$kver: lockdep $(count "$lockdep")," \
		"KASAN $(count 'BUG: KASAN:'), UBSAN $(count 'UBSAN:')," \
		"other BUG $(count 'BUG:' "$lockdep|KASAN")," \
		"other WARNING $(count 'WARNING:' "$lockdep")," \
		"kmemleak $(grep -c '^# kmemleak: unreferenced object' "$log")," \
		"$((SECONDS - t0)) s")
done
printf '# check-debug: %s\n' "${reports[@]}" "total $((SECONDS - t_all)) s"
"$sel/scripts/tap-summary.sh" "$logs"/vm-debug-*.log
