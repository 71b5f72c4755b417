#!/bin/bash
# Benchmark: `rdmadiag system check --quick` against its parts run alone, side
# by side in one VM (rounds interleaved, so both see the same machine):
#   as documented:  link check + qp show + counter check (default 2 s interval)
#   same work:      link check + qp watch --count 2 --interval 1 --stuck 1
#                   + counter check --interval 1 (system check's 1 s samples)
# With a peer (two VMs: tests/lab/lab.sh run2-agent tests/bench/system.sh),
# B runs `path serve` and both sides add the peer test (path test --tests
# lat,ud,mtu,counters is what --quick runs). One VM:
#   tests/lab/lab.sh run1 tests/bench/system.sh [ROUNDS]
# Prints the median wall time of each and system check's time / the sum.
set -u
cd "$(dirname "$0")/../.." || exit 1
RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
ROUNDS=${1:-5}
PEER=${LAB_PEER_IP:-}
ITERS=${ITERS:-50}	# latency round trips per peer test (longer runs stall in the TCG lab)
T=$(mktemp -d)

now() { date +%s%N; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

if [ -n "$PEER" ]; then
	# shellcheck source=tests/lab/peer.sh
	. tests/lab/peer.sh
	SERVE=$(peer_run_bg "exec $RD path serve --idle-timeout 30")
	peer_until -t 60 "ss -Hltn 'sport = :4792' | grep -q ." || { echo "path serve did not start in B"; exit 1; }
fi
cleanup() {
	[ -z "$PEER" ] || peer_kill "$SERVE" TERM
	rm -rf "$T"
}
trap cleanup EXIT

peer_part() { [ -z "$PEER" ] || "$RD" path test peer "$PEER" --tests lat,ud,mtu,counters --iters "$ITERS"; }
system_quick() {
	if [ -n "$PEER" ]; then
		"$RD" system check peer "$PEER" --quick --iters "$ITERS"
	else
		"$RD" system check --quick
	fi
}
parts_documented() {
	"$RD" link check
	"$RD" qp show
	"$RD" counter check
	peer_part
}
parts_same_work() {
	"$RD" link check
	"$RD" qp watch --count 2 --interval 1 --stuck 1
	"$RD" counter check --interval 1
	peer_part
}

ms() { # ms CMD: wall time of one run in ms
	local t0 t1
	t0=$(now)
	"$@" >/dev/null 2>&1
	t1=$(now)
	echo $(((t1 - t0) / 1000000))
}

for _ in $(seq "$ROUNDS"); do
	ms system_quick >>"$T/a"
	ms parts_documented >>"$T/b"
	ms parts_same_work >>"$T/c"
done
sys_ms=$(median <"$T/a")
doc_ms=$(median <"$T/b")
same_ms=$(median <"$T/c")
echo "system check --quick${PEER:+ peer $PEER}: ${sys_ms} ms (median of $ROUNDS)"
echo "parts as documented:  ${doc_ms} ms (link check + qp show + counter check${PEER:+ + path test --tests lat,ud,mtu,counters})"
echo "parts, same samples:  ${same_ms} ms (link check + qp watch 2x1 s + counter check --interval 1${PEER:+ + path test})"
awk -v s="$sys_ms" -v d="$doc_ms" -v w="$same_ms" 'BEGIN {
	printf "ratio system/parts as documented: %.2f (acceptance: <= 1.5)\n", (d > 0 ? s / d : 0)
	printf "ratio system/parts, same samples: %.2f\n", (w > 0 ? s / w : 0) }'
