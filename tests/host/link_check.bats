#!/usr/bin/env bats
# rdmadiag link check on fixtures (hand-made: tests/fixtures/make-handmade.sh)
# and, for the no-RDMA path, on this host.

bats_require_minimum_version 1.5.0
load helpers

MLX=$FIXTURES/mlx5-pcie
IB=$FIXTURES/ib-nosm

lc() { # lc FIXTURE ARGS...: link check replayed, JSON
	local f=$1
	shift
	rd --replay "$f" -j link check "$@"
}

verdict() { # verdict JSON ID SUBJECT -> the verdict token
	echo "$1" | jq -r --arg id "$2" --arg s "$3" '.checks[] | select(.id == $id and .subject == $s) | .verdict'
}

@test "PCIe Gen3 x8 under a 100 Gb/s port fails pci.link and the run exits 1" {
	run --separate-stderr lc "$MLX"
	assert_failure 1
	[ "$(verdict "$output" pci.link mlx5_0)" = fail ]
	echo "$output" | jq -e '.checks[] | select(.id == "pci.link" and .subject == "mlx5_0")
		| (.measured | test("Gen3 x8 \\(63 Gb/s\\)")) and (.hint | test("less than the 100 Gb/s port"))'
}

@test "a link trained below its capability warns (Gen4 x8 of Gen4 x16)" {
	run --separate-stderr lc "$MLX"
	[ "$(verdict "$output" pci.link mlx5_1)" = warn ]
	echo "$output" | jq -e '.checks[] | select(.id == "pci.link" and .subject == "mlx5_1") | .hint | test("trained at Gen4 x8 below its Gen4 x16")'
}

@test "governor powersave warns with the cpupower fix" {
	run rd --replay "$MLX" link check --only cpu.governor
	assert_success
	assert_output --partial 'WARN  cpu.governor'
	assert_output --partial 'powersave on 2 of 2 CPUs'
	assert_output --partial 'cpupower frequency-set -g performance'
}

@test "RoCE v1 at GID index 0 warns naming the RoCE v2 index of the IPv4 address" {
	run --separate-stderr lc "$MLX" --only gid.default
	assert_success
	echo "$output" | jq -e '[.checks[] | select(.id == "gid.default")] | length == 2 and all(.verdict == "warn")'
	echo "$output" | jq -e '.checks[0].hint | test("use index 3 \\(RoCE v2, 192.168.100.1\\)")'
}

@test "two RDMA netdevs in one subnet warn with the arp sysctls" {
	run rd --replay "$MLX" link check --only net.subnet
	assert_success
	assert_output --partial 'WARN  net.subnet'
	assert_output --partial 'ens1f0(192.168.100.1)+ens2f0(192.168.100.2)'
	assert_output --partial 'arp_ignore=1'
	assert_output --partial 'arp_announce=2'
}

@test "8 MiB memlock warns with the limits.conf and systemd fixes" {
	run rd --replay "$MLX" link check --only mem.memlock
	assert_success
	assert_output --partial 'RLIMIT_MEMLOCK 8 MiB'
	assert_output --partial 'LimitMEMLOCK=infinity'
}

@test "every IP of the netdev has a RoCE v2 GID on the mlx5 fixture" {
	run --separate-stderr lc "$MLX" --only gid.roce_v2
	assert_success
	[ "$(verdict "$output" gid.roce_v2 mlx5_0/1)" = pass ]
	echo "$output" | jq -e '.checks[0].measured == "192.168.100.1 at index 3, 2001:db8::1 at index 5"'
}

@test "IB port without LID and SM fails port.state, port.lid and port.sm with opensm hints" {
	run --separate-stderr lc "$IB"
	assert_failure 1
	[ "$(verdict "$output" port.state mlx5_0/1)" = fail ]
	[ "$(verdict "$output" port.lid mlx5_0/1)" = fail ]
	[ "$(verdict "$output" port.sm mlx5_0/1)" = fail ]
	echo "$output" | jq -e '[.checks[] | select(.id == "port.lid" or .id == "port.sm") | .hint | test("opensm")] | all'
	# RoCE-only checks do not apply to an InfiniBand port
	echo "$output" | jq -e '[.checks[] | select(.id | test("^(netdev|gid.roce_v2|gid.default|port.mtu)"))] | length == 0'
	[ "$(verdict "$output" gid.usable mlx5_0/1)" = pass ]
}

