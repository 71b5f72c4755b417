#!/usr/bin/env bats
# The three tables of checks (link checks, counter rules, path stages) are one
# kind of row (struct check_def, check.h): --list of link check, counter check
# and path test print them alike, and `rdmadiag __tables` has each action's
# checks (what docs-sync holds to the man pages) equal to its --list.

bats_require_minimum_version 1.5.0
load helpers

STAGES="path.control path.resolve path.config path.rc_connect path.rc_latency path.write_bw path.read_bw
path.send_bw path.ud path.mtu path.counters"

@test "path test --list prints every stage in order, text and JSON, with no peer and no device" {
	run -0 --separate-stderr rd path test --list
	assert_equal "$stderr" ""
	# shellcheck disable=SC2086 # the ids, one a word
	[ "$(awk '{print $1}' <<<"$output")" = "$(printf '%s\n' $STAGES)" ]
	for id in $STAGES; do
		assert_line --regexp "^$id +path +[a-zA-Z].{20,}$"
	done
	run -0 --separate-stderr rd -j path test --list
	assert_equal "$stderr" ""
	jq -e --arg ids "$STAGES" '.schema == 2 and (keys == ["checks", "schema"])
		and [.checks[].id] == ($ids | split("[ \n]"; null))
		and all(.checks[]; .scope == "path" and .applies_to == "any" and (.title | length) > 20)' <<<"$output"
	# the same form as link check --list: a peer given with it is not tested, nor is a replay read
	run -0 --separate-stderr rd path test --list peer 192.0.2.1
	assert_line --index 0 --regexp '^path.control +path '
	run -0 --separate-stderr rd --replay "$FIXTURES/mlx5-pcie" path test --list
	[ "${#lines[@]}" -eq 11 ]
	run -2 --separate-stderr rd path test --list=1
	[[ $stderr == *"--list takes no value"* ]]
}

@test "link check, counter check and path test list their checks alike, as __tables has them" {
	local tables
	tables=$(rd __tables)
	for cmd in "link check" "counter check" "path test"; do
		read -r obj act <<<"$cmd"
		# shellcheck disable=SC2086 # object and action, two words
		run -0 --separate-stderr rd -j $cmd --list
		# the same keys, row by row, as link check's
		jq -e --argjson l "$(rd -j link check --list)" \
			'keys == ($l | keys) and all(.checks[]; keys == ($l.checks[0] | keys))' <<<"$output" ||
			fail "$cmd --list has another shape"
		# ids and titles in the order of the table
		jq -e --argjson t "$tables" --arg o "$obj" --arg a "$act" \
			'[.checks[] | {id, title}] == ($t.objects[] | select(.name == $o) | .actions[]
				| select(.name == $a) | .checks)' <<<"$output" || fail "$cmd --list differs from __tables"
		# text: ID SCOPE TITLE, one a check
		# shellcheck disable=SC2086
		run -0 --separate-stderr rd $cmd --list
		[ "${#lines[@]}" -eq "$(jq --arg o "$obj" --arg a "$act" '[.objects[] | select(.name == $o) | .actions[]
			| select(.name == $a) | .checks[]] | length' <<<"$tables")" ]
	done
	# the actions without a table have an empty list; only these three have checks
	jq -e '[.objects[] | .name as $o | .actions[] | select(.checks | length > 0) | "\($o) \(.name)"]
		== ["link check", "counter check", "path test"]' <<<"$tables"
	jq -e 'all(.objects[].actions[]; has("checks"))' <<<"$tables"
}

@test "--only and --skip of link check and counter check take exactly the ids of their tables" {
	local tables
	tables=$(rd __tables)
	for cmd in "link check" "counter check"; do
		read -r obj act <<<"$cmd"
		for opt in --only --skip; do
			jq -e --arg o "$obj" --arg a "$act" --arg opt "$opt" '.objects[] | select(.name == $o) | .actions[]
				| select(.name == $a) | [.checks[].id] == [.options[] | select(.name == $opt) | .choices[]]' \
				<<<"$tables" || fail "$cmd $opt: choices differ from the table"
		done
	done
}

@test "path test stage ids: the JSON Schema's enum holds the table's" {
	jq -e --arg ids "$STAGES" '."$defs".stage_id.enum == ($ids | split("[ \n]"; null))' \
		"$BATS_TEST_DIRNAME/../../Documentation/json/path-test.schema.json"
}
