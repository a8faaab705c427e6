#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The demo inside the test VM: each step is shown as the command a user
# would type, then its output.  First real programs, Mesa's kmscube and
# glmark2 on virtio_gpu with virgl (demo.sh boots the virgl VM); then vgem,
# the kernel's virtual GEM driver, whose fences are real dma_fences, with
# gpuwork, a test program that submits fences and holds buffers on it, as
# the "game".
ko=$1
schedmock=$2
vkms=$3
sel=$(cd "$(dirname "$0")/.." && pwd)
PATH=$sel/../tools/perf-gpu:$sel/out/device:$PATH
rec=/tmp/demo-oa.rec

step() {
	printf '\n$ %s\n' "$1"
	eval "$1"
}

step "insmod $ko"
step 'ls -l /dev/gpuprof'

echo
echo "# Real programs on a real 3D driver: Mesa's kmscube and glmark2 on"
echo "# virtio_gpu with virgl (the guest's Mesa, the host's virglrenderer and"
echo "# llvmpipe).  One DRM master at a time, so one after the other; kmscube"
echo "# quits at a byte on its stdin, hence a FIFO that never gives one."
mkfifo /tmp/hold
step 'cat /sys/kernel/debug/dri/0/virtio-gpu-features | head -1'
step 'echo module kmscube glmark2-es2-drm > /dev/gpuprof/ctl; echo interval 10 > /dev/gpuprof/ctl; echo start > /dev/gpuprof/ctl'
step 'kmscube -c 90 -D /dev/dri/card0 <>/tmp/hold 2>/dev/null | tail -1; glmark2-es2-drm --off-screen --size 320x240 -b build:duration=2 | grep Score'
step 'echo stop > /dev/gpuprof/ctl; for d in /dev/gpuprof/[0-9]*; do echo "$d $(cat $d/name): $(cat $d/histogram)"; done'
echo "# (10 ms samples on timeline 0, virtio_gpu controlq: the GPU time of each)"
step 'echo end > /dev/gpuprof/ctl'
step 'perf gpu record -a -o /tmp/mesa.data -- sh -c "kmscube -c 90 -D /dev/dri/card0 <>/tmp/hold >/dev/null 2>&1; glmark2-es2-drm --off-screen --size 320x240 -b build:duration=2 >/dev/null"'
step "perf gpu report -i /tmp/mesa.data | sed -n '1,4p;/^Clients/,/total/p'"
echo "# The command alone: its jobs are signaled by a kworker, which"
echo "# perf gpu stat -- CMD records too, and nothing of other processes."
step 'perf gpu stat -- kmscube -c 90 -D /dev/dri/card0 <>/tmp/hold 2>/dev/null | sed -n "/^Clients/,/total/p"'
step 'rmmod gpuprof; insmod '"$ko"'  # a fresh start for the vgem part'

echo
echo "# Coverage: count the GPU jobs of two programs."
step 'echo module game editor > /dev/gpuprof/ctl'
step 'echo startcp > /dev/gpuprof/ctl'
step 'gpuwork -n game fences 25; gpuwork -n editor fences 3; gpuwork -n other fences 9'
step 'echo stop > /dev/gpuprof/ctl'
step 'cat /dev/gpuprof/timelines'
step 'for d in /dev/gpuprof/[0-9]*; do echo "$d $(cat $d/name): $(cat $d/histogram)"; done'
step "awk '{ jobs += \$2 } END { print jobs, \"jobs\" }' /dev/gpuprof/1/histogram"
step 'perf gpu report --device'

echo
echo "# Time: a job held 1 s, sampled every 50 ms."
step 'echo reset > /dev/gpuprof/ctl; echo interval 50 > /dev/gpuprof/ctl; echo start > /dev/gpuprof/ctl'
step 'gpuwork -n game fences 1 1000'
step 'echo stop > /dev/gpuprof/ctl; cat /dev/gpuprof/1/histogram'

echo
echo "# Memory: live GPU buffer bytes by size class (20 = up to 1 MiB)."
step 'echo startmp > /dev/gpuprof/ctl'
step '(sleep 1 | gpuwork -n game buffer 1048576 >/dev/null &) ; sleep 0.5; cat /dev/gpuprof/1/histogram'
step 'sleep 1; cat /dev/gpuprof/1/histogram; echo "(empty: the buffer went with its process)"'
step 'echo end > /dev/gpuprof/ctl; cat /dev/gpuprof/status'

