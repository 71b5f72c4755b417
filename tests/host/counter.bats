#!/usr/bin/env bats
# counter show/watch/check/map on fixtures: hand-made mlx5 (netlink hw counters,
# IB PMA counters in sysfs, mlx5e pause/PFC) and irdma (sysfs hw_counters only,
# ice pause) sets, made by tests/fixtures/mk-counter-fixtures.py.

load helpers
bats_require_minimum_version 1.5.0

MLX5=$BATS_TEST_DIRNAME/../fixtures/counter-mlx5
IRDMA=$BATS_TEST_DIRNAME/../fixtures/counter-irdma
PROMCHECK=$BATS_TEST_DIRNAME/../tools/promtool-check.sh

# value of a raw counter file of a fixture
fx() {
	cat "$1/fs/sys/class/infiniband/$2/ports/1/$3"
}

@test "mlx5: netlink hw counters map to retransmission, timeout, RNR and congestion" {
	run --separate-stderr rd --replay "$MLX5" -j counter show
	assert_success
	j=$output
	# the STAT_GET reply carries the driver's names; the map sums them per kind
	[ "$(jq '.ports[0].retransmission.retransmissions' <<<"$j")" = 23 ]              # roce_adp_retrans
	[ "$(jq '.ports[0].retransmission.sequence_errors' <<<"$j")" = $((12 + 17 + 18)) ] # implied_nak, out_of_sequence, packet_seq_err
	[ "$(jq '.ports[0].retransmission.duplicate_requests' <<<"$j")" = 11 ]
	[ "$(jq '.ports[0].timeout.ack_timeouts' <<<"$j")" = $((13 + 24)) ]
	[ "$(jq '.ports[0].rnr.rnr_retries_exceeded' <<<"$j")" = 22 ]
	[ "$(jq '.ports[0].rnr.rx_out_of_buffer' <<<"$j")" = 16 ]
	[ "$(jq '.ports[0].congestion.cnp_sent' <<<"$j")" = 14 ]
	[ "$(jq '.ports[0].congestion.cnp_handled' <<<"$j")" = 26 ]
	[ "$(jq '.ports[0].congestion.ecn_marked' <<<"$j")" = 15 ]
	[ "$(jq -r '.ports[0].retransmission.counters | keys | join(",")' <<<"$j")" = \
		duplicate_request,implied_nak_seq_err,out_of_sequence,packet_seq_err,roce_adp_retrans ]
}

@test "mlx5: IB PMA counters from sysfs fill traffic and link; data words are 4 bytes" {
	run --separate-stderr rd --replay "$MLX5" -j counter show mlx5_0/1
	assert_success
	[ "$(jq '.ports[0].traffic.tx_bytes' <<<"$output")" = $((4 * $(fx "$MLX5" mlx5_0 counters/port_xmit_data))) ]
	[ "$(jq '.ports[0].traffic.rx_packets' <<<"$output")" = "$(fx "$MLX5" mlx5_0 counters/port_rcv_packets)" ]
	[ "$(jq '.ports[0].link.link_downed' <<<"$output")" = "$(fx "$MLX5" mlx5_0 counters/link_downed)" ]
	[ "$(jq '.ports[0].link.symbol_errors' <<<"$output")" = "$(fx "$MLX5" mlx5_0 counters/symbol_error)" ]
	[ "$(jq '.ports[0].congestion.xmit_wait' <<<"$output")" = "$(fx "$MLX5" mlx5_0 counters/port_xmit_wait)" ]
	[ "$(jq -r '.ports[0].netdev' <<<"$output")" = ens1f0np0 ]
	[ "$(jq '.ports[0].lifespan_ms' <<<"$output")" = 10 ]
}

