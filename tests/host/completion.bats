#!/usr/bin/env bats
# Shell completion: `rdmadiag __complete` and the real bash and zsh functions in
# completions/ offer every object, action, option and option value of the
# command tables (read back with `rdmadiag __tables`), plus live device names.

load helpers
load complete_helpers

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

# best_cpu_us CMD...: the least CPU time (user+sys, microseconds) of 10 runs
best_cpu_us() {
	local best=999999999 cpu TIMEFORMAT='%3U %3S'
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		cpu=$({ time "$@" >/dev/null; } 2>&1)
		cpu=$(awk '{ printf "%d", ($1 + $2) * 1000000 }' <<<"$cpu")
		((cpu < best)) && best=$cpu
	done
	echo "$best"
}

@test "__complete with live values costs under 50 ms" {
	# CPU time, best of 10: wall time on this shared 2-core machine swings 10x
	# with lab VMs. Measured against `rdmadiag -V` of the same binary, so the
	# start-up of a sanitized build (make check) does not count as completion cost.
	export RDMADIAG_REPLAY=$FIXTURES/complete-devs
	local base cost
	base=$(best_cpu_us "$RDMADIAG" -V)
	cost=$(best_cpu_us "$RDMADIAG" __complete 3 rdmadiag link show mlx5_0)
	echo "cpu: -V $base us, __complete with devices $cost us"
	[ $((cost - base)) -lt 50000 ]
	[ "$cost" -lt 200000 ]
}

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
