# Shared by the two-VM path benchmarks (sourced in VM A of `lab.sh
# run2-agent`, after tests/lab/peer.sh and tests/lab/gid.sh): perftest runs
# on the GIDs rdmadiag uses, their figures, and per-round ratios.
# Globals it reads: DEV, PEER, LAB_IP, tmp (a scratch directory); sets X and
# PX (the GID index here and on the peer).
# shellcheck shell=bash

# lab_pair_gids: X and PX, the RoCE v2 GIDs of the lab addresses (perftest's
# default, index 0, is the link-local one: another packet path)
lab_pair_gids() {
	X=$(lab_gid_index "$DEV" "$(lab_ipv4_gid "$LAB_IP")") ||
		{ echo "bench: no RoCE v2 GID of $LAB_IP on $DEV" >&2; return 1; }
	PX=$(peer_run "$(declare -f lab_gid_index); lab_gid_index $DEV $(lab_ipv4_gid "$PEER")") ||
		{ echo "bench: no RoCE v2 GID of $PEER on the peer's $DEV" >&2; return 1; }
}

# perftest TOOL ARGS...: its server in B, its client here; the result line.
perftest() {
	local tool=$1 h
	shift
	h=$(peer_run_bg "exec $tool -d $DEV -x $PX $*")
	peer_until -t 30 "ss -Hltn 'sport = :18515' | grep -q ." >/dev/null
	timeout 300 "$tool" -d "$DEV" -x "$X" "$@" "$PEER"
	peer_bg_wait "$h" 30 >/dev/null
}

# Column N of the result line (the one starting with the size).
result_col() {
	awk -v s="$1" -v c="$2" '$1 == s && NF >= c { v = $c } END { print v }'
}

# stage_value STAGE KEY: from the path test document on stdin
# ("nan" where the document has no such figure or is no document)
stage_value() {
	local v
	v=$(jq -r --arg s "$1" --arg k "$2" '.stages[] | select(.id == $s) | .[$k] // "nan"' 2>/dev/null)
	echo "${v:-nan}"
}

# paired NUM DEN: each round's NUM/DEN (files under $tmp, one figure a
# line), as "median (q1-q3)"
paired() {
	# shellcheck disable=SC2154 # tmp is the caller's
	paste "$tmp/$1" "$tmp/$2" | awk '$2 > 0 && $1 > 0 { print $1 / $2 }' | sort -n | awk '
		{ v[NR] = $1 }
		END { if (!NR) { print "n/a"; exit }
		      printf "%.3f (%.3f-%.3f)", v[int((NR + 1) / 2)], v[int((NR + 3) / 4)], v[int((3 * NR + 3) / 4)] }'
}
