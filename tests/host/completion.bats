#!/usr/bin/env bats
# Shell completion: `rdmadiag __complete` and the real bash and zsh functions in
# completions/ offer every object, action, option and option value of the
# command tables (read back with `rdmadiag __tables`), plus live device names.

load helpers
load complete_helpers
bats_require_minimum_version 1.5.0

tables() { rd __tables; }

# missing_from CANDIDATES WANTED...: prints the wanted words not among the candidates
missing_from() {
	local have=$1 w
	shift
	for w in "$@"; do
		grep -qxF -- "$w" <<<"$have" || echo "$w"
	done
}

# Walks the tables with one completion function (bash_complete or zsh_complete)
# and prints every object, action, option and value it does not offer.
walk_tables() {
	local fn=$1 t obj act opt
	t=$(tables)
	missing_from "$($fn 'rdmadiag ')" $(jq -r '.objects[].name' <<<"$t") | sed 's/^/object: /'
	missing_from "$($fn 'rdmadiag --')" $(jq -r '.global_options[].name | select(startswith("--"))' <<<"$t") |
		sed 's/^/global option: /'
	for obj in $(jq -r '.objects[].name' <<<"$t"); do
		missing_from "$($fn "rdmadiag $obj ")" \
			$(jq -r --arg o "$obj" '.objects[] | select(.name == $o) | .actions[] | select(.hidden | not) | .name' <<<"$t") |
			sed "s/^/action: $obj /"
		for act in $(jq -r --arg o "$obj" '.objects[] | select(.name == $o) | .actions[] | select(.hidden | not) | .name' <<<"$t"); do
			local a=".objects[] | select(.name == \"$obj\") | .actions[] | select(.name == \"$act\")"
			missing_from "$($fn "rdmadiag $obj $act -")" $(jq -r "$a | .options[].name" <<<"$t") |
				sed "s/^/option: $obj $act /"
			# keywords where the grammar takes them: after the words of "before"
			local before
			while IFS='|' read -r before words; do
				missing_from "$($fn "rdmadiag $obj $act ${before:+$before }")" $words |
					sed "s|^|keyword: $obj $act${before:+ $before} |"
			done < <(jq -r "[$a | .keywords[]] | group_by(.before)[] | [.[0].before, (map(.name) | join(\" \"))] | join(\"|\")" <<<"$t")
			for opt in $(jq -r "$a | .options[] | select(.choices | length > 0) | .name" <<<"$t"); do
				missing_from "$($fn "rdmadiag $obj $act $opt ")" \
					$(jq -r "$a | .options[] | select(.name == \"$opt\") | .choices[]" <<<"$t") |
					sed "s/^/value: $obj $act $opt /"
			done
		done
	done
}

@test "__tables is valid JSON naming every object of help" {
	run tables
	assert_success
	jq -e '.objects | length > 0' <<<"$output"
	for obj in $(jq -r '.objects[].name' <<<"$output"); do
		rd help | grep -qE "^  $obj " || fail "object $obj of __tables is not in 'rdmadiag help'"
	done
}

@test "bash completion offers every object, action, option and choice of the tables" {
	run walk_tables bash_complete
	assert_success
	assert_output ''
}

@test "zsh completion offers every object, action, option and choice of the tables" {
	run walk_tables zsh_complete
	assert_success
	assert_output ''
}

@test "bash: objects, actions, prefixes" {
	run bash_complete 'rdmadiag l'
	assert_output 'link'
	run bash_complete 'rdmadiag li s'
	assert_output 'show'
	run bash_complete 'rdmadiag -j dev '
	assert_line 'show'
	refute_line 'list'	# hidden alias
}

@test "global options: every short and long name of the table is offered, the parser takes each" {
	t=$(tables)
	[ "$(jq -r '.global_options[].name' <<<"$t" | sort)" = "$(rd __complete 1 rdmadiag - | sort)" ]
	jq -r '.global_options[].name' <<<"$t" | grep -qxF -- --snapshot
	jq -r '.global_options[].name' <<<"$t" | grep -qxF -- -h
	while read -r name takes; do
		if [ "$takes" = true ]; then
			# --replay reads its directory before dispatch; the others' values are not opened for help
			v=$BATS_TEST_TMPDIR/x
			[ "$name" != --replay ] || v=$FIXTURES/lab-rxe
			run rd "$name" "$v" help
		else
			run rd "$name" help
		fi
		[ "$status" -eq 0 ] || fail "rdmadiag $name ... help exits $status"
	done < <(jq -r '.global_options[] | "\(.name) \(.takes_value)"' <<<"$t")
	run bash_complete 'rdmadiag -'
	assert_line '-j'
	assert_line '--snapshot'
	refute_line '--colour'	# another spelling, parsed but not offered
	run bash_complete 'rdmadiag --colour never l'
	assert_output 'link'
	run bash_complete 'rdmadiag -j --snapshot x.tar -d l'
	assert_output 'link'
}

