#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# layers.sh: check that the code of tools/perf-gpu calls only downward
# (Documentation/design.rst 1, "Layers of perf gpu").  Its folders are
# layers, listed in tools/perf-gpu/layers.mk; a file of a folder, at any
# depth, may include the headers of its own folder and of the folders of
# lower layers, and uapi/; not those of a higher layer, nor of another
# folder of its own layer, nor the headers of the top (builtin.h: the
# programs and builtins are above all layers), whether it names them
# with quotes or with angle brackets (the Makefile passes -I.).  A header
# from outside tools/perf-gpu built into a folder's library (layers.mk's
# PERF_GPU_EXTRA_DIR, the module's OA decoder) counts as that folder's.
#
# Includes are what a file says it uses; the link is what it does.  So
# the same rule is checked on the folders' libraries (out/libDIR.a,
# built first): every symbol a library leaves undefined that another of
# our libraries defines must come from a lower layer, which catches a
# call through a prototype written locally.  The module's files are
# checked the same way, in the order module/gpuprof.h documents
# (module-layers.sh).  Run by make lint and make check.
#
# One line per bad include or reference, "FILE:LINE: ..." or "LIB(OBJ):
# ...", and exit status 1; silent with status 0 when all is well.
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
pg=$repo/tools/perf-gpu
mk=$pg/layers.mk

declare -A layer owner
while read -r n dirs; do
	for d in $dirs; do
		layer[$d]=$n
	done
done < <(sed -n 's/^PERF_GPU_LAYER_\([0-9][0-9]*\) *:= *\(.*\)$/\1 \2/p' "$mk")
while read -r d srcs; do
	for s in $srcs; do
		owner[$(realpath -m "$pg/${s%.c}.h")]=$d
	done
done < <(sed -n 's/^PERF_GPU_EXTRA_\([a-z0-9_]*\) *:= *\(.*\)$/\1 \2/p' "$mk")
if [ ${#layer[@]} = 0 ]; then
	echo "layers: no PERF_GPU_LAYER_N in $mk" >&2
	exit 2
fi

bad=0
complain() {	# FILE LINE MESSAGE (no LINE: a library's object)
	echo "${1#"$repo"/}${2:+:$2}: $3"
	bad=1
}

# to= the folder the header at @1 belongs to: a layer folder, "." for
# the top of tools/perf-gpu (whose top/ is a layer), "uapi", or "" for
# anything else.
folder_of() {
	local rel

	case $1 in
	"$pg"/*/*)
		rel=${1#"$pg"/}
		to=${rel%%/*} ;;
	"$pg"/*)
		to=. ;;
	"$repo"/uapi/*)
		to=uapi ;;
	*)
		to=${owner[$1]:-} ;;
	esac
}

# The sources of tools/perf-gpu at every depth, its build output apart.
sources() {
	find "$pg" -path "$pg/out" -prune -o -name '*.[ch]' -print | sort
}

# Every #include of ours, "FILE:LINE:HEADER": those in quotes, and those
# in angle brackets whose first component is a folder of tools/perf-gpu
# (found through -I.).
includes() {
	local dirs

	dirs=$(printf '%s\n' "${!layer[@]}" | paste -sd '|')
	sources | xargs awk -v dirs="^($dirs)/" '
	/^[ \t]*#[ \t]*include[ \t]*"/ {
		split($0, q, "\""); print FILENAME ":" FNR ":" q[2]; next }
	/^[ \t]*#[ \t]*include[ \t]*</ {
		h = $0; sub(/^[^<]*</, "", h); sub(/>.*$/, "", h)
		if (h ~ dirs) print FILENAME ":" FNR ":" h }'
}

while IFS=: read -r file line inc; do
	folder_of "$file"
	from=$to
	[ "$from" = . ] && continue
	if [ -z "${layer[$from]:-}" ]; then
		complain "$file" "$line" "folder $from/ is no layer of $(basename "$mk")"
		continue
	fi
	# As the compiler looks: beside the file, then in -I. (the top of
	# tools/perf-gpu).
	path=$(dirname "$file")/$inc
	[ -e "$path" ] || path=$pg/$inc
	case $path in */../*|*/./*) path=$(realpath -m "$path") ;; esac
	folder_of "$path"
	[ "$to" = "$from" ] || [ "$to" = uapi ] && continue
	if [ -z "$to" ]; then
		complain "$file" "$line" "$inc: outside tools/perf-gpu and in none of its libraries"
	elif [ "$to" = . ]; then
		complain "$file" "$line" "$from/ (layer ${layer[$from]}) includes $inc of the programs and builtins above all layers"
	elif [ -z "${layer[$to]:-}" ]; then
		complain "$file" "$line" "$inc: folder $to/ is no layer of $(basename "$mk")"
	elif [ "${layer[$to]}" -eq "${layer[$from]}" ]; then
		complain "$file" "$line" "$from/ (layer ${layer[$from]}) includes $inc of $to/, a folder of its own layer"
	elif [ "${layer[$to]}" -gt "${layer[$from]}" ]; then
		complain "$file" "$line" "$from/ (layer ${layer[$from]}) includes $inc of $to/, a higher layer (${layer[$to]})"
	fi
done < <(includes)

# The link: which library defines each global symbol, then every symbol
# a library needs from another of ours.  The top's library (builtin) may
# need anything; nothing may need it.
make -s -C "$pg" libs >/dev/null || { echo "layers: building tools/perf-gpu failed" >&2; exit 2; }
declare -A defined_in
libs=$(sed -n 's/^PERF_GPU_LIBS *:= *\(.*\)$/\1/p' "$mk" | sed 's/\$(PERF_GPU_DIRS)/'"$(printf '%s ' "${!layer[@]}")"'/')
for lib in $libs; do
	a=$pg/out/lib$lib.a
	[ -f "$a" ] || { echo "layers: no $a" >&2; exit 2; }
	while read -r sym; do
		defined_in[$sym]=$lib
	done < <(nm -g --defined-only "$a" 2>/dev/null | awk 'NF == 3 { print $3 }')
done
for lib in $libs; do
	[ "$lib" = builtin ] && continue
	while read -r obj sym; do
		to=${defined_in[$sym]:-}
		[ -z "$to" ] || [ "$to" = "$lib" ] && continue
		if [ "$to" = builtin ]; then
			complain "lib$lib.a($obj)" "" "$lib/ (layer ${layer[$lib]}) uses $sym of the programs and builtins above all layers"
		elif [ "${layer[$to]}" -eq "${layer[$lib]}" ]; then
			complain "lib$lib.a($obj)" "" "$lib/ (layer ${layer[$lib]}) uses $sym of $to/, a folder of its own layer"
		elif [ "${layer[$to]}" -gt "${layer[$lib]}" ]; then
			complain "lib$lib.a($obj)" "" "$lib/ (layer ${layer[$lib]}) uses $sym of $to/, a higher layer (${layer[$to]})"
		fi
	done < <(nm -A -u "$pg/out/lib$lib.a" 2>/dev/null |
		 awk '{ n = split($1, f, ":"); print f[n - 1], $NF }')
done

# module/: the same rule, in its documented order (module-layers.sh).
"$repo/selftests/scripts/module-layers.sh" || bad=1

[ $bad = 0 ] || echo "layers: calls in tools/perf-gpu go downward only: $(sed -n 's/^PERF_GPU_LAYER_\([0-9]*\) *:= *\(.*\)$/\2/p' "$mk" | paste -sd '>' | sed 's/>/ > /g') (tools/perf-gpu/layers.mk)"
exit $bad
