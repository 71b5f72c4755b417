#!/usr/bin/env bats
# Every -j document validates against its published JSON Schema,
# Documentation/json/OBJECT-ACTION.schema.json (draft 2020-12), with Debian's
# python3-jsonschema (tests/tools/json-validate.py): on every replay fixture
# and snapshot, with and without -d, and the error documents (no device, an
# unknown device or port). topo show is validated in topo.bats; the commands
# whose keys are being renamed (issue 21) get theirs with the rename, and
# tests/docs-sync.sh lists them as pending.

load helpers
bats_require_minimum_version 1.5.0

SCHEMAS=$BATS_TEST_DIRNAME/../../Documentation/json
VALIDATE=$BATS_TEST_DIRNAME/../tools/json-validate.py
GEN=$BATS_TEST_DIRNAME/../tools/gen_res_fixture

setup_file() {
	# every kind of resource (tests/tools/gen_res_fixture: 3 of cq, pd,
	# srq, cm, 2 mr, N QPs), and counter-rxe with those QPs for system
	# check's resource layer (as system.bats builds it: QPs in ERR, INIT, RTR)
	export RES=$BATS_FILE_TMPDIR/res QPS=$BATS_FILE_TMPDIR/qps
	"$GEN" "$RES" 100 >/dev/null
	cp -r "$FIXTURES/counter-rxe" "$QPS"
	cp "$RES/netlink/cmd10-dump-a1=1.bin" "$QPS/netlink/cmd10-dump-a1=0.bin"
	cp -r "$RES/fs/proc" "$QPS/fs/"
}

# Where a document can come from: every replay fixture, the generated ones,
# the snapshots (one a line: the global options that select it).
sources() {
	local f
	for f in "$FIXTURES"/*/; do
		[ -d "$f/netlink" ] || [ -d "$f/fs" ] || continue
		echo "--replay ${f%/}"
	done
	echo "--replay $RES"
	echo "--replay $QPS"
	for f in "$FIXTURES"/snapshot-*/snapshot.tar; do
		echo "--snapshot $f"
	done
}

# validate_on_all [--lines] SCHEMA ARGS...: runs `rdmadiag SOURCE -j ARGS` on every
# source (at once: a run waits on nothing but its replay), keeps each document
# printed (a command refused before it starts prints none: the snapshot lacks
# it, exit 2), then validates them all in one run of the validator. Leaves the
# documents in $DOCS/*.json.
validate_on_all() {
	local lines= schema src n=0 rc
	# --lines: the command writes JSON lines (the watches), one document each
	[ "$1" != --lines ] || { lines=--lines; shift; }
	schema=$SCHEMAS/$1.schema.json
	shift
	DOCS=$BATS_TEST_TMPDIR/docs
	rm -rf "$DOCS"
	mkdir -p "$DOCS"
	while read -r src; do
		n=$((n + 1))
		# shellcheck disable=SC2086 # the source's options, split on purpose
		(
			rc=0
			timeout 60 "$RDMADIAG" $src -j "$@" >"$DOCS/$n.json" 2>/dev/null || rc=$?
			echo "$rc $src" >"$DOCS/$n.rc"
		) &
	done < <(sources)
	wait
	for ((; n > 0; n--)); do
		read -r rc src <"$DOCS/$n.rc"
		[ "$rc" -lt 5 ] || fail "rdmadiag $src -j $* exited $rc"
		if [ ! -s "$DOCS/$n.json" ]; then
			# a watch that saw nothing to report writes no line
			[ "$rc" -eq 2 ] || [ "$rc" -eq 3 ] || { [ -n "$lines" ] && [ "$rc" -eq 0 ]; } ||
				fail "rdmadiag $src -j $* printed no document and exited $rc"
			rm "$DOCS/$n.json"
		fi
	done
	run "$VALIDATE" $lines "$schema" "$DOCS"/*.json
	[ "$status" -eq 0 ] || fail "$* against $schema: $output"
}

# How many of the documents in $DOCS the jq filter holds for.
count_docs() {
	jq -s "map(select($1)) | length" "$DOCS"/*.json
}

# collect SCHEMA ARGS...: one run (ARGS carry the source), one document,
# left in $DOC and kept for validate_collected.
collect() {
	local dir=$BATS_TEST_TMPDIR/collected/$1
	shift
	run --separate-stderr "$RDMADIAG" "$@"
	DOC=$output
	[ -n "$DOC" ] || fail "rdmadiag $* printed no document (exit $status)"
	mkdir -p "$dir"
	printf '%s\n' "$DOC" >"$dir/$(find "$dir" -type f | wc -l).json"
}

# Validates what collect kept, one run of the validator per schema.
validate_collected() {
	local dir
	for dir in "$BATS_TEST_TMPDIR"/collected/*/; do
		run "$VALIDATE" "$SCHEMAS/$(basename "$dir").schema.json" "$dir"*.json
		[ "$status" -eq 0 ] || fail "against $(basename "$dir").schema.json: $output"
	done
	rm -rf "$BATS_TEST_TMPDIR/collected"
}

