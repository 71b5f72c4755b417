#!/bin/bash
# Proves that a change of structure changed no output: runs two builds of
# rdmadiag over every replayable fixture, with a set of commands in every
# output mode, and compares stdout, stderr and exit code byte for byte.
#   tests/byte_identity.sh OLD_BIN NEW_BIN     (e.g. a build of main, then this tree)
#   FIXTURES="lab-rxe dgx-h100" tests/byte_identity.sh ...   (some fixtures only)
# Plain (not sanitized) builds take minutes; system check takes seconds a run,
# so it runs in two modes only. Prints one line per difference, exits 1 if any.
set -u
old=$1 new=$2
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmds=("dev show" "link show" "gid show" "qp show" "res show" "cq show" "mr show" "pd show" "link check"
	"counter show" "topo show" "link check --format prometheus" "counter show --format json"
	"qp show nosuch" "link show nosuch0" "system check")
modes=("" "-j" "-p" "-d" "-jd" "--color=always")

# run BIN OUT: one file per fixture, command and mode: output, then the exit code
run() {
	local bin=$1 out=$2 fx n c m f
	mkdir -p "$out"
	for fx in ${FIXTURES:-$(ls tests/fixtures)}; do
		fx=tests/fixtures/${fx%/}
		[ -d "$fx/netlink" ] || [ -d "$fx/fs" ] || continue
		n=$(basename "$fx")
		for c in "${cmds[@]}"; do
			for m in "${modes[@]}"; do
				[ "$c" = "system check" ] && [ -n "$m" ] && [ "$m" != -j ] && continue
				f="$out/$n.$(echo "$c $m" | tr ' /=' '___')"
				# shellcheck disable=SC2086 # words on purpose
				timeout 30 "$bin" $m --replay "$fx" $c >"$f" 2>&1
				echo "exit $?" >>"$f"
			done
		done
	done
	"$bin" __tables >"$out/__tables" 2>&1
	echo "exit $?" >>"$out/__tables"
}
run "$old" "$tmp/old"
run "$new" "$tmp/new"
n=$(ls "$tmp/old" | wc -l)
if diff -r "$tmp/old" "$tmp/new" >"$tmp/diff"; then
	echo "byte identical: $n runs"
	exit 0
fi
grep '^diff\|^Only' "$tmp/diff"
exit 1
