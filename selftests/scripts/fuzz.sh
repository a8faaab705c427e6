#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make fuzz [FUZZ_SECONDS=N] [FUZZ_TARGETS="NAME..."]: run each libFuzzer
# target of selftests/fuzz/ for N seconds (default 60), one after the
# other, and print one line of figures per target:
#
#   FUZZ NAME execs=N exec_per_s=N edges=N features=N corpus=N lines=P% crashes=N
#
# execs and exec_per_s from libFuzzer's final statistics, edges and
# features (cov: and ft:) from its last status line, corpus the inputs of
# the cached corpus after the run, lines the share of the lines of the
# target's parser sources (FUZZ_COV_NAME and FUZZ_SRCS_NAME in
# fuzz/fuzz.mk) that the whole corpus executes, measured with a gcc
# --coverage build of the replay driver (and of tools/perf-gpu's
# libraries, in tools/perf-gpu/out/cov/) and gcov.  Then a summary.
# Exit status 1 when a target crashed (or leaked, or hung), with the
# crash files named; a crash ends that target's run, not the others'.
#
# Without FUZZ_TARGETS, then also the host tests' runs of perf gpu report
# and script on files cut at every offset and with every byte flipped
# (make check tries a sample of the offsets, lib/corrupt.h), one line
# each:
#
#   CORRUPT PROGRAM TEST PASS|FAIL: N cuts|flips, N errors
#
# Corpora live in $GPUPROF_CACHE/fuzz/corpus/NAME and grow from run to
# run; each run first adds the seeds (fuzz/seeds/NAME) and regression
# inputs (fuzz/regressions/NAME).  Crash files go to
# selftests/out/fuzz/crashes/NAME/, libFuzzer's output to
# selftests/out/fuzz/logs/NAME.log.
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
sel=$repo/selftests
cache=${GPUPROF_CACHE:-$repo/.deps}
out=$sel/out/fuzz
seconds=${FUZZ_SECONDS:-60}
case $seconds in ''|*[!0-9]*|0) echo "fuzz: FUZZ_SECONDS wants whole seconds above 0" >&2; exit 2 ;; esac

command -v clang >/dev/null || { echo "fuzz: no clang: run 'make setup'" >&2; exit 1; }
make -s -C "$sel" fuzz || { echo "fuzz: the build failed" >&2; exit 1; }

if [ -n "${FUZZ_TARGETS:-}" ]; then
	targets=$FUZZ_TARGETS
