#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# vm-suite.sh KO TEST...: run inside the test VM.  Runs each device test
# program with GPUPROF_KO=KO and prints its TAP output, each program's
# output headed by "# program: NAME" and closed by "# exit: STATUS", which
# tap-summary.sh reads.
#
# With GPUPROF_KCHECK=1 (make check-debug), each program is followed by
# one more, "kernel-after-NAME", whose three results say whether the
# kernel log gained a report (lockdep, KASAN, UBSAN, a BUG or WARNING,
# ...) while it ran, whether kmemleak finds an object leaked from
# gpuprof's code, and whether /dev/gpuprof outlived the module.
# A program that injects allocation failures (failnth_test) makes the
# kernel's own code warn now and then (a WARN_ON of an ENOMEM in the
# tracing core at module load): there, a warning raised at a line of the
# kernel tree with no gpuprof frame in its trace is listed ("# injected:")
# and not counted.  Anything in gpuprof, and every other kind of report,
# counts.
ko=$1
shift
export GPUPROF_KO="$ko"
# Sanitizer reports go to stderr, which the runner shows; fail hard on them.
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# What the kernel prints when one of its checkers fires (run.sh reads the
# whole log for the same at the end).
bug_re='BUG:|kernel BUG|WARNING:|Oops|general protection|UBSAN:|ODEBUG:|still has objects'
kmemleak=/sys/kernel/debug/kmemleak
injecting='failnth_test'

# The kernel log on stdin without the warnings an injected failure made
# the kernel's own code raise (see above); those go to fd 3.
drop_injected() {
	awk '
		function flush() {
			if (n && !(blk ~ /\[gpuprof\]/) &&
			    blk ~ /WARNING: CPU: [0-9]+ PID: [0-9]+ at [^\/ ]/) {
				for (i = 1; i <= n; i++)
					print "# injected: " l[i] | "cat >&3"
			} else {
				for (i = 1; i <= n; i++)
					print l[i]
			}
			n = 0; blk = ""
		}
		/cut here/		{ flush(); inblk = 1 }
		inblk			{ l[++n] = $0; blk = blk $0 "\n"
					  if (/---\[ end trace/) { inblk = 0; flush() }
					  next }
					{ print }
		END			{ flush() }
	'
}

# While a program runs, its kernel log is moved to a file every second:
# the ring buffer (256 KiB) would lose the start of a long run's log, and
# with it a report.
klog=/tmp/vm-suite-kernel.log
# gpuprof's /proc/modules lines while it ran: kmemleak prints a frame of
# a module unloaded since as a bare address, and the fixtures unload
# gpuprof after each test, so its address range tells its frames.
mods=/tmp/vm-suite-modules
drain_start() {
	: >"$klog"
	rm -f "$klog.failed"
	while :; do
		dmesg -c >>"$klog" || : >"$klog.failed"
		grep '^gpuprof ' /proc/modules >>"$mods"
		sleep 1
	done &
	drain_pid=$!
}
drain_stop() {
	kill "$drain_pid"
	wait "$drain_pid" 2>/dev/null
	dmesg -c >>"$klog" || : >"$klog.failed"
}

# The records of kmemleak's report on stdin whose backtrace passes
# through gpuprof: a frame named "[gpuprof]", or a bare address (module
# space, 0xffffffff...) inside a range gpuprof was loaded at.  Addresses
# are compared by their low 32 bits, which awk's doubles hold exactly.
# With $1 = injected, a record whose allocation was made by the kernel's
# own code (the first frame past the allocator's is not gpuprof's) goes
# to fd 3 instead: a kernel error path leaking after an injected failure
# (6.1's and 6.12's sysfs_slab_add() leaks the kobject's name when
# kobject_init_and_add() fails, and kmem_cache_create() from our init
# is where the failure was injected).
gpuprof_leaks() {
	awk -v ranges="$mods" -v injected="${1:-}" '
		function hex(s,   i, c, v) {
			v = 0
			for (i = 1; i <= length(s); i++) {
				c = index("0123456789abcdef", substr(s, i, 1))
				if (!c)
					break
				v = v * 16 + c - 1
			}
			return v
		}
		function is_ours(frame,   a, i) {
			if (frame ~ /\[gpuprof\]/)
				return 1
			if (!match(frame, /0xffffffff[0-9a-f]+/))
				return 0
			a = hex(substr(frame, RSTART + 10, RLENGTH - 10))
			for (i = 1; i <= n; i++)
				if (a >= lo[i] && a < hi[i])
					return 1
			return 0
		}
		function judge(   i, any, direct, past) {
			any = direct = past = 0
			for (i = 1; i <= nf; i++) {
				if (is_ours(fr[i])) {
					any = 1
					if (!past)
						direct = 1
				}
				if (!past && fr[i] !~ alloc)
					past = 1
			}
			if (direct || (any && injected != "injected"))
				printf "%s", rec
			else if (any)
				printf "%s", rec | "sed \"s/^/# injected-leak: /\" >&3"
			rec = ""
			nf = 0
			inbt = 0
		}
		BEGIN {
			alloc = "(kmalloc|kmem_cache_alloc|kmem_cache_zalloc|kstrdup|kstrndup|kmemdup|kvmalloc|kvzalloc|krealloc|kzalloc|kcalloc|alloc_pages|__vmalloc|vmalloc|vzalloc|slab_|__kmalloc)"
			while ((getline l < ranges) > 0) {
				split(l, f, " ")
				if (f[6] ~ /^0xffffffff/) {
					lo[++n] = hex(substr(f[6], 11))
					hi[n] = lo[n] + f[2]
				}
			}
		}
		/^unreferenced object/	{ if (rec != "") judge() }
					{ rec = rec $0 "\n" }
		/backtrace/		{ inbt = 1; next }
		inbt && /\[</		{ fr[++nf] = $0 }
		END			{ if (rec != "") judge() }
	'
}

# stale_nodes: list and remove what is left of /dev/gpuprof once the
# module is gone.  devtmpfs ignores the failure of its own allocations
# when it removes a node, so under injected failures (failnth_test) an
# entry can stay; the next load hands the same minors to other files, and
# a stale entry opens one of those (seen on the debug kernel: fault_test
# read a target's "name" through its "histogram").  Removing them lets
# the next program start clean.
stale_nodes() {
	grep -q '^gpuprof ' /proc/modules && return 0
	[ -e /dev/gpuprof ] || return 0
	find /dev/gpuprof -mindepth 1 ! -type d | sort
	rm -rf /dev/gpuprof
}

# kernel_check NAME STALE: the "kernel-after-NAME" program, on $klog;
# STALE, the entries stale_nodes() removed after it.
kernel_check() {
	echo "# program: kernel-after-$1"
	case " $injecting " in
	*" $1 "*)
		exec 4>&1
		log=$(drop_injected <"$klog" 3>&4)
		exec 4>&- ;;
	*) log=$(cat "$klog") ;;
	esac
	hits=$(printf '%s\n' "$log" | grep -E "$bug_re")
	if [ -e "$klog.failed" ]; then
		# Nothing read is not nothing found.
		echo "not ok 1 no kernel report while $1 ran # the log could not be read"
	elif [ -z "$hits" ]; then
		echo "ok 1 no kernel report while $1 ran"
	else
		echo "not ok 1 no kernel report while $1 ran"
		printf '%s\n' "$log" | sed 's/^/# dmesg: /'
	fi
	if [ ! -w "$kmemleak" ]; then
		echo "ok 2 kmemleak # SKIP no $kmemleak"
	else
		# kmemleak reports only objects older than 5 s, and only
		# once a second scan finds them unchanged.
		sleep 6
		echo scan >"$kmemleak"
		echo scan >"$kmemleak"
		case " $injecting " in
		*" $1 "*)
			exec 4>&1
			leaks=$(gpuprof_leaks injected <"$kmemleak" 3>&4) ||
				leaks="# kmemleak: its report could not be read"
			exec 4>&- ;;
		*)
			leaks=$(gpuprof_leaks <"$kmemleak") ||
				leaks="# kmemleak: its report could not be read" ;;
		esac
		# Leaks elsewhere are not ours to judge: forget them all.
		echo clear >"$kmemleak"
		if [ -z "$leaks" ]; then
			echo "ok 2 no kmemleak leak in gpuprof after $1"
		else
			echo "not ok 2 no kmemleak leak in gpuprof after $1"
			printf '%s\n' "$leaks" | sed 's/^/# kmemleak: /'
		fi
	fi
	if [ -z "$2" ]; then
		echo "ok 3 no /dev/gpuprof entry left after $1"
	else
		case " $injecting " in
		*" $1 "*)
			echo "ok 3 no /dev/gpuprof entry left after $1 but those failed allocations left"
			printf '%s\n' "$2" | sed 's/^/# injected: stale /' ;;
		*)
			echo "not ok 3 no /dev/gpuprof entry left after $1"
			printf '%s\n' "$2" | sed 's/^/# stale: /' ;;
		esac
	fi
	echo "# exit: 0"
}

