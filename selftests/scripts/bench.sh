#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench: "BENCH name value unit" lines (design.rst 9).  The
# figures that need the module come from one VM boot; the boot itself is
# the first figure.
set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
sel=$repo/selftests
kver=${KVER:-$("$sel/scripts/kver.sh")}

make -s -C "$sel"
ko=$("$sel/scripts/build-module.sh" "$kver" 2>/dev/null)
fencegen=$("$sel/scripts/build-module.sh" "$kver" selftests/fencegen 2>/dev/null)
schedmock=$("$sel/scripts/build-module.sh" "$kver" selftests/schedmock 2>/dev/null)

cd "$repo"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# A command that only exits measures the boot alone.
"$sel/scripts/vm/run.sh" --kver "$kver" -- true 2>"$out"
sed -n "s/^vm: booted in \([0-9.]*\) s (accel \([a-z]*\).*/BENCH vm_boot_to_shell_s \1 s\n# accel \2/p" "$out"

# OA decoding on this machine, on recordings from the simulator: 2 s of
# 10 us reports for the VM's ingest, 64 s (about 2.6 GB) against
# i915-perf-reader, whose start-up (timed on 1 ms of reports) must be a
# small share of its time for the ratio to compare decoding (under 5 %:
# 16 s was not enough; 1.3 % at 64 s since the bench keeps its copy of
# the file out of the reader's fork, whose page tables each fork copied).
bench=${GPUPROF_CACHE:-$repo/.deps}/bench
rec=$bench/oa.rec
mkdir -p "$bench"
rm -f "$bench/oa-large.rec"	# the 16 s one of earlier trees
make -s -C "$repo/tools/perf-gpu"
for r in oa:2 oa-64s:64 oa-tiny:0.001; do
	[ -s "$bench/${r%:*}.rec" ] ||
		"$repo/tools/perf-gpu/gpuprof-oa" --sim --period 10000 \
			--duration "${r#*:}" -o "$bench/${r%:*}.rec"
done
echo "# host:"
"$sel/out/bench/oa_decode_bench" "$bench/oa-64s.rec" \
	--startup "$bench/oa-tiny.rec"
# perf gpu report on a synthetic 10 M-event recording, against perf report.
"$sel/out/bench/report_bench" "$repo/tools/perf-gpu/out/perf-gpu"
# perf gpu top's fdinfo scan on a fake proc root of 2000 processes.
"$sel/out/bench/top_scan_bench"

# The benchmarks that need the module share one more boot.
echo "# in the VM:"
GPUPROF_KO=$ko GPUPROF_FENCEGEN_KO=$fencegen GPUPROF_SCHEDMOCK_KO=$schedmock \
	"$sel/scripts/vm/run.sh" --kver "$kver" -- sh -c '
	for b in module_load probe_overhead histogram_read; do
		"$0/out/bench/${b}_bench" || exit 1
	done
	"$0/out/bench/oa_decode_bench" "$1" --ingest
	"$0/out/bench/record_bench" "$0/../tools/perf-gpu/out/perf-gpu" \
		"$0/out/device/gpuwork" 20000' "$sel" "$rec"

# What profiling costs a real program: glmark2's score with gpuprof in
# time mode over its score without, in a virgl VM of its own.
echo "# in the virgl VM:"
GPUPROF_KO=$ko GPUPROF_VM_GPU=virgl "$sel/scripts/vm/run.sh" --kver "$kver" -- \
	"$sel/out/bench/glmark2_bench"

# The recorder's memory over a long system-wide recording of a fence
# storm (RECORD_SOAK_SECONDS, default 600), in a boot of its own.
# The file (about 4 MB a second) goes to a host directory the VM shares:
# its /tmp is in its 2 GB of RAM.
soak=${RECORD_SOAK_SECONDS:-600}
share=$bench/soak
mkdir -p "$share"
echo "# in the VM, $soak s of perf gpu record -a:"
GPUPROF_VM_SHARE=$share "$sel/scripts/vm/run.sh" --kver "$kver" \
	--timeout $((soak + 600)) -- \
	"$sel/out/bench/record_soak_bench" "$repo/tools/perf-gpu/out/perf-gpu" \
	"$sel/out/device/gpuwork" "$soak" "$share/soak.data"
# Read back on the host, where perf script is an order faster than TCG.
"$sel/out/bench/record_soak_bench" --check "$repo/tools/perf-gpu/out/perf-gpu" \
	"$share/soak.data"
