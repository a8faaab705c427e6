#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make-seeds.sh [--vm]: write the seed inputs of the fuzz targets,
# selftests/fuzz/seeds/NAME/, from what the project's own programs
# produce.  Run it from anywhere after "make setup"; it builds what it
# needs (the tools, selftests/out/fuzz/perf_data_seeds and
# selftests/out/host/live_serve).  The seeds are committed: run it again
# when a format changes, and commit what it writes.  Each target's
# directory is rewritten whole, except the files --vm makes, which are
# kept unless --vm is given again.
#
#   oa_stream   gpuprof-oa --sim recordings (one as if from a Haswell, two
#               of a Lunar Lake under xe),
#               after the target's byte of piece sizes
#   oa_xe       a Lunar Lake's OA_UNITS and GT_TOPOLOGY replies, and the
#               reads xe would give for the Lunar Lake recording
#               (reports, EIO)
#   oa_i915     the SAMPLE and loss records of those recordings: what
#               i915's read() gives (the ioctl shim of selftests/i915-shim
#               hands out the simulator's records the same way), after
#               the target's byte of report size and read sizes
#   perf_data   perf.data files from the perf.data writer
#               (fuzz/perf_data_seeds.c; old-*: the writer's before its
#               samples had a cgroup, kept); with --vm, one recorded by
#               perf gpu record in the test VM (Debian's 6.12 kernel:
#               its real tracefs formats, vgem fences, simulated OA)
#   fdinfo      the drm-usage-stats texts of host/drm_fdinfo_test.c
#               (i915, amdgpu, msm, xe, panfrost, a broken one); with
#               --vm, a vgem fd's real fdinfo (vgem prints no drm- keys)
#   live_proto  a real session with host/live_serve: the requests the
#               client code sends (server side) and the server's replies
#               (client side), after the target's side byte
#   ctl         the commands of design.rst 3.2 and 3.5, one a file
set -eu

here=$(cd "$(dirname "$0")" && pwd)
sel=$(cd "$here/.." && pwd)
repo=$(cd "$sel/.." && pwd)
seeds=$here/seeds
vm=0
[ "${1:-}" = --vm ] && vm=1

make -s -C "$repo" tools
make -s -C "$sel" out/fuzz/perf_data_seeds out/host/live_serve

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# NAME: an empty seed directory (the --vm files kept, and old-*: files of
# an older writer, kept by hand so that readers stay fuzzed on them).
fresh() {
	local d=$seeds/$1 f
	mkdir -p "$d"
	for f in "$d"/*; do
		[ -e "$f" ] || continue
		case ${f##*/} in
		vm-*) [ $vm = 0 ] || rm -f "$f" ;;
		old-*) ;;
		*) rm -f "$f" ;;
		esac
	done
}

# A file of byte @2 (octal) then the contents of @3.
prefixed() {
	{ printf "\\$2"; cat "$3"; } >"$1"
}

oa_streams() {
	local oa=$repo/tools/perf-gpu/gpuprof-oa
	"$oa" --sim --seed 1 --period 1000000 --duration 0.01 -o "$tmp/basic.oa"
	"$oa" --sim --seed 2 --period 500000 --duration 0.01 --contexts 3 \
		--loss-every 4 --buffer-loss-every 7 -o "$tmp/loss.oa"
	# Lunar Lake under xe: DRIVER names xe, PEC64u64 reports of 576 bytes.
	"$oa" --sim --device-id 0x6420 --seed 3 --period 500000 --duration 0.01 \
		--contexts 3 --loss-every 5 --buffer-loss-every 9 -o "$tmp/lnl.oa"
	# The same recording as a Haswell would declare it: its 256-byte
	# format A45_B8_C8, no context ids.
	python3 - "$tmp/basic.oa" "$tmp/hsw.oa" <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
p = 0
while p < len(b):
    t, _, size = struct.unpack_from('<IHH', b, p)
    if t == 0x10001:			# DEVICE_INFO: device id, oa_format
        struct.pack_into('<I', b, p + 8 + 8, 0x0412)
        struct.pack_into('<I', b, p + 8 + 32, 5)
    p += size
open(sys.argv[2], 'wb').write(b)
EOF
}

