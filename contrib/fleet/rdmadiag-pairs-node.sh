#!/bin/sh
# One node's part of an all-pairs run: test every peer of PEERS (one IP per
# line, as for --peers) but this node's own addresses, starting after its own
# line, and write the -j report to OUTDIR/$(hostname).json (atomically).
# Starting after itself matters: if every node took the list from the top,
# all of them would hit the first peer at once and its serve would refuse the
# extra sessions (--max-sessions); rotated, each serve gets about one at a time.
# Usage: rdmadiag-pairs-node.sh PEERS OUTDIR [path test options...]
set -u

[ $# -ge 2 ] || {
	echo "usage: $0 PEERS OUTDIR [path test options...]" >&2
	exit 2
}
peers=$1 out=$2
shift 2
rd=${RDMADIAG:-rdmadiag}
host=$(hostname -s)
mine=$(hostname -I 2>/dev/null || ip -o addr show | awk '{ sub("/.*", "", $4); print $4 }')
list=$(mktemp) || exit 4
tmp=$(mktemp "$out/.$host.XXXXXX") || exit 4
trap 'rm -f "$list" "$tmp"' EXIT

# The peers without comments, blanks and this node's addresses, rotated to
# start after this node's position in the file.
sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$peers" |
	awk -v mine=" $mine " '
		{ addr[NR] = $0; if (index(mine, " " $0 " ")) self = NR }
		END { for (i = 1; i <= NR; i++) { k = (self + i - 1) % NR + 1; if (k != self) print addr[k] } }
	' >"$list"
[ -s "$list" ] || {
	echo "$0: no peer left in $peers once this node's addresses are removed" >&2
	exit 2
}
"$rd" -j path test --peers "$list" "$@" >"$tmp"
rc=$?
# 0 all passed, 1 a pair failed: the report is complete either way.
if [ "$rc" -le 1 ]; then
	mv -f "$tmp" "$out/$host.json"
fi
exit "$rc"
