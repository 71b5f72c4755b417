#!/usr/bin/env bats
# qp/cm/mr/res show and qp watch on a replayed device with 10k QPs, written by
# tests/tools/gen_res_fixture in the recorder's format (same parsing code as live).
# Expected counts come from the generator's own tally, not from rdmadiag.

load helpers

GEN=$BATS_TEST_DIRNAME/../tools/gen_res_fixture

setup_file() {
	export FX10K=$BATS_FILE_TMPDIR/qp10k FX100=$BATS_FILE_TMPDIR/qp100
	"$GEN" "$FX10K" 10000 >"$BATS_FILE_TMPDIR/counts10k"
	"$GEN" "$FX100" 100 >/dev/null
}

# count NAME: the generator's tally of NAME for the 10k fixture
count() {
	tr ' ' '\n' <"$BATS_FILE_TMPDIR/counts10k" | sed -n "s/^$1=//p"
}

rq() {
	"$RDMADIAG" --replay "$FX10K" "$@"
}

@test "qp show lists every QP of the device, one line each" {
	run rq qp show
	assert_success
	[ "${#lines[@]}" -eq "$(count qps)" ]
	assert_line 'rxe0/1: lqpn 1 qp_type GSI state RTS sq_psn 0 comm [ib_core]'
	assert_line --regexp '^rxe0/1: lqpn 17 qp_type RC state RTS rqpn 18 sq_psn 0 rq_psn 0 path_mig_state MIGRATED pdn 1 pid 2000 comm qpapp0$'
}

@test "qp show -j is one valid document with every QP and typed values" {
	run rq -j qp show
	assert_success
	[ "$(jq '.qps | length' <<<"$output")" -eq "$(count qps)" ]
	[ "$(jq '.schema' <<<"$output")" = 2 ]
	[ "$(jq -c '.qps[] | select(.lqpn == 17) | [.dev, .port, .qp_type, .state, .pid, .comm, .owner]' <<<"$output")" = \
		'["rxe0",1,"rc","rts",2000,"qpapp0","user"]' ]
	[ "$(jq -c '.qps[] | select(.lqpn == 1) | [.comm, .owner, has("pid")]' <<<"$output")" = '["ib_core","kernel",false]' ]
}

@test "state and type filters select exactly the matching QPs" {
	run rq -j qp show state RTR,init
	assert_success
	[ "$(jq '.qps | length' <<<"$output")" -eq $(($(count init) + $(count rtr))) ]
	[ "$(jq '[.qps[] | select(.state != "init" and .state != "rtr")] | length' <<<"$output")" -eq 0 ]
	run rq -j qp show type rc
	[ "$(jq '.qps | length' <<<"$output")" -eq "$(count rc)" ]
	run rq -j qp show type UD state error
	[ "$(jq '[.qps[] | select(.qp_type == "ud" and .state == "err")] | length' <<<"$output")" -eq "$(jq '.qps | length' <<<"$output")" ]
	[ "$(jq '.qps | length' <<<"$output")" -gt 0 ]
}

@test "lqpn takes one id, a range, or a list" {
	run rq qp show lqpn 20-25
	assert_success
	[ "${#lines[@]}" -eq 6 ]
	run rq qp show lqpn 17
	[ "${#lines[@]}" -eq 1 ]
	assert_output --partial 'lqpn 17 '
	run rq qp show lqpn 1,17,30-31
	[ "${#lines[@]}" -eq 4 ]
	run rq qp show lqpn 999999
	assert_success
	assert_output ''
}