@test "mlx5: pause totals and per-priority PFC come from ethtool, apart" {
	run --separate-stderr rd --replay "$MLX5" -j counter show
	assert_success
	[ "$(jq '.ports[0].pause.pause_rx' <<<"$output")" = 40 ]   # rx_pause_ctrl_phy
	[ "$(jq '.ports[0].pause.pfc_rx' <<<"$output")" = $((42 + 1)) ]
	[ "$(jq '.ports[0].pause.pfc_tx' <<<"$output")" = $((43 + 2)) ]
	# a duration is not a frame count: raw, under other
	[ "$(jq '.ports[0].other.counters.rx_prio3_pause_duration' <<<"$output")" = 44 ]
}

@test "irdma: without netlink statistics the hw_counters come from sysfs" {
	[ ! -e "$IRDMA/netlink/cmd17-a1=2-a3=1.bin" ]
	run --separate-stderr rd --replay "$IRDMA" -j counter show
	assert_success
	j=$output
	[ "$(jq '.ports[0].traffic.tx_packets' <<<"$j")" = $(($(fx "$IRDMA" irdma0 hw_counters/ip4OutPkts) + $(fx "$IRDMA" irdma0 hw_counters/ip6OutPkts))) ]
	[ "$(jq '.ports[0].traffic.rx_bytes' <<<"$j")" = $((53000 + 1000)) ]
	[ "$(jq '.ports[0].retransmission.retransmissions' <<<"$j")" = "$(fx "$IRDMA" irdma0 hw_counters/tcpRetransSegs)" ]
	[ "$(jq '.ports[0].congestion.cnp_sent' <<<"$j")" = "$(fx "$IRDMA" irdma0 hw_counters/cnpSent)" ]
	[ "$(jq '.ports[0].congestion.cnp_handled' <<<"$j")" = "$(fx "$IRDMA" irdma0 hw_counters/cnpHandled)" ]
	[ "$(jq '.ports[0].congestion.ecn_marked' <<<"$j")" = "$(fx "$IRDMA" irdma0 hw_counters/RxECNMrkd)" ]
	[ "$(jq '.ports[0].pause.pause_rx' <<<"$j")" = 70 ]
	[ "$(jq '.ports[0].pause.pfc_rx' <<<"$j")" = 73 ]
	# unknown to the map: still there, raw
	[ "$(jq '.ports[0].other.counters.rxVlanErrors' <<<"$j")" = 61 ]
	[ "$(jq '.ports[0].lifespan_ms' <<<"$j")" = 1500 ]
}

@test "text: groups with vendor-neutral names by default, driver names and other only with -d" {
	run rd --replay "$MLX5" counter show
	assert_success
	assert_line --index 0 'mlx5_0/1: netdev ens1f0np0'
	assert_output --partial '    retransmission: retransmissions 23 sequence_errors 47 duplicate_requests 11'
	assert_output --partial '    congestion: cnp_sent 14 cnp_handled 26'
	refute_output --partial 'roce_adp_retrans'
	refute_output --partial 'other'
	run rd --replay "$MLX5" -d counter show
	assert_success
	assert_output --partial 'roce_adp_retrans 23'
	assert_output --partial 'other:'
	assert_output --partial 'rx_icrc_encapsulated 31'
	assert_output --partial 'lifespan_ms 10 ms'
}

@test "--format json is -j; -j with --format prometheus is a usage error" {
	a=$(rd --replay "$MLX5" -j counter show)
	b=$(rd --replay "$MLX5" counter show --format json)
	[ "$a" = "$b" ]
	jq -e '.schema == 2 and (.ports | length) == 1' <<<"$a"
	run rd --replay "$MLX5" -j counter show --format prometheus
	assert_failure 2
	assert_output --partial 'contradict'
}

@test "prometheus and openmetrics output pass promtool check metrics, on both fixtures" {
	for fx in "$MLX5" "$IRDMA"; do
		for f in prometheus openmetrics; do
			rd --replay "$fx" counter show --format $f | "$PROMCHECK" $f
			rd --replay "$fx" -d counter show --format $f | "$PROMCHECK" $f
		done
	done
	# and the checker tells the flavours apart
	run bash -c "'$RDMADIAG' --replay '$MLX5' counter show --format prometheus | '$PROMCHECK' openmetrics"
	assert_failure
}