echo
echo "# Containers: a target per cgroup v2 directory (a service, a container)."
echo "# Two services' programs and one outside both: each service's target"
echo "# counts exactly its own jobs, whatever the programs are called; and"
echo "# perf gpu record -a, which samples each job's cgroup, splits them alike."
echo "# (+pids: what systemd writes at boot; it gives new cgroups the perf state"
echo "# their processes' samples name them by.)"
step 'mkdir -p /tmp/cg && mount -t cgroup2 none /tmp/cg && echo +pids > /tmp/cg/cgroup.subtree_control && mkdir /tmp/cg/web.service /tmp/cg/batch.service'
step 'echo module cgroup:/web.service cgroup:/batch.service > /dev/gpuprof/ctl; echo startcp > /dev/gpuprof/ctl'
cat > /tmp/demo-cg.sh <<'EOF'
sh -c 'echo $$ > /tmp/cg/web.service/cgroup.procs; exec gpuwork -n render fences 25'
sh -c 'echo $$ > /tmp/cg/batch.service/cgroup.procs; exec gpuwork -n encode fences 7'
gpuwork -n other fences 5
EOF
step 'cat /tmp/demo-cg.sh'
step 'perf gpu record -a -o /tmp/demo.cg.data -- sh /tmp/demo-cg.sh 2>/dev/null'
step 'echo stop > /dev/gpuprof/ctl; for d in /dev/gpuprof/[0-9]*; do echo "$(cat $d/name) in $(cat $d/cgroup): $(cat $d/histogram)"; done'
step "perf gpu report -i /tmp/demo.cg.data --sort cgroup --format=csv | grep -v '^# ' | cut -d, -f1-5"
step 'echo end > /dev/gpuprof/ctl; rmdir /tmp/cg/web.service /tmp/cg/batch.service; umount /tmp/cg'
echo
echo "# A real GPU scheduler: the kernel's drm_sched, on a mock ring that runs one"
echo "# job at a time. P1 submits a 400 ms job; P2's four 25 ms jobs, 10 ms later,"
echo "# wait behind it. Only running time is sampled: P2 gets ~10 samples of 10 ms,"
echo "# not the ~49 its submission-to-signal time would give."
step "modprobe -q -a \$(modinfo -F depends $schedmock | tr , ' '); insmod $schedmock credits=1"
step 'echo module sched_p1 sched_p2 > /dev/gpuprof/ctl; echo interval 10 > /dev/gpuprof/ctl; echo start > /dev/gpuprof/ctl'
p1p2='rm -f /tmp/ready /tmp/go; schedwork -n sched_p2 mark /tmp/ready await /tmp/go sleep 10 job 25 job 25 job 25 job 25 wait >/dev/null & schedwork -n sched_p1 await /tmp/ready job 400 mark /tmp/go wait >/dev/null; wait'
step "$p1p2"
step 'echo stop > /dev/gpuprof/ctl; grep schedmock /dev/gpuprof/timelines; for d in /dev/gpuprof/[0-9]*; do echo "$(cat $d/name): $(cat $d/histogram)"; done'
step "perf gpu record -a -o /tmp/demo.sched.data -- sh -c '$p1p2' 2>/dev/null"
step "perf gpu report -i /tmp/demo.sched.data --comm sched_p1,sched_p2 | sed -n '/^Clients/,/^\$/p'"
step 'echo end > /dev/gpuprof/ctl'

