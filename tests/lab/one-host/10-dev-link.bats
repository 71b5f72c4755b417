#!/usr/bin/env bats
# dev show / link show against a real kernel RDMA stack (rdma_rxe on a dummy
# netdev), compared field by field with iproute2's rdma and ibv_devinfo -v.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}

# value of "key:" in ibv_devinfo -v for port 1 of $LAB_RXE (first word)
devinfo() {
	ibv_devinfo -v -d "$LAB_RXE" -i 1 | awk -v k="$1:" '$1 == k { print $2; exit }'
}

@test "dev show -j agrees with rdma -j dev field by field" {
	mine=$("$RD" -j dev show)
	theirs=$(rdma -j dev)
	for f in dev:ifname dev_index:ifindex node_type:node_type node_guid:node_guid sys_image_guid:sys_image_guid; do
		a=$(jq -r ".devices[] | select(.dev==\"$LAB_RXE\") | .${f%%:*}" <<<"$mine")
		b=$(jq -r ".[] | select(.ifname==\"$LAB_RXE\") | .${f##*:}" <<<"$theirs")
		echo "$f: rdmadiag=$a rdma=$b"
		[ -n "$a" ] && [ "$a" = "$b" ]
	done
}

@test "dev show names the driver module and the uverbs node" {
	run "$RD" -j dev show "$LAB_RXE"
	assert_success
	[ "$(jq -r '.devices[0].driver' <<<"$output")" = rdma_rxe ]
	uv=$(jq -r '.devices[0].uverbs' <<<"$output")
	[ -c "/dev/infiniband/$uv" ]
}

@test "dev show -d agrees with ibv_devinfo -v on limits" {
	run "$RD" -j -d dev show "$LAB_RXE"
	assert_success
	[ "$(jq -r '.devices[0].max_qp' <<<"$output")" = "$(ibv_devinfo -v -d "$LAB_RXE" | awk '$1=="max_qp:"{print $2}')" ]
	[ "$(jq -r '.devices[0].max_cq' <<<"$output")" = "$(ibv_devinfo -v -d "$LAB_RXE" | awk '$1=="max_cq:"{print $2}')" ]
}

@test "link show -j agrees with rdma -j link" {
	mine=$("$RD" -j link show "$LAB_RXE/1")
	theirs=$(rdma -j link show "$LAB_RXE/1")
	[ "$(jq -r '.links[0].state' <<<"$mine")" = "$(jq -r '.[0].state | ascii_downcase' <<<"$theirs")" ]
	[ "$(jq -r '.links[0].physical_state' <<<"$mine")" = "$(jq -r '.[0].physical_state | ascii_downcase' <<<"$theirs")" ]
	[ "$(jq -r '.links[0].netdev' <<<"$mine")" = "$(jq -r '.[0].netdev' <<<"$theirs")" ]
	[ "$(jq -r '.links[0].netdev_index' <<<"$mine")" = "$(jq -r '.[0].netdev_index' <<<"$theirs")" ]
	[ "$(jq -r '.links[0].netdev' <<<"$mine")" = "$LAB_NIC" ]
}

@test "link show -j and dev show -j list the same ports and devices as rdma -j link/dev show" {
	mine=$("$RD" -j link show | jq -c '[.links[] | "\(.dev)/\(.port) \(.state) \(.netdev)"] | sort')
	theirs=$(rdma -j link show | jq -c '[.[] | "\(.ifname)/\(.port) \(.state | ascii_downcase) \(.netdev)"] | sort')
	echo "rdmadiag: $mine"
	echo "rdma:     $theirs"
	[ "$mine" = "$theirs" ]
	mine=$("$RD" -j dev show | jq -c '[.devices[] | "\(.dev) \(.dev_index) \(.node_guid)"] | sort')
	theirs=$(rdma -j dev show | jq -c '[.[] | "\(.ifname) \(.ifindex) \(.node_guid)"] | sort')
	echo "rdmadiag: $mine"
	echo "rdma:     $theirs"
	[ "$mine" = "$theirs" ]
	# and the firmware version where rdma(8) reports one
	fw=$(rdma -j dev show "$LAB_RXE" | jq -r '.[0].fw // empty')
	[ -z "$fw" ] || [ "$("$RD" -j dev show "$LAB_RXE" | jq -r '.devices[0].fw // empty')" = "$fw" ]
}

