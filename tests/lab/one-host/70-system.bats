#!/usr/bin/env bats
# (fd 3 is bats' TAP stream: the holder's orders go through fd 7)
# system check against the lab's rdma_rxe: a healthy host passes every layer
# and exits 0; with the netdev down the device layer is named first; a QP
# held in ERR by tests/helpers/qp_holder fails the resource layer.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
load ../json-schema
bats_require_minimum_version 1.5.0

RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
PORT=/sys/class/infiniband/$LAB_RXE/ports/1
HOLDER=tests/helpers/qp_holder

setup() {
	[ "${LAB:-}" = 1 ] || skip "lab only (tests/lab/lab.sh)"
}

wait_port() { # wait_port ACTIVE|DOWN: the rxe port follows the netdev within a moment
	for _ in $(seq 50); do
		if grep -q ACTIVE "$PORT/state"; then [ "$1" = ACTIVE ] && return 0; else [ "$1" = DOWN ] && return 0; fi
		sleep 0.1
	done
	return 1
}

teardown() {
	exec 7>&- || true
	[ -z "${HPID:-}" ] || wait "$HPID" 2>/dev/null || true
	ip link set "$LAB_NIC" up
	wait_port ACTIVE
}

@test "healthy host: every layer passes or warns, no finding fails, exit 0" {
	run --separate-stderr "$RD" -j system check --interval 0.5
	echo "$output" | jq -c '.layers[] | [.layer, .verdict, .summary]'
	assert_success
	jq -e '[.layers[] | .layer] == ["device", "resource", "counter"]' <<<"$output"
	jq -e '[.layers[] | .verdict] | all(. == "pass" or . == "warn")' <<<"$output"
	jq -e '.layers[0].verdict == "pass" or .layers[0].verdict == "warn"' <<<"$output"
	jq -e '.fix_first | not' <<<"$output"
	jq -e '.link_check.summary.fail == 0 and .link_check.summary.pass > 5' <<<"$output"
	jq -e '[.qp_watch.checks[] | .id] == ["qp.broken", "qp.stuck"] and .qp_watch.summary.pass == 2' <<<"$output"
	jq -e '.counter_check.summary.pass > 0' <<<"$output"
	validate_output system-check
	run "$RD" system check --interval 0.5
	assert_success
	assert_line --regexp '^device +(PASS|WARN) +link check '
	assert_line --regexp '^resource +PASS +qp watch +2 pass, 0 warn, 0 fail, 0 skip; [0-9]+ QPs? sampled 0.5 s apart$'
	assert_line 'no layer fails'
}

@test "netdev down: the device layer fails and is named first, with the ip link hint" {
	ip link set "$LAB_NIC" down
	wait_port DOWN
	run --separate-stderr "$RD" system check --interval 0.5
	echo "$output"
	assert_failure 1
	assert_line --regexp '^device +FAIL +link check '
	assert_line --regexp "^fix first: the device layer \(link check\): port.state on $LAB_RXE/1$"
	assert_line --regexp "^FAIL  netdev.up +$LAB_RXE/1 "
	assert_output --partial "hint: ip link set dev $LAB_NIC up"
	run --separate-stderr "$RD" -j system check --interval 0.5
	jq -e --arg p "$LAB_RXE/1" '.fix_first == {"layer": "device", "command": "link check", "check": "port.state", "subject": $p}' <<<"$output"
	validate_output system-check
}

@test "a QP held in ERR fails the resource layer with its pid and comm" {
	mkfifo "$BATS_TEST_TMPDIR/in"
	"$HOLDER" "$LAB_RXE" <"$BATS_TEST_TMPDIR/in" >"$BATS_TEST_TMPDIR/out" 2>&1 &
	HPID=$!
	exec 7>"$BATS_TEST_TMPDIR/in"
	echo "create rc err" >&7
	for _ in $(seq 200); do grep -q '^qp ' "$BATS_TEST_TMPDIR/out" && break; sleep 0.1; done
	qpn=$(awk '$1 == "qp" { print $2 }' "$BATS_TEST_TMPDIR/out")
	[ -n "$qpn" ]
	run --separate-stderr "$RD" -j system check --interval 0.5
	assert_failure 1
	jq -e '.layers[1].verdict == "fail" and .layers[0].verdict != "fail"' <<<"$output"
	jq -e --arg s "$LAB_RXE/1 qp $qpn" '.fix_first.layer == "resource" and .fix_first.subject == $s' <<<"$output"
	jq -e --argjson q "$qpn" --argjson p "$HPID" \
		'.qp_watch.events[] | select(.lqpn == $q) | .flag == "broken" and .pid == $p and .comm == "qp_holder"' <<<"$output"
	validate_output system-check
	echo quit >&7
}
