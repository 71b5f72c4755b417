#!/usr/bin/env bats
# rdmadiag topo show and the GPUDirect checks of link check on the GPU
# fixtures: dgx-h100, dgx-miswired and gpu-pxb-phb (tests/fixtures/make-topo.py), real-h200
# (a real H200 host, tests/fixtures/import-real-h200.sh); and hosts without a
# GPU (the older fixtures), which must see nothing new.

bats_require_minimum_version 1.5.0
load helpers

DGX=$FIXTURES/dgx-h100
BAD=$FIXTURES/dgx-miswired
PXB=$FIXTURES/gpu-pxb-phb
H200=$FIXTURES/real-h200

verdict() { # verdict JSON ID SUBJECT -> the verdict token
	echo "$1" | jq -r --arg id "$2" --arg s "$3" '.checks[] | select(.id == $id and .subject == $s) | .verdict'
}

@test "make-topo.py reproduces the committed fixtures it builds" {
	out=$(mktemp -d)
	"$BATS_TEST_DIRNAME/../fixtures/make-topo.py" "$out"
	[ "$(ls "$out")" = "$(printf '%s\n' dgx-h100 dgx-miswired gpu-pxb-phb)" ]
	for f in dgx-h100 dgx-miswired gpu-pxb-phb; do
		diff -r "$out/$f" "$FIXTURES/$f"
	done
	rm -rf "$out"
}

@test "topo show on the DGX: 8 GPUs, 8 NICs, each GPU paired at PIX, the other socket at SYS" {
	run --separate-stderr rd --replay "$DGX" topo show
	assert_success
	assert_line --regexp '^gpu0 +0000:18:00.0  class 030200  10de:2330  numa 0  cpus 0-55,112-167  link Gen5 x16 \(max Gen5 x16\)  driver nvidia$'
	assert_line 'gpu0     PIX      PIX      NODE     NODE     SYS      SYS      SYS      SYS'
	assert_line 'gpu7     SYS      SYS      SYS      SYS      NODE     NODE     PIX      PIX'
	assert_line --regexp '^gpu5 +mlx5_5 +PIX$'
	run --separate-stderr rd --replay "$DGX" -j topo show
	assert_success
	echo "$output" | jq -e '(.gpus | length) == 8 and (.rdma_devices | length) == 8 and (.affinity | length) == 64
		and ([.pairing[] | .affinity] | unique) == ["PIX"]
		and .gpus[0].pcie_link.current_gen == 5 and .gpus[0].pcie_link.max_width_lanes == 16
		and ([.gpus[0].bridges[].pci_address] == ["0000:15:01.0", "0000:16:00.0", "0000:17:00.0"])
		and .rdma_devices[0].numa_node == 0 and .rdma_devices[7].numa_node == 1'
}

@test "link check on the healthy DGX passes every GPU check, exit 0" {
	run --separate-stderr rd --replay "$DGX" -j link check
	assert_success
	echo "$output" | jq -e '[.checks[] | select(.id | test("^(gpu\\.|pci\\.acs|pci\\.iommu)"))] as $g
		| ($g | length) == 18 and ([$g[].verdict] | unique) == ["pass"]
		and ([.checks[] | select(.id == "pci.link" and (.subject | startswith("gpu")))] | length) == 8
		and .summary.fail == 0 and .summary.warn == 0'
}

@test "miswired: the NIC on the other socket fails gpu.nic_affinity for gpu1 with the NCCL pairing" {
	run --separate-stderr rd --replay "$BAD" -j link check
	assert_failure 1
	[ "$(verdict "$output" gpu.nic_affinity gpu1)" = fail ]
	[ "$(verdict "$output" gpu.nic_affinity gpu0)" = pass ]
	echo "$output" | jq -e '.checks[] | select(.id == "gpu.nic_affinity" and .subject == "gpu1")
		| (.measured | test("gets mlx5_1 0000:d8:00.0 at SYS \\(NUMA 1\\); nearest mlx5_0 at PIX goes to gpu0"))
		and (.hint | test("NCCL would want gpu1 on mlx5_0 \\(PIX, NCCL_IB_HCA=mlx5_0"))
		and (.hint | test("will get mlx5_1 \\(SYS\\)"))'
}

