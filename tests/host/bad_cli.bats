#!/usr/bin/env bats
# Malformed command lines (tests/host/bad_cli.table, driver bad_cli.py): every
# one exits 2 with exactly one clear line on stderr, nothing on stdout (with -j:
# nothing or one valid JSON document), never a crash or a hang. The suite runs
# the SANITIZE=1 binary, so a sanitizer report would break the one-line rule.

load helpers
bats_require_minimum_version 1.5.0

TABLE=$BATS_TEST_DIRNAME/bad_cli.table

@test "the table has at least 100 malformed invocations" {
	n=$(grep -cv -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$TABLE")
	echo "cases: $n"
	[ "$n" -ge 100 ]
}

@test "every malformed invocation is one clear usage error, with and without -j" {
	run python3 "$BATS_TEST_DIRNAME/bad_cli.py" "$RDMADIAG" "$TABLE"
	echo "$output"
	assert_success
	assert_line --regexp '^cases: [0-9]+, runs: [0-9]+, failed runs: 0$'
}

@test "the driver catches a case that is not a usage error" {
	# a valid command and a wrong expectation: both must be reported
	printf '%s\n' 'dev help' 'lnk => no such text' >"$BATS_TEST_TMPDIR/t.table"
	run python3 "$BATS_TEST_DIRNAME/bad_cli.py" "$RDMADIAG" "$BATS_TEST_TMPDIR/t.table"
	assert_failure 1
	assert_line --partial 'exit 0, want 2'
	assert_line --partial "error line lacks 'no such text'"
	assert_line 'cases: 2, runs: 4, failed runs: 4'
}

@test "an unprintable or huge word is escaped and shortened in the error line" {
	run --separate-stderr rd "$(printf 'x\033[31m\377')"
	assert_failure 2
	assert_equal "$stderr" "rdmadiag: unknown object 'x\\x1b[31m\\xff' (candidates: $(rd __tables | jq -r '[.objects[].name] | join(" | ")'); try: rdmadiag help)"
	run --separate-stderr rd link show "$(head -c 100000 /dev/zero | tr '\0' a)"
	assert_failure 2
	[ "${#stderr}" -lt 1100 ]
	[[ "$stderr" == *"[..."*" bytes...]"* ]]
}

@test "a usage error found by a handler lands in the JSON errors" {
	run --separate-stderr rd -j link check --format prometheus
	assert_failure 2
	echo "$output" | jq -e '.errors == ["-j/--json and --format prometheus contradict each other; give one of them"]'
}
