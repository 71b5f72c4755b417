#!/usr/bin/env bats
# (fd 3 is bats' TAP stream: the holder's orders go through fd 7)
# qp show / qp watch / cm show against the kernel's resource tracking, with
# tests/helpers/qp_holder creating QPs and walking them through their states.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
load ../json-schema
bats_require_minimum_version 1.5.0

RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
HOLDER=tests/helpers/qp_holder

setup() {
	[ "${LAB:-}" = 1 ] || skip "lab only (tests/lab/lab.sh)"
	mkfifo "$BATS_TEST_TMPDIR/in"
	"$HOLDER" "$LAB_RXE" <"$BATS_TEST_TMPDIR/in" >"$BATS_TEST_TMPDIR/out" 2>&1 &
	HPID=$!
	exec 7>"$BATS_TEST_TMPDIR/in"
	wait_lines 1
	HPID_SEEN=$(awk '$1 == "pid" { print $2 }' "$BATS_TEST_TMPDIR/out")
	[ "$HPID_SEEN" = "$HPID" ]
}

teardown() {
	exec 7>&- || true
	[ -z "${HPID:-}" ] || wait "$HPID" 2>/dev/null || true
	[ -z "${WPID:-}" ] || kill "$WPID" 2>/dev/null || true
	[ -z "${SPID:-}" ] || kill "$SPID" 2>/dev/null || true
}

# wait_lines N: until the holder has printed N lines (at most 20 s)
wait_lines() {
	for _ in $(seq 200); do
		[ "$(wc -l <"$BATS_TEST_TMPDIR/out")" -ge "$1" ] && return 0
		sleep 0.1
	done
	cat "$BATS_TEST_TMPDIR/out"
	return 1
}

# order WORDS...: one order to the holder; prints its answer, fails on "error"
order() {
	local n
	n=$(wc -l <"$BATS_TEST_TMPDIR/out")
	echo "$*" >&7
	wait_lines $((n + 1)) || return 1
	tail -n 1 "$BATS_TEST_TMPDIR/out"
	! tail -n 1 "$BATS_TEST_TMPDIR/out" | grep -q '^error'
}

# create TYPE STATE: prints the new QPN
create() {
	local r
	r=$(order create "$1" "$2") || { echo "holder: $r" >&2; return 1; }
	awk '$1 == "qp" { print $2 }' <<<"$r"
}

@test "qp show lists exactly the helper's QPs with pid, comm, type and state" {
	declare -A want
	for ts in rc:rts ud:rts uc:rtr rc:init rc:reset ud:err; do
		q=$(create "${ts%%:*}" "${ts##*:}")
		[ -n "$q" ] || return 1
		want[$q]="${ts%%:*} ${ts##*:}"
	done
	run "$RD" -j qp show "$LAB_RXE" pid "$HPID"
	assert_success
	echo "$output"
	[ "$(jq '.qps | length' <<<"$output")" -eq 6 ]
	for q in "${!want[@]}"; do
		got=$(jq -r --argjson q "$q" '.qps[] | select(.lqpn == $q) | "\(.qp_type) \(.state) \(.pid) \(.comm) \(.dev)"' <<<"$output")
		exp="${want[$q]} $HPID qp_holder $LAB_RXE"
		echo "QP $q: got '$got' want '$exp'"
		[ "$got" = "$exp" ]
	done
	# and the same QPs, numbers and states, as rdma(8) sees them
	theirs=$(rdma -j res show qp | jq -r --argjson p "$HPID" '[.[] | select(.pid == $p) | .lqpn] | sort | join(" ")')
	mine=$(jq -r '[.qps[].lqpn] | sort | join(" ")' <<<"$output")
	[ "$mine" = "$theirs" ]
}

