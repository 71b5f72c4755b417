# shellcheck shell=bash
# Shared by 55-qp-watch-devices.bats and 56-dev-monitor-events.bats: both add
# and delete a second rxe device ($RXE2 on $NIC2) under a watcher ($WPID)
# that writes JSON lines to $BATS_TEST_TMPDIR/out; a test that renames $RXE2
# sets RXE2_RENAMED to the new name.

NIC2=rxenet9
RXE2=rxe9

# devwatch_nic_up: the dummy netdev $NIC2 that $RXE2 is added on, up
devwatch_nic_up() {
	ip link add "$NIC2" type dummy
	ip link set "$NIC2" up
}

devwatch_teardown() {
	[ -z "${WPID:-}" ] || kill "$WPID" 2>/dev/null || true
	rdma link delete "$RXE2" 2>/dev/null || true
	[ -z "${RXE2_RENAMED:-}" ] || rdma link delete "$RXE2_RENAMED" 2>/dev/null || true
	ip link delete "$NIC2" 2>/dev/null || true
}

# kernel_has_events: the running kernel is 6.12 or later, the first with RDMA
# netlink monitor events (uname, not the tool: Debian 12's iproute2 6.1 does
# not print the kernel's monitor attribute, so `rdma sys` cannot say)
kernel_has_events() {
	local maj min
	IFS=. read -r maj min _ <<<"$(uname -r)"
	[ "$maj" -gt 6 ] || { [ "$maj" -eq 6 ] && [ "$min" -ge 12 ]; }
}

# wait_for JQ_FILTER: until a line of the watcher's output matches (at most 20 s)
wait_for() {
	for _ in $(seq 200); do
		# (a line being written fails to parse: the next try sees it whole)
		jq -n -e "any(inputs; $1)" "$BATS_TEST_TMPDIR/out" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	cat "$BATS_TEST_TMPDIR/out"
	return 1
}
