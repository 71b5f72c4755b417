#!/usr/bin/env bats
# system check with a peer: VM B runs `path serve`; from VM A,
# `system check peer B --quick` passes; with B dropping UDP 4791 the
# connection layer is the one named first.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
load ../json-schema
bats_require_minimum_version 1.5.0

RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}

setup() {
	[ "${LAB:-}" = 1 ] && [ -n "${LAB_SHARED:-}" ] ||
		skip "not inside a two-VM lab run (run: tests/lab/lab.sh run2-agent bats ...)"
	. "$LAB_REPO/tests/lab/peer.sh"
	SERVE=$(peer_run_bg "exec $RD path serve --idle-timeout 10")
	peer_until -t 30 "ss -Hltn 'sport = :4792' | grep -q ."
}

teardown() {
	[ -n "${SERVE:-}" ] && { peer_kill "$SERVE" TERM; peer_bg_wait "$SERVE" 10 || true; }
	[ -n "${UNDO_PEER:-}" ] && peer_run "$UNDO_PEER"
	return 0
}

# 50 round trips: longer latency runs stall in this lab (tests/lab/two-host/40-path.bats)
@test "healthy pair: system check peer --quick passes every layer, no bandwidth stage runs" {
	run --separate-stderr "$RD" -j system check peer "$LAB_PEER_IP" --quick --interval 0.5 --iters 50
	echo "$output" | jq -c '.layers[] | [.layer, .verdict, .summary]'
	echo "$stderr"
	assert_success
	jq -e '[.layers[] | .layer] == ["device", "resource", "counter", "connection", "performance"]' <<<"$output"
	jq -e '[.layers[] | .verdict] | all(. == "pass" or . == "warn")' <<<"$output"
	jq -e --arg p "$LAB_PEER_IP" '.path_test[0].peer == $p and .layers[3].peer == $p' <<<"$output"
	jq -e '[.path_test[0].stages[] | .id] | index("path.write_bw") == null and index("path.rc_latency") != null' <<<"$output"
	jq -e '[.path_test[0].stages[] | select(.id == "path.rc_connect") | .verdict] == ["pass"]' <<<"$output"
	jq -e '.fix_first | not' <<<"$output"
	validate_output system-check
}

@test "UDP 4791 dropped on the peer: the connection layer is named first" {
	peer_run iptables -A INPUT -p udp --dport 4791 -j DROP
	UNDO_PEER="iptables -D INPUT -p udp --dport 4791 -j DROP"
	run --separate-stderr "$RD" system check peer "$LAB_PEER_IP" --quick --interval 0.5
	echo "$output"
	assert_failure 1
	assert_line --regexp "^connection +FAIL +path test $LAB_PEER_IP "
	assert_line --regexp "^performance +SKIP +path test $LAB_PEER_IP "
	assert_line --regexp "^fix first: the connection layer \(path test $LAB_PEER_IP\): path.rc_connect on "
	assert_output --partial "RoCE traffic (UDP 4791) is not getting through"
	assert_line --regexp '^device +(PASS|WARN) '
}
