#!/usr/bin/env bats
# The DEV[/PORT] selection and the filters of the resource objects (qp, cq,
# mr, pd, cm, srq) on a replayed device (tests/tools/gen_res_fixture): rxe0,
# one port, 100 QPs, 2 MRs (no port in the kernel's reply, as on any kernel),
# 3 CM ids (a listener without a port, two with port 1).

load helpers
bats_require_minimum_version 1.5.0

GEN=$BATS_TEST_DIRNAME/../tools/gen_res_fixture

setup_file() {
	export FX=$BATS_FILE_TMPDIR/res100
	"$GEN" "$FX" 100 >/dev/null
}

rq() {
	"$RDMADIAG" --replay "$FX" "$@"
}

@test "a port the device does not have: every resource object says so and exits 3, as link show does" {
	for obj in qp cm mr pd cq srq; do
		run --separate-stderr rq "$obj" show rxe0/2
		assert_failure 3
		assert_equal "$output" ''
		assert_equal "${stderr_lines[0]}" 'rdmadiag: device rxe0 has no port 2'
		assert_equal "${stderr_lines[1]}" '  next:  list its ports with: rdmadiag link show DEV'
	done
	run --separate-stderr rq qp watch rxe0/2 --count 1
	assert_failure 3
	assert_equal "$output" ''
	assert_equal "${stderr_lines[0]}" 'rdmadiag: device rxe0 has no port 2'
	# with filters too, and in JSON as one document naming the error
	run --separate-stderr rq -j qp show rxe0/2 lqpn 17
	assert_failure 3
	[ "$(jq -c '[.qps, .errors]' <<<"$output")" = '[[],["device rxe0 has no port 2; next: list its ports with: rdmadiag link show DEV"]]' ]
}

@test "a port the device has still selects, and qp watch follows it" {
	run rq qp show rxe0/1 lqpn 17
	assert_success
	assert_output --regexp '^rxe0/1: lqpn 17 type RC state RTS '
	run rq qp watch rxe0/1 lqpn 17 --count 1
	assert_success
	assert_output --regexp '^present: time [0-9.]+ link rxe0/1 lqpn 17 '
}
