#!/usr/bin/env bats
# Man pages: groff/man lint clean, and in sync with the command tables and the
# completion (tests/docs-sync.sh says exactly what is missing where).

load helpers

REPO=$BATS_TEST_DIRNAME/../..

# A page that is only a ".so man8/PAGE" line (cq, mr, pd, cm, srq are in rdmadiag-res.8).
is_so_stub() { head -1 "$1" | grep -q '^\.so '; }

@test "every man page is lint clean under groff -man -ww and man --warnings" {
	local p n=0
	for p in "$REPO"/Documentation/*.8; do
		is_so_stub "$p" && continue	# checked below, in a man tree
		n=$((n + 1))
		run groff -man -ww -z "$p"
		assert_success
		assert_output ''
		run bash -c 'MANWIDTH=80 man --warnings -l "$1" 2>&1 >/dev/null' _ "$p"
		assert_output ''
	done
	[ "$n" -ge 2 ]
}

@test "every object has a page: the .so stubs name a page that exists, and man shows it" {
	local tree=$BATS_TEST_TMPDIR/man obj p target
	mkdir -p "$tree/man8"
	cp "$REPO"/Documentation/*.8 "$tree/man8/"
	for obj in $("$RDMADIAG" __tables | jq -r '.objects[].name'); do
		p=$REPO/Documentation/rdmadiag-$obj.8
		[ -f "$p" ] || fail "object $obj has no Documentation/rdmadiag-$obj.8 (help says: see rdmadiag-OBJECT(8))"
		is_so_stub "$p" || continue
		[ "$(wc -l <"$p")" -eq 1 ] || fail "$p: a .so stub is that one line (dh_installman makes it a symlink)"
		target=$(sed -n '1s/^\.so //p' "$p")
		[[ $target == man8/rdmadiag-*.8 ]] || fail "$p: .so $target is not man8/rdmadiag-*.8"
		[ -f "$REPO/Documentation/${target#man8/}" ] || fail "$p: .so $target, which Documentation/ lacks"
		is_so_stub "$REPO/Documentation/${target#man8/}" && fail "$p: .so $target is a stub itself"
		# .so paths are relative to the top of the man tree, as where it is installed
		run bash -c 'cd "$1" && MANWIDTH=80 man --warnings -l "man8/rdmadiag-$2.8" 2>&1' _ "$tree" "$obj"
		assert_success
		assert_output --partial 'SYNOPSIS'
		refute_output --partial 'warning'
		assert_output --regexp "$obj show"
	done
}

@test "every page's footer names the version rdmadiag -V prints, and the same date" {
	local version p th dates
	version=$("$RDMADIAG" -V | awk '{ print $2 }')
	for p in "$REPO"/Documentation/*.8; do
		is_so_stub "$p" && continue
		th=$(grep -m1 '^\.TH ' "$p")
		[[ $th == *"\"rdmadiag $version\""* ]] || fail "$(basename "$p"): '$th' does not name rdmadiag $version"
	done
	dates=$(grep -h -m1 '^\.TH ' "$REPO"/Documentation/*.8 | awk -F'"' '{ print $2 }' | sort -u)
	[ "$(wc -l <<<"$dates")" -eq 1 ] || fail "the pages' footers give different dates: $(echo $dates)"
}

@test "rdmadiag.8 has the sections an admin looks for" {
	local s
	for s in SYNOPSIS OPTIONS OBJECTS 'EXIT STATUS' 'JSON OUTPUT' ENVIRONMENT FILES EXAMPLES 'SEE ALSO'; do
		grep -q "^\.SH \"\?$s\"\?$" "$REPO/Documentation/rdmadiag.8" || fail "rdmadiag.8 lacks section $s"
	done
	for s in RDMADIAG_REPLAY RDMADIAG_RECORD NO_COLOR; do
		grep -qF "$s" "$REPO/Documentation/rdmadiag.8" || fail "rdmadiag.8 does not document $s"
	done
}

@test "man pages, completion and command tables agree (tests/docs-sync.sh)" {
	run "$REPO/tests/docs-sync.sh" "$RDMADIAG"
	echo "$output"
	assert_success
	assert_output --partial 'agree'
}

@test "docs-sync names an undocumented action and an option the tables lack" {
	local dir=$BATS_TEST_TMPDIR/doc
	cp -r "$REPO/Documentation" "$dir"
	sed -i '/^\.B link show$/d' "$dir/rdmadiag-link.8"
	printf '.SH OPTIONS\n.TP\n.B \\-\\-frobnicate\nnothing.\n' >>"$dir/rdmadiag-dev.8"
	RDMADIAG_DOC_DIR=$dir run "$REPO/tests/docs-sync.sh" "$RDMADIAG"
	assert_failure 1
	assert_line "docs-sync: action 'link show' is in no SYNOPSIS of Documentation/ (expected in Documentation/rdmadiag-link.8)"
	assert_line --partial "rdmadiag-dev.8 documents option --frobnicate, which no action of 'dev' has"
}

@test "docs-sync names a command without a JSON Schema, a schema of no command, and a page that does not name its schema" {
	local json=$BATS_TEST_TMPDIR/json doc=$BATS_TEST_TMPDIR/doc
	cp -r "$REPO/Documentation/json" "$json"
	cp -r "$REPO/Documentation" "$doc"
	rm "$json/gid-show.schema.json"
	cp "$json/link-show.schema.json" "$json/link-frob.schema.json"
	sed -i 's/"rdmadiag -j res show"/"rdmadiag -j res list"/' "$json/res-show.schema.json"
	sed -i 's/\\%link-check\.schema\.json/link-check/' "$doc/rdmadiag-link.8"
	RDMADIAG_DOC_DIR=$doc RDMADIAG_JSON_DIR=$json run "$REPO/tests/docs-sync.sh" "$RDMADIAG"
	assert_failure 1
	assert_line "docs-sync: 'gid show' has no JSON Schema: expected $json/gid-show.schema.json (see Documentation/json/link-check.schema.json)"
	assert_line "docs-sync: $json/link-frob.schema.json documents 'link frob', which is no command of the tables"
	assert_line "docs-sync: $json/res-show.schema.json: its title is 'rdmadiag -j res list', not 'rdmadiag -j res show'"
	assert_line "docs-sync: $doc/rdmadiag-link.8 does not name link-check.schema.json, the schema of 'link check'"
	# a pending command that has its schema must leave the list (none is
	# pending now: the list is given as a command would stand on it)
	SCHEMA_PENDING='cm show|qp show' RDMADIAG_JSON_DIR=$json run "$REPO/tests/docs-sync.sh" "$RDMADIAG"
	assert_line "docs-sync: 'qp show' has its schema $json/qp-show.schema.json: take it out of SCHEMA_PENDING in tests/docs-sync.sh"
}
