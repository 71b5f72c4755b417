#!/usr/bin/env bats
# tests/tools/layers.sh: every `#include "../DIR/..."` of the source folders
# points down the layers of README.md's "Layout" (host/ below netlink/ and
# verbs/, path/ above verbs/, rdmadiag/ on top); and the tool names one
# that does not.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
bats_require_minimum_version 1.5.0

TOOL=$BATS_TEST_DIRNAME/../tools/layers.sh

@test "the tree: every include between folders points down" {
	run "$TOOL"
	assert_success
	assert_line 'util:'
	assert_line 'host:'
	assert_line --regexp '^netlink: host [0-9]+( util [0-9]+)?$'
	assert_line --regexp '^verbs: host [0-9]+( util [0-9]+)?$'
	assert_line "layers: 0 includes not pointing down"
}

@test "a host reader that includes netlink: named, exit 1" {
	local root=$BATS_TEST_TMPDIR/tree
	mkdir -p "$root/host" "$root/netlink"
	printf '#include "../netlink/nl.h"\n' >"$root/host/a.c"
	printf '#include "../host/a.h"\n' >"$root/netlink/nl.c"
	run "$TOOL" "$root"
	assert_failure 1
	assert_line 'host: netlink 1'
	assert_line 'netlink: host 1'
	assert_line 'host/a.c:1: host/ includes netlink/, not below it: #include "../netlink/nl.h"'
	assert_line "layers: 1 includes not pointing down"
}
