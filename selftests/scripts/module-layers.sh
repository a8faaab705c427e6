#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# module-layers.sh: check that the files of module/ call one way only, in
# the order module/gpuprof.h's "Who calls whom" gives (design.rst 1
# includes it): a numbered list whose items begin with their files and a
# colon ("5. oa.c and sched.c: ..."), a file calling only those of later
# items.  Checked on the link: the module is built for the test kernel
# (kver.sh) in a directory of this check's own, and every symbol an
# object leaves undefined that another object of the module defines must
# be a function of a later item, or data (the doc's upward links are
# data: a table of file kinds, the module's state in main.c).  Run by
# layers.sh.
#
# One line per bad reference, "module/FILE.o: ...", and exit status 1;
# silent with status 0 when all is well; 2 when it cannot check.
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
doc=$repo/module/gpuprof.h

# level[FILE.c]: its item's number, from the DOC section's list.
declare -A level
while read -r n files; do
	for f in $files; do
		level[$f]=$n
	done
done < <(awk '
	/DOC: Who calls whom/ { on = 1; next }
	on && /^ \*\// { exit }
	on && match($0, /^ \* [0-9]+\. /) {
		n = substr($0, 4) + 0
		head = substr($0, RLENGTH + 1)
		sub(/:.*/, "", head)
		files = ""
		while (match(head, /[a-z_]+\.c/)) {
			files = files " " substr(head, RSTART, RLENGTH)
			head = substr(head, RSTART + RLENGTH)
		}
		print n, files
	}' "$doc")
if [ ${#level[@]} = 0 ]; then
	echo "module-layers: no numbered list in $doc's \"Who calls whom\"" >&2
	exit 2
fi

kver=${GPUPROF_LAYERS_KVER:-$("$repo/selftests/scripts/kver.sh")}
cache=${GPUPROF_CACHE:-$repo/.deps}
# A build directory of its own: make check builds the module for the
# same kernel at the same time.
ko=$(GPUPROF_CACHE=$cache/layers "$repo/selftests/scripts/build-module.sh" \
	"$kver" 2>/dev/null) ||
	{ echo "module-layers: building gpuprof.ko for $kver failed" >&2; exit 2; }
obj=$(dirname "$ko")/module

bad=0
declare -A defined_in kind
for o in "$obj"/*.o; do
	f=$(basename "$o" .o).c
	if [ -z "${level[$f]:-}" ]; then
		echo "module/$f: in no item of \"Who calls whom\" (module/gpuprof.h)"
		bad=1
	fi
	while read -r type sym; do
		defined_in[$sym]=$f
		kind[$sym]=$type
	done < <(nm -g --defined-only "$o" | awk 'NF == 3 { print $2, $3 }')
done
for o in "$obj"/*.o; do
	f=$(basename "$o" .o).c
	[ -n "${level[$f]:-}" ] || continue
	while read -r sym; do
		to=${defined_in[$sym]:-}
		[ -z "$to" ] || [ "$to" = "$f" ] && continue
		case ${kind[$sym]} in
		[TtWw]) ;;
		*) continue ;;	# data
		esac
		[ -n "${level[$to]:-}" ] || continue
		if [ "${level[$to]}" -le "${level[$f]}" ]; then
			echo "module/${f%.c}.o: $f (item ${level[$f]}) calls $sym of $to (item ${level[$to]}), not below it"
			bad=1
		fi
	done < <(nm -u "$o" | awk '{ print $NF }')
done
[ $bad = 0 ] || echo "module-layers: the files of module/ call downward only, in the order of \"Who calls whom\" (module/gpuprof.h)"
exit $bad