@test "prometheus: rdmadiag_ names, device/port/netdev labels, counters with _total, # EOF for OpenMetrics" {
	run rd --replay "$MLX5" counter show --format openmetrics
	assert_success
	assert_line '# TYPE rdmadiag_port_retransmissions counter'
	assert_line 'rdmadiag_port_retransmissions_total{device="mlx5_0",port="1",netdev="ens1f0np0"} 23'
	assert_line 'rdmadiag_port_driver_stat_total{device="mlx5_0",port="1",netdev="ens1f0np0",stat="out_of_sequence",source="netlink",group="retransmission"} 17'
	assert_line 'rdmadiag_port_tx_bytes_total{device="mlx5_0",port="1",netdev="ens1f0np0"} 8000'
	[ "${lines[-1]}" = '# EOF' ]
	refute_output --partial 'rx_icrc_encapsulated'
	run rd --replay "$MLX5" counter show --format prometheus
	assert_line '# TYPE rdmadiag_port_retransmissions_total counter'
	refute_output --partial '# EOF'
	run rd --replay "$MLX5" -d counter show --format prometheus
	assert_output --partial 'stat="rx_icrc_encapsulated",source="netlink",group="other"} 31'
}

@test "watch -j: one JSON object per interval per line, with schema, seq and rows" {
	run --separate-stderr rd --replay "$MLX5" -j counter watch --count 3 --interval 0.05 --all
	assert_success
	[ "${#lines[@]}" -eq 3 ]
	for i in 0 1 2; do
		jq -e --argjson seq $((i + 1)) '.schema == 2 and .seq == $seq and .interval_s >= 0.01 and .changed == 0
			and (.rows | length) > 10 and all(.rows[]; .delta == 0 and .rate_per_s == 0)' <<<"${lines[$i]}"
	done
	# a row's value is what show prints for that kind
	v=$(jq '.rows[] | select(.counter == "sequence_errors") | .value' <<<"${lines[0]}")
	[ "$v" = "$(rd --replay "$MLX5" -j counter show | jq '.ports[0].retransmission.sequence_errors')" ]
}

@test "watch: without --all an unchanged fixture gives empty intervals; -d rows are raw counters" {
	run --separate-stderr rd --replay "$MLX5" -j counter watch --count 1 --interval 0.05
	assert_success
	jq -e '(.rows | length) == 0' <<<"$output"
	run --separate-stderr rd --replay "$MLX5" -j -d counter watch --count 1 --interval 0.05 --all
	jq -e '[.rows[].counter] | index("roce_adp_retrans") != null' <<<"$output"
	jq -e '[.rows[] | select(.counter == "port_xmit_data")][0].source == "counters"' <<<"$output"
}

@test "watch: the interval is raised to the counters' cache lifespan" {
	run --separate-stderr rd --replay "$IRDMA" -j counter watch --count 1 --interval 0.1
	assert_success
	jq -e '.interval_s >= 1.5' <<<"$output"
	[[ "$stderr" == *"interval raised from 0.1 s to 1.5 s"* ]]
}

@test "check: stable ids, skips for counters the driver lacks, exit 0 when nothing rises" {
	run --separate-stderr rd --replay "$IRDMA" -j counter check --interval 0.01
	assert_success
	jq -e '[.checks[].id] == ["counter.retrans","counter.seq_err","counter.timeout","counter.rnr","counter.cnp",
		"counter.link_downed","counter.symbol_err","counter.pause"]' <<<"$output"
	jq -e '[.checks[] | select(.verdict == "skip") | .id] == ["counter.seq_err","counter.timeout","counter.rnr",
		"counter.link_downed","counter.symbol_err"]' <<<"$output"
	jq -e '.summary.fail == 0 and .summary.pass == 3' <<<"$output"
	run rd --replay "$MLX5" counter check --interval 0.01
	assert_success
	assert_output --partial 'PASS  counter.retrans        mlx5_0/1'
	assert_output --partial '8 pass, 0 warn, 0 fail, 0 skip'
}