@test "bash: --color=WHEN splits at = the way readline does" {
	run bash_complete 'rdmadiag --color=n'
	assert_output 'never'
	run bash_complete 'rdmadiag --color='
	assert_output $'auto\nalways\nnever'
}

@test "--color takes its value as a separate word too, and completion follows" {
	run rd --color never -V
	assert_success
	run bash_complete 'rdmadiag --color '
	assert_line 'never'
	assert_line 'link'
	run bash_complete 'rdmadiag --color never l'
	assert_output 'link'
}

@test "bash: directories after --replay, files left to bash-completion" {
	cd "$REPO"
	run bash_complete 'rdmadiag --replay tests/fix'
	assert_output 'tests/fixtures'
}

@test "bash and zsh: the file after --snapshot, directories after --record and --replay" {
	cd "$BATS_TEST_TMPDIR"
	mkdir snapdir
	touch snap-a.tar
	run rd __complete 2 rdmadiag --snapshot ''
	assert_output ':file'
	run bash_complete 'rdmadiag --snapshot snap'
	[ "$(sort <<<"$output")" = $'snap-a.tar\nsnapdir' ]
	run zsh_complete 'rdmadiag --snapshot '
	assert_output ':file '
	run bash_complete 'rdmadiag --record snap'
	assert_output 'snapdir'
	run zsh_complete 'rdmadiag --replay '
	assert_output ':file -/'
	[ "$(tables | jq -r '.global_options[] | select(.takes_value) | "\(.name) \(.complete)"')" = \
		$'--record dir\n--replay dir\n--snapshot file' ]
}