# The records i915 itself gives: SAMPLE, REPORT_LOST, BUFFER_LOST.
i915_reads() {
	python3 - "$1" "$2" <<'EOF'
import struct, sys
b = open(sys.argv[1], 'rb').read()
out, p = bytearray(), 0
while p < len(b):
    t, _, size = struct.unpack_from('<IHH', b, p)
    if t in (1, 2, 3):
        out += b[p:p + size]
    p += size
open(sys.argv[2], 'wb').write(out)
EOF
}

# What xe's read() gives for a recording (oa_xe_fuzz.c's mode 1): runs
# of bare reports led by their count, an EIO byte for each loss record;
# $3 keeps that many bytes of each report (the media unit's 128).
xe_reads() {
	python3 - "$1" "$2" "$3" <<'EOF'
import struct, sys
b = open(sys.argv[1], 'rb').read()
keep = int(sys.argv[3])
out, run, p = bytearray(), [], 0
def flush():
    while run:
        n = min(len(run), 63)
        out.append(n)
        for r in run[:n]:
            out.extend(r)
        del run[:n]
while p < len(b):
    t, _, size = struct.unpack_from('<IHH', b, p)
    if t == 1:
        run.append(b[p + 8:p + 8 + keep])
    elif t in (2, 3):
        flush()
        out.append(0x80 | (1 if t == 2 else 2))
    p += size
flush()
open(sys.argv[2], 'wb').write(out)
EOF
}

# A QUERY_OA_UNITS reply as a Lunar Lake's xe gives it: OAG (render,
# compute) and OAM (video, video enhance on the media GT).
xe_units() {
	python3 - "$1" <<'EOF'
import struct, sys
def unit(uid, utype, engines):
    u = struct.pack('<QIIQQ4QQ', 0, uid, utype, 3, 19200000, 0, 0, 0, 0,
                    len(engines))
    for cls, inst, gt in engines:
        u += struct.pack('<HHHH', cls, inst, gt, 0)
    return u
r = struct.pack('<QII', 0, 2, 0)
r += unit(0, 0, [(0, 0, 0), (4, 0, 0)]) + unit(1, 1, [(2, 0, 1), (3, 0, 1)])
open(sys.argv[1], 'wb').write(b'\0' + r)
EOF
}

# A GT_TOPOLOGY reply as 6.12's xe gives it on a Lunar Lake: per GT,
# DSS geometry and compute (16 bytes each), L3 banks and SIMD16 EUs (8
# each); 8 Xe cores of 8 EUs on GT 0, nothing on the media GT 1.
xe_topology() {
	python3 - "$1" <<'EOF'
import struct, sys
def mask(gt, kind, value, n):
    return struct.pack('<HHI', gt, kind, n) + value.to_bytes(n, 'little')
r = b''
for gt, dss, l3, eu in ((0, 0xff, 0xf, 0xff), (1, 0, 0, 0)):
    r += mask(gt, 1, dss, 16) + mask(gt, 2, dss, 16) + mask(gt, 3, l3, 8)
    r += mask(gt, 5, eu, 8)
open(sys.argv[1], 'wb').write(b'\4' + r)
EOF
}

seed_oa() {
	fresh oa_stream
	fresh oa_i915
	fresh oa_xe
	oa_streams
	# Piece sizes (fuzz.h): 0: a byte at a time, 9: up to 512, 15: 32 KiB.
	prefixed "$seeds/oa_stream/sim-bytewise" 000 "$tmp/basic.oa"
	prefixed "$seeds/oa_stream/sim-loss-contexts" 011 "$tmp/loss.oa"
	prefixed "$seeds/oa_stream/sim-haswell-whole" 017 "$tmp/hsw.oa"
	prefixed "$seeds/oa_stream/sim-lunar-lake-loss" 011 "$tmp/lnl.oa"
	prefixed "$seeds/oa_stream/sim-lunar-lake-bytewise" 000 "$tmp/lnl.oa"
	i915_reads "$tmp/basic.oa" "$tmp/basic.i915"
	i915_reads "$tmp/loss.oa" "$tmp/loss.i915"
	# Bits 0-1: report size none/64/128/256; above: read sizes, 12: 4 KiB.
	prefixed "$seeds/oa_i915/reads-256" 063 "$tmp/basic.i915"
	prefixed "$seeds/oa_i915/reads-loss-256" 063 "$tmp/loss.i915"
	prefixed "$seeds/oa_i915/reads-any-size" 060 "$tmp/loss.i915"
	# Bit 0: reads (else a units reply, or with bit 2 a topology one);
	# bit 1: the media unit's format.
	xe_reads "$tmp/lnl.oa" "$tmp/lnl.xe" 576
	xe_reads "$tmp/lnl.oa" "$tmp/lnl-media.xe" 128
	prefixed "$seeds/oa_xe/reads-pec64-loss" 001 "$tmp/lnl.xe"
	prefixed "$seeds/oa_xe/reads-mpec8" 003 "$tmp/lnl-media.xe"
	xe_units "$seeds/oa_xe/units-lunar-lake"
	xe_topology "$seeds/oa_xe/topology-lunar-lake"
	# Every STATUS an EIO can leave, one after another.
	printf '\001\200\201\202\203\204\205\206\207\210\211\212\213\214\215\216\217' \
		>"$seeds/oa_xe/reads-every-status"
}

