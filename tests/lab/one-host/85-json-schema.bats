#!/usr/bin/env bats
# (fd 3 is bats' TAP stream: the holder's orders go through fd 7)
# Every live -j document against its published schema (Documentation/json,
# issue #21) on the real rdma_rxe stack, where no other lab test validates it:
# the show commands, with QPs (tests/helpers/qp_holder), an MR and an SRQ
# (ibv_srq_pingpong's server) and a listening cm_id (rping) held; the watch
# streams line by line; the checks, the snapshot, path serve and path test
# against this host; the error documents. Each test asserts real content and
# validates its documents in one run of the validator (Python costs seconds
# under TCG). tests/host/json_schema.bats does the same on the fixtures.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
load ../json-schema
bats_require_minimum_version 1.5.0

RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
HOLDER=tests/helpers/qp_holder

setup() {
	[ "${LAB:-}" = 1 ] || skip "lab only (tests/lab/lab.sh)"
}

# (the background processes are started without fd 7, else the holder
# would never see the end of its orders, and without bats' fd 3)
teardown() {
	local p
	for p in ${BGPIDS:-}; do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	exec 7>&- 2>/dev/null || true
	[ -z "${HPID:-}" ] || wait "$HPID" 2>/dev/null || true
}

# doc SCHEMA RC ARGS...: `rdmadiag -j ARGS` must exit RC; its document is
# kept for json_check_kept and left in $output
doc() {
	local schema=$1 want=$2
	shift 2
	run --separate-stderr "$RD" -j "$@"
	# shellcheck disable=SC2154 # stderr: set by bats' run --separate-stderr
	[ "$status" -eq "$want" ] || { echo "rdmadiag -j $* exited $status, not $want: $stderr" >&2; return 1; }
	[ -n "$output" ] || { echo "rdmadiag -j $* printed no document" >&2; return 1; }
	json_keep "$schema"
}

# holder_create TYPE STATE: one QP held by qp_holder (HPID, orders on fd 7)
holder_create() {
	local n
	n=$(wc -l <"$BATS_TEST_TMPDIR/hout")
	echo "create $1 $2" >&7
	for _ in $(seq 200); do
		[ "$(wc -l <"$BATS_TEST_TMPDIR/hout")" -gt "$n" ] && break
		sleep 0.1
	done
	tail -n 1 "$BATS_TEST_TMPDIR/hout" | grep '^qp ' || { cat "$BATS_TEST_TMPDIR/hout"; return 1; }
}

@test "device, port, GID, topology and counter documents validate live" {
	doc dev-show 0 dev show
	jq -e --arg d "$LAB_RXE" '.devices[0].dev == $d and .devices[0].driver == "rdma_rxe" and (.devices[0].node_guid | length) > 0' <<<"$output"
	doc dev-show 0 -d dev show "$LAB_RXE"
	jq -e '.devices[0].max_qp > 0' <<<"$output"
	doc link-show 0 link show
	jq -e --arg n "$LAB_NIC" '.links[0].state == "active" and .links[0].netdev == $n and .links[0].active_mtu > 0' <<<"$output"
	doc link-show 0 -d link show "$LAB_RXE/1"
	doc gid-show 0 gid show
	jq -e --arg ip "$LAB_IP" '(.gids | length) >= 2 and .recommended[0].ip == $ip' <<<"$output"
	doc gid-show 0 -d gid show "$LAB_RXE/1"
	doc topo-show 0 topo show
	jq -e --arg d "$LAB_RXE" '.rdma_devices == [{"name": $d, "kind": "no_pci"}]' <<<"$output"
	doc counter-show 0 counter show
	jq -e '.ports[0].traffic.tx_packets >= 0 and (.ports[0].lifespan_ms | type) == "number"' <<<"$output"
	doc counter-show 0 -d counter show "$LAB_RXE/1"
	doc counter-map 0 counter map
	jq -e '[.map[] | select(.drivers | test("rxe"))] | length > 3' <<<"$output"
	doc counter-mode 0 counter mode
	jq -e '.modes[0].mode == "none" and .modes[0].per_qp_counters == "unsupported"' <<<"$output"
	# off is what the kernel has already: allowed on rxe
	doc counter-mode 0 counter mode set "$LAB_RXE/1" auto off
	jq -e '.modes[0].mode == "none"' <<<"$output"
	# rxe binds no counter to a QP: an empty list and the reason (65-counter-qp.bats)
	doc counter-show-qp 3 counter show qp "$LAB_RXE"
	jq -e '.counters == [] and (.errors[0] | test("does not support per-QP counters"))' <<<"$output"
	# the streams: counter watch with and without -d, dev monitor -d
	"$RD" -j counter watch "$LAB_RXE/1" --interval 0.5 --count 2 --all >"$BATS_TEST_TMPDIR/cw.jsonl"
	"$RD" -j -d counter watch "$LAB_RXE/1" --interval 0.5 --count 2 --all >"$BATS_TEST_TMPDIR/cwd.jsonl"
	"$RD" -j -d dev monitor --interval 0.2 --count 2 >"$BATS_TEST_TMPDIR/dm.jsonl"
	[ "$(jq -s '[.[].rows[]] | length' "$BATS_TEST_TMPDIR/cw.jsonl")" -gt 4 ]
	[ "$(jq -s '[.[].rows[] | .source] | unique | length' "$BATS_TEST_TMPDIR/cwd.jsonl")" -ge 1 ]
	jq -e 'select(.event == "device_watch") | .mode == "poll" or .mode == "events"' "$BATS_TEST_TMPDIR/dm.jsonl"
	json_keep counter-watch "$BATS_TEST_TMPDIR/cw.jsonl"
	json_keep counter-watch "$BATS_TEST_TMPDIR/cwd.jsonl"
	json_keep dev-monitor "$BATS_TEST_TMPDIR/dm.jsonl"
	json_check_kept
}

