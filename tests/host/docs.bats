#!/usr/bin/env bats
# Man pages: groff/man lint clean, and in sync with the command tables and the
# completion (tests/docs-sync.sh says exactly what is missing where).

load helpers

REPO=$BATS_TEST_DIRNAME/../..

@test "every man page is lint clean under groff -man -ww and man --warnings" {
	local p n=0
	for p in "$REPO"/Documentation/*.8; do
		n=$((n + 1))
		run groff -man -ww -z "$p"
		assert_success
		assert_output ''
		run bash -c 'MANWIDTH=80 man --warnings -l "$1" 2>&1 >/dev/null' _ "$p"
		assert_output ''
	done
	[ "$n" -ge 2 ]
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
