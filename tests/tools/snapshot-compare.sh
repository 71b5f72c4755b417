#!/bin/bash
# snapshot-compare.sh DIR [TAR]: replays every command of DIR/expected (made by
# tests/lab/snapshot-capture.sh) from DIR/snapshot.tar (or TAR) and compares
# stdout, stderr and exit code with what it printed live. Prints each
# difference and "N commands" at the end; exit 1 if any differs.
# counter check measures its interval: a live run apart from the snapshot's
# own waited a little more or less (2.0 s vs 2.3 s on a loaded lab VM), so
# for it "in N.N s" is masked here; the snapshot's own run (out/*.json) is
# compared byte for byte in tests/host/snapshot.bats.
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
	cp "$b.out" "$tmp/live"
	if grep -q 'counter check' "$cmd"; then
		sed -i -E 's/ in [0-9]+\.[0-9] s / in N s /g' "$tmp/out" "$tmp/live"
	fi
	for part in out err rc; do
		live=$b.$part
		[ "$part" = out ] && live=$tmp/live
		if ! cmp -s "$tmp/$part" "$live"; then
			echo "'$(cat "$cmd")': $part differs (replay < > live)"
			diff "$tmp/$part" "$live" | head -20
			bad=1
		fi
	done
	n=$((n + 1))
done
echo "$n commands"
exit $bad
