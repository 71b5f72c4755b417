#!/bin/bash
# Runs every test of rdmadiag and ends with one line "N passed, N failed".
#   unit tests (tests/unit/*_test, TAP), host bats tests (tests/host/*.bats),
#   lab tests in qemu VMs with a real kernel RDMA stack (tests/lab/run-tests.sh).
# Environment: LAB=skip leaves the lab out; BATS_FILTER=REGEX narrows bats tests;
#   FUZZ=skip, VALGRIND=skip leave those out; FUZZ_TIME=S seconds per fuzz target (10).
set -u
cd "$(dirname "$0")/.." || exit 1

passed=0 failed=0 skipped=0
log_dir=build/test-logs
mkdir -p "$log_dir"

# The "not ok" lines of a TAP file, each with up to 40 of the "#" lines
# that follow it (bats' failed command and what the test echoed; the lab
# echoes each result as "# RUN: not ok ..." before its diagnostics), and the
# lab's "# lab-diag:" lines; the peer agent's log lines are left out.
failure_lines() {
	awk '/^not ok /         { print; left = 40; next }
	     /^# .*: not ok /   { print; left = 40; next }
	     /^# .*: ok /       { left = 0; next }
	     /^# lab-diag: /    { print; next }
	     /peer-agent/       { next }
	     /^#/ && left > 0   { print; left--; next }
	                        { left = 0 }' "$1"
}

# Counts TAP lines of one suite's output (file $2), echoing failures.
count_tap() {
	local name=$1 file=$2 rc=$3
	local p f s
	p=$(grep -cE '^ok ' "$file" | head -1)
	s=$(grep -cE '^ok .*# (skip|SKIP)' "$file" | head -1)
	f=$(grep -cE '^not ok ' "$file" | head -1)
	p=$((p - s))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		# a suite that died without saying which test failed still fails
		echo "not ok - $name exited $rc without a failing test line (see $file)"
		f=1
	fi
	# with the lab's diagnosis of a failed VM run (tests/lab/run-tests.sh)
	# and the first lines of each failure's own diagnostics: CI shows only
	# the end of this output, and a failure seen once must say why there
	failure_lines "$file" | sed "s/^/[$name] /"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	echo "# $name: $p passed, $f failed, $s skipped"
}

run_suite() {
	local name=$1
	shift
	local out="$log_dir/$name.tap"
	"$@" >"$out" 2>"$log_dir/$name.stderr"
	count_tap "$name" "$out" $?
}

for t in tests/unit/*_test; do
	[ -x "$t" ] || continue
	run_suite "unit-$(basename "$t")" "$t"
done

if [ -n "$(ls tests/host/*.bats 2>/dev/null)" ]; then
	run_suite host bats --tap ${BATS_FILTER:+--filter "$BATS_FILTER"} tests/host
fi

# A short bounded fuzzing pass of every target plus the saved crash inputs
# (fuzz/run.sh; `make fuzz` runs longer), and the valgrind pass of the plain
# build over the fixtures (tests/valgrind.sh).
if [ "${FUZZ:-}" != skip ]; then
	run_suite fuzz env FUZZ_TIME="${FUZZ_TIME:-10}" fuzz/run.sh
fi
if [ "${VALGRIND:-}" != skip ]; then
	run_suite valgrind tests/valgrind.sh
fi

if [ "${LAB:-}" != skip ]; then
	if [ -x tests/lab/run-tests.sh ]; then
		run_suite lab env LAB_FILTER="${BATS_FILTER:-}" tests/lab/run-tests.sh
	else
		echo "not ok - lab: tests/lab/run-tests.sh is missing"
		failed=$((failed + 1))
	fi
fi

echo "logs in $log_dir"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
