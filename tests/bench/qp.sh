#!/bin/bash
# Benchmark of rdmadiag qp show / qp watch against rdma(8), in the lab:
#   tests/lab/lab.sh run1 tests/bench/qp.sh [COUNTS...]     (default 100 1000 10000)
# With N QPs open on $LAB_RXE (held by tests/helpers/qp_holder, RC and UD in
# INIT), for each N: median wall time of RUNS (default 7) rounds, RUNS_SMALL
# (default 21) up to 2,000 QPs, where rounds are cheap and noise weighs
# most, each round running in turn
#   rdmadiag qp show, rdmadiag -j qp show, rdma res show qp, rdma -j res show qp,
#   and the floor: the bare netlink dump (tests/tools/nl_qp_dump), no parsing;
# interleaved, so that a machine getting busier or quieter weighs on all five
# alike (the lab's timings swing by 10-20% over a minute); then the same from
# each command's fastest run, which noise cannot make faster; then the
# median and quartiles of each round's own ratios (the two commands of a
# ratio ran back to back);
# peak RSS of rdmadiag -j qp show; and, at the largest N, the CPU time of
# 10 polls of rdmadiag qp watch --interval 1 against 10 runs of
# `rdma res show qp` one second apart (what `watch -n1 rdma res show qp` runs).
# RDMADIAG_BASE=BIN also times BIN (an older build) for a before/after
# comparison: runs of both, and of the floor, interleaved (RUNS_BASE rounds,
# default 11), so that a noisy machine weighs on both alike.
# WATCH_CPU=0 leaves out the qp watch part.
# ASLR=off (lab VMs only) first turns address-space randomization off in the
# VM, for all five commands alike: under TCG, code loaded at a new address is
# translated again on every run, about 5 ms of rdmadiag's qp show path that a
# real CPU does not pay (tests/lab/README.md, "Timing under TCG"). Run with and
# without it to tell that cost from the work per QP.
set -u
cd "$(dirname "$0")/../.." || exit 1
RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
DEV=${LAB_RXE:-rxe0}
BASE=${RDMADIAG_BASE:-}
RUNS=${RUNS:-7}
RUNS_SMALL=${RUNS_SMALL:-21}
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(100 1000 10000)

# Before the QP holder starts: a refusal leaves nothing to clean up.
if [ "${ASLR:-on}" = off ]; then
	if [ "${LAB:-}" != 1 ] || ! echo 0 >/proc/sys/kernel/randomize_va_space; then
		echo "qp.sh: ASLR=off needs a lab VM (LAB=1, root): it changes the whole kernel's setting;" \
			"run: tests/lab/lab.sh run1 env ASLR=off tests/bench/qp.sh" >&2
		exit 1
	fi
	echo "# ASLR off in this VM (kernel.randomize_va_space=0), for every command alike"
fi

# shellcheck source=tests/bench/lib.sh
. tests/bench/lib.sh
tmp=$(mktemp -d)
trap 'holder_stop; rm -rf "$tmp"' EXIT
holder_start "$DEV" "$tmp"

peak_rss_kib() {
	/usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1
}

# once_time CMD...: wall seconds of one run, stdout discarded
once_time() {
	local t0=$EPOCHREALTIME
	"$@" >/dev/null 2>&1
	awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.4f\n", b - a }'
}

median_of() { sort -n "$1" | sed -n "$((($(wc -l <"$1") + 1) / 2))p"; }
min_of() { sort -n "$1" | head -n 1; }

# paired NUM DEN: the ratio NUM/DEN of each round (line by line: the two ran
# one after the other), as "median (q1-q3)". A slow spell of the machine
# weighs on both runs of a round alike, where it can move one command's
# median without the other's.
paired() {
	paste "$1" "$2" | awk '$2 > 0 { print $1 / $2 }' | sort -n | awk '
		{ v[NR] = $1 }
		END { if (!NR) { print "n/a"; exit }
		      printf "%.2f (%.2f-%.2f)", v[int((NR + 1) / 2)], v[int((NR + 3) / 4)], v[int((3 * NR + 3) / 4)] }'
}

