#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs as PID 1 inside the test VM (started by ./init after switch_root into
# the host's root, which is read-only 9p).  Sets up the usual mounts, loads
# vgem, runs the command that run.sh wrote to $R/cmd.sh, stores its exit
# status and the kernel log in $R (the results export) and powers off.

R=/run/gpuprof-vm
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root

log() { echo "vm-guest: $*" >/dev/console; }

poweroff_now() {
	sync
	echo o >/proc/sysrq-trigger
	sleep 10	# sysrq-o is asynchronous; PID 1 must not exit meanwhile
	exit 1
}

# mnt TYPE DIR [OPTIONS]: mount unless something is mounted there already
# (init moved /proc and /dev over).
mnt() {
	mountpoint -q "$2" && return 0
	mount -t "$1" -o "${3:-defaults}" "$1" "$2" || log "cannot mount $1 on $2"
}

read up _ </proc/uptime; log "t=$up start"
mnt proc /proc
mnt sysfs /sys
mnt devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mnt devpts /dev/pts gid=5,mode=620,ptmxmode=666
mnt tmpfs /dev/shm mode=1777
mnt tmpfs /tmp mode=1777
mnt tmpfs /var/tmp mode=1777
mnt tracefs /sys/kernel/tracing
mnt debugfs /sys/kernel/debug
hostname gpuprof-vm 2>/dev/null

read up _ </proc/uptime; log "t=$up mounts done"
modprobe vgem || log "modprobe vgem failed"
# devtmpfs creates the nodes asynchronously from the module load.
i=0
while [ ! -e /dev/dri/renderD128 ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done

read up _ </proc/uptime; log "t=$up vgem done"
# run.sh times the boot up to this marker.
: >"$R/started"
/bin/sh "$R/cmd.sh" </dev/null >>"$R/stdout" 2>>"$R/stderr"
rc=$?

dmesg >"$R/dmesg.tmp" && mv "$R/dmesg.tmp" "$R/dmesg"
echo "$rc" >"$R/status.tmp" && mv "$R/status.tmp" "$R/status"
poweroff_now
