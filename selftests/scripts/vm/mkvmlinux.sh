#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# mkvmlinux.sh BZIMAGE OUTPUT
#
# Extracts the uncompressed ELF vmlinux from a bzImage.  QEMU boots such an
# ELF directly through its PVH entry point (CONFIG_PVH), which skips the
# in-guest decompressor: that alone takes ~3 s of a ~7 s boot under TCG.
# Exits non-zero if no payload could be found; the caller then boots the
# bzImage.
set -eu

in=$1
out=$2
tmp=$out.tmp.$$
trap 'rm -f "$tmp"' EXIT

is_elf() { [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = 177ELF ]; }

# try MAGIC DECOMPRESSOR...: decompress from each of the first offsets where
# MAGIC occurs; trailing bytes make some decompressors complain, so judge by
# the result rather than the exit status.
try() {
	local magic=$1 off
	shift
	for off in $(LC_ALL=C grep -obUaP "$magic" "$in" | head -n 3 | cut -d: -f1); do
		tail -c +$((off + 1)) "$in" | "$@" >"$tmp" 2>/dev/null || true
		if [ -s "$tmp" ] && is_elf "$tmp"; then
			mv -f "$tmp" "$out"
			exit 0
		fi
	done
}

try '\xfd7zXZ\x00' xz -dc --single-stream
try '\x28\xb5\x2f\xfd' zstd -dc
try '\x1f\x8b\x08' gzip -dc
exit 1
