#!/bin/bash
# snapshot-compare.sh DIR [TAR]: replays every command of DIR/expected (made by
# tests/lab/snapshot-capture.sh) from DIR/snapshot.tar (or TAR) and compares
# stdout, stderr and exit code with what it printed live. Prints each
# difference and "N commands" at the end; exit 1 if any differs.
set -u
dir=${1:?usage: snapshot-compare.sh DIR [TAR]}
tar=${2:-$dir/snapshot.tar}
RD=${RDMADIAG_BIN:-$(dirname "$0")/../../rdmadiag/rdmadiag}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
for cmd in "$dir"/expected/*.cmd; do
	b=${cmd%.cmd}
	# shellcheck disable=SC2046 # the words of the command
	"$RD" --snapshot "$tar" $(cat "$cmd") > "$tmp/out" 2> "$tmp/err"
	echo $? > "$tmp/rc"
	for part in out err rc; do
		if ! cmp -s "$tmp/$part" "$b.$part"; then
			echo "'$(cat "$cmd")': $part differs (replay < > live)"
			diff "$tmp/$part" "$b.$part" | head -20
			bad=1
		fi
	done
	n=$((n + 1))
done
echo "$n commands"
exit $bad