@test "a check of the other link layer asked for (--only, --expect-mtu) is skipped with the reason, not left out" {
	run --separate-stderr lc "$IB" --only netdev.mtu,port.mtu
	assert_success
	echo "$output" | jq -e '[.checks[] | [.id, .verdict, .measured]] == [
		["netdev.mtu", "skip", "an InfiniBand port: this check is for RoCE (Ethernet) ports"],
		["port.mtu", "skip", "an InfiniBand port: this check is for RoCE (Ethernet) ports"]]
		and .summary.skip == 2 and .summary.pass == 0'
	run --separate-stderr lc "$IB" --expect-mtu 4096
	[ "$(verdict "$output" netdev.mtu mlx5_0/1)" = skip ]
	echo "$output" | jq -e '[.checks[] | select(.id == "port.mtu" or .id == "netdev.up")] | length == 0'
	# and the other way round: InfiniBand checks named on a RoCE port
	run --separate-stderr lc "$FIXTURES/lab-rxe" --only port.lid
	assert_success
	echo "$output" | jq -e '.checks == [{"verdict": "skip", "id": "port.lid", "subject": "rxe0/1",
		"measured": "a RoCE (Ethernet) port: this check is for InfiniBand ports", "expected": ""}]'
}

@test "kernel.clocksource: hpet warns naming the available ones, tsc passes, no file skips" {
	# mlx5-pcie's kernel fell back to hpet (as the lab's two-vCPU VMs do)
	run --separate-stderr lc "$MLX" --only kernel.clocksource
	assert_success
	echo "$output" | jq -e '.checks == [{"verdict": "warn", "id": "kernel.clocksource", "subject": "host",
		"measured": "hpet (available: hpet acpi_pm)",
		"expected": "a counter read in user space (tsc, kvm-clock, arch_sys_counter, ...)",
		"hint": .checks[0].hint}]'
	echo "$output" | jq -e '.checks[0].hint | test("device access") and test("dmesg")'
	# the same host on tsc
	local f=$BATS_TEST_TMPDIR/tsc
	cp -r "$MLX" "$f"
	echo tsc >"$f/fs/sys/devices/system/clocksource/clocksource0/current_clocksource"
	run --separate-stderr lc "$f" --only kernel.clocksource
	assert_success
	echo "$output" | jq -e '.checks[0] | .verdict == "pass" and .measured == "tsc (available: hpet acpi_pm)"'
	# a recording without the file: nothing to judge
	run --separate-stderr lc "$IB" --only kernel.clocksource
	assert_success
	echo "$output" | jq -e '.checks[0] | .verdict == "skip" and (.measured | test("unreadable"))'
}

@test "JSON has schema, checks with verdict/id/subject/measured/expected and a summary that adds up" {
	run --separate-stderr lc "$MLX"
	echo "$output" | jq -e '.schema == 2 and (.checks | length > 20)'
	echo "$output" | jq -e '[.checks[] | has("verdict") and has("id") and has("subject") and has("measured") and has("expected")] | all'
	echo "$output" | jq -e '[.checks[] | select(.verdict != "pass") | has("hint")] | all'
	echo "$output" | jq -e '.summary as $s | [.checks[] | .verdict] as $v
		| $s.pass == ($v | map(select(. == "pass")) | length) and $s.warn == ($v | map(select(. == "warn")) | length)
		and $s.fail == ($v | map(select(. == "fail")) | length) and $s.skip == ($v | map(select(. == "skip")) | length)'
}

@test "--only runs just the named checks; --skip leaves them out" {
	run --separate-stderr lc "$MLX" --only port.state,cpu.governor
	assert_success
	echo "$output" | jq -e '[.checks[].id] | unique == ["cpu.governor", "port.state"]'
	run --separate-stderr lc "$MLX" --skip pci.link
	assert_success
	echo "$output" | jq -e '[.checks[] | select(.id == "pci.link")] | length == 0'
}

