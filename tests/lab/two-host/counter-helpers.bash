# shellcheck shell=bash
# Shared by the two-host counter tests (60-counter.bats, 90-counter-loss.bats):
# `load counter-helpers`, then call counter_setup from setup() and
# counter_teardown from teardown(). Tests keep their ib_write_bw processes in
# $client (here) and $server (a peer_run_bg handle), for the teardown.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
bats_require_minimum_version 1.5.0

counter_setup() {
	[ "${LAB:-}" = 1 ] && [ -n "${LAB_SHARED:-}" ] ||
		skip "not inside a two-VM lab run (run: tests/lab/lab.sh run2-agent bats ...)"
	. "$LAB_REPO/tests/lab/peer.sh"
	RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
}

counter_teardown() {
	tc qdisc del dev "$LAB_NIC" root 2>/dev/null || true
	[ -n "${client:-}" ] && kill "$client" 2>/dev/null
	[ -n "${server:-}" ] && peer_kill "$server" 2>/dev/null
	true
}

retrans() { # sum of retransmission-group kinds of our port
	"$RD" -j counter show "$LAB_RXE/1" |
		jq '.ports[0].retransmission | [.retransmissions, .sequence_errors, .duplicate_requests] | map(. // 0) | add'
}