echo
echo "# Since Linux 6.17 drm_sched's trace events are a stable uAPI: a job's push,"
echo "# its dependencies, its handover to the hardware and its end, each with the"
echo "# DRM client it came from. B's job waits for a vgem fence B signals 300 ms"
echo "# later, then for P1's 400 ms job on the ring; perf gpu report reads the"
echo "# three phases from those events alone, and checks them job by job"
echo "# against the fence pairing above. (Kernels before 6.17: no such section.)"
stable='rm -f /tmp/b; schedwork -n sched_b vgem job 50 aftervgem mark /tmp/b sleep 300 vgemsignal wait >/dev/null & schedwork -n sched_p1 await /tmp/b job 400 wait >/dev/null; wait'
step "perf gpu record -a -o /tmp/demo.stable.data -- sh -c '$stable' 2>/dev/null"
step "perf script -i /tmp/demo.stable.data 2>/dev/null | grep -m 5 -E 'drm_sched_job_(queue|add_dep|unschedulable)' | sed 's/^ *//'"
step "perf gpu report -i /tmp/demo.stable.data | sed -n '/^Scheduler/,/^# against/p'"
echo
echo "# The module takes drm_sched jobs from the same events where they exist"
echo "# (status says which), and a job a kernel worker pushes for a DRM client is"
echo "# that client's process's: P1 pushes one job itself, then schedmock's worker"
echo "# pushes three for it (by fence pairing those three are no process's)."
step 'grep drm_sched_jobs /dev/gpuprof/status'
step 'echo module sched_p1 > /dev/gpuprof/ctl; echo startcp > /dev/gpuprof/ctl'
step 'schedwork -n sched_p1 job 5 deferred job 5 job 5 job 5 wait >/dev/null'
step 'echo stop > /dev/gpuprof/ctl; for d in /dev/gpuprof/[0-9]*; do echo "$(cat $d/name): $(cat $d/histogram)"; done'
step 'echo end > /dev/gpuprof/ctl'
echo
echo "# A program names its DRM client (DRM_IOCTL_SET_CLIENT_NAME, Linux 6.14 on;"
echo "# the kernel prints it in fdinfo). perf gpu top shows it, and OpenMetrics"
echo "# labels every series of the client with it."
step '(schedwork -n compositor name compositor-main job 5 wait sleep 8000 >/dev/null &); sleep 1; perf gpu top -b -n 1 -p $(pidof schedwork)'
step 'perf gpu top -b -n 1 -p $(pidof schedwork) --openmetrics /tmp/gpu.prom >/dev/null; grep ^gpu_client_info /tmp/gpu.prom; kill $(pidof schedwork)'
echo
echo "# KMS: vkms, the kernel's virtual display, flipping at its refresh rate;"
echo "# the client skips frames 30, 60 and 90 of 120."
step "modprobe -q -a \$(modinfo -F depends $vkms | tr , ' '); insmod $vkms"
step 'perf gpu record -a -o /tmp/demo.kms.data -- flipper -n game 120 skip 30,60,90'
step "perf gpu report -i /tmp/demo.kms.data | sed -n '/^Frames/,/^\$/p'"

echo
echo "# Intel OA counters (simulated: there is no Intel GPU here). A Tiger Lake"
echo "# recording is replayed while the game holds a fence; its reports land"
echo "# in the game's counters."
step 'echo module game > /dev/gpuprof/ctl; echo startcp > /dev/gpuprof/ctl'
step '(gpuwork -n game fences 1 3000 &); sleep 1'
step "gpuprof-oa --sim --seed 3 --duration 0.5 --start-ns now -o $rec"
step "i915-perf-reader $rec | head -4"
step "cat $rec > /dev/gpuprof/oa"
step 'head -8 /dev/gpuprof/*/counters; grep ^oa_ /dev/gpuprof/status | head -6'
step 'sleep 2; echo end > /dev/gpuprof/ctl'

