#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# vm-suite.sh KO TEST...: run inside the test VM.  Runs each device test
# program with GPUPROF_KO=KO and prints its TAP output, each program's
# output headed by "# program: NAME" and closed by "# exit: STATUS", which
# tap-summary.sh reads.
ko=$1
shift
export GPUPROF_KO="$ko"
# Sanitizer reports go to stderr, which the runner shows; fail hard on them.
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
status=0
for t in "$@"; do
	echo "# program: $(basename "$t")"
	"$t"
	rc=$?
	echo "# exit: $rc"
	[ $rc -eq 0 ] || status=1
	# Whatever a failed test left behind must not spoil the next program.
	grep -q '^gpuprof ' /proc/modules && rmmod gpuprof 2>/dev/null
	# A test that unloads vgem and fails before loading it again.
	grep -q '^vgem ' /proc/modules || modprobe vgem
done
exit $status
