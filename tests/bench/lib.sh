# Shared by the lab benchmarks (sourced): timing and a QP holder.
# shellcheck shell=bash

# Seconds from bash itself (no `date` process whose start-up would be timed too).
now() { echo "$EPOCHREALTIME"; }

# wall CMD...: median wall seconds of RUNS (default 5) runs, stdout discarded
wall() {
	local i t0 t1 runs=${RUNS:-5}
	for ((i = 0; i < runs; i++)); do
		t0=$EPOCHREALTIME
		"$@" >/dev/null 2>&1
		t1=$EPOCHREALTIME
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", b - a }'
	done | sort -n | sed -n "$(((runs + 1) / 2))p"
}

# holder_start DEV DIR: tests/helpers/qp_holder on DEV, fed through fd 7
holder_start() {
	HOLDER_OUT=$2/holder.out
	mkfifo "$2/holder.in"
	tests/helpers/qp_holder "$1" <"$2/holder.in" >"$HOLDER_OUT" 2>&1 &
	exec 7>"$2/holder.in"
}

holder_stop() {
	echo quit >&7
	exec 7>&-
	wait
}

# hold N: N QPs held in total (RC and UD in INIT; adds the missing ones), at most 20 min
hold() {
	local want=$1 have n t0
	have=$(grep -c '^qp ' "$HOLDER_OUT")
	n=$((want - have))
	t0=$(now)
	for ((i = 0; i < n; i++)); do
		if ((i % 2)); then echo "create ud init"; else echo "create rc init"; fi
	done >&7
	for _ in $(seq 12000); do
		[ "$(grep -c '^qp \|^error' "$HOLDER_OUT")" -ge "$want" ] && break
		sleep 0.1
	done
	if grep -q '^error' "$HOLDER_OUT"; then
		echo "# holder: $(grep -m1 '^error' "$HOLDER_OUT")"
		return 1
	fi
	echo "# created $n QPs in $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s"
}

# ratio A B: A / B with two decimals
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