@test "pid and comm filters select one owner's QPs" {
	run rq qp show comm qpapp3
	assert_success
	n=${#lines[@]}
	[ "$n" -eq $(( ($(count qps) - 1) / 10 )) ]
	run rq qp show pid 2003
	[ "${#lines[@]}" -eq "$n" ]
	run rq qp show comm ib_core
	[ "${#lines[@]}" -eq 1 ]
	run rq qp show rxe0/1 comm qpapp3 state rts
	[ "${#lines[@]}" -lt "$n" ] && [ "${#lines[@]}" -gt 0 ]
}

@test "a device or port that does not exist fails clearly" {
	run rq qp show rxe0/2
	assert_failure 3
	assert_output --partial 'device rxe0 has no port 2'
	run rq qp show mlx5_0
	assert_failure 3
	assert_output --partial "no RDMA device named 'mlx5_0'"
}

@test "bad filter syntax exits 2 with a message naming the problem" {
	run rq qp show lqpn 9-5
	assert_failure 2
	assert_output --partial "lqpn: '9-5' is not a number or a range"
	run rq qp show state bogus
	assert_failure 2
	assert_output --partial "unknown value 'bogus'"
	assert_output --partial 'reset init rtr rts sqd sqe err'
	run rq qp show rxe0 pid
	assert_failure 2
	assert_output --partial "filter 'pid' needs a value"
	run rq qp show rxe0 color red
	assert_failure 2
	assert_output --partial "unknown filter 'color'"
	run rq qp show lqpn ''
	assert_failure 2
}

@test "qp watch prints the QPs once, flags ERR and stuck ones, exits 1" {
	run rq qp watch --count 3 --interval 0.01 --stuck 0
	assert_failure 1
	[ "$(grep -c '^present:' <<<"$output")" -eq "$(count qps)" ]
	[ "$(grep -c 'flag broken' <<<"$output")" -eq "$(count err)" ]
	[ "$(grep -c 'flag stuck' <<<"$output")" -eq $(($(count init) + $(count rtr))) ]
	# nothing changes between polls of the same fixture: no other events
	[ "$(grep -cv -e '^present:' -e '^flag:' <<<"$output")" -eq 0 ]
}

@test "qp watch exits 0 when no QP is flagged, and stops when stable" {
	run rq qp watch state rts --interval 0.01 --until-stable 0.05
	assert_success
	[ "$(grep -c '^present:' <<<"$output")" -eq "$(count rts)" ]
}

@test "qp watch -j writes one JSON object per line" {
	run rq -j qp watch lqpn 17-40 --count 2 --interval 0.01
	assert_failure 1
	while IFS= read -r l; do
		[ "$(jq -r '.schema' <<<"$l")" = 2 ] || return 1
	done <<<"$output"
	[ "$(jq -s '[.[] | select(.event == "present")] | length' <<<"$output")" -eq 24 ]
	[ "$(jq -s -c '[.[] | select(.event == "flag")][0] | [.lqpn, .flag, .state, .comm]' <<<"$output")" = '[26,"broken","err","qpapp0"]' ]
}

@test "qp watch options are validated" {
	run rq qp watch --interval abc
	assert_failure 2
	assert_output --partial "--interval: 'abc' is not a number"
	run rq qp watch --count 0
	assert_failure 2
	run rq qp watch --stuck -1
	assert_failure 2
}

@test "qp watch ends on SIGINT with the exit code of what it saw" {
	"$RDMADIAG" --replay "$FX100" qp watch state rts --interval 0.2 >"$BATS_TEST_TMPDIR/out" &
	pid=$!
	# signal only once it polls (its handler is set by then), at most 10 s
	for _ in $(seq 100); do
		grep -q '^present:' "$BATS_TEST_TMPDIR/out" && break
		sleep 0.1
	done
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 0 ]
	grep -q '^present:' "$BATS_TEST_TMPDIR/out"
}

@test "cm show decodes IPv4 and IPv6 addresses, state and port space" {
	run rq cm show
	assert_success
	assert_line 'rxe0: cm_idn 0 state LISTEN ps TCP src_addr 192.168.77.1:7174 pid 2000 comm qpapp0'
	assert_line --partial 'cm_idn 1 lqpn 17 qp_type RC state CONNECT ps TCP src_addr 192.168.77.1:7174 dst_addr 192.168.77.2:40001'
	assert_line --partial 'state ROUTE_RESOLVED ps UDP src_addr [fe80::1]:0 dst_addr [fe80::2]:4791 comm [rdma_cm]'
	run rq -j cm show state listen
	[ "$(jq -c '.cm_ids | map([.cm_idn, .ps, .state])' <<<"$output")" = '[[0,"tcp","listen"]]' ]
}

@test "mr show prints keys only when the kernel gave them" {
	run rq -j mr show
	assert_success
	[ "$(jq -c '.mrs | map([.mrn, .rkey, .lkey, .mrlen_bytes])' <<<"$output")" = '[[4,"0x1234","0x1234",4096],[5,null,null,8192]]' ]
}

@test "res show gives the per-device counts" {
	run rq -j res show
	assert_success
	[ "$(jq '.devices[0].qp' <<<"$output")" -eq "$(count qps)" ]
	run rq res show rxe0
	assert_output --regexp "^rxe0: pd [0-9]+ cq [0-9]+ qp $(count qps) "
}

@test "res show on a device with index 0, the kernel's first: its counts, alone or named" {
	# res show once took index 0 for "no device yet": every count came out
	# without its device and the command said there was no device (lab, issue #21)
	GEN_DEV_INDEX=0 "$GEN" "$BATS_TEST_TMPDIR/idx0" 10 >/dev/null
	run "$RDMADIAG" --replay "$BATS_TEST_TMPDIR/idx0" -j res show
	assert_success
	assert_output '{"schema":2,"devices":[{"dev":"rxe0","pd":3,"cq":3,"qp":11,"cm_id":3,"mr":2,"ctx":3,"srq":3}]}'
	run "$RDMADIAG" --replay "$BATS_TEST_TMPDIR/idx0" res show rxe0
	assert_success
	assert_output "rxe0: pd 3 cq 3 qp 11 cm_id 3 mr 2 ctx 3 srq 3"
}

@test "memory does not grow with the number of QPs (peak RSS 10k vs 100)" {
	big=$( { /usr/bin/time -f %M "$RDMADIAG" --replay "$FX10K" -j qp show >/dev/null; } 2>&1)
	small=$( { /usr/bin/time -f %M "$RDMADIAG" --replay "$FX100" -j qp show >/dev/null; } 2>&1)
	echo "peak RSS KiB: 10k=$big 100=$small"
	[ $((big - small)) -le 1024 ]
}
