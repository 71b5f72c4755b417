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
			missing_from "$($fn "rdmadiag $obj $act ")" $(jq -r "$a | .keywords[]" <<<"$t") |
				sed "s/^/keyword: $obj $act /"
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
