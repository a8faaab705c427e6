#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# mkinitramfs.sh KVER OUTPUT [ROOT]
#
# Builds the test VM's initramfs (an uncompressed newc cpio): busybox-static,
# ./init, and the virtio_pci / 9pnet_virtio / 9p modules of kernel KVER with
# their dependencies, decompressed, listed in load order in /modules.order.
# Modules built into KVER are simply not included.  The modules are those
# of ROOT/lib/modules/KVER (default: the host's /lib/modules/KVER).
set -eu -o pipefail

kver=$1
out=$2
root=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
busybox=/bin/busybox
mods="virtio_pci 9pnet_virtio 9p"

[ -d "$root/lib/modules/$kver" ] || { echo "mkinitramfs: no $root/lib/modules/$kver" >&2; exit 1; }
# A dynamically linked busybox would need its libraries in the initramfs.
if command -v file >/dev/null && ! file -L "$busybox" | grep -q 'statically linked'; then
	echo "mkinitramfs: $busybox is not static (apt-get install busybox-static)" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"/{bin,dev,proc,newroot,lib/modules}
cp "$busybox" "$tmp/bin/busybox"
for a in sh mount insmod mkdir cp switch_root; do
	ln -s busybox "$tmp/bin/$a"
done
install -m 755 "$here/init" "$tmp/init"

# modprobe --show-depends prints "insmod PATH" per module, dependencies
# first, or "builtin NAME" for built-in ones.  Keep the first occurrence.
: >"$tmp/modules.order"
for m in $mods; do
	modprobe -d "${root:-/}" -S "$kver" --show-depends "$m"
done | while read -r kind path _; do
	[ "$kind" = insmod ] || continue
	name=$(basename "$path")
	name=${name%.xz}; name=${name%.zst}; name=${name%.gz}
	grep -qxF "$name" "$tmp/modules.order" && continue
	case $path in
	*.ko.xz)  xz -dc "$path" ;;
	*.ko.zst) zstd -qdc "$path" ;;
	*.ko.gz)  gzip -dc "$path" ;;
	*.ko)     cat "$path" ;;
	*) echo "mkinitramfs: unexpected module $path" >&2; exit 1 ;;
	esac >"$tmp/lib/modules/$name"
	echo "$name" >>"$tmp/modules.order"
done

# Uncompressed: saves the kernel decompressing it, noticeable under TCG.
(cd "$tmp" && find . | LC_ALL=C sort | cpio --quiet -o -H newc) >"$out.tmp.$$"
mv -f "$out.tmp.$$" "$out"
