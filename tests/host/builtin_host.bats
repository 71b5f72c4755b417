#!/usr/bin/env bats
# A real host whose kernel has the RDMA core built in (no /lib/modules, no
# /sys/module entry for ib_uverbs, rdma_cm, rdma_ucm), replayed from the
# snapshot this build took there (tests/fixtures/snapshot-builtin-h200/README.md).
# The older build called it "not loaded" and failed kernel.modules.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
SNAP=tests/fixtures/snapshot-builtin-h200/snapshot.tar

@test "built-in RDMA core: kernel.modules passes as built in, the only failure is the missing device" {
	run "$RD" --snapshot "$SNAP" link check
	assert_equal "$status" 1
	assert_line --regexp '^PASS  kernel\.modules +host +built in: ib_core ib_uverbs rdma_cm rdma_ucm '
	assert_line --regexp '^FAIL  kernel\.rdma +host +RDMA netlink answers; 0 devices'
	run bash -c "'$RD' --snapshot '$SNAP' link check | grep -c '^FAIL'"
	assert_output 1
}

@test "built-in RDMA core: the replay prints what the host printed (-j link check and system check)" {
	local d
	d=$(mktemp -d)
	tar -xf "$SNAP" -C "$d" out/link-check.json out/system-check.json
	# The host was recorded before schema 2 (it cannot be recorded again): the
	# check documents kept every key in schema 2, only the number moved.
	local recorded='if .schema == 1 then .schema = 2 else error("recorded schema \(.schema)") end'
	# kernel.clocksource came after it: the snapshot has no clocksource file,
	# so the replay skips that check, and the rest is what the host printed.
	local cs='select(.id == "kernel.clocksource")'
	run "$RD" -j --snapshot "$SNAP" link check
	jq -e "[.checks[] | $cs | .verdict] == [\"skip\"]" <<<"$output"
	assert_equal "$(jq -S "del(.checks[] | $cs) | .summary.skip -= 1" <<<"$output")" \
		"$(jq -S "$recorded" "$d/out/link-check.json")"
	run "$RD" -j --snapshot "$SNAP" system check
	jq -e "[.link_check.checks[] | $cs | .verdict] == [\"skip\"]" <<<"$output"
	assert_equal "$(jq -S "del(.link_check.checks[] | $cs) | .link_check.summary.skip -= 1 |
		.layers[0].summary.skip -= 1" <<<"$output")" "$(jq -S "$recorded" "$d/out/system-check.json")"
	rm -rf "$d"
}

@test "built-in RDMA core, no device: the readers exit 3 with one message, topo show lists the GPU" {
	for c in "dev show" "link show" "gid show" "qp show" "counter show"; do
		run "$RD" --snapshot "$SNAP" $c
		assert_equal "$status" 3
		assert_output --partial "no RDMA devices on this host"
	done
	run "$RD" --snapshot "$SNAP" topo show
	assert_success
	assert_line --regexp '^gpu0 +0000:00:06\.0 .*link Gen5 x16 \(max Gen5 x16\)'
	assert_line "no RDMA device"
}
