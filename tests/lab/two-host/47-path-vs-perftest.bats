#!/usr/bin/env bats
# Each active stage of the default 'path test peer' beside its perftest twin on
# the same pair (ib_write_bw, ib_read_bw, ib_send_bw, ib_send_lat,
# ibv_ud_pingpong; -x 1: the RoCE v2 GID on rxe). Where perftest completes,
# rdmadiag's stage must not FAIL; where an injected fault makes perftest fail,
# rdmadiag must not PASS. (Netem loss, which perftest survives, is in
# 50-path-faults.bats; a GID index that does not exist in 40-path.bats. An
# MTU mismatch, 9000 here and 1500 there, is no differential case in this lab:
# ib_write_bw completes across it, virtio-net taking the larger frames.)

load path-helpers

setup() {
	path_setup
}

teardown() {
	path_teardown
	[ -n "${TWIN_SERVER:-}" ] && { peer_kill "$TWIN_SERVER" KILL; peer_bg_wait "$TWIN_SERVER" 10 || true; }
	TWIN_SERVER=
	return 0
}

# twin TOOL ARGS...: runs TOOL's server in B and its client here; succeeds
# when the client completed: status 0 and, for perftest, more than 0
# iterations (with -D and every packet dropped, ib_write_bw exits 0 after 0
# iterations). Its output is in $BATS_TEST_TMPDIR/TOOL.log.
twin() {
	local tool=$1 st iters
	shift
	TWIN_SERVER=$(peer_run_bg "exec $tool -d \$LAB_RXE $*")
	peer_until -t 30 "ss -Hltn 'sport = :18515' | grep -q ."
	timeout 90 "$tool" -d "$LAB_RXE" "$@" "$LAB_PEER_IP" >"$BATS_TEST_TMPDIR/$tool.log" 2>&1 && st=0 || st=$?
	peer_kill "$TWIN_SERVER" KILL
	peer_bg_wait "$TWIN_SERVER" 10 || true
	TWIN_SERVER=
	iters=$(awk '/#bytes/ { getline; print $2; exit }' "$BATS_TEST_TMPDIR/$tool.log")
	echo "$tool $*: status $st, iterations ${iters:-n/a}"
	tail -3 "$BATS_TEST_TMPDIR/$tool.log"
	[ "$st" -eq 0 ] && [ "${iters:-1}" != 0 ]
}

@test "healthy pair: each stage of the default run beside its perftest twin; where the twin completes the stage does not fail" {
	start_serve
	run "$RD" path test peer "$LAB_PEER_IP"
	echo "$output"
	report=$output
	peer_kill "$SERVE" TERM
	peer_bg_wait "$SERVE" 10 || true
	SERVE=
	completed=0
	for pair in "write_bw:ib_write_bw -x 1 -D 2" "read_bw:ib_read_bw -x 1 -D 2" "send_bw:ib_send_bw -x 1 -D 2" \
		"rc_latency:ib_send_lat -x 1 -n 200" "ud:ibv_ud_pingpong -g 1 -n 50"; do
		# shellcheck disable=SC2086 # the twin's words
		if twin ${pair#*:}; then
			completed=$((completed + 1))
			grep -qE "^(PASS|WARN)  path\.${pair%%:*} " <<<"$report" || {
				echo "${pair#*:} completed but path.${pair%%:*} did not pass or warn"
				return 1
			}
		fi
	done
	# the lab's pair is healthy: most twins complete, so the comparison happened
	[ "$completed" -ge 4 ]
}

@test "UDP 4791 dropped on the peer: ib_write_bw fails, and so does path test" {
	peer_run iptables -A INPUT -p udp --dport 4791 -j DROP
	UNDO_PEER="iptables -D INPUT -p udp --dport 4791 -j DROP"
	run twin ib_write_bw -x 1 -D 2
	echo "$output"
	assert_failure
	start_serve
	run "$RD" path test peer "$LAB_PEER_IP"
	echo "$output"
	assert_failure 1
	assert_line --regexp "^FAIL  path\.rc_connect "
	refute_line --regexp "^PASS  path\.(rc_latency|write_bw)"
}