@test "dev show validates on every fixture and snapshot, with -d too" {
	validate_on_all dev-show dev show
	[ "$(count_docs '(.devices | length) > 0')" -ge 15 ]
	[ "$(count_docs '[.devices[]?.node_guid] | length > 0')" -ge 5 ]
	validate_on_all dev-show -d dev show
}

@test "qp and cm show validate on every fixture, qp show filtered too" {
	validate_on_all qp-show qp show
	[ "$(count_docs '(.qps | length) > 0')" -ge 3 ]
	[ "$(count_docs '[.qps[]? | .owner] | index("kernel")')" -ge 1 ]
	validate_on_all qp-show qp show state rts type rc
	validate_on_all cm-show cm show
	[ "$(count_docs '[.cm_ids[]? | .state] | index("listen")')" -ge 1 ]
	[ "$(count_docs '[.cm_ids[]? | .dst_addr] | length > 0')" -ge 1 ]
}

@test "qp watch and dev monitor validate line by line on every fixture, the monitor fixtures' events too" {
	validate_on_all --lines qp-watch -d qp watch --count 5 --interval 0.01
	[ "$(cat "$DOCS"/*.json | jq -s 'map(select(.event == "state" or .event == "destroyed" or .event == "dev_renamed")) | length')" -ge 5 ]
	# --stuck 0: the QPs in INIT and RTR of the generated fixture are flagged at once
	validate_on_all --lines qp-watch qp watch --count 2 --interval 0.01 --stuck 0
	[ "$(cat "$DOCS"/*.json | jq -cs '[.[] | .flag // empty] | unique')" = '["broken","stuck"]' ]
	validate_on_all --lines dev-monitor -d dev monitor --count 5 --interval 0.01
	[ "$(cat "$DOCS"/*.json | jq -s 'map(select(.event == "netdev_renamed" or .event == "dev_removed")) | length')" -ge 2 ]
	[ "$(cat "$DOCS"/*.json | jq -s 'map(select(.source == "netlink")) | length')" -ge 3 ]
	validate_on_all --lines dev-monitor dev monitor --count 3 --interval 0.01
}

@test "link show validates on every fixture and snapshot" {
	validate_on_all link-show link show
	[ "$(count_docs '(.links | length) > 0')" -ge 15 ]
	[ "$(count_docs '.links[]? | .link_layer == "infiniband"' )" -ge 1 ]
}

@test "link check validates on every fixture, with the --expect checks too" {
	validate_on_all link-check link check
	[ "$(count_docs '.summary.fail > 0')" -ge 5 ]
	[ "$(count_docs '[.checks[]?.verdict] | index("warn")')" -ge 1 ]
	validate_on_all link-check link check --expect-rate 100 --expect-mtu 9000 --expect-devices 2 \
		--expect-link-layer ethernet --expect-gid-type roce_v2 --strict
	[ "$(count_docs '[.checks[]?.id] | index("expect.gid_type")')" -ge 5 ]
}

@test "gid show validates on every fixture, with -d (empty slots) too" {
	validate_on_all gid-show gid show
	[ "$(count_docs '(.recommended | length) > 0')" -ge 2 ]
	validate_on_all gid-show -d gid show
}

@test "res, cq, mr, pd and srq show validate on every fixture, and on one with each kind of object" {
	local o
	validate_on_all res-show res show
	[ "$(count_docs '(.devices | length) > 0')" -ge 1 ]
	for o in cq mr pd srq; do
		validate_on_all "$o-show" "$o" show
		[ "$(count_docs "(.${o}s | length) > 0")" -ge 1 ] || fail "$o show: no fixture lists any"
	done
}

