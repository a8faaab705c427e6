#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# in-build-root.sh COMMAND [ARGS...]: run COMMAND in the Debian 13 build
# root setup.sh made ($GPUPROF_CACHE/trixie-root), where the 7.3 test
# kernel's headers and gcc-14 are, with the repository and the cache
# mounted at their own paths (and the directories in GPUPROF_ROOT_BINDS,
# space-separated) and /proc mounted, in a mount namespace of its own
# (nothing stays mounted after).  Needs root, as chroot does.
set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
cache=$(mkdir -p "${GPUPROF_CACHE:-$repo/.deps}" && cd "${GPUPROF_CACHE:-$repo/.deps}" && pwd)
root=$cache/trixie-root

[ -f "$root/.gpuprof-root" ] ||
	{ echo "in-build-root: no build root at $root: run selftests/setup.sh as root" >&2; exit 1; }
[ "$(id -u)" = 0 ] ||
	{ echo "in-build-root: building in $root needs root (chroot)" >&2; exit 1; }

# The script run in the namespace: bind the paths, mount /proc, chroot.
exec unshare -m -- /bin/sh -euc '
	root=$1 repo=$2 cache=$3 binds=$4
	shift 4
	for d in "$repo" "$cache" $binds; do
		mkdir -p "$root$d"
		mount --bind "$d" "$root$d"
	done
	mount -t proc proc "$root/proc"
	exec chroot "$root" env -i PATH=/usr/bin:/bin HOME=/root LC_ALL=C.UTF-8 "$@"
' in-build-root "$root" "$repo" "$cache" "${GPUPROF_ROOT_BINDS:-}" "$@"
