#!/bin/bash
# file-cycles.sh [DIR]...: the pairs of C files that call each other: A uses a
# function or variable that B defines and B one that A defines (issue #22: no
# two-file cycle; such a pair is one concern cut in two, or two tangled). Read
# from the built objects (nm), so that it sees what the code really calls, not
# what it includes. DIRs default to the repository's source folders (util/
# host/ netlink/ verbs/ path/ snapshot/ rdmadiag/, README.md "Layout");
# every .c file there needs its .o, newer than itself (build first: make all).
# Prints one line per pair, "A.c <-> B.c: what A uses of B | what B uses of
# A", then "file-cycles: N files, M cycles". Exit 0 without a cycle, 1 with
# one, 2 when an object is missing or older than its source.
set -euo pipefail

if [ $# -eq 0 ]; then
	cd "$(dirname "$0")/../.."
	set -- util host netlink verbs path snapshot rdmadiag
fi

objs=()
for dir in "$@"; do
	for c in "$dir"/*.c; do
		[ -e "$c" ] || continue
		o=${c%.c}.o
		if [ ! -e "$o" ] || [ "$c" -nt "$o" ]; then
			echo "file-cycles: $o is missing or older than $c: build first (make all)" >&2
			exit 2
		fi
		objs+=("$o")
	done
done

# "D FILE SYMBOL" for what a file defines, "U FILE SYMBOL" for what it uses.
for o in "${objs[@]}"; do
	nm -P "$o" | awk -v f="${o%.o}.c" '$2 == "U" { print "U", f, $1; next }
		$2 ~ /^[TDBRCGSVW]$/ { print "D", f, $1 }'
done | awk -v nfiles="${#objs[@]}" '
	$1 == "D" { def[$3] = $2; next }
	{ use[++n] = $2 " " $3 }
	END {
		for (i = 1; i <= n; i++) {
			split(use[i], u, " ")
			if (!(u[2] in def) || def[u[2]] == u[1])
				continue
			e = u[1] " " def[u[2]]
			syms[e] = syms[e] " " u[2]
		}
		cycles = 0
		for (e in syms) {
			split(e, p, " ")
			back = p[2] " " p[1]
			if (!(back in syms) || p[1] > p[2])
				continue
			print p[1] " <-> " p[2] ":" syms[e] " |" syms[back] | "sort"
			cycles++
		}
		close("sort")
		printf "file-cycles: %d files, %d cycles\n", nfiles, cycles
		exit cycles > 0
	}'
