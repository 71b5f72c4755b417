#!/usr/bin/env bats
# A recording that lacks what a command reads (it was made by another command
# or with other options) is a replay gap: exit 2 with one message saying the
# recording holds no reply for it, never a fact about the host (a driver
# without counters, sysfs not mounted, no such QP) with exit 3 or 4.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
bats_require_minimum_version 1.5.0

RD=${RDMADIAG_BIN:-$BATS_TEST_DIRNAME/../../rdmadiag/rdmadiag}
FX=$BATS_TEST_DIRNAME/../fixtures

gap_message() {
	assert_output --partial "cause: this command, in this form or with these options, was not what was recorded"
	assert_output --partial "record this one with 'rdmadiag --record DIR ...'"
	refute_output --partial "the driver offers neither"
	refute_output --partial "sysfs has no gids directory"
	refute_output --partial "no such QP"
}

@test "counter show of a recording made without counters: a replay gap, exit 2" {
	run --separate-stderr "$RD" --replay "$FX/lab-rxe" counter show
	[ "$status" -eq 2 ]
	# stdout says nothing about the port's counters: the recording has none
	[ "$output" = "rxe0/1: netdev rxenet0" ]
	output=$stderr gap_message
	run --separate-stderr "$RD" --replay "$FX/lab-rxe" -j counter show
	[ "$status" -eq 2 ]
	jq -e '(.ports[0] | has("error") | not) and (.errors | length == 1)' <<<"$output"
}

@test "gid show of a recording without sysfs: a replay gap, exit 2, and -j says so in errors" {
	run --separate-stderr "$RD" --replay "$FX/lab-rxe" -j gid show
	[ "$status" -eq 2 ]
	output=$stderr gap_message
	jq -e '.errors | length == 1 and (.[0] | test("was not what was recorded"))' <<<"$output"
}

@test "counter bind of a QP whose bind the recording never made: a replay gap, not 'no such QP'" {
	run --separate-stderr "$RD" --replay "$FX/counter-qp-mlx5" counter bind mlx5_0/1 lqpn 178
	[ "$status" -eq 2 ]
	output=$stderr gap_message
}

@test "qp watch of a recording without its QP dump: a replay gap, exit 2, not 'retry'" {
	run --separate-stderr "$RD" --replay "$FX/counter-rxe" qp watch --count 2
	[ "$status" -eq 2 ]
	output=$stderr gap_message
	refute_output --partial "retry"
}

@test "what a recording holds is read as before: counter show and gid show of complete recordings exit 0" {
	run "$RD" --replay "$FX/counter-rxe" counter show
	assert_success
	run "$RD" --replay "$FX/dgx-h100" gid show
	assert_success
}
