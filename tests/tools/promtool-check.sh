#!/bin/bash
# Checks rdmadiag's metrics with Prometheus's own checker.
# Usage: tests/tools/promtool-check.sh prometheus|openmetrics [FILE...]
#        (stdin without FILEs; host tests and lab tests alike; needs promtool,
#        from Debian's prometheus, and python3-prometheus-client)
#
# `promtool check metrics` parses the text format 0.0.4 and lints the names
# (units, _total for counters only, no type word in a name, HELP on every
# family). It reads OpenMetrics as 0.0.4 too, where one thing cannot agree:
# OpenMetrics names a counter family without _total ("# TYPE x counter") and
# its samples with it ("x_total"), so promtool sees samples without HELP. For
# openmetrics that exact complaint is accepted, for a counter family declared
# so, and nothing else. tests/host/promcheck.py then checks what promtool does
# not: the OpenMetrics grammar (strict parser), '# EOF', duplicate series and
# families split in two (node_exporter refuses both), the rdmadiag_ prefix.
# Exit 0 when valid; otherwise says which file and why on stderr, exit 1.
set -u

flavor=${1:?usage: promtool-check.sh prometheus|openmetrics [FILE...]}
shift
here=$(dirname "$0")
if ! command -v promtool >/dev/null; then
	echo "promtool-check: promtool not found (Debian package prometheus; scripts/install-deps.sh test)" >&2
	exit 1
fi
if [ $# -eq 0 ]; then
	tmp=$(mktemp) || exit 1
	trap 'rm -f "$tmp"' EXIT
	cat >"$tmp"
	set -- "$tmp"
fi

# promtool FILE: 0 when it passes (for openmetrics, but for the one complaint above)
promtool_ok() {
	local problems rc counters
	problems=$(promtool check metrics <"$1" 2>&1)
	rc=$?
	if [ "$flavor" = openmetrics ] && [ "$rc" -eq 3 ]; then
		counters=$(sed -n 's/^# TYPE \([a-zA-Z_:][a-zA-Z0-9_:]*\) counter$/\1_total no help text/p' "$1")
		problems=$(grep -vxF -f <(printf '%s\n' "$counters") <<<"$problems")
		[ -z "$problems" ] && rc=0
	fi
	[ "$rc" -eq 0 ] && return 0
	echo "promtool-check: promtool check metrics exited $rc on $1 ($flavor):" >&2
	printf '%s\n' "$problems" >&2
	return 1
}

for f in "$@"; do
	promtool_ok "$f" || exit 1
done
/usr/bin/python3 "$here/../host/promcheck.py" "$flavor" "$@" >&2