@test "link show -j agrees with ibv_devinfo -v on MTU, link layer, width and speed" {
	mine=$("$RD" -j link show "$LAB_RXE/1")
	[ "$(jq -r '.links[0].active_mtu' <<<"$mine")" = "$(devinfo active_mtu)" ]
	[ "$(jq -r '.links[0].max_mtu' <<<"$mine")" = "$(devinfo max_mtu)" ]
	[ "$(jq -r '.links[0].link_layer' <<<"$mine")" = "$(devinfo link_layer | tr A-Z a-z)" ]
	[ "$(jq -r '.links[0].width' <<<"$mine")" = "$(devinfo active_width)" ]
	# ibv_devinfo prints the per-lane speed in Gbps; rate = lanes x that
	speed=$(devinfo active_speed)
	lanes=$(devinfo active_width | tr -d X)
	[ "$(jq -r '.links[0].rate_gbps' <<<"$mine")" = "$(awk -v s="$speed" -v l="$lanes" 'BEGIN{r=s*l; print (r==int(r))?int(r):r}')" ]
}

@test "a netdev MTU change shows up in link show (netdev and RDMA MTU)" {
	ip link set "$LAB_NIC" mtu 9000
	run "$RD" -j link show "$LAB_RXE/1"
	ip link set "$LAB_NIC" mtu 1500
	assert_success
	[ "$(jq -r '.links[0].netdev_mtu' <<<"$output")" = 9000 ]
	[ "$(jq -r '.links[0].active_mtu' <<<"$output")" = 4096 ]
	run "$RD" link show "$LAB_RXE/1"
	assert_output --partial "netdev_mtu 1500"
	assert_output --partial "mtu 1024"
}

@test "text link show has one line per port with state and netdev" {
	run "$RD" link show
	assert_success
	assert_line --regexp "^$LAB_RXE/1: state ACTIVE physical_state LINK_UP link_layer ethernet active_mtu [0-9]+ .*netdev $LAB_NIC "
}

@test "replaying a recording prints exactly what the live run printed" {
	rec=$(mktemp -d)
	for args in "dev show" "-d dev show" "-j dev show" "link show" "-d link show" "-p link show"; do
		# shellcheck disable=SC2086
		live=$("$RD" --record "$rec/x" $args)
		# shellcheck disable=SC2086
		replay=$("$RD" --replay "$rec/x" $args)
		echo "== $args"
		diff <(echo "$live") <(echo "$replay")
		rm -rf "${rec:?}/x"
	done
}

@test "unknown device and missing port exit 3 naming what exists" {
	run "$RD" dev show nosuch
	assert_failure 3
	assert_output --partial "no RDMA device named 'nosuch'"
	assert_output --partial "devices here: $LAB_RXE"
	run "$RD" link show "$LAB_RXE/7"
	assert_failure 3
	assert_output --partial "has no port 7"
}

@test "link show loads only the libibverbs provider of the device's driver (rxe), not every installed one" {
	# LD_DEBUG=files names every library the dynamic loader opens
	run bash -c "LD_DEBUG=files '$RD' link show '$LAB_RXE' 2>&1 >/dev/null"
	assert_success
	loaded=$(grep -o 'lib[a-z0-9_]*-rdmav[0-9]*\.so' <<<"$output" | sort -u)
	echo "providers loaded: $loaded"
	[ "$(wc -l <<<"$loaded")" -eq 1 ]
	[[ $loaded == librxe-rdmav*.so ]]
}
