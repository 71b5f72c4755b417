#!/usr/bin/env bats
# system snapshot and --snapshot FILE on the host (no RDMA). The fixture
# tests/fixtures/snapshot-lab was taken in the lab (tests/fixtures/record-snapshot.sh)
# with what every command printed there live; SNAPSHOT_LAB_DIR may name a
# fresh one (tests/lab/one-host/75-snapshot.bats leaves one in its run dir).

load helpers
bats_require_minimum_version 1.5.0

SNAP=${SNAPSHOT_LAB_DIR:-$FIXTURES/snapshot-lab}

# A snapshot of this host (no RDMA: every command fails the way it does live)
# for the tests of damaged files, which need no lab.
setup_file() {
	"$RDMADIAG" system snapshot -o "$BATS_FILE_TMPDIR/h.tar" --interval 0.2 >/dev/null
}

setup() {
	export TMPDIR=$BATS_TEST_TMPDIR/tmp
	mkdir -p "$TMPDIR"
	H=$BATS_FILE_TMPDIR/h.tar
}

need_lab_snapshot() {
	[ -f "$SNAP/snapshot.tar" ] || skip "no lab snapshot in $SNAP (record one: tests/fixtures/record-snapshot.sh)"
}

# The unpack directory is gone after every run.
assert_no_leftovers() {
	run ls -A "$TMPDIR"
	assert_output ""
}

