# Shared setup of the host bats tests: the binary under test and bats-assert.
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

RDMADIAG=${RDMADIAG_BIN:-$BATS_TEST_DIRNAME/../../rdmadiag/rdmadiag}
FIXTURES=$BATS_TEST_DIRNAME/../fixtures

rd() {
	"$RDMADIAG" "$@"
}

# True when this kernel has RDMA netlink (the lab, or a real RDMA host).
host_has_rdma() {
	[ -d /sys/class/infiniband ] || grep -qw ib_core /proc/modules 2>/dev/null
}
