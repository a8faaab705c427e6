#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run.sh [--kver VER] [--root DIR] [--timeout SECONDS] [--results DIR] -- COMMAND [ARGS...]
#
# Boots an installed Debian kernel (or, with --root, a kernel installed
# in DIR/boot and DIR/lib/modules, such as debug-kernel.sh's) under QEMU with the host's root shared
# read-only over 9p and runs COMMAND inside as root, in the caller's $PWD,
# after `modprobe vgem`.  COMMAND's stdout/stderr come out on ours; the exit
# status is COMMAND's, or 124 (timeout), 125 (COMMAND succeeded but the
# kernel log shows BUG/WARNING/Oops/...), 126 (the guest never got to run
# COMMAND).  See design.rst 8.
#
# Environment: KVER (like --kver), GPUPROF_VM_ROOT (like --root), GPUPROF_CACHE (default <repo>/.deps),
# GPUPROF_VM_ACCEL=kvm|tcg (skip the KVM probe), GPUPROF_VM_APPEND (more
# kernel parameters, e.g. "slub_debug=FZP"), GPUPROF_VM_QEMU_ARGS (more
# QEMU arguments, word-split, e.g. "-device virtio-gpu-pci"),
# GPUPROF_VM_SHARE (a directory the guest may write, at its path),
# GPUPROF_VM_GPU=virgl (a 3D virtio-gpu: QEMU's GL display on an Xvfb of
# its own, the host's Mesa rendering; virtio_gpu is loaded before vgem, so
# it is card0 and renderD128); GPUPROF_*
# variables are passed on to COMMAND, which also gets GPUPROF_IN_VM=1 and
# GPUPROF_VM_CPU (kvm, tcg/multi or tcg/single).
set -eu

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
deps=${GPUPROF_CACHE:-$repo/.deps}
cache=$deps/vm
bug_re='BUG:|WARNING:|Oops|Call Trace|UBSAN:|ODEBUG:|still has objects'
# A KVM boot that has not reached COMMAND after this long is taken as hung
# (TCG gets there in 3 to 6 s, KVM would be quicker still).
kvm_boot_limit=15
auto_kvm=0
args=("$@")	# for the re-exec when KVM turns out to hang

usage() {
	echo "usage: $0 [--kver VER] [--root DIR] [--timeout SECONDS] [--results DIR] -- COMMAND [ARGS...]" >&2
	exit 2
}

kver=${KVER:-}
kroot=${GPUPROF_VM_ROOT:-}
timeout=600
results=
while [ $# -gt 0 ]; do
	case $1 in
	--kver) [ $# -ge 2 ] || usage; kver=$2; shift 2 ;;
	--root) [ $# -ge 2 ] || usage; kroot=$2; shift 2 ;;
	--timeout) [ $# -ge 2 ] || usage; timeout=$2; shift 2 ;;
	--results) [ $# -ge 2 ] || usage; results=$2; shift 2 ;;
	--) shift; break ;;
	*) usage ;;
	esac
done
[ $# -gt 0 ] || usage
case $timeout in ''|*[!0-9]*) echo "vm: --timeout wants whole seconds" >&2; exit 2 ;; esac

if [ -n "$kroot" ]; then
	# The guest sees the host's root, minus its own tmpfs mounts.
	kroot=$(cd "$kroot" && pwd) || exit 126
	case $kroot/ in /tmp/*|/var/tmp/*|/run/*)
		echo "vm: --root $kroot is hidden in the VM (its own tmpfs there)" >&2
		exit 2 ;;
	esac
	if [ -z "$kver" ]; then
		for d in "$kroot"/lib/modules/*/; do
			[ -d "$d" ] && kver=$(basename "$d") && break
		done
	fi
fi
if [ -z "$kver" ]; then
	# The default test kernel, the one modules are built for by default
	# (kver.sh: Debian's linux-image-amd64), not the newest installed.
	kver=$("$here/../kver.sh")
	[ -n "$kver" ] || { echo "vm: linux-image-amd64 is not installed" >&2; exit 126; }