@test "resource documents validate live with QPs, an MR, an SRQ and a cm_id held" {
	local gid q qerr
	mkfifo "$BATS_TEST_TMPDIR/hin"
	"$HOLDER" "$LAB_RXE" <"$BATS_TEST_TMPDIR/hin" >"$BATS_TEST_TMPDIR/hout" 2>&1 3>&- &
	HPID=$!
	exec 7>"$BATS_TEST_TMPDIR/hin"
	q=$(holder_create rc rts | awk '{ print $2 }')
	holder_create uc rtr
	holder_create ud init
	qerr=$(holder_create rc err | awk '{ print $2 }')
	# ibv_srq_pingpong's server holds a PD, an MR, CQs, QPs and an SRQ while
	# it waits for its client; rping's server a listening cm_id
	gid=$("$RD" -j gid show "$LAB_RXE/1" | jq '.recommended[0].index')
	ibv_srq_pingpong -d "$LAB_RXE" -g "$gid" >"$BATS_TEST_TMPDIR/srq" 2>&1 3>&- 7>&- &
	BGPIDS=$!
	rping -s -a "$LAB_IP" -C 1 >/dev/null 2>&1 3>&- 7>&- &
	BGPIDS="$BGPIDS $!"
	for _ in $(seq 100); do
		[ "$(rdma res show srq | wc -l)" -ge 1 ] && rdma res show cm_id | grep -q rping && break
		sleep 0.2
	done
	doc res-show 0 res show
	jq -e --arg d "$LAB_RXE" '.devices[0].dev == $d and .devices[0].qp >= 5 and .devices[0].srq >= 1 and .devices[0].mr >= 1' <<<"$output"
	doc res-show 0 res show "$LAB_RXE"
	doc qp-show 0 qp show
	jq -e --argjson q "$q" --argjson e "$qerr" '[.qps[] | select(.lqpn == $q or .lqpn == $e) | .state] == ["rts", "err"]' <<<"$output"
	doc qp-show 0 -d qp show "$LAB_RXE" pid "$HPID"
	doc cq-show 0 cq show
	jq -e '(.cqs | length) >= 2' <<<"$output"
	doc mr-show 0 mr show
	jq -e '[.mrs[] | .comm] | index("ibv_srq_pingpon")' <<<"$output"
	doc pd-show 0 pd show
	jq -e '(.pds | length) >= 2' <<<"$output"
	doc srq-show 0 srq show
	jq -e '.srqs[0].type == "basic" and .srqs[0].comm == "ibv_srq_pingpon"' <<<"$output"
	doc cm-show 0 cm show
	jq -e --arg a "$LAB_IP:7174" '[.cm_ids[] | select(.state == "listen") | .src_addr] == [$a]' <<<"$output"
	# the kernel refuses to bind a counter on rxe: the error documents
	doc counter-bind 3 counter bind "$LAB_RXE/1" lqpn "$q"
	jq -e '.errors[0] | test("does not support per-QP counters")' <<<"$output"
	doc counter-unbind 2 counter unbind "$LAB_RXE/1" counter 1
	jq -e '.errors[0] | startswith("no per-QP counter 1 on")' <<<"$output"
	# QPs in INIT, RTR and ERR: qp watch flags them (exit 1), line by line
	run -1 "$RD" -j -d qp watch pid "$HPID" --interval 0.2 --count 2 --stuck 0.1
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/qw.jsonl"
	[ "$(jq -s '[.[] | .flag // empty] | unique' "$BATS_TEST_TMPDIR/qw.jsonl" | jq -c .)" = '["broken","stuck"]' ]
	json_keep qp-watch "$BATS_TEST_TMPDIR/qw.jsonl"
	echo quit >&7
	json_check_kept
}

