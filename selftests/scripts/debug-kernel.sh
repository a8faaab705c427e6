#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# debug-kernel.sh [SERIES]: build the debug kernel of `make check-debug`
# (lockdep, KASAN, kmemleak, fault injection, UBSAN; see
# Documentation/testing.rst) from Debian's linux-source-SERIES package
# (SERIES 6.1, 6.12 or 7.3, default 6.1), and print the directory it is
# installed in:
#
#   DIR/kver                     the kernel's release string
#   DIR/root/boot/vmlinuz-KVER   the kernel, and its config-KVER
#   DIR/root/lib/modules/KVER    its modules (vgem, drm_sched, ...)
#   DIR/build                    the object tree: the KDIR that
#                                out-of-tree modules are built against
#
# The kernel is configured from allnoconfig plus selftests/debug-kernel/
# debug.config (and debug-SERIES.config when there is one).  7.3 is built
# in the Debian 13 build root (in-build-root.sh) with gcc-14, its
# compiler, from the linux-source-7.3 that setup.sh installed there; the
# root gets the kernel's build tools (flex, bison, bc, libelf) the first
# time.  It is built
# once and cached outside the clone, in $GPUPROF_DEBUG_CACHE (default
# /var/cache/gpuprof/debug-kernel), keyed by the source package's version
# and a hash of the fragments and of this script: a clean clone reuses
# it, a changed fragment builds anew.  A line per minute says how far the
# build is; the last one gives the build time.
set -eu -o pipefail

series=${1:-6.1}
repo=$(cd "$(dirname "$0")/../.." && pwd)
fragdir=$repo/selftests/debug-kernel
croot=${GPUPROF_DEBUG_CACHE:-/var/cache/gpuprof/debug-kernel}
pkg=linux-source-$series
tarball=/usr/src/$pkg.tar.xz
jobs=$(nproc)

die() { echo "debug-kernel: $*" >&2; exit 1; }
say() { echo "debug-kernel: $series: $*" >&2; }

cache=$(mkdir -p "${GPUPROF_CACHE:-$repo/.deps}" && cd "${GPUPROF_CACHE:-$repo/.deps}" && pwd)
build_root=$cache/trixie-root
# in_root: 1 when the kernel is built in the build root.
in_root=
case $series in
6.1|6.12) ;;
7.3)
	tarball=$build_root$tarball
	in_root=1
	;;
*) die "SERIES is 6.1, 6.12 or 7.3, not '$series'" ;;
esac
[ -r "$tarball" ] || die "no $tarball (selftests/setup.sh installs $pkg)"

# make in the kernel's own tool chain: the machine's, or the build
# root's (kmake.sh), with the tree's directory mounted there.
kmake() {
	local src=$1
	shift
	GPUPROF_KMAKE_ROOT=$in_root "$repo/selftests/scripts/kmake.sh" "$src" "$@"
}

# The build root has a compiler, not the kernel's other build tools.
root_tools() {
	local missing
	[ -n "$in_root" ] || return 0
	missing=$(chroot "$build_root" dpkg-query -W -f='${db:Status-Status}\n' \
		flex bison bc libelf-dev libssl-dev 2>&1 | grep -cvx installed) || true
	[ "$missing" = 0 ] && return 0
	say "installing the kernel's build tools in $build_root"
	cp /etc/resolv.conf "$build_root/etc/resolv.conf"
	chroot "$build_root" env DEBIAN_FRONTEND=noninteractive LC_ALL=C \
		apt-get install -y -q --no-install-recommends \
		flex bison bc libelf-dev libssl-dev >&2
}

frags=("$fragdir/debug.config")
[ -e "$fragdir/debug-$series.config" ] && frags+=("$fragdir/debug-$series.config")

