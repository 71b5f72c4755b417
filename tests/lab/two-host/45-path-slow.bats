#!/usr/bin/env bats
# A healthy but slow path, tested as a user types it (no --iters, --duration
# or --timeout): 10 ms of netem delay on the serving VM, and jumbo frames (MTU
# 9000) on both. The path works; the report must say how much completed, and
# warn only with the retransmissions its counters saw, never fail. Both
# failed before: rc_latency ran out of its fixed 6 s after 255 of 1000 round
# trips, and write_bw called 2 s without a completion a stall while the RC QP
# was still retrying.

load path-helpers

setup() {
	path_setup
}

teardown() {
	path_teardown
}

# Checks the report of a default run that must not fail ($output, status).
assert_slow_path_report() {
	refute_line --regexp "^FAIL"
	assert_success
	for id in control resolve config rc_connect ud mtu; do
		assert_line --regexp "^PASS  path\.$id "
	done
	# what completed, with the count; a warning only with the counters behind it
	assert_line --regexp "^(PASS|WARN)  path\.rc_latency .* [0-9]+ round trips of 8 bytes, one way: min"
	# (below 10 msgs/s, as on a lossy jumbo path, the rate keeps one decimal)
	for what in "write_bw .*RDMA WRITE" "read_bw .*RDMA READ" "send_bw .*SEND"; do
		assert_line --regexp "^(PASS|WARN)  path\.$what [0-9.]+ Gb/s, [0-9]+(\.[0-9])? msgs/s \([0-9]+ x 65536 bytes in"
	done
	assert_equal "$(grep -E '^WARN  path\.(rc_latency|write_bw|read_bw|send_bw) ' <<<"$output" | grep -v 'counters: ')" ""
	# rxe loses packets in the provider under load: the hint sends the user to the host
	if grep -q '^WARN  path\.[a-z_]* .*retransmissions' <<<"$output"; then
		assert_output --partial "rxe0 is a software provider (rdma_rxe), which drops packets itself when the host's CPUs are busy"
		refute_output --partial "RoCE needs a lossless fabric"
	fi
}

@test "10 ms one way (netem on the serving VM): the default run passes or warns, with what completed and its progress on a terminal" {
	peer_run "modprobe sch_netem && tc qdisc add dev \$LAB_NIC root netem delay 10ms"
	UNDO_PEER='tc qdisc del dev $LAB_NIC root'
	start_serve
	start=$SECONDS
	# a terminal (script(1)) for the progress line; it is erased before each stage line
	run script -qec "NO_COLOR=1 $RD path test peer $LAB_PEER_IP" /dev/null
	raw=$output
	output=$(sed 's/.*\x1b\[K//; s/\r$//' <<<"$raw")
	mapfile -t lines <<<"$output"	# what assert_line reads
	echo "$output"
	echo "took $((SECONDS - start)) s"
	assert_slow_path_report
	assert_line --regexp "^(PASS|WARN)  path\.rc_connect .*first round trip [0-9.]+ ms"
	# 3 s of latency samples at >= 20 ms a round trip: fewer than asked, said so
	assert_line --regexp "^(PASS|WARN)  path\.rc_latency .* \([0-9]+ of 1000 asked: sampled for [0-9.]+ s\)"
	grep -qE 'path\.rc_latency: [0-9]+ of 1000 round trips, [0-9.]+ s' <<<"$raw"
}

@test "MTU 9000 on both VMs: the default run passes or warns, with what completed" {
	ip link set dev "$LAB_NIC" mtu 9000
	UNDO_LOCAL="ip link set dev $LAB_NIC mtu 1500"
	peer_run 'ip link set dev $LAB_NIC mtu 9000'
	UNDO_PEER='ip link set dev $LAB_NIC mtu 1500'
	wait_until -t 20 grep -qx '4: ACTIVE' "/sys/class/infiniband/$LAB_RXE/ports/1/state"
	start_serve
	start=$SECONDS
	run "$RD" path test peer "$LAB_PEER_IP"
	echo "$output"
	echo "took $((SECONDS - start)) s"
	assert_slow_path_report
	assert_line --regexp "^PASS  path\.mtu .*largest UD payload that crosses: 4096; RC path MTU 4096"
}
