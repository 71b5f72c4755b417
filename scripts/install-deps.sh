#!/bin/sh
# Install the Debian packages that building, testing and the Soft-RoCE lab need.
# Usage: scripts/install-deps.sh [build|test|lab|all]   (default: all)
# As root it runs apt-get; otherwise it prints the exact command to run.
set -eu

BUILD_PKGS="gcc make pkg-config libmnl-dev libibverbs-dev librdmacm-dev libkmod-dev linux-libc-dev"
TEST_PKGS="strace time bats bats-assert bats-support jq python3-prometheus-client groff-base man-db shellcheck bash-completion zsh dpkg-dev debhelper clang libclang-rt-14-dev valgrind systemd prometheus prometheus-node-exporter curl munge slurmctld slurmd slurm-client librsvg2-bin python3-jsonschema"
LAB_PKGS="qemu-system-x86 busybox-static cpio kmod iproute2 rdma-core ibverbs-utils ibverbs-providers rdmacm-utils perftest iptables ethtool pciutils procps iputils-ping"

what=${1:-all}
case "$what" in
build) want="$BUILD_PKGS" ;;
test) want="$BUILD_PKGS $TEST_PKGS" ;;
lab | all) want="$BUILD_PKGS $TEST_PKGS $LAB_PKGS" ;;
*)
	echo "install-deps: unknown set '$what' (expected build, test, lab or all)" >&2
	exit 2
	;;
esac

missing=""
for p in $want; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing Debian packages:$missing" >&2
	echo "install-deps: run as root: apt-get update && apt-get install -y --no-install-recommends$missing" >&2
	exit 3
fi
echo "install-deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may have stale or no package lists.
apt-get update -qq >/dev/null || apt-get update
apt-get install -y -qq --no-install-recommends $missing >/dev/null
