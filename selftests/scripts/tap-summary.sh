#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tap-summary.sh LOG...: count the TAP results of kselftest-harness
# programs in LOGs and print "N passed, N failed, N skipped".  A program
# that exited non-zero without reporting a failed test (a crash, a
# sanitizer abort, a harness error) counts as one more failure, and so
# does a log with no result at all.  Before that line, one line per
# failure, naming the log, the program and the test, so the tail of a
# CI run says what to look at:
#
#   # failed: LOG: PROGRAM: not ok N NAME
#
# and one line per reason a test gave for skipping, with how many gave
# it, most first:
#
#   # skipped N: REASON
#
# Exit status 1 when anything failed.
awk '
	FNR == 1		{ file = FILENAME; sub(/^.*\//, "", file)
				  prog = "(before any program)" }
	/^# program: /		{ prog = $3; bad = 0; next }
	/^ok [0-9]+ .*# SKIP/	{ skip++; why = $0
				  sub(/^.*# SKIP */, "", why)
				  if (why == "") why = "(no reason given)"
				  if (!(why in reasons)) order[nr++] = why
				  reasons[why]++; next }
	/^ok [0-9]+ /		{ pass++; seen++; next }
	/^not ok [0-9]+ /	{ fail++; bad++; seen++
				  failed[nf++] = file ": " prog ": " $0; next }
	/^# exit: /		{ if ($3 != 0 && !bad) { fail++
				  failed[nf++] = file ": " prog ": exited " $3 } }
	END {
		if (!seen && !skip) { fail++; failed[nf++] = "no test results" }
		for (i = 0; i < nf; i++)
			printf("# failed: %s\n", failed[i])
		# Most given first, then in order of first sight.
		for (i = 0; i < nr; i++)
			for (j = i + 1; j < nr; j++)
				if (reasons[order[j]] > reasons[order[i]]) {
					t = order[i]; order[i] = order[j]; order[j] = t
				}
		for (i = 0; i < nr; i++)
			printf("# skipped %d: %s\n", reasons[order[i]], order[i])
		printf("%d passed, %d failed, %d skipped\n", pass, fail, skip)
		exit fail != 0
	}
' "$@"
