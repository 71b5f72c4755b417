#!/usr/bin/env bats
# rdmadiag path on a host without RDMA: usage errors, the control stage against
# nothing and against fake peers, and exit 3 because the RDMA stages cannot run.

load helpers
load path_fake
bats_require_minimum_version 1.5.0

setup() {
	skip_with_rdma
}

teardown() {
	stop_fake
}

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

@test "path test without a target is a usage error" {
	run rd path test
	assert_failure 2
	assert_output --partial "needs 'peer ADDR' or 'loopback [DEV]'"
}

@test "path test peer with a host name or garbage is a usage error" {
	run rd path test peer not-an-ip
	assert_failure 2
	assert_output --partial "'not-an-ip' is not an IP address"
	run rd path test peer
	assert_failure 2
}

@test "path test options are checked before anything runs" {
	run rd path test peer 127.0.0.1 --gid-index minus
	assert_failure 2
	assert_output --partial "--gid-index: 'minus'"
	run rd path test peer 127.0.0.1 --expect-bw -3
	assert_failure 2
	assert_output --partial "not a positive number"
	run rd path test peer 127.0.0.1 --tests write,teleport
	assert_failure 2
	run rd path test peer 127.0.0.1 --size 0
	assert_failure 2
	run rd path test loopback rxe0 extra
	assert_failure 2
}

@test "nothing listening: the control stage names it, the host cannot run RDMA: exit 3" {
	port=$(free_port)
	run rd path test peer 127.0.0.1 --port "$port"
	assert_failure 3
	assert_line --regexp "^FAIL  path.control .*nothing listening on 127.0.0.1 port $port"
	assert_line --partial "hint: start the responder on the peer: rdmadiag path serve"
	assert_line --regexp "^SKIP  path.resolve .*this host has no RDMA device either"
	assert_line --regexp "^SKIP  path.rc_latency"
	# what every command says without RDMA in the kernel (rdmadiag(8), EXIT STATUS)
	assert_line "rdmadiag: cannot open an RDMA netlink socket: this kernel has no RDMA support"
	refute_output --partial "this host cannot run the RDMA stages of path test"
}

@test "-j: one JSON document with every stage, the failing one first" {
	port=$(free_port)
	run --separate-stderr rd -j path test peer 127.0.0.1 --port "$port"
	assert_failure 3
	echo "$output" | jq -e '.stages | length == 11'
	echo "$output" | jq -e '.stages[0] | .id == "path.control" and .verdict == "fail" and (.duration_ms | type == "number")'
	echo "$output" | jq -e '[.stages[1:][] | .verdict] | all(. == "skip")'
	echo "$output" | jq -e '.summary.fail == 1 and (.errors | length) == 1'
}

@test "--tests limits the stages that are listed" {
	port=$(free_port)
	run --separate-stderr rd -j path test peer 127.0.0.1 --port "$port" --tests lat,ud
	echo "$output" | jq -e '[.stages[].id] == ["path.control","path.resolve","path.config","path.rc_connect","path.rc_latency","path.ud"]'
}

@test "a peer that speaks another protocol is named as not path serve" {
	start_fake garbage
	run rd path test peer 127.0.0.1 --port "$FAKE_PORT"
	assert_failure 3
	assert_line --regexp "path.control .*something answers on 127.0.0.1 port $FAKE_PORT but it is not rdmadiag path serve \(not an rdmadiag path message"
}

@test "a peer claiming a 4 GiB message is refused without reading it" {
	start_fake oversize
	run rd path test peer 127.0.0.1 --port "$FAKE_PORT"
	assert_failure 3
	assert_line --partial "message length does not fit its type"
}

@test "a busy serve: the control stage shows its refusal" {
	start_fake busy
	run rd path test peer 127.0.0.1 --port "$FAKE_PORT"
	assert_failure 3
	assert_line --partial "refused the session: busy: 4 sessions running"
}

@test "a peer that accepts and never answers: control fails at its 4 s bound" {
	start_fake silent
	start=$SECONDS
	run rd path test peer 127.0.0.1 --port "$FAKE_PORT"
	assert_failure 3
	assert_line --partial "connected but did not answer: timed out"
	[ $((SECONDS - start)) -le 7 ]
}

@test "--timeout bounds the whole run below the stage budget" {
	start_fake silent
	start=$SECONDS
	run rd path test peer 127.0.0.1 --port "$FAKE_PORT" --timeout 1
	assert_line --partial "timed out"
	[ $((SECONDS - start)) -le 2 ]
}

@test "path serve on a host without RDMA exits 3 and says why, as every command does" {
	run rd path serve --port "$(free_port)"
	assert_failure 3
	assert_line "rdmadiag: cannot open an RDMA netlink socket: this kernel has no RDMA support"
	refute_output --partial "no RDMA devices on this host"
}

@test "path serve under --replay or RDMADIAG_REPLAY is refused as path test is (exit 2, one line)" {
	run -2 --separate-stderr rd --replay "$FIXTURES/lab-rxe" path serve --port "$(free_port)" --once
	assert_equal "$output" ""
	assert_equal "$stderr" "rdmadiag: path serve answers with this host's live RDMA devices and cannot run from a replay or snapshot; run it on the host"
	RDMADIAG_REPLAY=$FIXTURES/lab-rxe run -2 rd path serve --port "$(free_port)" --once
	assert_output --partial "cannot run from a replay or snapshot"
}

@test "path serve rejects arguments and bad bounds" {
	run rd path serve extra
	assert_failure 2
	run rd path serve --max-sessions 0
	assert_failure 2
	run rd path serve --max-sessions 1000
	assert_failure 2
}
