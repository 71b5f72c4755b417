#!/usr/bin/env bats
# contrib/: the shell scripts are shellcheck clean, the systemd units pass
# systemd-analyze verify (with ExecStart= pointing at this build and the man
# pages of Documentation/), and the textfile writer replaces its files
# atomically and keeps the old ones when rdmadiag cannot run.

load helpers
bats_require_minimum_version 1.5.0

CONTRIB=$BATS_TEST_DIRNAME/../../contrib

@test "contrib shell scripts are shellcheck clean" {
	run shellcheck "$CONTRIB"/*/*.sh
	assert_success
}

@test "contrib systemd units pass systemd-analyze verify" {
	command -v systemd-analyze >/dev/null || skip "systemd-analyze missing: scripts/install-deps.sh test"
	d="$BATS_TEST_TMPDIR/units"
	mkdir -p "$d/man/man8"
	cp "$BATS_TEST_DIRNAME"/../../Documentation/*.8 "$d/man/man8/"
	for u in "$CONTRIB"/*/*.service "$CONTRIB"/*/*.timer; do
		sed -e "s|/usr/sbin/rdmadiag|$RDMADIAG|g" \
			-e "s|/usr/share/rdmadiag/contrib/|$CONTRIB/prometheus/|g" "$u" >"$d/${u##*/}"
	done
	cd "$d"
	run env MANPATH="$d/man" systemd-analyze verify ./*.service ./*.timer
	echo "$output"
	assert_success
	assert_output ""
	# the hardening the unit promises is really there
	run grep -E '^(Restart=on-failure|LimitMEMLOCK=infinity|ProtectSystem=strict|PrivateTmp=yes|NoNewPrivileges=yes|DeviceAllow=char-infiniband_verbs rw|RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6 AF_IB)$' \
		"$d/rdmadiag-path-serve.service"
	[ "${#lines[@]}" = 7 ]
}

@test "textfile writer: atomic replace, old file kept when rdmadiag cannot run" {
	dir="$BATS_TEST_TMPDIR/textfile"
	mkdir -p "$dir"
	fake="$BATS_TEST_TMPDIR/fake-rdmadiag"
	# a stand-in with rdmadiag's exit codes: 1 (a check failed) still writes
	printf '#!/bin/sh\necho "# HELP x y"\necho "rdmadiag_fake{cmd=\\"$1\\"} 1"\nexit ${FAKE_RC:-1}\n' >"$fake"
	chmod +x "$fake"
	RDMADIAG=$fake run "$CONTRIB/prometheus/rdmadiag-textfile.sh" "$dir"
	assert_success
	run cat "$dir/rdmadiag_link.prom" "$dir/rdmadiag_counters.prom"
	assert_line 'rdmadiag_fake{cmd="link"} 1'
	assert_line 'rdmadiag_fake{cmd="counter"} 1'
	[ "$(stat -c %a "$dir/rdmadiag_link.prom")" = 644 ]
	FAKE_RC=3 RDMADIAG=$fake run "$CONTRIB/prometheus/rdmadiag-textfile.sh" "$dir"
	assert_failure 3
	assert_output --partial "exited 3; $dir/rdmadiag_link.prom left as it was"
	run cat "$dir/rdmadiag_link.prom"
	assert_line 'rdmadiag_fake{cmd="link"} 1'
	run ls -A "$dir"
	assert_output "$(printf 'rdmadiag_counters.prom\nrdmadiag_link.prom')"
}

@test "the real link check feeds the textfile writer (replayed lab fixture)" {
	dir="$BATS_TEST_TMPDIR/textfile"
	mkdir -p "$dir"
	wrapper="$BATS_TEST_TMPDIR/rd-replay"
	printf '#!/bin/sh\nexec "%s" --replay "%s" "$@"\n' "$RDMADIAG" "$FIXTURES/lab-rxe" >"$wrapper"
	chmod +x "$wrapper"
	RDMADIAG=$wrapper run "$CONTRIB/prometheus/rdmadiag-textfile.sh" "$dir"
	run grep -c '^rdmadiag_' "$dir/rdmadiag_link.prom"
	[ "$output" -gt 5 ]
}
