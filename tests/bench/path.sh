#!/bin/bash
# Benchmark: rdmadiag path test against perftest on the same link, side by
# side in one two-VM lab run. Run from the repo on the host:
#   tests/lab/lab.sh run2-agent --timeout 900 tests/bench/path.sh
# ROUNDS rounds (default 5); each round runs, one after the other, ib_send_lat,
# ib_write_lat and rdmadiag's latency stage (8 B; first in odd rounds), then ib_write_bw and
# rdmadiag's write stage (SIZE B), each as a user types it plus the size and
# count. It prints each round's figures, then the median and quartiles of the
# per-round ratios (as tests/bench/qp.sh does): a slow spell of the machine
# weighs on both tools of a round alike, and perftest itself moves by 2x from
# one round to the next. Targets: latency ratio <= 1.00, bandwidth >= 0.98.
# RDMADIAG_PATH_POLL (busy, hybrid, ...) applies to both ends of rdmadiag.
set -uo pipefail
# shellcheck source=tests/lab/peer.sh
. "$LAB_REPO/tests/lab/peer.sh"
RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
DEV=${LAB_RXE:-rxe0}
PEER=$LAB_PEER_IP
ROUNDS=${ROUNDS:-5}
LAT_ITERS=${LAT_ITERS:-1000}
BW_ITERS=${BW_ITERS:-500}
SIZE=${SIZE:-65536}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# perftest TOOL ARGS...: its server in B, its client here; the result line.
perftest() {
	local tool=$1 h
	shift
	h=$(peer_run_bg "exec $tool -d $DEV $*")
	peer_until -t 30 "ss -Hltn 'sport = :18515' | grep -q ." >/dev/null
	timeout 300 "$tool" -d "$DEV" "$@" "$PEER"
	peer_bg_wait "$h" 30 >/dev/null
}

# Column N of the result line (the one starting with the size).
result_col() {
	awk -v s="$1" -v c="$2" '$1 == s && NF >= c { v = $c } END { print v }'
}

# stage_value STAGE KEY: from the path test document on stdin
stage_value() { jq -r --arg s "$1" --arg k "$2" '.stages[] | select(.id == $s) | .[$k] // "nan"'; }

# paired NUM DEN: each round's NUM/DEN, as "median (q1-q3)"
paired() {
	paste "$tmp/$1" "$tmp/$2" | awk '$2 > 0 && $1 > 0 { print $1 / $2 }' | sort -n | awk '
		{ v[NR] = $1 }
		END { if (!NR) { print "n/a"; exit }
		      printf "%.2f (%.2f-%.2f)", v[int((NR + 1) / 2)], v[int((NR + 3) / 4)], v[int((3 * NR + 3) / 4)] }'
}

rd_latency() {
	"$RD" -j path test peer "$PEER" --tests lat --iters "$LAT_ITERS" --lat-size 8 |
		stage_value path.rc_latency latency_p50_us >>"$tmp/rd_lat"
}

h=$(peer_run_bg "RDMADIAG_PATH_POLL=${RDMADIAG_PATH_POLL:-} exec $RD path serve --idle-timeout 600")
peer_until -t 30 "ss -Hltn 'sport = :4792' | grep -q ." >/dev/null

printf '# round  send_lat  write_lat  rd_p50 [us]   write_bw  rd_write [Gb/s]\n'
for ((i = 1; i <= ROUNDS; i++)); do
	# Odd rounds time rdmadiag first, even rounds last: a machine that
	# slows down or speeds up across a round weighs on neither tool alone.
	((i % 2)) && rd_latency
	perftest ib_send_lat -s 8 -n "$LAT_ITERS" | result_col 8 5 >>"$tmp/send_lat"
	perftest ib_write_lat -s 8 -n "$LAT_ITERS" | result_col 8 5 >>"$tmp/write_lat"
	((i % 2)) || rd_latency
	# MB/sec with two decimals (its --report_gbits has two as well, too few
	# at Soft-RoCE's 0.1 Gb/s); perftest's MB is 2^20 bytes
	perftest ib_write_bw -s "$SIZE" -n "$BW_ITERS" | result_col "$SIZE" 4 |
		awk '{ printf "%.4f\n", $1 * 1048576 * 8 / 1e9 }' >>"$tmp/write_bw"
	"$RD" -j path test peer "$PEER" --tests write --iters "$BW_ITERS" --size "$SIZE" |
		stage_value path.write_bw bandwidth_gbps >>"$tmp/rd_bw"
	printf '%7d %9s %10s %11s %10s %16s\n' "$i" "$(tail -1 "$tmp/send_lat")" "$(tail -1 "$tmp/write_lat")" \
		"$(tail -1 "$tmp/rd_lat")" "$(tail -1 "$tmp/write_bw")" "$(tail -1 "$tmp/rd_bw")"
done
peer_kill "$h" TERM
peer_bg_wait "$h" 10 >/dev/null

echo "# per-round ratios over $ROUNDS rounds, median (quartiles); poll mode ${RDMADIAG_PATH_POLL:-default}:"
echo "latency 8 B p50 / ib_send_lat t_typical:  $(paired rd_lat send_lat)   (target <= 1.00)"
echo "latency 8 B p50 / ib_write_lat t_typical: $(paired rd_lat write_lat)"
echo "write bw $SIZE B / ib_write_bw:       $(paired rd_bw write_bw)   (target >= 0.98)"
