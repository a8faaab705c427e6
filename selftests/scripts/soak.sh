#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make soak [SOAK_SECONDS=600] [KVERS=...]: for each test kernel
# (kvers.sh; KVERS narrows the list), build the module and the fencegen
# test module as check.sh does, boot the test VM once with slub_debug=FZP
# (red zones, poisoning and sanity checks on every slab object, corruption
# reported in dmesg; module caches unmerged, so a leak in one shows at
# unload) and run device/soak_test for SOAK_SECONDS.  Ends with one plain
# line per kernel:
#
#   soak KVER: PASS|FAIL ..., <the test's figures>, N s in the VM
#
# Exit status 0 only when every kernel passed: no failed assertion, no
# kernel warning in the VM (run.sh's 125), no timeout, no build warning.
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
sel=$repo/selftests
logs=$sel/out/logs
secs=${SOAK_SECONDS:-600}
case $secs in
''|*[!0-9]*|0) echo "soak: SOAK_SECONDS must be a whole number of seconds" >&2; exit 2 ;;
esac
kvers=$("$sel/scripts/kvers.sh") || exit 1
mkdir -p "$logs"
make -s -C "$sel" out/device/soak_test out/device/gpuwork || exit 1

cd "$repo" || exit 1
status=0
lines=()
for kver in $kvers; do
	log=$logs/soak-$kver.log
	err=$logs/soak-$kver-build.err
	if ! ko=$("$sel/scripts/build-module.sh" "$kver" 2>"$err") ||
	   ! fencegen=$("$sel/scripts/build-module.sh" "$kver" selftests/fencegen 2>>"$err") ||
	   ! schedmock=$("$sel/scripts/build-module.sh" "$kver" selftests/schedmock 2>>"$err") ||
	   grep -q 'warning:' "$err"; then
		lines+=("soak $kver: FAIL, the modules do not build cleanly ($err)")
		status=1
		continue
	fi
	t0=$SECONDS
	GPUPROF_VM_APPEND=slub_debug=FZP GPUPROF_SOAK_SECONDS=$secs \
	GPUPROF_FENCEGEN_KO=$fencegen GPUPROF_SCHEDMOCK_KO=$schedmock \
	"$sel/scripts/vm/run.sh" --kver "$kver" \
		--timeout $((secs * 2 + 600)) -- \
		"$sel/scripts/vm-suite.sh" "$ko" "$sel/out/device/soak_test" 2>&1 |
		tee "$log"
	rc=${PIPESTATUS[0]}
	figures=$(sed -n 's/^# soak summary: //p' "$log" | tail -n 1)
	verdict=PASS
	if [ "$rc" != 0 ]; then
		verdict="FAIL (exit $rc, log $log)"
		status=1
	fi
	lines+=("soak $kver: $verdict, ${figures:-no figures}, $((SECONDS - t0)) s in the VM")
done
printf '%s\n' "${lines[@]}"
exit $status