@test "--strict turns warnings into exit 1" {
	run rd --replay "$MLX" link check --only cpu.governor
	assert_success
	run rd --replay "$MLX" link check --only cpu.governor --strict
	assert_failure 1
}

@test "an unknown check id in --only or --skip exits 2 listing the ids" {
	run rd --replay "$MLX" link check --only port.state,port.bogus
	assert_failure 2
	assert_output --partial "--only: unknown value 'port.bogus'"
	assert_output --partial 'gid.roce_v2'
	run rd --replay "$MLX" link check --skip nope
	assert_failure 2
}

@test "--list prints every check id with a description, in text and JSON" {
	run rd link check --list
	assert_success
	for id in kernel.rdma kernel.modules dev.uverbs dev.provider pci.link port.state port.phys_state port.lid \
		port.sm port.rate netdev.present netdev.up netdev.mtu port.mtu gid.usable gid.roce_v2 gid.default \
		cm.roce_mode net.subnet cpu.governor mem.memlock gpu.nic_affinity pci.acs gpu.peer_mem pci.iommu \
		expect.devices expect.link_layer expect.gid_type; do
		grep -qE "^$id +(host|device|port|gpu) +[^ ]" <<<"$output"
	done
	run rd -j link check --list
	echo "$output" | jq -e '(.checks | length) == 29 and all(.checks[]; .title != "")'
}

@test "--expect-mtu above the netdev MTU fails with the ip link hint" {
	run rd --replay "$MLX" link check mlx5_0/1 --only netdev.mtu --expect-mtu 9000
	assert_failure 1
	assert_output --partial 'FAIL  netdev.mtu             mlx5_0/1      ens1f0 MTU 1500 (expected 9000)'
	assert_output --partial 'hint: ens1f0 has MTU 1500, 9000 expected: set MTU 9000 on ens1f0 and on the switch port: ip link set dev ens1f0 mtu 9000'
}

@test "--expect-mtu below the netdev MTU fails too (jumbo frames where 1500 is expected), naming both values" {
	cp -r "$MLX" "$BATS_TEST_TMPDIR/jumbo"
	echo 9000 >"$BATS_TEST_TMPDIR/jumbo/fs/sys/class/net/ens1f0/mtu"
	run rd --replay "$BATS_TEST_TMPDIR/jumbo" link check mlx5_0/1 --only netdev.mtu --expect-mtu 1500
	assert_failure 1
	assert_output --partial 'FAIL  netdev.mtu             mlx5_0/1      ens1f0 MTU 9000 (expected 1500)'
	assert_output --partial 'hint: ens1f0 has MTU 9000, 1500 expected: '
	assert_output --partial 'ip link set dev ens1f0 mtu 1500 (or raise every peer and expect 9000)'
	# equal passes, and the exit code follows the verdict in JSON too
	run --separate-stderr lc "$BATS_TEST_TMPDIR/jumbo" mlx5_0/1 --only netdev.mtu --expect-mtu 9000
	assert_success
	[ "$(verdict "$output" netdev.mtu mlx5_0/1)" = pass ]
	run --separate-stderr lc "$BATS_TEST_TMPDIR/jumbo" mlx5_0/1 --only netdev.mtu --expect-mtu 4200
	assert_failure 1
	[ "$(verdict "$output" netdev.mtu mlx5_0/1)" = fail ]
}

@test "--expect-rate, --expect-devices, --expect-link-layer and --expect-gid-type" {
	run --separate-stderr lc "$MLX" --only port.rate,expect.devices,expect.link_layer,expect.gid_type \
		--expect-rate 200 --expect-devices 3 --expect-link-layer infiniband --expect-gid-type roce_v2
	assert_failure 1
	[ "$(verdict "$output" port.rate mlx5_0/1)" = fail ]
	[ "$(verdict "$output" expect.devices host)" = fail ]
	[ "$(verdict "$output" expect.link_layer mlx5_0/1)" = fail ]
	[ "$(verdict "$output" expect.gid_type mlx5_0/1)" = pass ]
	run --separate-stderr lc "$MLX" --only port.rate,expect.devices,expect.link_layer \
		--expect-rate 100 --expect-devices 2 --expect-link-layer ethernet
	assert_success
	echo "$output" | jq -e '(.checks | length) == 5 and all(.checks[]; .verdict == "pass")'
	# a rate of a fraction (SDR 1X is 2.5 Gb/s), compared exactly: 2.5 passes, 3 does not
	run --separate-stderr lc "$FIXTURES/lab-rxe" --only port.rate --expect-rate 2.5
	assert_success
	echo "$output" | jq -e '.checks[0] | .measured == "2.5 Gb/s (1X SDR)" and .verdict == "pass"'
	run --separate-stderr lc "$FIXTURES/lab-rxe" --only port.rate --expect-rate 3
	assert_failure 1
	echo "$output" | jq -e '.checks[0] | .expected == "3 Gb/s" and .verdict == "fail"'
}

