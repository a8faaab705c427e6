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
# The kernels: KVER one, else kvers.sh's list (KVERS narrows it).
if [ -n "${KVER:-}" ]; then
	kvers=$KVER
else
	kvers=$("$sel/scripts/kvers.sh") || exit 1
fi

rm -rf "$logs"
mkdir -p "$logs"

"$sel/scripts/build-tests.sh" "$logs" || exit 1
# Tests run the sanitizer build of the tools; the VM runner passes GPUPROF_*
# variables on to the guest.
export GPUPROF_PERF_GPU=$repo/tools/perf-gpu/out/asan/perf-gpu
# Unpacked by setup.sh (the perf gpu top test checks its metrics with it).
export GPUPROF_PROMTOOL=${GPUPROF_CACHE:-$repo/.deps}/promtool/usr/bin/promtool

# Host unit tests, and the kernel coding style and the layering of
# tools/perf-gpu (scripts/layers.sh) as two more tests.
{
	for t in "$sel"/out/host/*_test; do
		[ -x "$t" ] || continue
		echo "# program: $(basename "$t")"
		ASAN_OPTIONS=abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1 "$t"
		echo "# exit: $?"
	done
	echo "# program: lint"
	if "$sel/scripts/lint.sh"; then echo "ok 1 checkpatch"; else echo "not ok 1 checkpatch"; fi
	if "$sel/scripts/layers.sh"; then echo "ok 2 layers"; else echo "not ok 2 layers"; fi
	echo "# exit: 0"
} 2>&1 | tee "$logs/host.log"

# Per kernel: the modules built warning-free, then one VM boot runs every
# device test (device-suite.sh).
cd "$repo" || exit 1
for kver in $kvers; do
	log=$logs/vm-$kver.log
	: >"$log"
	"$sel/scripts/device-suite.sh" "$kver" "$log"
	rc=$?
	# 0 and 1 are the suite's own verdicts, already in its TAP, and so
	# is a build failure (2); anything else (a kernel warning in dmesg,
	# a timeout, a failed boot) is one more failure.
	if [ "$rc" -gt 2 ]; then
		printf '# program: vm-runner-%s\n# exit: %d\n' "$kver" "$rc" >>"$log"
	fi
done

"$sel/scripts/tap-summary.sh" "$logs/host.log" "$logs"/vm-*.log