# The words a command takes and those completion offers come from the same
# tables (the action's keywords, the filters' value lists): every value offered
# after a keyword must be one the command accepts. Run against the lab-rxe
# fixture, where the command gets past parsing (exit 2 is a usage error, but
# not when it says the recording has no reply: that is a replay gap, after
# the words were accepted).
@test "every keyword value completion offers, the command accepts (lab-rxe)" {
	export RDMADIAG_REPLAY=$FIXTURES/lab-rxe RDMADIAG_STATE_DIR=$BATS_TEST_TMPDIR/state
	local obj act before kw v n=0 rc bad=""
	while IFS='|' read -r obj act before kw; do
		# shellcheck disable=SC2206 # words on purpose; DEV/PORT stands for a port of the fixture
		local pre=($obj $act ${before//DEV\/PORT/rxe0/1})
		while read -r v; do
			[[ -n $v && $v != :* ]] || continue
			n=$((n + 1))
			rc=0
			timeout 20 "$RDMADIAG" "${pre[@]}" "$kw" "$v" >/dev/null 2>"$BATS_TEST_TMPDIR/err" || rc=$?
			[ "$rc" -ne 2 ] || grep -q "was not what was recorded" "$BATS_TEST_TMPDIR/err" ||
				bad+="${pre[*]} $kw $v: $(head -1 "$BATS_TEST_TMPDIR/err")"$'\n'
		done < <(rd __complete $((${#pre[@]} + 2)) rdmadiag "${pre[@]}" "$kw" '')
	done < <(tables | jq -r '.objects[] | .name as $o | .actions[] | .name as $a | .keywords[] |
		select(.takes_value) | [$o, $a, .before, .name] | join("|")')
	[ -z "$bad" ] || fail "offered but rejected:"$'\n'"$bad"
	[ "$n" -ge 50 ] || fail "only $n values were offered: the walk did not reach them"
}

@test "lower-case filter values as the man pages show them, all the parser takes" {
	export RDMADIAG_REPLAY=$FIXTURES/lab-rxe
	run rd __complete 4 rdmadiag qp show type ''
	assert_output $'rc\nuc\nud\ngsi\nsmi\nraw_packet\nxrc_ini\nxrc_tgt\ndriver'
	run bash_complete 'rdmadiag cm show state '
	assert_line 'listen'
	refute_line 'RTS'
	run bash_complete 'rdmadiag srq show type '
	assert_output $'basic\nxrc\ntm'
	run zsh_complete 'rdmadiag qp watch state rts,'
	assert_line 'rts,err'
}

@test "path test: keywords first, hosts only after peer, DEV/PORT after loopback" {
	export RDMADIAG_REPLAY=$FIXTURES/complete-devs RDMADIAG_STATE_DIR=$BATS_TEST_TMPDIR/state
	mkdir -p "$RDMADIAG_STATE_DIR"
	echo 10.0.0.7 >"$RDMADIAG_STATE_DIR/peers"
	run rd __complete 3 rdmadiag path test ''
	assert_output $'peer\nloopback'
	run rd path test 10.0.0.7
	assert_failure 2
	run rd __complete 4 rdmadiag path test peer ''
	assert_output $'10.0.0.7\n:host'
	run rd __complete 5 rdmadiag path test peer 10.0.0.7 ''
	assert_output 'peer'
	run bash_complete 'rdmadiag path test loopback '
	assert_output $'mlx5_0\nmlx5_1\nrxe0'
	run zsh_complete 'rdmadiag path test loopback rx'
	assert_output $'rxe0\nrxe0/1'
	run rd __complete 5 rdmadiag path test loopback rxe0 ''
	assert_output ''
}

@test "counter show: the per-QP filters only after qp" {
	export RDMADIAG_REPLAY=$FIXTURES/complete-devs
	run bash_complete 'rdmadiag counter show '
	assert_output $'qp\nmlx5_0\nmlx5_1\nrxe0'
	run rd counter show lqpn 5
	assert_failure 2
	run bash_complete 'rdmadiag counter show qp '
	assert_output $'lqpn\npid\ncounter\nmlx5_0\nmlx5_1\nrxe0'
	run bash_complete 'rdmadiag counter show qp rxe0/1 '
	assert_output $'lqpn\npid\ncounter'
	run bash_complete 'rdmadiag counter show rxe0 '
	assert_output ''
}

@test "counter mode: [DEV[/PORT]] | set DEV/PORT auto type|pid|type,pid|off, as help shows it" {
	export RDMADIAG_REPLAY=$FIXTURES/complete-devs
	rd counter help | grep -qF 'counter mode [DEV[/PORT]] | set DEV/PORT auto type|pid|type,pid|off'
	run bash_complete 'rdmadiag counter mode '
	assert_output $'set\nmlx5_0\nmlx5_1\nrxe0'
	run bash_complete 'rdmadiag counter mode set '
	assert_output $'mlx5_0\nmlx5_1\nrxe0'
	run bash_complete 'rdmadiag counter mode set rxe0/1 '
	assert_output 'auto'
	run zsh_complete 'rdmadiag counter mode set rxe0/1 auto '
	assert_output $'type\npid\ntype,pid\noff'
	run bash_complete 'rdmadiag counter mode set rxe0/1 auto type '
	assert_output ''
	run bash_complete 'rdmadiag counter mode rxe0/1 '
	assert_output ''
	run bash_complete 'rdmadiag counter bind '
	assert_output $'mlx5_0\nmlx5_1\nrxe0'
	run bash_complete 'rdmadiag counter bind rxe0/1 lqpn 5 '
	assert_output 'counter'
}

@test "bash and zsh: device names and DEV/PORT from sysfs (fixture)" {
	export RDMADIAG_REPLAY=$FIXTURES/complete-devs
	run bash_complete 'rdmadiag link show '
	assert_output $'mlx5_0\nmlx5_1\nrxe0'
	run bash_complete 'rdmadiag link show mlx5_0/'
	assert_output $'mlx5_0/1\nmlx5_0/2'
	run bash_complete 'rdmadiag dev show r'
	assert_output 'rxe0'
	run zsh_complete 'rdmadiag link show rx'
	assert_output $'rxe0\nrxe0/1'
}

@test "live values follow --replay DIR on the line being completed" {
	run rd __complete 5 rdmadiag --replay "$FIXTURES/complete-devs" link show mlx5_1
	assert_output $'mlx5_1\nmlx5_1/1'
}

@test "__complete is silent and opens no netlink socket on a host without RDMA" {
	host_has_rdma && skip "this host has RDMA"
	ASAN_OPTIONS=detect_leaks=0 run strace -f -e trace=socket "$RDMADIAG" __complete 3 rdmadiag link show ''
	assert_success
	refute_output --partial 'AF_NETLINK'
	refute_output --partial 'rdmadiag:'
	run rd __complete 3 rdmadiag link show ''
	assert_output ''
}

# The < 50 ms target of live completion is measured in the lab by
# tests/bench/complete.sh (beside rdma(8) and the binary's start-up), not here.

@test "__complete rejects a bad CWORD with exit 2" {
	run rd __complete x rdmadiag
	assert_failure 2
	assert_output --partial 'CWORD'
}

@test "completion files are shellcheck clean" {
	run shellcheck -s bash "$REPO/completions/rdmadiag.bash"
	assert_success
	run zsh -n "$REPO/completions/_rdmadiag"
	assert_success
}

@test "bash and zsh: QP numbers after lqpn and rqpn come from the kernel's QP dump (fixture)" {
	"$REPO/tests/tools/gen_res_fixture" "$BATS_TEST_TMPDIR/fx" 30 >/dev/null
	export RDMADIAG_REPLAY=$BATS_TEST_TMPDIR/fx
	want=$(rd -j qp show | jq -r '.qps[].lqpn' | sort -n)
	[ "$(wc -l <<<"$want")" -eq 31 ]
	run bash_complete 'rdmadiag qp show lqpn '
	[ "$(sort -n <<<"$output")" = "$want" ]
	run bash_complete 'rdmadiag qp watch lqpn 2'
	[ "$(sort -n <<<"$output")" = "$(grep '^2' <<<"$want")" ]
	run zsh_complete 'rdmadiag qp show rqpn '
	[ "$(sort -n <<<"$output")" = "$(rd -j qp show | jq -r '.qps[].rqpn // empty' | sort -n)" ]
}

@test "QP number candidates stop at 200 on a host with 10k QPs" {
	"$REPO/tests/tools/gen_res_fixture" "$BATS_TEST_TMPDIR/fx" 10000 >/dev/null
	RDMADIAG_REPLAY=$BATS_TEST_TMPDIR/fx run rd __complete 4 rdmadiag qp show lqpn ''
	assert_success
	[ "${#lines[@]}" -eq 200 ]
	RDMADIAG_REPLAY=$BATS_TEST_TMPDIR/fx run rd __complete 4 rdmadiag qp show lqpn 999
	[ "$(sort -n <<<"$output")" = "$(rd --replay "$BATS_TEST_TMPDIR/fx" -j qp show | jq -r '.qps[].lqpn' | grep '^999' | sort -n)" ]
	[ "${#lines[@]}" -eq 11 ]
}

@test "__complete after lqpn opens no netlink socket on a host without RDMA" {
	host_has_rdma && skip "this host has RDMA"
	ASAN_OPTIONS=detect_leaks=0 run strace -f -e trace=socket "$RDMADIAG" __complete 4 rdmadiag qp show lqpn ''
	assert_success
	refute_output --partial 'AF_NETLINK'
	refute_output --partial 'rdmadiag:'
}

# fake_peer_hello: a fake serve on 127.0.0.1 that accepts one session; sets FAKE_PORT, FAKE_PID
fake_peer_hello() {
	coproc FAKE { exec python3 "$BATS_TEST_DIRNAME/path_fake_peer.py" hello; }
	FAKE_PID=$FAKE_PID
	read -r FAKE_PORT <&"${FAKE[0]}"
}

teardown() {
	if [ -n "${FAKE_PID:-}" ]; then
		kill "$FAKE_PID" 2>/dev/null || true
		wait "$FAKE_PID" 2>/dev/null || true
	fi
}

@test "bash and zsh: peers that answered a recent path test come first after 'peer'" {
	host_has_rdma && skip "the fake peer only answers the control stage"
	export RDMADIAG_STATE_DIR=$BATS_TEST_TMPDIR/state
	fake_peer_hello
	run rd path test peer 127.0.0.1 --port "$FAKE_PORT"
	assert_line --regexp '^PASS  path.control .*127.0.0.1 port [0-9]+ answers'
	[ "$(cat "$RDMADIAG_STATE_DIR/peers")" = 127.0.0.1 ]
	run bash_complete 'rdmadiag path test peer 127.'
	assert_line 127.0.0.1
	run zsh_complete 'rdmadiag path test peer 1'
	assert_line 127.0.0.1
	assert_line ':host'	# the shell's own host names follow
	# a peer where nothing listens is not remembered
	run rd path test peer 127.0.0.2 --port 9
	[ "$(cat "$RDMADIAG_STATE_DIR/peers")" = 127.0.0.1 ]
}

@test "bash: a recent IPv6 peer completes past the colons readline breaks words at" {
	export RDMADIAG_STATE_DIR=$BATS_TEST_TMPDIR/state
	mkdir -p "$RDMADIAG_STATE_DIR"
	printf 'fd00:77::2\n10.0.0.7\n' >"$RDMADIAG_STATE_DIR/peers"
	# readline replaces the text after the last ':' only: the candidate is what follows it
	run bash_complete 'rdmadiag path test peer fd00:77:'
	assert_line ':2'
	refute_line 'fd00:77::2'
	run bash_complete 'rdmadiag path test peer fd'
	assert_line 'fd00:77::2'
}

@test "a damaged recent-peers file gives no bad candidates and no error" {
	export RDMADIAG_STATE_DIR=$BATS_TEST_TMPDIR/state
	mkdir -p "$RDMADIAG_STATE_DIR"
	{ printf '10.0.0.7\n$(reboot)\n--color\n'; head -c 5000 /dev/zero | tr '\0' a; printf '\n\377\376\nfe80::1%%eth0\n'; } \
		>"$RDMADIAG_STATE_DIR/peers"
	run --separate-stderr rd __complete 4 rdmadiag path test peer ''
	assert_success
	assert_output $'10.0.0.7\nfe80::1%eth0\n:host'
	[ -z "$stderr" ]
}
