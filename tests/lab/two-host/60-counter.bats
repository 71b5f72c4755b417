#!/usr/bin/env bats
# counters between two VMs: a transfer of a known size moves our sent and
# the peer's received packets by its packet count; counter check passes its
# loss checks during a lossless transfer. The test with packet loss is in
# 90-counter-loss.bats, the last file of the suite (see there why).

load counter-helpers
load ../json-schema

setup() { counter_setup; }
teardown() { counter_teardown; }

# perftest's own QP timeout (-u 14: 67 ms a try, 0.47 s over its seven
# retries) ends a transfer with a retry-exceeded error when a TCG VM of a
# loaded host stops for half a second; these tests want a transfer that
# completes, so they give perftest rdma_cm's default: -u 18, 1.07 s a try

packets() { # packets JSON KIND: a traffic kind of the lab port
	jq ".ports[] | select(.dev == \"$LAB_RXE\") | .traffic.$2" <<<"$1"
}

@test "ib_write_bw to the peer moves our tx and its rx packets by the transfer's packets" {
	local iters=300 size=4096 depth=128 mtu want me0 me1 peer0 peer1 tx rx retr resent
	mtu=$("$RD" -j link show "$LAB_RXE/1" | jq '.links[0].active_mtu')
	want=$((iters * ((size + mtu - 1) / mtu)))
	server=$(peer_run_bg timeout 90 ib_write_bw -d "$LAB_RXE" -u 18 -t $depth -n $iters -s $size)
	peer_until -t 30 "ss -ltn | grep -q ':18515 '"
	me0=$("$RD" -j counter show) peer0=$(peer_run "$RD" -j counter show)
	r0=$(retrans)
	timeout 90 ib_write_bw -d "$LAB_RXE" -u 18 -t $depth -n $iters -s $size "$LAB_PEER_IP" >"$BATS_TEST_TMPDIR/client.log" 2>&1 ||
		{ cat "$BATS_TEST_TMPDIR/client.log"; return 1; }
	peer_bg_wait "$server" 30
	server=
	me1=$("$RD" -j counter show) peer1=$(peer_run "$RD" -j counter show)
	retr=$(($(retrans) - r0))
	tx=$(($(packets "$me1" tx_packets) - $(packets "$me0" tx_packets)))
	rx=$(($(packets "$peer1" rx_packets) - $(packets "$peer0" rx_packets)))
	echo "$iters writes of $size B at MTU $mtu: $want data packets; our tx +$tx, peer rx +$rx, our retransmissions +$retr"
	# every data packet, plus a few for connection set-up and whatever the
	# lab link made us send again. RC goes back N: one retransmission counted
	# here resends every packet from the first unacknowledged one on, up to
	# perftest's whole send queue (-t: $depth writes of size/mtu packets).
	# CI saw tx +1253 for 1200 wanted after one retransmission: 7 over a
	# bound that allowed 2 packets a retransmission.
	resent=$((retr * depth * ((size + mtu - 1) / mtu)))
	[ "$tx" -ge "$want" ]
	[ "$tx" -le $((want + want / 50 + 20 + resent)) ]
	[ "$rx" -ge $((want - 2 * retr)) ]
	[ "$rx" -le $((want + want / 50 + 20 + resent)) ]
}

@test "without loss, counter check passes the loss checks during a transfer" {
	tc qdisc del dev "$LAB_NIC" root 2>/dev/null || true
	server=$(peer_run_bg timeout 60 ib_write_bw -d "$LAB_RXE" -u 18 -D 12 -s 65536)
	peer_until -t 30 "ss -ltn | grep -q ':18515 '"
	timeout 60 ib_write_bw -d "$LAB_RXE" -u 18 -D 12 -s 65536 "$LAB_PEER_IP" >"$BATS_TEST_TMPDIR/client.log" 2>&1 &
	client=$!
	sleep 3
	run --separate-stderr "$RD" -j counter check "$LAB_RXE/1" --interval 4
	echo "$output"
	jq -e '[.checks[] | select(.id == "counter.link_downed")][0].verdict == "pass"' <<<"$output"
	# traffic moved, so the loss checks looked at something
	jq -e '[.checks[] | select(.id == "counter.retrans")][0].measured | test("idle") | not' <<<"$output"
	validate_output counter-check
	# Both ends of a lossless transfer finish: a transfer that hangs fails
	# here, with the client's log, not as a dead link in the tests after it.
	local rc=0
	wait "$client" || rc=$?
	client=
	[ "$rc" -eq 0 ] || { echo "ib_write_bw client: exit $rc"; cat "$BATS_TEST_TMPDIR/client.log"; return 1; }
	peer_bg_wait "$server" 30 || { echo "ib_write_bw server on the peer:"; peer_bg_log "$server"; return 1; }
	server=
}
