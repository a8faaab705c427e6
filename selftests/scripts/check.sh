#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make check: build everything, run the host unit tests here and the
# device tests as root in the test VM, and end with the plain line
# "N passed, N failed, N skipped" that CI reads.  Exit status 0 only when
# nothing failed.
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
sel=$repo/selftests
logs=$sel/out/logs
# The kernels booted: KVER one, else kvers.sh's list narrowed by KVERS,
# else by GPUPROF_CHECK_KERNELS (make check: 6.1 and 7.3; make check-all
# leaves it empty).  The test kernels not
# booted are still built for: the module and the test modules for each
# (testing.rst, "Kernels", says why three do not fit).
built_only=
if [ -n "${KVER:-}" ]; then
	kvers=$KVER
elif [ -z "${KVERS:-}" ] && [ -n "${GPUPROF_CHECK_KERNELS:-}" ]; then
	kvers=$(KVERS=$GPUPROF_CHECK_KERNELS "$sel/scripts/kvers.sh") || exit 1
	built_only=$("$sel/scripts/kvers.sh" | grep -vxF "$kvers")
else
	kvers=$("$sel/scripts/kvers.sh") || exit 1
fi

rm -rf "$logs"
mkdir -p "$logs"

"$sel/scripts/build-tests.sh" "$logs" || exit 1
# Tests run the sanitizer build of the tools; the VM runner passes GPUPROF_*
# variables on to the guest.
export GPUPROF_PERF_GPU=$repo/tools/perf-gpu/out/asan/perf-gpu
# Unpacked by setup.sh: promtool checks perf gpu top's metrics; the two
# servers carry them to a query in prometheus_test.
prom=${GPUPROF_CACHE:-$repo/.deps}/prometheus/usr/bin
export GPUPROF_PROMTOOL=$prom/promtool
export GPUPROF_PROMETHEUS=$prom/prometheus
export GPUPROF_NODE_EXPORTER=$prom/prometheus-node-exporter

# Host unit tests, and the kernel coding style and the layering of
# tools/perf-gpu (scripts/layers.sh) as two more tests.  The style check
# (checkpatch.pl, one process) runs beside the host programs, its lines
# printed after theirs.
lint() {
	echo "# program: lint"
	if "$sel/scripts/lint.sh"; then echo "ok 1 checkpatch"; else echo "not ok 1 checkpatch"; fi
	if "$sel/scripts/layers.sh"; then echo "ok 2 layers"; else echo "not ok 2 layers"; fi
	echo "# exit: 0"
}
lint >"$logs/lint.out" 2>&1 &
lint_pid=$!
"$sel/scripts/host-tests.sh" 2>&1 | tee "$logs/host.log"
wait "$lint_pid"
tee -a "$logs/host.log" <"$logs/lint.out"
rm -f "$logs/lint.out"

# Per kernel: the modules built warning-free, then one VM boot runs every
# device test (device-suite.sh).
# The kernels' device suites run side by side, one VM each: a VM is one
# single-threaded TCG process, so on two cores two kernels take the time
# of one.  GPUPROF_KERNELS_AT_ONCE=1 runs them one after the other.
device_suite() {	# KVER: its suite and log
	local log=$logs/vm-$1.log rc

	: >"$log"
	"$sel/scripts/device-suite.sh" "$1" "$log"
	rc=$?
	# 0 and 1 are the suite's own verdicts, already in its TAP, and so
	# is a build failure (2); anything else (a kernel warning in dmesg,
	# a timeout, a failed boot) is one more failure.
	if [ "$rc" -gt 2 ]; then
		printf '# program: vm-runner-%s\n# exit: %d\n' "$1" "$rc" >>"$log"
	fi
}

cd "$repo" || exit 1
for kver in $built_only; do
	GPUPROF_DEVICE_BUILD_ONLY=1 device_suite "$kver" 2>&1 | sed -u "s/^/[$kver] /"
done
at_once=${GPUPROF_KERNELS_AT_ONCE:-2}
running=0
for kver in $kvers; do
	if [ "$at_once" -le 1 ]; then
		device_suite "$kver"
		continue
	fi
	# Each line headed by its kernel, as the suites' lines interleave.
	device_suite "$kver" 2>&1 | sed -u "s/^/[$kver] /" &
	running=$((running + 1))
	if [ "$running" -ge "$at_once" ]; then
		wait -n
		running=$((running - 1))
	fi
done
wait

# Per kernel, what ran: the release the VM booted (uname -r in the guest;
# "built only" for a kernel not booted) and the vermagic of the module.
for log in "$logs"/vm-*.log; do
	k=${log##*/vm-}
	k=${k%.log}
	booted=$(sed -n 's/^\(\[vm[0-9]*\] \)\{0,1\}# uname -r: //p' "$log" | head -n 1)
	magic=$(sed -n 's/^# vermagic: //p' "$log" | head -n 1)
	echo "kernel $k: uname -r ${booted:-(built only)}; gpuprof.ko vermagic ${magic:-?}"
done
"$sel/scripts/tap-summary.sh" "$logs/host.log" "$logs"/vm-*.log