@test "miswired: ACS redirect on the switch port above gpu2 fails pci.acs with the setpci line and the BIOS fix" {
	run --separate-stderr rd --replay "$BAD" -j link check --only pci.acs
	assert_failure 1
	[ "$(verdict "$output" pci.acs gpu2)" = fail ]
	[ "$(verdict "$output" pci.acs gpu1)" = skip ]
	echo "$output" | jq -e '.checks[] | select(.id == "pci.acs" and .subject == "gpu2")
		| (.measured | test("0000:39:00.0 \\(ACSCtl 0x001d\\)"))
		and (.hint | test("setpci -s 0000:39:00.0 ECAP_ACS\\+0x6.w=0000:000c")) and (.hint | test("BIOS"))'
}

@test "pci.acs as a user: a config space cut at 64 bytes (all sysfs gives a non-root reader) skips with the reason, exit as any skip" {
	# a recording made by a non-root user holds each bridge's config as the
	# kernel gave it to that user: its first 64 bytes, no extended capabilities
	cp -a "$BAD" "$BATS_TEST_TMPDIR/fx"
	run --separate-stderr rd --replay "$BATS_TEST_TMPDIR/fx" -j link check --only pci.acs
	assert_failure 1
	[ "$(verdict "$output" pci.acs gpu2)" = fail ]
	find "$BATS_TEST_TMPDIR/fx/fs/sys/devices" -name config -exec truncate -s 64 {} +
	[ "$(find "$BATS_TEST_TMPDIR/fx/fs/sys/devices" -name config -size -65c | wc -l)" -eq 25 ]
	run --separate-stderr rd --replay "$BATS_TEST_TMPDIR/fx" -j link check --only pci.acs
	local user_status=$status
	echo "$output" | jq -e '.checks[] | select(.subject == "gpu2") | .verdict == "skip"
		and .measured == "the extended config space of 0000:38:00.0 is not readable (64 bytes): reading it needs root"
		and (has("hint") | not)'
	echo "$output" | jq -e '([.checks[] | select(.measured | endswith("reading it needs root")) | .subject]
			== ["gpu0", "gpu2", "gpu3", "gpu4", "gpu5", "gpu6", "gpu7"])
		and .summary.skip == 8 and .summary.pass == 0 and .summary.fail == 0'
	# a skip is no verdict against the host: exit 0 as for pci.acs skipped on a host without a NIC (rdmadiag(8))
	run --separate-stderr rd --replay "$H200" -j link check --only pci.acs
	[ "$(verdict "$output" pci.acs gpu0)" = skip ]
	[ "$user_status" -eq "$status" ]
	[ "$user_status" -eq 0 ]
	run --separate-stderr rd --replay "$BATS_TEST_TMPDIR/fx" link check --only pci.acs --strict
	assert_success
	assert_line --regexp '^SKIP  pci.acs +gpu2 +the extended config space of 0000:38:00.0 is not readable \(64 bytes\): reading it needs root'
}

@test "miswired: no nvidia_peermem nor dma-buf warns gpu.peer_mem; DMA-FQ warns pci.iommu with iommu=pt" {
	run --separate-stderr rd --replay "$BAD" link check --only gpu.peer_mem,pci.iommu
	assert_success
	assert_line --regexp '^WARN  gpu.peer_mem +host +nvidia_peermem not loaded and no dma-buf'
	assert_line --partial 'modprobe nvidia_peermem'
	assert_line --regexp '^WARN  pci.iommu +host +IOMMU translating \(group type DMA-FQ\) for 8 of 8 GPUs and 8 of 8 RDMA devices'
	assert_line --partial 'add iommu=pt'
}

@test "system check on the miswired DGX: a topology layer after the device layer names the faults" {
	run --separate-stderr rd --replay "$BAD" -j system check
	echo "$output" | jq -e '[.layers[].layer][0:2] == ["device", "topology"]
		and (.layers[1].verdict == "fail") and (.layers[1].summary.fail == 2)
		and ([.layers[0].findings[].id] | map(select(test("^gpu\\.|acs|iommu"))) | length) == 0
		and (.topology_check.checks | length) > 0'
	run --separate-stderr rd --replay "$BAD" system check
	assert_line --regexp '^topology +FAIL  link check +13 pass, 2 warn, 2 fail, 1 skip$'
}

