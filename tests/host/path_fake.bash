# Fake path peers for host tests (path.bats, path_timeouts.bats): load after
# helpers. start_fake MODE starts path_fake_peer.py, sets FAKE_PORT and
# FAKE_PID; stop_fake (from teardown) ends it.
start_fake() {
	coproc FAKE { exec python3 "$BATS_TEST_DIRNAME/path_fake_peer.py" "$1"; }
	FAKE_PID=$FAKE_PID
	read -r FAKE_PORT <&"${FAKE[0]}"
}

stop_fake() {
	if [ -n "${FAKE_PID:-}" ]; then
		kill "$FAKE_PID" 2>/dev/null || true
		wait "$FAKE_PID" 2>/dev/null || true
	fi
}

# True when this kernel has no RDMA: the control stage runs, the rest cannot.
skip_with_rdma() {
	if host_has_rdma; then
		skip "this host has RDMA; these tests cover a host without it"
	fi
}