@test "counter show validates on every fixture, with -d too" {
	validate_on_all counter-show counter show
	[ "$(count_docs '[.ports[]? | .traffic] | length > 0')" -ge 5 ]
	[ "$(count_docs '[.ports[]? | .error] | length > 0')" -ge 1 ]
	validate_on_all counter-show -d counter show
}

@test "counter show qp validates on every fixture, filtered and with a counter that is not there" {
	local qp=$FIXTURES/counter-qp-mlx5
	validate_on_all counter-show-qp counter show qp
	[ "$(count_docs '[.counters[]? | .lqpns[]] | length > 0')" -ge 1 ]
	collect counter-show-qp --replay "$qp" -j counter show qp mlx5_0/1 counter 4
	jq -e '.counters[0].qp_type == "rc" and (.counters[0].traffic | length > 0)' <<<"$DOC"
	collect counter-show-qp --replay "$qp" -j counter show qp lqpn 200
	collect counter-show-qp --replay "$qp" -j counter show qp counter 99
	jq -e '.counters == [] and (.errors | length) == 1' <<<"$DOC"
	collect counter-show-qp --replay "$FIXTURES/lab-rxe" -j counter show qp
	validate_collected
}

@test "counter watch validates line by line on every fixture, with -d (driver counters) too" {
	validate_on_all --lines counter-watch counter watch --count 2 --interval 0.01 --all
	[ "$(cat "$DOCS"/*.json | jq -s '[.[].rows[]?] | length')" -ge 100 ]
	[ "$(cat "$DOCS"/*.json | jq -s 'map(select(.errors)) | length')" -ge 1 ]
	validate_on_all --lines counter-watch -d counter watch --count 2 --interval 0.01 --all
	[ "$(cat "$DOCS"/*.json | jq -s '[.[].rows[]?.source] | unique | length')" -ge 2 ]
}

@test "counter map validates, every kind and group from the common definitions" {
	collect counter-map -j counter map
	jq -e '(.map | length) > 40 and ([.map[].kind] | index("pfc_rx")) and ([.map[].scale] | index(4))' <<<"$DOC"
	validate_collected
}

@test "counter check validates on every fixture" {
	validate_on_all counter-check counter check --interval 0.01
	[ "$(count_docs '.summary.pass > 0')" -ge 5 ]
	validate_on_all counter-check counter check --interval 0.01 --skip counter.cnp --strict
}

@test "system check validates on every fixture, its resource layer with QP events too" {
	validate_on_all system-check system check --interval 0.01
	[ "$(count_docs '(.qp_watch.events | length) > 0')" -ge 1 ]
	[ "$(count_docs '.topology_check')" -ge 1 ]
	[ "$(count_docs '.fix_first.check')" -ge 5 ]
	validate_on_all system-check system check --interval 0.01 --only port.state,qp.broken,counter.retrans
}

@test "counter mode, bind and unbind validate, set and errors too" {
	local qp=$FIXTURES/counter-qp-mlx5
	validate_on_all counter-mode counter mode
	collect counter-mode --replay "$qp" -j counter mode set mlx5_0/1 auto type
	collect counter-mode --replay "$qp" -j counter mode mlx5_0/1
	collect counter-bind --replay "$qp" -j counter bind mlx5_0/1 lqpn 182
	collect counter-bind --replay "$qp" -j counter bind mlx5_0/1 lqpn 181 counter 4
	collect counter-bind --replay "$qp" -j counter bind mlx5_0/1 lqpn 999
	collect counter-bind --replay "$qp" -j counter bind mlx5_0/1 lqpn 183
	collect counter-unbind --replay "$qp" -j counter unbind mlx5_0/1 counter 5
	collect counter-unbind --replay "$qp" -j counter unbind mlx5_0/1 counter 5 lqpn 201
	collect counter-unbind --replay "$qp" -j counter unbind mlx5_0/1 counter 99
	validate_collected
	# the schemas tell the two apart
	run --separate-stderr "$RDMADIAG" --replay "$qp" -j counter unbind mlx5_0/1 counter 5
	run "$VALIDATE" "$SCHEMAS/counter-bind.schema.json" <<<"$output"
	assert_failure
	assert_output --partial "'bound' was expected"
}

