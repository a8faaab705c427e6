#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# build-module.sh KVER [DIR]: build the module whose Kbuild is in DIR (a
# path in the repository; default ".", gpuprof.ko) for kernel KVER in a
# directory of its own, $GPUPROF_CACHE/build/KVER/DIR (KVER/gpuprof for
# "."), and print the module's path.  Kbuild puts objects beside the
# sources, so that directory mirrors the sources as symlinks: builds for
# several kernels never mix objects.
set -eu

kver=$1
dir=${2:-.}
repo=$(cd "$(dirname "$0")/../.." && pwd)
cache=${GPUPROF_CACHE:-$repo/.deps}
# GPUPROF_KDIR: another kernel tree (debug-kernel.sh's object tree).
kdir=${GPUPROF_KDIR:-/usr/src/linux-headers-$kver}
# Side by side, never nested: Kbuild's modules build of a directory
# reaches into the ones below it.
if [ "$dir" = . ]; then
	out=$cache/build/$kver/gpuprof
else
	out=$cache/build/$kver/$dir
fi

# A kernel of Debian 13 (7.3) is built in its build root, by the
# compiler it was built with (kmake.sh).
root=$cache/trixie-root
[ -d "$kdir" ] || [ -d "$root$kdir" ] ||
	{ echo "build-module: no headers at $kdir" >&2; exit 1; }
mkdir -p "$out"
# Re-mirror each time: sources may have been added or removed.  Only the
# sources: an in-tree build's objects must not leak in.
find "$out" -type l -delete
if [ "$dir" = . ]; then
	sources="Kbuild module uapi"
else
	sources=$dir
fi
(cd "$repo" && find $sources -name Kbuild -o -name '*.[ch]') |
while read -r f; do
	f=${f#"$dir"/}
	mkdir -p "$out/$(dirname "$f")"
	ln -s "$repo/$dir/$f" "$out/$f"
done
"$repo/selftests/scripts/kmake.sh" "$kdir" -s M="$out" modules >&2
ls "$out"/*.ko
