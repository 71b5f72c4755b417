#!/usr/bin/env bats
# system check against replayed fixtures: the layers run through the single
# commands' engines, so their verdicts and JSON keys must be the single
# commands' own. The fixture QPS is counter-rxe (recorded in the lab) plus a
# QP dump of tests/tools/gen_res_fixture (100 QPs: one ERR, one INIT, one RTR,
# the generator's own tally), under rxe0's device index.

load helpers
bats_require_minimum_version 1.5.0

GEN=$BATS_TEST_DIRNAME/../tools/gen_res_fixture

setup_file() {
	export QPS=$BATS_FILE_TMPDIR/qps GENDIR=$BATS_FILE_TMPDIR/gen
	cp -r "$FIXTURES/counter-rxe" "$QPS"
	rm -rf "$QPS/expected"
	"$GEN" "$GENDIR" 100 >"$BATS_FILE_TMPDIR/counts"
	cp "$GENDIR/netlink/cmd10-dump-a1=1.bin" "$QPS/netlink/cmd10-dump-a1=0.bin"
	cp -r "$GENDIR/fs/proc" "$QPS/fs/"
	# the node's name, which -j reports carry as "host" for report merge
	mkdir -p "$QPS/fs/proc/sys/kernel"
	echo node17 >"$QPS/fs/proc/sys/kernel/hostname"
}

# count NAME: the generator's tally of NAME
count() {
	tr ' ' '\n' <"$BATS_FILE_TMPDIR/counts" | sed -n "s/^$1=//p"
}

sc() {
	"$RDMADIAG" --replay "$QPS" "$@"
}

@test "text: a line per layer in order, findings with ids and hints, the first failing layer named" {
	run --separate-stderr sc system check --interval 0.05
	assert_failure 1
	[ "${lines[0]%% *}" = device ]
	[ "${lines[1]%% *}" = resource ]
	[ "${lines[2]%% *}" = counter ]
	assert_line --index 0 --regexp '^device +FAIL +link check +3 pass, 0 warn, 4 fail, 13 skip$'
	assert_line --index 1 --regexp "^resource +FAIL +qp watch +0 pass, 0 warn, 3 fail, 0 skip; $(count qps) QPs sampled 0.05 s apart$"
	assert_line --index 2 --regexp '^counter +PASS +counter check +4 pass, 0 warn, 0 fail, 4 skip$'
	assert_line 'device layer (link check):'
	assert_line 'resource layer (qp watch):'
	refute_line 'counter layer (counter check):'
	[ "$(grep -c '^FAIL  qp.broken ' <<<"$output")" -eq "$(count err)" ]
	[ "$(grep -c '^FAIL  qp.stuck ' <<<"$output")" -eq $(($(count init) + $(count rtr))) ]
	assert_line --regexp '^FAIL  qp.stuck +rxe0/1 qp 24 +QP in INIT for '
	assert_line --partial 'hint: the connection never completed'
	assert_line --regexp '^FAIL  netdev.present +rxe0/1 '
	assert_line 'fix first: the device layer (link check): kernel.modules on host'
	# skipped checks are counted, not listed
	refute_line --regexp '^SKIP '
}

@test "-j: every sub-report has the single command's keys, checks and summary" {
	run --separate-stderr sc -j system check --interval 0.05
	assert_failure 1
	sys=$output
	run --separate-stderr sc -j link check
	assert_failure 1
	# the host is the report's, once at the top, as in link check's own
	[ "$(jq -r .host <<<"$output")" = node17 ]
	[ "$(jq -r .host <<<"$sys")" = node17 ]
	[ "$(jq -c '.link_check | keys' <<<"$sys")" = "$(jq -c 'del(.schema, .errors, .host) | keys' <<<"$output")" ]
	[ "$(jq -c '.link_check' <<<"$sys")" = "$(jq -c 'del(.schema, .errors, .host)' <<<"$output")" ]
	run --separate-stderr sc -j counter check --interval 0.05
	assert_success
	[ "$(jq -r .host <<<"$output")" = node17 ]
	[ "$(jq -c '.counter_check | keys' <<<"$sys")" = "$(jq -c 'del(.schema, .errors, .host) | keys' <<<"$output")" ]
	[ "$(jq -c '[.counter_check.checks[] | [.id, .subject, .verdict, keys]]' <<<"$sys")" = \
		"$(jq -c '[.checks[] | [.id, .subject, .verdict, keys]]' <<<"$output")" ]
	[ "$(jq -c '.counter_check.summary' <<<"$sys")" = "$(jq -c '.summary' <<<"$output")" ]
	# the resource layer's events are qp watch's flag lines, key for key
	run --separate-stderr sc -j qp watch --count 2 --interval 0.05 --stuck 0.05
	assert_failure 1
	[ "$(jq -c '[.qp_watch.events[] | [.lqpn, .flag, keys]]' <<<"$sys")" = \
		"$(jq -sc '[.[] | select(.event == "flag") | del(.schema) | [.lqpn, .flag, keys]]' <<<"$output")" ]
	[ "$(jq '.qp_watch.qps' <<<"$sys")" -eq "$(count qps)" ]
	[ "$(jq -c '.qp_watch | keys' <<<"$sys")" = '["checks","events","interval_s","qps","summary"]' ]
}

