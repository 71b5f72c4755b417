#!/bin/bash
# `make demo`: boots the two-host Soft-RoCE lab (two qemu VMs joined by a
# virtual cable, each with its own rxe device) and runs rdmadiag in it, so a
# newcomer sees real output from a real kernel RDMA stack. Every command that
# this build of rdmadiag has is shown; nothing here is canned.
set -euo pipefail
cd "$(dirname "$0")/../.."

demo_a=$(cat <<'SCRIPT'
. tests/lab/peer.sh
RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}
has() { "$RD" help | grep -q "^  $1 "; }
show() {
	printf '\n\033[1m$ rdmadiag %s\033[0m   (host %s, %s)\n' "$*" "$LAB_HOST" "$LAB_IP"
	"$RD" "$@" || echo "(exit $?)"
}
peer_ready
show dev show
show link show
show -j link show
has gid && show gid show
has link && "$RD" link help | grep -q 'link check' && show link check
has qp && show qp show
has counter && show counter show
if has path; then
	peer_run_bg "$RD" path serve >/dev/null
	sleep 2
	show path test peer "$LAB_PEER_IP" --timeout 60
fi
printf '\n\033[1mon host b:\033[0m\n'
peer_run "$RD link show"
exit 0
SCRIPT
)
exec tests/lab/lab.sh run2-agent --timeout 900 bash -c "$demo_a"
