#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# device-suite.sh KVER LOG: build gpuprof.ko and the test modules for
# kernel KVER warning-free (TAP lines appended to LOG), then boot the test
# VM once and run every device test program in it (its TAP appended to
# LOG too, and shown).  Exit status: 0 or 1, the suite's verdict; above 1,
# a build failure (2) or the VM runner's (a kernel report in dmesg, a
# timeout, a failed boot).  Used by check.sh and check-debug.sh.
#
# Environment: GPUPROF_KDIR (the kernel tree the modules are built
# against, default KVER's linux-headers), GPUPROF_VM_ROOT (the kernel the
# VM boots, default KVER installed on the host), GPUPROF_VM_TIMEOUT
# (seconds, default 1200), GPUPROF_VM_APPEND, GPUPROF_DEVICE_TESTS (the
# test programs' names, default every one), GPUPROF_VM_JOBS (how many VMs
# share the programs, default 1), GPUPROF_DEVICE_BUILD_ONLY (1: the builds
# alone), and what the tests read.
set -u

kver=$1
log=$2
sel=$(cd "$(dirname "$0")/.." && pwd)
err_dir=$(dirname "$log")

# vkms is built from the kernel's own source (build-vkms.sh), the others
# from ours.
build_ko() {	# DIR
	if [ "$1" = vkms ]; then
		"$sel/scripts/build-vkms.sh" "$kver"
	else
		"$sel/scripts/build-module.sh" "$kver" "$1"
	fi
}
build_module() {	# DIR NAME; prints the module's path
	local ko err=$err_dir/module-build-$kver-${2%.ko}.err
	if ! ko=$(build_ko "$1" 2>"$err"); then
		echo "not ok 1 $2 builds for $kver" >>"$log"
	elif grep -q 'warning:' "$err"; then
		echo "not ok 1 $2 builds for $kver without warnings" >>"$log"
	else
		echo "ok 1 $2 builds for $kver without warnings" >>"$log"
		echo "$ko"
		return 0
	fi
	sed 's/^/# /' "$err" >>"$log"
	return 1
}

printf '# kernel %s\n# program: build-%s\n' "$kver" "$kver" >>"$log"
ko=$(build_module . gpuprof.ko) &&
fencegen=$(build_module selftests/fencegen gpuprof_fencegen.ko) &&
schedmock=$(build_module selftests/schedmock gpuprof_schedmock.ko) &&
vkms=$(build_module vkms gpuprof_vkms.ko)
rc=$?
[ -n "${ko:-}" ] && printf '# vermagic: %s\n' "$(modinfo -F vermagic "$ko")" >>"$log"
echo "# exit: $rc" >>"$log"
# The log so far: the build's lines, then the VM's as they come.
cat "$log"
[ $rc = 0 ] || exit 2
# GPUPROF_DEVICE_BUILD_ONLY=1: the builds are the test (make check's
# kernels not booted, check.sh).
[ -z "${GPUPROF_DEVICE_BUILD_ONLY:-}" ] || exit 0

# Programs that need a virgl GPU (real Mesa programs, design.rst 8): they
# run in a VM of their own, booted after the plain one.
virgl_tests=" mesa_test "
tests=()
vtests=()
for t in ${GPUPROF_DEVICE_TESTS:-$(cd "$sel/out/device" && echo *_test)}; do
	case $virgl_tests in
	*" $t "*) vtests+=("$sel/out/device/$t") ;;
	*) tests+=("$sel/out/device/$t") ;;
	esac
done

jobs=${GPUPROF_VM_JOBS:-1}
case $jobs in
''|*[!0-9]*|0)
	echo "device-suite: GPUPROF_VM_JOBS=$jobs: not a number above 0" >&2
	exit 2 ;;
esac

run_vm() {	# the VM's lines on stdout; its exit status
	# A virtio-gpu (2D) for virtio_gpu_test: a third fence producer.
	GPUPROF_VM_QEMU_ARGS="-device virtio-gpu-pci" \
	GPUPROF_FENCEGEN_KO=$fencegen GPUPROF_SCHEDMOCK_KO=$schedmock \
	GPUPROF_VKMS_KO=$vkms \
		"$sel/scripts/vm/run.sh" --kver "$kver" \
		--timeout "${GPUPROF_VM_TIMEOUT:-1200}" -- \
		"$sel/scripts/vm-suite.sh" "$ko" "${tests[@]}" 2>&1
}

t0=$SECONDS
cd "$sel/.." || exit 2
rc=0
if [ ${#tests[@]} = 0 ]; then
	:
elif [ "$jobs" = 1 ]; then
	run_vm | tee -a "$log"
	rc=${PIPESTATUS[0]}
else
	# GPUPROF_VM_JOBS VMs at once, each taking the next program from a
	# queue they share (vm-suite.sh).  The terminal gets their lines as
	# they come, headed "[vmN] "; the log gets one VM's after the other.
	queue=$err_dir/queue-$kver
	rm -rf "$queue" "$queue".vm* && mkdir -p "$queue" || exit 2
	pids=()
	for i in $(seq "$jobs"); do
		(
			GPUPROF_VM_SHARE=$queue GPUPROF_VM_QUEUE=$queue run_vm |
				tee "$queue.vm$i" | sed -u "s/^/[vm$i] /"
			exit "${PIPESTATUS[0]}"
		) &
		pids+=($!)
	done
	for i in $(seq "$jobs"); do
		wait "${pids[$((i - 1))]}"
		r=$?
		[ "$r" -gt "$rc" ] && rc=$r
		cat "$queue.vm$i" >>"$log"
	done
fi
echo "# kernel $kver: device tests in $((SECONDS - t0)) s ($jobs VMs)" |
	tee -a "$log"

# The virgl VM: a failure to boot it is the suite's failure, not a skip.
if [ ${#vtests[@]} -gt 0 ]; then
	t0=$SECONDS
	GPUPROF_VM_GPU=virgl \
		"$sel/scripts/vm/run.sh" --kver "$kver" \
		--timeout "${GPUPROF_VM_TIMEOUT:-1200}" -- \
		"$sel/scripts/vm-suite.sh" "$ko" "${vtests[@]}" 2>&1 | tee -a "$log"
	r=${PIPESTATUS[0]}
	[ "$r" -gt "$rc" ] && rc=$r
	echo "# kernel $kver: virgl device tests in $((SECONDS - t0)) s" |
		tee -a "$log"
fi
exit "$rc"