@test "-j: layers with verdicts and summaries equal to the sub-reports, fix_first, findings" {
	run --separate-stderr sc -j system check --interval 0.05
	assert_failure 1
	jq -e '[.layers[] | .layer] == ["device", "resource", "counter"]' <<<"$output"
	jq -e '[.layers[] | .verdict] == ["fail", "fail", "pass"]' <<<"$output"
	jq -e '.layers[0].summary == .link_check.summary and .layers[2].summary == .counter_check.summary' <<<"$output"
	jq -e '.layers[1].summary == .qp_watch.summary' <<<"$output"
	jq -e '.layers[0].findings == [.link_check.checks[] | select(.verdict == "fail" or .verdict == "warn")]' <<<"$output"
	jq -e '.fix_first == {"layer": "device", "command": "link check", "check": "kernel.modules", "subject": "host"}' <<<"$output"
	[ "$(jq '[.qp_watch.checks[] | select(.id == "qp.broken" and .verdict == "fail")] | length' <<<"$output")" -eq "$(count err)" ]
	jq -e '.schema == 2 and (.path_test | not)' <<<"$output"
}

@test "a selected device and port reach every layer; a missing one exits 3 without running the rest" {
	run --separate-stderr sc -j system check rxe0/1 --interval 0.05
	assert_failure 1
	jq -e '[.link_check.checks[] | select(.subject | startswith("rxe0/")) | .subject] | unique == ["rxe0/1"]' <<<"$output"
	run --separate-stderr sc system check nosuch0 --interval 0.05
	assert_failure 3
	assert_line --regexp '^resource +SKIP +qp watch +not run: the device layer cannot check this host$'
	assert_line --regexp '^counter +SKIP +counter check +not run'
	[[ "$stderr" == *"nosuch0"* ]]
}

@test "a layer whose data is missing is a warning, not a failure (mlx5-pcie has no QP dump, no counters)" {
	run --separate-stderr rd --replay "$FIXTURES/mlx5-pcie" -j system check --interval 0.05
	assert_failure 1
	jq -e '[.layers[] | .verdict] == ["fail", "warn", "warn"]' <<<"$output"
	jq -e '.layers[1].findings[0].id == "system.unchecked" and .layers[2].findings[0].id == "system.unchecked"' <<<"$output"
	jq -e '.fix_first.layer == "device" and .fix_first.check == "pci.link"' <<<"$output"
	[[ "$stderr" == *"cannot read the counters of mlx5_0/1"* ]]
	# with the device layer alone failing on ib-nosm, the device layer is named too
	run --separate-stderr rd --replay "$FIXTURES/ib-nosm" system check --interval 0.05
	assert_failure 1
	assert_line --regexp '^fix first: the device layer \(link check\): '
}

@test "exit 3 and a valid document on a host without RDMA" {
	host_has_rdma && skip "this host has RDMA"
	run --separate-stderr rd -j system check peer 127.0.0.1
	assert_failure 3
	jq -e '.link_check.checks[0].id == "kernel.rdma" and .link_check.checks[0].verdict == "fail"' <<<"$output"
	jq -e '[.layers[] | .layer] == ["device", "resource", "counter", "connection", "performance"]' <<<"$output"
	jq -e '[.layers[1:][] | .verdict] | unique == ["skip"]' <<<"$output"
	jq -e '.fix_first.check == "kernel.rdma"' <<<"$output"
	run rd system check
	assert_failure 3
	assert_line --regexp '^device +FAIL +link check +0 pass, 0 warn, 1 fail, 0 skip$'
}

@test "usage errors exit 2: bad peer, bare address, stray word, peers in a replay, bad interval" {
	run rd system check peer not-an-ip
	assert_failure 2
	assert_output --partial "'not-an-ip' is not an IP address"
	run rd system check peer
	assert_failure 2
	assert_output --partial "'peer' needs an ADDR"
	run rd system check 192.168.77.2
	assert_failure 2
	assert_output --partial "needs the keyword 'peer' before it: rdmadiag system check peer 192.168.77.2"
	run rd system check rxe0 bogus
	assert_failure 2
	assert_output --partial "unexpected 'bogus'"
	run sc system check peer 192.168.77.2
	assert_failure 2
	assert_output --partial 'peers cannot be tested from a replay'
	run sc system check --interval 0
	assert_failure 2
	run sc system check --interval abc
	assert_failure 2
}

@test "-d prints every command's own report under a heading, then the summary" {
	run --separate-stderr sc -d system check --interval 0.05
	assert_failure 1
	assert_line '== device layer: link check =='
	assert_line '== resource layer: qp watch =='
	assert_line '== counter layer: counter check =='
	assert_line --regexp '^PASS  counter.retrans +rxe0/1 '
	assert_line --regexp '^device +FAIL +link check '
}

