#!/usr/bin/env bats
# The exit-code table of rdmadiag(8), EXIT STATUS, as a matrix: every object
# and action (read from __tables, so a new command is covered without editing
# this file) in each situation a script meets gives the documented code, one
# block on stderr, and with -j valid JSON on stdout: one document, or one
# object per line for a watch; nothing when the command line is refused.

load helpers
bats_require_minimum_version 1.5.0

# Commands that never read the device list: the map is built in, report merge
# reads files, system snapshot refuses replays before reading anything.
NO_DEVICE_READ='counter map|report merge|system snapshot'
# The one message of each situation of the table, whatever the command
# (path test and path serve find devices through libibverbs, the others
# through netlink): the first line of the block on stderr.
NO_KERNEL_SAYS='rdmadiag: cannot open an RDMA netlink socket: this kernel has no RDMA support'
NO_DEVICE_SAYS='rdmadiag: no RDMA devices on this host'
# Refused under --replay/--snapshot: they send traffic or read the live host.
NOT_REPLAYED='path test|path serve|system snapshot'
# dev monitor waits for a device to be added: no device is no error for it.
WAITS_FOR_DEVICE='dev monitor'
# topo show lists the PCI bus: a GPU host without RDMA still gets its GPUs, exit 0.
LISTS_PCI='topo show'

setup_file() {
	"$RDMADIAG" __tables | jq -r '.objects[] | .name as $o | .actions[] | select(.hidden | not)
		| [$o, .name, .positional, .synopsis, ([.options[].name] | index("--count") != null)] | @tsv' \
		>"$BATS_FILE_TMPDIR/commands"
	[ -s "$BATS_FILE_TMPDIR/commands" ]
}

is_one_of() { # is_one_of "OBJ ACT" 'a b|c d'
	local IFS='|' w
	for w in $2; do [ "$1" = "$w" ] && return 0; done
	return 1
}

# The words a command needs to run at all: a watch stops after one round; an
# action whose synopsis starts with DEV/PORT gets dev_port and a value for
# each keyword its synopsis requires (counter bind rxe0/1 lqpn 1).
cmd_words() { # cmd_words OBJ ACT POSITIONAL SYNOPSIS HAS_COUNT DEV_PORT
	local words=() syn=$4
	if [[ $syn == DEV/PORT* ]]; then
		syn=${syn%%\[*}
		syn=${syn#DEV/PORT}
		read -ra rest <<<"$syn"
		words+=("$6")
		for w in "${rest[@]}"; do
			case $w in [A-Z]*) words+=(1) ;; *) words+=("$w") ;; esac
		done
	elif [ -n "$6" ] && [[ $3 == dev* ]]; then
		words+=("$6")
	fi
	[ "$5" = true ] && words+=(--count 1)
	case "$1 $2" in
	"report merge") words+=(/nonexistent/report.json) ;;
	"system snapshot") words+=(-o "$BATS_TEST_TMPDIR/s.tar") ;;
	"path test") words+=(peer 127.0.0.1 --timeout 1 --port 1) ;;
	"path serve") words+=(--once --port 1) ;;
	esac
	[ "${#words[@]}" -eq 0 ] || printf '%s\n' "${words[@]}"
}