echo
echo "# Each Intel GPU as its i915 does it: the OA pump on a Coffee Lake GT2"
echo "# (an ioctl shim stands in for i915: no Intel GPU here) finds the metric"
echo "# set by name; a set the kernel does not offer is one line listing those"
echo "# it does; noise on /dev/gpuprof/oa is refused at the first write."
card=/tmp/demo-sys/class/drm/card0
step "mkdir -p /tmp/demo-sys/class/drm/renderD199/device/drm/card0 $card/device $card/metrics/7fa796a4-0c7a-4201-afc6-cff0b2f528a2; echo 0x3e92 > $card/device/device; echo 7 > $card/metrics/7fa796a4-0c7a-4201-afc6-cff0b2f528a2/id"
step "perf gpu list --sysfs-root /tmp/demo-sys sets | sed -n 1,3p"
shim="env LD_PRELOAD=$sel/out/libi915_shim.so GPUPROF_SHIM_DEVICE_ID=0x3e92 GPUPROF_SYSFS_ROOT=/tmp/demo-sys"
step "$shim gpuprof-oa --device --node /dev/dri/renderD199 --metric-set RenderBasic --duration 0.2 -o /tmp/cfl.oa; i915-perf-reader /tmp/cfl.oa | sed -n 1,2p"
step "$shim gpuprof-oa --device --node /dev/dri/renderD199 --metric-set ComputeBasic --duration 0.2 -o /tmp/cfl.oa; echo \"exit \$?\""
step 'head -c 100000 /dev/urandom > /dev/gpuprof/oa; grep -E "^oa_stream(_error)?:" /dev/gpuprof/status'
echo "# The simulator plays any of them: an Ice Lake, its 12 MHz OA clock."
step "gpuprof-oa --sim --device-id 0x8a52 --metric-set ComputeBasic --duration 0.2 -o /tmp/icl.oa; i915-perf-reader /tmp/icl.oa | sed -n 1,3p"

echo
echo "# Current Intel GPUs (Lunar Lake, Battlemage) run xe, not i915. An ioctl"
echo "# shim plays xe on a Lunar Lake (no Intel GPU here). xe has no metric"
echo "# sets of its own: perf gpu record registers RenderBasic (ADD_CONFIG),"
echo "# records its 576-byte PEC64u64 reports beside the fences, and removes"
echo "# the set again (REMOVE_CONFIG): the metrics directory is empty after."
echo "# The shim's GPU runs while the kernel's fences are in flight: GPU_BUSY"
echo "# is the share of each row's time the game's jobs held it."
# gpuwork is sanitized: ASan's runtime must be preloaded before the shim.
asan=$(ldd "$sel/out/device/gpuwork" | awk '/libasan/ { print $3 }')
xshim="env LD_PRELOAD=$asan:$sel/out/libxe_shim.so GPUPROF_SHIM_PERFMON=1 GPUPROF_SHIM_JOBS=1 GPUPROF_SYSFS_ROOT=/tmp/demo-xe"
step "mkdir -p /tmp/demo-xe/class/drm/renderD199/device/drm/card0 /tmp/demo-xe/class/drm/card0/metrics"
step "$xshim perf gpu record --oa-source=xe --oa-node /dev/dri/renderD199 -o /tmp/demo.xe.data -- gpuwork -n game fences 10 20"
step "ls /tmp/demo-xe/class/drm/card0/metrics; perf script -i /tmp/demo.xe.data | grep -m1 oa_device"
step "perf gpu report -i /tmp/demo.xe.data --oa-metrics GpuTime,GpuCoreClocks,GPU_BUSY | sed -n '/^OA per client/,/^\$/p'"
echo "# Each correlation point of the OA clock is in the recording with its"
echo "# error bound; the report's header gives the worst."
step "perf script -i /tmp/demo.xe.data | grep -m2 oa_correlation; perf gpu report -i /tmp/demo.xe.data | grep '^# OA clock'"
echo "# The simulator's Lunar Lake, busy: replayed while a game holds a fence,"
echo "# its reports land in the game's counters (a0..a63 are the PEC counters)"
echo "# and under xe's own OA timeline."
step 'echo module xgame > /dev/gpuprof/ctl; echo start > /dev/gpuprof/ctl'
step '(gpuwork -n xgame fences 1 3000 &); sleep 1'
step "gpuprof-oa --sim --device-id 0x6420 --seed 3 --duration 0.5 --start-ns now -o /tmp/lnl.oa"
step 'cat /tmp/lnl.oa > /dev/gpuprof/oa'
step "grep -E '^(reports|gpu_clock_ticks|a24|a32) ' /dev/gpuprof/*/counters; grep xe-oa /dev/gpuprof/timelines"
step 'sleep 2; echo end > /dev/gpuprof/ctl'

