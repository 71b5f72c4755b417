#!/usr/bin/env bats
# dev monitor's mode on the lab's kernel: Linux 6.12+ sends RDMA netlink
# monitor events and `-d` must say mode events, and the events must arrive
# from the kernel (source netlink); older kernels (Debian 12's 6.1) send none
# and `-d` must say mode poll with the reason. 6.12 sends no event for a
# device rename: the per-round compare of the device list prints it, once
# (the rename test runs on 6.1 too, polling). The 6.12 case runs with
# LAB_KERNEL_PKG=linux-image-6.12-amd64 (tests/lab/README.md; run-tests.sh
# does it with LAB_KERNEL612=1).

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
load devwatch-helpers
load ../json-schema

RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
RXE3=rxe8	# RXE2 (devwatch-helpers.bash) renamed

setup() {
	[ "${LAB:-}" = 1 ] || skip "lab only (tests/lab/lab.sh)"
}

teardown() {
	devwatch_teardown
}

# monitor_add INTERVAL: dev monitor -d -j running (WPID, output in out/err),
# then $RXE2 added on a fresh $NIC2
monitor_add() {
	devwatch_nic_up
	"$RD" -d -j dev monitor --interval "$1" >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" &
	WPID=$!
	wait_for '.event == "device_watch"'
	rdma link add "$RXE2" type rxe netdev "$NIC2"
}

# monitor_end DEV: once DEV's removal is printed, SIGINT ends the monitor cleanly
monitor_end() {
	wait_for ".event == \"dev_removed\" and .dev == \"$1\""
	kill -INT "$WPID"
	wait "$WPID"
	WPID=
	cat "$BATS_TEST_TMPDIR/out"
	[ ! -s "$BATS_TEST_TMPDIR/err" ]
	validate_json --lines dev-monitor "$BATS_TEST_TMPDIR/out"
}

@test "dev monitor -d names the mode the kernel allows: events on 6.12+, else poll with the reason" {
	run "$RD" -d -j dev monitor --count 1
	assert_success
	echo "kernel $(uname -r): $output"
	mode=$(jq -r 'select(.event == "device_watch") | .mode' <<<"$output")
	reason=$(jq -r 'select(.event == "device_watch") | .reason' <<<"$output")
	if kernel_has_events; then
		[ "$mode" = events ]
		[ "$reason" = "RDMA netlink monitor events (notify group 4)" ]
	else
		[ "$mode" = poll ]
		[ "$reason" = "this kernel sends no RDMA monitor events (Linux 6.12 and later do)" ]
	fi
}

@test "6.12+: link add/delete arrive as kernel events (dev_added, netdev_attached, dev_removed) long before a poll could" {
	kernel_has_events || skip "kernel $(uname -r) sends no RDMA monitor events (6.12+ do)"
	monitor_add 60	# only an event can report a change within wait_for's 20 s
	wait_for ".event == \"netdev_attached\" and .dev == \"$RXE2\""
	idx=$(rdma -j dev show "$RXE2" | jq '.[0].ifindex')
	nidx=$(cat /sys/class/net/$NIC2/ifindex)
	rdma link delete "$RXE2"
	monitor_end "$RXE2"
	# every device event came from the kernel, in order, with its indexes
	run jq -r 'select(.event != "device_watch") |
		[.event, .dev, (.port // "-"), .dev_index, (.netdev // "-"), (.netdev_index // "-"), .source] | join(" ")' \
		"$BATS_TEST_TMPDIR/out"
	assert_output "dev_added $RXE2 - $idx - - netlink
netdev_attached $RXE2 1 $idx $NIC2 $nidx netlink
dev_removed $RXE2 - $idx - - netlink"
}

@test "rdma dev set NAME name NEW: dev_renamed once, from the per-round compare (6.12 sends no rename event)" {
	monitor_add 1	# the compare that finds the rename runs each second
	wait_for ".event == \"dev_added\" and .dev == \"$RXE2\""
	idx=$(rdma -j dev show "$RXE2" | jq '.[0].ifindex')
	RXE2_RENAMED=$RXE3
	rdma dev set "$RXE2" name "$RXE3"
	wait_for ".event == \"dev_renamed\" and .dev == \"$RXE3\""
	sleep 2.5	# two more rounds: the rename must not come again
	rdma link delete "$RXE3"
	monitor_end "$RXE3"
	run jq -r 'select(.event | test("^dev_")) | [.event, .dev, (.old_dev // "-"), .dev_index] | join(" ")' \
		"$BATS_TEST_TMPDIR/out"
	assert_output "dev_added $RXE2 - $idx
dev_renamed $RXE3 $RXE2 $idx
dev_removed $RXE3 - $idx"
	# 6.1 polls, 6.12 sends no rename event; a later kernel may: then it is the kernel's
	src=$(jq -r 'select(.event == "dev_renamed") | .source' "$BATS_TEST_TMPDIR/out")
	case $(uname -r) in
	6.1.* | 6.12.*) [ "$src" = poll ] ;;
	*) [ "$src" = poll ] || [ "$src" = netlink ] ;;
	esac
}
