#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Print the kernels the tests boot, one a line: Debian 12's own (the one
# linux-image-amd64 depends on, 6.1), the newest installed 6.12 from
# bookworm-backports (or bookworm-security) that has its headers, and the
# newest 7.3 that set-up unpacked under $GPUPROF_CACHE/kernels with its
# headers in the Debian 13 build root (setup.sh, "The third test kernel").
#
# KVERS narrows the list: words matched against each version as a prefix
# ("6.1", "6.12", "6.12.117+deb12-amd64"), e.g. KVERS=6.12 make check.
# A word that matches none of the installed test kernels is an error.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
cache=${GPUPROF_CACHE:-$(cd "$here/../.." && pwd)/.deps}

second_kernel() {
	local f v best=
	for f in /boot/vmlinuz-6.12.*-amd64; do
		[ -e "$f" ] || continue
		v=${f#/boot/vmlinuz-}
		case $v in *-rt-amd64|*-cloud-amd64) continue ;; esac
		[ -d "/lib/modules/$v" ] && [ -d "/usr/src/linux-headers-$v" ] || continue
		best=$(printf '%s\n%s\n' "$best" "$v" | sed '/^$/d' | sort -V | tail -n 1)
	done
	[ -z "$best" ] || echo "$best"
}

third_kernel() {
	local d v best=
	for d in "$cache"/kernels/7.3.*-amd64; do
		v=${d##*/}
		[ -e "$d/boot/vmlinuz-$v" ] && [ -d "$d/lib/modules/$v" ] &&
			[ -d "$cache/trixie-root/usr/src/linux-headers-$v" ] || continue
		best=$(printf '%s\n%s\n' "$best" "$v" | sed '/^$/d' | sort -V | tail -n 1)
	done
	[ -z "$best" ] || echo "$best"
}

all=$( { "$here/kver.sh"; echo; second_kernel; third_kernel; } | sed '/^$/d')
if [ -z "${KVERS:-}" ]; then
	printf '%s\n' "$all"
	exit 0
fi
for want in $KVERS; do
	hit=
	for v in $all; do
		# "6.1" must not pick 6.12: the prefix ends at a dot, a dash
		# or the end of the version.
		case $v in "$want"|"$want".*|"$want"-*) echo "$v"; hit=1 ;; esac
	done
	[ -n "$hit" ] || { echo "kvers: no test kernel matches '$want' (have: $(echo $all))" >&2; exit 1; }
done
