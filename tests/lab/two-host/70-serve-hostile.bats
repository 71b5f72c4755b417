#!/usr/bin/env bats
# path serve (VM B) under attack from VM A: malformed and hostile control
# sessions (tests/lab/hostile_client.py), 100 concurrent connections, clients
# that stall or vanish, RDMA accesses outside the advertised buffer
# (tests/helpers/path_probe), and the timeouts of every network wait of a
# session. After each: serve still answers a good client, its RSS stays
# bounded, and B's RDMA resources are back to the baseline.

load path-helpers
load ../json-schema

HOSTILE=tests/lab/hostile_client.py
PROBE=tests/helpers/path_probe
IDLE=2		# serve --idle-timeout in these tests
RSS_GROWTH_KB=2048

setup() {
	path_setup
}

teardown() {
	path_teardown
}

# start_serve of path-helpers, and the serve's pid in B
start_hostile_serve() {
	start_serve "$@"
	IFS= read -r SERVE_PID <"$PEER_DIR/res/$SERVE.pid"
}

# B's RDMA resource counts (pd cq qp cm_id mr ...) per device, one line
resources() {
	peer_run "rdma res show" | tr -s ' '
}

serve_rss_kb() {
	peer_run "awk '/^VmRSS/ {print \$2}' /proc/$SERVE_PID/status"
}

# session processes of serve still running
serve_children() {
	peer_run "pgrep -c -P $SERVE_PID || true"
}

# Send/receive only: serve's idle timer counts control-channel silence, and a
# one-sided WRITE/READ stage longer than these tests' 2 s --idle-timeout is
# silent (TCG is slow), so it would be cut by design.
good_client() {
	run "$RD" path test peer "$LAB_PEER_IP" --tests lat,send --iters 20
	echo "$output"
	assert_success
}

# Before an attack: B's RDMA resources and serve's RSS once it has served a
# good session (its first session warms up the allocator and libraries).
baseline() {
	BEFORE=$(resources)
	good_client
	wait_until -t 15 test "$(serve_children)" = 0
	RSS0=$(serve_rss_kb)
}

# After it: serve answers a good client, its RSS grew by at most
# RSS_GROWTH_KB, its session processes are gone, B's resources are as before.
assert_recovered() {
	good_client
	local rss1
	rss1=$(serve_rss_kb)
	echo "serve RSS: $RSS0 kB before, $rss1 kB after"
	[ "$rss1" -le $((RSS0 + RSS_GROWTH_KB)) ]
	wait_until -t 15 test "$(serve_children)" = 0
	assert_equal "$(resources)" "$BEFORE"
}

