#!/bin/bash
# Benchmark: rdmadiag path test against perftest on the same link, side by
# side in one two-VM lab run. Run from the repo on the host:
#   LAB_VCPU_SCHED=idle LAB_ENV=LAB_VCPU_SCHED \
#     tests/lab/lab.sh run2-agent --timeout 900 tests/bench/path.sh
# (LAB_VCPU_SCHED=idle keeps the spinning vCPUs from delaying qemu's I/O
# threads on the host, which moved both tools' figures by up to 3x between
# runs; see tests/lab/README.md.)
# ROUNDS rounds (default 5). Latency: each round runs ib_send_lat and
# rdmadiag's latency stage (8 B) twice each, alternating (S R S R in odd
# rounds, R S R S in even ones), and ib_write_lat once. Every rdmadiag run is
# paired with the ib_send_lat run next to it, so the machine's drift (TCG
# speed moves by tens of percent within a minute) weighs on both of a pair
# alike; ib_send_lat's second run against its first is printed as the noise
# floor (perftest against itself). Bandwidth: ib_write_bw, then rdmadiag's
# write stage (SIZE B). Each as a user types it plus the size and count.
# It prints each round's figures, then the median and quartiles of the
# ratios (as tests/bench/qp.sh does). Targets: latency ratio <= 1.00,
# bandwidth >= 0.98. RDMADIAG_PATH_POLL (busy, hybrid, ...) applies to both
# ends of rdmadiag. A run of either tool that gives no figure is kept, with
# its output, under $BENCH_KEEP (default the lab's shared directory).
set -uo pipefail
# shellcheck source=tests/lab/peer.sh
. "$LAB_REPO/tests/lab/peer.sh"
# shellcheck source=tests/lab/gid.sh
. "$LAB_REPO/tests/lab/gid.sh"
RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
DEV=${LAB_RXE:-rxe0}
PEER=$LAB_PEER_IP
ROUNDS=${ROUNDS:-5}
LAT_ITERS=${LAT_ITERS:-1000}
BW_ITERS=${BW_ITERS:-500}
SIZE=${SIZE:-65536}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=tests/bench/lab_pair.sh
. "$LAB_REPO/tests/bench/lab_pair.sh"
lab_pair_gids || exit 1

KEEP=${BENCH_KEEP:-${LAB_SHARED:-/lab/shared}/bench}
mkdir -p "$KEEP"

# keep_if_nan FILE OUTPUT: a run that gave no figure is kept for reading.
keep_if_nan() {
	case $(tail -1 "$tmp/$1") in
	'' | nan | null) printf '%s\n' "$2" >"$KEEP/$1.round$i.$(date +%s)" ;;
	esac
}

send_lat() {
	local out
	out=$(perftest ib_send_lat -s 8 -n "$LAT_ITERS" 2>&1)
	result_col 8 5 <<<"$out" >>"$tmp/send_lat$1"
	keep_if_nan "send_lat$1" "$out"
}

rd_latency() {
	local out
	out=$("$RD" -j path test peer "$PEER" --tests lat --iters "$LAT_ITERS" --lat-size 8 2>"$tmp/err")
	stage_value path.rc_latency latency_p50_us <<<"$out" >>"$tmp/rd_lat$1"
	keep_if_nan "rd_lat$1" "$out$(cat "$tmp/err")"
}

h=$(peer_run_bg "RDMADIAG_PATH_POLL=${RDMADIAG_PATH_POLL:-} exec $RD path serve --idle-timeout 600")
peer_until -t 30 "ss -Hltn 'sport = :4792' | grep -q ." >/dev/null

printf '# perftest on GID index %s here, %s on the peer (rdmadiag picks the same); vCPU threads: %s\n' "$X" "$PX" \
	"${LAB_VCPU_SCHED:-normal scheduling (LAB_VCPU_SCHED unset)}"
printf '# round  send_lat x2        rd_p50 x2 [us]     write_lat   write_bw  rd_write [Gb/s]\n'
for ((i = 1; i <= ROUNDS; i++)); do
	# Odd rounds S R S R, even rounds R S R S: each rdmadiag run has an
	# ib_send_lat run right next to it, before it as often as after it.
	if ((i % 2)); then
		send_lat 1; rd_latency 1; send_lat 2; rd_latency 2
	else
		rd_latency 1; send_lat 1; rd_latency 2; send_lat 2
	fi
	perftest ib_write_lat -s 8 -n "$LAT_ITERS" | result_col 8 5 >>"$tmp/write_lat"
	# MB/sec with two decimals (its --report_gbits has two as well, too few
	# at Soft-RoCE's 0.1 Gb/s); perftest's MB is 2^20 bytes
	perftest ib_write_bw -s "$SIZE" -n "$BW_ITERS" | result_col "$SIZE" 4 |
		awk '{ printf "%.4f\n", $1 * 1048576 * 8 / 1e9 }' >>"$tmp/write_bw"
	out=$("$RD" -j path test peer "$PEER" --tests write --iters "$BW_ITERS" --size "$SIZE" 2>"$tmp/err")
	stage_value path.write_bw bandwidth_gbps <<<"$out" >>"$tmp/rd_bw"
	keep_if_nan rd_bw "$out$(cat "$tmp/err")"
	printf '%7d %8s %8s  %9s %9s  %10s %10s %16s\n' "$i" "$(tail -1 "$tmp/send_lat1")" "$(tail -1 "$tmp/send_lat2")" \
		"$(tail -1 "$tmp/rd_lat1")" "$(tail -1 "$tmp/rd_lat2")" "$(tail -1 "$tmp/write_lat")" \
		"$(tail -1 "$tmp/write_bw")" "$(tail -1 "$tmp/rd_bw")"
done
peer_kill "$h" TERM
peer_bg_wait "$h" 10 >/dev/null
cat "$tmp/send_lat1" "$tmp/send_lat2" >"$tmp/send_lat"
cat "$tmp/rd_lat1" "$tmp/rd_lat2" >"$tmp/rd_lat"
# a round's mean of its two rdmadiag runs, against its one ib_write_lat run
paste "$tmp/rd_lat1" "$tmp/rd_lat2" | awk '{ print ($1 + $2) / 2 }' >"$tmp/rd_lat_mean"

echo "# ratios over $ROUNDS rounds, median (quartiles); poll mode ${RDMADIAG_PATH_POLL:-default}:"
echo "latency 8 B p50 / ib_send_lat t_typical:  $(paired rd_lat send_lat)   (target <= 1.00; $((2 * ROUNDS)) adjacent pairs)"
echo "ib_send_lat against itself (2nd / 1st):   $(paired send_lat2 send_lat1)   (the noise floor)"
echo "latency 8 B p50 / ib_write_lat t_typical: $(paired rd_lat_mean write_lat)"
echo "write bw $SIZE B / ib_write_bw:       $(paired rd_bw write_bw)   (target >= 0.98)"
