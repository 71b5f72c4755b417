#!/usr/bin/env bats
# Lab self-tests, one VM: the kernel RDMA stack the lab promises is there and
# carries traffic (Soft-RoCE rxe0 on the dummy netdev rxenet0, loopback).

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

setup() {
	[ "${LAB:-}" = 1 ] || skip "not inside the lab VM (run: tests/lab/lab.sh run1 bats ...)"
}

@test "lab: environment of the VM" {
	assert_equal "$LAB_HOST" a
	assert_equal "$LAB_NIC" rxenet0
	assert_equal "$LAB_IP" 192.168.77.1
	assert_equal "$LAB_RXE" rxe0
	assert_equal "$PWD" "$LAB_REPO"
	assert_equal "$(id -u)" 0
	assert_equal "$(ulimit -l)" unlimited
	run ip -br addr show dev "$LAB_NIC"
	assert_success
	assert_output --partial "192.168.77.1/24"
	# The overlay root is writable.
	echo lab >/etc/lab-write-test
	assert_equal "$(cat /etc/lab-write-test)" lab
}

@test "lab: rdma link show lists rxe0 ACTIVE on rxenet0" {
	run rdma link show
	assert_success
	assert_output --regexp "link rxe0/1 state ACTIVE physical_state LINK_UP netdev rxenet0"
	run rdma dev show rxe0
	assert_success
	assert_output --partial "node_type ca"
}

@test "lab: ibv_devinfo -d rxe0 shows PORT_ACTIVE" {
	[ -c /dev/infiniband/uverbs0 ]
	run ibv_devinfo -d rxe0
	assert_success
	assert_output --partial "hca_id:	rxe0"
	assert_output --regexp "state:[[:space:]]+PORT_ACTIVE"
	assert_output --regexp "link_layer:[[:space:]]+Ethernet"
}

@test "lab: rping loopback over rdma_cm" {
	timeout 120 rping -s -a "$LAB_IP" -C 3 -v >"$BATS_TEST_TMPDIR/server" 2>&1 &
	local spid=$!
	run timeout 120 bash -c 'for i in $(seq 50); do rping -c -a "$1" -C 3 -v && exit 0; sleep 0.2; done; exit 1' _ "$LAB_IP"
	wait "$spid"
	local src=$?
	assert_success
	assert_output --partial "ping data: rdma-ping-2"
	cat "$BATS_TEST_TMPDIR/server"
	[ "$src" = 0 ]
	run cat "$BATS_TEST_TMPDIR/server"
	assert_output --partial "server ping data: rdma-ping-2"
}

@test "lab: ibv_ud_pingpong loopback (UD verbs)" {
	timeout 120 ibv_ud_pingpong -d rxe0 -g 1 -n 50 >"$BATS_TEST_TMPDIR/server" 2>&1 &
	local spid=$!
	run timeout 120 bash -c 'for i in $(seq 50); do ibv_ud_pingpong -d rxe0 -g 1 -n 50 "$1" && exit 0; sleep 0.2; done; exit 1' _ "$LAB_IP"
	wait "$spid"
	local src=$?
	assert_success
	assert_line --regexp "^102400 bytes in [0-9.]+ seconds"
	assert_output --partial "50 iters"
	[ "$src" = 0 ]
}

@test "lab: ib_write_lat loopback (RC RDMA WRITE)" {
	timeout 120 ib_write_lat -d rxe0 -n 100 -F >"$BATS_TEST_TMPDIR/server" 2>&1 &
	local spid=$!
	run timeout 120 bash -c 'for i in $(seq 50); do ib_write_lat -d rxe0 -n 100 -F "$1" && exit 0; sleep 0.2; done; exit 1' _ "$LAB_IP"
	wait "$spid" || { cat "$BATS_TEST_TMPDIR/server"; false; }
	assert_success
	assert_output --partial "RDMA_Write Latency Test"
	assert_output --regexp "#bytes[[:space:]]+#iterations"
	assert_output --regexp "[[:space:]]2[[:space:]]+100[[:space:]]+[0-9.]+"
}
