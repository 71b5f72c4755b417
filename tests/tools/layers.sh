#!/bin/bash
# layers.sh [ROOT]: the include graph of the source folders (README.md,
# "Layout"): for each folder, lowest layer first, how many `#include
# "../DIR/..."` lines of its .c and .h files name each other folder; then
# every such line that names a folder not below its own. Read from the
# sources, so that a new include up or sideways (host/ calling netlink/,
# netlink/ calling verbs/) fails before it becomes a habit. ROOT defaults to
# the repository. Exit 0 when every include points down, 1 otherwise.
set -euo pipefail

cd "${1:-$(dirname "$0")/../..}"
order=(util host netlink verbs path snapshot rdmadiag)
# The folders each one may include, as in the README's table.
declare -A below=([util]="" [host]="util" [netlink]="util host" [verbs]="util host"
	[path]="util host verbs" [snapshot]="util host netlink verbs"
	[rdmadiag]="util host netlink verbs path snapshot")

bad=0
for dir in "${order[@]}"; do
	[ -d "$dir" ] || continue
	printf '%s:' "$dir"
	{ grep -ho '^#include "\.\./[a-z_]*/' "$dir"/*.[ch] 2>/dev/null || true; } | sed 's,^#include "\.\./,,; s,/$,,' |
		sort | uniq -c | awk '{ printf " %s %s", $2, $1 }'
	echo
done
for dir in "${order[@]}"; do
	[ -d "$dir" ] || continue
	while IFS=: read -r file line text; do
		to=${text#\#include \"../}
		to=${to%%/*}
		case " ${below[$dir]} " in
		*" $to "*) ;;
		*) echo "$file:$line: $dir/ includes $to/, not below it: $text"; bad=$((bad + 1)) ;;
		esac
	done < <(grep -Hn '^#include "\.\./' "$dir"/*.[ch] 2>/dev/null || true)
done
echo "layers: $bad includes not pointing down"
[ "$bad" -eq 0 ]
