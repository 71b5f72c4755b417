#!/usr/bin/env bats
# path test loopback exactly as a user types it: no --iters, --duration or
# --timeout. Meant for every lab shape (tests/lab/README.md, "Shapes"); on two
# vCPUs the write stage used to wait for the completion of an unsignaled last
# operation and FAIL after 6 s, every run. Run it in that shape with:
#   LAB_QEMU_EXTRA="-smp 2" tests/lab/lab.sh run1 bats --tap tests/lab/one-host/41-path-loopback-default.bats

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}

setup() {
	[ "${LAB:-}" = 1 ] || skip "not inside a lab VM (run: tests/lab/lab.sh run1 bats ...)"
}

@test "default path test loopback: no stage fails, each measuring stage says what completed ($(nproc) CPUs)" {
	start=$SECONDS
	run "$RD" path test loopback
	echo "$output"
	echo "took $((SECONDS - start)) s on $(nproc) CPUs"
	refute_line --regexp "^FAIL"
	assert_success
	for id in control resolve config rc_connect ud mtu; do
		assert_line --regexp "^PASS  path\.$id "
	done
	# a measuring stage may warn only with the counters that moved during it
	assert_equal "$(grep -E '^WARN  path\.(rc_latency|write_bw|read_bw|send_bw) ' <<<"$output" | grep -v 'counters: ')" ""
	assert_line --regexp "^(PASS|WARN)  path\.rc_latency .* [0-9]+ round trips of 8 bytes"
	for what in "write_bw .*RDMA WRITE" "read_bw .*RDMA READ" "send_bw .*SEND"; do
		assert_line --regexp "^(PASS|WARN)  path\.$what [0-9.]+ Gb/s, [0-9]+(\.[0-9])? msgs/s \([0-9]+ x 65536 bytes in"
	done
}
