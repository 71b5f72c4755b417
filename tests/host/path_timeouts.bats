#!/usr/bin/env bats
# Every network wait of `path test` that a host without RDMA reaches (the
# control channel) ends within its bound, names the stage and gives a hint.
# Fake peers on 127.0.0.1 (path_fake_peer.py) play each way a peer can hang.
# The bounds: the control stage has 3 s (connect + HELLO); --timeout S caps the
# whole run. Slack: +2 s for the sanitized binary and a loaded machine. The RDMA
# waits (CM events, completions, serve's idle timeout) are tested in the lab:
# tests/lab/two-host/70-serve-hostile.bats.

load helpers
bats_require_minimum_version 1.5.0

CONTROL_BOUND=3
SLACK=2

setup() {
	if host_has_rdma; then
		skip "this host has RDMA; these tests cover the control channel of a host without it"
	fi
}

start_fake() {
	coproc FAKE { exec python3 "$BATS_TEST_DIRNAME/path_fake_peer.py" "$1"; }
	FAKE_PID=$FAKE_PID
	read -r FAKE_PORT <&"${FAKE[0]}"
}

teardown() {
	if [ -n "${FAKE_PID:-}" ]; then
		kill "$FAKE_PID" 2>/dev/null || true
		wait "$FAKE_PID" 2>/dev/null || true
	fi
}

# run_timed ARGS...: runs rdmadiag, sets ELAPSED_MS
run_timed() {
	local t0=${EPOCHREALTIME/./}
	run --separate-stderr rd "$@"
	ELAPSED_MS=$(((${EPOCHREALTIME/./} - t0) / 1000))
	echo "$output"
	echo "elapsed: $ELAPSED_MS ms"
}

# within BOUND_S: ELAPSED_MS <= bound + slack, and not suspiciously early
within() {
	[ "$ELAPSED_MS" -le $((($1 + SLACK) * 1000)) ]
}

@test "peer silent after accepting: control fails at its 3 s bound, names the stage and the hint" {
	start_fake silent
	run_timed path test peer 127.0.0.1 --port "$FAKE_PORT"
	assert_failure 3
	assert_line --regexp "^FAIL  path.control .*127.0.0.1 port $FAKE_PORT connected but did not answer: timed out waiting for the peer"
	assert_line --partial "hint: the peer's serve is stuck or busy; restart 'rdmadiag path serve'"
	within $CONTROL_BOUND
	# it really waited for the peer (not an instant failure)
	[ "$ELAPSED_MS" -ge $((CONTROL_BOUND * 1000 - 200)) ]
}

@test "peer stalls in the middle of a message header: bounded, same stage" {
	start_fake partial
	run_timed path test peer 127.0.0.1 --port "$FAKE_PORT"
	assert_failure 3
	assert_line --regexp "^FAIL  path.control .*connected but did not answer: timed out waiting for the peer"
	within $CONTROL_BOUND
}

@test "peer drips a valid answer one byte at a time: the deadline is absolute" {
	start_fake drip
	run_timed path test peer 127.0.0.1 --port "$FAKE_PORT"
	assert_failure 3
	assert_line --regexp "^FAIL  path.control .*did not answer: timed out waiting for the peer"
	within $CONTROL_BOUND
}

@test "SYN never answered (listen queue full): connect times out within the control bound" {
	start_fake backlog
	run_timed path test peer 127.0.0.1 --port "$FAKE_PORT"
	assert_failure 3
	assert_line --regexp "^FAIL  path.control .*connecting to 127.0.0.1 port $FAKE_PORT timed out: host down, or a firewall drops TCP port $FAKE_PORT"
	assert_line --partial "hint: check that the peer is up and that its firewall allows TCP port $FAKE_PORT"
	within $CONTROL_BOUND
}

@test "peer vanishes mid-session (closes after the HELLO): fails at once, says it closed" {
	start_fake closing
	run_timed path test peer 127.0.0.1 --port "$FAKE_PORT"
	assert_failure 3
	assert_line --regexp "^FAIL  path.control .*did not answer: the peer closed the connection"
	within 1
}

@test "--timeout 1 caps the control wait below its own bound" {
	start_fake silent
	run_timed -j path test peer 127.0.0.1 --port "$FAKE_PORT" --timeout 1
	assert_failure 3
	echo "$output" | jq -e '.stages[0].id == "path.control" and .stages[0].verdict == "fail"'
	echo "$output" | jq -e '.stages[0].duration_ms < 1500'
	within 1
}

@test "-j: a timed-out control stage is one valid JSON document with its duration" {
	start_fake partial
	run_timed -j path test peer 127.0.0.1 --port "$FAKE_PORT"
	assert_failure 3
	echo "$output" | jq -e '.stages[0] | .id == "path.control" and .verdict == "fail" and (.measured | test("timed out")) and .duration_ms >= 2800 and .duration_ms <= 5000'
}
