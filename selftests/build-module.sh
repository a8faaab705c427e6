#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# build-module.sh KVER: build gpuprof.ko for kernel KVER in its own
# directory, $GPUPROF_CACHE/build/KVER, and print the module's path.
# Kbuild puts objects beside the sources, so the directory mirrors the
# sources as symlinks: builds for several kernels never mix objects.
set -eu

kver=$1
repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${GPUPROF_CACHE:-$repo/.deps}
kdir=/usr/src/linux-headers-$kver
out=$cache/build/$kver

[ -d "$kdir" ] || { echo "build-module: no headers at $kdir" >&2; exit 1; }
mkdir -p "$out"
# Re-mirror each time: sources may have been added or removed.  Only the
# sources: an in-tree build's objects must not leak in.
find "$out" -type l -delete
(cd "$repo" && find Kbuild module uapi -name Kbuild -o -name '*.[ch]') |
while read -r f; do
	mkdir -p "$out/$(dirname "$f")"
	ln -s "$repo/$f" "$out/$f"
done
make -s -C "$kdir" M="$out" modules >&2
echo "$out/gpuprof.ko"
