# shellcheck shell=bash
# Shared by the two-host path tests: `load path-helpers`, then call
# path_setup from setup() and path_teardown from teardown().

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
bats_require_minimum_version 1.5.0

RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
# Seconds a timing bound allows on top of the product's own (TCG, sanitized binary).
# shellcheck disable=SC2034 # used by the .bats files that load this
SLACK=3

path_setup() {
	[ "${LAB:-}" = 1 ] && [ -n "${LAB_SHARED:-}" ] ||
		skip "not inside a two-VM lab run (run: tests/lab/lab.sh run2-agent bats ...)"
	. "$LAB_REPO/tests/lab/peer.sh"
	SERVE= UNDO_PEER= UNDO_LOCAL=
}

# Undoes what a test changed (UNDO_PEER in B, UNDO_LOCAL here), stops the serve.
path_teardown() {
	[ -n "${UNDO_PEER:-}" ] && peer_run "$UNDO_PEER"
	[ -n "${UNDO_LOCAL:-}" ] && eval "$UNDO_LOCAL"
	[ -n "${SERVE:-}" ] && { peer_kill "$SERVE" TERM; peer_bg_wait "$SERVE" 10 || true; }
	return 0
}

# netem_here ARGS...: a netem qdisc on this host's lab link, taken off by
# path_teardown (UNDO_LOCAL).
netem_here() {
	modprobe sch_netem
	tc qdisc add dev "$LAB_NIC" root netem "$@"
	UNDO_LOCAL="tc qdisc del dev $LAB_NIC root"
}

start_serve() {
	SERVE=$(peer_run_bg "exec $RD path serve $*")
	peer_until -t 30 "ss -Hltn 'sport = :4792' | grep -q ."
}