# allnoconfig with the fragments as the values to keep: Kconfig resolves
# the dependencies, and a line it had to drop is an error, not a surprise
# in the middle of the tests.
configure() {
	local line sym bad=0

	cat "${frags[@]}" >"$dir/fragment.config"
	kmake "$dir/src" -s O="$dir/build" \
		KCONFIG_ALLCONFIG="$dir/fragment.config" allnoconfig >&2
	while IFS= read -r line; do
		case $line in ''|'#'*) continue ;; esac
		sym=${line%%=*}
		# Gone from this series' Kconfig (SCHED_DEBUG in 6.15): said.
		if ! grep -rqxE --include='Kconfig*' "(menu)?config ${sym#CONFIG_}" "$dir/src"; then
			echo "debug-kernel: $sym: no such option in $series" >&2
			continue
		fi
		if [ "${line#*=}" = n ]; then
			grep -qx "# $sym is not set" "$dir/build/.config" && continue
			grep -q "^$sym=" "$dir/build/.config" || continue
		else
			grep -qxF "$line" "$dir/build/.config" && continue
		fi
		echo "debug-kernel: $line did not survive Kconfig:" \
			"$(grep "^$sym=\|^# $sym is not set" "$dir/build/.config" || echo absent)" >&2
		bad=1
	done <"$dir/fragment.config"
	[ $bad = 0 ] || die "fix the fragment (selftests/debug-kernel/)"
}

srcver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) ||
	srcver=$(stat -c %Y-%s "$tarball")
hash=$(cat "${frags[@]}" | sha256sum | cut -c1-12)
dir=$croot/$series-$srcver-$hash
if [ -e "$dir/.done" ]; then
	echo "$dir"
	exit 0
fi

mkdir -p "$croot"
exec 9>"$croot/.lock-$series"
flock 9
if [ -e "$dir/.done" ]; then	# built by another run meanwhile
	echo "$dir"
	exit 0
fi

root_tools
t0=$SECONDS
# A build cut short (a killed run, a lost session) goes on where it
# stopped: same sources, same configuration, make builds what is missing.
if [ -e "$dir/.configured" ]; then
	say "going on with the build in $dir"
else
	rm -rf "$dir"
	mkdir -p "$dir/build" "$dir/root/boot"
	say "extracting $tarball"
	tar -xJf "$tarball" -C "$dir"
	mv "$dir/$pkg" "$dir/src"
	configure
	touch "$dir/.configured"
fi
kver=$(kmake "$dir/src" -s O="$dir/build" kernelrelease)

say "building $kver with $jobs jobs in $dir/build"
kmake "$dir/src" O="$dir/build" -j"$jobs" bzImage modules \
	>"$dir/build.log" 2>&1 &
mpid=$!
# One progress line a minute: the objects built so far.
while kill -0 "$mpid" 2>/dev/null; do
	for _ in $(seq 60); do
		kill -0 "$mpid" 2>/dev/null || break
		sleep 1
	done
	kill -0 "$mpid" 2>/dev/null || break
	n=$(find "$dir/build" -name '*.o' | wc -l)
	say "$(((SECONDS - t0) / 60)) min, $n objects built"
done
if ! wait "$mpid"; then
	tail -n 30 "$dir/build.log" >&2
	die "build failed (log: $dir/build.log)"
fi

kmake "$dir/src" -s O="$dir/build" INSTALL_MOD_PATH="$dir/root" \
	modules_install >&2
depmod -b "$dir/root" "$kver"
cp "$dir/build/arch/x86/boot/bzImage" "$dir/root/boot/vmlinuz-$kver"
cp "$dir/build/.config" "$dir/root/boot/config-$kver"
echo "$kver" >"$dir/kver"
# The sources stay: the object tree's Makefile points at them, and
# out-of-tree modules are built against it.
echo $((SECONDS - t0)) >"$dir/build-seconds"
touch "$dir/.done"
say "built in $(((SECONDS - t0) / 60)) min $(((SECONDS - t0) % 60)) s"

# Older builds of this series (another package version or fragment).
for old in "$croot/$series-"*; do
	[ "$old" = "$dir" ] || rm -rf "$old"
done
echo "$dir"
