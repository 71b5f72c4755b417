#!/bin/bash
# Runs every libFuzzer target for FUZZ_TIME seconds (default 60) from seeds
# made of real data (fuzz/seeds.sh) plus the corpus earlier runs grew, then
# replays the saved crashes (tests/fixtures/fuzz-regress/TARGET/*) that once
# broke a target. Prints TAP: per target one fuzzing line (with the execs
# libFuzzer reports) and one regression line.
#   FUZZ_TIME=10 fuzz/run.sh            (make check runs this; make fuzz 60 s)
#   FUZZ_TARGETS="nl_reply" fuzz/run.sh
# A crash fails the line; its input is in build/fuzz/crashes/TARGET/: fix the
# code, then keep the input as tests/fixtures/fuzz-regress/TARGET/NAME.
set -u
cd "$(dirname "$0")/.."
time=${FUZZ_TIME:-60}
targets=${FUZZ_TARGETS:-nl_reply pathproto cmdline sysfs}
dir=build/fuzz

if ! make -s fuzz-build >"$dir.build.log" 2>&1; then
	echo "1..1"
	echo "not ok 1 - fuzz: building the targets failed (see $dir.build.log)"
	sed 's/^/# /' "$dir.build.log" | tail -20
	exit 1
fi
fuzz/seeds.sh "$dir/seeds" | sed 's/^/# /'

set -- $targets
echo "1..$(($# * 2))"
n=0
rc=0
for t in $targets; do
	bin=$dir/${t}_fuzz corpus=$dir/corpus/$t crashes=$dir/crashes/$t log=$dir/$t.log
	mkdir -p "$corpus" "$crashes"
	# stdout/stderr of the code under test closed (-close_fd_mask=3); libFuzzer
	# and sanitizer reports still reach the log
	"$bin" -max_total_time="$time" -timeout=10 -rss_limit_mb=2048 -close_fd_mask=3 -print_final_stats=1 \
		-artifact_prefix="$crashes/" "$corpus" "$dir/seeds/$t" >"$log" 2>&1
	r=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
	n=$((n + 1))
	if [ "$r" -eq 0 ]; then
		echo "ok $n - fuzz $t: ${execs:-?} execs in ${secs:-$time} s, no crash, corpus $(ls "$corpus" | wc -l)"
	else
		echo "not ok $n - fuzz $t: exit $r after ${execs:-?} execs; input in $crashes/ (log $log)"
		grep -E '^==[0-9]+==ERROR|SUMMARY:|^    #[0-4] ' "$log" | head -8 | sed 's/^/# /'
		rc=1
	fi
	regress=tests/fixtures/fuzz-regress/$t
	n=$((n + 1))
	if [ -z "$(ls "$regress" 2>/dev/null)" ]; then
		echo "ok $n - fuzz $t regressions: none saved"
	elif "$bin" -close_fd_mask=3 "$regress"/* >"$log.regress" 2>&1; then
		echo "ok $n - fuzz $t regressions: $(ls "$regress" | wc -l) saved crash inputs replay cleanly"
	else
		echo "not ok $n - fuzz $t regressions: a saved crash input fails again (log $log.regress)"
		grep -E '^==[0-9]+==ERROR|SUMMARY:|^Running:' "$log.regress" | tail -4 | sed 's/^/# /'
		rc=1
	fi
done
exit $rc
