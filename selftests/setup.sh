#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# One set-up step for the demo and the tests: install the Debian packages
# gpuprof needs, then build libperf and libsubcmd from the linux-source-6.1
# tarball and take the kselftest harness from it, and scripts/kernel-doc
# from linux-source-6.12's, all into a project-local prefix
# ($GPUPROF_CACHE, default <repo>/.deps).  Idempotent: when nothing
# is missing it downloads nothing and returns in well under a second.
set -eu

repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${GPUPROF_CACHE:-$repo/.deps}
srcver=6.1
tarball=/usr/src/linux-source-$srcver.tar.xz

# Packages by what needs them; kept in one list so the check below and the
# install agree.
packages="
	build-essential pkg-config bison flex bc libelf-dev python3
	linux-headers-amd64 linux-image-amd64 linux-source-$srcver kmod
	qemu-system-x86 busybox-static cpio xz-utils zstd
	libtraceevent-dev libdrm-dev linux-perf intel-gpu-tools
	chromium zlib1g-dev tmux
	python3-docutils python3-sphinx man-db
	dkms udev systemd
	clang libclang-rt-14-dev
	qemu-system-gui xvfb xauth kmscube glmark2-es2-drm
	libgl1-mesa-dri libegl-dev libgles-dev libgbm-dev
	debootstrap protobuf-compiler
"

log() { echo "setup: $*" >&2; }

# apt-get update at most once a run: a fresh Debian 12 has empty lists.
updated=0
apt_update() {
	[ $updated = 1 ] && return 0
	apt-get update -q
	updated=1
}

missing_packages() {
	local p
	for p in $packages; do
		dpkg-query -W -f='${db:Status-Status}\n' "$p" 2>/dev/null |
			grep -qx installed || echo "$p"
	done
}

install_packages() {
	local missing
	missing=$(missing_packages)
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" != 0 ]; then
		log "missing packages:" $missing
		log "run this script as root once to install them"
		exit 1
	fi
	log "installing:" $missing
	apt_update
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends $missing
}

# The parts of the kernel source tree we use: tools/ (libperf, libapi,
# libsubcmd, the kselftest harness) and checkpatch.pl with its data files.
extract_source() {
	local dst=$cache/src
	[ -f "$dst/.extracted-$srcver" ] && return 0
	log "extracting tools/ and checkpatch from $tarball"
	rm -rf "$dst"
	mkdir -p "$dst"
	tar -xJf "$tarball" -C "$dst" --strip-components=1 \
		"linux-source-$srcver/tools" \
		"linux-source-$srcver/scripts/checkpatch.pl" \
		"linux-source-$srcver/scripts/spelling.txt" \
		"linux-source-$srcver/scripts/const_structs.checkpatch"
	touch "$dst/.extracted-$srcver"
}

# libperf (with the libapi it depends on) and libsubcmd as static
# libraries, installed with their headers and libperf.pc under $cache/prefix.
build_libs() {
	local src=$cache/src prefix=$cache/prefix
	# The stamp and the libraries: Kbuild's "make clean M=..." of a tree
	# that holds .deps deletes every *.a under it.
	[ -f "$prefix/.built-$srcver" ] && [ -f "$prefix/lib/libperf.a" ] &&
		[ -f "$prefix/lib/libapi.a" ] && [ -f "$prefix/lib/libsubcmd.a" ] &&
		return 0
	log "building libperf, libapi and libsubcmd"
	rm -rf "$prefix"
	make -s -j"$(nproc)" -C "$src/tools/lib/perf" prefix="$prefix" libdir_relative=lib \
		install_lib install_headers install_pkgconfig >/dev/null
	install -m 644 "$src/tools/lib/api/libapi.a" "$prefix/lib/"
	# Static only: perf-gpu must not depend on a library outside the system.
	rm -f "$prefix"/lib/libperf.so*
	make -s -j"$(nproc)" -C "$src/tools/lib/subcmd" prefix="$prefix" \
		libdir_relative=lib install >/dev/null
	touch "$prefix/.built-$srcver"
}