@test "check, snapshot, path serve and path test documents validate live" {
	doc link-check 0 link check
	jq -e '.summary.fail == 0 and .summary.pass > 5' <<<"$output"
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/lc.json"
	doc link-check 1 link check "$LAB_RXE/1" --expect-mtu 4096 --expect-rate 100
	jq -e '.summary.fail >= 1' <<<"$output"
	doc counter-check 0 counter check --interval 0.5
	jq -e '.summary.pass > 0 and (.checks | length) > 3' <<<"$output"
	doc system-check 0 system check --interval 0.5
	jq -e '[.layers[] | .layer] == ["device", "resource", "counter"]' <<<"$output"
	doc system-snapshot 0 system snapshot -o "$BATS_TEST_TMPDIR/s.tar" --interval 0.2
	jq -e '.snapshot.size_bytes > 0 and (.commands | length) > 5 and all(.commands[]; .exit_code == 0)' <<<"$output"
	# path serve on this host, path test to its own address: one peer, then --peers
	"$RD" -j path serve --port 4800 --idle-timeout 10 >"$BATS_TEST_TMPDIR/serve.json" 2>"$BATS_TEST_TMPDIR/serve.err" 3>&- &
	BGPIDS=$!
	for _ in $(seq 100); do ss -Hltn 'sport = :4800' | grep -q . && break; sleep 0.1; done
	doc path-test 0 path test peer "$LAB_IP" --port 4800 --tests lat --iters 20
	jq -e --arg p "$LAB_IP" '.peer == $p and .summary.fail == 0 and ([.stages[] | .id] | index("path.rc_latency"))' <<<"$output"
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/pt.json"
	echo "$LAB_IP" >"$BATS_TEST_TMPDIR/peers"
	doc path-test 0 path test --peers "$BATS_TEST_TMPDIR/peers" --port 4800 --tests lat --iters 20
	jq -e '(.peers | length) == 1 and .peers[0].latency_p50_us > 0' <<<"$output"
	kill -TERM "$BGPIDS"
	wait "$BGPIDS"
	BGPIDS=
	cat "$BATS_TEST_TMPDIR/serve.err"
	grep -q 'session .*: ok: ' "$BATS_TEST_TMPDIR/serve.err"
	# serve writes no report of its own: nothing went wrong
	[ "$(cat "$BATS_TEST_TMPDIR/serve.json")" = '{"schema":2}' ]
	json_keep path-serve "$BATS_TEST_TMPDIR/serve.json"
	# and when it cannot listen (192.0.2.1 is no address here)
	doc path-serve 3 path serve --bind 192.0.2.1 --port 4800 --once
	jq -e '.errors[0] | test("cannot listen on 192.0.2.1")' <<<"$output"
	# report merge over this host's own reports
	doc report-merge 0 report merge "$BATS_TEST_TMPDIR/pt.json" "$BATS_TEST_TMPDIR/lc.json"
	jq -e '(.path.pairs | length) == 1 and .checks' <<<"$output"
	json_check_kept
}

@test "error documents validate live: an unknown device, an unknown port" {
	local c
	for c in dev-show:"dev show" link-show:"link show" link-check:"link check" gid-show:"gid show" \
		res-show:"res show" qp-show:"qp show" cm-show:"cm show" cq-show:"cq show" mr-show:"mr show" \
		pd-show:"pd show" srq-show:"srq show" counter-show:"counter show" counter-mode:"counter mode" \
		counter-check:"counter check --interval 0.1" system-check:"system check --interval 0.1"; do
		# shellcheck disable=SC2086 # the command's words
		run --separate-stderr "$RD" -j ${c#*:} nosuch0
		[ "$status" -ne 0 ] || fail "${c#*:} nosuch0 exited 0"
		# the check commands name it as a failed check, the others in errors
		jq -e '(.errors | length > 0) or ([.checks[]?, .layers[]?.findings[]? | select(.verdict == "fail")] | length > 0)' \
			<<<"$output" >/dev/null || fail "${c#*:} nosuch0: $output"
		json_keep "${c%%:*}"
	done
	for c in link-show:"link show" gid-show:"gid show" counter-show:"counter show" \
		counter-check:"counter check --interval 0.1"; do
		# shellcheck disable=SC2086
		run --separate-stderr "$RD" -j ${c#*:} "$LAB_RXE/9"
		[ "$status" -ne 0 ] || fail "${c#*:} $LAB_RXE/9 exited 0"
		jq -e --arg m "device $LAB_RXE has no port 9" '[.errors[]? | startswith($m)] | any' <<<"$output" >/dev/null ||
			fail "${c#*:} $LAB_RXE/9: $output"
		json_keep "${c%%:*}"
	done
	json_check_kept
}
