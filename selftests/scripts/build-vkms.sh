#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# build-vkms.sh KVER: build vkms, the kernel's virtual KMS driver, as the
# test module gpuprof_vkms.ko for kernel KVER, and print its path.
# Debian builds its kernels without CONFIG_DRM_VKMS, so the driver's
# sources come from the linux-source-MAJOR.MINOR package of the same
# kernel (installed by setup.sh): drivers/gpu/drm/vkms/ is extracted from
# its tarball once into $GPUPROF_CACHE/vkms-src/MAJOR.MINOR, and
# extracted again only when the package changes.  The module is built in
# $GPUPROF_CACHE/build/KVER/vkms against /usr/src/linux-headers-KVER, or
# in the Debian 13 build root for a kernel whose headers and source are
# there (7.3: setup.sh, "The third test kernel"; in-build-root.sh).
#
# The module is named gpuprof_vkms so that it can never be taken for a
# vkms.ko of the kernel's own: tests load it by path (finit_module) and
# unload it by that name.  Its DRM driver is still called "vkms".
set -eu

kver=$1
repo=$(cd "$(dirname "$0")/../.." && pwd)
cache=${GPUPROF_CACHE:-$repo/.deps}
# GPUPROF_KDIR: another kernel tree (debug-kernel.sh's object tree).
kdir=${GPUPROF_KDIR:-/usr/src/linux-headers-$kver}
# 6.1.0-57-amd64 -> 6.1, 6.12.117+deb12-amd64 -> 6.12
series=$(echo "$kver" | sed -E 's/^([0-9]+\.[0-9]+).*/\1/')
pkg=linux-source-$series
tarball=/usr/src/$pkg.tar.xz
src=$cache/vkms-src/$series
out=$cache/build/$kver/vkms

die() { echo "build-vkms: $*" >&2; exit 1; }

# 7.3's source is in the Debian 13 build root (setup.sh), beside its
# headers; its debug kernel's tree is on the machine (debug-kernel.sh).
root=$cache/trixie-root
in_root=
if [ ! -r "$tarball" ] && [ -r "$root$tarball" ]; then
	in_root=1
	tarball=$root$tarball
fi
# Package versions from the system the headers and source are in.
dpkg_version() {
	dpkg-query ${in_root:+--admindir="$root/var/lib/dpkg"} -W -f='${Version}' "$1" 2>/dev/null
}

[ -d "$kdir" ] || [ -d "$root$kdir" ] || die "no headers at $kdir"
[ -r "$tarball" ] || die "no $tarball (selftests/setup.sh installs $pkg)"

# The stamp names the package version, so an upgraded tarball is
# extracted again and an unchanged one never.
srcver=$(dpkg_version "$pkg") ||
	srcver=$(stat -c %Y-%s "$tarball")
stamp=$src/.extracted-$srcver
if [ ! -f "$stamp" ]; then
	echo "build-vkms: extracting drivers/gpu/drm/vkms from $tarball" >&2
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xJf "$tarball" -C "$src.tmp" --strip-components=5 \
		"$pkg/drivers/gpu/drm/vkms"
	touch "$src.tmp/.extracted-$srcver"
	mv "$src.tmp" "$src"
fi

# A driver from another stable release than the kernel's may not match
# the DRM core's structures: say so (the build may still succeed).
hdrver=$(dpkg_version "linux-headers-$kver") || hdrver=
if [ -n "$hdrver" ] && [ "$hdrver" != "$srcver" ]; then
	echo "build-vkms: note: $pkg is $srcver, linux-headers-$kver is $hdrver" >&2
fi

mkdir -p "$out"
find "$out" -maxdepth 1 -type l -delete
for f in "$src"/*.[ch] "$src"/Makefile; do
	ln -s "$f" "$out/$(basename "$f")"
done
# The driver's own Makefile lists its objects (vkms-y); it is read for
# that list only, and the module takes our name.
cat >"$out/Kbuild" <<'EOF'
# SPDX-License-Identifier: GPL-2.0-only
include $(src)/Makefile
obj-m := gpuprof_vkms.o
gpuprof_vkms-y := $(vkms-y)
EOF
# The kernel's own compiler (7.3's is in the build root: kmake.sh).
"$repo/selftests/scripts/kmake.sh" "$kdir" -s M="$out" modules >&2
ls "$out"/gpuprof_vkms.ko