@test "lab snapshot: every command prints on this host what it printed live in the lab (stdout, stderr, exit code)" {
	need_lab_snapshot
	run "$BATS_TEST_DIRNAME/../tools/snapshot-compare.sh" "$SNAP"
	assert_success
	assert_output --regexp '^(1[89]|[2-9][0-9]) commands$'
	# the lab host had a working port: the comparison is not between two errors
	grep -q '"state":"active"' "$SNAP"/expected/*.out
	assert_no_leftovers
}

@test "lab snapshot: each recording replays to the JSON its command printed when the snapshot was taken" {
	need_lab_snapshot
	mkdir "$BATS_TEST_TMPDIR/x"
	tar -xf "$SNAP/snapshot.tar" -C "$BATS_TEST_TMPDIR/x"
	n=0
	while read -r _ slug rc object action; do
		run -"$rc" rd --snapshot "$SNAP/snapshot.tar" -d -j "$object" "$action"
		assert_equal "$output" "$(cat "$BATS_TEST_TMPDIR/x/out/$slug.json")"
		n=$((n + 1))
	done < <(grep '^command ' "$BATS_TEST_TMPDIR/x/MANIFEST")
	[ "$n" -ge 7 ]
	# counter check saw two samples: the recording has a second generation and the clock
	ls "$BATS_TEST_TMPDIR"/x/rec/counter-check/netlink/*~2 >/dev/null
	grep -c '^mono ' "$BATS_TEST_TMPDIR/x/rec/counter-check/clock"
}

@test "lab snapshot: MANIFEST first, any tar lists it, host inventory has kernel, modules, netdev, PCIe" {
	need_lab_snapshot
	run tar -tf "$SNAP/snapshot.tar"
	assert_success
	assert_line --index 0 MANIFEST
	run tar -xOf "$SNAP/snapshot.tar" host.txt
	assert_line --regexp '^kernel Linux [0-9]'
	assert_line --regexp '^libibverbs libibverbs\.so\.1\.'
	assert_line --regexp '^modules [1-9][0-9]* loaded'
	assert_line --regexp '^netdev rxenet0 mac ([0-9a-f]{2}:){5}[0-9a-f]{2} mtu 1500 state '
	assert_line 'address rxenet0 192.168.77.1/24'
	assert_line 'pcie rxe0 none'
	run tar -xOf "$SNAP/snapshot.tar" rec/host/fs/proc/modules
	assert_output --partial rdma_rxe
}

# Every form of the lab's identities: text as sysfs/inet_ntop print them, and raw bytes.
lab_identities() {
	local x=$BATS_TEST_TMPDIR/ids
	mkdir -p "$x"
	tar -xf "$SNAP/snapshot.tar" -C "$x"
	cat "$SNAP/hostname"
	echo 192.168.77.1
	cat "$x"/rec/host/fs/sys/class/net/rxenet0/address
	cat "$x"/rec/host/fs/sys/class/infiniband/rxe0/node_guid
	# the non-zero GIDs of the port
	grep -hv '^0000:0000:0000:0000:0000:0000:0000:0000$' "$x"/rec/gid-show/fs/sys/class/infiniband/rxe0/ports/1/gids/[0-9]* | sort -u
}

@test "lab snapshot --redact: no address, GID, GUID, MAC or host name of the lab is left, in text or bytes" {
	need_lab_snapshot
	ids=$(lab_identities)
	[ "$(wc -l <<<"$ids")" -ge 6 ]
	# shellcheck disable=SC2086 # one identity a word
	run "$BATS_TEST_DIRNAME/../tools/snapshot-leaks.py" "$SNAP/snapshot-redacted.tar" "$SNAP/snapshot.tar" $ids
	assert_success
	assert_output ""
	run grep -a -c '192\.168\.77\.' "$SNAP/snapshot-redacted.tar"
	assert_output 0
}

@test "lab snapshot --redact: placeholders are consistent and still parse: every command replays with the live exit code" {
	need_lab_snapshot
	run rd --snapshot "$SNAP/snapshot-redacted.tar" -j link show
	assert_success
	assert_output --partial '"netdev":"rxenet0"'
	run rd --snapshot "$SNAP/snapshot-redacted.tar" -j gid show
	assert_success
	assert_output --partial '"ip":"10.0.0.1"'
	# the MAC's placeholder and the link-local GID built from it agree
	mac=$(tar -xOf "$SNAP/snapshot-redacted.tar" rec/host/fs/sys/class/net/rxenet0/address)
	assert_equal "$mac" 02:00:00:00:00:01
	assert_output --partial '"ip":"fe80::ff:fe00:1"'
	run tar -xOf "$SNAP/snapshot-redacted.tar" MANIFEST
	assert_line 'redacted yes'
	assert_line 'host host-1'
	for cmd in "$SNAP"/expected/*.cmd; do
		# shellcheck disable=SC2046
		run rd --snapshot "$SNAP/snapshot-redacted.tar" $(cat "$cmd")
		[ "$status" = "$(cat "${cmd%.cmd}.rc")" ] || { echo "'$(cat "$cmd")': $status"; false; }
	done
}

# ---- damaged snapshots ----

copy_snap() {
	cp "$H" "$BATS_TEST_TMPDIR/s.tar"
	chmod u+w "$BATS_TEST_TMPDIR/s.tar"
}

@test "a truncated snapshot is refused (exit 3), nothing is left unpacked" {
	copy_snap
	size=$(stat -c %s "$BATS_TEST_TMPDIR/s.tar")
	for cut in 100 5000 $((size / 2)) $((size - 1024)); do
		head -c "$cut" "$BATS_TEST_TMPDIR/s.tar" > "$BATS_TEST_TMPDIR/t.tar"
		run -3 rd --snapshot "$BATS_TEST_TMPDIR/t.tar" link check
		assert_output --regexp "cannot use snapshot .*(truncated|no end line)"
		assert_output --partial "next:"
	done
	assert_no_leftovers
}

@test "a changed byte in a member is refused as a checksum mismatch (exit 3)" {
	copy_snap
	# change the first byte of host.txt's data
	off=$(python3 -c 'import sys, tarfile; print(tarfile.open(sys.argv[1]).getmember("host.txt").offset_data)' "$BATS_TEST_TMPDIR/s.tar")
	printf 'X' | dd of="$BATS_TEST_TMPDIR/s.tar" bs=1 seek="$off" conv=notrunc status=none
	run -3 rd --snapshot "$BATS_TEST_TMPDIR/s.tar" dev show
	assert_output --partial "checksum mismatch for 'host.txt'"
	assert_no_leftovers
}

@test "a changed MANIFEST or a damaged tar header is refused (exit 3)" {
	copy_snap
	off=$(grep -abo 'created_by rdmadiag' "$BATS_TEST_TMPDIR/s.tar" | head -1 | cut -d: -f1)
	printf 'C' | dd of="$BATS_TEST_TMPDIR/s.tar" bs=1 seek="$off" conv=notrunc status=none
	run -3 rd --snapshot "$BATS_TEST_TMPDIR/s.tar" dev show
	assert_output --partial "the MANIFEST checksum does not match"
	copy_snap
	printf 'Z' | dd of="$BATS_TEST_TMPDIR/s.tar" bs=1 seek=100 conv=notrunc status=none	# mode field of MANIFEST
	run -3 rd --snapshot "$BATS_TEST_TMPDIR/s.tar" dev show
	assert_output --partial "not an rdmadiag snapshot (a tar header is damaged"
	echo "hello" > "$BATS_TEST_TMPDIR/plain.txt"
	run -3 rd --snapshot "$BATS_TEST_TMPDIR/plain.txt" dev show
	assert_output --partial "not an rdmadiag snapshot"
}

# Rebuilds the fixture with python's tarfile: MANIFEST text edited by sed
# expression $1, its end line recomputed; extra member $2 (name) if given.
rebuild() {
	python3 - "$H" "$BATS_TEST_TMPDIR/s.tar" "$1" "${2:-}" <<'EOF'
import hashlib, io, re, subprocess, sys, tarfile
src, dst, sedexpr, extra = sys.argv[1:5]
tin = tarfile.open(src)
members = [(m, tin.extractfile(m).read()) for m in tin.getmembers()]
man = members[0][1].decode()
body = man[:man.index('\nend ') + 1]
body = subprocess.run(['sed', '-e', sedexpr], input=body, capture_output=True, text=True, check=True).stdout
if extra:
    data = b'evil\n'
    body += 'file %s %d %s\n' % (hashlib.sha256(data).hexdigest(), len(data), extra)
man = body + 'end ' + hashlib.sha256(body.encode()).hexdigest() + '\n'
out = tarfile.open(dst, 'w', format=tarfile.GNU_FORMAT)
def add(name, data):
    ti = tarfile.TarInfo(name); ti.size = len(data); out.addfile(ti, io.BytesIO(data))
add('MANIFEST', man.encode())
for m, data in members[1:]:
    add(m.name, data)
if extra:
    add(extra, b'evil\n')
out.close()
EOF
}

@test "a snapshot of a newer schema is refused with the versions named (exit 3); unknown keys of this schema are accepted" {
	rebuild 's/^rdmadiag-snapshot 1$/rdmadiag-snapshot 2/'
	run -3 rd --snapshot "$BATS_TEST_TMPDIR/s.tar" link check
	assert_output --partial "snapshot schema 2, made by a newer rdmadiag; this one (0.1.0) reads schema 1"
	assert_output --partial "replay it with a newer rdmadiag"
	rebuild 's/^rdmadiag-snapshot 1$/rdmadiag-snapshot 1\nfuture_key something new/'
	run -3 rd --snapshot "$BATS_TEST_TMPDIR/s.tar" -j dev show
	assert_output "$(rd -j dev show 2>&1)"
}

@test "member names with .. or an absolute path are refused before anything is written outside (exit 3)" {
	for name in ../evil rec/../../evil /tmp/evil rec//x; do
		rebuild 's/^x$/x/' "$name"
		run -3 rd --snapshot "$BATS_TEST_TMPDIR/s.tar" dev show
		assert_output --regexp "cannot use snapshot .*(unsafe|malformed)"
	done
	[ ! -e "$BATS_TEST_TMPDIR/evil" ] && [ ! -e /tmp/evil ]
	# a member the MANIFEST does not list
	python3 - "$H" "$BATS_TEST_TMPDIR/s.tar" <<'EOF'
import io, sys, tarfile
tin = tarfile.open(sys.argv[1]); out = tarfile.open(sys.argv[2], 'w', format=tarfile.USTAR_FORMAT)
for m in tin.getmembers():
    out.addfile(m, tin.extractfile(m))
ti = tarfile.TarInfo('rec/extra'); ti.size = 1; out.addfile(ti, io.BytesIO(b'x')); out.close()
EOF
	run -3 rd --snapshot "$BATS_TEST_TMPDIR/s.tar" dev show
	assert_output --partial "member 'rec/extra' is not listed in the MANIFEST (tampered)"
	assert_no_leftovers
}

@test "--snapshot: commands it has no recording for, --replay with it, and taking a snapshot from one are usage errors" {
	run -2 rd --snapshot "$H" res show
	assert_output --partial "it has no recording for 'res show'"
	assert_output --partial "replay one of the commands it holds: dev show, link show, gid show"
	run -2 rd --snapshot "$H" --replay /tmp dev show
	assert_output --partial "--snapshot cannot be used with --record or --replay"
	run -2 rd --snapshot "$H" system snapshot
	assert_output --partial "cannot take one"
	run -3 rd --snapshot "$BATS_TEST_TMPDIR/missing.tar" dev show
	assert_output --partial "cannot use snapshot '$BATS_TEST_TMPDIR/missing.tar': No such file or directory"
	run -3 rd --snapshot "$BATS_TEST_TMPDIR" dev show
	assert_output --partial "cannot use snapshot '$BATS_TEST_TMPDIR': it is a directory"
	# prefixes and hidden aliases pick the same recording
	run -3 rd --snapshot "$H" -j d sh
	assert_output "$(rd -j dev show 2>&1)"
	assert_no_leftovers
}

@test "--snapshot with help or a wrong word: as without --snapshot (exit 0 or 2), nothing unpacked or left" {
	need_lab_snapshot
	run -0 rd --snapshot "$SNAP/snapshot.tar" link help
	assert_output "$(rd link help)"
	run -0 rd --snapshot "$SNAP/snapshot.tar" link check --help
	assert_output "$(rd link check --help)"
	run -0 rd --snapshot "$SNAP/snapshot.tar" help
	assert_output "$(rd help)"
	run -2 --separate-stderr rd --snapshot "$SNAP/snapshot.tar" link frob
	assert_equal "$stderr" "$(rd link frob 2>&1)"
	run -2 --separate-stderr rd -j --snapshot "$SNAP/snapshot.tar" lnk
	assert_equal "$output" ""
	run -2 rd --snapshot "$SNAP/snapshot.tar" link show --frob
	assert_no_leftovers
}

@test "--snapshot: a damaged snapshot, and a snapshot whose recording cannot be replayed, leave nothing behind" {
	run -3 rd --snapshot "$H" -j dev show
	assert_no_leftovers
	head -c 3000 "$H" >"$BATS_TEST_TMPDIR/cut.tar"
	run -3 rd --snapshot "$BATS_TEST_TMPDIR/cut.tar" dev show
	assert_no_leftovers
}

@test "lab snapshot: a command it holds, in a form it did not run (counter show qp), names the missing reply" {
	run -2 --separate-stderr rd --snapshot "$SNAP/snapshot.tar" counter show qp
	assert_equal "$output" ""
	[[ $stderr == *"the recording has no reply for this request (netlink/"* ]]
	[[ $stderr == *"cause: this command, in this form or with these options, was not what was recorded"* ]]
	[[ $stderr == *"next:  replay it in the form the snapshot ran it: see 'Snapshots' in rdmadiag-system(8)"* ]]
	# the plain form, as recorded, still replays
	run -0 rd --snapshot "$SNAP/snapshot.tar" counter show
	assert_no_leftovers
}

@test "system snapshot on this host (no RDMA): replays print exactly what the commands print live here" {
	run rd -j system snapshot -o "$BATS_TEST_TMPDIR/h.tar" --interval 0.2
	assert_success
	assert_output --regexp '"snapshot":\{"file":".*h.tar","size_bytes":[0-9]+,"files":[0-9]+,"redacted":false\}'
	assert_output --partial '{"command":"link check","exit_code":3}'
	for c in "dev show" "-j link show" "link check" "-j link check" "counter show" "-j qp show"; do
		# shellcheck disable=SC2086
		run --separate-stderr rd $c
		live_out=$output live_err=$stderr live_rc=$status
		# shellcheck disable=SC2086
		run --separate-stderr rd --snapshot "$BATS_TEST_TMPDIR/h.tar" $c
		assert_equal "$output" "$live_out"
		assert_equal "$stderr" "$live_err"
		assert_equal "$status" "$live_rc"
	done
	grep -q 'open-error' <(tar -tf "$BATS_TEST_TMPDIR/h.tar")
	assert_no_leftovers
}

@test "system snapshot: bad options and an unwritable output are refused clearly" {
	run -2 rd system snapshot --interval 0.001 -o "$BATS_TEST_TMPDIR/x.tar"
	assert_output "rdmadiag: --interval: '0.001' is not a number of seconds in 0.01..60"
	run -2 rd system snapshot -o /nonexistent/dir/x.tar --interval 0.1
	assert_output --partial "cannot write the snapshot to '/nonexistent/dir/x.tar'"
	assert_output --partial "cause: its directory does not exist"
	assert_output --partial "next:"
	run -2 rd system snapshot extra -o "$BATS_TEST_TMPDIR/x.tar"
	assert_output "rdmadiag: system snapshot takes no arguments, got 'extra'"
	run -2 rd system snapshot -o "$BATS_TEST_TMPDIR/a.tar" --output "$BATS_TEST_TMPDIR/b.tar"
	assert_output --partial "give the file once"
	[ ! -e "$BATS_TEST_TMPDIR/x.tar" ] && [ ! -e "$BATS_TEST_TMPDIR/a.tar" ] && [ ! -e "$BATS_TEST_TMPDIR/b.tar" ]
	RDMADIAG_REPLAY=$FIXTURES/lab-rxe run -2 rd system snapshot -o "$BATS_TEST_TMPDIR/x.tar"
	assert_output --partial "cannot run under --record, --replay or --snapshot"
	assert_no_leftovers
}

@test "system snapshot -o: never writes through a link or over a device; a planted FILE.tmp is left alone" {
	d=$BATS_TEST_TMPDIR
	echo precious >"$d/victim"
	# the target itself a link, a device, a directory: refused before anything runs
	ln -s "$d/victim" "$d/link.tar"
	run -2 rd system snapshot -o "$d/link.tar"
	assert_output --partial "cause: it is a symbolic link"
	mkfifo "$d/fifo.tar"
	run -2 rd system snapshot -o "$d/fifo.tar"
	assert_output --partial "cause: it is a device or special file"
	[ -p "$d/fifo.tar" ]
	run -2 rd system snapshot -o "$d"
	assert_output --partial "cause: it is a directory"
	# a link planted where the old code put its temporary file
	ln -s "$d/victim" "$d/new.tar.tmp"
	run -0 rd system snapshot -o "$d/new.tar" --interval 0.1
	[ "$(cat "$d/victim")" = precious ]
	[ -L "$d/new.tar.tmp" ]
	tar -tf "$d/new.tar" | grep -qx MANIFEST
	# no temporary file is left beside it
	[ "$(find "$d" -name 'new.tar.*' ! -name new.tar.tmp | wc -l)" -eq 0 ]
	# an existing regular file is replaced, as tar -f does
	echo old >"$d/old.tar"
	run -0 rd system snapshot -o "$d/old.tar" --interval 0.1
	tar -tf "$d/old.tar" | grep -qx MANIFEST
	assert_no_leftovers
}
