#!/usr/bin/env bats
# link check and gid show against a real kernel RDMA stack (rdma_rxe on the
# dummy $LAB_NIC). Each test that breaks something restores it in teardown:
# the VM is shared by every one-host bats file.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
load ../json-schema
bats_require_minimum_version 1.5.0

RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
PORT=/sys/class/infiniband/$LAB_RXE/ports/1

lcj() { "$RD" -j link check "$@"; }
verdict() { jq -r --arg id "$2" --arg s "$3" '.checks[] | select(.id == $id and .subject == $s) | .verdict' <<<"$1"; }

wait_active() { # the rxe port follows the netdev within a moment
	for _ in $(seq 50); do
		grep -q ACTIVE "$PORT/state" && return 0
		sleep 0.1
	done
	return 1
}

wait_gid_ip() { # wait_gid_ip HEXTAIL PRESENT(1|0)
	for _ in $(seq 50); do
		if grep -qs "$1" "$PORT"/gids/*; then [ "$2" = 1 ] && return 0; else [ "$2" = 0 ] && return 0; fi
		sleep 0.1
	done
	return 1
}

teardown() {
	ip link set "$LAB_NIC" up
	ip link set "$LAB_NIC" mtu 1500
	ip addr show dev "$LAB_NIC" | grep -q "inet $LAB_IP/" || ip addr add "$LAB_IP/24" dev "$LAB_NIC"
	ip -6 addr del 2001:db8:77::1/64 dev "$LAB_NIC" 2>/dev/null || true
	modprobe rdma_ucm
	rdma link del rxe1 2>/dev/null || true
	ip link del rxenet1 2>/dev/null || true
	wait_active
}

@test "healthy host: no check fails, exit 0, port and GID checks pass" {
	run --separate-stderr lcj
	assert_success
	jq -e '.summary.fail == 0' <<<"$output"
	for id in kernel.rdma kernel.modules; do [ "$(verdict "$output" $id host)" = pass ]; done
	for id in dev.uverbs dev.provider; do [ "$(verdict "$output" $id "$LAB_RXE")" = pass ]; done
	for id in port.state port.phys_state netdev.present netdev.up netdev.mtu port.mtu gid.usable gid.roce_v2; do
		echo "$id: $(verdict "$output" $id "$LAB_RXE/1")"
		[ "$(verdict "$output" $id "$LAB_RXE/1")" = pass ]
	done
	# Soft-RoCE is not on PCIe
	[ "$(verdict "$output" pci.link "$LAB_RXE")" = skip ]
	jq -e '.checks[] | select(.id == "kernel.modules") | .measured | test("rdma_rxe")' <<<"$output"
}

@test "netdev down: port.state, port.phys_state and netdev.up fail with the ip link hint" {
	ip link set "$LAB_NIC" down
	for _ in $(seq 50); do grep -q ACTIVE "$PORT/state" || break; sleep 0.1; done
	run --separate-stderr lcj "$LAB_RXE/1"
	assert_failure 1
	for id in port.state port.phys_state netdev.up; do
		echo "$id: $(verdict "$output" $id "$LAB_RXE/1")"
		[ "$(verdict "$output" $id "$LAB_RXE/1")" = fail ]
	done
	jq -e --arg nic "$LAB_NIC" '.checks[] | select(.id == "netdev.up") | .hint == "ip link set dev \($nic) up"' <<<"$output"
	validate_output link-check
}

@test "MTU 1500 with --expect-mtu 9000 fails with the MTU hint; port.mtu is 1024" {
	run "$RD" link check --only netdev.mtu,port.mtu --expect-mtu 9000
	assert_failure 1
	assert_output --partial "FAIL  netdev.mtu"
	assert_output --partial "set MTU 9000 on $LAB_NIC and on the switch port: ip link set dev $LAB_NIC mtu 9000"
	assert_output --regexp "PASS  port.mtu +$LAB_RXE/1 +active 1024, netdev $LAB_NIC MTU 1500 allows 1024"
}

@test "address removed: gid.roce_v2 warns and gid.usable fails" {
	ip addr del "$LAB_IP/24" dev "$LAB_NIC"
	wait_gid_ip "ffff:c0a8:4d01" 0
	run --separate-stderr lcj --only gid.roce_v2,gid.usable
	assert_failure 1
	[ "$(verdict "$output" gid.roce_v2 "$LAB_RXE/1")" = warn ]
	[ "$(verdict "$output" gid.usable "$LAB_RXE/1")" = fail ]
	jq -e '.checks[] | select(.id == "gid.roce_v2") | .hint | test("ip addr add")' <<<"$output"
}

@test "IPv6 address added: its RoCE v2 GID appears and is recommended" {
	ip -6 addr add 2001:db8:77::1/64 dev "$LAB_NIC" nodad
	wait_gid_ip "2001:0db8:0077:0000:0000:0000:0000:0001" 1
	run --separate-stderr "$RD" -j gid show "$LAB_RXE/1"
	assert_success
	idx=$(jq -r '.recommended[] | select(.ip == "2001:db8:77::1") | .index' <<<"$output")
	[ -n "$idx" ]
	[ "$(cat "$PORT/gids/$idx")" = "2001:0db8:0077:0000:0000:0000:0000:0001" ]
	[ "$(cat "$PORT/gid_attrs/types/$idx")" = "RoCE v2" ]
	# IPv4 comes first in the recommendations
	jq -e --arg ip "$LAB_IP" '.recommended[0].ip == $ip' <<<"$output"
	run --separate-stderr lcj --only gid.roce_v2
	assert_success
	jq -e --arg m "2001:db8:77::1 at index $idx" '.checks[0].measured | contains($m)' <<<"$output"
}

@test "rdma_ucm unloaded: kernel.modules and dev.uverbs fail with modprobe hints" {
	modprobe -r rdma_ucm
	run --separate-stderr lcj --only kernel.modules,dev.uverbs
	assert_failure 1
	[ "$(verdict "$output" kernel.modules host)" = fail ]
	jq -e '.checks[] | select(.id == "kernel.modules") | (.measured | test("rdma_ucm")) and (.hint | test("modprobe -a [a-z_ ]*rdma_ucm"))' <<<"$output"
	jq -e '.checks[] | select(.id == "dev.uverbs") | .hint | test("modprobe rdma_ucm")' <<<"$output"
}

@test "gid show lists exactly the non-empty sysfs GIDs with their types and netdevs" {
	run --separate-stderr "$RD" -j gid show "$LAB_RXE/1"
	assert_success
	n=0
	for f in "$PORT"/gids/*; do
		i=${f##*/}
		g=$(<"$f")	# builtins: rxe has 1024 slots, a process each would take minutes under TCG
		[ "$g" = 0000:0000:0000:0000:0000:0000:0000:0000 ] && continue
		n=$((n + 1))
		t=$(<"$PORT/gid_attrs/types/$i")
		nd=$(<"$PORT/gid_attrs/ndevs/$i")
		jq -e --argjson i "$i" --arg g "$g" --arg nd "$nd" --arg t "$([ "$t" = "RoCE v2" ] && echo roce_v2 || echo roce_v1)" \
			'.gids[] | select(.index == $i) | .gid == $g and .netdev == $nd and .type == $t' <<<"$output"
	done
	[ "$n" -gt 0 ]
	jq -e --argjson n "$n" '.gids | length == $n' <<<"$output"
}

@test "two RDMA netdevs in one subnet: net.subnet warns with the arp sysctls" {
	ip link add rxenet1 type dummy
	ip addr add 192.168.77.5/24 dev rxenet1
	ip link set rxenet1 up
	rdma link add rxe1 type rxe netdev rxenet1
	run "$RD" link check --only net.subnet
	assert_success
	assert_output --partial "WARN  net.subnet"
	assert_output --partial "$LAB_NIC($LAB_IP)+rxenet1(192.168.77.5)"
	assert_output --partial "arp_ignore=1"
}
