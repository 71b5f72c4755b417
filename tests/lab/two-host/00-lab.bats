#!/usr/bin/env bats
# Lab self-tests, two VMs (run with `lab.sh run2-agent`): the tests run in VM A,
# VM B runs the peer.sh agent; each has rxe0 on labnet0 (virtio-net), and the
# two NICs share one link.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	[ "${LAB:-}" = 1 ] && [ -n "${LAB_SHARED:-}" ] ||
		skip "not inside a two-VM lab run (run: tests/lab/lab.sh run2-agent bats ...)"
	. "$LAB_REPO/tests/lab/peer.sh"
}

@test "lab2: environment of VM A" {
	assert_equal "$LAB_HOST" a
	assert_equal "$LAB_IP" 192.168.77.1
	assert_equal "$LAB_PEER_IP" 192.168.77.2
	assert_equal "$LAB_NIC" labnet0
	assert_equal "$(hostname)" lab-a
	run rdma link show "$LAB_RXE/1"
	assert_success
	assert_output --partial "state ACTIVE physical_state LINK_UP netdev labnet0"
}

@test "lab2: peer_run runs commands in VM B" {
	run peer_run hostname
	assert_success
	assert_output lab-b
	run peer_run ip -br addr show dev labnet0
	assert_success
	assert_output --partial "192.168.77.2/24"
	run peer_run 'echo "$LAB_HOST $LAB_IP $LAB_PEER_IP"; echo to-stderr >&2; exit 7'
	assert_equal "$status" 7
	assert_line --index 0 "b 192.168.77.2 192.168.77.1"
	assert_line --index 1 "to-stderr"
}

@test "lab2: peer_run times out, peer_run_bg/peer_kill manage a background command" {
	run peer_run -t 1 sleep 30
	assert_equal "$status" 124
	h=$(peer_run_bg 'echo started; exec sleep 300')
	run peer_run "kill -0 \$(cat $PEER_DIR/res/$h.pid)"
	assert_success
	peer_kill "$h"
	run peer_bg_wait "$h" 10
	assert_equal "$status" 143
	run peer_bg_log "$h"
	assert_output started
}

@test "lab2: ping A -> B over the link" {
	run ping -c 2 -W 5 "$LAB_PEER_IP"
	assert_success
	assert_output --partial "2 received"
}

@test "lab2: rping from A to a server in B" {
	h=$(peer_run_bg "rping -s -a $LAB_PEER_IP -C 3 -v")
	run timeout 120 bash -c 'for i in $(seq 50); do rping -c -a "$1" -C 3 -v && exit 0; sleep 0.3; done; exit 1' _ "$LAB_PEER_IP"
	assert_success
	assert_output --partial "ping data: rdma-ping-2"
	run peer_bg_wait "$h" 120
	assert_success
	run peer_bg_log "$h"
	assert_output --partial "server ping data: rdma-ping-2"
}

@test "lab2: ib_write_bw from A to a server in B" {
	h=$(peer_run_bg "ib_write_bw -d $LAB_RXE -n 200 -s 65536 -F")
	peer_until -t 120 "ss -Hltn 'sport = :18515' | grep -q ."
	run timeout 120 ib_write_bw -d "$LAB_RXE" -n 200 -s 65536 -F "$LAB_PEER_IP"
	assert_success
	assert_output --partial "RDMA_Write BW Test"
	assert_output --regexp "[[:space:]]65536[[:space:]]+200[[:space:]]+[0-9.]+[[:space:]]+[0-9.]+"
	run peer_bg_wait "$h" 120
	assert_success
	run peer_bg_log "$h"
	assert_output --regexp "[[:space:]]65536[[:space:]]+200[[:space:]]+"
}