else
	targets=$(cd "$sel/fuzz" && ls ./*_fuzz.c | sed 's|^\./||; s|_fuzz\.c$||')
fi

for t in $targets; do
	[ -x "$out/$t" ] || { echo "fuzz: no target $t (targets: fuzz/*_fuzz.c)" >&2; exit 2; }
done

# The last "NAME: VALUE" of libFuzzer's statistics in a log, or 0.
final_stat() {
	sed -n "s/^stat::$2: *\([0-9]*\)$/\1/p" "$1" | tail -1 | grep . || echo 0
}

# "cov: N ft: N" of the last status line.
status_field() {
	grep -o "$2: [0-9]*" "$1" | tail -1 | awk '{ print $2 }' | grep . || echo 0
}

# Line coverage of target $1's parser sources over corpus $2, percent.
# The counts of tools/perf-gpu's coverage flavour, which every target's
# coverage build links, start from zero for each target.
lines_covered() {
	local t=$1 dir=$out/cov/$1 gdir base total=0 done=0 pct n

	find "$dir" "$repo/tools/perf-gpu/out/cov" -name '*.gcda' -delete
	"$dir/replay" -q "$2" >/dev/null 2>&1
	while read -r gdir base; do
		# The source's own figures, not those of the headers it
		# inlines.
		read -r pct n < <(cd "$gdir" && gcov -n "$base.gcda" 2>/dev/null |
			awk '/^File .*\.c.$/ { getline;
				sub(/^Lines executed:/, ""); sub(/% of /, " ");
				print; exit }')
		[ -n "${n:-}" ] || continue
		total=$((total + n))
		done=$(awk -v d="$done" -v p="$pct" -v n="$n" \
			'BEGIN { printf "%d", d + p * n / 100 + 0.5 }')
	done < <(make -s -C "$sel" fuzz-cov-sources FUZZ_TARGET="$t")
	awk -v d="$done" -v t="$total" \
		'BEGIN { printf "%.1f", t ? 100 * d / t : 0 }'
}

all_execs=0
all_crashes=0
crash_files=()
for t in $targets; do
	bin=$out/$t
	corpus=$cache/fuzz/corpus/$t
	crashes=$out/crashes/$t
	log=$out/logs/$t.log
	mkdir -p "$corpus" "$out/logs"
	rm -rf "$crashes"
	mkdir -p "$crashes"
	for d in "$sel/fuzz/seeds/$t" "$sel/fuzz/regressions/$t"; do
		[ -d "$d" ] && cp -n "$d"/* "$corpus"/ 2>/dev/null
	done
	# stdout and stderr of the target closed: perf gpu's error lines
	# would drown libFuzzer's (which keeps its own copy of stderr).
	"$bin" -max_total_time="$seconds" -print_final_stats=1 \
		-close_fd_mask=3 -timeout=20 -artifact_prefix="$crashes/" \
		"$corpus" >"$log" 2>&1
	n=0
	for f in "$crashes"/crash-* "$crashes"/leak-* "$crashes"/timeout-* \
		 "$crashes"/oom-*; do
		[ -e "$f" ] || continue
		n=$((n + 1))
		crash_files+=("$f")
	done
	execs=$(final_stat "$log" number_of_executed_units)
	all_execs=$((all_execs + execs))
	all_crashes=$((all_crashes + n))
	printf 'FUZZ %s execs=%s exec_per_s=%s edges=%s features=%s corpus=%s lines=%s%% crashes=%s\n' \
		"$t" "$execs" "$(final_stat "$log" average_exec_per_sec)" \
		"$(status_field "$log" cov)" "$(status_field "$log" ft)" \
		"$(find "$corpus" -type f | wc -l)" \
		"$(lines_covered "$t" "$corpus")" "$n"
done

corrupt_failed=0
if [ -z "${FUZZ_TARGETS:-}" ]; then
	# The programs the tests run: perf gpu under ASan and UBSan.
	make -s -C "$repo/tools/perf-gpu" SANITIZE=1 || exit 1
	make -s -C "$sel" out/host/perf_gpu_report_test \
		out/host/perf_gpu_script_test \
		out/host/perf_gpu_convert_test || exit 1
	for prog in perf_gpu_report_test perf_gpu_script_test \
		    perf_gpu_convert_test; do
		for test in cut_files_give_one_error_line flipped_bytes_never_crash; do
			log=$out/logs/$prog-$test.log
			verdict=PASS
			# Every offset: thousands of runs, each bounded by
			# its own "timeout 10"; the harness's 1200 s, made
			# for make check's sample, is stretched tenfold so
			# that only a stalled machine reaches it (one under
			# a CI run beside it did, 2026-12-06).
			GPUPROF_TIMEOUT_SCALE=10 \
			GPUPROF_CORRUPT_ALL=1 GPUPROF_TEST_ONLY=$test \
			GPUPROF_PERF_GPU=$repo/tools/perf-gpu/out/asan/perf-gpu \
			ASAN_OPTIONS=abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1 \
				"$sel/out/host/$prog" >"$log" 2>&1 ||
				{ verdict=FAIL; corrupt_failed=1; }
			echo "CORRUPT $prog $test $verdict: $(sed -n \
				's/.*:\([0-9]* [a-z]*, [0-9]* errors\) (.*/\1/p' "$log")"
		done
	done
fi

echo "FUZZ summary: $(echo $targets | wc -w) targets, ${seconds} s each, $all_execs execs, $all_crashes crashes"
if [ "$corrupt_failed" != 0 ]; then
	echo "fuzz: a cut or flipped-byte run failed: see selftests/out/fuzz/logs/perf_gpu_*_test-*.log"
	exit 1
fi
if [ "$all_crashes" -gt 0 ]; then
	for f in "${crash_files[@]}"; do
		echo "fuzz: crash: $f (replay: selftests/out/fuzz/$(basename "$(dirname "$f")")-replay $f)"
	done
	exit 1
fi
exit 0
