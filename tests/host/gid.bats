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

# A copy of fixture $1 whose GID tables are the verbs/DEV.portN.gids records a
# live run now writes (one ibv_query_gid_table per port), sysfs gids/ removed.
gids_as_verbs_record() {
	local src=$1 dst=$2 port dev n f idx type ndev
	cp -r "$src" "$dst"
	for port in "$dst"/fs/sys/class/infiniband/*/ports/*; do
		dev=$(basename "$(dirname "$(dirname "$port")")")
		n=$(basename "$port")
		: >"$dst/verbs/$dev.port$n.gids"
		for f in "$port"/gids/*; do
			idx=$(basename "$f")
			grep -qx '0000:0000:0000:0000:0000:0000:0000:0000' "$f" && continue
			case "$(cat "$port/gid_attrs/types/$idx" 2>/dev/null)" in
			"RoCE v2") type=2 ;;
			"IB/RoCE v1") type=1 ;;
			*) type=0 ;;
			esac
			ndev=$(cat "$port/gid_attrs/ndevs/$idx" 2>/dev/null)
			echo "$idx $(cat "$f") $type ${ndev:--}" >>"$dst/verbs/$dev.port$n.gids"
		done
		rm -r "$port/gids" "$port/gid_attrs"
	done
}

@test "GID tables recorded from verbs replay exactly as the sysfs slots they replace" {
	for fx in mlx5-pcie ib-nosm; do
		v=$BATS_TEST_TMPDIR/$fx-verbs
		gids_as_verbs_record "$FIXTURES/$fx" "$v"
		[ -s "$v/verbs/mlx5_0.port1.gids" ]
		[ ! -e "$v/fs/sys/class/infiniband/mlx5_0/ports/1/gids" ]
		for args in "gid show" "-j gid show" "link check" "-j link check"; do
			# shellcheck disable=SC2086 # args are words
			want=$(rd --replay "$FIXTURES/$fx" $args 2>&1; echo "rc $?")
			# shellcheck disable=SC2086
			got=$(rd --replay "$v" $args 2>&1; echo "rc $?")
			[ "$got" = "$want" ] || { echo "$fx: $args differs"; diff <(echo "$want") <(echo "$got"); return 1; }
		done
	done
	# and the verbs record is what was read: a changed netdev name shows
	sed -i '1s/ [^ ]*$/ changed0/' "$BATS_TEST_TMPDIR/mlx5-pcie-verbs/verbs/mlx5_0.port1.gids"
	run rd --replay "$BATS_TEST_TMPDIR/mlx5-pcie-verbs" -j gid show mlx5_0/1
	echo "$output" | jq -e '.gids[0].netdev == "changed0"'
}
