#!/usr/bin/env bats
# system snapshot against a real kernel RDMA stack (rdma_rxe on $LAB_NIC):
# the snapshot and what every command printed live go to this VM's run dir
# (/lab/io, a host directory), then the snapshot is replayed here and must
# print the same byte for byte. The host replays the same files in
# tests/host/snapshot.bats with SNAPSHOT_LAB_DIR=<run dir>/snapshot.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
load ../json-schema
bats_require_minimum_version 1.5.0

RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
OUT=/lab/io/snapshot

setup_file() {
	[ "${LAB:-}" = 1 ] || skip "lab only"
	tests/lab/snapshot-capture.sh "$OUT" >&3 2>&3
	echo "# snapshot for tests/host/snapshot.bats: SNAPSHOT_LAB_DIR=$LAB_RUN_DIR/snapshot" >&3
}

setup() {
	[ "${LAB:-}" = 1 ] || skip "lab only"
	export TMPDIR=$BATS_TEST_TMPDIR/tmp
	mkdir -p "$TMPDIR"
}

@test "snapshot taken in the lab holds every replayable command, each ran as live" {
	[ -s "$OUT/snapshot.tar" ]
	run tar -xOf "$OUT/snapshot.tar" MANIFEST
	for c in dev-show link-show gid-show qp-show counter-show counter-check link-check; do
		assert_line --regexp "^command $c [0-9]+ "
	done
	assert_line "host $(hostname)"
	# this lab host is healthy: link check passed when recorded
	assert_line --regexp '^command link-check 0 link check$'
}

@test "replaying the snapshot prints what each command printed live (text and JSON, stdout, stderr, exit code)" {
	run tests/tools/snapshot-compare.sh "$OUT"
	assert_success
	assert_output --regexp '^(1[89]|[2-9][0-9]) commands$'
}

@test "the -j documents the capture kept from its live runs validate against their schemas" {
	local cmd c n=0
	for cmd in "$OUT"/expected/*.cmd; do
		c=$(cat "$cmd")
		[[ "$c" == "-j "* ]] || continue
		c=${c#-j }
		json_keep "${c// /-}" "${cmd%.cmd}.out"
		n=$((n + 1))
	done
	[ "$n" -ge 8 ]
	json_check_kept
}

@test "the redacted snapshot has none of this host's addresses, GIDs, GUID, MAC or name" {
	port=/sys/class/infiniband/$LAB_RXE/ports/1
	ids="$(hostname) $LAB_IP $(cat /sys/class/net/"$LAB_NIC"/address) $(cat /sys/class/infiniband/"$LAB_RXE"/node_guid)"
	ids="$ids $(grep -hv '^0000:0000:0000:0000:0000:0000:0000:0000$' "$port"/gids/* | sort -u | tr '\n' ' ')"
	# shellcheck disable=SC2086
	run tests/tools/snapshot-leaks.py "$OUT/snapshot-redacted.tar" "$OUT/snapshot.tar" $ids
	assert_success
	run "$RD" --snapshot "$OUT/snapshot-redacted.tar" link check
	assert_success
}

@test "a snapshot taken while the netdev is down replays the failure live link check saw" {
	ip link set "$LAB_NIC" down
	"$RD" system snapshot -o "$BATS_TEST_TMPDIR/down.tar" --interval 0.5
	run --separate-stderr "$RD" -j link check
	live=$output live_rc=$status
	ip link set "$LAB_NIC" up
	run --separate-stderr "$RD" --snapshot "$BATS_TEST_TMPDIR/down.tar" -j link check
	assert_equal "$status" "$live_rc"
	assert_equal "$output" "$live"
	assert_equal "$status" 1
	assert_output --partial '"id":"netdev.up","subject":"rxe0/1"'
	validate_output link-check
}