# run_case WANT GLOBAL... -- OBJ ACT WORDS...: exit WANT, one block on stderr
# (a line "rdmadiag: ..." and its cause/next lines), and with -j valid JSON.
FAILS=()
run_case() {
	local want=$1 g=() out err rc
	shift
	while [ "$1" != -- ]; do g+=("$1"); shift; done
	shift
	out=$(timeout 30 "$RDMADIAG" "${g[@]}" "$@" 2>"$BATS_TEST_TMPDIR/err") && rc=0 || rc=$?
	LAST_OUT=$out	# for the caller's own checks
	LAST_CASE="${g[*]} $*"
	err=$(cat "$BATS_TEST_TMPDIR/err")
	local blocks
	blocks=$(grep -c '^rdmadiag: ' <<<"$err" || true)
	if [ "$rc" -ne "$want" ]; then
		FAILS+=("${g[*]} $*: exit $rc, want $want: ${err:0:200}")
	elif [ "$want" -ne 0 ] && [ "$blocks" -ne 1 ] && [ "$2" != check ]; then
		FAILS+=("${g[*]} $*: $blocks blocks on stderr, want 1: $err")
	elif [ "$blocks" -gt 1 ]; then
		FAILS+=("${g[*]} $*: $blocks blocks on stderr, want at most 1: $err")
	elif grep -q 'AddressSanitizer\|runtime error' <<<"$err"; then
		FAILS+=("${g[*]} $*: sanitizer: $err")
	fi
	[[ " ${g[*]} " == *" -j "* ]] || return 0
	if [ -n "$out" ] && ! jq -e . >/dev/null 2>&1 <<<"$out"; then
		FAILS+=("${g[*]} $*: stdout is no JSON: ${out:0:200}")
	elif [ "$want" -ne 2 ] && [ "$(jq -s length <<<"$out")" -lt 1 ] && ! is_one_of "$1 $2" "$WAITS_FOR_DEVICE"; then
		FAILS+=("${g[*]} $*: no JSON document on stdout")
	fi
}

# said WANT: the last run_case's block on stderr starts with the line WANT.
said() {
	local first
	first=$(grep -m1 '^rdmadiag: ' "$BATS_TEST_TMPDIR/err" || true)
	[ "$first" = "$1" ] || FAILS+=("${LAST_CASE}: says '$first', want '$1'")
}

report() {
	printf '%s\n' "${FAILS[@]}"
	[ "${#FAILS[@]}" -eq 0 ]
}

each_command() { # each_command FN: FN OBJ ACT POSITIONAL SYNOPSIS HAS_COUNT for every command
	while IFS=$'\t' read -r o a pos syn cnt; do
		"$1" "$o" "$a" "$pos" "$syn" "$cnt"
	done <"$BATS_FILE_TMPDIR/commands"
}

@test "the matrix covers every command of the table" {
	n=$(wc -l <"$BATS_FILE_TMPDIR/commands")
	echo "commands: $n"
	[ "$n" -ge 20 ]
}

no_rdma_kernel() {
	local want=3 w
	is_one_of "$1 $2" "$NO_DEVICE_READ" && return 0
	is_one_of "$1 $2" "$LISTS_PCI" && want=0
	mapfile -t w < <(cmd_words "$@" rxe0/1)
	[[ $4 == DEV/PORT* ]] || mapfile -t w < <(cmd_words "$@" "")
	run_case $want -- "$1" "$2" "${w[@]}"
	[ $want -ne 3 ] || said "$NO_KERNEL_SAYS"
	run_case $want -j -- "$1" "$2" "${w[@]}"
	[ $want -ne 3 ] || said "$NO_KERNEL_SAYS"
}

@test "no RDMA in the kernel: exit 3 for every command that reads devices, checks included" {
	host_has_rdma && skip "this host has RDMA"
	each_command no_rdma_kernel
	report
}

no_device() {
	local want=3 w
	is_one_of "$1 $2" "$NO_DEVICE_READ" && return 0
	[ "$2" = check ] && want=1
	is_one_of "$1 $2" "$WAITS_FOR_DEVICE" && want=0
	is_one_of "$1 $2" "$LISTS_PCI" && want=0
	is_one_of "$1 $2" "$NOT_REPLAYED" && want=2
	mapfile -t w < <(cmd_words "$@" rxe0/1)
	[[ $4 == DEV/PORT* ]] || mapfile -t w < <(cmd_words "$@" "")
	# an ARG_FIRST command names a device the host lacks: the unknown-device code, 3
	# (one that names a device is told it has no such device: unknown_device)
	local says=$NO_DEVICE_SAYS
	[[ $4 == DEV/PORT* ]] && says=
	run_case $want --replay "$FIXTURES/no-device" -- "$1" "$2" "${w[@]}"
	[ $want -ne 3 ] || [ -z "$says" ] || said "$says"
	run_case $want -j --replay "$FIXTURES/no-device" -- "$1" "$2" "${w[@]}"
	[ $want -ne 3 ] || [ -z "$says" ] || said "$says"
}

