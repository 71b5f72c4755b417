#!/bin/bash
# A/B of two rdmadiag builds' latency stage against ib_send_lat on one
# two-VM lab pair, to see what a change does to the latency figure in a few
# minutes. Run from the repo on the host:
#   LAB_VCPU_SCHED=idle LAB_ENV="RDMADIAG_A RDMADIAG_B ROUNDS LAB_VCPU_SCHED" \
#   RDMADIAG_A=/path/to/old/rdmadiag RDMADIAG_B=rdmadiag/rdmadiag \
#     tests/lab/lab.sh run2-agent --timeout 900 tests/bench/path_ab.sh
# Each round runs ib_send_lat (P), build A and build B once each (8 B, 1000
# round trips, as tests/bench/path.sh does) in a rotating order (P A B,
# A B P, B P A), each build against its own path serve (ports 4792 and
# 4793), so drift within a round and the run before weigh on all three
# alike. It prints each round's p50s and the median (quartiles) of A/P, B/P
# and B/A over ROUNDS rounds (default 16). Give the same binary as A and B
# to see the spread between identical arms (about 1% at 24 rounds here);
# without LAB_VCPU_SCHED=idle that spread is several times larger.
set -uo pipefail
# shellcheck source=tests/lab/peer.sh
. "$LAB_REPO/tests/lab/peer.sh"
# shellcheck source=tests/lab/gid.sh
. "$LAB_REPO/tests/lab/gid.sh"
DEV=${LAB_RXE:-rxe0}
PEER=$LAB_PEER_IP
ROUNDS=${ROUNDS:-16}
A=${RDMADIAG_A:?RDMADIAG_A: the first rdmadiag binary}
B=${RDMADIAG_B:?RDMADIAG_B: the second rdmadiag binary}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/bench/lab_pair.sh
. "$LAB_REPO/tests/bench/lab_pair.sh"
lab_pair_gids || exit 1

# arm NAME: one run, its figure appended to $tmp/NAME
arm() {
	case $1 in
	P) perftest ib_send_lat -s 8 -n 1000 2>&1 | result_col 8 5 ;;
	A) "$A" -j path test peer "$PEER" --tests lat --iters 1000 --lat-size 8 2>/dev/null |
		stage_value path.rc_latency latency_p50_us ;;
	B) "$B" -j path test peer "$PEER" --port 4793 --tests lat --iters 1000 --lat-size 8 2>/dev/null |
		stage_value path.rc_latency latency_p50_us ;;
	esac >>"$tmp/$1"
}

ha=$(peer_run_bg "exec $A path serve --idle-timeout 900")
hb=$(peer_run_bg "exec $B path serve --port 4793 --idle-timeout 900")
peer_until -t 60 "ss -Hltn 'sport = :4792' | grep -q . && ss -Hltn 'sport = :4793' | grep -q ." >/dev/null ||
	{ echo "bench: the path serves did not start on the peer" >&2; exit 1; }
order=(P A B)
printf '# A %s\n# B %s\n# vCPU threads: %s\n# round  ib_send_lat  A_p50  B_p50 [us]\n' "$A" "$B" \
	"${LAB_VCPU_SCHED:-normal scheduling (LAB_VCPU_SCHED unset)}"
for ((i = 1; i <= ROUNDS; i++)); do
	for ((k = 0; k < 3; k++)); do
		arm "${order[$(((k + i) % 3))]}"
	done
	printf '%7d %12s %9s %9s\n' "$i" "$(tail -1 "$tmp/P")" "$(tail -1 "$tmp/A")" "$(tail -1 "$tmp/B")"
done
peer_kill "$ha" TERM
peer_kill "$hb" TERM
peer_bg_wait "$ha" 10 >/dev/null
peer_bg_wait "$hb" 10 >/dev/null
echo "# latency p50 ratios over $ROUNDS rounds, median (quartiles):"
echo "A / ib_send_lat: $(paired A P)"
echo "B / ib_send_lat: $(paired B P)"
echo "B / A:           $(paired B A)"