# The kernel the VM booted, for make check's last lines (check.sh).
echo "# uname -r: $(uname -r)"
status=0
if [ "${GPUPROF_KCHECK:-0}" = 1 ]; then
	# What the boot printed is the kernel's, not the tests': shown, not
	# counted.  Leak suspects from before the first test are forgotten.
	dmesg -c | grep -E "$bug_re" | sed 's/^/# boot: /'
	if [ -w "$kmemleak" ]; then
		echo scan >"$kmemleak"
		echo clear >"$kmemleak"
	fi
fi
for t in "$@"; do
	name=$(basename "$t")
	# With GPUPROF_VM_QUEUE=DIR (device-suite.sh's VMs, when it runs more
	# than one), every VM is handed the whole list and runs the programs
	# it claims first: by making DIR/NAME, which only one mkdir can do.
	if [ -n "${GPUPROF_VM_QUEUE:-}" ] &&
	   ! mkdir "$GPUPROF_VM_QUEUE/$name" 2>/dev/null; then
		continue
	fi
	echo "# program: $name"
	[ "${GPUPROF_KCHECK:-0}" = 1 ] && drain_start
	t0=$(date +%s)
	"$t"
	rc=$?
	echo "# exit: $rc"
	echo "# time: $name $(($(date +%s) - t0)) s"
	[ $rc -eq 0 ] || status=1
	# Whatever a failed test left behind must not spoil the next program.
	grep -q '^gpuprof ' /proc/modules && rmmod gpuprof 2>/dev/null
	stale=$(stale_nodes)
	# A test that unloads vgem and fails before loading it again.
	grep -q '^vgem ' /proc/modules || modprobe vgem
	if [ "${GPUPROF_KCHECK:-0}" = 1 ]; then
		drain_stop
		out=$(kernel_check "$name" "$stale")
		printf '%s\n' "$out"
		case $out in *"not ok"*) status=1 ;; esac
	elif [ -n "$stale" ]; then
		printf '%s\n' "$stale" | sed 's/^/# stale, removed: /'
	fi
done
exit $status