@test "netlink answers but no device: exit 3, checks 1 (a failed kernel.rdma), dev monitor waits" {
	each_command no_device
	report
}

@test "no device: every check's document has kernel.rdma failed, its checks and summary" {
	for c in "link check" "counter check" "system check"; do
		# shellcheck disable=SC2086
		run --separate-stderr rd -j --replay "$FIXTURES/no-device" $c
		assert_failure 1
		jq -e '[.. | objects | select(.id? == "kernel.rdma" and .verdict == "fail")] | length >= 1' <<<"$output"
		jq -e '[.. | objects | select(has("summary")) | .summary.fail] | max >= 1' <<<"$output"
	done
}

unknown_device() {
	local w
	[[ $3 == dev* ]] || return 0
	is_one_of "$1 $2" "$WAITS_FOR_DEVICE" && return 0
	mapfile -t w < <(cmd_words "$@" nosuch)
	[[ $4 == DEV/PORT* ]] && mapfile -t w < <(cmd_words "$@" nosuch/1)
	run_case 3 --replay "$FIXTURES/lab-rxe" -- "$1" "$2" "${w[@]}"
	run_case 3 -j --replay "$FIXTURES/lab-rxe" -- "$1" "$2" "${w[@]}"
}

@test "unknown device: exit 3 for every command taking DEV (dev monitor DEV waits for it)" {
	each_command unknown_device
	report
}

unknown_port() {
	local w
	[ "$3" = dev_port ] || return 0
	mapfile -t w < <(cmd_words "$@" rxe0/9)
	run_case 3 --replay "$FIXTURES/lab-rxe" -- "$1" "$2" "${w[@]}"
	run_case 3 -j --replay "$FIXTURES/lab-rxe" -- "$1" "$2" "${w[@]}"
}

@test "unknown port: exit 3 for every command taking DEV/PORT" {
	each_command unknown_port
	report
}

