#!/usr/bin/env bats
# path test with many peers on a host without RDMA: the peer list (arguments
# and --peers FILE), one summary row per peer, the -j per-peer array.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	if host_has_rdma; then
		skip "this host has RDMA; these tests cover a host without it"
	fi
	PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
}

@test "--peers FILE: comments and blank lines skipped, a bad line named FILE:LINE" {
	f="$BATS_TEST_TMPDIR/peers"
	printf '# rack 1\n\n127.0.0.1   # self\n  node7\n' >"$f"
	run rd path test --peers "$f"
	assert_failure 2
	assert_output --partial "$f:4: 'node7' is not an IP address"
	printf '127.0.0.1 127.0.0.1\n' >"$f"
	run rd path test --peers "$f"
	assert_failure 2
	assert_output --partial "$f:1: one address per line"
	printf '# nothing\n\n' >"$f"
	run rd path test --peers "$f"
	assert_failure 2
	assert_output --partial "no peer address in the file"
	run rd path test --peers "$BATS_TEST_TMPDIR/missing"
	assert_failure 2
	assert_output --partial "cannot read the peer list $BATS_TEST_TMPDIR/missing"
	# a directory opens, then fails to read: an error, not an empty list
	run rd path test --peers "$BATS_TEST_TMPDIR"
	assert_failure 2
	assert_output --partial "cannot read the peer list $BATS_TEST_TMPDIR: Is a directory"
}

@test "peer words: each address needs 'peer', loopback does not mix" {
	run rd path test peer 127.0.0.1 127.0.0.1
	assert_failure 2
	assert_output --partial "for more peers repeat 'peer ADDR', got '127.0.0.1'"
	run rd path test peer 127.0.0.1 peer
	assert_failure 2
	assert_output --partial "takes one ADDR"
	run rd path test loopback --peers /dev/null
	assert_failure 2
	run rd path test peer 127.0.0.1 peer 127.0.0.1 --parallel 0
	assert_failure 2
}

@test "two peers with nothing listening: one row each with the failing stage, the cause and the hint" {
	run --separate-stderr rd path test peer 127.0.0.1 peer 127.0.0.1 --port "$PORT"
	assert_failure 3	# the host has no RDMA: exit 3 as for one peer
	assert_line --index 0 --regexp "^PEER +VERDICT +FAILED STAGE +P50 us +BW Gb/s$"
	[ "$(grep -c '^127.0.0.1 .* fail .*path.control  *- *-$' <<<"$output")" = 2 ]
	assert_line "    nothing listening on 127.0.0.1 port $PORT (connection refused)"
	assert_line "2 peers: 0 pass, 0 warn, 2 fail"
	refute_output --partial "SKIP"	# stage lines only with -d
}

@test "--peers FILE with IPv6 lines: each address tried as written, IPv6 rows and errors printed plainly" {
	[ -e /proc/net/if_inet6 ] || skip "IPv6 is off in this kernel"
	f="$BATS_TEST_TMPDIR/peers"
	printf '::1   # this host over IPv6\n127.0.0.1\n' >"$f"
	run --separate-stderr rd path test --peers "$f" --port "$PORT"
	assert_failure 3
	assert_line --regexp "^::1 +fail +path.control +- +-$"
	assert_line "    nothing listening on ::1 port $PORT (connection refused)"
	assert_line "2 peers: 0 pass, 0 warn, 2 fail"
	run --separate-stderr rd -j path test --peers "$f" --port "$PORT"
	run jq -e '[.peers[].peer] == ["::1", "127.0.0.1"]' <<<"$output"
	assert_success
}

@test "-d prints every peer's stage report, then the summary rows" {
	run --separate-stderr rd -d path test peer 127.0.0.1 peer 127.0.0.1 --port "$PORT" --parallel 2
	assert_failure 3
	[ "$(grep -c '^peer 127.0.0.1:$' <<<"$output")" = 2 ]
	[ "$(grep -c '^FAIL  path.control' <<<"$output")" = 2 ]
	[ "$(grep -c '^SKIP  path.counters' <<<"$output")" = 2 ]
	assert_line --regexp "^PEER +VERDICT"
	assert_line "2 peers: 0 pass, 0 warn, 2 fail"
}

@test "-j: one document, a per-peer array with the single-peer stage schema" {
	printf '127.0.0.1\n127.0.0.1\n127.0.0.1\n' >"$BATS_TEST_TMPDIR/p"
	run --separate-stderr rd -j path test --peers "$BATS_TEST_TMPDIR/p" --port "$PORT" --parallel 3
	assert_failure 3
	single=$(rd -j path test peer 127.0.0.1 --port "$PORT" 2>/dev/null || true)
	run jq -e --argjson one "$single" '
		(.peers | length) == 3 and .summary.fail == 3 and .host != null
		and all(.peers[]; .verdict == "fail" and .failed_stage == "path.control"
			and .latency_p50_us == null and .bandwidth_gbps == null
			and ([.stages[] | keys] == [$one.stages[] | keys])
			and ([.stages[].id] == [$one.stages[].id]))' <<<"$output"
	assert_success
}

@test "one peer keeps the single-peer report; -j adds host and peer only" {
	run --separate-stderr rd -j path test peer 127.0.0.1 --port "$PORT"
	assert_failure 3
	run jq -e '.schema == 2 and .peer == "127.0.0.1" and (.host | type) == "string" and .stages[0].id ==
		"path.control" and (has("peers") | not)' <<<"$output"
	assert_success
	run --separate-stderr rd path test peer 127.0.0.1 --port "$PORT"
	assert_line --index 0 --regexp "^FAIL  path.control "
	refute_line --regexp "^PEER"
}
