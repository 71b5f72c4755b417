#!/bin/bash
# Benchmark of rdmadiag qp show / qp watch against rdma(8), in the lab:
#   tests/lab/lab.sh run1 tests/bench/qp.sh [COUNTS...]     (default 100 1000 10000)
# With N QPs open on $LAB_RXE (held by tests/helpers/qp_holder, RC and UD in
# INIT), for each N: median wall time of 5 runs of
#   rdmadiag qp show, rdmadiag -j qp show, rdma res show qp, rdma -j res show qp,
#   and the floor: the bare netlink dump (tests/tools/nl_qp_dump), no parsing;
# peak RSS of rdmadiag -j qp show; and, at the largest N, the CPU time of
# 10 polls of rdmadiag qp watch --interval 1 against 10 runs of
# `rdma res show qp` one second apart (what `watch -n1 rdma res show qp` runs).
set -u
cd "$(dirname "$0")/../.." || exit 1
RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
DEV=${LAB_RXE:-rxe0}
RUNS=5
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(100 1000 10000)

# shellcheck source=tests/bench/lib.sh
. tests/bench/lib.sh
tmp=$(mktemp -d)
trap 'holder_stop; rm -rf "$tmp"' EXIT
holder_start "$DEV" "$tmp"

peak_rss_kib() {
	/usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1
}

idx=$(rdma -j dev show "$DEV" | jq '.[0].ifindex')
printf '%-7s %9s %9s %9s %9s %9s %8s %8s %9s\n' QPs rd rd_-j rdma rdma_-j floor rd/rdma rd/floor rss_KiB
for n in "${counts[@]}"; do
	hold "$n" || break
	total=$("$RD" -j qp show "$DEV" | jq '.qps | length')
	a=$(wall "$RD" qp show "$DEV")
	b=$(wall "$RD" -j qp show "$DEV")
	c=$(wall rdma res show qp link "$DEV")
	d=$(wall rdma -j res show qp link "$DEV")
	f=$(wall tests/tools/nl_qp_dump "$idx")
	r=$(peak_rss_kib "$RD" -j qp show "$DEV")
	printf '%-7s %9s %9s %9s %9s %9s %8.2f %8.2f %9s\n' "$total" "$a" "$b" "$c" "$d" "$f" \
		"$(ratio "$a" "$c")" "$(ratio "$a" "$f")" "$r"
done

# CPU of 10 polls, one second apart, at the largest count
cpu() { /usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -n 1 | awk '{ printf "%.2f", $1 + $2 }'; }
w=$(cpu "$RD" qp watch "$DEV" --interval 1 --count 10)
x=$(cpu bash -c "for i in 1 2 3 4 5 6 7 8 9 10; do rdma res show qp link $DEV; sleep 1; done")
echo "# CPU seconds for 10 polls at 1 s: rdmadiag qp watch $w, rdma res show qp x10 $x, ratio $(ratio "$w" "$x")"
