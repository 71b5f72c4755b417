#!/usr/bin/env bats
# The DEV[/PORT] selection and the filters of the resource objects (qp, cq,
# mr, pd, cm, srq) on a replayed device (tests/tools/gen_res_fixture): rxe0,
# one port, 100 QPs, 2 MRs (no port in the kernel's reply, as on any kernel),
# 3 CM ids (a listener without a port, two with port 1).

load helpers
bats_require_minimum_version 1.5.0

GEN=$BATS_TEST_DIRNAME/../tools/gen_res_fixture

setup_file() {
	export FX=$BATS_FILE_TMPDIR/res100 FX2=$BATS_FILE_TMPDIR/res100-2ports
	"$GEN" "$FX" 100 >/dev/null
	# the same objects on a device with two ports (all of them on port 1)
	cp -r "$FX" "$FX2"
	python3 - "$FX2/netlink/cmd1-dump.bin" <<-'EOF'
		import sys
		b = bytearray(open(sys.argv[1], 'rb').read())
		i = b.index(bytes([8, 0, 3, 0, 1, 0, 0, 0]))	# PORT_INDEX (the port count) = 1
		b[i + 4] = 2
		open(sys.argv[1], 'wb').write(b)
	EOF
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
	assert_output --regexp '^rxe0/1: lqpn 17 qp_type RC state RTS '
	run rq qp watch rxe0/1 lqpn 17 --count 1
	assert_success
	assert_output --regexp '^present: elapsed_s [0-9.]+ link rxe0/1 lqpn 17 '
}

@test "objects the kernel gives no port belong to the device: DEV/PORT lists them, another port rules the others out" {
	# MRs have no port: rxe0/1 lists the MRs of rxe0
	run rq -j mr show rxe0
	assert_success
	all=$output
	[ "$(jq '.mrs | length' <<<"$all")" -eq 2 ]
	run rq -j mr show rxe0/1
	assert_success
	assert_equal "$output" "$all"
	run rq mr show rxe0/1
	assert_line --index 0 --regexp '^rxe0: mrn 4 '
	# the CM listener has no port: listed with the port's CM ids
	run rq -j cm show rxe0/1
	[ "$(jq -c '[.cm_ids[] | [.cm_idn, .port]]' <<<"$output")" = '[[0,null],[1,1],[2,1]]' ]
	# on port 2 of the two-port device: the MRs and the listener, no QP
	run "$RDMADIAG" --replay "$FX2" -j mr show rxe0/2
	assert_success
	assert_equal "$output" "$all"
	run "$RDMADIAG" --replay "$FX2" -j cm show rxe0/2
	assert_success
	[ "$(jq -c '[.cm_ids[] | [.cm_idn, .state]]' <<<"$output")" = '[[0,"listen"]]' ]
	run "$RDMADIAG" --replay "$FX2" qp show rxe0/2
	assert_success
	assert_output ''
	run "$RDMADIAG" --replay "$FX2" qp show rxe0/3
	assert_failure 3
	assert_output --partial 'device rxe0 has no port 3'
}

@test "a filter key given twice is a usage error that says to give one list" {
	run --separate-stderr rq qp show lqpn 17 lqpn 18
	assert_failure 2
	assert_equal "$output" ''
	assert_equal "$stderr" "rdmadiag: filter 'lqpn' given twice: give its values as one list, as in 'lqpn 17,18'"
	run --separate-stderr rq qp show comm a comm b
	assert_failure 2
	assert_equal "$stderr" "rdmadiag: filter 'comm' given twice: give its values as one list, as in 'comm a,b'"
	# apart, with other filters between, and for the other objects and qp watch
	run --separate-stderr rq qp show rxe0/1 state rts pid 2000 state init
	assert_failure 2
	assert_equal "$stderr" "rdmadiag: filter 'state' given twice: give its values as one list, as in 'state rts,init'"
	run --separate-stderr rq cm show lqpn 17 lqpn 18
	assert_failure 2
	run --separate-stderr rq mr show mrn 4 mrn 5
	assert_failure 2
	run --separate-stderr rq qp watch --count 1 lqpn 17 lqpn 18
	assert_failure 2
	assert_equal "$output" ''
	# the list selects both
	run rq qp show lqpn 17,18
	assert_success
	[ "${#lines[@]}" -eq 2 ]
}

@test "an empty item in a list is a usage error wherever it is" {
	for v in 1,,2 17, ,17 , ''; do
		run --separate-stderr rq qp show lqpn "$v"
		assert_failure 2
		assert_equal "$output" ''
		[ "${#stderr_lines[@]}" -eq 1 ]
	done
	run --separate-stderr rq qp show lqpn 1,,2
	assert_equal "$stderr" "rdmadiag: lqpn: empty item in '1,,2' (items are separated by single commas)"
	run --separate-stderr rq qp show comm qpapp0,,qpapp1
	assert_failure 2
	assert_equal "$stderr" "rdmadiag: comm: empty item in 'qpapp0,,qpapp1' (items are separated by single commas)"
	run --separate-stderr rq qp show lqpn ''
	assert_equal "$stderr" 'rdmadiag: lqpn: empty value'
}