echo
echo "# Markers from an application, recorded by the distribution's perf."
step "perf record -q -N -B -e gpuprof:gpuprof_mark -o /tmp/demo.data -- sh -c 'echo begin frame 1 > /dev/gpuprof/marker; echo end frame 1 > /dev/gpuprof/marker'"
step 'perf script -i /tmp/demo.data'
echo
echo "# perf gpu record: the GPU tracepoints into a perf.data stock perf reads."
step 'perf gpu record -o /tmp/demo.gpu.data -- gpuwork -n game fences 3'
step 'perf script -i /tmp/demo.gpu.data'
step "perf report --header-only -i /tmp/demo.gpu.data | grep -E '^# (hostname|cpudesc|cpuid|total memory|cmdline)'"
step 'perf gpu list'
echo "# The output is made before the command runs: a bad directory costs nothing."
step 'perf gpu record -o /nonexistent/dir/perf.data -- gpuwork -n game fences 1; echo "exit $?"'
echo "# --duration (and --max-size) end a recording, and a command still running."
step "perf gpu record --duration 2 -o /tmp/demo.dur.data -- sh -c 'gpuwork -n game fences 5; exec sleep 600'; echo \"exit \$?\""
echo
echo "# perf gpu report: two programs, one marking a range, the OA simulator on."
step "perf gpu record --oa-source=sim -o /tmp/demo.rep.data -- sh -c 'gpuwork -n game -m level1 fences 4 50 & gpuwork -n editor fences 2 80; wait'"
step 'perf gpu report -i /tmp/demo.rep.data --sort pid'
# gputop's CSV header: the machine, the GPU device and the OA stream.
step "perf gpu report -i /tmp/demo.rep.data --format=csv | grep '^#'"
echo "# The same reports as the metrics IGT defines, per client: each row's"
echo "# deltas summed, then the equation applied (i915-perf-reader's way)."
step "perf gpu report -i /tmp/demo.rep.data --oa-metrics GpuBusy,EuActive,EuStall,AvgGpuCoreFrequency | sed -n '/^OA per client/,/^\$/p'"
step "perf gpu stat --format=json -- gpuwork -n game fences 2 10 | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d[\"totals\"][\"jobs\"], \"jobs,\", d[\"totals\"][\"busy_ns\"], \"ns busy\")'"
step 'perf gpu timechart -i /tmp/demo.rep.data -o /tmp/demo.html && ls -l /tmp/demo.html'
echo
echo "# perf gpu top: DRM clients from fdinfo (vgem prints none), the module's profile,"
echo "# served over the live protocol and read back by a second top."
step 'echo module game > /dev/gpuprof/ctl; echo startcp > /dev/gpuprof/ctl; gpuwork -n game fences 5'
step 'perf gpu top --batch -n 1 | head -12'
step '(perf gpu top --listen 7411 --batch -d 0.3 -n 8 >/dev/null &); sleep 1; perf gpu top --connect 127.0.0.1:7411 --batch -n 1 --format=json'
step 'echo end > /dev/gpuprof/ctl'
echo
echo "# Bad input changes nothing: a command out of the grammar is refused whole,"
echo "# a corrupt OA stream stops at its first bad record, a cut recording is one"
echo "# error line."
step 'echo module game > /dev/gpuprof/ctl; echo startcp > /dev/gpuprof/ctl'
step '/bin/echo interval 0 > /dev/gpuprof/ctl; /bin/echo module game /no/such/file > /dev/gpuprof/ctl; grep -E "^(mode|interval_ms|targets):" /dev/gpuprof/status'
step "{ cat $rec; printf 'JUNK\\0\\0\\0\\0'; cat $rec; } > /tmp/bad.rec; grep ^oa_reports: /dev/gpuprof/status"
step "cat /tmp/bad.rec > /dev/gpuprof/oa; grep -E '^oa_(stream|stream_error|reports):' /dev/gpuprof/status"
step 'head -c 5000 /tmp/demo.rep.data > /tmp/cut.data; perf gpu report -i /tmp/cut.data; echo "exit $?"'
step 'echo end > /dev/gpuprof/ctl'
step 'rmmod gpuprof'
echo
echo "# The device under attack for 5 s while fences and processes churn (the"
echo "# fuzz test make check runs for 20 s per kernel, shortened)."
step "GPUPROF_KO=$ko GPUPROF_DEVICE_FUZZ_SECONDS=5 fuzz_device_test 2>&1 | grep -E '^# fuzz:|^ok|^not ok'"