fi
# A test kernel set-up unpacked rather than installed (7.3: setup.sh,
# "The third test kernel") boots from its own root.
if [ -z "$kroot" ] && [ ! -e "/boot/vmlinuz-$kver" ] &&
   [ -d "$deps/kernels/$kver" ]; then
	kroot=$(cd "$deps/kernels/$kver" && pwd)
fi
kernel=$kroot/boot/vmlinuz-$kver
if [ ! -r "$kernel" ] || [ ! -d "$kroot/lib/modules/$kver" ]; then
	echo "vm: kernel $kver is not installed" >&2
	exit 126
fi

mkdir -p "$cache"

# The initramfs, keyed by kernel version and a hash of what goes into it
# (init, the builder, and the module tree's modules.dep as a change stamp).
key=$( { cat "$here/init" "$here/mkinitramfs.sh"
	 stat -c %Y "$kroot/lib/modules/$kver/modules.dep"; } | sha256sum | cut -c1-16)
initrd=$cache/initramfs-$kver-$key.cpio
if [ ! -e "$initrd" ]; then
	{
		flock 9
		if [ ! -e "$initrd" ]; then
			echo "vm: building $initrd" >&2
			"$here/mkinitramfs.sh" "$kver" "$initrd" "$kroot"
			# Drop stale images of this kernel.
			for f in "$cache/initramfs-$kver-"*.cpio; do
				[ "$f" = "$initrd" ] || rm -f "$f"
			done
		fi
	} 9>"$cache/.build.lock"
fi

# Boot the uncompressed vmlinux through PVH when the kernel has it: saves
# the guest decompressing itself (seconds under TCG).  Else the bzImage,
# as for a --root kernel: the debug kernel's extracted vmlinux printed
# nothing at all under PVH (6.1.192 with KASAN), its bzImage boots.
if [ -z "$kroot" ] && grep -qx 'CONFIG_PVH=y' "/boot/config-$kver" 2>/dev/null; then
	vmlinux=$cache/vmlinux-$kver-$(stat -c %Y-%s "$kernel")
	if [ ! -e "$vmlinux" ]; then
		{
			flock 9
			if [ ! -e "$vmlinux" ] && "$here/mkvmlinux.sh" "$kernel" "$vmlinux"; then
				for f in "$cache/vmlinux-$kver-"*; do
					[ "$f" = "$vmlinux" ] || rm -f "$f"
				done
			fi
		} 9>"$cache/.build.lock"
	fi
	[ -e "$vmlinux" ] && kernel=$vmlinux
fi

# KVM if it works, else TCG.  Nested KVM has been seen to hang here, so a
# short trial boot decides, and the verdict is cached per kernel.  A
# kernel that found KVM hanging decides for the others: what hangs is the
# host's KVM, and each probe costs its whole time limit.
accel=${GPUPROF_VM_ACCEL:-}
verdict=$cache/accel-$kver
if [ -z "$accel" ]; then
	if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
		accel=tcg
	elif [ -s "$verdict" ]; then
		accel=$(cat "$verdict")
	else
		{
			flock 9
			if [ ! -s "$verdict" ] &&
			   grep -qsx tcg "$cache"/accel-*; then
				echo "vm: KVM hung for another kernel here, using TCG" >&2
				echo tcg >"$verdict"
			fi
			if [ ! -s "$verdict" ]; then
				echo "vm: probing KVM (once per kernel, verdict in $verdict)" >&2
				probe=$cache/kvm-probe-$kver
				rm -rf "$probe"
				# From /: the caller's directory may not exist
				# in the guest (e.g. under /tmp).
				if (cd / && GPUPROF_VM_ACCEL=kvm GPUPROF_VM_ROOT=$kroot \
					"$here/run.sh" \
					--kver "$kver" --timeout $kvm_boot_limit \
					--results "$probe" -- true) \
					>/dev/null 2>"$probe.log"; then
					echo kvm >"$verdict.tmp"
				else
					echo "vm: KVM does not work here, using TCG (see $probe.log)" >&2
					echo tcg >"$verdict.tmp"
				fi
				mv "$verdict.tmp" "$verdict"
			fi
		} 9>"$cache/.probe.lock"
		accel=$(cat "$verdict")
	fi
	# A cached "kvm" may still hang now and then: watch the boot.
	[ "$accel" = kvm ] && auto_kvm=1
