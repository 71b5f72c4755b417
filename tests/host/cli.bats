#!/usr/bin/env bats
# The command line on a host without RDMA: help, prefixes, usage errors, exit codes.

load helpers
bats_require_minimum_version 1.5.0

@test "-V prints the version and exits 0" {
	run rd -V
	assert_success
	assert_output --regexp '^rdmadiag [0-9]+\.[0-9]+\.[0-9]+ \(output schema [0-9]+\)$'
}

@test "help lists every object and the exit codes" {
	run rd help
	assert_success
	assert_output --partial 'OBJECT := { dev | link'
	assert_output --partial '3 this host cannot run the command'
}

@test "help, -h and --help print the same" {
	a=$(rd help)
	b=$(rd -h)
	c=$(rd --help)
	[ "$a" = "$b" ] && [ "$a" = "$c" ]
}

@test "help OBJECT [ACTION] prints what OBJECT [ACTION] help prints; an unknown word exits 2 as without help" {
	run -0 rd help link
	assert_output "$(rd link help)"
	run -0 rd help l c
	assert_output "$(rd link check help)"
	run -0 rd help counter check
	assert_output "$(rd counter check --help)"
	assert_output --partial '--list'
	run -2 --separate-stderr rd help lnk
	assert_equal "$stderr" "$(rd lnk 2>&1)"
	run -2 --separate-stderr rd help link frob
	assert_equal "$stderr" "$(rd link frob 2>&1)"
	run -2 --separate-stderr rd help link check extra
	assert_equal "$stderr" "rdmadiag: help takes OBJECT [ACTION], got 'extra' after 'link check'"
}

@test "help lists every global option of the table once, with its help line" {
	run -0 rd help
	while IFS=$'\t' read -r name help; do
		[ "$(grep -F -- "$help" <<<"$output" | grep -cE "^  (-[a-zA-Z], )?$name( |\$)")" = 1 ] ||
			fail "no help line for $name: $help"
	done < <(rd __tables | jq -r '.global_options[] | select(.name | startswith("--")) | "\(.name)\t\(.help)"')
	assert_output --partial 'OPTIONS := { -j, --json | -p, --pretty | -d, --details | -V, --version |'
	refute_output --partial '--colour'
}

@test "-json and other single-dash long names: exit 2 naming what was typed and the option meant" {
	run -2 --separate-stderr rd -json dev show
	assert_equal "$stderr" "rdmadiag: unknown option '-json'; did you mean -j (--json)?"
	assert_equal "$output" ""
	run -2 --separate-stderr rd -details link show
	assert_equal "$stderr" "rdmadiag: unknown option '-details'; did you mean -d (--details)?"
	run -2 --separate-stderr rd -replay "$FIXTURES/lab-rxe" dev show
	assert_equal "$stderr" "rdmadiag: unknown option '-replay'; did you mean --replay?"
	# after OBJECT: the same hint, and where a global option goes
	run -2 --separate-stderr rd dev show -json
	assert_equal "$stderr" "rdmadiag: unknown option '-json' for 'dev show'; did you mean -j (--json)? It is a global option, it goes before OBJECT"
	# a group of short flags with an unknown letter names the letter, as before
	run -2 --separate-stderr rd -jq dev show
	assert_equal "$stderr" "rdmadiag: unknown option '-q' in '-jq' (global options: -j -p -d -V -h --color --record --replay --snapshot)"
}

@test "--snapshot FILE help: the help, exit 0, the file not even opened" {
	run -0 rd --snapshot "$BATS_TEST_TMPDIR/no-such.tar" help
	assert_output "$(rd help)"
	run -0 rd --snapshot "$BATS_TEST_TMPDIR/no-such.tar" help link check
	assert_output "$(rd link check help)"
	run -0 rd --snapshot="$BATS_TEST_TMPDIR/no-such.tar" -h
	assert_output "$(rd help)"
	run -2 rd --snapshot "$BATS_TEST_TMPDIR/no-such.tar" help lnk
	assert_output "$(rd help lnk 2>&1)"
}

@test "link help names the actions without opening netlink" {
	# LeakSanitizer cannot run under ptrace; the leak check is done by every other test
	ASAN_OPTIONS=detect_leaks=0 run strace -f -e trace=socket "$RDMADIAG" link help
	assert_success
	assert_output --partial 'rdmadiag link show [DEV[/PORT]]'
	refute_output --partial 'AF_NETLINK'
}

@test "help lists an action's keywords: filters of qp show, peer and loopback of path test" {
	run rd qp help
	assert_success
	assert_line '    Keywords: lqpn rqpn type state pdn pid comm'
	run rd path help
	assert_success
	assert_line '    Keywords: peer loopback'
}

