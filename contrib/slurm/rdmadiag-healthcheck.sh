#!/bin/sh
# Slurm HealthCheckProgram: drains this node when its RDMA stack is broken.
#
# slurm.conf:
#   HealthCheckProgram=/usr/share/rdmadiag/contrib/rdmadiag-healthcheck.sh
#   HealthCheckInterval=300
#   HealthCheckNodeState=IDLE        # or ANY; a quick check takes about a second
#
# It runs `rdmadiag system check --quick` (device, resource and counter layers;
# no bandwidth stages) and acts on its exit code (rdmadiag(8)):
#   0  healthy: if this script drained the node earlier (reason starts with
#      "rdmadiag:"), resume it; a drain set by anyone else is left alone
#   1  a check failed: drain with "rdmadiag: " and the check to fix first
#      ("rdmadiag: kernel.modules on host (device layer, link check)")
#   3  this host cannot run RDMA at all (no RDMA core or device): drain
#   2, 4 or other: rdmadiag itself could not run (wrong version, bug): log it,
#      do not drain, so a broken tool does not empty the cluster
# The script always exits 0: slurmd only needs it to act, not to fail.
set -u

rd=${RDMADIAG:-/usr/sbin/rdmadiag}
node=${SLURMD_NODENAME:-$(hostname -s)}
tag=rdmadiag-healthcheck

log() {
	logger -t "$tag" -- "$*" 2>/dev/null || echo "$tag: $*" >&2
}

# The reason Slurm shows for the node, empty when none.
current_reason() {
	scontrol show node "$node" 2>/dev/null | sed -n 's/^ *Reason=\(.*\) \[.*$/\1/p; s/^ *Reason=\(.*\)$/\1/p' |
		head -n 1
}

# What to name in the drain reason: the check id, subject and layer of system
# check's "fix first: the device layer (link check): kernel.modules on host"
# line, else the first failing finding, cut to fit a Slurm reason.
first_finding() {
	{
		printf '%s\n' "$1" | sed -n 's/^fix first: the \([a-z]*\) layer (\(.*\)): \(.*\)$/\3 (\1 layer, \2)/p'
		printf '%s\n' "$1" | sed -n 's/^FAIL[[:space:]]\{1,\}/FAIL: /p'
	} | head -n 1 | tr -s ' \t' '  ' | cut -c 1-120
}

out=$("$rd" --color never system check --quick 2>&1)
rc=$?
case $rc in
0)
	case $(current_reason) in
	rdmadiag:*)
		log "node $node healthy again: resuming"
		scontrol update NodeName="$node" State=RESUME
		;;
	esac
	;;
1 | 3)
	finding=$(first_finding "$out")
	[ -n "$finding" ] || finding="system check exited $rc"
	log "draining $node: $finding"
	scontrol update NodeName="$node" State=DRAIN Reason="rdmadiag: $finding"
	;;
*)
	log "rdmadiag could not run (exit $rc), node left as it is: $(printf '%s\n' "$out" | head -n 3)"
	;;
esac
exit 0
