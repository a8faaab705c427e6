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

# A build failure is a failed run, counted as such.
build_failed() {
	printf '# program: build\n# exit: 1\n' >"$logs/build.log"
	"$sel/scripts/tap-summary.sh" "$logs/build.log"
	exit 1
}
make -s -C "$repo" tools || build_failed
make -s -C "$repo/tools/perf-gpu" SANITIZE=1 || build_failed
make -s -C "$sel" || build_failed
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

# Per kernel: the module and the test module built warning-free (TAP
# lines appended to LOG), then one VM boot runs every device test.
# vkms is built from the kernel's own source (build-vkms.sh), the others
# from ours.
build_ko() {	# KVER DIR
	if [ "$2" = vkms ]; then
		"$sel/scripts/build-vkms.sh" "$1"
	else
		"$sel/scripts/build-module.sh" "$1" "$2"
	fi
}
build_module() {	# KVER DIR NAME LOG; prints the module's path
	local ko err=$logs/module-build-$1-${3%.ko}.err
	if ! ko=$(build_ko "$1" "$2" 2>"$err"); then
		echo "not ok 1 $3 builds for $1" >>"$4"
	elif grep -q 'warning:' "$err"; then
		echo "not ok 1 $3 builds for $1 without warnings" >>"$4"
	else
		echo "ok 1 $3 builds for $1 without warnings" >>"$4"
		echo "$ko"
		return 0
	fi
	sed 's/^/# /' "$err" >>"$4"
	return 1
}

cd "$repo"
for kver in $kvers; do
	log=$logs/vm-$kver.log
	printf '# kernel %s\n# program: build-%s\n' "$kver" "$kver" >"$log"
	ko=$(build_module "$kver" . gpuprof.ko "$log") &&
	fencegen=$(build_module "$kver" selftests/fencegen gpuprof_fencegen.ko "$log") &&
	schedmock=$(build_module "$kver" selftests/schedmock gpuprof_schedmock.ko "$log") &&
	vkms=$(build_module "$kver" vkms gpuprof_vkms.ko "$log")
	rc=$?
	echo "# exit: $rc" >>"$log"
	cat "$log"
	[ $rc = 0 ] || continue
	t0=$SECONDS
	# A virtio-gpu (2D) for virtio_gpu_test: a third fence producer.
	GPUPROF_VM_QEMU_ARGS="-device virtio-gpu-pci" \
	GPUPROF_FENCEGEN_KO=$fencegen GPUPROF_SCHEDMOCK_KO=$schedmock \
	GPUPROF_VKMS_KO=$vkms \
		"$sel/scripts/vm/run.sh" --kver "$kver" -- \
		"$sel/scripts/vm-suite.sh" "$ko" "$sel"/out/device/*_test \
		2>&1 | tee -a "$log"
	rc=${PIPESTATUS[0]}
	echo "# kernel $kver: device tests in $((SECONDS - t0)) s" | tee -a "$log"
	# 0 and 1 are the suite's own verdicts, already in its TAP; anything
	# else (a kernel warning in dmesg, a timeout, a failed boot) is one
	# more failure.
	if [ "$rc" -gt 1 ]; then
		printf '# program: vm-runner-%s\n# exit: %d\n' "$kver" "$rc" >>"$log"
	fi
done

"$sel/scripts/tap-summary.sh" "$logs/host.log" "$logs"/vm-*.log
