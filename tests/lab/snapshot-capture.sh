#!/bin/bash
# snapshot-capture.sh OUTDIR: on a host with RDMA (the lab VM), take a
# snapshot into OUTDIR/snapshot.tar (and a redacted one, snapshot-redacted.tar),
# then run every command the snapshot can replay, live, and keep what it
# printed: OUTDIR/expected/N.cmd (the arguments), N.out (stdout), N.err
# (stderr), N.rc (exit code). A replay of the snapshot must print the same.
# Used by tests/fixtures/record-snapshot.sh and tests/lab/one-host/75-snapshot.bats.
set -u
out=${1:?usage: snapshot-capture.sh OUTDIR}
RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
mkdir -p "$out/expected"
rm -f "$out"/expected/*

"$RD" system snapshot -o "$out/snapshot.tar" || exit 1
"$RD" system snapshot --redact -o "$out/snapshot-redacted.tar" || exit 1
hostname > "$out/hostname"

cmds=("dev show" "-j dev show" "-d dev show" "link show" "-j link show" "-d link show"
	"gid show" "-j gid show" "qp show" "-j qp show" "counter show" "-j counter show"
	"-d counter show" "counter check" "-j counter check" "link check" "-j link check" "-d link check")
# system check when this build has it (no peers: the host alone)
if "$RD" system help 2>/dev/null | grep -q 'system check'; then
	cmds+=("system check" "-j system check")
fi
n=0
for c in "${cmds[@]}"; do
	n=$((n + 1))
	echo "$c" > "$out/expected/$n.cmd"
	# shellcheck disable=SC2086 # the words of the command
	"$RD" $c > "$out/expected/$n.out" 2> "$out/expected/$n.err"
	echo $? > "$out/expected/$n.rc"
done