@test "gpu-pxb-phb: topo show has a GPU at PXB under a nested switch and the rest at PHB, text and -j" {
	run --separate-stderr rd --replay "$PXB" topo show
	assert_success
	assert_line '          path pci0000:00 > 0000:00:01.0 (Gen5 x16) > 0000:01:00.0 (Gen5 x16) > 0000:02:01.0 (Gen5 x16) > 0000:04:00.0 (Gen5 x16) > 0000:05:00.0 (Gen5 x16) > 0000:06:00.0'
	assert_line '          path pci0000:00 > 0000:00:03.0 (Gen5 x16) > 0000:07:00.0'
	assert_line '         mlx5_0   mlx5_1'
	assert_line 'gpu0     PXB      PHB'
	assert_line 'gpu1     PHB      PHB'
	assert_line --regexp '^gpu0 +mlx5_0 +PXB$'
	assert_line --regexp '^gpu1 +mlx5_1 +PHB$'
	run --separate-stderr rd --replay "$PXB" -j topo show
	assert_success
	echo "$output" | jq -e '(.gpus | length) == 2 and (.rdma_devices | length) == 2
		and ([.affinity[] | "\(.gpu) \(.rdma_device) \(.affinity)"]
			== ["gpu0 mlx5_0 PXB", "gpu0 mlx5_1 PHB", "gpu1 mlx5_0 PHB", "gpu1 mlx5_1 PHB"])
		and ([.pairing[] | "\(.gpu) \(.rdma_device) \(.affinity)"] == ["gpu0 mlx5_0 PXB", "gpu1 mlx5_1 PHB"])
		and ([.gpus[0].bridges[].pci_address]
			== ["0000:00:01.0", "0000:01:00.0", "0000:02:01.0", "0000:04:00.0", "0000:05:00.0"])
		and ([.gpus[1].bridges[].pci_address] == ["0000:00:03.0"])
		and ([.gpus[].host_bridge, .rdma_devices[].host_bridge] | unique) == ["pci0000:00"]'
	run "$BATS_TEST_DIRNAME/../tools/json-validate.py" "$BATS_TEST_DIRNAME/../../Documentation/json/topo-show.schema.json" <<<"$output"
	assert_success
}

@test "gpu-pxb-phb: gpu.nic_affinity passes the PXB GPU and warns the PHB one with its pairing" {
	run --separate-stderr rd --replay "$PXB" link check --only gpu.nic_affinity
	assert_success
	assert_line --regexp '^PASS  gpu.nic_affinity +gpu0 +gpu0 0000:06:00.0 gets mlx5_0 0000:03:00.0 at PXB \(NUMA 0\)$'
	assert_line --regexp '^WARN  gpu.nic_affinity +gpu1 +gpu1 0000:07:00.0 gets mlx5_1 0000:08:00.0 at PHB \(NUMA 0\) '
	assert_line --partial 'hint: NCCL would want gpu1 on an RDMA NIC under its own PCIe switch and will get mlx5_1 (PHB, NCCL_IB_HCA=mlx5_1): its GPUDirect traffic goes up through the root complex.'
	# gpu1 has no switch above it to put a NIC under: the hint says so
	assert_line --partial 'gpu1 sits on root port 0000:00:03.0 with no PCIe switch above it: put it and an RDMA NIC in slots under one PCIe switch (NUMA node 0)'
	run --separate-stderr rd --replay "$PXB" -j link check
	assert_success
	[ "$(verdict "$output" gpu.nic_affinity gpu0)" = pass ]
	[ "$(verdict "$output" gpu.nic_affinity gpu1)" = warn ]
	echo "$output" | jq -e '.summary.warn == 1 and .summary.fail == 0'
	run --separate-stderr rd --replay "$PXB" link check --strict --only gpu.nic_affinity
	assert_failure 1
}