fi
# TCG's threading: one host thread per vCPU ("multi", QEMU's default)
# breaks code patched on one vCPU while the other runs it.  Debian's 6.12
# oopses ("Oops: int3" at a jump label site) while static keys are
# flipped: seen with nothing but `echo 1/0 > events/.../enable` in a loop
# during a vgem fence storm, no gpuprof loaded.  6.1 jumps to address 0 on
# entering drm_gem_object_release() while a kprobe on its ftrace site is
# armed and disarmed (memory profiling's startmp/stop): seen within
# seconds with nothing but a tracefs kprobe on it toggled during a vgem
# buffer churn, no gpuprof loaded, three runs of three; never in 2 x 120 s
# of the same on one host thread.  So every kernel runs round-robin on one
# host thread ("single"), which keeps two vCPUs in the guest (and ran the
# 6.1 device tests no slower here).  GPUPROF_VM_TCG_THREAD=single|multi
# forces.
tcg_thread=${GPUPROF_VM_TCG_THREAD:-single}
# -arch-capabilities: qemu 7.2 aborts setting that MSR under nested KVM here.
# shellcheck disable=SC2054 # the commas belong to qemu's option
case $accel in
kvm) accel_opts=(-accel kvm -cpu host,-arch-capabilities) ;;
tcg) accel_opts=(-accel "tcg,thread=$tcg_thread"); tcg_label=/$tcg_thread ;;
*) echo "vm: GPUPROF_VM_ACCEL must be kvm or tcg" >&2; exit 2 ;;
esac

keep=1
if [ -z "$results" ]; then
	results=$(mktemp -d "${TMPDIR:-/tmp}/gpuprof-vm.XXXXXX")
	keep=0
fi
mkdir -p "$results"
results=$(cd "$results" && pwd)
for f in started status dmesg stdout stderr console.log qemu.log cmd.sh; do
	rm -f "$results/$f"
done
: >"$results/stdout"
: >"$results/stderr"

