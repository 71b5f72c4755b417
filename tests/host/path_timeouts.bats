#!/usr/bin/env bats
# Every network wait of `path test` that a host without RDMA reaches (the
# control channel) ends within its bound, names the stage and gives a hint.
# Fake peers on 127.0.0.1 (path_fake_peer.py) play each way a peer can hang.
# The bounds: the control stage has 4 s (connect + HELLO; a third SYN is sent at 3 s); --timeout S caps the
# whole run. Two checks per wait: the stage's own duration is within its bound
# + 0.5 s, and the wall time of the whole command within the bound + 4 s (the
# sanitized binary starts and exits slowly on a loaded machine). The RDMA
# waits (CM events, completions, serve's idle timeout) are tested in the lab:
# tests/lab/two-host/70-serve-hostile.bats and 72-serve-half-open.bats.

load helpers
load path_fake
bats_require_minimum_version 1.5.0

CONTROL_BOUND=4
SLACK=4

setup() {
	skip_with_rdma
}

teardown() {
	stop_fake
}

# run_timed ARGS...: runs rdmadiag, sets ELAPSED_MS
run_timed() {
	local t0=${EPOCHREALTIME/./}
	run --separate-stderr rd "$@"
	ELAPSED_MS=$(((${EPOCHREALTIME/./} - t0) / 1000))
	echo "$output"
	echo "elapsed: $ELAPSED_MS ms"
}

# within BOUND_S: the control stage took at most the bound + 0.5 s, the
# whole command at most the bound + SLACK
within() {
	local ms
	ms=$(sed -n 's/^FAIL  path\.control  *\([0-9]*\)\.[0-9] ms .*/\1/p' <<<"$output")
	if [ -z "$ms" ]; then
		ms=$(jq -r '.stages[0].duration_ms | floor' <<<"$output")
	fi
	echo "control stage: $ms ms, bound $1 s"
	[ "$ms" -le $(($1 * 1000 + 500)) ]
	[ "$ELAPSED_MS" -le $((($1 + SLACK) * 1000)) ]
}

@test "peer silent after accepting: control fails at its 4 s bound, names the stage and the hint" {
	start_fake silent
	run_timed path test peer 127.0.0.1 --port "$FAKE_PORT"
	assert_failure 3
	assert_line --regexp "^FAIL  path.control .*127.0.0.1 port $FAKE_PORT connected but did not answer: timed out waiting for the peer"
	assert_line --partial "hint: the peer's serve is stuck or busy; restart 'rdmadiag path serve'"
	within $CONTROL_BOUND
	# it really waited for the peer (not an instant failure)
	assert_line --regexp "^FAIL  path.control +(39[0-9][0-9]|4[0-9]{3})\.[0-9] ms"
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
	echo "$output" | jq -e '.stages[0] | .id == "path.control" and .verdict == "fail" and (.measured | test("timed out")) and .duration_ms >= 3800 and .duration_ms <= 6000'
}

@test "a bandwidth --duration longer than the peer's idle timeout is not refused: the stage keeps the session" {
	# Before the keepalive, path.control failed such a run ("ends a session
	# silent for 5 s"); the lab runs a real one (two-host/40-path.bats).
	start_fake idle5
	run_timed path test peer 127.0.0.1 --port "$FAKE_PORT" --tests write --duration 10
	assert_line --regexp "^PASS  path.control .*idle timeout 5000 ms"
	refute_output --partial "silent"
}
