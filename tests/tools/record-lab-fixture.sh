#!/bin/bash
# Records a fixture in the lab: runs `rdmadiag --record` for each command inside
# a one-host VM, together with the live output of the same command, and unpacks
# both under tests/fixtures/NAME/ (live outputs in NAME/expected/). Host tests
# then replay the fixture and compare with what the real kernel printed.
#   tests/tools/record-lab-fixture.sh NAME 'SETUP SHELL' 'CMD ARGS' ['CMD ARGS' ...]
# Example:
#   tests/tools/record-lab-fixture.sh lab-rxe '' 'dev show' 'link show' '-j link show'
set -euo pipefail
cd "$(dirname "$0")/../.."
name=$1 setup=$2
shift 2
dest=tests/fixtures/$name
bin=${RDMADIAG_BIN:-rdmadiag/rdmadiag}

script='set -e
rec=/tmp/fixture; mkdir -p $rec/expected
'"$setup"'
i=0
for c in "$@"; do
	i=$((i+1))
	# shellcheck disable=SC2086
	'"$bin"' --record $rec $c > $rec/expected/$i.out 2>&1 || echo "exit $?" >> $rec/expected/$i.out
	echo "$c" > $rec/expected/$i.cmd
done
echo "@@FIXTURE@@"
tar -C $rec -cz . | base64 -w0
echo'
out=$(tests/lab/lab.sh run1 bash -c "$script" rec "$@")
rm -rf "$dest"
mkdir -p "$dest"
printf '%s\n' "$out" | sed -n '/^@@FIXTURE@@$/{n;p;q}' | base64 -d | tar -C "$dest" -xz
echo "fixture in $dest:"
ls "$dest" "$dest/expected"