# The kernel's scripts/kernel-doc, for the documentation (make htmldocs)
# and make lint: Documentation/Makefile takes it from linux-source-6.12
# into $cache once; here so that the first build need not.
extract_kerneldoc() {
	[ -f /usr/src/linux-source-6.12.tar.xz ] || return 0
	make -s -C "$repo/Documentation" kernel-doc GPUPROF_CACHE="$cache"
}

install_harness() {
	local inc=$cache/include sel=$cache/src/tools/testing/selftests
	[ -f "$inc/kselftest_harness.h" ] && return 0
	mkdir -p "$inc"
	install -m 644 "$sel/kselftest_harness.h" "$sel/kselftest.h" "$inc/"
}

# The second test kernel (issue 10): Debian's 6.12 for bookworm, from
# bookworm-backports.  That suite is enabled for these packages only:
# apt gives backports priority 100 (NotAutomatic + ButAutomaticUpgrades),
# so nothing else on the machine is installed or upgraded from it unless
# named, as here.  The newest 6.12 whose image and headers both exist is
# taken once; later runs keep it (kvers.sh finds it), so nothing is
# downloaded again.
backports=/etc/apt/sources.list.d/gpuprof-backports.sources

# The package that installs the image of kernel $1: Debian's signed
# linux-image-$1 when the suite has it, else the -unsigned build of the
# same kernel (bookworm-security ships some 6.12 updates only unsigned,
# and then linux-image-$1 is a name with no candidate).  Both put the same
# /boot/vmlinuz-$1 and /lib/modules/$1 in place.
image_package() {
	local p
	for p in "linux-image-$1" "linux-image-$1-unsigned"; do
		apt-cache policy "$p" 2>/dev/null |
			grep -q '^  Candidate: [^(]' && { echo "$p"; return 0; }
	done
	return 1
}

newest_612() {
	apt-cache search --names-only '^linux-headers-6\.12\.[0-9]+\+deb12-amd64$' |
		cut -d' ' -f1 | sed 's/^linux-headers-//' | sort -rV |
		while read -r v; do
			image_package "$v" >/dev/null && { echo "$v"; break; }
		done
}

install_second_kernel() {
	local v mirror
	[ "$(KVERS=6.12 "$repo/selftests/scripts/kvers.sh" 2>/dev/null)" ] && return 0
	if [ "$(id -u)" != 0 ]; then
		log "the 6.12 test kernel is missing; run this script as root once"
		exit 1
	fi
	if [ ! -e "$backports" ]; then
		# The same mirror as the machine's bookworm main.
		mirror=$(apt-get indextargets --format '$(REPO_URI)' \
			'Release: bookworm' 'Created-By: Packages' | head -n 1)
		if [ -z "$mirror" ]; then
			log "no bookworm entry in apt's sources to take the mirror from"
			exit 1
		fi
		cat >"$backports" <<-EOT
		Types: deb
		URIs: $mirror
		Suites: bookworm-backports
		Components: main
		Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
		EOT
		updated=0
	fi
	apt_update
	v=$(newest_612)
	if [ -z "$v" ]; then
		log "no linux-image-6.12.*+deb12-amd64 with headers in the package lists"
		exit 1
	fi
	log "installing the second test kernel $v ($(image_package "$v"))"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "$(image_package "$v")" "linux-headers-$v" pahole
}

# The source of the 6.12 test kernel, of the same Debian version as its
# image and from the same suite: vkms, which Debian does not build, is
# built from it as a test module (scripts/build-vkms.sh); 6.1's source is
# in the package list above.
install_second_source() {
	local v ver
	v=$(KVERS=6.12 "$repo/selftests/scripts/kvers.sh" 2>/dev/null) || return 0
	# The image is linux-image-$v or its -unsigned twin: the one installed.
	ver=$(dpkg-query -W -f='${db:Status-Status} ${Version}\n' "linux-image-$v" \
		"linux-image-$v-unsigned" 2>/dev/null | sed -n 's/^installed //p' | head -n 1)
	[ "$(dpkg-query -W -f='${db:Status-Status} ${Version}' linux-source-6.12 \
		2>/dev/null)" = "installed $ver" ] && return 0
	if [ "$(id -u)" != 0 ]; then
		log "linux-source-6.12 $ver is missing; run this script as root once"
		exit 1
	fi
	log "installing linux-source-6.12 $ver"
	apt_update
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "linux-source-6.12=$ver"
}

