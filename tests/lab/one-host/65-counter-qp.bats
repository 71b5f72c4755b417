#!/usr/bin/env bats
# (fd 3 is bats' TAP stream: the holder's orders go through fd 7)
# Per-QP counters against rdma_rxe, which has none: what the kernel answers
# there (measured: `rdma statistic qp mode` says "auto off", `set ... auto type
# on` succeeds but binds nothing, `bind` fails with ENOMEM, a non-root `set`
# with EPERM) and that rdmadiag turns each into a clear message. The
# mlx5 behaviour is tested on fixtures (tests/host/counter_qp.bats).

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
bats_require_minimum_version 1.5.0

RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
HOLDER=tests/helpers/qp_holder

setup() {
	[ "${LAB:-}" = 1 ] || skip "lab only (tests/lab/lab.sh)"
}

teardown() {
	[ "${LAB:-}" = 1 ] || return 0
	exec 7>&- 2>/dev/null || true
	[ -z "${HPID:-}" ] || wait "$HPID" 2>/dev/null || true
	rdma statistic qp set link "$LAB_RXE/1" auto off 2>/dev/null || true
}

@test "counter mode on rxe: mode none like rdma statistic, marked unsupported" {
	run --separate-stderr "$RD" -j counter mode "$LAB_RXE/1"
	assert_success
	[ "$(jq -r '.modes[0].mode' <<<"$output")" = none ]
	[ "$(jq -r '.modes[0].per_qp_counters' <<<"$output")" = unsupported ]
	rdma statistic qp mode link "$LAB_RXE/1" | grep -q 'qp auto off'
	# what the kernel itself says once auto mode is set behind our back
	rdma statistic qp set link "$LAB_RXE/1" auto type on
	run --separate-stderr "$RD" counter mode "$LAB_RXE/1"
	assert_success
	assert_output "$LAB_RXE/1: mode auto auto type per_qp_counters unsupported"
}

@test "counter mode set auto on rxe is refused with the unsupported message; the kernel mode stays off" {
	run --separate-stderr "$RD" counter mode set "$LAB_RXE/1" auto type
	assert_failure 3
	[[ "$stderr" == *"$LAB_RXE/1: this device/driver does not support per-QP counters (rxe)"* ]]
	[[ "$stderr" == *"use a device that does (mlx5)"* ]]
	rdma statistic qp mode link "$LAB_RXE/1" | grep -q 'qp auto off'
	# off is harmless and allowed
	run --separate-stderr "$RD" counter mode set "$LAB_RXE/1" auto off
	assert_success
	assert_output "$LAB_RXE/1: mode none per_qp_counters unsupported"
}

@test "counter bind on rxe: the kernel's ENOMEM becomes the unsupported message; show qp too" {
	mkfifo "$BATS_TEST_TMPDIR/in"
	"$HOLDER" "$LAB_RXE" <"$BATS_TEST_TMPDIR/in" >"$BATS_TEST_TMPDIR/out" 2>&1 &
	HPID=$!
	exec 7>"$BATS_TEST_TMPDIR/in"
	echo "create rc rts" >&7
	for _ in $(seq 100); do
		grep -q '^qp ' "$BATS_TEST_TMPDIR/out" && break
		sleep 0.1
	done
	q=$(awk '$1 == "qp" { print $2 }' "$BATS_TEST_TMPDIR/out")
	[ -n "$q" ] || { cat "$BATS_TEST_TMPDIR/out"; false; }
	run ! rdma statistic qp bind link "$LAB_RXE/1" lqpn "$q"
	[[ "$output" == *"Cannot allocate memory"* ]]
	run --separate-stderr "$RD" counter bind "$LAB_RXE/1" lqpn "$q"
	assert_failure 3
	[[ "$stderr" == *"does not support per-QP counters (rxe)"* ]]
	run --separate-stderr "$RD" -j counter show qp "$LAB_RXE"
	assert_failure 3
	[[ "$stderr" == *"does not support per-QP counters (rxe)"* ]]
	[ "$(jq -c '.counters' <<<"$output")" = '[]' ]
	echo quit >&7
}

@test "without CAP_NET_ADMIN: mode set says so, reading still works" {
	command -v setpriv >/dev/null || skip "no setpriv"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all \
		"$RD" counter mode set "$LAB_RXE/1" auto off
	assert_failure 3
	[[ "$stderr" == *"permission denied"* ]]
	[[ "$stderr" == *"needs CAP_NET_ADMIN"* ]]
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all \
		"$RD" counter mode "$LAB_RXE/1"
	assert_success
}
