#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make check: build everything, run the host unit tests here and the
# device tests as root in the test VM, and end with the plain line
# "N passed, N failed, N skipped" that CI reads.  Exit status 0 only when
# nothing failed.
set -u

repo=$(cd "$(dirname "$0")/.." && pwd)
sel=$repo/selftests
logs=$sel/out/logs
kver=${KVER:-$("$sel/kver.sh")}

rm -rf "$logs"
mkdir -p "$logs"

# A build failure is a failed run, counted as such.
build_failed() {
	printf '# program: build\n# exit: 1\n' >"$logs/build.log"
	"$sel/tap-summary.sh" "$logs/build.log"
	exit 1
}
make -s -C "$repo" tools || build_failed
make -s -C "$repo/tools/perf-gpu" SANITIZE=1 || build_failed
make -s -C "$sel" || build_failed
ko=$("$sel/build-module.sh" "$kver" 2>"$logs/module-build.err") &&
fencegen=$("$sel/build-module.sh" "$kver" selftests/fencegen \
	2>>"$logs/module-build.err") || {
	cat "$logs/module-build.err" >&2
	build_failed
}

# Tests run the sanitizer build of the tools; the VM runner passes GPUPROF_*
# variables on to the guest.
export GPUPROF_PERF_GPU=$repo/tools/perf-gpu/out/asan/perf-gpu
export GPUPROF_FENCEGEN_KO=$fencegen

# Host unit tests, and the kernel coding style as one more test.
{
	for t in "$sel"/out/host/*_test; do
		[ -x "$t" ] || continue
		echo "# program: $(basename "$t")"
		ASAN_OPTIONS=abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1 "$t"
		echo "# exit: $?"
	done
	echo "# program: lint"
	if "$sel/lint.sh"; then echo "ok 1 checkpatch"; else echo "not ok 1 checkpatch"; fi
	echo "# exit: 0"
} 2>&1 | tee "$logs/host.log"

# Device tests: one VM boot runs them all.
cd "$repo"
"$sel/vm/run.sh" --kver "$kver" -- \
	"$sel/vm-suite.sh" "$ko" "$sel"/out/device/*_test \
	2>&1 | tee "$logs/vm.log"
rc=${PIPESTATUS[0]}
# 0 and 1 are the suite's own verdicts, already in its TAP; anything else
# (a kernel warning in dmesg, a timeout, a failed boot) is one more failure.
if [ "$rc" -gt 1 ]; then
	printf '# program: vm-runner\n# exit: %d\n' "$rc" >>"$logs/vm.log"
fi

"$sel/tap-summary.sh" "$logs/host.log" "$logs/vm.log"
