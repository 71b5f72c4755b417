#!/usr/bin/env bats
# Hostile kernel replies (tests/fixtures/hostile-*, made by
# tests/fixtures/make-hostile.py): truncated attributes, wrong lengths,
# missing mandatory attributes, unknown attributes, huge and deep nests,
# dumps without NLMSG_DONE, lying message lengths, corrupt files, escape
# sequences in names, error replies, values outside every enum.
# Every command must end normally (no signal, no sanitizer report), say what
# failed or skip the damaged part, and keep -j output one valid JSON document.

load helpers
bats_require_minimum_version 1.5.0

HOSTILE=$FIXTURES/hostile
COMMANDS=("dev show" "link show" "qp show" "counter show" "link check" "gid show" "res show")

# Runs rdmadiag on fixture $1 with the remaining words; fails on a crash.
survive() {
	local fx=$1
	shift
	run --separate-stderr "$RDMADIAG" --replay "$HOSTILE-$fx" "$@"
	if [ "$status" -ge 128 ] || [ "$status" -gt 4 ]; then
		echo "rdmadiag $* on hostile-$fx: exit $status" >&2
		return 1
	fi
	if grep -qE 'Sanitizer|runtime error|Segmentation' <<<"$stderr"; then
		echo "rdmadiag $* on hostile-$fx: sanitizer report" >&2
		echo "$stderr" >&2
		return 1
	fi
	# a failure must say what failed (exit 4 runtime, 3 host): one rdmadiag: line at least
	if [ "$status" -ge 3 ] && ! grep -q '^rdmadiag: ' <<<"$stderr"; then
		echo "rdmadiag $* on hostile-$fx: exit $status without a message" >&2
		return 1
	fi
	# no terminal control bytes reach the user, whatever the kernel sent
	if LC_ALL=C grep -q $'\x1b' <<<"$output$stderr"; then
		echo "rdmadiag $* on hostile-$fx: an escape sequence reached the terminal" >&2
		return 1
	fi
}

# survive, and -j must print exactly one valid JSON document.
survive_json() {
	local fx=$1
	shift
	survive "$fx" -j "$@" || return 1
	if ! python3 -m json.tool <<<"$output" >/dev/null; then
		echo "rdmadiag -j $* on hostile-$fx: stdout is not valid JSON:" >&2
		echo "$output" | head -5 >&2
		return 1
	fi
}

every_command_survives() {
	local fx=$1 c
	for c in "${COMMANDS[@]}"; do
		# shellcheck disable=SC2086
		survive "$fx" $c || return 1
		# shellcheck disable=SC2086
		survive_json "$fx" $c || return 1
	done
}

@test "hostile fixtures: the generator reproduces the committed ones" {
	tmp=$BATS_TEST_TMPDIR/hostile
	mkdir -p "$tmp"
	run python3 "$FIXTURES/make-hostile.py" "$tmp"
	assert_success
	n=$(ls -d "$FIXTURES"/hostile-* | wc -l)
	[ "$n" -ge 10 ]
	for d in "$tmp"/hostile-*; do
		diff -r "$d" "$FIXTURES/$(basename "$d")"
	done
	[ "$(ls -d "$tmp"/hostile-* | wc -l)" -eq "$n" ]
}

@test "hostile truncated-attr: every command survives; the device with the cut attribute is still listed" {
	every_command_survives truncated-attr
	survive_json truncated-attr dev show
	[ "$(jq -r '[.devices[].dev] | join(",")' <<<"$output")" = rxe0,rxe1 ]
	# its cut firmware version is skipped, not read past the message
	[ "$(jq -r '.devices[0].fw // "none"' <<<"$output")" = none ]
	# rxe1 has no port reply in the fixture: a clear error, not a crash
	survive truncated-attr counter show
	[ "$status" -eq 2 ]	# a replay gap (rdmadiag(8))
	assert_equal "$(grep -c 'the recording has no reply' <<<"$stderr")" 1
}

