#!/bin/bash
# Benchmark: rdmadiag path test against perftest on the same link, side by side
# in one two-VM lab run. Run from the repo on the host:
#   tests/lab/lab.sh run2-agent --timeout 900 tests/bench/path.sh
# Prints latency (rdmadiag p50 vs ib_send_lat / ib_write_lat t_typical) and
# RDMA WRITE bandwidth (vs ib_write_bw) at the same sizes, and the ratios.
# Targets: latency ratio <= 1.00, bandwidth ratio >= 0.98.
set -uo pipefail
# shellcheck source=tests/lab/peer.sh
. "$LAB_REPO/tests/lab/peer.sh"
RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
DEV=${LAB_RXE:-rxe0}
PEER=$LAB_PEER_IP
LAT_ITERS=${LAT_ITERS:-1000}
BW_ITERS=${BW_ITERS:-500}
SIZE=${SIZE:-65536}

# perftest SERVER-ARGS -- CLIENT-ARGS: runs the server in B, the client here.
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

send_lat=$(perftest ib_send_lat -s 8 -n "$LAT_ITERS" | result_col 8 5)
write_lat=$(perftest ib_write_lat -s 8 -n "$LAT_ITERS" | result_col 8 5)
write_bw=$(perftest ib_write_bw -s "$SIZE" -n "$BW_ITERS" --report_gbits | result_col "$SIZE" 4)

# RDMADIAG_PATH_POLL (busy, hybrid, ...) applies to both ends
h=$(peer_run_bg "RDMADIAG_PATH_POLL=${RDMADIAG_PATH_POLL:-} exec $RD path serve --idle-timeout 60")
peer_until -t 30 "ss -Hltn 'sport = :4792' | grep -q ." >/dev/null
lat_json=$("$RD" -j path test peer "$PEER" --tests lat --iters "$LAT_ITERS" --lat-size 8)
bw_json=$("$RD" -j path test peer "$PEER" --tests write --iters "$BW_ITERS" --size "$SIZE")
peer_kill "$h" TERM
peer_bg_wait "$h" 10 >/dev/null

rd_p50=$(jq -r '.stages[] | select(.id == "path.rc_latency") | .latency_p50_us' <<<"$lat_json")
rd_bw=$(jq -r '.stages[] | select(.id == "path.write_bw") | .bandwidth_gbps' <<<"$bw_json")

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
printf '%-34s %12s %12s %8s\n' "metric" "rdmadiag" "perftest" "ratio"
printf '%-34s %12s %12s %8s\n' "latency 8 B p50 vs ib_send_lat [us]" "$rd_p50" "$send_lat" "$(ratio "$rd_p50" "$send_lat")"
printf '%-34s %12s %12s %8s\n' "latency 8 B p50 vs ib_write_lat [us]" "$rd_p50" "$write_lat" "$(ratio "$rd_p50" "$write_lat")"
printf '%-34s %12s %12s %8s\n' "write bw $SIZE B [Gb/s]" "$rd_bw" "$write_bw" "$(ratio "$rd_bw" "$write_bw")"
