#!/usr/bin/env bats
# rdmadiag gid show on fixtures.

bats_require_minimum_version 1.5.0
load helpers

MLX=$FIXTURES/mlx5-pcie

@test "gid show lists the non-empty GIDs with type, IP and netdev" {
	run --separate-stderr rd --replay "$MLX" -j gid show mlx5_0/1
	assert_success
	echo "$output" | jq -e '[.gids[].index] == [0, 1, 2, 3, 4, 5]'
	echo "$output" | jq -e '.gids[0] | .type == "roce_v1" and .ip == "fe80::e42:a1ff:fe00:0" and .netdev == "ens1f0"'
	echo "$output" | jq -e '.gids[3] | .type == "roce_v2" and .ip == "192.168.100.1" and .family == "ipv4"
		and .gid == "0000:0000:0000:0000:0000:ffff:c0a8:6401"'
	echo "$output" | jq -e '.gids[5] | .type == "roce_v2" and .ip == "2001:db8::1"'
}

@test "gid show -d includes the empty slots" {
	run --separate-stderr rd --replay "$MLX" -j -d gid show mlx5_0/1
	assert_success
	echo "$output" | jq -e '(.gids | length) == 12 and ([.gids[] | select(.type == null)] | length) == 6'
}

@test "recommended index per IP: RoCE v2, IPv4 first" {
	run --separate-stderr rd --replay "$MLX" -j gid show
	assert_success
	echo "$output" | jq -e '.recommended[0] | .dev == "mlx5_0" and .ip == "192.168.100.1" and .index == 3 and .type == "roce_v2"'
	echo "$output" | jq -e '[.recommended[] | select(.dev == "mlx5_1")] | map(.ip) == ["192.168.100.2", "2001:db8::2", "fe80::e42:a1ff:fe00:1"]'
}

@test "text output shows RoCE v2 and the recommended section" {
	run rd --replay "$MLX" gid show mlx5_0
	assert_success
	assert_output --partial 'mlx5_0/1: index 3 gid 0000:0000:0000:0000:0000:ffff:c0a8:6401 type RoCE v2 ip 192.168.100.1 netdev ens1f0'
	assert_output --partial 'recommended GID index per local IP (perftest -x, RoCE v2 preferred):'
	assert_output --partial 'mlx5_0/1: ip 192.168.100.1 index 3 type RoCE v2'
}

@test "IB GIDs have type ib and no IP" {
	run --separate-stderr rd --replay "$FIXTURES/ib-nosm" -j gid show
	assert_success
	echo "$output" | jq -e '.gids == [{"ifname":"mlx5_0/1","dev":"mlx5_0","port":1,"index":0,
		"gid":"fe80:0000:0000:0000:0c42:a103:0012:3456","type":"ib"}]'
}

@test "gid show on a missing port exits 3" {
	run rd --replay "$MLX" gid show mlx5_0/2
	assert_failure 3
	assert_output --partial 'device mlx5_0 has no port 2'
}

@test "the committed hand-made fixtures are what make-handmade.sh builds" {
	tmp=$BATS_TEST_TMPDIR/fx
	mkdir -p "$tmp"
	"$BATS_TEST_DIRNAME/../fixtures/make-handmade.sh" "$tmp"
	for f in mlx5-pcie ib-nosm; do
		diff -r "$tmp/$f" "$FIXTURES/$f"
	done
}