@test "an unknown object exits 2 naming the candidates" {
	run rd lnk
	assert_failure 2
	assert_output --partial "unknown object 'lnk'"
	assert_output --partial 'candidates: dev | link'
}

@test "an unknown action exits 2 naming the candidates" {
	run rd link frob
	assert_failure 2
	assert_output --partial "unknown action 'frob' for object 'link'"
	assert_output --partial 'candidates: show'
}

@test "no object at all prints usage and exits 2" {
	run rd
	assert_failure 2
	assert_output --partial 'Usage: rdmadiag'
}

@test "an unknown global option exits 2" {
	run rd -x dev show
	assert_failure 2
	assert_output --partial "unknown option '-x'"
}

@test "--color takes auto, always or never only" {
	run rd --color=purple dev show
	assert_failure 2
	assert_output --partial "--color: unknown value 'purple'"
}

@test "a bad DEV/PORT exits 2 with the expected form" {
	run rd link show rxe0/abc
	assert_failure 2
	assert_output --partial 'port must be a number in 1..255'
	run rd link show rxe0/0
	assert_failure 2
}

@test "dev show on a host without RDMA exits 3 and says what to do" {
	host_has_rdma && skip "this host has RDMA"
	run rd dev show
	assert_failure 3
	assert_output --partial 'this kernel has no RDMA support'
	assert_output --partial 'modprobe ib_core'
}

@test "dev show -j on a host without RDMA still prints valid JSON with the error" {
	host_has_rdma && skip "this host has RDMA"
	run --separate-stderr rd -j dev show
	assert_failure 3
	echo "$output" | jq -e '.schema == 2 and (.errors[0] | test("no RDMA support"))'
}

@test "every netlink command on a host without RDMA: exit 3, the cause told once, -j errors the same" {
	host_has_rdma && skip "this host has RDMA"
	for cmd in "dev show" "dev monitor --count 1" "link show" "gid show" "qp show" "qp watch --count 1" \
		"cm show" "res show" "counter show" "counter watch --count 1"; do
		# shellcheck disable=SC2086
		run --separate-stderr rd $cmd
		[ "$status" -eq 3 ] || { echo "$cmd: exit $status"; false; }
		[ "$(grep -c 'cannot open an RDMA netlink socket' <<<"$stderr")" -eq 1 ] || { echo "$cmd: $stderr"; false; }
		# shellcheck disable=SC2086
		run --separate-stderr rd -j $cmd
		[ "$status" -eq 3 ] || { echo "-j $cmd: exit $status"; false; }
		jq -se 'map(.errors // []) | add | length == 1 and (.[0] | test("no RDMA support"))' <<<"$output" ||
			{ echo "-j $cmd: $output"; false; }
	done
}

@test "l s is link show (prefixes of object and action)" {
	host_has_rdma && skip "this host has RDMA"
	run rd l s
	assert_failure 3
	assert_output --partial 'no RDMA support'
}

@test "a hidden alias works when typed in full, and is no prefix candidate" {
	run rd --replay "$FIXTURES/lab-rxe" dev list
	assert_success
	assert_output --partial 'rxe0'
	run rd link l
	assert_failure 2
	assert_output --partial "unknown action 'l'"
}

@test "every option name the code spells in a string is in an option table (messages, built command lines, opt_id.h)" {
	rd __tables >"$BATS_TEST_TMPDIR/tables.json"
	run "$BATS_TEST_DIRNAME/../tools/option-names.py" "$BATS_TEST_TMPDIR/tables.json" \
		"$BATS_TEST_DIRNAME"/../../rdmadiag/*.[ch]
	assert_success
	assert_output ''
	# a misspelt option in a message, and a name in opt_id.h that no table declares
	sed 's/"--gid-index: /"--gid-idx: /' "$BATS_TEST_DIRNAME/../../rdmadiag/path.c" >"$BATS_TEST_TMPDIR/path.c"
	sed 's/"--count"/"--cuont"/' "$BATS_TEST_DIRNAME/../../rdmadiag/opt_id.h" >"$BATS_TEST_TMPDIR/opt_id.h"
	run "$BATS_TEST_DIRNAME/../tools/option-names.py" "$BATS_TEST_TMPDIR/tables.json" \
		"$BATS_TEST_TMPDIR/path.c" "$BATS_TEST_TMPDIR/opt_id.h"
	assert_failure 1
	assert_output --partial 'path.c:'
	assert_output --partial '"--gid-idx" is no option of any table'
	assert_output --partial '"--cuont" is no option of any table'
}
