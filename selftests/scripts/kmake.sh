#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kmake.sh KDIR [MAKE ARGS...]: make -C KDIR MAKE ARGS... with the compiler
# the kernel tree KDIR was (or is to be) built with.  The machine's make
# and gcc, unless the tree is one of Debian 13's: headers installed in the
# Debian 13 build root (7.3: setup.sh, "The third test kernel"), or a tree
# on the machine whose .config names gcc-14 (debug-kernel.sh's 7.3 tree),
# or GPUPROF_KMAKE_ROOT=1 (debug-kernel.sh configuring one).  Those are
# built in the root (in-build-root.sh), the tree's top directory mounted
# there at its own path beside the repository and the cache.
set -eu

kdir=$1
shift
repo=$(cd "$(dirname "$0")/../.." && pwd)
cache=${GPUPROF_CACHE:-$repo/.deps}
root=$cache/trixie-root

# The compiler a configured tree on the machine names, e.g. "gcc-14".
tree_cc() {
	[ -f "$kdir/.config" ] || return 0
	sed -n 's/^CONFIG_CC_VERSION_TEXT="\([^ ]*\).*/\1/p' "$kdir/.config"
}

if [ ! -d "$kdir" ] && [ -d "$root$kdir" ]; then
	exec "$repo/selftests/scripts/in-build-root.sh" make -C "$kdir" "$@"
fi
cc=$(tree_cc)
if [ "${GPUPROF_KMAKE_ROOT:-}" = 1 ] ||
   { [ "$cc" = gcc-14 ] && ! command -v gcc-14 >/dev/null; }; then
	# The tree's parent: debug-kernel.sh keeps src/ and build/ side by side.
	GPUPROF_ROOT_BINDS=$(cd "$kdir/.." && pwd) \
		exec "$repo/selftests/scripts/in-build-root.sh" \
		make -C "$kdir" CC=gcc-14 HOSTCC=gcc-14 "$@"
fi
exec make -C "$kdir" "$@"
