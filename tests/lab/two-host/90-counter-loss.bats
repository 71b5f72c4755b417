#!/usr/bin/env bats
# 5% packet loss on the link (tc netem) during an ib_write_bw transfer makes
# rdma_rxe retransmit, and counter check fails and names loss. The qdisc is
# removed afterwards.
#
# Last file of the two-host suite on purpose: on Debian's 6.1 kernel, a long
# transfer under loss sometimes leaves rdma_rxe broken (a WARNING from
# __rxe_cleanup in rxe_destroy_qp when ib_write_bw ends, then no RoCE traffic
# passes on that device; seen twice in a few dozen lab runs). When it ran in
# 60-counter.bats, every two-host test after it failed with a dead link; run
# last, it takes nothing down with it.

load counter-helpers

setup() { counter_setup; }
teardown() { counter_teardown; }

@test "netem loss 5% during ib_write_bw: retransmission counters rise and counter check fails naming loss" {
	server=$(peer_run_bg timeout 90 ib_write_bw -d "$LAB_RXE" -D 25 -s 65536)
	peer_until -t 30 "ss -ltn | grep -q ':18515 '"
	tc qdisc add dev "$LAB_NIC" root netem loss 5%
	r0=$(retrans)
	timeout 90 ib_write_bw -d "$LAB_RXE" -D 25 -s 65536 "$LAB_PEER_IP" >"$BATS_TEST_TMPDIR/client.log" 2>&1 &
	client=$!
	sleep 4
	run --separate-stderr "$RD" counter check "$LAB_RXE/1" --interval 6
	echo "$output"
	assert_failure 1
	assert_output --regexp 'FAIL  counter\.(retrans|seq_err) '
	assert_output --partial 'hint: loss on the path; check PFC/ECN'
	run --separate-stderr "$RD" -j counter check "$LAB_RXE/1" --interval 3
	jq -e '[.checks[] | select(.verdict == "fail") | .id] | any(. == "counter.retrans" or . == "counter.seq_err")' <<<"$output"
	r1=$(retrans)
	echo "retransmission group: $r0 -> $r1"
	[ "$r1" -gt "$r0" ]
	tc qdisc del dev "$LAB_NIC" root
	timeout 60 tail --pid="$client" -f /dev/null || true
	client=
}