@test "qp show agrees with rdma -j res show qp on every QP: number, type, state, port and owner" {
	for ts in rc:init rc:rtr rc:rts rc:err uc:rts ud:rts ud:err; do
		[ -n "$(create "${ts%%:*}" "${ts##*:}")" ] || return 1
	done
	# every QP of the device, the kernel's GSI QP and ours alike
	run --separate-stderr "$RD" -j qp show "$LAB_RXE"
	assert_success
	mine=$(jq -c '[.qps[] | {lqpn, type: (.qp_type | ascii_downcase), state: (.state | ascii_downcase),
		pid: (if (.pid // 0) == 0 then null else .pid end)}] | sort_by(.lqpn)' <<<"$output")
	theirs=$(rdma -j res show qp link "$LAB_RXE/1" | jq -c '[.[] | {lqpn, type: (.type | ascii_downcase),
		state: (.state | ascii_downcase), pid: (if (.pid // 0) == 0 then null else .pid end)}] | sort_by(.lqpn)')
	echo "rdmadiag: $mine"
	echo "rdma:     $theirs"
	[ "$mine" = "$theirs" ]
	# the states held are there, ERR included
	for st in init rtr rts err; do
		jq -e --arg s "$st" --argjson p "$HPID" 'map(select(.pid == $p and .state == $s)) | length >= 1' <<<"$mine"
	done
}

@test "filters select the helper's QPs by state, type, lqpn and comm" {
	a=$(create rc rts)
	b=$(create uc rtr)
	c=$(create ud init)
	run "$RD" -j qp show state RTR comm qp_holder
	[ "$(jq -c '[.qps[].lqpn]' <<<"$output")" = "[$b]" ]
	run "$RD" -j qp show type ud pid "$HPID"
	[ "$(jq -c '[.qps[].lqpn]' <<<"$output")" = "[$c]" ]
	run "$RD" -j qp show "$LAB_RXE"/1 lqpn "$a"
	[ "$(jq -c '[.qps[] | [.lqpn, .qp_type, .state]]' <<<"$output")" = "[[$a,\"rc\",\"rts\"]]" ]
	run "$RD" -j qp show comm qp_holder
	[ "$(jq '.qps | length' <<<"$output")" -eq 3 ]
	run "$RD" qp show lqpn 5-x
	assert_failure 2
}

@test "qp watch reports creation, each transition, a QP stuck in RTR, ERR and destruction" {
	"$RD" -j qp watch pid "$HPID" --interval 0.2 --stuck 1 >"$BATS_TEST_TMPDIR/watch" 2>&1 &
	WPID=$!
	sleep 1
	q=$(create rc rtr)
	sleep 2.5	# held in RTR past --stuck 1
	order move "$q" rts
	sleep 1
	order move "$q" err
	sleep 1
	order destroy "$q"
	sleep 1
	kill -INT "$WPID"
	rc=0
	wait "$WPID" || rc=$?
	WPID=
	cat "$BATS_TEST_TMPDIR/watch"
	[ "$rc" -eq 1 ]	# flagged
	ev() { jq -c --argjson q "$q" "select(.lqpn == \$q) | $1" "$BATS_TEST_TMPDIR/watch"; }
	[ "$(ev 'select(.event == "created") | .state')" = '"rtr"' ]
	[ "$(ev 'select(.event == "flag" and .flag == "stuck") | [.state, .pid, .comm]')" = "[\"rtr\",$HPID,\"qp_holder\"]" ]
	[ "$(ev 'select(.event == "state") | [.old_state, .state]' | tr '\n' ' ')" = '["rtr","rts"] ["rts","err"] ' ]
	secs=$(ev 'select(.event == "state" and .state == "rts") | .seconds_in_old_state')
	awk -v s="$secs" 'BEGIN { exit !(s >= 2 && s < 10) }'
	[ "$(ev 'select(.event == "flag" and .flag == "broken") | .state')" = '"err"' ]
	[ "$(ev 'select(.event == "destroyed") | .old_state')" = '"err"' ]
	validate_json --lines qp-watch "$BATS_TEST_TMPDIR/watch"
}

@test "qp watch exits 0 when every QP is in RTS, after --count polls" {
	create rc rts
	create ud rts
	run "$RD" qp watch pid "$HPID" --count 3 --interval 0.2 --stuck 0.1
	assert_success
	[ "$(grep -c '^present:' <<<"$output")" -eq 2 ]
	run "$RD" qp watch pid "$HPID" lqpn 999999 --until-stable 0.5 --interval 0.1
	assert_success
}

@test "cm show shows the cm_ids of a running rping: listener and both ends" {
	exec 7>&-	# no holder needed
	timeout 30 rping -s -a "$LAB_IP" -C 100000 -S 64 >/dev/null 2>&1 &
	SPID=$!
	for _ in $(seq 100); do
		"$RD" cm show state listen comm rping | grep -q 'LISTEN' && break
		sleep 0.2
	done
	run "$RD" -j cm show comm rping
	echo "$output"
	[ "$(jq -r --arg a "$LAB_IP:7174" '.cm_ids[] | select(.state == "listen") | "\(.ps) \(.src_addr)"' <<<"$output")" = "tcp $LAB_IP:7174" ]
	timeout 20 rping -c -a "$LAB_IP" -C 100000 -S 64 >/dev/null 2>&1 &
	CPID=$!
	for _ in $(seq 100); do
		[ "$("$RD" -j cm show comm rping | jq '[.cm_ids[] | select(.dst_addr != null)] | length')" -ge 2 ] && break
		sleep 0.2
	done
	run "$RD" -j cm show comm rping
	kill "$CPID" 2>/dev/null || true
	echo "$output"
	# the client's id points at the server's port, the server's child at the client
	[ "$(jq -r '[.cm_ids[] | select(.dst_addr | tostring | endswith(":7174"))] | length' <<<"$output")" -ge 1 ]
	[ "$(jq -r '[.cm_ids[] | select(.lqpn != null and .qp_type == "rc")] | length' <<<"$output")" -ge 2 ]
	validate_output cm-show
	run "$RD" cm show ps bogus
	assert_failure 2
}
