#!/usr/bin/env bats
# Prometheus output checked by Prometheus's own components: `promtool check
# metrics` (tests/tools/promtool-check.sh) on every --format prometheus and
# openmetrics output of every command over every fixture, and the real
# node_exporter (Debian's prometheus-node-exporter) serving what
# contrib/prometheus/rdmadiag-textfile.sh writes. Both packages come with
# scripts/install-deps.sh test.

load helpers
bats_require_minimum_version 1.5.0

CONTRIB=$BATS_TEST_DIRNAME/../../contrib
CHECK=$BATS_TEST_DIRNAME/../tools/promtool-check.sh
COMMANDS=("counter show" "-d counter show" "counter show qp" "-d counter show qp" "link check"
	"counter check --interval 0.01" "system check --interval 0.01")

@test "promtool check metrics passes every command's prometheus and openmetrics output on every fixture" {
	out=$BATS_TEST_TMPDIR/out
	mkdir -p "$out"
	for fx in "$FIXTURES"/*/; do
		[ -d "$fx/netlink" ] || continue
		for cmd in "${COMMANDS[@]}"; do
			for f in prometheus openmetrics; do
				# shellcheck disable=SC2086
				"$RDMADIAG" --replay "$fx" $cmd --format "$f" >"$out/new" 2>/dev/null || true
				# the same text from two fixtures is checked once
				[ -s "$out/new" ] && mv "$out/new" "$out/$f.$(md5sum <"$out/new" | cut -c 1-16)"
			done
		done
	done
	# the snapshot's healthy host too, with every layer of system check
	for f in prometheus openmetrics; do
		"$RDMADIAG" --snapshot "$FIXTURES/snapshot-lab/snapshot.tar" system check --quick --format "$f" >"$out/$f.snapshot"
	done
	echo "# $(find "$out" -name 'prometheus.*' | wc -l) + $(find "$out" -name 'openmetrics.*' | wc -l) distinct outputs"
	[ "$(find "$out" -name 'openmetrics.*' | wc -l)" -ge 30 ]
	"$CHECK" prometheus "$out"/prometheus.*
	"$CHECK" openmetrics "$out"/openmetrics.*
}

@test "promtool-check.sh fails what promtool rejects, and what only node_exporter would" {
	# the name promtool rejected before the rename (issue 23)
	run "$CHECK" prometheus <<<'# HELP rdmadiag_port_hw_counter_total h
# TYPE rdmadiag_port_hw_counter_total counter
rdmadiag_port_hw_counter_total 1'
	assert_failure
	assert_output --partial "should not include type 'counter'"
	# a series twice: promtool passes it, node_exporter fails the scrape
	run "$CHECK" prometheus <<<'# HELP rdmadiag_x h
# TYPE rdmadiag_x gauge
rdmadiag_x 1
rdmadiag_x 2'
	assert_failure
	assert_output --partial 'duplicate series'
	# openmetrics: only "X_total no help text" of a declared counter X is let through
	run "$CHECK" openmetrics <<<'# HELP rdmadiag_x h
# TYPE rdmadiag_x gauge
rdmadiag_x_total 1
# EOF'
	assert_failure
	assert_output --partial 'no help text'
}

@test "system check --format: layer verdicts and every check with its layer; exit status kept; -j conflicts" {
	run --separate-stderr rd --snapshot "$FIXTURES/snapshot-lab/snapshot.tar" system check --quick --format openmetrics
	assert_success
	assert_line 'rdmadiag_system_layer_verdict{layer="device",command="link check",verdict="warn"} 1'
	assert_line 'rdmadiag_system_layer_verdict{layer="resource",command="qp watch",verdict="pass"} 1'
	assert_line 'rdmadiag_check_verdict{command="system check",layer="device",check="gid.default",subject="rxe0/1",device="rxe0",port="1",verdict="warn"} 1'
	assert_line 'rdmadiag_check_verdict{command="system check",layer="resource",check="qp.broken",subject="host",verdict="pass"} 1'
	[ "${lines[-1]}" = '# EOF' ]
	run --separate-stderr rd --replay "$FIXTURES/lab-rxe" system check --quick --format prometheus
	assert_failure 1
	# two layers that could not run are two series, told apart by layer
	assert_line 'rdmadiag_check_verdict{command="system check",layer="resource",check="system.unchecked",subject="host",verdict="warn"} 1'
	assert_line 'rdmadiag_check_verdict{command="system check",layer="counter",check="system.unchecked",subject="host",verdict="warn"} 1'
	assert_line 'rdmadiag_checks{command="system check",verdict="fail"} 3'
	refute_output --partial 'fix first'
	run --separate-stderr rd --replay "$FIXTURES/lab-rxe" -j system check --format prometheus
	assert_failure 2
	[[ "$stderr" == *"-j/--json and --format prometheus contradict each other"* ]]
}

@test "every metric family printed is listed in the man pages" {
	names=$(for fx in "$FIXTURES"/*/; do
		[ -d "$fx/netlink" ] || continue
		for cmd in "${COMMANDS[@]}"; do
			# shellcheck disable=SC2086
			"$RDMADIAG" --replay "$fx" $cmd --format prometheus 2>/dev/null || true
		done
	done | sed -n 's/^# TYPE \([^ ]*\) .*/\1/p' | sort -u)
	[ "$(wc -l <<<"$names")" -ge 20 ]
	pages=$(cat "$BATS_TEST_DIRNAME"/../../Documentation/*.8)
	for n in $names; do
		grep -qF "$n" <<<"$pages" || {
			echo "# $n is on no man page"
			return 1
		}
	done
}

# ---- node_exporter ----

teardown() {
	if [ -n "${NE_PID:-}" ]; then
		kill "$NE_PID" 2>/dev/null
		for _ in $(seq 50); do kill -0 "$NE_PID" 2>/dev/null || break; sleep 0.1; done
		kill -9 "$NE_PID" 2>/dev/null || true
	fi
}

free_port() {
	/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

scrape() {
	curl -sS --max-time 5 "http://127.0.0.1:$NE_PORT/metrics"
}

@test "node_exporter's textfile collector serves what the contrib job writes, and drops it when the job writes nothing" {
	dir="$BATS_TEST_TMPDIR/textfile"
	mkdir -p "$dir"
	NE_PORT=$(free_port)
	prometheus-node-exporter --web.listen-address="127.0.0.1:$NE_PORT" --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$dir" --web.disable-exporter-metrics \
		>"$BATS_TEST_TMPDIR/ne.log" 2>&1 &
	NE_PID=$!
	for _ in $(seq 100); do scrape >/dev/null 2>&1 && break; sleep 0.1; done
	run scrape
	assert_success
	refute_output --partial 'rdmadiag_'
	# the contrib job once, against the rxe fixture (link check fails there: exit 1 still writes)
	RDMADIAG_REPLAY=$FIXTURES/counter-rxe RDMADIAG=$RDMADIAG run "$CONTRIB/prometheus/rdmadiag-textfile.sh" "$dir"
	assert_success
	run scrape
	assert_success
	assert_line 'node_textfile_scrape_error 0'
	assert_line 'rdmadiag_port_rx_packets_total{device="rxe0",netdev="rxenet0",port="1"} 1006'
	assert_line 'rdmadiag_port_driver_stat_total{device="rxe0",group="traffic",netdev="rxenet0",port="1",source="netlink",stat="sent_pkts"} 1006'
	# node_exporter gives every series of a family the same label names: "" where left out
	assert_line 'rdmadiag_check_verdict{check="kernel.modules",command="link check",device="",port="",subject="host",verdict="fail"} 1'
	assert_line 'rdmadiag_check_verdict{check="port.state",command="link check",device="rxe0",port="1",subject="rxe0/1",verdict="pass"} 1'
	assert_line 'rdmadiag_checks{command="link check",verdict="pass"} 3'
	assert_line --regexp '^node_textfile_mtime_seconds\{file=".*rdmadiag_link.prom"\} '
	assert_line --regexp '^node_textfile_mtime_seconds\{file=".*rdmadiag_counters.prom"\} '
	# a run that printed nothing (as rdmadiag where no device is left) empties both files
	RDMADIAG=true run "$CONTRIB/prometheus/rdmadiag-textfile.sh" "$dir"
	assert_success
	run scrape
	assert_success
	assert_line 'node_textfile_scrape_error 0'
	refute_output --regexp '^rdmadiag_'
}
