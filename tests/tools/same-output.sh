#!/bin/bash
# same-output.sh OLD NEW: proves that two builds of rdmadiag print the same
# bytes (stdout, stderr and exit status) for every command form on every
# replay fixture and snapshot, and on this host. For refactors that must not
# change behaviour (issue #22):
#   git worktree add /tmp/base BASE && make -C /tmp/base -j2 all
#   tests/tools/same-output.sh /tmp/base/rdmadiag/rdmadiag rdmadiag/rdmadiag
# The watches (qp watch, counter watch, dev monitor) print the clock and
# measured intervals: they are not compared. OLD runs twice: any other form
# whose output differs between those two runs depends on time, not on the
# build, and is not compared either (a watch can match itself by chance, so
# this alone would not do for them). On this host, durations read as "N ms"
# before comparing (see below). Exit 0 when every other form is identical, 1 with the diffs.
# FORMS=FILE replaces the built-in list (one form a line, words split by
# spaces); SOURCES=FILE the sources ("--replay DIR", "--snapshot FILE", or
# "-" for this host).
set -uo pipefail

if [ $# -ne 2 ] || [ ! -f "$1" ] || [ ! -x "$1" ] || [ ! -f "$2" ] || [ ! -x "$2" ]; then
	echo "usage: $0 OLD-RDMADIAG NEW-RDMADIAG" >&2
	exit 2
fi
OLD=$(realpath "$1")
NEW=$(realpath "$2")
REPO=$(cd "$(dirname "$0")/../.." && pwd)
FIX=$REPO/tests/fixtures
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

sources() {
	local f
	if [ -n "${SOURCES:-}" ]; then
		cat "$SOURCES"
		return
	fi
	echo -
	for f in "$FIX"/*/; do
		[ -d "$f/netlink" ] || [ -d "$f/fs" ] || continue
		echo "--replay ${f%/}"
	done
	for f in "$FIX"/snapshot-*/snapshot.tar; do
		echo "--snapshot $f"
	done
}

# Every action in text, -j and -d, its help, and the forms with options that
# take another code path (formats, filters, lists, errors). Watches stop after
# two rounds; the checks sample at their smallest interval.
forms() {
	if [ -n "${FORMS:-}" ]; then
		cat "$FORMS"
		return
	fi
	local o a
	echo help
	for o in dev link gid counter path qp res cq mr pd cm srq topo system report; do
		echo "$o help"
	done
	for a in "dev show" "link show" "gid show" "res show" "qp show" "cq show" "mr show" "pd show" "cm show" \
		"srq show" "counter show" "counter show qp" "counter map" "counter mode" "topo show"; do
		echo "$a"
		echo "-j $a"
		echo "-d $a"
		echo "$a help"
	done
	# the other output modes of the readers and checks
	for a in "dev show" "link show" "gid show" "qp show" "res show" "counter show" "link check" "topo show"; do
		echo "-jd $a"
		echo "--color=always $a"
		echo "-p $a"
	done
	cat <<'EOF'
__tables
counter show --format json
qp show nosuch
dev show nosuch0
-j dev show nosuch0
link show nosuch0/1
qp show state rts
qp show type ud
qp show lqpn 1,2,3
counter show --format prometheus
counter show --format openmetrics
counter show qp --format prometheus
link check
-j link check
-d link check
link check --list
link check --strict
link check --expect-mtu 1500
link check --expect-rate 100
link check --only port.state,gid.roce_v2
link check --format prometheus
link check --format openmetrics
counter check --interval 0.01
-j counter check --interval 0.01
counter check --list
counter check --interval 0.01 --format prometheus
system check --interval 0.01
-j system check --interval 0.01
system check --interval 0.01 --format prometheus
qp watch --count 2 --interval 0.01
-j qp watch --count 2 --interval 0.01
dev monitor --count 2 --interval 0.01
-j dev monitor --count 2 --interval 0.01
counter watch --count 2 --interval 0.01
path test peer 127.0.0.1
path test --list
-j path test --list
path serve
system snapshot help
report merge help
nosuch
dev nosuch
link show --nosuch
EOF
}

# corpus BIN DIR: every form on every source, one directory a source. Each
# run's copy of the build is named rdmadiag, as installed (no message names
# the directory it runs from).
corpus() {
	local dir=$2 src form n s f bin=$2.bin/rdmadiag
	mkdir -p "$2.bin"
	cp "$1" "$bin"
	s=0
	while read -r src; do
		s=$((s + 1))
		mkdir -p "$dir/$s"
		n=0
		[ "$src" != - ] || src=
		while read -r form; do
			n=$((n + 1))
			f=$dir/$s/$n
			# shellcheck disable=SC2086 # words of the source and form, split on purpose
			timeout 20 "$bin" $src $form </dev/null >"$f.out" 2>"$f.err"
			echo $? >"$f.rc"
		done < <(forms)
	done < <(sources)
}

mkdir -p "$WORK/cwd"
cd "$WORK/cwd" || exit 2
# two at a time (the runs read files and wait on nothing else)
corpus "$OLD" "$WORK/a" &
corpus "$NEW" "$WORK/new" &
wait
corpus "$OLD" "$WORK/b"

mapfile -t SRC < <(sources)
mapfile -t FORM < <(forms)

# On this host (source "-") a form may print how long a live wait took
# ("FAIL path.control 0.3 ms"): the same in OLD's two runs by chance, then
# 0.2 ms in NEW's. Durations of live runs alone read as "N ms"; replayed
# fixtures and snapshots stay compared byte for byte.
for s in "${!SRC[@]}"; do
	[ "${SRC[s]}" = - ] || continue
	for run in a b new; do
		sed -E -i 's/\b[0-9]+(\.[0-9]+)? (ms|us|s)\b/N \2/g' "$WORK/$run/$((s + 1))"/*.out "$WORK/$run/$((s + 1))"/*.err
	done
done
compared=0 unstable=0 differ=0
for d in "$WORK"/a/*/; do
	s=$(basename "$d")
	for f in "$d"*.rc; do
		n=$(basename "$f" .rc)
		name="${SRC[s - 1]}  ${FORM[n - 1]}"
		if [[ " ${FORM[n - 1]} " =~ \ (watch|monitor)\  ]] || ! cmp -s "$WORK/a/$s/$n.out" "$WORK/b/$s/$n.out" || ! cmp -s "$WORK/a/$s/$n.err" "$WORK/b/$s/$n.err" ||
			! cmp -s "$WORK/a/$s/$n.rc" "$WORK/b/$s/$n.rc"; then
			unstable=$((unstable + 1))
			[ -z "${VERBOSE:-}" ] || echo "not compared (differs between two runs of OLD): $name"
			continue
		fi
		compared=$((compared + 1))
		for k in rc out err; do
			if ! cmp -s "$WORK/a/$s/$n.$k" "$WORK/new/$s/$n.$k"; then
				differ=$((differ + 1))
				echo "DIFFERS ($k): rdmadiag $name"
				diff -u "$WORK/a/$s/$n.$k" "$WORK/new/$s/$n.$k" | sed -n '3,40p'
				break
			fi
		done
	done
done
echo "same-output: ${#SRC[@]} sources x ${#FORM[@]} forms: $compared compared, $differ differ, $unstable not compared (time-dependent)"
[ "$differ" -eq 0 ]
