#!/bin/bash
# Benchmark: `rdmadiag link check` against the shell sequence an admin runs
# for the same answers (ibv_devinfo -v, ethtool NIC, lspci -vvv, a show_gids-like
# sysfs walk). Meant for the lab (real RDMA stack):
#   tests/lab/lab.sh run1 tests/bench/link_check.sh [ROUNDS]
# Prints the median wall time of each and the ratio. The sysfs walk uses bash
# builtins ($(<file)) rather than show_gids' cat per file, so the shell side
# is if anything faster than what people really run.
set -u
cd "$(dirname "$0")/../.." || exit 1
RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
ROUNDS=${1:-5}
first_nic() {
	local n
	for n in /sys/class/net/*; do
		[ "${n##*/}" = lo ] || { echo "${n##*/}"; return; }
	done
}
NIC=${LAB_NIC:-$(first_nic)}

# Wall clock in microseconds from bash itself: a `date` process per reading
# would add its own start-up (~50 ms in the lab VM) to every measurement.
now_us() { now=${EPOCHREALTIME/./}; }

shell_sequence() {
	ibv_devinfo -v
	ethtool "$NIC"
	lspci -vvv
	for p in /sys/class/infiniband/*/ports/*; do
		for g in "$p"/gids/*; do
			i=${g##*/}
			gid=$(<"$g")
			[ "$gid" = 0000:0000:0000:0000:0000:0000:0000:0000 ] && continue
			echo "$p $i $gid $(<"$p/gid_attrs/types/$i") $(<"$p/gid_attrs/ndevs/$i")"
		done
	done
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

time_ms() { # time_ms CMD... -> one wall time in ms per round
	for _ in $(seq "$ROUNDS"); do
		now_us
		t0=$now
		"$@" >/dev/null 2>&1
		now_us
		echo $(((now - t0) / 1000))
	done
}

rd_ms=$(time_ms "$RD" link check | median)
sh_ms=$(time_ms shell_sequence | median)
echo "rdmadiag link check: ${rd_ms} ms (median of $ROUNDS)"
echo "shell sequence:      ${sh_ms} ms (ibv_devinfo -v, ethtool $NIC, lspci -vvv, GID sysfs walk)"
awk -v a="$sh_ms" -v b="$rd_ms" 'BEGIN { printf "ratio: %.1fx faster\n", (b > 0 ? a / b : 0) }'