@test "check: a total since reset names the kinds it sums, with counter show's names and numbers" {
	local show seq dup
	show=$(rd --replay "$MLX5" -j counter show mlx5_0/1)
	seq=$(jq '.ports[0].retransmission.sequence_errors' <<<"$show")
	dup=$(jq '.ports[0].retransmission.duplicate_requests' <<<"$show")
	run -0 --separate-stderr rd --replay "$MLX5" -j counter check mlx5_0/1 --interval 0.01 --only counter.seq_err
	jq -e --arg m "sequence errors +0 in 0.0 s (0.0/s), $((seq + dup)) since reset (sequence_errors $seq, duplicate_requests $dup); the port was idle" \
		'.checks[0].measured == $m' <<<"$output"
	# a rule of one kind needs no list: ack_timeouts alone
	run -0 --separate-stderr rd --replay "$MLX5" counter check --interval 0.01 --only counter.timeout
	assert_output --regexp 'ACK timeouts \+0 in [0-9.]+ s \(0.0/s\), [0-9]+ since reset; the port was idle'
}

@test "check --list: every rule id with a one-line description, text and JSON, no device read" {
	# no --replay: this host's devices (or none) do not matter
	run -0 --separate-stderr rd counter check --list
	assert_equal "$stderr" ""
	ids=$(rd __tables | jq -r '.objects[] | select(.name == "counter") | .actions[] | select(.name == "check")
		| .options[] | select(.name == "--only") | .choices[]')
	[ "$(awk '{print $1}' <<<"$output")" = "$ids" ]
	for id in $ids; do
		assert_line --regexp "^$id +port +[a-zA-Z].{20,}$"
	done
	run -0 --separate-stderr rd -j counter check --list
	jq -e --arg ids "$ids" '[.checks[].id] == ($ids | split("\n"))
		and all(.checks[]; .scope == "port" and .applies_to == "any" and (.title | length) > 20)' <<<"$output"
	# as link check --list: the same keys
	jq -e --argjson l "$(rd -j link check --list)" '(.checks[0] | keys) == ($l.checks[0] | keys)' <<<"$output"
}

@test "check --only runs those rules alone; --skip leaves them out; ids are checked" {
	run -0 --separate-stderr rd --replay "$IRDMA" -j counter check --interval 0.01 --only counter.retrans,counter.pause
	jq -e '[.checks[].id] == ["counter.retrans","counter.pause"] and .summary.pass == 2' <<<"$output"
	run -0 rd --replay "$MLX5" counter check --interval 0.01 --only counter.cnp
	assert_output --partial 'PASS  counter.cnp            mlx5_0/1'
	assert_line '1 pass, 0 warn, 0 fail, 0 skip'
	run -0 --separate-stderr rd --replay "$MLX5" -j counter check --interval 0.01 --skip counter.cnp,counter.rnr
	jq -e '[.checks[].id] | index("counter.cnp") == null and index("counter.rnr") == null and length == 6' <<<"$output"
	run -2 --separate-stderr rd --replay "$MLX5" counter check --only counter.retrans,counter.bogus
	[[ $stderr == *"--only: unknown value 'counter.bogus' (expected one of: counter.retrans,"* ]]
	[[ $stderr == *"; see them with: rdmadiag counter check --list" ]]
	run -2 --separate-stderr rd --replay "$MLX5" counter check --only counter.rnr --skip counter.rnr
	assert_equal "$stderr" "rdmadiag: counter.rnr is in --only and in --skip; give it in one of them"
}

@test "check --format openmetrics: verdicts as a gauge per verdict, totals per command" {
	run rd --replay "$MLX5" counter check --interval 0.01 --format openmetrics
	assert_success
	"$PROMCHECK" openmetrics <<<"$output"
	assert_line 'rdmadiag_check_verdict{command="counter check",check="counter.retrans",subject="mlx5_0/1",device="mlx5_0",port="1",verdict="pass"} 1'
	assert_line 'rdmadiag_check_verdict{command="counter check",check="counter.retrans",subject="mlx5_0/1",device="mlx5_0",port="1",verdict="fail"} 0'
	assert_line 'rdmadiag_checks{command="counter check",verdict="pass"} 8'
}

@test "usage and selection errors: bad interval exits 2, unknown device or port exits 3" {
	run rd --replay "$MLX5" counter watch --interval abc
	assert_failure 2
	assert_output --partial "--interval: 'abc' is not a number of seconds"
	run rd --replay "$MLX5" counter check --interval 0
	assert_failure 2
	run rd --replay "$MLX5" counter show nosuch0
	assert_failure 3
	assert_output --partial "no RDMA device named 'nosuch0'"
	run rd --replay "$MLX5" counter show mlx5_0/2
	assert_failure 3
	assert_output --partial 'device mlx5_0 has no port 2'
	run rd --replay "$MLX5" counter show a b
	assert_failure 2
}

@test "counter on a host without RDMA exits 3" {
	host_has_rdma && skip "this host has RDMA"
	run rd counter show
	assert_failure 3
	assert_output --partial 'no RDMA support'
}

@test "every counter of the map is in the man page, with its kind" {
	man=$BATS_TEST_DIRNAME/../../Documentation/rdmadiag-counter.8
	n=0
	while IFS=$'\t' read -r name kind; do
		grep -qF -- "$(sed 's/-/\\-/g' <<<"$name")" "$man" || { echo "missing: $name"; return 1; }
		grep -qF -- "$kind" "$man" || { echo "missing kind: $kind"; return 1; }
		n=$((n + 1))
	done < <(rd -j counter map | jq -r '.map[] | [.hw_counter, .kind] | @tsv')
	[ "$n" -gt 80 ]
}

@test "counter-rxe (recorded in the lab after an ib_write_bw): every command replays byte for byte" {
	fx=$FIXTURES/counter-rxe
	count=0
	for cmd in "$fx"/expected/*.cmd; do
		n=$(basename "$cmd" .cmd)
		# shellcheck disable=SC2046
		out=$(rd --replay "$fx" $(cat "$cmd") 2>&1) || out="$out
exit $?"
		diff -u "$fx/expected/$n.out" <(printf '%s\n' "$out")
		count=$((count + 1))
	done
	[ "$count" -ge 6 ]
	# the real kernel's STAT_GET reply: traffic moved and the map saw it
	run --separate-stderr rd --replay "$fx" -j counter show
	jq -e '.ports[0].traffic.tx_packets > 0 and .ports[0].traffic.counters.sent_pkts == .ports[0].traffic.tx_packets' <<<"$output"
	jq -e '.ports[0].traffic.counters | has("sent_pkts") and has("rcvd_pkts")' <<<"$output"
}

@test "watch into a pipe: each interval goes out when it is printed, not when the watch ends" {
	# three 1 s intervals; the first line must reach the reader well before the third
	start=$EPOCHREALTIME
	first=$(rd --replay "$MLX5" counter watch --interval 1 --count 3 --all |
		{ read -r l; echo "$EPOCHREALTIME"; cat >/dev/null; })
	end=$EPOCHREALTIME
	echo "first line after $(awk "BEGIN { print $first - $start }") s, watch ended after $(awk "BEGIN { print $end - $start }") s"
	awk "BEGIN { exit !($first - $start < 2.5 && $end - $start >= 2.9) }"
}
