#!/bin/bash
# Builds the seed corpus of every fuzz target from real data:
#   nl_reply   the netlink replies recorded in the lab and the hand-made
#              fixtures (tests/fixtures/*/netlink/*.bin), plus resource dumps
#              of tests/tools/gen_res_fixture, each behind its selector byte
#   pathproto  a session's messages, from the encoder (gen_pathproto_seeds)
#   cmdline    the commands of the recorded fixtures and of the host tests
#   sysfs      sysfs/procfs/verbs/ethtool files of the fixtures
# Usage: fuzz/seeds.sh OUTDIR   (OUTDIR/TARGET/ are replaced)
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1
fx=tests/fixtures
rm -rf "$out"
mkdir -p "$out"/{nl_reply,pathproto,cmdline,sysfs}

# seed TARGET NAME SELECTOR [FILE]: selector byte, then FILE's bytes
seed() {
	{
		printf "\\x$(printf %02x "$3")"
		[ -z "${4:-}" ] || cat "$4"
	} >"$out/$1/$2"
}

# ---- nl_reply: selectors as enum request in fuzz/nl_reply_fuzz.c ----
# dev 0, dev by name 1, port 2, res dump 3+kind, res by id 9+kind,
# summary 15, stat 16, chardev 17, rtnetlink addresses 18;
# kinds: qp 0, cq 1, mr 2, pd 3, cm_id 4, srq 5.
nl_selectors() { # file name -> selectors
	case $1 in
	cmd1-dump*) echo 0 1 ;;
	cmd5-dump*) echo 2 ;;
	cmd9-dump*) echo 15 ;;
	cmd10-*) echo 3 9 4 8 ;;	# the QP dump also seeds CQ and SRQ
	cmd11-*) echo 7 13 ;;
	cmd13-*) echo 5 11 6 12 ;;	# MR, also PD
	cmd15-*) echo 17 ;;
	cmd17-*) echo 16 ;;
	route-getaddr*) echo 18 ;;
	esac
}
gen=$(mktemp -d)
trap 'rm -rf "$gen"' EXIT
build/fuzz/gen_res_fixture "$gen/res" 40 >/dev/null
for f in "$fx"/*/netlink/*.bin "$gen"/res/netlink/*.bin; do
	for s in $(nl_selectors "$(basename "$f")"); do
		seed nl_reply "$(basename "$(dirname "$(dirname "$f")")")-$(basename "$f" .bin)-$s" "$s" "$f"
	done
done
for s in $(seq 0 18); do seed nl_reply "empty-$s" "$s"; done

# ---- pathproto ----
build/fuzz/gen_pathproto_seeds "$out/pathproto"

# ---- cmdline: words NUL separated ----
words() { # NAME WORD...
	local name=$1
	shift
	printf '%s\0' "$@" | head -c -1 >"$out/cmdline/$name"
}
n=0
for c in "$fx"/*/expected/*.cmd; do
	# shellcheck disable=SC2046
	words "fixture-$((n++))" $(cat "$c")
done
# `rd ARGS` lines of the host tests (quoting dropped: seeds need not be exact)
grep -hoE '\brd (-[a-z]+ )*[a-z_]+ [^|>;&$"]*' tests/host/*.bats | sed 's/^rd //' | sort -u | head -150 |
	while read -r line; do
		# shellcheck disable=SC2086
		words "host-$((n++))" $line
	done
words help help
words complete __complete 2 rdmadiag link
words link-check-json -j link check --expect-mtu 1024
words qp-filter qp show rxe0/1 type rc state rts
words counter-prom counter show rxe0/1 --format prometheus
words dev-bad dev show rxe0/300

# ---- sysfs: selector, then NUL separated file contents (fuzz/sysfs_fuzz.c) ----
fields() { # NAME SELECTOR FILE... ("-" for an empty field)
	local name=$1 sel=$2 first=1
	shift 2
	{
		printf "\\x$(printf %02x "$sel")"
		for f in "$@"; do
			[ $first = 1 ] || printf '\0'
			first=0
			[ "$f" = - ] || cat "$f"
		done
	} >"$out/sysfs/$name"
}
net=$fx/lab-rxe/fs/sys/class/net/rxenet0
fields netdev 0 "$net/mtu" "$net/ifindex" "$net/carrier" "$net/operstate"
for p in "$fx"/*/fs/sys/class/infiniband/*/ports/*; do
	[ -d "$p/gids" ] || continue
	args=("$p/link_layer")
	[ -f "$p/link_layer" ] || args=(-)
	for i in 0 1 2 3; do
		for f in "$p/gids/$i" "$p/gid_attrs/types/$i" "$p/gid_attrs/ndevs/$i"; do
			if [ -f "$f" ]; then args+=("$f"); else args+=(-); fi
		done
	done
	fields "gids-$(echo "$p" | tr / _)" 1 "${args[@]}"
done
hw=$(ls -d "$fx"/counter-rxe/fs/sys/class/infiniband/*/ports/1/hw_counters | head -1)
ls "$hw" >"$gen/listing"
fields counters 2 "$gen/listing" - "$hw/$(ls "$hw" | head -1)" "$hw/$(ls "$hw" | tail -1)" - -
fields verbs 3 "$fx/lab-rxe/verbs/rxe0.device" "$fx/lab-rxe/verbs/rxe0.port1"
pci=$(ls -d "$fx"/mlx5-pcie/fs/sys/class/infiniband/*/device | head -1)
fields pcie 4 "$pci/current_link_speed" "$pci/current_link_width" "$fx/mlx5-pcie/fs/proc/self/limits"
fields ethtool 5 "$fx/counter-rxe/ethtool/rxenet0"
for t in nl_reply pathproto cmdline sysfs; do
	echo "seeds: $t $(ls "$out/$t" | wc -l)"
done