@test "--skip reaches each layer's command: the ids of link check, the resource layer and counter check" {
	run --separate-stderr sc -j system check --interval 0.05 --skip kernel.modules,netdev.present,qp.stuck,counter.retrans
	assert_failure 1
	sys=$output
	# the device layer is link check --skip with its own ids, key for key
	run --separate-stderr sc -j link check --skip kernel.modules,netdev.present
	assert_failure 1
	[ "$(jq -c '.link_check' <<<"$sys")" = "$(jq -c 'del(.schema, .errors, .host)' <<<"$output")" ]
	jq -e '[.link_check.checks[] | .id] | index("kernel.modules") == null and index("port.state") != null' <<<"$sys"
	jq -e '[.qp_watch.checks[] | .id] | unique == ["qp.broken"]' <<<"$sys"
	jq -e '[.counter_check.checks[] | .id] | (index("counter.retrans") == null and index("counter.rnr") != null)' <<<"$sys"
	jq -e '.fix_first.check != "kernel.modules"' <<<"$sys"
	run --separate-stderr sc system check --interval 0.05 --skip kernel.modules,netdev.present,qp.stuck
	refute_line --regexp '^FAIL  (kernel\.modules|netdev\.present|qp\.stuck) '
	assert_line --regexp '^FAIL  qp\.broken '
}

@test "--only runs those checks alone; a layer with none of them is listed as not run" {
	run --separate-stderr sc -j system check --interval 0.05 --only port.state,counter.rnr
	assert_success
	sys=$output
	run --separate-stderr sc -j link check --only port.state
	[ "$(jq -c '.link_check' <<<"$sys")" = "$(jq -c 'del(.schema, .errors, .host)' <<<"$output")" ]
	jq -e '[.counter_check.checks[] | .id] | unique == ["counter.rnr"]' <<<"$sys"
	jq -e '.qp_watch == null and [.layers[] | .verdict] == ["pass", "skip", "pass"]' <<<"$sys"
	jq -e '.layers[1].note == "not run: --only leaves none of its checks"' <<<"$sys"
	run --separate-stderr sc system check --interval 0.05 --skip qp.broken,qp.stuck
	assert_line --regexp '^resource +SKIP +qp watch +not run: --skip leave none of its checks$'
}

@test "--only/--skip: an id of no layer, or in both, is a usage error" {
	run sc system check --skip path.control
	assert_failure 2
	assert_output --partial "unknown value 'path.control'"
	run sc system check --only port.state --skip port.state,counter.rnr
	assert_failure 2
	assert_output --partial 'port.state is in --only and in --skip'
}

# interrupt OUTFILE ARGS...: system check ARGS in the background, Ctrl-C after
# 1.5 s; sets status and elapsed (seconds)
interrupt() {
	local out=$1 t0=$EPOCHREALTIME pid
	shift
	# the binary itself in the background (not through sc: kill must reach it)
	"$RDMADIAG" --replay "$QPS" "$@" >"$out" 2>"$out.err" &
	pid=$!
	sleep 1.5
	kill -INT "$pid"
	status=0
	wait "$pid" || status=$?
	elapsed=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%d", b - a }')
}

@test "Ctrl-C in the resource layer stops the whole run: done layers reported, the rest not run, exit 1" {
	# --only leaves the device layer out, so the 30 s QP sample is running when Ctrl-C comes
	interrupt "$BATS_TEST_TMPDIR/out" system check --interval 30 --only qp.broken,counter.retrans
	[ "$status" -eq 1 ]
	[ "$elapsed" -lt 20 ]
	run cat "$BATS_TEST_TMPDIR/out"
	assert_line --regexp '^device +SKIP +link check +not run: --only leaves none of its checks$'
	assert_line --regexp '^resource +FAIL +qp watch +0 pass, 0 warn, [0-9]+ fail, 0 skip; interrupted; '
	assert_line --regexp '^counter +SKIP +counter check +not run: interrupted$'
	assert_line 'interrupted: the layers after the one running then were not run'
	assert_line --regexp '^fix first: the resource layer \(qp watch\): qp.broken on rxe0'
	interrupt "$BATS_TEST_TMPDIR/j" -j system check --interval 30 --only qp.broken,counter.retrans
	[ "$status" -eq 1 ]
	jq -e '.interrupted == true and [.layers[] | .verdict] == ["skip", "fail", "skip"]
		and .layers[2].note == "not run: interrupted" and (.counter_check | not)' "$BATS_TEST_TMPDIR/j"
}

@test "Ctrl-C in the counter layer: counter check's own interruption, no later layer, exit 1 even with no failure" {
	interrupt "$BATS_TEST_TMPDIR/out" system check --interval 30 --only counter.retrans
	[ "$status" -eq 1 ]
	[ "$elapsed" -lt 20 ]
	run cat "$BATS_TEST_TMPDIR/out"
	assert_line --regexp '^counter +SKIP +counter check +0 pass, 0 warn, 0 fail, 0 skip; interrupted$'
	assert_line 'interrupted: the layers after the one running then were not run'
	assert_line 'no layer fails'
	refute_line --partial 'system.unchecked'
	grep -q 'counter check interrupted before its second sample' "$BATS_TEST_TMPDIR/out.err"
}
