#!/usr/bin/env bats
# Every --format prometheus and openmetrics output of a live host passes
# Prometheus's own checker (promtool check metrics, through
# tests/tools/promtool-check.sh), after traffic has moved the counters: the
# fixtures prove the names, this proves what a real rxe device makes of them.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
bats_require_minimum_version 1.5.0

setup() {
	[ "${LAB:-}" = 1 ] || skip "not inside the lab (run: tests/lab/lab.sh run1 bats ...)"
	RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
}

# $1 flavour, rest: the command; its output must hold rdmadiag_ series and pass promtool.
metrics_pass() {
	local flavor=$1 out="$BATS_TEST_TMPDIR/metrics"
	shift
	"$RD" "$@" --format "$flavor" >"$out"
	echo "rdmadiag $* --format $flavor: exit $?, $(grep -c '^rdmadiag_' "$out") series"
	grep -q '^rdmadiag_' "$out"
	tests/tools/promtool-check.sh "$flavor" "$out"
}

@test "live metrics after loopback traffic pass promtool check metrics, every command and format" {
	ib_write_bw -d "$LAB_RXE" -x 1 -n 200 -s 4096 >/dev/null 2>&1 &
	sleep 1
	timeout 120 ib_write_bw -d "$LAB_RXE" -x 1 -n 200 -s 4096 "$LAB_IP" >/dev/null 2>&1 || true
	wait
	for flavor in prometheus openmetrics; do
		metrics_pass "$flavor" counter show
		metrics_pass "$flavor" counter check
		metrics_pass "$flavor" link check
		metrics_pass "$flavor" system check
	done
}
