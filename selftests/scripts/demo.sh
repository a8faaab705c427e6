#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make demo: boot the test VM on the newest test kernel, with a virgl GPU
# for the real programs (design.rst 8), load gpuprof.ko and show what it
# serves.
# demo-guest.sh is the part that runs inside.
set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
sel=$repo/selftests
# The newest test kernel (7.3): the demo shows what only it has too.
kver=${KVER:-$("$sel/scripts/kvers.sh" | tail -n 1)}

make -s -C "$repo" tools
make -s -C "$sel"
ko=$("$sel/scripts/build-module.sh" "$kver" 2>/dev/null)
# The kernel's own drm_sched on a mock ring, and vkms from the kernel's
# source: the demo's real-driver part.
schedmock=$("$sel/scripts/build-module.sh" "$kver" selftests/schedmock 2>/dev/null)
vkms=$("$sel/scripts/build-vkms.sh" "$kver" 2>/dev/null)
cd "$repo"
GPUPROF_VM_GPU=virgl exec "$sel/scripts/vm/run.sh" --kver "$kver" -- \
	"$sel/scripts/demo-guest.sh" "$ko" "$schedmock" "$vkms"