# The third test kernel (issue 37): Debian 13's 7.3 from trixie-backports,
# the kernel line users with new GPUs run.  Debian built it with gcc-14,
# which bookworm lacks, and its headers ask for that compiler, so modules
# for it are built in a Debian 13 root made here with debootstrap
# ($build_root; trixie-backports is enabled in it, never on the machine),
# where its headers and source are installed.  The kernel's own packages
# are unpacked, not installed, into $cache/kernels/KVER (boot/ and
# lib/modules/, depmod run there), which the VM runner boots as a --root
# kernel.  Nothing of Debian 13 is installed on the machine itself.  The
# newest 7.3 whose headers exist is taken once; later runs keep it.
third_series=7.3
build_root=$cache/trixie-root
# What the root is made with; a change rebuilds it.
root_spec="trixie minbase gcc-14 make libc6-dev ca-certificates"

bookworm_mirror() {
	apt-get indextargets --format '$(REPO_URI)' \
		'Release: bookworm' 'Created-By: Packages' | head -n 1
}

in_root() {
	chroot "$build_root" env DEBIAN_FRONTEND=noninteractive LC_ALL=C "$@"
}

install_build_root() {
	local stamp=$build_root/.gpuprof-root mirror
	[ "$(cat "$stamp" 2>/dev/null)" = "$root_spec" ] && return 0
	if [ "$(id -u)" != 0 ]; then
		log "the Debian 13 build root is missing; run this script as root once"
		exit 1
	fi
	mirror=$(bookworm_mirror)
	if [ -z "$mirror" ]; then
		log "no bookworm entry in apt's sources to take the mirror from"
		exit 1
	fi
	log "making the Debian 13 build root $build_root (debootstrap)"
	rm -rf "$build_root"
	set -- $root_spec
	debootstrap --variant="$2" --include="$(shift 2; echo "$*" | tr ' ' ,)" \
		"$1" "$build_root" "$mirror" >&2
	echo "deb $mirror trixie-backports main" \
		>"$build_root/etc/apt/sources.list.d/backports.list"
	echo "$root_spec" >"$stamp"
}

# The newest $third_series kernel whose headers the root's lists have.
newest_third() {
	in_root apt-cache search --names-only \
		"^linux-headers-${third_series/./\\.}\\.[0-9]+\\+deb13-amd64\$" |
		cut -d' ' -f1 | sed 's/^linux-headers-//' | sort -rV | head -n 1
}