# compare_base TOTAL: this build and $BASE, text and -j, and the floor, in turn
compare_base() {
	local i k
	rm -f "$tmp"/t.*
	for ((i = 0; i < ${RUNS_BASE:-11}; i++)); do
		once_time "$RD" qp show "$DEV" >>"$tmp/t.new"
		once_time "$BASE" qp show "$DEV" >>"$tmp/t.base"
		once_time "$RD" -j qp show "$DEV" >>"$tmp/t.new_j"
		once_time "$BASE" -j qp show "$DEV" >>"$tmp/t.base_j"
		once_time tests/tools/nl_qp_dump "$idx" >>"$tmp/t.floor"
	done
	for k in new base new_j base_j floor; do
		eval "m_$k=\$(median_of \"\$tmp/t.\$k\")"
	done
	# shellcheck disable=SC2154 # set by the eval above
	printf '# before/after, interleaved: %s QPs: text %s -> %s (%.2fx -> %.2fx floor), -j %s -> %s (%.2fx -> %.2fx), floor %s, rss %s -> %s KiB\n' \
		"$1" "$m_base" "$m_new" "$(ratio "$m_base" "$m_floor")" "$(ratio "$m_new" "$m_floor")" \
		"$m_base_j" "$m_new_j" "$(ratio "$m_base_j" "$m_floor")" "$(ratio "$m_new_j" "$m_floor")" "$m_floor" \
		"$(peak_rss_kib "$BASE" -j qp show "$DEV")" "$(peak_rss_kib "$RD" -j qp show "$DEV")"
	# noise only adds time: the fastest runs compare what each program costs
	for k in new base new_j base_j floor; do
		eval "n_$k=\$(min_of \"\$tmp/t.\$k\")"
	done
	# shellcheck disable=SC2154 # set by the eval above
	printf '# fastest runs: %s QPs: text %s -> %s (%.2fx -> %.2fx floor), -j %s -> %s (%.2fx -> %.2fx), floor %s\n' \
		"$1" "$n_base" "$n_new" "$(ratio "$n_base" "$n_floor")" "$(ratio "$n_new" "$n_floor")" \
		"$n_base_j" "$n_new_j" "$(ratio "$n_base_j" "$n_floor")" "$(ratio "$n_new_j" "$n_floor")" "$n_floor"
}

idx=$(rdma -j dev show "$DEV" | jq '.[0].ifindex')
printf '%-7s %9s %9s %9s %9s %9s %8s %8s %8s %9s\n' QPs rd rd_-j rdma rdma_-j floor rd/rdma rd/floor -j/floor rss_KiB
for n in "${counts[@]}"; do
	hold "$n" || break
	total=$("$RD" -j qp show "$DEV" | jq '.qps | length')
	rm -f "$tmp"/w.*
	rounds=$RUNS
	[ "$n" -gt 2000 ] || rounds=$RUNS_SMALL
	for ((i = 0; i < rounds; i++)); do
		once_time "$RD" qp show "$DEV" >>"$tmp/w.a"
		once_time "$RD" -j qp show "$DEV" >>"$tmp/w.b"
		once_time rdma res show qp link "$DEV" >>"$tmp/w.c"
		once_time rdma -j res show qp link "$DEV" >>"$tmp/w.d"
		once_time tests/tools/nl_qp_dump "$idx" >>"$tmp/w.f"
	done
	r=$(peak_rss_kib "$RD" -j qp show "$DEV")
	for pick in median_of min_of; do
		a=$($pick "$tmp/w.a") b=$($pick "$tmp/w.b") c=$($pick "$tmp/w.c")
		d=$($pick "$tmp/w.d") f=$($pick "$tmp/w.f")
		[ "$pick" = min_of ] && label="$total fastest" || label=$total
		printf '%-7s %9s %9s %9s %9s %9s %8.2f %8.2f %8.2f %9s\n' "$label" "$a" "$b" "$c" "$d" "$f" \
			"$(ratio "$a" "$c")" "$(ratio "$a" "$f")" "$(ratio "$b" "$f")" "$r"
	done
	printf '# %s QPs, per-round ratios over %d rounds, median (quartiles): rd/rdma %s, rd/floor %s, -j/floor %s\n' \
		"$total" "$rounds" "$(paired "$tmp/w.a" "$tmp/w.c")" "$(paired "$tmp/w.a" "$tmp/w.f")" \
		"$(paired "$tmp/w.b" "$tmp/w.f")"
	[ -z "$BASE" ] || compare_base "$total"
done
[ "${WATCH_CPU:-1}" = 0 ] && exit 0

# CPU of 10 polls, one second apart, at the largest count
cpu() { /usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -n 1 | awk '{ printf "%.2f", $1 + $2 }'; }
w=$(cpu "$RD" qp watch "$DEV" --interval 1 --count 10)
x=$(cpu bash -c "for i in 1 2 3 4 5 6 7 8 9 10; do rdma res show qp link $DEV; sleep 1; done")
echo "# CPU seconds for 10 polls at 1 s: rdmadiag qp watch $w, rdma res show qp x10 $x, ratio $(ratio "$w" "$x")"