@test "malformed control sessions: each gets an error or is closed, one log line each, serve keeps serving" {
	start_hostile_serve --idle-timeout $IDLE --max-sessions 4
	baseline
	attacks="garbage random oversize short-len version type-zero type-unknown wrong-type out-of-order huge-size zero-size bad-string"
	: >"$BATS_TEST_TMPDIR/res"
	for a in $attacks; do
		HOSTILE_WAIT=$((IDLE + SLACK)) python3 "$HOSTILE" "$LAB_PEER_IP" 4792 "$a" | tee -a "$BATS_TEST_TMPDIR/res"
	done
	run cat "$BATS_TEST_TMPDIR/res"
	# every one ended by serve (an error message or a close), none left hanging
	refute_output --partial "answer=none"
	assert_line --regexp "^garbage .*answer=error:waiting for HELLO: not an rdmadiag path message \(bad magic\)"
	assert_line --regexp "^oversize .*answer=error:waiting for HELLO: message length does not fit its type"
	assert_line --regexp "^version .*answer=error:waiting for HELLO: unsupported protocol version"
	assert_line --regexp "^type-unknown .*answer=error:waiting for HELLO: unexpected or unknown message type"
	assert_line --regexp "^wrong-type .*answer=error:waiting for HELLO: expected HELLO, got HELLO_OK"
	assert_line --regexp "^out-of-order .*answer=error:waiting for HELLO: expected HELLO, got CONFIG"
	assert_line --regexp "^huge-size .*answer=error:message size 4294967295 is out of bounds"
	assert_line --regexp "^zero-size .*answer=error:message size 0 is out of bounds"
	wait_until -t 10 test "$(serve_children)" = 0
	log=$(peer_bg_log "$SERVE")
	echo "$log"
	# one error line per session, and no raw escape bytes from the hostile strings in the log
	while read -r a port _; do
		port=${port#port=}
		[ "$(grep -c "session $LAB_IP:$port: " <<<"$log")" = 1 ]
		grep -q "session $LAB_IP:$port: error: " <<<"$log"
	done <"$BATS_TEST_TMPDIR/res"
	! grep -q $'\e' <<<"$log"
	assert_recovered
}

@test "100 concurrent connections (holding, then flooding): 4 sessions, the rest refused, serve answers afterwards" {
	start_hostile_serve --idle-timeout $IDLE --max-sessions 4
	baseline
	run env HOSTILE_WAIT=$((IDLE + SLACK + 5)) python3 "$HOSTILE" "$LAB_PEER_IP" 4792 hold 100
	[ "${#lines[@]}" -eq 100 ]
	busy=$(grep -c 'answer=error:busy: 4 sessions running' <<<"$output" || true)
	held=$(grep -c 'answer=closed' <<<"$output" || true)
	echo "hold: $busy refused busy, $held accepted and closed at the idle timeout"
	[ "$busy" -ge 90 ]
	[ $((busy + held)) -eq 100 ]
	wait_until -t 10 test "$(serve_children)" = 0
	# garbage sessions end at once, so most of the flood is served one after
	# the other (a forked session each: slow under TCG, hence the long wait)
	run env HOSTILE_WAIT=40 python3 "$HOSTILE" "$LAB_PEER_IP" 4792 flood 100
	[ "${#lines[@]}" -eq 100 ]
	refute_output --partial "answer=none"
	busy2=$(grep -c 'answer=error:busy: 4 sessions running' <<<"$output" || true)
	bad=$(grep -c 'answer=error:waiting for HELLO: not an rdmadiag path message' <<<"$output" || true)
	echo "flood: $busy2 refused busy, $bad accepted and ended with a bad magic error"
	[ $((busy2 + bad)) -ge 95 ]
	wait_until -t 10 test "$(serve_children)" = 0
	# one log line per connection: refused, or a session ended with an error
	log=$(peer_bg_log "$SERVE")
	[ "$(grep -c "session $LAB_IP:[0-9]*: rejected: busy" <<<"$log")" -eq $((busy + busy2)) ]
	[ "$(grep -c "session $LAB_IP:[0-9]*: error: " <<<"$log")" -ge $((held + bad)) ]
	assert_recovered
}

@test "clients that stall or vanish: serve ends each within its idle timeout, logs it, frees everything" {
	start_hostile_serve --idle-timeout $IDLE --max-sessions 4
	baseline
	for a in stall-header stall-hello half-open vanish; do
		HOSTILE_WAIT=$((IDLE + SLACK + 5)) python3 "$HOSTILE" "$LAB_PEER_IP" 4792 "$a" | tee -a "$BATS_TEST_TMPDIR/res"
	done
	run cat "$BATS_TEST_TMPDIR/res"
	refute_output --partial "answer=none"
	# the stalled ones are closed by serve at the idle timeout (bound + slack), not before
	for a in stall-header stall-hello; do
		after=$(grep "^$a " "$BATS_TEST_TMPDIR/res" | sed 's/.*after=//')
		echo "$a closed after $after s (idle timeout $IDLE s)"
		awk -v t="$after" -v lo="$IDLE" -v hi="$((IDLE + SLACK))" 'BEGIN { exit !(t >= lo - 0.2 && t <= hi) }'
	done
	wait_until -t 10 test "$(serve_children)" = 0
	log=$(peer_bg_log "$SERVE")
	echo "$log"
	while read -r a port _; do
		port=${port#port=}
		[ "$(grep -c "session $LAB_IP:$port: error: " <<<"$log")" = 1 ]
	done <"$BATS_TEST_TMPDIR/res"
	grep -q "waiting for HELLO: timed out waiting for the peer" <<<"$log"
	grep -q "waiting for CONFIG: timed out waiting for the peer" <<<"$log"
	grep -q "the peer closed the connection" <<<"$log"
	assert_recovered
}

@test "RDMA access: the advertised buffer starts zeroed; any access outside it fails with a remote access error" {
	start_hostile_serve --idle-timeout 5 --max-sessions 4
	baseline
	run "$PROBE" "$LAB_PEER_IP" inside
	echo "$output"
	assert_success
	assert_line "inside: success"
	run "$PROBE" "$LAB_PEER_IP" zeroed
	echo "$output"
	assert_success
	assert_line --regexp "^zeroed: yes \([0-9]+ bytes\)"
	for mode in write-past straddle read-past wrong-rkey far; do
		run "$PROBE" "$LAB_PEER_IP" "$mode"
		echo "$output"
		assert_failure 1
		assert_line "$mode: remote access error"
	done
	assert_recovered
}

@test "timeout: RoCE packets never arrive (UDP 4791 dropped on the peer): rc_connect fails within its 5 s bound" {
	start_hostile_serve --idle-timeout 10
	peer_run iptables -A INPUT -p udp --dport 4791 -j DROP
	UNDO_PEER="iptables -D INPUT -p udp --dport 4791 -j DROP"
	t0=$SECONDS
	run --separate-stderr "$RD" -j path test peer "$LAB_PEER_IP" --tests lat
	echo "$output"
	assert_failure 1
	echo "$output" | jq -e '.stages[] | select(.id == "path.rc_connect") | .verdict == "fail" and (.hint | test("UDP 4791")) and .duration_ms <= 5000 + 1000'
	validate_output path-test
	[ $((SECONDS - t0)) -le $((3 + 3 + 5 + SLACK)) ]
}
