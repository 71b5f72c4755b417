#!/usr/bin/env bats
# Replaying fixtures recorded in the lab (tests/tools/record-lab-fixture.sh):
# every command prints exactly what it printed live on the lab's kernel.

load helpers
bats_require_minimum_version 1.5.0

# Runs expected/N.cmd against fixture $1 and compares with expected/N.out.
replay_matches() {
	local fx=$1 n=$2 args out
	args=$(cat "$fx/expected/$n.cmd")
	# shellcheck disable=SC2086
	out=$("$RDMADIAG" --replay "$fx" $args 2>&1) || out="$out
exit $?"
	diff -u "$fx/expected/$n.out" <(printf '%s\n' "$out")
}

@test "lab-rxe: every recorded command replays byte for byte" {
	fx=$FIXTURES/lab-rxe
	count=0
	for cmd in "$fx"/expected/*.cmd; do
		n=$(basename "$cmd" .cmd)
		echo "# $(cat "$cmd")"
		replay_matches "$fx" "$n"
		count=$((count + 1))
	done
	[ "$count" -ge 8 ]
}

@test "lab-rxe: replayed link show -j has the lab's port" {
	run rd --replay "$FIXTURES/lab-rxe" -j link show
	assert_success
	[ "$(jq -r '.links[0].ifname' <<<"$output")" = rxe0/1 ]
	[ "$(jq -r '.links[0].netdev' <<<"$output")" = rxenet0 ]
}

@test "RDMADIAG_REPLAY works like --replay" {
	a=$(rd --replay "$FIXTURES/lab-rxe" dev show)
	b=$(RDMADIAG_REPLAY=$FIXTURES/lab-rxe rd dev show)
	[ -n "$a" ] && [ "$a" = "$b" ]
}

@test "--replay of a missing directory exits 3 saying what to do" {
	run rd --replay /nonexistent dev show
	assert_failure 3
	assert_output --partial "cannot replay '/nonexistent'"
	assert_output --partial "rdmadiag --record DIR"
}

@test "a truncated netlink recording is refused with a clear error, not a crash" {
	fx=$BATS_TEST_TMPDIR/fx
	cp -r "$FIXTURES/lab-rxe" "$fx"
	f=$(ls "$fx"/netlink/cmd1-dump.bin)
	head -c 30 "$f" >"$f.tmp" && mv "$f.tmp" "$f"
	run rd --replay "$fx" dev show
	assert_failure 4
	assert_output --partial 'truncated or corrupt'
}

@test "garbage netlink bytes in a recording give an error, not a crash" {
	fx=$BATS_TEST_TMPDIR/fx
	cp -r "$FIXTURES/lab-rxe" "$fx"
	f=$(ls "$fx"/netlink/cmd1-dump.bin)
	# one 64-byte chunk whose netlink header claims 0xffff bytes
	{ printf '\x40\x00\x00\x00'; printf '\xff%.0s' $(seq 64); } >"$f"
	run --separate-stderr rd --replay "$fx" -j dev show
	assert_failure 4
	jq -e '.devices == [] and (.errors[0] | test("malformed netlink reply"))' <<<"$output"
}

@test "a recording without the requested reply says so" {
	fx=$BATS_TEST_TMPDIR/fx
	cp -r "$FIXTURES/lab-rxe" "$fx"
	rm "$fx"/netlink/cmd1-dump.bin
	run rd --replay "$fx" dev show
	assert_failure 2	# a command line to change (rdmadiag(8)), not a runtime error
	assert_output --partial 'the recording has no reply for this request (netlink/cmd1-dump.bin)'
	assert_output --partial 'cause: this command, in this form or with these options, was not what was recorded'
	assert_output --partial "next:  replay the command the recording was made with, or record this one with 'rdmadiag --record DIR ...'"
}

@test "--replay of a file or of a directory that is no recording says which, before any read" {
	run -3 --separate-stderr rd --replay /etc/passwd dev show
	[[ $stderr == "rdmadiag: cannot replay '/etc/passwd': not a directory"* ]]
	mkdir "$BATS_TEST_TMPDIR/empty"
	run -3 --separate-stderr rd --replay "$BATS_TEST_TMPDIR/empty" dev show
	[[ $stderr == *"cannot replay '$BATS_TEST_TMPDIR/empty': not a recording (it has neither netlink/ nor fs/)"* ]]
	[[ $stderr == *"next:  check the path, or record one with: rdmadiag --record DIR COMMAND"* ]]
	assert_equal "$output" ""
}

@test "--record while RDMADIAG_REPLAY is set is a usage error, and records nothing" {
	RDMADIAG_REPLAY=$FIXTURES/lab-rxe run -2 rd --record "$BATS_TEST_TMPDIR/rec" dev show
	assert_output --partial "--record cannot be used while RDMADIAG_REPLAY is set"
	[ ! -e "$BATS_TEST_TMPDIR/rec" ]
}

@test "--record and --replay together are a usage error" {
	run rd --record /tmp/x --replay /tmp/y dev show
	assert_failure 2
}
