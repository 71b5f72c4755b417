#!/bin/sh
# Writes `rdmadiag link check` and `rdmadiag counter show` in Prometheus text
# format into node_exporter's textfile collector directory. Each file is written
# to a temporary name in the same directory (not ending in .prom, so the
# collector ignores it) and renamed over the old one: a scrape never sees half
# a file. A command that cannot run (exit 2 or more) leaves the old file and
# makes this script fail, so the timer or cron logs it.
# Usage: rdmadiag-textfile.sh [DIR]   (default $TEXTFILE_DIR or
#        /var/lib/prometheus/node-exporter)
set -u

dir=${1:-${TEXTFILE_DIR:-/var/lib/prometheus/node-exporter}}
rd=${RDMADIAG:-rdmadiag}
status=0

# write NAME ARGS...: rdmadiag ARGS > DIR/NAME.prom, atomically
write() {
	name=$1
	shift
	tmp=$(mktemp "$dir/.$name.XXXXXX") || return 4
	"$rd" "$@" >"$tmp"
	rc=$?
	# link check exits 1 when a check fails: the metrics say which, keep them.
	if [ "$rc" -le 1 ] && chmod 0644 "$tmp" && mv -f "$tmp" "$dir/$name.prom"; then
		return 0
	fi
	rm -f "$tmp"
	echo "rdmadiag-textfile: '$rd $*' exited $rc; $dir/$name.prom left as it was" >&2
	return "$rc"
}

write rdmadiag_link link check --format prometheus || status=$?
write rdmadiag_counters counter show --format prometheus || status=$?
exit "$status"
