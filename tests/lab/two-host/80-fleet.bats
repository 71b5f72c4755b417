#!/usr/bin/env bats
# Fleet runs in two VMs: path test against several peers (one live, one
# absent), and both hosts testing each other with report merge over their
# -j reports (the 2 x 2 matrix).

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
load ../json-schema
bats_require_minimum_version 1.5.0

RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
ABSENT=192.168.77.9	# on the lab network, nobody answers there

setup() {
	[ "${LAB:-}" = 1 ] && [ -n "${LAB_SHARED:-}" ] ||
		skip "not inside a two-VM lab run (run: tests/lab/lab.sh run2-agent bats ...)"
	. "$LAB_REPO/tests/lab/peer.sh"
	SERVE= LOCAL_SERVE=
}

teardown() {
	[ -n "${SERVE:-}" ] && { peer_kill "$SERVE" TERM; peer_bg_wait "$SERVE" 10 || true; }
	[ -n "${LOCAL_SERVE:-}" ] && { kill "$LOCAL_SERVE" 2>/dev/null; wait "$LOCAL_SERVE" 2>/dev/null; }
	return 0
}

start_peer_serve() {
	SERVE=$(peer_run_bg "exec $RD path serve --idle-timeout 10")
	peer_until -t 30 "ss -Hltn 'sport = :4792' | grep -q ."
}

@test "two peers, one live and one absent: a pass row, a fail row, exit 1" {
	start_peer_serve
	run "$RD" path test peer "$LAB_PEER_IP" peer "$ABSENT" --iters 50 --duration 1 --tests lat,write
	echo "$output"
	assert_failure 1
	assert_line --regexp "^PEER +VERDICT +FAILED STAGE +P50 us +BW Gb/s"
	# The lab's virtual link drops a packet now and then (see 40-path.bats):
	# the live peer may warn, but only for retransmissions its counters saw.
	assert_line --regexp "^$LAB_PEER_IP +(pass|warn) +- +[0-9]+\.[0-9]+ +[0-9]+\.[0-9]+$"
	if [[ "$output" =~ $LAB_PEER_IP\ +warn ]]; then
		assert_line --regexp "^    .*counters: .*retransmissions \+[1-9]"
	fi
	assert_line --regexp "^$ABSENT +fail +path.control +- +-$"
	assert_line --regexp "^    (connecting to $ABSENT port 4792 timed out|host $ABSENT unreachable)"
	assert_line --regexp "^2 peers: (1 pass, 0 warn|0 pass, 1 warn), 1 fail$"
}

@test "-j of two peers: one document, a per-peer array with the single-peer stage schema" {
	start_peer_serve
	run --separate-stderr "$RD" -j path test peer "$LAB_PEER_IP" peer "$ABSENT" --parallel 2 --iters 50 \
		--duration 1 --tests lat,write
	assert_failure 1
	# kept for tests/fixtures/fleet (make-fleet.py builds host fixtures from a real run)
	printf '%s\n' "$output" >"$LAB_SHARED/fleet-template.json"
	run jq -er --arg p "$LAB_PEER_IP" --arg a "$ABSENT" '
		[.host != null, (.peers | length) == 2,
		 (.peers[0] | .peer == $p and .bandwidth_gbps > 0 and .latency_p50_us > 0
		  and (.verdict == "pass" or (.verdict == "warn" and ([.stages[] | select(.verdict == "warn")
		       | .counters_moved | length > 0] | all)))
		  and .source != null and ([.stages[].id] | index("path.write_bw")) != null),
		 (.peers[1] | .peer == $a and .verdict == "fail" and .failed_stage == "path.control"
		  and .stages[0].verdict == "fail"),
		 .summary.pass + .summary.warn == 1, .summary.fail == 1] | all' <<<"$output"
	assert_success
	validate_json path-test "$LAB_SHARED/fleet-template.json"
}

@test "both hosts test each other; report merge prints the 2 x 2 matrix" {
	"$RD" path serve --idle-timeout 10 >/dev/null 2>&1 &
	LOCAL_SERVE=$!
	start_peer_serve
	wait_until -t 30 bash -c "ss -Hltn 'sport = :4792' | grep -q ."
	dir="$LAB_SHARED/fleet"
	mkdir -p "$dir"
	run "$RD" -j path test peer "$LAB_PEER_IP" --iters 50 --duration 1 --tests lat,write
	assert_success
	printf '%s\n' "$output" >"$dir/a.json"
	peer_run "$RD -j path test peer $LAB_IP --iters 50 --duration 1 --tests lat,write >$dir/b.json"
	run "$RD" report merge "$dir"
	echo "$output"
	assert_success
	assert_line "merged 2 reports"
	# a warn here is the lab's occasional retransmission (see the first test)
	assert_line --regexp "^path test reports: 2; 2 nodes, 2 pairs: 0 fail, [012] warn$"
	me=$(hostname) peer=$(peer_run hostname)
	# rows: index, node, then one cell per column: the diagonal and a pass with its Gb/s
	assert_line --regexp "^ +[01] $me +(\\\\ +(PASS|WARN) [0-9.]+|(PASS|WARN) [0-9.]+ +\\\\) *$"
	assert_line --regexp "^ +[01] $peer +(\\\\ +(PASS|WARN) [0-9.]+|(PASS|WARN) [0-9.]+ +\\\\) *$"
	run "$RD" -j report merge "$dir/a.json" "$dir/b.json"
	json_keep report-merge
	json_keep path-test "$dir/a.json"
	json_keep path-test "$dir/b.json"
	json_check_kept
	run jq -er --arg me "$me" --arg peer "$peer" '
		[(.path.pairs | length) == 2,
		 (.path.pairs | map("\(.from)>\(.to)") | sort) == (["\($me)>\($peer)", "\($peer)>\($me)"] | sort),
		 (.path.pairs | map(.verdict == "pass" or .verdict == "warn") | all)] | all' <<<"$output"
	assert_success
}