bad_value() {
	local opt
	# the first option whose value the tables check: a number or a fixed choice
	opt=$("$RDMADIAG" __tables | jq -r --arg o "$1" --arg a "$2" '.objects[] | select(.name == $o) | .actions[]
		| select(.name == $a) | [.options[] | select(.kind == "uint" or .kind == "decimal"
		or .kind == "choice" or (.kind == "list" and (.choices | length) > 0))][0].name // empty')
	[ -n "$opt" ] || return 0
	run_case 2 -- "$1" "$2" "$opt" abc
	run_case 2 -j -- "$1" "$2" "$opt" abc
	[ -z "$LAST_OUT" ] || FAILS+=("-j $1 $2 $opt abc: a refused command line printed on stdout: $LAST_OUT")
}

@test "a bad option value: exit 2, one line, nothing on stdout with -j" {
	each_command bad_value
	report
}

@test "nothing to list is no error: exit 0, nothing on stderr, one document" {
	fx=$BATS_TEST_TMPDIR/res
	"$BATS_TEST_DIRNAME/../tools/gen_res_fixture" "$fx" 3 >/dev/null
	for c in "qp show pid 999999" "qp show state sqd" "qp show comm nosuch" "cm show state listen pid 999999"; do
		# shellcheck disable=SC2086
		run --separate-stderr rd -j --replay "$fx" $c
		[ "$status" -eq 0 ] || { echo "$c: $status $stderr"; false; }
		[ -z "$stderr" ]
		[ "$(jq -s length <<<"$output")" -eq 1 ]
	done
}

help_and_unknown_under_snapshot() {
	local snap=$FIXTURES/snapshot-lab/snapshot.tar
	[ "$(TMPDIR=$T "$RDMADIAG" --snapshot "$snap" "$1" "$2" help)" = "$("$RDMADIAG" "$1" "$2" help)" ] ||
		FAILS+=("--snapshot $1 $2 help: not the help of $1 $2")
	run_case 0 --snapshot "$snap" -- "$1" "$2" help
	run_case 2 --snapshot "$snap" -- "$1" "$2" --no-such-option
	run_case 2 -j --snapshot "$snap" -- "$1" "$2" --no-such-option
	[ -z "$LAST_OUT" ] || FAILS+=("-j --snapshot $1 $2 --no-such-option: printed on stdout: $LAST_OUT")
	run_case 2 --snapshot "$snap" -- "$1" no-such-action
}

@test "help and unknown words under --snapshot: exit 0 and 2 as without it, no unpacked snapshot left" {
	[ -f "$FIXTURES/snapshot-lab/snapshot.tar" ] || skip "no lab snapshot"
	export T=$BATS_TEST_TMPDIR/tmp
	mkdir -p "$T"
	TMPDIR=$T each_command help_and_unknown_under_snapshot
	report
	[ -z "$(ls -A "$T")" ]
}

# --replay DIR (and RDMADIAG_REPLAY) names a recording that help and a wrong
# command line never read: here none is there, and a file is no directory.
help_and_unknown_under_replay() {
	local bad
	for bad in "$BATS_TEST_TMPDIR/no-such-recording" "$BATS_TEST_TMPDIR/a-file"; do
		[ "$("$RDMADIAG" --replay "$bad" "$1" "$2" help)" = "$("$RDMADIAG" "$1" "$2" help)" ] ||
			FAILS+=("--replay $bad $1 $2 help: not the help of $1 $2")
		run_case 0 --replay "$bad" -- "$1" "$2" help
		run_case 0 --replay "$bad" -- help "$1" "$2"
		run_case 2 --replay "$bad" -- "$1" "$2" --no-such-option
		run_case 2 -j --replay "$bad" -- "$1" "$2" --no-such-option
		[ -z "$LAST_OUT" ] || FAILS+=("-j --replay $bad $1 $2 --no-such-option: printed on stdout: $LAST_OUT")
		run_case 2 --replay "$bad" -- "$1" no-such-action
		RDMADIAG_REPLAY=$bad run_case 0 -- "$1" "$2" help
		RDMADIAG_REPLAY=$bad run_case 2 -- "$1" "$2" --no-such-option
	done
}

@test "help and unknown words under --replay DIR: exit 0 and 2 as without it, DIR never read" {
	touch "$BATS_TEST_TMPDIR/a-file"
	each_command help_and_unknown_under_replay
	for g in "--replay $BATS_TEST_TMPDIR/no-such-recording" "--replay $BATS_TEST_TMPDIR/a-file"; do
		# shellcheck disable=SC2086 # the global options, split on purpose
		run_case 0 $g -- help
		# shellcheck disable=SC2086
		run_case 0 $g -- help link
		# shellcheck disable=SC2086
		run_case 2 $g -- no-such-object
		# shellcheck disable=SC2086
		run_case 2 $g -- help no-such-object
	done
	report
}

@test "help and unknown words under --record DIR: DIR is not made" {
	local rec=$BATS_TEST_TMPDIR/rec
	run_case 0 --record "$rec" -- link show help
	run_case 2 --record "$rec" -- link no-such-action
	run_case 2 --record "$rec" -- no-such-object
	report
	[ ! -e "$rec" ]
}

interval_zero() {
	"$RDMADIAG" __tables | jq -e --arg o "$1" --arg a "$2" '.objects[] | select(.name == $o) | .actions[]
		| select(.name == $a) | .options[] | select(.name == "--interval")' >/dev/null || return 0
	run_case 2 -- "$1" "$2" --interval 0
	local err
	err=$(cat "$BATS_TEST_TMPDIR/err")
	[[ $err == "rdmadiag: --interval: '0' is not a number of seconds in 0.01.."* ]] ||
		FAILS+=("$1 $2 --interval 0: another wording: $err")
	run_case 2 -j -- "$1" "$2" --interval abc
	[ -z "$LAST_OUT" ] || FAILS+=("-j $1 $2 --interval abc: printed on stdout: $LAST_OUT")
}

@test "every --interval: at least 0.01 s, one wording, nothing on stdout with -j" {
	each_command interval_zero
	report
}