@test "--expect-gid-type: the hint names why the type is missing (link layer, the other RoCE version)" {
	snap=$FIXTURES/snapshot-lab/snapshot.tar
	# Soft-RoCE makes RoCE v2 GIDs only
	run --separate-stderr rd --snapshot "$snap" -j link check --expect-gid-type roce_v1
	echo "$output" | jq -e '.checks[] | select(.id == "expect.gid_type") | .verdict == "fail"
		and .hint == "the device makes RoCE v2 GIDs only for its IPs (Soft-RoCE does): use v2"'
	run --separate-stderr rd --snapshot "$snap" -j link check --expect-gid-type ib
	echo "$output" | jq -e '.checks[] | select(.id == "expect.gid_type") | .expected == "an IB GID"
		and .hint == "a RoCE (Ethernet) port has RoCE GIDs, not IB GIDs"'
	run --separate-stderr lc "$IB" --only expect.gid_type --expect-gid-type roce_v2
	echo "$output" | jq -e '.checks[0].hint == "an InfiniBand port has IB GIDs only: RoCE needs an Ethernet port"'
}

@test "expectation checks do not run without their option" {
	run --separate-stderr lc "$MLX"
	echo "$output" | jq -e '[.checks[] | select(.id | startswith("expect."))] | length == 0'
}

@test "DEV/PORT narrows the subjects; an unknown device exits 3" {
	run --separate-stderr lc "$MLX" mlx5_1/1 --only port.state,dev.uverbs
	assert_success
	echo "$output" | jq -e '[.checks[].subject] == ["mlx5_1", "mlx5_1/1"]'
	run rd --replay "$MLX" link check mlx9
	assert_failure 3
	assert_output --partial "no RDMA device named 'mlx9'"
}

@test "bad expectation values exit 2" {
	run rd --replay "$MLX" link check --expect-mtu 12
	assert_failure 2
	run rd --replay "$MLX" link check --expect-link-layer token-ring
	assert_failure 2
	run rd --replay "$MLX" link check --expect-gid-type v3
	assert_failure 2
}

@test "no RDMA in the kernel: kernel.rdma fails, exit 3, valid JSON" {
	host_has_rdma && skip "this host has RDMA"
	run rd link check
	assert_failure 3
	assert_output --partial 'FAIL  kernel.rdma'
	assert_output --partial 'this kernel has no RDMA support'
	run --separate-stderr rd -j link check
	assert_failure 3
	echo "$output" | jq -e '.schema == 2 and .checks[0].id == "kernel.rdma" and .checks[0].verdict == "fail"
		and .summary.fail == 1 and (.errors[0] | test("no RDMA support"))'
}

@test "link check --format prometheus: valid exposition with one verdict series per check, exit code kept" {
	run bash -c "'$RDMADIAG' --replay '$FIXTURES/mlx5-pcie' link check --format prometheus > '$BATS_TEST_TMPDIR/out.prom'"
	assert_failure 1
	"$BATS_TEST_DIRNAME/../tools/promtool-check.sh" prometheus <"$BATS_TEST_TMPDIR/out.prom"
	grep -q '^rdmadiag_check_verdict{command="link check",check="pci.link",subject="mlx5_0",verdict="fail"} 1$' "$BATS_TEST_TMPDIR/out.prom"
	"$RDMADIAG" --replay "$FIXTURES/mlx5-pcie" link check --format openmetrics | "$BATS_TEST_DIRNAME/../tools/promtool-check.sh" openmetrics
}
