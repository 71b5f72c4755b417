#!/usr/bin/env bats
# link check's kernel.modules on replayed hosts: loadable modules (the
# hand-made mlx5-pcie), and a real host that builds the RDMA core into its
# kernel (builtin-h200, from /work/shared/fixtures/real-h200-host), where
# ib_uverbs, rdma_cm and rdma_ucm have no /sys/module entry. A variant of a
# fixture is a copy with files taken out or put in, as on a host in that state.

bats_require_minimum_version 1.5.0
load helpers

H200=$FIXTURES/builtin-h200

km() { # km FIXTURE: kernel.modules replayed, JSON of that one check
	run --separate-stderr rd --replay "$1" -j link check --only kernel.modules
	check=$(jq -c '.checks[0]' <<<"$output")
}

field() {
	jq -r ".$1" <<<"$check"
}

variant() { # variant FIXTURE: a writable copy in $V
	V=$BATS_TEST_TMPDIR/v
	rm -rf "$V"
	cp -r "$1" "$V"
}

@test "built-in RDMA core (real H200 host): kernel.modules passes, naming what showed each module is there" {
	km "$H200"
	assert_success
	[ "$(field verdict)" = pass ]
	[ "$(field measured)" = "built in: ib_core ib_uverbs rdma_cm rdma_ucm (/sys/module/ib_core, /sys/class/infiniband_verbs, /sys/class/misc/rdma_cm)" ]
	# the whole run: only kernel.rdma (no device there) fails
	run --separate-stderr rd --replay "$H200" -j link check
	assert_failure 1
	jq -e '[.checks[] | select(.verdict == "fail") | .id] == ["kernel.rdma"]' <<<"$output"
}

@test "built-in rdma_ucm seen through /dev/infiniband/rdma_cm opening when /sys/class/misc is not there" {
	variant "$H200"
	rm -r "$V/fs/sys/class/misc"
	mkdir -p "$V/probe/dev/infiniband"
	echo 0 >"$V/probe/dev/infiniband/rdma_cm"
	km "$V"
	assert_success
	[ "$(field measured)" = "built in: ib_core ib_uverbs rdma_cm rdma_ucm (/sys/module/ib_core, /sys/class/infiniband_verbs, /dev/infiniband/rdma_cm)" ]
	# a node that exists but does not open (no driver behind it) is no sign
	echo 6 >"$V/probe/dev/infiniband/rdma_cm"
	km "$V"
	assert_failure 1
	[ "$(field verdict)" = fail ]
}

@test "no ib_uverbs on a kernel without /lib/modules fails, saying there is no module directory" {
	variant "$H200"
	rm -r "$V/fs/sys/class/infiniband_verbs"
	mkdir -p "$V/kmod"
	echo "no-dir /lib/modules/6.18.44-fc-v1252-gpu" >"$V/kmod/ib_uverbs"
	km "$V"
	assert_failure 1
	[ "$(field verdict)" = fail ]
	[ "$(field measured)" = "not loaded: ib_uverbs" ]
	field hint | grep -q '^ib_uverbs: not in this kernel, which has no module directory (/lib/modules): install'
}

@test "cannot tell (no sign, no module directory for libkmod): a warning with the reason, never a failure" {
	variant "$H200"
	rm -r "$V/fs/sys/class/misc"
	# rdma_ucm loaded as a module, but its misc device not seen: nothing says rdma_cm is there
	mkdir -p "$V/fs/sys/module/rdma_ucm" "$V/kmod"
	echo live >"$V/fs/sys/module/rdma_ucm/initstate"
	echo "no-dir /lib/modules/6.18.44-fc-v1252-gpu" >"$V/kmod/rdma_cm"
	km "$V"
	assert_success
	[ "$(field verdict)" = warn ]
	field measured | grep -q '^cannot tell whether rdma_cm is in the kernel: no sign of it in sysfs and no /lib/modules/6.18.44-fc-v1252-gpu for libkmod to read; loaded: rdma_ucm; built in: ib_core ib_uverbs'
	echo "no-lib /lib/modules/6.18.44-fc-v1252-gpu" >"$V/kmod/rdma_cm"
	km "$V"
	assert_success
	field measured | grep -q 'and libkmod.so.2 cannot be opened'
}

@test "loadable modules: a module really missing still fails with the modprobe command" {
	variant "$FIXTURES/mlx5-pcie"
	km "$V"
	assert_success
	[ "$(field measured)" = "loaded: ib_core ib_uverbs rdma_cm rdma_ucm mlx5_ib" ]
	# rdma_ucm unloaded: its /sys/module entry and its device node go
	rm -r "$V/fs/sys/module/rdma_ucm" "$V/fs/dev/infiniband/rdma_cm"
	km "$V"
	assert_failure 1
	[ "$(field verdict)" = fail ]
	[ "$(field measured)" = "not loaded: rdma_ucm" ]
	field hint | grep -q '^modprobe -a rdma_ucm '
	# recorded by libkmod: not installed for this kernel
	mkdir -p "$V/kmod"
	echo "not-found /lib/modules/6.1.0" >"$V/kmod/rdma_ucm"
	km "$V"
	[ "$(field verdict)" = fail ]
	field hint | grep -q '^rdma_ucm not found for this kernel: install its modules package'
	# recorded by libkmod: in modules.builtin
	echo "builtin /lib/modules/6.1.0" >"$V/kmod/rdma_ucm"
	km "$V"
	assert_success
	[ "$(field measured)" = "loaded: ib_core ib_uverbs rdma_cm mlx5_ib; built in: rdma_ucm (modules.builtin)" ]
}

@test "a device's driver without a /sys/module entry is built in: its device exists" {
	variant "$FIXTURES/mlx5-pcie"
	rm -r "$V/fs/sys/module/mlx5_ib"
	km "$V"
	assert_success
	[ "$(field measured)" = "loaded: ib_core ib_uverbs rdma_cm rdma_ucm; built in: mlx5_ib (its device)" ]
}