seed_perf_data() {
	fresh perf_data
	"$sel/out/fuzz/perf_data_seeds" "$seeds/perf_data"
	[ $vm = 1 ] || return 0
	local res=$tmp/vm
	mkdir -p "$res"
	(cd "$repo" && "$sel/scripts/vm/run.sh" --kver "$(vm_kver)" --results "$res" -- sh -c '
		R=/run/gpuprof-vm
		tools/perf-gpu/out/perf-gpu record -o $R/record.data \
			--oa-source=sim --oa-period 50000000 --fdinfo-interval 50 \
			-- selftests/out/device/gpuwork fences 3 20 >/dev/null 2>&1 || exit 1
		exec 3<>/dev/dri/card0 && cat /proc/$$/fdinfo/3 >$R/fdinfo.txt')
	cp "$res/record.data" "$seeds/perf_data/vm-6.12-record.data"
	cp "$res/fdinfo.txt" "$seeds/fdinfo/vm-6.12-vgem.txt"
}

# The second test kernel, Debian's 6.12 (selftests/scripts/kvers.sh lists them).
vm_kver() {
	"$sel/scripts/kvers.sh" | grep '^6\.12' | head -1
}

seed_fdinfo() {
	local d=$seeds/fdinfo
	fresh fdinfo
	printf 'pos:\t0\nflags:\t02100002\nmnt_id:\t25\nino:\t532\ndrm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\ndrm-client-id:\t7\ndrm-engine-render:\t25662044495 ns\ndrm-engine-copy:\t0 ns\ndrm-engine-video:\t0 ns\ndrm-engine-capacity-video:\t2\ndrm-engine-video-enhance:\t0 ns\n' >"$d/i915.txt"
	printf 'pos:\t0\nflags:\t02100002\nmnt_id:\t24\nino:\t977\npasid:\t32771\ndrm-driver:\tamdgpu\ndrm-pdev:\t0000:0b:00.0\ndrm-client-id:\t301\ndrm-memory-vram:\t52224 KiB\ndrm-memory-gtt: \t6144 KiB\ndrm-memory-cpu: \t0 KiB\ndrm-engine-gfx:\t9876543210 ns\ndrm-engine-dma:\t1200 ns\ndrm-engine-dec:\t5 ns\n' >"$d/amdgpu.txt"
	printf 'drm-driver:\tmsm\ndrm-client-id:\t3\ndrm-engine-gpu:\t1000 ns\ndrm-cycles-gpu:\t123456\ndrm-total-cycles-gpu:\t999999\ndrm-maxfreq-gpu:\t800 MHz\ndrm-maxfreq-npu:\t5 KHz\nmsm-foo:\tbar baz\ndrm-brand-new-key:\t17 widgets\n' >"$d/msm.txt"
	printf 'pos:\t0\nflags:\t0100002\nmnt_id:\t26\nino:\t688\ndrm-driver:\txe\ndrm-client-id:\t19\ndrm-pdev:\t0000:03:00.0\ndrm-total-system:\t0\ndrm-shared-system:\t0\ndrm-active-system:\t0\ndrm-resident-system:\t0\ndrm-purgeable-system:\t0\ndrm-total-gtt:\t256 KiB\ndrm-resident-gtt:\t256 KiB\ndrm-total-vram0:\t40960 KiB\ndrm-shared-vram0:\t8 MiB\ndrm-resident-vram0:\t40960 KiB\ndrm-cycles-rcs:\t31415926\ndrm-total-cycles-rcs:\t8000000000\ndrm-cycles-bcs:\t0\ndrm-total-cycles-bcs:\t8000000000\ndrm-cycles-ccs:\t77\ndrm-total-cycles-ccs:\t8000000000\ndrm-engine-capacity-ccs:\t4\n' >"$d/xe.txt"
	printf 'drm-driver:\tpanfrost\ndrm-client-id:\t28\ndrm-engine-fragment:\t2000000000 ns\ndrm-cycles-fragment:\t1500000000\ndrm-maxfreq-fragment:\t800000000 Hz\ndrm-curfreq-fragment:\t400000000 Hz\ndrm-engine-vertex-tiler:\t60000000 ns\ndrm-cycles-vertex-tiler:\t45000000\ndrm-maxfreq-vertex-tiler:\t800 MHz\ndrm-curfreq-vertex-tiler:\t400 MHz\ndrm-total-memory:\t300 MiB\ndrm-shared-memory:\t0 MiB\ndrm-active-memory:\t200 MiB\ndrm-resident-memory:\t40000 KiB\ndrm-purgeable-memory:\t64 KiB\n' >"$d/panfrost.txt"
	printf 'drm-driver:\tvgem\ngarbage without a colon\n:\tno key\ndrm-client-id:\tnot-a-number\ndrm-engine-render:\t12 parsecs\ndrm-engine-copy:\t-5 ns\ndrm-engine-capacity-copy:\t0\ndrm-memory-vram:\t99999999999999999999999 KiB\ndrm-memory-gtt:\t18446744073709551615 KiB\ndrm-maxfreq-gpu:\t5 THz\ndrm-engine-ok:\t5 ns\ndrm-pdev:\ndrm key with spaces:\t1\n\n\n\t\ndrm-engine-x\ndrm-engine-last:\t7 ns' >"$d/malformed.txt"
}

# One session with live_serve: requests in $1, replies in $2.
live_session() {
	python3 - "$sel/out/host/live_serve" "$@" <<'EOF'
import signal, socket, subprocess, sys

server, requests_out, replies_out, script = sys.argv[1:5]
proc = subprocess.Popen([server], stdout=subprocess.PIPE, text=True)
port = int(proc.stdout.readline().split()[1])
proc.stdout.readline()				# "gen 0"
sock = socket.create_connection(('127.0.0.1', port), timeout=10)
sent, got = b'', b''


def reply(end):
    """Read this request's reply, up to the line @end ends it with."""
    global got
    start = len(got)
    while len(got) == start or not got.endswith(end):
        data = sock.recv(65536)
        if not data:
            break
        got += data


for line in script.split('|'):
    req = line.encode() + b'\r\n'
    sock.sendall(req)
    sent += req
    word = line.split()[0] if line.split() else ''
    if word in ('HELLO', 'UPDATE'):
        reply(b'END ' + word.encode() + b'\r\n')
        # The next generation of the state, for UPDATE to show.
        proc.send_signal(signal.SIGUSR1)
        proc.stdout.readline()
    elif word:
        reply(b'\r\n')
sock.close()
proc.send_signal(signal.SIGTERM)
proc.wait()
open(requests_out, 'wb').write(sent)
open(replies_out, 'wb').write(got)
EOF
}

seed_live() {
	local d=$seeds/live_proto
	fresh live_proto
	# What live_client_connect() and live_client_poll() send.
	live_session "$tmp/req" "$tmp/rep" 'HELLO 1 perf-gpu-top|UPDATE|UPDATE|UPDATE|GOODBYE'
	# Side byte (fuzz.h): bit 0 the side, the rest the read sizes.
	prefixed "$d/server-session" 030 "$tmp/req"
	prefixed "$d/client-session" 031 "$tmp/rep"
	live_session "$tmp/req" "$tmp/rep" '  HELLO   1   spaced  ||UPDATE |FROB x'
	prefixed "$d/server-spacing-error" 000 "$tmp/req"
	prefixed "$d/client-error" 001 "$tmp/rep"
}

seed_ctl() {
	local d=$seeds/ctl i=0 c
	fresh ctl
	while IFS= read -r c; do
		i=$((i + 1))
		printf '%b' "$c" >"$d/$(printf %02d $i)"
	done <<'EOF'
module glxgears\n
module /usr/bin/glxgears vkcube\tkwin_wayland\n
module\n
start\n
startcp\n
startmp\n
stop\n
end\n
interval 100\n
interval\t60000
reset\n
ctxid 0x1f\n
ctxid fffffffe
unbind\n
EOF
}

seed_oa
seed_fdinfo
seed_perf_data
seed_live
seed_ctl
du -sh "$seeds"
