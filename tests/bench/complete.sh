#!/bin/bash
# Benchmark of shell completion's live values, in the lab:
#   tests/lab/lab.sh run1 tests/bench/complete.sh [QPS]      (default 1000)
# Median wall time of `rdmadiag __complete` for device names, DEV/PORT and QP
# numbers (with QPS QPs held open), beside what a shell would otherwise run for
# the same candidates (`rdma dev show`, `rdma res show qp`), and the floor: the
# start-up of the same binary (`rdmadiag -V`). Under TCG a process start costs
# tens of ms, so the figure to read is the cost above the floor (target < 50 ms
# on real hardware, where the floor is ~1 ms) and the ratios.
set -u
cd "$(dirname "$0")/../.." || exit 1
RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
DEV=${LAB_RXE:-rxe0}
QPS=${1:-1000}
RUNS=9

# shellcheck source=tests/bench/lib.sh
. tests/bench/lib.sh
tmp=$(mktemp -d)
trap 'holder_stop; rm -rf "$tmp"' EXIT
holder_start "$DEV" "$tmp"
hold "$QPS" || exit 1

floor=$(wall "$RD" -V)
row() { # LABEL SECONDS [REFERENCE_SECONDS]
	local above
	above=$(awk -v a="$2" -v f="$floor" 'BEGIN { printf "%.1f", (a - f) * 1000 }')
	printf '%-34s %8.1f ms  above floor %7s ms%s\n' "$1" "$(awk -v a="$2" 'BEGIN { print a * 1000 }')" "$above" \
		"${3:+  ratio to reference $(ratio "$2" "$3")}"
}
rdma_dev=$(wall rdma dev show)
rdma_qp=$(wall rdma res show qp link "$DEV")
echo "# $(grep -c '^qp ' "$HOLDER_OUT") QPs held on $DEV; $RUNS runs each, median"
row "rdmadiag -V (floor)" "$floor"
row "rdma dev show (reference)" "$rdma_dev"
row "rdma res show qp (reference)" "$rdma_qp"
row "__complete link show <TAB>" "$(wall "$RD" __complete 3 rdmadiag link show '')" "$rdma_dev"
row "__complete link show $DEV/<TAB>" "$(wall "$RD" __complete 3 rdmadiag link show "$DEV/")" "$rdma_dev"
row "__complete qp show lqpn <TAB>" "$(wall "$RD" __complete 4 rdmadiag qp show lqpn '')" "$rdma_qp"
row "__complete qp show lqpn 1<TAB>" "$(wall "$RD" __complete 4 rdmadiag qp show lqpn 1)" "$rdma_qp"
row "__complete path test peer <TAB>" "$(wall "$RD" __complete 4 rdmadiag path test peer '')"