# Unpack kernel $1's image, modules and their base files (its config,
# System.map, modules.order and .builtin) into $cache/kernels/$1.
unpack_third_kernel() {
	local v=$1 dst=$cache/kernels/$1 tmp=$build_root/tmp/gpuprof-kernel d
	rm -rf "$tmp" "$dst.new"
	mkdir -p "$tmp" "$dst.new"
	chown _apt "$tmp" 2>/dev/null || chmod 777 "$tmp"
	in_root sh -c "cd /tmp/gpuprof-kernel && apt-get download -q \
		linux-binary-$v linux-modules-$v linux-base-$v" >&2
	for d in "$tmp"/*.deb; do
		dpkg-deb -x "$d" "$dst.new"
	done
	mkdir -p "$dst.new/boot" "$dst.new/lib"
	mv "$dst.new/usr/lib/modules" "$dst.new/lib/modules"
	rm -rf "$dst.new/usr" "$tmp"
	cp "$dst.new/lib/modules/$v/vmlinuz" "$dst.new/boot/vmlinuz-$v"
	cp "$dst.new/lib/modules/$v/config" "$dst.new/boot/config-$v"
	depmod -b "$dst.new" "$v"
	rm -rf "$dst"
	mv "$dst.new" "$dst"
}

install_third_kernel() {
	local v ver
	v=$(KVERS=$third_series "$repo/selftests/scripts/kvers.sh" 2>/dev/null) &&
		[ -d "$build_root/usr/src/linux-headers-$v" ] &&
		[ -f "$build_root/usr/src/linux-source-$third_series.tar.xz" ] &&
		return 0
	if [ "$(id -u)" != 0 ]; then
		log "the $third_series test kernel is missing; run this script as root once"
		exit 1
	fi
	cp /etc/resolv.conf "$build_root/etc/resolv.conf"
	in_root apt-get update -q >&2
	[ -n "$v" ] || v=$(newest_third)
	if [ -z "$v" ]; then
		log "no linux-headers-$third_series.*+deb13-amd64 in trixie-backports"
		exit 1
	fi
	# The source of the same Debian version, for vkms (build-vkms.sh).
	ver=$(in_root dpkg-query -W -f='${Version}' "linux-headers-$v" 2>/dev/null) ||
		ver=$(in_root apt-cache show "linux-headers-$v" |
			sed -n 's/^Version: //p' | head -n 1)
	log "the third test kernel: $v ($ver), built in $build_root"
	in_root apt-get install -y -q --no-install-recommends \
		"linux-headers-$v" "linux-source-$third_series=$ver" >&2
	[ -d "$cache/kernels/$v/lib/modules/$v" ] || unpack_third_kernel "$v"
}

# The Prometheus stack, for the tests of perf gpu top's metrics: promtool
# (the Prometheus project's checker of the metrics format), and the two
# servers of the fleet pipeline, prometheus and node_exporter (its textfile
# collector serves the file top writes; prometheus_test runs both on
# loopback).  Debian's packages would also install and start the servers as
# system services, so they are only downloaded and the three programs (Go,
# linked to libc alone) unpacked into the cache, not installed.
prom_bins="promtool prometheus prometheus-node-exporter"

install_prometheus() {
	local dst=$cache/prometheus tmp b missing=
	for b in $prom_bins; do
		[ -x "$dst/usr/bin/$b" ] || missing=1
	done
	[ -z "$missing" ] && return 0
	[ "$(id -u)" = 0 ] || return 0
	log "unpacking $prom_bins from Debian's packages into $dst"
	apt_update
	tmp=$(mktemp -d)
	# apt downloads as its own user, _apt, which must be able to write.
	chown _apt "$tmp" 2>/dev/null || chmod 777 "$tmp"
	if (cd "$tmp" && apt-get download -q prometheus \
		prometheus-node-exporter >/dev/null) &&
	   dpkg-deb -x "$tmp"/prometheus_*.deb "$tmp/x" &&
	   dpkg-deb -x "$tmp"/prometheus-node-exporter_*.deb "$tmp/x"; then
		mkdir -p "$dst/usr/bin"
		for b in $prom_bins; do
			mv "$tmp/x/usr/bin/$b" "$dst/usr/bin/$b" ||
				log "no /usr/bin/$b in the packages"
		done
		# Where earlier versions of this script put promtool alone.
		rm -rf "$cache/promtool"
	else
		log "could not unpack the Prometheus programs; their tests will skip"
	fi
	rm -rf "$tmp"
}

# tracefs at /sys/kernel/tracing, as systemd's sys-kernel-tracing.mount
# has it on every booted Debian: the host tests read real tracepoint
# formats from it (perf_data_test), and fail without it.  A machine
# started without systemd (a container, this project's CI VM) may lack
# it; a mount is all it takes, and nothing of it outlives a reboot.
mount_tracefs() {
	[ -d /sys/kernel/tracing/events ] && return 0
	[ "$(id -u)" = 0 ] || return 0
	log "mounting tracefs on /sys/kernel/tracing"
	mount -t tracefs nodev /sys/kernel/tracing ||
		log "cannot mount tracefs: perf_data_test will fail"
}

install_packages
mount_tracefs
install_second_kernel
install_second_source
install_build_root
install_third_kernel
install_prometheus
extract_source
build_libs
install_harness
extract_kerneldoc
