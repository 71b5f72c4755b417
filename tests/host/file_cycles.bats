#!/usr/bin/env bats
# tests/tools/file-cycles.sh: no two C files of the source folders (util/,
# host/, netlink/, verbs/, path/, rdmadiag/) call each other (issue #22), read from the built objects; and the tool
# itself names a cycle, and refuses objects it cannot trust.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
bats_require_minimum_version 1.5.0

TOOL=$BATS_TEST_DIRNAME/../tools/file-cycles.sh

# Two files in dir: a.c calls fb() of b.c, b.c calls fa() of a.c (cycle set)
# or nothing.
two_files() {
	local dir=$1 cycle=$2
	mkdir -p "$dir"
	printf 'int fb(void);\nint fa(void) { return fb(); }\n' >"$dir/a.c"
	if [ "$cycle" = cycle ]; then
		printf 'int fa(void);\nint fb(void) { return fa() + 1; }\n' >"$dir/b.c"
	else
		printf 'int fb(void) { return 1; }\n' >"$dir/b.c"
	fi
	cc -c -o "$dir/a.o" "$dir/a.c" && cc -c -o "$dir/b.o" "$dir/b.c"
}

@test "the tree: no two files of the source folders call each other" {
	run "$TOOL"
	assert_success
	assert_output --regexp '^file-cycles: [0-9]+ files, 0 cycles$'
}

@test "two files that call each other: named with what each uses of the other, exit 1" {
	two_files "$BATS_TEST_TMPDIR/x" cycle
	run "$TOOL" "$BATS_TEST_TMPDIR/x"
	assert_failure 1
	assert_line "$BATS_TEST_TMPDIR/x/a.c <-> $BATS_TEST_TMPDIR/x/b.c: fb | fa"
	assert_line "file-cycles: 2 files, 1 cycles"
}

@test "one file calling another, not back: no cycle" {
	two_files "$BATS_TEST_TMPDIR/y" none
	run "$TOOL" "$BATS_TEST_TMPDIR/y"
	assert_success
	assert_output "file-cycles: 2 files, 0 cycles"
}

@test "an object missing or older than its source: refused, exit 2" {
	two_files "$BATS_TEST_TMPDIR/z" none
	rm "$BATS_TEST_TMPDIR/z/b.o"
	run "$TOOL" "$BATS_TEST_TMPDIR/z"
	assert_failure 2
	assert_output --partial "z/b.o is missing or older than"
	cc -c -o "$BATS_TEST_TMPDIR/z/b.o" "$BATS_TEST_TMPDIR/z/b.c"
	touch -d '+1 minute' "$BATS_TEST_TMPDIR/z/a.c"
	run "$TOOL" "$BATS_TEST_TMPDIR/z"
	assert_failure 2
	assert_output --partial "z/a.o is missing or older than"
}
