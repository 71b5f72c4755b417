#!/usr/bin/env bats
# tests/lab/run-tests.sh, the lab's entry point, driven by a fake lab.sh: a
# run that failed while a VM's kernel crashed is set aside and run once more;
# a failure without a kernel fault is not. The real lab.sh boots VMs, which a
# host test cannot; the fake plays its TAP, its stderr ("lab: ... logs: DIR")
# and the VM logs that kernel_trouble() reads.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	T=$BATS_TEST_TMPDIR/repo
	mkdir -p "$T/tests/lab/two-host" "$T/logs"
	cp "$BATS_TEST_DIRNAME/../lab/run-tests.sh" "$T/tests/lab/"
	touch "$T/tests/lab/two-host/10-fake.bats"
	# FAKE_RUNS: one word per attempt, "pass", "fail" (a test fails) or
	# "oops" (a test fails and VM a's console has a kernel BUG line)
	cat >"$T/tests/lab/lab.sh" <<'EOF'
#!/bin/bash
[ "$1" = prepare ] && exit 0
n=$(($(cat "$FAKE_DIR/attempts" 2>/dev/null || echo 0) + 1))
echo "$n" >"$FAKE_DIR/attempts"
read -ra runs <<<"$FAKE_RUNS"
what=${runs[n - 1]:-pass}
logs=$FAKE_DIR/logs/$n
mkdir -p "$logs/a" "$logs/b"
echo "[    1.0] booted" >"$logs/a/console.log"
[ "$what" != oops ] || echo "[   87.4] BUG: kernel NULL pointer dereference, address: 0000000000000774" >>"$logs/a/console.log"
echo "1..2"
echo "ok 1 first test"
if [ "$what" = pass ]; then
	echo "ok 2 second test"
	exit 0
fi
echo "not ok 2 second test"
echo "lab: VM a booted in 9.4s, VM b booted in 7.4s; logs: $logs" >&2
exit 1
EOF
	chmod +x "$T/tests/lab/lab.sh"
	export FAKE_DIR=$T LAB_SUITES=two-host LAB_KERNEL612=0
	unset LAB_FILTER
}

run_lab_tests() {
	run --separate-stderr bash "$T/tests/lab/run-tests.sh"
	echo "$output"
	echo "stderr: $stderr"
}

@test "lab runner: a run that failed under a kernel BUG runs once more, and the second run counts" {
	FAKE_RUNS="oops pass" run_lab_tests
	[ "$status" -eq 0 ]
	[ "$(cat "$T/attempts")" = 2 ]
	assert_line --partial "# lab-diag: [two-host] a VM's kernel failed during this run (VM a: [   87.4] BUG: kernel NULL pointer dereference"
	assert_line "# set aside: not ok [two-host] second test"
	assert_line "ok 1 [two-host] first test"
	assert_line "ok 2 [two-host] second test"
	assert_line "1..2"
	[[ "$stderr" == *"lab: 2 passed, 0 failed, 0 skipped"* ]]
}

@test "lab runner: a kernel fault that comes back fails the second run" {
	FAKE_RUNS="oops oops" run_lab_tests
	[ "$status" -eq 1 ]
	[ "$(cat "$T/attempts")" = 2 ]
	assert_line "not ok 2 [two-host] second test"
	assert_line "1..2"
	[[ "$stderr" == *"lab: 1 passed, 1 failed, 0 skipped"* ]]
}

@test "lab runner: a failure without a kernel fault is reported at once, not run again" {
	FAKE_RUNS="fail pass" run_lab_tests
	[ "$status" -eq 1 ]
	[ "$(cat "$T/attempts")" = 1 ]
	refute_line --partial "set aside"
	assert_line "not ok 2 [two-host] second test"
	assert_line --partial "# lab-diag: logs in $T/logs/1"
	[[ "$stderr" == *"lab: 1 passed, 1 failed, 0 skipped"* ]]
}

@test "lab runner: the shapes suite runs tests/lab/shapes once per shape of LAB_SHAPES, LAB_SHAPE set, results named [shape NAME]" {
	mkdir -p "$T/tests/lab/shapes"
	touch "$T/tests/lab/shapes/10-fake.bats"
	# the fake lab.sh notes the shape each attempt ran in
	sed -i '2i echo "${LAB_SHAPE:-unset} $*" >>"$FAKE_DIR/shapes"' "$T/tests/lab/lab.sh"
	LAB_SUITES=shapes LAB_SHAPES="smp2 netem" FAKE_RUNS="pass pass" run_lab_tests
	[ "$status" -eq 0 ]
	[ "$(grep -v ' prepare$' "$T/shapes" | cut -d' ' -f1,2)" = $'smp2 run2-agent\nnetem run2-agent' ]
	grep -q 'tests/lab/shapes/$' "$T/shapes"
	assert_line "ok 1 [shape smp2] first test"
	assert_line "ok 4 [shape netem] second test"
	assert_line "1..4"
}
