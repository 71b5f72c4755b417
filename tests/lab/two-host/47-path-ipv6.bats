#!/usr/bin/env bats
# path test over IPv6: fd00:77::1 (A) and fd00:77::2 (B) on labnet0 next to
# the IPv4 addresses, path serve with its default bind, the default
# `path test peer fd00:77::2` exactly as a user types it. RoCE v2 over IPv6
# must use the GID of the IPv6 address on both ends: the RoCE packets are
# then UDP over IPv6, which /proc/net/snmp6 counts on each host.

load path-helpers
load ../json-schema

A6=fd00:77::1
B6=fd00:77::2

setup() {
	path_setup
	# nodad: usable at once, no 1-2 s of duplicate address detection. replace:
	# the ipv6 lab shape has them already.
	ip -6 addr replace "$A6/64" dev "$LAB_NIC" nodad
	peer_run "ip -6 addr replace $B6/64 dev $LAB_NIC nodad"
	# rxe adds the address's GID from its inet6addr notifier
	wait_until -t 10 grep -qx 'fd00:0077:0000:0000:0000:0000:0000:0001' /sys/class/infiniband/"$LAB_RXE"/ports/1/gids/*
	peer_until -t 10 "grep -qx fd00:0077:0000:0000:0000:0000:0000:0002 /sys/class/infiniband/$LAB_RXE/ports/1/gids/*"
}

teardown() {
	path_teardown
}

udp6_in() { # Udp6InDatagrams of /proc/net/snmp6 given on stdin
	awk '$1 == "Udp6InDatagrams" { print $2 }'
}

@test "default serve listens on IPv4 and IPv6; default path test peer over IPv6 passes on the IPv6 GIDs" {
	start_serve
	run peer_run "ss -Hltn 'sport = :4792'"
	assert_output --regexp '(\[::\]|\*):4792'
	run peer_bg_log "$SERVE"
	assert_output --partial "listening on every IPv4 and IPv6 address port 4792"
	here0=$(udp6_in </proc/net/snmp6)
	there0=$(peer_run cat /proc/net/snmp6 | udp6_in)
	run "$RD" path test peer "$B6"
	echo "$output"
	assert_success
	for id in control resolve config rc_connect ud mtu; do
		assert_line --regexp "^PASS  path\.$id "
	done
	# the lab's link drops a packet now and then (see 40-path.bats)
	for id in rc_latency write_bw read_bw send_bw; do
		assert_line --regexp "^(PASS  path\.$id |WARN  path\.$id .*counters: )"
	done
	refute_line --regexp "^FAIL"
	assert_line --regexp "^PASS  path.control .*$B6 port 4792 answers"
	# here: the RoCE v2 GID whose value is the IPv6 source address, as sysfs lists it
	line=$(grep '^PASS  path.resolve' <<<"$output")
	[[ "$line" =~ route:\ $LAB_RXE/1\ GID\ index\ ([0-9]+)\ \(RoCE\ v2\ $A6\)\ source\ $A6 ]]
	idx=${BASH_REMATCH[1]}
	gids=/sys/class/infiniband/$LAB_RXE/ports/1
	[ "$(cat "$gids/gids/$idx")" = fd00:0077:0000:0000:0000:0000:0000:0001 ]
	[ "$(cat "$gids/gid_attrs/types/$idx")" = "RoCE v2" ]
	# both ways the RoCE packets (1000 round trips at least) were UDP over IPv6:
	# the tester sent from its IPv6 GID, the peer answered from its own
	here1=$(udp6_in </proc/net/snmp6)
	there1=$(peer_run cat /proc/net/snmp6 | udp6_in)
	echo "Udp6InDatagrams here +$((here1 - here0)), peer +$((there1 - there0))"
	[ $((here1 - here0)) -ge 1000 ]
	[ $((there1 - there0)) -ge 1000 ]
	run peer_bg_log "$SERVE"
	assert_line --regexp "session \[$A6\]:[0-9]+: ok: $LAB_RXE/1"
}

@test "-j path test peer over IPv6: peer, source and addresses are the IPv6 text forms" {
	start_serve
	run "$RD" -j path test peer "$B6" --tests ud,mtu
	assert_success
	validate_output path-test
	run jq -e --arg a "$A6" --arg b "$B6" '.peer == $b and .source == $a and (.addresses | index($a)) != null
		and ([.stages[] | select(.id == "path.resolve") | .measured | test("RoCE v2 " + $a + "\\)")] == [true])' <<<"$output"
	assert_success
}

@test "--bind an IPv6 address: serve answers there only, an IPv4 tester is refused" {
	start_serve --bind "$B6"
	run peer_bg_log "$SERVE"
	assert_output --partial "listening on $B6 port 4792"
	run "$RD" path test peer "$LAB_PEER_IP" --tests ud
	assert_failure 1
	assert_line --regexp "^FAIL  path.control .*nothing listening on $LAB_PEER_IP port 4792 \(connection refused\)"
	run "$RD" path test peer "$B6" --tests ud,mtu
	echo "$output"
	assert_success
	assert_line --regexp "^PASS  path.control .*$B6 port 4792 answers"
}
