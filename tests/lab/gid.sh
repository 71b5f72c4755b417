# shellcheck shell=bash
# rdmadiag lab: GIDs as sysfs spells them, for perftest's -x. Source it.
#   lab_ipv4_gid A.B.C.D     the IPv4-mapped GID (::ffff:a.b.c.d)
#   lab_gid_index DEV GID    the index of GID on DEV port 1 when it is RoCE v2
# rdmadiag picks the RoCE v2 GID of the address on the path; perftest left
# to its default index 0 takes whatever is there (in the lab the link-local
# IPv6 GID, another packet path), so the comparisons name the index.

lab_ipv4_gid() {
	local a b c d
	IFS=. read -r a b c d <<<"$1"
	printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x\n' "$a" "$b" "$c" "$d"
}

lab_gid_index() {
	local port=/sys/class/infiniband/$1/ports/1 f i
	for f in "$port"/gids/*; do
		i=${f##*/}
		[ "$(cat "$f")" = "$2" ] && [ "$(cat "$port/gid_attrs/types/$i" 2>/dev/null)" = "RoCE v2" ] &&
			{ echo "$i"; return 0; }
	done
	return 1
}
