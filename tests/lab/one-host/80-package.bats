#!/usr/bin/env bats
# The Debian package installed for real (dpkg -i, dependencies checked) on a
# host with an RDMA stack: the lab VM, whose root is the host's root under a
# tmpfs overlay, so the install leaves the host untouched. The .deb is the one
# tests/host/package.bats built (scripts/build-deb.sh -> build/deb-src/); the
# host suite runs before the lab in tests/run-all.sh.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
bats_require_minimum_version 1.5.0

setup_file() {
	[ "${LAB:-}" = 1 ] || skip "lab only"
	DEB=$(ls build/deb-src/rdmadiag_*_amd64.deb 2>/dev/null | head -1)
	export DEB
}

setup() {
	[ "${LAB:-}" = 1 ] || skip "lab only"
	[ -n "$DEB" ] || skip "no package built: run scripts/build-deb.sh (tests/host/package.bats does) first"
}

teardown_file() {
	dpkg -r rdmadiag >/dev/null 2>&1 || true
}

@test "dpkg -i installs the package with its dependencies satisfied; the installed binary checks the live port" {
	# --no-triggers: man-db's index rebuild takes minutes under TCG; man reads
	# the page without the index
	run dpkg -i --no-triggers "$DEB"
	assert_success
	run dpkg-query -W -f '${Status} ${Version}\n' rdmadiag
	assert_output --regexp '^install ok (installed|triggers-pending) [0-9.]+'
	[ "$(command -v rdmadiag)" = /usr/sbin/rdmadiag ]
	run /usr/sbin/rdmadiag -V
	assert_success
	assert_output --regexp '^rdmadiag [0-9.]+ \(output schema [0-9]+\)$'
	run bash -c 'MANWIDTH=80 man rdmadiag 2>/dev/null | head -20'
	assert_output --regexp 'rdmadiag +- tell whether'
	run bash -c 'MANWIDTH=80 man 8 rdmadiag-link 2>/dev/null'
	assert_output --partial 'port.state'
	# the packaged binary against the real rxe device, as an admin would run it
	run /usr/sbin/rdmadiag -j link check --only port.state,netdev.up "$LAB_RXE/1"
	assert_success
	assert_output --partial '"id":"port.state","subject":"'"$LAB_RXE"'/1"'
	[ -f /usr/share/bash-completion/completions/rdmadiag ]
	[ -f /usr/share/zsh/vendor-completions/_rdmadiag ]
}

@test "dpkg -r removes every file the package installed" {
	dpkg -i --no-triggers "$DEB" >/dev/null
	files=$(dpkg -L rdmadiag | while read -r f; do [ -f "$f" ] && echo "$f"; done)
	[ -n "$files" ]
	run dpkg -r --no-triggers rdmadiag
	assert_success
	for f in $files; do
		[ ! -e "$f" ] || fail "$f is still there after dpkg -r"
	done
	run command -v rdmadiag
	assert_failure
}
