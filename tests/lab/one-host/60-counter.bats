#!/usr/bin/env bats
# counter show/watch on a real kernel: rdma_rxe loopback traffic (ib_write_bw
# to our own address) moves the traffic counters, rdmadiag reads the same
# values as iproute2's `rdma statistic`, and the deltas of `counter watch -j`
# add up to the difference of two `counter show -j` readings.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
load ../json-schema
bats_require_minimum_version 1.5.0

setup() {
	[ "${LAB:-}" = 1 ] || skip "not inside the lab (run: tests/lab/lab.sh run1 bats ...)"
	RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
}

# ib_write_bw server and client on this VM's rxe device; $1 iterations.
bw_loopback() {
	local iters=$1 server rc
	ib_write_bw -d "$LAB_RXE" -n "$iters" -s 4096 >"$BATS_TEST_TMPDIR/server.log" 2>&1 &
	server=$!
	for _ in $(seq 100); do
		ss -ltn | grep -q ':18515 ' && break
		sleep 0.1
	done
	timeout 120 ib_write_bw -d "$LAB_RXE" -n "$iters" -s 4096 "$LAB_IP" >"$BATS_TEST_TMPDIR/client.log" 2>&1
	rc=$?
	timeout 30 tail --pid="$server" -f /dev/null || kill "$server"
	[ "$rc" -eq 0 ] || cat "$BATS_TEST_TMPDIR/client.log" "$BATS_TEST_TMPDIR/server.log"
	return "$rc"
}

kind() { # kind JSON GROUP KIND
	jq ".ports[] | select(.dev == \"$LAB_RXE\") | .$2.$3" <<<"$1"
}

@test "counter show reads the same hw counters as rdma statistic" {
	run --separate-stderr "$RD" -j counter show "$LAB_RXE/1"
	assert_success
	mine=$output
	theirs=$(rdma -j statistic show link "$LAB_RXE/1")
	n=0
	for c in sent_pkts rcvd_pkts duplicate_request out_of_seq_request completer_retry_err link_downed; do
		a=$(jq ".ports[0] | [.[] | objects | .counters? // {} | .$c? // empty][0]" <<<"$mine")
		b=$(jq ".[0].$c" <<<"$theirs")
		echo "$c: rdmadiag=$a rdma=$b"
		[ "$a" = "$b" ]
		n=$((n + 1))
	done
	[ "$n" -eq 6 ]
	[ "$(jq -r '.ports[0].netdev' <<<"$mine")" = "$LAB_NIC" ]
	[ "$(jq '.ports[0].lifespan_ms' <<<"$mine")" = "$(cat /sys/class/infiniband/$LAB_RXE/ports/1/hw_counters/lifespan)" ]
}

@test "counter show -d during traffic: every counter rdma statistic has, between its readings before and after" {
	# traffic in the background, so the readings move while the three are taken
	sent() { rdma -j statistic show link "$LAB_RXE/1" | jq '.[0].sent_pkts'; }
	base=$(sent)
	bw_loopback 3000 &
	bw=$!
	# until RDMA packets flow: perftest's TCP handshake comes first, and on
	# a loaded host its QP set-up outlasted all three readings (a CI run)
	for _ in $(seq 200); do
		[ "$(sent)" -gt "$base" ] && break
		sleep 0.1
	done
	before=$(rdma -j statistic show link "$LAB_RXE/1")
	run --separate-stderr "$RD" -j -d counter show "$LAB_RXE/1"
	after=$(rdma -j statistic show link "$LAB_RXE/1")
	wait "$bw"
	assert_success
	mine=$output
	names=$(jq -r '.[0] | to_entries[] | select(.value | type == "number") | .key
		| select(. != "port" and . != "ifindex")' <<<"$before")
	n=0
	for c in $names; do
		m=$(jq ".ports[0] | [.. | objects | .counters? // {} | .$c? // empty][0]" <<<"$mine")
		b=$(jq ".[0].$c" <<<"$before")
		a=$(jq ".[0].$c" <<<"$after")
		echo "$c: rdma before=$b rdmadiag=$m rdma after=$a"
		[ "$m" != null ] && [ "$b" -le "$m" ] && [ "$m" -le "$a" ]
		n=$((n + 1))
	done
	# rxe has a dozen and more; and the traffic moved the packet counters
	[ "$n" -ge 12 ]
	[ "$(jq '.[0].sent_pkts' <<<"$after")" -gt "$base" ]
}

@test "ib_write_bw loopback moves tx/rx packets by at least its packets" {
	before=$("$RD" -j counter show)
	bw_loopback 200
	after=$("$RD" -j counter show)
	tx=$(($(kind "$after" traffic tx_packets) - $(kind "$before" traffic tx_packets)))
	rx=$(($(kind "$after" traffic rx_packets) - $(kind "$before" traffic rx_packets)))
	mtu=$(jq '.links[0].active_mtu' <<<"$("$RD" -j link show "$LAB_RXE/1")")
	echo "tx +$tx rx +$rx packets, active MTU $mtu"
	# 200 writes of 4096 bytes, each in 4096/MTU packets (client and server share the device)
	[ "$tx" -ge $((200 * 4096 / mtu)) ]
	[ "$rx" -ge $((200 * 4096 / mtu)) ]
	# and rdma statistic agrees with the reading after
	[ "$(kind "$after" traffic tx_packets)" -le "$(rdma -j statistic show link "$LAB_RXE/1" | jq '.[0].sent_pkts')" ]
}

@test "counter watch -j lines parse and their deltas add up to two counter show readings" {
	before=$("$RD" -j counter show)
	"$RD" -j counter watch "$LAB_RXE/1" --interval 4 --count 4 >"$BATS_TEST_TMPDIR/watch.jsonl" 2>"$BATS_TEST_TMPDIR/watch.err" &
	watch=$!
	sleep 1
	bw_loopback 100
	kill -0 "$watch" || { echo "traffic outlasted the watch window"; return 1; }
	timeout 60 tail --pid="$watch" -f /dev/null
	wait "$watch"
	after=$("$RD" -j counter show)
	cat "$BATS_TEST_TMPDIR/watch.jsonl"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/watch.jsonl")" -eq 4 ]
	jq -e '.schema == 2 and (.rows | type) == "array"' "$BATS_TEST_TMPDIR/watch.jsonl"
	for k in tx_packets rx_packets; do
		sum=$(jq -s "[.[].rows[] | select(.counter == \"$k\") | .delta] | add // 0" "$BATS_TEST_TMPDIR/watch.jsonl")
		diff=$(($(kind "$after" traffic $k) - $(kind "$before" traffic $k)))
		echo "$k: watch deltas $sum, show difference $diff"
		[ "$sum" -gt 0 ]
		[ "$sum" -eq "$diff" ]
	done
	# rate_per_s is delta over the interval
	jq -e '.interval_s as $s | all(.rows[]; (.rate_per_s - .delta / $s) | fabs < 0.1 + .rate_per_s * 0.01)' "$BATS_TEST_TMPDIR/watch.jsonl"
	validate_json --lines counter-watch "$BATS_TEST_TMPDIR/watch.jsonl"
}
