#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench: "BENCH name value unit" lines (DESIGN.md section 9).  The
# figures that need the module come from one VM boot; the boot itself is
# the first figure.
set -eu

repo=$(cd "$(dirname "$0")/.." && pwd)
sel=$repo/selftests
kver=${KVER:-$("$sel/kver.sh")}

make -s -C "$sel"
ko=$("$sel/build-module.sh" "$kver" 2>/dev/null)
fencegen=$("$sel/build-module.sh" "$kver" selftests/fencegen 2>/dev/null)

cd "$repo"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# A command that only exits measures the boot alone.
"$sel/vm/run.sh" --kver "$kver" -- true 2>"$out"
sed -n "s/^vm: booted in \([0-9.]*\) s (accel \([a-z]*\).*/BENCH vm_boot_to_shell_s \1 s\n# accel \2/p" "$out"

# The benchmarks that need the module share one more boot.
GPUPROF_KO=$ko GPUPROF_FENCEGEN_KO=$fencegen \
	"$sel/vm/run.sh" --kver "$kver" -- sh -c '
	for b in "$0"/out/bench/*_bench; do "$b" || exit 1; done' "$sel"
