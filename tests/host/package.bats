#!/usr/bin/env bats
# Packaging: `make install`/`make uninstall` with DESTDIR, and the Debian package
# built by scripts/build-deb.sh, unpacked into a scratch root and run from there.

load helpers

REPO=$BATS_TEST_DIRNAME/../..

# The files `make install` must put under PREFIX.
installed_files() {
	echo sbin/rdmadiag
	for p in "$REPO"/Documentation/*.8; do echo "share/man/man8/$(basename "$p")"; done
	echo share/bash-completion/completions/rdmadiag
	echo share/zsh/vendor-completions/_rdmadiag
	for p in "$REPO"/Documentation/json/*.schema.json; do echo "share/doc/rdmadiag/json/$(basename "$p")"; done
}

@test "make install honours DESTDIR and PREFIX; make uninstall removes it all" {
	local root=$BATS_TEST_TMPDIR/root f
	# -o: install the binary as built, never rebuild it with other flags here
	run make -C "$REPO" -s -o rdmadiag/rdmadiag install DESTDIR="$root" PREFIX=/usr
	assert_success
	for f in $(installed_files); do
		[ -f "$root/usr/$f" ] || fail "make install did not create /usr/$f"
	done
	[ -x "$root/usr/sbin/rdmadiag" ]
	run "$root/usr/sbin/rdmadiag" -V
	assert_success
	assert_output --partial 'rdmadiag '
	run bash -c 'MANWIDTH=80 man -l "$1" 2>&1 | head -5' _ "$root/usr/share/man/man8/rdmadiag.8"
	assert_output --regexp 'rdmadiag +- tell whether'
	# the .so stubs (cq, mr, pd, cm, srq) resolve in the installed tree
	run bash -c 'cd "$1" && MANWIDTH=80 man --warnings -l man8/rdmadiag-cq.8 2>&1 | head -5' _ "$root/usr/share/man"
	assert_output --regexp 'rdmadiag-res +- RDMA resources'
	run make -C "$REPO" -s -o rdmadiag/rdmadiag uninstall DESTDIR="$root" PREFIX=/usr
	assert_success
	run find "$root" -type f
	assert_output ''
}

@test "the Debian package builds, has library dependencies, and runs from a scratch root" {
	command -v dh >/dev/null || skip "debhelper is not installed (scripts/install-deps.sh test)"
	cd "$REPO"
	DEB_BUILD_OPTIONS="noddebs parallel=2" run scripts/build-deb.sh
	assert_success
	local deb=${lines[-1]} root=$BATS_TEST_TMPDIR/debroot
	[ -f "$deb" ]
	[[ $deb == build/deb-src/* ]]	# nothing written outside the tree
	run dpkg-deb -f "$deb" Depends
	assert_output --partial 'libibverbs1'
	assert_output --partial 'libmnl0'
	run dpkg-deb -f "$deb" Package Version
	assert_line 'Package: rdmadiag'
	dpkg -x "$deb" "$root"
	run "$root/usr/sbin/rdmadiag" -V
	assert_success
	assert_output --regexp '^rdmadiag [0-9.]+ \(output schema [0-9]+\)$'
	run bash -c 'MANWIDTH=80 man -l "$1" 2>/dev/null' _ "$root/usr/share/man/man8/rdmadiag.8.gz"
	assert_success
	assert_output --partial 'EXIT STATUS'
	# dh_installman turns the .so stubs into symlinks to rdmadiag-res.8.gz
	for obj in cq mr pd cm srq; do
		[ "$(readlink "$root/usr/share/man/man8/rdmadiag-$obj.8.gz")" = rdmadiag-res.8.gz ] ||
			fail "the package's rdmadiag-$obj.8.gz is not a link to rdmadiag-res.8.gz"
	done
	run bash -c 'MANWIDTH=80 man -l "$1" 2>/dev/null | head -5' _ "$root/usr/share/man/man8/rdmadiag-srq.8.gz"
	assert_output --regexp 'rdmadiag-res +- RDMA resources'
	[ -f "$root/usr/share/bash-completion/completions/rdmadiag" ]
	[ -f "$root/usr/share/zsh/vendor-completions/_rdmadiag" ]
	# the JSON Schemas, uncompressed (they refer to each other by file name),
	# check what the packaged binary prints
	for f in "$REPO"/Documentation/json/*.schema.json; do
		cmp "$f" "$root/usr/share/doc/rdmadiag/json/$(basename "$f")" || fail "the package lacks $(basename "$f") as it is"
	done
	run bash -c '"$1/usr/sbin/rdmadiag" --replay "$2" -j link check | "$3" "$1/usr/share/doc/rdmadiag/json/link-check.schema.json"' \
		_ "$root" "$FIXTURES/dgx-h100" "$BATS_TEST_DIRNAME/../tools/json-validate.py"
	assert_success
	# the packaged completion works with the packaged binary
	run env PATH="$root/usr/sbin:$PATH" bash -c 'source /usr/share/bash-completion/bash_completion
		source "$1"; COMP_WORDS=(rdmadiag li); COMP_CWORD=1; COMP_LINE="rdmadiag li"; COMP_POINT=11
		_rdmadiag; printf "%s\n" "${COMPREPLY[@]}"' _ "$root/usr/share/bash-completion/completions/rdmadiag"
	assert_output 'link'
}
