#!/usr/bin/env bats
# tests/tools/same-output.sh, the proof a refactor keeps every output byte for
# byte (issue #22): it passes two identical builds, and names the form where a
# build prints one byte more or exits otherwise. Run on a few forms here; the
# whole corpus (every form on every fixture) is run by hand before a merge.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
bats_require_minimum_version 1.5.0

RD=${RDMADIAG_BIN:-$BATS_TEST_DIRNAME/../../rdmadiag/rdmadiag}
TOOL=$BATS_TEST_DIRNAME/../tools/same-output.sh
FX=$BATS_TEST_DIRNAME/../fixtures

setup() {
	export SOURCES=$BATS_TEST_TMPDIR/sources FORMS=$BATS_TEST_TMPDIR/forms
	printf -- '--replay %s\n' "$FX/counter-rxe" "$FX/no-device" >"$SOURCES"
	printf '%s\n' "link show" "-j qp show" "counter watch --count 2 --interval 0.01" >"$FORMS"
	# a build that differs in one form: -j qp show gets a trailing space
	cat >"$BATS_TEST_TMPDIR/changed" <<-SH
		#!/bin/bash
		"$(realpath "$RD")" "\$@"
		rc=\$?
		[ "\$*" != "--replay $FX/counter-rxe -j qp show" ] || printf ' '
		exit \$rc
	SH
	chmod +x "$BATS_TEST_TMPDIR/changed"
}

@test "two identical builds: every form compared, none differs, the watches (clock-bound) left out" {
	run "$TOOL" "$RD" "$RD"
	assert_success
	assert_output "same-output: 2 sources x 3 forms: 4 compared, 0 differ, 2 not compared (time-dependent)"
}

@test "a build that prints one byte more in one form: that form named, with its diff, exit 1" {
	run "$TOOL" "$RD" "$BATS_TEST_TMPDIR/changed"
	assert_failure 1
	assert_line "DIFFERS (out): rdmadiag --replay $FX/counter-rxe  -j qp show"
	assert_line --partial "2 sources x 3 forms: 4 compared, 1 differ"
}
