#!/bin/sh
# All-pairs RDMA test of a set of nodes, then one merged answer.
#
#   all-pairs.sh clush 'node[001-064]' peers.txt /shared/rdma-pairs
#   all-pairs.sh srun  64              peers.txt /shared/rdma-pairs   (inside salloc -N64)
#
# peers.txt: the nodes' IP addresses on the RDMA network, one a line. OUTDIR
# must be on a file system every node sees. Steps:
#   1. path serve on every node (the systemd unit of contrib/systemd, or a
#      background serve that ends with the job),
#   2. each node tests all the others, rotated (rdmadiag-pairs-node.sh), and
#      writes OUTDIR/HOST.json,
#   3. rdmadiag report merge OUTDIR: worst nodes and pairs first, the matrix.
# Extra arguments go to path test (e.g. --tests lat,write --duration 2).
set -u

[ $# -ge 4 ] || {
	echo "usage: $0 clush NODESET|srun NNODES PEERS OUTDIR [path test options...]" >&2
	exit 2
}
launcher=$1 nodes=$2 peers=$3 out=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
rd=${RDMADIAG:-rdmadiag}
mkdir -p "$out" || exit 4

case $launcher in
clush)
	clush -w "$nodes" -b 'systemctl start rdmadiag-path-serve' || exit 4
	clush -w "$nodes" -b "RDMADIAG=$rd $here/rdmadiag-pairs-node.sh $peers $out $*"
	;;
srun)
	# A serve per node for the length of the job step, then the tests.
	srun -N "$nodes" --ntasks-per-node=1 sh -c "$rd path serve --max-sessions 8 >/dev/null 2>&1 &
		sleep 5; RDMADIAG=$rd $here/rdmadiag-pairs-node.sh $peers $out $*; rc=\$?; kill %1; exit \$rc"
	;;
*)
	echo "$0: launcher must be clush or srun, not '$launcher'" >&2
	exit 2
	;;
esac
# Failed pairs make the tests exit 1; the merge is the answer either way.
"$rd" report merge "$out"