@test "gpu-pxb-phb: pci.acs reads the five switch ports on the PXB path; at PHB the root complex carries it" {
	run --separate-stderr rd --replay "$PXB" -j link check --only pci.acs
	assert_success
	echo "$output" | jq -e '[.checks[] | "\(.verdict) \(.subject) \(.measured)"]
		== ["pass gpu0 redirect off on the 5 ports between gpu0 and mlx5_0",
		    "skip gpu1 gpu1 and mlx5_1 meet at PHB: peer-to-peer goes through the root complex whatever ACS says"]'
	# redirect on at the nested switch's port above the GPU, deepest on the path: found
	cp -a "$PXB" "$BATS_TEST_TMPDIR/fx"
	printf '\x1d\x00' | dd of="$BATS_TEST_TMPDIR/fx/fs/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0/0000:04:00.0/0000:05:00.0/config" \
		bs=1 seek=$((0x106)) conv=notrunc status=none
	run --separate-stderr rd --replay "$BATS_TEST_TMPDIR/fx" -j link check --only pci.acs
	assert_failure 1
	[ "$(verdict "$output" pci.acs gpu0)" = fail ]
	echo "$output" | jq -e '.checks[] | select(.subject == "gpu0")
		| .measured == "P2P redirect on at 0000:05:00.0 (ACSCtl 0x001d)" and (.hint | test("setpci -s 0000:05:00.0 "))'
}

@test "real H200 host: topo show lists its GPU at Gen5 x16 and no RDMA device" {
	run --separate-stderr rd --replay "$H200" topo show
	assert_success
	assert_output "gpu0      0000:00:06.0  class 030200  10de:2335  numa n/a  cpus 0-15  link Gen5 x16 (max Gen5 x16)  driver nvidia
          path pci0000:00 > 0000:00:06.0
no RDMA device"
	run --separate-stderr rd --replay "$H200" -j topo show
	echo "$output" | jq -e '(.gpus | length) == 1 and .gpus[0].pci_class == "0x030200" and .gpus[0].numa_node == -1
		and .gpus[0].pcie_link.current_gen == 5 and .gpus[0].pcie_link.current_width_lanes == 16
		and .rdma_devices == [] and .pairing == []'
}

@test "real H200 host: the GPU checks skip for want of a NIC, pci.link passes the GPU, no IOMMU passes" {
	run --separate-stderr rd --replay "$H200" -j link check
	[ "$(verdict "$output" pci.link gpu0)" = pass ]
	[ "$(verdict "$output" gpu.nic_affinity gpu0)" = skip ]
	[ "$(verdict "$output" pci.acs gpu0)" = skip ]
	[ "$(verdict "$output" gpu.peer_mem host)" = skip ]
	[ "$(verdict "$output" pci.iommu host)" = pass ]
}

@test "hosts without a GPU: no GPU check, no topology layer; topo show says there is no GPU" {
	for f in mlx5-pcie ib-nosm lab-rxe; do
		run --separate-stderr rd --replay "$FIXTURES/$f" -j link check
		echo "$output" | jq -e '[.checks[] | select((.id | test("^gpu\\.|^pci\\.(acs|iommu)$")) or (.subject | startswith("gpu")))] == []'
		run --separate-stderr rd --replay "$FIXTURES/$f" -j system check
		echo "$output" | jq -e '[.layers[].layer] | index("topology") == null'
	done
	run --separate-stderr rd --replay "$FIXTURES/mlx5-pcie" topo show
	assert_success
	assert_line 'no GPU or accelerator on the PCI bus'
}

@test "topo show takes no arguments (exit 2)" {
	run --separate-stderr rd topo show extra
	assert_failure 2
}

@test "topo show -j validates against Documentation/json/topo-show.schema.json on every fixture and the real host's snapshot" {
	local schema=$BATS_TEST_DIRNAME/../../Documentation/json/topo-show.schema.json n=0 f
	local validate=$BATS_TEST_DIRNAME/../tools/json-validate.py
	for f in "$FIXTURES"/*/; do
		[ -d "$f/netlink" ] || [ -d "$f/fs" ] || continue
		run rd --replay "${f%/}" -j topo show
		assert_success
		run "$validate" "$schema" <<<"$output"
		[ "$status" -eq 0 ] || fail "$f: $output"
		n=$((n + 1))
	done
	[ "$n" -ge 20 ]
	run bash -c "'$RDMADIAG' --snapshot '$FIXTURES/snapshot-builtin-h200/snapshot.tar' -j topo show | '$validate' '$schema'"
	assert_success
	# the validator is strict: an unknown key and an unknown kind are refused
	run "$validate" "$schema" <<<'{"schema":2,"gpus":[{"name":"g","kind":"software"}],"rdma_devices":[],"affinity":[],"pairing":[],"x":1}'
	assert_failure
	assert_output --partial "'x' was unexpected"
	assert_output --partial "'software' is not one of"
}