# The guest has its own tmpfs on /tmp, /var/tmp and /run.  A checkout
# there (CI may clone into /tmp) is exported again and mounted at its own
# path over the guest's tmpfs, so the repository looks the same inside.
work_opts=()
case $repo/ in /tmp/*|/var/tmp/*|/run/*)
	work_opts=(-fsdev "local,id=work,path=${repo//,/,,},security_model=none,multidevs=remap"
		   -device virtio-9p-pci,fsdev=work,mount_tag=work)
	;;
esac
# GPUPROF_VM_SHARE=DIR: a host directory the guest may write, mounted at
# its own path (device-suite.sh's VMs take their tests from a queue there).
share=
share_opts=()
if [ -n "${GPUPROF_VM_SHARE:-}" ]; then
	share=$(cd "$GPUPROF_VM_SHARE" && pwd) || exit 2
	share_opts=(-fsdev "local,id=share,path=${share//,/,,},security_model=none"
		    -device virtio-9p-pci,fsdev=share,mount_tag=share)
fi
case $PWD/ in
"$repo"/*) ;;
/tmp/*|/var/tmp/*|/run/*|/dev/*|/proc/*|/sys/*)
	echo "vm: warning: $PWD is hidden in the VM (its own tmpfs or pseudo fs there)" >&2 ;;
esac

# The guest's command as a /bin/sh script: single-quote every word.
q() { local s=$1; printf "'%s'" "${s//\'/\'\\\'\'}"; }
{
	for v in $(compgen -e); do
		case $v in GPUPROF_*) echo "export $v=$(q "${!v}")" ;; esac
	done
	echo "export GPUPROF_IN_VM=1"
	echo "export GPUPROF_VM_CPU=$(q "$accel${tcg_label:-}")"
	# /tmp, /var/tmp and /run are the guest's own tmpfs.
	echo "cd $(q "$PWD") || { echo 'vm: no such directory in the VM' >&2; exit 126; }"
	printf 'exec'
	for a in "$@"; do printf ' %s' "$(q "$a")"; done
	echo
} >"$results/cmd.sh"

# Paths inside qemu's -fsdev options need commas doubled.
qres=${results//,/,,}
append="console=ttyS0 quiet loglevel=3 oops=panic panic=-1 rdinit=/init"
# Debian's kernels zero every allocation (init_on_alloc), which hides a
# field the module forgets to set; poisoned instead, its slab caches give
# 0x6b bytes where it forgot (seen: gpuprof_ctx's emits, true there), and
# SLUB reports a write to a freed object (design.rst 8).
append+=" init_on_alloc=0 slub_debug=P,gpuprof_*"
append+=" gpuprof_guest=$here/guest.sh"
[ ${#work_opts[@]} = 0 ] || append+=" gpuprof_work=$repo"
[ -z "$share" ] || append+=" gpuprof_share=$share"
# The kernel's modules, bind-mounted over the guest's /lib/modules.
[ -z "$kroot" ] || append+=" gpuprof_modules=$kroot/lib/modules"
[ -z "${GPUPROF_VM_APPEND:-}" ] || append+=" $GPUPROF_VM_APPEND"

# Word-split on purpose: a list of QEMU arguments in one variable.
# shellcheck disable=SC2206
extra_qemu_opts=(${GPUPROF_VM_QEMU_ARGS:-})

# A virgl GPU (design.rst 8): QEMU renders the guest's GL through
# virglrenderer on the host's Mesa, which needs a GL display: an Xvfb of
# our own (GLX on llvmpipe), on the first free display number.  The window
# is never looked at; the guest's scanout goes to it.
xpid=
display_opts=(-display none)
case ${GPUPROF_VM_GPU:-} in
'') ;;
virgl)
	command -v Xvfb >/dev/null || {
		echo "vm: GPUPROF_VM_GPU=virgl needs Xvfb (selftests/setup.sh installs it)" >&2
		exit 126
	}
	xfd=$results/xvfb.display
	rm -f "$xfd"
	Xvfb -displayfd 4 -screen 0 1280x1024x24 +extension GLX -nolisten tcp \
		4>"$xfd" >"$results/xvfb.log" 2>&1 &
	xpid=$!
	for _ in $(seq 100); do
		[ -s "$xfd" ] && break
		sleep 0.05
	done
	if [ ! -s "$xfd" ]; then
		echo "vm: Xvfb did not start:" >&2
		sed 's/^/vm: xvfb: /' "$results/xvfb.log" >&2
		kill "$xpid" 2>/dev/null
		exit 126
	fi
	export DISPLAY=:$(head -n 1 "$xfd")
	display_opts=(-display sdl,gl=on -device virtio-vga-gl)
	append+=" gpuprof_gpu=virgl"
	;;
*) echo "vm: GPUPROF_VM_GPU must be virgl or unset" >&2; exit 2 ;;
esac

qpid=
tails=()
# shellcheck disable=SC2317 # called from the trap
cleanup() {
	[ -n "$qpid" ] && kill "$qpid" 2>/dev/null
	[ -n "$xpid" ] && kill "$xpid" 2>/dev/null
	[ ${#tails[@]} -gt 0 ] && kill "${tails[@]}" 2>/dev/null
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM

t0=${EPOCHREALTIME/./}
qemu-system-x86_64 -nodefaults -no-user-config "${display_opts[@]}" -no-reboot \
	"${accel_opts[@]}" -m 2G -smp 2 \
	-kernel "$kernel" -initrd "$initrd" -append "$append" \
	-serial "file:$results/console.log" -monitor none \
	-fsdev local,id=root,path=/,security_model=none,readonly=on,multidevs=remap \
	-device virtio-9p-pci,fsdev=root,mount_tag=root \
	-fsdev "local,id=results,path=$qres,security_model=none" \
	-device virtio-9p-pci,fsdev=results,mount_tag=results \
	"${work_opts[@]}" "${share_opts[@]}" \
	"${extra_qemu_opts[@]}" \
	</dev/null >"$results/qemu.log" 2>&1 &
qpid=$!

# Stream COMMAND's output while it runs; tail exits once qemu is gone, after
# a last read.
tail -s 0.1 -c +1 -f --pid="$qpid" "$results/stdout" &
tails+=($!)
tail -s 0.1 -c +1 -f --pid="$qpid" "$results/stderr" >&2 &
tails+=($!)

started=0
timed_out=0
kvm_hung=0
deadline=$((t0 + timeout * 1000000))
kvm_deadline=$((t0 + kvm_boot_limit * 1000000))
# bash reports a job killed by a signal ("Aborted ...") on stderr at some
# later command; keep that out of our stderr (fd 3 is the real one).
exec 3>&2
{
	while kill -0 "$qpid"; do
		now=${EPOCHREALTIME/./}
		if [ $started = 0 ] && [ -e "$results/started" ]; then
			started=1
			us=$((now - t0))
			printf 'vm: booted in %d.%02d s (accel %s, kernel %s)\n' \
				$((us / 1000000)) $((us % 1000000 / 10000)) \
				"$accel${tcg_label:-}" "$kver" >&3
		fi
		if [ "$now" -ge $deadline ]; then
			timed_out=1
		elif [ $started = 0 ] && [ $auto_kvm = 1 ] &&
		     [ "$now" -ge $kvm_deadline ]; then
			kvm_hung=1
		else
			sleep 0.02
			continue
		fi
		kill "$qpid" || true
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$qpid" || break
			sleep 0.5
		done
		kill -KILL "$qpid" || true
		break
	done
	wait "$qpid" || true
	qpid=
	wait "${tails[@]}" || true
	tails=()
} 2>/dev/null

if [ $kvm_hung = 1 ]; then
	echo "vm: KVM boot hung, using TCG from now on ($verdict)" >&2
	echo tcg >"$verdict.tmp.$$" && mv "$verdict.tmp.$$" "$verdict"
	[ $keep = 1 ] || rm -rf "$results"
	exec "$here/run.sh" "${args[@]}"
fi

fail_msg() { echo "vm: $*" >&2; }
console_tail() {
	fail_msg "console log ($results/console.log), last lines:"
	tail -n 40 "$results/console.log" | sed 's/^/vm: console: /' >&2 || true
	[ -s "$results/qemu.log" ] && sed 's/^/vm: qemu: /' "$results/qemu.log" >&2
	return 0
}

if [ $timed_out = 1 ]; then
	fail_msg "timeout"
	[ -e "$results/started" ] || console_tail
	rc=124
elif [ ! -e "$results/started" ]; then
	fail_msg "the guest did not get to run COMMAND (boot failure)"
	console_tail
	rc=126
elif [ ! -e "$results/status" ] || [ ! -e "$results/dmesg" ]; then
	# Most likely a kernel panic (oops=panic) while COMMAND ran.
	fail_msg "the VM stopped before COMMAND finished"
	grep -aE "$bug_re|Kernel panic" "$results/console.log" | sed 's/^/vm: dmesg: /' >&2 || true
	console_tail
	rc=125
else
	rc=$(cat "$results/status")
	case $rc in ''|*[!0-9]*) fail_msg "bad exit status '$rc'"; rc=125 ;; esac
	hits=$(grep -aE "$bug_re" "$results/dmesg" || true)
	if [ -n "$hits" ]; then
		printf '%s\n' "$hits" | sed 's/^/vm: dmesg: /' >&2
		[ "$rc" != 0 ] || rc=125
	fi
fi

if [ "$rc" != 0 ] || [ $keep = 1 ]; then
	[ "$rc" = 0 ] || fail_msg "results kept in $results"
else
	rm -rf "$results"
fi
exit "$rc"
