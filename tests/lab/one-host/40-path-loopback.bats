#!/usr/bin/env bats
# path test loopback: both ends of every stage in one process over rxe0.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
load ../json-schema

RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}

# QPs other than the kernel's GSI QP, i.e. left behind by a test
leftover_qps() {
	rdma res show qp | grep -v 'type GSI' || true
}

@test "path test loopback passes every stage and leaves no QP or MR behind" {
	run "$RD" path test loopback --duration 1 --iters 200
	echo "$output"
	assert_success
	for id in control resolve config rc_connect rc_latency write_bw read_bw send_bw ud mtu; do
		assert_line --regexp "^PASS  path\.$id "
	done
	assert_line --regexp "^(PASS|WARN)  path\.counters "
	assert_line --regexp "rc_connect .*here INIT [0-9.]+ RTR [0-9.]+ RTS [0-9.]+ ms; peer INIT"
	assert_line --regexp "rc_latency .*200 round trips of 8 bytes, one way: min [0-9.]+ p50 [0-9.]+ p99 [0-9.]+ p99.9 [0-9.]+ max"
	assert_line --regexp "write_bw .*RDMA WRITE [0-9.]+ Gb/s"
	assert_line --regexp "mtu .*largest UD payload that crosses: 1024; RC path MTU 1024"
	assert_equal "$(leftover_qps)" ""
	assert_equal "$(rdma res show mr)" ""
}

@test "path test loopback -j: numbers a script can use" {
	run --separate-stderr "$RD" -j path test loopback "$LAB_RXE" --tests lat,write --iters 100
	assert_success
	jq -e '[.stages[].verdict] | all(. == "pass")' <<<"$output"
	jq -e '.stages[] | select(.id == "path.rc_latency") | .latency_p50_us > 0 and .latency_p99_us >= .latency_p50_us and .latency_max_us >= .latency_p99_us' <<<"$output"
	jq -e '.stages[] | select(.id == "path.write_bw") | .bandwidth_gbps > 0 and .msgs_per_s > 0' <<<"$output"
	validate_output path-test
}

@test "path test loopback: --expect-bw far above the link fails that stage only" {
	run "$RD" path test loopback --tests write,ud --iters 50 --expect-bw 1000
	assert_failure 1
	assert_line --regexp "^FAIL  path\.write_bw .*expected >= 1000 Gb/s"
	assert_line --regexp "^SKIP  path\.ud "
}

@test "path test loopback: a GID index that does not exist is named" {
	run "$RD" path test loopback --gid-index 9 --tests lat
	assert_failure 1
	assert_line --regexp "^FAIL  path\.resolve .*GID index 9 does not exist on rxe0/1"
}

@test "path test loopback on an unknown device exits 3" {
	run "$RD" path test loopback nosuchdev0 --tests lat
	assert_failure 3
	assert_output --partial "cannot open RDMA device nosuchdev0"
}
