#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs as PID 1 inside the test VM (started by ./init after switch_root into
# the host's root, which is read-only 9p).  Checks the usual mounts, loads
# vgem, runs the command that run.sh wrote to $R/cmd.sh, stores its exit
# status and the kernel log in $R (the results export) and powers off.

R=/run/gpuprof-vm
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root

log() { echo "vm-guest: $*" >/dev/console; }

poweroff_now() {
	sync
	echo o >/proc/sysrq-trigger
	# sysrq-o is asynchronous and PID 1 must not exit meanwhile (that
	# panics).  Spin in the shell: exec'ing sleep from 9p can fail now.
	while :; do :; done
}

# ./init has done these mounts already (quicker with its static busybox);
# only fill in what is missing.  Shell builtins only: every exec of a host
# binary over 9p is slow under TCG.
[ -e /proc/mounts ] || mount -t proc proc /proc
mounts=
while read -r _ dir _; do
	mounts="$mounts $dir "
done </proc/mounts
mnt() {	# mnt TYPE DIR [OPTIONS]
	case $mounts in *" $2 "*) return 0 ;; esac
	mkdir -p "$2"
	mount -t "$1" -o "${3:-defaults}" "$1" "$2" || log "cannot mount $1 on $2"
}
mnt sysfs /sys
mnt devtmpfs /dev
mnt devpts /dev/pts gid=5,mode=620,ptmxmode=666
mnt tmpfs /dev/shm mode=1777
mnt tmpfs /tmp mode=1777
mnt tmpfs /var/tmp mode=1777
mnt tracefs /sys/kernel/tracing
mnt debugfs /sys/kernel/debug

# Loopback, for the live protocol's tests and demo (busybox's ip: a
# minimal Debian has no iproute2).
busybox ip link set lo up || log "cannot bring lo up"

# A virgl VM (run.sh's GPUPROF_VM_GPU=virgl): virtio_gpu first, so that
# the 3D GPU is card0 and renderD128, where Mesa's programs look first.
case " $(cat /proc/cmdline) " in
*" gpuprof_gpu=virgl "*)
	modprobe virtio_gpu || log "modprobe virtio_gpu failed"
	i=0
	while [ ! -e /dev/dri/renderD128 ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	;;
esac
nodes() { set -- /dev/dri/renderD*; [ -e "$1" ] && echo $# || echo 0; }
before=$(nodes)
modprobe vgem || log "modprobe vgem failed"
# devtmpfs creates the nodes asynchronously from the module load.
i=0
while [ "$(nodes)" = "$before" ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done

# Boot quietly (loglevel=3), but let warnings and oopses the command causes
# reach the console log: with oops=panic the log buffer is not saved, so the
# console is the only record of what led to a panic.
echo 5 >/proc/sys/kernel/printk

# run.sh times the boot up to this marker.
: >"$R/started"
/bin/sh "$R/cmd.sh" </dev/null >>"$R/stdout" 2>>"$R/stderr"
rc=$?

# run.sh reads these after qemu has exited.
dmesg >"$R/dmesg"
echo "$rc" >"$R/status"
poweroff_now