@test "error documents validate: no device, an unknown device, an unknown port" {
	local nodev=$FIXTURES/no-device rxe=$FIXTURES/lab-rxe c
	for c in dev-show:"dev show" link-show:"link show" link-check:"link check" gid-show:"gid show" res-show:"res show" \
		qp-show:"qp show" cm-show:"cm show" \
		cq-show:"cq show" mr-show:"mr show" pd-show:"pd show" srq-show:"srq show" \
		counter-show:"counter show" counter-check:"counter check --interval 0.01" counter-mode:"counter mode" \
		system-check:"system check --interval 0.01"; do
		# shellcheck disable=SC2086 # the command's words
		collect "${c%%:*}" --replay "$nodev" -j ${c#*:}
		# the check commands report it as the failed check kernel.rdma
		jq -e '(.errors | length > 0) or ([.checks[]?, .link_check.checks[]? | .id] | index("kernel.rdma"))' <<<"$DOC" >/dev/null ||
			fail "${c#*:} without a device: $DOC"
		# shellcheck disable=SC2086
		collect "${c%%:*}" --replay "$rxe" -j ${c#*:} nosuch0
		jq -e '.errors | length > 0' <<<"$DOC" >/dev/null || fail "${c#*:} nosuch0: $DOC"
	done
	for c in link-show:"link show" gid-show:"gid show" counter-show:"counter show" counter-check:"counter check --interval 0.01"; do
		# shellcheck disable=SC2086
		collect "${c%%:*}" --replay "$rxe" -j ${c#*:} rxe0/9
		jq -e '.errors | length > 0' <<<"$DOC" >/dev/null || fail "${c#*:} rxe0/9: $DOC"
	done
	collect link-show --replay "$rxe" -j link show rxe0/9
	jq -e '.links == [] and (.errors[0] | startswith("device rxe0 has no port 9"))' <<<"$DOC"
	validate_collected
}

@test "system snapshot and path serve validate (this host)" {
	collect system-snapshot -j system snapshot -o "$BATS_TEST_TMPDIR/h.tar" --interval 0.1
	jq -e '.snapshot.size_bytes > 0 and (.commands | length) > 5' <<<"$DOC"
	collect system-snapshot -j system snapshot -o /nonexistent/dir/x.tar --interval 0.1
	jq -e '(.snapshot | not) and (.errors | length) == 1' <<<"$DOC"
	# 192.0.2.1 (TEST-NET-1) is no address of this host: serve cannot listen,
	# or (without RDMA) refuses earlier; its document holds the error either way
	collect path-serve -j path serve --bind 192.0.2.1 --port 47999 --once
	jq -e '.errors | length == 1' <<<"$DOC"
	validate_collected
}

@test "path test and report merge validate: the lab's path test report, fleets made from it, their merge" {
	local f=$BATS_TEST_TMPDIR/fleet mk=$FIXTURES/make-fleet.py
	# path test cannot run under replay: its report recorded in the two-host
	# lab, and the fleets tests/fixtures/make-fleet.py makes of it
	run "$VALIDATE" "$SCHEMAS/path-test.schema.json" "$FIXTURES/fleet/path-template.json"
	[ "$status" -eq 0 ] || fail "$output"
	python3 "$mk" --kind path --template "$FIXTURES/fleet/path-template.json" --out "$f/path" --nodes 8 --bad 3 \
		--bad-pair 1:5 --slow 6 --peers 4 >/dev/null
	run "$VALIDATE" "$SCHEMAS/path-test.schema.json" "$f"/path/*.json
	[ "$status" -eq 0 ] || fail "$output"
	"$RDMADIAG" -j --replay "$FIXTURES/lab-rxe" link check >"$BATS_TEST_TMPDIR/lc.json" || true
	python3 "$mk" --kind link --template "$BATS_TEST_TMPDIR/lc.json" --out "$f/link" --nodes 8 --bad 2 >/dev/null
	collect report-merge -j report merge "$f/path"
	jq -e '(.path.pairs | length) > 0 and .summary.pairs_failed > 0' <<<"$DOC"
	collect report-merge -j report merge "$f/link"
	jq -e '.checks.ids[0].fail_nodes == 1' <<<"$DOC"
	# both kinds, a file that is no report, one that is not there
	echo '{"x":1}' >"$f/link/foreign.json"
	collect report-merge -j report merge "$f/path" "$f/link" "$f/missing.json"
	jq -e '.checks and .path and (.skipped | length) == 2' <<<"$DOC"
	# this host: one peer, then --peers (its other shape); nothing listens on
	# TCP port 1 of 127.0.0.1, so path.control fails at once
	collect path-test -j path test peer 127.0.0.1 --port 1
	jq -e '.peer == "127.0.0.1" and .stages[0].verdict == "fail"' <<<"$DOC"
	# system check nests it per peer (path-test.schema.json#/$defs/peer_report)
	jq '{schema, layers: [], path_test: [{peer, stages, summary}]}' <<<"$DOC" >"$BATS_TEST_TMPDIR/sc.json"
	echo 127.0.0.1 >"$BATS_TEST_TMPDIR/peers"
	collect path-test -j path test --peers "$BATS_TEST_TMPDIR/peers" --port 1
	jq -e '.peers[0].failed_stage == "path.control" and .peers[0].latency_p50_us == null' <<<"$DOC"
	validate_collected
	run "$VALIDATE" "$SCHEMAS/system-check.schema.json" "$BATS_TEST_TMPDIR/sc.json"
	[ "$status" -eq 0 ] || fail "$output"
}

@test "the schemas are strict: unknown keys, unknown tokens and wrong types are refused" {
	run "$VALIDATE" "$SCHEMAS/link-show.schema.json" <<<'{"schema":2,"links":[{"ifname":"a/1","dev":"a","port":1,"state":"up","physical_state":"link_up","rate":100}]}'
	assert_failure
	assert_output --partial "'rate' was unexpected"
	assert_output --partial "'up' is not one of"
	run "$VALIDATE" "$SCHEMAS/link-check.schema.json" <<<'{"schema":2,"checks":[{"verdict":"ok","id":"port.state","subject":"a/1","measured":"","expected":""}]}'
	assert_failure
	assert_output --partial "'ok' is not one of"
	assert_output --partial "'summary' is a dependency of 'checks'"
	run "$VALIDATE" "$SCHEMAS/counter-show.schema.json" <<<'{"schema":2,"ports":[{"ifname":"a/1","dev":"a","port":1,"traffic":{"tx_packets":"1","counters":{"x":-1}}}]}'
	assert_failure
	assert_output --partial "'1' is not of type 'integer'"
	assert_output --partial "-1 is less than the minimum of 0"
	run "$VALIDATE" "$SCHEMAS/res-show.schema.json" <<<'{"schema":3,"devices":[]}'
	assert_failure
	assert_output --partial "2 was expected"
	# a document that is neither a report nor an error
	run "$VALIDATE" "$SCHEMAS/counter-check.schema.json" <<<'{"schema":2}'
	assert_failure
}

# Issue 21, "units in key names": a key whose schema description gives its
# unit says it in its name (size_bytes, duration_ms, latency_p50_us,
# interval_s, bandwidth_gbps, msgs_per_s). An MTU is bytes by definition
# (active_mtu, path_mtu, as iproute2 names it); timestamp is a point in Unix
# time, seconds as `date +%s` gives them.
@test "a key whose schema gives a unit names it" {
	run python3 - "$SCHEMAS"/*.schema.json <<-'PY'
	import json, re, sys
	units = [  # (what the description says, what the key must say)
	    (r"\bper second\b", r"_per_s$"),
	    (r"\bbytes\b", r"(_bytes|_mtu)$"),
	    (r"\bseconds\b", r"(_s$|^seconds_|^timestamp$)"),
	    (r"\bms\b", r"_ms$"),
	    (r"\bus\b", r"_us$"),
	    (r"Gb/s", r"_gbps$"),
	]
	def props(node):
	    if isinstance(node, dict):
	        for key, sub in (node.get("properties") or {}).items():
	            if isinstance(sub, dict):
	                yield key, sub.get("description", "")
	        for sub in node.values():
	            yield from props(sub)
	    elif isinstance(node, list):
	        for sub in node:
	            yield from props(sub)
	bad = 0
	for path in sys.argv[1:]:
	    for key, desc in props(json.load(open(path))):
	        for said, named in units:
	            if re.search(said, desc):
	                if not re.search(named, key):
	                    print(f"{path.rsplit('/', 1)[-1]}: {key} ({desc!r}) does not name its unit")
	                    bad = 1
	                break  # the first unit the description names is the key's
	sys.exit(bad)
	PY
	[ "$status" -eq 0 ] || fail "$output"
}