@test "hostile wrong-lengths: attributes of the wrong size are dropped with one warning" {
	every_command_survives wrong-lengths
	survive_json wrong-lengths dev show
	assert_equal "$status" 0
	[ "$(jq '.devices | length' <<<"$output")" -eq 1 ]
	[ "$(jq -r '.devices[0].node_guid // "none"' <<<"$output")" = none ]
	[ "$(grep -c 'malformed attribute' <<<"$stderr")" -eq 1 ]
	survive_json wrong-lengths qp show
	[ "$(jq -c '[.qps[].lqpn]' <<<"$output")" = '[18]' ]
	survive_json wrong-lengths counter show
	grep -q rcvd_pkts <<<"$output"
}

@test "hostile missing-mandatory: a device without index or name, a port without state, a QP without number are skipped" {
	every_command_survives missing-mandatory
	survive_json missing-mandatory dev show
	[ "$(jq -r '[.devices[].dev] | join(",")' <<<"$output")" = rxe0 ]
	survive_json missing-mandatory qp show
	[ "$(jq -c '[.qps[].lqpn]' <<<"$output")" = '[19]' ]
	survive_json missing-mandatory counter show
	grep -q rcvd_pkts <<<"$output"
	! grep -q lonely <<<"$output"
}

@test "hostile unknown-attrs: unknown attributes and message types are ignored silently" {
	every_command_survives unknown-attrs
	survive_json unknown-attrs link show
	assert_equal "$status" 0
	assert_equal "$stderr" ""
	[ "$(jq -r '.links[0].ifname' <<<"$output")" = rxe0/1 ]
	survive_json unknown-attrs qp show
	[ "$(jq -c '[.qps[].lqpn]' <<<"$output")" = '[17]' ]
}

@test "hostile huge-nest: a 60 KiB nest of 700 QPs, a 60-deep nest and 2000 counters" {
	every_command_survives huge-nest
	survive_json huge-nest qp show
	[ "$(jq '.qps | length' <<<"$output")" -eq 700 ]
	survive_json huge-nest counter show
	[ "$(jq '.ports[0].other.counters | length' <<<"$output")" -ge 2000 ]
}

@test "hostile no-done: dumps that end without NLMSG_DONE still give their objects" {
	every_command_survives no-done
	survive_json no-done dev show
	[ "$(jq -r '.devices[0].dev' <<<"$output")" = rxe0 ]
	survive_json no-done qp show
	[ "$(jq -c '[.qps[].lqpn]' <<<"$output")" = '[17]' ]
}

@test "hostile bad-msglen: message lengths over 2 GiB or past the data are a clear error" {
	every_command_survives bad-msglen
	survive_json bad-msglen dev show
	assert_equal "$status" 4
	grep -q 'malformed netlink reply' <<<"$stderr"
	[ "$(jq '.errors | length' <<<"$output")" -ge 1 ]
}

@test "hostile corrupt-file: cut recorded files are named as corrupt" {
	every_command_survives corrupt-file
	survive corrupt-file dev show
	assert_equal "$status" 4
	grep -q 'truncated or corrupt' <<<"$stderr"
}

@test "hostile strings: escape sequences, non-UTF-8 bytes and unterminated strings" {
	every_command_survives strings
	survive_json strings dev show
	# the unterminated name is dropped (with a warning), the ugly one kept, escaped
	[ "$(jq '.devices | length' <<<"$output")" -eq 1 ]
	jq -r '.devices[0].dev' <<<"$output" | grep -q '^rxe'
	survive strings dev show
	grep -q 'rxe?\[31mred?' <<<"$output"
}

@test "hostile kernel-errors: error replies become errors with the kernel's text, sanitized" {
	every_command_survives kernel-errors
	survive_json kernel-errors link show
	assert_equal "$status" 4
	grep -q 'Operation not permitted: hostile ?\[2J ack text' <<<"$stderr"
	grep -q 'Operation not permitted' <<<"$(jq -r '.errors[]' <<<"$output")"
	survive_json kernel-errors qp show
	assert_equal "$status" 4
}

@test "hostile out-of-range: enum values no kernel has print as unknown" {
	every_command_survives out-of-range
	survive_json out-of-range qp show
	[ "$(jq -r '.qps[0].qp_type' <<<"$output")" = unknown ]
	[ "$(jq -r '.qps[0].state' <<<"$output")" = unknown ]
	survive_json out-of-range link show
	assert_equal "$status" 0
}
